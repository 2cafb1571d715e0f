"""1889 (Shikoku 1889), at game level: its hooks behind the title seam (DESIGN.md §10
"Titles at two levels"; issue 36).

Its facts are ``engine/data/1889/``, generated from 18xx.games' ``g_1889`` (map, tiles,
market, phases, trains, privates, corporations) plus the project's ``players.json``,
``rule_sets.json`` (``standard`` and ``beginner_game``, the game's one optional rule) and
``route_rules.json``. What differs from 1830 at route level is data: a flat-topped map
(``GameData.layout``), off-boards that pay a D their diesel value
(``GameData.train_stop_values``), the Kotohira tiles' own upgrade cost, the port tile only
the Mitsubishi Ferry lays, and the Sumitomo Mines' mountain discount.

At game level (issue 36 item 3; docs/titles.md "1889"): its operating turn's own step
``special track`` (``engine.game.owner_track``: the Ehime Railway's green tile on C4 laid by
the player who sells it, the Mitsubishi Ferry's port laid by its owning player), the base
engine's sell-or-buy order with sales in blocks (``engine.game.sell_order``), home tokens at
the start of each operating round, and, as data, the privates by player count and the
beginner game's dealt privates (``rule_sets.json``; ``engine.game.deal``).
"""

from __future__ import annotations

from datetime import date
from functools import cache

from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.facts.rule_versions import RulesVersion, marked_no_cert_limit
from route18xx.engine.facts.rulesets import rule_sets_of
from route18xx.engine.titles.base import Title

#: The rule sets (``engine/data/1889/rule_sets.json``): ``standard`` and ``beginner_game``.
RULE_SETS = rule_sets_of("1889")

#: 1889's operating turn (g_1889/game.rb ``operating_round``): 1830's, with the title's own
#: special-track step where 1830 lays a private's tile.
OPERATING_STEPS = ("bankrupt", "share exchange", "special track", "buy private at any time",
                   "home token", "track", "token", "run routes", "dividend", "discard train",
                   "buy trains", "buy private")


@cache
def rules_of(rule_set: str) -> RulesVersion:
    """1889's one rules version (no dated table): a trainless company must buy only with a
    route (base ``MUST_BUY_TRAIN = :route``), the D is on sale from phase 6 beside the
    6-trains (trains.json ``available_on``), the market's yellow cells lift the
    certificate limit (g_1889/game.rb ``MARKET`` ``y`` cells)."""
    yellow = marked_no_cert_limit(game_data("1889"))
    return RulesVersion(
        name="1889",
        since=date(2020, 1, 1),
        must_buy_train="route",
        train_available_on={"D": "6"},
        train_counts={},
        no_cert_limit=yellow,
    )


TITLE = Title(
    name="1889",
    aliases=(),
    rule_sets=RULE_SETS.by_name,
    rule_set_of_options=RULE_SETS.of_options,
    options_of_rule_set=RULE_SETS.options_of,
    dated_rules=False,
    exports_trains=False,
    must_buy_train="route",
    undated_rules=rules_of,
    exchange_in_operating_round=True,  # DR's exchange: ability ``when: any``
    sell_buy_order="sell_buy_or_buy_sell",  # base.rb SELL_BUY_ORDER (1889 keeps it)
    must_sell_in_blocks=True,  # g_1889/game.rb MUST_SELL_IN_BLOCKS
    home_token_timing="operating_round",  # g_1889/game.rb HOME_TOKEN_TIMING
    ebuy_from_others=False,  # g_1889/game.rb EBUY_FROM_OTHERS = :never
    examples={"hex": "F9", "node": "K8-0"},  # Kouchi; Tokushima's city
    operating_steps=OPERATING_STEPS,
    # Awa Railroad's 2-train from its home Tokushima (K8, tile 57 turned to face the
    # off-board Naruto L7 across K8's north-east edge 4): ¥20 + Naruto's yellow ¥20 = ¥40.
    warm_up_state={
        "title": "1889", "rule_set": "standard", "phase": "2", "corporation": "AR", "trains": ["2"],
        "tiles": [{"hex": "K8", "tile": "57", "rotation": 1}],
        "tokens": [{"hex": "K8", "city": 0, "corporation": "AR"}],
    },
)
