"""Who plays a logged game, in every form 18xx.games wrote it (HISTORY.md §1.3).

* ``players`` items carry an ``id`` (a user id) in today's logs; very old logs
  list players by ``name`` only, and their actions then name a player in
  ``entity`` by that name (``lib/engine/action/base.rb`` falls back to a player
  by name).
* ``result`` is keyed by player **id** since 2022-08 (PR #8171), by player
  **name** before.

``read_seats`` reads either form into the engine's seats (an integer id per
player: the logged id, or a stand-in for a player the log names only) and the
key each player goes by in a report: its id as text when the log gave one,
else its name. ``todays_action`` rewrites an action that names a player by
name into the id form; ``recorded_result`` keys the log's ``result`` the way
the report keys its final scores, so the two can be compared whatever form
each was written in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.inputs.fields import MAX_ID, MAX_NAME


@dataclass(frozen=True)
class Seats:
    """The log's players in seat order as ``(id, name)``, and how reports key them."""

    seats: tuple[tuple[int, str], ...]
    #: id → the player's key in reports: the logged id as text, or the name.
    keys: Mapping[int, str]
    #: name → id, for logs whose actions name players (empty when every player has an id).
    by_name: Mapping[str, int]

    def todays_action(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        """``raw`` with a player named in ``entity`` (and its auto-actions) given by id.

        Unchanged, and not copied, when the log gives every player an id.
        """
        if not self.by_name:
            return raw
        return self._by_id(raw, 0)

    def _by_id(self, raw: Mapping[str, Any], depth: int) -> Mapping[str, Any]:
        entity = raw.get("entity")
        kind = raw.get("entity_type")
        autos = raw.get("auto_actions")
        named = isinstance(entity, str) and entity in self.by_name and kind in (None, "", "player")
        if not named and not (isinstance(autos, list) and autos and depth < 2):
            return raw
        out = dict(raw)
        if named:
            out["entity"] = self.by_name[str(entity)]
            out["entity_type"] = "player"
        if isinstance(autos, list) and depth < 2:
            out["auto_actions"] = [
                self._by_id(a, depth + 1) if isinstance(a, Mapping) else a for a in autos
            ]
        return out

    def recorded_result(self, result: Any) -> dict[str, int]:
        """The log's ``result`` keyed as the report keys final scores (``keys``).

        A key that is a player's id (as text) or name is mapped to that player's
        key; any other key is kept as written, so a result naming someone who
        did not play can never match.
        """
        if not isinstance(result, Mapping):
            return {}
        ids = {str(pid): pid for pid, _ in self.seats}
        names = {name: pid for pid, name in self.seats}
        out: dict[str, int] = {}
        for key, value in result.items():
            text = str(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) < 10**12:
                raise MalformedInput(f"result.{excerpt(text)}", f"must be a score, not {excerpt(value)}")
            pid = ids.get(text, names.get(text))
            out[self.keys[pid] if pid is not None else text] = int(value)
        return out


def read_seats(log: Mapping[str, Any]) -> Seats:
    """The log's ``players`` as seats: ``{"id", "name"}`` items, or ``{"name"}`` only.

    A player without an id gets a stand-in id above every logged one; two
    players with one id, or two id-less players with one name, are malformed.
    """
    players = log.get("players")
    if not isinstance(players, list) or not players:
        raise MalformedInput("players", "the log lists no players")
    logged: list[tuple[int | None, str]] = []
    for i, p in enumerate(players):
        if not isinstance(p, Mapping):
            raise MalformedInput(f"players[{i}]", f"must be an object, not {excerpt(p)}")
        pid, name = p.get("id"), p.get("name")
        if pid is not None and (isinstance(pid, bool) or not isinstance(pid, int) or not 0 <= pid <= MAX_ID):
            raise MalformedInput(f"players[{i}].id", f"must be a whole number (a user id), not {excerpt(pid)}")
        if name is not None and (not isinstance(name, str) or not 0 < len(name) <= MAX_NAME):
            raise MalformedInput(f"players[{i}].name", f"must be a name of 1 to {MAX_NAME} characters")
        if pid is None and name is None:
            raise MalformedInput(f"players[{i}]", "needs an 'id' or a 'name'")
        logged.append((pid, name if name is not None else f"Player {i + 1}"))
    next_id = max((pid for pid, _ in logged if pid is not None), default=0) + 1
    seats: list[tuple[int, str]] = []
    keys: dict[int, str] = {}
    by_name: dict[str, int] = {}
    for pid, name in logged:
        if pid is None:
            if name in by_name:
                raise MalformedInput("players", f"two players without ids are both named {excerpt(name)}")
            pid, next_id = next_id, next_id + 1
            by_name[name] = pid
            keys[pid] = name
        else:
            keys[pid] = str(pid)
        seats.append((pid, name))
    return Seats(tuple(seats), keys, by_name)


__all__ = ["Seats", "read_seats"]
