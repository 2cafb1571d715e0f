"""1830's share-price moves at the market's edges (1830 RULES.md §5.10, §5.11, §6.8;
18xx.games ``TwoDimensionalMovement``, ``StockMarket#move``: a move onto no box does
not happen). Prices are read off the 1830 market (RULES.md §2.7, data/market.json).

* paid out: one box right; at the row's end one row up instead (none at the top);
* withheld: one box left; at column 0 — or with no box to the left, the ledge of the
  lower rows — one row down instead, if that box exists;
* per share sold: one row down, if that box exists; sold out: one row up.
"""

from __future__ import annotations

import pytest

from route18xx.engine.game.market import Cell, StockMarket
from route18xx.engine.titles import title_named

MARKET = StockMarket.from_data(title_named("1830").data.market)


def _price(cell: Cell) -> int:
    return MARKET.price(cell)


@pytest.mark.parametrize("start, end, prices", [
    ((0, 6), (0, 7), (100, 112)),      # par 100, paid: 112
    ((2, 15), (1, 15), (200, 240)),    # row 2 ends at 200: up to 240
    ((0, 18), (0, 18), (350, 350)),    # the top right corner stays
])
def test_payout_moves_right_or_up_at_the_rows_end(start: Cell, end: Cell, prices: tuple[int, int]) -> None:
    assert MARKET.right(start) == end and (_price(start), _price(end)) == prices


@pytest.mark.parametrize("start, end, prices", [
    ((0, 6), (0, 5), (100, 90)),
    ((3, 0), (4, 0), (39, 32)),        # column 0: down a row
    ((8, 1), (8, 1), (10, 10)),        # the ledge: no box left, none below — stays
    ((7, 0), (7, 0), (10, 10)),        # column 0 of row 7: no box below — stays
])
def test_withholding_moves_left_or_down(start: Cell, end: Cell, prices: tuple[int, int]) -> None:
    assert MARKET.left(start) == end and (_price(start), _price(end)) == prices


@pytest.mark.parametrize("start, end", [((0, 6), (1, 6)), ((10, 6), (10, 6)), ((4, 10), (4, 10))])
def test_a_sale_moves_down_where_a_box_exists(start: Cell, end: Cell) -> None:
    assert MARKET.down(start) == end


@pytest.mark.parametrize("start, end", [((1, 6), (0, 6)), ((0, 3), (0, 3))])
def test_sold_out_moves_up_but_not_off_the_top(start: Cell, end: Cell) -> None:
    assert MARKET.up(start) == end


def test_the_zones_by_colour() -> None:
    """Yellow: no certificate limit; orange: and no 60 % limit; brown: and several buys
    in a turn (1830 RULES.md §5.6, §5.7)."""
    yellow, orange, brown, white = (0, 0), (3, 0), (5, 0), (0, 1)
    assert [MARKET.no_cert_limit(c) for c in (yellow, orange, brown, white)] == [True, True, True, False]
    assert [MARKET.flag(c, "holding_limit_lifted") for c in (yellow, orange, brown)] == [False, True, True]
    assert [MARKET.flag(c, "multiple_buy") for c in (yellow, orange, brown)] == [False, False, True]
    assert sorted(_price(c) for c in MARKET.par_cells()) == [67, 71, 76, 82, 90, 100]
