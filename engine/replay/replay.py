"""Replaying an 18xx.games 1888 game log (DESIGN.md §2 "Replay", ACTIONS.md).

The log's ``undo``/``redo`` entries are resolved first (ACTIONS.md §2.2); the
kept actions are then processed in order, each followed by its auto-actions;
``program_*`` actions change nothing. At every ``run_routes`` the recorded
routes are judged by the engine (legal? same revenue and subsidy?) and, when
a solver hook is given, compared with the optimum.

Public API:

* ``kept_actions(log)`` — the log after undo/redo.
* ``replay(log, solve=None, after_action=None)`` → ``ReplayResult``.
* ``state_before(log, action_id)`` → the state-file dict (DESIGN.md §5) just
  before an action.
* ``replay_report(result)`` → a ``ReplayReport`` (``engine.replay_report``), whose
  ``to_json()`` is the ``route18xx replay --json`` object.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from route18xx.engine.board.tile_abilities import is_turn_lay
from route18xx.engine.deadline import CancelSignal, check_time
from route18xx.engine.errors import IllegalAction, MalformedInput, Route18xxError, excerpt
from route18xx.engine.game.actions import Action, RunRoutes, parse_action
from route18xx.engine.game.depot import train_name
from route18xx.engine.game.game import Game
from route18xx.engine.game.operating_round import OperatingRound
from route18xx.engine.game.routing import RouteCheck, route_state
from route18xx.engine.inputs.input_file import read_json_file
from route18xx.engine.inputs.log_head import log_options, log_seed, read_log_head
from route18xx.engine.replay.log_players import read_seats
from route18xx.engine.replay.replay_report import ReplayError, RunOptimum, replay_report
from route18xx.engine.replay.run_facts import RunFacts, run_facts
from route18xx.engine.facts.rule_versions import RulesVersion, log_rules_date, rules_as_of as rules_on
from route18xx.engine.facts.rulesets import RuleSet
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.titles import title_named

class UnreplayableAction(Exception):
    """An action of a log raised something other than the engine's own errors: a bug.

    ``replay`` wraps the unexpected exception (kept as ``__cause__``, traceback
    included) with the action's id, or its position among the kept actions
    when it has no integer id, so that a front end can log the bug and tell the
    client which action failed without naming a Python exception (issue 9).
    """

    def __init__(self, action: int) -> None:
        super().__init__(f"action {action} could not be replayed")
        self.action = action


#: A solver hook: a ``RouteState`` in, its optimum out (None: not solved).
SolveHook = Callable[[RouteState], RunOptimum | None]
#: Called after every processed action (auto-actions included) with the game and the action.
ActionHook = Callable[[Game, Action], None]


def load_log(path: str | Path) -> dict[str, Any]:
    """Read a game log file; a file that is not a game log is ``MalformedInput``.

    The file is read by ``engine.input_file.read_input_file`` (a regular file,
    bounded: never a FIFO or a device) and decoded by ``engine.jsontext.decode_json``:
    bytes that are not UTF-8, nesting too deep or a number too long are
    malformed input too.
    """
    raw = read_json_file(path, "game")
    if not isinstance(raw, dict) or not isinstance(raw.get("actions"), list):
        raise MalformedInput("game", f"{path} is not an 18xx.games game log (no 'actions' list)")
    return raw


def rule_set_of(log: Mapping[str, Any]) -> RuleSet:
    """The rule set of the log's title and optional rules, by the title's
    ``rule_set_of_options`` (1888 RULES.md §1; 1830 data/README.md "Rule sets"); options
    that are not a list of names are ``MalformedInput`` naming ``settings`` (issue 34)."""
    title = title_named(log.get("title"))
    return title.rule_set_of_options(log_options(log))


#: How many log entries ``kept_actions`` walks between two polls of the cancel token.
_POLL_EVERY = 4096


def kept_actions(
    log: Mapping[str, Any], *, cancel: CancelSignal | None = None
) -> list[dict[str, Any]]:
    """The actions left after undo/redo, in log order (ACTIONS.md §2.2).

    Linear in the length of the log (issue 9: 16 000 undos took seconds when each
    scanned back over everything already undone). The kept non-message actions
    form a stack of log positions, always in log order: an undo only ever takes
    a suffix of it, so it lowers a ``height`` instead of clearing entries, and a
    redo raises the height back to what it was before the matching undo. Any
    other action makes redo impossible (ACTIONS.md §2.2), so the entries above
    the height are dropped for good before it is pushed. Messages are always kept.

    >>> log = {"actions": [{"type": "pass", "id": 1}, {"type": "pass", "id": 2},
    ...                    {"type": "undo", "id": 3}, {"type": "redo", "id": 4},
    ...                    {"type": "undo", "id": 5, "action_id": 1}]}
    >>> [a["id"] for a in kept_actions(log)]
    [1]
    """
    actions = log["actions"]
    if not isinstance(actions, list):
        raise MalformedInput("actions", "must be a list")
    positions: list[int] = []  # log positions of kept non-message actions, in log order
    height = 0  # positions[:height] are kept; the rest were undone and may be redone
    redo_heights: list[int] = []  # the height before each undo, for its redo
    messages: list[int] = []
    position_of: dict[int, int] = {}  # id → its (last) log position
    for i, action in enumerate(actions):
        if not isinstance(action, Mapping):
            raise MalformedInput(f"actions[{i}]", "must be an object")
        action_id = action.get("id")
        if isinstance(action_id, int) and not isinstance(action_id, bool):
            position_of[action_id] = i
    first_after = _first_position_after(actions)
    for i, action in enumerate(actions):
        if i % _POLL_EVERY == 0:
            check_time(cancel, "resolving the log's undo and redo")
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                start = positions[height - 1] if height else 0
            elif isinstance(target, bool) or not isinstance(target, int):
                raise MalformedInput(
                    f"actions[{i}].action_id", f"must be a whole number, not {excerpt(target)}"
                )
            elif target == 0:
                start = 0
            elif target in position_of:
                start = position_of[target] + 1
            else:  # an id the log no longer has: go back to where it would have been
                start = first_after(target, i)
            redo_heights.append(height)
            height = bisect.bisect_left(positions, start, 0, height)
        elif kind == "redo":
            if redo_heights:
                height = redo_heights.pop()
        elif kind == "message":
            messages.append(i)
        else:
            redo_heights.clear()
            del positions[height:]
            positions.append(i)
            height += 1
    kept = sorted(positions[:height] + messages)  # two sorted runs: a linear merge
    return [actions[i] for i in kept]


def _first_position_after(actions: list[Mapping[str, Any]]) -> Callable[[int, int], int]:
    """``first(target, default)``: the first log position whose id is above ``target``.

    Ids increase along a real log (ACTIONS.md §2.1), but a damaged one may not:
    a suffix minimum over the (id, position) pairs sorted by id answers either
    way in O(log n) per undo.
    """
    pairs = sorted(
        (a["id"], i)
        for i, a in enumerate(actions)
        if isinstance(a.get("id"), int) and not isinstance(a.get("id"), bool)
    )
    ids = [action_id for action_id, _ in pairs]
    suffix_min = [0] * len(pairs)
    best = len(actions)
    for k in range(len(pairs) - 1, -1, -1):
        best = min(best, pairs[k][1])
        suffix_min[k] = best

    def first(target: int, default: int) -> int:
        k = bisect.bisect_right(ids, target)
        return suffix_min[k] if k < len(ids) else default

    return first


def new_game(log: Mapping[str, Any], **options: Any) -> Game:
    """A fresh game seated as the log's ``players`` array (ACTIONS.md §6).

    Players may come with ids or, in very old logs, by name only
    (``engine.log_players``, HISTORY.md §1.3).
    """
    return Game(rule_set_of(log), list(read_seats(log).seats), title=title_named(log.get("title")),
                seed=log_seed(log), **options)


@dataclass(frozen=True)
class RunRecord:
    """One run_routes action: recorded vs engine figures, and the optimum if solved.

    ``engine.replay_report.RunReport.of`` turns it into its report.
    """

    check: RouteCheck
    optimum: RunOptimum | None = None
    #: the operating round and the president when the run was made (``engine.run_facts``).
    facts: RunFacts = RunFacts()


@dataclass
class ReplayResult:
    title: str
    rule_set: str
    game: Game
    recorded_result: dict[str, int]
    #: what went wrong, structured (``str()`` of each is its line in ``errors``).
    problems: list[ReplayError] = field(default_factory=list)
    runs: list[RunRecord] = field(default_factory=list)
    actions_processed: int = 0
    seconds: float = 0.0
    #: the id of the action the replay could not process, if any.
    stopped_at: int | None = None
    #: why it stopped: the ``MalformedInput`` (its field inside the log, e.g.
    #: ``actions[12].rotation``) or ``IllegalAction`` of that action.
    failure: MalformedInput | IllegalAction | None = None
    #: player id → the key reports use for the player: the logged id as text, or
    #: the name when the log gives none (``engine.log_players``).
    player_keys: Mapping[int, str] = field(default_factory=dict)
    #: the date whose rules the replay used (``rules_as_of``, else the log's, else today).
    rules_as_of: date | None = None

    @property
    def rules(self) -> RulesVersion:
        """The rule version the game was replayed under (HISTORY.md §2)."""
        return self.game.rules

    @property
    def completed(self) -> bool:
        """Every kept action was processed (route disagreements are only reported)."""
        return self.stopped_at is None and not any(e.ends_replay_early for e in self.problems)

    @property
    def errors(self) -> list[str]:
        """The problems as the lines ``route18xx replay`` prints (its ``errors`` list)."""
        return [str(e) for e in self.problems]

    @property
    def final_scores(self) -> dict[str, int]:
        keys = self.player_keys
        return {keys.get(pid, str(pid)): score for pid, score in self.game.scores().items()}

    @property
    def scores_match(self) -> bool:
        return bool(self.recorded_result) and self.final_scores == self.recorded_result


def replay(
    log: Mapping[str, Any],
    *,
    solve: SolveHook | None = None,
    after_action: ActionHook | None = None,
    before_action: ActionHook | None = None,
    stop_before: int | None = None,
    safe: bool = False,
    cancel: CancelSignal | None = None,
    rules_as_of: Any = None,
) -> ReplayResult:
    """Replay a whole log (or up to ``stop_before``, an action id) and report.

    Errors (an action the engine finds illegal, a route the engine prices
    differently) are collected in ``errors``; an illegal action stops the replay.
    ``cancel`` (a ``solver.cancel.CancelToken`` or anything with ``cancelled``
    and ``expired``) is polled once per kept action: ``OutOfTime`` once it reads
    as cancelled (issue 9: every call bounded by its deadline). The game is played
    under the rules in force on ``rules_as_of`` ("YYYY-MM-DD"; default: the log's
    own date, DESIGN.md §9, ``engine.rule_versions``).
    """
    started = time.perf_counter()
    head = read_log_head(log)  # settings, result, status, created_at: by type (issue 34)
    seats = read_seats(log)
    day = log_rules_date(log, rules_as_of)
    rule_set = rule_set_of(log)
    title = title_named(log.get("title"))
    game = Game(rule_set, list(seats.seats), trust_recorded_routes=True, safe=safe,
                rules=None if title.undated_rules else rules_on(day, title.name), title=title,
                seed=log_seed(log))
    result = ReplayResult(
        title=title.name,
        rule_set=rule_set.name,
        game=game,
        recorded_result=seats.recorded_result(head.result),
        player_keys=seats.keys,
        rules_as_of=day,
    )
    if after_action is not None:
        game.after_each.append(after_action)
    entries = kept_actions(log, cancel=cancel)
    index_of = {id(a): i for i, a in enumerate(log["actions"])}  # for field names
    for position, raw in enumerate(entries):
        check_time(cancel, "replaying the game log")
        action_id = raw.get("id")
        if stop_before is not None and action_id == stop_before:
            break
        label = action_id if isinstance(action_id, int) and not isinstance(action_id, bool) else position
        try:
            action = parse_action(seats.todays_action(raw), f"actions[{index_of.get(id(raw), position)}]")
        except MalformedInput as exc:
            result.problems.append(ReplayError("malformed", str(exc), label))
            result.stopped_at = action_id if isinstance(action_id, int) else -1
            result.failure = exc
            break
        except Exception as exc:
            raise UnreplayableAction(label) from exc
        try:
            if before_action is not None:
                before_action(game, action)
            pending_state = None
            facts = run_facts(game, action) if isinstance(action, RunRoutes) else RunFacts()
            if isinstance(action, RunRoutes) and solve is not None:
                pending_state = _route_state_for(game, action)
            check = game.process(action)
        except (IllegalAction, MalformedInput) as exc:
            code = exc.code if isinstance(exc, IllegalAction) else "malformed"
            result.problems.append(
                ReplayError("refused", str(exc), label, code, excerpt(raw.get("type"))))
            result.stopped_at = action_id if isinstance(action_id, int) else -1
            if isinstance(exc, MalformedInput):  # a name the game does not know, e.g. "entity"
                where = f"actions[{index_of.get(id(raw), position)}]"
                exc = MalformedInput(f"{where}.{exc.field}", exc.reason)
            result.failure = exc
            break
        except Route18xxError:
            raise  # OutOfTime, EngineMismatch: not the log's fault, not a crash
        except Exception as exc:
            raise UnreplayableAction(label) from exc
        result.actions_processed += 1
        if isinstance(action, RunRoutes) and check is not None:
            for problem in check.problems:
                result.problems.append(ReplayError(
                    "route", problem, action.id, context=f"run_routes {check.corporation}"))
            optimum = solve(pending_state) if (solve is not None and pending_state is not None) else None
            result.runs.append(RunRecord(check, optimum, facts))
        if game.finished and position < len(entries) - 1 and stop_before is None:
            rest = [e for e in entries[position + 1 :] if e.get("type") not in ("message",)]
            if any(not str(e.get("type", "")).startswith("program_") for e in rest):
                result.problems.append(ReplayError("log_goes_on", "the log goes on", action.id))
            break
    if stop_before is None and not result.problems and not game.finished and head.finished:
        result.problems.append(ReplayError("ends_early", "the log ends before the game does"))
    result.seconds = time.perf_counter() - started
    return result


def _route_state_for(game: Game, action: RunRoutes) -> RouteState | None:
    rnd = game.round
    if not isinstance(rnd, OperatingRound) or not game.is_corporation(action.entity):
        return None
    corp = game.corporation(action.entity)
    runnable = [t for t in corp.trains if t not in rnd.ran]
    return route_state(game, corp, runnable)


def state_dict(
    game: Game, corporation: str, *, turn_facts: bool = False, train_ids: bool = False,
) -> dict[str, Any]:
    """The state file (DESIGN.md §5) of ``game`` for ``corporation`` running its trains now.

    With ``turn_facts`` it also holds the optional facts of the company's turn
    that move suggestions read (``turn_facts_of``): ``cash``, ``privates``, the
    player-owned blockers and ``tiles_laid``.
    """
    corp = game.corporation(corporation)
    rnd = game.round
    ran = rnd.ran if isinstance(rnd, OperatingRound) else set()
    board = game.board
    tiles = [
        {"hex": hex_id, "tile": placed.tile.name, "rotation": placed.rotation}
        for hex_id, placed in board.placed.items()
    ]
    tokens = [
        {"hex": hex_id, "city": city, "corporation": sym}
        for (hex_id, city), syms in board.tokens.items()
        for sym in syms
    ]
    out: dict[str, Any] = {
        "title": game.title.name,
        "rule_set": game.rule_set.name,
        "phase": game.phase.name,
        "corporation": corp.sym,
        "trains": [train_name(t) for t in corp.trains if t not in ran],
        "tiles": tiles,
        "tokens": tokens,
    }
    if train_ids:  # the game's own ids ("3-3"), so that answers name trains as the log does
        out["train_ids"] = [t for t in corp.trains if t not in ran]
    if turn_facts:
        out.update(turn_facts_of(game, corporation))
    return out


def turn_facts_of(game: Game, corporation: str) -> dict[str, Any]:
    """The facts of ``corporation``'s turn that the game knows (DESIGN.md §5 optional fields).

    * ``cash``: its treasury now (terrain and private purchases already paid).
    * ``privates``: the open privates it owns (RULES.md §7), except those whose
      tile lay is spent (a state file has no "uses left": listing one would
      offer its lay again); a private with no tile lay (Kaiping Tramway) is listed.
    * which open privates that block hexes players own (RULES.md §7.3), as the title's
      state file says it (``Title.blockers_fact``: 1888's ``heng_shan_player_owned``,
      else ``player_owned_blockers``).
    * ``tiles_laid``: the lays it made earlier in the current operating turn
      (``[{"hex"}, {"hex", "private"}]``); empty when it is not operating now. A lay a
      player made with his own private in that turn (1889's Mitsubishi Ferry; Ehime's
      seller at its sale) is not the corporation's (``tile_abilities.is_turn_lay``).
    """
    corp = game.corporation(corporation)
    privates = sorted(
        c.sym
        for c in game.companies_of(corp.sym)
        if c.ability("tile_lay") is None or c.tile_lay is not None
    )
    owned = sorted(
        c.sym for c in game.companies.values()
        if c.ability("blocks_hexes") is not None and c.owned_by_player()
    )
    rnd = game.round
    operating = isinstance(rnd, OperatingRound) and rnd.current_entity(game) == corp.sym
    laid = [(h, p) for h, p in (rnd.laid if isinstance(rnd, OperatingRound) and operating else [])
            if p is None or _corporations_lay(game, p)]
    return {
        "cash": corp.cash,
        "privates": privates,
        **game.title.blockers_fact(owned, game.data.hex_blockers(game.rule_set.name)),
        "tiles_laid": [{"hex": h, **({"private": p} if p else {})} for h, p in laid],
    }


def _corporations_lay(game: Game, private: str) -> bool:
    """Whether ``private``'s lay is one its owning corporation makes in its turn."""
    company = game.company(private)
    ability = company.ability("tile_lay") or company.ability("teleport")
    return ability is None or is_turn_lay(ability, company.sym)


def state_before(
    log: Mapping[str, Any],
    action_id: int,
    *,
    turn_facts: bool = False,
    cancel: CancelSignal | None = None,
    rules_as_of: Any = None,
    train_ids: bool = False,
) -> dict[str, Any]:
    """The board state just before action ``action_id``, as a state-file dict (DESIGN.md §5).

    The company is the action's entity when it is a corporation, else the
    corporation operating at that moment (a private's lay is made for its
    owner, the operating one). Raises ``MalformedInput`` when the action is not
    in the log (or was undone) or no corporation is operating. ``turn_facts``
    adds the optional turn fields (``turn_facts_of``) for move suggestions,
    ``train_ids`` the game's own ids of the trains ("3-3"; ``state_dict``).
    ``cancel`` bounds the replay (``replay``): ``OutOfTime`` past its deadline.
    """
    return states_before(
        log, [action_id], turn_facts=turn_facts, cancel=cancel, rules_as_of=rules_as_of,
        train_ids=train_ids)[action_id]


def states_before(
    log: Mapping[str, Any],
    action_ids: Iterable[int],
    *,
    turn_facts: bool = False,
    cancel: CancelSignal | None = None,
    rules_as_of: Any = None,
    train_ids: bool = False,
) -> dict[int, dict[str, Any]]:
    """``state_before`` for several actions of one log, in a single replay; each state
    carries ``rules_as_of``, the date whose rules the log was replayed under."""
    wanted = set(action_ids)
    entries = kept_actions(log, cancel=cancel)
    kept_ids = {e.get("id") for e in entries if isinstance(e.get("id"), int)}
    for action_id in sorted(wanted):
        if action_id not in kept_ids:
            if any(isinstance(a, Mapping) and a.get("id") == action_id for a in log["actions"]):
                raise MalformedInput("action_id", f"action {action_id} was undone in this log")
            raise MalformedInput("action_id", f"the log has no action {action_id}")
    found: dict[int, dict[str, Any]] = {}
    problems: dict[int, str] = {}

    def capture(game: Game, action: Action) -> None:
        if action.id not in wanted:
            return
        entity = action.entity
        if game.is_corporation(entity):
            found[action.id] = state_dict(game, str(entity), turn_facts=turn_facts,
                                         train_ids=train_ids)
        elif isinstance(game.round, OperatingRound) and game.round.current_entity(game) is not None:
            corp = str(game.round.current_entity(game))
            found[action.id] = state_dict(game, corp, turn_facts=turn_facts, train_ids=train_ids)
        else:
            problems[action.id] = f"action {action.id} is not taken while a corporation operates"

    last = max(wanted) if wanted else None
    stop = next(
        (
            e.get("id")
            for e in entries
            if isinstance(e.get("id"), int) and last is not None and e["id"] > last
        ),
        None,
    )
    result = replay(log, before_action=capture, stop_before=stop, cancel=cancel,
                    rules_as_of=rules_as_of)
    if result.rules_as_of is not None:
        for state in found.values():
            state["rules_as_of"] = result.rules_as_of.isoformat()
    for action_id in sorted(wanted):
        if action_id in problems:
            raise MalformedInput("action_id", problems[action_id])
        if action_id not in found:
            if isinstance(result.failure, MalformedInput):
                raise result.failure
            reason = result.errors[0] if result.errors else "it was not reached"
            raise MalformedInput("game", f"the log cannot be replayed up to action {action_id}: {reason}")
    return found


__all__ = [
    "ReplayError",
    "ReplayResult",
    "UnreplayableAction",
    "RunRecord",
    "kept_actions",
    "load_log",
    "new_game",
    "replay",
    "replay_report",
    "rule_set_of",
    "state_before",
    "state_dict",
    "states_before",
    "turn_facts_of",
]
