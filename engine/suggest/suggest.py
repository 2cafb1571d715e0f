"""Move suggestions: every legal tile lay (and token) ranked by the best income it allows.

For the company in its track step, each legal move — a normal tile lay in any
legal rotation, the special lays of the privates it owns, optionally each
legal token — is applied to the board and ranked by the proven optimal income
of the company's trains on the board that results (``engine.optimize``), minus
the move's cost when asked. Exactness is kept while saving work:

* **Upper bound.** Before solving, a candidate gets a cheap bound that no route
  set can beat (per train, its best stops by value, read off the reduced graph its
  key is built from; ``graph_bound``). Candidates
  are solved best bound first; once the N-th best score is above the next
  bound, the rest cannot enter the top N and are skipped (counted as ``pruned``).
* **Reuse.** The network, supply and lay context are computed once; boards whose
  reduced route graphs are the same (most dead-end lays) share one solve, and a board
  with the base board's reduced graph takes the base's solve (issue 35: one solve fewer
  on 46 of the 48 real states of ``answer_digest suggest``; on size-36101, D + D, 0.7 s
  of CPU). A top move that shared a solve takes its routes when the engine judges
  them legal on its own board (``suggest_answer.shared_routes``).
* **Parallel, within a deadline.** Candidates are solved on a small thread pool
  (CP-SAT releases the GIL). Candidates not started when the deadline passes are
  listed in ``not_evaluated``; a solve cut short is reported not proven.

Ties are broken deterministically: score, then kind, hex, tile, rotation, city.
"""

from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Collection, Sequence

from route18xx.engine.board.board import Board
from route18xx.engine.answer.budget import AnswerBudget
from route18xx.engine.facts.gamedata import GameData
from route18xx.engine.suggest.move_words import move_text, tile_exits
from route18xx.engine.board.network import reach
from route18xx.engine.answer.optimize import Optimum, optimize
from route18xx.engine.routes.revenue import bonus_of, route_bonuses, route_subsidy, stop_value
from route18xx.engine.answer.problem_builder import build_problem
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.suggest.suggest_report import MoveKind, MoveLayReport, MoveReport
from route18xx.engine.board.tile_lay import TileLay, legal_tile_lays
from route18xx.engine.board.tile_abilities import tile_ability
from route18xx.engine.board.lay_slots import next_slot, slot_lays, was_upgrade
from route18xx.engine.facts.gamedata import LaySlot
from route18xx.engine.board.state_rules import teleport_privates, uses_tile_action
from route18xx.engine.board.token_place import legal_token_placements, next_token_price

if TYPE_CHECKING:
    from route18xx.solver import CancelToken, RouteProblem


def privates_open(state: RouteState) -> bool:
    """Are privates still open? They close with the first train whose purchase closes
    companies (the 5, RULES.md §9), i.e. from the phase that train starts."""
    data = state.data
    closing = [t.starts_phase for t in data.trains.values() if "close_companies" in t.events]
    names = [p.name for p in data.phases]
    return not closing or names.index(state.phase.name) < names.index(str(closing[0]))


@dataclass(frozen=True)
class SuggestOptions:
    """How to rank: how many moves, tokens too, income net of cost, objective, time."""

    top: int = 10
    include_tokens: bool = False
    subtract_cost: bool = False
    objective: str = "total"
    time_limit_s: float = 30.0
    workers: int = 2
    #: list only moves that raise the score over no move (issue 22: no "+¥0" lines).
    improving_only: bool = False
    #: merge the rotations of one tile on one hex that give the same income and score.
    merge_equal: bool = False
    #: also rank the best lays each followed by a token (``SuggestReport.combined``).
    combined: bool = False


@dataclass(frozen=True)
class Move:
    """A candidate move: one or more tile lays (a ferry lays two) or one token."""

    kind: MoveKind
    lays: tuple[TileLay, ...] = ()
    hex: str = ""
    city: int | None = None
    cost: int = 0

    @property
    def sort_key(self) -> tuple[Any, ...]:
        first = self.lays[0] if self.lays else None
        return (
            self.kind,
            self.hex,
            first.tile if first else "",
            first.rotation if first else -1,
            -1 if self.city is None else self.city,
        )

    def report(self, data: GameData) -> MoveReport:
        """The move as reported: the first lay's tile, rotation and private, every lay
        with the exits it connects, and the move in words (``engine.move_words``)."""
        first = self.lays[0] if self.lays else None
        lays = tuple(
            MoveLayReport(lay.hex, lay.tile, lay.rotation, lay.cost,
                          tile_exits(data.tiles[lay.tile], lay.rotation, data.layout))
            for lay in self.lays
        )
        return MoveReport(
            self.kind,
            self.hex,
            first.tile if first else None,
            first.rotation if first else None,
            self.city,
            first.ability if first else None,
            lays,
            self.cost,
            move_text(self.kind, self.hex, self.city, lays, first.ability if first else None, data),
        )


@dataclass
class Evaluated:
    """A ranked move; ``optimum`` is its own board's solve (None when it reused another's,
    ``shared``: the solve of a board with the same reduced route graph)."""

    move: Move
    income: int
    proven: bool
    score: int
    optimum: Optimum | None = None
    shared: Optimum | None = None


@dataclass
class SuggestResult:
    base_income: int
    base_proven: bool
    ranked: list[Evaluated]
    candidates: int
    solved: int = 0
    reused: int = 0
    pruned: int = 0
    not_evaluated: list[Move] = field(default_factory=list)
    elapsed_ms: float = 0.0


def applied(board: Board, move: Move, corp: str) -> Board:
    """The board after ``move``."""
    if move.kind == "token":
        assert move.city is not None
        return board.with_token(move.hex, move.city, corp)
    for lay in move.lays:
        board = board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)
    return board


def player_owned_blockers(state: RouteState) -> frozenset[str]:
    """The privates players own that close hexes to tile lays (RULES.md §7.3): as the
    state gives them, else every blocker the company does not own while privates are
    open (a title may have several, 1830 RULES.md §14)."""
    if state.player_owned_blockers is not None:
        return frozenset(state.player_owned_blockers)
    if not privates_open(state):
        return frozenset()
    return state.data.hex_blockers(state.rule_set.name) - set(state.privates)


def turn_slot(state: RouteState, teleports: Collection[str]) -> LaySlot | None:
    """The slot of the turn's next normal lay (``lay_slots.next_slot``) after the lays
    ``state.tiles_laid`` lists; None when a teleport took the turn's tile action or no
    normal lay is left."""
    if any(p in teleports for _, p in state.tiles_laid):
        return None
    upgrades = [was_upgrade(state.board, h) for h, p in state.tiles_laid if p is None]
    return next_slot(state.data.tile_lays, upgrades)


def _joined_pairs(board: Board, corp: str, private: str, hexes: Sequence[str],
                  firsts: Sequence[TileLay], common: dict[str, Any]) -> list[Move]:
    """A private's two lays made together, one on each of its two hexes, the second joining
    the first (18Chesapeake's C-P and B&S, g_18_chesapeake/entities.rb ``must_lay_together``,
    ``must_lay_all``: "two connected tiles in hexes H2 and I3"), as one move each."""
    out = []
    for lay in firsts:
        if lay.hex != hexes[0]:
            continue  # the same pair, listed once (joining is symmetric: exits face exits)
        after = board.with_tile(lay.hex, board.data.tiles[lay.tile], lay.rotation)
        for second in legal_tile_lays(after, corp, special=private, first_special_lay=lay.hex,
                                      **common):
            if {lay.hex, second.hex} == set(hexes):
                out.append(Move("tile", (lay, second), lay.hex, None, lay.cost + second.cost))
    return out


def candidate_moves(state: RouteState, include_tokens: bool = False) -> list[Move]:
    """Every legal move of the company's track step (and token step, if asked)."""
    board = state.board
    corp = state.corporation.sym
    common: dict[str, Any] = dict(
        phase=state.phase,
        rule_set=state.rule_set,
        owned_privates=state.privates,
        player_owned_blockers=player_owned_blockers(state),
        cash=state.cash,
    )
    teleports = teleport_privates(board.data, state.rule_set.name)
    used_normal = any(uses_tile_action(private, teleports) for _, private in state.tiles_laid)
    slot = turn_slot(state, teleports)  # the next normal lay (1882: a second one, $20 more)
    moves: list[Move] = []
    if slot is not None:
        for lay in slot_lays(board, slot, legal_tile_lays(board, corp, **common), state.cash):
            moves.append(Move("tile", (lay,), lay.hex, None, lay.cost))
    for private in sorted(state.privates):
        ability = tile_ability(state.rule_set, private, board.data)
        if ability is None or (used_normal and private in teleports):
            continue
        done = [h for h, p in state.tiles_laid if p == private]
        if ability.count is not None and len(done) >= ability.count:
            continue
        first = done[0] if done else None
        lays = legal_tile_lays(board, corp, special=private, first_special_lay=first, **common)
        if ability.must_lay_all and ability.connect:  # C-P, B&S: both hexes, joined
            moves.extend(_joined_pairs(board, corp, private, ability.hexes, lays, common))
            continue
        if ability.must_lay_all and lays:
            by_hex: dict[str, TileLay] = {}
            for lay in lays:
                by_hex.setdefault(lay.hex, lay)
            if set(by_hex) == set(ability.hexes):
                together = tuple(by_hex[h] for h in ability.hexes)
                cost = sum(lay.cost for lay in together)
                moves.append(Move("tile", together, together[0].hex, None, cost))
            continue
        moves.extend(Move("tile", (lay,), lay.hex, None, lay.cost) for lay in lays)
    if include_tokens:
        price = next_token_price(board, corp)
        if price is not None:
            for token in legal_token_placements(board, corp, token_price=price, cash=state.cash):
                moves.append(Move("token", (), token.hex, token.city, token.price))
    return moves


def income_bound(state: RouteState) -> int:
    """An upper bound on the company's income on ``state``'s board (cheap, sound).

    A train of distance d visits at most d paying stops plus the free ones
    (the harbour), each worth at most its value; add every destination bonus
    and mine subsidy a route could earn. D trains may visit every stop, each priced as
    that train earns it (a D's diesel value at 1889's off-boards, ``revenue.stop_value``).
    """
    board = state.board
    net = reach(board, state.corporation.sym)
    column = board.data.stop_column
    priced: dict[str | None, tuple[list[int], int]] = {}  # column → (costly values, free sum)
    for col, name in {column(t.name): t.name for t in state.trains}.items():
        costly: list[int] = []
        free = 0
        for hex_id, index in net.nodes:
            node = board.revenue_center(hex_id, index)
            value = stop_value(board, hex_id, index, state.phase, name)
            if node is not None and node.visit_cost == 0:
                free += value
            else:
                costly.append(value)
        costly.sort(reverse=True)
        priced[col] = (costly, free)
    hexes = {h for h, _ in net.nodes}
    corp = state.corporation
    bonus = bonus_of(hexes, route_bonuses(state))  # a bound: any train may reach both
    subsidy = route_subsidy(hexes, board.data)
    total = 0
    for train in state.trains:
        costly, free = priced[column(train.name)]
        best = costly if train.distance is None else costly[: train.distance]
        total += sum(best) + free + bonus + subsidy
    return total


def _graph_key(state: RouteState) -> Any:
    """What the optimum depends on: the reduced route graph, with stops by name, and where a
    train earns its own value (``Train.stop_values``)."""
    return _key_and_bound(state, "total")[0]


def _key_and_bound(state: RouteState, objective: str) -> tuple[Any, int]:
    """``_graph_key`` of ``state``'s board, and an upper bound on its income read off the
    same reduced graph (``graph_bound``): one problem built per candidate."""
    from route18xx.solver import reduce_problem

    built = build_problem(state)
    problem = built.problem
    graph = reduce_problem(problem)
    names = [
        repr(problem.stops[n]) if n < len(problem.stops)
        else problem.junctions[n - len(problem.stops)].name
        for n in graph.nodes
    ]
    segments = sorted(
        tuple(sorted(((names[s.a], s.side_a), (names[s.b], s.side_b))))
        for s in graph.segments
    )
    bonus_names = tuple(
        (b.value, tuple(sorted(problem.stops[i].name for i in b.first)),
         tuple(sorted(problem.stops[i].name for i in b.second)))
        for b in problem.bonuses
    )
    own_values = tuple(  # what a train earns at a stop instead (a D's diesel value)
        (t.name, tuple(sorted((problem.stops[i].name, v) for i, v in t.stop_values)))
        for t in problem.trains if t.stop_values
    )
    key = (tuple(sorted(names)), tuple(segments), bonus_names) + \
        ((own_values,) if own_values else ())
    return key, graph_bound(problem, graph.nodes[:graph.stop_count], objective)


def graph_bound(problem: RouteProblem, stops: Sequence[int], objective: str = "total") -> int:
    """An upper bound on the income of ``problem``'s trains when routes visit only
    ``stops`` (the stops of its reduced graph: the solver's routes visit no other).

    Per train, as ``income_bound`` reads a board: at most ``distance`` stops that cost
    distance, each at most its value for that train, every free stop (the harbour), every
    bonus and, for the ``"total"`` objective, every subsidy. Read off the problem the
    candidate's key is built from, it costs nothing more; ``income_bound`` walked the
    company's token reach again (~15 ms a candidate on the north map's fullest boards:
    size-36101's 17 candidates 250 ms).
    """
    bonus = sum(max(0, b.value) for b in problem.bonuses)
    subsidy = sum(max(0, problem.stops[i].subsidy) for i in stops) \
        if objective == "total" else 0
    total = 0
    for t, train in enumerate(problem.trains):
        values = problem.values_of(t)
        costly = sorted((max(0, values[i]) for i in stops
                         if problem.stops[i].distance_cost), reverse=True)
        free = sum(max(0, values[i]) for i in stops if not problem.stops[i].distance_cost)
        best = costly if train.distance is None else costly[: train.distance]
        total += sum(best) + free + bonus + subsidy
    return total


def suggest(
    state: RouteState,
    options: SuggestOptions = SuggestOptions(),
    cancel: CancelToken | None = None,
) -> SuggestResult:
    """Rank every legal move by the proven optimal income it makes possible.

    Moves whose boards have the same reduced route graph share one solve (the base
    board's too); the grouping is done before any solve, so ``solved`` and ``reused`` are the same
    on every run (``pruned`` and ``not_evaluated`` depend on timing).
    ``cancel`` stops the ranking (what was not ranked is ``not_evaluated``).
    """
    top, objective, workers = options.top, options.objective, max(1, options.workers)
    subtract = options.subtract_cost
    started = time.perf_counter()
    deadline = started + options.time_limit_s
    # the candidates' solves share the ranking's deadline; each is handed the ranking's
    # time limit, so its search plan does not depend on the time left (issue 21)
    ranking_end = time.monotonic() + options.time_limit_s

    def out_of_time() -> bool:
        return time.perf_counter() >= deadline or (cancel is not None and cancel.cancelled)

    base = optimize(state, objective=objective, time_limit_s=options.time_limit_s, cancel=cancel)
    moves = candidate_moves(state, options.include_tokens)
    result = SuggestResult(income_of(base, objective), base.solution.status == "OPTIMAL", [],
                           len(moves))
    corp = state.corporation.sym
    staged: list[tuple[int, Move, RouteState, Any]] = []
    for i, move in enumerate(moves):
        if out_of_time():
            result.not_evaluated.extend(moves[i:])
            break
        after = replace(state, board=applied(state.board, move, corp))
        key, bound = _key_and_bound(after, objective)
        staged.append((bound - (move.cost if subtract else 0), move, after, key))
    staged.sort(key=lambda item: (-item[0], item[1].sort_key))

    solving: dict[Any, Future[Optimum]] = {}
    waiting: dict[Any, list[Move]] = {}
    solved_for: dict[Any, Move] = {}  # the move whose board each solve was made on
    # A move whose board has the base's reduced graph takes the base's solve.
    base_solve: Future[Optimum] = Future()
    base_solve.set_result(base)
    solving[_graph_key(state)] = base_solve

    def take(key: Any, fut: Future[Optimum]) -> None:
        opt = fut.result()
        income, proven = income_of(opt, objective), opt.solution.status == "OPTIMAL"
        for move in waiting.pop(key):
            score = income - (move.cost if subtract else 0)
            own, shared = (opt, None) if solved_for.get(key) is move else (None, opt)
            result.ranked.append(Evaluated(move, income, proven, score, own, shared))

    def cutoff() -> tuple[int, tuple[Any, ...]] | None:
        if len(result.ranked) < top:
            return None
        nth = sorted(result.ranked, key=_rank_key)[top - 1]
        return nth.score, nth.move.sort_key

    with AnswerBudget(options.time_limit_s, cancel, ranking_end) as budget, \
            ThreadPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[Optimum]] = set()
        key_of: dict[Future[Optimum], Any] = {}
        queue = list(staged)
        while queue or pending:
            while queue and len(pending) < workers:
                bound, move, after, key = queue[0]
                limit = cutoff()
                if limit is not None and (
                    bound < limit[0] or (bound == limit[0] and move.sort_key > limit[1])
                ):
                    result.pruned += len(queue)
                    queue.clear()
                    break
                if out_of_time():
                    result.not_evaluated.extend(m for _, m, _, _ in queue)
                    queue.clear()
                    break
                queue.pop(0)
                if key in solving:
                    result.reused += 1
                    if key in waiting:
                        waiting[key].append(move)
                    else:  # that solve is finished: rank this move at once
                        waiting[key] = [move]
                        take(key, solving[key])
                    continue
                result.solved += 1
                fut = pool.submit(optimize, after, objective=objective,
                                  time_limit_s=options.time_limit_s, cancel=budget.token)
                solving[key], key_of[fut], waiting[key] = fut, key, [move]
                solved_for[key] = move
                pending.add(fut)
            if pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=lambda f: repr(key_of[f])):
                    take(key_of[fut], fut)
    result.ranked.sort(key=_rank_key)
    result.ranked = result.ranked[:top]
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def _rank_key(e: Evaluated) -> tuple[Any, ...]:
    return (-e.score, e.move.sort_key)


def income_of(opt: Optimum, objective: str) -> int:
    revenue = opt.judgement.revenue
    return revenue + opt.judgement.subsidy if objective == "total" else revenue


def time_left_for(options: SuggestOptions, started: float, cancel: CancelToken | None) -> float:
    """Time left for the report's own solves: the ranking's limit, or the call's deadline."""
    left = options.time_limit_s - (time.perf_counter() - started)
    call_left = cancel.time_left() if cancel is not None else None
    if call_left is not None:  # the call's deadline: the share kept for this, too
        left = max(left, call_left)
    return max(0.01, left)
