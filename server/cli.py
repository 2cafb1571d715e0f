"""The ``route18xx`` console script (DESIGN.md §5 "Commands").

Subcommands are a table, ``COMMANDS``: name → (add arguments, run). The local
commands (``check``, ``solve``, ``suggest``) delegate to ``server.cli_commands``, ``replay`` and
``state`` to ``server.cli_replay``; ``serve`` and ``call`` are the service's.

Imports are lazy: ``route18xx check`` never loads gRPC or OR-Tools.
"""

from __future__ import annotations

import gc

# Start-up (issue 35 item 6, docs/performance.md "Cold start"): the cyclic collector is off
# while the engine's modules load (~40 collections that free nothing), and what they built
# is then moved out of its reach (``gc.freeze``, as ``server.core.workers`` does), so a
# command's full collections and the one at exit no longer walk the engine's classes and
# tables: ~5 % of a cold `route18xx solve`'s instructions. Once a process: this is the
# console script's module, imported before anything else runs.
_COLLECTING = gc.isenabled()
gc.disable()
try:
    import argparse
    import sys
    from typing import Any, Callable, Sequence

    from route18xx.server.audit.commands import COMMANDS as AUDIT_COMMANDS
    from route18xx.server.commands.cli_guard import (
        EXIT_BAD_INPUT, HelpFormatter, add_board_arguments, add_rules_as_of, option_error,
        run_guarded,
    )
finally:
    gc.freeze()
    if _COLLECTING:
        gc.enable()

AddArguments = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]

DEFAULT_TARGET = "127.0.0.1:50051"


# -- local commands (engine) ------------------------------------------------------


def _objectives() -> tuple[str, ...]:
    """The objective names the engine accepts (``engine.api.OBJECTIVES``), the default first."""
    from route18xx.engine.api import OBJECTIVES

    return OBJECTIVES


def _board_error(a: argparse.Namespace) -> str | None:
    """Exactly one of STATE.json and --game; --action goes with --game."""
    if not hasattr(a, "game_log"):
        return None
    if a.game_log is not None and a.state is not None:
        return "give STATE.json or --game GAME.json --action ID, not both"
    if a.game_log is None and a.state is None:
        return "a board is needed: STATE.json, or --game GAME.json --action ID"
    if a.game_log is not None and a.action_id is None:
        return "--game needs --action ID"
    if a.game_log is None and a.action_id is not None:
        return "--action goes with --game GAME.json"
    return None


def _add_check(p: argparse.ArgumentParser) -> None:
    add_board_arguments(p)
    p.add_argument("routes", metavar="ROUTES.json", help="a run_routes `routes` array")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--compare", action="store_true",
                   help="also solve the board: what the optimum does differently, per train")
    p.add_argument("--hex-paths", action="store_true",
                   help='ROUTES.json holds each train\'s hexes in travel order instead, '
                        '[{"train": "3-0", "hexes": ["<hex>", "<hex>", ...]}]: cut where the '
                        "track lets the train stop")


def _board(a: argparse.Namespace) -> Any:
    """The command's board: STATE.json or ``--game GAME.json --action ID``."""
    from route18xx.server.commands.cli_commands import Source

    return Source(a.state, a.game_log, a.action_id, a.rules_as_of)


def _run_check(a: argparse.Namespace) -> int:
    from route18xx.server.commands.cli_commands import check_command

    return check_command(_board(a), a.routes, a.json, compare=a.compare, hex_paths=a.hex_paths)


def _add_solve_options(p: argparse.ArgumentParser, default_limit: float | None) -> None:
    add_board_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--objective", choices=_objectives(), default=_objectives()[0])
    p.add_argument(
        "--time-limit", type=float, default=default_limit, metavar="S",
        help="solver time limit in seconds" + ("" if default_limit else " (server default)"),
    )
    p.add_argument("--pin", metavar="ROUTES.json",
                   help="fix these trains' routes (a run_routes `routes` array) and solve the rest")
    p.add_argument("--trains", action="append", type=_train_set, metavar="4,4",
                   help="also solve for this train set (repeat for more)")


def _train_set(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _add_solve(p: argparse.ArgumentParser) -> None:
    _add_solve_options(p, 10.0)


def _run_solve(a: argparse.Namespace) -> int:
    from route18xx.server.commands.cli_commands import solve_command

    return solve_command(_board(a), a.json, a.objective, a.time_limit,
                         pin_path=a.pin, train_sets=a.trains)


def _add_suggest_options(p: argparse.ArgumentParser, default_limit: float | None) -> None:
    add_board_arguments(p)
    p.add_argument("--top", type=int, default=None, metavar="N",
                   help="how many moves to list (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--tokens", action="store_true", help="rank token placements too")
    p.add_argument("--subtract-cost", action="store_true", help="rank by income minus cost")
    p.add_argument("--improving-only", action="store_true",
                   help="list only moves that raise the income; else say that none does")
    p.add_argument("--merge-equal", action="store_true",
                   help="one entry for the rotations of a tile with the same result")
    p.add_argument("--combined", action="store_true",
                   help="also rank the best lays each followed by a token")
    p.add_argument("--objective", choices=_objectives(), default=_objectives()[0])
    p.add_argument(
        "--time-limit", type=float, default=default_limit, metavar="S",
        help="time for the whole ranking in seconds" + ("" if default_limit else " (server default)"),
    )


def _add_turn_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--turn", action="store_true",
                   help="rank whole turns: lays (privates' too) and a token together, with "
                        "train advice (--top default 5)")
    p.add_argument("--no-trains", action="store_true", help="with --turn: no train advice")


def _add_suggest(p: argparse.ArgumentParser) -> None:
    _add_suggest_options(p, 30.0)
    _add_turn_options(p)


def _run_suggest(a: argparse.Namespace) -> int:
    from route18xx.server.commands.cli_commands import suggest_command

    if a.turn:
        from route18xx.server.commands.cli_turn import turn_command

        return turn_command(_board(a), a.json, a.top if a.top is not None else 5,
                            a.subtract_cost, a.objective, a.time_limit, not a.no_trains)
    return suggest_command(
        _board(a), a.json, a.top if a.top is not None else 10, a.tokens, a.subtract_cost,
        a.objective, a.time_limit, improving_only=a.improving_only, merge_equal=a.merge_equal,
        combined=a.combined,
    )


# -- service commands -------------------------------------------------------------


def _add_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=50051)
    p.add_argument("--workers", type=int, default=None, help="solves at once (default: cores)")
    p.add_argument("--http-port", type=int, default=8080, metavar="P",
                   help="HTTP port for Connect/gRPC-Web and the web page (default 8080)")
    p.add_argument("--no-http", action="store_true", help="serve gRPC only")
    p.add_argument("--threads", action="store_true",
                   help="run solves in threads of the server process instead of one worker "
                        "process per --workers (less memory, less throughput)")
    p.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                   help="an origin (e.g. https://example.org) allowed to call the HTTP API "
                        "from its pages; repeat for more")
    p.add_argument("--allowed-hosts", default=None, metavar="HOST,HOST",
                   help="Host header values the HTTP front end serves, comma-separated "
                        "(default: localhost, 127.0.0.1, [::1] and --host; * for any)")
    p.add_argument("--max-http-connections", type=int, default=None, metavar="N",
                   help="HTTP connections open at once; more are closed at once "
                        "(default: a quarter of the open-file limit, at most 1000)")
    p.add_argument("--http-parser", choices=("httptools", "h11"), default="httptools",
                   help="uvicorn's HTTP/1.1 parser: httptools (C, default) or h11 (pure Python)")
    p.add_argument("--queue", type=int, default=64, metavar="N",
                   help="solves/validations waiting beyond the running ones before "
                        "RESOURCE_EXHAUSTED (default 64)")
    p.add_argument("--decode-workers", type=int, default=1, metavar="N",
                   help="processes decoding large (>= 64 KiB) JSON requests before their lane "
                        "runs them; 0: the lane's own workers decode them (default 1)")
    p.add_argument("--suggest-lanes", type=int, default=1, metavar="N",
                   help="suggestion rankings at once (default 1)")
    p.add_argument("--suggest-queue", type=int, default=4, metavar="N",
                   help="suggestion rankings waiting before RESOURCE_EXHAUSTED (default 4)")
    p.add_argument("--max-call-s", type=float, default=30.0, metavar="S",
                   help="deadline of a call whose client sets none (default 30)")
    p.add_argument("--receive-timeout-s", type=float, default=5.0, metavar="S",
                   help="time a call has to send its request message (default 5)")
    p.add_argument("--health-port", type=int, default=None, metavar="P",
                   help="also answer gRPC health checks alone on this port, outside the "
                        "call cap: the port to probe (default: off)")
    p.add_argument("--max-streams-per-connection", type=int, default=128, metavar="N",
                   help="gRPC calls at once on one connection, of the server's 256 "
                        "(default 128; silent calls keep a quarter)")
    p.add_argument("--metrics-port", type=int, default=None, metavar="P",
                   help="with --no-http: serve /metrics and /readyz on this port "
                        "(with HTTP they are on --http-port; default: off)")
    p.add_argument("--log-format", choices=("text", "json"), default="text",
                   help="text lines, or one JSON object per call and per event (default text)")
    p.add_argument("--config", metavar="FILE.toml",
                   help="read settings from a TOML file (keys: the option names without "
                        "dashes); precedence: flag > ROUTE18XX_<OPTION> variable > file > default")
    p.add_argument("--log-source-url", default="https://18xx.games", metavar="URL",
                   help="the one site FetchGameLog fetches game logs from, as "
                        "<URL>/api/game/<id> (default https://18xx.games)")
    from route18xx.server.ops.serve_config import defer_defaults

    defer_defaults(p)


def _serve_settings(a: argparse.Namespace) -> tuple[argparse.Namespace, str] | None:
    """``a`` with every option from its flag, variable, file or default; None after an error."""
    import os

    from route18xx.server.ops.serve_config import ConfigError, apply, describe, resolve

    try:
        settings = resolve(a, os.environ)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    return apply(a, settings), describe(settings)


def _run_serve(a: argparse.Namespace) -> int:
    # The settings first: a bad one exits 2 before gRPC is loaded, so no gRPC thread is
    # running while the process exits (under load, one aborted on a closed epoll descriptor
    # at exit: SIGABRT instead of exit 2).
    resolved = _serve_settings(a)
    if resolved is None:
        return 2

    import logging

    from route18xx.server.rpc.app import ServerConfig, default_workers, serve
    from route18xx.server.ops.log_format import configure_logging
    from route18xx.server.core.runner import Limits
    a, settings_line = resolved  # every number within its bounds (serve_config.BOUNDS)
    workers = a.workers or default_workers()
    hosts = None
    if a.allowed_hosts is not None:
        hosts = tuple(h.strip().lower() for h in a.allowed_hosts.split(",") if h.strip())
        if not hosts:
            print("error: --allowed-hosts: no host given", file=sys.stderr)
            return 2
        from route18xx.server.httpd.http_headers import host_pattern_error

        reason = next(filter(None, map(host_pattern_error, hosts)), None)
        if reason is not None:
            print(f"error: --allowed-hosts: {reason}", file=sys.stderr)
            return 2
    limits = Limits(max_call_s=a.max_call_s, receive_timeout_s=a.receive_timeout_s)
    from route18xx.server.core.log_source import LogSourceConfig

    try:
        log_source = LogSourceConfig(a.log_source_url)
    except ValueError as exc:
        print(f"error: --log-source-url: {exc}", file=sys.stderr)
        return 2
    config = ServerConfig(
        host=a.host, port=a.port, workers=workers, queue=a.queue, processes=not a.threads,
        http_port=None if a.no_http else a.http_port, cors_origins=tuple(a.cors_origin),
        suggest_lanes=a.suggest_lanes, suggest_queue=a.suggest_queue, limits=limits,
        decode_workers=a.decode_workers,
        health_port=a.health_port, max_streams_per_connection=a.max_streams_per_connection,
        allowed_hosts=hosts, max_http_connections=a.max_http_connections,
        http_parser=a.http_parser,
        metrics_port=a.metrics_port,
        log_source=log_source,
    )
    configure_logging(a.log_format)
    logging.getLogger("route18xx.server").info(settings_line, extra={"event": "settings"})
    try:
        return serve(config)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _add_call(p: argparse.ArgumentParser) -> None:
    calls = p.add_subparsers(dest="call", required=True, metavar="solve|validate|suggest")
    solve = calls.add_parser("solve", help="SolveRoutes on a running server")
    _add_solve_options(solve, None)
    validate = calls.add_parser("validate", help="ValidateRoutes on a running server")
    _add_check(validate)
    suggest = calls.add_parser("suggest", help="SuggestMoves (--turn: SuggestTurn) on a "
                                               "running server")
    _add_suggest_options(suggest, None)
    _add_turn_options(suggest)
    for sub in (solve, validate, suggest):
        sub.add_argument("--target", default=DEFAULT_TARGET, metavar="HOST:PORT")
        sub.add_argument("--timeout", type=float, default=120.0, metavar="S",
                         help="the call's deadline in seconds")


def _run_call(a: argparse.Namespace) -> int:
    from route18xx.server.commands.client import call_solve, call_suggest, call_suggest_turn, call_validate

    log = {"game": a.game_log, "action": a.action_id, "rules_as_of": a.rules_as_of}
    if a.call == "solve":
        return call_solve(a.target, a.state, a.json, a.objective, a.time_limit, a.timeout,
                          pin_path=a.pin, train_sets=a.trains, **log)
    if a.call == "suggest" and a.turn:
        return call_suggest_turn(
            a.target, a.state, a.json, a.top if a.top is not None else 5, a.subtract_cost,
            a.objective, a.time_limit, not a.no_trains, a.timeout, **log,
        )
    if a.call == "suggest":
        return call_suggest(
            a.target, a.state, a.json, a.top if a.top is not None else 10, a.tokens,
            a.subtract_cost, a.objective, a.time_limit, a.timeout, **log,
            improving_only=a.improving_only, merge_equal=a.merge_equal, combined=a.combined,
        )
    return call_validate(a.target, a.state, a.routes, a.json, a.timeout, compare=a.compare,
                         hex_paths=a.hex_paths, **log)


# -- replay / state (server.cli_replay) ---------------------------------------------


def _add_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME.json")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--objective", choices=_objectives(), default=_objectives()[0],
                   help="objective of the optimum computed at every run_routes")
    p.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                   help="solver time limit per run_routes")
    p.add_argument("--no-solve", action="store_true",
                   help="skip the optimum at each run_routes (its fields are null)")
    p.add_argument("--turns", action="store_true",
                   help="each turn beside the best whole-turn plan (lays, token) and the "
                        "income left by lay/token choices and by routes")
    p.add_argument("--turn-time-limit", type=float, default=30.0, metavar="S",
                   help="with --turns: time for each turn's ranking (default 30)")
    add_rules_as_of(p, "default: the log's own date")


def _run_replay(a: argparse.Namespace) -> int:
    from route18xx.server.commands.cli_replay import api_solver, replay_command

    solve = None if a.no_solve else api_solver(a.objective, a.time_limit)
    return int(replay_command(a.game, a.json, solve, rules_as_of=a.rules_as_of, turns=a.turns,
                              objective=a.objective, turn_time_limit_s=a.turn_time_limit))


def _add_state(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME.json")
    p.add_argument("--action", type=int, required=True, metavar="ID")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--turn-facts", action="store_true",
                   help="add the turn facts: cash, privates, the blocking privates players own, tiles_laid")
    add_rules_as_of(p, "default: the log's own date")


def _run_state(a: argparse.Namespace) -> int:
    from route18xx.server.commands.cli_replay import state_command

    return int(state_command(a.game, a.action, a.json, a.turn_facts, rules_as_of=a.rules_as_of))


def _add_draw(p: argparse.ArgumentParser) -> None:
    from route18xx.server.commands.draw_cli import add_arguments

    add_arguments(p)


def _run_draw(a: argparse.Namespace) -> int:
    from route18xx.server.commands.draw_cli import run

    return run(a)


#: name → (help, add arguments, run)
COMMANDS: dict[str, tuple[str, AddArguments, Run]] = {
    "serve": ("start the gRPC server", _add_serve, _run_serve),
    "call": ("call a running server", _add_call, _run_call),
    "check": ("judge routes on a state", _add_check, _run_check),
    "solve": ("optimal routes for a state", _add_solve, _run_solve),
    "suggest": ("rank legal tile lays and tokens by income", _add_suggest, _run_suggest),
    "replay": ("replay an 18xx.games log", _add_replay, _run_replay),
    "state": ("the state before an action of a log", _add_state, _run_state),
    "draw": ("the board and its routes as SVG or PNG", _add_draw, _run_draw),
}
COMMANDS.update(AUDIT_COMMANDS)  # issue 15: `audit` and `generate-logs` (server.audit)

class _Version(argparse.Action):
    """``--version``: the package version and git revision (read only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from route18xx.server.ops.version import version_text

        print(f"route18xx {version_text()}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The console script's parser. With ``command``, it has only that subcommand (the
    one ``main`` runs): the others' builders load modules a ``solve`` never needs
    (``serve``'s settings table), and each subparser costs an ``ArgumentParser`` with its
    ``gettext`` look-ups (~2 % of a cold ``route18xx solve``, issue 35). The usage line
    still names every command (the same ``{serve,call,…}`` argparse would write). None
    gives every subcommand with its arguments (``--help``, a command unknown or absent)."""
    parser = argparse.ArgumentParser(
        prog="route18xx", description="Exact optimal routes for 18xx games, locally or over gRPC.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    every = "{" + ",".join(COMMANDS) + "}"
    subs = parser.add_subparsers(dest="command", required=True,
                                 metavar=None if command is None else every)
    for name, (help_text, add, run) in COMMANDS.items():
        if command is None or name == command:
            sub = subs.add_parser(name, help=help_text, formatter_class=HelpFormatter)
            add(sub)
            sub.set_defaults(run=run)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names (its first word that is not an option), if any."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``route18xx`` console script; returns the exit status."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(_command_named(words))
    args = parser.parse_args(words)
    problem = _board_error(args)
    if problem is not None:
        parser.error(f"{args.command}: {problem}")  # exits 2 with the usage line
    out_of_range = option_error(args)
    if out_of_range is not None:
        print("error: {}: {}".format(*out_of_range), file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_guarded(lambda: int(args.run(args)))


if __name__ == "__main__":
    sys.exit(main())
