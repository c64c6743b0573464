"""Whole games (issue 18): ``gnome-hollow play`` ends every game by the rules with final scores and
a winner, and its records replay; ``play --replay`` reports the first illegal step, located."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path

import pytest
from gnomekit.models.gnome_hollow.game import make_game
from gnomekit.models.gnome_hollow.scoring import final_scores
from gnomekit.solver.gnome_hollow.play import RecordError, play_game, replay

from gnomekit.cli import main
from tests.marks import first_by_default

G = make_game()


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["gnome-hollow", *args])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("players", first_by_default([2, 3, 4], 1))
def test_random_games_end_by_the_rules_and_replay(players: int) -> None:
    res = play_game(G, players, seed=players, policies="random")
    assert res.final.is_terminal() and res.final.start.phase == "over"
    assert res.scores == final_scores(res.final.start, G.edition) and res.winners
    turns = res.record["turns"]
    finals = [t for t in turns if t.get("final")]
    assert [t["player"] for t in finals] == [p.name for p in res.final.start.players]  # one each, in turn order
    assert (len(turns) - len(finals)) % players == 0  # everyone had the same number of placing turns
    assert all(not any("@" in m for m in t["moves"]) for t in finals)  # no tile after the end
    again = replay(json.loads(json.dumps(res.record)), G)
    assert again.scores == res.scores and again.winners == res.winners and again.end == res.end
    assert play_game(G, players, seed=players, policies="random").record == res.record  # reproducible


def test_solver_policies_play_whole_games() -> None:
    res = play_game(G, 2, seed=1, policies="greedy,hint", max_states=300)
    assert res.final.is_terminal() and res.fallbacks == 0
    assert sum(s["total"] for s in res.scores) > 0
    assert replay(res.record, G).scores == res.scores


def _bad(record: dict, path: tuple, rules: bool, words: str) -> None:
    with pytest.raises(RecordError) as exc:
        replay(record, G)
    assert exc.value.path == path and exc.value.rules == rules and words in exc.value.message, exc.value


def test_replay_reports_the_first_illegal_step() -> None:
    rec = play_game(G, 2, seed=0).record
    bad = copy.deepcopy(rec)
    bad["turns"][3]["moves"][1] = bad["turns"][3]["moves"][0]
    _bad(bad, ("turns", 3, "moves", 1), True, "illegal move")
    bad = copy.deepcopy(rec)
    bad["turns"][1]["player"] = "red"
    _bad(bad, ("turns", 1, "player"), True, "blue is to move")
    bad = copy.deepcopy(rec)
    del bad["turns"][-1]
    _bad(bad, ("turns",), True, "before the game is over")
    bad = copy.deepcopy(rec)
    bad["turns"][0]["moves"] = bad["turns"][0]["moves"][:-1]
    _bad(bad, ("turns", 0, "moves"), True, "not finished")
    bad = copy.deepcopy(rec)
    bad["result"]["winners"] = ["nobody"]
    _bad(bad, ("result", "winners"), True, "the winner of this game")
    bad = copy.deepcopy(rec)
    bad["turns"][0]["moves"][0] = "G1@x"
    _bad(bad, ("turns", 0, "moves", 0), False, "expected a placement")
    bad = copy.deepcopy(rec)
    draw = next(j for j, m in enumerate(bad["turns"][0]["moves"]) if m.startswith("draw"))
    bad["turns"][0]["moves"][draw] = "draw " + bad["turns"][0]["moves"][0].split("@")[0]
    _bad(bad, ("turns", 0, "moves", draw), True, "not in the bag")


def test_play_and_replay_on_the_command_line(tmp_path: Path) -> None:
    f = tmp_path / "game.json"
    code, out, _ = _cli("play", "--players", "3", "--seed", "4", "--record", str(f))
    assert code == 0 and "wins" in out.splitlines()[-2] and f"record written to {f}" in out
    code, out, _ = _cli("play", "--replay", str(f))
    assert code == 0 and out.startswith("record OK: ")
    code, js, _ = _cli("play", "--replay", str(f), "--json")
    assert code == 0 and json.loads(js)["legal"] is True
    rec = json.loads(f.read_text())
    rec["turns"][5]["moves"][0] = rec["turns"][4]["moves"][0]
    f.write_text(json.dumps(rec, indent=1))
    code, out, _ = _cli("play", "--replay", str(f))
    assert code == 1 and out.startswith(f"bad record: {f}:") and "turns[5].moves[0]: illegal move" in out
    line = int(out.split(f"{f}:")[1].split(":")[0])
    assert '"' + rec["turns"][4]["moves"][0] + '"' in f.read_text().splitlines()[line - 1]
    f.write_text("{\"game\": \"gnome-hollow\", \"record\": 1, \"players\": 2, \"seed\": 0, \"turns\": 3}")
    code, _, err = _cli("play", "--replay", str(f))
    assert code == 2 and "turns: a list of turns" in err and f"{f}:1:" in err
    code, js, _ = _cli("play", "--games", "2", "--json")
    data = json.loads(js)
    assert code == 0 and len(data["games"]) == 2 and sum(data["wins"].values()) == pytest.approx(2)
    for args, option in ((["--players", "5"], "--players"), (["--policy", "clever"], "--policy"),
                         (["--policy", "random,greedy,hint"], "--policy"), (["--games", "0"], "--games"),
                         (["--variant", "moon"], "--variant"), (["--max-states", "-1"], "--max-states")):
        code, _, err = _cli("play", *args)
        assert code == 2 and option in err, (args, err)
