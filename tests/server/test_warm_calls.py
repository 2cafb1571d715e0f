"""The calls a server answers before it is ready (``server.core.warm_calls``, issue 34): every
kind a lane runs has one, each is answered without an error, and the shipped warm-up logs are
what their generator writes (``tools/warm_up_logs.py``)."""

from __future__ import annotations

import importlib.util
import logging
import time
from pathlib import Path

import pytest

from route18xx.engine import api
from route18xx.server.core.calls import METHODS
from route18xx.server.core.runner import EngineRunner
from route18xx.server.core.warm_calls import log_path, warm_fetch, warm_jobs, warm_requests
from route18xx.server.core.workers import run_warm_jobs

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("ortools")


def _generator() -> object:
    spec = importlib.util.spec_from_file_location("warm_up_logs", ROOT / "tools" / "warm_up_logs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("title", api.titles_replayed())
def test_the_shipped_warm_up_log_is_what_the_generator_writes(title: str) -> None:
    generated = _generator().log_file_text(title)  # type: ignore[attr-defined]
    assert Path(log_path(title)).read_text("utf-8") == generated


def test_every_method_on_a_lane_has_a_warm_up_request() -> None:
    warmed = {name for name, _ in warm_requests()}
    on_lanes = {m.name for m in METHODS if m.lane and m.lane != "fetch"}
    assert on_lanes <= warmed, on_lanes - warmed


@pytest.mark.parametrize("lane", ["solve", "suggest", "decode"])
def test_every_warm_up_call_is_answered(lane: str, caplog: pytest.LogCaptureFixture) -> None:
    """A warm-up call that fails is only logged (a warm-up never keeps a server from serving):
    so that none does, each is run here as a lane runs it."""
    jobs = warm_jobs(lane)
    assert jobs
    with caplog.at_level(logging.WARNING, logger="route18xx.worker"):
        refused = run_warm_jobs(EngineRunner(), jobs, api.new_cancel_token(time.monotonic() + 300))
    assert not [r.getMessage() for r in caplog.records if "warm-up" in r.getMessage()]
    # 1882's warm-up board has no legal lay: drawing its best suggestion is refused, as a
    # client's call would be, once the ranking ran. Nothing else is refused.
    assert refused == (["RenderBoard: suggestion: only 0 legal moves were ranked"]
                       if lane == "solve" else [])
    warm_fetch()  # raises when a log is not one a fetch accepts
