"""The share price grid and its moves (RULES.md §5.9, data/market.json).

A price is a cell ``(row, column)`` of the grid, row 0 at the top. Each cell
remembers the order in which corporations arrived on it, which breaks ties in
the operating order (RULES.md §6.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

Cell: TypeAlias = tuple[int, int]


@dataclass
class StockMarket:
    """The market grid plus, per cell, the corporations on it in arrival order."""

    grid: tuple[tuple[Mapping[str, Any] | None, ...], ...]
    arrivals: dict[Cell, list[str]] = field(default_factory=dict)
    #: The yellow ("no certificate limit") cells of the rules in force
    #: (``engine.rule_versions``: changed on 2023-08-25, HISTORY.md §2.1);
    #: None: the grid's own flags (market.json, today's grid).
    yellow: frozenset[Cell] | None = None

    @classmethod
    def from_data(cls, market: Mapping[str, Any], yellow: frozenset[Cell] | None = None) -> StockMarket:
        return cls(tuple(tuple(row) for row in market["grid"]), yellow=yellow)

    # -- facts ---------------------------------------------------------------

    def exists(self, cell: Cell) -> bool:
        row, col = cell
        return (
            0 <= row < len(self.grid) and 0 <= col < len(self.grid[row]) and (self.grid[row][col] is not None)
        )

    def price(self, cell: Cell) -> int:
        info = self.grid[cell[0]][cell[1]]
        assert info is not None, f"no market cell at {cell}"
        return int(info["price"])

    def is_par(self, cell: Cell) -> bool:
        return self.exists(cell) and bool(self.grid[cell[0]][cell[1]]["par"])  # type: ignore[index]

    def no_cert_limit(self, cell: Cell | None) -> bool:
        """Yellow zone: shares there do not count toward the certificate limit (§5.11).

        Which cells are yellow depends on the rules' date (HISTORY.md §2.1).
        """
        if cell is None or not self.exists(cell):
            return False
        if self.yellow is not None:
            return cell in self.yellow
        return bool(self.grid[cell[0]][cell[1]]["no_cert_limit"])  # type: ignore[index]

    def flag(self, cell: Cell | None, name: str) -> bool:
        """A cell's zone flag from the grid (1830 market.json: ``holding_limit_lifted``
        in the orange and brown zones, ``multiple_buy`` in the brown; 1830 RULES.md §14)."""
        if cell is None or not self.exists(cell):
            return False
        return bool(self.grid[cell[0]][cell[1]].get(name))  # type: ignore[union-attr]

    def lifts_holding_limit(self) -> bool:
        """Some cell lifts the 60 % holding limit (1830; never in 1888)."""
        return any(cell is not None and cell.get("holding_limit_lifted") for row in self.grid for cell in row)

    def par_cells(self) -> list[Cell]:
        return [
            (r, c)
            for r, row in enumerate(self.grid)
            for c, info in enumerate(row)
            if info is not None and info["par"]
        ]

    # -- moves (pure) ----------------------------------------------------------

    def up(self, cell: Cell) -> Cell:
        """Sold out at the end of a stock round: one row up, if that cell exists."""
        above = (cell[0] - 1, cell[1])
        return above if self.exists(above) else cell

    def down(self, cell: Cell) -> Cell:
        """Per share sold: one row down, if that cell exists (§5.8)."""
        below = (cell[0] + 1, cell[1])
        return below if self.exists(below) else cell

    def right(self, cell: Cell) -> Cell:
        """Dividend paid: one cell right; at the row's end one row up instead."""
        nxt = (cell[0], cell[1] + 1)
        return nxt if self.exists(nxt) else self.up(cell)

    def left(self, cell: Cell) -> Cell:
        """Withheld or no revenue: one cell left; at the row's start one row down instead."""
        prev = (cell[0], cell[1] - 1)
        return prev if self.exists(prev) else self.down(cell)

    # -- placement -------------------------------------------------------------

    def place(self, corp: str, cell: Cell) -> None:
        self.arrivals.setdefault(cell, []).append(corp)

    def move(self, corp: str, old: Cell, new: Cell) -> Cell:
        """Move ``corp``'s marker; a corporation that lands on a cell queues last on it."""
        if new == old:
            return old
        queue = self.arrivals.get(old, [])
        if corp in queue:
            queue.remove(corp)
        self.place(corp, new)
        return new

    def arrival_index(self, corp: str, cell: Cell) -> int:
        queue = self.arrivals.get(cell, [])
        return queue.index(corp) if corp in queue else len(queue)
