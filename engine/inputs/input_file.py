"""Reading a file named by a user: a regular file, bounded, or a ``MalformedInput`` naming the field.

Every file the command line reads (state files, routes, game logs, the audit's
logs) goes through ``read_input_file`` (issue 20 §5). A FIFO, a device such as
``/dev/zero`` or a directory is refused before a byte is read: a FIFO would
block the command forever, ``/dev/zero`` would fill the memory. The file is
opened with ``O_NONBLOCK`` so that even opening a FIFO with no writer returns
at once, and it is checked on the open descriptor (``fstat``), so no rename
between a check and the open can slip another file in. The read stops at
``MAX_FILE_BYTES``: the largest real 1888 log is about 125 kB, so 64 MiB is
far above any honest input.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING, Any

from route18xx.engine.errors import MalformedInput
from route18xx.engine.inputs.jsontext import decode_json

if TYPE_CHECKING:  # annotations only: a cold solve need not load pathlib (issue 35)
    from pathlib import Path

#: The most bytes an input file may hold (a 1888 game log is ~100 kB).
MAX_FILE_BYTES = 64 * 1024 * 1024


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_input_file(path: str | Path, field: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    ``MalformedInput(field, …)`` when it is missing, unreadable, not a regular
    file, or larger than ``limit``; the message names the path.
    """
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise MalformedInput(field, f"file {name!r} does not exist") from None
    except OSError as exc:
        raise MalformedInput(field, f"cannot read {name!r}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise MalformedInput(field, f"{name!r} is {file_kind(mode)}, not a regular file")
        if os.fstat(fd).st_size > limit:
            raise MalformedInput(field, f"{name!r} is larger than {limit} bytes")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # st_size may be 0 for a file that still has bytes (procfs)
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise MalformedInput(field, f"{name!r} is larger than {limit} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise MalformedInput(field, f"cannot read {name!r}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_json_file(path: str | Path, field: str, limit: int = MAX_FILE_BYTES) -> Any:
    """The JSON value of the file ``path`` (``read_input_file`` then ``decode_json``)."""
    return decode_json(read_input_file(path, field, limit), field)
