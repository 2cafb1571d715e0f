"""A digest of everything the judge and the reports say, to compare two checkouts (issue 21).

    PYTHONPATH=proto:. .venv/bin/python -m benchmarks.judge_digest [check|solve|replay|boards|all]

Run it from each checkout's root (it reads that checkout's ``tests/data``) and compare the
digests: equal digests mean the same
verdicts, texts, chains, prices and reports, byte for byte. Timings are left out.

* ``check``: ``engine.api.check_routes`` and the judgement's chains and violation
  details on each real state's recorded routes, on 25 seeded mutations of them
  (reversed, dropped, repeated or swapped connections, other trains, a stray hex,
  nodes shuffled or missing), on the same routes for three other companies, and on
  the 67 1830 states' routes with 10 mutations each (an error is recorded as its
  field and reason);
* ``solve``: ``engine.api.solve_report`` of each real state for both objectives,
  caches emptied first;
* ``replay``: the two shared logs replayed with their optima;
* ``boards``: the answer on each of the hard boards of ``tests/data/boards``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

DATA = Path.cwd() / "tests" / "data"
#: Figures that are times: left out of the digest.
TIMES = {"solve_ms", "reduce_ms", "build_ms", "solver_ms", "search_ms", "ms"}


def _untimed(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMES}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


def _judged(state: dict[str, Any], routes: Any) -> Any:
    from route18xx.engine.api import check_routes
    from route18xx.engine.errors import MalformedInput
    from route18xx.engine.routes.route_judge import judge_routes, parse_route_specs
    from route18xx.engine.inputs.state_file import parse_state

    try:
        report = check_routes(state, routes)
    except MalformedInput as exc:
        return ["MalformedInput", exc.field, exc.reason]
    parsed = parse_state(state)
    judgement = judge_routes(parsed, parse_route_specs(routes, parsed.data))
    report["_chains"] = [
        [[c.start, c.end, c.paths, c.edge_keys, sorted(c.terminal_ends)] for c in r.chains]
        for r in judgement.routes
    ]
    report["_details"] = [[d.code, d.route, d.text, d.node, d.hex] for d in judgement.details]
    report["_bonus"] = [r.bonus for r in judgement.routes]
    return report


def _mutated(rng: random.Random, routes: list[Any], hexes: list[str]) -> list[Any]:
    """``routes`` changed in one random way (most make an illegal or unreadable route)."""
    routes = copy.deepcopy(routes)
    if not routes:
        return routes
    kind = rng.randrange(12)
    i = rng.randrange(len(routes))
    route = routes[i]
    conns = route["connections"]
    if kind == 0:
        conns.reverse()
    elif kind == 1:
        for c in conns:
            c.reverse()
    elif kind == 2 and len(conns) > 1:
        conns.pop(rng.randrange(len(conns)))
    elif kind == 3:
        routes.append(copy.deepcopy(route))
    elif kind == 4:
        route.pop("nodes", None)
    elif kind == 5 and "nodes" in route:
        rng.shuffle(route["nodes"])
    elif kind == 6:
        route["train"] = rng.choice(["2-0", "3-0", "4-0", "5-0", "6-0", "D-0", "8-0", route["train"]])
    elif kind == 7:
        conns.append(copy.deepcopy(conns[0]))
    elif kind == 8 and len(routes) > 1:
        other = routes[rng.randrange(len(routes))]
        route["connections"] = conns + copy.deepcopy(other["connections"])
    elif kind == 9:
        c = rng.choice(conns)
        c[rng.randrange(len(c))] = rng.choice(hexes)
    elif kind == 10:
        c = rng.choice(conns)
        if len(c) > 2:
            c.pop(rng.randrange(len(c)))
    elif kind == 11:
        conns.insert(0, list(reversed(conns[-1])))
    return routes


def _mutations(rng: random.Random, routes: list[Any], count: int, most: int) -> list[list[Any]]:
    hexes = sorted({h for r in routes for c in r["connections"] for h in c}) or ["C9"]
    out = []
    for _ in range(count):
        changed = routes
        for _ in range(rng.randrange(1, most + 1)):
            changed = _mutated(rng, changed, hexes)
        out.append(changed)
    return out


def _states() -> list[tuple[str, dict[str, Any]]]:
    return [(p.stem, json.loads(p.read_text())) for p in sorted((DATA / "states").glob("*.json"))]


def check() -> list[Any]:
    rng = random.Random(7)
    out: list[Any] = []
    for name, data in _states():
        state, recorded = data["state"], data["reference"]["recorded_routes"]
        out.append([name, _judged(state, recorded)])
        out.extend([name, m, _judged(state, m)] for m in _mutations(rng, recorded, 25, 3))
        for corp in ("JHR", "LYR", "TJL"):
            out.append([name, corp, _judged(dict(state, corporation=corp), recorded)])
    for s in json.loads((DATA / "1830" / "states.json").read_text())["states"]:
        out.append([s["name"], _judged(s["state"], s["routes"])])
        out.extend([s["name"], _judged(s["state"], m)] for m in _mutations(rng, s["routes"], 10, 2))
    return out


def solve() -> list[Any]:
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report

    out: list[Any] = []
    for name, data in _states():
        for objective in ("total", "revenue"):
            solver.clear_caches()
            out.append([name, objective,
                        _untimed(solve_report(data["state"], objective=objective).to_json())])
    return out


def replay() -> list[Any]:
    from route18xx.engine.api import replay_game

    return [[p.stem, _untimed(replay_game(json.loads(p.read_text())).to_json())]
            for p in sorted((DATA / "logs").glob("*.json"))]


def boards() -> list[Any]:
    import route18xx.solver as solver
    from route18xx.engine.api import solve_report

    out: list[Any] = []
    for p in sorted((DATA / "boards").glob("*.json")):
        solver.clear_caches()
        out.append([p.stem, _untimed(solve_report(json.loads(p.read_text())["state"]).to_json())])
    return out


def main() -> None:
    modes = {"check": check, "solve": solve, "replay": replay, "boards": boards}
    wanted = sys.argv[1] if len(sys.argv) > 1 else "all"
    for name, run in modes.items():
        if wanted in ("all", name):
            found = run()
            text = json.dumps(found, sort_keys=True, default=str)
            print(f"{name:7} {len(found):5} cases  sha256 {hashlib.sha256(text.encode()).hexdigest()}")


if __name__ == "__main__":
    main()
