"""The readable (non ``--json``) forms of the check, solve and suggest reports.

One printer per report, shared by the local commands (``server.cli_commands``) and the
service client (``server.client``), so a report reads the same wherever it came from.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, TextIO, TypeAlias, TypeVar

from route18xx.engine.api import Declared, SuggestReport

#: A report as the engine returns it: a declared report (``to_json()``: its ``--json``
#: object), or (check, solve) a plain dict.
Report: TypeAlias = Mapping[str, Any] | Declared
R = TypeVar("R", bound=Report)

Printer = Callable[[Mapping[str, Any], TextIO], None]


def print_check(report: Mapping[str, Any], out: TextIO) -> None:
    """How each hex path was read (``check --hex-paths``), ``legal``/``illegal``, each
    violation, each route, then the totals."""
    for p in report.get("hex_paths", ()):
        cut = " | ".join("-".join(c) for c in p["connections"]) or "no stop reached twice"
        tail = f"; open {' '.join(p['open'])}" if p["open"] else ""
        print(f"path {p['train']}: {cut} (stops {', '.join(p['nodes']) or '-'}){tail}", file=out)
    print("legal" if report["legal"] else "illegal", file=out)
    for v in report["violations"]:
        print(f"  violation: {v}", file=out)
    for r in report["routes"]:
        print(
            f"  {r['train']}: {'-'.join(r['nodes'])} revenue {r['revenue']} subsidy {r['subsidy']}",
            file=out,
        )
    print(f"revenue {report['revenue']} subsidy {report['subsidy']} "
          f"income {report['revenue'] + report['subsidy']}", file=out)
    c = report.get("comparison")
    if c:
        print(f"optimum: revenue {c['optimal_revenue']} subsidy {c['optimal_subsidy']} "
              f"({c['revenue_difference']:+} revenue, {c['subsidy_difference']:+} subsidy; "
              f"dividend lost {c['revenue_difference']}, treasury lost {c['subsidy_difference']})",
              file=out)
        for t in c["trains"]:
            print(f"  {t['train']}: adds {', '.join(t['added']) or '-'}; drops "
                  f"{', '.join(t['dropped']) or '-'} ({t['revenue_difference']:+}, "
                  f"{t['subsidy_difference']:+})", file=out)


def print_solve(report: Mapping[str, Any], out: TextIO) -> None:
    """The company's optimum, its proof status, and each train's route."""
    proof = "proven optimal" if report["proven_optimal"] else f"not proven (bound {report['bound']})"
    print(
        f"{report['corporation']}: revenue {report['revenue']} subsidy {report['subsidy']} "
        f"({proof}, {report['solve_ms']:.1f} ms); income {report['revenue'] + report['subsidy']}",
        file=out,
    )
    for r in report["routes"]:
        print(f"  {r['train']}: {r['revenue_str']} = {r['revenue']} (+{r['subsidy']})", file=out)
    pinned = report.get("pinned")
    if pinned:
        free = pinned["unpinned"]
        print(f"pinned {', '.join(pinned['trains'])}: cost {pinned['cost']} (without pins: revenue "
              f"{free['revenue']} subsidy {free['subsidy']})", file=out)
    for alt in report.get("alternatives", []):
        print(f"trains {','.join(alt['trains'])}: revenue {alt['revenue']} subsidy {alt['subsidy']}"
              f"{'' if alt['proven_optimal'] else ' (not proven)'}", file=out)
    choice = report.get("objectives")
    if choice:
        print(f"best revenue {choice['revenue']['revenue']}+{choice['revenue']['subsidy']} vs best "
              f"income {choice['total']['revenue']}+{choice['total']['subsidy']}: the best income "
              f"costs {choice['dividend_cost']} dividend, the best revenue "
              f"{choice['treasury_cost']} treasury",
              file=out)


def print_suggest(report: SuggestReport, out: TextIO) -> None:
    """The income without a move, how the ranking went, then the moves best first."""
    print(
        f"{report.corporation}: income without a move {report.base_income}; "
        f"{report.candidates} legal moves ({report.solved} solved, {report.reused} "
        f"reused, {report.pruned} pruned by bound, {len(report.not_evaluated)} not "
        f"evaluated) in {report.elapsed_ms:.0f} ms",
        file=out,
    )
    word = "income (revenue + subsidy)" if report.objective == "total" else "revenue"
    if report.verdict:
        print(f"     {report.verdict}", file=out)
    for rank, s in enumerate(report.suggestions, start=1):
        move = s.move
        also = "".join(f"; or rotation {m.rotation}: {m.text}" for m in s.alternatives)
        print(
            f"{rank:>3}. {move.text or move.hex} (rotation {move.rotation}){also}: "
            f"{word} {s.income} (gain {s.gain:+d}, cost {move.cost})"
            if move.kind == "tile" else
            f"{rank:>3}. {move.text or move.hex}: {word} {s.income} (gain {s.gain:+d}, "
            f"cost {move.cost})",
            file=out,
        )
    for rank, s in enumerate(report.combined, start=1):
        token = s.then_token.text if s.then_token is not None else "no token"
        print(f" +{rank:>2}. {s.move.text}, then {token}: {word} {s.income} "
              f"(gain {s.gain:+d}, cost {s.move.cost})", file=out)
    turn = report.recorded
    if turn is not None:
        did = " + ".join(m.text for m in turn.moves) or "no lay, no token"
        result = (f"{word} {turn.income} (gain {turn.gain:+d})" if turn.income is not None
                  and turn.gain is not None else "not solved")
        print(f"     the player: {did}: {result}", file=out)


def emit(report: R, as_json: bool, printer: Callable[[R, TextIO], None], out: TextIO) -> None:
    """Print ``report`` as one JSON object (a typed report's ``to_json()``) or in its readable form."""
    if as_json:
        data = report if isinstance(report, Mapping) else report.to_json()
        print(json.dumps(data, indent=1), file=out)
    else:
        printer(report, out)
