"""ValidateRoutes takes each train's hexes in travel order (``hex_paths``, issue 34 item 6):
the engine cuts them where the track lets the train stop (``api.read_hex_paths``) and judges
the routes, over gRPC and over HTTP (Connect JSON, as the page sends it). 1830's Altoona
bypass: C&O's 6-train of 26855 #458 runs past the full city on H12 (1830 ROUTES.md §1.3)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from route18xx.server.convert import converters
from route18xx.v1 import route_service_pb2 as pb
from tests.engine.test_1830_routes import DATA, STATES
from tests.server.conftest import assert_invalid

#: The recorded route of 26855 #458, as the hexes the train passes.
BYPASS = ["F6", "G7", "H8", "H10", "H12", "H14", "I15"]


def _request(hex_paths: list[dict[str, Any]], **more: Any) -> pb.ValidateRoutesRequest:
    request = pb.ValidateRoutesRequest(
        hex_paths=[pb.HexPath(train=p["train"], hexes=p["hexes"]) for p in hex_paths], **more)
    request.state.CopyFrom(converters.state_to_proto(STATES["26855-458"]["state"]))
    return request


def test_a_bypass_path_is_judged_as_recorded_over_grpc(stub: Any) -> None:
    answer = stub.ValidateRoutes(_request([{"train": "6-0", "hexes": BYPASS}]), timeout=60)
    assert answer.legal and answer.revenue == 120  # the log's own figure
    (reading,) = answer.hex_paths
    assert [list(c.hexes) for c in reading.connections] == [
        ["F6", "G7"], ["G7", "H8", "H10"], ["H10", "H12", "H14", "I15"]]
    assert list(reading.nodes) == ["F6-0", "G7-0", "H10-0", "I15-0"] and not reading.open
    (route,) = answer.routes
    assert route.train == "6-0" and not any(n.startswith("H12") for n in route.nodes)


def test_a_path_short_of_a_stop_is_open_and_judges_nothing(stub: Any) -> None:
    answer = stub.ValidateRoutes(_request([{"train": "6-0", "hexes": ["F6", "G7", "H8"]}]), timeout=60)
    (reading,) = answer.hex_paths
    assert [list(c.hexes) for c in reading.connections] == [["F6", "G7"]] and list(reading.open) == ["H8"]
    assert len(answer.routes) == 1


def test_bad_hex_paths_are_invalid_argument_naming_the_field(stub: Any, channel: Any) -> None:
    assert_invalid(lambda: stub.ValidateRoutes(_request([{"train": "6-0", "hexes": ["F6", "Z99"]}]), timeout=60),
                   channel, "hex_paths[0].hexes[1]", "not a hex of the map")
    both = _request([{"train": "6-0", "hexes": BYPASS}],
                    routes=[pb.Route(train="6-0", connections=[pb.Connection(hexes=["F6", "G7"])])])
    assert_invalid(lambda: stub.ValidateRoutes(both, timeout=60), channel, "hex_paths", "not both")


def _post(site: Any, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{site.http_url}/route18xx.v1.RouteService/ValidateRoutes", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, dict(json.loads(answer.read()))
    except urllib.error.HTTPError as error:
        return error.code, dict(json.loads(error.read()))


def test_the_page_s_call_over_http_from_the_game_log(http_server: Any) -> None:
    """As the page asks: the game log and the run's action id, the hexes as typed."""
    log = (DATA / "26855.json").read_text("utf-8")
    status, answer = _post(http_server, {"gameLog": log, "actionId": 458,
                                         "hexPaths": [{"train": "6-0", "hexes": BYPASS}]})
    assert status == 200, answer
    assert answer["legal"] and answer["revenue"] == 120
    assert answer["hexPaths"][0]["nodes"] == ["F6-0", "G7-0", "H10-0", "I15-0"]
    status, answer = _post(http_server, {"gameLog": log, "actionId": 458,
                                         "hexPaths": [{"train": "6-0", "hexes": ["F6", "Q1"]}]})
    assert status == 400 and answer["code"] == "invalid_argument", answer
    assert "hex_paths[0].hexes[1]" in answer["message"]


# -- the command line: `check --hex-paths`, locally and through a server -----------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "route18xx.server.cli", *args],
                          capture_output=True, text=True, timeout=120)


def _files(tmp_path: Path, paths: Any) -> tuple[str, str]:
    state, routes = tmp_path / "state.json", tmp_path / "paths.json"
    state.write_text(json.dumps(STATES["26855-458"]["state"]))
    routes.write_text(json.dumps(paths))
    return str(state), str(routes)


def test_check_hex_paths_locally_and_through_a_server_agree(server: Any, tmp_path: Path) -> None:
    state, paths = _files(tmp_path, [{"train": "6-0", "hexes": BYPASS}])
    local = _cli("check", state, paths, "--hex-paths", "--json")
    remote = _cli("call", "validate", state, paths, "--hex-paths", "--json", "--target", server.target)
    assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
    answer = json.loads(local.stdout)
    assert answer == json.loads(remote.stdout)
    assert answer["legal"] and answer["revenue"] == 120
    assert answer["hex_paths"] == [{"train": "6-0", "connections": [
        ["F6", "G7"], ["G7", "H8", "H10"], ["H10", "H12", "H14", "I15"]],
        "nodes": ["F6-0", "G7-0", "H10-0", "I15-0"], "open": []}]
    text = _cli("check", state, paths, "--hex-paths")
    assert text.returncode == 0 and text.stdout.startswith(
        "path 6-0: F6-G7 | G7-H8-H10 | H10-H12-H14-I15 (stops F6-0, G7-0, H10-0, I15-0)\nlegal\n")


@pytest.mark.parametrize(("paths", "field"), [
    ([{"train": "6-0", "hexes": ["F6", "Z99"]}], "hex_paths[0].hexes[1]"),
    ([{"train": "6-0", "hexes": ["F6", 7]}], "hex_paths[0].hexes[1]"),
    ([{"train": 6, "hexes": ["F6"]}], "hex_paths[0].train"),
    ([{"train": "6-0", "hexes": "F6"}], "hex_paths[0].hexes"),
    ([{"train": "6-0", "hexes": ["F6"]}] * 5, "hex_paths"),
    ({"train": "6-0"}, "hex_paths"),
    ([7], "hex_paths[0]"),
    ([], "hex_paths"),
])
def test_bad_hex_paths_on_the_command_line_name_the_field(
        server: Any, tmp_path: Path, paths: Any, field: str) -> None:
    """Locally: ``error: <field>: <reason>``, status 2. Through a server: what the client
    cannot send is the same status 2; what the server refuses is INVALID_ARGUMENT naming the
    field (``call``'s status 1). Never a traceback."""
    state, file = _files(tmp_path, paths)
    local = _cli("check", state, file, "--hex-paths")
    assert local.returncode == 2 and local.stderr.startswith(f"error: {field}: "), local.stderr
    remote = _cli("call", "validate", state, file, "--hex-paths", "--target", server.target)
    assert "Traceback" not in remote.stderr + local.stderr
    if remote.returncode == 2:
        assert remote.stderr.startswith(f"error: {field}: "), remote.stderr
    else:
        assert remote.returncode == 1 and f"INVALID_ARGUMENT: {field}: " in remote.stderr, remote.stderr
