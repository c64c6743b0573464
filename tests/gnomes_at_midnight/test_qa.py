"""Regression tests for what the independent review of Gnomes at Midnight found."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gnomekit.cli import main


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else out), err


def _new(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code, data, _err = _run(capsys, ["midnight", "new", "--json", *extra])
    assert code == 0
    return data  # type: ignore[no-any-return]


def test_mini_json_without_edition_flag_reshuffles_the_mini_deck(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """A position from `new --edition mini --json` read without --edition used to reshuffle the default
    edition's 6-card decks (2 per terrain) instead of mini's 3 cards: a forced win in 3 was missed."""
    d = _new(capsys, "--edition", "mini")
    d.update(gnomes={"green": [[0, 0], [1, 1], [3, 1]], "blue": [[0, 4], [3, 4], [3, 4]]},
             moon={"green": "cobblestone", "blue": None}, decks={"green": [], "blue": []})
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(d))
    for decks in ("open", "hidden"):
        code, plain, _ = _run(capsys, ["midnight", "solve", str(path), "--depth", "3", "--decks", decks, "--json"])
        code2, flagged, _ = _run(capsys, ["midnight", "solve", str(path), "--depth", "3", "--decks", decks,
                                          "--json", "--edition", "mini"])
        assert (code, plain["result"], plain["turns"]) == (code2, flagged["result"], flagged["turns"]) == (0, "win", 3)
    # an explicit --edition still wins over the position's edition name (and here changes the answer)
    code, other, _ = _run(capsys, ["midnight", "solve", str(path), "--depth", "3", "--json", "--edition", "default"])
    assert (code, other["result"], other["turns"]) == (1, "no-win", None)


@pytest.mark.parametrize("key,value,where", [
    ("flowers", {"green": [[0, 0], [2, 0], [4, 0]], "blue": [[0, 6], [0, 0], [4, 6]]}, "flowers.blue[1]"),
    ("flowers", {"green": [[0, 0], [2, 0], [0, 0]], "blue": [[0, 6], [2, 6], [4, 6]]}, "flowers.green[2]"),
    ("toadstools", [[0, 3], [2, 3], [2, 3]], "toadstools[2]"),
])
def test_board_squares_listed_badly_are_located(capsys: pytest.CaptureFixture[str], tmp_path: Path, key: str,
                                                value: object, where: str) -> None:
    """These used to be reported at line 1, column 1 ("not well formed"); now at the offending square."""
    d = _new(capsys)
    d[key] = value
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(d, indent=1))
    code, _out, err = _run(capsys, ["midnight", "moves", str(path)])
    assert code == 2
    assert where in err and "expected" in err and "Traceback" not in err
    line = err.split(f"{path}:", 1)[1].split(":", 1)[0]
    assert int(line) > 1


def test_no_toadstools_means_no_toadstool_win(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Documented choice: an empty toadstool list is accepted and never met vacuously."""
    d = _new(capsys)
    d["toadstools"] = []
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(d))
    code, data, _ = _run(capsys, ["midnight", "moves", str(path), "--json"])
    assert code == 0 and data["count"] == 17
    assert all(m["wins"] == [] for m in data["moves"])


def test_move_objects_from_moves_json_are_read_by_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`check --move` used to reject the move objects `moves --json` writes (exit 2 on "bumps")."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(_new(capsys)))
    code, data, _ = _run(capsys, ["midnight", "moves", str(path), "--json"])
    assert code == 0 and data["moves"]
    for m in data["moves"]:
        code, ans, _ = _run(capsys, ["midnight", "check", str(path), "--move", json.dumps(m), "--json"])
        assert code == 0 and ans["legal"] and ans["move"]["text"] == m["text"]


@pytest.mark.parametrize("move,key", [('{"kind": "add", "from": [1, 1], "to": [2, 0]}', "from"),
                                      ('{"kind": "pass", "to": [1, 1]}', "to"),
                                      ('{"kind": "step", "from": [0, 0], "to": [0, 1], "by": 1}', "by")])
def test_contradictory_move_objects_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, move: str,
                                           key: str) -> None:
    """An add with a source or a pass with squares was silently accepted; now exit 2, located."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(_new(capsys)))
    code, _out, err = _run(capsys, ["midnight", "check", str(path), "--move", move])
    assert code == 2 and "--move:1:" in err and f"{key}: expected" in err


def test_tablebase_refuses_the_default_edition(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve --tablebase` on a default-edition position used to crash with a numpy MemoryError traceback
    (it tried to pair 634698 x 634698 placements); now exit 2 with what is supported."""
    from gnomekit.solver.gnomes_at_midnight.tablebase import side_placements

    assert side_placements(20, 3) == 1751 and side_placements(35, 5) == 634698
    monkeypatch.setenv("GNOMEKIT_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(_new(capsys)))
    code, _out, err = _run(capsys, ["midnight", "solve", str(path), "--tablebase"])
    assert code == 2 and "small editions" in err and "--edition mini" in err
