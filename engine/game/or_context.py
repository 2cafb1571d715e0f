"""Shared helpers of the operating-round steps: the round, the operating corporation."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import Action, LayTile
from route18xx.engine.game.track import LayRequest

if TYPE_CHECKING:
    from route18xx.engine.game.corporations import Corporation
    from route18xx.engine.game.game import Game
    from route18xx.engine.game.operating_round import OperatingRound


def current_round(game: Game) -> OperatingRound:
    """The operating round in progress, known by its kind (importing its class here would
    make a cycle: the round's steps use this module)."""
    rnd = game.round
    assert rnd.kind == "operating"
    return cast("OperatingRound", rnd)


def operator(game: Game) -> Corporation:
    return game.corporation(current_round(game).current_entity(game))


def not_operating(game: Game, action: Action) -> IllegalAction | None:
    """The refusal for a corporation acting out of turn, if that is the problem."""
    current = current_round(game).current_entity(game)
    if action.entity != current:
        return IllegalAction("not_your_turn", f"{action.entity} cannot act now: {current} is operating")
    return None


def tiles_in_use(game: Game) -> dict[str, str]:
    return {tile_id: hex_id for hex_id, tile_id in game.state.tile_at.items()}


def lay_request(
    game: Game,
    corp: Corporation,
    action: LayTile,
    special: str | None = None,
    first_special_lay: str | None = None,
) -> LayRequest:
    """The facts a tile lay by ``corp`` (or its private ``special``) is judged on now."""
    from route18xx.engine.game.privates import player_owned_blockers

    return LayRequest(
        board=game.board,
        phase=game.phase,
        rule_set=game.rule_set,
        corp=corp.sym,
        hex_id=action.hex,
        tile_id=action.tile,
        rotation=action.rotation,
        cash=corp.cash,
        tiles_in_use=tiles_in_use(game),
        owned_privates=frozenset(c.sym for c in game.companies_of(corp.sym)),
        player_owned_blockers=player_owned_blockers(game),
        special=special,
        first_special_lay=first_special_lay,
    )
