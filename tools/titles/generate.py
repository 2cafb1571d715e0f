"""Writes ``engine/data/<title>/`` and the title's replay checkpoints from the 18xx.games engine.

Development time only (README.md next to this file): it runs ``dump.rb`` with Debian's
``ruby`` on an extracted tree of tobymao/18xx, then shapes the dump (``shape.py``,
``checkpoints.py``) with the title's hand-kept input ``tools/titles/<title>.json``.

    python3 tools/titles/generate.py 1830 --engine-git /path/to/tobymao-18xx.git
    python3 tools/titles/generate.py 1830 --engine-tree /tmp/18xx --engine-commit SHA \
        --engine-date 2026-08-02 --out /tmp/gen/1830 --checkpoints-out /tmp/gen/1830-checkpoints.json

``--raw-out`` keeps the dump; ``--from-raw`` shapes a kept dump without Ruby or the tree.
Standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import checkpoints  # noqa: E402
import shape  # noqa: E402

ENGINE_REPOSITORY = "https://github.com/tobymao/18xx"
COMMIT = re.compile(r"[0-9a-f]{40}")


def load_input(title: str, path: Path | None = None) -> dict[str, Any]:
    """The title's hand-kept input (``tools/titles/<title>.json``)."""
    path = path or HERE / f"{title}.json"
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    if data.get("title") != title:
        raise SystemExit(f"{path}: title is {data.get('title')!r}, not {title!r}")
    return data


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def extract_tree(git_dir: Path, rev: str, into: Path) -> tuple[str, str]:
    """``lib`` and ``public/fixtures`` of ``rev`` into ``into``; (commit, commit date)."""
    commit = _git(git_dir, "rev-parse", f"{rev}^{{commit}}")
    date = _git(git_dir, "log", "-1", "--format=%cs", commit)
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", commit, "lib", "public/fixtures"],
        check=True, capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return commit, date


def run_dump(tree: Path, title_input: Mapping[str, Any], fixtures: Sequence[Path]) -> dict[str, Any]:
    """``dump.rb`` on the extracted tree: the raw facts and the fixtures' checkpoints."""
    ruby = shutil.which("ruby")
    if ruby is None:
        raise SystemExit("generate.py: no `ruby` (development only: apt-get install -y ruby)")
    cmd = [
        ruby, str(HERE / "dump.rb"),
        "--lib", str(tree / "lib"),
        "--title", title_input["title"],
        "--rule-sets", json.dumps(title_input["rule_sets"]),
        "--players", str(title_input.get("players", 4)),
    ]
    if title_input.get("engine_folder"):
        cmd += ["--folder", title_input["engine_folder"]]
    for f in fixtures:
        cmd += ["--fixture", str(f)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    raw: dict[str, Any] = json.loads(done.stdout)
    return raw


def fixture_paths(tree: Path, title_input: Mapping[str, Any]) -> list[Path]:
    folder = tree / "public" / "fixtures" / title_input["title"]
    names = title_input.get("fixtures")
    if names is None:
        return sorted(folder.glob("*.json"))
    return [folder / f"{name}.json" for name in names]


def fixture_rules(log: Path) -> list[str]:
    """The optional rules a fixture log's settings select."""
    data = json.loads(log.read_text("utf-8"))
    return [str(r) for r in (data.get("settings") or {}).get("optional_rules") or []]


def provenance(
    title_input: Mapping[str, Any], raw: Mapping[str, Any], commit: str, date: str,
    files: Sequence[str], checkpoints_file: str | None,
) -> dict[str, Any]:
    """``provenance.json``: where the folder's engine-derived files come from."""
    title = title_input["title"]
    out: dict[str, Any] = {
        "generator": "tools/titles/generate.py",
        "command": f"python3 tools/titles/generate.py {title} --engine-git <tobymao/18xx git directory>",
        "engine_repository": ENGINE_REPOSITORY,
        "engine_commit": commit,
        "engine_commit_date": date,
        "engine_folder": f"lib/engine/game/{raw['folder']}",
        "hand_kept_input": f"tools/titles/{title}.json",
        "generated_files": sorted(files),
        "format": title_input["format"],
        "rule_sets": {name: list(rules) for name, rules in title_input["rule_sets"].items()},
    }
    if checkpoints_file is not None:
        out["checkpoints"] = {
            "file": checkpoints_file,
            "fixtures": [f"public/fixtures/{title}/{name}.json" for name in (raw.get("fixtures") or {})],
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("title")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--engine-git", type=Path, help="a git directory of tobymao/18xx (extracted to a temp dir)")
    src.add_argument("--engine-tree", type=Path, help="an extracted tree (lib/, public/fixtures/)")
    src.add_argument("--from-raw", type=Path, help="a dump kept with --raw-out (no Ruby needed)")
    parser.add_argument("--rev", default="HEAD", help="with --engine-git: the commit to use")
    parser.add_argument("--engine-commit", help="with --engine-tree/--from-raw: the tree's commit (40 hex)")
    parser.add_argument("--engine-date", help="with --engine-tree/--from-raw: its commit date (YYYY-MM-DD)")
    parser.add_argument("--input", type=Path, help="the hand-kept input (default tools/titles/<title>.json)")
    parser.add_argument("--out", type=Path, help="the data folder (default engine/data/<title>)")
    parser.add_argument("--checkpoints-out", type=Path, help="the checkpoints file (default: the input's)")
    parser.add_argument("--no-checkpoints", action="store_true", help="write no checkpoints file")
    parser.add_argument("--raw-out", type=Path, help="also keep the raw dump here")
    args = parser.parse_args(argv)

    title_input = load_input(args.title, args.input)
    out_dir = args.out or ROOT / "engine" / "data" / args.title
    with tempfile.TemporaryDirectory() as tmp:
        if args.from_raw is not None:
            raw = json.loads(args.from_raw.read_text("utf-8"))
            commit, date = args.engine_commit or raw.get("engine_commit"), args.engine_date or raw.get("engine_date")
        else:
            if args.engine_git is not None:
                tree = Path(tmp)
                commit, date = extract_tree(args.engine_git, args.rev, tree)
            else:
                tree = args.engine_tree
                commit, date = args.engine_commit, args.engine_date
            fixtures = fixture_paths(tree, title_input)
            raw = run_dump(tree, title_input, [] if args.no_checkpoints else fixtures)
            raw["engine_commit"], raw["engine_date"] = commit, date
            raw["fixture_rules"] = {f.stem: fixture_rules(f) for f in fixtures}
        if not commit or not COMMIT.fullmatch(commit) or not date:
            raise SystemExit("generate.py: the engine commit (40 hex) and its date must be known")
        if args.raw_out is not None:
            args.raw_out.write_text(json.dumps(raw, indent=1, ensure_ascii=False) + "\n", "utf-8")

    fmt = title_input["format"]
    files = shape.data_files(raw, title_input)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (out_dir / name).write_text(shape.dumps(content, fmt), "utf-8")
    checkpoints_file: str | None = None
    if not args.no_checkpoints and raw.get("fixtures"):
        checkpoints_file = title_input["checkpoints"]
        target = args.checkpoints_out or ROOT / checkpoints_file
        target.parent.mkdir(parents=True, exist_ok=True)
        content = checkpoints.checkpoints_json(raw, title_input)
        target.write_text(shape.dumps(content, fmt), "utf-8")
    prov = provenance(title_input, raw, commit, date, list(files), checkpoints_file)
    (out_dir / "provenance.json").write_text(shape.dumps(prov, 2), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
