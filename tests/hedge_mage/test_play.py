"""Whole games (solver/hedge_mage/play.py, ``play``, ``audit --parts d``): games finish, records replay.

The recounts here are written from the rulebook and the edition's numbers, not with the
engine's scoring: tracks (rightmost filled space), 2 per gnome left at home plus the
favourite card, 1 per awake gnome left in the rival's garden; then most points, most
movement tokens, else a shared win.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition
from gnomekit.models.hedge_mage.enchantments import holds
from gnomekit.models.hedge_mage.notation import parse_placement
from gnomekit.models.hedge_mage.placement import Placement, is_legal_slow, legal_placements
from gnomekit.models.hedge_mage.running import _work, execute_plan
from gnomekit.models.hedge_mage.running_notation import parse_action
from gnomekit.solver.hedge_mage.play import (
    Game,
    PlayerState,
    RecordError,
    can_wake,
    choose_plan,
    play_game,
    replay,
    setup_from_record,
)

from gnomekit.cli import main

ED = default_edition()


@pytest.fixture(scope="module")
def games() -> dict[tuple[int, int], Any]:
    """A few random-policy games (2, 3 and 4 players) shared by the tests below."""
    return {(n, s): play_game(ED, n, s, "random") for n, s in ((2, 0), (2, 1), (3, 2), (4, 3))}


def recount(record: dict[str, Any], ed: HedgeMageEdition) -> tuple[list[int], list[int]]:
    """Final totals and winners (1-based) from the record alone, by the rulebook's scoring."""
    n = record["players"]
    rescued: list[dict[str, int]] = [{} for _ in range(n)]
    for rnd in record["rounds"]:
        for r in rnd["run"]:
            for k in r["rescued"]:
                rescued[r["player"] - 1][k] = rescued[r["player"] - 1].get(k, 0) + 1
    final = {g["player"]: g["gnomes"] for g in record["result"]["final_gardens"]}
    favs = {f.id: f for f in ed.running.favourites}
    totals = []
    for p in range(1, n + 1):
        rival = p % n + 1
        tracks = sum(ed.running.tracks[k][c - 1].points for k, c in rescued[p - 1].items())
        home = [g["kind"] for g in final[p]]
        fav = 0
        f = record["favourites"][p - 1]
        if f is not None:
            same = sum(1 for k in home if k == favs[f].kind)
            fav = favs[f].per_gnome * same + (favs[f].all_bonus if same == ed.gnomes_per_kind else 0)
        awake = sum(1 for g in final[rival] if g["awake"])
        totals.append(tracks + 2 * len(home) + fav + awake)
    tokens = [s["movement_tokens"] for s in record["result"]["scores"]]
    best = max(totals)
    top = [p for p in range(n) if totals[p] == best]
    most = max(tokens[p] for p in top)
    return totals, [p + 1 for p in top if tokens[p] == most]


def test_games_finish_by_the_end_rules(games: dict[tuple[int, int], Any]) -> None:
    for (n, _s), res in games.items():
        rec = res.record
        assert rec["players"] == n and 1 <= len(rec["rounds"]) <= len(rec["deck"]) == 10
        assert [r["card"] for r in rec["rounds"]] == rec["deck"][: len(rec["rounds"])]
        everyone = any(sum(s["rescued"].values()) == 12 for s in rec["result"]["scores"])
        assert (len(rec["rounds"]) == 10) or everyone
        for rnd in rec["rounds"]:
            assert [b["player"] for b in rnd["build"]] == list(range(1, n + 1))
            assert [(r["player"], r["garden"]) for r in rnd["run"]] == [(p, p % n + 1) for p in range(1, n + 1)]


def test_records_replay_to_the_same_scores(games: dict[tuple[int, int], Any]) -> None:
    for res in games.values():
        again = replay(json.loads(json.dumps(res.record)), ED)
        assert [s.total for s in again.scores] == [s.total for s in res.scores]
        assert again.winners == res.winners and again.decided == res.decided
        assert again.record["result"] == res.record["result"]


def test_scores_equal_an_independent_recount(games: dict[tuple[int, int], Any]) -> None:
    for res in games.values():
        rec = res.record
        totals, win = recount(rec, ED)
        assert totals == [s["total"] for s in rec["result"]["scores"]]
        assert win == rec["result"]["winners"]
        if len(win) > 1:
            assert "shared win" in rec["result"]["decided"]
        # every gnome is at home or on its rescuer's track
        n = rec["players"]
        for g in rec["result"]["final_gardens"]:
            invader = (g["player"] - 2) % n
            assert len(g["gnomes"]) + sum(rec["result"]["scores"][invader]["rescued"].values()) == 12


def test_every_record_action_is_legal(games: dict[tuple[int, int], Any]) -> None:
    """Walk a record with the engine's state, checking placements with the slow reference and plans
    with execute_plan; a pass must mean that no allowed tile fits anywhere."""
    for res in list(games.values())[:2]:
        rec = res.record
        game = Game(ED, setup_from_record(rec, ED))
        for rnd in rec["rounds"]:
            game.begin_round()
            for p, b in enumerate(rnd["build"]):
                g = game.garden_now(p)
                if b["placement"] is None:
                    for tile, _sub, _ps in game.options(p):
                        assert not legal_placements(g, ED.tiles[tile]).placements
                    game.build(p, None)
                    continue
                pl = parse_placement(b["placement"], ED)
                assert is_legal_slow(g, pl)
                pl = Placement(pl.tile, pl.cells, pl.sigil, tuple(tuple(c) for c in b.get("tokens", [])))
                assert game.build(p, pl)[0] == b["points"]
            for p, r in enumerate(rnd["run"]):
                start, _ = game.run_start(p)
                plan = [parse_action(a, ED) for a in r["plan"]]
                assert execute_plan(start, ED, plan).legal
                assert game.run(p, start, plan).legal


def test_phases_commute() -> None:
    """The simultaneous-phase rule: building and running in reverse seat order gives the same game."""
    res = play_game(ED, 3, 5, "random")
    rec = res.record

    def final(order: list[int]) -> list[int]:
        game = Game(ED, setup_from_record(rec, ED))
        for rnd in rec["rounds"]:
            game.begin_round()
            for p in order:
                b = rnd["build"][p]
                pl = None
                if b["placement"] is not None:
                    q = parse_placement(b["placement"], ED)
                    pl = Placement(q.tile, q.cells, q.sigil, tuple(tuple(c) for c in b.get("tokens", [])))
                game.build(p, pl)
            for p in order:
                start, _ = game.run_start(p)
                assert game.run(p, start, [parse_action(a, ED) for a in rnd["run"][p]["plan"]]).legal
        return [s.total for s in game.scores()]

    assert final([2, 1, 0]) == final([0, 1, 2]) == [s.total for s in res.scores]


def _bad(rec: dict[str, Any], change: Any) -> RecordError:
    d = copy.deepcopy(rec)
    change(d)
    with pytest.raises(RecordError) as info:
        replay(d, ED)
    return info.value


def test_bad_records_are_located(games: dict[tuple[int, int], Any]) -> None:
    rec = games[(2, 0)].record
    k = next(i for i, r in enumerate(rec["rounds"]) if r["run"][0]["plan"])
    e = _bad(rec, lambda d: d["rounds"][k]["run"][0]["plan"].__setitem__(0, "M1>9,9>9,8"))
    assert e.rules and e.path[:5] == ("rounds", k, "run", 0, "plan")
    e = _bad(rec, lambda d: d["result"]["scores"][1].__setitem__("total", 999))
    assert e.rules and e.path == ("result", "scores", 1, "total")
    e = _bad(rec, lambda d: d["rounds"][0]["build"][0].__setitem__("points", 7))
    assert e.rules and e.path == ("rounds", 0, "build", 0, "points")
    e = _bad(rec, lambda d: d["rounds"][1]["build"][1].__setitem__("placement", None))
    assert e.rules and "has a legal placement" in e.message
    e = _bad(rec, lambda d: d["rounds"][0]["build"][0].__setitem__("placement", "I4:R0@0,7"))
    assert e.rules and e.path == ("rounds", 0, "build", 0, "placement")
    e = _bad(rec, lambda d: d["gardens"][0]["gnomes"][0].__setitem__("kind", "tulip"))
    assert not e.rules and e.path == ("gardens", 0, "gnomes", 0, "kind")
    e = _bad(rec, lambda d: d.__delitem__("deck"))
    assert not e.rules
    e = _bad(rec, lambda d: d["rounds"].pop())
    assert e.rules and "not over" in e.message


def test_solver_policy_falls_back_and_says_so(games: dict[tuple[int, int], Any]) -> None:
    """On real game positions with a tiny budget: the plan is legal, and the fallback is named."""
    rec = games[(2, 0)].record
    game = Game(ED, setup_from_record(rec, ED))
    seen = set()
    for rnd in rec["rounds"][:3]:
        game.begin_round()
        for p, b in enumerate(rnd["build"]):
            q = parse_placement(b["placement"], ED)
            game.build(p, Placement(q.tile, q.cells, q.sigil, tuple(tuple(c) for c in b.get("tokens", []))))
        start, _ = game.run_start(0)
        ch = choose_plan(start, ED, "solver", random.Random(0), max_states=3)
        seen.add(ch.method)
        assert ch.method in ("solver", "solver-restricted", "solver-anytime", "greedy-fallback")
        assert ch.method == "solver" or "over 3 states" in ch.note
        assert execute_plan(start, ED, ch.plan).legal
        for p, r in enumerate(rnd["run"]):
            s2, _ = game.run_start(p)
            game.run(p, s2, [parse_action(a, ED) for a in r["plan"]])
    assert seen - {"solver"}


@pytest.mark.slow
def test_solver_game_replays() -> None:
    res = play_game(ED, 2, 7, "solver", max_states=30)
    fell = [r for rnd in res.record["rounds"] for r in rnd["run"] if r["method"] != "solver"]
    assert all("over 30 states" in r["note"] for r in fell)
    assert [s.total for s in replay(json.loads(json.dumps(res.record)), ED).scores] == [s.total for s in res.scores]
    assert recount(res.record, ED)[0] == [s.total for s in res.scores]


def test_greedy_game_replays() -> None:
    res = play_game(ED, 2, 7, "greedy")
    assert {r["method"] for rnd in res.record["rounds"] for r in rnd["run"]} == {"greedy"}
    assert [s.total for s in replay(json.loads(json.dumps(res.record)), ED).scores] == [s.total for s in res.scores]
    assert recount(res.record, ED)[0] == [s.total for s in res.scores]


def test_can_wake_is_sound() -> None:
    """When can_wake says no, no sleeping gnome of that kind meets its card in the actual position."""
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        res = play_game(ED, 2, seed, "random")
        game = Game(ED, setup_from_record(res.record, ED))
        cards = {ED.enchantment(e).kind: ED.running.conditions[e] for e in game.setup.enchantments}
        for rnd in res.record["rounds"][: rng.randint(1, len(res.record["rounds"]))]:
            game.begin_round()
            for p, b in enumerate(rnd["build"]):
                pl = None
                if b["placement"] is not None:
                    q = parse_placement(b["placement"], ED)
                    pl = Placement(q.tile, q.cells, q.sigil, tuple(tuple(c) for c in b.get("tokens", [])))
                game.build(p, pl)
            for p, r in enumerate(rnd["run"]):
                start, _ = game.run_start(p)
                w = _work(start, ED)
                for kind, cond in cards.items():
                    if not can_wake(cond, start, ED, kind, game.players[p]):
                        checked += 1
                        for i, g in enumerate(start.gnomes):
                            if g.kind == kind:
                                assert not holds(cond, w, i, g.at, g.carried_by is not None)  # type: ignore[arg-type]
                game.run(p, start, [parse_action(a, ED) for a in r["plan"]])
    assert checked > 0


def test_can_wake_examples() -> None:
    game = Game(ED, setup_from_record(play_game(ED, 2, 0, "random").record, ED))
    pos = replace(game.runs[0], board=replace(game.runs[0].board, hedges=()))
    broke = PlayerState(0, 0, {k: 4 for k in ED.gnome_kinds})
    cond = ED.running.conditions
    assert not can_wake(cond["morel-evate"], pos, ED, "mushroom", broke)  # no hedge anywhere
    assert not can_wake(cond["planter-enchanter"], pos, ED, "flower", broke)
    assert not can_wake(cond["shiitake-shake"], pos, ED, "mushroom", broke)  # no springshroom to be had
    assert can_wake(cond["shiitake-shake"], pos, ED, "mushroom", PlayerState(0, 1))
    assert can_wake(cond["rose-above"], pos, ED, "flower", broke)
    assert can_wake(cond["gourd-ian"], pos, ED, "pumpkin", broke)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_cli_play_replay_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "game.json"
    code, out = _cli(["hedge-mage", "play", "--players", "2", "--seed", "4", "--record", str(rec)], capsys)
    assert code == 0 and "game over after round" in out and rec.exists()
    code, out = _cli(["hedge-mage", "play", "--players", "2", "--seed", "4", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["record"] == json.loads(rec.read_text()) and len(data["scores"]) == 2
    code, out = _cli(["hedge-mage", "play", "--replay", str(rec)], capsys)
    assert code == 0 and out.startswith("record OK")
    d = json.loads(rec.read_text())
    d["result"]["winners"] = [9]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d, indent=1))
    code, out = _cli(["hedge-mage", "play", "--replay", str(bad), "--json"], capsys)
    assert code == 1 and json.loads(out)["legal"] is False and json.loads(out)["error"]["path"] == "result.winners"
    assert json.loads(out)["error"]["line"] is not None
    bad.write_text("{\"game\": \"hedge-mage\",")
    assert _cli(["hedge-mage", "play", "--replay", str(bad)], capsys)[0] == 2
    assert _cli(["hedge-mage", "play", "--players", "5"], capsys)[0] == 2
    assert _cli(["hedge-mage", "play", "--policy", "clever"], capsys)[0] == 2
    assert _cli(["hedge-mage", "play", "--enchantments", "nope"], capsys)[0] == 2


def test_cli_audit_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _cli(["hedge-mage", "audit", "--games", "3", "--players", "2", "--seed", "10",
                      "--witness-dir", str(tmp_path), "--json"], capsys)
    data = json.loads(out)["games"]
    assert code == 0 and data["games"] == 3 and set(data["gaps"]) >= {"no-legal-placement", "boxed-in",
                                                                        "never-wakes"}
    for w in data["witnesses"]:
        assert 10 <= w["seed"] < 13 and Path(w["record_file"]).exists()
        # the witness record replays and shows the gap where the audit says
        res = replay(json.loads(Path(w["record_file"]).read_text()), ED)
        if w["round"] is not None:
            assert any(g.what == w["gap"] and g.round == w["round"] and g.player + 1 == w["player"]
                       for g in res.gaps)
    for k, v in data["gaps"].items():
        assert v["games"] == len({w["seed"] for w in data["witnesses"] if w["gap"] == k})


def test_mangled_records_give_located_errors(games: dict[tuple[int, int], Any]) -> None:
    """Any value of a record replaced by junk: a RecordError at a path, never a crash."""
    rec = games[(2, 1)].record
    rng = random.Random(3)
    junk = [None, 1, -1, "x", [], {}, [1], [1, 2], True, "I3:R0@0,0", [[0, 0]], 3.5]

    def paths(d: Any, p: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        out = [p]
        items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else []
        for k, v in items:
            out += paths(v, p + (k,))
        return out

    every = [p for p in paths(rec) if p and p[:1] != ("rounds",) or p[:2] in {("rounds", 0), ("rounds", 1)}]
    for _ in range(40):
        d = copy.deepcopy(rec)
        p = rng.choice(every)
        cur = d
        for k in p[:-1]:
            cur = cur[k]
        cur[p[-1]] = rng.choice(junk)
        try:
            replay(d, ED)
        except RecordError as exc:
            assert isinstance(exc.path, tuple) and exc.message
