"""The initial waterfall auction of the six privates (RULES.md §4).

Players take turns in seating order: buy the cheapest unsold private at its
price, bid on another one, or pass. After a purchase the cheapest remaining
private goes to its single bidder, or to an auction among several bidders in
which the lowest bidder always acts, or waits when nobody bid. When everybody
passed in a row, Kaiping Tramway's price drops by ¥5 (free → the next player
must take it), or — once it is sold — privates pay income and the end-of-set
export fires. The round ends when every private is owned; the player whose
normal turn would come next gets priority (§4.7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, Bid, Entity, Par, Pass
from route18xx.engine.game.privates import grant_shares
from route18xx.engine.game.steps import NO_ACTIONS, Round, Step, describe

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.players import Player


class WaterfallAuction(Step):
    name = "auction"
    handles = frozenset({"bid", "pass", "par"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        current = _round(game).current_entity(game)
        if current is not None and action.entity != current:
            return IllegalAction(
                "not_your_turn",
                f"it is {describe(game, current)}'s turn, not {describe(game, action.entity)}'s",
            )
        return None

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = _round(game)
        if entity != rnd.current_entity(game):
            return NO_ACTIONS
        if rnd.pending_par:
            return frozenset({"par"})
        if not rnd.unsold:
            return NO_ACTIONS
        return frozenset({"bid", "pass"})

    def process(self, game: Game, action: Action) -> None:
        rnd = _round(game)
        if action.entity != rnd.current_entity(game):
            raise IllegalAction("not_your_turn", f"it is {describe(game, rnd.current_entity(game))}'s turn")
        if rnd.pending_par and not isinstance(action, Par):
            raise IllegalAction("must_par", f"{describe(game, action.entity)} must first par {rnd.pending_par[0][1]}")
        match action:
            case Par():
                rnd.par(game, action)
            case Bid():
                rnd.bid(game, action)
            case Pass():
                rnd.pass_(game, action)
            case _:
                raise IllegalAction("unsupported", f"the auction takes bids and passes, not {action.type}")


class AuctionRound(Round):
    """State of the waterfall auction (18xx.games ``WaterfallAuction``)."""

    kind = "auction"

    def __init__(self) -> None:
        super().__init__([WaterfallAuction()])
        self.unsold: list[str] = []
        self.bids: dict[str, list[tuple[int, int]]] = {}
        self.auctioning: str | None = None
        self.index = 0
        self.passed: set[int] = set()
        self.cheapest: str | None = None
        #: (player, corporation): a president's certificate a private granted, to par
        #: before anything else (1830 RULES.md §7.6, B&O; 18xx.games ``CompanyPendingPar``).
        self.pending_par: list[tuple[int, str]] = []

    def setup(self, game: Game) -> None:
        self.unsold = [c.sym for c in sorted(game.companies.values(), key=lambda c: c.value)]
        self.cheapest = self.unsold[0] if self.unsold else None
        self.index = 0

    # -- whose turn -------------------------------------------------------------

    def current_entity(self, game: Game) -> Entity | None:
        if self.pending_par:
            return self.pending_par[0][0]
        if not self.unsold:
            return None
        if self.auctioning is not None:
            bids = self.bids[self.auctioning]
            return min(bids, key=lambda b: b[1])[0]
        return game.players[self.index % len(game.players)].id

    def finished(self, game: Game) -> bool:
        return not self.unsold and not self.pending_par

    def priority_player(self, game: Game) -> Player:
        """The player whose normal turn comes next (RULES.md §4.7)."""
        return game.players[self.index % len(game.players)]

    # -- money ------------------------------------------------------------------

    def committed(self, player: int, except_company: str | None = None) -> int:
        return sum(
            price
            for company, bids in self.bids.items()
            if company != except_company
            for pid, price in bids
            if pid == player
        )

    def max_bid(self, game: Game, player: int, company: str) -> int:
        """Cash less the player's bids on other privates (RULES.md §4.3)."""
        return game.player(player).cash - self.committed(player, company)

    def min_bid(self, game: Game, company: str) -> int:
        bids = self.bids.get(company, [])
        step = int(game.facts["auction"]["bid_increment"])
        if bids:
            return max(price for _, price in bids) + step
        return game.company(company).value + step

    # -- actions ----------------------------------------------------------------

    def bid(self, game: Game, action: Bid) -> None:
        player = int(action.entity)
        company = game.company(action.company)
        if company.sym not in self.unsold:
            raise IllegalAction("company_sold", f"{company.sym} is already owned")
        if self.auctioning is not None:
            if company.sym != self.auctioning:
                raise IllegalAction(
                    "auction_running", f"{company.sym} is not up for auction; {self.auctioning} is"
                )
            self._check_bid(game, player, company.sym, action.price)
            self._place(player, company.sym, action.price)
            return
        if company.sym == self.unsold[0]:
            if action.price != company.price:
                raise IllegalAction("wrong_price", f"{company.sym} costs {company.price}, not {action.price}")
            if action.price > self.max_bid(game, player, company.sym):
                raise IllegalAction(
                    "not_enough_cash",
                    f"{describe(game, player)} cannot pay {action.price} for {company.sym} "
                    f"beside their other bids",
                )
            self.passed.discard(player)
            self._buy(game, player, company.sym, action.price)
            self.resolve(game)
        else:
            self._check_bid(game, player, company.sym, action.price)
            self.passed.discard(player)
            self._place(player, company.sym, action.price)
        self.index += 1

    def _check_bid(self, game: Game, player: int, company: str, price: int) -> None:
        low = self.min_bid(game, company)
        if price < low:
            raise IllegalAction("bid_too_low", f"a bid on {company} must be at least {low}, not {price}")
        high = self.max_bid(game, player, company)
        if price > high:
            raise IllegalAction(
                "not_enough_cash",
                f"{describe(game, player)} can bid at most {high} on {company} (cash less other bids)",
            )

    def _place(self, player: int, company: str, price: int) -> None:
        bids = [b for b in self.bids.get(company, []) if b[0] != player]
        bids.append((player, price))
        self.bids[company] = bids

    def pass_(self, game: Game, action: Pass) -> None:
        player = int(action.entity)
        if self.auctioning is not None:
            company = self.auctioning
            self.bids[company] = [b for b in self.bids[company] if b[0] != player]
            self.resolve(game)
            return
        self.passed.add(player)
        if all(p.id in self.passed for p in game.players):
            self._all_passed(game)
        self.index += 1

    def _buy(self, game: Game, player: int, company_sym: str, price: int) -> None:
        company = game.company(company_sym)
        buyer = game.player(player)
        game.pay_to_bank(buyer, price)
        company.owner = player
        self.unsold.remove(company_sym)
        self.bids.pop(company_sym, None)
        self.pending_par.extend((player, corp) for corp in grant_shares(game, company, player))

    def par(self, game: Game, action: Par) -> None:
        """The par price of a president's certificate a private granted: no money
        moves, the buyer already holds it (1830 RULES.md §7.6; base.rb ``CompanyPendingPar``)."""
        player, sym = self.pending_par[0]
        if action.entity != player or action.corporation != sym:
            raise IllegalAction("must_par", f"{describe(game, player)} must par {sym}")
        corp = game.corporation(sym)
        cell = (action.row, action.column)
        if not game.market.is_par(cell) or game.market.price(cell) != action.price:
            raise IllegalAction("not_a_par_price", f"{action.price} at {cell} is not a par price")
        corp.par = cell
        corp.par_price = action.price
        corp.share_price = cell
        game.market.place(corp.sym, cell)
        self.pending_par.pop(0)

    def resolve(self, game: Game) -> None:
        """Sell the cheapest privates to single bidders; start an auction on several (§4.4)."""
        self.auctioning = None
        while self.unsold:
            company = self.unsold[0]
            bids = self.bids.get(company, [])
            if not bids:
                return
            if len(bids) == 1:
                player, price = bids[0]
                self._buy(game, player, company, price)
                continue
            self.auctioning = company
            return

    def _all_passed(self, game: Game) -> None:
        """Everyone passed: cheaper Kaiping Tramway, or a fake OR with the export (§4.6)."""
        from route18xx.engine.game.privates import pay_private_income
        from route18xx.engine.game.trains import or_set_finished

        self.passed.clear()
        cheapest = self.cheapest
        if cheapest is not None and cheapest in self.unsold:
            company = game.company(cheapest)
            company.discount += int(game.facts["auction"]["cheapest_discount_step"])
            if company.price <= 0:
                forced = game.players[(self.index + 1) % len(game.players)]
                self.index += 1
                self._buy(game, forced.id, cheapest, 0)
                self.resolve(game)
        else:
            pay_private_income(game)
            or_set_finished(game)


def _round(game: Game) -> AuctionRound:
    rnd = game.round
    assert isinstance(rnd, AuctionRound)
    return rnd
