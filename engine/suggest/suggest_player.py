"""Suggestions in the form a player acts on (issue 22), over ``engine.suggest``'s ranking.

* ``merge_equal``: one entry per result (the rotations of a tile that give the
  same income become its ``alternatives``);
* ``lay_then_token``: the best lays each followed by every legal token
  (RULES.md §6.5, then §6.6), ranked as single moves are;
* ``chosen_suggestion``: the move a player picked from a ranking, checked legal
  and solved, to be drawn.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace as replace_struct

from route18xx.engine.errors import MalformedInput
from route18xx.engine.answer.optimize import optimize, routes_report
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.suggest.suggest import (
    Move, SuggestOptions, applied, candidate_moves, income_of, time_left_for,
)
from route18xx.engine.suggest.suggest_report import MoveReport, Suggestion
from route18xx.engine.board.token_place import legal_token_placements, next_token_price

if TYPE_CHECKING:
    from route18xx.solver import CancelToken


def merge_equal(suggestions: list[Suggestion]) -> list[Suggestion]:
    """One entry per result: rotations of the same tile on the same hex with the same
    income and score are one suggestion, the others listed as its ``alternatives``
    (best rank first; the order of the list is kept)."""
    out: list[Suggestion] = []
    index: dict[tuple[Any, ...], int] = {}
    for s in suggestions:
        m = s.move
        key = (m.kind, m.hex, m.tile, m.city, len(m.lays), s.income, s.score)
        if m.kind != "tile" or len(m.lays) != 1 or key not in index:
            index.setdefault(key, len(out))
            out.append(s)
            continue
        first = out[index[key]]
        out[index[key]] = replace_struct(first, alternatives=first.alternatives + (m,))
    return out


#: How many of the best lays ``lay_then_token`` follows with every legal token.
COMBINED_LAYS = 3


def lay_then_token(
    state: RouteState, lays: list[Move], base_income: int, options: SuggestOptions,
    started: float, cancel: CancelToken | None,
) -> list[Suggestion]:
    """The best lay + token pairs: each of the ``COMBINED_LAYS`` best lays (ranked
    order), then each token the company may place on the board it leaves (RULES.md
    §6.5 then §6.6: the lay comes first, the token is paid from what is left),
    solved and ranked like single moves; the ``options.top`` best. A pair's ``cost``
    is the lay's and the token's together; pairs not reached within the ranking's
    time limit are left out."""
    corp = state.corporation.sym
    data = state.data
    ranked: list[tuple[tuple[Any, ...], Suggestion]] = []
    seen: set[str] = set()
    chosen: list[Move] = []
    for lay in lays:  # distinct boards: one rotation of a tile that equals another is enough
        if lay.lays and f"{lay.hex}/{lay.lays[0].tile}" in seen:
            continue
        seen.add(f"{lay.hex}/{lay.lays[0].tile}" if lay.lays else lay.hex)
        chosen.append(lay)
        if len(chosen) == COMBINED_LAYS:
            break
    for lay in chosen:
        after = replace(state, board=applied(state.board, lay, corp))
        price = next_token_price(after.board, corp)
        if price is None:
            continue
        cash = None if state.cash is None else state.cash - lay.cost
        for token in legal_token_placements(after.board, corp, token_price=price, cash=cash):
            if (cancel is not None and cancel.cancelled) or \
                    time.perf_counter() - started >= options.time_limit_s:
                break  # out of time: the pairs ranked so far
            move = Move("token", (), token.hex, token.city, token.price)
            board = applied(after.board, move, corp)
            opt = optimize(replace(after, board=board), objective=options.objective,
                           time_limit_s=time_left_for(options, started, cancel), cancel=cancel)
            income = income_of(opt, options.objective)
            cost = lay.cost + token.price
            score = income - (cost if options.subtract_cost else 0)
            report = lay.report(data)
            suggestion = Suggestion.of(
                replace_struct(report, cost=cost), income, income - base_income, score,
                opt.solution.status == "OPTIMAL", routes_report(opt),
                then_token=move.report(data))
            ranked.append(((-score, lay.sort_key, move.sort_key), suggestion))
    ranked.sort(key=lambda item: item[0])
    return [s for _, s in ranked[: options.top]]


def chosen_suggestion(
    state: RouteState, moves: list[MoveReport], *, objective: str = "total",
    time_limit_s: float = 10.0, cancel: CancelToken | None = None,
) -> Suggestion:
    """The suggestion a client picked (issue 22: "each suggestion clickable to draw it"):
    one move of a ranking, or a lay then a token (``combined``), checked legal in turn
    against ``candidate_moves`` (``MalformedInput`` naming ``moves[i]``), solved on the
    board they leave, with its gain over no move."""
    if not 1 <= len(moves) <= 2:
        raise MalformedInput("moves", f"must hold one move, or a lay then a token, not {len(moves)}")
    if len(moves) == 2 and (moves[0].kind, moves[1].kind) != ("tile", "token"):
        raise MalformedInput("moves", "two moves must be a tile lay, then a token")
    corp = state.corporation.sym
    after = state
    picked: list[Move] = []
    for i, wanted in enumerate(moves):
        key = _move_key(wanted)
        found = next((m for m in candidate_moves(after, include_tokens=True)
                      if _move_key(m.report(after.data)) == key), None)
        if found is None:
            raise MalformedInput(f"moves[{i}]", f"is not a legal move for {corp} here: "
                                               f"{wanted.kind} on {wanted.hex}")
        picked.append(found)
        laid = tuple((lay.hex, lay.ability) for lay in found.lays)
        after = replace(after, board=applied(after.board, found, corp),
                        tiles_laid=after.tiles_laid + laid,
                        cash=None if after.cash is None else after.cash - found.cost)
    base = optimize(state, objective=objective, time_limit_s=time_limit_s, cancel=cancel)
    opt = optimize(replace(after, cash=state.cash, tiles_laid=state.tiles_laid),
                   objective=objective, time_limit_s=time_limit_s, cancel=cancel)
    income = income_of(opt, objective)
    first = picked[0].report(state.data)
    cost = sum(m.cost for m in picked)
    return Suggestion.of(
        replace_struct(first, cost=cost), income, income - income_of(base, objective), income,
        opt.solution.status == "OPTIMAL", routes_report(opt),
        then_token=picked[1].report(state.data) if len(picked) == 2 else None)


def _move_key(move: MoveReport) -> tuple[Any, ...]:
    """What identifies a move: a token's city, or every lay (a lay named only by its
    hex, tile and rotation is that one lay)."""
    lays: tuple[tuple[str, str | None, int | None], ...] = tuple(
        (lay.hex, lay.tile, lay.rotation) for lay in move.lays)
    if move.kind == "tile" and not lays:
        lays = ((move.hex, move.tile, move.rotation),)
    return (move.kind, move.hex, move.city if move.kind == "token" else None, lays)


__all__ = ["COMBINED_LAYS", "chosen_suggestion", "lay_then_token", "merge_equal"]
