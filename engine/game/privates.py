"""Private companies' income, closing and abilities (RULES.md §6.2, §6.12, §7).

* Kaiping Tramway: income only (§7.1).
* Terracotta Army, Heng Shan, Great Wall, Yanda Railway Ferry: special tile lays
  for the owning corporation during its OR turn (§7.2-§7.5); Heng Shan also
  blocks C5 while a player owns it (§7.3).
* Forbidden City: the owning player's share exchange; the two rule sets differ
  (``RuleSet.exchange_is_turn_action``, ``exchange_from_pool``; §7.6).
* Every private closes when the first 5-train leaves the depot (§7.7), but one whose
  ``close`` ability says ``on_phase: never`` while a player owns it (1889's Uno-Takamatsu
  Ferry, g_1889/entities.rb).
* A private's tile lay outside its corporation's turn: at its sale, by its seller (1889's
  Ehime Railway, ``sold_lay_ability``), or by its owning player in the track step of a
  corporation that player presides over (1889's Mitsubishi Ferry, ``player_track_lay``).
* A ``revenue_change`` ability sets a private's income from the phase it names while its
  owner is of its owner type (1889's UTF: ¥50 from phase 5 while a player owns it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from route18xx.engine.board.tile_abilities import is_turn_lay
from route18xx.engine.facts.gamedata import HexId

if TYPE_CHECKING:
    from route18xx.engine.game.companies import Company
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game


def pay_private_income(game: Game) -> None:
    """Every owned private pays its income from the bank to its owner (§6.2)."""
    for company in game.companies.values():
        if company.closed or company.owner is None:
            continue
        income = private_income(game, company)
        if income > 0:
            game.pay_from_bank(game.holder(company.owner), income)


def _owner_type_matches(company: Company, ability: Mapping[str, Any]) -> bool:
    kind = ability.get("owner_type")
    if kind is None:
        return True
    return bool(company.owned_by_player() == (kind == "player"))


def private_income(game: Game, company: Company) -> int:
    """The private's income now: its revenue, or a ``revenue_change`` ability's from the
    phase it names on, while its owner is of the ability's owner type (module docstring)."""
    change = company.ability("revenue_change")
    if change is not None and _owner_type_matches(company, change):
        reached = [p.name for p in game.data.phases[: game.state.phase_index + 1]]
        if change.get("on_phase") in reached:
            return int(change["revenue"])
    return company.definition.revenue


def close_all(game: Game) -> None:
    """The first 5-train closes every private, whoever owns it (§7.7), but one that never
    closes while its owner is of its ``close`` ability's owner type (module docstring)."""
    for company in game.companies.values():
        close = company.ability("close")
        if close is not None and close.get("on_phase") == "never" and _owner_type_matches(company, close):
            continue
        company.closed = True
        company.lay_uses = 0


def blocked_hexes(game: Game) -> set[HexId]:
    """Hexes no tile may be laid on: Heng Shan's C5 while a player owns it (§7.3)."""
    out: set[HexId] = set()
    for company in game.companies.values():
        ability = company.ability("blocks_hexes")
        if ability is None or not company.owned_by_player():
            continue
        out.update(ability.get("hexes", ()))
    return out


def player_owned_blockers(game: Game) -> frozenset[str]:
    """The open privates a player owns that close hexes to tiles (1888 RULES.md §7.3,
    1830 RULES.md §7: SV, CS, DH, MH, CA, BO)."""
    return frozenset(
        c.sym for c in game.companies.values()
        if c.ability("blocks_hexes") is not None and c.owned_by_player()
    )


def price_range(company: Company) -> tuple[int, int]:
    """Integer prices a corporation may pay: 50 %-150 % of face value (§6.12)."""
    return math.ceil(company.definition.min_price), math.floor(company.definition.max_price)


def purchasable(game: Game, corp: Corporation) -> list[Company]:
    """Player-owned privates a corporation could buy in this phase (§6.12)."""
    if not game.phase.corporations_may_buy_privates:
        return []
    return [c for c in game.companies.values() if c.owned_by_player() and c.ability("no_buy") is None]


def privates_for_sale_to(game: Game, buyer: int) -> list[Company]:
    """Other players' open privates ``buyer`` may buy in this stock round, BO's
    ``no_buy`` excepted: from the second stock round, while the phase's status has
    ``can_buy_companies_from_other_players``, with some cash (1830 RULES.md §5.9;
    g_1830/step/buy_sell_par_shares.rb ``purchasable_companies``). Whether the turn
    already bought is the stock round's business."""
    if "can_buy_companies_from_other_players" not in game.phase.status or game.turn <= 1:
        return []
    if game.player(buyer).cash <= 0:
        return []
    return [c for c in game.companies.values()
            if c.owned_by_player() and c.owner != buyer and c.ability("no_buy") is None]


def check_player_buys_private(game: Game, buyer: int, company: Company, price: int) -> None:
    """A player buys another player's private in a stock round: from the second stock
    round, in a phase whose status allows it, never a private that cannot be sold
    (BO's ``no_buy``), at an agreed price the buyer can pay (1830 RULES.md §14;
    g_1830/step/buy_sell_par_shares.rb ``purchasable_companies``)."""
    from route18xx.engine.errors import IllegalAction

    if "can_buy_companies_from_other_players" not in game.phase.status or game.turn <= 1:
        raise IllegalAction("no_private_sales", "players may not buy privates from each other now")
    if not company.owned_by_player() or company.owner == buyer:
        raise IllegalAction("not_for_sale", f"{company.sym} is not another player's open private")
    if company.ability("no_buy") is not None:
        raise IllegalAction("not_for_sale", f"{company.sym} cannot be sold")
    if price < 0 or price > game.player(buyer).cash:
        raise IllegalAction("wrong_price", f"{price} is not a price the buyer can pay")


def can_buy_a_private(game: Game, corp: Corporation) -> bool:
    """Is some player's private affordable at its minimum price? (§6.3 step c/j)"""
    return any(c.definition.min_price <= corp.cash for c in purchasable(game, corp))


def special_lay_ability(game: Game, company: Company, corp: Corporation) -> Mapping[str, Any] | None:
    """The tile-lay ability ``company`` offers ``corp`` now, if any (§7.2-§7.5).

    The private must belong to the corporation, not be closed, and have uses left.
    """
    if company.owner != corp.sym or company.closed:
        return None
    ability = company.tile_lay
    if ability is None or ability.get("owner_type") != "corporation":
        return None
    if not is_turn_lay(ability, company.sym):
        return None  # 1889's ER: laid by its seller at the sale (``sold_lay_ability``)
    if ability.get("type") == "teleport" and not _track_open(game):
        return None  # 1830's DH: only as the turn's tile lay (``when: track``, RULES.md §7.3)
    return ability


def sold_lay_ability(company: Company) -> Mapping[str, Any] | None:
    """The tile lay ``company`` offers the player who sells it to a corporation, at the
    sale (18xx.games ``when: sold``, ``Step::TrackLayWhenCompanySold``: 1889's Ehime
    Railway, a green tile on C4 in addition to the corporation's own lay), if unused."""
    ability = company.tile_lay
    if ability is None or "sold" not in (ability.get("when") or ()):
        return None
    return ability


#: The times a player's private may lay its tile (18xx.games ``ability_right_time?``).
PLAYER_LAY_TIMES = ("stock_round", "owning_player_track", "or_between_turns")


def player_lay_ability(game: Game, company: Company,
                       times: tuple[str, ...] = PLAYER_LAY_TIMES) -> Mapping[str, Any] | None:
    """The lay ``company``'s owning player may make now, if any: an unused ``owner_type:
    player`` lay at one of its ``when`` times among ``times`` that holds now (18xx.games
    ``ability_right_time?``; 1889's Mitsubishi Ferry, g_1889/entities.rb):
    ``stock_round`` in a stock round; ``owning_player_track`` while a corporation the
    player presides over is at its track step; ``or_between_turns`` in an operating round
    before the operating corporation has acted in its turn."""
    ability = company.tile_lay
    if ability is None or not company.owned_by_player() or ability.get("owner_type") != "player":
        return None
    now = [t for t in (ability.get("when") or ()) if t in times and _player_time(game, company, t)]
    return ability if now else None


def _player_time(game: Game, company: Company, time: str) -> bool:
    """Does the ability time ``time`` of a player's private hold now (``player_lay_ability``)?"""
    rnd = game.round
    if time == "stock_round":
        return rnd.kind == "stock"
    if rnd.kind != "operating":
        return False
    if time == "or_between_turns":
        return not getattr(rnd, "operator_acted")
    operator = game.corporation(rnd.current_entity(game))
    return time == "owning_player_track" and _track_open(game) and operator.president == company.owner


def president_lay_waits(game: Game, corp: Corporation) -> bool:
    """Does ``corp``'s track step wait for a pass because its president owns a private with
    an unused ``owning_player_track`` lay? (18xx.games ``Tracker#tile_lay_abilities_should_block?``,
    ``Corporation#all_abilities`` takes the president's ``owning_player`` abilities.)"""
    return any(player_lay_ability(game, c, ("owning_player_track",)) is not None
               for c in game.companies.values() if c.owner == corp.president)


def _track_open(game: Game) -> bool:
    """Is the operating corporation's own tile lay of this turn still to come?"""
    track = next((s for s in getattr(game.round, "steps", ()) if s.name == "track"), None)
    return track is not None and not track.passed


def unused_abilities(game: Game, corp: Corporation) -> bool:
    """Does ``corp`` own a private whose tile lay is still unused? (§6.3 step j)"""
    return any(special_lay_ability(game, c, corp) is not None for c in game.companies.values())


def exchange_ability(company: Company) -> Mapping[str, Any] | None:
    if company.closed:
        return None
    return company.ability("exchange")


def exchange_sources(game: Game) -> tuple[str, ...]:
    """Where the Forbidden City share may come from (north: IPO or pool; prototype: IPO)."""
    from route18xx.engine.game.shares import IPO, POOL

    if game.rule_set.exchange_from_pool:
        return (IPO, POOL)
    return (IPO,)


def exchange_corporations(game: Game, company: Company | None = None) -> list[Corporation]:
    """Corporations whose share ``company`` may be exchanged for: those its ability names
    (1830's MH: NYC, parred or not — 18xx.games ``exchange_corporations`` takes the named
    ones as they are and ``available_share`` is the IPO's first 10 %, as the CA's free
    PRR share before PRR's par; 1830 RULES.md §4.2, §7.4), or, for ``"any"``, those with a
    station token in Beijing (C9) (1888 RULES.md §7.6; private_rules.json)."""
    named = company.ability("exchange") if company is not None else None
    listed = named.get("corporations") if named is not None else None
    if isinstance(listed, list):
        return [game.corporation(sym) for sym in listed]
    hexes = game.board.data.exchange_token_hexes
    out = []
    for corp in game.corporations.values():
        if any(h in hexes for h, _ in game.board.token_cities(corp.sym)):
            out.append(corp)
    return out


def grant_shares(game: Game, company: Company, player: int) -> list[str]:
    """The certificates a private grants its first buyer, moved from the IPO to
    them (1830 RULES.md §7.5-§7.6: CA → PRR_1, BO → the B&O president's certificate);
    returns the corporations whose president's certificate was granted, which the
    buyer must par at once (18xx.games ``CompanyPendingPar``). 1888's privates grant none.
    """
    from route18xx.engine.game.shares import IPO, is_president_cert

    ability = company.ability("shares")
    if ability is None:
        return []
    to_par = []
    for cert in ability.get("shares") or ():
        corp = game.corporation(cert.rsplit("_", 1)[0])
        if corp.shares.owner_of(cert) != IPO:
            continue
        corp.shares.move(cert, player)
        if is_president_cert(cert):
            to_par.append(corp.sym)
    return to_par
