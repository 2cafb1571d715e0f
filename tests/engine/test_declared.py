"""Issue 32 item 4, declared types: every report's JSON is derived from its declaration.

Read back (``from_json``) a report's JSON (``to_json``) is the same report, for every kind
of answer; the ``stats`` keys are ``solver.SolveStats``'s fields, which the service's
message names too; and the product keeps at most five hand-written ``to_json`` /
``from_json``, each with its reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine import api
from route18xx.engine.declared import Declared
from route18xx.solver import SolveStats
from route18xx.v1 import route_service_pb2 as pb
from tests.conftest import LOGS_DIR, load_json, state_files

ROOT = Path(__file__).resolve().parents[2]


def _state(name: str) -> dict[str, Any]:
    return load_json(next(p for p in state_files() if p.stem == name))


def _round_trips(report: Declared) -> None:
    data = report.to_json()
    back = type(report).from_json(data)
    assert back == report
    assert json.dumps(back.to_json()) == json.dumps(data)  # the same keys, order and values


@pytest.mark.parametrize("name", ["129026-352", "129026-567"])
def test_solve_and_check_answers_read_back(name: str) -> None:
    data = _state(name)
    recorded = data["reference"]["recorded_routes"]
    trains = data["state"]["trains"]
    _round_trips(api.solve_report(data["state"]))  # the two objectives where they differ
    _round_trips(api.solve_report(data["state"], pinned_routes=recorded[:1],
                                  train_sets=[trains[:1]]))
    _round_trips(api.check_report(data["state"], recorded, compare=True))
    _round_trips(api.check_report(data["state"], recorded))


def test_suggestions_read_back() -> None:
    state = _state("129026-251")["state"]
    _round_trips(api.suggest_moves(state, include_tokens=True, top=5, combined=True,
                                   merge_equal=True))


def test_a_turn_reads_back_but_for_its_money() -> None:
    """``currency_format`` is not in the JSON: read back, it is the default."""
    log = load_json(LOGS_DIR / "129026.json")
    runs = [a["id"] for a in log["actions"] if a.get("type") == "run_routes"]
    report = api.suggest_turn(None, game_log=log, action_id=runs[-3], top=2)
    assert report.currency_format == "¥%s" and "currency_format" not in report.to_json()
    back = api.TurnReport.from_json(report.to_json())
    assert back.currency_format == "%s"
    assert back.to_json() == report.to_json()


def test_replays_audits_and_turn_comparisons_read_back() -> None:
    log = load_json(LOGS_DIR / "1888_game_end_bankrupt.json")
    _round_trips(api.replay_game(log))
    _round_trips(api.audit_log(log, states=True))
    runs = [a["id"] for a in log["actions"] if a.get("type") == "run_routes"]
    _round_trips(api.compare_turns(log, runs=set(runs[-2:])))


def test_stats_keys_are_solve_stats_fields() -> None:
    keys = tuple(f.name for f in fields(SolveStats))
    assert api.STATS_KEYS == keys
    report = api.solve_report(_state("129026-352")["state"])
    assert tuple(report.to_json()["stats"]) == keys + ("solves",)
    message = {f.name for f in pb.SolveStats.DESCRIPTOR.fields}
    assert message == set(keys) | {"solves"}


def test_few_hand_written_conversions() -> None:
    """At most five ``def to_json`` / ``def from_json`` in the product: the shared base's two
    and each other one's reason in its docstring."""
    found = []
    for folder in ("engine", "solver", "server", "draw"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            found += [(path.relative_to(ROOT).as_posix(), m.start())
                      for m in re.finditer(r"def (to_json|from_json)\b", text)]
    assert len(found) <= 5, found
    assert {p for p, _ in found} <= {"engine/declared.py", "engine/turn/turn_report.py"}, found
