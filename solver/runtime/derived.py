"""A problem's derived data, computed once per problem content (issue 21: the warm answer).

The reduced graph (``reduce.reduce_problem``) and the listed routes of the
limited trains (``model._listed_groups``: the best route of a lone train, or
every route of the listed trains) are pure functions of the ``RouteProblem``
(and, for the listing, of the objective, which sets the weights). The same
board solved again — the same request, or the second objective of one answer
(``engine.objectives``) — takes them from here instead of walking the track
again; the model itself and CP-SAT's search are built and run every time.

Keys are the problems themselves: frozen dataclasses of tuples, so equal
content hashes equal (about 0.02 ms on a full 1888 board) and a changed board
(a tile, a token, pinned track taken away) is a different key. A small LRU per
kind bounds the memory; a lock keeps it whole under the server's worker threads.
Nothing cancelled is stored (a cancelled listing raises before it returns).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import fields
from typing import Any, Generic, TypeVar

V = TypeVar("V")
_ALL: list[Lru[Any]] = []

#: Boards kept per kind: a server answering the same few companies again and again
#: keeps them all; anything older is recomputed.
CACHE_SIZE = 256


class Lru(Generic[V]):
    """A thread-safe least-recently-used map of at most ``size`` values."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        _ALL.append(self)

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The value for ``key``, computed by ``compute`` (outside the lock) on a miss."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            self.misses += 1
        value = compute()
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)


def clear_caches() -> None:
    """Empty every cache of derived data (benchmarks measuring a board seen first)."""
    for cache in _ALL:
        cache.clear()


def content_hash(obj: Any, content: Callable[[], Hashable] | None = None) -> int:
    """A frozen dataclass's hash of its fields (or of ``content()``, which equal objects
    must give equal), computed once per object: a problem is a cache key many times
    over (its tuples of stops and segments hash in about 0.05 ms each time otherwise).
    Not pickled (``without_hash``): hashes of strings differ between processes."""
    cached: int | None = obj.__dict__.get("_content_hash")
    if cached is None:
        cached = hash(content() if content is not None
                      else tuple(getattr(obj, f.name) for f in fields(obj)))
        object.__setattr__(obj, "_content_hash", cached)
    return cached


def without_hash(obj: Any) -> dict[str, Any]:
    """``obj``'s pickled state: its fields, without the hash ``content_hash`` kept."""
    state = dict(obj.__dict__)
    state.pop("_content_hash", None)
    return state
