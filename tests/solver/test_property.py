"""CP-SAT agrees with the exhaustive enumerator on random small boards (DESIGN.md §3).

Both objectives, both methods (listed routes for limited trains, or circuits only).

``ROUTE18XX_PROPERTY_EXAMPLES`` raises the number of examples (default 300).
"""

from __future__ import annotations

import itertools
import os

from hypothesis import HealthCheck, given, settings

from route18xx.solver import METHODS, OBJECTIVES, RouteProblem, solve
from route18xx.solver.witnesses.bruteforce import brute_force
from route18xx.solver.witnesses.validate import validate
from tests.solver.strategies import route_problems

EXAMPLES = int(os.environ.get("ROUTE18XX_PROPERTY_EXAMPLES", "300"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route_problems())
def test_cpsat_matches_brute_force(problem: RouteProblem) -> None:
    for objective, method in itertools.product(OBJECTIVES, METHODS):
        got = solve(problem, objective=objective, method=method)
        want = brute_force(problem, objective=objective)
        assert got.status == "OPTIMAL"
        assert validate(problem, got, objective) == []
        assert validate(problem, want, objective) == []
        assert got.objective == want.objective, objective
        assert got.bound == got.objective
        if objective == "revenue":  # revenue first, then subsidy: both are determined
            assert (got.revenue, got.subsidy) == (want.revenue, want.subsidy)
        else:
            assert got.revenue + got.subsidy == want.revenue + want.subsidy
