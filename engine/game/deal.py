"""Privates dealt at random instead of auctioned (18xx.games ``G1889::Game#setup`` under
``beginner_game``; ``RuleSet.privates_dealt``).

The game's privates (those its player count seats, ``RuleSet.privates_for``) are shuffled
by the game's seed and dealt one to each player in seat order, who pays its face value to
the bank (``buy_company``); the game then opens with a stock round, not an auction
(``init_round``). The shuffle is the site's: ``companies.sort_by { rand }``, each private
in data order drawing the next number of the engine's linear congruential generator
(``Game::Base#rand``: ``RAND_A``, ``RAND_C``, ``RAND_M``, started at ``seed % RAND_M``), so
a log replays to the site's deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game

#: The site's generator (``Game::Base::RAND_A``, ``RAND_C``, ``RAND_M``).
RAND_A = 1_103_515_245
RAND_C = 12_345
RAND_M = 2**31


def shuffled(items: list[str], seed: int) -> list[str]:
    """``items`` in the order ``items.sort_by { rand }`` gives with a fresh game's seed.

    >>> shuffled(["TR", "MF", "ER", "SMR", "DR", "SIR"], 424242)
    ['ER', 'MF', 'SIR', 'SMR', 'TR', 'DR']
    """
    value = seed % RAND_M
    keys = []
    for _ in items:
        value = (RAND_A * value + RAND_C) % RAND_M
        keys.append(value)
    return [item for _, item in sorted(zip(keys, items))]


def deal_privates(game: Game, seed: int) -> None:
    """Deal the game's privates to its players by ``seed``, each bought at face value."""
    dealt = shuffled(list(game.companies), seed)
    for player, sym in zip(game.players, dealt):
        company = game.company(sym)
        game.pay_to_bank(player, company.value)
        company.owner = player.id
