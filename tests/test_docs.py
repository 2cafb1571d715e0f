"""The README is a front door and ``docs/`` the manual, built strictly (issue 32, item 5).

The manual is built with MkDocs (Material) from ``mkdocs.yml`` with ``--strict``: a link to a
page or an anchor that does not exist is a warning, and a warning fails the build. The README
stays short (at most 300 lines) and its relative links point at files that exist.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit


ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: Inline links and images, ``[text](target)`` / ``![alt](target "title")``.
_INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: Reference definitions, ``[label]: target``.
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
#: Fenced code blocks, whose text is not Markdown.
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def test_the_manual_builds_strictly(tmp_path: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_the_readme_is_at_most_300_lines() -> None:
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move the detail to docs/"


def _relative_links(text: str) -> list[str]:
    text = _FENCE.sub("", text)
    targets = _INLINE.findall(text) + _REFERENCE.findall(text)
    out = []
    for target in targets:
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or target.startswith("#"):
            continue  # a web address, or an anchor of the README itself
        out.append(unquote(parts.path))
    return out


def test_every_relative_link_of_the_readme_exists() -> None:
    links = _relative_links(README.read_text("utf-8"))
    assert links, "the README links into docs/"
    missing = [link for link in links if not (README.parent / link).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"


def test_the_link_reader_finds_what_it_should() -> None:
    text = (
        "See [a](docs/a.md#x), ![pic](docs/p.png \"t\"), [web](https://x.org/y), [me](#top)\n"
        "[ref]: docs/r.md\n```sh\n[not](a link.md)\n```\n"
    )
    assert _relative_links(text) == ["docs/a.md", "docs/p.png", "docs/r.md"]
