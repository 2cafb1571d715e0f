"""The private tile lays a player makes rather than the operating corporation (18xx.games
``G1889::Step::SpecialTrack``, g_1889/step/special_track.rb, and ``Step::SpecialTrack`` in
the stock round): 1889's operating step ``special track`` and the stock round's
``player private lay``.

Besides the lays of ``engine.game.special_track`` (the operating corporation's privates),
the operating step takes two lays the turn's corporation does not make itself:

* at a private's sale to a corporation, the selling player's lay of its ``sold`` ability
  (``engine.game.privates.sold_lay_ability``: the Ehime Railway's green tile on C4, in
  addition to the corporation's own lay): the step waits for it or a pass, which gives the
  lay up; its terrain is the seller's to pay (``spender: company_sellers``);
* the owning player's lay of a player's private at a time its ability names
  (``engine.game.privates.player_lay_ability``: the Mitsubishi Ferry's port), which the
  stock round takes too (``PlayerLayStep``).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from route18xx.engine.board.board import PlacedTile
from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, Entity, LayTile, Pass
from route18xx.engine.game.or_context import current_round, lay_request, operator
from route18xx.engine.game.privates import player_lay_ability, sold_lay_ability
from route18xx.engine.game.special_track import SpecialTrackStep
from route18xx.engine.game.steps import NO_ACTIONS, Step
from route18xx.engine.game.tokens import lay_on_board
from route18xx.engine.game.track import check_lay

if TYPE_CHECKING:
    from route18xx.engine.game.companies import Company
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.players import Player


class OwnerTrackStep(SpecialTrackStep):
    """The corporation's private lays, the seller's lay at a sale and the owning player's
    lay (module docstring)."""

    name = "special track"

    def _outside(self, game: Game, entity: Entity) -> frozenset[str]:
        """What ``entity``, a private, may do outside its corporation's own lays now."""
        sold = current_round(game).sold_lay
        if sold is not None:
            return frozenset({"lay_tile", "pass"}) if entity == sold[0] else NO_ACTIONS
        if game.is_company(entity) and player_lay_ability(game, game.company(entity)) is not None:
            return frozenset({"lay_tile"})
        return NO_ACTIONS

    def _takes(self, game: Game, action: Action) -> bool:
        """Is ``action`` a lay (or pass) outside the corporation's own lays?"""
        return action.is_company and action.type in self._outside(game, action.entity)

    def accepts(self, game: Game, action: Action) -> bool:
        if current_round(game).sold_lay is not None or self._takes(game, action):
            return self._takes(game, action)
        return super().accepts(game, action)

    def blocks(self, game: Game) -> bool:
        return current_round(game).sold_lay is not None or super().blocks(game)

    def current_entity(self, game: Game) -> Entity | None:
        sold = current_round(game).sold_lay
        return sold[0] if sold is not None else super().current_entity(game)

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        return self._outside(game, entity) or super().actions(game, entity)

    def process(self, game: Game, action: Action) -> None:
        rnd = current_round(game)
        if rnd.sold_lay is None and not self._takes(game, action):
            super().process(game, action)
            return
        company = game.company(action.entity)
        if rnd.sold_lay is not None:
            player = game.player(rnd.sold_lay[1])
            if isinstance(action, Pass):  # the lay is given up (``TrackLayWhenCompanySold``)
                company.lay_uses = 0
                rnd.sold_lay = None
                return
        else:
            assert isinstance(company.owner, int)
            player = game.player(company.owner)
        if not isinstance(action, LayTile):
            raise IllegalAction("unsupported", action.type)
        hex_id, lifted = lay_for_player(game, company, player, action, operator(game))
        rnd.pending_tokens.extend((sym, hex_id) for sym in lifted)
        rnd.laid.append((hex_id, company.sym))
        rnd.sold_lay = None


class PlayerLayStep(Step):
    """A player's private lay in a stock round, at any moment of it (18xx.games
    ``Step::SpecialTrack`` in ``stock_round``; ``when: stock_round``): it waits for nobody."""

    name = "player private lay"
    can_block = False
    handles = frozenset({"lay_tile"})

    def accepts(self, game: Game, action: Action) -> bool:
        return (action.is_company and action.type == "lay_tile"
                and player_lay_ability(game, game.company(action.entity)) is not None)

    def process(self, game: Game, action: Action) -> None:
        company = game.company(action.entity)
        if not isinstance(action, LayTile) or not isinstance(company.owner, int):
            raise IllegalAction("unsupported", action.type)
        # no corporation lays it: the judge reads the lay in the context of the first
        # corporation, which a lay needing no connection (``reachable`` false) never uses
        context = next(iter(game.corporations.values()))
        _, lifted = lay_for_player(game, company, game.player(company.owner), action, context)
        if lifted:
            raise IllegalAction("tokens_lifted", f"{company.sym}'s lay would lift station tokens")


def lay_for_player(game: Game, company: Company, player: Player, action: LayTile,
                   context: Corporation) -> tuple[str, list[str]]:
    """``company``'s lay outside its corporation's turn, judged as its ability's
    (``outside_turn``), its terrain paid by ``player``: the hex and the tokens it lifted."""
    if sold_lay_ability(company) is None and player_lay_ability(game, company) is None:
        raise IllegalAction("no_ability", f"{company.sym} has no tile lay left")
    request = dataclasses.replace(
        lay_request(game, context, action, special=company.sym),
        owned_privates=frozenset({company.sym}), cash=player.cash, outside_turn=True,
    )
    plan = check_lay(request)
    if plan.cost:
        game.pay_to_bank(player, plan.cost)
    lifted = lay_on_board(game, plan.hex_id, PlacedTile(plan.tile, plan.rotation), plan.tile_id)
    company.lay_uses -= 1
    return plan.hex_id, lifted
