"""The layers' import rules (DESIGN.md §1, issue 10): server → engine.api, engine → solver.

Every module under ``server/`` reaches the engine only through its public API
module, ``route18xx.engine.api``; every engine module reaches the solver only
through the package, ``route18xx.solver``. The check walks each module's AST
(imports inside functions and ``TYPE_CHECKING`` blocks included).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in a file; ``from X import y`` gives ``X.y`` and ``X``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative imports would dodge the check
                found.append((node.lineno, "." * node.level + (node.module or "")))
                continue
            module = node.module or ""
            # `from route18xx.engine import api` imports the module route18xx.engine.api
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
    return found


def violations(folder: str, layer: str, allowed: set[str], root: Path = ROOT) -> list[str]:
    """Imports under ``folder`` of ``layer`` (e.g. ``route18xx.engine``) other than ``allowed``."""
    bad = []
    for path in sorted((root / folder).rglob("*.py")):
        for line, module in imported_modules(path):
            if module.startswith("."):
                bad.append(f"{path.relative_to(root)}:{line}: relative import {module}")
                continue
            if module != layer and not module.startswith(layer + "."):
                continue
            if not any(module == a or module.startswith(a + ".") for a in allowed):
                bad.append(f"{path.relative_to(root)}:{line}: {module}")
    return sorted(bad)


def test_server_imports_the_engine_only_through_its_api() -> None:
    assert violations("server", "route18xx.engine", {"route18xx.engine.api"}) == []


def test_engine_imports_the_solver_only_through_its_package() -> None:
    # `from route18xx.solver import X` is seen as route18xx.solver.X: allow the
    # package's exported names, not its submodules.
    import route18xx.solver as solver

    exported = {f"route18xx.solver.{name}" for name in solver.__all__}
    assert violations("engine", "route18xx.solver", exported) == []


def test_the_check_can_fail(tmp_path: Path) -> None:
    """Forbidden imports are found, also inside a function; the API and the package pass."""
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "bad.py").write_text(
        "from route18xx.engine.api import check_routes\n"
        "from route18xx.engine import api\n"
        "def f():\n    from route18xx.engine.errors import MalformedInput\n"
        "import route18xx.engine.replay\n"
    )
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "bad.py").write_text(
        "from route18xx.solver import solve\nfrom route18xx.solver.reduce import reduce_problem\n"
    )
    assert violations("server", "route18xx.engine", {"route18xx.engine.api"}, tmp_path) == [
        "server/bad.py:4: route18xx.engine.errors.MalformedInput",
        "server/bad.py:5: route18xx.engine.replay",
    ]
    assert violations("engine", "route18xx.solver", {"route18xx.solver.solve"}, tmp_path) == [
        "engine/bad.py:2: route18xx.solver.reduce.reduce_problem",
    ]


@pytest.mark.parametrize("folder", ["server", "engine"])
def test_no_relative_imports(folder: str) -> None:
    assert not [v for v in violations(folder, "route18xx", {"route18xx"}) if "relative" in v]
