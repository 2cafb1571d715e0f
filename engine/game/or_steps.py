"""The steps of a corporation's operating turn, in order (RULES.md §6.3).

bankrupt (non-blocking) · special track of owned privates (blocking only in the
middle of a two-tile ability) · buy a private (non-blocking) · track · token ·
run trains · dividend · discard · buy trains · buy a private (last chance,
blocking). Which of them wait for the player decides where an explicit
``pass`` goes (ACTIONS.md §3); the conditions here are the engine's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.board import PlacedTile
from engine.errors import IllegalAction
from engine.game.actions import (
    Action,
    Bankrupt,
    BuyCompany,
    BuyTrain,
    Dividend,
    Entity,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from engine.game.emergency import (
    apply_purchase,
    can_buy_train,
    can_go_bankrupt,
    check_emergency_sale,
    check_purchase,
    go_bankrupt,
    may_sell_for,
    must_buy_train,
)
from engine.game.graph import reached_sides
from engine.game.payout import distribute
from engine.game.privates import (
    blocked_hexes,
    can_buy_a_private,
    price_range,
    purchasable,
    special_lay_ability,
    unused_abilities,
)
from engine.game.routing import run_routes
from engine.game.steps import NO_ACTIONS, Step
from engine.game.stock import sell
from engine.game.tokens import check_token, lay_on_board, place_token, tokenable_cities
from engine.game.track import LayRequest, check_lay

if TYPE_CHECKING:
    from engine.game.corporations import Corporation
    from engine.game.game import Game
    from engine.game.operating_round import OperatingRound


def _rnd(game: Game) -> OperatingRound:
    from engine.game.operating_round import OperatingRound

    rnd = game.round
    assert isinstance(rnd, OperatingRound)
    return rnd


def _operator(game: Game) -> Corporation:
    return game.corporation(_rnd(game).current_entity(game))


def _not_operating(game: Game, action: Action) -> IllegalAction | None:
    """The refusal for a corporation acting out of turn, if that is the problem."""
    current = _rnd(game).current_entity(game)
    if action.entity != current:
        return IllegalAction("not_your_turn", f"{action.entity} cannot act now: {current} is operating")
    return None


class BankruptStep(Step):
    name = "bankrupt"
    can_block = False
    handles = frozenset({"bankrupt"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        return _not_operating(game, action) or IllegalAction(
            "not_bankrupt",
            f"{action.entity} may only go bankrupt when it must buy a train and even its "
            f"president's money and shares cannot pay for the cheapest one",
        )

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        if entity == _rnd(game).current_entity(game) and can_go_bankrupt(game, _operator(game)):
            return frozenset({"bankrupt"})
        return NO_ACTIONS

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, Bankrupt):
            raise IllegalAction("unsupported", action.type)
        go_bankrupt(game, _operator(game))


class SpecialTrackStep(Step):
    """Tile lays of privates owned by the operating corporation (RULES.md §7.2-§7.5)."""

    name = "private tile lay"
    handles = frozenset({"lay_tile"})

    def accepts(self, game: Game, action: Action) -> bool:
        pending = _rnd(game).special
        return (game.is_company(action.entity) and action.type in ("lay_tile", "pass")
                and (pending is None or action.entity == pending[0]))

    def blocks(self, game: Game) -> bool:
        return _rnd(game).special is not None

    def current_entity(self, game: Game) -> Entity | None:
        pending = _rnd(game).special
        return pending[0] if pending is not None else _rnd(game).current_entity(game)

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = _rnd(game)
        if not game.is_company(entity):
            return NO_ACTIONS
        if rnd.special is not None and entity != rnd.special[0]:
            return NO_ACTIONS
        company = game.company(entity)
        ability = special_lay_ability(game, company, _operator(game))
        if ability is None:
            return NO_ACTIONS
        if rnd.special is not None and not ability.get("blocks"):
            return frozenset({"lay_tile", "pass"})
        return frozenset({"lay_tile"})

    def skip(self, game: Game) -> None:
        """Never over for the turn: the abilities stay available (non-blocking)."""

    def process(self, game: Game, action: Action) -> None:
        rnd = _rnd(game)
        company = game.company(action.entity)
        corp = _operator(game)
        ability = special_lay_ability(game, company, corp)
        if ability is None:
            if company.owner != corp.sym:
                raise IllegalAction(
                    "not_owner",
                    f"{company.sym} is not owned by {corp.sym}, the operating corporation; "
                    f"only its owning corporation may use its ability",
                )
            raise IllegalAction("no_ability", f"{company.sym} has no tile lay left")
        if isinstance(action, Pass):
            if rnd.special is None:
                raise IllegalAction("nothing_to_pass", f"{company.sym} has no tile lay in progress")
            company.lay_uses = 0
            rnd.special = None
            return
        if not isinstance(action, LayTile):
            raise IllegalAction("unsupported", action.type)
        laid = rnd.special[1] if rnd.special is not None else []
        plan = check_lay(LayRequest(
            board=game.board, phase=game.phase, rule_set=game.rule_set, hex_id=action.hex,
            tile_id=action.tile, rotation=action.rotation, tiles_in_use=_tiles_in_use(game),
            blocked_hexes=blocked_hexes(game), reached_sides=None, ability=ability,
            ability_laid=laid,
        ))
        if plan.cost > corp.cash:
            raise IllegalAction("not_enough_cash", f"{corp.sym} cannot pay {plan.cost} for the terrain")
        if plan.cost:
            game.pay_to_bank(corp, plan.cost)
        lay_on_board(game, plan.hex_id, PlacedTile(plan.tile, plan.rotation), plan.tile_id)
        company.lay_uses -= 1
        if company.lay_uses > 0 and ability.get("must_lay_together"):
            rnd.special = (company.sym, laid + [plan.hex_id])
        else:
            rnd.special = None
            if ability.get("must_lay_together"):
                company.lay_uses = 0


class BuyCompanyStep(Step):
    """A corporation buys a player's private in phases 3-4 (RULES.md §6.12)."""

    name = "buy private"
    handles = frozenset({"buy_company"})

    def __init__(self, blocking: bool) -> None:
        super().__init__()
        self.can_block = blocking

    def accepts(self, game: Game, action: Action) -> bool:
        if not self.can_block and action.type == "buy_company":
            return action.entity == _rnd(game).current_entity(game)
        return super().accepts(game, action)

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        return _not_operating(game, action)

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = _rnd(game)
        if entity != rnd.current_entity(game):
            return NO_ACTIONS
        corp = _operator(game)
        if can_buy_a_private(game, corp):
            return frozenset({"buy_company", "pass"}) if self.can_block else frozenset({"buy_company"})
        if self.can_block and unused_abilities(game, corp):
            return frozenset({"pass"})
        return NO_ACTIONS

    def process(self, game: Game, action: Action) -> None:
        corp = _operator(game)
        if isinstance(action, Pass):
            self.passed = True
            return
        if not isinstance(action, BuyCompany):
            raise IllegalAction("unsupported", action.type)
        company = game.company(action.company)
        if company not in purchasable(game, corp):
            if not game.phase.corporations_may_buy_privates:
                raise IllegalAction(
                    "phase", f"corporations cannot buy privates in phase {game.phase.name}"
                )
            raise IllegalAction("not_for_sale", f"{company.sym} is not owned by a player")
        low, high = price_range(company)
        if not low <= action.price <= high:
            raise IllegalAction(
                "price_range", f"{company.sym} sells for {low} to {high}, not {action.price}"
            )
        if action.price > corp.cash:
            raise IllegalAction("not_enough_cash", f"{corp.sym} has {corp.cash}")
        assert isinstance(company.owner, int)
        game.transfer(corp, game.player(company.owner), action.price)
        company.owner = corp.sym


class TrackStep(Step):
    """One tile lay or upgrade per turn (RULES.md §6.5)."""

    name = "track"
    handles = frozenset({"lay_tile"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        if game.is_company(action.entity):
            return None
        refusal = _not_operating(game, action)
        if refusal is None and self.passed:
            refusal = IllegalAction(
                "track_done", f"{action.entity} already laid or passed its track this turn"
            )
        return refusal

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        if entity != _rnd(game).current_entity(game):
            return NO_ACTIONS
        return frozenset({"lay_tile", "pass"})

    def process(self, game: Game, action: Action) -> None:
        corp = _operator(game)
        if isinstance(action, Pass):
            self.passed = True
            return
        if not isinstance(action, LayTile):
            raise IllegalAction("unsupported", action.type)
        network = game.graph.reach(game.board, corp.sym)
        plan = check_lay(LayRequest(
            board=game.board, phase=game.phase, rule_set=game.rule_set, hex_id=action.hex,
            tile_id=action.tile, rotation=action.rotation, tiles_in_use=_tiles_in_use(game),
            blocked_hexes=blocked_hexes(game),
            reached_sides=reached_sides(game.board, network, corp.sym, action.hex)
            if action.hex in game.data.hexes else (),
        ))
        if plan.cost > corp.cash:
            raise IllegalAction(
                "not_enough_cash", f"{corp.sym} has {corp.cash}; the terrain on {plan.hex_id} costs {plan.cost}"
            )
        if plan.cost:
            game.pay_to_bank(corp, plan.cost)
        lay_on_board(game, plan.hex_id, PlacedTile(plan.tile, plan.rotation), plan.tile_id)
        self.passed = True


class TokenStep(Step):
    """At most one station token per turn (RULES.md §6.6)."""

    name = "token"
    handles = frozenset({"place_token"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        refusal = _not_operating(game, action)
        if refusal is not None:
            return refusal
        corp = _operator(game)
        price = corp.next_token_price
        if _rnd(game).tokened:
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
        rnd = _rnd(game)
        if entity != rnd.current_entity(game) or rnd.tokened:
            return NO_ACTIONS
        corp = _operator(game)
        price = corp.next_token_price
        if price is None or price > corp.cash or not tokenable_cities(game, corp):
            return NO_ACTIONS
        return frozenset({"place_token", "pass"})

    def process(self, game: Game, action: Action) -> None:
        rnd = _rnd(game)
        corp = _operator(game)
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
        refusal = _not_operating(game, action)
        if refusal is not None:
            return refusal
        corp = _operator(game)
        if not corp.trains:
            return IllegalAction("no_trains", f"{corp.sym} owns no train")
        if self.passed:
            return IllegalAction("already_ran", f"{corp.sym} already ran its trains this turn")
        return IllegalAction("no_route", f"{corp.sym} cannot reach two revenue centres")

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = _rnd(game)
        if entity != rnd.current_entity(game):
            return NO_ACTIONS
        corp = _operator(game)
        runnable = [t for t in corp.trains if t not in rnd.ran]
        if not runnable or not game.graph.route_available(game.board, corp.sym):
            return NO_ACTIONS
        return frozenset({"run_routes"})

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, RunRoutes):
            raise IllegalAction("unsupported", action.type)
        run_routes(game, _rnd(game), _operator(game), action)
        self.passed = True


class DividendStep(Step):
    name = "dividend"
    handles = frozenset({"dividend"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        return _not_operating(game, action) or IllegalAction(
            "no_revenue", f"{action.entity} has no run to pay out or withhold now"
        )

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = _rnd(game)
        if entity != rnd.current_entity(game) or not rnd.routes:
            return NO_ACTIONS
        return frozenset({"dividend"})

    def skip(self, game: Game) -> None:
        """Nothing earned: an automatic withhold of 0, the price moves left (§6.8)."""
        rnd = _rnd(game)
        distribute(game, _operator(game), "withhold", rnd.revenue, rnd.subsidy)
        self.passed = True

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, Dividend):
            raise IllegalAction("unsupported", action.type)
        rnd = _rnd(game)
        distribute(game, _operator(game), action.kind, rnd.revenue, rnd.subsidy)
        self.passed = True


class BuyTrainStep(Step):
    """Buy trains; the forced purchase with emergency money (RULES.md §6.9, §6.10)."""

    name = "buy trains"
    handles = frozenset({"buy_train", "sell_shares", "pass"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        corp = _operator(game)
        if action.type == "pass":
            if action.entity == corp.sym and not self.passed and must_buy_train(game, corp):
                return IllegalAction("must_buy_train", f"{corp.sym} has no train and must buy one")
            return None
        if action.type == "sell_shares":
            return IllegalAction(
                "no_emergency",
                f"shares may be sold in an operating round only by {corp.sym}'s president, "
                f"to pay for a train {corp.sym} must buy",
            )
        refusal = _not_operating(game, action)
        if refusal is not None:
            return refusal
        if len(corp.trains) >= game.train_limit():
            return IllegalAction(
                "train_limit",
                f"{corp.sym} has {len(corp.trains)} trains; the limit is {game.train_limit()}",
            )
        if self.passed:
            return IllegalAction("trains_done", f"{corp.sym} already passed buying trains")
        return IllegalAction("not_enough_cash", f"{corp.sym} cannot afford a train ({corp.cash})")

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = _rnd(game)
        corp = _operator(game)
        if isinstance(entity, int):
            player = game.player_or_none(entity)
            if player is not None and may_sell_for(game, corp, player):
                return frozenset({"sell_shares"})
            return NO_ACTIONS
        if entity != rnd.current_entity(game):
            return NO_ACTIONS
        if must_buy_train(game, corp):
            return frozenset({"buy_train"})
        if can_buy_train(game, corp):
            return frozenset({"buy_train", "pass"})
        return NO_ACTIONS

    def process(self, game: Game, action: Action) -> None:
        rnd = _rnd(game)
        corp = _operator(game)
        match action:
            case Pass():
                if must_buy_train(game, corp):
                    raise IllegalAction("must_buy_train", f"{corp.sym} has no train and must buy one")
                self.passed = True
            case BuyTrain():
                purchase = check_purchase(game, corp, action.train, action.price, action.exchange,
                                          rnd.emergency_sold)
                apply_purchase(game, corp, purchase)
            case SellShares():
                player = game.player(action.entity)
                sale = check_emergency_sale(game, corp, player, action.shares, action.percent)
                sell(game, sale)
                rnd.emergency_sold = True
                rnd.recalculate_order(game)
            case _:
                raise IllegalAction("unsupported", action.type)


def _tiles_in_use(game: Game) -> dict[str, str]:
    return {tile_id: hex_id for hex_id, tile_id in game.s.tile_at.items()}
