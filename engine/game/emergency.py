"""Train purchases, the forced train, emergency money and bankruptcy (RULES.md §6.9, §6.10).

* A corporation may buy the next depot train or a discarded one at face value,
  or any other corporation's train for ¥1 up to its cash, with room under the
  limit; a 4, 5 or 6 may be traded in for a D at ¥700.
* A corporation without a train must buy one. If its cash is short of the
  cheapest depot train, it may still buy another corporation's train with its
  own cash (before any emergency sale), or the cheapest depot train with the
  president paying the difference, selling shares first if he must — never
  more than needed, never handing away the buying corporation's presidency.
* When even all that cannot pay for the cheapest depot train the president may
  declare bankruptcy: he sells what he can, the rest of his cash goes to the
  bank, and the game ends at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.depot import train_name
from route18xx.engine.game.sell_order import block_allows_sale
from route18xx.engine.game.shares import cert_percent, is_president_cert
from route18xx.engine.game.stock import Sale, check_sale, sell, sellable_percents
from route18xx.engine.game.trains import (
    buy_from_corporation,
    buy_from_depot,
    cheapest_depot_price,
    depot_trains,
    discard,
    other_corporation_trains,
)

if TYPE_CHECKING:
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.players import Player


@dataclass(frozen=True)
class TrainPurchase:
    """A checked purchase: the train, who sells it, the price, the president's part."""

    train: str
    seller: str  # "depot" or a corporation symbol
    price: int
    contribution: int = 0
    exchange: str | None = None


def must_buy_train(game: Game, corp: Corporation) -> bool:
    """No train and the depot has one to sell (§6.10 #1), and, under the rules before
    2022-04-27 (``must_buy_train == "route"``, the 18xx.games default), a route to run:
    a walk from one of its token cities reaches a second revenue centre (18xx.games
    ``route_train_purchase``, ROUTES.md §8). Since then ``"always"`` (HISTORY.md §2)."""
    if corp.trains or not depot_trains(game):
        return False
    if game.rules.must_buy_train == "route":
        return game.graph.route_available(game.board, corp.sym)
    return True


def has_room(game: Game, corp: Corporation) -> bool:
    return len(corp.trains) < game.train_limit()


def d_trade_ins(game: Game, corp: Corporation) -> list[str]:
    """Trains ``corp`` could trade in for the D now available (§6.9 #4)."""
    available = depot_trains(game)
    d = [t for t in available if game.trains[train_name(t)].exchange_discount]
    if not d:
        return []
    discount = game.trains[train_name(d[0])].exchange_discount
    return [t for t in corp.trains if train_name(t) in discount]


def d_trade_price(game: Game, d_train: str, old: str) -> int:
    d = game.trains[train_name(d_train)]
    return d.price - d.exchange_discount.get(train_name(old), 0)


def can_buy_train(game: Game, corp: Corporation) -> bool:
    """Room and money for some train (another corporation's counts at ¥1), or a D trade-in."""
    if has_room(game, corp):
        if other_corporation_trains(game, corp):
            if corp.cash >= 1:
                return True
        else:
            cheapest = cheapest_depot_price(game)
            if cheapest is not None and corp.cash >= cheapest:
                return True
    for old in d_trade_ins(game, corp):
        d = [t for t in depot_trains(game) if game.trains[train_name(t)].exchange_discount][0]
        if corp.cash >= d_trade_price(game, d, old):
            return True
    return False


def in_emergency(game: Game, corp: Corporation) -> bool:
    cheapest = cheapest_depot_price(game)
    return must_buy_train(game, corp) and cheapest is not None and corp.cash < cheapest


def check_purchase(
    game: Game, corp: Corporation, train: str, price: int, exchange: str | None,
    sold_in_emergency: bool, sale_price: int | None = None,
) -> TrainPurchase:
    """Judge a ``buy_train`` action (§6.9, §6.10); ``sale_price``: the price per share
    of the president's latest emergency sale this turn."""
    seller = game.train_owner(train)
    if seller is None:
        raise IllegalAction("unknown_train", f"train {train} is not for sale (rusted, exported or unknown)")
    if seller == corp.sym:
        raise IllegalAction("own_train", f"{corp.sym} already owns {train}")
    name = train_name(train)
    emergency = in_emergency(game, corp)
    if exchange is not None:
        if exchange not in d_trade_ins(game, corp):
            raise IllegalAction("no_trade_in", f"{corp.sym} cannot trade {exchange} in for a D")
        if (
            seller != "depot"
            or not game.trains[name].exchange_discount
            or train not in depot_trains(game)
        ):
            raise IllegalAction("no_trade_in", f"{train} is not a D the depot sells now")
        cost = d_trade_price(game, train, exchange)
        if price != cost:
            raise IllegalAction("wrong_price", f"a D for a traded-in {train_name(exchange)} costs {cost}")
        if price > corp.cash:
            raise IllegalAction("not_enough_cash", f"{corp.sym} has {corp.cash}; the president cannot help")
        return TrainPurchase(train, seller, price, 0, exchange)
    if not has_room(game, corp):
        raise IllegalAction(
            "train_limit",
            f"{corp.sym} already has {len(corp.trains)} trains; the limit is {game.train_limit()}",
        )
    if seller == "depot":
        if train not in depot_trains(game):
            nxt = depot_trains(game)
            raise IllegalAction(
                "not_available", f"the depot sells {', '.join(nxt) or 'nothing'} now, not {train}"
            )
        face = game.trains[name].price
        if price != face:
            raise IllegalAction("wrong_price", f"train {train} costs {face}, not {price}")
        if price <= corp.cash:
            return TrainPurchase(train, seller, price)
        if not emergency:
            raise IllegalAction("not_enough_cash", f"{corp.sym} has {corp.cash}; train {train} costs {price}")
        if price != cheapest_depot_price(game):
            raise IllegalAction(
                "not_cheapest",
                f"with the president's money {corp.sym} may only buy the cheapest depot train",
            )
        president = game.player(corp.president)
        contribution = price - corp.cash
        if contribution > president.cash:
            raise IllegalAction(
                "must_sell_first",
                f"{president.name} has {president.cash} but must add {contribution}: sell shares first",
            )
        return TrainPurchase(train, seller, price, contribution)
    if game.title.ebuy_from_others and must_buy_train(game, corp):
        return _presidents_purchase_from_other(game, corp, train, price, sold_in_emergency, sale_price)
    if price < 1 or price > corp.cash:
        raise IllegalAction(
            "wrong_price", f"a train from another corporation costs 1 to {corp.cash} (the buyer's cash)"
        )
    if emergency and sold_in_emergency:
        raise IllegalAction(
            "emergency", "after an emergency sale only the cheapest depot train may be bought"
        )
    return TrainPurchase(train, seller, price)


def _presidents_purchase_from_other(
    game: Game, corp: Corporation, train: str, price: int, sold_in_emergency: bool,
    sale_price: int | None,
) -> TrainPurchase:
    """1830 RULES.md §6.11: a corporation that must buy a train may buy another
    corporation's with the president's money too, for $1 up to the train's face value
    (18xx.games ``EBUY_FROM_OTHERS = :value``, ``Step::Train#spend_minmax``); after an
    emergency sale, for more than the money he had before that last sale (he may not
    have sold more than needed)."""
    seller = game.train_owner(train) or ""
    president = game.player(corp.president)
    face = game.trains[train_name(train)].price
    most = min(face, corp.cash + president.cash) if price > corp.cash else corp.cash
    if price < 1 or price > max(most, corp.cash):
        raise IllegalAction(
            "wrong_price",
            f"a train from another corporation costs 1 to {max(most, corp.cash)} "
            f"({corp.sym}'s cash, with its president's up to the train's face value {face})",
        )
    if sold_in_emergency and sale_price is not None:
        least = corp.cash + president.cash - sale_price + 1
        if price < least:
            raise IllegalAction(
                "oversold", f"after that emergency sale {train} must cost at least {least}"
            )
    contribution = max(0, price - corp.cash)
    return TrainPurchase(train, seller, price, contribution)


def apply_purchase(game: Game, corp: Corporation, purchase: TrainPurchase) -> None:
    if purchase.contribution:
        president = game.player(corp.president)
        game.transfer(president, corp, purchase.contribution)
    if purchase.exchange is not None:
        discard(game, corp, purchase.exchange)
    if purchase.seller == "depot":
        buy_from_depot(game, corp, purchase.train, purchase.price)
    else:
        buy_from_corporation(game, corp, game.corporation(purchase.seller), purchase.train, purchase.price)


# -- emergency sales ---------------------------------------------------------------


def shortfall(game: Game, corp: Corporation) -> int:
    """What the president still lacks for the cheapest depot train."""
    cheapest = cheapest_depot_price(game) or 0
    president = game.player(corp.president)
    return cheapest - corp.cash - president.cash


def may_sell_for(game: Game, corp: Corporation, player: Player) -> bool:
    return in_emergency(game, corp) and corp.president == player.id and shortfall(game, corp) > 0


def check_emergency_sale(
    game: Game, corp: Corporation, player: Player, certs: tuple[str, ...], percent: int | None
) -> Sale:
    """An emergency sale (§6.10 #4): normal sale rules, the buyer's presidency kept,
    and no more than needed."""
    if not may_sell_for(game, corp, player):
        raise IllegalAction("no_emergency", f"{player.name} has no need to sell shares now")
    sale = check_sale(game, player, certs, percent)
    if not block_allows_sale(game, _sold_this_turn(game), sale.corp):
        raise IllegalAction("sell_in_blocks", f"{player.name} already sold {sale.corp} for this "
                            "train: a corporation's shares are sold in one block")
    if sale.corp == corp.sym and _changes_president(game, player, sale):
        raise IllegalAction(
            "keeps_presidency", f"{player.name} may not give away the presidency of {corp.sym}"
        )
    need = shortfall(game, corp)
    if sale.money - sale.price_each >= need:
        raise IllegalAction(
            "oversell", f"{player.name} needs {need}; selling {sale.percent}% of {sale.corp} is more than needed"
        )
    return sale


def _sold_this_turn(game: Game) -> set[str]:
    """The corporations the president has sold in this operating turn's emergency
    (18xx.games ``Step::BuyTrain`` ``@corporations_sold``; ``block_allows_sale``)."""
    return set(getattr(game.round, "emergency_corps_sold", ()))


def _changes_president(game: Game, player: Player, sale: Sale) -> bool:
    corp = game.corporation(sale.corp)
    if corp.president != player.id:
        return False
    holdings = corp.shares.player_percents()
    holdings[player.id] = holdings.get(player.id, 0) - sale.percent
    top = max(holdings.values())
    return holdings[player.id] < top


def emergency_percents(game: Game, corp: Corporation, player: Player,
                       other: Corporation) -> list[int]:
    """What of ``other`` the president of ``corp`` may sell in its emergency: what the
    market takes (§5.8), never the buying corporation's presidency (§6.10 #4)."""
    if not block_allows_sale(game, _sold_this_turn(game), other.sym):
        return []
    percents = sellable_percents(game, player, other)
    if other is corp:
        percents = [
            p for p in percents
            if not _changes_president(game, player, Sale(player.id, other.sym, (), p, 0))
        ]
    return percents


def emergency_value(game: Game, corp: Corporation, player: Player) -> int:
    """What the president could raise by selling (§6.10 #6)."""
    total = 0
    for other in game.corporations.values():
        percents = emergency_percents(game, corp, player, other)
        if percents:
            total += max(percents) * game.price(other) // 10
    return total


def can_go_bankrupt(game: Game, corp: Corporation) -> bool:
    if not in_emergency(game, corp) or corp.president is None:
        return False
    president = game.player(corp.president)
    cheapest = cheapest_depot_price(game) or 0
    return corp.cash + president.cash + emergency_value(game, corp, president) < cheapest


def bundle(game: Game, player: Player, corp: Corporation, percent: int) -> tuple[str, ...]:
    """Certificates for selling ``percent`` of ``corp``: plain shares first, the president's last."""
    certs = sorted(corp.shares.certs_of(player.id), key=is_president_cert)
    out: list[str] = []
    total = 0
    for cert in certs:
        if total >= percent:
            break
        out.append(cert)
        total += cert_percent(cert)
    return tuple(out)


def go_bankrupt(game: Game, corp: Corporation) -> None:
    """The president sells all he can (largest bundle per corporation, operating order,
    repeated; never the bankrupt corporation's presidency, §6.10 #4, as 18xx.games keeps
    it), his cash goes to the bank, and the game ends (§6.10 #6, §11.2)."""
    player = game.player(corp.president)
    progress = True
    while progress:
        progress = False
        for other in game.operating_order() + [
            c for c in game.corporations.values() if c.ipoed and not c.floated
        ]:
            percents = emergency_percents(game, corp, player, other)
            if not percents:
                continue
            pct = max(percents)
            certs = bundle(game, player, other, pct)
            sell(game, check_sale(game, player, certs, pct))
            progress = True
    if player.cash > 0:
        game.pay_to_bank(player, player.cash)
    player.bankrupt = True
    game.end_immediately("bankrupt")

