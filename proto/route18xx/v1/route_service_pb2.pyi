from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Objective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OBJECTIVE_UNSPECIFIED: _ClassVar[Objective]
    OBJECTIVE_TOTAL: _ClassVar[Objective]
    OBJECTIVE_REVENUE: _ClassVar[Objective]

class SolveStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SOLVE_STATUS_UNSPECIFIED: _ClassVar[SolveStatus]
    SOLVE_STATUS_OPTIMAL: _ClassVar[SolveStatus]
    SOLVE_STATUS_FEASIBLE: _ClassVar[SolveStatus]
    SOLVE_STATUS_UNKNOWN: _ClassVar[SolveStatus]

class ViolationCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VIOLATION_CODE_UNSPECIFIED: _ClassVar[ViolationCode]
    VIOLATION_CODE_TRAIN_RUNS_TWICE: _ClassVar[ViolationCode]
    VIOLATION_CODE_TRAIN_NOT_OWNED: _ClassVar[ViolationCode]
    VIOLATION_CODE_TRAIN_OVERUSED: _ClassVar[ViolationCode]
    VIOLATION_CODE_NO_TRACK: _ClassVar[ViolationCode]
    VIOLATION_CODE_CONNECTIONS_DISJOINT: _ClassVar[ViolationCode]
    VIOLATION_CODE_NODES_MISMATCH: _ClassVar[ViolationCode]
    VIOLATION_CODE_TOO_FEW_STOPS: _ClassVar[ViolationCode]
    VIOLATION_CODE_NO_STATION: _ClassVar[ViolationCode]
    VIOLATION_CODE_GROUP_TWICE: _ClassVar[ViolationCode]
    VIOLATION_CODE_TERMINAL_PASSED: _ClassVar[ViolationCode]
    VIOLATION_CODE_STOP_TWICE: _ClassVar[ViolationCode]
    VIOLATION_CODE_TOO_LONG: _ClassVar[ViolationCode]
    VIOLATION_CODE_SIDE_USED_TWICE: _ClassVar[ViolationCode]
    VIOLATION_CODE_SIDE_REUSED: _ClassVar[ViolationCode]
    VIOLATION_CODE_OFFBOARD_PASSED: _ClassVar[ViolationCode]
    VIOLATION_CODE_BLOCKED_CITY_PASSED: _ClassVar[ViolationCode]

class MoveKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_KIND_UNSPECIFIED: _ClassVar[MoveKind]
    MOVE_KIND_TILE: _ClassVar[MoveKind]
    MOVE_KIND_TOKEN: _ClassVar[MoveKind]

class RoutesMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROUTES_MODE_UNSPECIFIED: _ClassVar[RoutesMode]
    ROUTES_MODE_OPTIMAL: _ClassVar[RoutesMode]
    ROUTES_MODE_RECORDED: _ClassVar[RoutesMode]
    ROUTES_MODE_BOTH: _ClassVar[RoutesMode]
    ROUTES_MODE_NONE: _ClassVar[RoutesMode]
OBJECTIVE_UNSPECIFIED: Objective
OBJECTIVE_TOTAL: Objective
OBJECTIVE_REVENUE: Objective
SOLVE_STATUS_UNSPECIFIED: SolveStatus
SOLVE_STATUS_OPTIMAL: SolveStatus
SOLVE_STATUS_FEASIBLE: SolveStatus
SOLVE_STATUS_UNKNOWN: SolveStatus
VIOLATION_CODE_UNSPECIFIED: ViolationCode
VIOLATION_CODE_TRAIN_RUNS_TWICE: ViolationCode
VIOLATION_CODE_TRAIN_NOT_OWNED: ViolationCode
VIOLATION_CODE_TRAIN_OVERUSED: ViolationCode
VIOLATION_CODE_NO_TRACK: ViolationCode
VIOLATION_CODE_CONNECTIONS_DISJOINT: ViolationCode
VIOLATION_CODE_NODES_MISMATCH: ViolationCode
VIOLATION_CODE_TOO_FEW_STOPS: ViolationCode
VIOLATION_CODE_NO_STATION: ViolationCode
VIOLATION_CODE_GROUP_TWICE: ViolationCode
VIOLATION_CODE_TERMINAL_PASSED: ViolationCode
VIOLATION_CODE_STOP_TWICE: ViolationCode
VIOLATION_CODE_TOO_LONG: ViolationCode
VIOLATION_CODE_SIDE_USED_TWICE: ViolationCode
VIOLATION_CODE_SIDE_REUSED: ViolationCode
VIOLATION_CODE_OFFBOARD_PASSED: ViolationCode
VIOLATION_CODE_BLOCKED_CITY_PASSED: ViolationCode
MOVE_KIND_UNSPECIFIED: MoveKind
MOVE_KIND_TILE: MoveKind
MOVE_KIND_TOKEN: MoveKind
ROUTES_MODE_UNSPECIFIED: RoutesMode
ROUTES_MODE_OPTIMAL: RoutesMode
ROUTES_MODE_RECORDED: RoutesMode
ROUTES_MODE_BOTH: RoutesMode
ROUTES_MODE_NONE: RoutesMode

class TilePlacement(_message.Message):
    __slots__ = ("hex", "tile", "rotation")
    HEX_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    hex: str
    tile: str
    rotation: int
    def __init__(self, hex: _Optional[str] = ..., tile: _Optional[str] = ..., rotation: _Optional[int] = ...) -> None: ...

class Token(_message.Message):
    __slots__ = ("hex", "city", "corporation")
    HEX_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    hex: str
    city: int
    corporation: str
    def __init__(self, hex: _Optional[str] = ..., city: _Optional[int] = ..., corporation: _Optional[str] = ...) -> None: ...

class TileLaid(_message.Message):
    __slots__ = ("hex", "private")
    HEX_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    hex: str
    private: str
    def __init__(self, hex: _Optional[str] = ..., private: _Optional[str] = ...) -> None: ...

class Assignment(_message.Message):
    __slots__ = ("assignment", "hex", "corporation")
    ASSIGNMENT_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    assignment: str
    hex: str
    corporation: str
    def __init__(self, assignment: _Optional[str] = ..., hex: _Optional[str] = ..., corporation: _Optional[str] = ...) -> None: ...

class HexBonus(_message.Message):
    __slots__ = ("hexes", "value")
    HEXES_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    hexes: _containers.RepeatedScalarFieldContainer[str]
    value: int
    def __init__(self, hexes: _Optional[_Iterable[str]] = ..., value: _Optional[int] = ...) -> None: ...

class State(_message.Message):
    __slots__ = ("title", "rule_set", "phase", "corporation", "trains", "tiles", "tokens", "cash", "privates", "heng_shan_player_owned", "tiles_laid", "rules_as_of", "player_owned_blockers", "assignments", "hex_bonuses", "optional_rules", "players", "corporation_type", "reservations", "train_ids")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    CASH_FIELD_NUMBER: _ClassVar[int]
    PRIVATES_FIELD_NUMBER: _ClassVar[int]
    HENG_SHAN_PLAYER_OWNED_FIELD_NUMBER: _ClassVar[int]
    TILES_LAID_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    PLAYER_OWNED_BLOCKERS_FIELD_NUMBER: _ClassVar[int]
    ASSIGNMENTS_FIELD_NUMBER: _ClassVar[int]
    HEX_BONUSES_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_RULES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    RESERVATIONS_FIELD_NUMBER: _ClassVar[int]
    TRAIN_IDS_FIELD_NUMBER: _ClassVar[int]
    title: str
    rule_set: str
    phase: str
    corporation: str
    trains: _containers.RepeatedScalarFieldContainer[str]
    tiles: _containers.RepeatedCompositeFieldContainer[TilePlacement]
    tokens: _containers.RepeatedCompositeFieldContainer[Token]
    cash: int
    privates: _containers.RepeatedScalarFieldContainer[str]
    heng_shan_player_owned: bool
    tiles_laid: _containers.RepeatedCompositeFieldContainer[TileLaid]
    rules_as_of: str
    player_owned_blockers: _containers.RepeatedScalarFieldContainer[str]
    assignments: _containers.RepeatedCompositeFieldContainer[Assignment]
    hex_bonuses: _containers.RepeatedCompositeFieldContainer[HexBonus]
    optional_rules: _containers.RepeatedScalarFieldContainer[str]
    players: int
    corporation_type: str
    reservations: _containers.RepeatedCompositeFieldContainer[Reservation]
    train_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, title: _Optional[str] = ..., rule_set: _Optional[str] = ..., phase: _Optional[str] = ..., corporation: _Optional[str] = ..., trains: _Optional[_Iterable[str]] = ..., tiles: _Optional[_Iterable[_Union[TilePlacement, _Mapping]]] = ..., tokens: _Optional[_Iterable[_Union[Token, _Mapping]]] = ..., cash: _Optional[int] = ..., privates: _Optional[_Iterable[str]] = ..., heng_shan_player_owned: _Optional[bool] = ..., tiles_laid: _Optional[_Iterable[_Union[TileLaid, _Mapping]]] = ..., rules_as_of: _Optional[str] = ..., player_owned_blockers: _Optional[_Iterable[str]] = ..., assignments: _Optional[_Iterable[_Union[Assignment, _Mapping]]] = ..., hex_bonuses: _Optional[_Iterable[_Union[HexBonus, _Mapping]]] = ..., optional_rules: _Optional[_Iterable[str]] = ..., players: _Optional[int] = ..., corporation_type: _Optional[str] = ..., reservations: _Optional[_Iterable[_Union[Reservation, _Mapping]]] = ..., train_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class Reservation(_message.Message):
    __slots__ = ("hex", "city", "corporation")
    HEX_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    hex: str
    city: int
    corporation: str
    def __init__(self, hex: _Optional[str] = ..., city: _Optional[int] = ..., corporation: _Optional[str] = ...) -> None: ...

class Connection(_message.Message):
    __slots__ = ("hexes",)
    HEXES_FIELD_NUMBER: _ClassVar[int]
    hexes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hexes: _Optional[_Iterable[str]] = ...) -> None: ...

class Route(_message.Message):
    __slots__ = ("train", "connections", "hexes", "nodes", "revenue", "subsidy", "revenue_str", "breakdown")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    REVENUE_STR_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    train: str
    connections: _containers.RepeatedCompositeFieldContainer[Connection]
    hexes: _containers.RepeatedScalarFieldContainer[str]
    nodes: _containers.RepeatedScalarFieldContainer[str]
    revenue: int
    subsidy: int
    revenue_str: str
    breakdown: RouteBreakdown
    def __init__(self, train: _Optional[str] = ..., connections: _Optional[_Iterable[_Union[Connection, _Mapping]]] = ..., hexes: _Optional[_Iterable[str]] = ..., nodes: _Optional[_Iterable[str]] = ..., revenue: _Optional[int] = ..., subsidy: _Optional[int] = ..., revenue_str: _Optional[str] = ..., breakdown: _Optional[_Union[RouteBreakdown, _Mapping]] = ...) -> None: ...

class StopValue(_message.Message):
    __slots__ = ("node", "hex", "kind", "value", "rule", "name")
    NODE_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    node: str
    hex: str
    kind: str
    value: int
    rule: str
    name: str
    def __init__(self, node: _Optional[str] = ..., hex: _Optional[str] = ..., kind: _Optional[str] = ..., value: _Optional[int] = ..., rule: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class DestinationBonus(_message.Message):
    __slots__ = ("value", "home", "destination", "rule")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    HOME_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    value: int
    home: str
    destination: str
    rule: str
    def __init__(self, value: _Optional[int] = ..., home: _Optional[str] = ..., destination: _Optional[str] = ..., rule: _Optional[str] = ...) -> None: ...

class MineSubsidy(_message.Message):
    __slots__ = ("value", "node", "rule")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    value: int
    node: str
    rule: str
    def __init__(self, value: _Optional[int] = ..., node: _Optional[str] = ..., rule: _Optional[str] = ...) -> None: ...

class RouteBreakdown(_message.Message):
    __slots__ = ("stops", "stops_value", "destination_bonus", "mine_subsidy", "distance_used", "distance_limit", "revenue", "subsidy", "counted")
    STOPS_FIELD_NUMBER: _ClassVar[int]
    STOPS_VALUE_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_BONUS_FIELD_NUMBER: _ClassVar[int]
    MINE_SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_USED_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    COUNTED_FIELD_NUMBER: _ClassVar[int]
    stops: _containers.RepeatedCompositeFieldContainer[StopValue]
    stops_value: int
    destination_bonus: DestinationBonus
    mine_subsidy: MineSubsidy
    distance_used: int
    distance_limit: int
    revenue: int
    subsidy: int
    counted: bool
    def __init__(self, stops: _Optional[_Iterable[_Union[StopValue, _Mapping]]] = ..., stops_value: _Optional[int] = ..., destination_bonus: _Optional[_Union[DestinationBonus, _Mapping]] = ..., mine_subsidy: _Optional[_Union[MineSubsidy, _Mapping]] = ..., distance_used: _Optional[int] = ..., distance_limit: _Optional[int] = ..., revenue: _Optional[int] = ..., subsidy: _Optional[int] = ..., counted: _Optional[bool] = ...) -> None: ...

class AnswerBreakdown(_message.Message):
    __slots__ = ("stops_value", "destination_bonus", "revenue", "subsidy")
    STOPS_VALUE_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_BONUS_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    stops_value: int
    destination_bonus: int
    revenue: int
    subsidy: int
    def __init__(self, stops_value: _Optional[int] = ..., destination_bonus: _Optional[int] = ..., revenue: _Optional[int] = ..., subsidy: _Optional[int] = ...) -> None: ...

class TrainSet(_message.Message):
    __slots__ = ("trains",)
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    trains: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, trains: _Optional[_Iterable[str]] = ...) -> None: ...

class Optimum(_message.Message):
    __slots__ = ("revenue", "subsidy", "proven_optimal", "routes")
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    revenue: int
    subsidy: int
    proven_optimal: bool
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    def __init__(self, revenue: _Optional[int] = ..., subsidy: _Optional[int] = ..., proven_optimal: _Optional[bool] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ...) -> None: ...

class PinnedExplanation(_message.Message):
    __slots__ = ("trains", "unpinned", "cost", "revenue_cost", "subsidy_cost")
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    UNPINNED_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    REVENUE_COST_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_COST_FIELD_NUMBER: _ClassVar[int]
    trains: _containers.RepeatedScalarFieldContainer[str]
    unpinned: Optimum
    cost: int
    revenue_cost: int
    subsidy_cost: int
    def __init__(self, trains: _Optional[_Iterable[str]] = ..., unpinned: _Optional[_Union[Optimum, _Mapping]] = ..., cost: _Optional[int] = ..., revenue_cost: _Optional[int] = ..., subsidy_cost: _Optional[int] = ...) -> None: ...

class Alternative(_message.Message):
    __slots__ = ("trains", "answer")
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    trains: _containers.RepeatedScalarFieldContainer[str]
    answer: SolveRoutesResponse
    def __init__(self, trains: _Optional[_Iterable[str]] = ..., answer: _Optional[_Union[SolveRoutesResponse, _Mapping]] = ...) -> None: ...

class ObjectiveChoice(_message.Message):
    __slots__ = ("total", "revenue", "dividend_cost", "treasury_cost", "total_cost")
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    DIVIDEND_COST_FIELD_NUMBER: _ClassVar[int]
    TREASURY_COST_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COST_FIELD_NUMBER: _ClassVar[int]
    total: Optimum
    revenue: Optimum
    dividend_cost: int
    treasury_cost: int
    total_cost: int
    def __init__(self, total: _Optional[_Union[Optimum, _Mapping]] = ..., revenue: _Optional[_Union[Optimum, _Mapping]] = ..., dividend_cost: _Optional[int] = ..., treasury_cost: _Optional[int] = ..., total_cost: _Optional[int] = ...) -> None: ...

class SolveRoutesRequest(_message.Message):
    __slots__ = ("state", "game_log", "action_id", "objective", "time_limit_s", "allow_partial", "pinned_routes", "train_sets", "rules_as_of")
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_LOG_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    ALLOW_PARTIAL_FIELD_NUMBER: _ClassVar[int]
    PINNED_ROUTES_FIELD_NUMBER: _ClassVar[int]
    TRAIN_SETS_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    state: State
    game_log: str
    action_id: int
    objective: Objective
    time_limit_s: float
    allow_partial: bool
    pinned_routes: _containers.RepeatedCompositeFieldContainer[Route]
    train_sets: _containers.RepeatedCompositeFieldContainer[TrainSet]
    rules_as_of: str
    def __init__(self, state: _Optional[_Union[State, _Mapping]] = ..., game_log: _Optional[str] = ..., action_id: _Optional[int] = ..., objective: _Optional[_Union[Objective, str]] = ..., time_limit_s: _Optional[float] = ..., allow_partial: _Optional[bool] = ..., pinned_routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., train_sets: _Optional[_Iterable[_Union[TrainSet, _Mapping]]] = ..., rules_as_of: _Optional[str] = ...) -> None: ...

class SolveStats(_message.Message):
    __slots__ = ("nodes_before", "segments_before", "nodes_after", "segments_after", "arcs", "variables", "constraints", "reduce_ms", "build_ms", "solver_ms", "branches", "conflicts", "solves")
    NODES_BEFORE_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    NODES_AFTER_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_AFTER_FIELD_NUMBER: _ClassVar[int]
    ARCS_FIELD_NUMBER: _ClassVar[int]
    VARIABLES_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINTS_FIELD_NUMBER: _ClassVar[int]
    REDUCE_MS_FIELD_NUMBER: _ClassVar[int]
    BUILD_MS_FIELD_NUMBER: _ClassVar[int]
    SOLVER_MS_FIELD_NUMBER: _ClassVar[int]
    BRANCHES_FIELD_NUMBER: _ClassVar[int]
    CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    SOLVES_FIELD_NUMBER: _ClassVar[int]
    nodes_before: int
    segments_before: int
    nodes_after: int
    segments_after: int
    arcs: int
    variables: int
    constraints: int
    reduce_ms: float
    build_ms: float
    solver_ms: float
    branches: int
    conflicts: int
    solves: _containers.RepeatedCompositeFieldContainer[SolveTiming]
    def __init__(self, nodes_before: _Optional[int] = ..., segments_before: _Optional[int] = ..., nodes_after: _Optional[int] = ..., segments_after: _Optional[int] = ..., arcs: _Optional[int] = ..., variables: _Optional[int] = ..., constraints: _Optional[int] = ..., reduce_ms: _Optional[float] = ..., build_ms: _Optional[float] = ..., solver_ms: _Optional[float] = ..., branches: _Optional[int] = ..., conflicts: _Optional[int] = ..., solves: _Optional[_Iterable[_Union[SolveTiming, _Mapping]]] = ...) -> None: ...

class SolveTiming(_message.Message):
    __slots__ = ("purpose", "objective", "trains", "status", "solve_ms", "solver_ms", "branches", "conflicts", "search_ms", "floor")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SOLVE_MS_FIELD_NUMBER: _ClassVar[int]
    SOLVER_MS_FIELD_NUMBER: _ClassVar[int]
    BRANCHES_FIELD_NUMBER: _ClassVar[int]
    CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    SEARCH_MS_FIELD_NUMBER: _ClassVar[int]
    FLOOR_FIELD_NUMBER: _ClassVar[int]
    purpose: str
    objective: Objective
    trains: _containers.RepeatedScalarFieldContainer[str]
    status: SolveStatus
    solve_ms: float
    solver_ms: float
    branches: int
    conflicts: int
    search_ms: float
    floor: int
    def __init__(self, purpose: _Optional[str] = ..., objective: _Optional[_Union[Objective, str]] = ..., trains: _Optional[_Iterable[str]] = ..., status: _Optional[_Union[SolveStatus, str]] = ..., solve_ms: _Optional[float] = ..., solver_ms: _Optional[float] = ..., branches: _Optional[int] = ..., conflicts: _Optional[int] = ..., search_ms: _Optional[float] = ..., floor: _Optional[int] = ...) -> None: ...

class SolveRoutesResponse(_message.Message):
    __slots__ = ("corporation", "objective", "revenue", "subsidy", "proven_optimal", "status", "bound", "solve_ms", "routes", "stats", "breakdown", "pinned", "alternatives", "objectives")
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    SOLVE_MS_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVES_FIELD_NUMBER: _ClassVar[int]
    corporation: str
    objective: Objective
    revenue: int
    subsidy: int
    proven_optimal: bool
    status: SolveStatus
    bound: int
    solve_ms: float
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    stats: SolveStats
    breakdown: AnswerBreakdown
    pinned: PinnedExplanation
    alternatives: _containers.RepeatedCompositeFieldContainer[Alternative]
    objectives: ObjectiveChoice
    def __init__(self, corporation: _Optional[str] = ..., objective: _Optional[_Union[Objective, str]] = ..., revenue: _Optional[int] = ..., subsidy: _Optional[int] = ..., proven_optimal: _Optional[bool] = ..., status: _Optional[_Union[SolveStatus, str]] = ..., bound: _Optional[int] = ..., solve_ms: _Optional[float] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., stats: _Optional[_Union[SolveStats, _Mapping]] = ..., breakdown: _Optional[_Union[AnswerBreakdown, _Mapping]] = ..., pinned: _Optional[_Union[PinnedExplanation, _Mapping]] = ..., alternatives: _Optional[_Iterable[_Union[Alternative, _Mapping]]] = ..., objectives: _Optional[_Union[ObjectiveChoice, _Mapping]] = ...) -> None: ...

class ValidateRoutesRequest(_message.Message):
    __slots__ = ("state", "game_log", "action_id", "routes", "compare", "objective", "time_limit_s", "rules_as_of", "hex_paths")
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_LOG_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    COMPARE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    HEX_PATHS_FIELD_NUMBER: _ClassVar[int]
    state: State
    game_log: str
    action_id: int
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    compare: bool
    objective: Objective
    time_limit_s: float
    rules_as_of: str
    hex_paths: _containers.RepeatedCompositeFieldContainer[HexPath]
    def __init__(self, state: _Optional[_Union[State, _Mapping]] = ..., game_log: _Optional[str] = ..., action_id: _Optional[int] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., compare: _Optional[bool] = ..., objective: _Optional[_Union[Objective, str]] = ..., time_limit_s: _Optional[float] = ..., rules_as_of: _Optional[str] = ..., hex_paths: _Optional[_Iterable[_Union[HexPath, _Mapping]]] = ...) -> None: ...

class HexPath(_message.Message):
    __slots__ = ("train", "hexes")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    train: str
    hexes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, train: _Optional[str] = ..., hexes: _Optional[_Iterable[str]] = ...) -> None: ...

class HexPathReading(_message.Message):
    __slots__ = ("train", "connections", "nodes", "open")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    train: str
    connections: _containers.RepeatedCompositeFieldContainer[Connection]
    nodes: _containers.RepeatedScalarFieldContainer[str]
    open: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, train: _Optional[str] = ..., connections: _Optional[_Iterable[_Union[Connection, _Mapping]]] = ..., nodes: _Optional[_Iterable[str]] = ..., open: _Optional[_Iterable[str]] = ...) -> None: ...

class Violation(_message.Message):
    __slots__ = ("code", "route", "node", "hex", "text")
    CODE_FIELD_NUMBER: _ClassVar[int]
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    code: ViolationCode
    route: int
    node: str
    hex: str
    text: str
    def __init__(self, code: _Optional[_Union[ViolationCode, str]] = ..., route: _Optional[int] = ..., node: _Optional[str] = ..., hex: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class TrainComparison(_message.Message):
    __slots__ = ("train", "recorded_nodes", "optimal_nodes", "added", "dropped", "revenue_difference", "subsidy_difference")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    RECORDED_NODES_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_NODES_FIELD_NUMBER: _ClassVar[int]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    REVENUE_DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    train: str
    recorded_nodes: _containers.RepeatedScalarFieldContainer[str]
    optimal_nodes: _containers.RepeatedScalarFieldContainer[str]
    added: _containers.RepeatedScalarFieldContainer[str]
    dropped: _containers.RepeatedScalarFieldContainer[str]
    revenue_difference: int
    subsidy_difference: int
    def __init__(self, train: _Optional[str] = ..., recorded_nodes: _Optional[_Iterable[str]] = ..., optimal_nodes: _Optional[_Iterable[str]] = ..., added: _Optional[_Iterable[str]] = ..., dropped: _Optional[_Iterable[str]] = ..., revenue_difference: _Optional[int] = ..., subsidy_difference: _Optional[int] = ...) -> None: ...

class Comparison(_message.Message):
    __slots__ = ("objective", "recorded_revenue", "recorded_subsidy", "optimal_revenue", "optimal_subsidy", "proven_optimal", "revenue_difference", "subsidy_difference", "trains", "optimal_routes")
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_REVENUE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_REVENUE_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    REVENUE_DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_ROUTES_FIELD_NUMBER: _ClassVar[int]
    objective: Objective
    recorded_revenue: int
    recorded_subsidy: int
    optimal_revenue: int
    optimal_subsidy: int
    proven_optimal: bool
    revenue_difference: int
    subsidy_difference: int
    trains: _containers.RepeatedCompositeFieldContainer[TrainComparison]
    optimal_routes: _containers.RepeatedCompositeFieldContainer[Route]
    def __init__(self, objective: _Optional[_Union[Objective, str]] = ..., recorded_revenue: _Optional[int] = ..., recorded_subsidy: _Optional[int] = ..., optimal_revenue: _Optional[int] = ..., optimal_subsidy: _Optional[int] = ..., proven_optimal: _Optional[bool] = ..., revenue_difference: _Optional[int] = ..., subsidy_difference: _Optional[int] = ..., trains: _Optional[_Iterable[_Union[TrainComparison, _Mapping]]] = ..., optimal_routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ...) -> None: ...

class RouteCheck(_message.Message):
    __slots__ = ("train", "legal", "violations", "revenue", "subsidy", "hexes", "nodes", "breakdown")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    train: str
    legal: bool
    violations: _containers.RepeatedScalarFieldContainer[str]
    revenue: int
    subsidy: int
    hexes: _containers.RepeatedScalarFieldContainer[str]
    nodes: _containers.RepeatedScalarFieldContainer[str]
    breakdown: RouteBreakdown
    def __init__(self, train: _Optional[str] = ..., legal: _Optional[bool] = ..., violations: _Optional[_Iterable[str]] = ..., revenue: _Optional[int] = ..., subsidy: _Optional[int] = ..., hexes: _Optional[_Iterable[str]] = ..., nodes: _Optional[_Iterable[str]] = ..., breakdown: _Optional[_Union[RouteBreakdown, _Mapping]] = ...) -> None: ...

class ValidateRoutesResponse(_message.Message):
    __slots__ = ("legal", "violations", "revenue", "subsidy", "routes", "breakdown", "violation_details", "comparison", "hex_paths")
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    VIOLATION_DETAILS_FIELD_NUMBER: _ClassVar[int]
    COMPARISON_FIELD_NUMBER: _ClassVar[int]
    HEX_PATHS_FIELD_NUMBER: _ClassVar[int]
    legal: bool
    violations: _containers.RepeatedScalarFieldContainer[str]
    revenue: int
    subsidy: int
    routes: _containers.RepeatedCompositeFieldContainer[RouteCheck]
    breakdown: AnswerBreakdown
    violation_details: _containers.RepeatedCompositeFieldContainer[Violation]
    comparison: Comparison
    hex_paths: _containers.RepeatedCompositeFieldContainer[HexPathReading]
    def __init__(self, legal: _Optional[bool] = ..., violations: _Optional[_Iterable[str]] = ..., revenue: _Optional[int] = ..., subsidy: _Optional[int] = ..., routes: _Optional[_Iterable[_Union[RouteCheck, _Mapping]]] = ..., breakdown: _Optional[_Union[AnswerBreakdown, _Mapping]] = ..., violation_details: _Optional[_Iterable[_Union[Violation, _Mapping]]] = ..., comparison: _Optional[_Union[Comparison, _Mapping]] = ..., hex_paths: _Optional[_Iterable[_Union[HexPathReading, _Mapping]]] = ...) -> None: ...

class SuggestMovesRequest(_message.Message):
    __slots__ = ("state", "game_log", "action_id", "top", "include_tokens", "subtract_cost", "objective", "time_limit_s", "rules_as_of", "improving_only", "merge_equal", "include_combined")
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_LOG_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SUBTRACT_COST_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    IMPROVING_ONLY_FIELD_NUMBER: _ClassVar[int]
    MERGE_EQUAL_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_COMBINED_FIELD_NUMBER: _ClassVar[int]
    state: State
    game_log: str
    action_id: int
    top: int
    include_tokens: bool
    subtract_cost: bool
    objective: Objective
    time_limit_s: float
    rules_as_of: str
    improving_only: bool
    merge_equal: bool
    include_combined: bool
    def __init__(self, state: _Optional[_Union[State, _Mapping]] = ..., game_log: _Optional[str] = ..., action_id: _Optional[int] = ..., top: _Optional[int] = ..., include_tokens: _Optional[bool] = ..., subtract_cost: _Optional[bool] = ..., objective: _Optional[_Union[Objective, str]] = ..., time_limit_s: _Optional[float] = ..., rules_as_of: _Optional[str] = ..., improving_only: _Optional[bool] = ..., merge_equal: _Optional[bool] = ..., include_combined: _Optional[bool] = ...) -> None: ...

class MoveLay(_message.Message):
    __slots__ = ("hex", "tile", "rotation", "cost", "exits")
    HEX_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    EXITS_FIELD_NUMBER: _ClassVar[int]
    hex: str
    tile: str
    rotation: int
    cost: int
    exits: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hex: _Optional[str] = ..., tile: _Optional[str] = ..., rotation: _Optional[int] = ..., cost: _Optional[int] = ..., exits: _Optional[_Iterable[str]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("kind", "hex", "tile", "rotation", "city", "private", "lays", "cost", "text")
    KIND_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    LAYS_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    kind: MoveKind
    hex: str
    tile: str
    rotation: int
    city: int
    private: str
    lays: _containers.RepeatedCompositeFieldContainer[MoveLay]
    cost: int
    text: str
    def __init__(self, kind: _Optional[_Union[MoveKind, str]] = ..., hex: _Optional[str] = ..., tile: _Optional[str] = ..., rotation: _Optional[int] = ..., city: _Optional[int] = ..., private: _Optional[str] = ..., lays: _Optional[_Iterable[_Union[MoveLay, _Mapping]]] = ..., cost: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class Suggestion(_message.Message):
    __slots__ = ("kind", "hex", "tile", "rotation", "city", "private", "lays", "cost", "income", "gain", "score", "proven_optimal", "routes", "alternatives", "text", "then_token")
    KIND_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    LAYS_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    GAIN_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    THEN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kind: MoveKind
    hex: str
    tile: str
    rotation: int
    city: int
    private: str
    lays: _containers.RepeatedCompositeFieldContainer[MoveLay]
    cost: int
    income: int
    gain: int
    score: int
    proven_optimal: bool
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    alternatives: _containers.RepeatedCompositeFieldContainer[Move]
    text: str
    then_token: Move
    def __init__(self, kind: _Optional[_Union[MoveKind, str]] = ..., hex: _Optional[str] = ..., tile: _Optional[str] = ..., rotation: _Optional[int] = ..., city: _Optional[int] = ..., private: _Optional[str] = ..., lays: _Optional[_Iterable[_Union[MoveLay, _Mapping]]] = ..., cost: _Optional[int] = ..., income: _Optional[int] = ..., gain: _Optional[int] = ..., score: _Optional[int] = ..., proven_optimal: _Optional[bool] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., alternatives: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., text: _Optional[str] = ..., then_token: _Optional[_Union[Move, _Mapping]] = ...) -> None: ...

class RecordedTurn(_message.Message):
    __slots__ = ("moves", "income", "gain", "proven_optimal", "routes")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    GAIN_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    income: int
    gain: int
    proven_optimal: bool
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    def __init__(self, moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., income: _Optional[int] = ..., gain: _Optional[int] = ..., proven_optimal: _Optional[bool] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ...) -> None: ...

class SuggestMovesResponse(_message.Message):
    __slots__ = ("corporation", "objective", "subtract_cost", "base_income", "base_proven_optimal", "suggestions", "candidates", "solved", "reused", "pruned", "not_evaluated", "elapsed_ms", "verdict", "combined", "recorded")
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    SUBTRACT_COST_FIELD_NUMBER: _ClassVar[int]
    BASE_INCOME_FIELD_NUMBER: _ClassVar[int]
    BASE_PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    SUGGESTIONS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    REUSED_FIELD_NUMBER: _ClassVar[int]
    PRUNED_FIELD_NUMBER: _ClassVar[int]
    NOT_EVALUATED_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    COMBINED_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    corporation: str
    objective: Objective
    subtract_cost: bool
    base_income: int
    base_proven_optimal: bool
    suggestions: _containers.RepeatedCompositeFieldContainer[Suggestion]
    candidates: int
    solved: int
    reused: int
    pruned: int
    not_evaluated: _containers.RepeatedCompositeFieldContainer[Move]
    elapsed_ms: float
    verdict: str
    combined: _containers.RepeatedCompositeFieldContainer[Suggestion]
    recorded: RecordedTurn
    def __init__(self, corporation: _Optional[str] = ..., objective: _Optional[_Union[Objective, str]] = ..., subtract_cost: _Optional[bool] = ..., base_income: _Optional[int] = ..., base_proven_optimal: _Optional[bool] = ..., suggestions: _Optional[_Iterable[_Union[Suggestion, _Mapping]]] = ..., candidates: _Optional[int] = ..., solved: _Optional[int] = ..., reused: _Optional[int] = ..., pruned: _Optional[int] = ..., not_evaluated: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., elapsed_ms: _Optional[float] = ..., verdict: _Optional[str] = ..., combined: _Optional[_Iterable[_Union[Suggestion, _Mapping]]] = ..., recorded: _Optional[_Union[RecordedTurn, _Mapping]] = ...) -> None: ...

class RenderBoardRequest(_message.Message):
    __slots__ = ("state", "game_log", "action_id", "routes_mode", "routes", "time_limit_s", "suggestion", "rules_as_of", "moves")
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_LOG_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ROUTES_MODE_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    state: State
    game_log: str
    action_id: int
    routes_mode: RoutesMode
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    time_limit_s: float
    suggestion: int
    rules_as_of: str
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, state: _Optional[_Union[State, _Mapping]] = ..., game_log: _Optional[str] = ..., action_id: _Optional[int] = ..., routes_mode: _Optional[_Union[RoutesMode, str]] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., time_limit_s: _Optional[float] = ..., suggestion: _Optional[int] = ..., rules_as_of: _Optional[str] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class RenderBoardResponse(_message.Message):
    __slots__ = ("svg",)
    SVG_FIELD_NUMBER: _ClassVar[int]
    svg: str
    def __init__(self, svg: _Optional[str] = ...) -> None: ...

class ReplayGameRequest(_message.Message):
    __slots__ = ("game_log", "skip_solve", "objective", "time_limit_s", "rules_as_of")
    GAME_LOG_FIELD_NUMBER: _ClassVar[int]
    SKIP_SOLVE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    game_log: str
    skip_solve: bool
    objective: Objective
    time_limit_s: float
    rules_as_of: str
    def __init__(self, game_log: _Optional[str] = ..., skip_solve: _Optional[bool] = ..., objective: _Optional[_Union[Objective, str]] = ..., time_limit_s: _Optional[float] = ..., rules_as_of: _Optional[str] = ...) -> None: ...

class ReplayedRun(_message.Message):
    __slots__ = ("action_id", "turn_start_action_id", "corporation", "trains", "recorded_revenue", "recorded_subsidy", "recorded_legal", "engine_revenue", "engine_subsidy", "optimal_revenue", "optimal_subsidy", "proven_optimal", "solve_ms", "recorded_violations", "round", "president_name", "dividend_lost", "treasury_lost", "left_on_table")
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_START_ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    RECORDED_REVENUE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    RECORDED_LEGAL_FIELD_NUMBER: _ClassVar[int]
    ENGINE_REVENUE_FIELD_NUMBER: _ClassVar[int]
    ENGINE_SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_REVENUE_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    SOLVE_MS_FIELD_NUMBER: _ClassVar[int]
    RECORDED_VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PRESIDENT_NAME_FIELD_NUMBER: _ClassVar[int]
    DIVIDEND_LOST_FIELD_NUMBER: _ClassVar[int]
    TREASURY_LOST_FIELD_NUMBER: _ClassVar[int]
    LEFT_ON_TABLE_FIELD_NUMBER: _ClassVar[int]
    action_id: int
    turn_start_action_id: int
    corporation: str
    trains: _containers.RepeatedScalarFieldContainer[str]
    recorded_revenue: int
    recorded_subsidy: int
    recorded_legal: bool
    engine_revenue: int
    engine_subsidy: int
    optimal_revenue: int
    optimal_subsidy: int
    proven_optimal: bool
    solve_ms: float
    recorded_violations: _containers.RepeatedScalarFieldContainer[ViolationCode]
    round: str
    president_name: str
    dividend_lost: int
    treasury_lost: int
    left_on_table: int
    def __init__(self, action_id: _Optional[int] = ..., turn_start_action_id: _Optional[int] = ..., corporation: _Optional[str] = ..., trains: _Optional[_Iterable[str]] = ..., recorded_revenue: _Optional[int] = ..., recorded_subsidy: _Optional[int] = ..., recorded_legal: _Optional[bool] = ..., engine_revenue: _Optional[int] = ..., engine_subsidy: _Optional[int] = ..., optimal_revenue: _Optional[int] = ..., optimal_subsidy: _Optional[int] = ..., proven_optimal: _Optional[bool] = ..., solve_ms: _Optional[float] = ..., recorded_violations: _Optional[_Iterable[_Union[ViolationCode, str]]] = ..., round: _Optional[str] = ..., president_name: _Optional[str] = ..., dividend_lost: _Optional[int] = ..., treasury_lost: _Optional[int] = ..., left_on_table: _Optional[int] = ...) -> None: ...

class Shortfall(_message.Message):
    __slots__ = ("objective", "runs", "amount", "dividend_lost", "treasury_lost")
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    DIVIDEND_LOST_FIELD_NUMBER: _ClassVar[int]
    TREASURY_LOST_FIELD_NUMBER: _ClassVar[int]
    objective: Objective
    runs: int
    amount: int
    dividend_lost: int
    treasury_lost: int
    def __init__(self, objective: _Optional[_Union[Objective, str]] = ..., runs: _Optional[int] = ..., amount: _Optional[int] = ..., dividend_lost: _Optional[int] = ..., treasury_lost: _Optional[int] = ...) -> None: ...

class ReplayGameResponse(_message.Message):
    __slots__ = ("title", "rule_set", "final_scores", "recorded_result", "scores_match", "errors", "runs", "rules_version", "rules_as_of", "completed", "stopped_at_action", "objective", "left_on_table")
    class FinalScoresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class RecordedResultEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    FINAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    RECORDED_RESULT_FIELD_NUMBER: _ClassVar[int]
    SCORES_MATCH_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    STOPPED_AT_ACTION_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    LEFT_ON_TABLE_FIELD_NUMBER: _ClassVar[int]
    title: str
    rule_set: str
    final_scores: _containers.ScalarMap[str, int]
    recorded_result: _containers.ScalarMap[str, int]
    scores_match: bool
    errors: _containers.RepeatedScalarFieldContainer[str]
    runs: _containers.RepeatedCompositeFieldContainer[ReplayedRun]
    rules_version: str
    rules_as_of: str
    completed: bool
    stopped_at_action: int
    objective: Objective
    left_on_table: Shortfall
    def __init__(self, title: _Optional[str] = ..., rule_set: _Optional[str] = ..., final_scores: _Optional[_Mapping[str, int]] = ..., recorded_result: _Optional[_Mapping[str, int]] = ..., scores_match: _Optional[bool] = ..., errors: _Optional[_Iterable[str]] = ..., runs: _Optional[_Iterable[_Union[ReplayedRun, _Mapping]]] = ..., rules_version: _Optional[str] = ..., rules_as_of: _Optional[str] = ..., completed: _Optional[bool] = ..., stopped_at_action: _Optional[int] = ..., objective: _Optional[_Union[Objective, str]] = ..., left_on_table: _Optional[_Union[Shortfall, _Mapping]] = ...) -> None: ...

class FetchGameLogRequest(_message.Message):
    __slots__ = ("game_id", "url")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    url: str
    def __init__(self, game_id: _Optional[str] = ..., url: _Optional[str] = ...) -> None: ...

class FetchGameLogResponse(_message.Message):
    __slots__ = ("game_id", "source_url", "game_log")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SOURCE_URL_FIELD_NUMBER: _ClassVar[int]
    GAME_LOG_FIELD_NUMBER: _ClassVar[int]
    game_id: int
    source_url: str
    game_log: str
    def __init__(self, game_id: _Optional[int] = ..., source_url: _Optional[str] = ..., game_log: _Optional[str] = ...) -> None: ...

class GetInfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TitleInfo(_message.Message):
    __slots__ = ("title", "rule_sets", "currency_format", "subsidies")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RULE_SETS_FIELD_NUMBER: _ClassVar[int]
    CURRENCY_FORMAT_FIELD_NUMBER: _ClassVar[int]
    SUBSIDIES_FIELD_NUMBER: _ClassVar[int]
    title: str
    rule_sets: _containers.RepeatedScalarFieldContainer[str]
    currency_format: str
    subsidies: bool
    def __init__(self, title: _Optional[str] = ..., rule_sets: _Optional[_Iterable[str]] = ..., currency_format: _Optional[str] = ..., subsidies: _Optional[bool] = ...) -> None: ...

class LaneLimits(_message.Message):
    __slots__ = ("name", "workers", "queue")
    NAME_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    workers: int
    queue: int
    def __init__(self, name: _Optional[str] = ..., workers: _Optional[int] = ..., queue: _Optional[int] = ...) -> None: ...

class ServerLimits(_message.Message):
    __slots__ = ("max_call_s", "default_time_limit_s", "max_time_limit_s", "default_suggest_time_limit_s", "receive_timeout_s", "max_receive_bytes", "max_send_bytes", "max_concurrent_rpcs", "max_streams_per_connection", "lanes")
    MAX_CALL_S_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MAX_TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_SUGGEST_TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    RECEIVE_TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    MAX_RECEIVE_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_SEND_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENT_RPCS_FIELD_NUMBER: _ClassVar[int]
    MAX_STREAMS_PER_CONNECTION_FIELD_NUMBER: _ClassVar[int]
    LANES_FIELD_NUMBER: _ClassVar[int]
    max_call_s: float
    default_time_limit_s: float
    max_time_limit_s: float
    default_suggest_time_limit_s: float
    receive_timeout_s: float
    max_receive_bytes: int
    max_send_bytes: int
    max_concurrent_rpcs: int
    max_streams_per_connection: int
    lanes: _containers.RepeatedCompositeFieldContainer[LaneLimits]
    def __init__(self, max_call_s: _Optional[float] = ..., default_time_limit_s: _Optional[float] = ..., max_time_limit_s: _Optional[float] = ..., default_suggest_time_limit_s: _Optional[float] = ..., receive_timeout_s: _Optional[float] = ..., max_receive_bytes: _Optional[int] = ..., max_send_bytes: _Optional[int] = ..., max_concurrent_rpcs: _Optional[int] = ..., max_streams_per_connection: _Optional[int] = ..., lanes: _Optional[_Iterable[_Union[LaneLimits, _Mapping]]] = ...) -> None: ...

class GetInfoResponse(_message.Message):
    __slots__ = ("version", "git_revision", "titles", "limits")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GIT_REVISION_FIELD_NUMBER: _ClassVar[int]
    TITLES_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    version: str
    git_revision: str
    titles: _containers.RepeatedCompositeFieldContainer[TitleInfo]
    limits: ServerLimits
    def __init__(self, version: _Optional[str] = ..., git_revision: _Optional[str] = ..., titles: _Optional[_Iterable[_Union[TitleInfo, _Mapping]]] = ..., limits: _Optional[_Union[ServerLimits, _Mapping]] = ...) -> None: ...

class OwnedTrain(_message.Message):
    __slots__ = ("corporation", "train")
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    corporation: str
    train: str
    def __init__(self, corporation: _Optional[str] = ..., train: _Optional[str] = ...) -> None: ...

class SuggestTurnRequest(_message.Message):
    __slots__ = ("state", "game_log", "action_id", "top", "subtract_cost", "objective", "time_limit_s", "rules_as_of", "skip_trains", "depot", "other_trains")
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_LOG_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    SUBTRACT_COST_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    RULES_AS_OF_FIELD_NUMBER: _ClassVar[int]
    SKIP_TRAINS_FIELD_NUMBER: _ClassVar[int]
    DEPOT_FIELD_NUMBER: _ClassVar[int]
    OTHER_TRAINS_FIELD_NUMBER: _ClassVar[int]
    state: State
    game_log: str
    action_id: int
    top: int
    subtract_cost: bool
    objective: Objective
    time_limit_s: float
    rules_as_of: str
    skip_trains: bool
    depot: _containers.RepeatedScalarFieldContainer[str]
    other_trains: _containers.RepeatedCompositeFieldContainer[OwnedTrain]
    def __init__(self, state: _Optional[_Union[State, _Mapping]] = ..., game_log: _Optional[str] = ..., action_id: _Optional[int] = ..., top: _Optional[int] = ..., subtract_cost: _Optional[bool] = ..., objective: _Optional[_Union[Objective, str]] = ..., time_limit_s: _Optional[float] = ..., rules_as_of: _Optional[str] = ..., skip_trains: _Optional[bool] = ..., depot: _Optional[_Iterable[str]] = ..., other_trains: _Optional[_Iterable[_Union[OwnedTrain, _Mapping]]] = ...) -> None: ...

class PlanLay(_message.Message):
    __slots__ = ("hex", "tile", "rotation", "cost", "private")
    HEX_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_FIELD_NUMBER: _ClassVar[int]
    hex: str
    tile: str
    rotation: int
    cost: int
    private: str
    def __init__(self, hex: _Optional[str] = ..., tile: _Optional[str] = ..., rotation: _Optional[int] = ..., cost: _Optional[int] = ..., private: _Optional[str] = ...) -> None: ...

class PlanToken(_message.Message):
    __slots__ = ("hex", "city", "price")
    HEX_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    hex: str
    city: int
    price: int
    def __init__(self, hex: _Optional[str] = ..., city: _Optional[int] = ..., price: _Optional[int] = ...) -> None: ...

class Plan(_message.Message):
    __slots__ = ("lays", "token", "cost")
    LAYS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    lays: _containers.RepeatedCompositeFieldContainer[PlanLay]
    token: PlanToken
    cost: int
    def __init__(self, lays: _Optional[_Iterable[_Union[PlanLay, _Mapping]]] = ..., token: _Optional[_Union[PlanToken, _Mapping]] = ..., cost: _Optional[int] = ...) -> None: ...

class RankedPlan(_message.Message):
    __slots__ = ("plan", "income", "gain", "score", "proven_optimal", "routes", "state_after")
    PLAN_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    GAIN_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    STATE_AFTER_FIELD_NUMBER: _ClassVar[int]
    plan: Plan
    income: int
    gain: int
    score: int
    proven_optimal: bool
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    state_after: State
    def __init__(self, plan: _Optional[_Union[Plan, _Mapping]] = ..., income: _Optional[int] = ..., gain: _Optional[int] = ..., score: _Optional[int] = ..., proven_optimal: _Optional[bool] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., state_after: _Optional[_Union[State, _Mapping]] = ...) -> None: ...

class TrainOption(_message.Message):
    __slots__ = ("source", "seller", "train", "traded_in", "price", "max_price", "affordable", "phase", "trains_after", "discards", "income", "proven_optimal")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SELLER_FIELD_NUMBER: _ClassVar[int]
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    TRADED_IN_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    MAX_PRICE_FIELD_NUMBER: _ClassVar[int]
    AFFORDABLE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TRAINS_AFTER_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    source: str
    seller: str
    train: str
    traded_in: str
    price: int
    max_price: int
    affordable: bool
    phase: str
    trains_after: _containers.RepeatedScalarFieldContainer[str]
    discards: bool
    income: int
    proven_optimal: bool
    def __init__(self, source: _Optional[str] = ..., seller: _Optional[str] = ..., train: _Optional[str] = ..., traded_in: _Optional[str] = ..., price: _Optional[int] = ..., max_price: _Optional[int] = ..., affordable: _Optional[bool] = ..., phase: _Optional[str] = ..., trains_after: _Optional[_Iterable[str]] = ..., discards: _Optional[bool] = ..., income: _Optional[int] = ..., proven_optimal: _Optional[bool] = ...) -> None: ...

class TrainAdvice(_message.Message):
    __slots__ = ("income_now", "market_known", "options", "rules")
    INCOME_NOW_FIELD_NUMBER: _ClassVar[int]
    MARKET_KNOWN_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    income_now: int
    market_known: bool
    options: _containers.RepeatedCompositeFieldContainer[TrainOption]
    rules: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, income_now: _Optional[int] = ..., market_known: _Optional[bool] = ..., options: _Optional[_Iterable[_Union[TrainOption, _Mapping]]] = ..., rules: _Optional[_Iterable[str]] = ...) -> None: ...

class SuggestTurnResponse(_message.Message):
    __slots__ = ("corporation", "objective", "subtract_cost", "base_income", "base_proven_optimal", "plans", "trains", "lay_boards", "candidates", "plans_solved", "solves", "reused", "bound_solves", "pruned_by_lay_bound", "pruned_by_token_bound", "unranked", "elapsed_ms", "pruned_by_train_bound", "train_bound_solves", "currency_format")
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    SUBTRACT_COST_FIELD_NUMBER: _ClassVar[int]
    BASE_INCOME_FIELD_NUMBER: _ClassVar[int]
    BASE_PROVEN_OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    PLANS_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    LAY_BOARDS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    PLANS_SOLVED_FIELD_NUMBER: _ClassVar[int]
    SOLVES_FIELD_NUMBER: _ClassVar[int]
    REUSED_FIELD_NUMBER: _ClassVar[int]
    BOUND_SOLVES_FIELD_NUMBER: _ClassVar[int]
    PRUNED_BY_LAY_BOUND_FIELD_NUMBER: _ClassVar[int]
    PRUNED_BY_TOKEN_BOUND_FIELD_NUMBER: _ClassVar[int]
    UNRANKED_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    PRUNED_BY_TRAIN_BOUND_FIELD_NUMBER: _ClassVar[int]
    TRAIN_BOUND_SOLVES_FIELD_NUMBER: _ClassVar[int]
    CURRENCY_FORMAT_FIELD_NUMBER: _ClassVar[int]
    corporation: str
    objective: Objective
    subtract_cost: bool
    base_income: int
    base_proven_optimal: bool
    plans: _containers.RepeatedCompositeFieldContainer[RankedPlan]
    trains: TrainAdvice
    lay_boards: int
    candidates: int
    plans_solved: int
    solves: int
    reused: int
    bound_solves: int
    pruned_by_lay_bound: int
    pruned_by_token_bound: int
    unranked: _containers.RepeatedCompositeFieldContainer[Plan]
    elapsed_ms: float
    pruned_by_train_bound: int
    train_bound_solves: int
    currency_format: str
    def __init__(self, corporation: _Optional[str] = ..., objective: _Optional[_Union[Objective, str]] = ..., subtract_cost: _Optional[bool] = ..., base_income: _Optional[int] = ..., base_proven_optimal: _Optional[bool] = ..., plans: _Optional[_Iterable[_Union[RankedPlan, _Mapping]]] = ..., trains: _Optional[_Union[TrainAdvice, _Mapping]] = ..., lay_boards: _Optional[int] = ..., candidates: _Optional[int] = ..., plans_solved: _Optional[int] = ..., solves: _Optional[int] = ..., reused: _Optional[int] = ..., bound_solves: _Optional[int] = ..., pruned_by_lay_bound: _Optional[int] = ..., pruned_by_token_bound: _Optional[int] = ..., unranked: _Optional[_Iterable[_Union[Plan, _Mapping]]] = ..., elapsed_ms: _Optional[float] = ..., pruned_by_train_bound: _Optional[int] = ..., train_bound_solves: _Optional[int] = ..., currency_format: _Optional[str] = ...) -> None: ...
