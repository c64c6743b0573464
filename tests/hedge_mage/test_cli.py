"""The Hedge Mage verbs through ``gnomekit.cli.main``: exit codes, text and JSON output, errors.

Exit 0 ok/legal, 1 illegal or nothing found (the whole answer still printed), 2 bad
input or usage (a located message on stderr, never a traceback).  With ``--json`` a
verb prints exactly one JSON object.
"""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.notation import garden_from_text, read_garden

from gnomekit.cli import main
from tests.hedge_mage.hm_reference import PERFT_DIR

ED = default_edition()
POS = PERFT_DIR / "positions"
GARDEN_KEYS = {"rows", "cols", "hedges", "bonus_sigils", "tunnels", "gnomes", "mages", "springshrooms", "tile"}
ALL_GARDEN_KEYS = GARDEN_KEYS | {"game", "format", "edition", "round", "remaining_tiles", "substitution_used",
                                 "kept_tile", "held_bonus_sigils"}
HM = ["hedge-mage"]


def run(capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main([*HM, *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def one_json(out: str) -> dict[str, Any]:
    """stdout holds exactly one JSON object and nothing else."""
    data = json.loads(out)  # raises on trailing text or a second object
    assert isinstance(data, dict)
    return data


# ---------------------------------------------------------------------------------------------
# new / random / show


def test_new_text_and_json_describe_the_same_garden(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run(capsys, "new", "--seed", "3")
    assert code == 0
    code, out, _ = run(capsys, "new", "--seed", "3", "--json")
    assert code == 0
    data = one_json(out)
    assert set(data) == ALL_GARDEN_KEYS and GARDEN_KEYS <= set(data)
    assert garden_from_text(text, "t", ED) == read_garden(out, "j", ED)
    assert data["hedges"] == [] and data["round"] == 1 and data["tile"] in ED.tiles
    assert len(data["tunnels"]) == 2 and len(data["mages"]) == 2 and len(data["gnomes"]) == 12


def test_new_with_enchantments(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "--enchantments", "planter-enchanter,morel-evate,pump-kin", "--json")
    assert code == 0 and sorted(map(tuple, one_json(out)["tunnels"])) == sorted([ED.numbered[1], ED.numbered[3]])
    code, out, err = run(capsys, "new", "--enchantments", "nope")
    assert code == 2 and out == "" and "unknown enchantment 'nope'" in err
    code, out, err = run(capsys, "new", "--enchantments", "morel-evate,morel-evate")
    assert code == 2 and out == "" and "one card per kind" in err


def test_random_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for seed in ("5", "5", "6"):
        code, out, _ = run(capsys, "random", "--seed", seed, "--round", "4", "--json")
        assert code == 0
        outs.append(one_json(out))
    assert outs[0] == outs[1] and outs[0] != outs[2]
    assert outs[0]["round"] == 5 and 1 <= len(outs[0]["hedges"]) <= 4
    code, t1, _ = run(capsys, "random", "--seed", "5", "--round", "4")
    code2, t2, _ = run(capsys, "random", "--seed", "5", "--round", "4")
    assert code == code2 == 0 and t1 == t2
    assert garden_from_text(t1, "t", ED) == read_garden(json.dumps(outs[0]), "j", ED)


@pytest.mark.parametrize("args", [["--round", "-1"], ["--round", "11"]])
def test_random_bad_rounds(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, "random", "--seed", "1", *args)
    assert code == 2 and "gnomekit: error:" in err


def test_show_text_json_and_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = POS / "tokens-4x5.txt"
    code, text, _ = run(capsys, "show", str(path))
    assert code == 0 and text.startswith("hedge-mage garden\n")
    assert garden_from_text(text, "t", ED) == read_garden(path.read_text(), "p", ED)
    code, out, _ = run(capsys, "show", str(path), "--json")
    data = one_json(out)
    assert code == 0 and set(data) == ALL_GARDEN_KEYS | {"warnings"} and data["warnings"] == []
    code, out2, _ = run(capsys, "show", "-", "--json", stdin=path.read_text(), monkeypatch=monkeypatch)
    assert code == 0 and one_json(out2) == data
    code, out3, _ = run(capsys, "show", "-", stdin=out, monkeypatch=monkeypatch)  # its own JSON, read back
    assert code == 0 and out3 == text


def test_show_warns_about_states_no_legal_play_reaches(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(POS / "bush-4x4.txt"), "--json")
    assert code == 0 and any("2x2" in w for w in one_json(out)["warnings"])
    code, out, _ = run(capsys, "show", str(POS / "split-4x4.txt"))
    assert code == 0 and "split into 2 regions" in out


def test_show_json_of_a_garden_the_text_cannot_carry(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hedges = [{"tile": "D2", "cells": [[r, c], [r, c + 1]], "sigil": [r, c]}
              for r in range(0, 18, 2) for c in range(0, 9, 3)]
    assert len(hedges) == 27
    p = tmp_path / "many.json"
    p.write_text(json.dumps({"rows": 18, "cols": 10, "hedges": hedges}))
    code, out, _ = run(capsys, "show", str(p), "--json")
    assert code == 0 and len(one_json(out)["hedges"]) == 27
    code, out, err = run(capsys, "show", str(p))
    assert code == 2 and "at most 26 hedges" in err


# ---------------------------------------------------------------------------------------------
# moves


def perft_count(position: str, tile: str) -> int:
    text = (PERFT_DIR / "perft.txt").read_text()
    block = text.split(f"position: {position}\n", 1)[1].split("total:", 1)[0]
    return next(int(line.split()[1]) for line in block.splitlines() if line.split()[0] == tile)


def test_moves_count_and_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(POS / "corridor-5x5.txt")  # revealed tile I3
    code, out, _ = run(capsys, "moves", path, "--count")
    assert code == 0 and out == f"{perft_count('corridor-5x5.txt', 'I3')}\n"
    code, out, _ = run(capsys, "moves", path, "--tile", "D2", "--count")
    assert code == 0 and out == f"{perft_count('corridor-5x5.txt', 'D2')}\n"
    code, out, _ = run(capsys, "moves", path, "--tile", "all", "--count")
    lines = out.splitlines()
    assert code == 0 and [ln.split(":")[0] for ln in lines] == [*ED.tiles, "total"]
    assert lines[-1] == f"total: {sum(perft_count('corridor-5x5.txt', t) for t in ED.tiles)}"
    code, out, _ = run(capsys, "moves", path, "--tile", "all", "--count", "--json")
    data = one_json(out)
    assert data["per_tile"] == {t: perft_count("corridor-5x5.txt", t) for t in ED.tiles}
    assert "placements" not in data and data["count"] == sum(data["per_tile"].values())


def test_moves_json_placements(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(POS / "sigils-5x7.txt")
    code, out, _ = run(capsys, "moves", path, "--tile", "D2", "--json")
    data = one_json(out)
    assert code == 0 and data["count"] == len(data["placements"]) == perft_count("sigils-5x7.txt", "D2")
    keys = set()
    for p in data["placements"]:
        assert set(p) == {"tile", "cells", "sigil", "movement_points"}
        assert p["tile"] == "D2" and p["cells"] == sorted(p["cells"]) and p["sigil"] in p["cells"]
        keys.add((tuple(map(tuple, p["cells"])), tuple(p["sigil"])))
    assert len(keys) == len(data["placements"])
    assert sum(p["movement_points"] for p in data["placements"]) == _perft_points("sigils-5x7.txt", "D2")
    assert "held bonus sigil" in data["note"]  # the garden holds one token, not counted in the list
    code, text, _ = run(capsys, "moves", path, "--tile", "D2")
    assert code == 0 and text.splitlines()[0] == f"D2: {data['count']} legal placement(s)"


def _perft_points(position: str, tile: str) -> int:
    text = (PERFT_DIR / "perft.txt").read_text()
    block = text.split(f"position: {position}\n", 1)[1].split("total:", 1)[0]
    return next(int(line.split()[2]) for line in block.splitlines() if line.split()[0] == tile)


def test_moves_nothing_legal_exits_1_and_still_answers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", str(POS / "split-4x4.txt"), "--json")
    data = one_json(out)
    assert code == 1 and data["count"] == 0 and data["placements"] == []
    code, out, _ = run(capsys, "moves", str(POS / "split-4x4.txt"), "--count")
    assert code == 1 and out == "0\n"


@pytest.mark.parametrize(("args", "fragment"), [
    (["--tile", "Q9"], "unknown tile 'Q9'"),
    (["--tile", "D2,nope"], "unknown tile 'nope'"),
])
def test_moves_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str], fragment: str) -> None:
    code, out, err = run(capsys, "moves", str(POS / "empty-3x3.txt"), *args)
    assert code == 2 and out == "" and fragment in err


def test_moves_without_a_revealed_tile(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "moves", str(POS / "nonsquare-6x8.json"))  # tile null
    assert code == 2 and "--tile" in err
    code, out, _ = run(capsys, "moves", str(POS / "nonsquare-6x8.json"), "--tile", "L3", "--count")
    assert code == 0 and out == f"{perft_count('nonsquare-6x8.json', 'L3')}\n"


@pytest.mark.skipif(importlib.util.find_spec("gnomekit.solver.hedge_mage.sat") is None, reason="no SAT method yet")
def test_moves_sat_prints_the_same_placements(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(POS / "pocket-5x6.txt")
    _, out_e, _ = run(capsys, "moves", path, "--tile", "all", "--json")
    code, out_s, _ = run(capsys, "moves", path, "--tile", "all", "--json", "--method", "sat")
    e, s = one_json(out_e), one_json(out_s)
    assert code == 0 and s["method"] == "sat" and s["per_tile"] == e["per_tile"]
    key = lambda p: (p["tile"], p["cells"], p["sigil"])  # noqa: E731
    assert sorted(s["placements"], key=key) == sorted(e["placements"], key=key)


# ---------------------------------------------------------------------------------------------
# check


def test_check_accepts_what_moves_prints(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(POS / "windows-5x5.txt")  # revealed tile L3
    _, out, _ = run(capsys, "moves", path, "--json")
    placements = one_json(out)["placements"]
    assert len(placements) == perft_count("windows-5x5.txt", "L3") > 0
    for p in placements[:: max(1, len(placements) // 8)]:
        code, out, _ = run(capsys, "check", path, "--place", json.dumps(p), "--json")
        rep = one_json(out)
        assert code == 0 and rep["legal"] and rep["violations"] == []
        assert rep["movement_points"] == p["movement_points"]
        assert rep["placement"] == {k: p[k] for k in ("tile", "cells", "sigil")}


def test_check_legal_and_illegal_text(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(POS / "pocket-5x6.txt")  # revealed tile D2; pocket at 2,2 with its only exit 3,2
    code, out, _ = run(capsys, "check", path, "--place", "D2:R0@0,0")
    # column 1 holds hedge a's sigil 1,1: 1 + its own
    assert code == 0 and out.startswith("legal: D2:R0@0,0") and "movement points: 2 (sigils counted: 0,0 1,1)" in out
    code, out, _ = run(capsys, "check", path, "--place", "D2:R0@3,1")  # covers the exit 3,2
    assert code == 1 and out.startswith("illegal: D2:R0@3,1") and "[cut-off]" in out and "2,2" in out


GARDEN_WITH_MAGE = """hedge-mage garden
size: 5x6
tile: D2
hedges: a=L4 b=D2

   0  1  2  3  4  5
0  .  .W .  .  .  .
1  .  A  a  a  .  .
2  .  a  .  b  .  .
3  .  .  .  B  .  .
4  .  .  .  .  .  .
"""


def test_check_drawing_marks_covered_cells(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # D2 upright with its sigil on the mage at 0,1 and its other cell on hedge a's sigil 1,1
    path = tmp_path / "g.txt"
    path.write_text(GARDEN_WITH_MAGE, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path), "--place", "D2:R90@0,1", "--any-tile")
    lines = out.splitlines()
    assert code == 1 and "  - [covers] cells are not empty ground: 0,1 (mage); 1,1 (hedge L4)" in lines
    assert "0  .  !  .  .  .  ." in lines and "1  .  !  a  a  .  ." in lines
    assert lines[-2] == "(# new hedge cell, @ its sigil, ! a tile cell over something already there)"
    assert lines[-1] == "under !: 0,1 .W (mage, under the tile's sigil); 1,1 A (hedge L4)"
    # nothing covered: the tile's own marks and the plain legend, no "under !" line
    code, out, _ = run(capsys, "check", str(path), "--place", "D2:R0@0,4", "--any-tile")
    lines = out.splitlines()
    assert "0  .  .W .  .  @  #" in lines and lines[-1] == "(# new hedge cell, @ its sigil)"
    assert not any(x.startswith("under !") for x in lines)


def test_check_reports_every_broken_rule(capsys: pytest.CaptureFixture[str]) -> None:
    # D2 on 2,2-3,2 in pocket-5x6 fills the pocket: bushes with a alone, with a and b, and with b alone
    path = str(POS / "pocket-5x6.txt")
    code, out, _ = run(capsys, "check", path, "--place", "D2:R90@2,2", "--json")
    rep = one_json(out)
    assert code == 1 and not rep["legal"] and rep["movement_points"] is None
    windows = sorted(v["cells"] for v in rep["violations"] if v["rule"] == "2x2")
    assert windows == [[[1, 1], [1, 2], [2, 1], [2, 2]], [[1, 2], [1, 3], [2, 2], [2, 3]],
                       [[2, 2], [2, 3], [3, 2], [3, 3]]]
    code, out, _ = run(capsys, "check", path, "--place", "I3:R0@1,4", "--any-tile", "--json")
    rules = {v["rule"] for v in one_json(out)["violations"]}
    assert code == 1 and rules == {"out-of-bounds"}
    code, out, _ = run(capsys, "check", path, "--place", "L3:R0@3,3", "--json")  # wrong tile, covers b
    rules = {v["rule"] for v in one_json(out)["violations"]}
    assert code == 1 and {"wrong-tile", "covers"} <= rules


def test_check_with_held_bonus_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(POS / "sigils-5x7.txt")  # holds 1 bonus sigil token; revealed tile T4 (no legal T4)
    code, out, _ = run(capsys, "check", path, "--place", "D2:R0@0,3", "--json")
    rep = one_json(out)
    # the once-per-game D2 substitution; row 0 holds 0,0 and 0,1, columns 3-4 hold 2,4 and 4,4;
    # + its own sigil + the held token = 6
    assert code == 0 and rep["substitution"] and rep["bonus_token_points"] == 1 and rep["movement_points"] == 6
    code, out, _ = run(capsys, "moves", path, "--tile", "D2", "--json")
    listed = {json.dumps([p["cells"], p["sigil"]]): p["movement_points"] for p in one_json(out)["placements"]}
    assert rep["movement_points"] == listed[json.dumps([rep["placement"]["cells"], rep["placement"]["sigil"]])] + 1
    tok = {**{k: rep["placement"][k] for k in ("tile", "cells", "sigil")}, "tokens": [[4, 6]]}
    code, out, _ = run(capsys, "check", path, "--place", json.dumps(tok), "--json")
    assert code == 1 and {v["rule"] for v in one_json(out)["violations"]} == {"bonus-token"}


@pytest.mark.parametrize(("place", "where"), [
    ("L4R0@1,1", "--place:1:1"),
    ("L4:R45@1,1", "--place:1:4"),
    ('{"tile": "L4", "cells": [[1, 1]], "sigil": [1, 1], "x": 1}', "--place:1:57"),
    ('{"tile": "L4",', "--place:1:15"),
])
def test_check_bad_placement_is_located(capsys: pytest.CaptureFixture[str], place: str, where: str) -> None:
    code, out, err = run(capsys, "check", str(POS / "empty-3x3.txt"), "--place", place)
    assert code == 2 and out == "" and err.startswith(f"gnomekit: error: {where}: ")


def test_check_without_place(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", str(POS / "empty-3x3.txt"))
    assert code == 2 and "--place" in err


# ---------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("verb", [["show"], ["moves"], ["check", "--place", "D2:R0@0,0"]])
def test_missing_file(capsys: pytest.CaptureFixture[str], verb: list[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nofile.txt")
    code, out, err = run(capsys, verb[0], missing, *verb[1:])
    assert code == 2 and out == "" and err == f"gnomekit: error: {missing}: no such file: {missing}\n"
    code, out, err = run(capsys, verb[0], missing, *verb[1:], "--json")
    assert code == 2 and one_json(out)["error"] == "UsageError" and "no such file" in err
    code, out, err = run(capsys, verb[0], str(tmp_path), *verb[1:])
    assert code == 2 and "is a directory" in err


@pytest.mark.parametrize(("content", "where"), [
    ('{"rows": 3,\n  "cols": 4,\n  "tunnels": [[0, 0]]\n  "gnomes": []}', "4:3"),
    ('{"rows": 3, "cols": [4]}', "1:21"),
    ("hedge-mage garden\nsize: 2x2\n\n   0 1\n0  . .\n1  . ?\n", "6:6"),
    ("\n\nnot a garden\n", "3:1"),
])
def test_bad_garden_is_located(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                               tmp_path: Path, content: str, where: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(content)
    for verb in (["show"], ["moves", "--tile", "D2"], ["check", "--place", "D2:R0@0,0"]):
        code, out, err = run(capsys, verb[0], str(p), *verb[1:])
        assert code == 2 and out == "" and err.startswith(f"gnomekit: error: {p}:{where}: ")
        code, out, err = run(capsys, verb[0], str(p), *verb[1:], "--json")
        e = one_json(out)
        assert code == 2 and f"{e['source']}:{e['line']}:{e['column']}" == f"{p}:{where}"
        assert e["error"] == "NotationError"
    code, out, err = run(capsys, "show", "-", stdin=content, monkeypatch=monkeypatch)
    assert code == 2 and err.startswith(f"gnomekit: error: <stdin>:{where}: ")


def test_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "latin1.txt"
    p.write_bytes("hedge-mage garden\nsize: 2x2 \xe9\n".encode("latin-1"))
    code, _, err = run(capsys, "show", str(p))
    assert code == 2 and f"{p}:2:11: expected UTF-8 text, found byte 0xe9" in err  # the byte's line and column


def test_bad_edition_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "ed.toml"
    p.write_text('[garden]\nrows = 10\ncols = "ten"\n[tiles]\nD2 = ["@#"]\n')
    code, out, err = run(capsys, "new", "--edition", str(p))
    assert code == 2 and out == "" and f"{p}:3:1:" in err and "'cols' must be a whole number" in err


def test_argparse_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*HM, "moves", str(POS / "empty-3x3.txt"), "--method", "guess"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main([*HM, "random"])  # --seed is required
    assert exc.value.code == 2
    assert main(HM) == 2  # no verb: help, exit 2
    capsys.readouterr()
