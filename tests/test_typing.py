"""STYLE.md §8: the packages type-check under ``mypy --strict`` (config in pyproject.toml).

``tools/typecheck.py`` runs mypy over an untracked view of the ``route18xx`` namespace, so a
fresh clone and a working tree get the same verdict (issue 32).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_layer_passes_mypy_strict() -> None:
    pytest.importorskip("mypy", reason="mypy is a test extra: `make test` installs it")
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "typecheck.py"), "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
