"""Station-token legality in the token step (RULES.md §6.6, §2.6)."""

from __future__ import annotations

from typing import Any

import pytest

from route18xx.engine.board.board import Board
from route18xx.engine.errors import MalformedInput
from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.board.token_place import (
    TokenPlacement,
    check_token,
    legal_token_placements,
    next_token_price,
    reserved_for_others,
)
from tests.engine.north_boards import assert_refused, board

TILES = game_data("1888").tiles


#: Yantai–G15–Qingdao: LYR at home, a green two-slot Qingdao (tile 15), ZDR at home in Zibo.
LINE = [("G15", "9", 0), ("H14", "15", 1), ("G11", "57", 0)]
LYR = board(LINE, [("F16", 0, "LYR"), ("G11", 0, "ZDR")])


def refused(code: str, *words: str, b: Board, args: tuple[str, str, int], **kw: Any) -> None:
    assert_refused(lambda: check_token(b, *args, **kw), code, *words)


def test_a_reachable_free_city() -> None:
    assert check_token(LYR, "LYR", "H14", 0) == TokenPlacement("H14", 0, 40)
    assert legal_token_placements(LYR, "LYR") == [TokenPlacement("H14", 0, 40)]


def test_prices_follow_the_tokens_used() -> None:
    assert next_token_price(LYR, "LYR") == 40
    b = LYR.with_token("H14", 0, "LYR")
    assert next_token_price(b, "LYR") == 60
    assert next_token_price(b.with_token("G11", 0, "LYR"), "LYR") is None  # LYR has 3 tokens
    assert check_token(LYR, "LYR", "H14", 0, token_price=100).price == 100


def test_not_reachable() -> None:
    refused("not_reachable", "G11", "LYR", b=LYR, args=("LYR", "G11", 0))
    refused("not_reachable", b=LYR, args=("ZDR", "H14", 0))


def test_city_full() -> None:
    b = board([("G15", "9", 0), ("H14", "5", 2)], [("F16", 0, "LYR"), ("H14", 0, "ZDR")])
    refused("city_full", "H14-0", "ZDR", b=b, args=("LYR", "H14", 0))


def test_slot_reserved_for_a_home_token() -> None:
    # Yantai has two slots, one kept for LYR's home token; HJR took the other
    b = board(LINE, [("H14", 0, "ZDR"), ("F16", 0, "HJR")])
    refused("slot_reserved", "LYR", b=b, args=("ZDR", "F16", 0))
    # without HJR there, ZDR may take the unreserved slot
    free = board(LINE, [("H14", 0, "ZDR")])
    assert check_token(free, "ZDR", "F16", 0).price == 40


def test_reservations_follow_the_city_through_upgrades() -> None:
    """Beijing's reservations move with their city like tokens (RULES.md §6.5 #8)."""
    b = board([("C9", "L42", 0)], [])
    assert reserved_for_others(b, "C9", 0, "JHR") == ("JZR",)   # printed city 0, exit 1
    assert reserved_for_others(b, "C9", 3, "JZR") == ("JHR",)   # printed city 1, exit 5
    # on the brown single city both reservations share its four slots
    brown = board([("C9", "8892", 0), ("D10", "6", 2)], [("D10", 0, "SSL"), ("C9", 0, "HJR")])
    assert reserved_for_others(brown, "C9", 0, "SSL") == ("JZR", "JHR")
    assert check_token(brown, "SSL", "C9", 0).price == 40  # 1 held + 2 kept < 4 slots
    crowded = brown.with_token("C9", 0, "CDL")
    refused("slot_reserved", "JZR", "JHR", b=crowded, args=("SSL", "C9", 0))
    # once JZR is home its slot is no longer kept: 3 held + JHR's kept slot = 4
    assert reserved_for_others(crowded.with_token("C9", 0, "JZR"), "C9", 0, "SSL") == ("JHR",)
    refused("city_full", b=crowded.with_token("C9", 0, "JZR").with_token("C9", 0, "JHR"),
            args=("SSL", "C9", 0))


def test_already_on_the_hex() -> None:
    refused("already_on_hex", "F16", b=LYR, args=("LYR", "F16", 0))


def test_already_in_the_other_city_of_the_hex() -> None:
    """The other Beijing city counts too (RULES.md §6.6)."""
    b = board([("C9", "L42", 0)], [("C9", 3, "JHR")])
    refused("already_on_hex", "C9", b=b, args=("JHR", "C9", 1))


def test_no_money() -> None:
    refused("insufficient_cash", "40", "30", b=LYR, args=("LYR", "H14", 0), cash=30)
    assert legal_token_placements(LYR, "LYR", cash=30) == []


def test_no_token_left() -> None:
    b = LYR.with_token("H14", 0, "LYR").with_token("G11", 0, "LYR")
    refused("no_token_left", "LYR", b=b, args=("LYR", "H14", 0))


def test_malformed_city_or_ids() -> None:
    with pytest.raises(MalformedInput) as err:
        check_token(LYR, "LYR", "H14", 1)
    assert err.value.field == "city"
    with pytest.raises(MalformedInput):
        check_token(LYR, "LYR", "Z1", 0)
    with pytest.raises(MalformedInput):
        check_token(LYR, "XYZ", "H14", 0)


def test_towns_are_not_token_cities() -> None:
    b = board([("G13", "58", 2)], [])
    with pytest.raises(MalformedInput):
        check_token(b, "LYR", "G13", 0)
