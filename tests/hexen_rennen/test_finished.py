"""A finished race through every verb: ``show`` says it is over, nothing else plays a turn on it.

Fog is to move on purpose: fog's witches could still move, so a verb that forgot the end of the race
would answer a turn for fog (as ``solve``, ``moves`` and ``check`` once did, with exit 0).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from gnomekit.models.hexen_rennen.game import make_game
from gnomekit.models.hexen_rennen.notation import parse_turn, position_to_text, turn_to_text
from gnomekit.models.hexen_rennen.turn import replay
from gnomekit.solver.hexen_rennen.moves import all_turns

from gnomekit.cli import main
from tests.hexen_rennen.hexen_build import ED, make

G = make_game()
OVER = make({}, {"weather": [49, 50, 51], "fog": [0, 3, 12]}, {"fog": [2, 5]}, players=("weather", "fog"),
            to_move="fog")
SENTENCE = "the race is over: weather has every witch on the finish board"
RESULT = "weather wins: weather 9, fog 0"
MID = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "hexen-mid.txt")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["hexen-rennen", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def over_file(tmp_path: Path) -> Path:
    f = tmp_path / "over.txt"
    f.write_text(position_to_text(OVER, ED))
    return f


def test_the_position_is_over_and_fog_could_otherwise_move() -> None:
    assert G.position(OVER).is_terminal()
    running = make({}, {"weather": [49, 50, 20], "fog": [0, 3, 12]}, {"fog": [2, 5]},
                   players=("weather", "fog"), to_move="fog")
    assert replay(running, ED, 3, parse_turn("12", ED)).legal  # the same turn before the end


def test_show_says_the_race_is_over_and_reads_back(over_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(over_file))
    assert code == 0 and f"# {SENTENCE} ({RESULT})" in out
    assert G.read(out).base == OVER
    code, out, _ = run(capsys, "show", str(over_file), "--json")
    d = json.loads(out)
    assert code == 0 and d["result"] == "weather wins" and d["winners"] == ["weather"]
    assert d["scores"] == {"weather": 9, "fog": 0}
    assert G.read(out).base == OVER  # result and winners are skipped on reading


def test_show_of_a_finished_race_validates_against_the_schema(over_file: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``result`` and ``winners`` are in the schema (``docs/make_schemas.py``), which refuses unknown keys."""
    jsonschema = pytest.importorskip("jsonschema")
    _, out, _ = run(capsys, "show", str(over_file), "--json")
    doc = json.loads((Path(MID).parents[1] / "schemas" / "hexen-rennen-position.schema.json").read_text())
    assert [e.message for e in jsonschema.Draft202012Validator(doc).iter_errors(json.loads(out))] == []


def test_show_of_a_running_race_says_nothing_of_an_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", MID, "--json")
    assert code == 0 and "result" not in json.loads(out) and "winners" not in json.loads(out)


@pytest.mark.parametrize("roll", [[], ["--roll", "3"]])
def test_moves_lists_none_and_says_why(over_file: Path, capsys: pytest.CaptureFixture[str], roll: list[str]) -> None:
    code, out, _ = run(capsys, "moves", str(over_file), *roll)
    assert code == 1 and out == f"no legal turn: {SENTENCE} ({RESULT})\n0 legal turn(s)\n"
    code, out, _ = run(capsys, "moves", str(over_file), *roll, "--count")
    assert code == 1 and out == "0\n"
    code, out, _ = run(capsys, "moves", str(over_file), *roll, "--json")
    d = json.loads(out)
    assert code == 1 and d["count"] == 0 and d["turns"] == [] and d["reason"] == f"{SENTENCE} ({RESULT})"


def test_the_move_generator_lists_no_turn_on_a_finished_race() -> None:
    """``all_turns`` (the library under ``moves``): no chain and no pass, for every face of the die, while
    the same position one witch short of the finish lists fog's turns (fog's witches could move)."""
    running = make({}, {"weather": [49, 50, 20], "fog": [0, 3, 12]}, {"fog": [2, 5]},
                   players=("weather", "fog"), to_move="fog")
    for roll in ED.die:
        turns = all_turns(OVER, ED, roll)
        assert (turns.count, turns.turns, turns.complete) == (0, [], True), roll
        assert all_turns(OVER, ED, roll, limit=0).count == 0
        live = all_turns(running, ED, roll)
        assert live.count == len(live.turns) >= 1 and all(t.plan.witch is not None for t in live.turns), roll
    assert "12" in [turn_to_text(t.plan) for t in all_turns(running, ED, 3).turns]


def test_moves_still_checks_a_roll_given(over_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "moves", str(over_file), "--roll", "9")
    assert code == 2 and "--roll 9" in err


@pytest.mark.parametrize("turn", ["12", "pass", "start"])
def test_check_rejects_every_turn_with_the_rule(over_file: Path, capsys: pytest.CaptureFixture[str],
                                                turn: str) -> None:
    code, out, _ = run(capsys, "check", str(over_file), "--roll", "3", "--turn", turn)
    assert code == 1 and out == f"illegal at roll:\n  - {SENTENCE}\n"
    code, out, _ = run(capsys, "check", str(over_file), "--roll", "3", "--turn", turn, "--json")
    d = json.loads(out)
    assert code == 1 and not d["legal"] and d["error_at"] == "roll" and d["reasons"] == [SENTENCE]
    assert d["position"] is None and d["value"] is None


def test_replay_and_the_protocol_give_the_same_violation() -> None:
    rep = replay(OVER, ED, 3, parse_turn("12", ED))
    assert not rep.legal and [(v.rule, v.message) for v in rep.violations] == [("game-over", SENTENCE)]
    assert [(v.rule, v.message) for v in G.position(OVER).check("roll 3").violations] == [("game-over", SENTENCE)]


@pytest.mark.parametrize("verb", [["solve", "--roll", "3"], ["solve", "--expect"], ["solve", "--roll", "3", "--expect"],
                                  ["solve"], ["hint", "--roll", "3"], ["hint"]])
def test_solve_and_hint_have_nothing_to_decide(over_file: Path, capsys: pytest.CaptureFixture[str],
                                               verb: list[str]) -> None:
    code, out, err = run(capsys, verb[0], str(over_file), *verb[1:])
    assert code == 2 and out == ""
    assert err == f"gnomekit: error: {over_file}: {SENTENCE} ({RESULT}); there is nothing to decide\n"
    code, out, _ = run(capsys, verb[0], str(over_file), *verb[1:], "--json")
    d = json.loads(out)
    assert code == 2 and d["source"] == str(over_file) and "nothing to decide" in d["message"]


def test_stdin_is_named_as_the_reader_names_it(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(position_to_text(OVER, ED)))
    code, _, err = run(capsys, "hint", "-", "--roll", "3")
    assert code == 2 and err.startswith("gnomekit: error: <stdin>: the race is over") and "<input>" not in err


def test_a_missing_option_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", MID, "--turn", "start")
    assert code == 2 and err == "gnomekit: error: --roll R needed: check answers for one die roll\n"
    code, _, err = run(capsys, "check", MID, "--roll", "3")
    assert code == 2 and err.startswith("gnomekit: error: --turn T needed") and "<input>" not in err
