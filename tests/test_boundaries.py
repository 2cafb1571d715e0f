"""The layers' import rules (DESIGN.md §1, issue 32), as import-linter contracts.

The contracts live in ``pyproject.toml`` (``[tool.importlinter]``): imports point one way
(front ends → pictures → engine → solver); the front ends and the pictures reach the engine
only through ``route18xx.engine.api``; the engine reaches the solver only through its
package; no import cycles between the modules of a folder or between folders.
import-linter reads the source tree (imports inside functions included; imports only for
type checking left out, as they never run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


LINT = Path(sys.executable).parent / "lint-imports"


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT), "--no-cache"], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_the_import_contracts_hold() -> None:
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" not in done.stdout.lower().replace("0 broken", "")


def test_the_contracts_can_fail(tmp_path: Path) -> None:
    """A forbidden import and a cycle in a tree laid out as ours are reported as broken."""
    for layer in ("engine", "solver"):
        (tmp_path / "tree" / "fake18xx" / layer).mkdir(parents=True)
        (tmp_path / "tree" / "fake18xx" / layer / "__init__.py").write_text("")
    tree = tmp_path / "tree" / "fake18xx"
    (tree / "solver" / "inner.py").write_text("import fake18xx.engine.api\n")
    (tree / "engine" / "api.py").write_text("from fake18xx.engine import other\n")
    (tree / "engine" / "other.py").write_text("def f():\n    from fake18xx.engine import api\n")
    config = tmp_path / "contracts.toml"
    config.write_text(textwrap.dedent("""
        [tool.importlinter]
        root_packages = ["fake18xx.engine", "fake18xx.solver"]
        [[tool.importlinter.contracts]]
        name = "layers"
        type = "layers"
        layers = ["fake18xx.engine", "fake18xx.solver"]
        [[tool.importlinter.contracts]]
        name = "cycles"
        type = "acyclic_siblings"
        ancestors = ["fake18xx.engine"]
    """))
    done = subprocess.run(
        [str(LINT), "--no-cache", "--config", str(config)], cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "tree")},
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode != 0
    assert "layers BROKEN" in done.stdout and "cycles BROKEN" in done.stdout, done.stdout
    shutil.rmtree(tmp_path / "tree")
