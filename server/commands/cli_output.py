"""Where a command may write: refused at once with the option named, never a hang (issue 20 §5).

Opening a FIFO for writing blocks until some process reads it; a directory or a
socket cannot take a file's bytes. A command checks each output path before
its work starts, so a long audit does not end in a traceback at its last step.
Devices (``/dev/null``, ``/dev/stdout``) are accepted where only written; a file
that is read back (the audit's resumable ``--out``) must be a regular one.
"""

from __future__ import annotations

import os
import stat

from route18xx.engine.api import file_kind


def output_problem(path: str, *, directory: bool = False, devices: bool = True) -> str | None:
    """Why ``path`` cannot take a command's output (a file, or a folder with
    ``directory``), or None; a path that does not exist yet is fine."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot use {path!r}: {exc.strerror or exc}"
    if directory:
        return None if stat.S_ISDIR(mode) else f"{path!r} exists and is not a directory"
    if stat.S_ISREG(mode) or (devices and stat.S_ISCHR(mode)):
        return None
    return f"{path!r} is {file_kind(mode)}, not a regular file"


def write_problem(exc: OSError) -> str:
    """An ``OSError`` of a write as a short reason (no Python exception text)."""
    where = f" {exc.filename!r}" if exc.filename else ""
    return f"cannot write{where}: {exc.strerror or type(exc).__name__}"
