"""A board as the engine's API reads and shows it (``engine.api``, DESIGN.md §8): a state
read once, the board as plain data for pictures, its stops' and trains' names, routes
walked path by path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from route18xx.engine.board import names as _names
from route18xx.engine.inputs.state_file import RouteState, parse_state

if TYPE_CHECKING:  # at run time these load on first use
    from route18xx.engine.views.board_view import BoardView, RouteWalk


def read_state(state_raw: Mapping[str, Any] | RouteState) -> RouteState:
    """A parsed state: a decoded state file is read (``MalformedInput`` naming the field)."""
    return state_raw if isinstance(state_raw, RouteState) else parse_state(state_raw)


def board_view(state_raw: Mapping[str, Any] | RouteState) -> BoardView:
    """Every hex with its terrain, printed or laid tile (paths rotated), revenues per
    phase colour and tokens, plus the companies' colours, homes and destinations."""
    from route18xx.engine.views.board_view import board_view_of

    return board_view_of(read_state(state_raw))


def stop_names(state_raw: Mapping[str, Any] | RouteState) -> dict[str, str]:
    """Every stop on the state's board (``"H14-0"``) by its one name ("Qingdao"; the hex
    where two stops share a name: "Beijing (C9 city 1)"), as every front end writes it
    (issue 34: one name per object; ``engine.board.names``)."""
    return _names.stop_names(read_state(state_raw).board)


def company_trains(state_raw: Mapping[str, Any] | RouteState) -> list[tuple[str, str]]:
    """The company's trains, in its order, as (id, one name): ``("3-3", "3-train #1")``;
    the ids are the game's own when the state carries them, as answers name routes."""
    state = read_state(state_raw)
    ids = _names.company_train_ids([t.name for t in state.trains], state.train_ids)
    names = _names.train_names(ids)
    return [(i, names[i]) for i in ids]


def route_walks(state_raw: Mapping[str, Any] | RouteState, routes_raw: Any,
                field: str = "routes") -> list[RouteWalk]:
    """Routes (a run_routes ``routes`` array) judged, priced and walked path by path."""
    from route18xx.engine.views.board_view import route_walks_of

    return route_walks_of(read_state(state_raw), routes_raw, field)
