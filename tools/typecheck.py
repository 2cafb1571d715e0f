"""``mypy --strict`` over the four layers, on any checkout (issue 32).

    .venv/bin/python tools/typecheck.py [mypy options]

mypy finds a module by its path: ``route18xx.engine.board.board`` must be a file
``route18xx/engine/board/board.py`` under one of its search folders. The source tree keeps
each layer's folder at the top of the repository (``engine/``, ``solver/``, ``server/``,
``draw/``; setuptools maps them, see ``pyproject.toml``), so this script lays an untracked
view of the namespace in ``build/typecheck/route18xx`` (one link per layer, made anew each
run), points mypy at it, and writes every path in mypy's answer back as the source path.
The verdict is the same on a fresh clone as in a working tree: the view holds nothing of
its own, and the generated stubs are excluded by ``pyproject.toml``, not by the tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIEW = ROOT / "build" / "typecheck"
#: The namespace's parts: name under ``route18xx`` -> folder in the source tree.
PARTS = {"engine": "engine", "solver": "solver", "server": "server", "draw": "draw",
         "v1": "proto/route18xx/v1"}


def lay_view() -> Path:
    """``build/typecheck/route18xx/<part>`` -> each part's source folder; returns the view."""
    package = VIEW / "route18xx"
    if VIEW.exists():
        shutil.rmtree(VIEW)
    package.mkdir(parents=True)
    for name, folder in PARTS.items():
        (package / name).symlink_to(ROOT / folder, target_is_directory=True)
    return VIEW


def main(argv: list[str]) -> int:
    view = lay_view()
    env = {**os.environ, "MYPYPATH": str(view)}
    done = subprocess.run(
        [sys.executable, "-m", "mypy", *argv], cwd=ROOT, env=env, capture_output=True,
        text=True, check=False,
    )
    prefix = f"{view.relative_to(ROOT)}/route18xx/"
    for name, folder in PARTS.items():
        done_out = done.stdout.replace(f"{prefix}{name}/", f"{folder}/")
        done = subprocess.CompletedProcess(done.args, done.returncode, done_out, done.stderr)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
