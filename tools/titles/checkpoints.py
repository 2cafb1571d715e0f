"""Shapes the fixture replays of ``dump.rb`` into the replay checkpoints the tests read.

A snapshot is the engine's state right after an action moved it into a new round (the new
round already set up) or ended the game; format 2 also takes one at the start, before any
action. The formats are those of ``shape.py`` (1: 1888's
``tests/data/reference/1888/fixture_checkpoints.json``; 2: 1830's
``tests/data/1830/fixture_checkpoints.json``, which new titles use). Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import shape

Raw = Mapping[str, Any]


def round_label(round_: Raw, turn: int, fmt: int) -> str:
    """How a snapshot names a round: format 1 ``Stock turn 2.1``, format 2 ``Stock Round 2``,
    ``Operating Round 2.1``, ``Auction``."""
    kind = str(round_["kind"])
    if fmt < 2:
        return f"{kind} turn {turn}.{round_['round_num']}"
    if kind == "Auction":
        return kind
    if kind == "Stock":
        return f"Stock Round {turn}"
    return f"{kind} Round {turn}.{round_['round_num']}"


def _label(snap: Raw, first_round_end: bool, fmt: int) -> str:
    state = snap["state"]
    if snap["trigger"] == "start":
        return f"start: {state['round']['kind']}"
    prev = snap["previous_round"]
    if snap["trigger"] == "game_end":
        if fmt < 2:
            return f"game end ({state['game_end_reason']})"
        return f"game end (during {round_label(prev, prev['turn'], fmt)})"
    if fmt < 2 and first_round_end:
        return f"end of Start: {prev['kind']}"
    return f"end of {round_label(prev, prev['turn'], fmt)}"


def snapshot(snap: Raw, first_round_end: bool, fmt: int) -> dict[str, Any]:
    state = snap["state"]
    out: dict[str, Any] = {
        "after_action_id": snap["after_kept_id"],
        "label": _label(snap, first_round_end, fmt),
    }
    if fmt >= 2:
        out["round"] = state["round"]["kind"]
        out["turn"] = state["turn"]
        out["round_num"] = state["round"]["round_num"]
    out["phase"] = state["phase"]
    out["bank"] = state["bank"]
    order = {c["sym"]: i for i, c in enumerate(state["corporations"])}
    players: dict[str, Any] = {}
    for p in state["players"]:
        # format 1: the order the player's holdings came in (the engine's hash); format 2:
        # the corporations' order
        shares = p["shares"] if fmt < 2 else sorted(p["shares"], key=lambda s: order[s[0]])
        item: dict[str, Any] = {
            "cash": p["cash"],
            "value": p["value"],
            "shares": {sym: pct for sym, pct in shares},
            "companies": list(p["companies"]),
        }
        if fmt >= 2:
            item["bankrupt"] = p["bankrupt"]
        players[p["name"]] = item
    out["players"] = players
    out["player_order"] = [p["name"] for p in state["players"]]
    corporations: dict[str, Any] = {}
    for c in state["corporations"]:
        if not c["ipoed"]:
            continue
        item = {
            "cash": c["cash"],
            "price": c["price"],
            "price_cell": c["price_cell"],
            "par": c["par"],
            "floated": c["floated"],
            "president": c["president"],
            "trains": list(c["trains"]),
            "companies": list(c["companies"]),
            "tokens": list(c["tokens"]),
            "pool_percent": c["pool_percent"],
            "ipo_percent": c["ipo_percent"],
        }
        if fmt >= 2:
            item["closed"] = c["closed"]
        corporations[c["sym"]] = item
    out["corporations"] = corporations
    if fmt >= 2:
        out["companies_closed"] = list(state["companies_closed"])
    out["depot_next"] = state["depot_next"]
    out["depot_discarded"] = list(state["depot_discarded"])
    return out


def fixture(replay: Raw, title_input: Raw) -> dict[str, Any]:
    fmt = title_input["format"]
    names = {str(p["id"]): p["name"] for p in replay["players"]}
    out: dict[str, Any] = {"optional_rules": list(replay["settings_optional_rules"])}
    if fmt >= 2:
        out["rule_set"] = shape.rule_set_of(title_input, replay["settings_optional_rules"])
    out["initial_player_order"] = [p["name"] for p in replay["players"]]
    out["player_ids"] = names
    out["result"] = {name: value for name, value in replay["result"]}
    if fmt >= 2:
        recorded = replay.get("recorded_result") or {}
        # a log's result keyed by player id, or already by name (1856's older logs)
        out["recorded_result_matches"] = {names.get(k, k): v for k, v in recorded.items()} == out["result"]
    out["finished"] = replay["finished"]
    out["game_end_reason"] = replay["game_end_reason"]
    snaps = replay["snapshots"] if fmt >= 2 else [s for s in replay["snapshots"] if s["trigger"] != "start"]
    out["snapshots"] = [
        snapshot(s, first_round_end=(s is next((x for x in snaps if x["trigger"] == "round"), None)), fmt=fmt)
        for s in snaps
    ]
    return out


def checkpoints_json(raw: Raw, title_input: Raw) -> dict[str, Any]:
    """``{fixture name: checkpoints}`` in the order of the input's ``fixtures``."""
    return {name: fixture(replay, title_input) for name, replay in (raw.get("fixtures") or {}).items()}
