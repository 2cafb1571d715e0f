"""An operating round (RULES.md §6).

At the start every owned private pays its income (§6.2) and the floated
corporations are ordered by share price (§6.1). Each corporation in turn
places its home token on its first turn (§6.4) and goes through the steps of
``engine.game.special_track``, ``engine.game.or_steps`` and
``engine.game.or_purchases``; its turn ends when no step waits for it any
more. Emergency share sales re-sort the corporations still to operate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.game.actions import Action, Entity
from route18xx.engine.routes.route_spec import RouteSpec
from route18xx.engine.game.discard import DiscardTrainStep
from route18xx.engine.game.or_purchases import BankruptStep, BuyCompanyStep, BuyTrainStep
from route18xx.engine.game.or_steps import (
    DividendStep,
    PendingTokenStep,
    RouteStep,
    TokenStep,
    TrackStep,
)
from route18xx.engine.game.privates import pay_private_income
from route18xx.engine.game.special_track import SpecialTrackStep
from route18xx.engine.game.stock_round import ExchangeStep
from route18xx.engine.game.steps import Round
from route18xx.engine.game.tokens import place_home_token

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.routing import RouteCheck


class OperatingRound(Round):
    kind = "operating"

    def __init__(self, number: int) -> None:
        super().__init__(
            [
                BankruptStep(),
                ExchangeStep(),
                SpecialTrackStep(),
                BuyCompanyStep(blocking=False),
                PendingTokenStep(),
                TrackStep(),
                TokenStep(),
                RouteStep(),
                DividendStep(),
                DiscardTrainStep(),
                BuyTrainStep(),
                BuyCompanyStep(blocking=True),
            ]
        )
        self.number = number
        self.order: list[str] = []
        self.index = 0
        self.ended = False
        self.ran: set[str] = set()
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.tokened = False
        self.routes: tuple[RouteSpec, ...] = ()
        self.revenue = 0
        self.subsidy = 0
        #: the engine's judgement of the booked run (``Game.process`` returns it).
        self.run_check: RouteCheck | None = None
        #: a two-tile private lay in progress: (private, hexes laid so far).
        self.special: tuple[str, list[str]] | None = None
        #: the lays made this turn, in order: (hex, private whose ability made it,
        #: or None for the normal track action) — a turn fact for move suggestions.
        self.laid: list[tuple[str, str | None]] = []
        self.emergency_sold = False
        #: the private whose teleport lay awaits its free token (1830's DH, 1830 RULES.md §7.3).
        self.teleported: str | None = None
        #: the price per share of the president's latest emergency sale this turn
        #: (18xx.games ``@last_share_sold_price``: he may not have sold more than needed).
        self.emergency_sale_price: int | None = None
        #: (corporation, hex): tokens a tile lay lifted, to place again (``PendingTokenStep``).
        self.pending_tokens: list[tuple[str, str]] = []

    def setup(self, game: Game) -> None:
        pay_private_income(game)
        self.order = [c.sym for c in game.operating_order()]
        self.index = 0
        if not self.order:
            self.ended = True
            return
        self._start_operating(game)

    def _start_operating(self, game: Game) -> None:
        self._reset_turn()
        corp = game.corporation(self.order[self.index])
        home = place_home_token(game, corp)
        if home is not None:  # a whole-hex home with track: the corporation chooses the city
            self.pending_tokens.append((corp.sym, home))
        self.reset_steps(game)
        self.skip_steps(game)
        if not game.finished and self.active_step(game) is None:
            self._next_entity(game)

    def current_entity(self, game: Game) -> Entity | None:
        if self.ended or not self.order:
            return None
        return self.order[self.index]

    def finished(self, game: Game) -> bool:
        return self.ended

    def after_process(self, game: Game, action: Action) -> None:
        if game.finished:
            return
        if self.active_step(game) is None:
            self._next_entity(game)

    def _next_entity(self, game: Game) -> None:
        game.corporation(self.order[self.index]).operated = True
        if self.index >= len(self.order) - 1:
            self.ended = True
            return
        self.index += 1
        self._start_operating(game)

    def recalculate_order(self, game: Game) -> None:
        """After an emergency sale, re-sort the corporations still to operate (§6.1)."""
        rest = [game.corporation(s) for s in self.order[self.index + 1 :]]
        self.order[self.index + 1 :] = [c.sym for c in game.operating_order(rest)]
