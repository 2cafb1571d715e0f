"""A replay is bounded by the call's deadline (issue 9): ``cancel`` is polled once per action."""

from __future__ import annotations

import time
from typing import Any

import pytest

from route18xx.engine.api import state_from_log
from route18xx.engine.errors import OutOfTime
from route18xx.engine.replay.replay import kept_actions, replay, state_before
from route18xx.solver.runtime.cancel import CancelToken
from tests.game.conftest import load


def _passed() -> CancelToken:
    return CancelToken(deadline=time.monotonic() - 1.0)


class CancelAfter:
    """Reads as cancelled (explicitly, not expired) after ``polls`` polls."""

    def __init__(self, polls: int) -> None:
        self.polls = polls
        self.seen = 0

    @property
    def cancelled(self) -> bool:
        self.seen += 1
        return self.seen > self.polls

    @property
    def expired(self) -> bool:
        return False


def test_replay_past_its_deadline_is_out_of_time() -> None:
    with pytest.raises(OutOfTime) as info:
        replay(load("129026"), cancel=_passed())
    assert info.value.expired


def test_state_before_and_state_from_log_past_their_deadline_are_out_of_time() -> None:
    with pytest.raises(OutOfTime):
        state_before(load("129026"), 138, cancel=_passed())
    with pytest.raises(OutOfTime):
        state_from_log(load("129026"), 138, cancel=_passed())


def test_kept_actions_polls_the_token() -> None:
    with pytest.raises(OutOfTime):
        kept_actions(load("129026"), cancel=_passed())


def test_a_cancel_midway_stops_the_replay_and_says_cancelled() -> None:
    token = CancelAfter(300)
    with pytest.raises(OutOfTime) as info:
        replay(load("129026"), cancel=token)
    assert not info.value.expired and "cancelled" in str(info.value)
    assert token.seen == 301


def test_a_generous_deadline_changes_nothing() -> None:
    log: Any = load("129026")
    token = CancelToken(deadline=time.monotonic() + 60.0)
    result = replay(log, cancel=token)
    assert result.errors == [] and result.scores_match
