"""What the numpy listing can hold: a declared capability that the chooser reads.

``solver.listing.pairvector`` keeps a partial route's nodes, stop-to-stop segments and
groups as rows of 64-bit words, as many as the board needs (``words``); ``solver.listing.pairs``
asks ``fits`` before choosing it and walks a wider board in Python
(``solver.listing.pairwalk``, Python integers: no width at all).

Issue 35: one word each (``MASK_BITS`` = 64 until then) left every board of more than 64
reduced nodes to CP-SAT's circuits, 2.6-2.8 s on the worst D + D boards grown on the north
map (69 nodes, 96 segments). A step of the listing reads one word of the node mask,
whatever the width, and a row costs 8 bytes a word: ``MASK_WORDS`` bounds the memory of the
listing's budget (``SolveOptions.pair_steps`` × ``vector_speedup``, 1 000 000 partial
routes: at 8 words, 64 MB per mask), far above any board of 1888 or 1830 (the fullest
grown: about 100 reduced nodes, two words).
"""

from __future__ import annotations

from typing import Sequence

from route18xx.solver.graph.reduce import ReducedGraph


#: Bits of one word of the numpy listing's masks.
WORD_BITS = 64
#: Words a mask may take (nodes, stop-to-stop segments, groups: 512 bits each); a board
#: needing more is walked in Python.
MASK_WORDS = 8


def words(bits: int) -> int:
    """Words of a mask holding ``bits`` bits (at least one: an empty mask is one word)."""
    return max(1, -(-bits // WORD_BITS))


def fits(graph: ReducedGraph, groups: Sequence[Sequence[int]]) -> bool:
    """Whether the numpy listing can hold the board's nodes, segments and groups."""
    stop_to_stop = sum(1 for s in graph.segments if s.a < graph.stop_count
                       and s.b < graph.stop_count)
    return max(words(graph.node_count), words(stop_to_stop), words(len(groups))) <= MASK_WORDS
