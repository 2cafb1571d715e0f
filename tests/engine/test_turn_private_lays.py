"""``engine.turn_private_lays`` and ``engine.turn_normal_lays`` list exactly what
``legal_tile_lays`` lists (issue 24).

The fast lister checks fewer candidates (seconds next to the first tile; on a
later board, what was legal on the first board plus what lies near a changed
hex or uses a tile back in the supply). The witness is ``legal_tile_lays``
itself, asked on each board: a real JHR board (129026, action 207) with the
Great Wall given to it, after normal lays of several kinds (a new tile, an
upgrade that returns its tile to the supply) and after a first Great Wall tile.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from route18xx.engine import api
from route18xx.engine.board.board import Board
from route18xx.engine.board.tile_abilities import tile_ability
from route18xx.engine.board.tile_lay import TileLay, legal_tile_lays, make_context
from route18xx.engine.board.network import reach
from route18xx.engine.turn.turn_normal_lays import NormalLays
from route18xx.engine.suggest.suggest import player_owned_blockers
from route18xx.engine.turn.turn_private_lays import PrivateLays
from tests.conftest import LOGS_DIR


def _keys(lays: list[TileLay]) -> list[tuple[Any, ...]]:
    return [(l.hex, l.tile, l.rotation, l.cost, l.replaces, l.ability) for l in lays]


def _great_wall_turn() -> tuple[Any, str, dict[str, Any]]:
    log = json.loads((LOGS_DIR / "129026.json").read_text("utf-8"))
    state = api.state_from_log(log, 207)
    state = replace(state, privates=tuple(sorted(set(state.privates) | {"CW"})))
    common: dict[str, Any] = dict(phase=state.phase, rule_set=state.rule_set,
                                  owned_privates=state.privates,
                                  player_owned_blockers=player_owned_blockers(state))
    return state, state.corporation.sym, common


def test_great_wall_lays_equal_legal_tile_lays_on_every_board_kind() -> None:
    state, corp, common = _great_wall_turn()
    ability = tile_ability(state.rule_set, "CW", state.data)
    assert ability is not None
    fast = PrivateLays(state.board, corp, "CW", ability, common, None)
    normal = legal_tile_lays(state.board, corp, cash=state.cash, **common)
    upgrades = [l for l in normal if l.replaces is not None]
    fresh = [l for l in normal if l.replaces is None]
    assert upgrades and fresh
    boards: list[Board] = [state.board]
    for lay in (fresh[0], fresh[-1], upgrades[0]):
        boards.append(state.board.with_tile(lay.hex, state.data.tiles[lay.tile], lay.rotation))
    checked_seconds = 0
    for board in boards:
        want = legal_tile_lays(board, corp, special="CW", cash=state.cash, **common)
        got = fast.firsts(board, state.cash)
        assert _keys(got) == _keys(want)
        assert want
        for first in (want[0], want[len(want) // 2]):
            after = board.with_tile(first.hex, state.data.tiles[first.tile], first.rotation)
            want2 = legal_tile_lays(after, corp, special="CW", first_special_lay=first.hex,
                                    cash=state.cash, **common)
            assert _keys(fast.seconds(after, first, state.cash)) == _keys(want2)
            checked_seconds += len(want2)
    assert checked_seconds > 0


def test_normal_lays_after_great_wall_tiles_equal_legal_tile_lays() -> None:
    """After Great Wall tiles the network reaches (the whole check) and tiles it does not
    (the local check): the same lays as ``legal_tile_lays``, in the same order."""
    state, corp, common = _great_wall_turn()
    fast = NormalLays(state.board, corp, common)
    firsts = legal_tile_lays(state.board, corp, special="CW", cash=state.cash, **common)
    edges = reach(state.board, corp).edges
    by_kind: dict[Any, list[Board]] = {"reached": [], "beside": [], "away": []}
    for first in firsts:
        board = state.board.with_tile(first.hex, state.data.tiles[first.tile], first.rotation)
        near = {first.hex, *board.hex(first.hex).neighbors.values()}
        sides = make_context(board, corp, **common).sides
        kind = ("reached" if reach(board, corp).edges != edges
                else "beside" if any(sides(h) for h in near) else "away")
        by_kind[kind].append(board)
    # the local check matters beside the network: a lay there may change with the tile
    assert all(by_kind.values())
    for kind, boards in by_kind.items():
        for board in boards if kind == "beside" else boards[:: max(1, len(boards) // 4)][:4]:
            want = legal_tile_lays(board, corp, cash=state.cash, **common)
            assert want and _keys(fast.lays(board, state.cash)) == _keys(want)
