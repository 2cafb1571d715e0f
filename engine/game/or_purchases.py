"""The purchase steps of an operating turn (RULES.md §6.3 c, h-j, §6.9-§6.12).

buy a private (non-blocking, any time in phases 3-4, and a last blocking chance
at the end of the turn) · buy trains (with the forced train, emergency sales and
the president's contribution) · bankruptcy (non-blocking).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, Bankrupt, BuyCompany, BuyTrain, Entity, Pass, SellShares
from route18xx.engine.game.emergency import (
    apply_purchase,
    can_buy_train,
    can_go_bankrupt,
    check_emergency_sale,
    check_purchase,
    go_bankrupt,
    may_sell_for,
    must_buy_train,
)
from route18xx.engine.game.or_context import current_round, not_operating, operator
from route18xx.engine.game.privates import (
    can_buy_a_private, price_range, purchasable, sold_lay_ability, unused_abilities,
)
from route18xx.engine.game.steps import NO_ACTIONS, Step
from route18xx.engine.game.stock import sell

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game


class BankruptStep(Step):
    name = "bankrupt"
    can_block = False
    handles = frozenset({"bankrupt"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        return not_operating(game, action) or IllegalAction(
            "not_bankrupt",
            f"{action.entity} may only go bankrupt when it must buy a train and even its "
            f"president's money and shares cannot pay for the cheapest one",
        )

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        if entity == current_round(game).current_entity(game) and can_go_bankrupt(game, operator(game)):
            return frozenset({"bankrupt"})
        return NO_ACTIONS

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, Bankrupt):
            raise IllegalAction("unsupported", action.type)
        go_bankrupt(game, operator(game))


class BuyCompanyStep(Step):
    """A corporation buys a player's private in phases 3-4 (RULES.md §6.12)."""

    name = "buy private"
    handles = frozenset({"buy_company"})

    def __init__(self, blocking: bool) -> None:
        super().__init__()
        self.can_block = blocking

    def accepts(self, game: Game, action: Action) -> bool:
        if not self.can_block and action.type == "buy_company":
            return action.entity == current_round(game).current_entity(game)
        return super().accepts(game, action)

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        return not_operating(game, action)

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = current_round(game)
        if entity != rnd.current_entity(game):
            return NO_ACTIONS
        corp = operator(game)
        if can_buy_a_private(game, corp):
            return frozenset({"buy_company", "pass"}) if self.can_block else frozenset({"buy_company"})
        if self.can_block and unused_abilities(game, corp):
            return frozenset({"pass"})
        return NO_ACTIONS

    def process(self, game: Game, action: Action) -> None:
        corp = operator(game)
        if isinstance(action, Pass):
            self.passed = True
            return
        if not isinstance(action, BuyCompany):
            raise IllegalAction("unsupported", action.type)
        company = game.company(action.company)
        if company not in purchasable(game, corp):
            if not game.phase.corporations_may_buy_privates:
                raise IllegalAction("phase", f"corporations cannot buy privates in phase {game.phase.name}")
            raise IllegalAction("not_for_sale", f"{company.sym} is not owned by a player")
        low, high = price_range(company)
        if not low <= action.price <= high:
            raise IllegalAction("price_range", f"{company.sym} sells for {low} to {high}, not {action.price}")
        if action.price > corp.cash:
            raise IllegalAction("not_enough_cash", f"{corp.sym} has {corp.cash}")
        assert isinstance(company.owner, int)
        seller = company.owner
        game.transfer(corp, game.player(seller), action.price)
        company.owner = corp.sym
        if sold_lay_ability(company) is not None:  # the seller's lay at the sale (1889's ER)
            current_round(game).sold_lay = (company.sym, seller)


class BuyTrainStep(Step):
    """Buy trains; the forced purchase with emergency money (RULES.md §6.9, §6.10)."""

    name = "buy trains"
    handles = frozenset({"buy_train", "sell_shares", "pass"})

    def why_not(self, game: Game, action: Action) -> IllegalAction | None:
        corp = operator(game)
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
        refusal = not_operating(game, action)
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
        rnd = current_round(game)
        corp = operator(game)
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
        rnd = current_round(game)
        corp = operator(game)
        match action:
            case Pass():
                if must_buy_train(game, corp):
                    raise IllegalAction("must_buy_train", f"{corp.sym} has no train and must buy one")
                self.passed = True
            case BuyTrain():
                purchase = check_purchase(
                    game, corp, action.train, action.price, action.exchange, rnd.emergency_sold,
                    rnd.emergency_sale_price,
                )
                apply_purchase(game, corp, purchase)
            case SellShares():
                player = game.player(action.entity)
                sale = check_emergency_sale(game, corp, player, action.shares, action.percent)
                sell(game, sale)
                rnd.emergency_corps_sold.add(sale.corp)
                rnd.emergency_sold = True
                rnd.emergency_sale_price = sale.price_each
                rnd.recalculate_order(game)
            case _:
                raise IllegalAction("unsupported", action.type)
