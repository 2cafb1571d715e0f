"""SuggestTurn: proto ⇄ the engine's ``TurnReport`` (``engine.api.suggest_turn``, issue 24).

Built on ``server.converters`` (the state, routes and objective).
``turn_report_from_proto`` rebuilds the engine's report, so a client prints
what ``route18xx suggest --turn --json`` prints (timings aside).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from route18xx.engine.api import (
    DEFAULT_OBJECTIVE, MalformedInput, PlanLay, PlanReport, PlanToken, RankedPlanReport,
    TrainAdvice, TrainsAdvice, TurnReport,
)
from route18xx.server.convert import converters
from route18xx.server.convert import explain_converters as ex
from route18xx.v1 import route_service_pb2 as pb

#: ``top`` when a SuggestTurn request leaves it out (as ``route18xx suggest --turn``).
DEFAULT_TOP = 5


@dataclass(frozen=True)
class TurnArgs:
    """A SuggestTurn request in the engine's terms."""

    state: converters.Source
    top: int
    subtract_cost: bool
    objective: str
    time_limit_s: float | None
    trains: bool
    market: dict[str, Any] | None


def turn_request_to_proto(
    source: Any, top: int = DEFAULT_TOP, subtract_cost: bool = False,
    objective: str = DEFAULT_OBJECTIVE, time_limit_s: float | None = None, trains: bool = True,
) -> pb.SuggestTurnRequest:
    """Client side: a state file (with its optional ``depot`` and ``other_trains``) or a
    ``LogSource``, and options, as a ``SuggestTurnRequest``."""
    if isinstance(top, bool) or not isinstance(top, int) or not -(2**31) <= top < 2**31:
        raise MalformedInput("top", f"must be a whole number, not {top!r}")
    request = pb.SuggestTurnRequest(
        top=top, subtract_cost=subtract_cost, objective=converters.objective_to_proto(objective),
        time_limit_s=time_limit_s or 0.0, skip_trains=not trains,
    )
    converters.set_source(request, source)
    if isinstance(source, dict):
        raw = source.get("state", source) if "tiles" not in source else source
        depot = raw.get("depot") if isinstance(raw, dict) else None
        if isinstance(depot, list):
            request.depot.extend(str(t) for t in depot)
        others = raw.get("other_trains") if isinstance(raw, dict) else None
        if isinstance(others, list):
            for i, item in enumerate(others):
                if not isinstance(item, dict):
                    raise MalformedInput(f"other_trains[{i}]", "must be an object")
                request.other_trains.add(corporation=str(item.get("corporation", "")),
                                         train=str(item.get("train", "")))
    return request


def turn_request_from_proto(request: pb.SuggestTurnRequest) -> TurnArgs:
    """Server side: the engine's arguments for a ``SuggestTurnRequest``."""
    source = converters.request_source(request)
    market: dict[str, Any] | None = None
    if request.depot or request.other_trains:
        if not isinstance(source, dict):
            raise MalformedInput("depot", "is only read with a state; a game log gives the game's")
        market = {"depot": list(request.depot),
                  "other_trains": [{"corporation": t.corporation, "train": t.train}
                                   for t in request.other_trains]}
    return TurnArgs(
        source, request.top if request.HasField("top") else DEFAULT_TOP, request.subtract_cost,
        converters.objective_name(request.objective),
        converters.time_limit_from_proto(request.time_limit_s), not request.skip_trains, market,
    )


def _plan_to_proto(plan: PlanReport) -> pb.Plan:
    msg = pb.Plan(cost=plan.cost)
    for lay in plan.lays:
        added = msg.lays.add(hex=lay.hex, tile=lay.tile, rotation=lay.rotation, cost=lay.cost)
        if lay.private is not None:
            added.private = lay.private
    if plan.token is not None:
        msg.token.CopyFrom(pb.PlanToken(hex=plan.token.hex, city=plan.token.city,
                                        price=plan.token.price))
    return msg


def _plan_from_proto(msg: pb.Plan) -> PlanReport:
    return PlanReport(
        tuple(PlanLay(l.hex, l.tile, l.rotation, l.cost,
                      l.private if l.HasField("private") else None) for l in msg.lays),
        PlanToken(msg.token.hex, msg.token.city, msg.token.price) if msg.HasField("token") else None,
        msg.cost,
    )


def _train_to_proto(t: TrainAdvice) -> pb.TrainOption:
    msg = pb.TrainOption(
        source=t.source, train=t.train, price=t.price, max_price=t.max_price,
        affordable=t.affordable, phase=t.phase, trains_after=list(t.trains_after),
        discards=t.discards, income=t.income, proven_optimal=t.proven_optimal,
    )
    if t.seller is not None:
        msg.seller = t.seller
    if t.traded_in is not None:
        msg.traded_in = t.traded_in
    return msg


def _train_from_proto(m: pb.TrainOption) -> TrainAdvice:
    return TrainAdvice(
        m.source, m.seller if m.HasField("seller") else None, m.train,
        m.traded_in if m.HasField("traded_in") else None, m.price, m.max_price, m.affordable,
        m.phase, tuple(m.trains_after), m.discards, m.income, m.proven_optimal,
    )


def turn_report_to_proto(report: TurnReport) -> pb.SuggestTurnResponse:
    """The engine's turn report as a ``SuggestTurnResponse``."""
    return pb.SuggestTurnResponse(
        corporation=report.corporation,
        objective=converters.objective_to_proto(report.objective),
        subtract_cost=report.subtract_cost,
        base_income=report.base_income,
        base_proven_optimal=report.base_proven_optimal,
        plans=[
            pb.RankedPlan(
                plan=_plan_to_proto(p.plan), income=p.income, gain=p.gain, score=p.score,
                proven_optimal=p.proven_optimal,
                routes=[ex.solved_route_to_proto(r) for r in p.routes],
                state_after=converters.state_to_proto(p.state_after),
            )
            for p in report.plans
        ],
        trains=pb.TrainAdvice(
            income_now=report.train_advice.income_now,
            market_known=report.train_advice.market_known,
            options=[_train_to_proto(t) for t in report.train_advice.options],
            rules=report.train_advice.rules,
        ),
        lay_boards=report.lay_boards,
        candidates=report.candidates,
        plans_solved=report.plans_solved,
        solves=report.solves,
        reused=report.reused,
        bound_solves=report.bound_solves,
        pruned_by_lay_bound=report.pruned_by_lay_bound,
        pruned_by_token_bound=report.pruned_by_token_bound,
        pruned_by_train_bound=report.pruned_by_train_bound,
        train_bound_solves=report.train_bound_solves,
        unranked=[_plan_to_proto(p) for p in report.unranked],
        elapsed_ms=report.elapsed_ms,
        currency_format=report.currency_format,
    )


def turn_report_from_proto(msg: pb.SuggestTurnResponse) -> TurnReport:
    """A ``SuggestTurnResponse`` as the engine's report (``to_json()``: ``suggest --turn --json``)."""
    return TurnReport(
        corporation=msg.corporation,
        objective=converters.objective_name(msg.objective),
        subtract_cost=msg.subtract_cost,
        base_income=msg.base_income,
        base_proven_optimal=msg.base_proven_optimal,
        plans=tuple(
            RankedPlanReport.of(
                _plan_from_proto(p.plan), p.income, p.gain, p.score, p.proven_optimal,
                tuple(ex.solved_route_from_proto(r) for r in p.routes),
                converters.state_from_proto(p.state_after),
            )
            for p in msg.plans
        ),
        train_advice=TrainsAdvice(
            msg.trains.income_now, msg.trains.market_known,
            tuple(_train_from_proto(t) for t in msg.trains.options), tuple(msg.trains.rules)),
        lay_boards=msg.lay_boards,
        candidates=msg.candidates,
        plans_solved=msg.plans_solved,
        solves=msg.solves,
        reused=msg.reused,
        bound_solves=msg.bound_solves,
        pruned_by_lay_bound=msg.pruned_by_lay_bound,
        pruned_by_token_bound=msg.pruned_by_token_bound,
        pruned_by_train_bound=msg.pruned_by_train_bound,
        train_bound_solves=msg.train_bound_solves,
        unranked=tuple(_plan_from_proto(p) for p in msg.unranked),
        elapsed_ms=msg.elapsed_ms,
        currency_format=msg.currency_format or "%s",
    )
