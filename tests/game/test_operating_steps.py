"""A title lists its operating turn's steps by name (issue 33 item 3: the round hooks).

1888 and 1830 share the order of 1888 RULES.md §6.3 (1830 RULES.md §6: the same turn);
a step the engine does not have is refused naming the title and the step, never skipped.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from route18xx.engine.api import titles_replayed
from route18xx.engine.errors import RouteLevelOnly, TitleDataError
from route18xx.engine.game.operating_round import OPERATING_STEPS, operating_steps
from route18xx.engine.titles import TITLES


@pytest.mark.parametrize("title", sorted(TITLES))
def test_every_title_lists_steps_the_engine_has_or_is_played_at_route_level_only(
        title: str) -> None:
    """A title whose logs replay (``titles_replayed``) has every step (1889 its own special
    track); another is refused naming the step it lacks, or what else it lacks."""
    t = TITLES[title]
    if title in titles_replayed():
        steps = operating_steps(t.name, t.operating_steps)
        assert [s.name for s in steps][:2] == ["bankrupt", "share exchange"]
        assert len(steps) == len(t.operating_steps)
    else:
        lacking = sorted(set(t.operating_steps) - set(OPERATING_STEPS))
        assert lacking or t.game_level_missing
        if lacking:
            with pytest.raises(RouteLevelOnly, match="|".join(map(re.escape, lacking))):
                operating_steps(t.name, t.operating_steps)


def test_1830_1888_and_1889_logs_replay() -> None:
    assert {"1830", "1888", "1889"} <= set(titles_replayed())


def test_the_turn_runs_track_token_routes_dividend_then_trains_in_that_order() -> None:
    """RULES.md §6.3 d-g: lay track, place a token, run trains, pay, buy trains."""
    names = list(TITLES["1888"].operating_steps)
    order = [names.index(n) for n in ("track", "token", "run routes", "dividend", "buy trains")]
    assert order == sorted(order)


def test_a_step_the_engine_lacks_is_refused_naming_it() -> None:
    title = dataclasses.replace(TITLES["1888"], operating_steps=("track", "ferry track"))
    with pytest.raises(TitleDataError, match="ferry track"):
        operating_steps(title.name, title.operating_steps)
    assert "ferry track" not in OPERATING_STEPS


def test_a_game_of_a_title_with_such_a_step_is_refused_when_it_starts() -> None:
    from route18xx.engine.game.game import Game

    title = dataclasses.replace(TITLES["1888"], operating_steps=("track", "ferry track"))
    with pytest.raises(TitleDataError, match="ferry track"):
        Game("north", [1, 2, 3], title=title)
