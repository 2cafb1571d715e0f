"""The 1888 game facade: ``Game(rule_set, players)`` and ``process(action)`` (DESIGN.md §2).

The game delegates to its parts: bank, market, shares, depot, board, and the
current round with its ordered steps. ``process`` either applies an action
completely or raises ``IllegalAction`` (or ``MalformedInput``) and leaves the
state exactly as it was: every step validates before it changes anything, and
the facade also restores a snapshot should anything fail half-way.

Round sequence (RULES.md §3): private auction → stock round → a set of
operating rounds → stock round → … until the bank breaks (end of the set) or a
player goes bankrupt (at once), RULES.md §11.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from route18xx.engine.board.board import Board
from route18xx.engine.errors import IllegalAction, MalformedInput, RouteLevelOnly
from route18xx.engine.game.actions import Action, EndGame, Program, RunRoutes, parse_action
from route18xx.engine.game.bank import Bank
from route18xx.engine.game.companies import Company
from route18xx.engine.game.corporations import Corporation
from route18xx.engine.game.depot import Depot
from route18xx.engine.game.graph import GraphCache
from route18xx.engine.game.market import StockMarket
from route18xx.engine.game.players import Player
from route18xx.engine.game.shares import IPO, POOL
from route18xx.engine.game.state import GameState
from route18xx.engine.game.steps import Round, Step
from route18xx.engine.facts.gamedata import GameData, PhaseDef, TrainDef
from route18xx.engine.facts.rule_versions import RulesVersion, current_rules
from route18xx.engine.facts.rulesets import RuleSet
from route18xx.engine.titles import Title, title_named, title_of_data

if TYPE_CHECKING:
    from route18xx.engine.game.routing import RouteCheck

Holder = Player | Corporation


def setup_facts(title: str) -> Mapping[str, Any]:
    """Starting cash, certificate limits and auction constants (``players.json``)."""
    from route18xx.engine.titles import title_named

    return title_named(title).setup_facts()


class Game:
    """A game of 1888 under one rule set, seated in the given order (RULES.md §2.3)."""

    def __init__(
        self,
        rule_set: RuleSet | str,
        players: Sequence[tuple[int, str] | int],
        *,
        data: GameData | None = None,
        trust_recorded_routes: bool = False,
        safe: bool = True,
        rules: RulesVersion | None = None,
        title: Title | str,
        seed: int | None = None,
    ) -> None:
        if isinstance(title, str):
            title = title_named(title)
        if data is not None and title_of_data(data) is not title:
            raise MalformedInput("title", f"is {title.name}, but the data is {data.title}'s")
        #: the title played (``engine.titles``): its data, rule sets and hooks.
        self.title = title
        self._operating_steps()  # a step the engine lacks is refused now, not at the first OR
        if title.game_level_missing is not None:
            raise RouteLevelOnly(f"{title.name}: the engine lacks {title.game_level_missing}: "
                                 f"{title.name} is played at route level only, its logs are "
                                 "not replayed")
        if isinstance(rule_set, str):
            found = title.rule_set(rule_set)
            if found is None:
                raise MalformedInput("rule_set", f"unknown {title.name} rule set {rule_set!r}")
            rule_set = found
        self.rule_set = rule_set
        self.data = data or title.data
        #: the rules in force: 1888's dated table (``engine.rule_versions``; default
        #: today's), or the one version of an undated title.
        if rules is None:
            rules = title.undated_rules(rule_set.name) if title.undated_rules else current_rules(title.name)
        self.rules = rules
        self._trains = self.rules.trains(self.data.trains)
        self.facts = title.setup_facts()
        #: replay: apply recorded route revenues even if our judge disagrees (reported).
        self.trust_recorded_routes = trust_recorded_routes
        #: snapshot before each action and restore on failure.
        self.safe = safe
        self.graph = GraphCache()
        #: called after every round change with the game (checkpoints, tests).
        self.on_new_round: list[Callable[[Game], None]] = []
        #: called after every single processed action, auto-actions included.
        self.after_each: list[Callable[[Game, Action], None]] = []
        seats: list[tuple[int, str]] = []
        for i, seat in enumerate(players):
            if isinstance(seat, int):
                seats.append((seat, f"Player {i + 1}"))
            else:
                seats.append((int(seat[0]), str(seat[1])))
        n = len(seats)
        if not rule_set.min_players <= n <= rule_set.max_players:
            raise MalformedInput(
                "players",
                f"{rule_set.name} {title.name} takes {rule_set.min_players}-{rule_set.max_players} players, not {n}",
            )
        if len({pid for pid, _ in seats}) != n:
            raise MalformedInput("players", "player ids must be distinct")
        cash = int(self.facts["starting_cash"][str(n)])
        bank = Bank(rule_set.bank)
        people = []
        for pid, name in seats:
            bank.pay(cash)
            people.append(Player(pid, name, cash))
        seated = rule_set.privates_for(n)  # by player count (1889's UTF, SIR; rule_sets.json)
        companies = {c.sym: Company.fresh(c) for c in self.data.companies[rule_set.name]
                     if seated is None or c.sym in seated}
        corporations = {sym: Corporation.fresh(c) for sym, c in self.data.corporations.items()}
        reservations = {
            corp: (hex_id, 0 if city is None else city)  # a whole-hex reservation: city 0 first
            for hex_id, h in self.data.hexes.items()
            for city, corp in h.home_reservations.items()
        }
        self.state = GameState(
            players=people,
            bank=bank,
            market=StockMarket.from_data(self.data.market, self.rules.no_cert_limit),
            corporations=corporations,
            companies=companies,
            depot=Depot.fresh(title.depot_order(rule_set.name)),
            board=Board({}, {}, self.data),
            reservations=reservations,
        )
        self.cert_limit = int(self.facts["certificate_limit"][str(n)])
        from route18xx.engine.game.auction import AuctionRound
        from route18xx.engine.game.stock_round import StockRound

        if rule_set.privates_dealt:  # dealt by the seed, then a stock round (engine.game.deal)
            from route18xx.engine.game.deal import deal_privates

            if seed is None:
                raise MalformedInput("seed", f"{rule_set.name} {title.name} deals its privates "
                                     "by the game's seed: the log's settings.seed or id")
            deal_privates(self, seed)
            self._start_round(StockRound())
        else:
            self._start_round(AuctionRound())

    # -- facts -----------------------------------------------------------------

    @property
    def trains(self) -> Mapping[str, TrainDef]:
        """The train types with the counts of the rules in force (HISTORY.md §2)."""
        return self._trains

    # -- state access ------------------------------------------------------------

    @property
    def players(self) -> list[Player]:
        return self.state.players

    @property
    def active_players(self) -> list[Player]:
        return [p for p in self.state.players if not p.bankrupt]

    @property
    def bank(self) -> Bank:
        return self.state.bank

    @property
    def market(self) -> StockMarket:
        return self.state.market

    @property
    def corporations(self) -> dict[str, Corporation]:
        return self.state.corporations

    @property
    def companies(self) -> dict[str, Company]:
        return self.state.companies

    @property
    def depot(self) -> Depot:
        return self.state.depot

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def phase(self) -> PhaseDef:
        return self.data.phases[self.state.phase_index]

    @property
    def round(self) -> Round:
        assert self.state.round is not None
        return self.state.round

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def finished(self) -> bool:
        return self.state.finished

    def player_or_none(self, pid: Any) -> Player | None:
        for p in self.state.players:
            if p.id == pid:
                return p
        return None

    def player(self, pid: Any) -> Player:
        p = self.player_or_none(pid)
        if p is None:
            raise MalformedInput("entity", f"there is no player {pid!r} in this game")
        return p

    def corporation(self, sym: Any) -> Corporation:
        corp = self.state.corporations.get(sym) if isinstance(sym, str) else None
        if corp is None:
            raise MalformedInput("corporation", f"there is no corporation {sym!r}")
        return corp

    def company(self, sym: Any) -> Company:
        company = self.state.companies.get(sym) if isinstance(sym, str) else None
        if company is None:
            raise MalformedInput("company", f"there is no private company {sym!r}")
        return company

    def holder(self, entity: int | str) -> Holder:
        """The player or corporation with this id / symbol."""
        if isinstance(entity, int):
            return self.player(entity)
        return self.corporation(entity)

    def is_corporation(self, entity: Any) -> bool:
        return isinstance(entity, str) and entity in self.state.corporations

    def is_company(self, entity: Any) -> bool:
        return isinstance(entity, str) and entity in self.state.companies

    # -- money (RULES.md §10) ------------------------------------------------------

    def pay_from_bank(self, to: Holder, amount: int) -> None:
        self.state.bank.pay(amount)
        to.cash += amount

    def pay_to_bank(self, frm: Holder, amount: int) -> None:
        frm.cash -= amount
        self.state.bank.receive(amount)

    def transfer(self, frm: Holder, to: Holder, amount: int) -> None:
        frm.cash -= amount
        to.cash += amount

    def total_money(self) -> int:
        """Players + corporations + bank: constant through the game (an invariant)."""
        return (
            sum(p.cash for p in self.state.players)
            + sum(c.cash for c in self.state.corporations.values())
            + self.state.bank.cash
        )

    # -- shared queries --------------------------------------------------------------

    def price(self, corp: Corporation) -> int:
        assert corp.share_price is not None
        return self.market.price(corp.share_price)

    def num_certs(self, player: Player) -> int:
        """Certificates counting toward the limit (RULES.md §5.11): shares outside the
        yellow zone (president's certificate = 1) plus privates."""
        count = sum(1 for c in self.state.companies.values() if c.owner == player.id and not c.closed)
        market = self.market
        for corp in self.state.corporations.values():
            if market.no_cert_limit(corp.share_price):
                continue
            count += len(corp.shares.holdings.get(player.id, ()))
        return count

    def operating_order(self, corps: Iterable[Corporation] | None = None) -> list[Corporation]:
        """Floated corporations by price, column (further right first), row, arrival (§6.1)."""
        pool = list(corps) if corps is not None else [c for c in self.state.corporations.values() if c.floated]

        def key(c: Corporation) -> tuple[int, int, int, int, str]:
            cell = c.share_price
            assert cell is not None
            return (
                -self.market.price(cell),
                -cell[1],
                cell[0],
                self.market.arrival_index(c.sym, cell),
                c.sym,
            )

        return sorted(pool, key=key)

    def train_limit(self) -> int:
        return self.phase.train_limit

    def crowded_corporations(self) -> list[Corporation]:
        """Corporations over the phase's train limit, in operating order (RULES.md §6.11)."""
        limit = self.train_limit()
        crowded = [c for c in self.state.corporations.values() if len(c.trains) > limit]
        return self.operating_order(crowded) if crowded else []

    def companies_of(self, owner: int | str) -> list[Company]:
        return [c for c in self.state.companies.values() if c.owner == owner and not c.closed]

    def train_owner(self, train_id: str) -> str | None:
        """``"depot"`` for the depot and its discard pile, a corporation symbol, or None."""
        if self.depot.holds(train_id):
            return "depot"
        for corp in self.state.corporations.values():
            if train_id in corp.trains:
                return corp.sym
        return None

    # -- processing ------------------------------------------------------------------

    def process_raw(self, raw: Mapping[str, Any]) -> RouteCheck | None:
        """Parse a log entry and process it with its auto-actions (ACTIONS.md §2.3)."""
        return self.process(parse_action(raw))

    def process(self, action: Action) -> RouteCheck | None:
        """Apply ``action`` and then its auto-actions; on any error the state is unchanged.

        A ``run_routes`` returns the engine's judgement of the recorded routes
        (its figures, and what disagrees with the log); other actions None.
        """
        snapshot = self.state.snapshot() if self.safe else None
        try:
            check = self._process_one(action)
            for auto in action.auto_actions:
                self._process_one(auto)
        except Exception:
            if snapshot is not None:
                self.state = snapshot
                self.graph = GraphCache()
            raise
        return check

    def _process_one(self, action: Action) -> RouteCheck | None:
        if isinstance(action, Program):
            return None  # program_* and messages change nothing (ACTIONS.md §2.5)
        if self.state.finished:
            raise IllegalAction("game_over", "the game is over")
        self._check_entity(action)
        if isinstance(action, EndGame):
            if action.id is not None:
                self.state.last_action_id = action.id
            self._end_game("manually_ended")
            return None
        rnd = self.round
        self.round.process(self, action)
        check = _run_check(rnd) if isinstance(action, RunRoutes) else None
        if action.id is not None:
            self.state.last_action_id = action.id
        self._advance_rounds()
        for hook in self.after_each:
            hook(self, action)
        return check

    def _check_entity(self, action: Action) -> None:
        entity = action.entity
        if isinstance(entity, int):
            player = self.player(entity)
            if player.bankrupt:
                raise IllegalAction("bankrupt", f"{player.name} is bankrupt")
        elif not (self.is_corporation(entity) or self.is_company(entity)):
            raise MalformedInput("entity", f"there is no player, corporation or private {entity!r}")

    def _advance_rounds(self) -> None:
        while not self.state.finished and self.round.finished(self):
            if self._end_now():
                self._end_game(self.state.end_reason or "bank")
                break
            self._next_round()

    def _end_now(self) -> bool:
        """Bank broken: the game ends when the current set of ORs is complete (§11.1)."""
        from route18xx.engine.game.operating_round import OperatingRound

        if not self.state.bank.broken:
            return False
        rnd = self.round
        if isinstance(rnd, OperatingRound) and rnd.number == self.state.operating_rounds:
            self.state.end_reason = "bank"
            return True
        return False

    def _end_game(self, reason: str) -> None:
        self.state.finished = True
        self.state.end_reason = reason

    def end_immediately(self, reason: str) -> None:
        """Bankruptcy ends the game at once (RULES.md §11.2)."""
        self._end_game(reason)

    def _next_round(self) -> None:
        from route18xx.engine.game.auction import AuctionRound
        from route18xx.engine.game.operating_round import OperatingRound
        from route18xx.engine.game.stock_round import StockRound
        from route18xx.engine.game.trains import or_set_finished

        rnd = self.round
        if isinstance(rnd, AuctionRound):
            self.rotate_players_to(rnd.priority_player(self))
            self._start_round(StockRound())
        elif isinstance(rnd, StockRound):
            self.state.operating_rounds = self.phase.operating_rounds
            self.rotate_players_to(rnd.priority_player(self))
            self._start_round(OperatingRound(1, self._operating_steps()))
        elif isinstance(rnd, OperatingRound):
            if rnd.number < self.state.operating_rounds:
                self._start_round(OperatingRound(rnd.number + 1, self._operating_steps()))
            else:
                self.state.turn += 1
                or_set_finished(self)
                self._start_round(StockRound())

    def _operating_steps(self) -> list[Step]:
        """Fresh steps of the title's operating turn (``Title.operating_steps``)."""
        from route18xx.engine.game.operating_round import operating_steps

        return operating_steps(self.title.name, self.title.operating_steps)

    def _start_round(self, rnd: Round) -> None:
        self.state.round = rnd
        rnd.setup(self)
        for hook in self.on_new_round:
            hook(self)

    def rotate_players_to(self, first: Player | None) -> None:
        """Seat ``first`` first, keeping the cyclic order (priority deal, RULES.md §4.7, §5.4)."""
        if first is None:
            return
        players = self.state.players
        i = players.index(first)
        self.state.players = players[i:] + players[:i]

    # -- reports -----------------------------------------------------------------------

    def scores(self) -> dict[int, int]:
        from route18xx.engine.game.scoring import scores

        return scores(self)

    def waiting_for(self) -> dict[str, Any]:
        if self.state.finished:
            return {}
        return self.round.waiting_for(self)


__all__ = ["Game", "IPO", "POOL"]


def _run_check(rnd: Round) -> RouteCheck | None:
    """The judgement of the run an operating round just booked."""
    from route18xx.engine.game.operating_round import OperatingRound

    return rnd.run_check if isinstance(rnd, OperatingRound) else None
