"""``route18xx generate-logs N --seed S -o DIR``: a corpus of random legal games.

Game ``k`` (0 ≤ k < N) of ``--title`` (1888 or 1830) under ``--rule-set`` is played by the engine's random players
(``engine.game.agent``) from seed ``S + k`` and written as the 18xx.games log
``DIR/random-<seed>.json`` (``engine.api.random_game_log``); ``route18xx
replay`` reads it back to its own final scores. Seats vary from 3 to 6
players, and one game in four has "stingy" players (always pay out, buy the
cheapest train), which drives companies into forced purchases and bankruptcy.
A file already there is kept: the corpus is a cache. Each log is written whole
or not at all (``write_whole``): a full disk leaves no half-written log and no
temporary file, and the command names ``--out``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from route18xx.engine.api import random_game_log
from route18xx.server.commands.cli_output import write_whole
from route18xx.server.core.parent_death import die_with_parent


def log_name(seed: int) -> str:
    return f"random-{seed}.json"


def game_shape(seed: int) -> tuple[int, bool]:
    """(players, stingy) of the game with this seed."""
    return 3 + seed % 4, seed % 4 == 3


def write_game(seed: int, folder: str, rule_set: str, title: str) -> str | None:
    """Play and write one game; its path, or None when the random players got stuck."""
    players, stingy = game_shape(seed)
    log = random_game_log(seed, players, stingy=stingy, rule_set=rule_set, title=title)
    if log is None:
        print(f"route18xx generate-logs: seed {seed}: the random players got stuck",
              file=sys.stderr)
        return None
    path = Path(folder) / log_name(seed)
    write_whole(path, json.dumps(log, separators=(",", ":")) + "\n", "--out")  # never half a log
    return str(path)


def generate_logs(
    count: int, seed: int, folder: Path, jobs: int, rule_set: str, title: str,
) -> list[str]:
    """Write ``count`` games with seeds ``seed`` … ``seed + count - 1``; their paths, sorted."""
    folder.mkdir(parents=True, exist_ok=True)
    seeds = [s for s in range(seed, seed + count) if not (folder / log_name(s)).exists()]
    if jobs <= 1 or len(seeds) <= 1:
        for s in seeds:
            write_game(s, str(folder), rule_set, title)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(jobs, mp_context=context, initializer=die_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            list(pool.map(write_game, seeds, [str(folder)] * len(seeds), [rule_set] * len(seeds),
                          [title] * len(seeds)))
    return sorted(
        str(folder / log_name(s)) for s in range(seed, seed + count) if (folder / log_name(s)).exists()
    )
