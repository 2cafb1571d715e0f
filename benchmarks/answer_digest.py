"""A digest of what the command line answers, to compare two checkouts (issue 32).

    .venv/bin/python -m benchmarks.answer_digest [suggest|turn|draw|replay|all]

``benchmarks.judge_digest`` compares the engine's verdicts and reports through its API; this
compares what a user sees through the console script's ``main`` (in process, one call per
case), so moving modules or changing how a report becomes JSON cannot change an answer
unnoticed. Run it from each checkout's root (``PYTHONPATH=proto:.`` for a checkout that still
has the symbolic links) and compare the lines: equal digests mean byte-identical answers.
Timings (``*_ms`` and the like) are left out of JSON answers.

* ``suggest``: ``suggest --json --tokens --combined --merge-equal`` on every fourth real
  state of both titles;
* ``turn``: ``suggest --turn --json`` at the last five turns' first actions of the 1888 logs;
* ``draw``: ``draw -o -`` (SVG) of every third real state, optimal routes;
* ``replay``: ``replay --json`` of the four shared logs, both objectives.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

DATA = Path.cwd() / "tests" / "data"
TIMES = {"solve_ms", "reduce_ms", "build_ms", "solver_ms", "search_ms", "ms", "elapsed_ms",
         "duration_ms", "rank_ms", "wall_ms"}


def _untimed(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMES and not k.endswith("_ms")}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


def _run(argv: list[str]) -> str:
    from route18xx.server.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    text = out.getvalue()
    try:
        text = json.dumps(_untimed(json.loads(text)), sort_keys=True)
    except ValueError:
        pass
    return f"{code}\n{text}\n{err.getvalue()}"


def _state_files(tmp: Path) -> list[Path]:
    files = sorted((DATA / "states").glob("*.json"))
    doc = json.loads((DATA / "1830" / "states.json").read_text())
    for case in doc["states"]:
        path = tmp / f"1830-{case['name']}.json"
        path.write_text(json.dumps(case["state"]))
        files.append(path)
    return files


def suggest(tmp: Path) -> list[str]:
    return [_run(["suggest", str(p), "--json", "--tokens", "--combined", "--merge-equal"])
            for p in _state_files(tmp)[::4]]


def turn(tmp: Path) -> list[str]:
    found = []
    for log in ("129026.json", "1888_game_end_bankrupt.json"):
        path = DATA / "logs" / log
        actions = json.loads(path.read_text())["actions"]
        runs = [a["id"] for a in actions if a.get("type") == "run_routes"][-5:]
        for action in runs:
            found.append(_run(["suggest", "--turn", "--json", "--game", str(path),
                               "--action", str(action), "--top", "3"]))
    return found


def draw(tmp: Path) -> list[str]:
    return [_run(["draw", str(p), "-o", "-"]) for p in _state_files(tmp)[::3]]


def replay(tmp: Path) -> list[str]:
    logs = [DATA / "logs" / "129026.json", DATA / "logs" / "1888_game_end_bankrupt.json",
            DATA / "1830" / "26855.json", DATA / "1830" / "29133.json"]
    return [_run(["replay", str(log), "--json", "--objective", objective])
            for log in logs for objective in ("total", "revenue")]


def main() -> None:
    wanted = sys.argv[1] if len(sys.argv) > 1 else "all"
    parts = {"suggest": suggest, "turn": turn, "draw": draw, "replay": replay}
    with tempfile.TemporaryDirectory() as folder:
        for name, part in parts.items():
            if wanted not in ("all", name):
                continue
            found = part(Path(folder))
            text = "\n".join(found)
            print(f"{name:7} {len(found):5} cases  sha256 {hashlib.sha256(text.encode()).hexdigest()}",
                  flush=True)


if __name__ == "__main__":
    main()
