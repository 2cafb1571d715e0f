"""1882 at route level (issue 36): boards built by hand or taken from a real game, each
expected value added up from 1882's rules as 18xx.games states them (``lib/engine/game/g_1882``,
engine commit 111f7f69) and the engine's own parts (``lib/engine/part/city.rb``).

* The Hudson Bay bonus (g_1882/game.rb ``revenue_for``): a route stopping at Western Canada
  I1 or Northern Alberta B2 and at Hudson Bay B12 earns $100 more.
* Neutral stations: CN's tokens, placed by the other corporations, never block a route
  (``City#blocks?``: a city holding a neutral token does not block).
* Two tile lays (``TILE_LAYS``): a lay or an upgrade, then, if the first was no upgrade, a
  second lay for $20 more.
* Game level is refused, naming the step the engine lacks.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.errors import MalformedInput, RouteLevelOnly
from route18xx.engine.game.game import Game

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1882" / "verdicts.json.gz"


def _real(fixture: str, action_id: int) -> dict[str, Any]:
    raw = json.loads(gzip.decompress(GOLDEN.read_bytes()))
    (run,) = [r for f in raw["fixtures"] if f["fixture"] == fixture for r in f["runs"]
              if r["action_id"] == action_id]
    return dict(run["state"])


#: 5585 #478: the SC's 6-train in phase 6 (brown) from its home Medicine Hat K3.
SC_478 = _real("5585", 478)
#: Its optimal route: Hudson Bay B12 (brown $50), Humboldt G9, Moose Jaw J8, Swift Current
#: I5, Medicine Hat K3 ($30 each: tiles 15, 14, 14, 15) and Western Canada I1 (brown $80).
HUDSON_BAY_RUN = [["B12", "D12", "E11", "F10", "G9"], ["G9", "H8", "J8"],
                  ["J8", "K7", "J6", "I5"], ["I5", "J4", "K3"], ["K3", "J2", "I1"]]


def test_the_hudson_bay_bonus() -> None:
    report = api.solve_routes(SC_478)
    assert report["proven_optimal"] and report["revenue"] == 50 + 4 * 30 + 80 + 100
    (route,) = report["routes"]
    assert route["nodes"][0] == "B12-0" and route["nodes"][-1] == "I1-0"
    bonus = route["breakdown"]["destination_bonus"]
    assert bonus["value"] == 100 and {bonus["home"], bonus["destination"]} == {"I1-0", "B12-0"}
    assert "Hudson Bay bonus" in bonus["rule"]


def test_the_judge_adds_the_bonus_only_with_both_ends() -> None:
    with_bay = api.check_routes(SC_478, [{"train": "6-0", "connections": HUDSON_BAY_RUN}])
    assert with_bay["legal"] and with_bay["revenue"] == 350
    without = api.check_routes(SC_478, [{"train": "6-0", "connections": HUDSON_BAY_RUN[1:]}])
    assert without["legal"] and without["revenue"] == 4 * 30 + 80  # G9 .. I1: no bonus


def test_a_neutral_station_does_not_block() -> None:
    """Humboldt G9 (tile 15, two slots) holds HBR's token and a CN neutral station: the SC
    runs through it. With a CNR token in the CN station's place the city is full and blocks."""
    tokens = [dict(t, corporation="CNR") if (t["hex"], t["corporation"]) == ("G9", "CN") else t
              for t in SC_478["tokens"]]
    full = {**SC_478, "tokens": tokens}
    checked = api.check_routes(full, [{"train": "6-0", "connections": HUDSON_BAY_RUN}])
    assert not checked["legal"]
    assert [v["code"] for v in checked["violation_details"]] == ["BLOCKED_CITY_PASSED"]
    assert api.solve_routes(full)["revenue"] < 350


def test_cn_places_as_many_stations_as_there_are_neutral_tokens() -> None:
    """Five corporations carry one CN station each (corporations.json ``neutral_tokens``)."""
    data = api.read_state(SC_478).data
    assert data.corporations["CN"].stations == 5
    assert data.corporations["CNR"].stations == 3  # its own 0, 40, 100


QLL: dict[str, Any] = {"title": "1882", "rule_set": "standard", "phase": "2", "corporation": "QLL",
                       "trains": ["2"], "tokens": [{"hex": "J10", "city": 1, "corporation": "QLL"}],
                       "cash": 200}


def test_two_lays_a_turn_the_second_for_20_more() -> None:
    first = api.suggest_moves(QLL, top=200).to_json()["suggestions"]
    assert first and all(s["lays"][0]["cost"] == 0 for s in first)  # no terrain near J10
    laid = {**QLL, "tiles": [{"hex": "I11", "tile": "2", "rotation": 0}], "tiles_laid": [{"hex": "I11"}]}
    second = api.suggest_moves(laid, top=200).to_json()["suggestions"]
    assert second and all(s["lays"][0]["cost"] == 20 for s in second)
    both = {**laid, "tiles": laid["tiles"] + [{"hex": "H10", "tile": "9", "rotation": 2}],
            "tiles_laid": [{"hex": "I11"}, {"hex": "H10"}]}
    assert api.suggest_moves(both, top=200).to_json()["suggestions"] == []
    with pytest.raises(MalformedInput, match="2 normal tile lays per turn"):
        api.read_state({**both, "tiles_laid": both["tiles_laid"] + [{"hex": "G11"}]})
    plans = api.suggest_turn(QLL, top=500).to_json()["plans"]
    pairs = [p for p in plans if len(p["lays"]) == 2 and p["token"] is None]
    assert pairs and all(p["cost"] == 20 for p in pairs)


def test_no_second_lay_after_an_upgrade() -> None:
    """Pile o' Bones J10 is printed yellow: R1 there is an upgrade, so no lay follows."""
    upgraded = {**QLL, "phase": "3", "trains": ["3"],
                "tiles": [{"hex": "J10", "tile": "R1", "rotation": 1}], "tiles_laid": [{"hex": "J10"}]}
    assert api.suggest_moves(upgraded, top=200).to_json()["suggestions"] == []
    plans = api.suggest_turn({**QLL, "phase": "3", "trains": ["3"]}, top=500).to_json()["plans"]
    assert not any(len(p["lays"]) == 2 and any(l["hex"] == "J10" for l in p["lays"]) for p in plans)


def test_a_game_is_refused_at_game_level() -> None:
    with pytest.raises(RouteLevelOnly, match="special NWR"):
        Game("standard", [1, 2, 3], title="1882")
