"""No silent default title below the API door (issue 33, DESIGN.md §10).

Every function of the product that takes a title takes it without a default, the facts
loader is always told which title (``game_data(title)``), and no title is named in code
outside its own folder (``engine/titles/``, with its data in ``engine/data/<title>/``).
A request or a state file names its title: one without is refused, naming ``title``.
Docstrings may name titles; code may not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from route18xx.engine.api import MalformedInput, read_state, solve_routes
from route18xx.engine.titles import TITLES

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "solver", "server", "draw")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def title_defaults(root: Path = ROOT, titles: tuple[str, ...] = tuple(TITLES)) -> list[str]:
    """Every default title in the product under ``root``: a ``title`` parameter with a
    default, a ``game_data()`` call without a title, a title's name in code outside
    ``engine/titles``."""
    names = set(titles) | {alias for t in TITLES.values() for alias in t.aliases}
    found = []
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            where = path.relative_to(root)
            in_titles = where.parts[:2] == ("engine", "titles")
            tree = ast.parse(path.read_text("utf-8"))
            docs = _docstrings(tree)
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    args = node.args
                    positional = args.posonlyargs + args.args
                    defaulted = positional[len(positional) - len(args.defaults):]
                    defaulted += [a for a, d in zip(args.kwonlyargs, args.kw_defaults) if d]
                    if any(a.arg == "title" for a in defaulted):
                        found.append(f"{where}:{node.lineno}: {node.name}(title=...) has a default")
                elif isinstance(node, ast.Call) and not node.args and not node.keywords:
                    func = node.func
                    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                    if name == "game_data":
                        found.append(f"{where}:{node.lineno}: game_data() names no title")
                elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                      and id(node) not in docs and not in_titles):
                    if node.value in names or node.value.split("@")[0] in names:
                        found.append(f"{where}:{node.lineno}: names the title {node.value!r}")
    return found


def test_no_default_title_below_the_door() -> None:
    assert title_defaults() == []


def test_the_check_finds_a_default_title(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "bad.py").write_text(
        '"""Docstrings may say 1888."""\n'
        "def f(title: str = '1888') -> None:\n    '''1830 too.'''\n"
        "def g(*, title: str = 'x') -> None: ...\n"
        "data = game_data()\n"
        "name = '1830'\n"
    )
    for layer in LAYERS[1:]:
        (tmp_path / layer).mkdir()
    found = title_defaults(tmp_path)
    assert sorted(line.split(": ", 1)[1] for line in found) == [
        "f(title=...) has a default", "g(title=...) has a default",
        "game_data() names no title", "names the title '1830'", "names the title '1888'",
    ], found


@pytest.mark.parametrize("missing", [None, ""])
def test_a_state_without_its_title_is_refused_naming_it(missing: object) -> None:
    raw = {"rule_set": "north", "phase": "2", "corporation": "LYR", "trains": ["2"],
           "tiles": [], "tokens": [{"hex": "F16", "city": 0, "corporation": "LYR"}]}
    if missing is not None:
        raw["title"] = missing
    with pytest.raises(MalformedInput) as refused:
        read_state(raw)
    assert refused.value.field == "title"
    assert solve_routes({**raw, "title": "1888"})["revenue"] >= 0  # named, it is read


def test_a_title_with_abilities_outside_route_level_plays_at_route_level_only() -> None:
    """A title's data may name abilities the engine reads without playing (``route_rules.json``
    ``abilities_outside_route_level``: 1882's NWR token move, 1856's port placement): such a
    title never starts a game (``Title.game_level_missing`` or an operating step the engine
    lacks), so no game is played with them ignored."""
    import json

    from route18xx.engine.errors import RouteLevelOnly
    from route18xx.engine.game.game import Game

    for name, title in TITLES.items():
        path = ROOT / "engine" / "data" / name / "route_rules.json"
        rules = json.loads(path.read_text("utf-8")) if path.exists() else {}
        if not rules.get("abilities_outside_route_level"):
            continue
        rule_set = next(iter(title.rule_sets))
        with pytest.raises(RouteLevelOnly):
            Game(rule_set, [1, 2, 3, 4], title=name)
