"""What the player did at a turn, read from the log (issue 22: beside the suggestions).

``turn_moves(log, action_id)`` lists the tile lays and the station token the
operating company made from action ``action_id`` to the end of its operating
turn (a turn as ``engine.turns`` counts it: the stretch of one corporation's
actions, its privates' included), each as a ``MoveReport`` (where, which tile and
rotation, which city, what it cost the treasury, in words). The replay gives
what the log leaves implicit: the hex of a token (the log names the tile's city,
``57-0-0``) and the cost (the treasury before and after the action).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from route18xx.engine.deadline import CancelSignal
from route18xx.engine.titles import title_named
from route18xx.engine.game.actions import Action, LayTile, PlaceToken
from route18xx.engine.game.game import Game
from route18xx.engine.suggest.move_words import move_text, tile_exits
from route18xx.engine.replay.replay import kept_actions, replay
from route18xx.engine.suggest.suggest_report import MoveLayReport, MoveReport
from route18xx.engine.replay.turns import acting_entity

#: Log entries that belong to no one's turn (``engine.turns``).
_NEUTRAL = ("message",)


def _turn_ids(log: Mapping[str, Any], action_id: int,
              cancel: CancelSignal | None) -> tuple[list[int], int | None]:
    """The ids of the turn's actions from ``action_id`` on, and the first id after it."""
    owner: object = None
    owners: dict[str, str] = {}
    ids: list[int] = []
    inside = False
    for action in kept_actions(log, cancel=cancel):
        kind, aid = action.get("type"), action.get("id")
        if not isinstance(kind, str) or kind in _NEUTRAL or kind.startswith("program_"):
            continue
        if not isinstance(aid, int) or isinstance(aid, bool):
            continue
        entity = acting_entity(action, owners, owner)
        if inside and entity != owner:
            return ids, aid
        owner = entity
        if aid == action_id:
            inside = True
        if inside:
            ids.append(aid)
    return ids, None


def turn_moves(
    log: Mapping[str, Any], action_id: int, *, cancel: CancelSignal | None = None,
    rules_as_of: Any = None,
) -> tuple[MoveReport, ...]:
    """The lays and token of the turn from action ``action_id`` on, in the order made."""
    ids, after_turn = _turn_ids(log, action_id, cancel)
    wanted = set(ids)
    data = title_named(log.get("title")).data  # the log's own title (issue 33)
    moves: list[MoveReport] = []
    before: dict[str, Any] = {}

    def corp_of(game: Game, action: Action) -> str | None:
        if game.is_corporation(action.entity):
            return str(action.entity)
        rnd = game.round
        current = getattr(rnd, "current_entity", None)
        who = current(game) if callable(current) else None
        return str(who) if who is not None else None

    def ahead(game: Game, action: Action) -> None:
        before.clear()
        if action.id in wanted and isinstance(action, (LayTile, PlaceToken)):
            corp = corp_of(game, action)
            if corp is not None:
                before.update(corp=corp, cash=game.corporation(corp).cash,
                              tokens=dict(game.board.tokens))

    def done(game: Game, action: Action) -> None:
        if not before or action.id not in wanted:
            return
        corp = before["corp"]
        cost = max(0, before["cash"] - game.corporation(corp).cash)
        private = str(action.entity) if not game.is_corporation(action.entity) else None
        if isinstance(action, LayTile):
            tile = action.tile_name
            lays = (MoveLayReport(action.hex, tile, action.rotation, cost,
                                  tile_exits(data.tiles[tile], action.rotation, data.layout)),)
            moves.append(MoveReport("tile", action.hex, tile, action.rotation, None, private,
                                    lays, cost,
                                    move_text("tile", action.hex, None, lays, private, data)))
        elif isinstance(action, PlaceToken):
            new = [key for key, corps in game.board.tokens.items()
                   if corps.count(corp) > before["tokens"].get(key, ()).count(corp)]
            if new:
                hex_id, city = new[0]
                moves.append(MoveReport("token", hex_id, None, None, city, private, (), cost,
                                        move_text("token", hex_id, city, (), private, data)))
        before.clear()

    if ids:
        replay(log, before_action=ahead, after_action=done, stop_before=after_turn,
               cancel=cancel, rules_as_of=rules_as_of)
    return tuple(moves)


__all__ = ["turn_moves"]
