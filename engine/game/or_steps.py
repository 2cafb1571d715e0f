"""The building and running steps of a corporation's operating turn (RULES.md §6.3 d-g).

track (one lay or upgrade, §6.5) · token (at most one, §6.6) · run trains
(ROUTES.md) · dividend (§6.8). The full order of the turn, with the private and
purchase steps of ``engine.game.or_purchases`` and ``engine.game.special_track``,
is in ``engine.game.operating_round``; which steps wait for the player decides
where an explicit ``pass`` goes (ACTIONS.md §3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.board.board import PlacedTile
from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, Dividend, Entity, LayTile, Pass, PlaceToken, RunRoutes
from route18xx.engine.game.or_context import current_round, lay_request, not_operating, operator
from route18xx.engine.game.payout import distribute
from route18xx.engine.game.privates import president_lay_waits
from route18xx.engine.game.routing import run_routes
from route18xx.engine.game.steps import NO_ACTIONS, Step
from route18xx.engine.game.tokens import (
    check_token,
    hex_of_tile,
    lay_on_board,
    place_lifted_token,
    place_token,
    tokenable_cities,
)
from route18xx.engine.game.track import check_lay

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game


class TrackStep(Step):
    """One tile lay or upgrade per turn (RULES.md §6.5)."""

    name = "track"
    handles = frozenset({"lay_tile"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        if action.is_company:
            return None
        refusal = not_operating(game, action)
        if refusal is None and self.passed:
            refusal = IllegalAction(
                "track_done", f"{action.entity} already laid or passed its track this turn"
            )
        return refusal

    def __init__(self) -> None:
        super().__init__()
        #: the corporation has made its lay, and waits only for its president's pass.
        self.laid = False

    def setup(self, game: Game) -> None:
        self.laid = False

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        if entity != current_round(game).current_entity(game):
            return NO_ACTIONS
        if self.laid:
            return frozenset({"pass"}) if president_lay_waits(game, operator(game)) else NO_ACTIONS
        return frozenset({"lay_tile", "pass"})

    def process(self, game: Game, action: Action) -> None:
        corp = operator(game)
        if isinstance(action, Pass):
            self.passed = True
            return
        if not isinstance(action, LayTile):
            raise IllegalAction("unsupported", action.type)
        if self.laid:
            raise IllegalAction("track_done", f"{corp.sym} already laid its tile this turn")
        plan = check_lay(lay_request(game, corp, action))
        if plan.cost:
            game.pay_to_bank(corp, plan.cost)
        lifted = lay_on_board(game, plan.hex_id, PlacedTile(plan.tile, plan.rotation), plan.tile_id)
        current_round(game).pending_tokens.extend((sym, plan.hex_id) for sym in lifted)
        current_round(game).laid.append((plan.hex_id, None))
        self.laid = True
        # the step stays for a pass while the president may still lay his private's tile
        # (``engine.game.privates.president_lay_waits``: 1889's Mitsubishi Ferry)
        self.passed = not president_lay_waits(game, corp)


class PendingTokenStep(Step):
    """A token lifted by a tile lay goes back on a city of its hex, chosen by the
    operating corporation, free (1830 ACTIONS.md §3 "HomeToken step"; 18xx.games
    ``Step::HomeToken`` after ``Tracker#update_token!``)."""

    name = "home token"
    handles = frozenset({"place_token"})

    def active(self, game: Game) -> bool:
        return bool(current_round(game).pending_tokens)

    def accepts(self, game: Game, action: Action) -> bool:
        return action.type == "place_token" and bool(current_round(game).pending_tokens)

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = current_round(game)
        if not rnd.pending_tokens or entity != rnd.current_entity(game):
            return NO_ACTIONS
        return frozenset({"place_token"})

    def process(self, game: Game, action: Action) -> None:
        rnd = current_round(game)
        if not isinstance(action, PlaceToken) or action.entity != rnd.current_entity(game):
            raise IllegalAction("not_your_turn", f"{rnd.current_entity(game)} must place the lifted token")
        corp, hex_id = rnd.pending_tokens[0]
        if hex_of_tile(game, action.tile_id) != hex_id:
            raise IllegalAction("wrong_hex", f"{corp}'s token must go back on {hex_id}")
        place_lifted_token(game, corp, hex_id, action.city_index)
        rnd.pending_tokens.pop(0)


class TokenStep(Step):
    """At most one station token per turn (RULES.md §6.6)."""

    name = "token"
    handles = frozenset({"place_token"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        refusal = not_operating(game, action)
        if refusal is not None:
            return refusal
        corp = operator(game)
        price = corp.next_token_price
        if current_round(game).tokened:
            return IllegalAction("already_tokened", f"{corp.sym} already placed a token this turn")
        if price is None:
            return IllegalAction("no_token_left", f"{corp.sym} has no station token left")
        if price > corp.cash:
            return IllegalAction(
                "not_enough_cash", f"{corp.sym} has {corp.cash}; its next token costs {price}"
            )
        if self.passed:
            return IllegalAction("token_done", f"{corp.sym} is past its token step this turn")
        return IllegalAction("not_connected", f"{corp.sym} reaches no city with a free slot")

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = current_round(game)
        if entity != rnd.current_entity(game) or rnd.tokened:
            return NO_ACTIONS
        corp = operator(game)
        price = corp.next_token_price
        if price is None or price > corp.cash or not tokenable_cities(game, corp):
            return NO_ACTIONS
        return frozenset({"place_token", "pass"})

    def process(self, game: Game, action: Action) -> None:
        rnd = current_round(game)
        corp = operator(game)
        if isinstance(action, Pass):
            self.passed = True
            return
        if not isinstance(action, PlaceToken):
            raise IllegalAction("unsupported", action.type)
        if rnd.tokened:
            raise IllegalAction("already_tokened", f"{corp.sym} already placed a token this turn")
        plan = check_token(game, corp, action.tile_id, action.city_index)
        place_token(game, corp, plan)
        rnd.tokened = True


class RouteStep(Step):
    """Run the trains on the recorded routes (ROUTES.md)."""

    name = "run routes"
    handles = frozenset({"run_routes"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        refusal = not_operating(game, action)
        if refusal is not None:
            return refusal
        corp = operator(game)
        if not corp.trains:
            return IllegalAction("no_trains", f"{corp.sym} owns no train")
        if self.passed:
            return IllegalAction("already_ran", f"{corp.sym} already ran its trains this turn")
        return IllegalAction("no_route", f"{corp.sym} cannot reach two revenue centres")

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = current_round(game)
        if entity != rnd.current_entity(game):
            return NO_ACTIONS
        corp = operator(game)
        runnable = [t for t in corp.trains if t not in rnd.ran]
        if not runnable or not game.graph.route_available(game.board, corp.sym):
            return NO_ACTIONS
        return frozenset({"run_routes"})

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, RunRoutes):
            raise IllegalAction("unsupported", action.type)
        run_routes(game, current_round(game), operator(game), action)
        self.passed = True


class DividendStep(Step):
    name = "dividend"
    handles = frozenset({"dividend"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        return not_operating(game, action) or IllegalAction(
            "no_revenue", f"{action.entity} has no run to pay out or withhold now"
        )

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = current_round(game)
        if entity != rnd.current_entity(game) or not rnd.routes:
            return NO_ACTIONS
        return frozenset({"dividend"})

    def skip(self, game: Game) -> None:
        """Nothing earned: an automatic withhold of 0, the price moves left (§6.8)."""
        rnd = current_round(game)
        distribute(game, operator(game), "withhold", rnd.revenue, rnd.subsidy)
        self.passed = True

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, Dividend):
            raise IllegalAction("unsupported", action.type)
        rnd = current_round(game)
        distribute(game, operator(game), action.kind, rnd.revenue, rnd.subsidy)
        self.passed = True
