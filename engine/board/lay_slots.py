"""The normal tile lays of a corporation's turn (RULES.md §6.5; 18xx.games ``TILE_LAYS``).

1888, 1830, 1889 and 18Chesapeake lay or upgrade one tile a turn. 1882 lays two yellow tiles
or upgrades one, the second lay costing $20 more (g_1882/game.rb ``TILE_LAYS``:
``{lay: true, upgrade: true}``, ``{lay: :not_if_upgraded, upgrade: false, cost: 20}``). The
slots are the title's data (``GameData.tile_lays``); this module reads them: which slot the
turn's next normal lay takes, which lays it allows, and what it costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from route18xx.engine.board.board import Board
from route18xx.engine.board.tile_lay import TileLay
from route18xx.engine.facts.gamedata import HexId, LaySlot


def is_upgrade(board: Board, lay: TileLay) -> bool:
    """Whether ``lay`` replaces a tile (or a printed yellow or better hex) rather than laying
    on an empty white hex: an upgrade (RULES.md §6.5)."""
    return board.tile_on(lay.hex).tile.color != "white"


def was_upgrade(board: Board, hex_id: HexId) -> bool:
    """Whether the lay that left ``hex_id``'s tile was an upgrade: the tile is not yellow, or
    the hex was printed with a tile of its own (a state lists lays by hex alone)."""
    return board.tile_on(hex_id).tile.color != "yellow" or board.hex(hex_id).preprinted.color != "white"


def next_slot(slots: Sequence[LaySlot], upgrades: Sequence[bool]) -> LaySlot | None:
    """The slot the turn's next normal lay takes after lays that were (``upgrades``) or were
    not upgrades; None when the turn has no normal lay left."""
    if len(upgrades) >= len(slots):
        return None
    slot = slots[len(upgrades)]
    if slot.lay == "not_if_upgraded" and any(upgrades):
        return None
    if not slot.lay and not slot.upgrade:
        return None
    return slot


def slot_lays(board: Board, slot: LaySlot, lays: Sequence[TileLay], cash: int | None) -> list[TileLay]:
    """The lays of ``lays`` that ``slot`` allows on ``board``, each costing the slot's cost
    more, within ``cash``."""
    out = []
    for lay in lays:
        upgrade = is_upgrade(board, lay)
        if (upgrade and not slot.upgrade) or (not upgrade and not slot.lay):
            continue
        if slot.cost:
            lay = replace(lay, cost=lay.cost + slot.cost)
            if cash is not None and lay.cost > cash:
                continue
        out.append(lay)
    return out
