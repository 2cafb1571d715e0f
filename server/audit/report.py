"""The audit as one HTML page a person can open (``--report report.html``).

Self-contained: plots are matplotlib figures (Agg backend) inlined as SVG, no
script, no file beside it. The worst runs carry the command that draws their
board, and the five worst boards are drawn into the page (``route18xx draw``'s
SVG, recorded routes dashed over the optimal ones); a board that cannot be
drawn says why. Each worst run links to its view on the web page
(``<page>#log=<game>&action=<id>&objective=total``, the form the page reads),
and the games table names each game's players.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import importlib.util
import io
from collections.abc import Callable, Sequence
from typing import Any, Mapping
from urllib.parse import urlencode

from route18xx.engine.api import OBJECTIVES, Objective, money

#: Boards drawn into the page when ``route18xx.draw`` exists (each costs a replay).
DRAWN_BOARDS = 5
#: Where ``route18xx serve`` serves the web page by default (``audit --page-url``).
PAGE_URL = "http://127.0.0.1:8080/"

E = html.escape


def _svg(draw: Callable[[Any], None], width: float = 7.0, height: float = 3.2) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height))
    try:
        draw(ax)
        fig.tight_layout()
        buf = io.StringIO()
        fig.savefig(buf, format="svg")
    finally:
        plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _made_by(summary: dict[str, Any]) -> str:
    """The version that made the figures, when the summary names it."""
    made = summary.get("route18xx")
    if not isinstance(made, dict):
        return ""
    return (f"<p>Made by route18xx {E(str(made.get('version')))} "
            f"(git {E(str(made.get('git_revision')))}).</p>")


def _money(summary: Mapping[str, Any]) -> Callable[[Any], str]:
    """Amounts as the audited title writes them (``summary["currency_format"]``, issue
    25: ¥40 for 1888, $40 for 1830); plain numbers when the titles differ."""
    fmt = summary.get("currency_format")
    if not isinstance(fmt, str):
        return str
    return lambda amount: money(amount, fmt) if isinstance(amount, int) else str(amount)


def _unit(summary: Mapping[str, Any]) -> str:
    """The money's unit for an axis: ``$``, ``¥``, or the titles whose sums are mixed."""
    fmt = summary.get("currency_format")
    if isinstance(fmt, str):
        return fmt.replace("%s", "").strip() or "money"
    return "money of " + " and ".join(summary.get("titles") or ["several titles"])


def _gap_plot(summary: dict[str, Any]) -> str:
    def draw(ax: Any) -> None:
        for objective, colour in zip(OBJECTIVES, ("tab:blue", "tab:orange")):
            counts = {int(k): v for k, v in summary["gap_counts"][objective].items() if int(k) > 0}
            if counts:
                ax.bar([k + (0 if objective == "total" else 3) for k in counts], list(counts.values()),
                       width=3, color=colour, label=f"objective {objective}")
        ax.set_xlabel(f"income left on the table in one run ({_unit(summary)})")
        ax.set_ylabel("runs")
        zero = summary["gap_counts"]["total"].get("0", 0)
        ax.set_title(f"Runs below the optimum ({zero} runs were optimal: not shown)")
        if any(int(k) > 0 for k in summary["gap_counts"]["total"]):
            ax.legend()
    return _svg(draw)


def _bar_plot(rows: Sequence[dict[str, Any]], key: str, title: str, unit: str) -> str:
    shown = [r for r in rows if r["left"] > 0][:20]

    def draw(ax: Any) -> None:
        ax.barh([str(r[key]) for r in reversed(shown)], [r["left"] for r in reversed(shown)],
                color="tab:red")
        ax.set_xlabel(f"income left on the table ({unit}, objective total)")
        ax.set_title(title if shown else title + ": nothing left")
    return _svg(draw, height=max(2.0, 0.3 * len(shown) + 1.2))


def _time_plot(times: Mapping[Objective, list[float]]) -> str:
    def draw(ax: Any) -> None:
        import math

        values = [v for o in OBJECTIVES for v in times[o] if v > 0]
        if not values:
            ax.set_title("no solve")
            return
        low, high = math.log10(min(values)), math.log10(max(values))
        bins = [10 ** (low + (high - low + 1e-9) * i / 30) for i in range(31)]
        for objective in OBJECTIVES:
            ax.hist([v for v in times[objective] if v > 0], bins=bins, alpha=0.6,
                    label=f"objective {objective}")
        ax.set_xscale("log")
        ax.set_xlabel("solve time per run (ms)")
        ax.set_ylabel("runs")
        ax.legend()
    return _svg(draw)


def _draw_board(log: str, action_id: int) -> tuple[str | None, str]:
    """The board SVG of ``route18xx draw --game LOG --action ID --routes both -o -``,
    or None and why it could not be drawn (the renderer is not installed, or the
    command refused: its ``error:`` line)."""
    if importlib.util.find_spec("route18xx.draw") is None:
        return None, "route18xx.draw is not installed"
    from route18xx.server.commands.cli_guard import run_guarded
    from route18xx.server.commands.draw_cli import add_arguments, run

    out, err = io.StringIO(), io.StringIO()
    parser = argparse.ArgumentParser(prog="route18xx draw")
    add_arguments(parser)
    args = ["--game", log, "--action", str(action_id), "--routes", "both", "-o", "-"]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            drawn = parser.parse_args(args)
            status = run_guarded(lambda: int(run(drawn)))
    except SystemExit as exc:  # argparse: a usage error
        status = exc.code if isinstance(exc.code, int) else 2
    text = out.getvalue()
    if status == 0 and "<svg" in text:
        return text[text.index("<svg"):], ""
    return None, err.getvalue().strip() or f"route18xx draw exited {status}"


def page_link(page_url: str, game: str, action_id: int, objective: str = "total") -> str:
    """The web page's view of one run: ``<page>#log=<game>&action=<id>&objective=<o>``.

    >>> page_link("http://127.0.0.1:8080/", "129026", 530, "revenue")
    'http://127.0.0.1:8080/#log=129026&action=530&objective=revenue'
    """
    return f"{page_url}#" + urlencode({"log": game, "action": action_id, "objective": objective})


def _players_of(game: Mapping[str, Any]) -> list[str]:
    """A game line's players by name, each with the final score when the game has one."""
    scores = game.get("final_scores") or {}
    out = []
    for p in game.get("players") or []:
        score = scores.get(str(p.get("id")), scores.get(p.get("name")))
        out.append(f"{p.get('name')}" + (f" ({score})" if score is not None else ""))
    return out


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{E(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _group_rows(rows: Sequence[dict[str, Any]], key: str,
                m: Callable[[Any], str] = str) -> list[list[Any]]:
    return [
        [E(str(r[key])), r["runs"], r["runs_below_optimum"], E(m(r["recorded"])), E(m(r["optimal"])),
         E(m(r["left"])), f"{r['left_pct']:.2f} %"]
        for r in rows
    ]


STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em}
th{background:#eee}td{text-align:right}td:first-child{text-align:left}
code{background:#f4f4f4;padding:0 .3em}.figures td{text-align:left}
.board svg{max-width:100%;height:auto}
"""


def render(
    summary: dict[str, Any], runs: Sequence[dict[str, Any]],
    games: Sequence[Mapping[str, Any]] = (), page_url: str = PAGE_URL,
) -> str:
    """The page; ``runs`` are the run lines (for the solver-time plot), ``games`` the
    game lines (their players), ``page_url`` the web page the runs link to."""
    times = {
        o: [float(r["timing"]["solve_ms"][o]) for r in runs
            if r.get("timing", {}).get("solve_ms", {}).get(o) is not None]
        for o in OBJECTIVES
    }
    s = summary
    m = _money(s)
    unit = _unit(s)
    figures = _table(["", ""], [
        ["logs audited", s["logs"]], ["logs replayed to the end", s["logs_ok"]],
        ["logs whose replay stopped partway (their runs are counted)",
         f"{s['logs_stopped']} ({s['runs_in_stopped_logs']} runs)"],
        ["logs that failed", s["logs_failed"]], ["final scores as recorded", s["scores_match"]],
        ["runs", s["runs"]], ["runs proven optimal (both objectives)", s["runs_proven"]],
        ["recorded routes the engine finds illegal", s["runs_recorded_illegal"]],
        ["runs below the optimum (total / revenue)",
         f"{s['runs_below_optimum']['total']} / {s['runs_below_optimum']['revenue']}"],
        ["income recorded", E(m(s["recorded_income"]))],
        ["left on the table (total / revenue)",
         E(f"{m(s['left_on_table']['total'])} / {m(s['left_on_table']['revenue'])}")],
    ]).replace("<table>", '<table class="figures">')
    group_headers = ["runs", "below optimum", "recorded", "optimal", "left", "left %"]
    worst_rows = []
    for i, w in enumerate(s["worst_runs"]):
        board, why = _draw_board(w["log"], w["action_id"]) if i < DRAWN_BOARDS else (None, "")
        picture = (f'<div class="board">{board}</div>' if board else
                   f"<code>{E(w['draw'])}</code>" + (f"<p>not drawn: {E(why)}</p>" if why else ""))
        link = page_link(page_url, str(w["game"]), w["action_id"])
        worst_rows.append([
            E(str(w["game"])), f'<a href="{E(link)}">{w["action_id"]}</a>', E(str(w["round"])),
            E(w["corporation"]),
            E(str(w["president_name"])), E(" ".join(w["trains"])), E(m(w["recorded"])),
            E(m(w["optimal"])), E(m(w["gap"])), "yes" if w["recorded_legal"] else "no", picture,
        ])
    pct = s["solve_ms"]
    time_rows = [[o] + [pct[o].get(k, "") for k in ("p50", "p90", "p99", "max")] for o in OBJECTIVES]
    failed = [[E(f["log"]), E("; ".join(f["errors"]))] for f in s["failed_logs"]]
    partial = [[E(f["log"]), f["stopped_at"], f["runs"], E("; ".join(f["errors"]))]
               for f in s["stopped_logs"]]
    warned = [[E(f["log"]), E("; ".join(f["errors"][:5]))] for f in s["logs_with_errors"]]
    parts = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
        "<title>route18xx audit</title>", f"<style>{STYLE}</style></head><body>",
        "<h1>route18xx audit</h1>", _made_by(s), figures,
        "<h2>Games</h2>",
        _table(["game", "players (final score)", "runs", "rules", "replayed to the end"],
               [[E(str(g.get("game"))), E(", ".join(_players_of(g))), g.get("runs", 0),
                 E(str(g.get("rules_version", ""))), "yes" if g.get("completed") else "no"]
                for g in games]) if games else "<p>No game lines.</p>",
        "<h2>Distribution of gaps</h2>", _gap_plot(s),
        "<h2>Income left on the table, per player</h2>",
        "<p>The president of the company when it ran, by name across games.</p>",
        _bar_plot(s["by_player"], "president_name", "per player", unit),
        _table(["player", *group_headers], _group_rows(s["by_player"], "president_name", m)),
        "<h2>Income left on the table, per company</h2>",
        _bar_plot(s["by_company"], "corporation", "per company", unit),
        _table(["company", *group_headers], _group_rows(s["by_company"], "corporation", m)),
        "<h2>Worst runs</h2>",
        f"<p>Each action links to its view on the web page ({E(page_url)}, "
        "<code>route18xx serve</code>); the five worst boards are drawn: optimal routes "
        "solid, recorded dashed.</p>",
        _table(["game", "action", "round", "company", "president", "trains", "recorded",
                "optimal", "gap", "legal", "board"], worst_rows),
        "<h2>Solver time</h2>", _time_plot(times),
        _table(["objective", "p50 ms", "p90 ms", "p99 ms", "max ms"], time_rows),
        "<h2>Logs whose replay stopped partway</h2>",
        "<p>Their runs before the stop are audited and counted above.</p>",
        _table(["log", "stopped at action", "runs reached", "why"], partial)
        if partial else "<p>None.</p>",
        "<h2>Logs that failed</h2>",
        _table(["log", "why"], failed) if failed else "<p>None.</p>",
        "<h2>Logs replayed with disagreements</h2>",
        _table(["log", "errors (first five)"], warned) if warned else "<p>None.</p>",
        "</body></html>",
    ]
    return "\n".join(parts)
