"""Invariants that hold after every action of a legal game (STYLE.md §11).

Used by the replay tests after each action; each returns readable problems
(an empty list when all is well):

* money is conserved: players + corporations + bank = the bank's starting sum;
* every certificate has exactly one owner and each corporation's shares sum to 100 %;
* the pool holds at most 50 % (§5.8), no player more than 60 % (§5.6);
* a player who just bought (outside the yellow zone) or parred is within the certificate limit;
* no corporation is over the train limit unless the game waits for its discard (§6.11);
* each train is in exactly one place; tokens fit their cities, one per hex per corporation.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from route18xx.engine.game.actions import Action, BuyShares, Par
from route18xx.engine.game.depot import train_name
from route18xx.engine.game.shares import POOL

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game


def check(game: Game) -> list[str]:
    problems: list[str] = []
    problems += money(game)
    problems += shares(game)
    problems += trains(game)
    problems += tokens(game)
    return problems


def check_after(game: Game, action: Action) -> list[str]:
    """``check`` plus the limits an action of this kind must respect."""
    problems = check(game)
    if isinstance(action, (BuyShares, Par)) and action.is_player:
        player = game.player(action.entity)
        sym = action.corporation if isinstance(action, Par) else action.shares[0].rsplit("_", 1)[0]
        yellow = game.market.no_cert_limit(game.corporation(sym).share_price)
        if not yellow and game.num_certs(player) > game.cert_limit:
            problems.append(
                f"{player.name} holds {game.num_certs(player)} certificates after buying; "
                f"the limit is {game.cert_limit}"
            )
    return problems


def money(game: Game) -> list[str]:
    total = game.total_money()
    if total != game.rule_set.bank:
        return [f"money is not conserved: {total} in play, {game.rule_set.bank} at the start"]
    return []


def shares(game: Game) -> list[str]:
    problems = []
    pool_limit = int(game.facts["pool_limit_percent"])
    for corp in game.corporations.values():
        certs = [c for held in corp.shares.holdings.values() for c in held]
        if len(certs) != len(set(certs)) or len(certs) != len(corp.definition.share_percents):
            problems.append(f"{corp.sym}: certificates lost or duplicated: {sorted(certs)}")
        if corp.shares.total_percent() != 100:
            problems.append(f"{corp.sym}: shares sum to {corp.shares.total_percent()}%")
        if corp.shares.percent_of(POOL) > pool_limit:
            problems.append(f"{corp.sym}: the pool holds {corp.shares.percent_of(POOL)}%")
        # where a market zone lifts the limit (1830's orange and brown, 1830 RULES.md §14)
        # more may be bought, and kept after the price leaves the zone
        lifted = game.market.lifts_holding_limit()
        for pid, pct in corp.shares.player_percents().items():
            if pct > corp.definition.max_ownership_percent and not lifted:
                problems.append(f"{corp.sym}: player {pid} holds {pct}%")
        if corp.ipoed and corp.president is None and corp.shares.player_percents():
            problems.append(f"{corp.sym}: parred but nobody holds the president's certificate")
    return problems


def trains(game: Game) -> list[str]:
    from route18xx.engine.game.discard import DiscardTrainStep

    problems = []
    places: Counter[str] = Counter()
    for corp in game.corporations.values():
        places.update(corp.trains)
    places.update(game.depot.upcoming)
    places.update(game.depot.discarded)
    for train, n in places.items():
        if n > 1:
            problems.append(f"train {train} is in {n} places")
    rusted = {
        name
        for name, t in game.trains.items()
        if t.rusts_when_first_bought and t.rusts_when_first_bought in game.depot.left_depot
    }
    for corp in game.corporations.values():
        for t in corp.trains:
            if train_name(t) in rusted:
                problems.append(f"{corp.sym} still owns the rusted train {t}")
    crowded = game.crowded_corporations()
    if crowded and not game.finished:
        step = game.round.active_step(game)
        if not isinstance(step, DiscardTrainStep):
            problems.append(
                f"{', '.join(c.sym for c in crowded)} over the train limit and no discard pending"
            )
    return problems


def tokens(game: Game) -> list[str]:
    problems = []
    board = game.board
    per_hex: Counter[tuple[str, str]] = Counter()
    for (hex_id, city), corps in board.tokens.items():
        node = board.revenue_center(hex_id, city)
        if node is None or node.kind != "city":
            problems.append(f"token on {hex_id}-{city}, which is not a city")
            continue
        if len(corps) > node.slots:
            problems.append(f"{hex_id}-{city} holds {len(corps)} tokens in {node.slots} slots")
        for sym in corps:
            per_hex[(hex_id, sym)] += 1
    for (hex_id, sym), n in per_hex.items():
        if n > 1:
            problems.append(f"{sym} has {n} tokens on {hex_id}")
    # a token a tile lay lifted is used but off the board until placed again (1830's OO)
    in_hand = Counter(sym for sym, _ in getattr(game.state.round, "pending_tokens", ()))
    for corp in game.corporations.values():
        placed = sum(1 for v in board.tokens.values() for c in v if c == corp.sym) + in_hand[corp.sym]
        if placed != corp.tokens_used:
            problems.append(f"{corp.sym}: {placed} tokens on the board, {corp.tokens_used} used")
    return problems
