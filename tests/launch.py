"""Start a child Python with limits or ignored signals, without ``preexec_fn``.

``subprocess.Popen(preexec_fn=…)`` must fork the test process and run Python in the child
before ``exec``. A test process that has loaded gRPC then runs gRPC's fork handlers in the
child, whose event engine restarts its poller on an epoll descriptor ``close_fds`` has
already closed: the child aborts (SIGABRT, "epoll_wait error: Bad file descriptor") before
it ever runs the command (grpc/grpc#43157). Seen in full test runs on a loaded machine as
``route18xx serve exited -6``. Here a fresh interpreter sets the limits, then ``exec``s the
command in its place (same process id; limits and ignored signals survive ``exec``), and
``Popen`` itself needs no ``preexec_fn``.
"""

from __future__ import annotations

import json
import sys

#: The launcher: its first argument is a JSON object of what to set, the rest the command.
_LAUNCHER = (
    "import json, os, resource, signal, sys\n"
    "what = json.loads(sys.argv[1])\n"
    "for name, value in what.get('rlimits', {}).items():\n"
    "    resource.setrlimit(getattr(resource, name), (value, value))\n"
    "if what.get('ignore_sigint'):\n"
    "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)


def launched(cmd: list[str], *, nofile: int | None = None, address_space: int | None = None,
             ignore_sigint: bool = False) -> list[str]:
    """``cmd`` (its first item an executable's path) run with these limits: the command line
    to give ``Popen`` instead, unchanged when there is nothing to set."""
    rlimits = {}
    if nofile is not None:
        rlimits["RLIMIT_NOFILE"] = nofile
    if address_space is not None:
        rlimits["RLIMIT_AS"] = address_space
    if not rlimits and not ignore_sigint:
        return cmd
    what = json.dumps({"rlimits": rlimits, "ignore_sigint": ignore_sigint})
    return [sys.executable, "-c", _LAUNCHER, what, *cmd]
