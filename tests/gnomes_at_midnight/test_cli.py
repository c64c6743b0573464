"""The gnomes-at-midnight verbs: text and one JSON object, exit codes 0/1/2, located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gnomekit.cli import main
from tests.gnomes_at_midnight.helpers import base_json


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_show_moves_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "midnight", "new", "--seed", "3", "--json")
    assert code == 0
    d = json.loads(out)
    f = tmp_path / "p.json"
    f.write_text(out)
    code, out, _ = run(capsys, "gnomes-at-midnight", "show", str(f))
    assert code == 0 and out.startswith("gnomes-at-midnight position")
    t = tmp_path / "p.txt"
    t.write_text(out)
    code, out, _ = run(capsys, "midnight", "show", str(t), "--json")
    assert json.loads(out)["gnomes"] == d["gnomes"]
    t.write_text(out)  # show --json reads back
    code, out2, _ = run(capsys, "midnight", "show", str(t), "--json")
    assert code == 0 and json.loads(out2) == json.loads(out)
    code, out, _ = run(capsys, "midnight", "moves", str(f), "--json")
    assert code == 0 and json.loads(out)["count"] == 17
    code, out, _ = run(capsys, "midnight", "check", str(f), "--move", "2,0=2,2", "--json")
    j = json.loads(out)
    assert code == 1 and not j["legal"] and {v["rule"] for v in j["violations"]} == {"not-adjacent",
                                                                                      "pair-needs-two"}
    code, out, _ = run(capsys, "midnight", "check", str(f), "--move", "0,0=1,1")
    assert code == 0 and "legal for green" in out


def test_bad_input_exits_2_with_location(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    d = base_json()
    d["gnomes"]["green"].append([0, 0])
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(d, indent=1))
    code, out, err = run(capsys, "midnight", "show", str(f))
    assert code == 2 and "bad.json:" in err and "at most two gnomes" in err
    code, out, err = run(capsys, "midnight", "check", str(f), "--move", "zz", "--json")
    assert code == 2 and json.loads(out)["error"] == "NotationError"
    code, out, err = run(capsys, "midnight", "show", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err


def test_solve_and_hint(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    d = base_json()
    d.update(gnomes={"green": [[0, 3], [2, 3], [3, 2]], "blue": [[0, 6]]}, off_board={"green": 2, "blue": 0})
    f = tmp_path / "w.json"
    f.write_text(json.dumps(d))
    code, out, _ = run(capsys, "midnight", "solve", str(f), "--json", "--depth", "2", "--probability")
    j = json.loads(out)
    assert code == 0 and j["result"] == "win" and j["turns"] == 1 and j["move"] == "3,2-4,3"
    assert j["probability"] == 1.0
    code, out, _ = run(capsys, "midnight", "hint", str(f))
    assert code == 0 and "3,2-4,3" in out and "toadstools" in out
    code, out, _ = run(capsys, "midnight", "new", "--json")
    f.write_text(out)
    code, out, _ = run(capsys, "midnight", "solve", str(f), "--depth", "1", "--json")
    j = json.loads(out)
    assert code == 1 and j["result"] == "no-win" and j["turns"] is None and j["move"] is None
