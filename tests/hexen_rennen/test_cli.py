"""The CLI: exit codes, JSON keys of the issue, located errors, positions built from `new --json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gnomekit.models.hexen_rennen.notation import position_to_json, position_to_text

from gnomekit.cli import main
from tests.hexen_rennen.hexen_build import ED, make


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["hexen-rennen", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


EXAMPLE = make({13: "w10", 23: "W4", 27: "FS", 20: "IS", 15: "F6"},
               {"weather": [10, 0, 0], "fog": [0, 0, 0], "ice": [0, 0, 0]},
               {"weather": [], "fog": [7], "ice": [5, 9]}, players=("weather", "fog", "ice"))


def test_new_json_and_solve_json(tmp_path: Path, capsys) -> None:
    code, out, _ = run(capsys, "new", "--players", "3", "--seed", "4", "--json")
    assert code == 0
    d = json.loads(out)
    assert set(d) >= {"track", "witches", "hands", "to_move", "players"}
    # the checker's way: replace keys in new's JSON
    d["witches"] = {"weather": [10, 0, 0], "fog": [0, 0, 0], "ice": [0, 0, 0]}
    d["track"] = position_to_json(EXAMPLE, ED)["track"]
    d["hands"] = {"weather": [], "fog": [7], "ice": [5, 9]}
    f = tmp_path / "p.json"
    f.write_text(json.dumps(d))
    code, out, _ = run(capsys, "solve", str(f), "--roll", "3", "--json")
    s = json.loads(out)
    assert code == 0 and s["value"] == 11 and s["witch"] == 10 and s["chain"] == [10, 13, 23, 27, 20, 11]
    assert s["cooperative"]["value"] == 27


def test_solve_no_move_exit_1(tmp_path: Path, capsys) -> None:
    pos = make({}, {"weather": [47, 49]}, {})
    f = tmp_path / "p.txt"
    f.write_text(position_to_text(pos, ED))
    code, out, _ = run(capsys, "solve", str(f), "--roll", "6", "--json")
    s = json.loads(out)
    assert code == 1 and s["value"] is None and s["witch"] is None


def test_check_exit_codes_and_reasons(tmp_path: Path, capsys) -> None:
    f = tmp_path / "p.txt"
    f.write_text(position_to_text(EXAMPLE, ED))
    code, out, _ = run(capsys, "check", str(f), "--roll", "3", "--turn", "10 fog:7 ice:5", "--json")
    d = json.loads(out)
    assert code == 0 and d["legal"] and d["chain"] == [10, 13, 23, 27, 20, 15] and d["value"] == 15
    code, out, _ = run(capsys, "check", str(f), "--roll", "3", "--turn", "10 fog:8")
    assert code == 1 and "fog holds no 8 card" in out
    code, _, err = run(capsys, "check", str(f), "--roll", "3", "--turn", "10 fog:eleven")
    assert code == 2 and "--turn:1:" in err


def test_bad_input_is_located_exit_2(tmp_path: Path, capsys) -> None:
    f = tmp_path / "p.json"
    d = position_to_json(EXAMPLE, ED)
    d["witches"]["fog"] = [10]
    f.write_text(json.dumps(d, indent=2))
    code, out, err = run(capsys, "show", str(f))
    assert code == 2 and "two witches" in err and f"{f}:" in err and "Traceback" not in err
    code, _, err = run(capsys, "solve", str(tmp_path / "missing.txt"), "--roll", "3")
    assert code == 2 and "no such file" in err
    f.write_text(position_to_text(EXAMPLE, ED))
    code, _, err = run(capsys, "solve", str(f), "--roll", "7")
    assert code == 2


@pytest.mark.parametrize("verb", [["show"], ["moves", "--roll", "3"], ["hint", "--roll", "3"],
                                  ["solve", "--expect"], ["moves", "--roll", "3", "--count"]])
def test_verbs_print_text_and_one_json_object(tmp_path: Path, capsys, verb) -> None:
    f = tmp_path / "p.txt"
    f.write_text(position_to_text(EXAMPLE, ED))
    code, out, _ = run(capsys, verb[0], str(f), *verb[1:])
    assert code == 0 and out.strip()
    code, out, _ = run(capsys, verb[0], str(f), *verb[1:], "--json")
    assert code == 0 and isinstance(json.loads(out), dict)


def test_random_play_and_audit(capsys) -> None:
    code, out, _ = run(capsys, "random", "--seed", "3", "--players", "2", "--json")
    assert code == 0 and json.loads(out)["players"] == ["weather", "fog"]
    code, out, _ = run(capsys, "play", "--players", "2", "--seed", "1", "--policy", "greedy", "--json")
    d = json.loads(out)
    assert code == 0 and d["finished"] and d["record"] and set(d["scores"]) == {"weather", "fog"}
    code, out, _ = run(capsys, "audit", "--games", "2", "--players", "3", "--json")
    d = json.loads(out)
    assert code == 0 and d["games"] == 2 and d["longest_chain"]["landings"] >= 1
