"""A full disk names the right output and leaves no partial file (issue 34).

``audit --report`` on a full disk blamed ``--out`` and left a truncated report;
``generate-logs`` left ``.tmp`` files. Each output is now written whole or not at all
(``server.commands.cli_output.write_whole``). The disk is a real one: a tmpfs of a
few KiB, mounted for the test (root only; skipped elsewhere).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from route18xx.server.cli import main
from tests.conftest import LOGS_DIR


@pytest.fixture
def full(tmp_path: Path) -> Iterator[Path]:
    """A folder on a 64 KiB tmpfs with 4 KiB left free."""
    folder = tmp_path / "full"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs (root only): {mounted.stderr.strip()}")
    try:
        with (folder / "filler").open("wb") as filler:
            try:
                filler.write(b"\0" * (60 * 1024))
                filler.flush()
            except OSError:
                pass
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_audit_report_on_a_full_disk_names_report_and_leaves_no_file(
    full: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["audit", str(LOGS_DIR / "1888_game_end_bankrupt.json"),
                   "--out", str(tmp_path / "results.jsonl"), "--report", str(full / "report.html"),
                   "--jobs", "1", "--time-limit", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith(f"error: --report: cannot write '{full / 'report.html'}': No space left"), err
    assert sorted(os.listdir(full)) == ["filler"]  # no truncated report, no temporary file
    assert (tmp_path / "results.jsonl").stat().st_size > 0  # the results are kept


def test_generate_logs_on_a_full_disk_names_out_and_leaves_no_tmp(
    full: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["generate-logs", "1", "--title", "1888", "-o", str(full), "--jobs", "1"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("error: --out: cannot write ") and "No space left" in err, err
    assert sorted(os.listdir(full)) == ["filler"]


def test_a_report_is_written_whole_beside_a_good_one(tmp_path: Path) -> None:
    """On a disk with room, the rename leaves the report and nothing else."""
    from route18xx.server.commands.cli_output import write_whole

    write_whole(tmp_path / "report.html", "<p>first</p>", "--report")
    write_whole(tmp_path / "report.html", "<p>second</p>", "--report")
    assert os.listdir(tmp_path) == ["report.html"]
    assert (tmp_path / "report.html").read_text() == "<p>second</p>"
