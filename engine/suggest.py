"""Move suggestions: every legal tile lay (and token) ranked by the best income it allows.

For the company in its track step, each legal move — a normal tile lay in any
legal rotation, the special lays of the privates it owns, optionally each
legal token — is applied to the board and ranked by the proven optimal income
of the company's trains on the board that results (``engine.optimize``), minus
the move's cost when asked. Exactness is kept while saving work:

* **Upper bound.** Before solving, a candidate gets a cheap bound that no route
  set can beat (per train, its best stops by value; ``income_bound``). Candidates
  are solved best bound first; once the N-th best score is above the next
  bound, the rest cannot enter the top N and are skipped (counted as ``pruned``).
* **Reuse.** The network, supply and lay context are computed once; boards whose
  reduced route graphs are the same (most dead-end lays) share one solve.
* **Parallel, within a deadline.** Candidates are solved on a small thread pool
  (CP-SAT releases the GIL). Candidates not started when the deadline passes are
  listed in ``not_evaluated``; a solve cut short is reported not proven.

Ties are broken deterministically: score, then kind, hex, tile, rotation, city.
"""

from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from route18xx.engine.board import Board
from route18xx.engine.errors import MalformedInput
from route18xx.engine.gamedata import GameData, game_data
from route18xx.engine.move_words import tile_exits
from route18xx.engine.network import reach
from route18xx.engine.optimize import Optimum, optimize, routes_report
from route18xx.engine.revenue import destination_bonus, route_subsidy, stop_value
from route18xx.engine.problem_builder import build_problem
from route18xx.engine.state_file import RouteState
from route18xx.engine.suggest_report import MoveKind, MoveLayReport, MoveReport, SuggestReport, Suggestion
from route18xx.engine.tile_lay import TileLay, legal_tile_lays
from route18xx.engine.tile_abilities import tile_ability
from route18xx.engine.token_place import legal_token_placements, next_token_price

if TYPE_CHECKING:
    from route18xx.solver import CancelToken

def move_text(kind: str, hex_id: str, city: int | None, lays: tuple[MoveLayReport, ...],
              private: str | None, data: GameData) -> str:
    """A move in a player's words: "tile 57 on H12 (Tianjin) connects W–E (city)",
    "token on F16 (Tianjin), city 1"; a private's lay says whose."""

    def where(h: str) -> str:
        name = data.hexes[h].location_name if h in data.hexes else None
        return f"{h} ({name})" if name else h

    if kind == "token":
        return f"token on {where(hex_id)}" + (f", city {city}" if city else "")
    parts = [f"tile {lay.tile} on {where(lay.hex)} connects {', '.join(lay.exits) or 'nothing'}"
             for lay in lays]
    return " and ".join(parts) + (f" (with {private})" if private else "")


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

    def report(self, data: GameData | None = None) -> MoveReport:
        """The move as reported: the first lay's tile, rotation and private, every lay
        with the exits it connects, and the move in words (``engine.move_words``)."""
        first = self.lays[0] if self.lays else None
        data = data or game_data()
        lays = tuple(
            MoveLayReport(lay.hex, lay.tile, lay.rotation, lay.cost,
                          tile_exits(data.tiles[lay.tile], lay.rotation))
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
    """A ranked move; ``optimum`` is its own board's solve (None when it reused another's)."""

    move: Move
    income: int
    proven: bool
    score: int
    optimum: Optimum | None = None


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


def candidate_moves(state: RouteState, include_tokens: bool = False) -> list[Move]:
    """Every legal move of the company's track step (and token step, if asked)."""
    board = state.board
    corp = state.corporation.sym
    hs_player = state.heng_shan_player_owned
    if hs_player is None:
        blockers = board.data.hex_blockers(state.rule_set.name)
        hs_player = not (blockers & set(state.privates)) and privates_open(state)
    common: dict[str, Any] = dict(
        phase=state.phase,
        rule_set=state.rule_set,
        owned_privates=state.privates,
        heng_shan_player_owned=hs_player,
        cash=state.cash,
    )
    used_normal = any(private is None for _, private in state.tiles_laid)
    moves: list[Move] = []
    if not used_normal:
        for lay in legal_tile_lays(board, corp, **common):
            moves.append(Move("tile", (lay,), lay.hex, None, lay.cost))
    for private in sorted(state.privates):
        ability = tile_ability(state.rule_set, private, board.data)
        if ability is None:
            continue
        done = [h for h, p in state.tiles_laid if p == private]
        if ability.count is not None and len(done) >= ability.count:
            continue
        first = done[0] if done else None
        lays = legal_tile_lays(board, corp, special=private, first_special_lay=first, **common)
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
    and mine subsidy a route could earn. D trains may visit every stop.
    """
    board = state.board
    net = reach(board, state.corporation.sym)
    costly: list[int] = []
    free = 0
    for hex_id, index in net.nodes:
        node = board.revenue_center(hex_id, index)
        value = stop_value(board, hex_id, index, state.phase)
        if node is not None and node.visit_cost == 0:
            free += value
        else:
            costly.append(value)
    costly.sort(reverse=True)
    hexes = {h for h, _ in net.nodes}
    corp = state.corporation
    bonus = destination_bonus(hexes, corp)  # an upper bound: any train may reach both
    subsidy = route_subsidy(hexes)
    total = 0
    for train in state.trains:
        best = costly if train.distance is None else costly[: train.distance]
        total += sum(best) + free + bonus + subsidy
    return total


def _graph_key(state: RouteState) -> Any:
    """What the optimum depends on: the reduced route graph, with stops by name."""
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
    return (tuple(sorted(names)), tuple(segments), bonus_names)


def suggest(
    state: RouteState,
    options: SuggestOptions = SuggestOptions(),
    cancel: CancelToken | None = None,
) -> SuggestResult:
    """Rank every legal move by the proven optimal income it makes possible.

    Moves whose boards have the same reduced route graph share one solve; the
    grouping is done before any solve, so ``solved`` and ``reused`` are the same
    on every run (``pruned`` and ``not_evaluated`` depend on timing).
    ``cancel`` stops the ranking (what was not ranked is ``not_evaluated``).
    """
    top, objective, workers = options.top, options.objective, max(1, options.workers)
    subtract = options.subtract_cost
    started = time.perf_counter()
    deadline = started + options.time_limit_s

    def out_of_time() -> bool:
        return time.perf_counter() >= deadline or (cancel is not None and cancel.cancelled)

    base = optimize(state, objective=objective, time_limit_s=options.time_limit_s, cancel=cancel)
    moves = candidate_moves(state, options.include_tokens)
    result = SuggestResult(_income(base, objective), base.solution.status == "OPTIMAL", [],
                           len(moves))
    corp = state.corporation.sym
    staged: list[tuple[int, Move, RouteState, Any]] = []
    for i, move in enumerate(moves):
        if out_of_time():
            result.not_evaluated.extend(moves[i:])
            break
        after = replace(state, board=applied(state.board, move, corp))
        bound = income_bound(after) - (move.cost if subtract else 0)
        staged.append((bound, move, after, _graph_key(after)))
    staged.sort(key=lambda item: (-item[0], item[1].sort_key))

    solving: dict[Any, Future[Optimum]] = {}
    waiting: dict[Any, list[Move]] = {}

    def take(key: Any, fut: Future[Optimum]) -> None:
        opt = fut.result()
        income, proven = _income(opt, objective), opt.solution.status == "OPTIMAL"
        for i, move in enumerate(waiting.pop(key)):
            score = income - (move.cost if subtract else 0)
            result.ranked.append(Evaluated(move, income, proven, score, opt if i == 0 else None))

    def cutoff() -> tuple[int, tuple[Any, ...]] | None:
        if len(result.ranked) < top:
            return None
        nth = sorted(result.ranked, key=_rank_key)[top - 1]
        return nth.score, nth.move.sort_key

    with ThreadPoolExecutor(max_workers=workers) as pool:
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
                remaining = max(0.01, deadline - time.perf_counter())
                fut = pool.submit(optimize, after, objective=objective, time_limit_s=remaining,
                                  cancel=cancel)
                solving[key], key_of[fut], waiting[key] = fut, key, [move]
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


def _income(opt: Optimum, objective: str) -> int:
    revenue = opt.judgement.revenue
    return revenue + opt.judgement.subsidy if objective == "total" else revenue


def suggest_report(
    state: RouteState,
    options: SuggestOptions = SuggestOptions(),
    cancel: CancelToken | None = None,
) -> SuggestReport:
    """The ranking as a ``SuggestReport`` (``to_json()``: what ``route18xx suggest --json`` prints).

    A top move that shared another board's solve is solved again for its own
    routes; those solves get what is left of the ranking's time limit and the
    same ``cancel`` token, or up to the token's deadline when it has one (issue
    9: the whole call stays within its deadline).
    """
    started = time.perf_counter()
    res = suggest(state, options, cancel)
    objective = options.objective
    corp = state.corporation.sym
    suggestions: list[Suggestion] = []
    data = state.data
    for e in res.ranked:
        opt = e.optimum
        if opt is None:  # a move that shared another board's solve: its own routes, quickly
            after = replace(state, board=applied(state.board, e.move, corp))
            opt = optimize(after, objective=objective, time_limit_s=_left(options, started, cancel),
                           cancel=cancel)
        suggestions.append(Suggestion(
            e.move.report(data), e.income, e.income - res.base_income, e.score, e.proven,
            tuple(routes_report(opt)),
        ))
    improving = any(s.score > res.base_income for s in suggestions)
    if options.merge_equal:
        suggestions = merge_equal(suggestions)
    if options.improving_only:
        suggestions = [s for s in suggestions if s.score > res.base_income]
    combined: tuple[Suggestion, ...] = ()
    if options.combined:
        lays = [e.move for e in res.ranked if e.move.kind == "tile"]
        combined = tuple(lay_then_token(state, lays, res.base_income, options, started, cancel))
    return SuggestReport(
        corporation=corp,
        objective=objective,
        subtract_cost=options.subtract_cost,
        base_income=res.base_income,
        base_proven_optimal=res.base_proven,
        suggestions=tuple(suggestions),
        candidates=res.candidates,
        solved=res.solved,
        reused=res.reused,
        pruned=res.pruned,
        not_evaluated=tuple(m.report(data) for m in res.not_evaluated),
        elapsed_ms=round(res.elapsed_ms, 3),
        verdict="" if improving else _verdict(options, res),
        combined=combined,
    )


def _verdict(options: SuggestOptions, res: SuggestResult) -> str:
    """What to tell a player when no ranked move raises the score (issue 22)."""
    what = "lay or token" if options.include_tokens else "lay"
    if not res.candidates:
        return f"no legal {what} at this turn"
    if res.not_evaluated:
        return (f"no {what} ranked in time improves this run "
                f"({len(res.not_evaluated)} of {res.candidates} were not ranked)")
    cost = " once its cost is paid" if options.subtract_cost else ""
    return f"no {what} improves this run{cost}"


def _left(options: SuggestOptions, started: float, cancel: CancelToken | None) -> float:
    """Time left for the report's own solves: the ranking's limit, or the call's deadline."""
    left = options.time_limit_s - (time.perf_counter() - started)
    call_left = cancel.time_left() if cancel is not None else None
    if call_left is not None:  # the call's deadline: the share kept for this, too
        left = max(left, call_left)
    return max(0.01, left)


def merge_equal(suggestions: list[Suggestion]) -> list[Suggestion]:
    """One entry per result: rotations of the same tile on the same hex with the same
    income and score are one suggestion, the others listed as its ``alternatives``
    (best rank first; the order of the list is kept)."""
    out: list[Suggestion] = []
    index: dict[tuple[Any, ...], int] = {}
    for s in suggestions:
        m = s.move
        key = (m.kind, m.hex, m.tile, m.city, len(m.lays), s.income, s.score)
        if m.kind != "tile" or len(m.lays) != 1 or key not in index:
            index.setdefault(key, len(out))
            out.append(s)
            continue
        first = out[index[key]]
        out[index[key]] = replace(first, alternatives=first.alternatives + (m,))
    return out


#: How many of the best lays ``lay_then_token`` follows with every legal token.
COMBINED_LAYS = 3


def lay_then_token(
    state: RouteState, lays: list[Move], base_income: int, options: SuggestOptions,
    started: float, cancel: CancelToken | None,
) -> list[Suggestion]:
    """The best lay + token pairs: each of the ``COMBINED_LAYS`` best lays (ranked
    order), then each token the company may place on the board it leaves (RULES.md
    §6.5 then §6.6: the lay comes first, the token is paid from what is left),
    solved and ranked like single moves; the ``options.top`` best. A pair's ``cost``
    is the lay's and the token's together; pairs not reached within the ranking's
    time limit are left out."""
    corp = state.corporation.sym
    data = state.data
    ranked: list[tuple[tuple[Any, ...], Suggestion]] = []
    seen: set[str] = set()
    chosen: list[Move] = []
    for lay in lays:  # distinct boards: one rotation of a tile that equals another is enough
        if lay.lays and f"{lay.hex}/{lay.lays[0].tile}" in seen:
            continue
        seen.add(f"{lay.hex}/{lay.lays[0].tile}" if lay.lays else lay.hex)
        chosen.append(lay)
        if len(chosen) == COMBINED_LAYS:
            break
    for lay in chosen:
        after = replace(state, board=applied(state.board, lay, corp))
        price = next_token_price(after.board, corp)
        if price is None:
            continue
        cash = None if state.cash is None else state.cash - lay.cost
        for token in legal_token_placements(after.board, corp, token_price=price, cash=cash):
            if (cancel is not None and cancel.cancelled) or \
                    time.perf_counter() - started >= options.time_limit_s:
                break  # out of time: the pairs ranked so far
            move = Move("token", (), token.hex, token.city, token.price)
            board = applied(after.board, move, corp)
            opt = optimize(replace(after, board=board), objective=options.objective,
                           time_limit_s=_left(options, started, cancel), cancel=cancel)
            income = _income(opt, options.objective)
            cost = lay.cost + token.price
            score = income - (cost if options.subtract_cost else 0)
            report = lay.report(data)
            suggestion = Suggestion(
                replace(report, cost=cost), income, income - base_income, score,
                opt.solution.status == "OPTIMAL", tuple(routes_report(opt)),
                then_token=move.report(data))
            ranked.append(((-score, lay.sort_key, move.sort_key), suggestion))
    ranked.sort(key=lambda item: item[0])
    return [s for _, s in ranked[: options.top]]


def chosen_suggestion(
    state: RouteState, moves: list[MoveReport], *, objective: str = "total",
    time_limit_s: float = 10.0, cancel: CancelToken | None = None,
) -> Suggestion:
    """The suggestion a client picked (issue 22: "each suggestion clickable to draw it"):
    one move of a ranking, or a lay then a token (``combined``), checked legal in turn
    against ``candidate_moves`` (``MalformedInput`` naming ``moves[i]``), solved on the
    board they leave, with its gain over no move."""
    if not 1 <= len(moves) <= 2:
        raise MalformedInput("moves", f"must hold one move, or a lay then a token, not {len(moves)}")
    if len(moves) == 2 and (moves[0].kind, moves[1].kind) != ("tile", "token"):
        raise MalformedInput("moves", "two moves must be a tile lay, then a token")
    corp = state.corporation.sym
    after = state
    picked: list[Move] = []
    for i, wanted in enumerate(moves):
        key = _move_key(wanted)
        found = next((m for m in candidate_moves(after, include_tokens=True)
                      if _move_key(m.report(after.data)) == key), None)
        if found is None:
            raise MalformedInput(f"moves[{i}]", f"is not a legal move for {corp} here: "
                                               f"{wanted.kind} on {wanted.hex}")
        picked.append(found)
        laid = tuple((lay.hex, lay.ability) for lay in found.lays)
        after = replace(after, board=applied(after.board, found, corp),
                        tiles_laid=after.tiles_laid + laid,
                        cash=None if after.cash is None else after.cash - found.cost)
    base = optimize(state, objective=objective, time_limit_s=time_limit_s, cancel=cancel)
    opt = optimize(replace(after, cash=state.cash, tiles_laid=state.tiles_laid),
                   objective=objective, time_limit_s=time_limit_s, cancel=cancel)
    income = _income(opt, objective)
    first = picked[0].report(state.data)
    cost = sum(m.cost for m in picked)
    return Suggestion(replace(first, cost=cost), income, income - _income(base, objective), income,
                      opt.solution.status == "OPTIMAL", tuple(routes_report(opt)),
                      then_token=picked[1].report(state.data) if len(picked) == 2 else None)


def _move_key(move: MoveReport) -> tuple[Any, ...]:
    """What identifies a move: a token's city, or every lay (a lay named only by its
    hex, tile and rotation is that one lay)."""
    lays: tuple[tuple[str, str | None, int | None], ...] = tuple(
        (lay.hex, lay.tile, lay.rotation) for lay in move.lays)
    if move.kind == "tile" and not lays:
        lays = ((move.hex, move.tile, move.rotation),)
    return (move.kind, move.hex, move.city if move.kind == "token" else None, lays)
