"""``route18xx check``: bad input exits non-zero with a message naming the field."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.commands.cli_commands import EXIT_BAD_INPUT, EXIT_OK, check_command
from tests.conftest import STATES_DIR, load_json

BASE = "129026-251"  # HJR, prototype, phase 4


def _base() -> dict[str, Any]:
    return copy.deepcopy(load_json(STATES_DIR / f"{BASE}.json"))


def _run(tmp_path: Path, state: Any, routes: Any, as_json: bool = False) -> tuple[int, str, str]:
    state_path = tmp_path / "state.json"
    routes_path = tmp_path / "routes.json"
    state_path.write_text(state if isinstance(state, str) else json.dumps(state))
    routes_path.write_text(routes if isinstance(routes, str) else json.dumps(routes))
    out, err = io.StringIO(), io.StringIO()
    code = check_command(str(state_path), str(routes_path), as_json, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _with(mutate: Any) -> dict[str, Any]:
    data = _base()
    mutate(data["state"])
    return data


def _set_tile(state: dict[str, Any], hex_id: str, **fields: Any) -> None:
    for tile in state["tiles"]:
        if tile["hex"] == hex_id:
            tile.update(fields)
            return
    state["tiles"].append({"hex": hex_id, **fields})


BAD_INPUT = [
    pytest.param(lambda s: s["tiles"].append({"hex": "Z99", "tile": "8", "rotation": 0}),
                 "error: tiles[18].hex: unknown hex 'Z99'", id="unknown-hex"),
    pytest.param(lambda s: _set_tile(s, "F14", tile="999"),
                 "error: tiles[0].tile: unknown tile '999'", id="unknown-tile"),
    pytest.param(lambda s: s.update(corporation="XYZ"),
                 "error: corporation: unknown company 'XYZ'", id="unknown-company"),
    pytest.param(lambda s: s["tokens"].append({"hex": "D10", "city": 0, "corporation": "ABC"}),
                 "error: tokens[8].corporation: unknown company 'ABC'", id="unknown-token-company"),
    pytest.param(lambda s: _set_tile(s, "F14", rotation=6),
                 "error: tiles[0].rotation: 6 is outside 0-5", id="rotation-6"),
    pytest.param(lambda s: _set_tile(s, "F14", rotation=-1),
                 "error: tiles[0].rotation: -1 is outside 0-5", id="rotation-negative"),
    pytest.param(lambda s: s["tiles"].append({"hex": "A1", "tile": "8", "rotation": 0}),
                 "error: tiles[18]: tile 8 rotation 0 cannot stand on A1", id="tile-on-red-hex"),
    pytest.param(lambda s: s["tiles"].append({"hex": "F14", "tile": "9", "rotation": 0}),
                 "error: tiles[18].hex: hex F14 is listed twice", id="same-hex-twice"),
    pytest.param(lambda s: s["tokens"].append({"hex": "E5", "city": 1, "corporation": "JZR"}),
                 "error: tokens[8].city: tile 6 on E5 has no city 1 (its cities: [0])",
                 id="token-on-missing-city"),
    pytest.param(lambda s: s["tokens"].append({"hex": "G13", "city": 0, "corporation": "JZR"}),
                 "error: tokens[8].city: tile 58 on G13 has no city 0 (its cities: [])",
                 id="token-on-town"),
    pytest.param(lambda s: s["tokens"].append({"hex": "C9", "city": 1, "corporation": "JZR"}),
                 "error: tokens[8].city: city C9-1 is full: 1 slot(s), held by JHR",
                 id="token-in-full-city"),
    pytest.param(lambda s: s["trains"].append("7"),
                 "error: trains[2]: unknown train '7'", id="unknown-train"),
    pytest.param(lambda s: s.update(rule_set="east"),
                 "error: rule_set: unknown rule set 'east'", id="unknown-rule-set"),
    pytest.param(lambda s: s.update(phase="9"),
                 "error: phase: unknown phase '9'", id="unknown-phase"),
    pytest.param(lambda s: s.pop("trains"),
                 "error: trains: is missing", id="missing-trains"),
    pytest.param(lambda s: _set_tile(s, "F14", rotation="2"),
                 "error: tiles[0].rotation: must be a int, not str", id="rotation-not-int"),
]


@pytest.mark.parametrize("mutate,message", BAD_INPUT)
def test_bad_state_exits_non_zero_naming_the_field(
    tmp_path: Path, mutate: Any, message: str
) -> None:
    data = _with(mutate)
    code, out, err = _run(tmp_path, data, data["reference"]["recorded_routes"])
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert err.startswith(message), err


def test_unreadable_files_name_the_file(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path, "{not json", [])
    assert code == EXIT_BAD_INPUT and err.startswith("error: STATE.json: ")
    out, errs = io.StringIO(), io.StringIO()
    code = check_command(str(tmp_path / "missing.json"), str(tmp_path / "r.json"), True, out, errs)
    assert code == EXIT_BAD_INPUT and "does not exist" in errs.getvalue()


@pytest.mark.parametrize(
    "routes,message",
    [
        ({"no": "routes"}, "error: routes: must be a list of routes or an object with 'routes'"),
        ([{"connections": [["E5", "F6"]]}], "error: routes[0].train: is missing"),
        ([{"train": "3-0", "connections": [["E5"]]}],
         "error: routes[0].connections[0]: must list at least two hex ids"),
        ([{"train": "3-0", "connections": [["E5", "F6"]], "nodes": "E5-0"}],
         "error: routes[0].nodes: must be a list of node ids"),
        ([{"train": "3-0", "connections": [["E5", "F6"]], "nodes": ["E5-0", 7]}],
         "error: routes[0].nodes[1]: must be a node id such as 'C9-1'"),
        ([{"train": "3-0", "connections": [["E5", "f6"]]}],
         "error: routes[0].connections[0][1]: must be a hex id, not 'f6'"),
        ([{"train": "3-0", "connections": [["E5", "Q6"]]}],
         "error: routes[0].connections[0][1]: unknown hex 'Q6'"),
    ],
)
def test_malformed_routes_name_the_field(tmp_path: Path, routes: Any, message: str) -> None:
    code, _, err = _run(tmp_path, _base(), routes)
    assert code == EXIT_BAD_INPUT
    assert err.startswith(message), err


def test_check_json_reports_per_route_and_totals(tmp_path: Path) -> None:
    data = _base()
    code, out, _ = _run(tmp_path, data, data["reference"]["recorded_routes"], as_json=True)
    assert code == EXIT_OK
    report = json.loads(out)
    assert report["legal"] is True and report["violations"] == []
    assert (report["revenue"], report["subsidy"]) == (160, 40)
    assert [(r["train"], r["revenue"], r["subsidy"]) for r in report["routes"]] == [
        ("3-4", 50, 40), ("4-1", 110, 0)
    ]


def test_illegal_routes_still_exit_zero(tmp_path: Path) -> None:
    routes = [{"train": "3-0", "connections": [["H4", "H2"], ["G5", "H4"], ["F6", "G5"]]}]
    code, out, _ = _run(tmp_path, _base(), routes)
    assert code == EXIT_OK
    assert out.splitlines()[0] == "illegal"
    assert "a 3-train cannot visit 4 stops" in out
