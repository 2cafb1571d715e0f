"""Trains leaving the depot: phases, rusting, closing privates, export (RULES.md §8, §9).

"Leaves the depot" means bought from it or exported at the end of an OR set;
both count alike for phase changes and rusting (§9.6). Trains bought from
another corporation change nothing but their owner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.game.depot import train_name

if TYPE_CHECKING:
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game


def leave_depot(game: Game, train_id: str) -> None:
    """Take ``train_id`` out of the depot; the first of a type may start a phase,
    rust older trains and close the privates (§8, §9.2, §7.7)."""
    first = game.depot.take(train_id, game.trains)
    if not first:
        return
    name = train_name(train_id)
    for i, phase in enumerate(game.data.phases):
        if phase.starts_with_train == name and i > game.state.phase_index:
            game.state.phase_index = i
    for other in game.trains.values():
        if other.rusts_when_first_bought == name:
            rust(game, other.name)
    if "close_companies" in game.trains[name].events:
        from route18xx.engine.game.privates import close_all

        close_all(game)


def rust(game: Game, name: str) -> None:
    """Remove every train of type ``name``, wherever it is (§9.2)."""
    for corp in game.corporations.values():
        corp.trains = [t for t in corp.trains if train_name(t) != name]
    game.depot.rust(name)


def or_set_finished(game: Game) -> None:
    """End of a set of ORs: export the next 2, 3 or 4 from the depot (§9.6); a title
    without export (1830 RULES.md §14) removes nothing."""
    if not game.title.exports_trains:
        return
    train_id = game.depot.exportable(game.trains)
    if train_id is None:
        return
    leave_depot(game, train_id)
    game.depot.removed.append(train_id)


def buy_from_depot(game: Game, corp: Corporation, train_id: str, price: int) -> None:
    game.pay_to_bank(corp, price)
    leave_depot(game, train_id)
    corp.trains.append(train_id)
    close_on_train(game, corp)


def buy_from_corporation(
    game: Game, buyer: Corporation, seller: Corporation, train_id: str, price: int
) -> None:
    game.transfer(buyer, seller, price)
    seller.trains.remove(train_id)
    buyer.trains.append(train_id)
    close_on_train(game, buyer)


def close_on_train(game: Game, corp: Corporation) -> None:
    """A private that closes when its corporation buys a train closes now (1830's BO
    on the B&O's first train, 1830 RULES.md §7.6; ability ``close`` ``bought_train``)."""
    for company in game.companies.values():
        ability = company.ability("close")
        if company.closed or ability is None or "bought_train" not in (ability.get("when") or ()):
            continue
        if ability.get("corporation") == corp.sym:
            company.closed = True


def discard(game: Game, corp: Corporation, train_id: str) -> None:
    """A train over the limit (or traded in) goes to the depot's discard pile (§6.11)."""
    corp.trains.remove(train_id)
    game.depot.discard(train_id)


def depot_trains(game: Game) -> list[str]:
    """The trains the depot sells now (§6.9 #1): the next in order and the discard pile,
    plus any type the rules in force sell early in a phase reached (the D from phase 6
    before 2023-08-09, HISTORY.md §2; ``RulesVersion.train_available_on``)."""
    reached = [p.name for p in game.data.phases[: game.state.phase_index + 1]]
    return game.depot.available(game.rules.sold_early(reached))


def cheapest_depot_price(game: Game) -> int | None:
    """Face value of the cheapest train the depot sells now (§6.10 #3)."""
    prices = [game.trains[train_name(t)].price for t in depot_trains(game)]
    return min(prices) if prices else None


def other_corporation_trains(game: Game, buyer: Corporation) -> list[tuple[Corporation, str]]:
    """Trains the buyer could buy from other corporations (any price from ¥1, §6.9 #2)."""
    out: list[tuple[Corporation, str]] = []
    for corp in game.corporations.values():
        if corp is buyer:
            continue
        out.extend((corp, t) for t in corp.trains)
    return out
