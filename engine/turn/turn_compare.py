"""Each operating turn of a log beside the best whole-turn plan (issue 24, "honest comparisons").

For every recorded ``run_routes`` the log is read once (``engine.replay``) and
three incomes are put side by side, all in the same objective:

* **best**: the best whole-turn plan (``engine.turn_rank``: the normal lay,
  the privates' lays, a token, RULES.md §6.3–§6.6, §7) ranked on the board
  *at the start of the company's turn*, proven optimal;
* **player's board**: the proven optimal income on the board the player's own
  lays and token left (the board just before the run — what ``replay`` solves);
* **earned**: the engine's price of the routes the player ran.

So ``left_by_lay_token`` = best − player's board is the income the lay/token
choices left, and ``left_by_routes`` = player's board − earned the income the
route choice left; the two add up to what the turn left in all. The player's
own plan is one of the plans ranked, so ``left_by_lay_token`` is never negative
when both incomes are proven (a test checks it on the shared logs).

What the player did is read from the game itself while it replays (the board
and treasuries before and after each action of the turn): each tile laid (hex,
tile, rotation, terrain cost, the private that laid it), the token placed, and
each train bought (from the depot or another company, price, trade-in). A turn
begins at the first action taken while the company is the operating entity
(privates acting for it included, RULES.md §6.3) and ends when another entity
operates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from msgspec.structs import asdict

from route18xx.engine.declared import Declared
from route18xx.engine.game.actions import Action, BuyTrain, LayTile, PlaceToken, RunRoutes
from route18xx.engine.game.depot import train_name
from route18xx.engine.game.game import Game
from route18xx.engine.game.operating_round import OperatingRound
from route18xx.engine.replay.replay_report import RunOptimum
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.turn.turn_report import PlanLay, PlanReport, PlanToken

if TYPE_CHECKING:
    from route18xx.solver import CancelToken


class BoughtTrain(Declared, frozen=True):
    """A train the company bought in its turn: which, from whom, at what price."""

    train: str
    price: int
    #: "depot" or the selling corporation's symbol.
    seller: str
    #: the train handed in for it (RULES.md §6.9 #4), if any.
    traded_in: str | None = None


class PlayerTurn(PlanReport, frozen=True, kw_only=True):
    """What the player did: the lays and token made before the run (a plan), the lays made
    after it (a private's lay "at any time": they did not move this run), the trains
    bought, what the routes earned, and the optimum on the board the plan left."""

    lays_after_run: tuple[PlanLay, ...]
    trains_bought: tuple[BoughtTrain, ...]
    earned: int
    recorded_legal: bool
    board_income: int | None
    board_proven_optimal: bool


class BestPlan(PlanReport, frozen=True, kw_only=True):
    """The best whole-turn plan at the turn's start, what it earns, and whether it is the
    player's own (same lays and token)."""

    income: int | None
    proven_optimal: bool
    is_players: bool


class TurnComparison(Declared, frozen=True, kw_only=True):
    """One operating turn: what the player did and earned beside the best plan
    (``TurnComparison.of``: what each choice left is derived there)."""

    action_id: int
    turn_start_action_id: int
    round: str
    corporation: str
    trains: tuple[str, ...]
    player: PlayerTurn
    best: BestPlan | None
    #: plans the turn had, and how many the ranking priced (the rest pruned by bounds)
    candidates: int = 0
    plans_solved: int = 0
    #: best plan's income minus the optimum on the player's board
    left_by_lay_token: int | None
    #: optimum on the player's board minus what the player's routes earned
    left_by_routes: int | None
    #: why the best plan or the player's board income is missing (e.g. out of time)
    error: str | None = None

    @classmethod
    def of(
        cls, *, action_id: int, turn_start_action_id: int, round: str, corporation: str,
        trains: tuple[str, ...], player: PlayerTurn, best_plan: PlanReport | None,
        best_income: int | None, best_proven: bool, candidates: int = 0, plans_solved: int = 0,
        error: str | None = None,
    ) -> TurnComparison:
        board = player.board_income
        best = None if best_plan is None else BestPlan(
            **asdict(best_plan), income=best_income, proven_optimal=best_proven,
            is_players=_plan_key(best_plan) == _plan_key(player))
        return cls(
            action_id=action_id, turn_start_action_id=turn_start_action_id, round=round,
            corporation=corporation, trains=trains, player=player, best=best,
            candidates=candidates, plans_solved=plans_solved,
            left_by_lay_token=None if best_income is None or board is None
            else best_income - board,
            left_by_routes=None if board is None else board - player.earned,
            error=error,
        )

    @property
    def best_income(self) -> int | None:
        return None if self.best is None else self.best.income

    @property
    def best_is_players(self) -> bool:
        """The best plan is the player's own (same lays and token)."""
        return self.best is not None and self.best.is_players


class CorporationTurns(Declared, frozen=True):
    """A corporation's compared turns and what they left, by lay/token and by routes."""

    turns: int
    left_by_lay_token: int
    left_by_routes: int


class TurnsReport(Declared, frozen=True, kw_only=True):
    """Every compared turn of a log and the sums of what was left, per corporation too
    (``TurnsReport.of`` the turns: the sums are derived there)."""

    objective: str
    left_by_lay_token: int
    left_by_routes: int
    turns_compared: int
    turns_best_is_players: int
    by_corporation: dict[str, CorporationTurns]
    turns: tuple[TurnComparison, ...]

    @classmethod
    def of(cls, objective: str, turns: tuple[TurnComparison, ...]) -> TurnsReport:
        rows: dict[str, list[int]] = {}
        for t in turns:
            row = rows.setdefault(t.corporation, [0, 0, 0])
            row[0] += 1
            row[1] += t.left_by_lay_token or 0
            row[2] += t.left_by_routes or 0
        return cls(
            objective=objective,
            left_by_lay_token=sum(t.left_by_lay_token or 0 for t in turns),
            left_by_routes=sum(t.left_by_routes or 0 for t in turns),
            turns_compared=len(turns),
            turns_best_is_players=sum(t.best_is_players for t in turns),
            by_corporation={corp: CorporationTurns(*row) for corp, row in sorted(rows.items())},
            turns=turns,
        )


def _plan_key(plan: PlanReport) -> tuple[Any, ...]:
    lays = frozenset((l.hex, l.tile, l.rotation) for l in plan.lays)
    token = None if plan.token is None else (plan.token.hex, plan.token.city)
    return (lays, token)


@dataclass
class _Turn:
    """A turn being read from the replay."""

    corporation: str
    start_id: int
    round: str
    state: dict[str, Any]
    lays: list[PlanLay] = field(default_factory=list)
    token: PlanToken | None = None
    lays_after: list[PlanLay] = field(default_factory=list)
    bought: list[BoughtTrain] = field(default_factory=list)
    ran: bool = False


@dataclass
class _Reader:
    """Hooks on the replay that read each turn's actions from the game's own changes."""

    turns: list[_Turn] = field(default_factory=list)
    by_run: dict[int, _Turn] = field(default_factory=dict)
    current: _Turn | None = None
    round_key: Any = None
    before: tuple[Any, int, dict[str, tuple[str, ...]]] | None = None

    def before_action(self, game: Game, action: Action) -> None:
        from route18xx.engine.replay.replay import state_dict

        rnd = game.round
        if not isinstance(rnd, OperatingRound):
            self.current, self.before = None, None
            return
        entity = rnd.current_entity(game)
        if entity is None or not game.is_corporation(entity):
            self.current, self.before = None, None
            return
        sym = str(entity)
        key = (id(rnd), sym)
        if self.current is None or self.round_key != key:
            if not isinstance(action.id, int):
                self.current = None
                return
            self.current = _Turn(sym, action.id, f"OR {game.turn}.{rnd.number}",
                                 state_dict(game, sym, turn_facts=True))
            self.round_key = key
            self.turns.append(self.current)
        corp = game.corporation(sym)
        trains = {c.sym: tuple(t for t in c.trains) for c in game.corporations.values()}
        self.before = (game.board, corp.cash, trains)

    def after_action(self, game: Game, action: Action) -> None:
        turn, before = self.current, self.before
        if turn is None or before is None:
            return
        board, cash, trains = before
        corp = game.corporation(turn.corporation)
        paid = cash - corp.cash
        if isinstance(action, LayTile) and game.board is not board:
            placed = game.board.placed.get(action.hex)
            if placed is not None:
                private = str(action.entity) if action.entity_type == "company" else None
                lay = PlanLay(action.hex, placed.tile.name, placed.rotation, max(0, paid), private)
                (turn.lays_after if turn.ran else turn.lays).append(lay)
        elif isinstance(action, PlaceToken):
            new = [k for k, syms in game.board.tokens.items()
                   if turn.corporation in syms and turn.corporation not in board.tokens.get(k, ())]
            if new and not turn.ran:
                turn.token = PlanToken(new[0][0], new[0][1], max(0, paid))
        elif isinstance(action, BuyTrain) and str(action.entity) == turn.corporation:
            seller = next((sym for sym, ts in trains.items()
                           if sym != turn.corporation and action.train in ts), "depot")
            turn.bought.append(BoughtTrain(
                train_name(action.train), action.price, seller,
                None if action.exchange is None else train_name(action.exchange)))
        elif isinstance(action, RunRoutes) and action.id is not None:
            turn.ran = True
            self.by_run[action.id] = turn


def compare_turns(
    log: Mapping[str, Any],
    *,
    objective: str = "total",
    time_limit_s: float = 30.0,
    runs: set[int] | None = None,
    cancel: CancelToken | None = None,
    rules_as_of: Any = None,
) -> TurnsReport:
    """Compare every turn of ``log`` that ran trains (or the runs whose ``run_routes``
    ids are in ``runs``) with the best whole-turn plan at the turn's start.

    ``time_limit_s`` bounds each turn's ranking; a turn it cuts short keeps its
    other figures and says so in ``error``. ``MalformedInput`` when the log is
    not a readable 1888 log; a replay that stops compares the turns before it.
    """
    from route18xx.engine.inputs.state_file import RouteState, parse_state
    from route18xx.engine.errors import Route18xxError
    from route18xx.engine.answer.optimize import optimize
    from route18xx.engine.replay.replay import replay, replay_report
    from route18xx.engine.turn.turn_rank import TurnOptions, income_of, rank_turn
    from route18xx.engine.turn.turn_suggest import plan_report

    reader = _Reader()
    player_optima: dict[int, tuple[int, bool]] = {}  # run id -> (income, proven)
    pending: list[int] = []

    def before(game: Game, action: Action) -> None:
        pending.clear()
        if isinstance(action, RunRoutes) and action.id is not None:
            pending.append(action.id)
        reader.before_action(game, action)

    def solve(state: RouteState) -> RunOptimum | None:
        if not pending or (runs is not None and pending[0] not in runs):
            return None
        opt = optimize(state, objective=objective, time_limit_s=time_limit_s, cancel=cancel)
        player_optima[pending[0]] = (income_of(opt, objective), opt.solution.status == "OPTIMAL")
        return None  # the replay's own optimum fields stay empty: this is not its objective's

    result = replay(log, solve=solve, before_action=before, after_action=reader.after_action,
                    cancel=cancel, rules_as_of=rules_as_of)
    out: list[TurnComparison] = []
    for run in replay_report(result).runs:
        if run.action_id is None or (runs is not None and run.action_id not in runs):
            continue
        turn = reader.by_run.get(run.action_id)
        if turn is None:
            continue
        earned = run.engine_revenue + (run.engine_subsidy if objective == "total" else 0)
        mine = player_optima.get(run.action_id)
        best_plan, best_income, best_proven, error = None, None, False, None
        candidates = solved = 0
        try:
            state = turn.state if isinstance(turn.state, RouteState) else parse_state(turn.state)
            ranking = rank_turn(state, TurnOptions(top=1, objective=objective,
                                                   time_limit_s=time_limit_s), cancel)
            candidates, solved = ranking.plans, ranking.plans_solved
            if ranking.ranked:
                top = ranking.ranked[0]
                best_plan, best_income, best_proven = plan_report(top.plan), top.income, top.proven
            if ranking.unranked:
                error = f"{len(ranking.unranked)} plans left unranked by the time limit"
        except Route18xxError as exc:  # e.g. OutOfTime, no trains: reported on the turn
            error = str(exc)
        player = PlayerTurn(
            tuple(turn.lays), turn.token,
            sum(l.cost for l in turn.lays) + (turn.token.price if turn.token else 0),
            lays_after_run=tuple(turn.lays_after), trains_bought=tuple(turn.bought),
            earned=earned, recorded_legal=run.recorded_legal,
            board_income=None if mine is None else mine[0],
            board_proven_optimal=mine is not None and mine[1],
        )
        out.append(TurnComparison.of(
            action_id=run.action_id, turn_start_action_id=turn.start_id, round=turn.round,
            corporation=turn.corporation, trains=run.trains, player=player,
            best_plan=best_plan, best_income=best_income, best_proven=best_proven,
            candidates=candidates, plans_solved=solved, error=error,
        ))
    return TurnsReport.of(objective, tuple(out))


__all__ = ["BestPlan", "BoughtTrain", "CorporationTurns", "PlayerTurn", "TurnComparison",
           "TurnsReport", "compare_turns"]
