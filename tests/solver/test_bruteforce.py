"""The brute-force witness is independent of the model it checks (DESIGN.md §3, issue 10 #5).

It must share no code with the reduction, the route listing or the model, and
it must get hand-computed answers right on its own (expected values worked out
from ROUTES.md / ``solver/problem.py`` by hand, not by running a solver).
"""

from __future__ import annotations

import ast
from pathlib import Path

from route18xx.solver.witnesses.bruteforce import brute_force, track_graph, walks
from route18xx.solver.witnesses.validate import validate
from tests.solver.boards import Board

ROOT = Path(__file__).resolve().parents[2]
#: The solver's pipeline: a witness that imports any of it could share its mistakes.
PIPELINE = {"reduce", "routes", "model", "trainvars", "constraints", "search"}


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, by full dotted name (``from a import b`` → a, a.b)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


def test_bruteforce_imports_nothing_from_the_solver_pipeline() -> None:
    modules = imported_modules(ROOT / "solver" / "witnesses" / "bruteforce.py")
    assert "networkx" in modules
    for name in modules:
        parts = name.lstrip(".").split(".")
        assert not PIPELINE & set(parts), f"bruteforce.py imports {name}"
        if name.startswith("route18xx.solver") or name.startswith("."):
            assert name.lstrip(".").split(".")[:3] in (
                ["route18xx", "solver", "problem"], ["problem"],
            ), f"bruteforce.py imports {name}: only solver/problem.py's types are allowed"


def test_networkx_is_used_by_product_code() -> None:
    users = [
        path.relative_to(ROOT).as_posix()
        for package in ("engine", "solver", "server")
        for path in (ROOT / package).rglob("*.py")
        if "networkx" in {m.split(".")[0] for m in imported_modules(path)}
    ]
    assert "solver/witnesses/bruteforce.py" in users
    assert "engine/answer/witness.py" in users


def worked_example() -> Board:
    """ROUTES.md §7 example 1 as a track network: Yantai F16 (LYR, 40) → G15 plain track
    → Qingdao H14 (20) → harbour H16 (10, free, an off-board: route end only)."""
    return (
        Board()
        .stop("F16", 40, station=True).stop("H14", 20)
        .stop("H16", 10, distance_cost=0, route_end_only=True)
        .junction("F16|G15").junction("G15|H14").junction("H14|H16")
        .link("F16", ("F16|G15", 0)).link(("F16|G15", 1), ("G15|H14", 0))
        .link(("G15|H14", 1), "H14").link("H14", ("H14|H16", 0)).link(("H14|H16", 1), "H16")
    )


def test_worked_example_lyr_harbour_destination_is_90() -> None:
    """40 + 20 + 10 (harbour costs no distance) + 20 destination bonus = ¥90 on a 2-train."""
    problem = worked_example().problem(2, bonuses=((20, ("F16",), ("H14",)),))
    sol = brute_force(problem)
    assert validate(problem, sol, "total") == []
    assert (sol.revenue, sol.subsidy, sol.objective) == (90, 0, 90)
    (route,) = sol.routes
    assert (route.stops, route.segments, route.bonus) == ((0, 1, 2), (0, 1, 2, 3, 4), 20)


def test_parallel_segments_are_distinct_track() -> None:
    """Two segments A–B: two trains each run A–B on their own track (2 × 50)."""
    board = Board().stop("A", 20, station=True).stop("B", 30).link("A", "B").link("A", "B")
    problem = board.problem(2, 2)
    assert track_graph(problem).number_of_edges() == 2
    sol = brute_force(problem)
    assert validate(problem, sol, "total") == []
    assert sol.objective == 100
    assert sorted(r.segments for r in sol.routes) == [(0,), (1,)]


def test_a_u_turn_at_a_junction_is_no_route() -> None:
    """A and B both meet J on side 0: the only walk A–J–B turns back; C on side 1 is fine."""
    board = (
        Board().stop("A", 10, station=True).stop("B", 50).stop("C", 20).junction("J")
        .link("A", ("J", 0)).link("B", ("J", 0)).link(("J", 1), "C")
    )
    problem = board.problem(None)
    assert sorted(tuple(w[0]) for w in walks(problem)) == [(0, 2), (1, 2)]
    assert brute_force(problem).objective == 30


def test_an_end_only_stop_is_never_passed_even_by_parallel_track() -> None:
    """X (end only) has two segments to A and one to B: A–X–B is illegal, A–X and X–B are fine."""
    board = (
        Board().stop("A", 10, station=True).stop("X", 40, route_end_only=True).stop("B", 30)
        .link("A", "X").link("X", "A").link("X", "B")
    )
    problem = board.problem(None, None)
    stop_lists = sorted(tuple(w[0]) for w in walks(problem))
    assert stop_lists == [(0, 1), (0, 1), (1, 2)]  # A–X twice (two segments), X–B
    sol = brute_force(problem)  # X–B has no station
    assert sol.objective == 2 * 50  # both trains run A–X, each on its own segment


def test_loops_and_dead_end_junctions_are_not_track() -> None:
    board = (
        Board().stop("A", 10, station=True).stop("B", 20).junction("J").junction("K")
        .link("A", "A").link(("J", 0), ("J", 1)).link("A", ("J", 0)).link(("J", 1), "B")
        .link("B", ("K", 0))
    )
    problem = board.problem(2)
    assert [tuple(w[0]) for w in walks(problem)] == [(0, 1)]
    assert brute_force(problem).objective == 30


def test_revenue_objective_takes_revenue_first_then_subsidy() -> None:
    """A (station, 10) – M (mine: 0, subsidy 40), A – B (30), A – C (30, subsidy 10)."""
    board = (
        Board().stop("A", 10, station=True).stop("M", 0, subsidy=40).stop("B", 30)
        .stop("C", 30, subsidy=10).link("A", "M").link("A", "B").link("A", "C")
    )
    problem = board.problem(2)
    total = brute_force(problem, objective="total")
    assert (total.revenue, total.subsidy, total.objective) == (10, 40, 50)
    revenue = brute_force(problem, objective="revenue")
    assert (revenue.revenue, revenue.subsidy, revenue.objective) == (40, 10, 40)
