"""Where a command may write: refused at once with the option named, never a hang (issue 20 §5).

Opening a FIFO for writing blocks until some process reads it; a directory or a
socket cannot take a file's bytes. A command checks each output path before
its work starts, so a long audit does not end in a traceback at its last step.
Devices (``/dev/null``, ``/dev/stdout``) are accepted where only written; a file
that is read back (the audit's resumable ``--out``) must be a regular one.

A file is written whole or not at all (``write_whole``, issue 34): into a temporary
file beside it, renamed over it once every byte is on the disk. On a full disk
the command names the option whose file it was writing (``WriteFailed``), and
leaves no partial file: neither a truncated report nor a ``.tmp`` behind.
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


class WriteFailed(Exception):
    """Writing an output failed: ``option`` names it (``--report``), ``reason`` says why."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(option, reason)  # picklable: crosses a process pool whole
        self.option = option
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.option}: {self.reason}"


def write_whole(path: str | os.PathLike[str], data: str | bytes, option: str) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all (module docstring).

    The bytes go to ``.<name>.<pid>.tmp`` beside ``path`` (same file system, the
    process's umask), are flushed to the disk, then renamed over ``path``; a device
    such as ``/dev/stdout`` is written directly. Any ``OSError`` removes the
    temporary file and is raised as ``WriteFailed(option, …)``.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = os.fspath(path)
    try:
        if os.path.exists(target) and not stat.S_ISREG(os.stat(target).st_mode):
            with open(target, "wb") as device:
                device.write(raw)
            return
        folder, name = os.path.split(target)
        tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0),
                     0o666)
    except OSError as exc:
        raise WriteFailed(option, write_problem(exc)) from None
    try:
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)  # a full disk may only say so here (delayed allocation)
        os.close(fd)
        fd = -1
        os.replace(tmp, target)
    except OSError as exc:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise WriteFailed(option, write_problem(OSError(exc.errno, exc.strerror, target))) from None


def write_problem(exc: OSError) -> str:
    """An ``OSError`` of a write as a short reason (no Python exception text)."""
    where = f" {exc.filename!r}" if exc.filename else ""
    return f"cannot write{where}: {exc.strerror or type(exc).__name__}"
