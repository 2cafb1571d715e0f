"""The ``route18xx replay`` and ``route18xx state`` commands (DESIGN.md §5).

Plain functions returning an exit status, for the command-line front end to
wire up; they print to stdout (results) and stderr (problems). ``solve``,
``check`` and ``suggest`` on a game log (``--game GAME.json --action ID``) are
``server.cli_commands``'s commands with a log ``Source``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

from route18xx.engine.api import (
    DEFAULT_OBJECTIVE,
    OBJECTIVE_WORDS,
    MalformedInput,
    ReplayReport,
    RunOptimum,
    Route18xxError,
    RouteState,
    load_log,
    replay,
    replay_report,
    state_before,
)

EXIT_OK = 0
EXIT_BAD_INPUT = 2

#: The optimum hook: a ``RouteState`` in, its optimum out (``engine.api.SolveHook``).
Solver = Callable[[RouteState], RunOptimum | None]


def api_solver(objective: str = DEFAULT_OBJECTIVE, time_limit_s: float = 10.0) -> Solver:
    """The optimum hook backed by ``engine.api.run_optimum`` (the figures of ``solve_routes``)."""

    def solve(state: RouteState) -> RunOptimum:
        from route18xx.engine.api import run_optimum

        return run_optimum(state, objective=objective, time_limit_s=time_limit_s)

    return solve


def replay_command(
    path: str, as_json: bool, solve: Solver | None = None, rules_as_of: str | None = None
) -> int:
    """Replay a game log; print the DESIGN.md §5 replay object (``--json``) or a summary.

    Exit status 0 when the replay completed (whatever the scores), 1 when an
    action could not be replayed, 2 when the file is not a readable 1888 log.
    ``solve`` fills the optimum fields of each run (e.g. ``api_solver()``); without
    it they are null. ``rules_as_of`` picks the dated rules (default: the log's date);
    a malformed one exits 2 naming ``rules_as_of``.
    """
    try:
        log = load_log(path)
        result = replay(log, solve=solve, rules_as_of=rules_as_of)
    except MalformedInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = replay_report(result)
    if as_json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        _print_summary(report, result.seconds)
    for error in result.errors:
        print(f"error: {error}", file=sys.stderr)
    return 0 if result.completed else 1


def state_command(
    path: str, action_id: int, as_json: bool, turn_facts: bool = False,
    rules_as_of: str | None = None,
) -> int:
    """Print the state file (DESIGN.md §5) just before action ``action_id`` of a log.

    ``turn_facts`` adds the optional turn fields (cash, privates, …) the log knows.
    """
    try:
        log = load_log(path)
        state = state_before(log, action_id, turn_facts=turn_facts, rules_as_of=rules_as_of)
    except Route18xxError as exc:
        print(f"error: {exc}", file=sys.stderr)
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


def _print_summary(report: ReplayReport, seconds: float) -> None:
    runs = report.runs
    agree = sum(
        1
        for r in runs
        if r.recorded_legal
        and r.engine_revenue == r.recorded_revenue
        and r.engine_subsidy == r.recorded_subsidy
    )
    print(f"{report.title} ({report.rule_set}): replayed in {seconds:.2f}s")
    print(f"rules:           {report.rules_version} (as of {report.rules_as_of})")
    print(f"final scores:    {report.final_scores}")
    print(f"recorded result: {report.recorded_result}")
    print(f"scores match:    {report.scores_match}")
    print(f"run_routes:      {len(runs)} checked, {agree} legal with the recorded revenue and subsidy")
    short = report.shortfall
    if short is not None:
        solved = sum(1 for r in runs if r.optimum is not None)
        print(f"optimum:         {solved} solved for {OBJECTIVE_WORDS[short.objective]}")
        runs_word = "run" if short.runs == 1 else "runs"
        print(f"left on table:   {_yen(short.amount)} in {short.runs} {runs_word} (dividend lost "
              f"{_yen(short.dividend_lost)}, treasury lost {_yen(short.treasury_lost)})")
    if report.stopped_at is not None:
        print(f"stopped:         at action {report.stopped_at}; the runs above are those before it")
    elif not report.completed:
        print("stopped:         the log was not replayed to its end (see the errors)")


def _yen(amount: int) -> str:
    """``¥40``, or ``−¥20`` for a negative amount (dividend taken over subsidy)."""
    return f"¥{amount}" if amount >= 0 else f"−¥{-amount}"
