"""A random player for whole games: it proposes plausible moves, the engine decides.

Product code since issue 15: ``engine.game.playout`` writes its games as
18xx.games logs, the corpus ``route18xx generate-logs`` makes for the audit.

For whatever step is waiting, the agent lists candidate actions in a random
order and submits them until the game accepts one (a refused action leaves the
game untouched, so trying is free). Routes come from the engine's optimizer;
tile lays and tokens from the engine's legality enumerations. The agent is
only a move generator: every rule is the engine's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from route18xx.engine.errors import IllegalAction
from route18xx.engine.game.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from route18xx.engine.game.auction import AuctionRound
from route18xx.engine.game.depot import train_name
from route18xx.engine.game.emergency import bundle
from route18xx.engine.routes.route_spec import RouteSpec
from route18xx.engine.game.game import Game
from route18xx.engine.game.operating_round import OperatingRound
from route18xx.engine.game.privates import price_range, privates_for_sale_to
from route18xx.engine.game.routing import route_state
from route18xx.engine.game.shares import IPO, POOL
from route18xx.engine.game.stock import sellable_percents
from route18xx.engine.game.stock_round import StockRound
from route18xx.engine.game.trains import depot_trains
from route18xx.engine.board.tile_lay import legal_tile_lays
from route18xx.engine.board.token_place import legal_token_placements


#: Time a random player's route solve may take: long enough to prove every optimum here.
PROOF_TIME_LIMIT_S = 120.0


class Stuck(Exception):
    """No candidate action was accepted: the agent (or the engine) is wrong."""


class RandomAgent:
    def __init__(self, game: Game, seed: int, stingy: bool = False) -> None:
        self.game = game
        self.rng = random.Random(seed)
        #: always pay out and buy the cheapest train when possible: poor corporations,
        #: forced trains, emergency sales and bankruptcies.
        self.stingy = stingy

    # -- driver -------------------------------------------------------------------

    def step(self) -> Action:
        """Submit one accepted action and return it."""
        tried = []
        for action in self.candidates():
            try:
                self.game.process(action)
            except IllegalAction as exc:
                tried.append(f"{action.type}:{exc.code}")
                continue
            return action
        raise Stuck(f"nothing accepted while waiting for {self.game.waiting_for()}; tried {tried[-12:]}")

    def candidates(self) -> Iterator[Action]:
        game = self.game
        rnd = game.round
        waiting = game.waiting_for()
        step, entity = waiting.get("step"), waiting.get("entity")
        if step == "discard train":
            corp = game.corporation(entity)
            yield from (DiscardTrain(corp.sym, "corporation", train=t) for t in self._shuffled(corp.trains))
            return
        if isinstance(rnd, AuctionRound):
            yield from self._auction(rnd, int(entity))  # type: ignore[arg-type]  # a seat id
        elif isinstance(rnd, StockRound):
            yield from self._stock(int(entity))  # type: ignore[arg-type]  # a seat id
        elif isinstance(rnd, OperatingRound):
            yield from self._operating(step, entity)

    def _shuffled(self, items: Any) -> list[Any]:
        out: list[Any] = list(items)
        self.rng.shuffle(out)
        return out

    # -- auction ------------------------------------------------------------------

    def _auction(self, rnd: AuctionRound, pid: int) -> Iterator[Action]:
        game = self.game
        if rnd.pending_par:  # a private granted a president's certificate (1830's B&O)
            sym = rnd.pending_par[0][1]
            for cell in self._shuffled(game.market.par_cells()):
                yield Par(pid, "player", corporation=sym, price=game.market.price(cell),
                          row=cell[0], column=cell[1])
            return
        if rnd.auctioning is not None:
            if self.rng.random() < 0.5:
                yield Bid(pid, "player", company=rnd.auctioning, price=rnd.min_bid(game, rnd.auctioning))
            yield Pass(pid, "player")
            return
        cheapest = game.company(rnd.unsold[0])
        if self.rng.random() < 0.6:
            yield Bid(pid, "player", company=cheapest.sym, price=cheapest.price)
        if self.rng.random() < 0.4 and len(rnd.unsold) > 1:
            other = self.rng.choice(rnd.unsold[1:])
            yield Bid(pid, "player", company=other, price=rnd.min_bid(game, other))
        yield Pass(pid, "player")

    # -- stock round --------------------------------------------------------------

    def _sales(self, pid: int) -> list[Action]:
        game = self.game
        player = game.player(pid)
        out: list[Action] = []
        for corp in game.corporations.values():
            for pct in sellable_percents(game, player, corp):
                out.append(SellShares(pid, "player", shares=bundle(game, player, corp, pct), percent=pct))
        return self._shuffled(out)

    def _exchanges(self) -> list[Action]:
        """A player's private exchanged for a share, now and then (1830's MH, any
        time of a stock or operating round, 1830 RULES.md §7.4): the engine says when."""
        game = self.game
        out: list[Action] = []
        for company in game.companies.values():
            ability = company.ability("exchange")
            listed = ability.get("corporations") if ability is not None else None
            if not company.owned_by_player() or not isinstance(listed, list):
                continue
            for sym in listed:
                corp = game.corporation(sym)
                for source in (IPO, POOL):
                    certs = [c for c in corp.shares.certs_of(source) if not c.endswith("_0")]
                    if certs:
                        out.append(BuyShares(company.sym, "company", shares=(certs[0],)))
        return out if out and self.rng.random() < 0.05 else []

    def _private_sales(self, pid: int) -> list[Action]:
        """Another player's private at a random price the buyer can pay (1830 RULES.md
        §5.9), now and then."""
        game = self.game
        cash = game.player(pid).cash
        for_sale = privates_for_sale_to(game, pid)
        if not for_sale or self.rng.random() >= 0.08:
            return []
        return [BuyCompany(pid, "player", company=c.sym,
                           price=self.rng.randint(1, min(cash, 2 * c.definition.value)))
                for c in self._shuffled(for_sale)[:2]]

    def _stock(self, pid: int) -> Iterator[Action]:
        game = self.game
        yield from self._exchanges()
        yield from self._private_sales(pid)
        buys: list[Action] = []
        for corp in game.corporations.values():
            if not corp.ipoed:
                for cell in game.market.par_cells():
                    buys.append(
                        Par(
                            pid,
                            "player",
                            corporation=corp.sym,
                            price=game.market.price(cell),
                            row=cell[0],
                            column=cell[1],
                        )
                    )
                continue
            for source in (IPO, POOL):
                certs = [c for c in corp.shares.certs_of(source) if not c.endswith("_0")]
                if certs:
                    buys.append(BuyShares(pid, "player", shares=(certs[0],)))
        buys = self._shuffled(buys)[:12]
        roll = self.rng.random()
        if roll < 0.2:
            yield from self._sales(pid)[:6]
        if roll < 0.85:
            yield from buys
        yield Pass(pid, "player")
        yield from self._sales(pid)  # must sell (over a limit)

    # -- operating round ----------------------------------------------------------

    def _operating(self, step: Any, entity: Any) -> Iterator[Action]:
        game = self.game
        if step in ("private tile lay", "special track"):
            rnd = game.round
            if isinstance(rnd, OperatingRound) and rnd.sold_lay is not None:  # 1889's ER at its sale
                yield from self._ability_lays(game.company(entity), 0.8)
            if isinstance(rnd, OperatingRound) and rnd.teleported is not None:  # 1830's DH token
                hex_id = rnd.laid[-1][0]
                tile_id = game.state.tile_at[hex_id]
                for city in game.board.tile_on(hex_id).tile.cities:
                    yield PlaceToken(entity, "company", city=f"{tile_id}-{city.index}")
            yield Pass(entity, "company")
            return
        if isinstance(entity, int):
            yield from self._sales(entity)
            return
        corp = game.corporation(entity)
        sym = corp.sym
        yield from self._exchanges()
        if step == "home token":  # a token a tile lay lifted goes back on a city of its hex
            rnd = game.round
            assert isinstance(rnd, OperatingRound)
            hex_id = rnd.pending_tokens[0][1]
            tile_id = game.state.tile_at.get(hex_id, game.data.hexes[hex_id].preprinted_tile_id)
            for city in self._shuffled(c.index for c in game.board.tile_on(hex_id).tile.cities):
                yield PlaceToken(sym, "corporation", city=f"{tile_id}-{city}")
            return
        if step == "track":
            yield from self._special_lays(corp)
            if self.rng.random() < 0.9:
                yield from self._tile_lays(corp)
            yield Pass(sym, "corporation")
        elif step == "token":
            if self.rng.random() < 0.7:
                for t in self._shuffled(legal_token_placements(game.board, sym, cash=corp.cash)):
                    tile_id = game.state.tile_at.get(t.hex, game.data.hexes[t.hex].preprinted_tile_id)
                    yield PlaceToken(sym, "corporation", city=f"{tile_id}-{t.city}")
            yield Pass(sym, "corporation")
        elif step == "run routes":
            yield self._run(corp)
            yield RunRoutes(sym, "corporation", routes=())
        elif step == "dividend":
            kinds = ["payout"] if self.stingy else ["payout", "payout", "withhold"]
            yield Dividend(sym, "corporation", kind=self.rng.choice(kinds))
        elif step == "buy trains":
            yield from self._train_buys(corp)
            yield Pass(sym, "corporation")
            yield from self._sales(game.player(corp.president).id) if corp.president else iter(())
            yield Bankrupt(sym, "corporation")
        elif step == "buy private":
            if self.rng.random() < 0.3:
                for company in self._shuffled(game.companies.values()):
                    low, high = price_range(company)
                    yield BuyCompany(
                        sym, "corporation", company=company.sym, price=self.rng.randint(low, high)
                    )
            yield Pass(sym, "corporation")

    def _ability_lays(self, company: Any, chance: float) -> Iterator[Action]:
        """Now and then, each lay a private's tile-lay ability names (hexes × tiles ×
        rotations, shuffled, the first free copy of each tile)."""
        ability = company.tile_lay
        if ability is None or self.rng.random() >= chance:
            return
        in_use = set(self.game.state.tile_at.values())
        lays = [(h, n, r) for h in ability["hexes"] for n in ability["tiles"] for r in range(6)]
        for hex_id, name, rotation in self._shuffled(lays):
            copy = next(i for i in range(99) if f"{name}-{i}" not in in_use)
            yield LayTile(company.sym, "company", hex=hex_id, tile=f"{name}-{copy}", rotation=rotation)

    def _special_lays(self, corp: Any) -> Iterator[Action]:
        game = self.game
        for company in game.companies_of(corp.president) if corp.president is not None else ():
            if company.tile_lay is not None and company.tile_lay.get("owner_type") == "player":
                yield from self._ability_lays(company, 0.3)  # 1889's MF, by the president
        for company in game.companies_of(corp.sym):
            ability = company.tile_lay
            if ability is not None and ability.get("type") == "teleport":  # 1830's DH
                if self.rng.random() < 0.5:
                    in_use = set(game.state.tile_at.values())
                    for hex_id in ability["hexes"]:
                        for name in ability["tiles"]:
                            copy = next(i for i in range(99) if f"{name}-{i}" not in in_use)
                            for rotation in self._shuffled(range(6)):
                                yield LayTile(company.sym, "company", hex=hex_id, tile=f"{name}-{copy}",
                                              rotation=rotation)
                continue
            if ability is None or ability.get("count") != 1 or self.rng.random() < 0.5:
                continue
            for hex_id in ability["hexes"]:
                for name in ability["tiles"]:
                    for rotation in range(6):
                        yield LayTile(company.sym, "company", hex=hex_id, tile=f"{name}-0", rotation=rotation)

    def _tile_lays(self, corp: Any) -> Iterator[Action]:
        game = self.game
        lays = legal_tile_lays(
            game.board,
            corp.sym,
            phase=game.phase,
            rule_set=game.rule_set,
            # Every blocker closes its hexes once any is a player's (as before the seam).
            player_owned_blockers=game.data.hex_blockers(game.rule_set.name) if _blocked(game) else (),
            cash=corp.cash,
        )
        in_use = set(game.state.tile_at.values())
        for lay in self._shuffled(lays)[:5]:
            copy = next(i for i in range(99) if f"{lay.tile}-{i}" not in in_use)
            yield LayTile(
                corp.sym, "corporation", hex=lay.hex, tile=f"{lay.tile}-{copy}", rotation=lay.rotation
            )

    def _run(self, corp: Any) -> RunRoutes:
        from route18xx.engine.answer.optimize import solve_report
        from route18xx.engine.inputs.state_file import require_trains

        game = self.game
        rnd = game.round
        assert isinstance(rnd, OperatingRound)
        runnable = [t for t in corp.trains if t not in rnd.ran]
        # A proven optimum, whatever the machine's load: a time-limited answer would make
        # the same seed play a different game on a busy machine.
        state = route_state(game, corp, runnable)
        require_trains(state)
        answer = solve_report(state, objective="total", time_limit_s=PROOF_TIME_LIMIT_S)
        if not answer["proven_optimal"]:
            raise Stuck(f"{corp.sym}'s routes were not proven optimal in {PROOF_TIME_LIMIT_S:g} s")
        ids: dict[str, list[str]] = {}
        for t in runnable:
            ids.setdefault(train_name(t), []).append(t)
        routes = []
        for r in answer["routes"]:
            train = ids[train_name(r["train"])].pop(0)
            routes.append(
                RouteSpec(
                    train,
                    tuple(tuple(c) for c in r["connections"]),
                    nodes=tuple(r["nodes"]),
                    hexes=tuple(r["hexes"]),
                    revenue=r["revenue"],
                    subsidy=r["subsidy"],
                )
            )
        return RunRoutes(corp.sym, "corporation", routes=tuple(routes))

    def _train_buys(self, corp: Any) -> Iterator[Action]:
        game = self.game
        offers: list[Action] = []
        for t in depot_trains(game):
            offers.append(BuyTrain(corp.sym, "corporation", train=t, price=game.trains[train_name(t)].price))
            new = game.trains[train_name(t)]
            if new.exchange_discount:  # a trade-in at the data's discount (1888 ¥700, 1830 $800)
                price = new.price - max(new.exchange_discount.values())
                for old in corp.trains:  # the engine refuses the trains it takes no discount for
                    offers.append(BuyTrain(corp.sym, "corporation", train=t, price=price, exchange=old))
        for other in game.corporations.values():
            if other is not corp and other.trains and corp.cash > 0:
                t = self.rng.choice(other.trains)
                offers.append(
                    BuyTrain(corp.sym, "corporation", train=t, price=self.rng.randint(1, max(1, corp.cash)))
                )
        if self.stingy:  # the cheapest depot train whenever possible
            offers = [
                o
                for o in offers
                if isinstance(o, BuyTrain) and o.exchange is None and game.train_owner(o.train) == "depot"
            ]
            offers.sort(key=lambda a: a.price if isinstance(a, BuyTrain) else 0)
            yield from offers[:1]
            return
        if corp.trains and self.rng.random() < 0.5:
            return
        yield from self._shuffled(offers)


def _blocked(game: Game) -> set[str]:
    from route18xx.engine.game.privates import blocked_hexes

    return blocked_hexes(game)
