"""``route18xx suggest --turn``: the company's whole turn ranked, with train advice (issue 24).

The board comes from a state file (whose optional ``depot`` and ``other_trains``
describe the train market) or from ``--game GAME.json --action ID`` (the game's
own market). Exit status as every command: 0 when ranked, 2 naming the field.
"""

from __future__ import annotations

from typing import TextIO

from route18xx.engine.api import DEFAULT_OBJECTIVE, TurnReport, money
from route18xx.server.commands.cli_commands import Source, _source, read_json, run_command


def turn_command(
    state: str | Source | None,
    as_json: bool,
    top: int = 5,
    subtract_cost: bool = False,
    objective: str = DEFAULT_OBJECTIVE,
    time_limit_s: float = 30.0,
    trains: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``route18xx suggest --turn STATE.json [--top N] [--subtract-cost] [--no-trains] [--json]``."""
    from route18xx.engine.api import suggest_turn

    def compute() -> TurnReport:
        source = _source(state)
        options = dict(top=top, subtract_cost=subtract_cost, objective=objective,
                       time_limit_s=time_limit_s, trains=trains)
        if source.game_path is not None:
            if source.action_id is None:
                from route18xx.engine.api import MalformedInput

                raise MalformedInput("action_id", "is missing: a game log needs --action ID")
            return suggest_turn(None, game_log=read_json(source.game_path, "GAME.json"),
                                action_id=source.action_id, rules_as_of=source.rules_as_of,
                                **options)  # type: ignore[arg-type]
        return suggest_turn(source.load(), **options)  # type: ignore[arg-type]

    return run_command(compute, as_json, print_turn, out, err)


def _plan_text(lays: list[str], token: str | None) -> str:
    parts = lays + ([token] if token else [])
    return ", ".join(parts) if parts else "no lay, no token"


def print_turn(report: TurnReport, out: TextIO) -> None:
    """The income doing nothing, how the ranking went, the plans best first, the trains."""
    print(
        f"{report.corporation}: income with no lay and no token {report.base_income}; "
        f"{report.candidates} plans on {report.lay_boards} boards ({report.plans_solved} priced, "
        f"{report.solves} solves, {report.pruned} pruned by bounds, {len(report.unranked)} "
        f"unranked) in {report.elapsed_ms:.0f} ms",
        file=out,
    )
    for rank, p in enumerate(report.plans, start=1):
        lays = [f"{l.tile} on {l.hex} rotation {l.rotation}" + (f" ({l.private})" if l.private else "")
                for l in p.plan.lays]
        token = None if p.plan.token is None else f"token on {p.plan.token.hex}-{p.plan.token.city}"
        proof = "" if p.proven_optimal else " (not proven)"
        print(f"{rank:>3}. {_plan_text(lays, token)}: income {p.income}{proof} "
              f"(gain {p.gain:+d}, cost {p.plan.cost})", file=out)
    advice = report.train_advice
    if advice.options:
        known = "" if advice.market_known else " (depot assumed: the phase's train)"
        print(f"trains after plan 1 (now {advice.income_now}){known}:", file=out)
        for t in advice.options:
            source = {"depot": "depot", "trade_in": f"trade in {t.traded_in}",
                      "corporation": f"from {t.seller}"}.get(t.source, t.source)
            fmt = report.currency_format  # the title's money: ¥80, $80
            price = money(t.price, fmt) if t.price == t.max_price else \
                f"{money(t.price, fmt)}-{t.max_price}"
            print(f"     {t.train} ({source}, {price}{'' if t.affordable else ', not affordable'}): "
                  f"income {t.income} with {','.join(t.trains_after)} in phase {t.phase}", file=out)
