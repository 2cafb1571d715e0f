"""The ``route18xx replay`` and ``route18xx state`` commands (DESIGN.md §5), and
``solve``/``check``/``suggest`` on a game log (``--game GAME.json --action ID``).

Plain functions returning an exit status, for the command-line front end to
wire up; they print to stdout (results) and stderr (problems). The log forms
print exactly what ``engine.cli`` prints for the state file of that moment
(``route18xx state GAME.json --action ID --json``), plus, for ``suggest``, the
turn facts the log knows (cash, privates, Heng Shan's owner, lays this turn).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from engine.errors import MalformedInput, Route18xxError
from engine.replay import load_log, replay, replay_report, state_before
from engine.state_file import RouteState

EXIT_OK = 0
EXIT_BAD_INPUT = 2

#: The optimum hook: a ``RouteState`` in, an ``engine.api.solve_routes``-shaped dict out.
Solver = Callable[[RouteState], Mapping[str, Any]]


def api_solver(objective: str = "total", time_limit_s: float = 10.0) -> Solver:
    """The optimum hook backed by ``engine.api.solve_routes`` (imported only when used)."""

    def solve(state: RouteState) -> Mapping[str, Any]:
        from engine.api import solve_routes

        return solve_routes(state, objective=objective, time_limit_s=time_limit_s)

    return solve


def replay_command(path: str, as_json: bool, solve: Solver | None = None) -> int:
    """Replay a game log; print the DESIGN.md §5 replay object (``--json``) or a summary.

    Exit status 0 when the replay completed (whatever the scores), 1 when an
    action could not be replayed, 2 when the file is not a readable 1888 log.
    ``solve`` fills the optimum fields of each run (e.g. ``api_solver()``); without
    it they are null.
    """
    try:
        log = load_log(path)
        result = replay(log, solve=solve)
    except MalformedInput as exc:
        print(f"route18xx replay: {exc}", file=sys.stderr)
        return 2
    report = replay_report(result)
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        _print_summary(report, result.seconds, result.game.relabelled)
    for error in result.errors:
        print(f"route18xx replay: {error}", file=sys.stderr)
    return 0 if result.completed else 1


def state_command(path: str, action_id: int, as_json: bool, turn_facts: bool = False) -> int:
    """Print the state file (DESIGN.md §5) just before action ``action_id`` of a log.

    ``turn_facts`` adds the optional turn fields (cash, privates, …) the log knows.
    """
    try:
        log = load_log(path)
        state = state_before(log, action_id, turn_facts=turn_facts)
    except Route18xxError as exc:
        print(f"route18xx state: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(state, indent=2))
    else:
        print(
            f"{state['title']} ({state['rule_set']}), phase {state['phase']}, "
            f"{state['corporation']} runs {', '.join(state['trains']) or 'no trains'}"
        )
        print("tiles: " + ", ".join(f"{t['hex']}={t['tile']}/{t['rotation']}" for t in state["tiles"]))
        print("tokens: " + ", ".join(f"{t['corporation']}@{t['hex']}-{t['city']}" for t in state["tokens"]))
        if turn_facts:
            laid = ", ".join(
                t["hex"] + (f" ({t['private']})" if "private" in t else "") for t in state["tiles_laid"]
            )
            print(
                f"cash: {state['cash']}; privates: {', '.join(state['privates']) or 'none'}; "
                f"Heng Shan player-owned: {state['heng_shan_player_owned']}; "
                f"laid this turn: {laid or 'nothing'}"
            )
    return 0


# -- solve / check / suggest on a log (--game GAME.json --action ID) ------------------


def log_state(game_path: str, action_id: int) -> RouteState:
    """The state (with turn facts) just before ``action_id`` of the log at ``game_path``."""
    from engine.api import state_from_log

    return state_from_log(load_log(game_path), action_id)


def _fail(exc: MalformedInput, err: TextIO) -> int:
    print(f"error: {exc}", file=err)
    return EXIT_BAD_INPUT


def solve_log_command(
    game_path: str, action_id: int, as_json: bool, objective: str = "total",
    time_limit_s: float = 10.0, out: TextIO | None = None, err: TextIO | None = None,
) -> int:
    """``route18xx solve --game GAME.json --action ID``: the optimum just before that action."""
    from engine.api import solve_routes

    out, err = out or sys.stdout, err or sys.stderr
    try:
        report = solve_routes(
            log_state(game_path, action_id), objective=objective, time_limit_s=time_limit_s
        )
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


def check_log_command(
    game_path: str, action_id: int, routes_path: str, as_json: bool,
    out: TextIO | None = None, err: TextIO | None = None,
) -> int:
    """``route18xx check --game GAME.json --action ID ROUTES.json``: judge routes then."""
    from engine.api import check_routes
    from engine.cli import read_json

    out, err = out or sys.stdout, err or sys.stderr
    try:
        state = log_state(game_path, action_id)
        report = check_routes(state, read_json(routes_path, "ROUTES.json"))
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


def suggest_log_command(
    game_path: str, action_id: int, as_json: bool, top: int = 10, include_tokens: bool = False,
    subtract_cost: bool = False, objective: str = "total", time_limit_s: float = 30.0,
    out: TextIO | None = None, err: TextIO | None = None,
) -> int:
    """``route18xx suggest --game GAME.json --action ID``: rank the moves of that turn."""
    from engine.api import suggest_moves

    out, err = out or sys.stdout, err or sys.stderr
    try:
        report = suggest_moves(
            log_state(game_path, action_id), top=top, include_tokens=include_tokens,
            subtract_cost=subtract_cost, objective=objective, time_limit_s=time_limit_s,
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


def _print_summary(report: Mapping[str, Any], seconds: float, relabelled: list[str]) -> None:
    runs = report["run_routes"]
    agree = sum(
        1
        for r in runs
        if r["recorded_legal"]
        and r["engine_revenue"] == r["recorded_revenue"]
        and r["engine_subsidy"] == r["recorded_subsidy"]
    )
    print(f"{report['title']} ({report['rule_set']}): replayed in {seconds:.2f}s")
    print(f"final scores:    {report['final_scores']}")
    print(f"recorded result: {report['recorded_result']}")
    print(f"scores match:    {report['scores_match']}")
    print(f"run_routes:      {len(runs)} checked, {agree} legal with the recorded revenue and subsidy")
    if relabelled:
        print(f"note:            certificate ids relabelled to follow the log: {', '.join(relabelled)}")
    solved = [r for r in runs if r["optimal_revenue"] is not None]
    if solved:
        better = sum(1 for r in solved if r["optimal_revenue"] > r["recorded_revenue"])
        print(f"optimum:         {len(solved)} solved, {better} runs left revenue on the table")
