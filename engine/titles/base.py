"""What a title is to the engine: its name, rule sets, data and the hooks where titles
differ (DESIGN.md §9, issue 25).

A title is data plus a few hooks. The facts (map, tiles, trains, phases, companies,
corporations, market, stop subsidies, destinations) are the title's data folder,
``engine/data/<name>/``; the fields here are the few rules that are not facts of a
board: the rule sets and how a log's options choose one, whether the dated rule table
applies, and the round hooks a full game needs (train export at the end of an OR set,
when a trainless company must buy). Route rules need nothing more: off-board groups,
bypass track and cities sharing a hex are all data (ROUTES.md §3.3, 1830 ROUTES.md §1.3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from route18xx.engine.errors import MalformedInput
from route18xx.engine.facts.datafiles import read_data_file
from route18xx.engine.facts.gamedata import GameData, game_data
from route18xx.engine.facts.rule_versions import RulesVersion
from route18xx.engine.facts.rulesets import RuleSet

#: When a company without a train must buy one: ``"always"`` or only with a route.
MustBuyTrain = Literal["always", "route"]

#: When home tokens are placed (``Title.home_token_timing``).
HomeTokenTiming = Literal["operate", "operating_round"]

#: A title's order of sales and purchases in a stock-round turn (``engine.game.sell_order``).
SellBuyOrder = Literal["sell_buy", "sell_buy_sell", "sell_buy_or_buy_sell"]

#: The steps of a corporation's operating turn, in order, by name (1888 RULES.md §6.3;
#: the steps are ``engine.game.operating_round.OPERATING_STEPS``): the default of a title.
OPERATING_STEPS = ("bankrupt", "share exchange", "private tile lay", "buy private at any time",
                   "home token", "track", "token", "run routes", "dividend", "discard train",
                   "buy trains", "buy private")


@dataclass(frozen=True)
class Title:
    """One 18xx title the engine plays (``engine.titles.TITLES`` lists them)."""

    #: The name a state file's ``title`` gives, e.g. ``"1888"``.
    name: str
    #: Other names 18xx.games logs use for it (``"1888N"``).
    aliases: tuple[str, ...]
    #: Rule set name → its options, in the order ``GetInfo`` lists them.
    rule_sets: Mapping[str, RuleSet]
    #: The rules of a log's ``settings.optional_rules`` (RULES.md §1).
    rule_set_of_options: Callable[[Sequence[str]], RuleSet]
    #: The ``settings.optional_rules`` a log writes for a rule set (its inverse).
    options_of_rule_set: Callable[[str], list[str]]
    #: Whether ``rules_as_of`` picks a dated rule version (1888 HISTORY.md §2); a title
    #: without a dated table plays its one current version.
    dated_rules: bool
    #: Whether the next train of the depot is exported at the end of each OR set
    #: (1888 RULES.md §9.6; 1830 exports nothing, 1830 RULES.md §14).
    exports_trains: bool
    #: When a trainless company must buy a train (1830 RULES.md §14: only with a route).
    must_buy_train: MustBuyTrain
    #: The one rules version of a title without a dated table, by rule set name
    #: (None: the dated table of ``engine.rule_versions`` applies).
    undated_rules: Callable[[str], RulesVersion] | None = None
    #: When a corporation's home token is placed: at the start of its first operating turn
    #: (``"operate"``, 1888 RULES.md §6.4), or at the start of each operating round for every
    #: corporation about to operate (``"operating_round"``: 18xx.games
    #: ``HOME_TOKEN_TIMING``, 1889; ``Round::Operating#setup``).
    home_token_timing: HomeTokenTiming = "operate"
    #: The order of sales and purchases in a stock-round turn (``engine.game.sell_order``:
    #: 1888 sells, then buys; 1830 ``SELL_BUY_ORDER = :sell_buy_sell``, 1830 RULES.md §14).
    sell_buy_order: SellBuyOrder = "sell_buy"
    #: A turn sells each corporation's shares at most once, as one block (18xx.games
    #: ``MUST_SELL_IN_BLOCKS``: 1889), in a stock round and in an emergency sale.
    must_sell_in_blocks: bool = False
    #: The rule set lets a turn's several brown-zone shares come from the IPO too
    #: (1830's ``multiple_brown_from_ipo``); otherwise only from the pool.
    multiple_buy_from_ipo: Callable[[str], bool] = lambda rule_set: False
    #: A private's share exchange may be made in operating rounds too (1830's MH,
    #: 1830 RULES.md §7.4; 1888's Forbidden City only in stock rounds).
    exchange_in_operating_round: bool = False
    #: Whether the president's money may buy a train from another corporation, for up
    #: to its face value (18xx.games ``EBUY_FROM_OTHERS``: 1830 ``:value``, 1830 RULES.md
    #: §6.11; 1888 ``:never``, only with the corporation's own cash).
    ebuy_from_others: bool = False
    #: An older state-file (and wire) field that stands for ``player_owned_blockers``: a
    #: bool, true when players own every private of the rule set that blocks hexes, false
    #: when they own none (1888's Heng Shan flag, kept as its alias; issue 25). None: the
    #: title states its blockers by ``player_owned_blockers`` only.
    blockers_alias: str | None = None
    #: A tiny real decision of the title, as a state file, that a server solves once
    #: before it reports SERVING (``engine.api.warm_up``); empty: nothing to warm up.
    warm_up_state: Mapping[str, Any] = field(default_factory=dict)
    #: Ids of the title's map that error texts show as the shape of a field
    #: (``"hex"``, ``"node"``): "a hex id such as 'G15'" (``engine.titles.example``).
    examples: Mapping[str, str] = field(default_factory=dict)
    #: The steps of its operating turn, in order, by name (``OPERATING_STEPS``, 1888's and
    #: 1830's; a title with a step of its own, such as 1889's special track, lists it).
    operating_steps: tuple[str, ...] = OPERATING_STEPS
    #: What the engine lacks to replay whole games of the title, when it plays the title at
    #: route level only for another reason than an operating step (DESIGN.md §10 "Titles at
    #: two levels"): a game of it is refused when it starts (``RouteLevelOnly``) naming it.
    game_level_missing: str | None = None

    @property
    def data(self) -> GameData:
        """The title's facts, parsed once (``engine/data/<name>/``)."""
        return game_data(self.name)

    @property
    def currency_format(self) -> str:
        """How its money is written (``"$%s"``), a fact of its data (``players.json``)."""
        return self.data.currency_format

    def rule_set(self, name: str) -> RuleSet | None:
        return self.rule_sets.get(name)

    def depot_order(self, rule_set: str) -> list[str]:
        """The depot's fixed train order under ``rule_set`` (``trains.json``; 1830's
        optional third 6-train is in its own order, 1830 data/README.md)."""
        raw = data_file(self.name, "trains")
        by_rule_set = raw.get("initial_depot_order_by_rule_set") or {}
        return list(by_rule_set.get(rule_set) or raw["initial_depot_order"])

    def blockers_from_alias(
        self, raw: Mapping[str, Any], blockers: frozenset[str]
    ) -> tuple[str, ...] | None:
        """A state file's ``blockers_alias`` read as ``player_owned_blockers`` (every one of
        ``blockers``, the rule set's privates that block hexes, or none); None when not
        given. ``MalformedInput`` naming the field when it is not true or false."""
        if self.blockers_alias is None or raw.get(self.blockers_alias) is None:
            return None
        flag = raw[self.blockers_alias]
        if not isinstance(flag, bool):
            raise MalformedInput(self.blockers_alias, "must be true or false")
        return tuple(sorted(blockers)) if flag else ()

    def blockers_fact(self, owned: Sequence[str], blockers: frozenset[str]) -> dict[str, Any]:
        """How a state file of this title states that players own ``owned`` of the rule
        set's ``blockers``: by the title's alias when it can say so (none or all of them:
        it also survives the wire, where an empty list reads as "not given"), else as the
        list ``player_owned_blockers``."""
        if self.blockers_alias is not None and set(owned) in (set(), set(blockers)):
            return {self.blockers_alias: bool(owned)}
        return {"player_owned_blockers": list(owned)}

    def setup_facts(self) -> Mapping[str, Any]:
        """Starting cash, certificate limits and auction constants (``players.json``)."""
        return data_file(self.name, "players")  # type: ignore[no-any-return]


def data_file(title: str, name: str) -> Any:
    """A title's raw data file ``engine/data/<title>/<name>.json``."""
    return read_data_file(title, name)
