"""Writes ``engine/data/<title>/`` and the title's replay checkpoints from the 18xx.games engine.

Development time only (README.md next to this file): it runs ``dump.rb`` with Debian's
``ruby`` on a tree of tobymao/18xx at a named commit, then shapes the dump (``shape.py``,
``checkpoints.py``) with the title's hand-kept input ``tools/titles/<title>.json``. Nothing
at run time or in CI runs it; the tests shape a kept dump (``--from-raw``) instead.

    python3 tools/titles/generate.py 1830 --engine-git DIR            # write in place
    python3 tools/titles/generate.py 1830 --engine-git DIR --compare  # diff, write nothing
    python3 tools/titles/generate.py 1830 --from-raw tests/data/titles/1830-raw.json.gz --compare

``DIR`` is a git directory of tobymao/18xx (``--rev`` picks the commit, HEAD by default);
``--engine-tree`` takes an already extracted tree with ``--engine-commit``/``--engine-date``.
Standard library only.
"""

from __future__ import annotations

import argparse
import difflib
import gzip
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
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import checkpoints  # noqa: E402
import shape  # noqa: E402

ENGINE_REPOSITORY = "https://github.com/tobymao/18xx"
COMMIT = re.compile(r"[0-9a-f]{40}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def load_input(title: str, path: Path | None = None) -> dict[str, Any]:
    """The title's hand-kept input (``tools/titles/<title>.json``), with the optional rules
    of each rule set read from the title's ``engine/data/<title>/rule_sets.json`` (the one
    home of the rule sets; an input may still name them, for a title not yet added)."""
    path = path or HERE / f"{title}.json"
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    if data.get("title") != title:
        raise SystemExit(f"{path}: title is {data.get('title')!r}, not {title!r}")
    rule_sets = ROOT / "engine" / "data" / title / "rule_sets.json"
    if rule_sets.is_file():
        if "rule_sets" in data:
            raise SystemExit(f"{path}: rule_sets: the title's rule sets are "
                             f"{rule_sets.relative_to(ROOT)}; remove them from the input")
        sets = json.loads(rule_sets.read_text("utf-8"))["rule_sets"]
        data["rule_sets"] = {name: list(facts["options"]) for name, facts in sets.items()}
    return data


def read_json(path: Path) -> Any:
    """A JSON file, gzipped when its name ends in ``.gz``."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return json.loads(data.decode("utf-8"))


def write_raw(raw: Mapping[str, Any], path: Path) -> None:
    """The dump, gzipped (with no time stamp, so equal dumps give equal files) for ``.gz``."""
    text = (json.dumps(raw, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text, 9, mtime=0) if path.suffix == ".gz" else text)


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
    """``dump.rb`` on the extracted tree: the raw facts and the fixtures' replays."""
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
    """The fixture logs the input names (all of ``public/fixtures/<title>/`` if none)."""
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
    title_input: Mapping[str, Any], raw: Mapping[str, Any], files: Sequence[str],
    checkpoints_file: str | None,
) -> dict[str, Any]:
    """``provenance.json``: where the folder's engine-derived files come from."""
    title = title_input["title"]
    out: dict[str, Any] = {
        "generator": "tools/titles/generate.py",
        "command": f"python3 tools/titles/generate.py {title} --engine-git <git directory of tobymao/18xx>"
                   f" --rev {raw['engine_commit']}",
        "engine_repository": ENGINE_REPOSITORY,
        "engine_commit": raw["engine_commit"],
        "engine_commit_date": raw["engine_date"],
        "engine_folder": f"lib/engine/game/{raw['folder']}",
        "hand_kept_input": f"tools/titles/{title}.json",
        "generated_files": sorted(files),
        "project_files": sorted(title_input.get("project_files") or []),
        "format": title_input["format"],
        "rule_sets": {name: list(rules) for name, rules in title_input["rule_sets"].items()},
    }
    if checkpoints_file is not None:
        out["checkpoints"] = {
            "file": checkpoints_file,
            "fixtures": [f"public/fixtures/{title}/{name}.json" for name in (raw.get("fixtures") or {})],
        }
    return out


def outputs(raw: Mapping[str, Any], title_input: Mapping[str, Any], with_checkpoints: bool) -> dict[str, str]:
    """Every file the generator writes, as text: repository path → content."""
    title = title_input["title"]
    fmt = title_input["format"]
    folder = f"engine/data/{title}"
    files = shape.data_files(raw, title_input)
    out = {f"{folder}/{name}": shape.dumps(content, fmt) for name, content in files.items()}
    checkpoints_file: str | None = None
    if with_checkpoints and raw.get("fixtures"):
        checkpoints_file = str(title_input["checkpoints"])
        out[checkpoints_file] = shape.dumps(checkpoints.checkpoints_json(raw, title_input), fmt)
    prov = provenance(title_input, raw, list(files), checkpoints_file)
    out[f"{folder}/provenance.json"] = shape.dumps(prov, 2)
    return out


def skeleton_input(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A first input for a new title: every text the project must write is left empty (the
    generator refuses empty texts), the rule sets are ``standard``, those the fixtures use
    and each of the game's optional rules alone (1889's ``beginner_game``, which no fixture
    uses; combinations of several are added by hand)."""
    title = raw["title"]
    rule_sets: dict[str, list[str]] = {"standard": []}
    chosen = [sorted(rules) for rules in (raw.get("fixture_rules") or {}).values()]
    chosen += [[str(o["sym"])] for o in raw.get("optional_rules") or ()]
    for rules in chosen:
        name = "+".join(rules) or "standard"
        rule_sets.setdefault(name, rules)
    used = sorted({sym for rules in rule_sets.values() for sym in rules})
    companies = next(iter(raw["rule_sets"].values()))["companies"]
    return {
        "_doc": f"Hand-kept input of tools/titles/generate.py for {title} (README.md there).",
        "title": title,
        "format": 2,
        "players": 4,
        "rule_sets": rule_sets,
        "rule_set_naming": "the sorted option syms joined by '+', or 'standard' when settings.optional_rules is empty",
        "options": {sym: {"effect": "", "source": f"lib/engine/game/{raw['folder']}/meta.rb"} for sym in used},
        "fixtures": sorted(raw.get("fixture_rules") or {}),
        "checkpoints": f"tests/data/{title}/fixture_checkpoints.json",
        "project_files": ["players.json", "route_rules.json", "rule_sets.json"],
        "company_summaries": {c["sym"]: "" for c in companies},
    }


def compare(texts: Mapping[str, str]) -> int:
    """Prints, per file, whether the shipped copy is byte-identical; the number that differ."""
    differ = 0
    for path, text in texts.items():
        shipped = ROOT / path
        if not shipped.is_file():
            print(f"new        {path}")
            differ += 1
            continue
        old = shipped.read_text("utf-8")
        if old == text:
            print(f"identical  {path}")
            continue
        differ += 1
        lines = list(difflib.unified_diff(old.splitlines(), text.splitlines(), "shipped", "generated", lineterm=""))
        print(f"DIFFERS    {path} ({sum(1 for x in lines if x[:1] in '+-') - 2} lines)")
        for line in lines[:40]:
            print(f"    {line}")
    return differ


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("title")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--engine-git", type=Path, help="a git directory of tobymao/18xx (extracted to a temp dir)")
    src.add_argument("--engine-tree", type=Path, help="an extracted tree (lib/, public/fixtures/)")
    src.add_argument("--from-raw", type=Path, help="a dump kept with --raw-out (no Ruby needed)")
    parser.add_argument("--rev", default="HEAD", help="with --engine-git: the commit to use (default HEAD)")
    parser.add_argument("--engine-commit", help="with --engine-tree: the tree's commit (40 hex)")
    parser.add_argument("--engine-date", help="with --engine-tree: its commit date (YYYY-MM-DD)")
    parser.add_argument("--input", type=Path, help="the hand-kept input (default tools/titles/<title>.json)")
    parser.add_argument("--out", type=Path, help="write the data folder here instead of engine/data/<title>")
    parser.add_argument("--checkpoints-out", type=Path, help="write the checkpoints here instead of the input's path")
    parser.add_argument("--no-checkpoints", action="store_true", help="replay no fixture, write no checkpoints")
    parser.add_argument("--raw-out", type=Path, help="also keep the raw dump here (.gz: gzipped)")
    parser.add_argument("--compare", action="store_true", help="compare with the shipped files, write nothing")
    parser.add_argument("--init-input", action="store_true",
                        help="write a skeleton tools/titles/<title>.json for a new title and stop")
    args = parser.parse_args(argv)

    if args.init_input:
        target = args.input or HERE / f"{args.title}.json"
        if target.exists():
            raise SystemExit(f"generate.py: {target} exists; edit it instead")
        title_input: dict[str, Any] = {"title": args.title, "rule_sets": {"standard": []}, "fixtures": None}
    else:
        title_input = load_input(args.title, args.input)

    with tempfile.TemporaryDirectory() as tmp:
        if args.from_raw is not None:
            raw = read_json(args.from_raw)
        else:
            if args.engine_git is not None:
                tree = Path(tmp)
                commit, date = extract_tree(args.engine_git, args.rev, tree)
            else:
                tree = args.engine_tree
                commit, date = args.engine_commit, args.engine_date
            if not commit or not COMMIT.fullmatch(commit) or not date or not DATE.fullmatch(date):
                raise SystemExit("generate.py: the engine commit (40 hex) and its date (YYYY-MM-DD) must be known")
            fixtures = fixture_paths(tree, title_input)
            raw = run_dump(tree, title_input, [] if args.no_checkpoints or args.init_input else fixtures)
            raw["engine_commit"], raw["engine_date"] = commit, date
            raw["fixture_rules"] = {f.stem: fixture_rules(f) for f in fixtures}
    if args.raw_out is not None:
        write_raw(raw, args.raw_out)
    if args.init_input:
        target.write_text(json.dumps(skeleton_input(raw), indent=2, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {target}: fill in every empty text, then run the generator again")
        return 0

    try:
        texts = outputs(raw, title_input, with_checkpoints=not args.no_checkpoints)
    except shape.ShapeError as e:
        raise SystemExit(f"generate.py: {e}") from None
    if args.compare:
        return 1 if compare(texts) else 0
    folder = f"engine/data/{args.title}/"
    for path, text in texts.items():
        if path.startswith(folder):
            target = (args.out / path[len(folder):]) if args.out else ROOT / path
        else:
            target = args.checkpoints_out or ROOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
