"""The engine's command-line commands: ``check`` and ``solve`` (DESIGN.md §5).

Each returns an exit status: 0 when it judged / solved the input (legal or
not), 2 with a message naming the field when a file is malformed. The
``route18xx`` console script (``server.cli``) wires these to argparse.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from engine.errors import MalformedInput

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def read_json(path: str, field: str) -> Any:
    """Read a JSON file or raise ``MalformedInput`` naming the file and the reason."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        raise MalformedInput(field, f"file {path!r} does not exist") from None
    except json.JSONDecodeError as exc:
        raise MalformedInput(field, f"{path!r} is not valid JSON: {exc}") from None
    except OSError as exc:
        raise MalformedInput(field, f"cannot read {path!r}: {exc.strerror}") from None


def _fail(exc: MalformedInput, err: TextIO) -> int:
    print(f"error: {exc}", file=err)
    return EXIT_BAD_INPUT


def check_command(
    state_path: str, routes_path: str, as_json: bool, out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``route18xx check STATE.json ROUTES.json [--json]``."""
    from engine.api import check_routes

    out, err = out or sys.stdout, err or sys.stderr

    try:
        state = read_json(state_path, "STATE.json")
        routes = read_json(routes_path, "ROUTES.json")
        report = check_routes(state, routes)
    except MalformedInput as exc:
        return _fail(exc, err)
    if as_json:
        print(json.dumps(report, indent=1), file=out)
        return EXIT_OK
    print("legal" if report["legal"] else "illegal", file=out)
    for v in report["violations"]:
        print(f"  violation: {v}", file=out)
    for r in report["routes"]:
        print(
            f"  {r['train']}: {'-'.join(r['nodes'])} revenue {r['revenue']} subsidy {r['subsidy']}",
            file=out,
        )
    print(f"revenue {report['revenue']} subsidy {report['subsidy']}", file=out)
    return EXIT_OK


def solve_command(
    state_path: str,
    as_json: bool,
    objective: str = "total",
    time_limit_s: float = 10.0,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``route18xx solve STATE.json [--json] [--objective total|revenue] [--time-limit S]``."""
    from engine.api import solve_routes

    out, err = out or sys.stdout, err or sys.stderr

    try:
        state = read_json(state_path, "STATE.json")
        report = solve_routes(state, objective=objective, time_limit_s=time_limit_s)
    except MalformedInput as exc:
        return _fail(exc, err)
    if as_json:
        print(json.dumps(report, indent=1), file=out)
        return EXIT_OK
    proof = "proven optimal" if report["proven_optimal"] else f"not proven (bound {report['bound']})"
    print(
        f"{report['corporation']}: revenue {report['revenue']} subsidy {report['subsidy']} "
        f"({proof}, {report['solve_ms']:.1f} ms)",
        file=out,
    )
    for r in report["routes"]:
        print(f"  {r['train']}: {r['revenue_str']} = {r['revenue']} (+{r['subsidy']})", file=out)
    return EXIT_OK


def suggest_command(
    state_path: str,
    as_json: bool,
    top: int = 10,
    include_tokens: bool = False,
    subtract_cost: bool = False,
    objective: str = "total",
    time_limit_s: float = 30.0,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``route18xx suggest STATE.json [--top N] [--json] [--tokens] [--subtract-cost]``."""
    from engine.api import suggest_moves

    out, err = out or sys.stdout, err or sys.stderr
    try:
        state = read_json(state_path, "STATE.json")
        report = suggest_moves(
            state,
            top=top,
            include_tokens=include_tokens,
            subtract_cost=subtract_cost,
            objective=objective,
            time_limit_s=time_limit_s,
        )
    except MalformedInput as exc:
        return _fail(exc, err)
    if as_json:
        print(json.dumps(report, indent=1), file=out)
        return EXIT_OK
    print(
        f"{report['corporation']}: income without a move {report['base_income']}; "
        f"{report['candidates']} legal moves ({report['solved']} solved, {report['reused']} "
        f"reused, {report['pruned']} pruned by bound, {len(report['not_evaluated'])} not "
        f"evaluated) in {report['elapsed_ms']:.0f} ms",
        file=out,
    )
    for rank, s in enumerate(report["suggestions"], start=1):
        where = f"{s['tile']} on {s['hex']} rotation {s['rotation']}" if s["kind"] == "tile" else (
            f"token on {s['hex']}-{s['city']}"
        )
        print(
            f"{rank:>3}. {where}: income {s['income']} (gain {s['gain']:+d}, cost {s['cost']})",
            file=out,
        )
    return EXIT_OK
