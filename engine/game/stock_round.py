"""The stock round (RULES.md §5).

Players act in seating order from the priority player. A turn: sell any
number of shares (not in SR 1, never after buying), then buy one share or par
one corporation — which ends the turn. A turn without a buy or sale is a pass;
the round ends when every player has passed in succession. Sold-out
corporations rise one row; the player after the last to buy or sell gets
priority (§5.3, §5.4, §5.10).

Steps: discard train (after an export-triggered phase change), the Forbidden
City exchange (non-blocking, §7.6), buy/sell/par.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, BuyCompany, BuyShares, Entity, Par, Pass, SellShares
from route18xx.engine.game.discard import DiscardTrainStep
from route18xx.engine.game.owner_track import PlayerLayStep
from route18xx.engine.game.privates import (
    check_player_buys_private,
    exchange_ability,
    exchange_corporations,
    exchange_sources,
    privates_for_sale_to,
)
from route18xx.engine.game.shares import IPO, POOL, cert_percent, is_president_cert
from route18xx.engine.game.sell_order import block_allows_sale, order_allows_sale
from route18xx.engine.game.steps import NO_ACTIONS, Round, Step, describe
from route18xx.engine.game.stock import (
    buy_share,
    check_buy,
    check_cert_room,
    check_float,
    check_holding,
    check_sale,
    sell,
    sellable_percents,
    update_president,
)

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.players import Player

BUYS = ("buy", "par", "exchange")


class BuySellParShares(Step):
    name = "buy/sell/par shares"
    handles = frozenset({"buy_shares", "sell_shares", "par", "pass", "buy_company"})
    TURN_ACTIONS = frozenset({"buy_shares", "sell_shares", "par", "pass", "buy_company"})

    def accepts(self, game: Game, action: Action) -> bool:
        """The current player's own actions all come here; ``process`` says why one is illegal."""
        rnd = _round(game)
        return action.entity == rnd.current_entity(game) and action.type in self.TURN_ACTIONS

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        current = _round(game).current_entity(game)
        if isinstance(action.entity, int) and action.entity != current:
            return IllegalAction(
                "not_your_turn",
                f"it is {describe(game, current)}'s turn, not {describe(game, action.entity)}'s",
            )
        return None

    def setup(self, game: Game) -> None:
        rnd = _round(game)
        rnd.turn_actions = []
        rnd.bought_corps = []
        rnd.bought_from_ipo = False
        rnd.sold_now = set()

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = _round(game)
        if entity != rnd.current_entity(game):
            return NO_ACTIONS
        player = game.player(entity)
        if must_sell(game, player) and can_sell_any(game, player):
            return frozenset({"sell_shares"})
        acts = set()
        if can_buy_any(game, player):
            acts.add("buy_shares")
        if can_par_any(game, player):
            acts.add("par")
        if can_sell_any(game, player):
            acts.add("sell_shares")
        if not rnd.bought() and privates_for_sale_to(game, player.id):
            acts.add("buy_company")  # a turn with only this to do still waits for a pass
        if acts:
            acts.add("pass")
        return frozenset(acts)

    def skip(self, game: Game) -> None:
        self._end_turn(game)

    def _end_turn(self, game: Game) -> None:
        """A turn with a buy or sale counts as acted, otherwise as a pass (§5.3)."""
        rnd = _round(game)
        player = rnd.current_entity(game)
        assert isinstance(player, int)
        if rnd.turn_actions:
            rnd.passed.discard(player)
        else:
            rnd.passed.add(player)
        self.passed = True

    def process(self, game: Game, action: Action) -> None:
        rnd = _round(game)
        player = game.player(action.entity)
        match action:
            case Pass():
                if must_sell(game, player) and can_sell_any(game, player):
                    raise IllegalAction("must_sell", f"{player.name} is over a limit and must sell")
                self._end_turn(game)
            case Par():
                self._par(game, rnd, player, action)
            case BuyShares():
                self._buy(game, rnd, player, action)
            case SellShares():
                self._sell(game, rnd, player, action)
            case BuyCompany():
                self._buy_company(game, rnd, player, action)
            case _:
                raise IllegalAction("unsupported", f"a stock round turn takes no {action.type}")

    def _buy_company(self, game: Game, rnd: StockRound, player: Player, action: BuyCompany) -> None:
        """Another player's private, as the turn's one purchase (1830 RULES.md §14)."""
        self._check_not_forced_to_sell(game, player)
        if rnd.bought():
            raise IllegalAction("already_bought", f"{player.name} already bought this turn")
        company = game.company(action.company)
        check_player_buys_private(game, player.id, company, action.price)
        seller = company.owner
        assert isinstance(seller, int)
        game.transfer(player, game.player(seller), action.price)
        company.owner = player.id
        # the turn's purchase, but not an act that moves the priority deal: 18xx.games'
        # ``process_buy_company`` records the action without ``track_action``
        rnd.turn_actions.append("buy")

    def _check_not_forced_to_sell(self, game: Game, player: Player) -> None:
        if must_sell(game, player) and can_sell_any(game, player):
            raise IllegalAction(
                "must_sell",
                f"{player.name} is over the certificate or holding limit and must sell first (§5.11)",
            )

    def _par(self, game: Game, rnd: StockRound, player: Player, action: Par) -> None:
        self._check_not_forced_to_sell(game, player)
        corp = game.corporation(action.corporation)
        if rnd.bought():
            raise IllegalAction("already_bought", f"{player.name} already bought this turn")
        if corp.ipoed:
            raise IllegalAction("already_parred", f"{corp.sym} is already parred")
        cell = (action.row, action.column)
        if not game.market.is_par(cell) or game.market.price(cell) != action.price:
            raise IllegalAction(
                "not_a_par_price",
                f"{action.price} at ({action.row}, {action.column}) is not a par price; "
                f"par prices are {sorted({game.market.price(c) for c in game.market.par_cells()})}",
            )
        cost = 2 * action.price
        if cost > player.cash:
            raise IllegalAction("not_enough_cash", f"{player.name} has {player.cash}, parring costs {cost}")
        check_cert_room(game, player, None)
        corp.par = cell
        corp.par_price = action.price
        corp.share_price = cell
        game.market.place(corp.sym, cell)
        game.pay_to_bank(player, cost)
        corp.shares.move(f"{corp.sym}_0", player.id)
        check_float(game, corp)
        rnd.acted(player, "par")

    def _buy(self, game: Game, rnd: StockRound, player: Player, action: BuyShares) -> None:
        if len(action.shares) != 1:
            raise IllegalAction("one_share", "a stock round purchase is one certificate")
        self._check_not_forced_to_sell(game, player)
        cert = action.shares[0]
        corp_sym = cert.rsplit("_", 1)[0]
        if rnd.bought() and not may_buy_again(game, rnd, corp_sym, cert):
            raise IllegalAction("already_bought", f"{player.name} already bought this turn")
        if corp_sym in rnd.sold.get(player.id, set()):
            raise IllegalAction(
                "sold_this_round", f"{player.name} sold {corp_sym} this round and cannot buy it back"
            )
        corp, cost = check_buy(game, player, cert)
        from_ipo = corp.shares.owner_of(cert) == IPO
        buy_share(game, player, corp, cert, cost)
        rnd.acted(player, "buy")
        rnd.bought_corps.append(corp.sym)
        rnd.bought_from_ipo = rnd.bought_from_ipo or from_ipo

    def _sell(self, game: Game, rnd: StockRound, player: Player, action: SellShares) -> None:
        if game.turn <= 1:
            raise IllegalAction("no_selling_yet", "no shares may be sold in the first stock round")
        if not order_allows_sale(game, rnd.turn_actions):
            raise IllegalAction("sell_after_buy", f"{player.name} already bought this turn and cannot sell")
        sale = check_sale(game, player, action.shares, action.percent)
        if not block_allows_sale(game, rnd.sold_now, sale.corp):
            raise IllegalAction("sell_in_blocks", f"{player.name} already sold {sale.corp} this turn: "
                                "a turn sells a corporation's shares in one block")
        sell(game, sale)
        rnd.sold.setdefault(player.id, set()).add(sale.corp)
        rnd.sold_now.add(sale.corp)
        rnd.acted(player, "sell")


class ExchangeStep(Step):
    """A private's share exchange: 1888's Forbidden City (RULES.md §7.6; the rule sets
    differ in timing and source), 1830's Mohawk & Hudson, in stock and operating rounds
    alike (1830 RULES.md §7.4; ``Title.exchange_in_operating_round``)."""

    name = "share exchange"
    can_block = False

    def accepts(self, game: Game, action: Action) -> bool:
        return action.type == "buy_shares" and action.is_company

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        if not game.is_company(entity):
            return NO_ACTIONS
        company = game.company(entity)
        if exchange_ability(company) is None or not company.owned_by_player():
            return NO_ACTIONS
        if not isinstance(game.round, StockRound):
            return frozenset({"buy_shares"}) if game.title.exchange_in_operating_round else NO_ACTIONS
        rnd = _round(game)
        if game.rule_set.exchange_is_turn_action:
            if company.owner != rnd.current_entity(game) or rnd.bought() or "sell" in rnd.turn_actions:
                return NO_ACTIONS
        return frozenset({"buy_shares"})

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, BuyShares):
            raise IllegalAction("unsupported", f"{action.entity} only exchanges for a share")
        company = game.company(action.entity)
        if exchange_ability(company) is None:
            raise IllegalAction("no_ability", f"{company.sym} has no share exchange")
        if not company.owned_by_player():
            raise IllegalAction("not_owner", f"{company.sym} must be owned by a player to exchange")
        if not self.actions(game, action.entity):
            raise IllegalAction(
                "exchange_timing",
                f"{company.sym} may be exchanged only on its owner's turn, before buying or selling",
            )
        assert isinstance(company.owner, int)
        player = game.player(company.owner)
        if len(action.shares) != 1:
            raise IllegalAction("one_share", "the exchange gives one certificate")
        cert = action.shares[0]
        corp = game.corporation(cert.rsplit("_", 1)[0])
        if corp not in exchange_corporations(game, company):
            if isinstance(exchange_ability(company).get("corporations"), list):  # type: ignore[union-attr]
                raise IllegalAction(
                    "not_exchangeable", f"{company.sym} cannot be exchanged for a {corp.sym} share")
            # the refusal's code is 1888's (the reference's own word), its text the data's hexes
            hexes = " or ".join(sorted(game.data.exchange_token_hexes))
            raise IllegalAction("no_beijing_token", f"{corp.sym} has no station on {hexes}")
        owner = corp.shares.owner_of(cert)
        if owner not in exchange_sources(game) or is_president_cert(cert):
            where = " or ".join("the IPO" if s == IPO else "the pool" for s in exchange_sources(game))
            raise IllegalAction("exchange_source", f"the exchanged share must come from {where}")
        check_holding(game, player, corp, cert_percent(cert))
        previous = corp.president
        corp.shares.move(cert, player.id)
        company.closed = True
        update_president(game, corp, previous)
        check_float(game, corp)
        if game.rule_set.exchange_is_turn_action and isinstance(game.round, StockRound):
            _round(game).acted(player, "exchange")


class StockRound(Round):
    kind = "stock"

    def __init__(self) -> None:
        super().__init__([DiscardTrainStep(), ExchangeStep(), PlayerLayStep(), BuySellParShares()])
        self.index = 0
        self.passed: set[int] = set()
        self.turn_actions: list[str] = []
        #: corporations whose shares were bought this turn, and whether one came from
        #: the IPO (the brown zone's multiple buys, 1830 RULES.md §14).
        self.bought_corps: list[str] = []
        self.bought_from_ipo = False
        self.sold: dict[int, set[str]] = {}
        #: corporations the turn has sold (``engine.game.sell_order.block_allows_sale``).
        self.sold_now: set[str] = set()
        self.last_to_act: int | None = None
        self.ended = False

    def setup(self, game: Game) -> None:
        self.index = 0
        self.reset_steps(game)
        self.skip_steps(game)
        if self.active_step(game) is None:
            self.next_entity(game)

    def current_entity(self, game: Game) -> Entity | None:
        players = game.active_players
        return players[self.index % len(players)].id if players else None

    def bought(self) -> bool:
        return any(a in BUYS for a in self.turn_actions)

    def acted(self, player: Player, what: str) -> None:
        self.turn_actions.append(what)
        self.last_to_act = player.id

    def finished(self, game: Game) -> bool:
        return self.ended

    def after_process(self, game: Game, action: Action) -> None:
        if self.active_step(game) is None:
            self.next_entity(game)

    def next_entity(self, game: Game) -> None:
        players = game.active_players
        while not self._all_passed(game):
            self.index = (self.index + 1) % len(players)
            self.reset_steps(game)
            self.skip_steps(game)
            if self.active_step(game) is not None:
                return
        self._finish(game)

    def _all_passed(self, game: Game) -> bool:
        return all(p.id in self.passed for p in game.active_players)

    def _finish(self, game: Game) -> None:
        """Sold-out corporations rise one row, in operating order (§5.10)."""
        if self.ended:
            return
        self.ended = True
        for corp in game.operating_order():
            if corp.shares.players_percent() == 100 and corp.share_price is not None:
                corp.share_price = game.market.move(
                    corp.sym, corp.share_price, game.market.up(corp.share_price)
                )

    def priority_player(self, game: Game) -> Player | None:
        """The player after the last one to buy or sell gets priority (§5.4)."""
        if self.last_to_act is None:
            return None
        players = game.players
        ids = [p.id for p in players]
        i = ids.index(self.last_to_act)
        for k in range(1, len(players) + 1):
            candidate = players[(i + k) % len(players)]
            if not candidate.bankrupt:
                return candidate
        return None


# -- what a player could do ------------------------------------------------------------


def must_sell(game: Game, player: Player) -> bool:
    """Over the certificate limit or over 60 % somewhere: only selling is offered (§5.11)."""
    if game.num_certs(player) > game.cert_limit:
        return True
    return any(
        c.shares.percent_of(player.id) > c.definition.max_ownership_percent
        and not game.market.flag(c.share_price, "holding_limit_lifted")
        for c in game.corporations.values()
    )


def may_buy_again(game: Game, rnd: StockRound, corp_sym: str, cert: str) -> bool:
    """A second share in one turn: only of the same corporation, in the brown zone,
    not after a par, from the pool (or the IPO too under ``multiple_brown_from_ipo``)
    (1830 RULES.md §14; 18xx.games ``can_buy_multiple?``)."""
    if "par" in rnd.turn_actions or "exchange" in rnd.turn_actions:
        return False
    if any(c != corp_sym for c in rnd.bought_corps):
        return False
    corp = game.corporation(corp_sym)
    if not game.market.flag(corp.share_price, "multiple_buy"):
        return False
    if not game.title.multiple_buy_from_ipo(game.rule_set.name):
        if corp.shares.owner_of(cert) != POOL or rnd.bought_from_ipo:
            return False
    return True


def can_buy_any(game: Game, player: Player) -> bool:
    """Some certificate the player may buy now. After a buy only a second share passing
    ``may_buy_again`` is left: its checks that hang on the corporation alone are made
    before any certificate is looked at (in 1888, with no brown zone, none passes)."""
    rnd = _round(game)
    bought = rnd.bought()
    if bought and ("par" in rnd.turn_actions or "exchange" in rnd.turn_actions):
        return False
    sold = rnd.sold.get(player.id, set())
    for corp in game.corporations.values():
        if not corp.ipoed or corp.sym in sold:
            continue
        if bought and (any(c != corp.sym for c in rnd.bought_corps)
                       or not game.market.flag(corp.share_price, "multiple_buy")):
            continue
        for source in (IPO, POOL):
            certs = [c for c in corp.shares.certs_of(source) if not is_president_cert(c)]
            if not certs:
                continue
            if bought and not may_buy_again(game, rnd, corp.sym, certs[0]):
                continue
            try:
                check_buy(game, player, certs[0])
            except IllegalAction:
                continue
            return True
    return False


def can_par_any(game: Game, player: Player) -> bool:
    rnd = _round(game)
    if rnd.bought() or game.num_certs(player) >= game.cert_limit:
        return False
    cheapest = min(game.market.price(c) for c in game.market.par_cells())
    return 2 * cheapest <= player.cash and any(not c.ipoed for c in game.corporations.values())


def can_sell_any(game: Game, player: Player) -> bool:
    rnd = _round(game)
    if game.turn <= 1 or not order_allows_sale(game, rnd.turn_actions):
        return False
    return any(sellable_percents(game, player, c) for c in game.corporations.values()
               if block_allows_sale(game, rnd.sold_now, c.sym))


def _round(game: Game) -> StockRound:
    rnd = game.round
    assert isinstance(rnd, StockRound), "not in a stock round"
    return rnd

