"""``route18xx serve`` as an operator runs it (issue 23): ``--version``, settings from a flag, a
``ROUTE18XX_*`` variable and a ``--config`` TOML file, and the JSON log read line by line.

The server's own GetInfo reports the limits in force, so each setting is read back from
the running server, not from the code that resolved it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest

from route18xx.server.cli import main
from route18xx.v1 import route_service_pb2 as pb
from route18xx.v1 import route_service_pb2_grpc as pb_grpc
from tests.server.abuse import free_port
from tests.server.test_ops import pyproject_version

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "route18xx.server.cli"]


def _env(**extra: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ROUTE18XX_")}
    return {**clean, "PYTHONUNBUFFERED": "1", **extra}


def test_version_prints_the_package_version() -> None:
    done = subprocess.run([*CLI, "--version"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env=_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"route18xx {pyproject_version()} (git ")


def test_a_flag_beats_a_variable_beats_the_file_and_the_log_is_json(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text(
        'log-format = "json"\n'      # file only
        "suggest-queue = 7\n"        # file only
        "queue = 11\n"               # the variable beats it
        "max-call-s = 12.5\n",       # the variable and the flag beat it
        encoding="utf-8",
    )
    port = free_port()
    env = _env(ROUTE18XX_QUEUE="5", ROUTE18XX_SUGGEST_LANES="2", ROUTE18XX_MAX_CALL_S="8")
    process = subprocess.Popen(
        [*CLI, "serve", "--port", str(port), "--no-http", "--threads", "--workers", "1",
         "--config", str(config), "--max-call-s", "9"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            info = pb_grpc.RouteServiceStub(channel).GetInfo(pb.GetInfoRequest(), timeout=10)
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    lanes = {lane.name: (lane.workers, lane.queue) for lane in info.limits.lanes}
    assert lanes == {"solve": (1, 5), "suggest": (2, 7), "fetch": (4, 0)}
    assert info.limits.max_call_s == 9
    records = [json.loads(line) for line in err.splitlines() if line.strip()]  # every line
    assert all({"time", "level", "logger", "event", "message"} <= set(r) for r in records)
    events = {r["event"]: r for r in records}
    settings = events["settings"]["message"]
    for shown in ("queue=5 [env ROUTE18XX_QUEUE]", "suggest-lanes=2 [env ROUTE18XX_SUGGEST_LANES]",
                  f"suggest-queue=7 [file {config}]", "max-call-s=9.0 [flag]",
                  f"log-format=json [file {config}]", "health-port=None [default]"):
        assert shown in settings
    assert f"route18xx {pyproject_version()} (git " in events["start"]["message"]
    calls = [r for r in records if r["event"] == "call"]
    assert len(calls) == 1
    call = calls[0]
    assert {k: call[k] for k in ("method", "transport", "outcome", "request_bytes")} == {
        "method": "GetInfo", "transport": "grpc", "outcome": "OK", "request_bytes": 0}
    assert call["duration_ms"] >= 0 and "127.0.0.1" in call["peer"]
    assert "stop" in events


@pytest.mark.parametrize(("env", "args", "named"), [
    ({"ROUTE18XX_QUEUE": "many"}, [], "ROUTE18XX_QUEUE: 'many' is not an integer"),
    ({"ROUTE18XX_NO_HTTP": "perhaps"}, [], "ROUTE18XX_NO_HTTP: 'perhaps' is not one of"),
    ({"ROUTE18XX_LOG_FORMAT": "xml"}, [], "ROUTE18XX_LOG_FORMAT: 'xml' is not one of text, json"),
    ({}, ["--config", "{dir}/absent.toml"], "--config: cannot read"),
    ({}, ["--config", "{dir}/bad.toml"], "bad.toml is not TOML"),
    ({}, ["--config", "{dir}/unknown.toml"], "unknown.toml: colour: not a serve option"),
    ({}, ["--config", "{dir}/typed.toml"], "typed.toml: port: '50051' is not an integer"),
    ({"ROUTE18XX_QUEUE": "-1"}, [], "ROUTE18XX_QUEUE: -1 is out of range"),
])
def test_bad_settings_exit_2_naming_the_variable_or_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    env: dict[str, str], args: list[str], named: str,
) -> None:
    (tmp_path / "bad.toml").write_text("port = \n", encoding="utf-8")
    (tmp_path / "unknown.toml").write_text('colour = "red"\n', encoding="utf-8")
    (tmp_path / "typed.toml").write_text('port = "50051"\n', encoding="utf-8")
    for key in [k for k in os.environ if k.startswith("ROUTE18XX_")]:
        monkeypatch.delenv(key)
    for key, text in env.items():
        monkeypatch.setenv(key, text)
    argv: list[Any] = ["serve", "--port", "0", *(a.format(dir=tmp_path) for a in args)]
    assert main(argv) == 2
    assert named in capsys.readouterr().err


#: Settings out of range (issue 34): ``--port 70000`` served on 4464 (70000 mod 65536),
#: ``--http-port 70000`` and ``--queue 10**15`` ended in tracebacks, times of 0, inf or
#: NaN were taken, a 5 000-deep TOML array ended in a RecursionError.
OUT_OF_RANGE = [
    ({}, ["--port", "70000"], "--port: 70000 is out of range: a port from 0 to 65535"),
    ({}, ["--port", "-1"], "--port: -1 is out of range"),
    ({}, ["--http-port", "70000"], "--http-port: 70000 is out of range"),
    ({}, ["--health-port", "65536"], "--health-port: 65536 is out of range"),
    ({}, ["--no-http", "--metrics-port", "-5"], "--metrics-port: -5 is out of range"),
    ({}, ["--queue", str(10**15)], f"--queue: {10**15} is out of range"),
    ({}, ["--suggest-queue", str(10**15)], "--suggest-queue: 1000000000000000 is out of range"),
    ({}, ["--workers", "-1"], "--workers: -1 is out of range"),
    ({}, ["--workers", "100000"], "--workers: 100000 is out of range"),
    ({}, ["--decode-workers", "1000000"], "--decode-workers: 1000000 is out of range"),
    ({}, ["--suggest-lanes", "0"], "--suggest-lanes: 0 is out of range"),
    ({}, ["--max-streams-per-connection", "1000"], "--max-streams-per-connection: 1000 is out"),
    ({}, ["--max-http-connections", "0"], "--max-http-connections: 0 is out of range"),
    ({}, ["--max-call-s", "0"], "--max-call-s: 0.0 is out of range: a number of seconds above 0"),
    ({}, ["--max-call-s", "inf"], "--max-call-s: inf is out of range"),
    ({}, ["--max-call-s", "nan"], "--max-call-s: nan is out of range"),
    ({}, ["--receive-timeout-s", "0"], "--receive-timeout-s: 0.0 is out of range"),
    ({}, ["--receive-timeout-s", "inf"], "--receive-timeout-s: inf is out of range"),
    ({"ROUTE18XX_PORT": "70000"}, [], "ROUTE18XX_PORT: 70000 is out of range"),
    ({"ROUTE18XX_MAX_CALL_S": "inf"}, [], "ROUTE18XX_MAX_CALL_S: inf is out of range"),
    ({}, ["--config", "{dir}/port.toml"], "port.toml: port: 70000 is out of range"),
    ({}, ["--config", "{dir}/inf.toml"], "inf.toml: max-call-s: inf is out of range"),
    ({}, ["--config", "{dir}/nan.toml"], "nan.toml: receive-timeout-s: nan is out of range"),
    ({}, ["--config", "{dir}/deep.toml"], "--config: {dir}/deep.toml is not TOML this server "
                                          "reads: nested too deeply"),
]


@pytest.mark.parametrize(("env", "args", "named"), OUT_OF_RANGE)
def test_every_setting_out_of_range_exits_2_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    env: dict[str, str], args: list[str], named: str,
) -> None:
    (tmp_path / "port.toml").write_text("port = 70000\n", encoding="utf-8")
    (tmp_path / "inf.toml").write_text("max-call-s = inf\n", encoding="utf-8")
    (tmp_path / "nan.toml").write_text("receive-timeout-s = nan\n", encoding="utf-8")
    (tmp_path / "deep.toml").write_text("queue = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    served: list[Any] = []
    monkeypatch.setattr("route18xx.server.rpc.app.serve", lambda config: served.append(config) or 0)
    for key in [k for k in os.environ if k.startswith("ROUTE18XX_")]:
        monkeypatch.delenv(key)
    for key, text in env.items():
        monkeypatch.setenv(key, text)
    argv = ["serve", *(a.format(dir=tmp_path) for a in args)]
    status = main(argv)
    err = capsys.readouterr().err
    assert (status, served) == (2, []), err
    assert err.startswith("error: ") and named.format(dir=tmp_path) in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_bounds_themselves_are_served(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[Any] = []
    monkeypatch.setattr("route18xx.server.rpc.app.serve", lambda config: served.append(config) or 0)
    for key in [k for k in os.environ if k.startswith("ROUTE18XX_")]:
        monkeypatch.delenv(key)
    assert main(["serve", "--port", "65535", "--http-port", "0", "--health-port", "1",
                 "--queue", "100000", "--max-call-s", "86400", "--receive-timeout-s", "0.001",
                 "--max-streams-per-connection", "256", "--workers", "0"]) == 0
    (config,) = served
    assert (config.port, config.http_port, config.health_port, config.queue) == (65535, 0, 1, 100000)
    assert config.limits.max_call_s == 86400 and config.workers >= 1


def test_every_numeric_serve_option_has_bounds() -> None:
    """A new number option of ``serve`` cannot slip in unchecked."""
    from route18xx.server.cli import build_parser
    from route18xx.server.ops.serve_config import BOUNDS

    parser = build_parser()
    serve = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["serve"]
    numeric = {a.dest for a in serve._actions if a.type in (int, float)}
    assert numeric and numeric <= set(BOUNDS), numeric - set(BOUNDS)


def test_a_config_file_that_never_ends_is_refused_unread() -> None:
    """``--config /dev/zero`` was read whole: the memory filled (found with issue 34). Run
    apart under a 2 GiB address-space limit, so that a regression fails instead of
    taking the machine's memory."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run([*CLI, "serve", "--port", "0", "--config", "/dev/zero"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT, env=_env(),
                          preexec_fn=limit)
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr == "error: --config: cannot read /dev/zero: '/dev/zero' is a device, " \
                          "not a regular file\n"
