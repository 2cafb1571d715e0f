"""Everything that changes during a game of 1888, in one copyable value.

The ``Game`` facade (``engine.game.game``) owns one ``GameState`` and the
immutable facts (map, tiles, trains, rule set). A snapshot is a deep copy of
the state with the immutable board shared, which is how a rejected action is
guaranteed to leave the game untouched.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from route18xx.engine.board.board import Board
from route18xx.engine.game.bank import Bank
from route18xx.engine.game.companies import Company
from route18xx.engine.game.corporations import Corporation
from route18xx.engine.game.depot import Depot
from route18xx.engine.game.market import StockMarket
from route18xx.engine.game.players import Player
from route18xx.engine.facts.gamedata import HexId

if TYPE_CHECKING:
    from route18xx.engine.game.steps import Round


@dataclass
class GameState:
    players: list[Player]
    bank: Bank
    market: StockMarket
    corporations: dict[str, Corporation]
    companies: dict[str, Company]
    depot: Depot
    board: Board
    #: laid tile id per hex (hexes still showing their preprinted tile are absent).
    tile_at: dict[HexId, str] = field(default_factory=dict)
    #: home city slots still reserved: corporation → (hex, city index on the tile now there)
    #: (RULES.md §2.6); two reservations may end up in one city (Beijing's brown tile).
    reservations: dict[str, tuple[HexId, int]] = field(default_factory=dict)
    phase_index: int = 0
    #: 18xx.games ``turn``: the stock round number (RULES.md §3.3).
    turn: int = 1
    #: ORs in the current set, fixed when the stock round ends (RULES.md §3.2).
    operating_rounds: int = 1
    round: Round | None = None
    finished: bool = False
    end_reason: str | None = None
    #: the last action processed (kept for reports).
    last_action_id: int | None = None

    def snapshot(self) -> GameState:
        """A deep copy sharing the immutable board and its data."""
        memo = {id(self.board): self.board, id(self.board.data): self.board.data}
        for corp in self.corporations.values():
            memo[id(corp.definition)] = corp.definition
        for company in self.companies.values():
            memo[id(company.definition)] = company.definition
        memo[id(self.market.grid)] = self.market.grid
        memo[id(self.market.yellow)] = self.market.yellow
        return copy.deepcopy(self, memo)
