"""Node ids read back from the game data's table (engine/board/board.py ``_SPLIT``, issue 21):
the same as parsing ``"<hex>-<index>"`` (ROUTES.md §1.4), for every id of every title."""

from __future__ import annotations

import pytest

from route18xx.engine.board import board
from route18xx.engine.board.board import Board, split_node_id
from route18xx.engine.facts.gamedata import game_data


@pytest.mark.parametrize("title", ["1888", "1830", "1889", "18Chesapeake", "1882", "1856"])
def test_every_node_id_of_a_map_reads_as_its_hex_and_index(title: str) -> None:
    data = game_data(title)
    Board({}, {}, data)
    tiles = [*data.tiles.values(), *(h.preprinted for h in data.hexes.values())]
    indexes = {node.index for tile in tiles for node in tile.nodes}
    assert indexes == {"1888": {0, 1, 2, 3}, "1830": {0, 1}, "1889": {0}, "18Chesapeake": {0, 1},
                       "1882": {0, 1}, "1856": {0, 1}}[title]  # the titles' tiles
    for hex_id in data.hexes:
        for index in indexes:
            node = f"{hex_id}-{index}"
            assert split_node_id(node) == (hex_id, index)
            assert node in board._SPLIT  # read from the table, not parsed
            assert board.NODE_IDS[(hex_id, index)] == node == board.node_id(hex_id, index)
    assert split_node_id("C9-17") == ("C9", 17)  # beyond every tile: parsed
    assert split_node_id("X-Y-3") == ("X-Y", 3)


@pytest.mark.parametrize("bad", ["C9", "-1", "C9-x", "C9-", "", "C9-1-"])
def test_a_malformed_node_id_is_refused(bad: str) -> None:
    Board({}, {}, game_data("1888"))
    with pytest.raises(ValueError, match="not a node id"):
        split_node_id(bad)
