"""Exact ranking of whole-turn plans by the proven optimal income they allow (issue 24).

Each plan (``engine.turn_plans``: lays, then a token) is priced by the proven
optimal income of the company's trains on the board it leaves
(``engine.optimize``), minus its cost when asked. The ranking is exact: the top
N is the top N of all plans, each proven, without solving them all. Two sound
upper bounds prune:

1. **Lay bound** (no solve): on a lay board, no plan beats ``income_bound`` —
   per train its best stops by value plus every bonus and subsidy the reached
   network could pay (``engine.suggest.income_bound``). A token never widens
   the reach (it goes into a city the network already passes, §6.6), so the
   bound holds for every token on that board.
2. **Token bound** (one solve per lay board): the optimum on the lay board with
   *every* legal token city tokened at once. A route set legal with any one
   extra token is legal there (a route needs one own token, ROUTES.md §3.5;
   own tokens never block), so it bounds every token plan of that board and the
   plan without a token. A lay board with no legal token is solved exactly.

3. **Train bound** (between the two, ``TurnOptions.train_bound``): on the
   board with every legal token city tokened, the sum over the company's
   trains of each train's best route alone (one solve per train type, times
   the count of that type). The best route set restricted to one train is a
   route of that train alone, and every bonus and subsidy is a route's
   (ROUTES.md §4), so the sum bounds the optimum; tried only once a top N
   exists, before the token bound's solve, and only for two trains or more
   (for one train it is the token bound itself).

Lay boards are taken best lay bound first; once the N-th best score (with its
tie-break key) beats the next lay bound, every remaining plan is pruned.
Boards whose reduced route graphs are the same share one solve. Within the
deadline; plans not reached when it passes are ``unranked``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable

from route18xx.engine.board.board import Board
from route18xx.engine.errors import OutOfTime
from route18xx.engine.answer.optimize import Optimum, optimize
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.suggest.suggest import income_bound
from route18xx.engine.turn.turn_plans import LayBoard, Plan, lay_boards, plan_board, plans_of, token_options

if TYPE_CHECKING:
    from route18xx.solver import CancelToken


@dataclass(frozen=True)
class TurnOptions:
    """How to rank: how many plans, income net of cost, objective, time for the ranking."""

    top: int = 5
    subtract_cost: bool = False
    objective: str = "total"
    time_limit_s: float = 30.0
    #: try the train bound (3. above) before the token bound's solve; off by default:
    #: on the 20 turns of ``benchmarks/bench_turn`` it prunes 83 of 1 952 plans but its
    #: 23 single-train solves save only 8 others (CPU the same within noise)
    train_bound: bool = False


@dataclass
class RankedPlan:
    plan: Plan
    income: int
    proven: bool
    score: int
    optimum: Optimum
    #: the optimum was solved on this plan's own board (not shared from a board with
    #: the same reduced route graph, whose routes may cross other hexes)
    own: bool = True

    @property
    def rank_key(self) -> tuple[Any, ...]:
        return (-self.score, self.plan.sort_key)


@dataclass
class TurnRanking:
    """The ranking and how it went: counts of plans, solves and what the bounds pruned."""

    base_income: int
    base_proven: bool
    ranked: list[RankedPlan]
    lay_boards: int = 0
    plans: int = 0
    solves: int = 0
    reused: int = 0
    bound_solves: int = 0
    pruned_by_lay_bound: int = 0
    pruned_by_token_bound: int = 0
    pruned_by_train_bound: int = 0
    train_bound_solves: int = 0
    plans_solved: int = 0
    unranked: list[Plan] = field(default_factory=list)
    elapsed_ms: float = 0.0


def income_of(opt: Optimum, objective: str) -> int:
    """What the objective ranks by: revenue + subsidy, or revenue."""
    revenue = opt.judgement.revenue
    return revenue + opt.judgement.subsidy if objective == "total" else revenue


def graph_key(state: RouteState) -> Any:
    """What the optimum depends on: the reduced route graph, stops by name and value."""
    from route18xx.solver import reduce_problem

    problem = build_problem(state).problem
    graph = reduce_problem(problem)
    names = [
        repr(problem.stops[n]) if n < len(problem.stops)
        else problem.junctions[n - len(problem.stops)].name
        for n in graph.nodes
    ]
    segments = sorted(
        tuple(sorted(((names[s.a], s.side_a), (names[s.b], s.side_b)))) for s in graph.segments
    )
    bonuses = tuple(
        (b.value, tuple(sorted(problem.stops[i].name for i in b.first)),
         tuple(sorted(problem.stops[i].name for i in b.second)))
        for b in problem.bonuses
    )
    groups = tuple(sorted(tuple(sorted(problem.stops[i].name for i in g)) for g in problem.groups))
    return (tuple(sorted(names)), tuple(segments), bonuses, groups)


class _Solver:
    """Optima by board, shared between boards with the same reduced route graph."""

    def __init__(self, state: RouteState, objective: str, deadline: float,
                 cancel: CancelToken | None) -> None:
        self.state, self.objective, self.deadline, self.cancel = state, objective, deadline, cancel
        self.cache: dict[Any, tuple[Board, Optimum]] = {}
        self.solves = 0
        self.reused = 0

    def check_time(self) -> None:
        if time.perf_counter() >= self.deadline or (self.cancel is not None and self.cancel.cancelled):
            raise OutOfTime("the turn ranking's time limit passed")

    def optimum(self, board: Board) -> tuple[Optimum, bool]:
        """The optimum on ``board`` and whether it was solved on this very board."""
        self.check_time()
        after = replace(self.state, board=board)
        key = graph_key(after)
        if key in self.cache:
            self.reused += 1
            solved_on, opt = self.cache[key]
            return opt, solved_on is board
        self.solves += 1
        left = max(0.01, self.deadline - time.perf_counter())
        opt = optimize(after, objective=self.objective, time_limit_s=left, cancel=self.cancel)
        self.cache[key] = (board, opt)
        return opt, True


def rank_turn(
    state: RouteState,
    options: TurnOptions = TurnOptions(),
    cancel: CancelToken | None = None,
    *,
    on_lay_boards: Callable[[list[LayBoard]], None] | None = None,
) -> TurnRanking:
    """Rank every plan of the company's turn; the top ``options.top``, each proven."""
    started = time.perf_counter()
    deadline = started + options.time_limit_s
    top, objective, subtract = options.top, options.objective, options.subtract_cost
    corp = state.corporation.sym
    solver = _Solver(state, objective, deadline, cancel)
    counts: dict[str, int] = {}
    for t in state.trains:
        counts[t.name] = counts.get(t.name, 0) + 1
    singles = {t.name: _Solver(replace(state, trains=(t,), train_ids=()), objective, deadline,
                               cancel) for t in state.trains}
    base = optimize(state, objective=objective, time_limit_s=options.time_limit_s, cancel=cancel)
    result = TurnRanking(income_of(base, objective), base.solution.status == "OPTIMAL", [])
    boards = lay_boards(state, poll=solver.check_time)
    if on_lay_boards is not None:
        on_lay_boards(boards)
    staged: list[tuple[int, LayBoard, list[Plan]]] = []
    for lb in boards:
        plans = plans_of(state, lb, token_options(state, lb))
        cheapest = min(p.cost for p in plans) if subtract else 0
        bound = income_bound(replace(state, board=lb.board)) - cheapest
        staged.append((bound, lb, plans))
    staged.sort(key=lambda s: (-s[0], min(p.sort_key for p in s[2])))
    result.lay_boards = len(staged)
    result.plans = sum(len(s[2]) for s in staged)

    def cutoff() -> tuple[int, tuple[Any, ...]] | None:
        if len(result.ranked) < top:
            return None
        nth = sorted(result.ranked, key=lambda r: r.rank_key)[top - 1]
        return nth.score, nth.plan.sort_key

    def beaten(bound: int, plans: list[Plan]) -> bool:
        """No plan of ``plans`` with score <= ``bound`` can enter the top N."""
        limit = cutoff()
        if limit is None:
            return False
        return bound < limit[0] or (bound == limit[0] and min(p.sort_key for p in plans) > limit[1])

    def rank(plan: Plan, opt: Optimum, own: bool) -> None:
        income = income_of(opt, objective)
        score = income - (plan.cost if subtract else 0)
        result.ranked.append(
            RankedPlan(plan, income, opt.solution.status == "OPTIMAL", score, opt, own))
        result.ranked.sort(key=lambda r: r.rank_key)
        del result.ranked[top:]
        result.plans_solved += 1

    def train_bound(board: Board) -> int | None:
        """Sum of each train's best route alone on ``board`` (3. above); None if unproven."""
        total = 0
        for name, single in singles.items():
            before = single.solves
            opt, _ = single.optimum(board)
            result.train_bound_solves += single.solves - before
            if opt.solution.status != "OPTIMAL":
                return None
            total += counts[name] * income_of(opt, objective)
        return total

    for i, (bound, lb, plans) in enumerate(staged):
        if beaten(bound, plans):
            limit = cutoff()
            assert limit is not None
            if bound < limit[0]:  # every later board's bound is lower still
                result.pruned_by_lay_bound += sum(len(s[2]) for s in staged[i:])
                break
            result.pruned_by_lay_bound += len(plans)  # a tie that loses on its key
            continue
        handled: set[int] = set()
        try:
            bound_income: int | None = None
            tokens = [p for p in plans if p.token is not None]
            relaxed = lb.board
            for p in tokens:
                assert p.token is not None
                relaxed = relaxed.with_token(p.token.hex, p.token.city, corp)
            if options.train_bound and len(state.trains) > 1 and cutoff() is not None:
                cheapest = min(p.cost for p in plans) if subtract else 0
                by_trains = train_bound(relaxed)
                if by_trains is not None and beaten(by_trains - cheapest, plans):
                    result.pruned_by_train_bound += len(plans)
                    handled.update(range(len(plans)))
                    continue
            if tokens:
                result.bound_solves += 1
                opt, _ = solver.optimum(relaxed)
                if opt.solution.status == "OPTIMAL":
                    bound_income = income_of(opt, objective)
            for j, plan in enumerate(plans):
                if bound_income is not None:
                    own = bound_income - (plan.cost if subtract else 0)
                    if beaten(own, [plan]):
                        result.pruned_by_token_bound += 1
                        handled.add(j)
                        continue
                opt, own = solver.optimum(plan_board(lb, plan.token, corp))
                rank(plan, opt, own)
                handled.add(j)
        except OutOfTime:
            result.unranked.extend(p for j, p in enumerate(plans) if j not in handled)
            for _, _, rest in staged[i + 1:]:
                result.unranked.extend(rest)
            break
    result.solves, result.reused = solver.solves, solver.reused
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result
