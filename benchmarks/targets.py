"""Issue 35's service targets, this tree beside a base commit, in one run (items 3, 5, 6).

    .venv/bin/python -m benchmarks.targets [--base 6fdcce5] [--rounds 2] [--boards FOLDER ...]
        [--only real,trip,suggest,load,cold] [--json OUT]

Each side runs in fresh processes of this venv: the base commit's tree unpacked by ``git
archive`` (``cliff_side_by_side.unpack``, first on ``PYTHONPATH``, its bytecode compiled as
``make install`` compiles this tree's), this tree as installed. The sides alternate round by
round (which goes first too), so the machine's load touches both alike; a case's figure is its
median over the rounds. Printed: each target, the base's figure and this tree's.

* **real** (issue 35 item 3): the real decisions, every state before a kept ``run_routes`` of
  the golden logs (``tests/data/golden/1888``: 193, lone-D north states included; ``1830``:
  166; ``bench_titles.real_states``), each answered whole (``engine.api.solve_report``, what
  ``SolveRoutes`` runs) for both objectives, first seen (``route18xx.solver.clear_caches``
  before each), in process CPU: p50 / p95 / max against 1 / 4 / 10 ms.
* **trip**: the same states' round trips (wall) through ``route18xx serve`` (gRPC, its
  worker processes), each state's first call, from a client in this process once the service
  is ``SERVING``: p95 against 6 ms.
* **suggest** (item 5): ``engine.api.suggest_moves`` (``SuggestMoves``' defaults: 30 s, two
  threads) on every hard board with a legal move (``tests/data/boards`` and ``--boards``
  folders, e.g. grown by ``benchmarks/adversarial.py grow --by nodes --trains DD``), in
  process: every candidate evaluated (none ``not_evaluated``) within 1 s of CPU (every thread
  of the answer; wall beside it).
* **load** (item 6): ``SolveRoutes`` per second through ``route18xx serve`` (gRPC only,
  its default workers) from 8 client processes (``benchmarks.load_client``, one caller each,
  ``--load-seconds``), all on this machine's cores: against 1 000/s.
* **cold** (item 6): a cold ``route18xx solve`` process's CPU against 100 ms, and ``serve``'s
  first ``SolveRoutes`` answer after its start (wall) against 1 s (``bench_cold``'s
  measurements, median of ``--cold-rounds``).

Process CPU does not move with the load as much as wall time does; ``os.getloadavg`` is
printed before and after. Writes ``.benchmarks/targets_summary.json`` (or ``--json``); a
server that gives no answer (another process took its port) is started again. This tree
runs as ``make install`` leaves it: run ``make bytecode`` after a change.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from benchmarks.bench_cold import MAIN, STATE, _cpu_ms, _env, _free_port, first_answer
from benchmarks.cliff_side_by_side import unpack
from benchmarks.shared import ROOT, percentile, write_summary

BASE = "6fdcce5"
TITLES = ("1888", "1830")
OBJECTIVES = ("total", "revenue")
#: The targets (issue 35).
REAL_MS = {"p50": 1.0, "p95": 4.0, "max": 10.0}
TRIP_P95_MS = 6.0
SUGGEST_CPU_S = 1.0
LOAD_PER_S = 1000.0
COLD_CPU_MS = 100.0
FIRST_ANSWER_S = 1.0
LOAD_CLIENTS = 8
SECTIONS = ("real", "trip", "suggest", "load", "cold")


# --- what runs inside a side's fresh process -------------------------------------------

def real_cases() -> dict[str, dict[str, Any]]:
    """``TITLE/<fixture>-<action id>`` → the state of each golden real decision."""
    from benchmarks.bench_titles import real_states

    return {f"{title}/{name}": state for title in TITLES
            for name, state in real_states(title).items()}


def _warm() -> None:
    """As a server's worker starts: warmed up, then what it holds frozen (``gc.freeze``),
    so the collector's full passes do not walk the game data inside an answer."""
    import gc

    from route18xx.engine.api import warm_up

    warm_up()
    gc.collect()
    gc.freeze()


def first_seen(_: list[str]) -> dict[str, Any]:
    """Every real decision's whole answer, each objective, first seen: process CPU ms.

    The states are read before the warm-up's ``gc.freeze``: held by this loop for the
    whole run, they were the bulk of what the collector's one full pass walked (5 ms,
    on whichever answer it fell: 1830_game_end_bank-459 at ~11 ms on both sides, the
    max after the lone-D walk's change), where a server's request is gone once
    answered."""
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report

    cases = real_cases()
    _warm()
    out: dict[str, float] = {}
    for name, state in cases.items():
        for objective in OBJECTIVES:
            solver.clear_caches()
            c0 = time.process_time()
            solve_report(state, objective=objective)
            out[f"{name}/{objective}"] = (time.process_time() - c0) * 1000
    return {"tree": solver.__file__, "cpu_ms": out}


def suggestions(paths: list[str]) -> dict[str, Any]:
    """Each board's whole ``suggest_moves``, first seen: CPU and wall, the counts."""
    import route18xx.solver as solver
    from route18xx.engine.api import suggest_moves

    _warm()
    out: dict[str, dict[str, Any]] = {}
    for path in paths:
        state = json.loads(Path(path).read_text())["state"]
        solver.clear_caches()
        c0, w0 = time.process_time(), time.perf_counter()
        report = suggest_moves(state).to_json()
        out[path] = {"cpu_s": time.process_time() - c0, "wall_s": time.perf_counter() - w0,
                     "trains": "".join(state["trains"]),
                     "not_evaluated": len(report["not_evaluated"]),
                     **{k: report[k] for k in ("candidates", "solved", "reused", "pruned")},
                     "ranked": [(s["income"], s["proven_optimal"], s["hex"], s["tile"],
                                 s["rotation"], s["city"]) for s in report["suggestions"]]}
    return {"tree": solver.__file__, "boards": out}


def _in_fresh(side: Path | None, function: str, args: list[str]) -> dict[str, Any]:
    """``function(args)`` of this module in a fresh process of one side."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(([str(side)] if side is not None else []) + [str(ROOT)])
    code = (f"import json, sys; from benchmarks.targets import {function}; "
            f"print(json.dumps({function}(sys.argv[1:])))")
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, check=True,
                          capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# --- servers ------------------------------------------------------------------------------

@contextlib.contextmanager
def served(env: dict[str, str], *flags: str) -> Iterator[str]:
    """A ``route18xx serve`` of one side, ``SERVING`` (its workers booted and warm)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    port = _free_port()
    process = subprocess.Popen([sys.executable, "-c", MAIN, "serve", "--port", str(port), *flags],
                               env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    target = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(target) as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            health = health_pb2_grpc.HealthStub(channel)
            request = health_pb2.HealthCheckRequest(service="route18xx.v1.RouteService")
            ended = time.monotonic() + 60
            while health.Check(request, timeout=5).status != \
                    health_pb2.HealthCheckResponse.SERVING:
                if time.monotonic() > ended:
                    raise RuntimeError("route18xx serve did not get ready")
                time.sleep(0.02)
        yield target
    finally:
        process.terminate()
        process.wait(10)


def round_trips(env: dict[str, str], cases: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Each state's first ``SolveRoutes`` round trip (wall ms) through a fresh server."""
    import grpc

    from route18xx.server.convert import converters
    from route18xx.v1 import route_service_pb2_grpc as pb_grpc

    requests = {name: converters.solve_request_to_proto(state) for name, state in cases.items()}
    out: dict[str, float] = {}
    with served(env, "--no-http") as target, grpc.insecure_channel(target) as channel:
        stub = pb_grpc.RouteServiceStub(channel)  # type: ignore[no-untyped-call]
        for name, request in requests.items():
            started = time.perf_counter()
            stub.SolveRoutes(request, timeout=30)
            out[name] = (time.perf_counter() - started) * 1000
    return out


def throughput(env: dict[str, str], seconds: float) -> float:
    """SolveRoutes/s through a fresh server from ``LOAD_CLIENTS`` client processes."""
    with served(env, "--no-http") as target:
        clients = [subprocess.Popen(
            [sys.executable, "-m", "benchmarks.load_client", target, "1", str(seconds)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True, env=_env(None))
            for _ in range(LOAD_CLIENTS)]
        results = [json.loads(c.communicate(timeout=seconds + 120)[0]) for c in clients]
    return float(sum(r["solves_per_s"] for r in results))


# --- the run -------------------------------------------------------------------------------

T = TypeVar("T")


def _retried(run: Callable[[], T], tries: int = 3) -> T:
    """``run()``, started again when a server it started gave no answer (on a shared machine
    another process may take the free port found for it before it binds)."""
    for attempt in range(tries):
        try:
            return run()
        except (RuntimeError, subprocess.CalledProcessError, OSError) as exc:
            if attempt == tries - 1:
                raise
            print(f"retrying after: {exc}", file=sys.stderr)
    raise AssertionError("unreachable")


def _spread(values: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 0.5), 2), "p95": round(percentile(values, 0.95), 2),
            "max": round(max(values), 2)}


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {name: statistics.median(run[name] for run in runs) for name in runs[0]}


def _board_paths(folders: list[Path]) -> list[str]:
    """The boards of ``tests/data/boards`` and ``folders`` whose company has a legal move."""
    from route18xx.engine.inputs.state_file import parse_state
    from route18xx.engine.suggest.suggest import candidate_moves

    out = []
    for folder in [ROOT / "tests" / "data" / "boards", *folders]:
        for path in sorted(folder.glob("*.json")):
            if candidate_moves(parse_state(json.loads(path.read_text())["state"])):
                out.append(str(path))
    return out


def measure(a: argparse.Namespace) -> dict[str, Any]:
    only = set(a.only.split(","))
    result: dict[str, Any] = {"base": a.base, "rounds": a.rounds, "load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="targets-") as tmp:
        base = unpack(a.base, Path(tmp))
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(base.parent / "tree")],
                       check=True)
        sides: dict[str, Path | None] = {"base": base, "new": None}
        envs = {"base": _env(base), "new": _env(None)}
        order = list(sides)
        real: dict[str, list[dict[str, float]]] = {s: [] for s in sides}
        trips: dict[str, list[dict[str, float]]] = {s: [] for s in sides}
        boards: dict[str, list[dict[str, Any]]] = {s: [] for s in sides}
        load: dict[str, list[float]] = {s: [] for s in sides}
        paths = _board_paths(a.boards) if "suggest" in only else []
        cases = real_cases() if "trip" in only else {}
        for r in range(a.rounds):
            for side in order if r % 2 == 0 else order[::-1]:
                if "real" in only:
                    real[side].append(_in_fresh(sides[side], "first_seen", [])["cpu_ms"])
                if "trip" in only:
                    trips[side].append(_retried(lambda: round_trips(envs[side], cases)))
                if "suggest" in only and paths:
                    boards[side].append(_in_fresh(sides[side], "suggestions", paths)["boards"])
                if "load" in only:
                    load[side].append(_retried(lambda: throughput(envs[side], a.load_seconds)))
        if "real" in only:
            result["real"] = {s: _spread(list(_medians(v).values())) for s, v in real.items()}
            worst = {s: sorted(_medians(v).items(), key=lambda kv: -kv[1])[:5]
                     for s, v in real.items()}
            result["real_worst"] = {s: [(n, round(ms, 1)) for n, ms in w] for s, w in worst.items()}
            result["real_cases"] = len(real["new"][0])
        if "trip" in only:
            result["trip"] = {s: _spread(list(_medians(v).values())) for s, v in trips.items()}
        if "suggest" in only and paths:
            result["suggest"] = {}
            for path in paths:
                row: dict[str, Any] = {}
                for side, runs in boards.items():
                    first = runs[0][path]
                    row[side] = {"cpu_s": round(statistics.median(x[path]["cpu_s"] for x in runs), 2),
                                 "wall_s": round(statistics.median(x[path]["wall_s"] for x in runs), 2),
                                 **{k: first[k] for k in ("candidates", "solved", "reused",
                                                          "pruned", "not_evaluated")}}
                row["same_ranking"] = boards["base"][0][path]["ranked"] == \
                    boards["new"][0][path]["ranked"]
                row["trains"] = boards["new"][0][path]["trains"]
                result["suggest"][Path(path).stem] = row
        if "load" in only:
            result["load"] = {s: {"median": round(statistics.median(v), 1),
                                  "runs": [round(x, 1) for x in v]} for s, v in load.items()}
        write_summary("targets_summary.json", result)  # what is measured so far
        if "cold" in only:
            solve = [sys.executable, "-c", MAIN, "solve", str(STATE)]
            cpu: dict[str, list[float]] = {s: [] for s in sides}
            starts: dict[str, list[float]] = {s: [] for s in sides}
            from route18xx.server.convert import converters

            request = converters.solve_request_to_proto(json.loads(STATE.read_text())["state"])
            for r in range(a.cold_rounds):
                for side in order if r % 2 == 0 else order[::-1]:
                    cpu[side].append(_cpu_ms(solve, envs[side]))
                    starts[side].append(
                        _retried(lambda: first_answer(envs[side], request))["answer_s"])
            result["cold"] = {s: {"solve_cpu_ms": round(statistics.median(cpu[s]), 1),
                                  "first_answer_s": round(statistics.median(starts[s]), 2),
                                  "first_answer_runs_s": [round(x, 2) for x in starts[s]]}
                              for s in sides}
    result["load_after"] = os.getloadavg()
    return result


def table(result: dict[str, Any]) -> str:
    """Each target, the base's figure and this tree's."""
    lines = [f"issue 35's targets: base {result['base']} beside this tree, median of "
             f"{result['rounds']} alternating rounds; load average before "
             f"{'/'.join(f'{x:.1f}' for x in result['load_before'])}, after "
             f"{'/'.join(f'{x:.1f}' for x in result['load_after'])}",
             f"{'target':<62} {'base':>12} {'new':>12}  met"]

    def row(what: str, base: float, new: float, met: bool) -> None:
        lines.append(f"{what:<62} {base:>12g} {new:>12g}  {'yes' if met else 'NO'}")

    if "real" in result:
        lines.append(f"real decisions, whole answer first seen, in process CPU "
                     f"({result['real_cases']} answers: 1888 + 1830, both objectives)")
        for q, target in REAL_MS.items():
            row(f"  {q} <= {target:g} ms", result["real"]["base"][q], result["real"]["new"][q],
                result["real"]["new"][q] <= target)
        for side in ("base", "new"):
            lines.append(f"  slowest ({side}): " + ", ".join(
                f"{n} {ms}" for n, ms in result["real_worst"][side]))
    if "trip" in result:
        lines.append("round trip through route18xx serve, each state's first call (wall ms)")
        for q in ("p50", "p95", "max"):
            limit = f" <= {TRIP_P95_MS:g} ms" if q == "p95" else ""
            row(f"  {q}{limit}", result["trip"]["base"][q], result["trip"]["new"][q],
                q != "p95" or result["trip"]["new"][q] <= TRIP_P95_MS)
    if "suggest" in result:
        lines.append(f"SuggestMoves on hard boards, whole answer (CPU s, every thread; wall s): "
                     f"all evaluated within {SUGGEST_CPU_S:g} s")
        for name, r in sorted(result["suggest"].items(), key=lambda kv: -kv[1]["new"]["cpu_s"]):
            b, n = r["base"], r["new"]
            met = n["not_evaluated"] == 0 and n["cpu_s"] <= SUGGEST_CPU_S
            lines.append(
                f"  {name[:30]:<30} {r['trains']:>2} {n['candidates']:>3} moves "
                f"solved {b['solved']:>2}/{n['solved']:<2} not ranked "
                f"{b['not_evaluated']}/{n['not_evaluated']}  CPU {b['cpu_s']:>6} {n['cpu_s']:>6}  "
                f"wall {b['wall_s']:>6} {n['wall_s']:>6}  {'yes' if met else 'NO'}"
                f"{'' if r['same_ranking'] else '  RANKING DIFFERS'}")
    if "load" in result:
        row(f"SolveRoutes/s, {LOAD_CLIENTS} client processes, >= {LOAD_PER_S:g}",
            result["load"]["base"]["median"], result["load"]["new"]["median"],
            result["load"]["new"]["median"] >= LOAD_PER_S)
    if "cold" in result:
        c = result["cold"]
        row(f"cold route18xx solve, CPU ms <= {COLD_CPU_MS:g}", c["base"]["solve_cpu_ms"],
            c["new"]["solve_cpu_ms"], c["new"]["solve_cpu_ms"] <= COLD_CPU_MS)
        row(f"serve's first SolveRoutes answer after start, s <= {FIRST_ANSWER_S:g}",
            c["base"]["first_answer_s"], c["new"]["first_answer_s"],
            c["new"]["first_answer_s"] <= FIRST_ANSWER_S)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default=BASE)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--boards", type=Path, nargs="*", default=[],
                        help="more folders of hard boards for the suggestions")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--load-seconds", type=float, default=6.0)
    parser.add_argument("--cold-rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    a = parser.parse_args()
    result = measure(a)
    if a.json is not None:
        a.json.write_text(json.dumps(result, indent=1) + "\n")
    write_summary("targets_summary.json", result)
    print(table(result))


if __name__ == "__main__":
    main()
