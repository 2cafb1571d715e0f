"""Fast partial answers: a 20 ms budget on two-circuit boards (issue 21, item 5).

For each board of the given folders whose trains are two circuits on the commit
issue 21 started from (D + D, 5 + D, 6 + D; 5 + 6 and 6 + 6 whose routes were
too many to list), the engine's checked answer with ``time_limit_s=0.02``
(``engine.optimize``: parsed state → routes re-checked by the engine) is timed
in this process (wall clock and process CPU, median of 3) and compared with the
proven optimum (a 60 s solve). Prints per board and the summary: the slowest
answer, the median and worst gap below the optimum.

With ``--whole``: the whole ``SolveRoutes`` answer instead (both objectives where
the board pays a subsidy; ``time_limit_s`` bounds all of it), for a board seen for
the first time (``route18xx.solver.clear_caches`` before each run), in process
(``engine.api.solve_report``) and through gRPC (a server in this process on
127.0.0.1, the request from its JSON form to the decoded response); the slowest
of 3 runs per board, wall clock and the process's CPU (client and server).

    .venv/bin/python -m benchmarks.partial_answers tests/data/boards [MORE_FOLDERS]
    .venv/bin/python -m benchmarks.partial_answers --whole tests/data/boards
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

BUDGET_S = 0.02


def measure(path: Path) -> dict[str, Any] | None:
    from route18xx.engine.answer.optimize import optimize
    from route18xx.engine.inputs.state_file import parse_state

    board = json.loads(path.read_text())
    trains = "".join(sorted(board["state"]["trains"]))
    if "D" not in trains and trains not in ("56", "66"):
        return None
    state = parse_state(board["state"])
    best = optimize(state, time_limit_s=60.0).solution
    assert best.status == "OPTIMAL"
    optimum = best.revenue + best.subsidy
    walls, cpus, values = [], [], []
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        sol = optimize(state, time_limit_s=BUDGET_S).solution
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
        values.append(sol.revenue + sol.subsidy)
    value = min(values)
    return {"trains": trains, "wall_ms": round(statistics.median(walls), 1),
            "cpu_ms": round(statistics.median(cpus), 1), "max_wall_ms": round(max(walls), 1),
            "value": value, "optimum": optimum, "gap_pct": round(100 * (optimum - value) / optimum, 1)}


def _timed(call: Callable[[], int]) -> tuple[float, float, int]:
    """``call``'s wall clock and process CPU in ms, and the value it answered, for a
    board read as if first seen (the caches of derived data emptied first)."""
    from route18xx.solver import clear_caches

    clear_caches()
    wall, cpu = time.perf_counter(), time.process_time()
    value = call()
    return ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, value)


def measure_whole(path: Path, stub: Any) -> dict[str, Any] | None:
    """One board's whole answer under the budget, first seen: in process and over gRPC."""
    from route18xx.engine.api import solve_report
    from route18xx.server.convert import converters

    board = json.loads(path.read_text())
    raw = board["state"]
    trains = "".join(sorted(raw["trains"]))
    if "D" not in trains and trains not in ("56", "66"):
        return None
    best = solve_report(raw, time_limit_s=60.0)
    assert best.status == "OPTIMAL"
    optimum = best.revenue + best.subsidy

    def local() -> int:
        report = solve_report(raw, time_limit_s=BUDGET_S)
        return report.revenue + report.subsidy

    def remote() -> int:
        request = converters.solve_request_to_proto(raw, time_limit_s=BUDGET_S,
                                                     allow_partial=True)
        report = converters.solve_report_from_proto(stub.SolveRoutes(request, timeout=30))
        return int(report["revenue"]) + int(report["subsidy"])

    here = [_timed(local) for _ in range(3)]
    there = [_timed(remote) for _ in range(3)]
    value = min(v for _, _, v in here + there)
    return {"trains": trains,
            "in_process_wall_ms": round(max(w for w, _, _ in here), 1),
            "in_process_cpu_ms": round(max(c for _, c, _ in here), 1),
            "grpc_wall_ms": round(max(w for w, _, _ in there), 1),
            "grpc_cpu_ms": round(max(c for _, c, _ in there), 1),
            "value": value, "optimum": optimum,
            "gap_pct": round(100 * (optimum - value) / optimum, 1)}


def main_whole(folders: list[str]) -> None:
    import grpc

    from route18xx.engine.api import warm_up
    from route18xx.server.rpc.app import ServerConfig, create_server
    from route18xx.v1 import route_service_pb2_grpc as pb_grpc

    warm_up()
    server = create_server(ServerConfig(host="127.0.0.1", port=0))
    server.start()
    rows = {}
    try:
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.RouteServiceStub(channel)
            for folder in folders:
                for path in sorted(Path(folder).glob("*.json")):
                    row = measure_whole(path, stub)
                    if row is not None:
                        rows[path.stem] = row
                        print(path.stem, json.dumps(row), flush=True)
    finally:
        server.stop(0).wait()
    gaps = [r["gap_pct"] for r in rows.values()]
    print(json.dumps({
        "boards": len(rows), "budget_ms": BUDGET_S * 1000,
        **{f"max_{k}": max(r[k] for r in rows.values())
           for k in ("in_process_wall_ms", "in_process_cpu_ms", "grpc_wall_ms", "grpc_cpu_ms")},
        "median_in_process_wall_ms": statistics.median(r["in_process_wall_ms"] for r in rows.values()),
        "median_gap_pct": statistics.median(gaps), "worst_gap_pct": max(gaps),
        "exact": sum(g == 0 for g in gaps),
    }))


def main() -> None:
    if sys.argv[1:2] == ["--whole"]:
        main_whole(sys.argv[2:])
        return
    rows = {}
    for folder in sys.argv[1:]:
        for path in sorted(Path(folder).glob("*.json")):
            row = measure(path)
            if row is not None:
                rows[path.stem] = row
                print(path.stem, json.dumps(row), flush=True)
    gaps = [r["gap_pct"] for r in rows.values()]
    print(json.dumps({
        "boards": len(rows), "budget_ms": BUDGET_S * 1000,
        "median_wall_ms": statistics.median(r["wall_ms"] for r in rows.values()),
        "max_median_wall_ms": max(r["wall_ms"] for r in rows.values()),
        "max_cpu_ms": max(r["cpu_ms"] for r in rows.values()),
        "median_gap_pct": statistics.median(gaps), "worst_gap_pct": max(gaps),
        "exact": sum(g == 0 for g in gaps),
    }))


if __name__ == "__main__":
    main()
