"""Grow hard legal 1888 boards from the latest real states (issue 11, item 1).

Each board starts from a real late-game state (``tests/data/states``) and takes
``MOVES`` legal moves, one at a time, each drawn (seeded) from the engine's own
legality: ``legal_tile_lays`` for a company that has a token on the board, or
``legal_token_placements`` for one with a token left. The running company gets
a train set within phase D's limit of two, none rusted: D + D, 6 + D, 5 + D,
5 + 6 or 6 + 6 (parse_state refuses anything else). Boards where the runner
earns nothing are skipped. The same seeds give the same boards.

    .venv/bin/python -m benchmarks.grow_boards           # writes tests/data/boards/grown-*.json
    .venv/bin/python -m benchmarks.grow_boards --reference   # records each optimum (slow)

``--reference`` solves each board with a long time limit and writes the proven
optimum into its ``meta``; it was run with the solver as it was before issue 11's
changes, so the tests compare the new solver against an independent run.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from route18xx.engine.errors import MalformedInput
from route18xx.engine.inputs.state_file import parse_state, to_state_file
from route18xx.engine.board.tile_lay import legal_tile_lays
from route18xx.engine.board.token_place import legal_token_placements

ROOT = Path(__file__).resolve().parent.parent
STATES = ROOT / "tests" / "data" / "states"
BOARDS = ROOT / "tests" / "data" / "boards"
BASES = ("129026-743", "129026-701", "129026-658", "129026-614", "1888_game_end_bankrupt-507")
TRAIN_SETS = (("D", "D"), ("6", "D"), ("5", "D"), ("5", "6"), ("6", "6"))
MOVES = 30
COUNT = 35


def _companies(state: dict[str, Any]) -> list[str]:
    return sorted({t["corporation"] for t in state["tokens"]})


def _move(state: dict[str, Any], runner: str, rng: random.Random) -> list[Any] | None:
    """One legal move on ``state`` (in place); the runner lays most tiles."""
    parsed = parse_state(state)
    board = parsed.board
    companies = _companies(state)
    corp = runner if rng.random() < 0.6 else rng.choice(companies)
    if rng.random() < 0.15:
        places = legal_token_placements(board, corp)
        if places:
            p = rng.choice(places)
            trial = dict(state, tokens=[*state["tokens"],
                                        {"hex": p.hex, "city": p.city, "corporation": corp}])
            try:
                parse_state(trial)
            except MalformedInput:  # no token left
                return None
            state["tokens"] = trial["tokens"]
            return ["token", corp, p.hex, p.city]
    lays = legal_tile_lays(board, corp, phase=parsed.phase, rule_set=parsed.rule_set)
    if not lays:
        return None
    lay = rng.choice(lays)
    new_board = board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)
    new_state = to_state_file(parsed.__class__(parsed.rule_set, parsed.phase, parsed.corporation,
                                               parsed.trains, new_board))
    state["tiles"] = new_state["tiles"]
    state["tokens"] = new_state["tokens"]
    return ["tile", corp, lay.hex, lay.tile, lay.rotation]


def grow(seed: int) -> dict[str, Any] | None:
    """Board number ``seed``, or None if the runner earns nothing on it."""
    rng = random.Random(seed)
    base = BASES[seed % len(BASES)]
    state = json.loads((STATES / f"{base}.json").read_text())["state"]
    state = {k: state[k] for k in ("title", "rule_set", "phase", "corporation", "trains",
                                   "tiles", "tokens")}
    runner = rng.choice(_companies(state))
    trains = list(TRAIN_SETS[seed % len(TRAIN_SETS)])
    state["corporation"], state["trains"] = runner, trains
    moves = []
    while len(moves) < MOVES:
        move = _move(state, runner, rng)
        if move is not None:
            moves.append(move)
    parse_state(state)  # every board is legal
    return {
        "state": state,
        "meta": {
            "base_state": base, "runner": runner, "trains": trains, "seed": seed,
            "moves_applied": moves,
            "note": "grown by benchmarks/grow_boards.py with legal moves only "
                    "(legal_tile_lays / legal_token_placements); trains within the "
                    "phase limit, none rusted",
        },
    }


def reference(path: Path, time_limit_s: float) -> None:
    """Record the proven optimum (objective total) of one board in its meta."""
    from route18xx.engine.api import solve_routes

    board = json.loads(path.read_text())
    t0 = time.perf_counter()
    report = solve_routes(board["state"], time_limit_s=time_limit_s)
    seconds = time.perf_counter() - t0
    board["meta"]["reference"] = {
        "revenue": report["revenue"], "subsidy": report["subsidy"],
        "total": report["revenue"] + report["subsidy"], "status": report["status"],
        "bound": report["bound"], "seconds": round(seconds, 3),
        "solver": "route18xx before issue 11 (commit 6a085ff), time limit "
                  f"{time_limit_s:g} s",
    }
    path.write_text(json.dumps(board, indent=1) + "\n")
    print(path.name, board["meta"]["reference"], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference", action="store_true")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--count", type=int, default=COUNT)
    args = parser.parse_args()
    BOARDS.mkdir(parents=True, exist_ok=True)
    if args.reference:
        for path in sorted(BOARDS.glob("*.json")):
            if "reference" not in json.loads(path.read_text())["meta"]:
                reference(path, args.time_limit)
        return
    from route18xx.engine.answer.optimize import optimize

    written, seed = 0, 0
    while written < args.count:
        board = grow(seed)
        seed += 1
        if board is None:
            continue
        parsed = parse_state(board["state"])
        if optimize(parsed, time_limit_s=0.5).judgement.revenue == 0:
            continue
        name = f"grown-{board['meta']['seed']:03d}-{board['meta']['runner']}-" \
               f"{''.join(board['meta']['trains'])}.json"
        (BOARDS / name).write_text(json.dumps(board, indent=1) + "\n")
        written += 1
        print(name, flush=True)


if __name__ == "__main__":
    main()
