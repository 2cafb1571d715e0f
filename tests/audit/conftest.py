"""The audit's corpus: the shared logs, 50 random games from a fixed seed, and broken files.

The 50 games (seeds 4200-4249) were made by ``route18xx generate-logs 50 --title 1888 --seed
4200`` and are kept gzipped in ``tests/data/generated``: playing them takes about
5 s each on one core, too long to repeat in every run. ``test_generate.py``
plays seeds again and checks they give these very files, so the corpus is the
generator's, not a hand-made one. ``AUDIT_GENERATED_LOGS=N`` audits only the
first N.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

import pytest

from tests.stopped_logs import STOPS_AT, write_stopped_log


ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "logs"
GENERATED_DIR = ROOT / "tests" / "data" / "generated"
GENERATED = int(os.environ.get("AUDIT_GENERATED_LOGS", "50"))
SEED = 4200

#: The broken files and the reason their game line must give.
BROKEN = {
    "broken-not-json.json": "game_log",
    "broken-unknown-title.json": "unknown title",
    "broken-corrupt.json": "actions",
    "broken-diverging.json": "",  # replays, but an action is refused: completed false
    "broken-stops.json": f"action {STOPS_AT}",  # refused after 24 runs (tests.stopped_logs)
}
#: The broken files whose replay stops at an action (issue 19): that action's id.
STOPPED = {"broken-diverging.json": 53, "broken-stops.json": STOPS_AT}


def _write_broken(folder: Path) -> None:
    (folder / "broken-not-json.json").write_bytes(b"{\"actions\": [1, 2,\n")
    real = json.loads((LOGS / "129026.json").read_text("utf-8"))
    (folder / "broken-unknown-title.json").write_text(json.dumps(real | {"title": "1867"}))
    corrupt = dict(real)
    corrupt["actions"] = list(real["actions"])
    corrupt["actions"][40] = {"type": "lay_tile", "id": "x", "rotation": "north"}
    (folder / "broken-corrupt.json").write_text(json.dumps(corrupt))
    diverging = dict(real)
    diverging["actions"] = [dict(a) for a in real["actions"]]
    for a in diverging["actions"]:
        if a.get("type") == "buy_train":
            a["price"] = 1  # a depot train below its price: refused
            break
    (folder / "broken-diverging.json").write_text(json.dumps(diverging))
    write_stopped_log(folder / "broken-stops.json")


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The committed generated games, unpacked (seed order)."""
    folder = tmp_path_factory.mktemp("generated")
    out = []
    for packed in sorted(GENERATED_DIR.glob("random-*.json.gz"))[:GENERATED]:
        path = folder / packed.name.removesuffix(".gz")
        path.write_bytes(gzip.decompress(packed.read_bytes()))
        out.append(path)
    assert len(out) == GENERATED, f"tests/data/generated holds {len(out)} games"
    return out


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory, generated: list[Path]) -> Path:
    """One folder: the shared logs, the generated ones and the broken files."""
    folder = tmp_path_factory.mktemp("corpus")
    for path in [*LOGS.glob("*.json"), *generated]:
        shutil.copy(path, folder / path.name)
    _write_broken(folder)
    return folder
