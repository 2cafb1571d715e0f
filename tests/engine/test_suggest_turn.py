"""Whole-turn suggestions (issue 24) against witnesses that share no ranking code.

* **Brute force**: every legal (lay, token) pair — the normal lay or none, then
  a token or none on the board it leaves — solved one by one with
  ``engine.optimize`` and sorted here. It uses only the legality functions
  (``legal_tile_lays``, ``legal_token_placements``) and the solver, none of
  ``engine.turn_plans``/``engine.turn_rank`` (no bound, no pruning, no reuse).
  SuggestTurn's top plans must have the same incomes, and the set of plans tied
  at the best income must be the same set.
* **The players**: on turns of the shared logs where the player laid a tile and
  placed a token, the best plan earns at least what the player's run earned
  (the engine's price of the recorded routes). A sample by default;
  ``ROUTE18XX_TURN_ALL=1`` checks every such turn.
"""

from __future__ import annotations

import json
import os
from itertools import combinations
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.answer.optimize import optimize
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.board.tile_lay import legal_tile_lays
from route18xx.engine.board.token_place import legal_token_placements, next_token_price
from tests.conftest import LOGS_DIR

#: (log, action id of a turn's first action): real turns with tokens to place and no
#: private lay, from early to late game; 129026-413 has 125 plans.
BRUTE_FORCE_TURNS = [("129026", 207), ("129026", 292), ("1888_game_end_bankrupt", 87)]
BRUTE_FORCE_MORE = [("129026", 164), ("129026", 249), ("129026", 411), ("129026", 536),
                    ("1888_game_end_bankrupt", 175), ("1888_game_end_bankrupt", 423)]
ALL = os.environ.get("ROUTE18XX_TURN_ALL") == "1"


@lru_cache(maxsize=None)
def _log(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOGS_DIR / f"{name}.json").read_text("utf-8"))
    return data


def _state(name: str, action_id: int) -> RouteState:
    return api.state_from_log(_log(name), action_id)


def _income(state: RouteState, objective: str) -> int:
    opt = optimize(state, objective=objective)
    assert opt.solution.status == "OPTIMAL"
    return opt.judgement.revenue + (opt.judgement.subsidy if objective == "total" else 0)


def _tokens(state: RouteState, board: Any, corp: str, cost: int) -> list[Any]:
    """No token, then every legal placement the cash left after ``cost`` pays for."""
    price = next_token_price(board, corp)
    if price is None:
        return [None]
    cash = None if state.cash is None else state.cash - cost
    return [None, *legal_token_placements(board, corp, token_price=price, cash=cash)]


def brute_force(state: RouteState, objective: str = "total",
                subtract_cost: bool = False) -> list[tuple[int, Any]]:
    """(score, plan) for every (lay, token) pair, each solved on its own board."""
    corp = state.corporation.sym
    owned = state.player_owned_blockers or ()  # not given: no hex is blocked
    lays: list[Any] = [None]
    if not any(private is None for _, private in state.tiles_laid):  # one normal lay a turn
        lays += legal_tile_lays(
            state.board, corp, phase=state.phase, rule_set=state.rule_set,
            owned_privates=state.privates, player_owned_blockers=owned, cash=state.cash)
    out = []
    for lay in lays:
        board = state.board
        cost = 0
        if lay is not None:
            board = board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)
            cost = lay.cost
        for token in _tokens(state, board, corp, cost):
            after = board if token is None else board.with_token(token.hex, token.city, corp)
            total = cost + (0 if token is None else token.price)
            income = _income(replace(state, board=after), objective)
            key = (None if lay is None else (lay.hex, lay.tile, lay.rotation),
                   None if token is None else (token.hex, token.city))
            out.append((income - (total if subtract_cost else 0), key))
    out.sort(key=lambda item: -item[0])
    return out


#: Real turns whose company owns a private with a tile lay: HJR holding Heng Shan (129026:
#: OR 5.1, turn of run 215, not used; OR 5.2, turn of run 251, laid first), the first
#: board with Terracotta Army given to HJR too (204 plans), and JHR's board at action
#: 207 with the Great Wall given to it (9 784 plans, ~65 s of CPU: ``ROUTE18XX_TURN_ALL=1`` only).
PRIVATE_TURNS = [("129026", 213, ()), ("129026", 248, ()), ("129026", 213, ("TA",))]
PRIVATE_MORE = [("129026", 207, ("CW",))]


def brute_force_with_privates(state: RouteState) -> dict[tuple[Any, Any], int]:
    """Income of every plan — any order of the normal lay and each private's lays (the
    Great Wall's second tile right after its first), then a token — each solved on its
    own board. Only the legality functions and the ability facts; no ``turn_plans``."""
    from route18xx.engine.board.tile_abilities import tile_ability

    corp = state.corporation.sym
    common: dict[str, Any] = dict(phase=state.phase, rule_set=state.rule_set,
                                  owned_privates=state.privates,
                                  player_owned_blockers=state.player_owned_blockers or ())
    abilities = {p: a for p in sorted(state.privates)
                 if (a := tile_ability(state.rule_set, p, state.data)) is not None}
    assert not any(a.must_lay_all for a in abilities.values())  # the ferry is not walked here
    boards: dict[Any, tuple[tuple[Any, ...], Any, int]] = {}
    seen: set[Any] = set()

    def walk(board: Any, lays: tuple[Any, ...], cost: int, normal: bool) -> None:
        tiles = frozenset((h, p.tile.name, p.rotation) for h, p in board.placed.items())
        counts = {p: sum(1 for l in lays if l.ability == p) for p in abilities}
        if (tiles, normal, tuple(sorted(counts.items()))) in seen:
            return
        seen.add((tiles, normal, tuple(sorted(counts.items()))))
        if tiles not in boards or cost < boards[tiles][2]:
            boards[tiles] = (lays, board, cost)
        cash = None if state.cash is None else state.cash - cost
        moves = [] if normal else [(lay, True) for lay in legal_tile_lays(
            board, corp, cash=cash, **common)]
        for p, ability in abilities.items():
            done = counts[p]
            if (ability.count is not None and done >= ability.count) or (
                    done and lays[-1].ability != p):
                continue
            first = next((l.hex for l in lays if l.ability == p), None)
            moves += [(lay, normal) for lay in legal_tile_lays(
                board, corp, special=p, first_special_lay=first, cash=cash, **common)]
        for lay, normal_after in moves:
            after = board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)
            walk(after, lays + (lay,), cost + lay.cost, normal_after)

    walk(state.board, (), 0, any(p is None for _, p in state.tiles_laid))
    out: dict[tuple[Any, Any], int] = {}
    for lays, board, cost in boards.values():
        for token in _tokens(state, board, corp, cost):
            after = board if token is None else board.with_token(token.hex, token.city, corp)
            key = (frozenset((l.hex, l.tile, l.rotation, l.ability) for l in lays),
                   None if token is None else (token.hex, token.city))
            out[key] = _income(replace(state, board=after), "total")
    return out


@pytest.mark.parametrize("name,action_id,given", PRIVATE_TURNS + (PRIVATE_MORE if ALL else []))
def test_turns_with_private_lays_equal_the_brute_force(
        name: str, action_id: int, given: tuple[str, ...]) -> None:
    state = _state(name, action_id)
    state = replace(state, privates=tuple(sorted(set(state.privates) | set(given))))
    assert state.privates
    witness = brute_force_with_privates(state)
    best = max(witness.values())
    tied = {key for key, income in witness.items() if income == best}
    # correctness, not speed: the Great Wall's thousands of lay boards need more than 30 s
    report = api.suggest_turn(state, top=len(tied) + 2, trains=False, time_limit_s=600.0)
    assert report.unranked == ()
    plans = report.plans
    assert all(p.proven_optimal for p in plans) and plans[0].income == best
    mine = {(frozenset((l.hex, l.tile, l.rotation, l.private) for l in p.plan.lays),
             None if p.plan.token is None else (p.plan.token.hex, p.plan.token.city))
            for p in plans if p.income == best}
    assert mine <= tied
    # the witness also lists plans with a private lay that changes nothing (off the
    # company's network): SuggestTurn lists each such plan once, without those lays
    for lays, token in tied - mine:
        privates = [l for l in lays if l[3] is not None]
        assert any((lays - set(drop), token) in mine
                   for n in range(1, len(privates) + 1) for drop in combinations(privates, n)), \
            (lays, token)
    # below the best, the ranked plans earn the witness's next incomes
    distinct = sorted(set(witness.values()), reverse=True)
    assert sorted({p.income for p in plans}, reverse=True) == distinct[:len({p.income for p in plans})]


def _plan_key(plan: dict[str, Any]) -> tuple[Any, Any]:
    lays = plan["lays"]
    assert len(lays) <= 1  # no private lays on these turns
    lay = None if not lays else (lays[0]["hex"], lays[0]["tile"], lays[0]["rotation"])
    token = None if plan["token"] is None else (plan["token"]["hex"], plan["token"]["city"])
    return lay, token


def _compare(state: RouteState, objective: str = "total", subtract_cost: bool = False) -> None:
    assert not state.privates or all(p in ("KT", "FC") for p in state.privates)
    witness = brute_force(state, objective, subtract_cost)
    best = witness[0][0]
    tied = {key for score, key in witness if score == best}
    top = len(tied) + 2
    report = api.suggest_turn(state, top=top, objective=objective, subtract_cost=subtract_cost,
                              trains=False).to_json()
    assert report["unranked"] == []
    assert report["candidates"] == len(witness)
    plans = report["plans"]
    assert all(p["proven_optimal"] for p in plans)
    assert [p["score"] for p in plans] == [score for score, _ in witness[:top]]
    assert {_plan_key(p) for p in plans if p["score"] == best} == tied
    # the counts add up: every plan is priced, pruned by a bound, or unranked
    assert report["plans_solved"] + report["pruned_by_lay_bound"] + \
        report["pruned_by_train_bound"] + report["pruned_by_token_bound"] == report["candidates"]


@pytest.mark.parametrize("name,action_id", BRUTE_FORCE_TURNS + (BRUTE_FORCE_MORE if ALL else []))
def test_top_plans_equal_the_brute_force(name: str, action_id: int) -> None:
    _compare(_state(name, action_id))


def test_cost_subtracted_and_revenue_objective_equal_the_brute_force() -> None:
    state = _state("129026", 292)
    _compare(state, subtract_cost=True)
    _compare(state, objective="revenue")


def _turns_with_lay_and_token() -> list[tuple[str, int, int, int]]:
    """(log, turn start, run_routes id, the run's income) where the company laid and tokened."""
    out = []
    for name in ("129026", "1888_game_end_bankrupt"):
        log = _log(name)
        report = api.replay_game(log, solve=False)
        actions = {a["id"]: a for a in log["actions"] if isinstance(a.get("id"), int)}
        for run in report.runs:
            assert run.action_id is not None and run.turn_start_action_id is not None
            kinds = {actions[i]["type"] for i in range(run.turn_start_action_id, run.action_id)
                     if i in actions and actions[i].get("entity") == run.corporation}
            if {"lay_tile", "place_token"} <= kinds:
                out.append((name, run.turn_start_action_id, run.action_id,
                            run.engine_revenue + run.engine_subsidy))
    return out


def test_best_plan_earns_at_least_what_the_player_earned() -> None:
    turns = _turns_with_lay_and_token()
    assert len(turns) >= 4
    sample = turns if ALL else turns[:: max(1, len(turns) // 4)][:4]
    for name, start, run_id, earned in sample:
        report = api.suggest_turn(_state(name, start), top=1, trains=False)
        best = report.plans[0]
        assert best.proven_optimal and not report.unranked
        assert best.income >= earned, (name, start, run_id, best.income, earned)


def test_train_advice_follows_the_rules_on_a_state() -> None:
    """A state with its market: a depot 4 begins phase 4 and rusts the 2s; another company's
    train costs ¥1 up to the cash; the advice is each train set's own optimum."""
    from route18xx.engine.inputs.state_file import to_state_file

    state = _state("129026", 207)  # JHR's board, read as a phase-3 company with a 2 and a 3

    file = to_state_file(replace(state, phase=state.data.phase("3"), trains=(
        state.data.trains["2"], state.data.trains["3"])))
    file["depot"] = ["4"]
    file["other_trains"] = [{"corporation": "LYR", "train": "3"}]
    file["cash"] = 400
    report = api.suggest_turn(file, top=1)
    options = {(t.source, t.train): t for t in report.train_advice.options}
    depot4 = options[("depot", "4")]
    assert depot4.price == 300 and depot4.phase == "4" and depot4.trains_after == ("3", "4")
    from_lyr = options[("corporation", "3")]
    assert (from_lyr.price, from_lyr.max_price) == (1, 400 - report.plans[0].plan.cost)
    assert from_lyr.phase == "3" and from_lyr.trains_after == ("2", "3", "3")
    after = api.read_state(report.plans[0].state_after)
    for option in (depot4, from_lyr):
        trains = tuple(after.data.trains[n] for n in option.trains_after)
        phase = after.data.phase(option.phase)
        assert phase is not None
        assert option.income == _income(replace(after, trains=trains, phase=phase), "total")


def test_market_fields_are_checked() -> None:
    state = _state("129026", 207)
    from route18xx.engine.inputs.state_file import to_state_file

    file = to_state_file(state)
    with pytest.raises(api.MalformedInput, match=r"depot\[0\]"):
        api.suggest_turn(dict(file, depot=["9"]))
    with pytest.raises(api.MalformedInput, match=r"other_trains\[0\].corporation"):
        api.suggest_turn(dict(file, other_trains=[{"corporation": state.corporation.sym,
                                                   "train": "3"}]))
    with pytest.raises(api.MalformedInput, match="top"):
        api.suggest_turn(file, top=0)


class _CancelAfter(api.CancelToken):
    """Reads as cancelled after ``n`` looks (a deadline that passes mid-ranking, on cue)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.looks = n

    @property
    def cancelled(self) -> bool:
        self.looks -= 1
        return self.looks < 0


def test_a_deadline_mid_ranking_lists_the_unranked_plans() -> None:
    state = _state("129026", 411)
    full = api.suggest_turn(state, top=3, trains=False)
    assert not full.unranked
    cut = api.suggest_turn(state, top=3, trains=False, cancel=_CancelAfter(60))
    assert cut.unranked
    ranked = cut.plans_solved + cut.pruned_by_lay_bound + cut.pruned_by_train_bound + \
        cut.pruned_by_token_bound
    assert ranked + len(cut.unranked) == cut.candidates == full.candidates
    with pytest.raises(api.OutOfTime):  # not even the plans could be listed in time
        api.suggest_turn(state, top=3, trains=False, time_limit_s=0.001)


def test_the_train_bound_keeps_the_ranking_exact() -> None:
    """``TurnOptions(train_bound=True)`` (each train's best route alone, summed): on a real
    two-train turn where it prunes (JHR, the bankrupt log's turn of run 448), the top
    plans' scores are the brute force's and every plan is counted once."""
    from route18xx.engine.turn.turn_rank import TurnOptions, rank_turn

    state = _state("1888_game_end_bankrupt", 448)
    assert len(state.trains) > 1
    assert all(p in ("KT", "FC") for p in state.privates)  # no private lays: the witness's kind
    witness = brute_force(state)
    ranking = rank_turn(state, TurnOptions(top=5, train_bound=True))
    assert ranking.pruned_by_train_bound > 0 and not ranking.unranked
    assert [r.score for r in ranking.ranked] == [score for score, _ in witness[:5]]
    assert all(r.proven for r in ranking.ranked)
    assert ranking.plans_solved + ranking.pruned_by_lay_bound + ranking.pruned_by_train_bound + \
        ranking.pruned_by_token_bound == ranking.plans == len(witness)
