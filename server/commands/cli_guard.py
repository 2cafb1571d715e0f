"""What every subcommand shares at its edges: the board's arguments, option ranges, a closed
stdout, one error form.

* A time limit or a deadline that cannot mean anything (``--time-limit
  -1``: the solver would answer at once with a worse, unproven result) is
  refused before any work, naming the option (issue 20 §5).
* A reader that goes away (``route18xx replay --json LOG | head``) ends the
  command quietly with the status a shell gives a program killed by SIGPIPE,
  not with a ``BrokenPipeError`` traceback.
* An engine error that reaches the top (``Route18xxError``) is printed as
  ``error: <field>: <reason>``, status 2, like every command's own refusals.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Callable

#: The status of a command whose standard output was closed under it (128 + SIGPIPE).
EXIT_CLOSED_STDOUT = 141
EXIT_BAD_INPUT = 2

#: option attribute → (the option as typed, the least value allowed, strictly above it?)
_RANGES: dict[str, tuple[str, float, bool]] = {
    "time_limit": ("--time-limit", 0.0, True),
    "timeout": ("--timeout", 0.0, True),
    "turn_time_limit": ("--turn-time-limit", 0.0, True),
}


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, reading the terminal's width as ``shutil.get_terminal_size``
    does (``COLUMNS``, else standard output's terminal, else 80) without importing ``shutil``:
    ``add_argument`` makes a formatter per argument to check its metavar, and ``shutil``
    with the archive modules it loads was ~1 % of a cold ``route18xx solve`` (issue 35)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    """``shutil.get_terminal_size().columns`` with its fallback of 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def option_error(args: argparse.Namespace) -> tuple[str, str] | None:
    """The first option out of its range, and why; None when all are in range.

    An option left to its default of None (``call``'s ``--time-limit``: the
    server's default) is not checked.
    """
    for attribute, (option, least, strict) in _RANGES.items():
        value = getattr(args, attribute, None)
        if value is None or isinstance(value, bool):
            continue
        ok = math.isfinite(value) and (value > least if strict else value >= least)
        if not ok:
            bound = f"> {least:g}" if strict else f">= {least:g}"
            return option, f"must be a number of seconds {bound}, not {value}"
    return None


def run_guarded(run: Callable[[], int]) -> int:
    """``run()``'s status; a closed stdout or an engine error at the top ends it cleanly."""
    try:
        status = run()
        sys.stdout.flush()  # a pipe closed after the last write shows here
        return status
    except BrokenPipeError:
        # Later flushes (at exit) must not fail again: stdout now goes nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_CLOSED_STDOUT
    except Exception as exc:
        from route18xx.engine.api import Route18xxError

        if not isinstance(exc, Route18xxError):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def add_board_arguments(p: argparse.ArgumentParser) -> None:
    """The board: STATE.json, or ``--game GAME.json --action ID`` (checked by ``_board_error``)."""
    p.add_argument("state", metavar="STATE.json", nargs="?",
                   help="a state file (or give --game and --action instead)")
    p.add_argument("--game", dest="game_log", metavar="GAME.json",
                   help="an 18xx.games game log: the board just before --action")
    p.add_argument("--action", dest="action_id", type=int, metavar="ID",
                   help="with --game: the id of an action taken in a corporation's turn")
    add_rules_as_of(p, "default: the log's own date with --game, else the state's, else today")


def add_rules_as_of(p: argparse.ArgumentParser, default: str) -> None:
    """``--rules-as-of DATE``: the date whose 1888 rules apply (DESIGN.md §9)."""
    p.add_argument("--rules-as-of", dest="rules_as_of", metavar="YYYY-MM-DD",
                   help=f"apply the 1888 rules in force on this date ({default})")
