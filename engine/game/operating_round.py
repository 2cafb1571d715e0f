"""An operating round (RULES.md §6).

At the start every owned private pays its income (§6.2) and the floated
corporations are ordered by share price (§6.1). Each corporation in turn
places its home token on its first turn (§6.4; or, by the title's
``home_token_timing``, every corporation at the start of the round: 1889) and goes through the steps of
``engine.game.special_track``, ``engine.game.or_steps`` and
``engine.game.or_purchases``; its turn ends when no step waits for it any
more. Emergency share sales re-sort the corporations still to operate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from route18xx.engine.errors import RouteLevelOnly
from route18xx.engine.game.actions import Action, Entity
from route18xx.engine.routes.route_spec import RouteSpec
from route18xx.engine.game.discard import DiscardTrainStep
from route18xx.engine.game.owner_track import OwnerTrackStep
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
from route18xx.engine.game.steps import Round, Step
from route18xx.engine.game.tokens import place_home_token

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.routing import RouteCheck


#: Every operating-turn step the engine has, by the name a title's ``operating_steps``
#: lists it (``engine.titles.base.OPERATING_STEPS``): how to make a fresh one.
OPERATING_STEPS: dict[str, Callable[[], Step]] = {
    "bankrupt": BankruptStep,
    "share exchange": ExchangeStep,
    "private tile lay": SpecialTrackStep,
    # 1889's: also the seller's lay at a private's sale and the owning player's lay
    "special track": OwnerTrackStep,
    # a private may be bought at any time of the turn, waiting for nobody (RULES.md §6.9)
    "buy private at any time": lambda: BuyCompanyStep(blocking=False),
    "home token": PendingTokenStep,
    "track": TrackStep,
    "token": TokenStep,
    "run routes": RouteStep,
    "dividend": DividendStep,
    "discard train": DiscardTrainStep,
    "buy trains": BuyTrainStep,
    # the turn's last chance to buy one, which waits for the corporation to pass
    "buy private": lambda: BuyCompanyStep(blocking=True),
}


def operating_steps(title: str, names: Sequence[str]) -> list[Step]:
    """Fresh steps of an operating turn, in the title's order; a name the engine has no
    step for is ``RouteLevelOnly`` naming the title and the step: the title's games are
    not played (its state files are, at route level)."""
    unknown = [name for name in names if name not in OPERATING_STEPS]
    if unknown:
        raise RouteLevelOnly(f"{title}: operating_steps: no such step {unknown[0]!r} "
                             f"(the engine has {', '.join(OPERATING_STEPS)}): {title} is "
                             "played at route level only, its logs are not replayed")
    return [OPERATING_STEPS[name]() for name in names]


class OperatingRound(Round):
    kind = "operating"

    def __init__(self, number: int, steps: Sequence[Step]) -> None:
        """Round ``number`` of the set, with the title's steps (``operating_steps``)."""
        super().__init__(steps)
        self.number = number
        self.order: list[str] = []
        self.index = 0
        self.ended = False
        self.ran: set[str] = set()
        #: corporation → the hex whose city it chooses for its home token at its turn.
        self.homes_pending: dict[str, str] = {}
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
        #: the corporations sold in this turn's emergency (``engine.game.sell_order``: 1889
        #: sells each in one block).
        self.emergency_corps_sold: set[str] = set()
        #: the private whose teleport lay awaits its free token (1830's DH, 1830 RULES.md §7.3).
        self.teleported: str | None = None
        #: the price per share of the president's latest emergency sale this turn
        #: (18xx.games ``@last_share_sold_price``: he may not have sold more than needed).
        self.emergency_sale_price: int | None = None
        #: (corporation, hex): tokens a tile lay lifted, to place again (``PendingTokenStep``).
        self.pending_tokens: list[tuple[str, str]] = []
        #: the operating corporation has acted in its turn (18xx.games
        #: ``current_operator_acted``: ends ``or_between_turns``, ``player_lay_ability``).
        self.operator_acted = False
        #: (private, seller): a private just sold whose seller may lay its tile now
        #: (``engine.game.owner_track``: 1889's Ehime Railway).
        self.sold_lay: tuple[str, int] | None = None

    def setup(self, game: Game) -> None:
        pay_private_income(game)
        self.order = [c.sym for c in game.operating_order()]
        self.index = 0
        self.homes_pending = {}
        if game.title.home_token_timing == "operating_round":
            for sym in self.order:  # every home token at once (18xx.games ``:operating_round``)
                home = place_home_token(game, game.corporation(sym))
                if home is not None:
                    self.homes_pending[sym] = home
        if not self.order:
            self.ended = True
            return
        self._start_operating(game)

    def _start_operating(self, game: Game) -> None:
        self._reset_turn()
        corp = game.corporation(self.order[self.index])
        home = self.homes_pending.pop(corp.sym, None) or place_home_token(game, corp)
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
        operator = self.current_entity(game)
        if action.entity == operator and not action.is_company or (
                action.is_company and game.company(action.entity).owner == operator):
            self.operator_acted = True
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
