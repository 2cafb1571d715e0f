"""Write the server's warm-up logs, ``server/core/warm_up_logs/<title>.json`` (issue 34).

One per title whose logs the engine replays: a random game of the title's first rule set up
to its first run of a route (``server.core.warm_calls.warm_up_log``). A server answers a call
of every kind on them before it says it is ready. ``tests/server/test_warm_calls.py``
regenerates them and compares; run this after a change to the engine's random players:

    .venv/bin/python tools/warm_up_logs.py
"""

from __future__ import annotations

import json

from route18xx.engine import api
from route18xx.server.core.warm_calls import log_path, warm_up_log


def log_file_text(title: str) -> str:
    """The file's text: the log as JSON, one action a line."""
    log = warm_up_log(title)
    actions = log.pop("actions")
    head = json.dumps(log, ensure_ascii=False)[:-1]
    lines = ",\n".join(json.dumps(a, ensure_ascii=False) for a in actions)
    return f'{head}, "actions": [\n{lines}\n]}}\n'


def main() -> None:
    for title in api.titles_replayed():
        with open(log_path(title), "w", encoding="utf-8") as f:
            f.write(log_file_text(title))
        print(log_path(title))


if __name__ == "__main__":
    main()
