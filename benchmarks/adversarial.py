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
boards whose listing is longest, written whole (``big-*.json``). ``--by nodes``
(``segments``, ``tiles``, ``tokens``) climbs by the board's size (``board_size``: no
timing, no solver limit), written whole (``size-*.json``); ``--trains DD`` draws the
train set from those given, ``--bases late`` the base from every phase-D real state:

    .venv/bin/python -m benchmarks.adversarial grow --by nodes --trains DD --bases late \
        --seeds 35000:35040 --climb 120 OUT

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
#: Failed move draws in a row after which a board is full (no legal lay or token left for
#: the companies drawn: the north map from 1888_game_end_bankrupt-507 fills at ~45 moves).
STUCK = 60


#: The real 1830 decisions (``tests/data/1830/states.json``): a base named ``1830:NAME``.
STATES_1830 = ROOT / "tests" / "data" / "1830" / "states.json"


def late_bases() -> tuple[str, ...]:
    """Every real state of ``tests/data/states`` in its title's latest phase (D): the
    bases of ``grow --bases late``, beside ``BASES``; with ``--bases late1830`` the two
    phase-D states of the 1830 logs (``1830:NAME``: the 1830 map is larger than 1888's
    north map, issue 35)."""
    return tuple(path.stem for path in sorted(STATES.glob("*.json"))
                 if json.loads(path.read_text())["state"]["phase"] == "D")


def late_bases_1830() -> tuple[str, ...]:
    """The phase-D states of the two shared 1830 logs, as ``1830:NAME`` bases."""
    cases = json.loads(STATES_1830.read_text())["states"]
    return tuple(f"1830:{c['name']}" for c in cases if c["state"]["phase"] == "D")


def base_state(base: str) -> dict[str, Any]:
    """A base's state file: ``tests/data/states/BASE.json``, or ``1830:NAME`` of
    ``tests/data/1830/states.json``."""
    if base.startswith("1830:"):
        cases = json.loads(STATES_1830.read_text())["states"]
        state: dict[str, Any] = next(c["state"] for c in cases if c["name"] == base[5:])
        return state
    loaded: dict[str, Any] = json.loads((STATES / f"{base}.json").read_text())["state"]
    return loaded


def grow(seed: int, moves: int = MOVES,
         train_sets: Sequence[Sequence[str]] | None = None,
         bases: Sequence[str] = BASES) -> dict[str, Any]:
    """Board ``seed``: a base (of ``bases``), a runner and a train set (of ``train_sets``,
    default ``TRAIN_SETS``) drawn independently, then legal moves (fewer where the board
    fills up: ``STUCK``)."""
    from route18xx.engine.inputs.state_file import parse_state

    rng = random.Random(seed)
    base = rng.choice(list(bases))
    state = base_state(base)
    state = {k: state[k] for k in ("title", "rule_set", "phase", "corporation", "trains",
                                   "tiles", "tokens")}
    runner = rng.choice(sorted({t["corporation"] for t in state["tokens"]}))
    trains = list(rng.choice(TRAIN_SETS if train_sets is None else train_sets))
    state["corporation"], state["trains"] = runner, trains
    applied: list[Any] = []
    failed = 0
    while len(applied) < moves and failed < STUCK:  # a full board has no move left
        move = _move(state, runner, rng)
        failed = 0 if move is not None else failed + 1
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
    listing's cost, whatever the solver does with it); ``cap`` + 1 past ``cap``.

    Issue 35: this count once failed on every board of more than 64 reduced nodes (the
    numpy listing's one-word masks), so growth by it never reached the boards where the
    solver was slow. It counts with the numpy listing where its masks hold the board
    (``capacity.fits``), and with ``count_partial_routes`` (Python integers, no width)
    elsewhere: no board is out of its reach.
    """
    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver.model.model import Instance
    from route18xx.solver.listing.capacity import fits
    from route18xx.solver.listing.pairvector import Lister
    from route18xx.solver.graph.reduce import reduce_problem

    problem = build_problem(parse_state(state)).problem
    instance = Instance.make(problem, reduce_problem(problem), "total")
    full = sum(max(0, s.distance_cost) for s in instance.stops)
    if not fits(instance.graph, instance.groups):
        return count_partial_routes(instance, full, cap)
    lister = Lister(instance.graph, instance.stops, instance.stop_weights, instance.bonuses,
                    instance.groups)
    if lister.list(full, problem.min_stops, cap) is None:
        return cap + 1
    return sum(len(parent) for parent, _ in lister.layers)


def count_partial_routes(instance: Any, max_cost: int, cap: int) -> int:
    """The partial routes the listings walk (one per node entered: ``pairwalk``'s and
    ``pairvector``'s step count), counted depth first with Python integers as node sets
    and no width at all; ``cap`` + 1 past ``cap``. The route rules are those of
    ``solver/listing/routes.py`` that cut a walk short: no node twice, a junction left by
    its other side, a ``route_end_only`` stop only at an end, one stop per group, the
    distance. ``tests/solver/test_yardstick.py`` checks it against the numpy listing's
    count on boards both sides of 64 nodes."""
    from route18xx.solver.listing.routes import adjacency, group_masks, leaving

    graph = instance.graph
    n_stops = graph.stop_count
    adjacent = adjacency(graph)
    leave = leaving(graph.stop_count, adjacent)
    groups = group_masks(n_stops, instance.groups)
    costs = [s.distance_cost for s in instance.stops]
    ends = [s.route_end_only for s in instance.stops]
    count = 0

    def walk(node: int, exits: list[Any], on: int, cost: int, used: int, depth: int) -> bool:
        nonlocal count
        count += 1
        if count > cap:
            return False
        if node < n_stops and depth > 1 and ends[node]:
            return True
        for other, _, side_there, _, _ in exits:
            if on >> other & 1:
                continue
            if other < n_stops:
                if cost + costs[other] > max_cost or used & groups[other]:
                    continue
                if not walk(other, adjacent[other], on | 1 << other, cost + costs[other],
                            used | groups[other], depth + 1):
                    return False
            elif not walk(other, leave[other][side_there], on | 1 << other, cost, used, depth):
                return False
        return True

    for s in range(n_stops):
        if costs[s] <= max_cost and not walk(s, adjacent[s], 1 << s, costs[s], groups[s], 1):
            return cap + 1
    return count


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


#: What ``grow --by`` climbs besides the solver's time and the listing's size: a measure of
#: the board's size (``board_size``), each with the reduced graph's size as tie-breaks.
MEASURES = ("nodes", "segments", "tiles", "tokens")


def board_size(state: dict[str, Any]) -> dict[str, Any]:
    """The board's size and structure: the reduced graph's nodes, stops and segments
    (``solver/graph/reduce.py``: no width limit), its stop-to-stop segments and
    independent cycles, tiles, tokens, the phase and the unlimited trains."""
    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver.graph.reduce import reduce_problem

    problem = build_problem(parse_state(state)).problem
    graph = reduce_problem(problem)
    return {"nodes": graph.node_count, "stops": graph.stop_count,
            "segments": len(graph.segments),
            "stop_to_stop": sum(1 for g in graph.segments
                                if g.a < graph.stop_count and g.b < graph.stop_count),
            "cycles": len(graph.segments) - graph.node_count + 1,
            "tiles": len(state["tiles"]), "tokens": len(state["tokens"]),
            "phase": state["phase"], "unlimited": sum(t == "D" for t in state["trains"])}


def grow_by_size(seed: int, steps: int, measure: str,
                 train_sets: Sequence[Sequence[str]] | None = None,
                 bases: Sequence[str] = BASES, pick: int = 1) -> dict[str, Any]:
    """Board ``seed`` (``grow``), then ``steps`` further legal moves, each the largest
    of ``pick`` drawn, kept if the board is no smaller by ``measure`` (then reduced
    nodes, then segments): ties are kept, so track laid towards a node not yet joined
    survives. No timing: boards of a
    size, found whatever the solver does with them (issue 35: the team's growth by
    time and listing steps never reached past 64 reduced nodes). No random moves first:
    from the base every tile and token kept is one that grows the board (the random
    moves of ``grow`` spent the tile supply away from the runner: on the north map 1 of 8
    boards passed 64 nodes with them)."""
    board = grow(seed, moves=0, train_sets=train_sets, bases=bases)
    state, rng = board["state"], random.Random(seed + 91)
    # The runner: one of the three companies that reach most of the base (a company
    # walled in by others' tokens grows nothing), drawn by the seed.
    reach = sorted((-board_size(dict(state, corporation=c))["nodes"], c)
                   for c in sorted({t["corporation"] for t in state["tokens"]}))
    runner = rng.choice([c for _, c in reach[:3]])
    state["corporation"] = board["meta"]["runner"] = runner

    def key(size: dict[str, Any]) -> tuple[int, int, int]:
        return size[measure], size["nodes"], size["segments"]

    best = board_size(state)
    for _ in range(steps):
        drawn = []
        for _ in range(pick):
            trial = json.loads(json.dumps(state))
            move = _move(trial, board["meta"]["runner"], rng)
            if move is not None:
                drawn.append((key(size := board_size(trial)), trial, size, move))
        if not drawn:
            continue
        top, trial, size, move = max(drawn, key=lambda d: d[0])
        if top >= key(best):
            state, best = trial, size
            board["meta"]["moves_applied"].append(move)
    board["state"] = state
    board["meta"]["size"] = best
    board["meta"]["grown_by"] = measure
    return board


def circuit_reference(path: Path, time_limit_s: float = 600.0) -> dict[str, Any]:
    """The board's optimum (objective total) from the independent model: CP-SAT's
    circuits for every train (``solve(method="circuit")``: no listing, no pair scan, no
    packing), written into its ``meta.reference`` (``tests/solver/test_hard_boards.py``
    compares the solver with it)."""
    from route18xx.engine.answer.problem_builder import build_problem
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.solver import solve

    board = json.loads(path.read_text())
    problem = build_problem(parse_state(board["state"])).problem
    started = time.perf_counter()
    found = solve(problem, method="circuit", time_limit_s=time_limit_s)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    board["meta"]["reference"] = {
        "revenue": found.revenue, "subsidy": found.subsidy,
        "total": found.revenue + found.subsidy, "status": found.status, "bound": found.bound,
        "seconds": round(time.perf_counter() - started, 3),
        "solver": f"CP-SAT circuits for every train (solve(method='circuit')) at {commit}, "
                  f"time limit {time_limit_s:g} s"}
    board["meta"].setdefault("size", board_size(board["state"]))
    path.write_text(json.dumps(board, indent=1) + "\n")
    reference: dict[str, Any] = board["meta"]["reference"]
    return reference


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
    g.add_argument("--by", choices=("time", "steps", *MEASURES), default="time",
                   help="climb by the solver's CPU (default), the pair listing's size, or a "
                        "measure of the board (reduced nodes, segments, tiles, tokens)")
    g.add_argument("--trains", default=None,
                   help="train sets to draw from, e.g. DD or DD,5D (default: every set)")
    g.add_argument("--pick", type=int, default=1,
                   help="with --by a measure: moves drawn per step, the largest kept")
    g.add_argument("--bases", default="grown",
                   help="'grown' (grow_boards.py's, default), 'late' (every phase-D real "
                        "1888 state), 'late1830' (1830's), 'late-both', or state names "
                        "(1830:NAME for 1830's), comma separated")
    g.add_argument("out", type=Path)
    t = sub.add_parser("time")
    t.add_argument("folder", type=Path)
    t.add_argument("other", type=Path, nargs="?")
    t.add_argument("--rounds", type=int, default=3)
    sub.add_parser("ci")
    r = sub.add_parser("reference", help="record the independent model's optimum in meta")
    r.add_argument("boards", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "grow":
        first, end = map(int, args.seeds.split(":"))
        train_sets = None if args.trains is None else [list(t) for t in args.trains.split(",")]
        bases = {"grown": BASES, "late": late_bases(), "late1830": late_bases_1830(),
                 "late-both": late_bases() + late_bases_1830()}.get(
                     args.bases, tuple(args.bases.split(",")))
        if args.by == "time":
            search(range(first, end), args.climb, args.keep, args.out,
                   lambda seed: grow(seed, train_sets=train_sets, bases=bases))
        elif args.by in MEASURES:
            args.out.mkdir(parents=True, exist_ok=True)
            for seed in range(first, end):
                board = grow_by_size(seed, args.climb, args.by, train_sets, bases, args.pick)
                meta = board["meta"]
                name = f"size-{seed}-{meta['runner']}-{''.join(meta['trains'])}.json"
                (args.out / name).write_text(json.dumps(board, indent=1) + "\n")
                print(seed, "".join(meta["trains"]), meta["runner"], meta["size"], flush=True)
        else:
            args.out.mkdir(parents=True, exist_ok=True)
            for seed in range(first, end):
                board = grow_by_steps(seed, args.climb)
                meta = board["meta"]
                name = f"big-{seed}-{meta['runner']}-{''.join(meta['trains'])}.json"
                (args.out / name).write_text(json.dumps(board, indent=1) + "\n")
                print(seed, "".join(meta["trains"]), meta["runner"], meta["listing_steps"],
                      flush=True)
    elif args.command == "reference":
        for path in args.boards:
            print(path.name, circuit_reference(path), flush=True)
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
