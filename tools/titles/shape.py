"""Shapes the raw engine dump of ``dump.rb`` into ``engine/data/<title>/*.json``.

Standard library only: the shaping runs (and is tested) without Ruby or the engine tree.
Everything here is a choice of form (key names, key order, which fields); every number comes
from the dump. The project's own texts (company summaries, option effects, notes) come from
the title's hand-kept input ``tools/titles/<title>.json`` and are never made up here.

Two formats exist, named by the input's ``"format"``:

* ``1``: the first cut, 1888's files (no trailing newline; no ``passive`` in abilities; no
  market zones, phase status, train ``available_on`` or per-rule-set train counts).
* ``2``: 1888's schema with the extensions of 1830's files (see the 1830 data README);
  new titles use this one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Json = Any
Raw = Mapping[str, Any]

#: The coordinate system a map.json describes, by the map's layout (18xx.games ``LAYOUT``
#: and ``Hex::DIRECTIONS``): pointy tops (1888, 1830) use doubled-width coordinates with
#: the row as the letter; flat tops (1889) doubled-height ones with the column as the letter.
COORDINATE_SYSTEMS: dict[str, dict[str, Any]] = {
    "pointy": {
        "x": "column number minus 1 (doubled-width coordinates)",
        "y": "row letter index (A=0, B=1, ...)",
        "edge_offsets": {
            "0": {"dx": -1, "dy": 1},
            "1": {"dx": -2, "dy": 0},
            "2": {"dx": -1, "dy": -1},
            "3": {"dx": 1, "dy": -1},
            "4": {"dx": 2, "dy": 0},
            "5": {"dx": 1, "dy": 1},
        },
        "edge_names": {
            "0": "SW (lower left)",
            "1": "W (left)",
            "2": "NW (upper left)",
            "3": "NE (upper right)",
            "4": "E (right)",
            "5": "SE (lower right)",
        },
    },
    "flat": {
        "x": "column letter index (A=0, B=1, ...)",
        "y": "row number minus 1 (doubled-height coordinates)",
        "edge_offsets": {
            "0": {"dx": 0, "dy": 2},
            "1": {"dx": -1, "dy": 1},
            "2": {"dx": -1, "dy": -1},
            "3": {"dx": 0, "dy": -2},
            "4": {"dx": 1, "dy": -1},
            "5": {"dx": 1, "dy": 1},
        },
        "edge_names": {
            "0": "S (bottom)",
            "1": "SW (lower left)",
            "2": "NW (upper left)",
            "3": "N (top)",
            "4": "NE (upper right)",
            "5": "SE (lower right)",
        },
    },
}
#: A flat map whose letters name the rows and numbers the columns (18xx.games ``AXES = {x:
#: :number, y: :letter}``: 1882): the same directions, the coordinates' parts swapped.
COORDINATE_SYSTEMS["flat_letter_rows"] = {
    **COORDINATE_SYSTEMS["flat"],
    "x": "column number minus 1",
    "y": "row letter index (A=0, B=1, ...) (doubled-height coordinates)",
}
#: The pointy-top system (1888's and 1830's maps).
COORDINATE_SYSTEM = COORDINATE_SYSTEMS["pointy"]

#: Fields of a hex's tile that a rule set may change without changing its track (1889's
#: beginner game takes the private's blocker and the port icons off their hexes): a hex
#: that differs only in these is written once, with the other rule sets' values under
#: ``by_rule_set`` (map field name → value).
RULE_SET_HEX_FIELDS = {"blockers": "blocked_by_company", "icons": "icons"}

HOME_CITY_INDEX_NOTE = "index of the city on the home hex tile; null = the only city on that hex"

#: Ability fields per format and type, in the order the files write them. A type format 1
#: does not list is written as format 2 writes it, less ``passive``; a type neither lists,
#: with the common fields, the fields its engine ``setup`` sets, then ``passive`` (format 2).
_COMMON = ["type", "owner_type", "when", "count"]
_TILE_LAY = _COMMON + [
    "hexes", "tiles", "free", "special", "connect", "blocks", "must_lay_together",
    "must_lay_all", "reachable", "consume_tile_lay",
]
ABILITY_FIELDS: dict[int, dict[str, list[str]]] = {
    1: {
        "tile_lay": _TILE_LAY,
        "blocks_hexes": _COMMON + ["hexes"],
        "exchange": _COMMON + ["from", "corporations"],
    },
    2: {
        "tile_lay": _TILE_LAY + ["cost", "passive"],
        "blocks_hexes": _COMMON + ["hexes", "passive"],
        "exchange": _COMMON + ["corporations", "from", "passive"],
        "teleport": _COMMON + ["hexes", "tiles", "cost", "free_tile_lay", "from_owner", "passive"],
        "shares": _COMMON + ["corporations", "shares", "passive"],
        "close": _COMMON + ["corporation", "passive"],
        "no_buy": _COMMON + ["passive"],
    },
}

#: Fields every engine ability has (Engine::Ability::Base); the rest are its type's own.
_BASE_ABILITY_FIELDS = {
    "type", "owner_type", "when", "on_phase", "after_phase", "count", "count_per_or",
    "count_this_or", "use_across_ors", "used", "remove", "start_count", "passive",
    "remove_when_used_up", "description", "desc_detail",
}

#: Base ability fields naming a phase, written only where set (``_ability``).
PHASE_FIELDS = ("on_phase", "after_phase")

UNLIMITED_DISTANCE = 999  # the engine's distance of an unlimited (D) train


class ShapeError(ValueError):
    """The dump does not hold what a file needs (or rule sets disagree where they must not)."""


def dumps(value: Json, fmt: int) -> str:
    """The files' own text form: one-space indent, non-ASCII kept as is; format 2 ends with
    a newline, format 1 does not."""
    text = json.dumps(value, indent=1, ensure_ascii=False)
    return text + "\n" if fmt >= 2 else text


# --------------------------------------------------------------------------- helpers


def hex_position(hex_id: str) -> tuple[str, int]:
    """``"G19"`` → ``("G", 19)``."""
    match = re.fullmatch(r"([A-Za-z]+)(-?\d+)", hex_id)
    if not match:
        raise ShapeError(f"hex id {hex_id!r} is not letters then a number")
    return match.group(1), int(match.group(2))


def _row_index(letters: str) -> int:
    index = 0
    for ch in letters.upper():
        index = index * 26 + (ord(ch) - ord("A") + 1)
    return index - 1


def _same_everywhere(values: Mapping[str, Json], what: str) -> Json:
    items = list(values.values())
    for other in items[1:]:
        if other != items[0]:
            raise ShapeError(f"{what} differs between rule sets")
    return items[0]


def _revenue_centers(parts: Sequence[Raw], kind: str) -> list[dict[str, Json]]:
    out: list[dict[str, Json]] = []
    for part in parts:
        item: dict[str, Json] = {"index": part["index"], "revenue": part["revenue"]}
        if kind == "city":
            item["slots"] = part["slots"]
        if part.get("groups"):
            item["groups"] = list(part["groups"])
        item["visit_cost"] = part["visit_cost"]
        if kind == "offboard":
            item["hidden"] = bool(part.get("hide"))
        if part.get("loc") is not None:
            item["loc"] = part["loc"]
        out.append(item)
    return out


def _paths(raw_paths: Sequence[Raw]) -> list[dict[str, Json]]:
    out: list[dict[str, Json]] = []
    for p in raw_paths:
        for end in (p["a"], p["b"]):
            if set(end) - {"edge", "city", "town", "offboard"}:
                raise ShapeError(f"path end {end} is not an edge, city, town or offboard")
        item: dict[str, Json] = {"a": dict(p["a"]), "b": dict(p["b"])}
        if p.get("terminal"):
            item["terminal"] = True
        out.append(item)
    return out


def _track(tile: Raw) -> dict[str, Json]:
    return {
        "cities": _revenue_centers(tile["cities"], "city"),
        "towns": _revenue_centers(tile["towns"], "town"),
        "offboards": _revenue_centers(tile["offboards"], "offboard"),
        "paths": _paths(tile["paths"]),
        "labels": list(tile["labels"]),
        "exits": list(tile["exits"]),
    }


def _first(raw: Raw) -> Raw:
    first: Raw = next(iter(raw["rule_sets"].values()))
    return first


# --------------------------------------------------------------------------- tiles


def special_only_tiles(raw: Raw) -> set[str]:
    """Tiles only a private's ability places: named by a ``special`` tile-lay ability, and
    either of a colour no phase lays, or accepted by the engine's upgrade test on no
    preprinted hex and from no supply tile, or marked ``blocks_lay`` (an icon that keeps
    it out of a normal lay: the engine's ``potential_tiles`` rejects it; 1889's port 437)."""
    named: set[str] = set()
    for rule_set in raw["rule_sets"].values():
        for company in rule_set["companies"]:
            for ability in company["abilities"]:
                if ability["type"] == "tile_lay" and ability.get("special"):
                    named.update(ability.get("tiles") or ())
    phase_colors = {c for rs in raw["rule_sets"].values() for p in rs["phases"] for c in p["tiles"]}
    reachable: set[str] = set()
    for hexes in raw["hexes"].values():
        for h in hexes:
            reachable.update(h["upgrades_to"])
    for tile in raw["supply"]:
        reachable.update(tile["upgrades_to"])
    colors = {t["name"]: t["color"] for t in raw["supply"]}
    blocked = {t["name"] for t in raw["supply"] if t.get("blocks_lay")}
    return {
        n for n in named
        if n in colors and (colors[n] not in phase_colors or n not in reachable or n in blocked)
    }


def tiles_json(raw: Raw) -> dict[str, Json]:
    special = special_only_tiles(raw)
    counts = {rs: {t["name"]: None if t.get("unlimited") else t["count"] for t in facts["tiles"]}
              for rs, facts in raw["rule_sets"].items()}  # None: unlimited (18Chesapeake's 7, 8, 9)
    tiles: list[dict[str, Json]] = []
    for tile in raw["supply"]:
        name = tile["name"]
        item: dict[str, Json] = {
            "name": name,
            "color": tile["color"],
            "count": {rs: counts[rs].get(name, 0) for rs in counts},
        }
        item.update(_track(tile))
        if tile["upgrades"]:  # a tile whose own upgrade costs (1889's 438, 439)
            item["terrain"] = [{"cost": u["cost"], "terrains": list(u["terrains"])} for u in tile["upgrades"]]
        item["upgrades_to"] = [t for t in tile["upgrades_to"] if t not in special]
        item["special_only"] = name in special
        tiles.append(item)
    return {"tiles": tiles}


# --------------------------------------------------------------------------- map


def _hex_flags(raw: Raw, title_input: Raw) -> dict[str, set[str]]:
    """Map fields that mark the hexes of a company's tile-lay ability (1888: ``great_wall``
    = the Great Wall private's hexes), as the title's input names them."""
    flags: dict[str, set[str]] = {}
    for field, company_sym in (title_input.get("hex_flags") or {}).items():
        hexes: set[str] = set()
        for company in _first(raw)["companies"]:
            if company["sym"] == company_sym:
                for ability in company["abilities"]:
                    if ability["type"] == "tile_lay":
                        hexes.update(ability.get("hexes") or ())
        if not hexes:
            raise ShapeError(f"hex flag {field}: no tile-lay hexes of company {company_sym}")
        flags[field] = hexes
    return flags


def map_json(raw: Raw, title_input: Raw) -> dict[str, Json]:
    fmt = title_input["format"]
    hexes_by_set = {rs: {h["id"]: h for h in hexes} for rs, hexes in raw["hexes"].items()}
    first = next(iter(hexes_by_set.values()))
    special = special_only_tiles(raw)
    flags = _hex_flags(raw, title_input)
    out_hexes: list[dict[str, Json]] = []
    for hex_id in first:
        versions = {rs: hexes[hex_id] for rs, hexes in hexes_by_set.items()}
        h, changes = _hex_versions(versions, hex_id)
        tile = h["tile"]
        letters, number = hex_position(hex_id)
        item: dict[str, Json] = {
            "id": hex_id,
            "preprinted_tile_id": tile["id"],
            "x": h["x"],
            "y": h["y"],
            "row_letter": letters,
            "column_number": number,
            "location_name": h["location_name"],
            "color": tile["color"],
            "tile_name": tile["name"],
        }
        item.update(_track(tile))
        if tile.get("future_label"):  # 1856: the label its tile takes from a colour on
            item["future_label"] = dict(tile["future_label"])
        item["terrain"] = [{"cost": u["cost"], "terrains": list(u["terrains"])} for u in tile["upgrades"]]
        item["borders"] = [{"edge": b["edge"], "type": b["type"]} for b in tile["borders"]]
        item["icons"] = list(tile["icons"])
        item["all_neighbors"] = _by_edge(h["all_neighbors"])
        item["connectable_neighbors"] = _by_edge(h["neighbors"])
        item["blocked_by_company"] = list(tile["blockers"])
        item["home_reservations"] = [
            {"corporation": r["corporation"], "city": r["city"]} for r in h["reservations"]
        ]
        for field, on in flags.items():
            item[field] = hex_id in on
        item["lay_candidates"] = [t for t in h["upgrades_to"] if t not in special]
        if changes:
            item["by_rule_set"] = changes
        out_hexes.append(item)
    out_hexes.sort(key=lambda x: (_row_index(x["row_letter"]), x["column_number"]))
    if raw["layout"] not in COORDINATE_SYSTEMS:
        raise ShapeError(f"layout {raw['layout']!r} is not one of {sorted(COORDINATE_SYSTEMS)}")
    system = raw["layout"]
    if system == "flat" and all(h["x"] == hex_position(h["id"])[1] - 1 for h in first.values()):
        system = "flat_letter_rows"  # 1882: x is the number (``AXES``)
    out: dict[str, Json] = {"layout": raw["layout"], "coordinate_system": COORDINATE_SYSTEMS[system]}
    if fmt >= 2:
        out["impassable_hex_colors"] = list(raw["impassable_hex_colors"])
    out["hexes"] = out_hexes
    return out


def _hex_versions(versions: Mapping[str, Raw], hex_id: str) -> tuple[Raw, dict[str, Json]]:
    """The first rule set's hex, and what the others change of ``RULE_SET_HEX_FIELDS``
    (rule set → map field → value); ``ShapeError`` when they differ in anything else."""
    first_name, first = next(iter(versions.items()))

    def rest(h: Raw) -> Raw:
        tile = {k: v for k, v in h["tile"].items() if k not in RULE_SET_HEX_FIELDS}
        return {**h, "tile": tile}

    _same_everywhere({rs: rest(h) for rs, h in versions.items()}, f"hex {hex_id}")
    changes: dict[str, Json] = {}
    for rs, h in versions.items():
        changed = {
            name: list(h["tile"][field]) for field, name in RULE_SET_HEX_FIELDS.items()
            if h["tile"][field] != first["tile"][field]
        }
        if changed and rs != first_name:
            changes[rs] = changed
    return first, changes


def _by_edge(neighbors: Mapping[str, str]) -> dict[str, str]:
    return {str(e): neighbors[str(e)] for e in sorted(int(k) for k in neighbors)}


# --------------------------------------------------------------------------- market, phases, trains


def market_json(raw: Raw, title_input: Raw) -> dict[str, Json]:
    fmt = title_input["format"]
    market = _same_everywhere({rs: f["market"] for rs, f in raw["rule_sets"].items()}, "the market")
    zones = ("multiple_buy", "unlimited", "no_cert_limit")
    grid: list[list[Json]] = []
    for row in market["grid"]:
        out_row: list[Json] = []
        for cell in row:
            if cell is None:
                out_row.append(None)
                continue
            item: dict[str, Json] = {
                "price": cell["price"],
                "par": cell["can_par"],
                "no_cert_limit": not cell["counts_for_limit"],
            }
            if fmt >= 2:
                zone = None
                for t in zones:
                    if t in cell["types"]:
                        zone = cell["colors"][cell["types"].index(t)]
                        break
                item["zone"] = zone
                item["holding_limit_lifted"] = any(t in cell["types"] for t in ("multiple_buy", "unlimited"))
                item["multiple_buy"] = cell["buy_multiple"]
            out_row.append(item)
        grid.append(out_row)
    return {"grid": grid, "par_prices": [dict(p) for p in market["par_prices"]]}


def _union(lists: Mapping[str, Sequence[Raw]], what: str) -> list[tuple[Raw, list[str]]]:
    """The items of every rule set's list by name, in the first list's order and then each
    later list's new ones, each with the rule sets that hold it; an item that differs between
    the rule sets holding it is refused (1856's 8-train variant replaces phase D by phase 8)."""
    found: dict[str, tuple[Raw, list[str]]] = {}
    for rs, items in lists.items():
        for item in items:
            known = found.get(item["name"])
            if known is None:
                found[item["name"]] = (item, [rs])
            elif known[0] != item:
                raise ShapeError(f"{what} {item['name']} differs between rule sets")
            else:
                known[1].append(rs)
    return list(found.values())


def phases_json(raw: Raw, title_input: Raw) -> dict[str, Json]:
    fmt = title_input["format"]
    sets = raw["rule_sets"]
    union = _union({rs: f["phases"] for rs, f in sets.items()}, "the phase")
    out: list[dict[str, Json]] = []
    for p, holders in union:
        item: dict[str, Json] = {
            "name": p["name"],
            "starts_when_first_train_of_type_leaves_depot": p["on"],
            "train_limit": p["train_limit"],
            "tile_colors": list(p["tiles"]),
            "operating_rounds_per_set": p["operating_rounds"],
            "corporations_may_buy_privates": "can_buy_companies" in p["status"],
        }
        if fmt >= 2:
            item["status"] = list(p["status"])
        if len(holders) < len(sets):  # a phase of some rule sets only (1856's D and 8)
            item["rule_sets"] = holders
        out.append(item)
    return {"phases": out}


def trains_json(raw: Raw, title_input: Raw) -> dict[str, Json]:
    fmt = title_input["format"]
    sets = raw["rule_sets"]
    first = _first(raw)
    starts = {p["on"]: p["name"] for p in first["phases"] if p["on"] is not None}
    exportable = set((title_input.get("exportable_trains") or {}).get("trains", ()))
    counts = {rs: {t["name"]: t["count"] for t in f["trains"]} for rs, f in sets.items()}
    out: list[dict[str, Json]] = []
    # every rule set's trains, the first's first (1856's 8-train variant adds the 8); a train
    # whose facts differ between rule sets takes the first holder's, the others' differences
    # written under ``by_rule_set`` (1856's 4-train rusts on the 8 in the variant)
    trains: dict[str, Raw] = {}
    changes: dict[str, dict[str, dict[str, Json]]] = {}
    for rs, f in sets.items():
        for t in f["trains"]:
            known = trains.setdefault(t["name"], t)
            diff = {k: v for k, v in t.items() if k not in ("count", "id") and known.get(k) != v}
            if diff:
                if set(diff) - {"rusts_on"}:
                    raise ShapeError(f"train {t['name']} differs between rule sets in {sorted(diff)}")
                changes.setdefault(t["name"], {})[rs] = {"rusts_when_first_bought": diff["rusts_on"]}
    for t in trains.values():
        distance = t["distance"]
        item: dict[str, Json] = {
            "name": t["name"],
            "distance": None if isinstance(distance, int) and distance >= UNLIMITED_DISTANCE else distance,
            "engine_distance_value": distance,
            "price": t["price"],
            "count": t["count"],
            "unlimited": bool(t["unlimited"]),
            "rusts_when_first_bought": t["rusts_on"],
            "first_purchase_starts_phase": starts.get(t["name"]),
            "events_on_first_purchase": list(t["events"]),
        }
        if fmt >= 2:
            item["available_on"] = t["available_on"]
        item["exchange_discount"] = dict(t["discount"] or {})
        item["exportable_at_or_set_end"] = t["name"] in exportable
        if fmt >= 2:
            item["count_by_rule_set"] = {rs: counts[rs].get(t["name"], 0) for rs in counts}
        if t["name"] in changes:
            item["by_rule_set"] = changes[t["name"]]
        out.append(item)
    result: dict[str, Json] = {"trains": out, "initial_depot_order": list(first["depot"])}
    if fmt >= 2:
        result["initial_depot_order_by_rule_set"] = {rs: list(f["depot"]) for rs, f in sets.items()}
    return result


# --------------------------------------------------------------------------- companies, corporations


def _ability(ability: Raw, fmt: int) -> dict[str, Json]:
    fields = ABILITY_FIELDS[fmt].get(ability["type"])
    if fields is None and ability["type"] in ABILITY_FIELDS[2]:
        fields = [f for f in ABILITY_FIELDS[2][ability["type"]] if fmt >= 2 or f != "passive"]
    if fields is None:
        own = [k for k in ability if k not in _BASE_ABILITY_FIELDS]
        fields = _COMMON + own + (["passive"] if fmt >= 2 else [])
    out: dict[str, Json] = {}
    for field in fields:
        if field not in ability:
            raise ShapeError(f"ability {ability['type']} has no field {field}")
        out[field] = ability[field]
    # The phase an ability starts or stops at, written where the engine sets one (1889's
    # UTF: ``close`` never, ``revenue_change`` from phase 5), before ``passive``.
    timed = {f: ability[f] for f in PHASE_FIELDS if ability.get(f) is not None and f not in out}
    if timed:
        passive = {"passive": out.pop("passive")} if "passive" in out else {}
        out.update(timed)
        out.update(passive)
    return out


def companies_json(raw: Raw, title_input: Raw) -> dict[str, Json]:
    fmt = title_input["format"]
    summaries: Mapping[str, str] = title_input.get("company_summaries") or {}
    out: dict[str, Json] = {}
    for rs, facts in raw["rule_sets"].items():
        companies: list[dict[str, Json]] = []
        for c in facts["companies"]:
            if not summaries.get(c["sym"]):
                raise ShapeError(f"company {c['sym']}: no summary in the title's input")
            item: dict[str, Json] = {
                "sym": c["sym"],
                "name": c["name"],
                "value": c["value"],
                "revenue": c["revenue"],
                "min_price": c["min_price"],
                "max_price": c["max_price"],
                "abilities": [_ability(a, fmt) for a in c["abilities"]],
                "summary": summaries[c["sym"]],
            }
            if fmt >= 2:
                item["engine_desc"] = c["desc"]
            companies.append(item)
        out[rs] = companies
    return out


def corporations_json(raw: Raw, title_input: Raw) -> dict[str, Json]:
    fmt = title_input["format"]
    sets = raw["rule_sets"]
    first = _first(raw)
    corrections: Mapping[str, Mapping[str, str]] = title_input.get("corporation_corrections") or {}
    locations = {h["id"]: h["location_name"] for h in next(iter(raw["hexes"].values()))}
    floats = {rs: {c["sym"]: c["float_percent"] for c in f["corporations"]} for rs, f in sets.items()}
    out: list[dict[str, Json]] = []
    for c in first["corporations"]:
        sym = c["sym"]
        fix = corrections.get(sym, {})
        home = c["coordinates"]
        item: dict[str, Json] = {
            "sym": sym,
            "name": fix.get("name", c["name"]),
            "home_hex": home,
            "home_city_index": c["city"],
            "home_location": locations.get(home),
        }
        dest = (first.get("destinations") or {}).get(sym)
        if dest is not None:
            item["destination_hex"] = dest["hexes"][0]
            item["destination_location"] = locations.get(dest["hexes"][0])
            item["destination_bonus"] = dest["bonus"]
        item["token_prices"] = list(c["token_prices"])
        if fmt >= 2:
            item["token_count"] = len(c["token_prices"])
        if c.get("neutral_tokens"):  # another company's tokens it places (1882's CN stations)
            item["neutral_tokens"] = [dict(t) for t in c["neutral_tokens"]]
        item["float_percent"] = {rs: floats[rs][sym] for rs in floats}
        item["max_ownership_percent"] = c["max_ownership_percent"]
        if fmt >= 2:
            item["capitalization"] = c["capitalization"]
        item["shares"] = [dict(s) for s in c["shares"]]
        item["color"] = c["color"]
        if fmt >= 2:
            item["text_color"] = c["text_color"]
        for key, text in fix.items():
            if key != "name":
                item[key] = text
        if fmt < 2:
            item["token_count"] = len(c["token_prices"])
        item["home_city_index_note"] = HOME_CITY_INDEX_NOTE
        out.append(item)
    return {"corporations": out}


# --------------------------------------------------------------------------- options (format 2)


def options_json(raw: Raw, title_input: Raw, fixtures: Mapping[str, Sequence[str]]) -> dict[str, Json]:
    """The optional rules the rule sets use (engine texts plus the input's ``effect`` and
    ``source``), the rule sets, and which rule set each fixture log uses."""
    texts: Mapping[str, Mapping[str, str]] = title_input.get("options") or {}
    engine = {o["sym"]: o for o in raw["optional_rules"]}
    used: list[str] = []
    for rules in title_input["rule_sets"].values():
        for sym in rules:
            if sym not in used:
                used.append(sym)
    options: list[dict[str, Json]] = []
    for sym in sorted(used, key=list(engine).index):
        if not (texts.get(sym) or {}).get("effect") or not texts[sym].get("source"):
            raise ShapeError(f"option {sym}: no effect/source text in the title's input")
        options.append({
            "sym": sym,
            "short_name": engine[sym]["short_name"],
            "desc": engine[sym]["desc"],
            "effect": texts[sym]["effect"],
            "source": texts[sym]["source"],
        })
    out: dict[str, Json] = {
        "optional_rules": options,
        "rule_sets": {name: list(rules) for name, rules in title_input["rule_sets"].items()},
        "rule_set_naming": title_input["rule_set_naming"],
        "fixtures": {
            f"{name}.json": {"optional_rules": list(rules), "rule_set": rule_set_of(title_input, rules)}
            for name, rules in fixtures.items()
        },
    }
    if "route_relevance" in title_input:
        out["route_relevance"] = title_input["route_relevance"]
    return out


def rule_set_of(title_input: Raw, optional_rules: Iterable[str]) -> str:
    """The rule set whose option list is ``optional_rules`` (order ignored)."""
    wanted = sorted(optional_rules)
    for name, rules in title_input["rule_sets"].items():
        if sorted(rules) == wanted:
            return str(name)
    raise ShapeError(f"no rule set of the title's input has the options {wanted}")


# --------------------------------------------------------------------------- all files


def _upgrade_errors(raw: Raw) -> list[str]:
    errors: list[str] = []
    for tile in raw["supply"]:
        errors += [f"tile {tile['name']}: {e}" for e in tile.get("upgrade_errors") or ()]
    for hexes in raw["hexes"].values():
        for h in hexes:
            errors += [f"hex {h['id']}: {e}" for e in h.get("upgrade_errors") or ()]
    return errors


def data_files(raw: Raw, title_input: Raw) -> dict[str, Json]:
    """Every engine-derived file of ``engine/data/<title>/``: file name → content."""
    errors = _upgrade_errors(raw)
    if errors:
        raise ShapeError("the engine's upgrade test failed: " + "; ".join(sorted(set(errors))[:5]))
    if raw["title"] != title_input["title"]:
        raise ShapeError(f"dump of {raw['title']!r}, input of {title_input['title']!r}")
    if list(raw["rule_sets"]) != list(title_input["rule_sets"]):
        raise ShapeError("the dump's rule sets are not the input's")
    files: dict[str, Json] = {
        "map.json": map_json(raw, title_input),
        "tiles.json": tiles_json(raw),
        "market.json": market_json(raw, title_input),
        "phases.json": phases_json(raw, title_input),
        "trains.json": trains_json(raw, title_input),
        "companies.json": companies_json(raw, title_input),
        "corporations.json": corporations_json(raw, title_input),
    }
    if title_input["format"] >= 2 and "options" in title_input:
        files["options.json"] = options_json(raw, title_input, raw.get("fixture_rules") or {})
    return files
