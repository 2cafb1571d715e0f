"""The train depot: its fixed order, the discard pile, rusting and export (RULES.md §2.7, §9).

Train ids are ``<type>-<n>`` (RULES.md §9.5). Only the first train in depot
order and the discarded trains can be bought from the depot (§6.9 #1); each
time a D is bought a new D with the next number appears (§9.4).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from route18xx.engine.facts.gamedata import TrainDef


def train_name(train_id: str) -> str:
    """``"D-3"`` → ``"D"``."""
    return train_id.rsplit("-", 1)[0]


@dataclass
class Depot:
    """Trains not owned by a corporation: ``upcoming`` in depot order, ``discarded``."""

    upcoming: list[str]
    discarded: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    left_depot: set[str] = field(default_factory=set)

    @classmethod
    def fresh(cls, order: Iterable[str]) -> Depot:
        return cls(list(order))

    def available(self, sold_early: Collection[str] = ()) -> list[str]:
        """Trains the depot sells now: the next one in order, the first of each type in
        ``sold_early`` (on sale before the trains ahead of it are gone: the D from phase
        6 before 2023-08-09, HISTORY.md §2), then the first discarded train of each type (of
        two discarded 5-trains only the earlier is on sale: 18xx.games ``Depot#depot_trains``,
        ``@discarded.uniq(&:name)``)."""
        out = self.upcoming[:1]
        if sold_early:
            names = {train_name(t) for t in out}
            for t in self.upcoming:
                name = train_name(t)
                if name in sold_early and name not in names:
                    names.add(name)
                    out.append(t)
        types = set()
        for t in self.discarded:
            name = train_name(t)
            if name not in types and t not in out:
                types.add(name)
                out.append(t)
        return out

    def holds(self, train_id: str) -> bool:
        return train_id in self.upcoming or train_id in self.discarded

    def take(self, train_id: str, trains: Mapping[str, TrainDef]) -> bool:
        """Remove a train that leaves the depot; True if it is the first of its type (§8).

        The depot order lists one D: each time the last copy of a type leaves, the next
        appears while the type's count allows (unlimited D, §9.4; 17 before 2026-05-13,
        HISTORY.md §2).
        """
        if train_id in self.upcoming:
            self.upcoming.remove(train_id)
            name = train_name(train_id)
            count = trains[name].count
            number = int(train_id.rsplit("-", 1)[1]) + 1
            last = not any(train_name(t) == name for t in self.upcoming)
            if last and (count is None or number < count):
                self.upcoming.append(f"{name}-{number}")
        else:
            self.discarded.remove(train_id)
        name = train_name(train_id)
        first = name not in self.left_depot
        self.left_depot.add(name)
        return first

    def discard(self, train_id: str) -> None:
        self.discarded.append(train_id)

    def rust(self, name: str) -> None:
        """Remove every depot copy of a rusted type (§9.2)."""
        for pile in (self.upcoming, self.discarded):
            for t in [t for t in pile if train_name(t) == name]:
                pile.remove(t)
                self.removed.append(t)

    def exportable(self, trains: Mapping[str, TrainDef]) -> str | None:
        """The next train when the end-of-set export would remove it (§9.6)."""
        if self.upcoming and trains[train_name(self.upcoming[0])].exportable:
            return self.upcoming[0]
        return None
