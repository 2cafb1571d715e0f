"""Golden verdicts from the 18xx.games engine: every real run of a title's fixture logs, solved
by us and judged by the engine (issue 36, item 4; DESIGN.md §10 "golden data").

Development time only (README.md next to this file), like ``generate.py``: it needs Debian's
``ruby`` and a tree of tobymao/18xx at a named commit. Nothing at run time or in CI runs it;
the tests read the verdicts it writes (``tests/engine/test_golden_verdicts.py``).

    .venv/bin/python tools/titles/golden.py 1888 --engine-git DIR --rev COMMIT
    .venv/bin/python tools/titles/golden.py 1830 --engine-tree /tmp/18xx --engine-commit SHA --engine-date DATE

For every fixture log of ``public/fixtures/<title>/`` (or those named with ``--fixture``):

1. ``golden.rb states`` replays it in the 18xx.games engine and, before every kept
   ``run_routes``, writes the running company's board as a state file in the common schema
   (docs/state-files.md), with the recorded routes, revenue and subsidy, and the engine's
   verdict on the recorded routes submitted again (the control of the judge);
2. this file names the state's rule set from the title's ``engine/data/<title>/rule_sets.json``
   (the one whose options are the log's options that name a rule set; ``standard`` when the
   title has none) and its ``rules_as_of`` as the engine commit's date (the rules the judge
   plays), and solves it with our engine (``route18xx.engine.api.solve_routes``), for each
   objective where the title pays a subsidy (``total`` = revenue + subsidy, ``revenue``);
3. ``golden.rb judge`` submits each distinct optimal route set to the engine at that point of
   the log, in place of the recorded run, as the site's route selector does: accepted with
   the engine's revenue and subsidy, or refused with its reason; and, for a title our engine
   replays, each recorded run whose routes name their hexes alone (the log form of 2020,
   which the engine pays unchecked) as our replay read it (``recorded_reading``:
   ``legacy_readings``), so that every recorded run has the engine's verdict;
4. the verdicts are written to ``tests/data/golden/<title>/verdicts.json.gz`` (gzipped without
   a time stamp) with the engine commit, and the counts are printed.

The solve needs the project installed: run it with the project's ``.venv/bin/python``. The
rest is standard library.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from generate import COMMIT, DATE, ENGINE_REPOSITORY, extract_tree  # noqa: E402

#: The objectives solved, where a title pays a subsidy (``route18xx solve --objective``).
OBJECTIVES_WITH_SUBSIDY = ("total", "revenue")
#: Seconds a solve may take before it counts as not proven (issue 36 asks 250 ms).
SOLVE_LIMIT_S = 60.0


def rule_set_name(title: str, optional_rules: Sequence[str]) -> str:
    """The rule set a log's optional rules select, named as the title's data names it
    (``engine/data/<title>/rule_sets.json``: the rule set whose options are exactly the
    given ones that name a rule set; the others change facts of it). A title without the
    file yet: ``standard`` without options, else the options sorted and joined by ``+``
    (docs/state-files.md, "State files of titles to come")."""
    path = ROOT / "engine" / "data" / title / "rule_sets.json"
    if not path.is_file():
        return "+".join(sorted(optional_rules)) or "standard"
    sets = json.loads(path.read_text("utf-8"))["rule_sets"]
    naming = {o for facts in sets.values() for o in facts["options"]}
    wanted = set(optional_rules) & naming
    for name, facts in sets.items():
        if set(facts["options"]) == wanted:
            return str(name)
    raise SystemExit(f"golden.py: {title}: no rule set has the options {sorted(wanted)} ({path})")


def engine_folder(title: str) -> str | None:
    """The title's engine folder when its generator input names one (``engine_folder``)."""
    path = HERE / f"{title}.json"
    if not path.is_file():
        return None
    folder = json.loads(path.read_text("utf-8")).get("engine_folder")
    return str(folder) if folder else None


def run_ruby(tree: Path, title: str, command: str, args: Sequence[str]) -> dict[str, Any]:
    """``golden.rb`` on the extracted tree; its JSON answer."""
    ruby = shutil.which("ruby")
    if ruby is None:
        raise SystemExit("golden.py: no `ruby` (development only: apt-get install -y ruby)")
    cmd = [ruby, str(HERE / "golden.rb"), "--lib", str(tree / "lib"), "--title", title]
    folder = engine_folder(title)
    if folder:
        cmd += ["--folder", folder]
    done = subprocess.run([*cmd, command, *args], check=True, stdout=subprocess.PIPE, text=True)
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def route_key(routes: Sequence[Mapping[str, Any]]) -> str:
    """A route set as the engine reads it: each train's connections, in train order."""
    return json.dumps(sorted([r["train"], r["connections"]] for r in routes))


def slim_routes(routes: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> list[dict[str, Any]]:
    return [{k: r[k] for k in keys if k in r} for r in routes]


def solve(state: Mapping[str, Any], objectives: Sequence[str]) -> dict[str, Any]:
    """Our optimum for each objective (``route18xx solve --json``), or the reader's refusal."""
    from route18xx.engine import api

    out: dict[str, Any] = {}
    for objective in objectives:
        try:
            answer = api.solve_routes(state, objective=objective, time_limit_s=SOLVE_LIMIT_S)
        except api.Route18xxError as exc:
            out[objective] = {"error": str(exc)}
            continue
        out[objective] = {
            "revenue": answer["revenue"],
            "subsidy": answer["subsidy"],
            "proven_optimal": answer["proven_optimal"],
            "routes": slim_routes(answer["routes"], ("train", "connections", "nodes", "revenue", "subsidy")),
        }
    return out


#: The state fields our own replay (``route18xx state --turn-facts``) must give as the engine does.
REPLAY_FIELDS = ("phase", "corporation", "trains", "train_ids", "tiles", "tokens", "cash",
                 "player_owned_blockers", "tiles_laid")


def replayed_titles() -> list[str]:
    """The titles whose logs our engine replays (``api.titles_replayed``)."""
    from route18xx.engine import api

    return api.titles_replayed()


def replay_differences(log: Mapping[str, Any], run: Mapping[str, Any]) -> list[str] | None:
    """Where our replay's state before the run differs from the engine's (the fields of
    ``REPLAY_FIELDS``, lists compared as sets; ``privates``: ours lists only the privates whose
    tile lay is unspent, so it must be a subset). None when our engine does not replay the
    title's logs."""
    from route18xx.engine import api
    from route18xx.engine.inputs.state_file import to_state_file

    def norm(value: Any) -> Any:
        return sorted(json.dumps(v, sort_keys=True) for v in value) if isinstance(value, list) else value

    try:
        state = api.state_from_log(log, run["action_id"])
    except api.RouteLevelOnly:  # a title played at route level only: its logs are not replayed
        return None
    except api.MalformedInput as exc:
        if exc.field == "title" or "title" in exc.reason:  # a title read at route level only
            return None
        return [f"our replay refuses the action: {exc}"]
    ours = {**to_state_file(state), "train_ids": list(state.train_ids),
            "player_owned_blockers": list(state.player_owned_blockers or ())}
    theirs = run["state"]
    out = [f"{k}: ours {ours.get(k)} engine {theirs.get(k)}"
           for k in REPLAY_FIELDS if norm(ours.get(k, [])) != norm(theirs.get(k, []))]
    if not set(ours.get("privates", [])) <= set(theirs["privates"]):
        out.append(f"privates: ours {ours.get('privates')} engine {theirs['privates']}")
    return out


def legacy_readings(log: Mapping[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """Our engine's reading of each recorded run whose routes name their hexes alone (the
    log form of 2020, which today's 18xx.games engine pays unchecked and cannot rebuild):
    action id → the routes with the connections our replay read from their hexes
    (``engine.game.routing._with_connections``), to be judged by the engine in their place."""
    from route18xx.engine.replay.replay import replay

    legacy = {a["id"] for a in log["actions"] if a.get("type") == "run_routes"
              and a.get("routes") and not any("connections" in r for r in a["routes"])}
    return {run.check.action_id: [{"train": r.train, "connections": [list(c) for c in r.connections]}
                                  for r in run.check.routes]
            for run in replay(log).runs if run.check.action_id in legacy}


def named_state(title: str, date: str, dumped: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's state with its ``rule_set`` named (``rule_set_name``) and ``rules_as_of``
    the engine commit's date, ``title``, ``rule_set`` and ``rules_as_of`` first."""
    state = {"title": dumped["title"], "rule_set": rule_set_name(title, dumped["optional_rules"]),
             "rules_as_of": date}
    state.update({k: v for k, v in dumped.items() if k not in state})
    return state


def to_submit(run: dict[str, Any]) -> list[dict[str, Any]]:
    """The distinct optimal route sets of a run, each once (both objectives often give the
    same routes); each answer notes under ``judged_as`` the submission that judges it."""
    out: list[dict[str, Any]] = []
    keys: dict[str, str] = {}
    for objective, answer in run["optimum"].items():
        if "routes" not in answer:
            continue
        key = route_key(answer["routes"])
        if key not in keys:
            keys[key] = objective
            out.append({"action_id": run["action_id"], "key": objective, "routes": answer["routes"]})
        answer["judged_as"] = keys[key]
    return out


def golden(tree: Path, title: str, commit: str, date: str, fixtures: Sequence[Path],
           states_only: bool = False) -> dict[str, Any]:
    """The verdicts file of ``title`` (module docstring, steps 1-3); with ``states_only``
    step 1 alone (a title our engine does not read yet)."""
    if states_only:
        objectives: tuple[str, ...] = ()
    else:
        from route18xx.engine import api

        if title not in api.titles_served():
            raise SystemExit(f"golden.py: our engine does not read {title} states yet "
                             f"(it reads {sorted(api.titles_served())}); --states-only writes the states alone")
        objectives = OBJECTIVES_WITH_SUBSIDY if api.subsidy_titles()[title] else ("total",)
    started = time.monotonic()
    dumped = run_ruby(tree, title, "states", [str(f) for f in fixtures])
    print(f"{title}: states dumped in {time.monotonic() - started:.0f} s", file=sys.stderr)
    paths = {f.stem: f for f in fixtures}
    logs = {f.stem: json.loads(f.read_text("utf-8")) for f in fixtures}
    replay_findings: list[str] = []
    replayed = 0
    submissions: dict[str, list[dict[str, Any]]] = {}
    for fixture in dumped["fixtures"]:
        for run in fixture["runs"]:
            run["state"] = named_state(title, date, run["state"])
            if states_only:
                continue
            run["optimum"] = solve(run["state"], objectives)
            differences = replay_differences(logs[fixture["fixture"]], run)
            if differences:
                replay_findings.append(f"{fixture['fixture']}-{run['action_id']}: our replay: "
                                       + "; ".join(differences))
            replayed += differences is not None
            submissions.setdefault(str(paths[fixture["fixture"]]), []).extend(to_submit(run))
        if not states_only and title in replayed_titles():
            readings = legacy_readings(logs[fixture["fixture"]])
            for run in fixture["runs"]:
                if run["action_id"] in readings:
                    run["recorded_reading"] = {"routes": readings[run["action_id"]]}
                    submissions.setdefault(str(paths[fixture["fixture"]]), []).append(
                        {"action_id": run["action_id"], "key": "recorded_reading",
                         "routes": readings[run["action_id"]]})
    print(f"{title}: solved in {time.monotonic() - started:.0f} s", file=sys.stderr)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"fixtures": submissions}, f)
    judged = run_ruby(tree, title, "judge", [f.name]) if submissions else {"fixtures": []}
    Path(f.name).unlink()
    print(f"{title}: judged in {time.monotonic() - started:.0f} s", file=sys.stderr)
    verdicts = {(j["fixture"], v["action_id"], v["key"]): v["verdict"]
                for j in judged["fixtures"] for v in j["verdicts"]}
    for fixture in dumped["fixtures"]:
        for run in fixture["runs"]:
            run["recorded"]["routes"] = [
                {k: r[k] for k in ("train", "connections" if "connections" in r else "hexes",
                                   "revenue", "subsidy") if k in r}
                for r in run["recorded"]["routes"]]
            if "recorded_reading" in run:
                run["recorded_reading"]["verdict"] = verdicts[(fixture["fixture"], run["action_id"],
                                                               "recorded_reading")]
            for answer in run.get("optimum", {}).values():
                if "judged_as" in answer:
                    answer["verdict"] = verdicts[(fixture["fixture"], run["action_id"], answer.pop("judged_as"))]
    return {
        "about": "Golden verdicts (issue 36 item 4): the board before every kept run_routes of the "
                 "title's fixture logs as the 18xx.games engine holds it, the recorded run, our "
                 "optimum for each objective and the engine's verdict on it, written by "
                 "tools/titles/golden.py; tests/engine/test_golden_verdicts.py re-checks them.",
        "title": title,
        "generator": "tools/titles/golden.py",
        "command": f".venv/bin/python tools/titles/golden.py {title} --engine-git <git directory of "
                   f"tobymao/18xx> --rev {commit}",
        "engine_repository": ENGINE_REPOSITORY,
        "engine_commit": commit,
        "engine_commit_date": date,
        "objectives": list(objectives),
        "our_replay": {"states_compared": replayed, "differences": replay_findings},
        "reloaded_at": dumped["reloaded_at"],
        "fixtures": dumped["fixtures"],
    }


def summary(data: Mapping[str, Any]) -> dict[str, Any]:
    """The counts issue 36 asks for, and the runs that are findings."""
    counts = {"states": 0, "optimum_at_least_recorded": 0, "recorded_accepted": 0, "recorded_not_judged": 0,
              "recorded_read_by_us": 0, "recorded_reading_accepted": 0}
    for objective in data["objectives"]:
        counts[f"{objective}_proven"] = counts[f"{objective}_accepted"] = 0
        counts[f"{objective}_engine_equal"] = 0
    findings: list[str] = []
    for fixture in data["fixtures"]:
        for run in fixture["runs"]:
            name = f"{fixture['fixture']}-{run['action_id']}"
            counts["states"] += 1
            rec = run["recorded"]
            control = run["recorded_verdict"]
            reading = run.get("recorded_reading")
            if "accepted" not in control and reading is not None:
                counts["recorded_read_by_us"] += 1
                verdict = reading["verdict"]
                if not verdict["accepted"]:
                    findings.append(f"{name}: recorded routes as we read them refused: {verdict['reason']}")
                elif (verdict["revenue"], verdict["subsidy"]) != (rec["revenue"], rec["subsidy"]):
                    findings.append(f"{name}: recorded routes as we read them accepted at "
                                    f"{verdict['revenue']}+{verdict['subsidy']}, recorded "
                                    f"{rec['revenue']}+{rec['subsidy']}")
                else:
                    counts["recorded_reading_accepted"] += 1
            elif "accepted" not in control:
                counts["recorded_not_judged"] += 1
            elif not control["accepted"]:
                findings.append(f"{name}: recorded routes refused: {control['reason']}")
            elif (control["revenue"], control["subsidy"]) != (rec["revenue"], rec["subsidy"]):
                findings.append(f"{name}: recorded routes accepted at {control['revenue']}+"
                                f"{control['subsidy']}, recorded {rec['revenue']}+{rec['subsidy']}")
            else:
                counts["recorded_accepted"] += 1
            if not data["objectives"]:
                continue
            total = run["optimum"][data["objectives"][0]]
            if "error" in total:
                findings.append(f"{name}: our reader refuses the state: {total['error']}")
                continue
            ours = total["revenue"] + total["subsidy"]
            if ours >= rec["revenue"] + rec["subsidy"] + rec["extra_revenue"]:
                counts["optimum_at_least_recorded"] += 1
            else:
                findings.append(f"{name}: optimum {ours} < recorded "
                                f"{rec['revenue'] + rec['subsidy'] + rec['extra_revenue']}")
            for objective, answer in run["optimum"].items():
                if "error" in answer:
                    findings.append(f"{name}: {objective}: {answer['error']}")
                    continue
                counts[f"{objective}_proven"] += bool(answer["proven_optimal"])
                verdict = answer["verdict"]
                if not verdict["accepted"]:
                    findings.append(f"{name}: {objective}: refused: {verdict['reason']}")
                    continue
                counts[f"{objective}_accepted"] += 1
                if (verdict["revenue"], verdict["subsidy"]) == (answer["revenue"], answer["subsidy"]):
                    counts[f"{objective}_engine_equal"] += 1
                else:
                    findings.append(f"{name}: {objective}: engine pays {verdict['revenue']}+"
                                    f"{verdict['subsidy']}, we say {answer['revenue']}+{answer['subsidy']}")
    counts["our_replay_compared"] = data["our_replay"]["states_compared"]
    counts["our_replay_differs"] = len(data["our_replay"]["differences"])
    findings.extend(data["our_replay"]["differences"])
    return {"counts": counts, "findings": findings}


def write_gz(data: Mapping[str, Any], path: Path) -> None:
    """``data`` as gzipped JSON, one run to a line, with no time stamp (equal data, equal files)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text.encode("utf-8"), 9, mtime=0))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("title")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--engine-git", type=Path, help="a git directory of tobymao/18xx (extracted to a temp dir)")
    src.add_argument("--engine-tree", type=Path, help="an extracted tree (lib/, public/fixtures/)")
    parser.add_argument("--rev", default="HEAD", help="with --engine-git: the commit to use (default HEAD)")
    parser.add_argument("--engine-commit", help="with --engine-tree: the tree's commit (40 hex)")
    parser.add_argument("--engine-date", help="with --engine-tree: its commit date (YYYY-MM-DD)")
    parser.add_argument("--fixture", action="append", default=[],
                        help="a fixture's name (its file's stem); default: every fixture of the title")
    parser.add_argument("--out", type=Path, help="default tests/data/golden/<title>/verdicts.json.gz")
    parser.add_argument("--states-only", action="store_true",
                        help="write the states and recorded runs alone (no solve, no judge), e.g. "
                             "for a title our engine does not read yet; give --out")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        if args.engine_git is not None:
            tree = Path(tmp)
            commit, date = extract_tree(args.engine_git, args.rev, tree)
        else:
            tree = args.engine_tree
            commit, date = args.engine_commit, args.engine_date
        if not commit or not COMMIT.fullmatch(commit) or not date or not DATE.fullmatch(date):
            raise SystemExit("golden.py: the engine commit (40 hex) and its date (YYYY-MM-DD) must be known")
        folder = tree / "public" / "fixtures" / args.title
        fixtures = ([folder / f"{name}.json" for name in args.fixture] if args.fixture
                    else sorted(folder.glob("*.json")))
        if not fixtures:
            raise SystemExit(f"golden.py: no fixture logs in {folder}")
        if args.states_only and args.out is None:
            raise SystemExit("golden.py: --states-only writes no verdicts: give --out FILE")
        data = golden(tree, args.title, commit, date, fixtures, states_only=args.states_only)
    out = args.out or ROOT / "tests" / "data" / "golden" / args.title / "verdicts.json.gz"
    write_gz(data, out)
    report = summary(data)
    print(json.dumps(report["counts"]))
    for line in report["findings"]:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
