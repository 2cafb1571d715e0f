"""The command line's ``check``, ``solve`` and ``suggest`` commands: ``check``, ``solve`` and ``suggest`` (DESIGN.md §5).

Each reads its board from a state file or, with ``--game GAME.json --action ID``,
from an 18xx.games log replayed up to that action (with the turn's facts), and
returns an exit status: 0 when it judged / solved / ranked the input (legal or
not), 2 with a message naming the field when an input is malformed. The
``route18xx`` console script (``server.cli``) wires these to argparse.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Callable, Mapping, TextIO

from route18xx.engine.api import DEFAULT_OBJECTIVE, MalformedInput, SuggestReport, read_json_file
from route18xx.server.commands.cli_text import R, emit, print_check, print_solve, print_suggest

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def read_json(path: str, field: str) -> Any:
    """Read a JSON file or raise ``MalformedInput`` naming the file and the reason.

    One reader for every subcommand (``engine.api.read_json_file``): a regular
    file of bounded size, strict UTF-8, every parser refusal a ``MalformedInput``.
    """
    return read_json_file(path, field)


def read_routes(path: str, field: str = "ROUTES.json") -> Any:
    """A routes file (a run_routes ``routes`` array, or an object holding one).

    A file holding ``null`` is refused (issue 34): read as "no routes given" it would
    pass for an absent ``--pin``; an empty list is how a file says "no routes".
    """
    routes = read_json(path, field)
    if routes is None:
        raise MalformedInput(field, f"{path} holds null, not a list of routes ([] for none)")
    return routes


def read_hex_paths_file(path: str, field: str = "ROUTES.json") -> Any:
    """A hex paths file (``check --hex-paths``): each train's hexes in travel order,
    ``[{"train": "3-0", "hexes": ["<hex>", "<hex>", ...]}]``. An empty list is refused: it
    would judge no route (and, through a server, a run's own recorded routes instead)."""
    paths = read_json(path, field)
    if paths == []:
        raise MalformedInput("hex_paths", f"{path} lists no path: give each train's hexes, "
                             '[{"train": "3-0", "hexes": ["<hex>", "<hex>", ...]}]')
    return paths


@dataclass(frozen=True)
class Source:
    """Where a command's board comes from: a state file, or a game log and an action id."""

    state_path: str | None = None
    game_path: str | None = None
    action_id: int | None = None
    #: ``--rules-as-of``: the date whose rules apply (DESIGN.md §9).
    rules_as_of: str | None = None

    def load(self) -> Any:
        """A decoded state file, or the ``RouteState`` just before the log's action."""
        if self.game_path is not None:
            if self.action_id is None:
                raise MalformedInput("action_id", "is missing: a game log needs --action ID")
            from route18xx.engine.api import state_from_log

            return state_from_log(read_json(self.game_path, "GAME.json"), self.action_id,
                                  rules_as_of=self.rules_as_of)
        if self.state_path is None:
            raise MalformedInput("STATE.json", "is missing: give STATE.json or --game and --action")
        from route18xx.engine.api import dated_state

        return dated_state(read_json(self.state_path, "STATE.json"), self.rules_as_of)


def run_command(
    compute: Callable[[], R],
    as_json: bool,
    printer: Callable[[R, TextIO], None],
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Compute a report and print it, or print the malformed field and return 2."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        report = compute()
    except MalformedInput as exc:
        print(f"error: {exc}", file=err)
        return EXIT_BAD_INPUT
    emit(report, as_json, printer, out)
    return EXIT_OK


def _source(state: str | Source | None) -> Source:
    return state if isinstance(state, Source) else Source(state_path=state)


def check_command(
    state: str | Source | None,
    routes_path: str,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
    compare: bool = False,
    hex_paths: bool = False,
) -> int:
    """``route18xx check STATE.json ROUTES.json [--json] [--compare] [--hex-paths]``; with
    ``hex_paths`` the file holds each train's hexes, read as the engine cuts them
    (``api.check_hex_paths``), and the answer says how (``hex_paths``)."""
    from route18xx.engine.api import check_hex_paths, check_report

    def compute() -> Mapping[str, Any]:
        board = _source(state).load()
        if hex_paths:
            paths = read_hex_paths_file(routes_path)
            report, readings = check_hex_paths(board, paths, compare=compare)
            return {**report.to_json(), "hex_paths": [r.to_json() for r in readings]}
        routes = read_routes(routes_path)
        return check_report(board, routes, compare=compare).to_json()

    return run_command(compute, as_json, print_check, out, err)


def solve_command(
    state: str | Source | None,
    as_json: bool,
    objective: str = DEFAULT_OBJECTIVE,
    time_limit_s: float = 10.0,
    out: TextIO | None = None,
    err: TextIO | None = None,
    pin_path: str | None = None,
    train_sets: list[list[str]] | None = None,
) -> int:
    """``route18xx solve STATE.json [--json] [--objective total|revenue] [--time-limit S]
    [--pin ROUTES.json] [--trains 4,4 …]``."""
    from route18xx.engine.api import solve_report

    def compute() -> Mapping[str, Any]:
        pins = read_routes(pin_path) if pin_path else None
        return solve_report(
            _source(state).load(), objective=objective, time_limit_s=time_limit_s,
            pinned_routes=pins, train_sets=train_sets,
        ).to_json()

    return run_command(compute, as_json, print_solve, out, err)


def suggest_command(
    state: str | Source | None,
    as_json: bool,
    top: int = 10,
    include_tokens: bool = False,
    subtract_cost: bool = False,
    objective: str = DEFAULT_OBJECTIVE,
    time_limit_s: float = 30.0,
    out: TextIO | None = None,
    err: TextIO | None = None,
    improving_only: bool = False,
    merge_equal: bool = False,
    combined: bool = False,
) -> int:
    """``route18xx suggest STATE.json [--top N] [--json] [--tokens] [--subtract-cost]
    [--improving-only] [--merge-equal] [--combined]``; with ``--game LOG --action ID``
    also what the player did from that action to the end of the turn (``recorded``)."""
    from route18xx.engine.api import suggest_moves

    def compute() -> SuggestReport:
        source = _source(state)
        board = source.load()
        report = suggest_moves(
            board,
            top=top,
            include_tokens=include_tokens,
            subtract_cost=subtract_cost,
            objective=objective,
            time_limit_s=time_limit_s,
            improving_only=improving_only,
            merge_equal=merge_equal,
            combined=combined,
        )
        if source.game_path is not None and source.action_id is not None:
            from msgspec.structs import replace

            from route18xx.engine.api import read_state, recorded_turn

            recorded = recorded_turn(
                read_json(source.game_path, "GAME.json"), source.action_id, read_state(board),
                report.base_income, objective=objective, time_limit_s=time_limit_s,
                rules_as_of=source.rules_as_of)
            report = replace(report, recorded=recorded)
        return report

    return run_command(compute, as_json, print_suggest, out, err)
