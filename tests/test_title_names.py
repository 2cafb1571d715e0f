"""No 1888 name outside its title module (issue 25: "a test fails if product code outside
the title modules names an 1888 hex, private or company").

Product code (``engine/``, ``server/``, ``draw/``, ``solver/``; the title modules under
``engine/titles/`` and the data files excepted) is scanned token by token: a string literal
that is not a docstring must not hold an 1888 hex id, private or company symbol or name,
and no identifier (nor a string) may spell a private's or company's name (``heng_shan_…``). The names come
from 1888's own data (``engine/data/1888``), so a new fact is covered at once.

Every 1888 fact outside its data lives in ``engine/titles/t1888.py`` (1888's hooks, its
state-file alias ``heng_shan_player_owned``, its warm-up state and error-text examples).
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "engine" / "data" / "1888"


def _names() -> tuple[re.Pattern[str], frozenset[str], frozenset[str]]:
    hexes = {h["id"] for h in json.loads((DATA / "map.json").read_text("utf-8"))["hexes"]}
    companies = json.loads((DATA / "companies.json").read_text("utf-8"))["north"]
    corps = json.loads((DATA / "corporations.json").read_text("utf-8"))["corporations"]
    symbols = {c["sym"] for c in companies} | {c["sym"] for c in corps}
    names = frozenset(c["name"] for c in (*companies, *corps))
    words = re.compile(r"\b(" + "|".join(sorted(hexes | symbols, key=len, reverse=True)) + r")\b")
    idents = {re.sub(r"\W+", "_", n.lower()) for n in names}
    idents |= {"_".join(n.split("_")[:2]) for n in idents}  # heng_shan, great_wall, forbidden_city
    return words, names, frozenset(i for i in idents if "_" in i or len(i) > 6)


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.add(first.value.lineno)
    return lines


def names_in(path: Path) -> list[str]:
    """``line: name`` for every 1888 name in the code of ``path``."""
    words, names, idents = _names()
    source = path.read_text("utf-8")
    docs = _docstring_lines(ast.parse(source))
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        line = tok.start[0]
        if tok.type == tokenize.STRING and line not in docs:
            found += [f"{line}: {m}" for m in words.findall(tok.string)]
            found += [f"{line}: {n}" for n in names if n in tok.string]
            found += [f"{line}: {i}" for i in idents if i in tok.string.lower()]
        elif tok.type == tokenize.NAME:
            found += [f"{line}: {tok.string}" for i in idents if i in tok.string.lower()]
    return found


def product_files() -> list[Path]:
    return [
        p for folder in ("engine", "server", "draw", "solver")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if "titles" not in p.relative_to(ROOT).parts
    ]


def test_no_1888_name_outside_the_title_modules() -> None:
    found = {
        path.relative_to(ROOT).as_posix(): names
        for path in product_files()
        if (names := names_in(path))
    }
    assert found == {}, "1888 names outside engine/titles (move them behind the title seam)"


def test_the_scan_finds_a_name(tmp_path: Path) -> None:
    """The scan is not blind: a literal hex, a private's symbol and name are found, and
    a name spelled as an identifier, in code or in a string (a field name)."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""C9 in a docstring is fine."""\nX = ["C9", "HS"]\nheng_shan = "Heng Shan"\n'
                      'Y = {"great_wall": 1}\n', "utf-8")
    found = names_in(sample)
    assert found == ["2: C9", "2: HS", "3: heng_shan", "3: Heng Shan", "4: great_wall"]
