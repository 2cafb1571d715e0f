"""The calls a server answers before it says it is ready (issue 34: SERVING means that a call
of every kind can be answered now, not that the process is up).

A call's first use in a process loads what it needs: the whole game engine for a call on a
game log (a SolveRoutes, RenderBoard or ValidateRoutes from a log, ReplayGame), the drawing
for RenderBoard, the turn planner for SuggestTurn, the titles' game tables for FetchGameLog's
title check. Measured on 2 cores under load (4 busy loops), the first call of a kind after
``/readyz`` took 0.1-1.4 s more than the same call again: RenderBoard from a log 2.4 s
against 1.0-1.3 s, ReplayGame 2.4 s against 1.1-1.4 s, SolveRoutes from a log 0.6 s against
0.3 s, FetchGameLog 0.46 s against 0.04 s; each worker process paid again on its own first
call. In the server's CPU, the first round of every kind took 2.1-2.5x the same round again
(``tests/server/test_ready_answers.py``: 584 against 282 ms; now 0.9-1.15x).

So before it is ready every lane answers one request of every kind it runs (``warm_jobs``,
run by ``workers.run_warm_jobs``) through the job a client's call runs (``workers.run_job``:
decode, the method's job, encode; protobuf and JSON), on each title's warm-up board
(``api.warm_up_states``; a suggestion drawn too) and on a short game log of each title whose
logs are replayed (``warm_up_logs/<title>.json``: a random game up to its first run of a
route, ``warm_up_log``). Each worker process does it before it says ``READY``; a lane of
threads does it on its own thread (``server.rpc.app``). Their solves are not a client's.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

from route18xx.engine import api
from route18xx.server.convert import converters
from route18xx.v1 import route_service_pb2 as pb

#: ``server/core/warm_up_logs``: one short game log per replayed title.
LOGS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "warm_up_logs")
#: The random game each warm-up log is (``warm_up_log``): its seed and players.
SEED, PLAYERS = 1, 3
#: The time limit of each warm-up call's solves: the boards are small, they take ms.
TIME_LIMIT_S = 5.0


def warm_up_log(title: str) -> dict[str, Any]:
    """``title``'s warm-up log as ``tools``' generator writes it: a random game of its first
    rule set, up to the first run of a route (``api.random_game_log``)."""
    rule_set = api.titles_served()[title][0]
    seed = SEED
    log = api.random_game_log(seed, PLAYERS, rule_set=rule_set, title=title, until_first_run=True)
    if log is None:
        raise RuntimeError(f"the random {title} game of seed {seed} got stuck before a run")
    return log


def log_path(title: str) -> str:
    return os.path.join(LOGS_DIR, f"{title}.json")


@lru_cache(maxsize=1)
def _logs() -> tuple[tuple[str, int, list[str]], ...]:
    """Each shipped warm-up log: its text, the id of its run and that run's first route as
    the hexes its train passes."""
    out = []
    for title in api.titles_replayed():
        if not os.path.isfile(log_path(title)):
            continue
        with open(log_path(title), encoding="utf-8") as f:
            text = f.read()
        log = json.loads(text)
        run = next(a for a in reversed(log["actions"]) if a.get("type") == "run_routes")
        hexes: list[str] = []
        for connection in run["routes"][0]["connections"]:
            hexes += [h for h in connection if not hexes or hexes[-1] != h]
        out.append((text, int(run["id"]), [run["routes"][0]["train"], *hexes]))
    return tuple(out)


def warm_requests() -> list[tuple[str, Message]]:
    """One request of every kind a lane runs, per title: (method name, request)."""
    out: list[tuple[str, Message]] = []
    limit = TIME_LIMIT_S
    for raw in api.warm_up_states():
        state = converters.state_to_proto(raw)
        out += [
            ("SolveRoutes", pb.SolveRoutesRequest(state=state, time_limit_s=limit)),
            ("RenderBoard", pb.RenderBoardRequest(state=state, time_limit_s=limit)),
            # the page's "draw this suggestion": a ranking in the worker (0.2 s cold, 0.02 warm)
            ("RenderBoard", pb.RenderBoardRequest(state=state, suggestion=1, time_limit_s=limit)),
            ("SuggestMoves", pb.SuggestMovesRequest(state=state, top=1, time_limit_s=limit)),
            ("SuggestTurn", pb.SuggestTurnRequest(state=state, top=1, time_limit_s=limit)),
        ]
    for text, run, (train, *hexes) in _logs():
        out += [
            ("SolveRoutes", pb.SolveRoutesRequest(game_log=text, action_id=run, time_limit_s=limit)),
            ("ValidateRoutes", pb.ValidateRoutesRequest(game_log=text, action_id=run, compare=True)),
            ("ValidateRoutes", pb.ValidateRoutesRequest(
                game_log=text, action_id=run, hex_paths=[pb.HexPath(train=train, hexes=hexes)])),
            ("RenderBoard", pb.RenderBoardRequest(
                game_log=text, action_id=run, routes_mode=pb.ROUTES_MODE_BOTH, time_limit_s=limit)),
            ("SuggestMoves", pb.SuggestMovesRequest(
                game_log=text, action_id=run, top=1, time_limit_s=limit)),
            ("SuggestTurn", pb.SuggestTurnRequest(
                game_log=text, action_id=run, top=1, time_limit_s=limit)),
            ("ReplayGame", pb.ReplayGameRequest(game_log=text, time_limit_s=limit)),
        ]
    return out


def warm_jobs(lane: str) -> list[tuple[str, bytes]]:
    """The warm-up requests of the methods ``lane`` runs, as worker jobs (job name, request
    bytes; ``workers.run_job``): the first of each method sent as protobuf JSON too (HTTP's
    Connect JSON), the rest as protobuf. The decode lane: one JSON request to decode."""
    from route18xx.server.core.calls import DECODE_ONLY, METHODS_BY_NAME

    jobs: list[tuple[str, bytes]] = []
    seen: set[str] = set()
    for name, request in warm_requests():
        if lane == "decode":
            return [(f"{name}:{DECODE_ONLY}", json_format.MessageToJson(request).encode())]
        if METHODS_BY_NAME[name].lane != lane:
            continue
        jobs.append((name, request.SerializeToString()))
        if name not in seen:
            seen.add(name)
            jobs.append((f"{name}:json", json_format.MessageToJson(request).encode()))
    return jobs


def warm_fetch() -> None:
    """All of a FetchGameLog but the site: each warm-up log read and checked as a fetched one."""
    from route18xx.server.core.log_source import log_text

    for text, _, _ in _logs():
        log_text(text.encode(), 0, "warm-up", "game_id")
