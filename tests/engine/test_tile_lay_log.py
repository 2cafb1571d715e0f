"""Every tile lay and token placement of the real 18xx.games logs is legal for our engine.

A minimal replay of the board only (RULES.md §6.4–§6.6, ACTIONS.md §2.2): undo/redo
filtering, home tokens at a company's first action, tile lays (normal and through
privates), token placements. Each recorded lay must pass ``check_tile_lay`` and
each token ``check_token``; the recorded lay must also be among ``legal_tile_lays``.
Phase colours are checked with the phase reconstructed from the highest train
type bought so far (exports are not replayed: a lower bound is enough, since the
real lays never used a colour before its phase).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from route18xx.engine.board.board import Board, PlacedTile, city_for_exits
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.board.tile_lay import check_tile_lay, legal_tile_lays
from route18xx.engine.board.tile_rules import track_key
from route18xx.engine.board.token_place import check_token, legal_token_placements
from tests.conftest import LOGS_DIR, load_json

LOGS = sorted(LOGS_DIR.glob("*.json"))


def kept_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """ACTIONS.md §2.2: the actions left after undo/redo."""
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    groups: list[list[tuple[int, dict[str, Any]]]] = []
    for i, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            if action.get("action_id") is not None:
                target = action["action_id"]
                start = 0 if target == 0 else next(
                    j + 1 for j, a in enumerate(actions) if a.get("id") == target
                )
            else:
                start = next(
                    (j for j in range(i - 1, -1, -1)
                     if kept[j] is not None and kept[j]["type"] != "message"),
                    0,
                )
            group = [(j, kept[j]) for j in range(start, i)
                     if kept[j] is not None and kept[j]["type"] != "message"]
            for j, _ in group:
                kept[j] = None
            groups.append(group)  # type: ignore[arg-type]
        elif kind == "redo":
            for j, a in groups.pop():
                kept[j] = a
        else:
            if kind != "message":
                groups.clear()
            kept[i] = action
    return [a for a in kept if a is not None]


def replay(log: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Board, str, str | None]]:
    """Yield (action, board before it, phase lower bound, previous CW hex this turn)."""
    data = game_data("1888")
    tile_ids = {h.preprinted_tile_id: h.id for h in data.hexes.values()}
    board = Board({}, {}, game_data("1888"))
    started: set[str] = set()
    phase_order = [p.name for p in data.phases]
    phase = "2"
    previous_cw: str | None = None
    for action in kept_actions(log["actions"]):
        entity = action.get("entity")
        if action.get("entity_type") == "corporation" and entity not in started:
            started.add(entity)
            corp = data.corporations[entity]
            hex_id = corp.home_hex
            printed = corp.home_city_index or 0
            city = printed
            if hex_id in board.placed:
                city = city_for_exits(
                    PlacedTile(data.hexes[hex_id].preprinted, 0), printed, board.tile_on(hex_id)
                )
            board = board.with_token(hex_id, city, entity)
        if action["type"] == "buy_train":
            new = action["train"].split("-")[0]  # each train type starts its own phase
            if phase_order.index(new) > phase_order.index(phase):
                phase = new
        yield action, board, phase, previous_cw
        if action["type"] == "lay_tile":
            name, _, _copy = action["tile"].rpartition("-")
            tile_ids = {k: v for k, v in tile_ids.items() if v != action["hex"]}
            tile_ids[action["tile"]] = action["hex"]
            board = board.with_tile(action["hex"], data.tiles[name], action["rotation"])
            previous_cw = action["hex"] if entity == "CW" and previous_cw is None else None
        else:
            previous_cw = None
        if action["type"] == "place_token":
            tile_id, _, city = action["city"].rpartition("-")
            board = board.with_token(tile_ids[tile_id], int(city), entity)


def _rule_set(log: dict[str, Any]) -> str:
    return "north" if "north" in log["settings"]["optional_rules"] else "prototype"


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_recorded_tile_lay_is_legal(path: Path) -> None:
    log = load_json(path)
    rule_set = _rule_set(log)
    checked = 0
    for action, board, phase, previous_cw in replay(log):
        if action["type"] != "lay_tile":
            continue
        name = action["tile"].rpartition("-")[0]
        entity = action["entity"]
        special = entity if action["entity_type"] == "company" else None
        corp = entity if special is None else "JZR"  # abilities need no connection
        kwargs: dict[str, Any] = dict(
            phase=phase,
            rule_set=rule_set,
            owned_privates=(special,) if special else (),
            special=special,
            first_special_lay=previous_cw if special == "CW" else None,
        )
        lay = check_tile_lay(board, corp, action["hex"], name, action["rotation"], **kwargs)
        assert lay.tile == name
        # The recorded lay is one of the enumerated ones (up to identical track).
        options = legal_tile_lays(board, corp, **kwargs)
        key = track_key(PlacedTile(game_data("1888").tiles[name], action["rotation"]))
        assert any(
            o.hex == action["hex"] and o.tile == name
            and track_key(PlacedTile(game_data("1888").tiles[o.tile], o.rotation)) == key
            for o in options
        ), f"action {action['id']}: {name} on {action['hex']} not enumerated"
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_recorded_token_is_legal(path: Path) -> None:
    log = load_json(path)
    tile_ids = {h.preprinted_tile_id: h.id for h in game_data("1888").hexes.values()}
    checked = 0
    for action, board, _phase, _cw in replay(log):
        if action["type"] == "lay_tile":
            tile_ids = {k: v for k, v in tile_ids.items() if v != action["hex"]}
            tile_ids[action["tile"]] = action["hex"]
        if action["type"] != "place_token":
            continue
        tile_id, _, city = action["city"].rpartition("-")
        hex_id = tile_ids[tile_id]
        placement = check_token(board, action["entity"], hex_id, int(city))
        assert placement in legal_token_placements(board, action["entity"])
        checked += 1
    assert checked >= 5
