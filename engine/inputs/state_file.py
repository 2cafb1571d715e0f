"""Reading a state file (DESIGN.md §5) into a ``RouteState``, with clear errors.

Every error is a ``MalformedInput`` naming the field (``tiles[3].rotation``)
and the reason. The board's ``tiles`` and ``tokens`` are read by
``engine.board_file``: a tile must be able to stand where it is (RULES.md §6.5:
colour order, labels, kept track, exits on the map); a token must sit on a
city the tile has, in a free slot. The rules' limits on what a board can hold
(phase colours, rusted trains, train limit, token counts, privates) are checked
by ``engine.state_rules``, each list bounded before its items are read.
"""

from __future__ import annotations

import re
import time

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from route18xx.engine.board.board import Board
from route18xx.engine.inputs.board_file import parse_board as parse_board
from route18xx.engine.inputs.board_file import require
from route18xx.engine.board import state_rules as rules
from route18xx.engine.errors import MalformedInput, excerpt
from route18xx.engine.facts.gamedata import CorporationDef, GameData, HexId, PhaseDef, TrainDef
from route18xx.engine.facts.rule_versions import RulesVersion, parse_rules_as_of, today
from route18xx.engine.facts.rule_versions import rules_as_of as rules_on
from route18xx.engine.facts.rulesets import RuleSet
from route18xx.engine.inputs.state_game import check_game_facts
from route18xx.engine.titles import TITLES, Title, title_named, title_of_data


@dataclass(frozen=True)
class RouteState:
    """What a client knows when a company runs its trains."""

    rule_set: RuleSet
    phase: PhaseDef
    corporation: CorporationDef
    trains: tuple[TrainDef, ...]
    board: Board
    #: Optional facts of the company's turn, used by move suggestions (DESIGN.md §5):
    #: treasury cash (None = not given: costs are not checked), the privates the
    #: company owns, the privates players own that close hexes to tile lays (their
    #: ``blocks_hexes`` ability: 1888's one, 1830's six; None = not given: assumed while
    #: privates are open, i.e. before the first 5-train; a title's older field for it,
    #: ``Title.blockers_alias``, is read into it), and the lays the company already made
    #: this turn: (hex, private whose ability was used, or None for the normal track action).
    cash: int | None = None
    privates: tuple[str, ...] = ()
    player_owned_blockers: tuple[str, ...] | None = None
    tiles_laid: tuple[tuple[HexId, str | None], ...] = ()
    #: The date whose 1888 rules apply (DESIGN.md §9, HISTORY.md §2); None: today.
    rules_as_of: date | None = None
    #: The game's own ids of ``trains`` ("3-3"), when the state comes from a log:
    #: answers name their routes' trains as the log does (issue 22). Empty: the
    #: ids are numbered per type from 0 ("3-0", "3-1").
    train_ids: tuple[str, ...] = ()
    #: Markers the state names (STATE-FILES.md ``assignments``): on hexes (hex, marker) and
    #: on companies (company, marker); 1856's port marker is on a hex and on the company that
    #: placed it. Only markers the title pays for are kept (``GameData.assignment_bonuses``).
    hex_markers: tuple[tuple[HexId, str], ...] = ()
    company_markers: tuple[tuple[str, str], ...] = ()
    #: The company's own per-hex route bonuses (1856's bridge and tunnel rights, each one of
    #: ``GameData.hex_bonus_rights``): (hexes, value).
    hex_bonuses: tuple[tuple[tuple[HexId, ...], int], ...] = ()

    @property
    def data(self) -> GameData:
        return self.board.data

    @property
    def title(self) -> Title:
        """The title the state is of (``engine.titles``): its facts are ``data``."""
        return title_of_data(self.board.data)

    @property
    def rules(self) -> RulesVersion:
        """The rule version in force on ``rules_as_of`` (today when not given)."""
        return rules_on(self.rules_as_of or today(), self.title.name)


def parse_state(raw: Any, data: GameData | None = None) -> RouteState:
    """Turn a decoded state file into a ``RouteState`` or raise ``MalformedInput``.

    The state's ``title`` (required: issue 33) chooses the facts and rule sets
    (``engine.titles``); ``data``, when given, must be that title's.
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):  # a dict decided at once
        raise MalformedInput("state", "must be a JSON object")
    if "state" in raw and isinstance(raw["state"], Mapping) and "tiles" not in raw:
        raw = raw["state"]  # a state file with its reference beside it
    title = title_named(raw.get("title"))
    if data is None or data.title != title.name:
        data = title.data
    rule_set_name = require(raw, "rule_set", str, "")
    rule_set = title.rule_set(rule_set_name)
    if rule_set is None:
        raise MalformedInput(
            "rule_set",
            f"unknown rule set {excerpt(rule_set_name)}; expected one of {sorted(title.rule_sets)}",
        )
    check_game_facts(raw, title.name, rule_set, data)
    phase_name = require(raw, "phase", str, "")
    phase = data.phase(phase_name)
    if phase is None:
        names = [p.name for p in data.phases]
        raise MalformedInput("phase", f"unknown phase {excerpt(phase_name)}; expected one of {names}")
    if phase.rule_sets and rule_set.name not in phase.rule_sets:
        names = [p.name for p in data.phases if not p.rule_sets or rule_set.name in p.rule_sets]
        raise MalformedInput("phase", f"rule set {rule_set.name} has no phase {phase.name}; "
                                      f"expected one of {names}")
    corp_sym = require(raw, "corporation", str, "")
    if corp_sym not in data.corporations:
        raise MalformedInput(
            "corporation",
            f"unknown company {excerpt(corp_sym)}; expected one of {sorted(data.corporations)}",
        )
    as_of = parse_rules_as_of(raw.get("rules_as_of"))
    # A title without a dated rule table (1830) plays its one version (DESIGN.md §9).
    version = ((rules_on(as_of, title.name) if as_of else _rules_today(title.name))
               if title.dated_rules else None)
    trains_raw = require(raw, "trains", list, "")
    rules.check_train_count(trains_raw, phase, data, data.corporations[corp_sym])
    trains: list[TrainDef] = []
    owned: dict[str, int] = {}  # train type → how many the list names before this one
    for i, name in enumerate(trains_raw):
        if not isinstance(name, str) or name not in data.trains:
            raise MalformedInput(
                f"trains[{i}]", f"unknown train {excerpt(name)}; expected one of {sorted(data.trains)}"
            )
        train = data.trains[name]
        if train.rule_sets and rule_set.name not in train.rule_sets:
            raise MalformedInput(f"trains[{i}]", f"rule set {rule_set.name} has no {name}-train")
        before = owned.get(name, 0)
        rules.check_train(i, train, phase, data, before, version)
        owned[name] = before + 1
        trains.append(train)
    board = parse_board(raw.get("tiles", []), raw.get("tokens", []), rule_set, data, phase)
    cash = raw.get("cash")
    if cash is not None and (not isinstance(cash, int) or isinstance(cash, bool) or cash < 0):
        raise MalformedInput("cash", f"must be a whole number of yen >= 0, not {excerpt(cash)}")
    companies = data.derived_for(_companies, rule_set.name)
    privates = raw.get("privates", [])
    if not isinstance(privates, list):
        raise MalformedInput("privates", "must be a list of private company symbols")
    rules.check_private_count(privates, data.derived_for(_companies_sorted, rule_set.name))
    first_seen: dict[str, int] = {}
    for i, sym in enumerate(privates):
        if not isinstance(sym, str) or sym not in companies:
            raise MalformedInput(
                f"privates[{i}]",
                f"unknown private company {excerpt(sym)}; expected one of {sorted(companies)}",
            )
        rules.check_private(i, sym, first_seen.get(sym), phase, data)
        first_seen[sym] = i
    blockers = _player_owned_blockers(raw.get("player_owned_blockers"), data, rule_set.name)
    for other in TITLES.values():  # another title's alias says nothing here: refused
        alias = other.blockers_alias
        if other is not title and alias is not None and alias != title.blockers_alias \
                and raw.get(alias) is not None:
            raise MalformedInput(alias, f"is {other.name}'s field; a {title.name} state gives "
                                        "player_owned_blockers")
    aliased = title.blockers_from_alias(raw, data.derived_for(_hex_blockers, rule_set.name))
    if blockers is None:  # the list, when given, says more than the alias
        blockers = aliased
    laid_raw = raw.get("tiles_laid", [])
    if not isinstance(laid_raw, list):
        raise MalformedInput("tiles_laid", "must be a list of {hex, private} objects")
    rules.check_lay_count(laid_raw, data, rule_set.name)
    lays = rules.private_lays(data, rule_set.name) if laid_raw else {}
    teleports = rules.teleport_privates(data, rule_set.name) if laid_raw else frozenset()
    laid: list[tuple[HexId, str | None]] = []
    for i, item in enumerate(laid_raw):
        if not isinstance(item, Mapping):
            raise MalformedInput(f"tiles_laid[{i}]", "must be an object with 'hex' (and 'private')")
        hex_id = require(item, "hex", str, f"tiles_laid[{i}].")
        if hex_id not in data.hexes:
            raise MalformedInput(f"tiles_laid[{i}].hex", f"unknown hex {excerpt(hex_id)}")
        private = item.get("private")
        if private is not None and (not isinstance(private, str) or private not in companies):
            raise MalformedInput(
                f"tiles_laid[{i}].private", f"unknown private company {excerpt(private)}"
            )
        rules.check_lay(i, hex_id, private, laid, lays, teleports, len(data.tile_lays))
        laid.append((hex_id, private))
    hex_markers, company_markers = _assignments(raw.get("assignments"), data)
    return RouteState(
        rule_set,
        phase,
        data.corporations[corp_sym],
        tuple(trains),
        board,
        cash=cash,
        privates=tuple(privates),
        player_owned_blockers=blockers,
        tiles_laid=tuple(laid),
        rules_as_of=as_of,
        train_ids=_train_ids(raw.get("train_ids"), trains_raw),
        hex_markers=hex_markers,
        company_markers=company_markers,
        hex_bonuses=_hex_bonuses(raw.get("hex_bonuses"), data),
    )


def _assignments(raw: Any, data: GameData) -> tuple[tuple[tuple[HexId, str], ...], tuple[tuple[str, str], ...]]:
    """The state's ``assignments`` (STATE-FILES.md): each ``{"assignment", "hex"}`` or
    ``{"assignment", "corporation"}``; the markers the title pays for
    (``GameData.assignment_bonuses``: 1856's port), the others left aside (they change no
    route: 1856's has none)."""
    if raw is None:
        return (), ()
    if not isinstance(raw, list):
        raise MalformedInput("assignments", "must be a list of {assignment, hex or corporation} objects")
    on_hexes: list[tuple[HexId, str]] = []
    on_companies: list[tuple[str, str]] = []
    for i, item in enumerate(raw):
        where = f"assignments[{i}]"
        if not isinstance(item, Mapping):
            raise MalformedInput(where, "must be an object with 'assignment' and 'hex' or 'corporation'")
        marker = require(item, "assignment", str, f"{where}.")
        if marker not in data.assignment_bonuses:
            continue
        if "hex" in item:
            hex_id = require(item, "hex", str, f"{where}.")
            if hex_id not in data.hexes:
                raise MalformedInput(f"{where}.hex", f"unknown hex {excerpt(hex_id)}")
            on_hexes.append((hex_id, marker))
        else:
            corp = require(item, "corporation", str, f"{where}.")
            if corp not in data.corporations:
                raise MalformedInput(f"{where}.corporation", f"unknown company {excerpt(corp)}")
            on_companies.append((corp, marker))
    return tuple(on_hexes), tuple(on_companies)


def _hex_bonuses(raw: Any, data: GameData) -> tuple[tuple[tuple[HexId, ...], int], ...]:
    """The state's ``hex_bonuses`` (``{"hexes", "value"}`` each): each must be one of the
    title's rights (``GameData.hex_bonus_rights``: 1856's bridge and tunnel)."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise MalformedInput("hex_bonuses", "must be a list of {hexes, value} objects")
    known = {(tuple(sorted(r.hexes)), r.value): r for r in data.hex_bonus_rights}
    out: list[tuple[tuple[HexId, ...], int]] = []
    for i, item in enumerate(raw):
        where = f"hex_bonuses[{i}]"
        if not isinstance(item, Mapping) or not isinstance(item.get("hexes"), list):
            raise MalformedInput(where, "must be an object with 'hexes' and 'value'")
        key = (tuple(sorted(str(h) for h in item["hexes"])), item.get("value"))
        if key not in known:
            names = [f"{r.name}: {sorted(r.hexes)} {r.value}" for r in data.hex_bonus_rights]
            raise MalformedInput(where, f"{excerpt(dict(item))} is none of the title's rights {names}")
        if key in out:
            raise MalformedInput(where, "is listed twice")
        out.append(key)
    return tuple(out)


#: (UTC day number, title, the rules in force that day), held for ``_rules_today``.
_TODAY: tuple[int, str, RulesVersion] | None = None
_EPOCH = date(1970, 1, 1)


def _rules_today(title: str) -> RulesVersion:
    """The rules in force today in UTC (``rule_versions.today``; HISTORY.md §2), looked up
    once a day: the clock is read per request, not a date built and hashed."""
    global _TODAY
    day = int(time.time() // 86400)  # whole days since 1970-01-01 in UTC
    held = _TODAY
    if held is None or held[0] != day or held[1] != title:
        held = _TODAY = (day, title, rules_on(_EPOCH + timedelta(days=day), title))
    return held[2]


def _companies(data: GameData, rule_set: str) -> frozenset[str]:
    """The privates of ``rule_set`` (RULES.md §2.4), held by ``data``."""
    return frozenset(c.sym for c in data.companies[rule_set])


def _companies_sorted(data: GameData, rule_set: str) -> tuple[str, ...]:
    return tuple(sorted(data.derived_for(_companies, rule_set)))


def _hex_blockers(data: GameData, rule_set: str) -> frozenset[str]:
    """``GameData.hex_blockers``, worked out once per rule set and held by ``data``."""
    return data.hex_blockers(rule_set)


def _player_owned_blockers(raw: Any, data: GameData, rule_set: str) -> tuple[str, ...] | None:
    """``player_owned_blockers``: privates of the rule set with a ``blocks_hexes`` ability
    (RULES.md §7.3), each once; None when not given."""
    if raw is None:
        return None
    blockers = data.derived_for(_hex_blockers, rule_set)
    if not isinstance(raw, list) or len(raw) > len(blockers):
        raise MalformedInput(
            "player_owned_blockers", f"must be a list of at most {len(blockers)} of {sorted(blockers)}"
        )
    for i, sym in enumerate(raw):
        if not isinstance(sym, str) or sym not in blockers:
            raise MalformedInput(
                f"player_owned_blockers[{i}]",
                f"{excerpt(sym)} is no private that blocks hexes; expected one of {sorted(blockers)}",
            )
        if sym in raw[:i]:
            raise MalformedInput(f"player_owned_blockers[{i}]", f"{sym} is listed twice")
    return tuple(raw)


def _train_ids(ids: Any, trains: list[Any]) -> tuple[str, ...]:
    """The optional ``train_ids`` of a state file: one id per train, ``<train>-<n>``
    as 18xx.games names a train ("3-3"), each once; absent: none."""
    if ids is None:
        return ()
    if not isinstance(ids, list) or len(ids) != len(trains):
        raise MalformedInput("train_ids", f"must list one id per train ({len(trains)})")
    for i, (tid, name) in enumerate(zip(ids, trains)):
        if not isinstance(tid, str) or not re.fullmatch(re.escape(name) + r"-\d{1,4}", tid):
            raise MalformedInput(f"train_ids[{i}]", f"must be '{name}-<n>', not {excerpt(tid)}")
        if tid in ids[:i]:
            raise MalformedInput(f"train_ids[{i}]", f"names train {tid} twice")
    return tuple(ids)


def to_state_file(state: RouteState) -> dict[str, Any]:
    """``state`` as a state-file object (DESIGN.md §5); ``parse_state`` reads it back."""
    out: dict[str, Any] = {
        "title": state.title.name,
        "rule_set": state.rule_set.name,
        "phase": state.phase.name,
        "corporation": state.corporation.sym,
        "trains": [t.name for t in state.trains],
        "tiles": [
            {"hex": h, "tile": p.tile.name, "rotation": p.rotation}
            for h, p in sorted(state.board.placed.items())
        ],
        "tokens": [
            {"hex": h, "city": city, "corporation": corp}
            for (h, city), corps in sorted(state.board.tokens.items())
            for corp in corps
        ],
    }
    if state.cash is not None:
        out["cash"] = state.cash
    if state.privates:
        out["privates"] = list(state.privates)
    if state.player_owned_blockers is not None:
        blockers = state.data.hex_blockers(state.rule_set.name)
        out.update(state.title.blockers_fact(state.player_owned_blockers, blockers))
    if state.tiles_laid:
        out["tiles_laid"] = [
            {"hex": h, **({"private": p} if p else {})} for h, p in state.tiles_laid
        ]
    if state.rules_as_of is not None:
        out["rules_as_of"] = state.rules_as_of.isoformat()
    if state.hex_markers or state.company_markers:
        out["assignments"] = ([{"hex": h, "assignment": m} for h, m in state.hex_markers]
                              + [{"corporation": c, "assignment": m} for c, m in state.company_markers])
    if state.hex_bonuses:
        out["hex_bonuses"] = [{"hexes": list(h), "value": v} for h, v in state.hex_bonuses]
    return out


def require_trains(state: RouteState) -> None:
    """Solving needs at least one train: a state without one is a malformed request."""
    if not state.trains:
        raise MalformedInput("trains", "the company has no trains")
