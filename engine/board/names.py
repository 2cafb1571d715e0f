"""One name per object (issue 34, item 5): the words every front end uses for a stop, a
train and a place, so that the page, the board's legend and the judge's violations never
write one object two ways ("Qingdao" here, "H14-0" there).

- A **place** is its printed name, spelt as players read it ("Harbour", where 18xx.games
  writes "harbor").
- A **stop** is its place's name ("Qingdao"); where another stop on the board has the same
  name, the hex follows ("Beijing (C9 city 1)" when C9's tile has two cities); a stop on a
  hex without a name is named by hex and kind ("A17 town").
- A **train** is its type ("3-train"); where the company owns more than one of that type,
  an ordinal follows, in the order of the company's own ids ("3-train #2").

The names read the board as it stands (a green Beijing has one city, named "Beijing") and
the company's trains; they hold no rule of the game.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable, Sequence

from route18xx.engine.board.board import Board, NodeId, node_id as make_node_id
from route18xx.engine.facts.gamedata import HexDef, HexId

#: How players spell a printed name that the data spells otherwise.
_SPELLINGS = {"harbor": "Harbour"}
#: A node kind as the words name it.
_KIND_WORDS = {"offboard": "off-board"}


def place_name(location_name: str | None) -> str:
    """A hex's printed name as players read it; "" for a hex without one.

    >>> place_name("harbor"), place_name("Qingdao"), place_name(None)
    ('Harbour', 'Qingdao', '')
    """
    if not location_name:
        return ""
    return _SPELLINGS.get(location_name.lower(), location_name)


def hex_words(hex_def: HexDef) -> str:
    """A hex as the words name it: its id, its place's name after it ("G11 (Zibo)")."""
    name = place_name(hex_def.location_name)
    return f"{hex_def.id} ({name})" if name else hex_def.id


def stop_names(board: Board) -> dict[NodeId, str]:
    """Every stop on the board (``"H14-0"``) by its one name, as the module says."""
    base: dict[NodeId, str] = {}
    where: dict[NodeId, tuple[HexId, str]] = {}
    for hex_id, node in board.nodes():
        node_id = make_node_id(hex_id, node.index)
        kind = _KIND_WORDS.get(node.kind, node.kind)
        base[node_id] = place_name(board.hex(hex_id).location_name) or f"{hex_id} {kind}"
        where[node_id] = (hex_id, kind)
    shared = Counter(base.values())
    # the stops of one hex that share a name: numbered per kind, in the tile's order
    in_hex: dict[tuple[HexId, str], list[NodeId]] = defaultdict(list)
    for node_id in base:
        in_hex[(where[node_id][0], base[node_id])].append(node_id)
    names: dict[NodeId, str] = {}
    for node_id, name in base.items():
        if shared[name] == 1:
            names[node_id] = name
            continue
        hex_id, kind = where[node_id]
        alike = [n for n in in_hex[(hex_id, name)] if where[n][1] == kind]
        if len(in_hex[(hex_id, name)]) == 1:
            names[node_id] = f"{name} ({hex_id})"
        elif name.startswith(f"{hex_id} "):  # an unnamed hex: "I5 city 2"
            names[node_id] = f"{name} {alike.index(node_id) + 1}"
        else:
            names[node_id] = f"{name} ({hex_id} {kind} {alike.index(node_id) + 1})"
    return names


def train_type(train_id: str) -> str:
    """The type of a train id: ``"3-3"`` → ``"3"``, ``"D-0"`` → ``"D"``."""
    head, sep, tail = train_id.rpartition("-")
    return head if sep and tail.isdigit() else train_id


def company_train_ids(types: Sequence[str], ids: Sequence[str] = ()) -> tuple[str, ...]:
    """The company's trains by id: the game's own ids when known (``ids``, one per train),
    else numbered per type from 0 ("3-0", "3-1"), as answers name them.

    >>> company_train_ids(["3", "3", "4"])
    ('3-0', '3-1', '4-0')
    """
    if len(ids) == len(types) and all(train_type(i) == t for i, t in zip(ids, types)):
        return tuple(ids)
    seen: Counter[str] = Counter()
    out: list[str] = []
    for t in types:
        out.append(f"{t}-{seen[t]}")
        seen[t] += 1
    return tuple(out)


def train_names(ids: Iterable[str]) -> dict[str, str]:
    """The company's trains (their ids, in the company's order) by their one name.

    >>> train_names(["3-3", "3-5", "4-0"])
    {'3-3': '3-train #1', '3-5': '3-train #2', '4-0': '4-train'}
    """
    ids = list(dict.fromkeys(ids))
    count: Counter[str] = Counter(train_type(t) for t in ids)
    seen: Counter[str] = Counter()
    names: dict[str, str] = {}
    for t in ids:
        kind = train_type(t)
        seen[kind] += 1
        names[t] = f"{kind}-train" + (f" #{seen[kind]}" if count[kind] > 1 else "")
    return names


def train_name(train_id: str, names: dict[str, str]) -> str:
    """A train's name among ``names`` (``train_names``); a train the company does not own
    is named by its type and id ("5-train 5-0"), so it is never taken for one it owns."""
    return names.get(train_id) or f"{train_type(train_id)}-train {train_id}"


__all__ = ["company_train_ids", "hex_words", "place_name", "stop_names", "train_name",
           "train_names", "train_type"]
