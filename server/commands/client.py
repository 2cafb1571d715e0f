"""A small RouteService client and the ``route18xx call solve|validate|suggest`` commands.

The board is a state file, or a game log and an action id (``--game GAME.json
--action ID``), sent as the request's ``game_log``/``action_id``: the server
replays the log.

With ``--json`` a call prints exactly what the local ``route18xx solve --json`` /
``check --json`` / ``suggest --json`` prints (the response converted back to the
engine's dict, or for suggest its ``SuggestReport``; timing figures are the server's). An
RPC error exits 1 with the status code name and its message; a malformed local
file exits 2 with a message naming the field, as the local commands do.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TextIO

import grpc

from route18xx.server.commands.cli_commands import read_hex_paths_file, read_json, read_routes
from route18xx.engine.api import (
    DEFAULT_OBJECTIVE, MalformedInput, SuggestReport, TurnReport, dated_state, parse_rules_as_of,
)
from route18xx.server.commands.cli_text import R, emit, print_check, print_solve, print_suggest
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from route18xx.server.convert import converters, suggest_converters, turn_converters

EXIT_OK = 0
EXIT_RPC_ERROR = 1
EXIT_BAD_INPUT = 2
DEFAULT_TARGET = "127.0.0.1:50051"


class RouteClient:
    """A channel to a RouteService; ``solve``/``validate`` return plain dicts, ``suggest`` the
    engine's ``SuggestReport``.

    Each takes the board as a decoded state file or a ``converters.LogSource``.
    """

    def __init__(self, target: str = DEFAULT_TARGET) -> None:
        self.channel = grpc.insecure_channel(target)
        self.stub = pb_grpc.RouteServiceStub(self.channel)  # type: ignore[no-untyped-call]  # generated, untyped

    def solve(
        self, state_raw: Any, objective: str = DEFAULT_OBJECTIVE, time_limit_s: float | None = None,
        allow_partial: bool = False, timeout_s: float | None = None,
        pinned_routes: Any = None, train_sets: list[list[str]] | None = None,
    ) -> dict[str, Any]:
        request = converters.solve_request_to_proto(
            state_raw, objective, time_limit_s, allow_partial, pinned_routes, train_sets
        )
        return converters.solve_report_from_proto(self.stub.SolveRoutes(request, timeout=timeout_s))

    def validate(
        self, state_raw: Any, routes_raw: Any, timeout_s: float | None = None,
        compare: bool = False, hex_paths: Any = None,
    ) -> dict[str, Any]:
        """ValidateRoutes on ``routes_raw``, or (``hex_paths``, routes None) on each train's
        hexes; then the answer has ``hex_paths``, how the server read them."""
        request = converters.validate_request_to_proto(state_raw, routes_raw, compare,
                                                       hex_paths=hex_paths)
        answer = self.stub.ValidateRoutes(request, timeout=timeout_s)
        report = converters.check_report_from_proto(answer)
        if hex_paths is not None:
            report["hex_paths"] = converters.hex_path_readings_from_proto(answer.hex_paths)
        return report

    def suggest(
        self, state_raw: Any, top: int = suggest_converters.DEFAULT_TOP,
        include_tokens: bool = False, subtract_cost: bool = False,
        objective: str = DEFAULT_OBJECTIVE,
        time_limit_s: float | None = None, timeout_s: float | None = None,
        improving_only: bool = False, merge_equal: bool = False, combined: bool = False,
    ) -> SuggestReport:
        request = suggest_converters.suggest_request_to_proto(
            state_raw, top, include_tokens, subtract_cost, objective, time_limit_s,
            improving_only, merge_equal, combined,
        )
        return suggest_converters.suggest_report_from_proto(
            self.stub.SuggestMoves(request, timeout=timeout_s)
        )

    def suggest_turn(
        self, state_raw: Any, top: int = turn_converters.DEFAULT_TOP,
        subtract_cost: bool = False, objective: str = DEFAULT_OBJECTIVE,
        time_limit_s: float | None = None, trains: bool = True,
        timeout_s: float | None = None,
    ) -> TurnReport:
        """``SuggestTurn`` (issue 24): the engine's ``TurnReport`` rebuilt from the answer."""
        request = turn_converters.turn_request_to_proto(
            state_raw, top, subtract_cost, objective, time_limit_s, trains
        )
        return turn_converters.turn_report_from_proto(
            self.stub.SuggestTurn(request, timeout=timeout_s)
        )

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> RouteClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_source(
    state_path: str | None, game: str | None, action: int | None, rules_as_of: str | None = None
) -> Any:
    """The board to send: a decoded state file, or a ``LogSource`` (game log + action id);
    ``rules_as_of`` (``--rules-as-of``) goes in the request's field or the state's."""
    if game is not None:
        if action is None:
            raise MalformedInput("action_id", "is missing: a game log needs --action ID")
        if rules_as_of:
            parse_rules_as_of(rules_as_of)
        log = read_json(game, "GAME.json")
        if not isinstance(log, dict):  # [], null, 5: not sent (issue 34); the server reads the rest
            raise MalformedInput("GAME.json", f"{game} is not an 18xx.games game log (a JSON object)")
        return converters.LogSource(log, action, rules_as_of or "")
    if state_path is None:
        raise MalformedInput("STATE.json", "is missing: give STATE.json or --game and --action")
    return dated_state(read_json(state_path, "STATE.json"), rules_as_of)


def _call(
    rpc: Callable[..., R],
    source: Callable[[], Any],
    target: str,
    as_json: bool,
    printer: Callable[[R, TextIO], None],
    out: TextIO | None,
    err: TextIO | None,
) -> int:
    """Read the inputs, make one call, print the report; exit 2 on bad input, 1 on an RPC error."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        request = source()
        with RouteClient(target) as client:
            report = rpc(client, *request)
    except MalformedInput as exc:
        print(f"error: {exc}", file=err)
        return EXIT_BAD_INPUT
    except grpc.RpcError as exc:
        return _rpc_failed(exc, err)
    emit(report, as_json, printer, out)
    return EXIT_OK


def call_solve(
    target: str, state_path: str | None, as_json: bool, objective: str = DEFAULT_OBJECTIVE,
    time_limit_s: float | None = None, timeout_s: float | None = None,
    out: TextIO | None = None, err: TextIO | None = None,
    game: str | None = None, action: int | None = None, rules_as_of: str | None = None,
    pin_path: str | None = None, train_sets: list[list[str]] | None = None,
) -> int:
    """``route18xx call solve STATE.json`` (or ``--game GAME.json --action ID``)."""
    return _call(
        lambda client, state, pins: client.solve(
            state, objective, time_limit_s, timeout_s=timeout_s, pinned_routes=pins,
            train_sets=train_sets,
        ),
        lambda: (read_source(state_path, game, action, rules_as_of),
                 read_routes(pin_path) if pin_path else None),
        target, as_json, print_solve, out, err,
    )


def call_validate(
    target: str, state_path: str | None, routes_path: str, as_json: bool,
    timeout_s: float | None = None, out: TextIO | None = None, err: TextIO | None = None,
    game: str | None = None, action: int | None = None, compare: bool = False,
    rules_as_of: str | None = None, hex_paths: bool = False,
) -> int:
    """``route18xx call validate STATE.json ROUTES.json [--hex-paths]`` (or ``--game … --action …``)."""
    if hex_paths:
        return _call(
            lambda client, state, paths: client.validate(
                state, None, timeout_s=timeout_s, compare=compare, hex_paths=paths),
            lambda: (read_source(state_path, game, action, rules_as_of),
                     read_hex_paths_file(routes_path)),
            target, as_json, print_check, out, err,
        )
    return _call(
        lambda client, state, routes: client.validate(
            state, routes, timeout_s=timeout_s, compare=compare),
        lambda: (read_source(state_path, game, action, rules_as_of), read_routes(routes_path)),
        target, as_json, print_check, out, err,
    )


def call_suggest(
    target: str, state_path: str | None, as_json: bool, top: int = suggest_converters.DEFAULT_TOP,
    include_tokens: bool = False, subtract_cost: bool = False,
    objective: str = DEFAULT_OBJECTIVE,
    time_limit_s: float | None = None, timeout_s: float | None = None,
    out: TextIO | None = None, err: TextIO | None = None,
    game: str | None = None, action: int | None = None, rules_as_of: str | None = None,
    improving_only: bool = False, merge_equal: bool = False, combined: bool = False,
) -> int:
    """``route18xx call suggest STATE.json`` (or ``--game GAME.json --action ID``)."""
    return _call(
        lambda client, state: client.suggest(
            state, top, include_tokens, subtract_cost, objective, time_limit_s,
            timeout_s=timeout_s, improving_only=improving_only, merge_equal=merge_equal,
            combined=combined,
        ),
        lambda: (read_source(state_path, game, action, rules_as_of),),
        target, as_json, print_suggest, out, err,
    )


def call_suggest_turn(
    target: str, state_path: str | None, as_json: bool, top: int = turn_converters.DEFAULT_TOP,
    subtract_cost: bool = False, objective: str = DEFAULT_OBJECTIVE,
    time_limit_s: float | None = None, trains: bool = True, timeout_s: float | None = None,
    out: TextIO | None = None, err: TextIO | None = None,
    game: str | None = None, action: int | None = None, rules_as_of: str | None = None,
) -> int:
    """``route18xx call suggest --turn STATE.json`` (or ``--game GAME.json --action ID``):
    prints what the local ``route18xx suggest --turn`` prints."""
    from route18xx.server.commands.cli_turn import print_turn

    return _call(
        lambda client, state: client.suggest_turn(
            state, top, subtract_cost, objective, time_limit_s, trains, timeout_s=timeout_s,
        ),
        lambda: (read_source(state_path, game, action, rules_as_of),),
        target, as_json, print_turn, out, err,
    )


def _rpc_failed(exc: grpc.RpcError, err: TextIO) -> int:
    code = exc.code() if isinstance(exc, grpc.Call) else grpc.StatusCode.UNKNOWN
    details = exc.details() if isinstance(exc, grpc.Call) else str(exc)
    print(f"{code.name}: {details}", file=err)
    return EXIT_RPC_ERROR
