"""What the benchmark files share: a call's median time, the summaries written to
``.benchmarks/``, and a script's own arguments apart from those it passes to ``route18xx
serve``. Standard library only: scripts that run in fresh processes import it too."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
#: Where the benchmarks write their summaries (git ignores it).
SUMMARIES = ROOT / ".benchmarks"

T = TypeVar("T")


def median_ms(fn: Callable[[], T], runs: int,
              clock: Callable[[], float] = time.perf_counter) -> tuple[float, T]:
    """``fn`` called ``runs`` times: the median time of a call in ms of ``clock`` (wall
    time, or ``time.process_time`` for process CPU), and the last call's result."""
    times = []
    for _ in range(runs):
        started = clock()
        result = fn()
        times.append((clock() - started) * 1000)
    return statistics.median(times), result


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (0 ≤ q ≤ 1): the nearest value in sorted order."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def write_summary(name: str, summary: Any, indent: int = 1) -> Path:
    """``summary`` as JSON in ``.benchmarks/<name>``; the file's path."""
    SUMMARIES.mkdir(exist_ok=True)
    path = SUMMARIES / name
    path.write_text(json.dumps(summary, indent=indent) + "\n")
    return path


def split_serve_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """A command line's own arguments, and the ones after ``--`` (for ``route18xx serve``)."""
    args = list(argv)
    if "--" not in args:
        return args, []
    return args[: args.index("--")], args[args.index("--") + 1:]
