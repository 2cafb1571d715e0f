"""1882 (Assiniboia), at route level: its hooks behind the title seam (DESIGN.md §10
"Titles at two levels"; issue 36).

Its facts are ``engine/data/1882/``, generated from 18xx.games' ``g_1882`` (map, tiles,
market, phases, trains, privates, corporations) plus the project's ``players.json``,
``rule_sets.json`` (``standard``: the game has no optional rule) and ``route_rules.json``.
What differs from 1830 at route level is data read by the engine's rules:

* **The Hudson Bay bonus**: a route stopping at Western Canada I1 or Northern Alberta B2 and
  at Hudson Bay B12 earns $100 more (g_1882/game.rb ``revenue_for``;
  ``GameData.route_bonuses``, the solver's ``PairBonus``).
* **Neutral stations**: CN's tokens, which the other corporations place, never block a route
  (``GameData.neutral_stations``; 18xx.games ``City#blocks?``).
* **Two tile lays**: a turn lays two yellow tiles or makes one upgrade, the second lay costing
  $20 more (g_1882/game.rb ``TILE_LAYS``; ``route_rules.json`` ``tile_lays``).

Game level is not reached: its operating turn has the North West Rebellion's own step
(``special NWR``), and whole games need the Saskatchewan Central's par by exchange, the
rebellion's tile removals and the trains the SC adds to the depot.
"""

from __future__ import annotations

from datetime import date
from functools import cache

from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.facts.rule_versions import RulesVersion, marked_no_cert_limit
from route18xx.engine.facts.rulesets import rule_sets_of
from route18xx.engine.titles.base import Title

#: The rule sets (``engine/data/1882/rule_sets.json``): ``standard`` alone.
RULE_SETS = rule_sets_of("1882")

#: 1882's operating turn (g_1882/game.rb ``operating_round``): a private may be bought first,
#: then the North West Rebellion's own step before the track step.
OPERATING_STEPS = ("bankrupt", "buy private at any time", "home token", "special NWR", "track",
                   "token", "run routes", "dividend", "discard train", "buy trains",
                   "buy private")


@cache
def rules_of(rule_set: str) -> RulesVersion:
    """1882's one rules version (no dated table): a trainless company must buy only with a
    route (base ``MUST_BUY_TRAIN = :route``), the D is on sale from phase 6 beside the
    6-trains (trains.json ``available_on``), the market's yellow, orange and brown cells
    lift the certificate limit (g_1882/game.rb ``MARKET``)."""
    lifted = marked_no_cert_limit(game_data("1882"))
    return RulesVersion(
        name="1882",
        since=date(2020, 1, 1),
        must_buy_train="route",
        train_available_on={"D": "6"},
        train_counts={},
        no_cert_limit=lifted,
    )


TITLE = Title(
    name="1882",
    aliases=(),
    rule_sets=RULE_SETS.by_name,
    rule_set_of_options=RULE_SETS.of_options,
    options_of_rule_set=RULE_SETS.options_of,
    dated_rules=False,
    exports_trains=False,
    must_buy_train="route",
    undated_rules=rules_of,
    sell_buy_order="sell_buy_sell",  # g_1882/game.rb SELL_BUY_ORDER = :sell_buy_sell
    ebuy_from_others=True,  # base EBUY_FROM_OTHERS = :value
    examples={"hex": "I5", "node": "I5-0"},  # Regina
    operating_steps=OPERATING_STEPS,
    game_level_missing=(
        "the Saskatchewan Central's par by exchange and the trains it adds, the North West "
        "Rebellion's tile removals and token move, CN's neutral stations placed by the other "
        "corporations, and the Trestle Bridge's river income (g_1882/game.rb, entities.rb)"
    ),
    # The first run of the shared log 5585 (action 88): QLL's two 2-trains from its home,
    # the second city of Pile o' Bones & Lumsden J10 (recorded and optimal: $50).
    warm_up_state={
        "title": "1882", "rule_set": "standard", "phase": "2", "corporation": "QLL",
        "trains": ["2", "2"],
        "tiles": [{"hex": "G11", "tile": "57", "rotation": 1}, {"hex": "H10", "tile": "9", "rotation": 2},
                  {"hex": "I11", "tile": "2", "rotation": 0}],
        "tokens": [{"hex": "G11", "city": 0, "corporation": "HBR"},
                   {"hex": "J10", "city": 1, "corporation": "QLL"}],
    },
)
