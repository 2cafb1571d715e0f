"""Share dealings: par, buy, sell, presidency, float (RULES.md §5.5-§5.8, §5.11).

The checks here are the ones every seller or buyer faces, in a stock round or
in an emergency (the callers add their own timing rules). Certificate moves
follow the 18xx.games engine so that later actions, which name certificates
by id, find them where they are: a sold bundle goes to the pool first, then a
presidency change hands the new president's first two shares to the old
president (or the pool) for the president's certificate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.shares import IPO, POOL, Owner, cert_percent, is_president_cert

if TYPE_CHECKING:
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.players import Player


@dataclass(frozen=True)
class Sale:
    """A checked sale: who sells which certificates of which corporation, for how much."""

    player: int
    corp: str
    certs: tuple[str, ...]
    percent: int
    price_each: int

    @property
    def money(self) -> int:
        return self.price_each * self.percent // 10


def corporation_of_certs(game: Game, certs: Sequence[str]) -> Corporation:
    if not certs:
        raise IllegalAction("no_shares", "no share certificate named")
    syms = {c.rsplit("_", 1)[0] for c in certs}
    if len(syms) != 1:
        raise IllegalAction("mixed_shares", f"certificates of several corporations: {', '.join(certs)}")
    corp = game.corporation(syms.pop())
    for cert in certs:
        if corp.shares.owner_of(cert) is None:
            raise IllegalAction("unknown_share", f"{cert} is not a certificate of {corp.sym}")
    return corp


# -- presidency ------------------------------------------------------------------


def seat_distance(game: Game, frm: int, to: int) -> int:
    ids = [p.id for p in game.players]
    return (ids.index(to) - ids.index(frm)) % len(ids)


def new_president(game: Game, corp: Corporation, previous: int | None) -> int | None:
    """Who is president after a change of holdings (§5.8): only a strictly larger
    holding takes it; among equals the first in seating order after the old one."""
    holdings = corp.shares.player_percents()
    if not holdings:
        return previous
    top = max(holdings.values())
    if previous is not None and holdings.get(previous, 0) == top:
        return previous
    candidates = [p for p, pct in holdings.items() if pct == top and pct >= cert_percent(f"{corp.sym}_0")]
    if not candidates:
        return previous
    if previous is None:
        return candidates[0]
    return min(candidates, key=lambda p: seat_distance(game, previous, p))


def update_president(game: Game, corp: Corporation, previous: int | None) -> None:
    """Swap the president's certificate when another player now holds more (§5.8).

    Called once the bought, sold or exchanged certificates have moved. This is
    18xx.games' rule exactly (``SharePool#transfer_shares`` and
    ``#change_president`` of tobymao/18xx, with 1888's base
    ``shares_for_presidency_swap``: ``shares.take(num_shares)``), so that later
    log actions, which name certificates by id, find them where they are:

    * the new president is the one ``new_president`` names; nobody else's
      holding moves when the old president keeps the largest holding;
    * the 20 % certificate is exchanged for the new president's first two
      certificates of the corporation in acquisition order (each owner's list
      grows at its end, as ``ShareHolder#shares_by_corporation`` does);
    * those two go to the old president when he still holds at least 20 %
      (the president's certificate counted if he kept it), else to the pool;
    * the president's certificate goes to the end of the new president's list.

    A partial sale of the president's certificate then takes the pool's first
    certificate back (``sell``; 18xx.games' ``handle_partial``).
    """
    president = new_president(game, corp, previous)
    if president is None or president == previous or previous is None:
        return
    pres_cert = f"{corp.sym}_0"
    swap_to: Owner = previous if corp.shares.percent_of(previous) >= cert_percent(pres_cert) else POOL
    num_shares = cert_percent(pres_cert) // 10
    for cert in corp.shares.certs_of(president)[:num_shares]:
        corp.shares.move(cert, swap_to)
    corp.shares.move(pres_cert, president)


# -- buying ------------------------------------------------------------------------


def check_holding(game: Game, player: Player, corp: Corporation, extra: int) -> None:
    """At most 60 % of one corporation, except where the market lifts the limit
    (1830's orange and brown zones, 1830 RULES.md §14; 1888 has none)."""
    if game.market.flag(corp.share_price, "holding_limit_lifted"):
        return
    limit = corp.definition.max_ownership_percent
    if corp.shares.percent_of(player.id) + extra > limit:
        raise IllegalAction(
            "over_holding_limit",
            f"{player.name} would hold more than {limit}% of {corp.sym}",
        )


def check_cert_room(game: Game, player: Player, corp: Corporation | None) -> None:
    """A certificate outside the yellow zone needs room under the limit (§5.6, §5.11)."""
    if corp is not None and game.market.no_cert_limit(corp.share_price):
        return
    if game.num_certs(player) >= game.cert_limit:
        raise IllegalAction(
            "over_cert_limit",
            f"{player.name} holds {game.num_certs(player)} certificates; the limit is {game.cert_limit}",
        )


def share_cost(game: Game, corp: Corporation, cert: str) -> int:
    """IPO shares cost the par price, pool shares the market price (§5.6)."""
    owner = corp.shares.owner_of(cert)
    if owner == IPO:
        return corp.par_price * cert_percent(cert) // 10
    return game.price(corp) * cert_percent(cert) // 10


def check_buy(game: Game, player: Player, cert: str) -> tuple[Corporation, int]:
    """A player's purchase of one certificate from the IPO or the pool (§5.6)."""
    corp = corporation_of_certs(game, [cert])
    if not corp.ipoed:
        raise IllegalAction("not_parred", f"{corp.sym} has not been parred")
    owner = corp.shares.owner_of(cert)
    if owner not in (IPO, POOL):
        raise IllegalAction("not_for_sale", f"{cert} belongs to a player, not to the IPO or the pool")
    if is_president_cert(cert):
        raise IllegalAction("president_cert", f"{cert} is the president's certificate")
    cost = share_cost(game, corp, cert)
    if cost > player.cash:
        raise IllegalAction("not_enough_cash", f"{player.name} has {player.cash}, {cert} costs {cost}")
    check_holding(game, player, corp, cert_percent(cert))
    check_cert_room(game, player, corp)
    return corp, cost


def buy_share(game: Game, player: Player, corp: Corporation, cert: str, cost: int) -> None:
    previous = corp.president
    game.pay_to_bank(player, cost)
    corp.shares.move(cert, player.id)
    update_president(game, corp, previous)
    check_float(game, corp)


def check_float(game: Game, corp: Corporation) -> None:
    """Floats once the IPO is down to 100 − float % ; the bank pays 10 × par (§5.7)."""
    if corp.floated or not corp.ipoed:
        return
    if corp.ipo_percent <= 100 - game.rule_set.float_percent:
        corp.floated = True
        game.pay_from_bank(corp, corp.par_price * 10)


# -- selling -----------------------------------------------------------------------


def check_sale(game: Game, player: Player, certs: Sequence[str], percent: int | None) -> Sale:
    """The rules any sale obeys (§5.8): own certificates, pool ≤ 50 %, a president's
    certificate only when someone else can take the presidency. ``percent`` None:
    all of the certificates (an older log's sale without ``percent``)."""
    corp = corporation_of_certs(game, certs)
    if not corp.ipoed:  # a share granted or exchanged before the par has no price yet
        raise IllegalAction("not_parred", f"{corp.sym} has no share price yet: its shares cannot be sold")
    if len(set(certs)) != len(certs):
        raise IllegalAction("duplicate_share", "a certificate is listed twice")
    for cert in certs:
        if corp.shares.owner_of(cert) != player.id:
            raise IllegalAction("not_owner", f"{player.name} does not hold {cert}")
    total = sum(cert_percent(c) for c in certs)
    has_pres = any(is_president_cert(c) for c in certs)
    if percent is None:
        percent = total
    if percent <= 0 or percent % 10 or not (percent == total or (has_pres and percent == total - 10)):
        raise IllegalAction("bad_percent", f"{percent}% does not match the certificates {', '.join(certs)}")
    pool_limit = int(game.facts["pool_limit_percent"])
    if corp.pool_percent + percent > pool_limit:
        raise IllegalAction(
            "pool_full",
            f"the pool may hold at most {pool_limit}% of {corp.sym}; it holds {corp.pool_percent}%",
        )
    if has_pres:
        rest = [c for c in corp.shares.certs_of(player.id) if c not in certs]
        if rest:
            raise IllegalAction(
                "president_cert_last",
                f"the president's certificate can only be sold with all other {corp.sym} shares",
            )
        others = [pct for pid, pct in corp.shares.player_percents().items() if pid != player.id]
        if max(others, default=0) < cert_percent(f"{corp.sym}_0"):
            raise IllegalAction(
                "cannot_dump",
                f"nobody else holds {cert_percent(f'{corp.sym}_0')}% of {corp.sym} to take the presidency",
            )
        if max(others) <= corp.shares.percent_of(player.id) - percent:
            raise IllegalAction(
                "cannot_dump",
                f"{player.name} would stay president of {corp.sym} "
                "and cannot sell the president's certificate",
            )
    assert corp.share_price is not None
    return Sale(player.id, corp.sym, tuple(certs), percent, game.price(corp))


def sell(game: Game, sale: Sale) -> None:
    """Apply a checked sale: money, certificates, presidency, one row down per 10 % (§5.8)."""
    corp = game.corporation(sale.corp)
    player = game.player(sale.player)
    previous = corp.president
    game.pay_from_bank(player, sale.money)
    for cert in sale.certs:
        corp.shares.move(cert, POOL)
    update_president(game, corp, previous)
    partial = sum(cert_percent(c) for c in sale.certs) - sale.percent
    for _ in range(partial // 10):
        pool_first = [c for c in corp.shares.certs_of(POOL) if not is_president_cert(c)][0]
        corp.shares.move(pool_first, player.id)
    assert corp.share_price is not None
    cell = corp.share_price
    for _ in range(sale.percent // 10):
        cell = game.market.down(cell)
    corp.share_price = game.market.move(corp.sym, corp.share_price, cell)


def sellable_percents(game: Game, player: Player, corp: Corporation) -> list[int]:
    """Percentages of ``corp`` the player could sell in one go (§5.8 limits)."""
    held = corp.shares.percent_of(player.id)
    if held == 0 or not corp.ipoed:
        return []
    pool_room = int(game.facts["pool_limit_percent"]) - corp.pool_percent
    is_pres = corp.president == player.id
    others = max((pct for pid, pct in corp.shares.player_percents().items() if pid != player.id), default=0)
    out = []
    for pct in range(10, held + 1, 10):
        if pct > pool_room:
            break
        if is_pres and held - pct < cert_percent(f"{corp.sym}_0"):
            # the sale reaches into the president's certificate
            if others < cert_percent(f"{corp.sym}_0") or others <= held - pct:
                continue
        out.append(pct)
    return out
