"""Small hand-built boards for the solver tests.

``Board`` builds a ``RouteProblem`` by name: ``stop``/``junction`` add nodes,
``link`` adds a segment (a junction end is written ``("J", side)``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from route18xx.solver.problem import (
    NO_SIDE,
    Junction,
    PairBonus,
    RouteProblem,
    Segment,
    Stop,
    Train,
)

End = str | tuple[str, int]


@dataclass
class Board:
    stops: list[Stop] = field(default_factory=list)
    junctions: list[str] = field(default_factory=list)
    segments: list[tuple[End, End]] = field(default_factory=list)

    def stop(self, name: str, value: int, **flags: object) -> Board:
        self.stops.append(Stop(name, value, **flags))  # type: ignore[arg-type]
        return self

    def junction(self, name: str) -> Board:
        self.junctions.append(name)
        return self

    def link(self, a: End, b: End) -> Board:
        self.segments.append((a, b))
        return self

    def index(self, name: str) -> int:
        """Node index of a stop or junction name."""
        names = [s.name for s in self.stops]
        if name in names:
            return names.index(name)
        return len(self.stops) + self.junctions.index(name)

    def _end(self, end: End) -> tuple[int, int]:
        if isinstance(end, tuple):
            return self.index(end[0]), end[1]
        return self.index(end), NO_SIDE

    def problem(
        self,
        *distances: int | None,
        groups: tuple[tuple[str, ...], ...] = (),
        bonuses: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...] = (),
        min_stops: int = 2,
    ) -> RouteProblem:
        """The problem with one train per distance (None = unlimited)."""
        segments = []
        for i, (a, b) in enumerate(self.segments):
            (na, sa), (nb, sb) = self._end(a), self._end(b)
            segments.append(Segment(na, nb, sa, sb, f"e{i}"))

        def ids(names: tuple[str, ...]) -> frozenset[int]:
            return frozenset(self.index(n) for n in names)

        return RouteProblem(
            stops=tuple(self.stops),
            junctions=tuple(Junction(j) for j in self.junctions),
            segments=tuple(segments),
            trains=tuple(Train(f"t{k}", d) for k, d in enumerate(distances)),
            groups=tuple(ids(g) for g in groups),
            bonuses=tuple(PairBonus(v, ids(f), ids(s)) for v, f, s in bonuses),
            min_stops=min_stops,
        )


def grid_problem(
    rows: int, cols: int, distances: tuple[int | None, ...], seed: int = 0
) -> RouteProblem:
    """A grid of stops joined through junctions (a hex board's shape, roughly).

    Every stop links to its right and lower neighbour through a junction
    (stop → side 0, side 1 → neighbour); some cells are plain track crossings
    (two junction-to-junction segments) instead of stops. Deterministic per seed.
    """
    rng = random.Random(seed)
    board = Board()
    for r in range(rows):
        for c in range(cols):
            board.stop(f"s{r}.{c}", rng.choice([10, 20, 20, 30, 40, 50]),
                       station=rng.random() < 0.15, route_end_only=rng.random() < 0.05)
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < rows and c + dc < cols and rng.random() < 0.85:
                    j = f"j{r}.{c}>{r + dr}.{c + dc}"
                    board.junction(j)
                    board.link(f"s{r}.{c}", (j, 0)).link((j, 1), f"s{r + dr}.{c + dc}")
    return board.problem(*distances)
