"""Move suggestions (issue 6): the ranking equals a plain one-by-one evaluation, every
suggested board and route is accepted by the engine, and the turn facts are honoured."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from route18xx.engine.api import check_routes, suggest_moves
from route18xx.engine.errors import MalformedInput
from route18xx.engine.answer.optimize import optimize
from route18xx.engine.inputs.state_file import parse_state, to_state_file
from route18xx.engine.suggest.suggest import (
    SuggestOptions, _key_and_bound, applied, candidate_moves, suggest,
)
from route18xx.engine.suggest.suggest_answer import shared_routes
from tests.conftest import STATES_DIR, load_json

#: Real decisions from both logs: early, middle and late game, 1–2 trains.
STATES = ["129026-138", "129026-251", "129026-399", "129026-728", "1888_game_end_bankrupt-507",
          "129026-433"]


def _state(name: str, **extra: Any) -> dict[str, Any]:
    raw = copy.deepcopy(load_json(STATES_DIR / f"{name}.json")["state"])
    raw.update(extra)
    return raw


def _plain_ranking(name: str, top: int, include_tokens: bool, subtract_cost: bool) -> list[Any]:
    """Evaluate every legal move one by one, no bound, no reuse, no threads."""
    state = parse_state(_state(name))
    rows = []
    for move in candidate_moves(state, include_tokens):
        after = replace(state, board=applied(state.board, move, state.corporation.sym))
        opt = optimize(after, objective="total")
        assert opt.solution.status == "OPTIMAL"
        income = opt.judgement.revenue + opt.judgement.subsidy
        score = income - (move.cost if subtract_cost else 0)
        rows.append((-score, move.sort_key, move, income))
    rows.sort(key=lambda r: (r[0], r[1]))
    return [(r[2].report(state.data).to_json(), r[3]) for r in rows[:top]]


@pytest.mark.parametrize("name", STATES)
def test_ranking_equals_plain_evaluation(name: str) -> None:
    for include_tokens, subtract_cost, top in ((False, False, 5), (True, True, 3)):
        options = SuggestOptions(top=top, include_tokens=include_tokens, subtract_cost=subtract_cost)
        state = parse_state(_state(name))
        res = suggest(state, options)
        got = [(e.move.report(state.data).to_json(), e.income) for e in res.ranked]
        assert got == _plain_ranking(name, top, include_tokens, subtract_cost)
        assert res.not_evaluated == []
        assert all(e.proven for e in res.ranked)


@pytest.mark.parametrize("name", ["129026-251", "129026-399"])
def test_every_suggested_board_and_route_is_accepted(name: str) -> None:
    state = parse_state(_state(name))
    report = suggest_moves(state, top=5, include_tokens=True).to_json()
    assert report["suggestions"]
    for s in report["suggestions"]:
        move = next(m for m in candidate_moves(state, True) if m.report(state.data).to_json() == {
            k: s[k] for k in ("kind", "hex", "tile", "rotation", "city", "private", "lays", "cost",
                              "text")})
        board_state = to_state_file(
            replace(state, board=applied(state.board, move, state.corporation.sym)))
        parse_state(board_state)  # the new board stands: every tile legal on its hex
        checked = check_routes(board_state, s["routes"])
        assert checked["legal"], checked["violations"]
        assert checked["revenue"] + checked["subsidy"] == s["income"]
        assert s["gain"] == s["income"] - report["base_income"]


def test_base_income_is_the_optimum_without_a_move() -> None:
    raw = _state("129026-399")
    report = suggest_moves(raw, top=1).to_json()
    ref = load_json(STATES_DIR / "129026-399.json")["reference"]
    assert report["base_income"] == ref["optimal_total"]
    assert report["suggestions"][0]["income"] >= report["base_income"]


def test_normal_lay_already_made_leaves_no_tile_suggestion() -> None:
    report = suggest_moves(_state("129026-399", tiles_laid=[{"hex": "H12"}]), top=5).to_json()
    assert report["candidates"] == 0 and report["suggestions"] == []


def test_cash_limits_terrain() -> None:
    rich = candidate_moves(parse_state(_state("129026-399")))
    poor = candidate_moves(parse_state(_state("129026-399", cash=0)))
    assert any(m.cost > 0 for m in rich)
    assert [m for m in rich if m.cost == 0] == poor


def test_owned_private_adds_its_special_lay() -> None:
    """Terracotta Army owned by HJR in phase 4: L39 on Xi'an H2, free, one of the candidates."""
    state = parse_state(_state("129026-251", privates=["TA"]))
    special = [m for m in candidate_moves(state) if m.lays and m.lays[0].ability == "TA"]
    assert [(m.hex, m.lays[0].tile, m.cost) for m in special] == [("H2", "L39", 0)]
    ranked = suggest(state, SuggestOptions(top=1)).ranked
    assert ranked[0].move.hex == "H2"  # Xi'an at 50 beats the preprinted 30 for HJR's 4-train


def test_deadline_lists_what_was_not_evaluated() -> None:
    res = suggest(parse_state(_state("129026-728")), SuggestOptions(top=3, time_limit_s=0.05))
    assert len(res.ranked) + len(res.not_evaluated) + res.pruned >= min(3, res.candidates)
    assert res.not_evaluated, "a 50 ms budget cannot solve 74 late-game candidates"


@pytest.mark.parametrize("bad,field", [({"top": 0}, "top"), ({"time_limit_s": 0}, "time_limit_s")])
def test_bad_options(bad: dict[str, Any], field: str) -> None:
    with pytest.raises(MalformedInput) as exc:
        suggest_moves(_state("129026-138"), **bad)
    assert exc.value.field == field


@pytest.mark.parametrize("name", ["129026-251", "129026-728", "1888_game_end_bankrupt-507"])
def test_graph_bound_is_never_below_the_optimum(name: str) -> None:
    """The bound a candidate is ranked and pruned by (``graph_bound``) is sound: no
    board's optimum, in either objective, is above it."""
    state = parse_state(_state(name))
    for move in candidate_moves(state, include_tokens=True)[::3]:
        after = replace(state, board=applied(state.board, move, state.corporation.sym))
        for objective in ("total", "revenue"):
            opt = optimize(after, objective=objective)
            income = opt.judgement.revenue + (opt.judgement.subsidy if objective == "total" else 0)
            assert _key_and_bound(after, objective)[1] >= income, (move, objective)


def test_shared_routes_only_where_they_run_at_the_same_income() -> None:
    """A top move that shared another board's solve takes its routes only when they run on
    its own board at the same income (129026-202: one lay at H12 changes the track those
    routes ran on, ``shared_routes`` says None and the move is solved again)."""
    state = parse_state(_state("129026-202"))
    res = suggest(state, SuggestOptions(top=len(candidate_moves(state))))
    outcomes = []
    for e in res.ranked:
        if e.shared is None:
            continue
        after = replace(state, board=applied(state.board, e.move, state.corporation.sym))
        opt = shared_routes(after, e.shared)
        outcomes.append(opt is not None)
        if opt is not None:
            assert opt.judgement.legal
            assert (opt.judgement.revenue, opt.judgement.subsidy) == (
                e.shared.judgement.revenue, e.shared.judgement.subsidy)
    assert True in outcomes and False in outcomes
    report = suggest_moves(state, top=len(candidate_moves(state))).to_json()
    for s in report["suggestions"]:
        assert s["proven_optimal"]
        assert sum(r["revenue"] + r["subsidy"] for r in s["routes"]) == s["income"]
