"""A plain-data picture of a game: for reports, checkpoints and "state unchanged" tests.

``summary(game)`` lists what the rules care about — cash, certificates by id,
prices, trains, privates, the depot, tiles, tokens, reservations, phase and
whose turn it is — as JSON-ready values, so two summaries compare with ``==``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from route18xx.engine.game.scoring import player_value

if TYPE_CHECKING:
    from route18xx.engine.game.game import Game


def summary(game: Game) -> dict[str, Any]:
    s = game.state
    rnd = s.round
    return {
        "phase": game.phase.name,
        "turn": s.turn,
        "operating_rounds": s.operating_rounds,
        "round": _round(game),
        "bank": s.bank.cash,
        "bank_broken": s.bank.broken,
        "finished": s.finished,
        "end_reason": s.end_reason,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "cash": p.cash,
                "bankrupt": p.bankrupt,
                "value": player_value(game, p),
            }
            for p in s.players
        ],
        "corporations": {
            sym: {
                "cash": c.cash,
                "par": c.par_price,
                "price_cell": list(c.share_price) if c.share_price else None,
                "floated": c.floated,
                "operated": c.operated,
                "president": c.president,
                "tokens_used": c.tokens_used,
                "trains": list(c.trains),
                "shares": {str(o): list(v) for o, v in c.shares.holdings.items() if v},
            }
            for sym, c in s.corporations.items()
        },
        "companies": {
            sym: {"owner": c.owner, "closed": c.closed, "discount": c.discount, "lay_uses": c.lay_uses}
            for sym, c in s.companies.items()
        },
        "depot": {
            "upcoming": list(s.depot.upcoming),
            "discarded": list(s.depot.discarded),
            "removed": list(s.depot.removed),
        },
        "market": {f"{r},{c}": list(v) for (r, c), v in sorted(s.market.arrivals.items()) if v},
        "tiles": dict(sorted(s.tile_at.items())),
        "board": sorted((h, placed.tile.name, placed.rotation) for h, placed in s.board.placed.items()),
        "tokens": sorted((h, c, list(v)) for (h, c), v in s.board.tokens.items()),
        "reservations": sorted((corp, h, c) for corp, (h, c) in s.reservations.items()),
        "waiting_for": game.waiting_for() if rnd is not None else {},
    }


def _round(game: Game) -> dict[str, Any]:
    rnd = game.state.round
    if rnd is None:
        return {}
    out: dict[str, Any] = {"kind": rnd.kind, "entity": rnd.current_entity(game)}
    for attr in (
        "number",
        "order",
        "index",
        "tokened",
        "revenue",
        "subsidy",
        "special",
        "emergency_sold",
        "teleported",
        "pending_tokens",
        "passed",
        "turn_actions",
        "last_to_act",
        "unsold",
        "bids",
        "auctioning",
    ):
        if hasattr(rnd, attr):
            value = getattr(rnd, attr)
            out[attr] = sorted(value) if isinstance(value, set) else value
    out["ran"] = sorted(getattr(rnd, "ran", ()))
    out["sold"] = {str(k): sorted(v) for k, v in getattr(rnd, "sold", {}).items()}
    out["steps"] = [(step.name, step.passed) for step in rnd.steps]
    return out
