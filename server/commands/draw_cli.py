"""``route18xx draw``: the board of a state or of a game log's action as SVG or PNG.

    route18xx draw STATE.json -o board.svg
    route18xx draw --game GAME.json --action ID --routes both -o board.png

``--routes optimal`` (default) draws the proven optimal routes; ``recorded``
draws given routes (``--routes-file ROUTES.json``, a run_routes ``routes``
array; with ``--game`` the run_routes action's own routes; with a state file
from the test data, its ``reference.recorded_routes``); ``both`` overlays them,
the recorded dashed, with the income difference in the legend; ``none`` draws
the board alone. ``--suggestion N`` lays the N-th best suggested move
(``route18xx suggest``) and highlights it with its gain. The output's
extension chooses the format: ``.png`` through cairosvg, anything else SVG
(``-o -``: SVG on standard output).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def add_arguments(p: argparse.ArgumentParser) -> None:
    from route18xx.server.commands.cli_guard import add_board_arguments

    add_board_arguments(p)
    p.add_argument("--routes", choices=("optimal", "recorded", "both", "none"), default="optimal",
                   help="which routes to draw (default optimal)")
    p.add_argument("--routes-file", metavar="ROUTES.json",
                   help="recorded routes: a run_routes `routes` array")
    p.add_argument("--suggestion", type=int, metavar="N",
                   help="lay the N-th best suggested move (1 = best) and highlight it")
    p.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                   help="solver time limit in seconds")
    p.add_argument("-o", "--output", required=True, metavar="board.svg|board.png",
                   help="where to write the picture ('-' for SVG on standard output)")


def render(a: argparse.Namespace) -> str:
    """The picture's SVG for the parsed arguments (``MalformedInput`` on bad input)."""
    from route18xx.draw import render_svg
    from route18xx.engine import api
    from route18xx.server.commands.cli_commands import read_json, read_routes

    recorded: Any = None
    if a.routes_file is not None:
        recorded = read_routes(a.routes_file)
    if a.game_log is not None:
        log = read_json(a.game_log, "GAME.json")
        state: Any = api.state_from_log(log, a.action_id, rules_as_of=a.rules_as_of)
        if recorded is None and a.routes in ("recorded", "both"):
            recorded = api.recorded_routes(log, a.action_id)
    else:
        raw = read_json(a.state, "STATE.json")
        state = api.dated_state(raw, a.rules_as_of)
        reference = raw.get("reference") if isinstance(raw, dict) else None
        if recorded is None and isinstance(reference, dict) and a.routes in ("recorded", "both"):
            recorded = reference.get("recorded_routes")
        if recorded is None and a.routes in ("recorded", "both"):
            raise api.MalformedInput("routes-file", f"--routes {a.routes} needs --routes-file ROUTES.json")
    suggestion = None
    if a.suggestion is not None:
        if a.suggestion < 1:
            raise api.MalformedInput("suggestion", f"must be 1 or more, not {a.suggestion}")
        report = api.suggest_moves(state, top=a.suggestion, time_limit_s=a.time_limit * 3)
        moves = report.suggestions
        if len(moves) < a.suggestion:
            raise api.MalformedInput("suggestion", f"only {len(moves)} legal moves were ranked")
        suggestion = moves[a.suggestion - 1]
    return render_svg(state, routes=a.routes, recorded=recorded, suggestion=suggestion,
                      time_limit_s=a.time_limit)


def run(a: argparse.Namespace) -> int:
    """Write the picture; 2 with ``error: <field>: <reason>`` when an input is malformed."""
    from route18xx.engine.api import MalformedInput
    from route18xx.server.commands.cli_output import output_problem

    problem = None if a.output == "-" else output_problem(a.output)
    if problem is not None:  # a FIFO would block the write; checked before the work
        print(f"error: output: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        svg = render(a)
        if a.output == "-":
            sys.stdout.write(svg)
            return EXIT_OK
        if a.output.lower().endswith(".png"):
            from route18xx.draw import svg_to_png

            data = svg_to_png(svg)
            with open(a.output, "wb") as handle:
                handle.write(data)
        else:
            with open(a.output, "w", encoding="utf-8") as handle:
                handle.write(svg)
    except MalformedInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"error: output: cannot write {a.output!r}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {a.output}", file=sys.stderr)
    return EXIT_OK
