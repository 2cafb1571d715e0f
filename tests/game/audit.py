"""Helpers for the rule-audit scenarios (``test_audit_*.py``).

Every move goes through the 18xx.games log format (ACTIONS.md §2.1, §4): a
JSON object with ``type``, ``entity`` and ``entity_type`` and the fields the
action type documents, parsed by ``parse_action`` exactly as a replay would.
The scenario builders play short, fully legal openings of a fresh game so
that the rule under test is reached through the rules, not by editing state.
"""

from __future__ import annotations

from typing import Any

from route18xx.engine.game.game import Game
from route18xx.engine.game.routing import RouteCheck

#: Seats of the fresh 4-player games (player id = seat number).
P1, P2, P3, P4 = 1, 2, 3, 4

#: The privates in auction order with their face values (RULES.md §2.4).
PRIVATES = (("KT", 25), ("TA", 50), ("HS", 75), ("CW", 100), ("YRF", 125), ("FC", 150))


def new_game(rule_set: str = "north") -> Game:
    """A fresh 4-player game: ¥600 each (RULES.md §2.1)."""
    return Game(rule_set, [(P1, "Player 1"), (P2, "Player 2"), (P3, "Player 3"), (P4, "Player 4")], title="1888")


def entity_type(game: Game, entity: int | str) -> str:
    if isinstance(entity, int):
        return "player"
    return "corporation" if game.is_corporation(entity) else "company"


def raw(game: Game, entity: int | str, action_type: str, /, **fields: Any) -> dict[str, Any]:
    """The log entry of one action (ACTIONS.md §2.1)."""
    return {"type": action_type, "entity": entity, "entity_type": entity_type(game, entity), **fields}


def act(game: Game, entity: int | str, action_type: str, /, **fields: Any) -> RouteCheck | None:
    """Process one action given as log JSON, auto-actions included; a run's judgement."""
    return game.process_raw(raw(game, entity, action_type, **fields))


def buy_privates_in_seat_order(game: Game) -> None:
    """Auction: each player in turn buys the cheapest private at face value (§4.2 a).

    P1 KT, P2 TA, P3 HS, P4 CW, P1 YRF, P2 FC; the next normal turn would be
    P3's, so P3 gets priority for stock round 1 (§4.7).
    """
    seats = [P1, P2, P3, P4]
    for i, (sym, value) in enumerate(PRIVATES):
        act(game, seats[i % 4], "bid", company=sym, price=value)


def share_price_id(game: Game, price: int) -> str:
    """The par cell id ``"<price>,<row>,<col>"`` of a par price (ACTIONS.md §4.3)."""
    for row, col in game.market.par_cells():
        if game.market.price((row, col)) == price:
            return f"{price},{row},{col}"
    raise ValueError(f"{price} is not a par price")


def certs(game: Game, sym: str, owner: int | str) -> list[str]:
    return game.corporation(sym).shares.certs_of(owner)


def open_jzr_game(rule_set: str = "north") -> Game:
    """A short legal opening that ends at the start of stock round 2.

    Auction: ``buy_privates_in_seat_order``. Stock round 1 (order P3 P4 P1 P2):
    P3 pars JZR at 90, P4 and P1 buy two JZR shares each (JZR floats with
    ¥900), P2 pars LYR at 70 and buys LYR_1 (LYR stays unfloated). OR 1.1:
    JZR places its home token in Beijing city 0, passes its track, buys 2-0
    and passes; the set ends and 2-1 is exported. JZR withheld nothing and
    stands at 85. Stock round 2 starts with P3 (after P2, the last to act).

    Holdings then: P3 JZR_0 (20 %, president); P4 JZR_1, JZR_3; P1 JZR_2,
    JZR_4; P2 LYR_0, LYR_1. Cash: P3 360, P4 340, P1 300, P2 230; JZR 820.
    """
    game = new_game(rule_set)
    buy_privates_in_seat_order(game)
    act(game, P3, "par", corporation="JZR", share_price=share_price_id(game, 90))
    act(game, P4, "buy_shares", shares=["JZR_1"], percent=10)
    act(game, P1, "buy_shares", shares=["JZR_2"], percent=10)
    act(game, P2, "par", corporation="LYR", share_price=share_price_id(game, 70))
    act(game, P3, "pass")
    act(game, P4, "buy_shares", shares=["JZR_3"], percent=10)
    act(game, P1, "buy_shares", shares=["JZR_4"], percent=10)
    act(game, P2, "buy_shares", shares=["LYR_1"], percent=10)
    for pid in (P3, P4, P1, P2):
        act(game, pid, "pass")
    act(game, "JZR", "pass")  # track
    act(game, "JZR", "buy_train", train="2-0", price=80, variant="2")
    act(game, "JZR", "pass")  # no second train
    assert game.round.kind == "stock" and game.turn == 2
    return game
