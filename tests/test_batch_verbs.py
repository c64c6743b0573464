"""The verbs issue 14 added: Midnight's audit, puzzles check, edition --dump, --compare, play --games."""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.gnomes_at_midnight.edition import load_edition
from gnomekit.models.gnomes_at_midnight.game import MidnightGame
from gnomekit.solver.core.batch import INLINE, Backend, BatchError
from gnomekit.solver.gnomes_at_midnight.audit import GameSpec, audit, play_game, replay_game
from gnomekit.solver.gnomes_at_midnight.search import solve

from gnomekit.cli import main

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_midnight_audit_figures_add_up_and_witnesses_open() -> None:
    ed = load_edition(None)
    a = audit(ed, 3, seed=5, dances=["square", "zigzag"], backend=INLINE)
    data = a.to_json()
    for pol, f in data["policies"].items():
        assert f["games"] == 6
        assert sum(f["wins"].values()) + f["unfinished"] == 6
        per = data["dance_cards"][pol]
        assert sum(c["games"] for c in per.values()) == 6
        assert sum(c["wins"]["green"] for c in per.values()) == f["wins"]["green"]
    game = MidnightGame(ed)
    for key, w in data["witnesses"].items():
        pos = game.read(json.dumps(w["position"]), key)  # the JSON opens as a position
        if key.startswith("win-") or key == "shortest-win":  # the side to move wins at once there
            res = solve(pos.state, 1)
            assert res.value == 1, key
        if key == "pass":
            assert [str(m) for m in pos.legal_moves()] == ["pass"]
    assert set(data["dance_cards_never_completed"]) <= {"square", "zigzag"}


def test_a_midnight_game_is_its_seed_and_replays() -> None:
    ed = load_edition(None)
    spec = GameSpec(3, "greedy", "tee")
    one, two = play_game(ed, spec), play_game(ed, spec)
    assert one == two
    end = replay_game(ed, one)
    if one.winner is not None:
        assert one.wins  # the record ends on the winning turn
    assert end.turn >= 1


def test_midnight_audit_cli_json_and_bad_options(tmp_path: Path) -> None:
    code, out, _ = cli(["midnight", "audit", "--games", "2", "--dance", "ell", "--policies", "greedy", "--json",
                        "--jobs", "1", "--witness-dir", str(tmp_path)])
    assert code == 0
    data = json.loads(out)
    assert list(data["policies"]) == ["greedy"] and data["policies"]["greedy"]["games"] == 2
    for key in data["witnesses"]:
        path = tmp_path / f"{key}.json"
        assert cli(["midnight", "show", str(path)])[0] == 0
    for bad, where in ((["--games", "0"], "--games"), (["--policies", "clever"], "--policies"),
                       (["--dance", "waltz"], "--dance"), (["--jobs", "0"], "--jobs"), (["--max-turns", "0"],
                                                                                          "--max-turns")):
        code, _out, err = cli(["midnight", "audit", *bad])
        assert code == 2 and where in err, bad


def test_a_failing_game_keeps_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """A task that raises is reported with its input; the figures of the others are kept."""
    import gnomekit.solver.gnomes_at_midnight.audit as mod

    real = mod.play_game

    def flaky(ed: Any, spec: GameSpec, max_turns: int = 300) -> Any:
        if spec.seed == 1:
            raise RuntimeError("boom")
        return real(ed, spec, max_turns)

    monkeypatch.setattr(mod, "play_game", flaky)
    with pytest.raises(BatchError) as exc:
        audit(load_edition(None), 3, policies=["random"], dances=["tee"], backend=INLINE)
    assert [e.input for e in exc.value.batch.errors] == ["GameSpec(seed=1, policy='random', dance='tee')"]
    assert exc.value.partial.policies["random"].games == 2


def test_puzzles_check_right_wrong_unique(tmp_path: Path) -> None:
    shutil.copy(PUZZLES / "gnomes-at-midnight" / "win-in-1-a.toml", tmp_path / "a.toml")
    shutil.copy(PUZZLES / "hedge-mage" / "06-d2-beats-l4.toml", tmp_path / "b.toml")
    text = (PUZZLES / "gnomes-at-midnight" / "win-in-2-a.toml").read_text(encoding="utf-8")
    assert "turns = 2" in text
    (tmp_path / "wrong.toml").write_text(text.replace("turns = 2", "turns = 3"), encoding="utf-8")
    code, out, _ = cli(["puzzles", "check", str(tmp_path), "--json", "--jobs", "2"])
    data = json.loads(out)
    by = {Path(p["file"]).name: p for p in data["puzzles"]}
    assert code == 1 and data["right"] == 2
    assert by["a.toml"]["right"] and by["a.toml"]["unique"] is False and by["a.toml"]["answers"] > 1
    assert by["b.toml"]["right"] and by["b.toml"]["game"] == "hedge-mage"
    assert by["wrong.toml"]["status"] == "wrong"
    (tmp_path / "bad.toml").write_text("x = [", encoding="utf-8")
    code, _out, err = cli(["puzzles", "check", str(tmp_path / "bad.toml")])
    assert code == 2 and "bad.toml" in err
    assert cli(["puzzles", "check", str(tmp_path / "missing.toml")])[0] == 2


@pytest.mark.parametrize("game", ["hedge-mage", "gnome-hollow", "gnomes-at-midnight", "hexen-rennen"])
def test_edition_dump_reads_back(game: str, tmp_path: Path) -> None:
    code, out, _ = cli([game, "edition", "--dump"])
    assert code == 0 and "[" in out
    mine = tmp_path / "mine.toml"
    mine.write_text(out, encoding="utf-8")
    code, out, _ = cli([game, "edition", "--edition", str(mine), "--json"])
    assert code == 0 and json.loads(out)["valid"] is True
    mine.write_text(out.replace("{", "{{"), encoding="utf-8")  # broken TOML: located, exit 2
    assert cli([game, "edition", "--edition", str(mine)])[0] == 2


def test_compare_two_editions_names_what_moved(tmp_path: Path) -> None:
    code, out, _ = cli(["hedge-mage", "edition", "--dump"])
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(out, encoding="utf-8")
    assert "removed = 2" in out
    b.write_text(out.replace("removed = 2", "removed = 3"), encoding="utf-8")
    code, out, _ = cli(["hedge-mage", "audit", "--parts", "b", "--games", "20", "--jobs", "1",
                        "--compare", str(a), str(b), "--json"])
    data = json.loads(out)
    figures = {d["figure"] for d in data["differences"]}
    assert code == 0 and "max_before" in figures
    code, out, _ = cli(["hedge-mage", "audit", "--parts", "b", "--games", "20", "--jobs", "1",
                        "--compare", str(a), str(a), "--json"])
    assert json.loads(out)["differences"] == []


def test_play_many_games_matches_single_games() -> None:
    code, out, _ = cli(["hedge-mage", "play", "--games", "2", "--seed", "4", "--json", "--jobs", "1"])
    many = json.loads(out)
    code1, one, _ = cli(["hedge-mage", "play", "--seed", "5", "--json"])
    assert code == code1 == 0
    assert many["results"][1]["scores"] == json.loads(one)["scores"]
    assert sum(many["wins"].values()) >= 2
    assert cli(["hedge-mage", "play", "--games", "2", "--record", "x.json"])[0] == 2
    code, out, _ = cli(["hexen", "play", "--games", "2", "--players", "2", "--json", "--jobs", "1"])
    h = json.loads(out)
    code1, one, _ = cli(["hexen", "play", "--seed", "1", "--players", "2", "--json"])
    assert code == code1 == 0 and h["results"][1]["scores"] == json.loads(one)["scores"]


def test_ray_option_without_ray_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    code, _out, err = cli(["hexen", "audit", "--games", "1", "--ray"])
    assert code == 2 and "--ray" in err
    assert Backend("ray", 2).describe() == "Ray (local, 2 CPUs)"


SHARED = ("edition", "seed", "policies", "witnesses")  # the keys every audit's JSON has (docs/batch.md)


def test_hexen_audit_has_the_shared_figures_format() -> None:
    import gnomekit

    argv = ["hexen", "audit", "--games", "3", "--players", "2", "--seed", "4", "--json"]
    code, out, _ = cli([*argv, "--jobs", "1"])
    data = json.loads(out)
    assert code == 0
    for old in ("games", "finished", "turns", "longest_chain", "forced_plays", "no_move_witness", "scores"):
        assert old in data  # the keys it had keep their places
    assert all(k in data for k in SHARED)
    assert (data["seed"], data["players"], data["policy"]) == (4, 2, "random") and data["edition"]
    fig = data["policies"]["random"]
    assert (fig["games"], fig["finished"], fig["turns"], fig["forced_plays"]) == (
        data["games"], data["finished"], data["turns"], data["forced_plays"])
    assert fig["longest_chain"] == data["longest_chain"]["landings"]
    assert data["witnesses"]["longest-chain"]["turn_no"] == data["longest_chain"]["turn_no"]
    game = gnomekit.game("hexen-rennen")
    for key, w in data["witnesses"].items():
        assert w["what"] and w["policy"] == "random" and 4 <= w["seed"] < 7, key
        if "position" in w:
            game.read(json.dumps(w["position"]), key)  # opens as a position
    assert json.loads(cli([*argv, "--jobs", "2"])[1]) == data  # nothing in it depends on --jobs


def test_hexen_compare_lists_each_figure_once(tmp_path: Path) -> None:
    code, out, _ = cli(["hexen", "edition", "--dump"])
    a = tmp_path / "a.toml"
    a.write_text(out, encoding="utf-8")
    code, out, _ = cli(["hexen", "audit", "--games", "2", "--players", "2", "--jobs", "1", "--seed", "1",
                        "--compare", str(a), str(a), "--json"])
    data = json.loads(out)
    assert code == 0 and data["differences"] == [] and data["a"]["policies"] == data["b"]["policies"]
    code, out, _ = cli(["hexen", "audit", "--games", "2", "--players", "2", "--jobs", "1", "--seed", "1",
                        "--compare", str(a), str(a)])
    assert "0 figure(s) differ" in out


def test_hedge_audit_has_the_shared_figures_format() -> None:
    import gnomekit

    argv = ["hedge-mage", "audit", "--parts", "b,d", "--games", "3", "--seed", "3", "--json"]
    code, out, _ = cli([*argv, "--jobs", "1"])
    data = json.loads(out)
    assert code == 0
    for old in ("edition", "enchantments", "max_before", "per_tile", "simulation", "max_points", "games", "seconds"):
        assert old in data  # the keys it had keep their places
    assert all(k in data for k in SHARED) and data["seed"] == 3
    sim = data["simulation"]["policies"]
    assert list(data["policies"]) == list(sim)
    for pol, fig in data["policies"].items():
        assert fig["games"] == 3 and fig["games_with_dead_round"] == sim[pol]["games_with_dead_round"]
        assert "seconds" not in fig
        assert (f"dead-round-{pol}" in data["witnesses"]) == (sim[pol]["witness"] is not None)
    d = data["games"]
    gaps = {w["gap"] for w in d["witnesses"]}
    assert {k for k in data["witnesses"] if k.startswith("game-")} == {f"game-{g}" for g in gaps}
    for g in gaps:
        w = data["witnesses"][f"game-{g}"]
        first = next(x for x in d["witnesses"] if x["gap"] == g)
        assert w["seed"] == first["seed"] and w["policy"] == d["policy"] and w["what"] == first["detail"]
    again = json.loads(cli([*argv, "--jobs", "2"])[1])
    assert {k: again[k] for k in SHARED} == {k: data[k] for k in SHARED}  # not on --jobs (timings aside)
    code, out, _ = cli(["hedge-mage", "audit", "--parts", "b", "--games", "8", "--policies", "random", "--json",
                        "--jobs", "1"])
    w = json.loads(out)["witnesses"]["dead-round-random"]  # game 1 of seed 0 has one
    pos = gnomekit.game("hedge-mage").read(json.dumps(w["garden"]), "w")  # the garden opens
    assert list(pos.legal_moves()) == [] and w["policy"] == "random" and "nothing can be placed" in w["what"]


def test_hedge_audit_parts_a_and_c_witnesses(tmp_path: Path) -> None:
    import gnomekit
    from tests.hedge_mage.test_audit import SHAPES, tiny_toml

    path = tmp_path / "tiny.toml"
    path.write_text(tiny_toml(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]], {"D2": SHAPES["D2"], "I3": SHAPES["I3"],
                                                                          "L3": SHAPES["L3"]}))
    code, out, _ = cli(["hedge-mage", "audit", "--edition", str(path), "--parts", "a,c", "--time-per-tile", "5",
                        "--time-points", "5", "--json", "--jobs", "1"])
    data = json.loads(out)
    assert code == 0 and data["policies"] == {}  # no part (b)
    assert any(k.startswith("tile-") for k in data["witnesses"])  # the tiny tiles are boxed in after 2
    game = gnomekit.game("hedge-mage", str(path))
    for t in data["per_tile"]["tiles"]:
        w = data["witnesses"].get(f"tile-{t['tile']}")
        assert (w is None) == (t["witness"] is None)
        if w is not None:  # the garden opens, with the tile in hand and no legal placement for it
            pos = game.read(json.dumps(w["garden"]), t["tile"])
            assert w["garden"]["tile"] == t["tile"] and list(pos.legal_moves()) == []
            assert f"after {len(w['placements'])} placements" in w["what"]
    mp = data["max_points"]
    assert ("max-points" in data["witnesses"]) == (mp["witness"] is not None)
    if mp["witness"] is not None:
        assert data["witnesses"]["max-points"]["garden_before_last"] == mp["witness"]["garden_before_last"]
