"""Every citation of the project's documents in the code resolves to a real section.

Docstrings and comments name the rule they encode by section (STYLE.md §9):
"RULES.md §6.5 #3", "1830 RULES.md §7.3", "DESIGN.md §5", "ROUTES.md §1.3, §3.3, §3.5". This
test scans the Python sources for such citations and checks that the cited file exists under
``docs/`` and has a Markdown heading for each cited section number.

Where a citation points:

* ``RULES``, ``ROUTES``, ``HISTORY``, ``ACTIONS`` with no title, or with ``1888`` before
  them → ``docs/rules/1888/<DOC>.md``; with ``1830`` before them → ``docs/rules/1830/<DOC>.md``;
* ``DESIGN.md`` → ``docs/DESIGN.md``; ``STYLE.md`` → ``docs/STYLE.md``.

A section ``§6`` is found by a heading whose text starts with ``6`` followed by a dot (not
followed by a digit), a space or the end: ``## 6. Operating round`` resolves ``§6`` and
``### 6.5 Track`` resolves ``§6.5``, but ``### 6.5 Track`` does not resolve ``§6``. A list item
(``#3``) is read and kept with its section; only the section is checked.

The scanner needs no part of route18xx; the repository root is this file's parent's parent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import pytest

ROOT: Path = Path(__file__).resolve().parents[1]

#: The folders whose ``.py`` files are scanned, relative to the repository root.
SCANNED: tuple[str, ...] = ("engine", "solver", "server", "draw", "tools", "benchmarks", "tests")

#: The documents a citation may name, and whether each belongs to a title.
TITLED_DOCS: frozenset[str] = frozenset({"RULES", "ROUTES", "HISTORY", "ACTIONS"})
PROJECT_DOCS: frozenset[str] = frozenset({"DESIGN", "STYLE"})

#: A document's name with an optional title before it ("1830 RULES.md", or "1888/HISTORY.md" as
#: a path reads) and optional reST backticks after it (``DESIGN.md``), then the gap up to the
#: first "§": blanks, or a line break followed by the next line's indentation and comment marker
#: ("#" or "#:").
DOC_NAME = re.compile(
    r"(?:(?<![\w.])(?P<title>1830|1888)[ /])?"
    r"(?<![\w])(?P<doc>RULES|ROUTES|HISTORY|ACTIONS|DESIGN|STYLE)\.md`{0,2}"
    r"(?P<gap>(?:[ \t]|\n[ \t]*(?:#:?[ \t])?)*)(?=§\d)"
)

#: One reference after a document's name: a section ("§6.5") or a list item ("#3"), preceded by
#: what may join references of one list: blanks, commas, a range dash, "and", "or", "then", or a
#: line break with the next line's comment marker.
NEXT_REF = re.compile(
    r"(?P<sep>(?:[ \t,\-–—]|\n[ \t]*(?:#:?[ \t])?|\band\b|\bor\b|\bthen\b)*?)"
    r"(?:§(?P<section>\d+(?:\.\d+)*)|#(?P<item>\d+))"
)

#: A Markdown ATX heading: its text.
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(?P<text>.*?)[ \t#]*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")


@dataclass(frozen=True)
class Citation:
    """One cited section: where it is cited, which document, which section (and list item)."""

    source: Path
    line: int
    title: str | None
    doc: str
    section: str
    item: int | None = None

    @property
    def where(self) -> str:
        """``path:line`` of the citation, relative to the repository root when it is inside it."""
        try:
            shown = self.source.relative_to(ROOT)
        except ValueError:
            shown = self.source
        return f"{shown}:{self.line}"

    @property
    def text(self) -> str:
        """The citation as a reader would write it, e.g. ``1830 RULES.md §7.3 #2``."""
        prefix = f"{self.title} " if self.title else ""
        suffix = f" #{self.item}" if self.item is not None else ""
        return f"{prefix}{self.doc}.md §{self.section}{suffix}"


def doc_path(docs_root: Path, title: str | None, doc: str) -> Path:
    """The file a citation of ``doc`` (with the title written before it, if any) points at.

    ``RULES``, ``ROUTES``, ``HISTORY`` and ``ACTIONS`` belong to a title: 1830 when the citation
    says so, else 1888 (the first title, cited without a prefix). ``DESIGN`` and ``STYLE`` are the
    project's own and live at the top of ``docs/``.
    """
    if doc in PROJECT_DOCS:
        return docs_root / f"{doc}.md"
    if doc not in TITLED_DOCS:
        raise ValueError(f"not a cited document: {doc!r}")
    return docs_root / "rules" / (title or "1888") / f"{doc}.md"


def citations_in(text: str, source: Path) -> Iterator[Citation]:
    """Every cited section in ``text``, in order, with the line it is written on.

    After a document's name, references follow one another as long as only separators stand
    between them ("§6.5, §7", "§7.2-§7.5", "§6.5 #2, #4, §7", "§6.5 then §6.6"); a list item
    belongs to the section before it. Anything else ends the list ("§3, issue 10 #5" cites §3).
    """
    for name in DOC_NAME.finditer(text):
        title, doc = name.group("title"), name.group("doc")
        pos = name.end()
        section: str | None = None
        while True:
            ref = NEXT_REF.match(text, pos)
            if ref is None:
                break
            pos = ref.end()
            at = ref.start("section") if ref.group("section") is not None else ref.start("item")
            line = text.count("\n", 0, at) + 1
            if ref.group("section") is not None:
                section = ref.group("section")
                yield Citation(source, line, title, doc, section)
            elif section is not None:
                yield Citation(source, line, title, doc, section, int(ref.group("item")))


def headings(markdown: str) -> list[str]:
    """The text of every ATX heading of a Markdown file, fenced code blocks left out."""
    found: list[str] = []
    fenced: str | None = None
    for line in markdown.splitlines():
        fence = FENCE.match(line)
        if fence:
            if fenced is None:
                fenced = fence.group(1)
            elif fence.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            heading = HEADING.match(line)
            if heading:
                found.append(heading.group("text"))
    return found


def has_section(heading_texts: Iterable[str], section: str) -> bool:
    """Whether a heading's text starts with ``section`` then a lone dot, a blank or the end."""
    pattern = re.compile(rf"{re.escape(section)}(?:\.(?!\d)|\s|$)")
    return any(pattern.match(text) for text in heading_texts)


def python_files(root: Path, folders: Iterable[str] = SCANNED) -> list[Path]:
    """Every ``.py`` file under the given folders of ``root``, sorted, caches left out."""
    files: list[Path] = []
    for folder in folders:
        base = root / folder
        if base.is_dir():
            files.extend(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)
    return sorted(files)


def unresolved(citations: Iterable[Citation], docs_root: Path) -> list[str]:
    """One message per cited section whose file is missing or has no heading for it.

    A list item ("§6.5 #3") is checked through its section, which ``citations_in`` yields
    first on its own.
    """
    cache: dict[Path, list[str] | None] = {}
    failures: list[str] = []
    for cite in citations:
        if cite.item is not None:
            continue  # its section comes just before it, without the item: checked once
        target = doc_path(docs_root, cite.title, cite.doc)
        if target not in cache:
            exists = target.is_file()
            cache[target] = headings(target.read_text(encoding="utf-8")) if exists else None
        texts = cache[target]
        try:
            shown = target.relative_to(docs_root.parent)
        except ValueError:
            shown = target
        if texts is None:
            failures.append(f"{cite.where}: {cite.text} -> {shown} does not exist")
        elif not has_section(texts, cite.section):
            failures.append(
                f"{cite.where}: {cite.text} -> {shown} has no heading for §{cite.section}"
            )
    return failures


def scan(root: Path, folders: Iterable[str] = SCANNED) -> list[Citation]:
    """Every citation in the Python files of ``root``'s scanned folders."""
    found: list[Citation] = []
    for path in python_files(root, folders):
        found.extend(citations_in(path.read_text(encoding="utf-8"), path))
    return found


# -- the scanner on small examples: it finds what it should and can fail -----------------------


def test_reads_prefixes_lists_ranges_and_items() -> None:
    """Title prefixes, comma lists, ranges, list items and a citation broken across lines."""
    text = (
        '"""Lay a tile (RULES.md §6.5 #2, #4, §7; 1830 RULES.md §7.2-§7.5).\n'
        "See DESIGN.md §3, issue 10 #5, and STYLE.md §1, §5; reference/1888/HISTORY.md §2.\n"
        '"""\n'
        "    # the reach (1830 ROUTES.md\n"
        "    # §1.3, §3.3) ends here\n"
    )
    got = [(c.line, c.title, c.doc, c.section, c.item) for c in citations_in(text, Path("x.py"))]
    assert got == [
        (1, None, "RULES", "6.5", None),
        (1, None, "RULES", "6.5", 2),
        (1, None, "RULES", "6.5", 4),
        (1, None, "RULES", "7", None),
        (1, "1830", "RULES", "7.2", None),
        (1, "1830", "RULES", "7.5", None),
        (2, None, "DESIGN", "3", None),
        (2, None, "STYLE", "1", None),
        (2, None, "STYLE", "5", None),
        (2, "1888", "HISTORY", "2", None),
        (5, "1830", "ROUTES", "1.3", None),
        (5, "1830", "ROUTES", "3.3", None),
    ]


def test_maps_documents_to_files(tmp_path: Path) -> None:
    """Titled documents go under docs/rules/<title>/ (1888 by default), the project's to docs/."""
    docs = tmp_path / "docs"
    assert doc_path(docs, None, "RULES") == docs / "rules" / "1888" / "RULES.md"
    assert doc_path(docs, "1888", "HISTORY") == docs / "rules" / "1888" / "HISTORY.md"
    assert doc_path(docs, "1830", "ACTIONS") == docs / "rules" / "1830" / "ACTIONS.md"
    assert doc_path(docs, None, "DESIGN") == docs / "DESIGN.md"
    assert doc_path(docs, "1830", "STYLE") == docs / "STYLE.md"


def test_section_matching() -> None:
    """§6 needs a heading "6." / "6 ..."; "6.5 Track" resolves §6.5 but not §6 or §6.50."""
    texts = headings(
        "# Title\n\n## 6. Operating round\n\n### 6.5 Track\n\n```\n## 9. in a fence\n```\n## 10\n"
    )
    assert texts == ["Title", "6. Operating round", "6.5 Track", "10"]
    assert has_section(texts, "6")
    assert has_section(texts, "6.5")
    assert has_section(texts, "10")
    assert not has_section(texts, "6.50")
    assert not has_section(texts, "9")
    assert not has_section(["6.5 Track"], "6")
    assert not has_section(["16. Other"], "6")


def test_a_broken_citation_is_reported(tmp_path: Path) -> None:
    """A synthetic tree: one citation resolves, one names a missing section, one a missing file."""
    (tmp_path / "docs" / "rules" / "1830").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "1830" / "RULES.md").write_text(
        "# 1830\n\n## 7. Private abilities\n\n### 7.3 DH\n", encoding="utf-8"
    )
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "m.py").write_text(
        '"""DH teleport (1830 RULES.md §7.3).\n\n'
        'MH exchange (1830 RULES.md §7.4); DESIGN.md §1."""\n',
        encoding="utf-8",
    )
    found = scan(tmp_path, ("engine",))
    assert [c.text for c in found] == [
        "1830 RULES.md §7.3",
        "1830 RULES.md §7.4",
        "DESIGN.md §1",
    ]
    failures = unresolved(found, tmp_path / "docs")
    assert len(failures) == 2
    missing_section = "1830 RULES.md §7.4 -> docs/rules/1830/RULES.md has no heading for §7.4"
    assert f"m.py:3: {missing_section}" in failures[0]
    assert "m.py:3: DESIGN.md §1 -> docs/DESIGN.md does not exist" in failures[1]


# -- the repository ------------------------------------------------------------------------------


def test_the_scan_finds_citations() -> None:
    """The sources cite the documents (a scanner that finds nothing would pass vacuously)."""
    found = scan(ROOT)
    assert len(found) > 100
    assert {c.doc for c in found} >= {"RULES", "ROUTES", "DESIGN", "STYLE"}


def test_every_citation_resolves() -> None:
    """Each cited document exists in docs/ and has a heading for each cited section.

    This file is left out: its examples are about the scanner, not citations of the rules.
    """
    this_file = Path(__file__).resolve()
    cited = [c for c in scan(ROOT) if c.source.resolve() != this_file]
    failures = unresolved(cited, ROOT / "docs")
    if failures:
        report = f"{len(failures)} unresolved citation(s):\n" + "\n".join(failures)
        pytest.fail(report, pytrace=False)
