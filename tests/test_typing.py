"""STYLE.md §8: the packages type-check under ``mypy --strict`` (config in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_engine_and_solver_pass_mypy_strict() -> None:
    pytest.importorskip("mypy", reason="mypy is a test extra: `make test` installs it")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
