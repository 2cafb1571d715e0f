"""Many random 1830 games, outside the suite (issue 25 item 3): each is played by the
random players (``engine/game/agent.py``), written as an 18xx.games log, replayed with
the invariants checked after every action, and must reach its own end and scores.
One JSON line per seed, with counts of the rare actions its replay held.

    PYTHONPATH=proto:. .venv/bin/python -m tests.game.playout_batch_1830 3000 150 out.jsonl

Seed s: 2 + s % 5 players, stingy when s % 3 == 2, rule set number (s // 5) % 4.
"""

from __future__ import annotations

import collections
import json
import sys
import time
import traceback
from typing import Any

from route18xx.engine.game.invariants import check_after
from route18xx.engine.game.playout import play_and_log
from route18xx.engine.replay.replay import replay

RULE_SETS = ("standard", "multiple_brown_from_ipo", "optional_6_train",
             "multiple_brown_from_ipo+optional_6_train")


def one(seed: int) -> dict[str, Any]:
    players, stingy, rule_set = 2 + seed % 5, seed % 3 == 2, RULE_SETS[(seed // 5) % 4]
    rec: dict[str, Any] = {"seed": seed, "players": players, "stingy": stingy, "rule_set": rule_set}
    start = time.process_time()
    try:
        game, log = play_and_log(seed, players, stingy, rule_set, title="1830")
        rec["end"] = game.state.end_reason
        kinds: collections.Counter[str] = collections.Counter()
        problems: list[Any] = []
        before: dict[str, Any] = {}

        def pre(g: Any, a: Any) -> None:
            before["step"] = g.waiting_for().get("step")
            before["round"] = type(g.state.round).__name__
            before["bought"] = list(getattr(g.state.round, "bought_corps", []))

        def post(g: Any, a: Any) -> None:
            found = check_after(g, a)
            if found:
                problems.append((a.id, found))
            t = a.type
            if t == "buy_train" and getattr(a, "exchange", None):
                kinds["d_trade_in"] += 1
            if t == "buy_shares" and a.entity_type == "company":
                kinds["mh_exchange"] += 1
            if t == "buy_company":
                kinds["private_player_to_player" if a.entity_type == "player" else "private_to_corp"] += 1
            if t == "bankrupt":
                kinds["bankrupt"] += 1
            if t == "sell_shares" and before["round"] == "OperatingRound":
                kinds["emergency_sale"] += 1
            if t == "buy_shares" and a.entity_type == "player" and before["bought"]:
                kinds["multi_buy"] += 1
            if t == "place_token" and before["step"] == "home token":
                kinds["home_token_choice"] += 1
            if a.entity == "DH":
                kinds["dh_" + t] += 1
            if t == "discard_train":
                kinds["discard"] += 1

        result = replay(log, before_action=pre, after_action=post)
        rec["kinds"] = dict(kinds)
        rec["ok"] = (not result.errors and result.completed and not problems
                     and result.final_scores == result.recorded_result
                     and result.game.state.end_reason == game.state.end_reason)
        if not rec["ok"]:
            rec["errors"] = [str(e) for e in result.errors][:3]
            rec["problems"] = problems[:3]
    except Exception:  # a stuck agent or an engine error: recorded, the batch goes on
        rec["ok"] = False
        rec["exception"] = traceback.format_exc()[-1500:]
    rec["cpu_s"] = round(time.process_time() - start, 1)
    return rec


def main(argv: list[str]) -> None:
    first, count, path = int(argv[0]), int(argv[1]), argv[2]
    with open(path, "a", encoding="utf-8") as out:
        for seed in range(first, first + count):
            out.write(json.dumps(one(seed), default=str) + "\n")
            out.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
