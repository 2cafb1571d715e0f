"""The engine's public API: the one module the front ends import (DESIGN.md §1, §5).

Front ends (``server/``: the command line, the gRPC server) call these and
nothing deeper: they take a decoded state file and return the objects
``route18xx check`` and ``route18xx solve`` print with ``--json``. The error
classes, the cancel protocol and the JSON / log readers the front ends need are
re-exported here; a test (tests/test_boundaries.py) keeps ``server/`` from
importing any other engine module.

The calls live in ``engine.door``, one module per kind (DESIGN.md §1): ``solve``,
``check``, ``boards`` (a state read, the board as data), ``suggest``, ``logs`` (the
board before an action of a game log), ``replays`` (whole logs, the audit),
``title_facts`` and ``warm`` (what a server runs before it is ready).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from route18xx.engine.deadline import CancelSignal
from route18xx.engine.errors import (
    EngineMismatch,
    IllegalAction,
    MalformedInput,
    OutOfTime,
    Route18xxError,
    RouteLevelOnly,
    excerpt,
)
from route18xx.engine.inputs.input_file import MAX_FILE_BYTES, file_kind, read_input_file, read_json_file
from route18xx.engine.inputs.jsontext import decode_json
from route18xx.engine.facts.money import money, signed_money
from route18xx.engine.answer.budget import SolveTiming
from route18xx.engine.answer.reports import (
    STATS_KEYS, AnswerBreakdown, AnswerStats, BonusValue, BriefOptimum, CheckReport, Comparison,
    Distance, ObjectiveChoice, PinnedExplanation, RouteBreakdown, RouteCheckReport, RouteReport,
    SolveReport, StopValue, SubsidyValue, TrainComparison, Violation,
)
from route18xx.engine.declared import Declared
from route18xx.engine.routes.route_judge import VIOLATION_CODES
from route18xx.engine.board.names import place_name
from route18xx.engine.facts.rule_versions import dated_state, parse_rules_as_of
from route18xx.engine.inputs.state_file import RouteState
from route18xx.engine.door.boards import board_view, company_trains, read_state, route_walks, stop_names
from route18xx.engine.door.check import check_hex_paths, check_report, check_routes, read_hex_paths
from route18xx.engine.door.logs import (
    is_run_routes, parse_game_log, recorded_routes, state_from_log,
)
from route18xx.engine.door.replays import audit_log, compare_turns, random_game_log, replay_game
from route18xx.engine.door.solve import DEFAULT_OBJECTIVE, new_cancel_token, solve_report, solve_routes
from route18xx.engine.door.suggest import chosen_suggestion, recorded_turn, suggest_moves, suggest_turn
from route18xx.engine.door.title_facts import (
    blockers_aliases, currency_formats, served_title, subsidy_titles, titles_replayed,
    titles_served,
)
from route18xx.engine.door.warm import warm_up, warm_up_states
from route18xx.solver import (  # plain Python: OR-Tools loads at a solve
    OBJECTIVES, CancelToken, Objective, solve_tally,
)

if TYPE_CHECKING:  # at run time these load on first use (``__getattr__`` below)
    from route18xx.engine.views.board_view import (
        BoardView, CorporationView, HexView, NodeView, PathView, RouteWalk, state_with_move,
        tile_view,
    )
    from route18xx.engine.replay.replay import (
        load_log, replay, replay_report, state_before,
    )
    from route18xx.engine.replay.optima import run_optimum
    from route18xx.engine.replay.replay_audit import AuditOptimum, AuditReport, AuditRun
    from route18xx.engine.replay.replay_report import (
        OBJECTIVE_WORDS, ReplayReport, RunOptimum, RunReport,
    )
    from route18xx.engine.suggest.suggest_report import (
        MoveLayReport, MoveReport, RecordedTurn, SuggestReport, Suggestion,
    )
    from route18xx.engine.turn.turn_report import (
        PlanLay, PlanReport, PlanToken, RankedPlanReport, TrainAdvice, TrainsAdvice, TurnReport,
    )
    from route18xx.engine.turn.turn_compare import TurnComparison, TurnsReport
    from route18xx.engine.routes.hex_path import HexPathReading

#: Names of the API whose modules load on first use: a solve or a check never pays for
#: the game replay or the board's drawing data (issue 11, the cold path).
_LAZY: dict[str, str] = {
    **dict.fromkeys(("BoardView", "CorporationView", "HexView", "NodeView", "PathView",
                     "RouteWalk", "state_with_move", "tile_view"), "route18xx.engine.views.board_view"),
    **dict.fromkeys(("load_log", "replay", "replay_report", "state_before"), "route18xx.engine.replay.replay"),
    **dict.fromkeys(("run_optimum",), "route18xx.engine.replay.optima"),
    **dict.fromkeys(("AuditOptimum", "AuditReport", "AuditRun"),
                    "route18xx.engine.replay.replay_audit"),
    **dict.fromkeys(("OBJECTIVE_WORDS", "ReplayReport", "RunOptimum", "RunReport"),
                    "route18xx.engine.replay.replay_report"),
    **dict.fromkeys(("MoveLayReport", "MoveReport", "RecordedTurn", "SuggestReport", "Suggestion"),
                    "route18xx.engine.suggest.suggest_report"),
    **dict.fromkeys(("PlanLay", "PlanReport", "PlanToken", "RankedPlanReport", "TrainAdvice",
                     "TrainsAdvice", "TurnReport"), "route18xx.engine.turn.turn_report"),
    **dict.fromkeys(("HexPathReading",), "route18xx.engine.routes.hex_path"),
    **dict.fromkeys(("TurnComparison", "TurnsReport"),
                    "route18xx.engine.turn.turn_compare"),
}


def __getattr__(name: str) -> Any:
    """Load a lazily imported name of the API (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "VIOLATION_CODES", "AnswerBreakdown", "BonusValue", "CheckReport", "RouteBreakdown",
    "RouteCheckReport", "RouteReport", "SolveReport", "StopValue", "SubsidyValue", "Violation",
    "STATS_KEYS", "AnswerStats", "BriefOptimum", "Comparison", "Declared", "Distance",
    "ObjectiveChoice", "PinnedExplanation", "SolveTiming", "TrainComparison", "TrainsAdvice",
    "check_report", "solve_report", "dated_state", "parse_rules_as_of", "DEFAULT_OBJECTIVE",
    "AuditOptimum", "AuditReport", "AuditRun", "MoveLayReport", "MoveReport", "RecordedTurn",
    "OBJECTIVE_WORDS", "ReplayReport", "RunOptimum", "RunReport", "SuggestReport", "Suggestion",
    "run_optimum", "solve_tally", "OBJECTIVES", "BoardView", "CancelSignal", "CancelToken",
    "CorporationView", "HexView", "IllegalAction", "MalformedInput", "NodeView", "Objective",
    "OutOfTime", "PathView", "Route18xxError", "RouteLevelOnly", "RouteState", "RouteWalk", "audit_log",
    "board_view", "check_routes", "decode_json", "excerpt", "load_log", "MAX_FILE_BYTES",
    "file_kind", "read_input_file", "read_json_file", "new_cancel_token", "parse_game_log",
    "random_game_log", "read_state", "chosen_suggestion", "is_run_routes", "recorded_routes",
    "recorded_turn", "replay", "replay_game", "replay_report", "route_walks", "solve_routes",
    "state_before", "state_from_log", "state_with_move", "suggest_moves", "tile_view",
    "PlanLay", "PlanReport", "PlanToken", "RankedPlanReport", "TrainAdvice", "TurnReport",
    "suggest_turn", "TurnComparison", "TurnsReport", "compare_turns", "money", "signed_money",
    "currency_formats", "subsidy_titles", "served_title", "titles_served", "titles_replayed", "blockers_aliases",
    "place_name", "stop_names", "company_trains", "read_hex_paths", "check_hex_paths", "HexPathReading", "warm_up_states",
    "warm_up", "EngineMismatch",
]
