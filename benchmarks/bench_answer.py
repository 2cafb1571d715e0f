"""Real decisions, the whole ``SolveRoutes`` answer, this tree vs another checkout (issue 21).

    .venv/bin/python -m benchmarks.bench_answer [/path/to/other/checkout/proto] [rounds]
    .venv/bin/python -m benchmarks.bench_answer --boards [/path/to/other/checkout/proto]

Each round runs the same measurement in fresh processes, this tree first, then
the other checkout first on ``PYTHONPATH`` (so the machine's load hits both
alike); without another checkout only this tree is measured. One measurement,
over the 123 real states of ``tests/data/states``, warm:

* ``in process``: ``engine.api.solve_report`` (what ``SolveRoutes`` runs: the
  answer, and the other objective when the board pays a subsidy), from the
  decoded state dict to the typed answer; each state's median of 5 runs, wall
  clock and the process's CPU time;
* ``in_process_fresh``: the same with the caches of derived data emptied before
  each run (``route18xx.solver.clear_caches``: the parsed board and its problem,
  the reduced graph, the listed routes, and with the boards their chains): a board seen for the first
  time (OR-Tools and the game data stay loaded); the same as ``in_process`` in a
  tree without those caches;
* ``grpc``: ``SolveRoutes`` round trips to a server in this process on
  127.0.0.1 (worker threads, as ``ServerConfig`` defaults), from the state dict
  to the decoded response; each state's median of 5, wall clock and the
  process's CPU (client and server: both are this process); beside it the
  median of the response's ``solve_ms``.

On a shared, loaded machine the wall clock moves by 2-4x between runs; compare
the CPU figures, and the two trees within one round.

1830 beside 1888 (issue 25 item 4): where the tree serves 1830, the same three
measurements over the 67 real 1830 decisions of ``tests/data/1830/states.json`` (the
``run_routes`` of both shared 1830 logs, cut by ``tests/data/1830/make_states.py``) go
under ``"1830"``, and a table puts both titles side by side (``table``).

With ``--boards``: each hard board's whole answer instead (``measure_boards``).
``make bench`` runs ``test_answer_summary``: this tree alone, both titles, saved in
``.benchmarks/answer_summary.json``, the table printed.

It prints p50 / p95 / max across the states of each figure, the worst states,
and (this tree only) where the time of an answer goes: the solver's model
(reduce, listing, model), CP-SAT's search, the rest of the engine (problem,
re-check, reports) and the service around it (conversion, gRPC).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from benchmarks.shared import ROOT, write_summary
RUNS = 5


def _spread(values: list[float]) -> dict[str, float]:
    v = sorted(values)
    n = len(v)
    return {"p50": round(v[n // 2], 3), "p95": round(v[int(0.95 * (n - 1))], 3),
            "max": round(v[-1], 3)}


def _states() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text())["state"]
            for p in sorted((ROOT / "tests" / "data" / "states").glob("*.json"))}


def _clear() -> None:
    """Empty the caches of derived data (``route18xx.solver.clear_caches``), where the
    tree has them: the next answer reads its board as if first seen."""
    import route18xx.solver as solver

    clear = getattr(solver, "clear_caches", None)
    if clear is not None:
        clear()


def _in_process(states: dict[str, dict[str, Any]], fresh: bool = False) -> dict[str, Any]:
    from route18xx.engine.api import solve_report

    for raw in states.values():
        solve_report(raw)
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    parts: dict[str, list[float]] = {"model": [], "search": [], "engine": []}
    solves = 0
    for name, raw in states.items():
        w, c = [], []
        for _ in range(RUNS):
            if fresh:
                _clear()
            t0, c0 = time.perf_counter(), time.process_time()
            report = solve_report(raw)
            c.append((time.process_time() - c0) * 1000)
            w.append((time.perf_counter() - t0) * 1000)
        wall[name], cpu[name] = statistics.median(w), statistics.median(c)
        stats = report.to_json()["stats"]
        timings = stats.get("solves")
        if timings is not None:  # this tree: each solve's time beside the whole answer's
            solves += len(timings)
            solver = sum(t["solver_ms"] for t in timings)
            search = sum(t["search_ms"] for t in timings)
            parts["model"].append(solver - search)
            parts["search"].append(search)
            parts["engine"].append(report.solve_ms - solver)
    out: dict[str, Any] = {"wall": _spread(list(wall.values())),
                           "cpu": _spread(list(cpu.values())),
                           "worst": sorted(wall, key=wall.__getitem__)[-5:]}
    if parts["model"]:
        out["solves"] = solves
        out["parts_p50"] = {k: round(statistics.median(v), 3) for k, v in parts.items()}
    return out


def _grpc(states: dict[str, dict[str, Any]]) -> dict[str, Any]:
    import grpc

    from route18xx.server.convert import converters
    from route18xx.server.rpc.app import ServerConfig, create_server
    from route18xx.v1 import route_service_pb2_grpc as pb_grpc

    server = create_server(ServerConfig(host="127.0.0.1", port=0))
    server.start()
    try:
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.RouteServiceStub(channel)
            requests = {n: converters.solve_request_to_proto(raw) for n, raw in states.items()}
            for request in requests.values():
                stub.SolveRoutes(request, timeout=30)
            wall: dict[str, float] = {}
            cpu: dict[str, float] = {}
            solve_ms: dict[str, float] = {}
            for name, raw in states.items():
                w, c, s = [], [], []
                for _ in range(RUNS):
                    t0, c0 = time.perf_counter(), time.process_time()
                    response = stub.SolveRoutes(converters.solve_request_to_proto(raw), timeout=30)
                    converters.solve_report_from_proto(response)
                    c.append((time.process_time() - c0) * 1000)
                    w.append((time.perf_counter() - t0) * 1000)
                    s.append(response.solve_ms)
                wall[name], cpu[name] = statistics.median(w), statistics.median(c)
                solve_ms[name] = statistics.median(s)
    finally:
        server.stop(0).wait()
    return {"wall": _spread(list(wall.values())), "cpu": _spread(list(cpu.values())),
            "solve_ms": _spread(list(solve_ms.values())),
            "worst": sorted(wall, key=wall.__getitem__)[-5:]}


def _states_1830() -> dict[str, dict[str, Any]] | None:
    """The real 1830 decisions, or None in a tree that does not serve 1830 (a checkout
    from before issue 25)."""
    from route18xx.engine import api

    served = getattr(api, "titles_served", None)
    if served is None or "1830" not in served():
        return None
    from benchmarks.conftest import real_states_1830

    return real_states_1830()


def _measure(states: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"states": len(states), "in_process": _in_process(states),
            "in_process_fresh": _in_process(states, fresh=True), "grpc": _grpc(states)}


def measure() -> dict[str, Any]:
    """1888's real decisions at the top level (as before issue 25), 1830's under ``"1830"``."""
    out = _measure(_states())
    states_1830 = _states_1830()
    if states_1830 is not None:
        out["1830"] = _measure(states_1830)
    return out


def table(result: dict[str, Any]) -> str:
    """Both titles' real decisions side by side: CPU ms, p50 / p95 / max over the states."""

    def cells(part: dict[str, Any]) -> str:
        c = part["cpu"]
        return f"{c['p50']:.2f} / {c['p95']:.2f} / {c['max']:.2f}".ljust(22)

    lines = ["title  states  warm (in process)      first seen             SolveRoutes over gRPC"]
    for title, part in (("1888", result), ("1830", result.get("1830"))):
        if part is not None:
            lines.append(f"{title}   {part['states']:>5}   {cells(part['in_process'])} "
                         f"{cells(part['in_process_fresh'])} {cells(part['grpc'])}")
    return "\n".join(lines)


def measure_boards() -> dict[str, Any]:
    """The hard boards of ``tests/data/boards``: each whole answer once (60 s limit), its
    process CPU and (this tree) each solve's CP-SAT branches."""
    from route18xx.engine.api import solve_report

    out: dict[str, Any] = {}
    for path in sorted((ROOT / "tests" / "data" / "boards").glob("*.json")):
        raw = json.loads(path.read_text())["state"]
        c0 = time.process_time()
        report = solve_report(raw, time_limit_s=60.0)
        cpu = round((time.process_time() - c0) * 1000, 1)
        solves = report.to_json()["stats"].get("solves")
        out[path.stem] = [cpu, [s["branches"] for s in solves]] if solves is not None else [cpu]
    return out


def test_answer_summary(benchmark: Any) -> None:
    """``make bench``: this tree's figures alone, in ``.benchmarks/answer_summary.json``."""
    result: dict[str, Any] = {}

    def run() -> None:
        result.update(measure())

    benchmark.pedantic(run, rounds=1, iterations=1)
    assert result["in_process"]["solves"] >= result["states"]
    assert result["1830"]["in_process"]["solves"] >= result["1830"]["states"] == 67
    benchmark.extra_info.update({"in_process_cpu": result["in_process"]["cpu"],
                                 "grpc_cpu": result["grpc"]["cpu"],
                                 "in_process_cpu_1830": result["1830"]["in_process"]["cpu"],
                                 "grpc_cpu_1830": result["1830"]["grpc"]["cpu"]})
    print("\n" + table(result))
    write_summary("answer_summary.json", result, indent=2)


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--boards"]
    what = "measure_boards" if "--boards" in sys.argv else "measure"
    other = args[0] if args else None
    rounds = int(args[1]) if len(args) > 1 else 1
    trees = [("this", {})] + ([("other", {"PYTHONPATH": other})] if other else [])
    for r in range(rounds):
        for label, env in trees if r % 2 == 0 else trees[::-1]:
            out = subprocess.run(
                [sys.executable, "-c", f"from benchmarks.bench_answer import {what}; "
                 f"import json; print(json.dumps({what}()))"],
                env={**os.environ, **env}, cwd=ROOT, check=True, capture_output=True, text=True)
            print(f"round {r} {label}: {out.stdout.strip()}", flush=True)
            if what == "measure":
                print(table(json.loads(out.stdout)), flush=True)


if __name__ == "__main__":
    main()
