"""The other objective of an answer, searched only where it can differ (issue 21 item 4).

Where the board pays a subsidy (the mine, ROUTES.md §5.3) a solve answer also
carries the best revenue beside the best total (``objectives``, issue 14). The
first answer already bounds the other one, so the second search only looks
where a different answer could be, above a floor (``solve``'s ``floor``), or is
skipped:

* **The answer maximised the total** (revenue R, subsidy S > 0, total T = R + S
  proven best). A route set paying S or more in subsidy earns at most T − S = R
  in revenue; so a better revenue pays less subsidy, and the second search asks
  only for revenue ≥ R + 1. When S is the smallest subsidy a stop pays (one train
  through the mine), less subsidy means none: the search also keeps away from
  every stop that pays one, a smaller board. If nothing reaches the floor, the
  first answer is the best revenue too (and the most subsidy at that revenue,
  since more would beat T): one search proved both. Without a subsidy (S = 0)
  the best total is the best revenue, no second search.
* **The answer maximised revenue** (R proven best, subsidy S). Every route set
  earns at most R in revenue, so a better total needs more subsidy than S: the
  second search asks for total ≥ R + S + 1, and none is needed when S already is
  all the trains could collect (``subsidy_ceiling``).

A lone train is asked for both at once (``both_objectives``, ``solver.solve_both``):
for an unlimited one a single walk keeps the best route of each objective, each
pruned by its own bound; for a limited one two walks on one reduced board, the
second above the first's route. The two searches above took two reductions, two
models and two walks (the second above the floor); they stay for every other
train set, and where the lone train's walk gives up.

Measured on the fullest single-D real states (process CPU of the second CP-SAT
search, ``benchmarks/bench_answer.py`` for the whole answer): 129026-658 11.3 →
2.1 ms, 129026-614 8.3 → 0.3 ms, 129026-576 6.3 → 0.2 ms (the first answer was
both optima), 129026-693 12.3 → 7.8 ms (a better revenue without the mine).
"""

from __future__ import annotations

from msgspec.structs import replace

from route18xx.engine.answer.budget import AnswerBudget
from route18xx.engine.answer.optimize import typed_report
from route18xx.engine.answer.reports import SolveReport
from route18xx.engine.answer.prepared import Floor, Prepared, solve_prepared, solve_prepared_both
from route18xx.solver import OBJECTIVES, Method, Objective, RouteProblem


def subsidy_ceiling(problem: RouteProblem) -> int:
    """The most subsidy the trains could collect together: a route counts each stop
    once, so each train earns at most the sum of the positive stop subsidies.

    A best-revenue answer whose subsidy reaches it is also a best total: no route set
    has more revenue, nor more subsidy.
    """
    return len(problem.trains) * sum(max(0, s.subsidy) for s in problem.stops)


def _least_subsidy(problem: RouteProblem) -> int | None:
    """The smallest subsidy a stop pays, or None when some stop's is negative (then
    "less subsidy" is not "no subsidy stop")."""
    paid = [s.subsidy for s in problem.stops if s.subsidy]
    if not paid or min(paid) < 0:
        return None
    return min(paid)


def other_objective(
    prep: Prepared, first: SolveReport, objective: str, time_limit_s: float,
    budget: AnswerBudget, circuits: bool = False,
) -> SolveReport | None:
    """The other objective's answer beside ``first`` (the answer for ``objective``,
    of the state's own trains), searched above the floor ``first`` sets; ``first``
    itself when it is proven both. None when ``first`` is not proven (nothing to
    build a floor on): the explanation is then left out.

    ``circuits``: the first solve modelled every train as a circuit (no listing),
    so the second does too: the board without its subsidy stops is often just
    small enough for the solver to try listing an unlimited train's routes, a
    walk that fails on these boards (129026-614: ~4 ms of CPU for a 1 ms search).
    """
    if not first.proven_optimal:
        return None
    problem = prep.built.problem
    method: Method = "circuit" if circuits else "auto"
    if objective == "total":
        if first.subsidy == 0:
            return first  # its revenue is its total, which nothing beats
        least = _least_subsidy(problem)
        floor = Floor(first.revenue + 1, avoid_subsidy=least is not None and first.subsidy <= least,
                      method=method)
        other = "revenue"
    else:
        if first.subsidy >= subsidy_ceiling(problem):
            return first
        floor = Floor(first.revenue + first.subsidy + 1, method=method)
        other = "total"
    state, opt = solve_prepared(prep, objective=other, time_limit_s=time_limit_s, budget=budget,
                                purpose=f"objectives.{other}", floor=floor)
    status = opt.solution.status
    if status == "INFEASIBLE":  # proven: nothing beats the first answer in the other objective
        return replace(first, objective=other)
    if status == "UNKNOWN":  # out of time before anything better turned up
        return replace(first, objective=other, proven_optimal=False, status="FEASIBLE")
    return typed_report(state, opt, other)


def both_objectives(
    prep: Prepared, objective: str, time_limit_s: float, budget: AnswerBudget,
) -> tuple[SolveReport, SolveReport] | None:
    """Both objectives' answers of the state's own trains from one search, where one
    solve settles them (``solver.solve_both``: a lone train): (the answer
    for ``objective``, the other's); None elsewhere, and the caller searches each
    (``other_objective``).

    One walk for both costs little more than its harder half: on the fullest real
    lone-D states the pair of searches (the second above ``other_objective``'s floor)
    took 11-15 ms of CPU.
    """
    if objective not in OBJECTIVES:
        return None  # ``solve_prepared`` names the field
    goal: Objective = "total" if objective == "total" else "revenue"
    both = solve_prepared_both(prep, goal, time_limit_s, budget)
    if both is None:
        return None
    state, first, second = both
    other = "revenue" if goal == "total" else "total"
    report = typed_report(state, first, objective)
    # one route best in both, judged once (``solve_prepared_both``): its route reports
    # made once too (27 of the 168 typed reports of the real states' answers)
    same = second.judgement is first.judgement and second.specs is first.specs
    return report, typed_report(state, second, other, report.routes if same else None)
