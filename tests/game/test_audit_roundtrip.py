"""Whole random north games written as 18xx.games logs and replayed (ACTIONS.md §2, §4).

The random players of ``tests/game/agent.py`` play a game; every accepted
action is written in the log format (the fields ACTIONS.md §4 documents:
``share_price`` ids, ``variant``, ``tokener``, ``extra_revenue``/``subsidy``,
private-company entities for special lays) with increasing, non-contiguous
ids, plus entries the held-back log has and the shared ones barely do: a
``program_disable`` after every stock-round purchase, and a redo-ed undo and an
``undo`` back to the latest id (both no-ops) after every private purchase.
``engine.replay.replay`` must read it all and reach the same final scores.
"""

from __future__ import annotations

from typing import Any

import pytest

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
from route18xx.engine.game.depot import train_name
from route18xx.engine.game.game import Game
from route18xx.engine.replay import replay
from tests.game.agent import RandomAgent

pytest.importorskip("ortools")


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


def play_and_log(seed: int, players: int, stingy: bool) -> tuple[Game, dict[str, Any]]:
    game = Game("north", [(100 + i, f"Player {i + 1}") for i in range(players)])
    agent = RandomAgent(game, seed, stingy=stingy)
    actions: list[dict[str, Any]] = []
    aid = 3
    for _ in range(4000):
        if game.finished:
            break
        action = agent.step()
        aid += 2  # ids increase but are not contiguous (ACTIONS.md §2.1)
        actions.append(log_entry(game, action, aid))
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
    assert game.finished
    log = {
        "id": seed,
        "title": "1888",
        "players": [{"id": p.id, "name": p.name} for p in sorted(game.players, key=lambda p: p.id)],
        "settings": {"optional_rules": ["north"], "seed": seed},
        "status": "finished",
        "result": {str(pid): score for pid, score in game.scores().items()},
        "actions": actions,
    }
    return game, log


@pytest.mark.parametrize("seed, players, stingy", [(7, 4, False), (11, 5, False), (4, 3, True)])
def test_a_logged_random_game_replays_to_its_scores(seed: int, players: int, stingy: bool) -> None:
    game, log = play_and_log(seed, players, stingy)
    kinds = {a["type"] for a in log["actions"]}
    assert {"lay_tile", "run_routes", "buy_train", "program_disable"} <= kinds
    result = replay(log)
    assert result.errors == []
    assert result.completed and result.game.finished
    assert result.scores_match
    assert result.game.state.end_reason == game.state.end_reason
