"""``gnome-hollow audit`` (issue 14): simulated whole games, figures that add up, witnesses that open,
the same answer on 1 job and on 2."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.gnome_hollow.game import GnomeHollowGame
from gnomekit.solver.gnome_hollow.audit import GameSpec, play_and_observe
from gnomekit.solver.gnome_hollow.play import play_game

from gnomekit import api
from gnomekit.cli import main


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["gnome-hollow", *argv])
    return code, out.getvalue(), err.getvalue()


def _game() -> GnomeHollowGame:
    g = api.game("gnome-hollow")
    assert isinstance(g, GnomeHollowGame)
    return g


def _untimed(data: Any) -> Any:
    """The answer without what may differ between backends (timings and the backend itself)."""
    if isinstance(data, dict):
        return {k: _untimed(v) for k, v in data.items() if k not in ("seconds", "backend")}
    if isinstance(data, list):
        return [_untimed(v) for v in data]
    return data


@pytest.fixture(scope="module")
def one_job(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    folder = tmp_path_factory.mktemp("witnesses")
    code, out, err = cli(["audit", "--games", "1", "--players", "2,3", "--policies", "random", "--seed", "4",
                          "--jobs", "1", "--json", "--witness-dir", str(folder)])
    assert code == 0, err
    return json.loads(out), folder


def test_the_audit_is_the_same_on_one_job_and_two(one_job: tuple[dict[str, Any], Path]) -> None:
    code, out, err = cli(["audit", "--games", "1", "--players", "2,3", "--policies", "random", "--seed", "4",
                          "--jobs", "2", "--json"])
    assert code == 0, err
    assert _untimed(json.loads(out)) == _untimed(one_job[0])


def test_the_figures_add_up(one_job: tuple[dict[str, Any], Path]) -> None:
    data = one_job[0]
    assert [(g["policy"], g["players"]) for g in data["groups"]] == [("random", 2), ("random", 3)]
    for g in data["groups"]:
        assert g["games"] == 1
        assert sum(g["scores"]["wins_by_seat"]) == pytest.approx(1, abs=0.01)  # shares rounded
        assert len(g["scores"]["wins_by_seat"]) == g["players"]
        assert sum(g["end"]["conditions"].values()) >= 1  # every game ends by at least one condition
        assert g["turns_with_no_legal_placement"] <= g["turns_with_no_offered_tile_placeable"]
        assert g["end"]["turn"]["max"] <= g["turns"]["max"]
    ed = _game().edition
    for tid, v in data["tiles_never_placed"].items():
        assert tid in ed.all_tiles and v["kind"] in ("garden", "wildflower")
    for space in data["ring_board_spaces_never_taken"]:
        size, row = space.split(".")
        assert any(c.size == int(size) and 1 <= int(row) <= len(c.rows) for c in ed.columns)


def test_every_witness_opens(one_job: tuple[dict[str, Any], Path]) -> None:
    """Each record replays (``play --replay``) and each position reads back (``show``)."""
    data, folder = one_job
    assert data["witnesses"], "a game always has an end and a score spread"
    replayed: set[tuple[int, int]] = set()
    for key, w in data["witnesses"].items():
        rec = folder / f"{key}.record.json"
        assert json.loads(rec.read_text()) == w["record"]
        if (w["players"], w["seed"]) not in replayed:  # the same game twice needs no second replay
            replayed.add((w["players"], w["seed"]))
            code, out, err = cli(["play", "--replay", str(rec)])
            assert code == 0 and "every move legal" in out, (key, err)
        if "position" in w:
            code, _out, err = cli(["show", str(folder / f"{key}.position.json")])
            assert code == 0, (key, err)


def test_an_audit_game_is_the_game_play_plays(one_job: tuple[dict[str, Any], Path]) -> None:
    """A witness record is the one ``play --players N --seed S --policy P`` writes (the same game)."""
    w = next(iter(one_job[0]["witnesses"].values()))
    res = play_game(_game(), w["players"], w["seed"], w["policy"])
    assert res.record == w["record"]


def test_the_walk_sees_the_record() -> None:
    """The figures of one game come from its record: the end's turn, conditions, turn counts."""
    o = play_and_observe(_game(), GameSpec(7, "random", 2))
    turns = o.record["turns"]
    assert o.turns + o.finals == len(turns) and o.finals == 2
    assert 1 <= o.end_turn <= o.turns and o.end_kinds
    assert set(o.no_placement) <= set(o.no_offered)
    assert o.placed == {t.tile for t in o.final.tiles[1:]}


@pytest.mark.parametrize(("argv", "option"), [
    (["--players", "5"], "--players"), (["--players", "x"], "--players"), (["--players", "4-2"], "--players"),
    (["--policies", "clever"], "--policies"), (["--games", "0"], "--games"), (["--jobs", "0"], "--jobs"),
    (["--max-states", "0"], "--max-states"),
])
def test_bad_options_name_the_option(argv: list[str], option: str) -> None:
    code, _out, err = cli(["audit", *argv])
    assert code == 2 and option in err and "Traceback" not in err


def test_compare_shows_what_an_edition_change_moves(tmp_path: Path) -> None:
    """A designer doubles the first flower's points: the scores move, the placements do not."""
    code, toml, _ = cli(["edition", "--dump"])
    assert code == 0
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(toml)
    old = "track = [0, 1, 3, 6, 10, 15, 21, 28, 36]"
    assert old in toml
    b.write_text(toml.replace(old, "track = [0, 5, 7, 10, 14, 19, 25, 32, 40]"))
    code, out, err = cli(["audit", "--games", "1", "--players", "2", "--policies", "random", "--jobs", "1",
                          "--json", "--compare", str(a), str(b)])
    assert code == 0, err
    data = json.loads(out)
    moved = {d["figure"] for d in data["differences"]}
    assert "groups[0].scores.winner.mean" in moved
    assert not any("placement" in f or "end.turn" in f for f in moved)
