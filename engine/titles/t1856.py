"""1856 (Railroading in Upper Canada from 1856), at route level: its hooks behind the title
seam (DESIGN.md §10 "Titles at two levels"; issue 36).

Its facts are ``engine/data/1856/``, generated from 18xx.games' ``g_1856`` (map, tiles,
market, phases, trains, privates, corporations) plus the project's ``players.json``,
``rule_sets.json`` (``standard`` and each of the game's three optional rules alone) and
``route_rules.json``. What is new at route level is data read by the engine's rules:

* **The port marker** (the Great Lakes Shipping Company's): a route of the corporation that
  placed it earns $20 more when it stops at the marked hex (g_1856/game.rb ``revenue_for``;
  the state's ``assignments`` name the hex and the corporation).
* **Bridge and tunnel rights**: $10 more for each of Buffalo's hexes P17 and P19 (bridge) and
  Sarnia B13 (tunnel) a route stops at (``grant_right``; the state's ``hex_bonuses``).
* **The 8-train variant** (``eight_train_variant``): 8-trains (distance 8) and phase 8 in
  place of the diesels and phase D (``phases.json`` and ``trains.json`` by rule set).
* Off-boards priced in yellow, brown and black: phase D (or 8) lays black tiles' colour, and
  an off-board pays its black value there.

Game level is not reached: 1856's operating turn has many steps of its own (cash crisis,
loans, the port marker's assignment, escrow, nationalization, borrowed trains).
"""

from __future__ import annotations

from datetime import date
from functools import cache

from route18xx.engine.facts.gamedata import game_data
from route18xx.engine.facts.rule_versions import RulesVersion, marked_no_cert_limit
from route18xx.engine.facts.rulesets import rule_sets_of
from route18xx.engine.titles.base import Title

#: The rule sets (``engine/data/1856/rule_sets.json``).
RULE_SETS = rule_sets_of("1856")

#: 1856's operating turn (g_1856/game.rb ``operating_round``), by name: the steps the engine
#: has (1888's) and 1856's own, which it lacks.
OPERATING_STEPS = ("bankrupt", "cash crisis", "assign", "loan", "private tile lay",
                   "special token", "buy private at any time", "home token",
                   "nationalization", "track", "escrow", "token", "borrow train", "run routes",
                   "dividend", "discard train", "buy trains", "buy private")


@cache
def rules_of(rule_set: str) -> RulesVersion:
    """1856's one rules version (no dated table): a trainless company must buy only with a
    route (base ``MUST_BUY_TRAIN = :route``), the D (or the 8 in the variant) is on sale from
    phase 6 (trains.json ``available_on``), the market's yellow, orange and brown cells lift
    the certificate limit (g_1856/game.rb ``MARKET``)."""
    lifted = marked_no_cert_limit(game_data("1856"))
    eight = "eight_train_variant" in rule_set.split("+")
    return RulesVersion(
        name="1856",
        since=date(2020, 1, 1),
        must_buy_train="route",
        train_available_on={"8": "6"} if eight else {"D": "6"},
        train_counts={},
        no_cert_limit=lifted,
    )


TITLE = Title(
    name="1856",
    aliases=(),
    rule_sets=RULE_SETS.by_name,
    rule_set_of_options=RULE_SETS.of_options,
    options_of_rule_set=RULE_SETS.options_of,
    dated_rules=False,
    exports_trains=False,
    must_buy_train="route",
    undated_rules=rules_of,
    ebuy_from_others=False,  # g_1856/game.rb EBUY_FROM_OTHERS = :never
    examples={"hex": "C14", "node": "B13-0"},  # Maudaumin (a port); Sarnia
    operating_steps=OPERATING_STEPS,
    # The shared log 1856_game_end_bank, action 67: LPS's two 2-trains from its home
    # Maudaumin C14, which holds its port marker, to Sarnia B13: 2 × ($20 + $30 + $20) = $140.
    warm_up_state={
        "title": "1856", "rule_set": "standard", "phase": "3", "corporation": "LPS",
        "trains": ["2", "2"],
        "tiles": [{"hex": "K8", "tile": "6", "rotation": 5}, {"hex": "C14", "tile": "5", "rotation": 1},
                  {"hex": "F17", "tile": "6", "rotation": 1}, {"hex": "M6", "tile": "58", "rotation": 3},
                  {"hex": "B15", "tile": "7", "rotation": 3}],
        "tokens": [{"hex": "M4", "city": 0, "corporation": "CPR"},
                   {"hex": "F15", "city": 0, "corporation": "GW"},
                   {"hex": "K8", "city": 0, "corporation": "TGB"},
                   {"hex": "C14", "city": 0, "corporation": "LPS"}],
        "assignments": [{"hex": "C14", "assignment": "GLSC"},
                        {"corporation": "LPS", "assignment": "GLSC"}],
    },
)
