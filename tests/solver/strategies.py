"""Hypothesis strategies: random small route problems for the solver's property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from route18xx.solver.problem import (
    NO_SIDE,
    Junction,
    PairBonus,
    RouteProblem,
    Segment,
    Stop,
    Train,
)


@st.composite
def route_problems(draw: st.DrawFn, max_nodes: int = 10) -> RouteProblem:
    """A random board of 3–``max_nodes`` stops and junctions with every kind of rule.

    Values are multiples of 10 so ties are common (they exercise tie-breaks);
    some segments are parallel, some are loops, some junctions are dead ends.
    """
    n = draw(st.integers(3, max_nodes))
    n_stops = draw(st.integers(2, n - 1))
    n_junctions = n - n_stops
    stops = tuple(
        Stop(
            name=f"s{i}",
            value=draw(st.sampled_from([0, 10, 20, 30, 40])),
            distance_cost=draw(st.sampled_from([1, 1, 1, 0, 2])),
            route_end_only=draw(st.sampled_from([False, False, False, True])),
            subsidy=draw(st.sampled_from([0, 0, 0, 10, 40])),
            station=draw(st.booleans()),
        )
        for i in range(n_stops)
    )
    junctions = tuple(Junction(f"j{i}") for i in range(n_junctions))
    # Segment ends: a stop, or one side of a junction (so junctions are drawn
    # twice as often as stops, like hex sides between tiles).
    ends = [(s, NO_SIDE) for s in range(n_stops)]
    ends += [(n_stops + j, side) for j in range(n_junctions) for side in (0, 1)]
    end = st.sampled_from(ends)
    segments = []
    for i in range(draw(st.integers(n // 2, 2 * n))):
        (a, side_a), (b, side_b) = draw(end), draw(end)
        segments.append(Segment(a, b, side_a, side_b, f"e{i}"))
    # Some trains earn their own value at some stops (1889's off-boards pay a D more).
    own_values = st.lists(st.tuples(st.integers(0, n_stops - 1),
                                    st.sampled_from([0, 20, 50, 100])),
                          max_size=2, unique_by=lambda pair: pair[0])
    trains = tuple(
        Train(f"t{k}", draw(st.sampled_from([None, 1, 2, 2, 3, 4])),
              tuple(draw(st.one_of(st.just([]), st.just([]), own_values))))
        for k in range(draw(st.integers(1, 4)))
    )
    stop_sets = st.frozensets(st.integers(0, n_stops - 1), min_size=1, max_size=3)
    groups = tuple(draw(st.lists(stop_sets, max_size=2)))
    bonuses = tuple(
        PairBonus(draw(st.sampled_from([10, 20, 40])), first, second)
        for first, second in draw(st.lists(st.tuples(stop_sets, stop_sets), max_size=2))
    )
    min_stops = draw(st.sampled_from([1, 2, 2, 2, 3]))
    return RouteProblem(stops, junctions, tuple(segments), trains, groups, bonuses, min_stops)
