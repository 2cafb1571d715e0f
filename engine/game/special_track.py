"""Special tile lays of privates owned by the operating corporation (RULES.md §7.2-§7.5).

Terracotta Army (L39 on H2), Heng Shan (L41 on C5), Great Wall (one or two
yellow tiles on wall hexes, connected to each other) and the Yanda ferry (L40a
on E17 and L40b on F16, both at once). Available at any moment of the owning
corporation's turn, in addition to its normal lay; the step blocks only in the
middle of a two-tile lay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.board import PlacedTile
from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, Entity, LayTile, Pass
from route18xx.engine.game.or_context import current_round, lay_request, operator
from route18xx.engine.game.privates import special_lay_ability
from route18xx.engine.game.steps import NO_ACTIONS, Step
from route18xx.engine.game.tokens import lay_on_board
from route18xx.engine.game.track import check_lay

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game


class SpecialTrackStep(Step):
    """Tile lays of privates owned by the operating corporation (RULES.md §7.2-§7.5)."""

    name = "private tile lay"
    handles = frozenset({"lay_tile"})

    def accepts(self, game: Game, action: Action) -> bool:
        pending = current_round(game).special
        return (
            game.is_company(action.entity)
            and action.type in ("lay_tile", "pass")
            and (pending is None or action.entity == pending[0])
        )

    def blocks(self, game: Game) -> bool:
        return current_round(game).special is not None

    def current_entity(self, game: Game) -> Entity | None:
        pending = current_round(game).special
        return pending[0] if pending is not None else current_round(game).current_entity(game)

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = current_round(game)
        if not game.is_company(entity):
            return NO_ACTIONS
        if rnd.special is not None and entity != rnd.special[0]:
            return NO_ACTIONS
        company = game.company(entity)
        ability = special_lay_ability(game, company, operator(game))
        if ability is None:
            return NO_ACTIONS
        if rnd.special is not None and not ability.get("blocks"):
            return frozenset({"lay_tile", "pass"})
        return frozenset({"lay_tile"})

    def skip(self, game: Game) -> None:
        """Never over for the turn: the abilities stay available (non-blocking)."""

    def process(self, game: Game, action: Action) -> None:
        rnd = current_round(game)
        company = game.company(action.entity)
        corp = operator(game)
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
            if ability.get("blocks"):
                raise IllegalAction(
                    "must_lay_all", f"{company.sym}'s tiles must all be laid once the first one is (§7.5)"
                )
            company.lay_uses = 0
            rnd.special = None
            return
        if not isinstance(action, LayTile):
            raise IllegalAction("unsupported", action.type)
        laid = rnd.special[1] if rnd.special is not None else []
        first = laid[0] if laid and ability.get("connect") else None
        plan = check_lay(lay_request(game, corp, action, special=company.sym, first_special_lay=first))
        if plan.cost:
            game.pay_to_bank(corp, plan.cost)
        lifted = lay_on_board(game, plan.hex_id, PlacedTile(plan.tile, plan.rotation), plan.tile_id)
        rnd.pending_tokens.extend((sym, plan.hex_id) for sym in lifted)
        rnd.laid.append((plan.hex_id, company.sym))
        company.lay_uses -= 1
        if company.lay_uses > 0 and ability.get("must_lay_together"):
            rnd.special = (company.sym, laid + [plan.hex_id])
        else:
            rnd.special = None
            if ability.get("must_lay_together"):
                company.lay_uses = 0
