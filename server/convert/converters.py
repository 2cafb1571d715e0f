"""Proto ⇄ the engine's plain dicts, one function pair per message (STYLE.md §1).

The engine speaks the state file and the 18xx.games ``run_routes`` shapes
(DESIGN.md §5); the service speaks ``route18xx.v1``. These functions only move
fields across and check shapes (types, presence): every rule stays in the
engine. Shape errors are ``MalformedInput`` naming the field, as the engine's are.

The report dicts rebuilt from responses (``solve_report_from_proto``,
``check_report_from_proto``) have the same keys, order and types as the
engine's, so ``route18xx call … --json`` prints what the local command prints.
SuggestMoves has its own module, ``server.suggest_converters``, built on these.

A request's board (its ``source``) is a ``State`` or an 18xx.games game log
(``game_log``, the game JSON as a string) with an ``action_id``: the latter
becomes a ``LogSource``, which the runner hands to the engine to replay
(``engine.api.state_from_log``). Reading the string as JSON is a shape check;
whether it is a 1888 log the engine says.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence, TypeAlias

from route18xx.engine import api
from route18xx.engine.api import (
    DEFAULT_OBJECTIVE, STATS_KEYS, AnswerStats, CheckReport, MalformedInput, RouteCheckReport,
    SolveReport, SolveTiming, blockers_aliases, decode_json, dated_state, parse_rules_as_of,
)
from route18xx.server.convert import explain_converters as ex
from route18xx.v1 import route_service_pb2 as pb


_OBJECTIVES = {
    "total": pb.OBJECTIVE_TOTAL,
    "revenue": pb.OBJECTIVE_REVENUE,
}
_OBJECTIVE_NAMES: dict[int, str] = {v: k for k, v in _OBJECTIVES.items()}
_OBJECTIVE_NAMES[pb.OBJECTIVE_UNSPECIFIED] = DEFAULT_OBJECTIVE

_STATUSES = {
    "OPTIMAL": pb.SOLVE_STATUS_OPTIMAL,
    "FEASIBLE": pb.SOLVE_STATUS_FEASIBLE,
    "UNKNOWN": pb.SOLVE_STATUS_UNKNOWN,
}
_STATUS_NAMES = {v: k for k, v in _STATUSES.items()}

def solve_timing_to_proto(t: SolveTiming) -> pb.SolveTiming:
    """One solve of the engine's ``stats.solves`` (``engine.budget.SolveTiming``)."""
    return pb.SolveTiming(
        purpose=t.purpose,
        objective=_OBJECTIVES.get(t.objective, pb.OBJECTIVE_UNSPECIFIED),
        trains=t.trains,
        status=_STATUSES.get(t.status, pb.SOLVE_STATUS_UNSPECIFIED),
        solve_ms=t.solve_ms, solver_ms=t.solver_ms, search_ms=t.search_ms,
        branches=t.branches, conflicts=t.conflicts, floor=t.floor,
    )


def solve_timing_from_proto(msg: pb.SolveTiming) -> SolveTiming:
    """A ``SolveTiming`` message as one of the engine's ``stats.solves``."""
    return SolveTiming(
        msg.purpose, _OBJECTIVE_NAMES[msg.objective], tuple(msg.trains),
        _STATUS_NAMES.get(msg.status, "UNKNOWN"), msg.solve_ms, msg.solver_ms, msg.search_ms,
        msg.branches, msg.conflicts, msg.floor,
    )


def stats_to_proto(stats: AnswerStats, msg: pb.SolveStats) -> None:
    """An answer's ``stats`` into ``msg``: the message names ``STATS_KEYS`` as the engine does."""
    for k in STATS_KEYS:
        setattr(msg, k, getattr(stats, k))
    msg.solves.extend(solve_timing_to_proto(t) for t in stats.solves)


def stats_from_proto(msg: pb.SolveStats) -> AnswerStats:
    return AnswerStats(**{k: getattr(msg, k) for k in STATS_KEYS},
                       solves=tuple(solve_timing_from_proto(t) for t in msg.solves))


@dataclass(frozen=True)
class LogSource:
    """A request's board given as a decoded game log and the id of an action in it."""

    log: Mapping[str, Any]
    action_id: int
    #: the date whose rules the log is replayed under ("YYYY-MM-DD"; "": the log's own).
    rules_as_of: str = ""


#: A request's board: a state-file dict, or a game log plus an action id.
Source: TypeAlias = dict[str, Any] | LogSource


@dataclass(frozen=True)
class SolveArgs:
    """A SolveRoutes request in the engine's terms."""

    state: Source
    objective: str
    time_limit_s: float | None
    allow_partial: bool
    #: run_routes routes fixed beforehand (None: no pins)
    pinned_routes: list[dict[str, Any]] | None = None
    #: alternative train sets (None: none asked)
    train_sets: list[list[str]] | None = None


@dataclass(frozen=True)
class CheckArgs:
    """A ValidateRoutes request's options beyond the board and the routes."""

    compare: bool = False
    objective: str = "total"
    time_limit_s: float | None = None


# -- shape helpers ------------------------------------------------------------


def _typed(raw: Mapping[str, Any], key: str, kind: type, where: str, default: Any) -> Any:
    value = raw.get(key, default)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MalformedInput(f"{where}{key}", f"must be a {kind.__name__}, not {type(value).__name__}")
    if isinstance(value, int) and not -(2**31) <= value < 2**31:
        raise MalformedInput(f"{where}{key}", f"{value} is out of range")
    return value


def _strings(raw: Any, where: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise MalformedInput(where, "must be a list of strings")
    return list(raw)


def _objects(raw: Any, where: str) -> list[Mapping[str, Any]]:
    if not isinstance(raw, list):
        raise MalformedInput(where, "must be a list")
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise MalformedInput(f"{where}[{i}]", "must be an object")
    return raw


# -- State ------------------------------------------------------------------------


def state_to_proto(raw: Any) -> pb.State:
    """A decoded state file (bare, or ``{"state": …}``) as a ``State`` message."""
    if not isinstance(raw, Mapping):
        raise MalformedInput("state", "must be a JSON object")
    if isinstance(raw.get("state"), Mapping) and "tiles" not in raw:
        raw = raw["state"]
    msg = pb.State(
        title=_typed(raw, "title", str, "", ""),
        rule_set=_typed(raw, "rule_set", str, "", ""),
        phase=_typed(raw, "phase", str, "", ""),
        corporation=_typed(raw, "corporation", str, "", ""),
        trains=_strings(raw.get("trains", []), "trains"),
    )
    for i, tile in enumerate(_objects(raw.get("tiles", []), "tiles")):
        where = f"tiles[{i}]."
        msg.tiles.add(
            hex=_typed(tile, "hex", str, where, ""),
            tile=_typed(tile, "tile", str, where, ""),
            rotation=_typed(tile, "rotation", int, where, 0),
        )
    for i, token in enumerate(_objects(raw.get("tokens", []), "tokens")):
        where = f"tokens[{i}]."
        msg.tokens.add(
            hex=_typed(token, "hex", str, where, ""),
            city=_typed(token, "city", int, where, 0),
            corporation=_typed(token, "corporation", str, where, ""),
        )
    _turn_facts_to_proto(raw, msg)
    if raw.get("rules_as_of") is not None:
        msg.rules_as_of = _typed(raw, "rules_as_of", str, "", "")
    return msg


def _turn_facts_to_proto(raw: Mapping[str, Any], msg: pb.State) -> None:
    """The optional turn facts of a state file (cash, privates, …) into ``msg``."""
    if raw.get("cash") is not None:
        msg.cash = _typed(raw, "cash", int, "", 0)
    msg.privates.extend(_strings(raw.get("privates", []), "privates"))
    for alias in blockers_aliases():  # a title's older field for player_owned_blockers
        if raw.get(alias) is not None:
            setattr(msg, alias, _typed(raw, alias, bool, "", False))
    if raw.get("player_owned_blockers") is not None:
        msg.player_owned_blockers.extend(
            _strings(raw.get("player_owned_blockers"), "player_owned_blockers"))
    for i, lay in enumerate(_objects(raw.get("tiles_laid", []), "tiles_laid")):
        where = f"tiles_laid[{i}]."
        laid = msg.tiles_laid.add(hex=_typed(lay, "hex", str, where, ""))
        if lay.get("private") is not None:
            laid.private = _typed(lay, "private", str, where, "")
    for i, item in enumerate(_objects(raw.get("assignments", []), "assignments")):
        where = f"assignments[{i}]."
        marker = msg.assignments.add(assignment=_typed(item, "assignment", str, where, ""))
        for key in ("hex", "corporation"):
            if item.get(key) is not None:
                setattr(marker, key, _typed(item, key, str, where, ""))
    for i, item in enumerate(_objects(raw.get("hex_bonuses", []), "hex_bonuses")):
        where = f"hex_bonuses[{i}]"
        msg.hex_bonuses.add(hexes=_strings(item.get("hexes", []), f"{where}.hexes"),
                            value=_typed(item, "value", int, f"{where}.", 0))
    _game_facts_to_proto(raw, msg)


def _game_facts_to_proto(raw: Mapping[str, Any], msg: pb.State) -> None:
    """The game's facts beside the board (STATE-FILES.md) into ``msg``; the engine checks
    them (``engine.inputs.state_game``)."""
    msg.optional_rules.extend(_strings(raw.get("optional_rules", []), "optional_rules"))
    if raw.get("players") is not None:
        msg.players = _typed(raw, "players", int, "", 0)
    if raw.get("corporation_type") is not None:
        msg.corporation_type = _typed(raw, "corporation_type", str, "", "")
    for i, item in enumerate(_objects(raw.get("reservations", []), "reservations")):
        where = f"reservations[{i}]."
        msg.reservations.add(hex=_typed(item, "hex", str, where, ""),
                             city=_typed(item, "city", int, where, 0),
                             corporation=_typed(item, "corporation", str, where, ""))
    msg.train_ids.extend(_strings(raw.get("train_ids", []), "train_ids"))


def state_from_proto(msg: pb.State) -> dict[str, Any]:
    """A ``State`` message as the state-file dict the engine reads.

    Empty strings are proto3's "not set": they are left out, so the engine
    reports them as missing. A company without trains has nothing to run: that
    is refused here as a malformed request.
    """
    out: dict[str, Any] = {}
    for key in ("title", "rule_set", "phase", "corporation"):
        if getattr(msg, key):
            out[key] = getattr(msg, key)
    if not msg.trains:
        raise MalformedInput("trains", "the company has no trains")
    out["trains"] = list(msg.trains)
    out["tiles"] = [{"hex": t.hex, "tile": t.tile, "rotation": t.rotation} for t in msg.tiles]
    out["tokens"] = [
        {"hex": t.hex, "city": t.city, "corporation": t.corporation} for t in msg.tokens
    ]
    # The optional turn facts, only when given (absent keeps the engine's default).
    if msg.HasField("cash"):
        out["cash"] = msg.cash
    if msg.privates:
        out["privates"] = list(msg.privates)
    for alias in blockers_aliases():
        if msg.HasField(alias):
            out[alias] = getattr(msg, alias)
    if msg.player_owned_blockers:
        out["player_owned_blockers"] = list(msg.player_owned_blockers)
    if msg.tiles_laid:
        out["tiles_laid"] = [
            {"hex": t.hex, **({"private": t.private} if t.HasField("private") else {})}
            for t in msg.tiles_laid
        ]
    if msg.HasField("rules_as_of") and msg.rules_as_of:
        out["rules_as_of"] = msg.rules_as_of
    if msg.assignments:
        out["assignments"] = [
            {"assignment": a.assignment, **({"hex": a.hex} if a.HasField("hex") else {}),
             **({"corporation": a.corporation} if a.HasField("corporation") else {})}
            for a in msg.assignments
        ]
    if msg.hex_bonuses:
        out["hex_bonuses"] = [{"hexes": list(b.hexes), "value": b.value} for b in msg.hex_bonuses]
    if msg.optional_rules:
        out["optional_rules"] = list(msg.optional_rules)
    if msg.HasField("players"):
        out["players"] = msg.players
    if msg.HasField("corporation_type"):
        out["corporation_type"] = msg.corporation_type
    if msg.reservations:
        out["reservations"] = [{"hex": r.hex, "city": r.city, "corporation": r.corporation}
                               for r in msg.reservations]
    if msg.train_ids:
        out["train_ids"] = list(msg.train_ids)
    return out


def game_log_from_proto(text: str) -> dict[str, Any]:
    """A request's ``game_log`` string as the decoded game (a JSON object)."""
    if not text.strip():
        raise MalformedInput("game_log", "is empty: send the 18xx.games game JSON")
    raw = decode_json(text, "game_log")
    if not isinstance(raw, dict):
        raise MalformedInput("game_log", f"must be a JSON object, not {type(raw).__name__}")
    return raw


def request_source(
    request: pb.SolveRoutesRequest | pb.ValidateRoutesRequest | pb.SuggestMovesRequest
    | pb.SuggestTurnRequest,
) -> Source:
    """The board of a request: a state-file dict, or a ``LogSource`` for a game log.

    ``action_id`` goes with ``game_log`` (required there) and nowhere else.
    ``rules_as_of`` (DESIGN.md §9) goes with either: the log is replayed under the
    rules of that date, or the state reads as if it held that date itself (a state
    that names another date is refused).
    """
    which = request.WhichOneof("source")
    as_of = request.rules_as_of
    parse_rules_as_of(as_of)
    if which == "game_log":
        if not request.HasField("action_id"):
            raise MalformedInput("action_id", "is missing: a game_log needs the id of an action")
        return LogSource(game_log_from_proto(request.game_log), request.action_id, as_of)
    if request.HasField("action_id"):
        raise MalformedInput("action_id", "is only read with a game_log, not with a state")
    if which != "state":
        raise MalformedInput(
            "state", "is missing: the request must carry the board state (or a game_log)"
        )
    state = state_from_proto(request.state)
    return dict(dated_state(state, as_of))


def set_source(
    request: pb.SolveRoutesRequest | pb.ValidateRoutesRequest | pb.SuggestMovesRequest
    | pb.SuggestTurnRequest,
    source: Any,
) -> None:
    """Client side: put a state file (decoded) or a ``LogSource`` into ``request``."""
    if isinstance(source, LogSource):
        action_id = source.action_id
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not (
            -(2**31) <= action_id < 2**31
        ):
            raise MalformedInput("action_id", f"must be a whole number, not {action_id!r}")
        request.game_log = json.dumps(source.log, separators=(",", ":"))
        request.action_id = action_id
        request.rules_as_of = source.rules_as_of
    else:
        request.state.CopyFrom(state_to_proto(source))


# -- Route --------------------------------------------------------------------------


def routes_to_proto(raw: Any) -> list[pb.Route]:
    """A run_routes ``routes`` array (or ``{"routes": […]}``) as ``Route`` messages."""
    if isinstance(raw, Mapping):
        if "routes" not in raw:
            raise MalformedInput("routes", "must be a list of routes or an object with 'routes'")
        raw = raw["routes"]
    out = []
    for i, route in enumerate(_objects(raw, "routes")):
        where = f"routes[{i}]."
        msg = pb.Route(
            train=_typed(route, "train", str, where, ""),
            hexes=_strings(route.get("hexes", []), f"{where}hexes"),
            nodes=_strings(route.get("nodes", []), f"{where}nodes"),
            revenue=_typed(route, "revenue", int, where, 0),
            subsidy=_typed(route, "subsidy", int, where, 0),
            revenue_str=_typed(route, "revenue_str", str, where, ""),
        )
        conns = route.get("connections", [])
        if not isinstance(conns, list):
            raise MalformedInput(f"{where}connections", "must be a list of hex lists")
        for j, conn in enumerate(conns):
            msg.connections.add(hexes=_strings(conn, f"{where}connections[{j}]"))
        out.append(msg)
    return out


_CONNECTION_HEX = re.compile(r"^(routes\[\d+\]\.connections\[\d+\])\[(\d+)\]")


def proto_route_field(exc: MalformedInput) -> MalformedInput:
    """An engine error about a run_routes route, its field named as in the proto.

    The engine names a connection's hex ``routes[0].connections[1][2]``; in a
    ``Route`` message each connection is a ``Connection`` with ``hexes``.
    """
    field = _CONNECTION_HEX.sub(r"\1.hexes[\2]", exc.field)
    return exc if field == exc.field else MalformedInput(field, exc.reason)


def route_to_dict(msg: pb.Route) -> dict[str, Any]:
    """A ``Route`` message as a run_routes route (the fields the engine reads)."""
    return {
        "train": msg.train,
        "connections": [list(c.hexes) for c in msg.connections],
        "nodes": list(msg.nodes),
    }


def routes_from_proto(routes: Sequence[pb.Route]) -> list[dict[str, Any]]:
    return [route_to_dict(r) for r in routes]


def hex_paths_from_proto(paths: Sequence[pb.HexPath]) -> list[dict[str, Any]]:
    """A ValidateRoutes request's ``hex_paths`` as the engine reads them (``api.read_hex_paths``)."""
    return [{"train": p.train, "hexes": list(p.hexes)} for p in paths]


def hex_paths_to_proto(raw: Any) -> list[pb.HexPath]:
    """Client side: each train's hexes (``[{"train": "3-0", "hexes": ["H10", …]}]``) as
    ``HexPath`` messages; what no message can carry is named here (``hex_paths[0].hexes[1]``),
    the rest by the server (``api.read_hex_paths``)."""
    out = []
    for i, item in enumerate(_objects(raw, "hex_paths")):
        where = f"hex_paths[{i}]."
        hexes = item.get("hexes", [])
        if not isinstance(hexes, list):
            raise MalformedInput(f"{where}hexes", "must be a list of hex ids")
        for k, h in enumerate(hexes):
            if not isinstance(h, str):
                raise MalformedInput(f"{where}hexes[{k}]", f"must be a hex id, not {type(h).__name__}")
        out.append(pb.HexPath(train=_typed(item, "train", str, where, ""), hexes=hexes))
    return out


def hex_path_readings_from_proto(msgs: Sequence[pb.HexPathReading]) -> list[dict[str, Any]]:
    """Client side: how the server read each hex path, as ``HexPathReading.to_json()`` reads."""
    return [{"train": m.train, "connections": [list(c.hexes) for c in m.connections],
             "nodes": list(m.nodes), "open": list(m.open)} for m in msgs]


def hex_path_readings_to_proto(readings: Sequence[api.HexPathReading]) -> list[pb.HexPathReading]:
    """How the engine read each hex path: its connections, stops and ``open`` hexes."""
    out = []
    for reading in readings:
        raw = reading.to_json()
        out.append(pb.HexPathReading(
            train=raw["train"], connections=[pb.Connection(hexes=c) for c in raw["connections"]],
            nodes=raw["nodes"], open=raw["open"]))
    return out


# -- Request options --------------------------------------------------------------


def objective_to_proto(name: str) -> pb.Objective:
    """The ``Objective`` value of an engine objective name ("total", "revenue")."""
    if name not in _OBJECTIVES:
        raise MalformedInput("objective", f"must be one of {sorted(_OBJECTIVES)}")
    return _OBJECTIVES[name]


def objective_name(value: int) -> str:
    """The engine's objective name for an ``Objective`` value."""
    if value not in _OBJECTIVE_NAMES:
        raise MalformedInput("objective", f"unknown objective value {value}")
    return _OBJECTIVE_NAMES[value]


def time_limit_from_proto(limit: float) -> float | None:
    """A request's ``time_limit_s``: None for 0 (the server default)."""
    if limit < 0 or limit != limit:
        raise MalformedInput("time_limit_s", f"{limit} is not a time limit (seconds, >= 0)")
    return limit or None


# -- SolveRoutes --------------------------------------------------------------------


def solve_request_to_proto(
    state_raw: Any, objective: str = DEFAULT_OBJECTIVE, time_limit_s: float | None = None,
    allow_partial: bool = False, pinned_routes: Any = None,
    train_sets: Sequence[Sequence[str]] | None = None,
) -> pb.SolveRoutesRequest:
    """Client side: a state file (or a ``LogSource``) and options as a ``SolveRoutesRequest``."""
    request = pb.SolveRoutesRequest(
        objective=objective_to_proto(objective),
        time_limit_s=time_limit_s or 0.0,
        allow_partial=allow_partial,
    )
    if pinned_routes is not None:
        try:
            request.pinned_routes.extend(routes_to_proto(pinned_routes))
        except MalformedInput as exc:
            raise MalformedInput("pinned_" + exc.field, exc.reason) from None
    for i, names in enumerate(train_sets or []):
        request.train_sets.add(trains=_strings(list(names), f"train_sets[{i}]"))
    set_source(request, state_raw)
    return request


def solve_request_from_proto(request: pb.SolveRoutesRequest) -> SolveArgs:
    """Server side: the engine's arguments for a ``SolveRoutesRequest``."""
    state = request_source(request)
    return SolveArgs(
        state, objective_name(request.objective), time_limit_from_proto(request.time_limit_s),
        request.allow_partial,
        routes_from_proto(request.pinned_routes) if request.pinned_routes else None,
        [list(t.trains) for t in request.train_sets] if request.train_sets else None,
    )


def solve_report_to_proto(report: SolveReport | Mapping[str, Any]) -> pb.SolveRoutesResponse:
    """The engine's solve report (typed; a dict is read as one) as a ``SolveRoutesResponse``."""
    if not isinstance(report, SolveReport):
        report = SolveReport.from_json(report)
    msg = pb.SolveRoutesResponse(
        corporation=report.corporation,
        objective=_OBJECTIVES.get(report.objective, pb.OBJECTIVE_UNSPECIFIED),
        revenue=report.revenue,
        subsidy=report.subsidy,
        proven_optimal=report.proven_optimal,
        status=_STATUSES.get(report.status, pb.SOLVE_STATUS_UNSPECIFIED),
        bound=int(report.bound),
        solve_ms=report.solve_ms,
        routes=[ex.solved_route_to_proto(r) for r in report.routes],
    )
    stats_to_proto(report.stats, msg.stats)
    if report.breakdown is not None:
        msg.breakdown.CopyFrom(ex.answer_breakdown_to_proto(report.breakdown))
    if report.pinned is not None:
        msg.pinned.CopyFrom(ex.pinned_to_proto(report.pinned))
    for alt in report.alternatives:
        msg.alternatives.add(trains=alt.trains or (), answer=solve_report_to_proto(alt))
    if report.objectives is not None:
        msg.objectives.CopyFrom(ex.objectives_to_proto(report.objectives))
    return msg


def solve_report_from_proto(msg: pb.SolveRoutesResponse) -> dict[str, Any]:
    """A ``SolveRoutesResponse`` as the dict ``route18xx solve --json`` prints."""
    return typed_solve_report(msg).to_json()


def typed_solve_report(
    msg: pb.SolveRoutesResponse, trains: tuple[str, ...] | None = None,
) -> SolveReport:
    """A ``SolveRoutesResponse`` as the engine's report (``trains``: an alternative's)."""
    return SolveReport(
        trains=trains,
        corporation=msg.corporation,
        objective=_OBJECTIVE_NAMES[msg.objective],
        revenue=msg.revenue,
        subsidy=msg.subsidy,
        proven_optimal=msg.proven_optimal,
        status=_STATUS_NAMES.get(msg.status, "UNKNOWN"),
        bound=msg.bound,
        solve_ms=msg.solve_ms,
        routes=tuple(ex.solved_route_from_proto(r) for r in msg.routes),
        stats=stats_from_proto(msg.stats),
        breakdown=(ex.answer_breakdown_from_proto(msg.breakdown)
                   if msg.HasField("breakdown") else None),
        pinned=ex.pinned_from_proto(msg.pinned) if msg.HasField("pinned") else None,
        alternatives=tuple(typed_solve_report(a.answer, tuple(a.trains))
                           for a in msg.alternatives),
        objectives=(ex.objectives_from_proto(msg.objectives)
                    if msg.HasField("objectives") else None),
    )


# -- ValidateRoutes -----------------------------------------------------------------


def validate_request_to_proto(
    state_raw: Any, routes_raw: Any, compare: bool = False, objective: str = "total",
    time_limit_s: float | None = None, hex_paths: Any = None,
) -> pb.ValidateRoutesRequest:
    """Client side: a state file (or a ``LogSource``) and a run_routes ``routes`` array,
    or (``hex_paths``, routes None) each train's hexes in travel order."""
    request = pb.ValidateRoutesRequest(
        routes=routes_to_proto(routes_raw) if routes_raw is not None else [],
        hex_paths=hex_paths_to_proto(hex_paths) if hex_paths is not None else [],
        compare=compare, objective=objective_to_proto(objective),
        time_limit_s=time_limit_s or 0.0,
    )
    set_source(request, state_raw)
    return request


def check_args_from_proto(request: pb.ValidateRoutesRequest) -> CheckArgs:
    """Server side: a ``ValidateRoutesRequest``'s options."""
    return CheckArgs(request.compare, objective_name(request.objective),
                     time_limit_from_proto(request.time_limit_s))


def check_report_to_proto(report: CheckReport | Mapping[str, Any]) -> pb.ValidateRoutesResponse:
    """The engine's check report (typed; a dict is read as one) as a ``ValidateRoutesResponse``."""
    if not isinstance(report, CheckReport):
        report = CheckReport.from_json(report)
    msg = pb.ValidateRoutesResponse(
        legal=report.legal,
        violations=report.violations,
        revenue=report.revenue,
        subsidy=report.subsidy,
        violation_details=[ex.violation_to_proto(v) for v in report.violation_details or ()],
    )
    for r in report.routes:
        check = msg.routes.add(
            train=r.train, legal=r.legal, violations=r.violations,
            revenue=r.revenue, subsidy=r.subsidy, hexes=r.hexes, nodes=r.nodes,
        )
        if r.breakdown is not None:
            check.breakdown.CopyFrom(ex.breakdown_to_proto(r.breakdown))
    if report.breakdown is not None:
        msg.breakdown.CopyFrom(ex.answer_breakdown_to_proto(report.breakdown))
    if report.comparison is not None:
        msg.comparison.CopyFrom(ex.comparison_to_proto(report.comparison))
    return msg


def check_report_from_proto(msg: pb.ValidateRoutesResponse) -> dict[str, Any]:
    """A ``ValidateRoutesResponse`` as the dict ``route18xx check --json`` prints."""
    breakdown = msg.HasField("breakdown")
    report = CheckReport(
        legal=msg.legal,
        violations=tuple(msg.violations),
        revenue=msg.revenue,
        subsidy=msg.subsidy,
        routes=tuple(
            RouteCheckReport(
                r.train, r.legal, tuple(r.violations), r.revenue, r.subsidy, tuple(r.hexes),
                tuple(r.nodes),
                ex.breakdown_from_proto(r.breakdown) if r.HasField("breakdown") else None,
            )
            for r in msg.routes
        ),
        breakdown=ex.answer_breakdown_from_proto(msg.breakdown) if breakdown else None,
        # given with the breakdown (engine.answer.reports.CheckReport)
        violation_details=(tuple(ex.violation_from_proto(v) for v in msg.violation_details)
                           if breakdown else None),
        comparison=(ex.comparison_from_proto(msg.comparison)
                    if msg.HasField("comparison") else None),
    )
    return report.to_json()


def board(source: Source, cancel: Any) -> dict[str, Any] | Any:
    """A request's board for the engine: a state file as is, a game log replayed."""
    if isinstance(source, LogSource):
        return api.state_from_log(source.log, source.action_id, cancel=cancel,
                                  rules_as_of=source.rules_as_of or None)
    return source
