"""The ``audit`` and ``generate-logs`` subcommands (registered in ``server.cli``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from route18xx.server.commands.cli_output import WriteFailed, output_problem, write_problem, write_whole


def add_audit(p: argparse.ArgumentParser) -> None:
    p.add_argument("logs", nargs="+", metavar="LOG|DIR",
                   help="18xx.games 1888 logs, or folders searched for *.json")
    p.add_argument("--out", default="results.jsonl", metavar="FILE",
                   help="JSON lines, one per run and one per game; rerunning resumes it "
                        "(default results.jsonl)")
    p.add_argument("--summary", metavar="FILE", help="write the summary JSON here")
    p.add_argument("--report", metavar="FILE", help="write the HTML report here")
    p.add_argument("--page-url", default="http://127.0.0.1:8080/", metavar="URL",
                   help="the web page the report's runs link to (default: route18xx serve's, "
                        "http://127.0.0.1:8080/)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="local worker processes (default: all cores)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="a running Dask scheduler (tcp://host:8786) instead of local processes")
    p.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                   help="solver time limit per run and objective (default 10; must be > 0)")
    p.add_argument("--export-states", metavar="DIR",
                   help="write every decision proven optimal both ways as a state file "
                        "with its optima (the tests/data/states format)")
    p.add_argument("--rules-as-of", dest="rules_as_of", metavar="YYYY-MM-DD",
                   help="replay every log under the 1888 rules of this date "
                        "(default: each log's own date)")
    p.add_argument("--turns", action="store_true",
                   help="also rank each turn's whole-turn plans (lays and token) and report the "
                        "income left by lay/token choices beside the routes' (slower: one "
                        "ranking per run)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                     help="a progress bar even when stderr is not a terminal")
    bar.add_argument("--no-progress", dest="progress", action="store_false")


#: How many failed logs ``audit`` names on stderr (the summary lists them all).
NAMED_FAILURES = 10


def _error(field: str, reason: str) -> int:
    print(f"error: {field}: {reason}", file=sys.stderr)
    return 2


def _output_error(a: argparse.Namespace) -> tuple[str, str] | None:
    """The first output option that cannot be written, and why."""
    checks = [("--out", a.out, False, False), ("--summary", a.summary, False, True),
              ("--report", a.report, False, True), ("--export-states", a.export_states, True, False)]
    for option, path, directory, devices in checks:
        if path is not None and (problem := output_problem(path, directory=directory,
                                                           devices=devices)) is not None:
            return option, problem
    return None


def _exit_status(summary: dict[str, Any]) -> int:
    """0 when every log was audited, 1 when some failed, 2 when none could be (issue 20 §5).

    A log whose replay stopped partway is audited up to there, not failed. Each
    failed log is named on stderr as ``error: <log>: <reason>``.
    """
    failed = summary["failed_logs"]
    for f in failed[:NAMED_FAILURES]:
        print(f"error: {f['log']}: {'; '.join(f['errors'][:1]) or 'failed'}", file=sys.stderr)
    if len(failed) > NAMED_FAILURES:
        print(f"error: logs: {len(failed) - NAMED_FAILURES} more failed (see --summary)",
              file=sys.stderr)
    if not failed:
        return 0
    return 2 if len(failed) == summary["logs"] else 1


def _version() -> dict[str, str]:
    """Which route18xx made the figures (issue 23): in the summary, the report and the last line."""
    from route18xx.server.ops.version import git_revision, package_version

    return {"version": package_version(), "git_revision": git_revision()}


def run_audit(a: argparse.Namespace) -> int:
    """``route18xx audit``: SIGTERM stops it as Ctrl-C does, from its first step on.

    The audit loop reports a stop itself (how many logs are done). A stop
    outside it (finding the logs, reading ``--out``, starting the pool, or
    writing the summary after it) ends the same way: status 130 or 143 and the
    resume hint, no traceback (issue 20 §4).
    """
    import signal

    from route18xx.server.audit.runner import Terminated, sigterm_stops

    # Ctrl-C stops the audit even when its parent started it with SIGINT ignored (a shell
    # script's background job, a test runner's worker): Python then keeps SIG_IGN.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with sigterm_stops():
            return _run_audit(a)
    except KeyboardInterrupt as exc:
        signum = exc.signum if isinstance(exc, Terminated) else signal.SIGINT
        print(f"route18xx audit: interrupted; the logs audited so far are in {a.out}: run the "
              "same command again to resume", file=sys.stderr)
        return 128 + signum


def _run_audit(a: argparse.Namespace) -> int:
    from route18xx.server.audit.executors import default_jobs
    from route18xx.server.audit.report import render
    from route18xx.server.audit.runner import AuditOptions, run_audit
    from route18xx.server.audit.summary import read_lines, summarize

    if a.jobs is not None and a.jobs < 1:
        return _error("--jobs", f"must be 1 or more, not {a.jobs}")
    if (problem := _output_error(a)) is not None:
        return _error(*problem)
    from route18xx.engine.api import MalformedInput, parse_rules_as_of

    try:
        parse_rules_as_of(a.rules_as_of)
    except MalformedInput as exc:
        return _error(exc.field, exc.reason)
    from pathlib import Path

    out = Path(a.out)
    options = AuditOptions(
        time_limit_s=a.time_limit, jobs=a.jobs or default_jobs(), cluster=a.cluster,
        export_states=Path(a.export_states) if a.export_states else None, progress=a.progress,
        rules_as_of=a.rules_as_of, turns=a.turns,
    )
    try:
        outcome = run_audit(a.logs, out, options)
        if outcome.interrupted:
            print(f"route18xx audit: interrupted; {outcome.skipped + outcome.audited} of "
                  f"{outcome.logs} logs are in {out}: run the same command again to resume",
                  file=sys.stderr)
            return 128 + outcome.signum  # 130 for Ctrl-C, 143 for SIGTERM, as a shell reports
        lines = read_lines(out)
        summary = {"route18xx": _version(), **summarize(lines)}
        if a.summary:
            write_whole(a.summary, json.dumps(summary, indent=1) + "\n", "--summary")
        if a.report:
            runs = [line for line in lines if line.get("kind") == "run"]
            games = [line for line in lines if line.get("kind") == "game"]
            write_whole(a.report, render(summary, runs, games, a.page_url), "--report")
    except WriteFailed as exc:  # the summary's or the report's: named, no partial file left
        return _error(exc.option, exc.reason)
    except OSError as exc:
        option = "--out"
        for name, path in (("--summary", a.summary), ("--report", a.report),
                           ("--export-states", a.export_states)):
            if path and exc.filename and str(exc.filename).startswith(str(path)):
                option = name
        return _error(option, write_problem(exc))
    if summary["logs"] == 0:
        return _error("logs", "no log found: name *.json files or folders holding them")
    print(f"{summary['logs']} logs ({outcome.skipped} already done), {summary['logs_failed']} "
          f"failed, {summary['logs_stopped']} stopped partway ({summary['runs_in_stopped_logs']} "
          f"runs reached, counted); {summary['runs']} runs, "
          f"{summary['runs_below_optimum']['total']} below the optimum, "
          f"{summary['left_on_table']['total']} left on the table -> {out} "
          f"(route18xx {summary['route18xx']['version']}, git {summary['route18xx']['git_revision']})")
    return _exit_status(summary)


def add_generate(p: argparse.ArgumentParser) -> None:
    p.add_argument("count", type=int, metavar="N", help="how many games")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the first game")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="folder for the logs")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="games played at once (default: all cores)")
    p.add_argument("--title", required=True, metavar="TITLE",
                   help="the title played: 1888, 1830 or 1889 (required: no title is assumed)")
    p.add_argument("--rule-set", default=None, metavar="NAME",
                   help="a rule set of the title (1888: north (default), prototype; 1830: "
                        "standard (default), multiple_brown_from_ipo, optional_6_train, "
                        "multiple_brown_from_ipo+optional_6_train)")


def run_generate(a: argparse.Namespace) -> int:
    from route18xx.server.audit.executors import default_jobs
    from route18xx.server.audit.generate import generate_logs

    if a.count < 0:
        return _error("N", f"must be 0 or more, not {a.count}")
    if a.jobs is not None and a.jobs < 1:
        return _error("--jobs", f"must be 1 or more, not {a.jobs}")
    from route18xx.engine.api import titles_served

    served = titles_served()  # title → its rule sets, the default first
    if a.title not in served:
        return _error("--title", f"unknown title {a.title!r}; expected one of {sorted(served)}")
    rule_set = a.rule_set or served[a.title][0]
    if rule_set not in served[a.title]:
        return _error("--rule-set", f"{a.title} has no rule set {rule_set!r}; "
                                    f"expected one of {sorted(served[a.title])}")
    if (problem := output_problem(a.out, directory=True)) is not None:
        return _error("--out", problem)
    from pathlib import Path

    try:
        paths = generate_logs(a.count, a.seed, Path(a.out), a.jobs or default_jobs(), rule_set,
                              a.title)
    except WriteFailed as exc:  # a log could not be written whole: none is left half-written
        return _error(exc.option, exc.reason)
    except OSError as exc:
        return _error("--out", write_problem(exc))
    print(f"{len(paths)} logs in {a.out}")
    return 0 if len(paths) == a.count else 1


#: name → (help, add arguments, run), merged into ``server.cli.COMMANDS``.
COMMANDS = {
    "audit": ("replay many logs, solve every run, report income left on the table",
              add_audit, run_audit),
    "generate-logs": ("write N random legal games as 18xx.games logs", add_generate, run_generate),
}
