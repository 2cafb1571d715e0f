"""An adversarial search for slow boards, grown against the current solver (issue 21, item 2).

Boards grow as in ``benchmarks/grow_boards.py`` (legal tile lays and tokens only,
from the latest real states), but each seed draws its base state (both rule
sets), its running company and its two-train set (every legal one in phase D:
5+5, 5+6, 6+6, 5+D, 6+D, D+D) independently, so no base is tied to one train
set. Each board is then *climbed*: ``--climb`` more legal moves are tried one at
a time and a move is kept only if it makes the board slower for the solver in
this process (process CPU of the optimum, parsed state to checked answer). The
slowest ``--keep`` boards are written with their figures.

    .venv/bin/python -m benchmarks.adversarial grow --seeds 7000:7060 --climb 8 --keep 45 OUT
    .venv/bin/python -m benchmarks.adversarial time OUT [OTHER_CHECKOUT]   # side by side
    .venv/bin/python -m benchmarks.adversarial ci     # the CI-sized run (``make bench``)
    .venv/bin/python -m benchmarks.adversarial grow --by steps --seeds 9300:9340 --climb 25 OUT

``--by steps`` climbs by the pair listing's size instead (a count, no timing): the
boards whose listing is longest, written whole (``big-*.json``).

``time`` solves each board of OUT (proven, 60 s limit) three times in this tree
and, given another checkout, three times there, in alternating fresh processes
(the load hits both alike), and prints per board the median process CPU in ms,
the ratio, the optimum (both must agree) and the worst board of each.
Seeds used so far are listed in the README's benchmark section: use new ones.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.grow_boards import BASES, STATES, _move

ROOT = Path(__file__).resolve().parent.parent
#: Every two-train set a company may hold in phase D (2, 3 and 4 have rusted).
TRAIN_SETS = (("5", "5"), ("5", "6"), ("6", "6"), ("5", "D"), ("6", "D"), ("D", "D"))
MOVES = 30


def grow(seed: int, moves: int = MOVES,
         train_sets: Sequence[Sequence[str]] | None = None) -> dict[str, Any]:
    """Board ``seed``: a base, a runner and a train set (of ``train_sets``, default
    ``TRAIN_SETS``) drawn independently, then legal moves."""
    from route18xx.engine.inputs.state_file import parse_state

    rng = random.Random(seed)
    base = rng.choice(BASES)
    state = json.loads((STATES / f"{base}.json").read_text())["state"]
    state = {k: state[k] for k in ("title", "rule_set", "phase", "corporation", "trains",
                                   "tiles", "tokens")}
    runner = rng.choice(sorted({t["corporation"] for t in state["tokens"]}))
    trains = list(rng.choice(TRAIN_SETS if train_sets is None else train_sets))
    state["corporation"], state["trains"] = runner, trains
    applied: list[Any] = []
    while len(applied) < moves:
        move = _move(state, runner, rng)
        if move is not None:
            applied.append(move)
    parse_state(state)  # every board is legal
    return {"state": state, "meta": {"base_state": base, "runner": runner, "trains": trains,
                                     "seed": seed, "moves_applied": applied}}


def solve_cpu(state: dict[str, Any], time_limit_s: float = 60.0) -> dict[str, Any]:
    """One proven solve (objective total): process CPU ms, optimum, status, CP-SAT branches."""
    from route18xx.engine.answer.optimize import optimize
    from route18xx.engine.inputs.state_file import parse_state

    started = time.process_time()
    opt = optimize(parse_state(state), time_limit_s=time_limit_s)
    cpu_ms = (time.process_time() - started) * 1000
    sol = opt.solution
    return {"cpu_ms": round(cpu_ms, 1), "total": sol.revenue + sol.subsidy,
            "status": sol.status, "branches": sol.stats.branches}


def climb(board: dict[str, Any], steps: int, rng: random.Random) -> dict[str, Any]:
    """Keep each of ``steps`` further legal moves only if the board gets slower."""
    state, meta = board["state"], board["meta"]
    best = solve_cpu(state)
    for _ in range(steps):
        trial = json.loads(json.dumps(state))
        move = _move(trial, meta["runner"], rng)
        if move is None:
            continue
        figures = solve_cpu(trial)
        if figures["total"] > 0 and figures["cpu_ms"] > best["cpu_ms"]:
            state, best = trial, figures
            meta["moves_applied"].append(move)
    board["state"] = state
    meta["grown_against"] = best
    return board


def listing_steps(state: dict[str, Any], cap: int = 3_000_000) -> int:
    """The pair listing's partial routes at the longer train's reach (a count: the
    listing's cost, whatever the solver does with it); ``cap`` + 1 past ``cap``."""
    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver.model.model import Instance
    from route18xx.solver.listing.pairvector import Lister
    from route18xx.solver.graph.reduce import reduce_problem

    problem = build_problem(parse_state(state)).problem
    instance = Instance.make(problem, reduce_problem(problem), "total")
    full = sum(max(0, s.distance_cost) for s in instance.stops)
    lister = Lister(instance.graph, instance.stops, instance.stop_weights, instance.bonuses,
                    instance.groups)
    if lister.list(full, problem.min_stops, cap) is None:
        return cap + 1
    return sum(len(parent) for parent, _ in lister.layers)


def grow_by_steps(seed: int, steps: int) -> dict[str, Any]:
    """Board ``seed`` with an unlimited train (5 + D for odd seeds, D + D for even), then
    ``steps`` further legal moves, each kept only if the pair listing grows: boards
    whose listing is long, found without timing anything."""
    board = grow(seed)
    board["state"]["trains"] = board["meta"]["trains"] = ["5", "D"] if seed % 2 else ["D", "D"]
    state, rng = board["state"], random.Random(seed + 77)
    best = listing_steps(state)
    for _ in range(steps):
        trial = json.loads(json.dumps(state))
        move = _move(trial, board["meta"]["runner"], rng)
        if move is None:
            continue
        count = listing_steps(trial)
        if count > best:
            state, best = trial, count
            board["meta"]["moves_applied"].append(move)
    board["state"] = state
    board["meta"]["listing_steps"] = best
    return board


def search(seeds: range, steps: int, keep: int, out: Path | None,
           grow_board: Callable[[int], dict[str, Any]] = grow) -> list[dict[str, Any]]:
    """Grow (``grow_board``) and climb a board per seed; the ``keep`` slowest, slowest
    first, written to ``out`` if given (the process warmed up first, as ``time_folder``'s)."""
    from route18xx.engine.api import warm_up

    warm_up()
    boards = []
    for seed in seeds:
        board = grow_board(seed)
        if solve_cpu(board["state"], 5.0)["total"] == 0:
            continue  # the runner earns nothing here
        board = climb(board, steps, random.Random(seed + 1_000_003))
        figures = board["meta"]["grown_against"]
        print(f"{seed} {''.join(board['meta']['trains'])} {board['meta']['runner']} "
              f"{figures['cpu_ms']} ms {figures['status']}", flush=True)
        boards.append(board)
    boards.sort(key=lambda b: -b["meta"]["grown_against"]["cpu_ms"])
    boards = boards[:keep]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for board in boards:
            meta = board["meta"]
            name = f"adv-{meta['seed']}-{meta['runner']}-{''.join(meta['trains'])}.json"
            (out / name).write_text(json.dumps(board, indent=1) + "\n")
    return boards


def time_folder(folder: Path, rounds: int = 3) -> dict[str, dict[str, Any]]:
    """Per board of ``folder``: the median CPU of ``rounds`` proven solves and the optimum.

    The process is warmed up first as a server's is (``engine.api.warm_up``: OR-Tools,
    the data, and numpy where the tree uses it), so no board pays for an import.
    """
    from route18xx.engine.api import warm_up

    warm_up()
    out = {}
    for path in sorted(folder.glob("*.json")):
        state = json.loads(path.read_text())["state"]
        runs = [solve_cpu(state) for _ in range(rounds)]
        out[path.stem] = {"cpu_ms": round(statistics.median(r["cpu_ms"] for r in runs), 1),
                          "total": runs[0]["total"], "status": runs[0]["status"],
                          "branches": runs[0]["branches"]}
    return out


def _time_in(checkout: Path | None, folder: Path) -> dict[str, dict[str, Any]]:
    """``time_folder`` in a fresh process, on this tree or another checkout."""
    env = dict(os.environ)  # this tree's code, or the other checkout's, never an installed one
    env["PYTHONPATH"] = f"{(checkout or ROOT) / 'proto'}{os.pathsep}{ROOT}"
    code = ("import json, sys; from pathlib import Path; from benchmarks.adversarial import "
            "time_folder; print(json.dumps(time_folder(Path(sys.argv[1]), 1)))")
    done = subprocess.run([sys.executable, "-c", code, str(folder)], env=env, cwd=ROOT,
                          check=True, capture_output=True, text=True)
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return result


def side_by_side(folder: Path, other: Path | None, rounds: int = 3) -> dict[str, Any]:
    """This tree (and ``other``) on ``folder``, ``rounds`` alternating processes each."""
    runs: dict[str, list[dict[str, dict[str, Any]]]] = {"new": [], "base": []}
    for _ in range(rounds):
        runs["new"].append(_time_in(None, folder))
        if other is not None:
            runs["base"].append(_time_in(other, folder))
    table = {}
    for name in runs["new"][0]:
        row: dict[str, Any] = {}
        for label, results in runs.items():
            if not results:
                continue
            row[f"{label}_ms"] = round(statistics.median(r[name]["cpu_ms"] for r in results), 1)
            row[f"{label}_total"] = results[0][name]["total"]
            row[f"{label}_status"] = results[0][name]["status"]
        if "base_ms" in row:
            row["ratio"] = round(row["new_ms"] / max(row["base_ms"], 0.1), 2)
            row["same_optimum"] = row["new_total"] == row["base_total"]
        table[name] = row
    summary: dict[str, Any] = {"boards": len(table)}
    for label in ("new", "base"):
        values = {n: r[f"{label}_ms"] for n, r in table.items() if f"{label}_ms" in r}
        if values:
            summary[f"{label}_median_ms"] = round(statistics.median(values.values()), 1)
            summary[f"{label}_worst_ms"] = max(values.values())
            summary[f"{label}_worst_board"] = max(values, key=values.__getitem__)
            summary[f"{label}_over_250"] = sum(v > 250 for v in values.values())
            summary[f"{label}_over_100"] = sum(v > 100 for v in values.values())
            summary[f"{label}_all_proven"] = all(r[f"{label}_status"] == "OPTIMAL"
                                                 for r in table.values())
    if other is not None:
        summary["median_ratio"] = round(statistics.median(r["ratio"] for r in table.values()), 2)
        summary["same_optima"] = all(r["same_optimum"] for r in table.values())
    return {"summary": summary, "boards": table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grow")
    g.add_argument("--seeds", default="7000:7010", help="FIRST:END (END excluded)")
    g.add_argument("--climb", type=int, default=8)
    g.add_argument("--keep", type=int, default=45)
    g.add_argument("--by", choices=("time", "steps"), default="time",
                   help="climb by the solver's CPU (default) or by the pair listing's size")
    g.add_argument("out", type=Path)
    t = sub.add_parser("time")
    t.add_argument("folder", type=Path)
    t.add_argument("other", type=Path, nargs="?")
    t.add_argument("--rounds", type=int, default=3)
    sub.add_parser("ci")
    args = parser.parse_args()
    if args.command == "grow":
        first, end = map(int, args.seeds.split(":"))
        if args.by == "time":
            search(range(first, end), args.climb, args.keep, args.out)
        else:
            args.out.mkdir(parents=True, exist_ok=True)
            for seed in range(first, end):
                board = grow_by_steps(seed, args.climb)
                meta = board["meta"]
                name = f"big-{seed}-{meta['runner']}-{''.join(meta['trains'])}.json"
                (args.out / name).write_text(json.dumps(board, indent=1) + "\n")
                print(seed, "".join(meta["trains"]), meta["runner"], meta["listing_steps"],
                      flush=True)
    elif args.command == "time":
        print(json.dumps(side_by_side(args.folder, args.other, args.rounds), indent=1))
    else:
        boards = search(range(CI_SEEDS.start, CI_SEEDS.stop), 2, 3, None)
        worst = boards[0]["meta"] if boards else {}
        print(json.dumps({"worst_seed": worst.get("seed"), **worst.get("grown_against", {})}))


#: The CI-sized run's seeds (``make bench``: about a dozen solves).
CI_SEEDS = range(9000, 9004)


if __name__ == "__main__":
    main()
