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
from typing import Any, TextIO

from route18xx.engine.api import (
    DEFAULT_OBJECTIVE,
    OBJECTIVE_WORDS,
    MalformedInput,
    ReplayReport,
    RunOptimum,
    Route18xxError,
    RouteState,
    TurnsReport,
    blockers_aliases,
    compare_turns,
    currency_formats,
    load_log,
    money,
    replay,
    replay_report,
    served_title,
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
    path: str, as_json: bool, solve: Solver | None = None, rules_as_of: str | None = None,
    turns: bool = False, objective: str = DEFAULT_OBJECTIVE, turn_time_limit_s: float = 30.0,
) -> int:
    """Replay a game log; print the DESIGN.md §5 replay object (``--json``) or a summary.

    Exit status 0 when the replay completed (whatever the scores), 1 when an
    action could not be replayed, 2 when the file is not a readable 1888 log.
    ``solve`` fills the optimum fields of each run (e.g. ``api_solver()``); without
    it they are null. ``rules_as_of`` picks the dated rules (default: the log's date);
    a malformed one exits 2 naming ``rules_as_of``. ``turns`` adds each turn beside the
    best whole-turn plan (``engine.api.compare_turns``, issue 24): a ``turns`` object
    with ``--json``, a line per turn without.
    """
    compared: TurnsReport | None = None
    try:
        log = load_log(path)
        result = replay(log, solve=solve, rules_as_of=rules_as_of)
        if turns:
            compared = compare_turns(log, objective=objective, time_limit_s=turn_time_limit_s,
                                     rules_as_of=rules_as_of)
    except MalformedInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = replay_report(result)
    if as_json:
        out = report.to_json()
        if compared is not None:
            out["turns"] = compared.to_json()
        print(json.dumps(out, indent=2))
    else:
        _print_summary(report, result.seconds)
        if compared is not None:
            print_turns(compared, sys.stdout, currency_formats()[served_title(report.title)])
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
                f"{_blockers_text(state)}; "
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
        solved = sum(1 for r in runs if r.solved)
        print(f"optimum:         {solved} solved for {OBJECTIVE_WORDS[short.objective]}")
        runs_word = "run" if short.runs == 1 else "runs"
        fmt = currency_formats()[served_title(report.title)]  # ¥40, $40; −¥20 for a negative amount
        print(f"left on table:   {money(short.amount, fmt)} in {short.runs} {runs_word} (dividend "
              f"lost {money(short.dividend_lost, fmt)}, treasury lost "
              f"{money(short.treasury_lost, fmt)})")
    if report.stopped_at is not None:
        print(f"stopped:         at action {report.stopped_at}; the runs above are those before it")
    elif not report.completed:
        print("stopped:         the log was not replayed to its end (see the errors)")


def _plan_text(lays: list[str], token: str | None) -> str:
    parts = lays + ([token] if token else [])
    return ", ".join(parts) if parts else "nothing"


def print_turns(report: TurnsReport, out: TextIO, currency_format: str) -> None:
    """A line per turn: what the player did and earned, the best plan and its income,
    then what the lay/token choices and the route choices left, summed per company
    (prices in the title's money, ``currency_format``)."""
    print(f"turns ({report.objective}): {len(report.turns)} compared; income left by lay/token "
          f"choices {report.left_by_lay_token}, by routes {report.left_by_routes}", file=out)
    for t in report.turns:
        player, best = t.player, t.best
        lays = [f"{l.tile}@{l.hex}/{l.rotation}" + (f" ({l.private})" if l.private else "")
                for l in player.lays]
        token = None if player.token is None else f"token {player.token.hex}-{player.token.city}"
        bought = ", ".join(f"{b.train} ({money(b.price, currency_format)}"
                           f"{'' if b.seller == 'depot' else ' from ' + b.seller})"
                           for b in player.trains_bought)
        line = (f"  {t.action_id:>4} {t.round:<7} {t.corporation:<4} did {_plan_text(lays, token)}: "
                f"earned {player.earned}, board {player.board_income}")
        if best is not None:
            best_lays = [f"{l.tile}@{l.hex}/{l.rotation}" + (f" ({l.private})" if l.private else "")
                         for l in best.lays]
            best_token = None if best.token is None else \
                f"token {best.token.hex}-{best.token.city}"
            line += (f"; best {_plan_text(best_lays, best_token)}: {best.income}"
                     f"{'' if best.proven_optimal else ' (not proven)'}")
        line += f"; left by lay/token {t.left_by_lay_token}, by routes {t.left_by_routes}"
        if bought:
            line += f"; bought {bought}"
        if t.error:
            line += f"; {t.error}"
        print(line, file=out)
    for corp, row in report.by_corporation.items():
        print(f"  {corp:<4} {row.turns} turns: left by lay/token {row.left_by_lay_token}, "
              f"by routes {row.left_by_routes}", file=out)


def _blockers_text(state: Mapping[str, Any]) -> str:
    """The turn fact of which hex-blocking privates players own (RULES.md §7.3): the list,
    or the title's older field for it as the state file gives it (``blockers_aliases``)."""
    if "player_owned_blockers" in state:
        return f"blocking privates owned by players: {', '.join(state['player_owned_blockers']) or 'none'}"
    given = [f"{alias}: {state[alias]}" for alias in blockers_aliases() if alias in state]
    return "; ".join(given) or "blocking privates owned by players: not given"
