"""1830 whole-log replays through the same game engine as 1888 (issue 25 item 3).

The two shared 18xx.games 1830 logs (``tests/data/1830/26855.json``,
``29133.json``) replay to their recorded ``result``; every recorded route is
legal at its recorded revenue; the state at the start and at every round end
equals the 18xx.games engine's own figures (``tests/data/1830/fixture_checkpoints.json``,
taken from the site's engine, not from ours).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from route18xx.engine.game.invariants import check_after
from route18xx.engine.replay.replay import ReplayResult, kept_actions, replay, replay_report
from tests.game.test_replay import _expected, _snapshot

DATA = Path(__file__).resolve().parent.parent / "data" / "1830"
LOGS = ("26855", "29133")
#: run_routes kept after undo (1830 ACTIONS.md §4).
RUNS = {"26855": 43, "29133": 24}
#: rule sets named from the logs' optional rules (1830 data/options.json "fixtures").
RULE_SETS = {"26855": "multiple_brown_from_ipo", "29133": "standard"}


def _file(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.fail(f"test data {path} is missing (see tests/data/README.md)")
    return path


@cache
def _log(name: str) -> Any:
    return json.loads(_file(f"{name}.json").read_text("utf-8"))


@cache
def _checkpoints(name: str) -> Any:
    return json.loads(_file("fixture_checkpoints.json").read_text("utf-8"))[name]


@cache
def _replayed(name: str) -> tuple[ReplayResult, list[dict[str, Any]]]:
    """The replay and our snapshot at the start and at every round change."""
    mine: list[dict[str, Any]] = []

    def on_round(game: Any) -> None:
        mine.append(_snapshot(game))

    def arm(game: Any, action: Any) -> None:
        if not mine:
            mine.append(_snapshot(game))  # the checkpoints start with the fresh game
        if on_round not in game.on_new_round:
            game.on_new_round.append(on_round)

    result = replay(_log(name), before_action=arm)
    mine.append(_snapshot(result.game))
    return result, mine


@pytest.mark.parametrize("name", LOGS)
def test_final_scores_equal_the_recorded_result(name: str) -> None:
    result, _ = _replayed(name)
    assert result.errors == []
    assert result.completed and result.game.finished
    assert result.title == "1830" and result.rule_set == RULE_SETS[name]
    assert result.game.state.end_reason == _log(name)["game_end_reason"] == "bankrupt"
    assert result.recorded_result == {k: int(v) for k, v in _log(name)["result"].items()}
    assert result.final_scores == result.recorded_result


@pytest.mark.parametrize("name", LOGS)
def test_every_run_is_legal_and_priced_as_recorded(name: str) -> None:
    result, _ = _replayed(name)
    assert len(result.runs) == RUNS[name]
    recorded = {
        a["id"]: sum(r["revenue"] for r in a["routes"])
        for a in kept_actions(_log(name))
        if a.get("type") == "run_routes"
    }
    for run in result.runs:
        check = run.check
        assert check.legal, (check.action_id, check.judgement.violations)
        assert check.recorded_revenue == recorded[check.action_id]
        assert check.engine_revenue == check.recorded_revenue, check.action_id


@pytest.mark.parametrize("name", LOGS)
def test_every_round_matches_the_engine_checkpoints(name: str) -> None:
    """Start and every round end equal the 18xx.games engine's (fixture_checkpoints.json)."""
    expected = _checkpoints(name)["snapshots"]
    _, mine = _replayed(name)
    assert len(mine) == len(expected)
    for got, want in zip(mine, expected, strict=True):
        assert got == _expected(want), want["label"]


@pytest.mark.parametrize("name", LOGS)
def test_invariants_hold_after_every_action(name: str) -> None:
    problems: list[tuple[Any, list[str]]] = []

    def hook(game: Any, action: Any) -> None:
        found = check_after(game, action)
        if found:
            problems.append((action.id, found))

    assert replay(_log(name), after_action=hook).scores_match
    assert problems == []


def test_the_report_names_the_title() -> None:
    result, _ = _replayed("29133")
    report = replay_report(result).to_json()
    assert report["title"] == "1830" and report["scores_match"] is True
    assert len(report["run_routes"]) == RUNS["29133"]


def test_the_d_trade_in_and_the_b_and_o_par_are_in_the_replay() -> None:
    """29133 #439 trades a 4 in for a D at $800; #23 parred B&O at $100 for free
    (1830 ACTIONS.md §2, §3)."""
    stop = replay(_log("29133"), stop_before=440).game
    trader = next(c for c in stop.corporations.values() if "D-0" in c.trains)
    assert "4-1" not in trader.trains
    assert "4-1" not in stop.depot.upcoming
    auction = replay(_log("29133"), stop_before=24).game
    bo = auction.corporation("B&O")
    assert bo.par_price == 100 and bo.shares.percent_of(4631) == 20
    assert auction.player(4631).cash == 600 - 220  # the president's certificate cost nothing


def _before(name: str, action_id: int) -> Any:
    result = replay(_log(name), stop_before=action_id, safe=True)
    assert result.errors == []
    result.game.trust_recorded_routes = False
    return result.game


def _mh_exchange(cert: str) -> Any:
    from route18xx.engine.game.actions import BuyShares

    return BuyShares("MH", "company", shares=(cert,), percent=10)


@pytest.mark.parametrize("action_id", [63, 75])
def test_mohawk_and_hudson_exchanges_for_an_nyc_share_at_any_time(action_id: int) -> None:
    """1830 RULES.md §7.4: the player owning MH may at any time, in an operating round
    (26855 #63: PRR operates) or in another player's stock-round turn (#75: Player 1's),
    close MH for a 10 % NYC share from the IPO. Player 4 (330) owns MH then."""
    game = _before("26855", action_id)
    nyc = game.corporation("NYC")
    assert game.company("MH").owner == 330 and nyc.shares.owner_of("NYC_6") == "ipo"
    before = game.player(330).cash
    game.process(_mh_exchange("NYC_6"))
    assert nyc.shares.owner_of("NYC_6") == 330
    assert game.company("MH").closed and game.player(330).cash == before


def test_mohawk_and_hudson_gives_no_other_share() -> None:
    from route18xx.engine.errors import IllegalAction

    game = _before("26855", 63)
    with pytest.raises(IllegalAction) as refused:
        game.process(_mh_exchange("PRR_6"))
    assert refused.value.code == "not_exchangeable"
    assert not game.company("MH").closed


def test_a_trainless_1830_company_must_buy_only_with_a_route() -> None:
    """1830 RULES.md §14 (base.rb ``MUST_BUY_TRAIN = :route``): the rules version of
    every 1830 rule set says so, and the D is on sale from phase 6."""
    from route18xx.engine.titles import title_named

    title = title_named("1830")
    assert title.undated_rules is not None
    for rule_set in title.rule_sets:
        rules = title.undated_rules(rule_set)
        assert rules.must_buy_train == "route"
        assert rules.sold_early(["2", "3", "4", "5", "6"]) == {"D"}
        assert rules.trains(title.data.trains)["6"].count == (3 if "optional_6_train" in rule_set else 2)


@pytest.mark.parametrize(("options", "allowed"), [(["multiple_brown_from_ipo"], True), ([], False)])
def test_a_second_brown_share_comes_from_the_ipo_only_under_its_option(
    options: list[str], allowed: bool
) -> None:
    """1830 options.json ``multiple_brown_from_ipo``: NYC is in the brown zone at 26855
    #484 and Player 2 (82) has just bought NYC_4 from the pool; a second NYC share from
    the pool is always allowed, one from the IPO (NYC_8) only under the option."""
    from route18xx.engine.errors import IllegalAction
    from route18xx.engine.game.actions import BuyShares

    log = {**_log("26855"), "settings": {**_log("26855")["settings"], "optional_rules": options}}
    game = replay(log, stop_before=484, safe=True).game
    nyc = game.corporation("NYC")
    assert nyc.shares.owner_of("NYC_5") == "pool" and nyc.shares.owner_of("NYC_8") == "ipo"
    if allowed:
        game.process(BuyShares(82, "player", shares=("NYC_8",), percent=10))
        assert nyc.shares.owner_of("NYC_8") == 82
    else:
        with pytest.raises(IllegalAction) as refused:
            game.process(BuyShares(82, "player", shares=("NYC_8",), percent=10))
        assert refused.value.code == "already_bought"
        game.process(BuyShares(82, "player", shares=("NYC_5",), percent=10))
        assert game.corporation("NYC").shares.owner_of("NYC_5") == 82  # a refusal restores a snapshot


def test_the_optional_sixth_train_is_in_the_depot() -> None:
    """1830 options.json ``optional_6_train``: three 6-trains (6-0, 6-1, 6-2)."""
    from route18xx.engine.game.game import Game

    for rule_set, sixes in (("standard", 2), ("optional_6_train", 3),
                            ("multiple_brown_from_ipo+optional_6_train", 3)):
        game = Game(rule_set, [1, 2, 3, 4], title="1830")
        assert [t for t in game.depot.upcoming if t.startswith("6-")] == [f"6-{i}" for i in range(sixes)]
        assert game.bank.cash == 12000 - 4 * 600


def test_players_buy_privates_from_each_other_from_the_second_stock_round() -> None:
    """1830 RULES.md §14 (phases 2-4, ``can_buy_companies_from_other_players``, not in
    stock round 1): at 26855 #73 (stock round 2, Player 4 = 330 to act) Player 4 buys
    Player 3's (117) DH for $50 as the turn's purchase; BO can never be sold (``no_buy``);
    in stock round 1 (#31, Player 2 = 82 to act) no private changes hands."""
    from route18xx.engine.errors import IllegalAction
    from route18xx.engine.game.actions import BuyCompany

    game = _before("26855", 73)
    buyer, seller = game.player(330).cash, game.player(117).cash
    game.process(BuyCompany(330, "player", company="DH", price=50))
    assert game.company("DH").owner == 330
    assert (game.player(330).cash, game.player(117).cash) == (buyer - 50, seller + 50)
    with pytest.raises(IllegalAction) as twice:
        game.process(BuyCompany(330, "player", company="SV", price=10))
    assert twice.value.code == "already_bought"

    game = _before("26855", 73)
    with pytest.raises(IllegalAction) as bo:
        game.process(BuyCompany(330, "player", company="BO", price=10))
    assert bo.value.code == "not_for_sale"

    first = _before("26855", 31)
    with pytest.raises(IllegalAction) as early:
        first.process(BuyCompany(82, "player", company="CA", price=100))
    assert early.value.code == "no_private_sales"
