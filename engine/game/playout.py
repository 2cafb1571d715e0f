"""Whole random games written as 18xx.games logs (ACTIONS.md §2, §4; issue 15).

``engine.game.agent.RandomAgent`` plays a game; every accepted action is
written in the log format (the fields ACTIONS.md §4 documents: ``share_price``
ids, ``variant``, ``tokener``, ``extra_revenue``/``subsidy``, private-company
entities for special lays) with increasing, non-contiguous ids, plus entries
the held-back log has and the shared ones barely do: a ``program_disable``
after every stock-round purchase, and a redo-ed undo and an ``undo`` back to
the latest id (both no-ops) after every private purchase. ``engine.replay``
reads such a log back to the same final scores: it is the audit's corpus.
"""

from __future__ import annotations

from typing import Any

from route18xx.engine.game.actions import (
    Action,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from route18xx.engine.game.agent import RandomAgent, Stuck
from route18xx.engine.game.depot import train_name
from route18xx.engine.game.game import Game

__all__ = ["MAX_ACTIONS", "Stuck", "log_entry", "log_options", "play_and_log"]

#: A random game ends well before this many actions; past it the agent is stuck. (A
#: random 5-player 1830 game of 20 stock rounds, brown-zone buying and selling churning,
#: took 4 129: seed 3003.)
MAX_ACTIONS = 10000


def log_entry(game: Game, action: Action, aid: int) -> dict[str, Any]:
    """``action`` as a log entry (ACTIONS.md §4); ``game`` is the game before it."""
    out: dict[str, Any] = {
        "type": action.type,
        "entity": action.entity,
        "entity_type": action.entity_type,
        "id": aid,
        "created_at": 1700000000 + aid,
    }
    match action:
        case Bid():
            out |= {"company": action.company, "price": action.price}
        case Par():
            out |= {"corporation": action.corporation,
                    "share_price": f"{action.price},{action.row},{action.column}"}
        case BuyShares() | SellShares():
            out |= {"shares": list(action.shares), "percent": action.percent}
        case LayTile():
            out |= {"hex": action.hex, "tile": action.tile, "rotation": action.rotation}
        case PlaceToken():
            out |= {"city": action.city, "slot": action.slot or 0, "tokener": action.entity}
        case RunRoutes():
            out |= {
                "routes": [r.as_json() | {"revenue_str": "-".join(r.hexes)} for r in action.routes],
                "extra_revenue": 0,
                "subsidy": action.subsidy,
            }
        case Dividend():
            out |= {"kind": action.kind}
        case BuyTrain():
            out |= {"train": action.train, "price": action.price, "variant": train_name(action.train)}
            if action.exchange is not None:
                out["exchange"] = action.exchange
        case BuyCompany():
            out |= {"company": action.company, "price": action.price}
        case DiscardTrain():
            out |= {"train": action.train}
    return out


def log_options(game: Game) -> list[str]:
    """The log's ``optional_rules`` that choose the game's rule set again: 1888's
    ``north`` (1888 RULES.md §1), 1830's optional rules (1830 data/README.md "Rule sets")."""
    name = game.rule_set.name
    options = game.title.options_of_rule_set(name)
    assert game.title.rule_set_of_options(options).name == name, name
    return options


def play_and_log(
    seed: int, players: int, stingy: bool, rule_set: str, title: str,
    until_first_run: bool = False,
) -> tuple[Game, dict[str, Any]]:
    """Play one random game of ``title`` to its end and return it with its 18xx.games log.

    The log's ``id`` is ``seed``; its ``result`` holds the final scores. Raises
    ``Stuck`` when the agent finds no accepted action or the game does not end
    within ``MAX_ACTIONS`` actions (a bug of the agent or the engine). With
    ``until_first_run`` the game stops after its first ``run_routes`` that runs a
    route: a game in progress (no ``result``), as a server's warm-up log
    (``engine/data/<title>/warm_up_log.json``, ``tools/warm_up_logs.py``).
    """
    # the log's id is the seed, which 18xx.games also deals a beginner game's privates by
    game = Game(rule_set, [(100 + i, f"Player {i + 1}") for i in range(players)], title=title, seed=seed)
    agent = RandomAgent(game, seed, stingy=stingy)
    actions: list[dict[str, Any]] = []
    aid = 3
    stopped = False  # at the first run (``until_first_run``)
    for _ in range(MAX_ACTIONS):
        if game.finished:
            break
        action = agent.step()
        aid += 2  # ids increase but are not contiguous (ACTIONS.md §2.1)
        actions.append(log_entry(game, action, aid))
        if until_first_run and isinstance(action, RunRoutes) and action.routes:
            stopped = True
            break
        if isinstance(action, (BuyShares, Par)) and action.is_player:
            aid += 1
            actions.append({"type": "program_disable", "entity": action.entity, "entity_type": "player",
                            "id": aid, "reason": "audit", "original_type": "program_share_pass"})
        if isinstance(action, BuyCompany):
            last = aid
            for kind in ("undo", "redo"):
                aid += 1
                actions.append({"type": kind, "entity": 100, "entity_type": "player", "id": aid})
            aid += 1
            actions.append({"type": "undo", "entity": 100, "entity_type": "player", "id": aid,
                            "action_id": last})
    if not game.finished and not stopped:
        raise Stuck(f"seed {seed}: the game did not end within {MAX_ACTIONS} actions")
    log: dict[str, Any] = {
        "id": seed,
        "title": game.title.name,
        "players": [{"id": p.id, "name": p.name} for p in sorted(game.players, key=lambda p: p.id)],
        "settings": {"optional_rules": log_options(game), "seed": seed},
        "status": "finished" if game.finished else "active",
    }
    if game.finished:
        log["result"] = {str(pid): score for pid, score in game.scores().items()}
    log["actions"] = actions
    return game, log
