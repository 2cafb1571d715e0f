"""Cut the route decisions of the two shared 1830 logs into state files (run offline).

    PYTHONPATH=proto:. python tests/data/1830/make_states.py ../shared/fixtures/1830 \
        ../shared/reference/1830/data/fixture_checkpoints.json > tests/data/1830/states.json

For every kept ``run_routes`` of ``26855.json`` and ``29133.json`` (undo/redo resolved
as 18xx.games does, ``engine.replay.kept_actions``) it writes the board of that moment
as a state file — tiles from the kept ``lay_tile`` actions, station tokens from the
kept ``place_token`` actions plus each company's home token when it first acts
(1830 RULES.md §6.4), the phase from the first train of each type bought (§8) — with
the company and the trains that ran, beside the recorded routes and revenue.

This is not a replay: no money, shares or rounds. It is checked against the
18xx.games engine's own figures: at every round change of ``fixture_checkpoints.json``
the tokens of every company and the phase must equal the checkpoint's, or the script
stops. The recorded revenues are the witness the tests compare with (1830 ROUTES.md §7).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from route18xx.engine.board import Board
from route18xx.engine.gamedata import game_data
from route18xx.engine.replay import kept_actions


def _phase_of(bought: set[str]) -> str:
    data = game_data("1830")
    phase = data.phases[0].name
    for p in data.phases:
        if p.starts_with_train is not None and p.starts_with_train in bought:
            phase = p.name
    return phase


def states_of(log: dict[str, Any], checkpoints: dict[str, Any], game: str) -> list[dict[str, Any]]:
    data = game_data("1830")
    rule_set = checkpoints["rule_set"]
    board = Board({}, {}, data)
    tile_hex = {h.preprinted_tile_id: h.id for h in data.hexes.values()}
    acted: set[str] = set()
    bought: set[str] = set()
    snapshots = {s["after_action_id"]: s for s in checkpoints["snapshots"]}
    out: list[dict[str, Any]] = []

    def token(hex_id: str, city: int, corp: str) -> None:
        nonlocal board
        tokens = {k: tuple(c for c in v if not (c == corp and k[0] == hex_id))
                  for k, v in board.tokens.items()}
        tokens[(hex_id, city)] = tokens.get((hex_id, city), ()) + (corp,)
        board = board.with_tokens(tokens)

    for action in kept_actions(log):
        kind, entity = action.get("type"), action.get("entity")
        if action.get("entity_type") == "corporation" and entity not in acted and kind != "par":
            acted.add(entity)
            corp = data.corporations[entity]
            home = board.hex(corp.home_hex)
            if entity != "ERIE" or home.preprinted.paths or corp.home_hex in board.placed:
                token(corp.home_hex, corp.home_city_index or 0, entity)
            else:
                token(corp.home_hex, 0, entity)  # E11 without track: city 0 (§6.4)
        if kind == "lay_tile":
            name, _, _ = action["tile"].rpartition("-")
            board = board.with_tile(action["hex"], data.tiles[name], action["rotation"])
            tile_hex[action["tile"]] = action["hex"]
        elif kind == "place_token":
            tile_id, _, city = action["city"].rpartition("-")
            token(tile_hex[tile_id], int(city), entity)
        elif kind == "buy_train":
            bought.add(action["train"].split("-")[0])
        elif kind == "run_routes":
            trains = [r["train"].split("-")[0] for r in action["routes"]]
            state = {
                "title": "1830", "rule_set": rule_set, "phase": _phase_of(bought),
                "corporation": entity, "trains": trains,
                "tiles": [{"hex": h, "tile": p.tile.name, "rotation": p.rotation}
                          for h, p in sorted(board.placed.items())],
                "tokens": [{"hex": h, "city": c, "corporation": corp}
                           for (h, c), corps in sorted(board.tokens.items()) for corp in corps],
            }
            out.append({
                "name": f"{game}-{action['id']}", "state": state, "routes": action["routes"],
                "recorded_revenue": sum(r["revenue"] for r in action["routes"]),
            })
        snap = snapshots.get(action.get("id"))
        if snap is not None and kind != "bankrupt":
            _compare(snap, board, _phase_of(bought), game)
    return out


def _compare(snap: dict[str, Any], board: Board, phase: str, game: str) -> None:
    if snap["phase"] != phase:
        raise SystemExit(f"{game} {snap['label']}: phase {phase}, engine {snap['phase']}")
    for sym, corp in snap["corporations"].items():
        want = sorted((t.split("/")[0], int(t.rsplit("-", 1)[1])) for t in corp["tokens"])
        got = sorted(board.token_cities(sym))
        if not got and len(want) == 1 and want[0][0] == game_data("1830").corporations[sym].home_hex:
            continue  # the checkpoint is taken after the next company's home token (§6.4)
        if want != got:
            raise SystemExit(f"{game} {snap['label']}: {sym} tokens {got}, engine {want}")


def main() -> None:
    folder, checkpoints_path = Path(sys.argv[1]), Path(sys.argv[2])
    checkpoints = json.loads(checkpoints_path.read_text("utf-8"))
    states: list[dict[str, Any]] = []
    for game in ("26855", "29133"):
        log = json.loads((folder / f"{game}.json").read_text("utf-8"))
        states.extend(states_of(log, checkpoints[game], game))
    json.dump({"_doc": __doc__.split("\n\n")[0], "states": states}, sys.stdout, indent=0)
    print()


if __name__ == "__main__":
    main()
