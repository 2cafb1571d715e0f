"""1856 at route level (issue 36): real boards of the fixture logs (``tests/data/golden/1856``)
and variations of them, each expected value added up from 1856's rules as 18xx.games states
them (``lib/engine/game/g_1856``, engine commit 111f7f69).

* The port marker (``revenue_for``): a route of the corporation holding the GLSC marker earns
  $20 more when it stops at the marked hex; the state's ``assignments`` name the hex and the
  corporation, and without either there is no bonus.
* Bridge and tunnel rights (``grant_right``): $10 for each of Buffalo's P17 and P19 (bridge)
  and Sarnia B13 (tunnel) a route stops at; a state lists them as ``hex_bonuses``, each one of
  the title's rights.
* Phase D prices off-boards at their black value; the 8-train variant has phase 8 and the
  8-train in place of phase D and the D.
* Tiles: Bar and Lon on the B-L hexes from brown on (future labels), Hamilton's 123 on L15,
  towns upgraded away only from phase 6 on; the CGR's 10 stations and one more train.
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

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "1856" / "verdicts.json.gz"
RUNS = {(f["fixture"], r["action_id"]): r for f in json.loads(gzip.decompress(GOLDEN.read_bytes()))["fixtures"]
        for r in f["runs"]}


def _real(fixture: str, action_id: int) -> dict[str, Any]:
    return {k: v for k, v in RUNS[(fixture, action_id)]["state"].items() if k != "train_ids"}


#: LPS at home in Maudaumin C14 (tile 5, $20), which holds its port marker; two 2-trains.
LPS = _real("1856_game_end_bank", 67)


def test_the_port_marker() -> None:
    """Sarnia B13 (yellow $30) – Maudaumin C14 ($20) + the port's $20, for each 2-train."""
    report = api.solve_routes(LPS)
    assert report["proven_optimal"] and report["revenue"] == 2 * (30 + 20 + 20)
    bonus = report["routes"][0]["breakdown"]["destination_bonus"]
    assert bonus["value"] == 20 and bonus["home"] == "C14-0" and "port marker on C14" in bonus["rule"]


@pytest.mark.parametrize("keep", [[0], [1], []])
def test_no_port_bonus_without_both_markers(keep: list[int]) -> None:
    """The marker on the hex alone, on the company alone, or on neither: $50 a train."""
    state = {**LPS, "assignments": [LPS["assignments"][i] for i in keep]}
    assert api.solve_routes(state)["revenue"] == 2 * (30 + 20)


def test_another_companys_marker_pays_nothing() -> None:
    state = {**LPS, "assignments": [LPS["assignments"][0], {"corporation": "CPR", "assignment": "GLSC"}]}
    assert api.solve_routes(state)["revenue"] == 2 * (30 + 20)


def test_the_tunnel_right() -> None:
    """The tunnel right adds $10 for Sarnia B13 to each route: 2 × 80."""
    state = {**LPS, "hex_bonuses": [{"hexes": ["B13"], "value": 10}]}
    assert api.solve_routes(state)["revenue"] == 2 * (30 + 20 + 20 + 10)
    with pytest.raises(MalformedInput, match="none of the title's rights"):
        api.read_state({**LPS, "hex_bonuses": [{"hexes": ["B13"], "value": 20}]})


def test_the_bridge_right() -> None:
    """51745 #197: WR's 3-train from Welland O16 earns the bridge's $10 at Buffalo P17; the
    engine accepted the same routes at our revenue (the golden verdict)."""
    state = _real("51745", 197)
    assert state["hex_bonuses"] == [{"hexes": ["P17", "P19"], "value": 10}]
    report = api.solve_routes(state)
    bridge = [r for r in report["routes"] if r["breakdown"]["destination_bonus"]]
    assert bridge and all("bridge right" in r["breakdown"]["destination_bonus"]["rule"] for r in bridge)
    assert report["revenue"] == RUNS[("51745", 197)]["optimum"]["total"]["verdict"]["revenue"]
    without = api.solve_routes({**state, "hex_bonuses": []})["revenue"]
    assert without < report["revenue"]


def test_phase_d_pays_the_black_value() -> None:
    """1856_game_end_bank #742 (phase D): the CGR's routes stop at Detroit - Windsor A20,
    which prints yellow 30, brown 50, black 60: the black $60 (phase D lays black's colour)."""
    state = _real("1856_game_end_bank", 742)
    report = api.solve_routes(state)
    stops = {s["node"]: s["value"] for r in report["routes"] for s in r["breakdown"]["stops"]}
    assert stops["A20-0"] == 60
    assert report["revenue"] == RUNS[("1856_game_end_bank", 742)]["optimum"]["total"]["verdict"]["revenue"]


def test_the_eight_train_variant() -> None:
    eight = {**LPS, "rule_set": "eight_train_variant", "optional_rules": ["eight_train_variant"],
             "phase": "8", "trains": ["8"]}
    assert api.solve_routes(eight)["proven_optimal"]
    with pytest.raises(MalformedInput, match="has no phase D"):
        api.read_state({**eight, "phase": "D"})
    with pytest.raises(MalformedInput, match="has no 8-train"):
        api.read_state({**LPS, "phase": "D", "trains": ["8"]})
    with pytest.raises(MalformedInput, match="has no phase 8"):
        api.read_state({**LPS, "phase": "8", "trains": ["D"]})


def test_labels_from_brown_on_and_hamilton() -> None:
    """1856_game_end_bank #881 (phase D): London's brown 126 (Lon) on the B-L hex F15, Hamilton's
    gray 123 (H) on the OO hex L15, plain track 9 where the town of K16 was."""
    state = _real("1856_game_end_bank", 881)
    tiles = {t["hex"]: t["tile"] for t in state["tiles"]}
    assert tiles["F15"] == "126" and tiles["L15"] == "123" and tiles["K16"] == "9"
    assert api.read_state(state).phase.name == "D"
    track = {**LPS, "phase": "6", "trains": ["6"], "tiles": LPS["tiles"] + [
        {"hex": "K16", "tile": "9", "rotation": 2}]}
    assert api.read_state(track).board.placed["K16"].tile.name == "9"
    with pytest.raises(MalformedInput, match="upgrades its town away"):
        api.read_state({**track, "phase": "5", "trains": ["5"]})


def test_the_cgr_holds_ten_stations_and_one_more_train() -> None:
    state = _real("1856_game_end_bank", 742)
    assert state["corporation"] == "CGR" and len(state["trains"]) == 3 and state["phase"] == "D"
    assert api.solve_routes(state)["proven_optimal"]
    assert api.read_state(state).data.corporations["CGR"].stations == 10


def test_a_game_is_refused_at_game_level() -> None:
    with pytest.raises(RouteLevelOnly, match="cash crisis"):
        Game("standard", [1, 2, 3], title="1856")


def test_suggest_upgrades_by_the_hexs_own_labels() -> None:
    """1856_game_end_bank #742: Barrie M4 holds the green B-L tile 121; its brown upgrade is
    127, labelled Bar from brown on (the hex's future label), and ``suggest`` offers it."""
    state = {k: v for k, v in _real("1856_game_end_bank", 742).items() if k != "tiles_laid"}
    assert {t["hex"]: t["tile"] for t in state["tiles"]}["M4"] == "121"
    moves = api.suggest_moves(state, top=400).to_json()["suggestions"]
    assert ("M4", "127") in {(m["lays"][0]["hex"], m["lays"][0]["tile"]) for m in moves}


@pytest.mark.parametrize("phase, allowed", [("5", False), ("6", True)])
def test_a_town_tile_upgrades_to_track_from_phase_6(phase: str, allowed: bool) -> None:
    """g_1856/game.rb ``upgrades_to?``: in the gray phases the yellow town tile 4 becomes the
    plain straight 9 (or the city 57); before them it cannot."""
    from route18xx.engine.board.tile_lay import make_context, upgrade_refusal

    state = api.read_state(LPS)
    data = state.data
    board = state.board.with_tile("M6", data.tiles["4"], 0)
    ctx = make_context(board, "LPS", phase=phase, rule_set="standard")
    for target in ("9", "57"):
        refusal = upgrade_refusal(ctx, data.hexes["M6"], data.tiles["4"], data.tiles[target])
        assert (refusal is None) == allowed
