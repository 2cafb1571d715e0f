"""The audit as one HTML page a person can open (``--report report.html``).

Self-contained: plots are matplotlib figures (Agg backend) inlined as SVG, no
script, no file beside it. The worst runs carry the command that draws their
board; when the board renderer (``route18xx.draw``) is installed, the first
few boards are drawn into the page instead.
"""

from __future__ import annotations

import contextlib
import html
import importlib.util
import io
from collections.abc import Callable, Sequence
from typing import Any, Mapping

from route18xx.engine.api import OBJECTIVES, Objective

#: Boards drawn into the page when ``route18xx.draw`` exists (each costs a replay).
DRAWN_BOARDS = 5

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


def _gap_plot(summary: dict[str, Any]) -> str:
    def draw(ax: Any) -> None:
        for objective, colour in zip(OBJECTIVES, ("tab:blue", "tab:orange")):
            counts = {int(k): v for k, v in summary["gap_counts"][objective].items() if int(k) > 0}
            if counts:
                ax.bar([k + (0 if objective == "total" else 3) for k in counts], list(counts.values()),
                       width=3, color=colour, label=f"objective {objective}")
        ax.set_xlabel("income left on the table in one run (yuan)")
        ax.set_ylabel("runs")
        zero = summary["gap_counts"]["total"].get("0", 0)
        ax.set_title(f"Runs below the optimum ({zero} runs were optimal: not shown)")
        if any(int(k) > 0 for k in summary["gap_counts"]["total"]):
            ax.legend()
    return _svg(draw)


def _bar_plot(rows: Sequence[dict[str, Any]], key: str, title: str) -> str:
    shown = [r for r in rows if r["left"] > 0][:20]

    def draw(ax: Any) -> None:
        ax.barh([str(r[key]) for r in reversed(shown)], [r["left"] for r in reversed(shown)],
                color="tab:red")
        ax.set_xlabel("income left on the table (yuan, objective total)")
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


def _draw_board(log: str, action_id: int) -> str | None:
    """The board SVG from ``route18xx draw`` when the renderer exists, else None."""
    if importlib.util.find_spec("route18xx.draw") is None:
        return None
    from route18xx.server.cli import main

    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = main(["draw", "--game", log, "--action", str(action_id), "--routes", "both"])
    except (SystemExit, Exception):  # the renderer's command is not there or failed
        return None
    text = out.getvalue()
    return text[text.index("<svg"):] if status == 0 and "<svg" in text else None


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{E(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _group_rows(rows: Sequence[dict[str, Any]], key: str) -> list[list[Any]]:
    return [
        [E(str(r[key])), r["runs"], r["runs_below_optimum"], r["recorded"], r["optimal"],
         r["left"], f"{r['left_pct']:.2f} %"]
        for r in rows
    ]


STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em}
th{background:#eee}td{text-align:right}td:first-child{text-align:left}
code{background:#f4f4f4;padding:0 .3em}.figures td{text-align:left}
.board svg{max-width:100%;height:auto}
"""


def render(summary: dict[str, Any], runs: Sequence[dict[str, Any]]) -> str:
    """The page; ``runs`` are the run lines (for the solver-time plot)."""
    times = {
        o: [float(r["timing"]["solve_ms"][o]) for r in runs
            if r.get("timing", {}).get("solve_ms", {}).get(o) is not None]
        for o in OBJECTIVES
    }
    s = summary
    figures = _table(["", ""], [
        ["logs audited", s["logs"]], ["logs replayed to the end", s["logs_ok"]],
        ["logs whose replay stopped partway (their runs are counted)",
         f"{s['logs_stopped']} ({s['runs_in_stopped_logs']} runs)"],
        ["logs that failed", s["logs_failed"]], ["final scores as recorded", s["scores_match"]],
        ["runs", s["runs"]], ["runs proven optimal (both objectives)", s["runs_proven"]],
        ["recorded routes the engine finds illegal", s["runs_recorded_illegal"]],
        ["runs below the optimum (total / revenue)",
         f"{s['runs_below_optimum']['total']} / {s['runs_below_optimum']['revenue']}"],
        ["income recorded", s["recorded_income"]],
        ["left on the table (total / revenue)",
         f"{s['left_on_table']['total']} / {s['left_on_table']['revenue']}"],
    ]).replace("<table>", '<table class="figures">')
    group_headers = ["runs", "below optimum", "recorded", "optimal", "left", "left %"]
    worst_rows = []
    for i, w in enumerate(s["worst_runs"]):
        board = _draw_board(w["log"], w["action_id"]) if i < DRAWN_BOARDS else None
        picture = f'<div class="board">{board}</div>' if board else f"<code>{E(w['draw'])}</code>"
        worst_rows.append([
            E(str(w["game"])), w["action_id"], E(str(w["round"])), E(w["corporation"]),
            E(str(w["president_name"])), E(" ".join(w["trains"])), w["recorded"], w["optimal"],
            w["gap"], "yes" if w["recorded_legal"] else "no", picture,
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
        "<h2>Distribution of gaps</h2>", _gap_plot(s),
        "<h2>Income left on the table, per player</h2>",
        "<p>The president of the company when it ran, by name across games.</p>",
        _bar_plot(s["by_player"], "president_name", "per player"),
        _table(["player", *group_headers], _group_rows(s["by_player"], "president_name")),
        "<h2>Income left on the table, per company</h2>",
        _bar_plot(s["by_company"], "corporation", "per company"),
        _table(["company", *group_headers], _group_rows(s["by_company"], "corporation")),
        "<h2>Worst runs</h2>",
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
