"""The committed stubs are exactly what the pinned grpcio-tools makes (STYLE.md §12)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto"
PINNED_TOOLS = "1.81.1"
GENERATED = ("_pb2.py", "_pb2_grpc.py", "_pb2.pyi", "_connect.py")
PINNED_CONNECT = "0.9.0"


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    tools = pytest.importorskip("grpc_tools")
    from importlib.metadata import version

    assert version("grpcio-tools") == PINNED_TOOLS, "regenerate with the pinned grpcio-tools"
    assert version("protoc-gen-connect-python") == PINNED_CONNECT
    del tools
    plugin = Path(sys.executable).parent / "protoc-gen-connect-python"
    protos = sorted(PROTO.glob("route18xx/v1/*.proto"))
    assert protos
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO}", f"--python_out={tmp_path}",
         f"--grpc_python_out={tmp_path}", f"--pyi_out={tmp_path}",
         f"--plugin=protoc-gen-connect-python={plugin}", f"--connect-python_out={tmp_path}",
         *(str(p) for p in protos)],
        check=True,
    )
    for proto in protos:
        stem = proto.stem
        for suffix in GENERATED:
            rel = proto.relative_to(PROTO).parent / f"{stem}{suffix}"
            fresh = (tmp_path / rel).read_text("utf-8")
            committed = (PROTO / rel).read_text("utf-8")
            assert committed == fresh, (
                f"{rel} is stale: run python -m grpc_tools.protoc -I proto --python_out=proto "
                "--grpc_python_out=proto --pyi_out=proto "
                "--plugin=protoc-gen-connect-python=.venv/bin/protoc-gen-connect-python "
                "--connect-python_out=proto proto/route18xx/v1/*.proto"
            )


def test_request_json_reads_like_a_state_file() -> None:
    """DESIGN.md §5: the request's protobuf JSON has the state file's keys and values."""
    from google.protobuf import json_format

    from route18xx.server.convert import converters
    from tests.server.conftest import BASE_STATE_NAME, real_state

    state = real_state(BASE_STATE_NAME)["state"]
    msg = converters.state_to_proto(state)
    as_json = json_format.MessageToDict(
        msg, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    # Repeated fields have no presence: the turn facts' absent lists print as [].
    assert {k: v for k, v in as_json.items() if k in state or v != []} == state
    assert json_format.ParseDict(state, type(msg)()) == msg
    assert converters.state_from_proto(msg) == state


def test_turn_facts_read_like_a_state_file() -> None:
    """The optional suggestion fields (cash, privates, …) keep the state file's JSON form."""
    from google.protobuf import json_format

    from route18xx.server.convert import converters
    from tests.server.conftest import real_state

    state = {
        **real_state("129026-251")["state"],
        "cash": 0,
        "privates": ["TA", "CW"],
        "heng_shan_player_owned": False,
        "tiles_laid": [{"hex": "E5"}, {"hex": "H2", "private": "TA"}],
    }
    msg = converters.state_to_proto(state)
    assert msg.HasField("cash") and msg.HasField("heng_shan_player_owned")
    as_json = json_format.MessageToDict(
        msg, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    # The repeated fields (no presence) print as [] when not given.
    for absent in ("player_owned_blockers", "assignments", "hex_bonuses", "optional_rules",
                   "reservations", "train_ids"):
        assert as_json.pop(absent) == []
    assert as_json == state
    assert json_format.ParseDict(state, type(msg)()) == msg
    assert converters.state_from_proto(msg) == state


def test_game_facts_read_like_a_state_file() -> None:
    """A golden state's game facts (STATE-FILES.md: optional rules, players, the company's
    kind, reservations, the game's train ids) keep the state file's JSON form through
    ``State``, and an HTTP client may send the file as it is."""
    import gzip
    import json

    from google.protobuf import json_format

    from route18xx.server.convert import converters

    golden = ROOT / "tests" / "data" / "golden" / "1888" / "verdicts.json.gz"
    runs = [r for f in json.loads(gzip.decompress(golden.read_bytes()))["fixtures"]
            for r in f["runs"]]
    state = next(r["state"] for r in runs if r["state"]["optional_rules"]
                 and r["state"]["reservations"])
    msg = converters.state_to_proto(state)
    assert msg.optional_rules and msg.HasField("players") and msg.reservations and msg.train_ids
    assert json_format.ParseDict(state, type(msg)()) == msg
    back = converters.state_from_proto(msg)
    for key in ("optional_rules", "players", "corporation_type", "reservations", "train_ids"):
        assert back[key] == state[key], key


def test_markers_and_rights_read_like_a_state_file() -> None:
    """1856's ``assignments`` (a marker on a hex or on a company) and ``hex_bonuses`` keep the
    state file's JSON form through ``State``."""
    from google.protobuf import json_format

    from route18xx.server.convert import converters

    state = {
        "title": "1856", "rule_set": "standard", "phase": "3", "corporation": "LPS",
        "trains": ["2"], "tiles": [], "tokens": [],
        "assignments": [{"assignment": "GLSC", "hex": "C14"}, {"assignment": "GLSC", "corporation": "LPS"}],
        "hex_bonuses": [{"hexes": ["P17", "P19"], "value": 10}],
    }
    msg = converters.state_to_proto(state)
    assert json_format.ParseDict(state, type(msg)()) == msg
    assert converters.state_from_proto(msg) == state
