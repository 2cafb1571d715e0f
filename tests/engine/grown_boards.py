"""What the property tests' board growers share (``test_property_boards.py`` for 1888,
``test_property_boards_1830.py`` for 1830): the trains of each phase, other companies'
tokens on the grown track, and the train set drawn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from route18xx.engine.board.board import Board

#: Trains a company can own in each phase, in both titles (RULES.md §8, §9.2; 1830 RULES.md
#: §8, §9: 2s rust on the first 4, 3s on the first 6, 4s on the first D).
PHASE_TRAINS: dict[str, tuple[str, ...]] = {
    "2": ("2",), "3": ("2", "3"), "4": ("3", "4"), "5": ("3", "4", "5"),
    "6": ("4", "5", "6"), "D": ("5", "6", "D"),
}


def draw_tokens(draw: st.DrawFn, board: Board, region: Sequence[str], corp: str,
                corps: Sequence[str], *, within_token_counts: bool = False) -> list[dict[str, Any]]:
    """``corp``'s station where the upgrades left it, then other companies' tokens in the
    region's cities (some cities full, so they block). ``within_token_counts``: a company
    places no more tokens than it has."""
    data = board.data
    ((home_hex, home_city),) = board.token_cities(corp)  # upgrades may renumber the city
    tokens = [{"hex": home_hex, "city": home_city, "corporation": corp}]
    others = [c for c in corps if c != corp]
    for hex_id in region:
        if hex_id not in data.hexes:
            continue
        for city in board.tile_on(hex_id).tile.cities:
            on_hex = {t["corporation"] for t in tokens if t["hex"] == hex_id}
            if within_token_counts:
                on_hex |= {c for c in others if sum(t["corporation"] == c for t in tokens)
                           >= len(data.corporations[c].token_prices)}
            held = sum(1 for t in tokens if (t["hex"], t["city"]) == (hex_id, city.index))
            fill = draw(st.integers(0, city.slots - held))
            for other in draw(st.permutations([c for c in others if c not in on_hex]))[:fill]:
                tokens.append({"hex": hex_id, "city": city.index, "corporation": other})
    return tokens


def draw_trains(draw: st.DrawFn, phase: str, limit: int) -> list[str]:
    """1 to ``limit`` trains the phase allows; in phase D, now and then a D among them."""
    trains = draw(st.lists(st.sampled_from(PHASE_TRAINS[phase]), min_size=1, max_size=limit))
    if phase == "D" and "D" not in trains and draw(st.booleans()):
        trains[-1] = "D"
    return trains
