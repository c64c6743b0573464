"""Independent review of Gnome Hollow ``check``: a doc-only second checker, the documented hex
convention, and regressions for the bugs found in review (bad input exits 2 located; a tile is
used once even with --any-tile; ``show --json`` output reads back)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.core.hexgrid import DIRECTIONS, orient_edge
from gnomekit.models.gnome_hollow.edition import default_edition

from gnomekit.cli import main
from tests.gnome_hollow import independent as ind

ED = default_edition()
TILES = ind.load_tiles()
WILD = {t for t in TILES if t.startswith("W")}
DOC = (Path(__file__).resolve().parents[2] / "docs" / "formats-gnome-hollow.md").read_text()
TWO: dict[str, Any] = {"players": [{"name": "red"}, {"name": "blue"}]}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["gnome-hollow", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def write(tmp_path: Path, data: Any, name: str = "pos.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return str(p)


def test_engine_matches_the_documented_hex_table() -> None:
    """The edge table and orientation formula in the doc are what models/core/hexgrid.py does."""
    rows = re.findall(r"^\s*\|\s*(\d)\s*\|\s*(\w+)\s*\|\s*\(q([+-]1)?, r([+-]1)?\)\s*\|$", DOC, re.M)
    table = {int(e): (int(dq or 0), int(dr or 0)) for e, _name, dq, dr in rows}
    assert table == {e: tuple(DIRECTIONS[e]) for e in range(6)} == dict(enumerate(ind.DIRS))
    for o in range(12):
        for e in range(6):
            assert orient_edge(e, o) == ind.orient_edge(e, o)


def test_documented_g90_orientations() -> None:
    """The worked G90 table in the doc (path 0 = 0-1 yellow, path 1 = 2-4 purple)."""
    want = {0: [(0, 1), (2, 4)], 2: [(2, 3), (4, 0)], 6: [(0, 5), (4, 2)], 7: [(1, 0), (5, 3)]}
    for o, paths in want.items():
        got = [(ind.orient_edge(a, o), ind.orient_edge(b, o)) for a, b, _m in TILES["G90"]]
        assert got == paths
        eng = ED.tile("G90").path_ends[o]
        assert {e: i for e, i in eng} == {e: i for i, p in enumerate(paths) for e in p}


def _cross_check(capsys: pytest.CaptureFixture[str], tmp_path: Path, seeds: range) -> dict[str, int]:
    seen = {"rings": 0, "late": 0, "illegal": 0, "wild": 0, "mirror": 0}
    for seed in seeds:
        case = ind.generate(seed, TILES, WILD)
        f = write(tmp_path, ind.position_json(case))
        want = ind.check(TILES, WILD, case["garden"], case["gnomes"], case["seq"], "red", case["permits"])
        args = ["check", f, "--any-tile", "--json", "--place", *ind.placement_args(case["seq"])]
        args += [x for p in case["permits"] for x in ("--permit", p)]
        code, out, _ = run(capsys, *args)
        got = json.loads(out)

        def key(rs: list[dict[str, object]]) -> list[object]:
            return [(r["closed_by"], r["size"], sorted(r["mushrooms"].items())) for r in rs]  # type: ignore

        ctx = (seed, case, got["reasons"], want["reasons"])
        assert got["legal"] == want["legal"] and code == (0 if want["legal"] else 1), ctx
        assert len(got["reasons"]) == len(want["reasons"]), ctx
        assert key(got["rings"]) == key(want["rings"]), ctx
        assert key(got["rings_if_placed"]) == key(want["rings_if_placed"]), ctx
        assert all(set(r["mushrooms"]) == set(ind.COLOURS) for r in got["rings"])
        seen["rings"] += len(want["rings"])
        seen["late"] += any(r["closed_by"] > 1 for r in want["rings"])
        seen["illegal"] += not want["legal"]
        seen["wild"] += any(t in WILD for t, _c, _o in case["seq"] + case["garden"])
        seen["mirror"] += any(o >= 6 for _t, _c, o in case["seq"])
    return seen


def test_check_agrees_with_the_doc_only_checker(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    seen = _cross_check(capsys, tmp_path, range(12))
    assert seen["rings"] >= 3 and seen["mirror"] >= 3


@pytest.mark.slow
def test_check_agrees_with_the_doc_only_checker_full(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    seen = _cross_check(capsys, tmp_path, range(100, 400))
    assert min(seen.values()) >= 10, seen


def test_documented_worked_ring(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "check", write(tmp_path, TWO), "--any-tile", "--json",
                       "--place", "G01@0,-1:r2", "G04@1,-1:r4")
    data = json.loads(out)
    assert code == 0 and data["legal"] and data["reasons"] == []
    assert [(r["size"], r["closed_by"], r["mushrooms"]) for r in data["rings"]] == [
        (3, 2, {"red": 1, "yellow": 0, "pink": 0, "teal": 1, "purple": 0})]


# --- regressions ------------------------------------------------------------------------------


def test_unknown_tile_in_place_is_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Was exit 1 with an 'unknown-tile' reason; now exit 2, located in --place."""
    f = write(tmp_path, TWO)
    code, out, err = run(capsys, "check", f, "--any-tile", "--place", "G01@0,-1:r2 G999@1,-1")
    assert code == 2 and out == "" and "--place:1:13:" in err and "G999" in err and "expected" in err
    code, _, err = run(capsys, "check", f, "--place", "S@0,-1")
    assert code == 2 and "Stump" in err and "--place:1:1:" in err
    code, _, err = run(capsys, "check", f, "--json", "--place", '[{"tile": "G01", "cell": [0, -1]}, '
                       '{"tile": "X7", "cell": [1, -1]}]')
    assert code == 2 and "--place:1:" in err and "X7" in err


def test_permit_must_name_a_player(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Was silently ignored; a misspelt --permit would make a needed permission look refused."""
    code, _, err = run(capsys, "check", write(tmp_path, TWO), "--any-tile", "--place", "G01@0,-1:r2",
                       "--permit", "green")
    assert code == 2 and "--permit" in err and "red, blue" in err and "green" in err


def test_too_many_placements_is_located(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", write(tmp_path, TWO), "--any-tile", "--place",
                       "G01@0,-1", "G02@0,-2", "G03@0,-3", "G04@0,-4", "G05@0,-5")
    assert code == 2 and err.startswith("gnomekit: error: --place:1:1:") and "at most 4" in err


def test_any_tile_still_uses_a_tile_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--any-tile skips the offered/storage check but a tile in the garden or used earlier is refused."""
    pos = dict(TWO, tiles=[{"tile": "S", "cell": [0, 0]}, {"tile": "G01", "cell": [0, -1], "orientation": 2}])
    f = write(tmp_path, pos)
    code, out, _ = run(capsys, "check", f, "--any-tile", "--json", "--place", "G01@1,-1:r4")
    data = json.loads(out)
    assert code == 1 and not data["legal"] and data["rings"] == []
    assert data["reasons"] == ["tile 1 (G01 at 1,-1): G01 is already in the garden"]
    code, out, _ = run(capsys, "check", f, "--any-tile", "--json", "--place", "G04@1,-1:r4", "G04@-1,0:r0")
    data = json.loads(out)
    assert code == 1 and any("G04 is placed earlier in this sequence" in r for r in data["reasons"])


def test_show_json_reads_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """show --json adds rings and open_networks; reading it back used to fail on open_networks."""
    pos = dict(TWO, tiles=[{"tile": "S", "cell": [0, 0]}, {"tile": "G01", "cell": [0, -1], "orientation": 2},
                           {"tile": "G04", "cell": [1, -1], "orientation": 4}])
    code, out, _ = run(capsys, "show", write(tmp_path, pos), "--json")
    first = json.loads(out)
    assert code == 0 and first["rings"] and first["open_networks"]
    code, out2, _ = run(capsys, "show", write(tmp_path, first, "again.json"), "--json")
    assert code == 0 and json.loads(out2) == first
