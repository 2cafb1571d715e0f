"""Train advice: what each train the company may buy now would earn after the plan (issue 24).

The buy-train step (RULES.md §6.3 i, §6.9) as this module follows it:

* **depot** (§6.9 #1): the trains the depot sells now — the next in depot order,
  the discard pile, and a type the dated rules sell early — each at face value;
* **D trade-in** (§6.9 #4): with a D on sale, each 4, 5 or 6 the company owns
  may be handed in for a D at the D's price minus its discount (¥700); the
  train count stays, so it needs no room;
* **another company** (§6.9 #2): any train of another corporation, at any price
  from ¥1 up to the buyer's cash (the income does not depend on the price);
* **room** (§6.9 #3): a purchase other than a trade-in needs fewer trains than
  the limit of the current phase;
* **the phase it begins** (§8, §9.2): the first train of a type that starts a
  later phase begins that phase (its stop values, ROUTES.md §4.1), rusts the
  types that rust on it, wherever they are, and its train limit applies: over
  it, the company discards (§6.11) — the advice keeps the best trains.

Each option is priced by the proven optimal income of the trains the company
would then hold on the board after the plan, in the phase the purchase begins.
The trains the depot sells and the other companies' trains are facts of the
game: a game log gives them; a state file may list them (``depot``,
``other_trains``); without them the depot is assumed to sell the train type of
the current phase and no other company's train is offered (``market_known``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Any

from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.facts.gamedata import PhaseDef, TrainDef
from route18xx.engine.facts.money import money
from route18xx.engine.answer.optimize import optimize
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.turn.turn_report import TrainAdvice

if TYPE_CHECKING:
    from route18xx.solver import CancelToken

def rules_followed(currency_format: str) -> tuple[str, ...]:
    """The rules of the buy step this advice follows, as the answer states them, in the
    title's money (``GameData.currency_format``)."""
    return (
        "RULES.md §6.9 #1: from the depot, the next train in order, the discard pile "
        "(and a type the dated rules sell early), at face value",
        f"RULES.md §6.9 #2: another corporation's train, at any price from "
        f"{money(1, currency_format)} to the buyer's cash",
        "RULES.md §6.9 #3: a purchase needs room under the current phase's train limit",
        "RULES.md §6.9 #4: a 4, 5 or 6 traded in for a D at the D's price minus the discount",
        "RULES.md §8, §9.2: the first train of a type begins its phase, rusts older types and "
        "sets the phase's train limit; over it the best trains are kept (§6.11)",
    )


@dataclass(frozen=True)
class TrainMarket:
    """The trains the company may buy: the depot's on sale now, other companies' trains."""

    depot: tuple[str, ...]
    other_trains: tuple[tuple[str, str], ...]
    known: bool


def _first_phase(state: RouteState, train: TrainDef) -> PhaseDef:
    data = state.data
    if train.starts_phase:
        found = data.phase(train.starts_phase)
        assert found is not None
        return found
    return data.phases[0]


def parse_market(state: RouteState, raw: Mapping[str, Any] | None) -> TrainMarket:
    """The market from a state file's optional ``depot`` and ``other_trains`` fields."""
    data = state.data
    raw = raw or {}
    depot_raw, others_raw = raw.get("depot"), raw.get("other_trains")
    if depot_raw is None and others_raw is None:
        depot = tuple(t.name for t in data.trains.values() if _first_phase(state, t) == state.phase)
        return TrainMarket(depot, (), False)
    depot_list = [] if depot_raw is None else depot_raw
    if not isinstance(depot_list, list) or len(depot_list) > 64:
        raise MalformedInput("depot", "must be a list of at most 64 train names such as '4'")
    for i, name in enumerate(depot_list):
        if not isinstance(name, str) or name not in data.trains:
            raise MalformedInput(f"depot[{i}]", f"unknown train {excerpt(name)}; expected one of "
                                 f"{sorted(data.trains)}")
    others_list = [] if others_raw is None else others_raw
    if not isinstance(others_list, list) or len(others_list) > 64:
        raise MalformedInput("other_trains", "must be a list of at most 64 "
                             "{corporation, train} objects")
    others: list[tuple[str, str]] = []
    for i, item in enumerate(others_list):
        if not isinstance(item, Mapping):
            raise MalformedInput(f"other_trains[{i}]", "must be an object with corporation and train")
        corp, train = item.get("corporation"), item.get("train")
        if not isinstance(corp, str) or corp not in data.corporations:
            raise MalformedInput(f"other_trains[{i}].corporation", f"unknown company {excerpt(corp)}")
        if corp == state.corporation.sym:
            raise MalformedInput(f"other_trains[{i}].corporation",
                                 f"{corp} is the buying company itself")
        if not isinstance(train, str) or train not in data.trains:
            raise MalformedInput(f"other_trains[{i}].train", f"unknown train {excerpt(train)}")
        others.append((corp, train))
    return TrainMarket(tuple(depot_list), tuple(others), True)


def _after_purchase(
    state: RouteState, bought: TrainDef, traded: TrainDef | None, from_depot: bool
) -> tuple[PhaseDef, list[TrainDef]]:
    """The phase after the purchase and the trains the company then holds (§8, §9.2)."""
    data = state.data
    names = [p.name for p in data.phases]
    phase = state.phase
    trains = list(state.trains)
    if traded is not None:
        trains.remove(traded)
    trains.append(bought)
    starts = _first_phase(state, bought)
    if from_depot and names.index(starts.name) > names.index(phase.name):
        phase = starts
        trains = [t for t in trains if t.rusts_when_first_bought != bought.name]
    return phase, trains


def _best_kept(state: RouteState, trains: list[TrainDef], limit: int, objective: str,
               time_limit_s: float, cancel: CancelToken | None) -> tuple[tuple[TrainDef, ...], int, bool]:
    """The trains kept under ``limit`` (the best income; §6.11) and that income."""
    from route18xx.engine.turn.turn_rank import income_of

    by_names: dict[tuple[str, ...], tuple[TrainDef, ...]] = {}
    for combo in combinations(trains, min(limit, len(trains))):
        kept_trains = tuple(sorted(combo, key=lambda t: t.name))
        by_names.setdefault(tuple(t.name for t in kept_trains), kept_trains)
    best: tuple[tuple[TrainDef, ...], int, bool] | None = None
    for _, kept in sorted(by_names.items()):
        if not kept:
            return (), 0, True
        opt = optimize(replace(state, trains=kept), objective=objective,
                       time_limit_s=time_limit_s, cancel=cancel)
        income = income_of(opt, objective)
        if best is None or income > best[1]:
            best = (kept, income, opt.solution.status == "OPTIMAL")
    assert best is not None
    return best


def train_advice(
    after_plan: RouteState, market: TrainMarket, *, cash_left: int | None, objective: str,
    time_limit_s: float, cancel: CancelToken | None = None,
) -> list[TrainAdvice]:
    """Every train purchase the company may make now, priced and solved after the plan."""
    state, data = after_plan, after_plan.data
    room = len(state.trains) < state.phase.train_limit
    options: list[tuple[str, str, TrainDef, TrainDef | None, int, int]] = []
    seen: set[tuple[str, str, str | None]] = set()
    for name in market.depot:
        train = data.trains[name]
        if room and ("depot", name, None) not in seen:
            seen.add(("depot", name, None))
            options.append(("depot", "", train, None, train.price, train.price))
        for old in sorted({t.name for t in state.trains if t.name in train.exchange_discount}):
            if ("trade_in", name, old) not in seen:
                seen.add(("trade_in", name, old))
                price = train.price - train.exchange_discount[old]
                options.append(("trade_in", "", train, data.trains[old], price, price))
    if room:
        for corp, name in market.other_trains:
            if ("corporation", name, corp) not in seen:
                seen.add(("corporation", name, corp))
                top = cash_left if cash_left is not None else 0
                options.append(("corporation", corp, data.trains[name], None, 1, max(1, top)))
    out: list[TrainAdvice] = []
    solved: dict[tuple[str, tuple[str, ...]], tuple[tuple[TrainDef, ...], int, bool]] = {}
    for source, seller, train, traded, low, high in options:
        phase, trains = _after_purchase(state, train, traded, source != "corporation")
        over = len(trains) > phase.train_limit
        key = (phase.name, tuple(sorted(t.name for t in trains)))
        if key not in solved:  # sellers of the same train leave the same trains: one solve
            solved[key] = _best_kept(replace(state, phase=phase), trains, phase.train_limit,
                                     objective, time_limit_s, cancel)
        kept, income, proven = solved[key]
        out.append(TrainAdvice(
            source=source, seller=seller or None, train=train.name,
            traded_in=traded.name if traded is not None else None,
            price=low, max_price=high if source == "corporation" else low,
            affordable=cash_left is None or low <= cash_left,
            phase=phase.name, trains_after=tuple(t.name for t in kept),
            discards=over, income=income, proven_optimal=proven,
        ))
    out.sort(key=lambda a: (-a.income, a.price, a.source, a.train, a.seller or ""))
    return out
