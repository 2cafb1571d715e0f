"""The title data generator (``tools/titles``, issue 33 item 4), checked without Ruby or the
18xx.games tree (CI has neither).

* Shaping the kept engine dump of a title (``tests/data/titles/<title>-raw.json.gz``, written
  by ``generate.py --raw-out``) gives every engine-derived file of ``engine/data/<title>/``,
  its ``provenance.json`` and the replay checkpoints the tests read, byte for byte.
* Every title folder names the engine commit its data comes from, and every file in it is
  either generated or one of the project's own files its provenance lists.
* The generator refuses to make up the project's texts.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools" / "titles"
DATA = ROOT / "engine" / "data"
DUMPS = ROOT / "tests" / "data" / "titles"

TITLES = sorted(p.name for p in DATA.iterdir() if p.is_dir())


def _generator() -> ModuleType:
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    import generate

    return generate


def _dump(title: str) -> dict[str, Any]:
    path = DUMPS / f"{title}-raw.json.gz"
    if not path.is_file():
        pytest.fail(f"test data {path} is missing (tools/titles/README.md: --raw-out)")
    raw: dict[str, Any] = _generator().read_json(path)
    return raw


def test_every_title_has_a_kept_dump_and_an_input() -> None:
    assert TITLES, "no title folder under engine/data"
    for title in TITLES:
        assert (DUMPS / f"{title}-raw.json.gz").is_file(), title
        assert (TOOLS / f"{title}.json").is_file(), title


@pytest.mark.parametrize("title", TITLES)
def test_shaping_the_kept_dump_gives_the_shipped_files(title: str) -> None:
    generate = _generator()
    texts = generate.outputs(_dump(title), generate.load_input(title), with_checkpoints=True)
    assert f"engine/data/{title}/map.json" in texts
    assert any(not path.startswith("engine/data/") for path in texts), "no checkpoints written"
    for path, text in texts.items():
        assert (ROOT / path).read_text("utf-8") == text, f"{path} is not what the generator writes"


@pytest.mark.parametrize("title", TITLES)
def test_provenance_names_the_engine_commit_and_every_file(title: str) -> None:
    folder = DATA / title
    prov = json.loads((folder / "provenance.json").read_text("utf-8"))
    assert re.fullmatch(r"[0-9a-f]{40}", prov["engine_commit"])
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", prov["engine_commit_date"])
    assert prov["engine_repository"] == "https://github.com/tobymao/18xx"
    assert prov["engine_commit"] in prov["command"]
    assert _dump(title)["engine_commit"] == prov["engine_commit"]
    on_disk = {p.name for p in folder.iterdir() if p.is_file()}
    listed = set(prov["generated_files"]) | set(prov["project_files"]) | {"provenance.json"}
    assert on_disk == listed
    assert not set(prov["generated_files"]) & set(prov["project_files"])


def test_the_project_texts_are_never_made_up() -> None:
    generate = _generator()
    import shape

    title_input = generate.load_input("1830")
    raw = _dump("1830")
    first = next(iter(title_input["company_summaries"]))
    title_input["company_summaries"][first] = ""
    with pytest.raises(shape.ShapeError, match=first):
        shape.companies_json(raw, title_input)
    skeleton = generate.skeleton_input(raw)
    assert set(skeleton["company_summaries"].values()) == {""}
    assert all(not o["effect"] for o in skeleton["options"].values())
    skeleton["company_summaries"] = title_input["company_summaries"] | {first: "x"}
    with pytest.raises(shape.ShapeError, match="option"):
        shape.options_json(raw, skeleton, raw["fixture_rules"])


def test_the_two_formats_differ_only_in_form() -> None:
    """Format 1 (1888's files) and format 2 (1830's, for new titles) hold the same facts
    where both have a field: shaping 1830's dump in format 1 drops fields, never changes one."""
    generate = _generator()
    import shape

    raw = _dump("1830")
    two = generate.load_input("1830")
    one = dict(two, format=1)
    for name in ("map_json", "phases_json", "trains_json", "corporations_json", "market_json",
                 "companies_json"):
        a, b = getattr(shape, name)(raw, one), getattr(shape, name)(raw, two)
        _assert_subset(a, b, name)


def _assert_subset(small: Any, big: Any, where: str) -> None:
    if isinstance(small, dict):
        assert isinstance(big, dict), where
        for key, value in small.items():
            assert key in big, f"{where}.{key}"
            _assert_subset(value, big[key], f"{where}.{key}")
    elif isinstance(small, list):
        assert isinstance(big, list) and len(small) == len(big), where
        for i, (x, y) in enumerate(zip(small, big)):
            _assert_subset(x, y, f"{where}[{i}]")
    else:
        assert small == big, where


def test_a_flat_topped_map_names_its_own_coordinates() -> None:
    """1889's map is flat-topped (g_1889/map.rb ``LAYOUT = :flat``): its coordinate system is
    doubled-height with the column as the letter, and each hex's neighbours sit at the flat
    offsets (18xx.games ``Hex::DIRECTIONS[:flat]``: edge 0 is (0, +2), the hex below)."""
    import shape

    raw = _dump("1889")
    out = shape.map_json(raw, _generator().load_input("1889"))
    assert out["layout"] == "flat"
    assert out["coordinate_system"] == shape.COORDINATE_SYSTEMS["flat"]
    offsets = {int(e): (o["dx"], o["dy"]) for e, o in out["coordinate_system"]["edge_offsets"].items()}
    by_id = {h["id"]: h for h in out["hexes"]}
    at = {(h["x"], h["y"]): h["id"] for h in out["hexes"]}
    for h in out["hexes"]:
        for edge, other in h["all_neighbors"].items():
            dx, dy = offsets[int(edge)]
            assert at[(h["x"] + dx, h["y"] + dy)] == other, (h["id"], edge)
    # Kotohira I4 (x 8, y 3): Ikeda's mountain I6 below it (edge 0), Marugame I2 above (edge 3).
    assert by_id["I4"]["all_neighbors"]["0"] == "I6" and by_id["I4"]["all_neighbors"]["3"] == "I2"


def test_rule_sets_may_differ_in_blockers_and_icons_only() -> None:
    """1889's beginner game takes the blockers off C4 and K4 and the port icons off the four
    coastal towns (g_1889/game.rb ``remove_blockers_and_icons``): the hex is written once,
    the beginner game's values under ``by_rule_set``; a difference in track is refused."""
    import shape

    raw = _dump("1889")
    title_input = _generator().load_input("1889")
    by_id = {h["id"]: h for h in shape.map_json(raw, title_input)["hexes"]}
    assert by_id["C4"]["blocked_by_company"] == ["ER"]
    assert by_id["C4"]["by_rule_set"] == {"beginner_game": {"blocked_by_company": []}}
    assert by_id["J9"]["icons"] == ["port"]
    assert by_id["J9"]["by_rule_set"] == {"beginner_game": {"icons": []}}
    assert "by_rule_set" not in by_id["F9"]
    broken = json.loads(json.dumps(raw))
    next(h for h in broken["hexes"]["beginner_game"] if h["id"] == "C4")["tile"]["labels"] = ["X"]
    with pytest.raises(shape.ShapeError, match="hex C4 differs"):
        shape.map_json(broken, title_input)


def test_a_tile_that_blocks_lays_is_special_only() -> None:
    """The port tile 437 carries an icon that keeps it out of a normal lay (18xx.games
    ``potential_tiles`` rejects ``blocks_lay``): only the Mitsubishi Ferry lays it, so it is
    special-only and no hex lists it among its normal lay candidates."""
    import shape

    raw = _dump("1889")
    assert "437" in shape.special_only_tiles(raw)
    hexes = shape.map_json(raw, _generator().load_input("1889"))["hexes"]
    assert all("437" not in h["lay_candidates"] for h in hexes)
    assert {h["id"] for h in hexes if "3" in h["lay_candidates"] and h["icons"] == ["port"]} == {
        "B11", "G10", "I12", "J9"}
