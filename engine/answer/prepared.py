"""A prepared board and its solves (issue 14): the state parsed and its problem built
once, pins and train sets read against it, and each solve re-judged whole.

Every answer that explains a choice (``engine.answer.solve_answer``: pinned routes,
what-if trains, dividend against treasury) solves on one prepared board (``Prepared``: the state parsed and its
``RouteProblem`` built once). Pinned routes take their track away as data
(``BuiltProblem.without_track``: forbidden junctions and segments, ROUTES.md
§3.7), and a train set replaces the problem's trains; the solver never sees a
hex. Every answer is re-judged whole (pins and solved routes together) by the
one validator, as ``engine.optimize`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from route18xx.engine.board import state_rules as rules
from route18xx.engine.answer import tuning
from route18xx.engine.answer.budget import AnswerBudget, SolveTiming
from route18xx.engine.errors import EngineMismatch, MalformedInput, excerpt
from route18xx.engine.facts.gamedata import TrainDef
from route18xx.engine.answer.optimize import Optimum, route_spec, train_ids
from route18xx.engine.answer.problem_builder import BuiltProblem, build_problem
from route18xx.engine.routes.route_judge import (
    Judgement,
    RouteSpec, check_route_references, judge_routes, parse_route_specs, train_type,
)
from route18xx.engine.inputs.state_file import RouteState
from route18xx.solver import (
    OBJECTIVES, CancelToken, Method, Objective, Solution, solve, solve_both,
)


@dataclass(frozen=True)
class Prepared:
    """A board ready to solve many times: the state and its problem, built once."""

    state: RouteState
    built: BuiltProblem


def prepare(state: RouteState) -> Prepared:
    return Prepared(state, build_problem(state))


def _renamed(exc: MalformedInput, old: str, new: str) -> MalformedInput:
    field = new + exc.field[len(old):] if exc.field.startswith(old) else new
    return MalformedInput(field, exc.reason)


def parse_train_set(state: RouteState, raw: Any, where: str) -> tuple[TrainDef, ...]:
    """One what-if train set (``["4", "D"]``), checked as the state's trains are
    (engine.state_rules: on sale in the phase, not rusted, limit, supply)."""
    data = state.data
    if not isinstance(raw, list) or not raw:
        raise MalformedInput(where, "must be a non-empty list of train names such as '4'")
    try:
        rules.check_train_count(raw, state.phase, data, state.corporation)
    except MalformedInput as exc:
        raise _renamed(exc, "trains", where) from None
    trains: list[TrainDef] = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or name not in data.trains:
            raise MalformedInput(
                f"{where}[{i}]", f"unknown train {excerpt(name)}; expected one of {sorted(data.trains)}"
            )
        train = data.trains[name]
        try:
            rules.check_train(i, train, state.phase, data, sum(1 for t in trains if t is train),
                              state.rules)
        except MalformedInput as exc:
            raise _renamed(exc, "trains", where) from None
        trains.append(train)
    return tuple(trains)


def parse_pins(state: RouteState, raw: Any, where: str = "pinned_routes") -> list[RouteSpec]:
    """Pinned routes (a run_routes ``routes`` array): readable, of trains the company
    owns (any id of the type: ``2-0``, or a game's ``2-5``), and legal together."""
    try:
        specs = parse_route_specs(raw, state.data, where)
        check_route_references(state, specs)
    except MalformedInput as exc:
        raise _renamed(exc, "routes", where) from None
    judgement = judge_routes(state, specs)
    for i, route in enumerate(judgement.routes):
        if route.violations:
            raise MalformedInput(f"{where}[{i}]", f"is not a legal route: {route.violations[0]}")
    return specs


def solve_prepared(
    prep: Prepared,
    *,
    trains: tuple[TrainDef, ...] | None = None,
    pins: Sequence[RouteSpec] = (),
    objective: str = "total",
    time_limit_s: float = 10.0,
    cancel: CancelToken | None = None,
    budget: AnswerBudget | None = None,
    purpose: str = "answer",
    floor: Floor | None = None,
) -> tuple[RouteState, Optimum]:
    """The proven optimum of the free trains (all but the pinned ones) on the track
    the pins leave free, judged together with the pins. ``trains`` replaces the
    state's trains (a what-if set). With ``budget`` the solve stops at its shared
    deadline (``cancel`` is then not used) and its timing is recorded there as
    ``purpose``. With ``floor`` only answers reaching it are searched
    (``engine.objectives``): none is status ``INFEASIBLE``, no routes."""
    if objective not in OBJECTIVES:
        raise MalformedInput("objective", f"{objective!r} is not one of {list(OBJECTIVES)}")
    if budget is None:
        with AnswerBudget(time_limit_s, cancel) as own:
            return _solve_on_budget(prep, trains, pins, objective, time_limit_s, own, purpose,
                                    floor)
    return _solve_on_budget(prep, trains, pins, objective, time_limit_s, budget, purpose, floor)


@dataclass(frozen=True)
class Floor:
    """What a solve must beat (issue 21: the second objective's search): only answers
    whose objective reaches ``value``; with ``avoid_subsidy`` only routes through no
    stop that pays a subsidy (the track at those stops taken away); ``method`` the
    solver's (``solve``)."""

    value: int
    avoid_subsidy: bool = False
    method: Method = "auto"


def _solve_on_budget(
    prep: Prepared,
    trains: tuple[TrainDef, ...] | None,
    pins: Sequence[RouteSpec],
    objective: Objective,
    time_limit_s: float,
    budget: AnswerBudget,
    purpose: str,
    floor: Floor | None = None,
) -> tuple[RouteState, Optimum]:
    started = budget.elapsed_ms()
    state, free, built = _board(prep, trains, pins, floor)
    if free:
        solution = solve(built.problem, objective=objective, time_limit_s=time_limit_s,
                         cancel=budget.token, floor=None if floor is None else floor.value,
                         method="auto" if floor is None else floor.method,
                         options=tuning.SOLVE_OPTIONS)
    else:
        solution = Solution((), 0, 0, "OPTIMAL", 0, 0)
    specs, judgement = _judged(state, built, pins, free, solution)
    ms = budget.elapsed_ms() - started
    timing = SolveTiming.of(purpose, objective, tuple(t.name for t in state.trains), solution, ms,
                            0 if floor is None else floor.value)
    budget.record(timing)
    return state, Optimum(solution, specs, judgement, ms, (timing,))


def solve_prepared_both(
    prep: Prepared, objective: Objective, time_limit_s: float, budget: AnswerBudget,
) -> tuple[RouteState, Optimum, Optimum] | None:
    """The state's own trains' optimum for ``objective`` and for the other objective
    from one solve (``solver.solve_both``: a lone train), each judged
    whole; None where one search does not settle both. One search, one timing on
    ``budget`` (``answer``: the search and both re-checks)."""
    if len(prep.built.problem.trains) != 1:
        return None  # not a lone train: nothing built for it
    started = budget.elapsed_ms()
    state, free, built = _board(prep, None, (), None)
    answers = solve_both(built.problem, objective=objective, time_limit_s=time_limit_s,
                         cancel=budget.token, options=tuning.SOLVE_OPTIONS)
    if answers is None:
        return None
    first = _judged(state, built, (), free, answers[0])
    # one route best in both: judged once
    second = first if answers[1].routes == answers[0].routes else _judged(
        state, built, (), free, answers[1])
    ms = budget.elapsed_ms() - started
    timing = SolveTiming.of("answer", objective, tuple(t.name for t in state.trains),
                            answers[0], ms)
    budget.record(timing)
    return (state, Optimum(answers[0], *first, ms, (timing,)),
            Optimum(answers[1], *second, ms, (timing,)))


def _board(
    prep: Prepared, trains: tuple[TrainDef, ...] | None, pins: Sequence[RouteSpec],
    floor: Floor | None,
) -> tuple[RouteState, list[tuple[str, TrainDef]], BuiltProblem]:
    """The state a solve answers for (``trains``: a what-if set), its free trains, and
    the board they run on: the pins' track taken away (ROUTES.md §3.7), and with a
    ``floor`` that avoids subsidies the track at every stop paying one."""
    if trains is None or trains == prep.state.trains:
        state = prep.state
    else:  # a what-if set: its trains have no ids in the game
        state = replace(prep.state, trains=trains, train_ids=())
    free = _free_trains(state, pins)
    problem = prep.built.problem  # the state's own trains, no pins: the very problem
    if pins or state is not prep.state:
        taken = judge_routes(state, pins).routes if pins else []
        edges = [k for r in taken for c in r.chains for k in c.edge_keys]
        paths = [p for r in taken for c in r.chains for p in c.paths]
        problem = prep.built.without_track(edges, paths, [t for _, t in free], state.data)
    if floor is not None and floor.avoid_subsidy:
        paying = {i for i, stop in enumerate(problem.stops) if stop.subsidy}
        problem = replace(problem, forbidden_segments=problem.forbidden_segments | frozenset(
            i for i, seg in enumerate(problem.segments) if seg.a in paying or seg.b in paying))
    built = prep.built if problem is prep.built.problem else replace(prep.built, problem=problem)
    return state, free, built


def _judged(
    state: RouteState, built: BuiltProblem, pins: Sequence[RouteSpec],
    free: Sequence[tuple[str, TrainDef]], solution: Solution,
) -> tuple[tuple[RouteSpec, ...], Judgement]:
    """The solver's routes beside the pins as route specs, judged whole by the
    engine's validator (DESIGN.md §3: every solver result passes it);
    ``EngineMismatch`` where the engine rejects them or prices them otherwise."""
    specs = tuple(pins) + tuple(route_spec(built, r, free[r.train][0]) for r in solution.routes)
    judgement = judge_routes(state, specs)
    if not judgement.legal:
        raise EngineMismatch(f"solver routes rejected by the engine: {judgement.violations}")
    pin_revenue = sum(r.revenue for r in judgement.routes[: len(pins)])
    pin_subsidy = sum(r.subsidy for r in judgement.routes[: len(pins)])
    if (judgement.revenue - pin_revenue, judgement.subsidy - pin_subsidy) != (
        solution.revenue, solution.subsidy
    ):
        raise EngineMismatch(
            f"solver priced {solution.revenue}+{solution.subsidy}, engine "
            f"{judgement.revenue - pin_revenue}+{judgement.subsidy - pin_subsidy}"
        )
    return specs, judgement


def _free_trains(state: RouteState, pins: Sequence[RouteSpec]) -> list[tuple[str, TrainDef]]:
    """The trains the pins leave, with their ids: the game's own when the state has
    them (``optimize.train_ids``: "3-3"), else ``<type>-<n>``; never an id a pinned
    route uses. A pin naming a train's own id takes that train, any other pin the
    first free train of its type."""
    ids = train_ids(state)
    free = list(range(len(state.trains)))
    others: list[str] = []
    for pin in pins:
        if pin.train in ids and ids.index(pin.train) in free:
            free.remove(ids.index(pin.train))
        else:
            others.append(train_type(pin.train))
    for kind in others:
        first = next((i for i in free if state.trains[i].name == kind), None)
        if first is not None:
            free.remove(first)
    used = {p.train for p in pins}
    out: list[tuple[str, TrainDef]] = []
    for i in free:
        train, tid, n = state.trains[i], ids[i], 0
        while tid in used:
            tid, n = f"{train.name}-{n}", n + 1
        used.add(tid)
        out.append((tid, train))
    return out
