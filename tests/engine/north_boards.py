"""Hand-built 1888 (north) boards for the track and token legality tests, and their refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

from route18xx.engine.board.board import Board
from route18xx.engine.errors import IllegalAction
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.titles import TITLES
from route18xx.engine.inputs.state_file import parse_board

#: 1888's rule sets (engine/data/1888/rule_sets.json)
NORTH = TITLES["1888"].rule_sets["north"]


def board(tiles: Iterable[tuple[str, str, int]] = (),
          tokens: Iterable[tuple[str, int, str]] = ()) -> Board:
    """A board from (hex, tile, rotation) and (hex, city, company); checked like a state file."""
    return parse_board(
        [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
        [{"hex": h, "city": c, "corporation": k} for h, c, k in tokens],
        NORTH,
        game_data("1888"),
    )


def assert_refused(call: Callable[[], Any], code: str, *words: str) -> None:
    """``call()`` is refused with ``code``, and the message names each of ``words``."""
    with pytest.raises(IllegalAction) as err:
        call()
    assert err.value.code == code, err.value.message
    for word in words:
        assert word in err.value.message, err.value.message
