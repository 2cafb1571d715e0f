"""What the numpy listing can hold: a declared capability that the chooser reads.

``solver.listing.pairvector`` keeps a partial route's nodes, stop-to-stop segments and
groups as bits of one 64-bit word each; ``solver.listing.pairs`` asks ``fits`` before
choosing it and walks a larger board in Python (``solver.listing.pairwalk``).
"""

from __future__ import annotations

from typing import Sequence

from route18xx.solver.graph.reduce import ReducedGraph


#: Bits of the numpy listing's masks (``solver/listing/pairvector.py``: nodes, stop-to-stop
#: segments, groups); a board needing more is walked in Python.
MASK_BITS = 64


def fits(graph: ReducedGraph, groups: Sequence[Sequence[int]]) -> bool:
    """Whether the numpy listing can hold the board's nodes, segments and groups."""
    stop_to_stop = sum(1 for s in graph.segments if s.a < graph.stop_count
                       and s.b < graph.stop_count)
    return (graph.node_count <= MASK_BITS and stop_to_stop <= MASK_BITS
            and len(groups) <= MASK_BITS)
