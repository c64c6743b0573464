"""The end of the game by the rules (issue 18): the end conditions, the round finished, tile
placement stopped, one final gnome action per player, final scores with the tie-break, the phase
in text and JSON (with the format version, issue 17), and ``show``'s scores."""

from __future__ import annotations

import contextlib
import io
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.errors import IllegalMoveError, NotationError
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.game import Pass, make_game
from gnomekit.models.gnome_hollow.notation import (
    position_from_json,
    position_from_text,
    position_to_json,
    position_to_text,
    read_position,
)
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.position import PlayerState
from gnomekit.models.gnome_hollow.scoring import Turn, apply_turn, final_scores, random_turn
from gnomekit.models.gnome_hollow.setup import new_position, random_position

from gnomekit.cli import main

ED = default_edition()
G = make_game()


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["gnome-hollow", *args])
    return code, out.getvalue(), err.getvalue()


def _whole_game(seed: int, players: int) -> list:
    """Every table of a random game from setup to the end (one per turn)."""
    pos = new_position(ED, players, seed)
    rng = random.Random(seed)
    out = [pos]
    while pos.phase != "over":
        pos = random_turn(pos, ED, rng)
        out.append(pos)
        assert len(out) < 400
    return out


@pytest.mark.parametrize("seed,players", [(5, 2), (2, 3), (3, 4)])
def test_a_random_game_ends_by_the_rules(seed: int, players: int) -> None:
    tables = _whole_game(seed, players)
    phases = [t.phase for t in tables]
    assert phases[0] == "play" and phases[-1] == "over"
    # the phases come in order, each once
    seen = list(dict.fromkeys(phases))
    assert seen in (["play", "end-triggered", "final-actions", "over"], ["play", "final-actions", "over"])
    placing = [a for a, b in zip(tables, tables[1:], strict=False) if a.final_actions is None]
    assert len(placing) % players == 0  # the round was finished: everyone had the same number of turns
    finals = [a for a in tables if a.phase == "final-actions"]
    assert len(finals) == players and [a.to_move for a in finals] == list(range(players))
    for a, b in zip(tables, tables[1:], strict=False):
        if a.final_actions is not None:
            assert b.tiles == a.tiles and b.offered == a.offered  # no tile placement after the end
    first_end = next(t for t in tables if t.end_triggered)
    assert not first_end.sunset  # the Sunset tiles went into the bag
    last = tables[-1]
    assert last.final_actions == players and last.to_move == 0
    with pytest.raises(IllegalMoveError) as exc:
        apply_turn(last, ED, Turn(()))
    assert exc.value.violations[0].rule == "game-over"


def test_tile_placement_ends_with_the_round() -> None:
    tables = _whole_game(5, 2)
    fin = next(t for t in tables if t.phase == "final-actions")
    p = Placement(fin.offered[0], (9, 9), 0)
    with pytest.raises(IllegalMoveError) as exc:
        apply_turn(fin, ED, Turn((p,)))
    assert exc.value.violations[0].rule == "game-end"
    nxt, _g, _r = apply_turn(fin, ED, Turn(()))  # a final action may be skipped (no gnome moved)
    assert nxt.final_actions == 1 and nxt.to_move == 1


def test_the_random_verb_stops_at_the_end() -> None:
    code, out, _ = _cli("random", "--seed", "5", "--turns", "1000")
    pos = read_position(out, "out", ED)
    assert code == 0 and pos.phase == "over"
    assert pos == random_position(ED, 5, 400)


def test_final_scores_and_the_tie_break() -> None:
    pos = new_position(ED, 3, 0)
    players = (PlayerState("red", mushrooms={"red": 1}, flowers=("clover", "lily")),
               PlayerState("blue", mushrooms={"red": 3}, flowers=("rose", "daisy")),
               PlayerState("green", treasures={"bottlecap": 1}))
    pos = replace(pos, players=players, end_triggered=True, final_actions=3, sunset=())
    rows = final_scores(pos, ED)
    assert [(r["player"], r["flowers"], r["rings"], r["treasure"], r["total"], r["rank"]) for r in rows] == [
        ("red", 3, 0, 0, 3, 2), ("blue", 3, 0, 0, 3, 1), ("green", 0, 0, 1, 1, 3)]
    gp = G.position(pos)
    assert gp.is_terminal() and gp.result() == "blue wins" and gp.scores() == {"red": 3, "blue": 3, "green": 1}
    assert gp.legal_moves() == []


@pytest.mark.parametrize("phase", ["play", "end-triggered", "final-actions", "over"])
def test_every_phase_round_trips_in_text_and_json(phase: str) -> None:
    tables = _whole_game(3, 4)  # 4 players: the bag runs out mid-round, so every phase occurs
    pos = next(t for t in tables if t.phase == phase)
    text = position_to_text(pos, ED)
    lines = text.splitlines()
    assert lines[:2] == ["gnome-hollow position", "format: 1"] and f"phase: {phase}" in lines
    assert ("final-actions: " + str(pos.final_actions) in lines) == (phase == "final-actions")
    assert position_from_text(text, "t", ED) == pos
    data = position_to_json(pos, ED)
    assert list(data)[:2] == ["game", "format"] and data["format"] == 1 and data["phase"] == phase
    assert position_from_json(json.dumps(data), "j", ED) == pos
    gp = G.position(pos)
    assert G.read(gp.to_text()) == gp and G.read(json.dumps(gp.to_json())) == gp
    assert gp.is_terminal() == (phase == "over")


def test_files_without_a_phase_or_a_format_still_read() -> None:
    pos = _whole_game(5, 2)
    fin = next(t for t in pos if t.phase == "final-actions")
    text = position_to_text(fin, ED).replace("format: 1\n", "").replace("phase: final-actions\n",
                                                                       "end-triggered: yes\n")
    assert "final-actions: 0" in text
    assert position_from_text(text.replace("final-actions: 0\n", ""), "old", ED) == fin  # as written before
    play = position_to_text(pos[0], ED).replace("format: 1\n", "").replace("phase: play", "end-triggered: no")
    assert position_from_text(play, "old", ED) == pos[0]
    data = position_to_json(pos[0], ED)
    del data["format"], data["phase"]
    data["end_triggered"] = False
    assert position_from_json(json.dumps(data), "old", ED) == pos[0]
    # the format line may stand anywhere a key line may
    moved = position_to_text(pos[0], ED).replace("format: 1\n", "").replace("pots: -\n", "pots: -\nformat: 1\n")
    assert position_from_text(moved, "m", ED) == pos[0]


def test_a_newer_format_or_a_bad_phase_is_refused_with_its_place() -> None:
    text = position_to_text(new_position(ED, 2, 0), ED)
    cases = [(text.replace("format: 1", "format: 2"), 2, 9, "format 1"),
             (text.replace("phase: play", "phase: dusk"), 10, 8, "a phase"),
             (text.replace("phase: play", "phase: play\nend-triggered: yes"), 11, 16, "end-triggered no"),
             (text.replace("phase: play", "phase: play\nfinal-actions: 1"), 11, 16, "no final-actions")]
    for bad, line, col, words in cases:
        with pytest.raises(NotationError) as exc:
            position_from_text(bad, "p.txt", ED)
        assert (exc.value.line, exc.value.column) == (line, col) and words in exc.value.message, exc.value
    data = position_to_json(new_position(ED, 2, 0), ED)
    for key, value in (("format", 2), ("format", None), ("phase", "dusk"), ("final_actions", 1)):
        bad_json = json.dumps({**data, key: value}, indent=1)
        with pytest.raises(NotationError) as exc:
            position_from_json(bad_json, "p.json", ED)
        assert exc.value.line is not None and f'"{key}"' in bad_json.splitlines()[exc.value.line - 1]


def test_show_prints_the_scores_and_at_the_end_the_winner(tmp_path: Path) -> None:
    tables = _whole_game(5, 2)
    mid = tables[len(tables) // 2]
    f = tmp_path / "mid.txt"
    f.write_text(position_to_text(mid, ED))
    code, out, _ = _cli("show", str(f))
    assert code == 0 and "# phase: play" in out and "# scores now:" in out and "# winner" not in out
    rows = final_scores(mid, ED)
    assert f"#   red: flowers {rows[0]['flowers']} + rings {rows[0]['rings']} + treasure {rows[0]['treasure']} = " \
           f"{rows[0]['total']}" in out
    assert read_position(out, "out", ED) == mid
    end = tables[-1]
    f.write_text(position_to_text(end, ED))
    code, out, _ = _cli("show", str(f))
    winners = [r["player"] for r in final_scores(end, ED) if r["rank"] == 1]
    assert "# final scores:" in out and f"# winner: {' and '.join(winners)}" in out
    code, js, _ = _cli("show", str(f), "--json")
    data = json.loads(js)
    assert data["phase"] == "over" and data["winners"] == winners
    assert [r["total"] for r in data["scores"]] == [r["total"] for r in final_scores(end, ED)]
    assert read_position(js, "out.json", ED) == end  # the output-only keys are read back and skipped


def test_the_verbs_respect_the_phase(tmp_path: Path) -> None:
    tables = _whole_game(5, 2)
    fin = next(t for t in tables if t.phase == "final-actions")
    f = tmp_path / "fin.txt"
    f.write_text(position_to_text(fin, ED))
    code, out, _ = _cli("check", str(f), "--place", f"{fin.offered[0]}@9,9:r0", "--any-tile")
    assert code == 1 and "[game-end] tile placement has ended" in out
    code, out, _ = _cli("moves", str(f))
    assert code == 0 and out.splitlines()[0] == "pass" and all(not m[0].isupper() for m in out.splitlines()[:-1])
    code, out, _ = _cli("solve", str(f))
    assert code == 0 and "place: -" in out
    nets = fin.networks(ED)
    opens = nets.open_networks()
    if opens:
        ref = sorted((nets.cell[e], nets.pidx[e]) for e in nets.members(opens[0]) if nets.pidx[e] >= 0)[0]
        code, out, _ = _cli("solve", str(f), "--close", f"{ref[0][0]},{ref[0][1]}.{ref[1]}")
        assert code == 1 and out.startswith("no: tile placement has ended")
    f.write_text(position_to_text(tables[-1], ED))
    for verb in ("solve", "hint"):
        code, _out, err = _cli(verb, str(f))
        assert code == 2 and "the game is over" in err
    code, out, _ = _cli("moves", str(f))
    assert code == 1
    gp = G.position(fin)
    assert gp.legal_moves()[0] == Pass() and gp.phase == "action" and gp.game_phase == "final-actions"
