"""Rules-level checks of a state file: what the rules say a real board can hold (issue 9).

``engine.state_file.parse_state`` reads the shape of a state; these small
functions refuse states no game of 1888 can reach: trains not yet sold or
already rusted, more trains than the phase's limit, tiles of a colour the
phase does not allow, more station tokens than a company owns, privates a
company cannot hold, impossible turn records. Every fact comes from the data
(``engine/data/1888``: phases, trains, corporations, companies).

Checks that bound a list's length run before any per-item work (DESIGN.md §8
"Limits first"): a request of 100 000 trains is refused on its length alone.
Where a rule is debatable the check is lenient: a real state must never be
refused.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Sequence

from route18xx.engine.errors import MalformedInput
from route18xx.engine.board.tile_abilities import is_turn_lay
from route18xx.engine.facts.gamedata import (
    COLOR_ORDER, CompanyDef, CorporationDef, GameData, PhaseDef, TileDef, TrainDef,
)
from route18xx.engine.facts.rule_versions import RulesVersion


def ordinal(n: int) -> str:
    """``1`` → ``1st``, ``4`` → ``4th``, ``22`` → ``22nd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def phase_rank(data: GameData, name: str) -> int:
    """Position of phase ``name`` in the game's order (phase 2 is 0)."""
    rank = data.derived(_phase_ranks).get(name)
    return next(i for i, p in enumerate(data.phases) if p.name == name) if rank is None else rank


def _phase_ranks(data: GameData) -> dict[str, int]:
    """Phase name → its position (the first of a repeated name, as ``phase_rank`` reads)."""
    ranks: dict[str, int] = {}
    for i, p in enumerate(data.phases):
        ranks.setdefault(p.name, i)
    return ranks


def _most_trains(data: GameData) -> int:
    """The largest train limit of any phase (RULES.md §6.9 #3)."""
    return max(p.train_limit for p in data.phases)


def _all_tokens(data: GameData) -> int:
    """Every company's station tokens together (RULES.md §2.5)."""
    return sum(c.stations for c in data.corporations.values())


def _first_phase_of(data: GameData, train: TrainDef) -> PhaseDef:
    """The phase in which a train type first exists: the one its first purchase starts,
    or the game's first phase when its purchase starts none (RULES.md §8)."""
    return data.phase(train.starts_phase) if train.starts_phase else data.phases[0]  # type: ignore[return-value]


def _rust_phase(data: GameData, train: TrainDef) -> PhaseDef | None:
    """The phase whose first train rusts ``train`` (RULES.md §9.2), or None if it never rusts."""
    if train.rusts_when_first_bought is None:
        return None
    return _first_phase_of(data, data.trains[train.rusts_when_first_bought])


# ---- trains (RULES.md §6.9, §8, §9) -------------------------------------------------


def check_train_count(trains_raw: Sequence[Any], phase: PhaseDef, data: GameData,
                      corp: CorporationDef | None = None) -> None:
    """A company holds at most its phase's train limit (RULES.md §6.9 #3, §8), and a company
    with a higher limit that much more (``CorporationDef.train_limit_increase``: 1856's CGR).

    Runs on the list's length alone, before any train is read.
    """
    more = corp.train_limit_increase if corp is not None else 0
    most = data.derived(_most_trains) + more
    if len(trains_raw) > most:
        raise MalformedInput(
            "trains",
            f"lists {len(trains_raw)} trains; no phase allows a company more than {most} "
            "(train limit, RULES.md §6.9 #3)",
        )
    limit = phase.train_limit + more
    if len(trains_raw) > limit:
        raise MalformedInput(
            f"trains[{limit}]",
            f"phase {phase.name} allows {limit} trains per company (train limit, "
            f"RULES.md §6.9 #3); this is its {ordinal(limit + 1)}",
        )


def check_train(
    index: int, train: TrainDef, phase: PhaseDef, data: GameData, owned_before: int,
    rules: RulesVersion | None = None,
) -> None:
    """One owned train: on sale in this phase, not rusted, within the depot's supply.

    A train type exists from the phase its first purchase starts (RULES.md §8:
    the first 5-train starts phase 5, so no 5 is owned in phase 4); it is gone
    from the phase whose first train rusts it (RULES.md §9.2: the first 4-train
    rusts every 2-train). ``owned_before`` counts the same type earlier in the list.
    A type the dated ``rules`` sell early (the D from phase 6 before 2023-08-09,
    HISTORY.md §2) is still owned only from the phase its first purchase starts:
    the first D bought starts phase D, so no phase-6 company holds one either way.
    The depot's supply is the version's count (17 D-trains before 2026-05-13).
    """
    where = f"trains[{index}]"
    # Whether the type is held in the phase is a fact of the data (``_held_in``).
    if train.name not in data.derived(_held_in).get(phase.name, ()) \
            or data.trains.get(train.name) is not train:
        _check_on_sale(where, train, phase, data, rules)
    # ``rules.trains`` read for this one type: the version's count where it sets one
    counts = rules.train_counts if rules is not None else {}
    count = counts[train.name] if train.name in counts else train.count
    if count is not None and owned_before >= count:
        raise MalformedInput(
            where,
            f"the depot has {count} {train.name}-trains (RULES.md §2.7); "
            f"this is the {ordinal(owned_before + 1)}",
        )


def _held_in(data: GameData) -> dict[str, frozenset[str]]:
    """Phase name → the train types a company may hold in it: first sold in that phase
    or before, not yet rusted (RULES.md §8, §9.2; what ``_check_on_sale`` lets pass)."""
    out: dict[str, frozenset[str]] = {}
    for phase in data.phases:
        rank = phase_rank(data, phase.name)
        held = set()
        for name, train in data.trains.items():
            rusts = _rust_phase(data, train)
            if phase_rank(data, _first_phase_of(data, train).name) <= rank and (
                    rusts is None or rank < phase_rank(data, rusts.name)):
                held.add(name)
        out.setdefault(phase.name, frozenset(held))
    return out


def _check_on_sale(
    where: str, train: TrainDef, phase: PhaseDef, data: GameData, rules: RulesVersion | None
) -> None:
    """``check_train``'s phase checks: sold in ``phase`` (early under dated ``rules``
    or not), not rusted in it."""
    rank = phase_rank(data, phase.name)
    first = _first_phase_of(data, train)
    early = rules.train_available_on.get(train.name) if rules is not None else None
    if (rules is not None and early is not None and rank < phase_rank(data, first.name)
            and rank >= phase_rank(data, early)):
        raise MalformedInput(
            where,
            f"a {train.name}-train is on sale from phase {early} under the rules of {rules.name} "
            f"(HISTORY.md §2), but the first one bought starts phase {first.name} (RULES.md §8); "
            f"phase {phase.name} has none yet",
        )
    if rank < phase_rank(data, first.name):
        raise MalformedInput(
            where,
            f"a {train.name}-train is first sold in phase {first.name} (RULES.md §8); "
            f"phase {phase.name} has none yet",
        )
    rusts = _rust_phase(data, train)
    if rusts is not None and rank >= phase_rank(data, rusts.name):
        raise MalformedInput(
            where,
            f"a {train.name}-train rusts when phase {rusts.name} begins (the first "
            f"{train.rusts_when_first_bought}-train, RULES.md §9.2); phase {phase.name} has none",
        )


# ---- tiles (RULES.md §6.5 #1, §6.12, §7) --------------------------------------------


def private_phase_range(data: GameData) -> tuple[int, int]:
    """Phase ranks in which a corporation can hold a private: from the first phase that
    lets corporations buy them (RULES.md §6.12) to before the phase whose first train
    closes them (RULES.md §7.7), as ``range`` bounds."""
    ranks = [i for i, p in enumerate(data.phases) if p.corporations_may_buy_privates]
    start = ranks[0] if ranks else len(data.phases)
    closing = [t for t in data.trains.values() if "close_companies" in t.events]
    stop = phase_rank(data, _first_phase_of(data, closing[0]).name) if closing else len(data.phases)
    return start, stop


def check_tile_phase(where: str, tile: TileDef, phase: PhaseDef, data: GameData) -> None:
    """A laid tile's colour must be one the phase allows (RULES.md §6.5 #1).

    Special tiles outside the colour order (the red L39, the blue ferries) and the
    yellow L41 are laid only by a corporation owning their private (RULES.md §7),
    which no corporation holds before it may buy privates (RULES.md §6.12) — unless a
    private lets its owning player lay the tile (1889's Mitsubishi Ferry and its port 437,
    ``owner_type: player``), which players hold from the start.
    """
    if tile.color in COLOR_ORDER and tile.color not in phase.tile_colors:
        allowed = ", ".join(phase.tile_colors)
        only = " only" if len(phase.tile_colors) == 1 else ""
        raise MalformedInput(
            where,
            f"tile {tile.name} is {tile.color}; phase {phase.name} allows {allowed} "
            f"tiles{only} (RULES.md §6.5 #1, §8)",
        )
    if tile.special_only and not _laid_by_players(data, tile):
        start, _ = private_phase_range(data)
        if phase_rank(data, phase.name) < start:
            raise MalformedInput(
                where,
                f"tile {tile.name} is laid only with a private company's ability (RULES.md §7), "
                f"and corporations may own privates from phase {data.phases[start].name} "
                "(RULES.md §6.12)",
            )


def _laid_by_players(data: GameData, tile: TileDef) -> bool:
    """Whether a private's ability lets its owning player lay ``tile`` (any rule set)."""
    return any(ability.get("type") == "tile_lay" and ability.get("owner_type") == "player"
               and tile.name in ability.get("tiles", ())
               for companies in data.companies.values() for company in companies
               for ability in company.abilities)


# ---- tokens (RULES.md §2.5, §6.6) ---------------------------------------------------


def check_token_total(tokens_raw: Sequence[Any], data: GameData) -> None:
    """The board holds at most every company's station tokens (RULES.md §2.5).

    Runs on the list's length alone, before any token is read.
    """
    total = data.derived(_all_tokens)
    if len(tokens_raw) > total:
        raise MalformedInput(
            "tokens",
            f"lists {len(tokens_raw)} station tokens; the companies own {total} in all "
            "(RULES.md §2.5)",
        )


def check_token_owner(where: str, corp: CorporationDef, placed_before: int) -> None:
    """A company places at most its own station tokens (RULES.md §2.5, §6.6)."""
    count = corp.stations
    if placed_before >= count:
        raise MalformedInput(
            where,
            f"{corp.sym} has {count} station tokens (RULES.md §2.5); "
            f"this is its {ordinal(placed_before + 1)}",
        )


# ---- turn facts: privates and the lays made this turn (RULES.md §6.5, §6.12, §7) ----


def check_private_count(privates: Sequence[Any], companies: Sequence[str]) -> None:
    """A company owns each private at most once: at most all of them (RULES.md §2.4)."""
    if len(privates) > len(companies):
        raise MalformedInput(
            "privates",
            f"lists {len(privates)} privates; the game has {len(companies)} (RULES.md §2.4)",
        )


def check_private(
    index: int, sym: str, first_index: int | None, phase: PhaseDef, data: GameData
) -> None:
    """A private is listed once, and only in a phase a corporation can hold one.

    Corporations buy privates in phases 3 and 4 (RULES.md §6.12), and every
    private closes when the first 5-train is bought (RULES.md §7.7).
    """
    where = f"privates[{index}]"
    if first_index is not None:
        raise MalformedInput(
            where,
            f"{sym} is already listed as privates[{first_index}]; each private exists once "
            "(RULES.md §2.4)",
        )
    start, stop = private_phase_range(data)
    rank = phase_rank(data, phase.name)
    if rank < start:
        raise MalformedInput(
            where,
            f"corporations may buy privates from phase {data.phases[start].name} "
            f"(RULES.md §6.12); phase {phase.name} is earlier",
        )
    if rank >= stop:
        raise MalformedInput(
            where,
            f"every private closes when phase {data.phases[stop].name} begins "
            f"(RULES.md §7.7); phase {phase.name} has none",
        )


def private_lays(data: GameData, rule_set: str) -> dict[str, int]:
    """Private → how many tiles its ability lays in a turn (RULES.md §7).

    A fact of the rule set's data: worked out once per rule set and held by ``data``
    (``GameData.derived_for``).
    """
    return dict(data.derived_for(_private_lays, rule_set))


def _private_lays(data: GameData, rule_set: str) -> dict[str, int]:
    """Lays of the owning corporation's turn only (``tile_abilities.is_turn_lay``: not 1889's
    Ehime Railway lay at its sale nor the Mitsubishi Ferry's player lay); a teleport lays one
    tile (1830's DH, 18Chesapeake's C&OC: ``teleport_privates``)."""
    def turn_lays(c: CompanyDef) -> list[Mapping[str, Any]]:
        return [a for a in c.abilities
                if a.get("type") in ("tile_lay", "teleport") and is_turn_lay(a, c.sym)]

    return {
        c.sym: sum(int(a.get("count") or 1) for a in turn_lays(c))
        for c in data.companies[rule_set]
        if turn_lays(c)
    }


def teleport_privates(data: GameData, rule_set: str) -> frozenset[str]:
    """The privates whose lay is a teleport: the corporation's one tile action of the turn
    (1830 RULES.md §7.3, the DH; 18Chesapeake's C&OC, g_18_chesapeake/entities.rb "counts as
    the corporation's tile lay action"), so a turn lists it or a normal lay, not both."""
    return frozenset(
        c.sym for c in data.companies[rule_set]
        if any(a.get("type") == "teleport" and is_turn_lay(a, c.sym) for a in c.abilities)
    )


def uses_tile_action(private: str | None, teleports: Collection[str]) -> bool:
    """Whether a lay of ``tiles_laid`` by ``private`` (None: a normal lay) is the
    corporation's one tile action of the turn (RULES.md §6.5; ``teleport_privates``)."""
    return private is None or private in teleports


def _most_lays(data: GameData, rule_set: str) -> int:
    """The lays a turn may hold: its normal lays (one, or 1882's two: ``GameData.tile_lays``)
    and every private's (RULES.md §6.5, §7)."""
    return len(data.tile_lays) + sum(data.derived_for(_private_lays, rule_set).values())


def check_lay_count(laid: Sequence[Any], data: GameData, rule_set: str) -> None:
    """A turn has one normal tile action (RULES.md §6.5) plus the privates' extra lays
    (RULES.md §7): the list is bounded before any entry is read."""
    most = data.derived_for(_most_lays, rule_set)
    if len(laid) > most:
        raise MalformedInput(
            "tiles_laid",
            f"lists {len(laid)} lays; a turn has at most {most}: one tile action "
            "(RULES.md §6.5) and the privates' lays (RULES.md §7)",
        )


def check_lay(
    index: int,
    hex_id: str,
    private: str | None,
    earlier: Sequence[tuple[str, str | None]],
    lays: dict[str, int],
    teleports: Collection[str] = (),
    normal_lays: int = 1,
) -> None:
    """One entry of ``tiles_laid``: not a repeat, within the turn's allowance.

    One normal tile action per turn (RULES.md §6.5; ``normal_lays`` of them in a title that
    lays more, 1882's two), a teleport's lay being that action (``teleport_privates``); a
    private lays at most its ability's count (RULES.md §7:
    Great Wall and the ferry two, the others one).
    """
    where = f"tiles_laid[{index}]"
    if (hex_id, private) in earlier:
        raise MalformedInput(where, f"the lay on {hex_id} is listed twice")
    same = sum(1 for _, p in earlier if p == private)
    actions = sum(1 for _, p in earlier if uses_tile_action(p, teleports))
    teleported = any(p in teleports for _, p in earlier)
    if uses_tile_action(private, teleports) and (
            teleported or actions >= normal_lays or (actions and private is not None)):
        # a teleport is the turn's only tile action
        raise MalformedInput(
            where, "a company has one tile action per turn (RULES.md §6.5); this is its 2nd"
            if normal_lays == 1 or teleported or private is not None else
            f"a company has {normal_lays} normal tile lays per turn (18xx.games TILE_LAYS); "
            f"this is its {ordinal(actions + 1)}"
        )
    if private is not None:
        allowed = lays.get(private, 0)
        if same >= allowed:
            raise MalformedInput(
                f"{where}.private",
                f"{private} lays {allowed} tile(s) (RULES.md §7); this is its {ordinal(same + 1)}",
            )
