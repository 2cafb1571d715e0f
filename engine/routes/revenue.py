"""What a stop and a route earn (ROUTES.md §4 and §5; 1830 ROUTES.md §4, §5).

* A stop is priced for the newest tile colour of the current phase (§4.1).
* A route that visits a node on the company's home hex and one on its
  destination hex earns the destination bonus (§5.2), per route; a title's own bonuses
  for stops on two sets of hexes are read the same way (``route_bonuses``: 1882's Hudson
  Bay bonus).
* A route with a stop on the mine hex earns the mine subsidy for the treasury,
  reported apart from revenue (§5.3).

Destinations and subsidies are the title's data (``CorporationDef.destination_hex``,
``GameData.stop_subsidies``): a title without them (1830) earns stop values alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from route18xx.engine.board.board import Board
from route18xx.engine.facts.gamedata import CorporationDef, GameData, HexId, PhaseDef

if TYPE_CHECKING:
    from route18xx.engine.inputs.state_file import RouteState


@dataclass(frozen=True)
class MineRule:
    """The title's mine: a route stopping on ``hex`` carries ``subsidy``, kept apart from
    its revenue (ROUTES.md §5.3)."""

    hex: HexId
    subsidy: int


def mine_rule(data: GameData) -> MineRule | None:
    """The title's mine (ROUTES.md §5.3; 1888's ``route_rules.json``), None without one."""
    subsidies = data.stop_subsidies
    if not subsidies:
        return None
    hex_id, subsidy = next(iter(sorted(subsidies.items())))
    return MineRule(hex_id, subsidy)


def stop_value(
    board: Board, hex_id: HexId, index: int, phase: PhaseDef, train: str | None = None
) -> int:
    """ROUTES.md §4.1: the value for the phase's newest tile colour; for ``train`` (a train
    name), its own value where the title's stops pay by train (18xx.games
    ``route_base_revenue``: a D earns an off-board's diesel value; ``train_stop_values``)."""
    node = board.revenue_center(hex_id, index)
    if node is None:
        return 0
    column = None if train is None else board.data.stop_column(train)
    return node.value_for_train(phase.revenue_color, column)


@dataclass(frozen=True)
class DestinationRule:
    """ROUTES.md §5.2: a route with a stop on each of the two hexes earns ``bonus``."""

    home_hex: HexId
    destination_hex: HexId
    bonus: int


def destination_rule(corp: CorporationDef) -> DestinationRule | None:
    """The company's destination bonus: the one place it is read (the validator, the
    route problem's pair bonus and the suggestion bound all price it from here).
    None for a company without a destination (every 1830 company)."""
    if corp.destination_hex is None:
        return None
    return DestinationRule(corp.home_hex, corp.destination_hex, corp.destination_bonus)


@dataclass(frozen=True)
class RouteBonus:
    """A bonus a route earns once when it stops on a hex of ``first`` and on a hex of
    ``second`` (the solver's ``PairBonus``): the destination bonus (ROUTES.md §5.2) and a
    title's own (``GameData.route_bonuses``: 1882's Hudson Bay bonus). ``rule`` says why."""

    value: int
    first: frozenset[HexId]
    second: frozenset[HexId]
    rule: str
    #: What a picture calls it ("destination bonus", "Hudson Bay bonus").
    name: str = "destination bonus"

    def earned(self, stop_hexes: Iterable[HexId]) -> bool:
        hexes = set(stop_hexes)
        return bool(self.first & hexes) and bool(self.second & hexes)


def route_bonuses(state: RouteState) -> tuple[RouteBonus, ...]:
    """Every bonus a route of the state's company may earn, the one place they are read (the
    validator, the route problem's pair bonuses, the suggestion bound and the breakdown price
    them from here): its destination (``destination_rule``), the title's
    (``GameData.route_bonuses``), the markers it holds on a hex (1856's port: the marker on
    the company and on a hex, ``GameData.assignment_bonuses``) and its per-hex rights (1856's
    bridge and tunnel: one bonus per hex, as 18xx.games sums them over a route's stop hexes)."""
    corp, data = state.corporation, state.data
    out: list[RouteBonus] = []
    rule = destination_rule(corp)
    if rule is not None:
        out.append(RouteBonus(
            rule.bonus, frozenset({rule.home_hex}), frozenset({rule.destination_hex}),
            f"{data.rule_section('destination_bonus')}: {corp.sym} home {corp.home_hex} and "
            f"destination {corp.destination_hex} on one route"))
    for b in data.route_bonuses:
        out.append(RouteBonus(
            b.value, b.first, b.second,
            f"{b.source}: the {b.name}, a stop on {' or '.join(sorted(b.first))} and one on "
            f"{' or '.join(sorted(b.second))}", b.name))
    held = {m for c, m in state.company_markers if c == corp.sym}
    for hex_id, marker in state.hex_markers:
        if marker in held:
            bonus = data.assignment_bonuses[marker]
            out.append(RouteBonus(bonus.value, frozenset({hex_id}), frozenset({hex_id}),
                                  f"{bonus.source}: {corp.sym}'s {bonus.name} on {hex_id}", bonus.name))
    rights = {(frozenset(h), v) for h, v in state.hex_bonuses}
    for right in data.hex_bonus_rights:
        if (right.hexes, right.value) in rights:
            for hex_id in sorted(right.hexes):
                out.append(RouteBonus(right.value, frozenset({hex_id}), frozenset({hex_id}),
                                      f"{right.source}: {corp.sym}'s {right.name} right, a stop on {hex_id}",
                                      f"{right.name} bonus"))
    return tuple(out)


def bonus_names(stop_hexes: Iterable[HexId], bonuses: Iterable[RouteBonus]) -> str:
    """The names of the ``bonuses`` a route stopping on ``stop_hexes`` earns, joined by
    "and" ("destination bonus"; "" when it earns none)."""
    hexes = set(stop_hexes)
    return " and ".join(dict.fromkeys(b.name for b in bonuses if b.earned(hexes)))


def bonus_of(stop_hexes: Iterable[HexId], bonuses: Iterable[RouteBonus]) -> int:
    """What a route stopping on ``stop_hexes`` earns of ``bonuses`` (each once)."""
    hexes = set(stop_hexes)
    return sum(b.value for b in bonuses if b.earned(hexes))


def stop_subsidy(hex_id: HexId, data: GameData) -> int:
    """ROUTES.md §5.3: the subsidy a stop on ``hex_id`` earns its route (1888's mine)."""
    return data.stop_subsidies.get(hex_id, 0)


def route_subsidy(stop_hexes: Iterable[HexId], data: GameData) -> int:
    """ROUTES.md §5.3: the subsidy for a route stopping on a subsidised hex (once)."""
    subsidies = data.stop_subsidies  # ``stop_subsidy`` of each hex
    return max((subsidies.get(h, 0) for h in set(stop_hexes)), default=0)
