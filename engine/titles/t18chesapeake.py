"""18Chesapeake (The Birth of American Railroads), at route level: its hooks behind the
title seam (DESIGN.md §10 "Titles at two levels"; issue 36).

Its facts are ``engine/data/18Chesapeake/``, generated from 18xx.games' ``g_18_chesapeake``
(map, tiles, market, phases, trains, privates, corporations) plus the project's
``players.json``, ``rule_sets.json`` (``standard``: the game has no optional rule) and
``route_rules.json``. What differs from 1830 at route level is data read by the same rules:
a flat-topped map (``GameData.layout``), off-boards priced in four colours (yellow, green,
brown, gray: ``RevenueCenter.value_for``), and two off-board areas that a route may stop
at once each (``groups``: Pittsburgh A3 + B2, West Virginia Coal A13 + B14; 18xx.games
``route.rb`` "Cannot use group ... more than once"), Pittsburgh's A3 a city in a red hex
where the PLE starts. The privates' lays are 1830's and 1888's kinds: C-P and B&S lay
tiles 8 or 9 on two hexes, the second joining the first; C&OC teleports tile 57 to D2.

Game level is not reached yet (``game_level_missing``).
"""

from __future__ import annotations

from datetime import date
from functools import cache

from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.facts.rule_versions import RulesVersion, marked_no_cert_limit
from route18xx.engine.facts.rulesets import rule_sets_of
from route18xx.engine.titles.base import Title

#: The rule sets (``engine/data/18Chesapeake/rule_sets.json``): ``standard`` alone.
RULE_SETS = rule_sets_of("18Chesapeake")


@cache
def rules_of(rule_set: str) -> RulesVersion:
    """18Chesapeake's one rules version (no dated table): a trainless company must buy only
    with a route (base ``MUST_BUY_TRAIN = :route``), the D is on sale from phase 6 beside
    the 6-trains (trains.json ``available_on``), the market's yellow cells lift the
    certificate limit (g_18_chesapeake/game.rb ``MARKET`` ``y`` cells)."""
    yellow = marked_no_cert_limit(game_data("18Chesapeake"))
    return RulesVersion(
        name="18Chesapeake",
        since=date(2020, 1, 1),
        must_buy_train="route",
        train_available_on={"D": "6"},
        train_counts={},
        no_cert_limit=yellow,
    )


TITLE = Title(
    name="18Chesapeake",
    aliases=(),
    rule_sets=RULE_SETS.by_name,
    rule_set_of_options=RULE_SETS.of_options,
    options_of_rule_set=RULE_SETS.options_of,
    dated_rules=False,
    exports_trains=True,  # g_18_chesapeake/game.rb or_set_finished: 2, 3, 4 exported
    must_buy_train="route",
    undated_rules=rules_of,
    ebuy_from_others=True,  # base EBUY_FROM_OTHERS = :value
    examples={"hex": "F8", "node": "J4-1"},  # Washington DC; Philadelphia's second city
    game_level_missing=(
        "the Cornelius Vanderbilt's president's certificate of a corporation drawn at random "
        "(ability shares: random_president), the two-player game's 30 % president's "
        "certificates and shares leaving the game, and a private's lay forfeit when another "
        "lays on its hexes (g_18_chesapeake/game.rb setup, share_pool.rb, "
        "check_special_tile_lay)"
    ),
    # Norfolk & Western's 3-train from its home Lynchburg C13 (tile 15, $30) over B12 (tile 8)
    # to West Virginia Coal's A13 (green $50): $80; B14 beyond C13 is the same off-board area,
    # so one route takes one of them (groups).
    warm_up_state={
        "title": "18Chesapeake", "rule_set": "standard", "phase": "3", "corporation": "N&W",
        "trains": ["3"],
        "tiles": [{"hex": "C13", "tile": "15", "rotation": 1}, {"hex": "B12", "tile": "8", "rotation": 5}],
        "tokens": [{"hex": "C13", "city": 0, "corporation": "N&W"}],
    },
)
