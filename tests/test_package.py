"""One installable package (issue 10): the wheel adds only ``route18xx`` at top level.

The wheel is built from this checkout and installed without its dependencies
into a fresh virtual environment, which borrows the test environment's
installed dependencies through a ``.pth`` file (so the test needs no network).
Its console script must give the checkout's answer with the embedded data.
"""

from __future__ import annotations

import json
import os
import pkgutil
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATE = ROOT / "tests" / "data" / "states" / "129026-728.json"


def _site_packages(prefix: Path) -> Path:
    path = sysconfig.get_path("purelib", vars={"base": str(prefix), "platbase": str(prefix)})
    return Path(path)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the route18xx wheel installed; returns the venv's folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"  # a clean copy: no stale build/ folder can leak into the wheel
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
        ".benchmarks"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(work / "dist"), str(source)],
        check=True, capture_output=True, timeout=300,
    )
    (wheel,) = (work / "dist").glob("route18xx-*.whl")
    env = work / "venv"
    venv.EnvBuilder(with_pip=False).create(env)
    site = _site_packages(env)
    before = set(p.name for p in site.iterdir())
    subprocess.run(  # pip working on the fresh venv (--python), not on this one
        [sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install",
         "--no-deps", "-q", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )
    added = set(p.name for p in site.iterdir()) - before
    (env / "added.json").write_text(json.dumps(sorted(added)))
    # The dependencies: the test environment's, borrowed (written after the listing).
    deps = Path(sysconfig.get_path("purelib"))
    (site / "_route18xx_test_deps.pth").write_text(f"{deps}\n")
    return env


def test_the_wheel_adds_only_route18xx(installed: Path) -> None:
    added = json.loads((installed / "added.json").read_text())
    top = [name for name in added if not name.endswith(".dist-info")]
    assert top == ["route18xx"], added
    assert [n for n in added if n.endswith(".dist-info")] == ["route18xx-0.1.0.dist-info"]


def test_the_installed_console_script_answers_as_the_checkout(installed: Path) -> None:
    script = installed / "bin" / "route18xx"
    run = [str(script), "solve", str(STATE), "--json"]
    there = subprocess.run(run, capture_output=True, text=True, timeout=120, cwd="/")
    assert there.returncode == 0, there.stderr
    here = subprocess.run(
        [sys.executable, "-m", "route18xx.server.cli", "solve", str(STATE), "--json"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert here.returncode == 0, here.stderr
    keep = ("revenue", "subsidy", "proven_optimal", "routes")
    a, b = json.loads(there.stdout), json.loads(here.stdout)
    assert {k: a[k] for k in keep} == {k: b[k] for k in keep}
    assert str(installed) in subprocess.run(
        [str(installed / "bin" / "python"), "-c", "import route18xx.engine; print(route18xx.engine.__file__)"],
        capture_output=True, text=True, timeout=60, cwd="/",
    ).stdout


def test_product_code_imports_only_the_namespace() -> None:
    """Importing every module of route18xx loads no top-level engine, solver or server."""
    code = (
        "import importlib, pkgutil, sys\n"
        "for part in ('engine', 'solver', 'server', 'draw', 'v1'):\n"
        "    pkg = importlib.import_module('route18xx.' + part)\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        __import__(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('engine', 'solver', 'server'))\n"
        "print(bad)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, cwd="/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_namespace_has_its_parts() -> None:
    """route18xx is a namespace package (issue 32): each part maps to its own folder."""
    import importlib

    for part, folder in (("engine", "engine"), ("solver", "solver"), ("server", "server"),
                         ("draw", "draw"), ("v1", "proto/route18xx/v1")):
        module = importlib.import_module(f"route18xx.{part}")
        assert Path(module.__file__ or "").resolve().parent == (ROOT / folder).resolve()


def test_the_installed_console_script_audits_the_shared_logs(installed: Path, tmp_path: Path) -> None:
    """Issue 15: ``route18xx audit tests/data/logs --report r.html`` with the default install."""
    script = installed / "bin" / "route18xx"
    run = [str(script), "audit", str(ROOT / "tests" / "data" / "logs"), "--report", "r.html",
           "--jobs", "1"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 logs" in done.stdout
    assert "<svg" in (tmp_path / "r.html").read_text()
    assert (tmp_path / "results.jsonl").read_text().count('"kind":"game"') == 2


def test_pyproject_lists_every_package_under_route18xx() -> None:
    """The wheel's package list is explicit (only route18xx.*): it must name every package,
    each mapped from its real folder (issue 32: no symbolic links)."""
    import tomllib

    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed, mapped = setup["packages"], setup["package-dir"]
    on_disk = []
    for name, folder in mapped.items():
        for path, _, files in os.walk(ROOT / folder):
            if "__init__.py" in files:
                tail = Path(path).relative_to(ROOT / folder).parts
                on_disk.append(".".join((name, *tail)))
    assert sorted(listed) == sorted(on_disk)
    assert all(name.startswith("route18xx.") for name in listed)


def test_no_tracked_symbolic_links() -> None:
    """Issue 32: real folders only, so every tool reads the same tree."""
    done = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    links = [line.split("\t", 1)[1] for line in done.stdout.splitlines() if line.startswith("120000")]
    assert links == []


def test_every_title_answers_a_state_a_check_a_suggestion_and_a_turn_when_installed(
    installed: Path, tmp_path: Path,
) -> None:
    """Issue 33: each registered title, through the installed wheel's console script,
    on its own worked example (``Title.warm_up_state``): solved, the answer checked
    legal at its revenue, its moves and its whole turn ranked."""
    python, script = installed / "bin" / "python", str(installed / "bin" / "route18xx")
    listed = subprocess.run(
        [str(python), "-c", "import json; from route18xx.engine.titles import TITLES; "
         "print(json.dumps({n: t.warm_up_state for n, t in TITLES.items()}))"],
        capture_output=True, text=True, timeout=120, cwd="/",
    )
    assert listed.returncode == 0, listed.stderr
    states = json.loads(listed.stdout)
    assert sorted(states) == ["1830", "1856", "1882", "1888", "1889", "18Chesapeake"] and all(states.values())
    for title, state in states.items():
        path = tmp_path / f"{title}.json"
        path.write_text(json.dumps(state))

        def run(*args: str) -> dict[str, object]:
            done = subprocess.run([script, *args], capture_output=True, text=True, timeout=300,
                                  cwd="/")
            assert done.returncode == 0, (title, args, done.stderr)
            out: dict[str, object] = json.loads(done.stdout)
            return out

        solved = run("solve", str(path), "--json")
        assert solved["proven_optimal"] is True and int(solved["revenue"]) > 0  # type: ignore[call-overload]
        routes = tmp_path / f"{title}-routes.json"
        routes.write_text(json.dumps(solved["routes"]))
        checked = run("check", str(path), str(routes), "--json")
        assert checked["legal"] is True and checked["revenue"] == solved["revenue"]
        assert run("suggest", str(path), "--json", "--top", "2")["suggestions"] is not None
        assert run("suggest", str(path), "--turn", "--json", "--top", "2")["plans"]


def test_a_d_earns_the_diesel_value_when_installed(installed: Path, tmp_path: Path) -> None:
    """1889 (issue 36) from the wheel's own data: AR's D from Tokushima K8 (tile 57, ¥20)
    to Naruto L7, whose diesel value is ¥80 (g_1889/map.rb ``diesel_80``): ¥100."""
    state = {"title": "1889", "rule_set": "standard", "phase": "D", "corporation": "AR",
             "trains": ["D"], "tiles": [{"hex": "K8", "tile": "57", "rotation": 1}],
             "tokens": [{"hex": "K8", "city": 0, "corporation": "AR"}]}
    path = tmp_path / "1889-d.json"
    path.write_text(json.dumps(state))
    done = subprocess.run([str(installed / "bin" / "route18xx"), "solve", str(path), "--json"],
                          capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["revenue"] == 100
