"""Special tile lays of privates owned by the operating corporation (RULES.md §7.2-§7.5).

Terracotta Army (L39 on H2), Heng Shan (L41 on C5), Great Wall (one or two
yellow tiles on wall hexes, connected to each other) and the Yanda ferry (L40a
on E17 and L40b on F16, both at once). Available at any moment of the owning
corporation's turn, in addition to its normal lay; the step blocks only in the
middle of a two-tile lay.

1830's DH teleport (1830 RULES.md §7.3; 18xx.games ``SpecialTrack`` + ``SpecialToken``):
tile 57 on the empty F16 as the corporation's normal lay for the turn, the terrain
paid, no connection needed; then the DH places the corporation's station token there
free (or passes), and the ability is used up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route18xx.engine.board.board import PlacedTile
from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, Entity, LayTile, Pass, PlaceToken
from route18xx.engine.game.or_context import current_round, lay_request, operator
from route18xx.engine.game.privates import special_lay_ability
from route18xx.engine.game.steps import NO_ACTIONS, Step
from route18xx.engine.game.tokens import hex_of_tile, lay_on_board
from route18xx.engine.game.track import check_lay

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game


class SpecialTrackStep(Step):
    """Tile lays of privates owned by the operating corporation (RULES.md §7.2-§7.5)."""

    name = "private tile lay"
    handles = frozenset({"lay_tile", "place_token"})

    def accepts(self, game: Game, action: Action) -> bool:
        rnd = current_round(game)
        pending = rnd.special[0] if rnd.special is not None else rnd.teleported
        return (
            action.is_company
            and action.type in ("lay_tile", "pass", "place_token")
            and (pending is None or action.entity == pending)
        )

    def blocks(self, game: Game) -> bool:
        rnd = current_round(game)
        return rnd.special is not None or rnd.teleported is not None

    def current_entity(self, game: Game) -> Entity | None:
        rnd = current_round(game)
        if rnd.teleported is not None:
            return rnd.teleported
        pending = rnd.special
        return pending[0] if pending is not None else rnd.current_entity(game)

    def actions(self, game: Game, entity: Entity) -> frozenset[str]:
        rnd = current_round(game)
        if not game.is_company(entity):
            return NO_ACTIONS
        if rnd.teleported is not None:
            return frozenset({"place_token", "pass"}) if entity == rnd.teleported else NO_ACTIONS
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
        if rnd.teleported is not None:
            self._teleport_token(game, action)
            return
        if isinstance(action, PlaceToken):
            raise IllegalAction("no_teleport", f"{company.sym} has laid no teleport tile to token")
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
        teleport = ability.get("type") == "teleport"
        track = next((s for s in rnd.steps if s.name == "track"), None)
        if teleport and (track is None or track.passed):
            raise IllegalAction(
                "track_done", f"{company.sym}'s teleport is {corp.sym}'s tile lay, already made this turn"
            )
        plan = check_lay(lay_request(game, corp, action, special=company.sym, first_special_lay=first))
        if plan.cost:
            game.pay_to_bank(corp, plan.cost)
        lifted = lay_on_board(game, plan.hex_id, PlacedTile(plan.tile, plan.rotation), plan.tile_id)
        rnd.pending_tokens.extend((sym, plan.hex_id) for sym in lifted)
        rnd.laid.append((plan.hex_id, company.sym))
        company.lay_uses -= 1
        if teleport:
            assert track is not None
            track.passed = True  # the corporation's one tile lay of the turn
            if corp.next_token_price is not None:
                rnd.teleported = company.sym
            return
        if company.lay_uses > 0 and ability.get("must_lay_together"):
            rnd.special = (company.sym, laid + [plan.hex_id])
        else:
            rnd.special = None
            if ability.get("must_lay_together"):
                company.lay_uses = 0

    def _teleport_token(self, game: Game, action: Action) -> None:
        """The free station token of a teleport on the hex just laid, or a pass
        (18xx.games ``SpecialToken``, ``teleport_complete``)."""
        rnd = current_round(game)
        corp = operator(game)
        if action.entity != rnd.teleported:
            raise IllegalAction("not_your_turn", f"{rnd.teleported} must place its token or pass")
        if isinstance(action, Pass):
            rnd.teleported = None
            return
        if not isinstance(action, PlaceToken):
            raise IllegalAction("teleport_token", f"{rnd.teleported} must place its token or pass")
        hex_id = rnd.laid[-1][0]
        if hex_of_tile(game, action.tile_id) != hex_id:
            raise IllegalAction("wrong_hex", f"{rnd.teleported}'s token goes on {hex_id}")
        cities = {c.index: c for c in game.board.tile_on(hex_id).tile.cities}
        city = action.city_index
        if city not in cities or len(game.board.tokens_in(hex_id, city)) >= cities[city].slots:
            raise IllegalAction("city_full", f"city {city} of {hex_id} has no free slot")
        if corp.sym in game.board.tokens_in(hex_id, city) or corp.next_token_price is None:
            raise IllegalAction("no_token_left", f"{corp.sym} cannot place a token there")
        game.state.board = game.board.with_token(hex_id, city, corp.sym)
        corp.tokens_used += 1  # free (1830 RULES.md §7.3)
        rnd.teleported = None
