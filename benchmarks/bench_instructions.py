"""Machine instructions per first-seen state, this tree vs another checkout (issue 21).

    .venv/bin/python -m benchmarks.bench_instructions [OTHER_CHECKOUT] [part ...]

CPU time on a shared machine moves by ±30 % with the load; the number of machine
instructions a part executes does not. Each part runs under valgrind's callgrind
(``valgrind`` must be installed) in a fresh process per checkout, counting only
inside one ``functools.reduce`` over the 123 real states of ``tests/data/states``
(``--toggle-collect=functools_reduce``: imports, game data and the warm-up are not
counted), with ``PYTHONHASHSEED=0`` so that a second run gives the same count:

* ``build``: ``build_problem`` of each state, on boards parsed beforehand (fresh:
  nothing of the board worked out);
* ``reach``: the company's ``reach`` on fresh boards;
* ``parse``: ``parse_state`` of each state;
* ``whole``: ``engine.api.solve_report`` of each state with the caches emptied
  before it (``route18xx.solver.clear_caches``): a first-seen answer, CP-SAT's C++
  included.

It prints each part's instructions per state (millions) on both sides and the ratio.
The other checkout is imported through ``PYTHONPATH`` (its ``proto`` and root), so a
tree from before this file works as well.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("build", "reach", "parse", "whole")


def _inner(part: str) -> None:
    """The measured process: warm up, then one ``functools.reduce`` over the states."""
    import functools
    import json

    import route18xx.solver as solver
    from route18xx.engine.api import solve_report
    from route18xx.engine.board.network import reach
    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state

    raws = [json.loads(p.read_text())["state"]
            for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))]
    for raw in raws:
        solve_report(raw)
        build_problem(parse_state(raw))
    states = [parse_state(raw) for raw in raws]

    def whole(_: object, raw: Any) -> None:
        solver.clear_caches()
        solve_report(raw)

    steps: dict[str, tuple[Callable[[Any, Any], Any], list[Any]]] = {
        "build": (lambda _, s: build_problem(s), states),
        "reach": (lambda _, s: reach(s.board, s.corporation.sym), states),
        "parse": (lambda _, raw: parse_state(raw), raws),
        "whole": (whole, raws),
    }
    step, items = steps[part]
    functools.reduce(step, items, None)


def count(checkout: Path, part: str) -> float:
    """Instructions per state (millions) of ``part`` in ``checkout``."""
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=f"{checkout / 'proto'}{os.pathsep}{checkout}")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         "--collect-atstart=no", "--toggle-collect=functools_reduce",
         sys.executable, __file__, "--inner", part],
        env=env, capture_output=True, text=True, check=True,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    assert found, out.stderr[-2000:]
    states = len(list((ROOT / "tests" / "data" / "states").glob("*.json")))
    return int(found.group(1)) / states / 1e6


def main(argv: list[str]) -> None:
    if argv[:1] == ["--inner"]:
        _inner(argv[1])
        return
    other = Path(argv[0]) if argv and argv[0] not in PARTS else None
    parts = [a for a in argv if a in PARTS] or list(PARTS)
    for part in parts:
        this = count(ROOT, part)
        if other is None:
            print(f"{part:6} this {this:.3f} M instructions/state")
            continue
        theirs = count(other, part)
        print(f"{part:6} this {this:.3f}  other {theirs:.3f} M instructions/state"
              f"  ratio {this / theirs:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
