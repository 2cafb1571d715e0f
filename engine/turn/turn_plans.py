"""Whole-turn plans: every legal combination of a company's lays and its token (issue 24).

A company's turn in 1888 (RULES.md §6.3) lays track — one normal lay (§6.5),
plus each lay its privates allow this turn (§7.2 Terracotta Army, §7.3 Heng
Shan, §7.4 Great Wall: one or two connected yellow tiles, §7.5 the ferry's two
tiles together), the privates "at any time during the turn", so before or after
the normal lay — then places at most one station token (§6.6) on the board the
lays leave. A **plan** is one such combination; each may be left out.

``lay_boards`` walks every order the rules allow (a private's lay before the
normal one may open hexes to it, or the normal lay may come first) and keeps
one sequence per resulting board: two orders that leave the same tiles are one
plan. A private lay the company's network does not reach once every lay is
made cannot change its income (routes run only on reached track, ROUTES.md
§3.8) and is free (§7): such a plan is the plan without that lay, listed once.
``token_options`` lists the legal tokens after the lays, paid from the cash the
lays leave (§6.5 #6, §6.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from route18xx.engine.board.board import Board
from route18xx.engine.facts.gamedata import HexId
from route18xx.engine.board.network import reach
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.board.tile_abilities import tile_ability
from route18xx.engine.board.lay_slots import is_upgrade, next_slot, slot_lays, was_upgrade
from route18xx.engine.board.state_rules import teleport_privates, uses_tile_action
from route18xx.engine.board.tile_lay import TileLay, legal_tile_lays
from route18xx.engine.turn.turn_normal_lays import NormalLays
from route18xx.engine.turn.turn_private_lays import PrivateLays
from route18xx.engine.board.token_place import TokenPlacement, legal_token_placements, next_token_price


@dataclass(frozen=True)
class LayBoard:
    """The lays of a plan, in the order made, and the board they leave."""

    lays: tuple[TileLay, ...]
    board: Board
    cost: int

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return tuple((lay.ability or "", lay.hex, lay.tile, lay.rotation) for lay in self.lays)


@dataclass(frozen=True)
class Plan:
    """A whole-turn plan: its lays (possibly none) and a token (or none) after them."""

    lays: tuple[TileLay, ...]
    token: TokenPlacement | None
    cost: int

    @property
    def sort_key(self) -> tuple[Any, ...]:
        """Ties are broken by: fewer lays, then the lays, then no token before a token."""
        lay_key = tuple((lay.ability or "", lay.hex, lay.tile, lay.rotation) for lay in self.lays)
        token_key = (0, "", -1) if self.token is None else (1, self.token.hex, self.token.city)
        return (len(self.lays), lay_key, token_key)


def _private_options(
    state: RouteState, board: Board, lays: PrivateLays, cash: int | None
) -> list[tuple[TileLay, ...]]:
    """What one private may lay now, each option whole (§7.4: the Great Wall's two tiles
    one after the other and joined; §7.5: the ferry's two tiles together; 18Chesapeake's
    C-P and B&S: a tile on each of their two hexes, the second joining the first,
    ``must_lay_all`` with ``connect``)."""
    ability, private = lays.ability, lays.private
    done = [h for h, p in state.tiles_laid if p == private]
    left = None if ability.count is None else ability.count - len(done)
    if left is not None and left <= 0:
        return []
    firsts = lays.firsts(board, cash)
    if ability.must_lay_all and ability.connect:  # 18Chesapeake's C-P and B&S: both, joined
        return [(lay, second) for lay in firsts if lay.hex == ability.hexes[0]
                for second in lays.seconds(_with(board, lay), lay, cash)
                if {lay.hex, second.hex} == set(ability.hexes)]
    if ability.must_lay_all:
        by_hex: dict[HexId, TileLay] = {}
        for lay in firsts:
            by_hex.setdefault(lay.hex, lay)
        if set(by_hex) != set(ability.hexes):
            return []
        return [tuple(by_hex[h] for h in ability.hexes)]
    options: list[tuple[TileLay, ...]] = [(lay,) for lay in firsts]
    if ability.connect and (left is None or left >= 2) and not done:
        for lay in firsts:
            options.extend((lay, second) for second in lays.seconds(_with(board, lay), lay, cash))
    return options


def _with(board: Board, lay: TileLay) -> Board:
    """``board`` with ``lay``'s tile in place."""
    return board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)


def lay_boards(
    state: RouteState, *, poll: Callable[[], None] | None = None
) -> list[LayBoard]:
    """Every distinct board the turn's lays can leave (no lay included), one sequence each.

    ``poll`` is called between enumeration steps (a deadline check may raise there).
    """
    from route18xx.engine.suggest.suggest import player_owned_blockers

    corp = state.corporation.sym
    common: dict[str, Any] = dict(
        phase=state.phase, rule_set=state.rule_set, owned_privates=state.privates,
        player_owned_blockers=player_owned_blockers(state),
    )
    teleports = teleport_privates(state.data, state.rule_set.name)
    slots = state.data.tile_lays  # the turn's normal lays (``lay_slots``)
    made = () if any(p in teleports for _, p in state.tiles_laid) else tuple(
        was_upgrade(state.board, h) for h, p in state.tiles_laid if p is None)
    normal_left = not any(p in teleports for _, p in state.tiles_laid) and \
        next_slot(slots, made) is not None
    normal_lays = NormalLays(state.board, corp, common)
    privates: list[PrivateLays] = []
    for p in sorted(state.privates):
        ability = tile_ability(state.rule_set, p, state.data)
        if ability is not None and p in state.privates:
            done = [h for h, by in state.tiles_laid if by == p]
            privates.append(PrivateLays(state.board, corp, p, ability, common,
                                        done[0] if done else None))
    found: dict[Any, LayBoard] = {}
    seen: set[Any] = set()

    def walk(board: Board, lays: tuple[TileLay, ...], cost: int, normal: tuple[bool, ...] | None,
             used: frozenset[str]) -> None:
        """``normal``: the turn's normal lays so far, each an upgrade or not (None: a
        teleport took the turn's tile action)."""
        signature = (tuple(sorted((h, p.tile.name, p.rotation) for h, p in board.placed.items())),
                     normal, used)
        if signature in seen:
            return
        seen.add(signature)
        if poll is not None:
            poll()
        known = found.get(signature[0])
        if known is None or cost < known.cost:
            found[signature[0]] = LayBoard(lays, board, cost)
        cash = None if state.cash is None else state.cash - cost
        slot = None if normal is None else next_slot(slots, normal)
        if slot is not None and normal is not None:
            for lay in slot_lays(board, slot, normal_lays.lays(board, cash), cash):
                after = board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)
                walk(after, lays + (lay,), cost + lay.cost, normal + (is_upgrade(board, lay),), used)
        for private in privates:
            if private.private in used:
                continue
            teleport = private.private in teleports  # the turn's tile action (RULES.md §6.5)
            if teleport and normal != ():
                continue
            for option in _private_options(state, board, private, cash):
                after = board
                for lay in option:
                    after = after.with_tile(lay.hex, after.data.tiles[lay.tile], lay.rotation)
                walk(after, lays + option, cost + sum(l.cost for l in option),
                     None if teleport else normal, used | {private.private})

    walk(state.board, (), 0, made if normal_left else None, frozenset())
    boards = list(found.values())
    return _without_inert_private_lays(boards, corp)


def _without_inert_private_lays(boards: list[LayBoard], corp: str) -> list[LayBoard]:
    """Drop a plan whose private lays are not all reached when the plan without the
    unreached ones is listed too (same income: routes run on reached track only)."""
    by_lays = {frozenset(lb.lays) for lb in boards}
    out = []
    for lb in boards:
        privates = [lay for lay in lb.lays if lay.ability is not None]
        if privates:
            net = reach(lb.board, corp)
            touched = {h for h, _ in net.paths} | {h for h, _ in net.nodes}
            inert = [lay for lay in privates if lay.hex not in touched]
            if inert and frozenset(l for l in lb.lays if l not in inert) in by_lays:
                continue
        out.append(lb)
    return out


def token_options(state: RouteState, lay_board: LayBoard) -> list[TokenPlacement]:
    """The legal tokens on the board the lays leave, paid from what they leave (§6.6)."""
    board, corp = lay_board.board, state.corporation.sym
    price = next_token_price(board, corp)
    if price is None:
        return []
    cash = None if state.cash is None else state.cash - lay_board.cost
    return legal_token_placements(board, corp, token_price=price, cash=cash)


def plans_of(state: RouteState, lay_board: LayBoard,
             tokens: Iterable[TokenPlacement]) -> list[Plan]:
    """The plans of one lay board: no token, then each token."""
    out = [Plan(lay_board.lays, None, lay_board.cost)]
    out.extend(Plan(lay_board.lays, t, lay_board.cost + t.price) for t in tokens)
    return out


def plan_board(lay_board: LayBoard, token: TokenPlacement | None, corp: str) -> Board:
    """The board after the plan."""
    if token is None:
        return lay_board.board
    return lay_board.board.with_token(token.hex, token.city, corp)
