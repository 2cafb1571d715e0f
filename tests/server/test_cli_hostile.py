"""The command line refuses hostile files cleanly (issue 20 §5, §7).

Every subcommand, with each input it reads replaced by each hostile file (a
FIFO, ``/dev/zero``, a directory, non-UTF-8 and UTF-16 bytes, 100 000-deep
JSON, a 5 000-digit number, an empty file, a file over the size bound), exits
2 with ``error: <field>: <reason>`` on stderr, no traceback, within seconds:
a FIFO never blocks, ``/dev/zero`` never fills the memory. The matrix runs
in-process (``main``), under an alarm that fails a case instead of hanging the
suite; the edges (a closed stdout, the exit statuses of ``audit``) run the
real console entry in a subprocess.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest

from route18xx.engine.api import MAX_FILE_BYTES
from route18xx.server.cli import main
from tests.conftest import LOGS_DIR, STATES_DIR

#: How long one case may take before it counts as a hang.
CASE_TIMEOUT_S = 20
STATE = STATES_DIR / "129026-209.json"
LOG = LOGS_DIR / "129026.json"
#: error: <field>: <reason>, the field without spaces or colons.
ERROR_LINE = re.compile(r"^error: [^\s:][^:]*: \S", re.MULTILINE)
UNREACHABLE = "127.0.0.1:9"  # never reached: the files are read before the call


def _hostile(folder: Path) -> dict[str, str]:
    """name → path of each hostile file, made in ``folder``."""
    folder.mkdir(exist_ok=True)
    files = {
        "non-utf8": b'{"title": "\xff\xfe1888"}',
        "utf16": '{"title": "1888", "actions": []}'.encode("utf-16"),
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "long-number": b'{"actions": [' + b"9" * 5000 + b"]}",
        "empty": b"",
    }
    paths = {}
    for name, data in files.items():
        (folder / f"{name}.json").write_bytes(data)
        paths[name] = str(folder / f"{name}.json")
    huge = folder / "huge.json"
    with huge.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written to the disk
    paths["huge"] = str(huge)
    os.mkfifo(folder / "fifo.json")
    paths["fifo"] = str(folder / "fifo.json")
    (folder / "a-directory").mkdir()
    paths["directory"] = str(folder / "a-directory")
    paths["dev-zero"] = "/dev/zero"
    return paths


HOSTILE = ["fifo", "dev-zero", "directory", "non-utf8", "utf16", "deep", "long-number", "empty",
           "huge"]


def _routes(folder: Path) -> str:
    path = folder / "routes.json"
    path.write_text(json.dumps(json.loads(STATE.read_text("utf-8"))["reference"]["recorded_routes"]))
    return str(path)


#: subcommand/input → the arguments, given the hostile file, a good routes file and a folder.
Args = Callable[[str, str, Path], list[str]]
COMMANDS: dict[str, Args] = {
    "check/STATE": lambda f, r, d: ["check", f, r],
    "check/ROUTES": lambda f, r, d: ["check", str(STATE), f],
    "check/--game": lambda f, r, d: ["check", "--game", f, "--action", "728", r],
    "solve/STATE": lambda f, r, d: ["solve", f, "--time-limit", "1"],
    "solve/--pin": lambda f, r, d: ["solve", str(STATE), "--pin", f, "--time-limit", "1"],
    "suggest/STATE": lambda f, r, d: ["suggest", f, "--time-limit", "1"],
    "replay/GAME": lambda f, r, d: ["replay", f, "--no-solve"],
    "state/GAME": lambda f, r, d: ["state", f, "--action", "728"],
    "draw/STATE": lambda f, r, d: ["draw", f, "-o", str(d / "board.svg"), "--routes", "none"],
    "draw/--routes-file": lambda f, r, d: ["draw", str(STATE), "--routes", "recorded",
                                           "--routes-file", f, "-o", str(d / "board.svg")],
    "draw/--game": lambda f, r, d: ["draw", "--game", f, "--action", "728", "--routes", "none",
                                    "-o", str(d / "board.svg")],
    "call-solve/STATE": lambda f, r, d: ["call", "solve", f, "--target", UNREACHABLE],
    "call-validate/ROUTES": lambda f, r, d: ["call", "validate", str(STATE), f,
                                             "--target", UNREACHABLE],
    "call-suggest/--game": lambda f, r, d: ["call", "suggest", "--game", f, "--action", "728",
                                            "--target", UNREACHABLE],
    "audit/LOG": lambda f, r, d: ["audit", f, "--out", str(d / "results.jsonl"), "--jobs", "1",
                                  "--no-progress"],
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return _hostile(tmp_path_factory.mktemp("hostile"))


@contextlib.contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    """Fail (not hang) a case that takes longer than ``seconds``."""
    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"the command ran over {seconds} s (a hang?)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_main(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with _alarm(CASE_TIMEOUT_S), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(args)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_hostile_file_exits_2_naming_the_field(
    command: str, kind: str, hostile: dict[str, str], tmp_path: Path
) -> None:
    args = COMMANDS[command](hostile[kind], _routes(tmp_path), tmp_path)
    status, _, err = run_main(args)
    assert status == 2, (args, err)
    assert ERROR_LINE.search(err), err
    assert "Traceback" not in err


#: JSON values of the wrong shape for every input file (issue 34): a file holding one of
#: these is not a state, a game log or a routes array.
SHAPES = {"array": "[]", "null": "null", "number": "5", "float": "1e400", "string": '"x"',
          "true": "true", "object": "{}"}
#: The inputs a shape is the right shape of: an empty routes array judges or pins nothing;
#: ``call`` sends an object (a state, a game log) to the server, which judges its content
#: (exit 1, an RPC error; here the target is never reached).
LEGAL_SHAPES = {("check/ROUTES", "array"), ("solve/--pin", "array"),
                ("draw/--routes-file", "array"), ("call-validate/ROUTES", "array"),
                ("call-solve/STATE", "object"), ("call-suggest/--game", "object")}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("shapes")
    for name, text in SHAPES.items():
        (folder / f"{name}.json").write_text(text, encoding="utf-8")
    return {name: str(folder / f"{name}.json") for name in SHAPES}


@pytest.mark.parametrize("kind", list(SHAPES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_file_of_the_wrong_shape_exits_2_naming_the_field(
    command: str, kind: str, shapes: dict[str, str], tmp_path: Path
) -> None:
    """Issue 34: `route18xx solve` on a file holding [] or null printed a traceback."""
    if (command, kind) in LEGAL_SHAPES:
        pytest.skip("the right shape for this input")
    args = COMMANDS[command](shapes[kind], _routes(tmp_path), tmp_path)
    status, _, err = run_main(args)
    assert status == 2, (args, err)
    assert ERROR_LINE.search(err), err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [
    ["solve", str(STATE), "--time-limit", "-1"],
    ["solve", str(STATE), "--time-limit", "0"],
    ["suggest", str(STATE), "--time-limit", "nan"],
    ["replay", str(LOG), "--time-limit", "-1"],
    ["draw", str(STATE), "-o", "x.svg", "--time-limit", "-1"],
    ["call", "solve", str(STATE), "--time-limit", "-1", "--target", UNREACHABLE],
    ["audit", str(LOG), "--time-limit", "0"],
])
def test_a_time_limit_of_zero_or_less_is_refused(args: list[str]) -> None:
    status, _, err = run_main(args)
    assert status == 2 and err.startswith("error: --time-limit: must be"), err


def test_replay_and_state_use_the_one_error_prefix(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    for args in (["replay", missing], ["state", missing, "--action", "1"]):
        status, _, err = run_main(args)
        assert status == 2 and err.startswith("error: game: "), err


def test_generate_logs_into_a_file_or_an_unwritable_folder_is_a_clean_error(tmp_path: Path) -> None:
    existing = tmp_path / "a-file"
    existing.write_text("")
    status, _, err = run_main(["generate-logs", "1", "--title", "1888", "-o", str(existing), "--jobs", "1"])
    assert status == 2 and err.startswith("error: --out: "), err
    status, _, err = run_main(["generate-logs", "1", "--title", "1888", "-o", "/proc/no/such", "--jobs", "1"])
    assert status == 2 and err.startswith("error: --out: "), err


def test_an_unusable_audit_out_is_a_clean_error(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    for out in (str(tmp_path / "fifo"), "/proc/results.jsonl", str(tmp_path)):
        status, _, err = run_main(["audit", str(LOG), "--out", out, "--jobs", "1"])
        assert status == 2 and err.startswith("error: --out: "), err


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "route18xx.server.cli", *args],
                          capture_output=True, text=True, timeout=120)


def test_audit_exits_1_when_some_logs_failed_and_2_when_none_could_be_read(
    hostile: dict[str, str], tmp_path: Path
) -> None:
    some = _cli("audit", str(LOGS_DIR / "1888_game_end_bankrupt.json"), hostile["non-utf8"],
                "--out", str(tmp_path / "some.jsonl"), "--jobs", "1", "--time-limit", "1")
    assert some.returncode == 1, some.stderr
    assert f"error: {hostile['non-utf8']}: game_log: " in some.stderr
    none = _cli("audit", hostile["non-utf8"], hostile["fifo"], "--out", str(tmp_path / "none.jsonl"),
                "--jobs", "1")
    assert none.returncode == 2, none.stderr
    assert "Traceback" not in none.stderr


def test_a_closed_stdout_ends_quietly(tmp_path: Path) -> None:
    """``route18xx replay --json LOG | head -1``: no BrokenPipeError traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "route18xx.server.cli", "replay", str(LOG),
                             "--json", "--no-solve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    # The reader goes away, as head does once it has its lines: closed before the
    # replay (a second or more) prints, so the command's first write meets it.
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err
