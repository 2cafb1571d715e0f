"""The audit loop: resumable, one append per game, a sorted results file at the end.

A game's run lines and its game line go to ``--out`` in one write, flushed,
with Ctrl-C held back for that write; the game line, written last, marks the
log as done. Rerunning with the same ``--out`` first cuts anything after the
last game line (what a kill mid-write could leave) and skips the logs done.
When every log is done the file is rewritten, atomically, sorted by log then
action: the same logs give the same file, from the local pool or a cluster.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from route18xx.server.audit.records import GameAudit
from route18xx.server.commands.cli_output import write_whole


@dataclass(frozen=True)
class AuditOptions:
    time_limit_s: float = 10.0
    jobs: int = 1
    cluster: str | None = None
    export_states: Path | None = None
    #: a progress bar: None = only when stderr is a terminal.
    progress: bool | None = None
    #: replay every log under the rules of this date, not its own (DESIGN.md §9).
    rules_as_of: str | None = None
    #: each turn beside the best whole-turn plan (issue 24): income left by lay/token choices.
    turns: bool = False


@dataclass
class AuditOutcome:
    logs: int
    skipped: int
    audited: int
    interrupted: bool
    #: the signal that interrupted the audit (SIGINT or SIGTERM), 0 when none did.
    signum: int = 0


def find_logs(inputs: Sequence[str]) -> list[str]:
    """The ``*.json`` files named or found (recursively) in folders, each once, sorted."""
    found: set[str] = set()
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            found.update(str(p) for p in path.rglob("*.json") if p.is_file())
        else:
            found.add(str(path))  # a missing file gets its error line
    return sorted(found)


def line_text(line: dict[str, Any]) -> str:
    return json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def read_done(out: Path) -> set[str]:
    """The logs ``out`` already holds a game line for; cuts what follows the last one."""
    if not out.exists():
        return set()
    done: set[str] = set()
    keep = 0
    offset = 0
    with out.open("rb") as f:
        for raw in f:
            offset += len(raw)
            if not raw.endswith(b"\n"):
                break  # a torn last line
            try:
                line = json.loads(raw)
            except ValueError:
                break
            if isinstance(line, dict) and line.get("kind") == "game":
                done.add(str(line.get("log")))
                keep = offset
    if keep != out.stat().st_size:
        with out.open("r+b") as f:
            f.truncate(keep)
    return done


#: The signals that stop an audit cleanly: Ctrl-C, and a service manager's stop (issue 20 §4).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread: stops the audit as Ctrl-C does.

    A ``KeyboardInterrupt`` so that every path that cleans up after Ctrl-C (the
    local pool terminating its workers, the loop below) does so for SIGTERM too.
    """

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(signum)


@contextmanager
def sigterm_stops() -> Iterator[None]:
    """SIGTERM raises ``Terminated`` for the audit's duration (its default would kill
    the process without the resume hint and leave the pool's workers behind)."""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread: the default stands
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def _no_sigint() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while a game's lines are written; they take effect
    right after.

    The Python-level handlers are swapped (not the thread's signal mask: the pool's
    and the progress bar's threads would still take the signal for the process).
    """
    caught: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        caught.append(signum)

    try:
        previous = {s: signal.signal(s, hold) for s in STOP_SIGNALS}
    except ValueError:  # not the main thread: nothing to hold back
        yield
        return
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        if caught:
            if caught[0] == signal.SIGINT:
                raise KeyboardInterrupt
            raise Terminated(caught[0])


def _write_game(out: Any, audit: GameAudit, states: Path | None) -> None:
    if states is not None:  # the benchmark cases first: the game line marks them written too
        for name, case in audit.states:
            (states / name).write_text(json.dumps(case, indent=1) + "\n", encoding="utf-8")
    text = "".join(line_text(line) for line in audit.lines)
    with _no_sigint():
        out.write(text)
        out.flush()
        os.fsync(out.fileno())


def _sort_key(line: dict[str, Any]) -> tuple[str, int, int]:
    if line.get("kind") == "game":
        return (str(line.get("log")), 1, 0)
    return (str(line.get("log")), 0, int(line.get("action_id") or 0))


def sort_results(out: Path) -> None:
    """Rewrite ``out`` sorted by log, each game's runs by action id before its game line."""
    lines = [json.loads(raw) for raw in out.read_text("utf-8").splitlines() if raw.strip()]
    lines.sort(key=_sort_key)
    write_whole(out, "".join(line_text(line) for line in lines), "--out")  # whole or not at all


def _results(todo: list[str], options: AuditOptions) -> Iterator[GameAudit]:
    from route18xx.server.audit import executors

    states = options.export_states is not None
    if options.cluster:
        return executors.dask_cluster(todo, options.cluster, options.time_limit_s, states,
                                      options.rules_as_of, options.turns)
    return executors.local_pool(todo, options.jobs, options.time_limit_s, states,
                                options.rules_as_of, options.turns)


def _progress(total: int, enabled: bool | None) -> Any:
    from tqdm import tqdm

    show = sys.stderr.isatty() if enabled is None else enabled
    return tqdm(total=total, unit="log", disable=not show, file=sys.stderr, dynamic_ncols=True)


def run_audit(inputs: Iterable[str], out: Path, options: AuditOptions) -> AuditOutcome:
    """Audit every log of ``inputs`` not yet in ``out``; sort ``out`` when all are done.

    Ctrl-C or SIGTERM stops it with ``interrupted`` true (``signum`` saying which)
    and a valid, resumable ``out``.
    """
    logs = find_logs(list(inputs))
    out.parent.mkdir(parents=True, exist_ok=True)
    done = read_done(out)
    todo = [log for log in logs if log not in done]
    if options.export_states is not None:
        options.export_states.mkdir(parents=True, exist_ok=True)
    outcome = AuditOutcome(len(logs), len(logs) - len(todo), 0, False)
    bar = _progress(len(todo), options.progress)
    results = _results(todo, options)
    try:
        with sigterm_stops(), out.open("a", encoding="utf-8") as f:
            for audit in results:
                _write_game(f, audit, options.export_states)
                outcome.audited += 1
                bar.update(1)
    except KeyboardInterrupt as exc:
        outcome.interrupted = True
        outcome.signum = exc.signum if isinstance(exc, Terminated) else signal.SIGINT
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
        bar.close()
    if not outcome.interrupted:
        sort_results(out)
    return outcome
