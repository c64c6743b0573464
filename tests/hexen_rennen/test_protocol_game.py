"""Hexen Rennen through the game protocol: moves, turns in progress, violations, the API answers.

The protocol layer walks the chain with the same engine as ``replay``; these tests cross-check
the two (every turn played move by move equals its replay, the number of move sequences equals
``moves --count``) and pin what the protocol adds (the die as a chance node, the decider as the
player to move, positions in the middle of a turn in text and JSON).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from gnomekit.models.core.errors import IllegalMoveError, NotationError, UsageError
from gnomekit.models.core.protocol import CHANCE, TERMINAL
from gnomekit.models.hexen_rennen.edition import STOP, SYMBOL
from gnomekit.models.hexen_rennen.game import PASS, HexenPosition, Play, Roll, Witch, make_game
from gnomekit.models.hexen_rennen.notation import parse_turn
from gnomekit.models.hexen_rennen.turn import RULES, Decision, Rules, TurnPlan, replay
from gnomekit.solver.core.result import Status
from gnomekit.solver.hexen_rennen.chain import ChainSearch, solve_chain
from gnomekit.solver.hexen_rennen.expect import expect_turn
from gnomekit.solver.hexen_rennen.generate import rich_position
from gnomekit.solver.hexen_rennen.moves import all_turns

import gnomekit
from gnomekit.cli import main
from tests.hexen_rennen.hexen_build import ED, make

G = make_game()
# The rulebook's worked example (see test_rules.py): witch on 10, roll 3, fog 7 then ice must play.
EXAMPLE = make({13: "w10", 23: "W4", 27: "FS", 20: "IS", 15: "F6"},
               {"weather": [10, 0, 0], "fog": [0, 0, 0], "ice": [0, 0, 0]},
               {"weather": [], "fog": [7], "ice": [5, 9]}, players=("weather", "fog", "ice"))


def at_fog() -> HexenPosition:
    """The worked example after ``roll 3``, ``witch 10``: fog decides on tile 27."""
    return G.position(EXAMPLE).apply("roll 3").apply("witch 10")


def test_the_worked_example_move_by_move() -> None:
    p = G.position(EXAMPLE)
    assert p.current_player() == CHANCE and p.phase == "roll"
    assert p.chance_outcomes() == [(Roll(f), Fraction(1, 6)) for f in range(1, 7)]
    p = p.apply("roll 3")
    assert p.current_player() == 0 and p.legal_moves() == [Witch(0), Witch(10)]
    p = p.apply("witch 10")
    # fog decides on its symbol: fog is the player to move now, not weather
    assert p.current_player() == 1 and p.pending is not None and p.pending.chain == (10, 13, 23, 27)
    assert p.legal_moves() == [Play("fog", STOP), Play("fog", 7)]
    p = p.apply("fog:7")
    # forced: a number card sent the witch back onto ice's symbol, stop is not offered
    assert p.current_player() == 2 and p.pending is not None and p.pending.node.forced
    assert p.legal_moves() == [Play("ice", 5), Play("ice", 9)]
    end = p.apply("5")  # a decision without its clan is the decider's
    assert end.phase == "roll" and end.witch is None and end.base.to_move == "fog"
    rep = replay(EXAMPLE, ED, 3, parse_turn("10 fog:7 ice:5", ED))
    assert rep.final is not None and end.base == rep.final and 15 in end.base.witches_of("weather")


def test_move_notation_both_ways() -> None:
    for m in (Roll(4), Witch(0), Witch(12), PASS, Play("fog", 7), Play("ice", SYMBOL), Play("weather", STOP)):
        assert G.parse_move(str(m)) == m
    assert str(Witch(0)) == "witch start" and str(Play("ice", SYMBOL)) == "ice:S" and repr(Roll(2)) == "<roll 2>"
    assert G.parse_move("7") == Play(None, 7) and at_fog().parse_move("7") == Play("fog", 7)
    with pytest.raises(NotationError) as e:
        G.parse_move("fog:eleven")
    assert e.value.column == 5
    with pytest.raises(NotationError):
        G.parse_move("mud:7")
    with pytest.raises(NotationError):
        G.parse_move("witch 99")


def test_every_broken_rule_has_an_id_and_its_fields() -> None:
    p = at_fog()
    rep = p.check("fog:9")
    assert [v.rule for v in rep.violations] == ["card-in-hand"] and rep.violations[0].cells == (27,)
    rep = p.check("ice:5")
    assert [v.rule for v in rep.violations] == ["decider"]
    assert p.check("roll 2").violations[0].rule == "turn-phase"
    forced = p.apply("fog:7")
    rep = forced.check("ice:stop")
    assert [v.rule for v in rep.violations] == ["forced-play"] and rep.violations[0].cells == (20,)
    with pytest.raises(IllegalMoveError) as exc:
        forced.apply("ice:stop")
    assert exc.value.violations == rep.violations
    rolled = G.position(EXAMPLE).apply("roll 3")
    assert rolled.check("witch 5").violations[0].rule == "own-witch"
    assert rolled.check("pass").violations[0].rule == "must-move"
    assert G.position(EXAMPLE).check("roll 7").violations[0].rule == "die-face"
    assert G.position(EXAMPLE).check("witch 10").violations[0].rule == "turn-phase"
    # two witches: the die target occupied (cells: the witch and the tile)
    pos = make({}, {"weather": [10, 13]}, {})
    rep = G.position(pos).apply("roll 3").check("witch 10")
    assert [v.rule for v in rep.violations] == ["occupied"] and rep.violations[0].cells == (10, 13)
    for r in (rep, forced.check("ice:stop")):
        assert all(v.rule in RULES for v in r.violations)


def test_replay_reports_carry_the_violations() -> None:
    pos = make({13: "w10", 23: "W4", 27: "FS", 20: "IS", 15: "F6", 18: "R3"},
               {"weather": [10], "fog": [0], "ice": [0], "forest": [18]},
               {"weather": [], "fog": [9], "ice": [5]})
    rep = replay(pos, ED, 3, parse_turn("10 fog:8", ED))
    assert not rep.legal and [v.message for v in rep.violations] == rep.reasons
    assert {v.rule for v in rep.violations} <= set(RULES) and "card-in-hand" in {v.rule for v in rep.violations}


def test_no_witch_can_move_is_a_pass() -> None:
    pos = make({}, {"weather": [47, 49], "fog": [0]}, {}, players=("weather", "fog"))
    p = G.position(pos).apply("roll 6")
    assert p.legal_moves() == [PASS] and p.check("pass").legal
    nxt = p.apply(PASS)
    assert nxt.phase == "roll" and nxt.base.to_move == "fog" and nxt.base.witches == pos.witches


def test_a_finished_race_is_terminal() -> None:
    pos = make({}, {"weather": [49, 50, 51], "fog": [0, 3, 49]}, {}, players=("weather", "fog"), to_move="fog")
    p = G.position(pos)
    assert p.is_terminal() and p.current_player() == TERMINAL and p.legal_moves() == []
    assert p.scores() == {"weather": 9, "fog": 2} and p.result() == "weather wins"
    assert p.check("roll 1").violations[0].rule == "game-over"


def test_a_turn_in_progress_round_trips_in_text_and_json() -> None:
    p = at_fog()
    text = p.to_text()
    assert "roll: 3\n" in text and "turn: 10\n" in text
    assert G.read(text) == p and G.read(json.dumps(p.to_json())) == p
    q = p.apply("fog:7")
    assert "turn: 10 fog:7\n" in q.to_text() and q.to_json()["turn"] == {
        "witch": 10, "decisions": [{"clan": "fog", "play": 7}]}
    assert G.read(q.to_text()) == q and G.read(json.dumps(q.to_json())) == q
    # a decision written without its clan reads as the decider's
    assert G.read(q.to_text().replace("turn: 10 fog:7", "turn: 10 7")) == q
    assert G.read(repr(q)[1:-1].replace("hexen-rennen position\n", "", 1)) == q  # the board drawing reads back


@pytest.mark.parametrize("change, words", [
    (lambda t: t.replace("roll: 3\n", ""), "needs the roll"),
    (lambda t: t.replace("roll: 3", "roll: 7"), "face of the die"),
    (lambda t: t.replace("turn: 10", "turn: 10 fog:9"), "fog holds no 9"),
    (lambda t: t.replace("turn: 10", "turn: 10 fog:stop"), "has ended its chain"),
    (lambda t: t.replace("turn: 10", "turn: pass"), "a pass ends the turn"),
    (lambda t: t.replace("turn: 10", "turn: 12"), "no witch on field 12"),
])
def test_a_bad_turn_in_progress_is_located(change, words) -> None:
    text = change(at_fog().to_text())
    with pytest.raises(NotationError) as e:
        G.read(text, "p.txt")
    assert words in e.value.message and e.value.line is not None


def _sequences(p: HexenPosition) -> int:
    """The number of protocol move sequences from ``p`` to the end of its turn."""
    if p.phase in ("roll", "over"):
        return 1
    return sum(_sequences(p.apply(m)) for m in p.legal_moves())


def test_move_sequences_are_the_legal_turns() -> None:
    """Every way through the protocol is one legal turn of ``moves`` (same count, same plans)."""
    checked = 0
    for seed in range(40):
        pos = rich_position(ED, seed)
        roll = 1 + seed % 6
        turns = all_turns(pos, ED, roll)
        if turns.count > 300:
            continue
        p = G.position(pos).apply(Roll(roll))
        assert _sequences(p) == turns.count, seed
        checked += 1
    assert checked >= 20


def test_random_protocol_turns_equal_their_replay() -> None:
    """A turn played move by move ends where ``replay`` of its plan ends (engine and protocol agree)."""
    rng = random.Random(5)
    for seed in range(12):
        p = G.random(seed, players=2 + seed % 3, turns=seed % 7)
        for _ in range(4):
            if p.is_terminal():
                break
            before = p.base
            roll = p.chance_outcomes()[rng.randrange(6)][0]
            p = p.apply(roll)
            plan_witch: int | None = None
            plays: list[Play] = []
            while p.phase in ("witch", "decide"):
                m = rng.choice(p.legal_moves())
                if isinstance(m, Witch):
                    plan_witch = m.field
                else:
                    plays.append(m)
                p = p.apply(m)
            rep = replay(before, ED, roll.face, TurnPlan(plan_witch, tuple(Decision(x.clan, x.code) for x in plays)))
            assert rep.legal and rep.final == p.base, (seed, rep.reasons)


def test_new_and_random_mirror_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hexen-rennen", "new", "--players", "3", "--seed", "4", "--json"]) == 0
    assert G.read(capsys.readouterr().out) == G.new(players=3, seed=4)
    assert main(["hexen-rennen", "random", "--seed", "2", "--players", "2", "--turns", "5", "--json"]) == 0
    assert G.read(capsys.readouterr().out) == G.random(2, players=2, turns=5)
    assert G.new(players=("fog", "ice")).base.players == ("fog", "ice")
    with pytest.raises(UsageError) as e:
        G.new(players=7)
    assert "--" not in e.value.message  # library words, no CLI option
    assert main(["hexen-rennen", "new", "--players", "7"]) == 2
    assert "--players must be 2..4" in capsys.readouterr().err
    with pytest.raises(UsageError):
        G.random(1, colour="red")


def test_show_draws_a_turn_in_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q = at_fog().apply("fog:7")
    f = tmp_path / "q.txt"
    f.write_text(q.to_text())
    assert main(["hexen-rennen", "show", str(f)]) == 0
    out = capsys.readouterr().out
    assert "roll: 3" in out and "ice decides on tile 20" in out and G.read(out) == q
    assert main(["hexen-rennen", "show", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["turn"]["witch"] == 10


def test_strict_rules_are_the_games() -> None:
    """The game's reading of the rules decides what is legal (a symbol card past an occupied symbol)."""
    pos = make({12: "WS", 20: "WS", 30: "WS"}, {"weather": [10], "fog": [20]}, {"weather": ["S"]})
    loose = G.position(pos).apply("roll 2").apply("witch 10")
    assert Play("weather", SYMBOL) in loose.legal_moves()
    assert loose.apply("weather:S").base.witches_of("weather") == (30,)
    strict = make_game(rules=Rules(strict_symbol_target=True))
    after = strict.position(pos).apply("roll 2").apply("witch 10")
    # no legal card: tile 12 is no decision point, the chain ends there
    assert after.phase == "roll" and after.base.witches_of("weather") == (12,)
    with_three = strict.position(replace(pos, hands=(("weather", (SYMBOL, 3)),))).apply("roll 2").apply("witch 10")
    assert with_three.legal_moves() == [Play("weather", STOP), Play("weather", 3)]
    rep = with_three.check("weather:S")
    assert [v.rule for v in rep.violations] == ["symbol-target"] and rep.violations[0].cells == (12, 20)


# -- the solver API -----------------------------------------------------------------------------------


def test_solve_chain_is_the_optimal_chain() -> None:
    p = G.position(EXAMPLE).apply("roll 3")
    r = gnomekit.solve(p)
    sol = solve_chain(EXAMPLE, ED, 3)
    assert r.status is Status.OPTIMAL and r.value == sol.value == 11
    assert [str(m) for m in r.witness] == ["witch 10", "fog:7", "ice:9"]
    q = p
    for m in r.witness:
        q = q.apply(m)
    assert 11 in q.base.witches_of("weather")
    c = gnomekit.solve(p, goal="cooperative")
    assert c.value == 27 and [str(m) for m in c.witness] == ["witch 10", "fog:stop"]
    before = gnomekit.solve(G.position(EXAMPLE), goal="chain", roll=3)
    assert before.value == 11 and str(before.witness[0]) == "roll 3"
    # inside the chain: from fog's decision on tile 27
    mid = gnomekit.solve(at_fog())
    st = at_fog().pending
    assert st is not None and mid.value == ChainSearch(st.turn).value(st.state) == 11
    assert [str(m) for m in mid.witness] == ["fog:7", "ice:9"]
    z = gnomekit.solve(p, method="z3")
    assert z.status is Status.OPTIMAL and z.stats["verified"].agrees
    none = gnomekit.solve(G.position(make({}, {"weather": [47, 49]}, {})).apply("roll 6"))
    assert none.status is Status.UNSATISFIABLE and none.witness == [PASS]


def test_solve_expect_is_one_result() -> None:
    pos = rich_position(ED, 4)
    p = G.position(pos)
    r = gnomekit.solve(p)
    res = expect_turn(pos, ED)
    assert r.status is Status.OPTIMAL and r.value == res.exact_overall and r.bound == (r.value, r.value)
    assert r.witness == {k: (None if b is None else Witch(b)) for k, (_, b) in res.best_by_roll.items()}
    ab = gnomekit.solve(p, goal="expect", method="alphabeta")
    assert ab.value == r.value
    one = gnomekit.solve(p.apply("roll 4"), goal="expect")
    assert one.value == res.exact_best_by_roll[4]
    start = G.new(players=2, seed=0)
    u = gnomekit.solve(start, budget=500)
    assert u.status is Status.UNKNOWN and u.value is None
    lo, hi = u.bound
    assert 1 <= lo < hi <= ED.last_field
    with pytest.raises(gnomekit.GnomekitError):
        gnomekit.solve(start, budget=1.5)  # the expectation counts states, not seconds


def test_budget_exhausted_chain_is_unknown() -> None:
    p = G.position(rich_position(ED, 4)).apply("roll 4")
    r = gnomekit.solve(p, budget=1)
    assert r.status is Status.UNKNOWN and r.value is None and "budget" in r.stats["reason"]


def test_hints() -> None:
    p = G.position(EXAMPLE).apply("roll 3")
    h = gnomekit.hint(p)
    assert h.move == Witch(10) and "Move the witch on 10" in str(h)
    h = gnomekit.hint(p.apply("witch 10"))
    assert h.move == Play("fog", 7) and h.data["values"] == {"stop": 27, "7": 11}
    h = gnomekit.hint(G.position(rich_position(ED, 4)))
    assert h.move is None and set(h.data["by_roll"]) == set(range(1, 7))


def test_goals_are_listed() -> None:
    assert set(gnomekit.goals("hexen-rennen")) == {"chain", "cooperative", "expect"}
    with pytest.raises(gnomekit.GnomekitError):
        gnomekit.solve(G.position(EXAMPLE), goal="fastest")


# -- puzzles and z3 ----------------------------------------------------------------------------------


def test_puzzle_cross_checks_are_reported() -> None:
    from gnomekit.solver.hexen_rennen.puzzles import CHECKS, protocol_check, puzzle_files, run_puzzle

    out = run_puzzle(next(f for f in puzzle_files() if f.stem.startswith("01-")))
    assert out.verified and out.checks_applied == CHECKS and out.checks_ran == CHECKS and not out.checks_missing
    # the protocol check can fail: a replay whose final position was tampered with
    rep = replay(EXAMPLE, ED, 3, parse_turn("10 fog:7 ice:9", ED))
    assert protocol_check(EXAMPLE, 3, Rules(), rep) == ""
    assert rep.final is not None
    rep.final = replace(rep.final, to_move="weather")
    assert "differs" in protocol_check(EXAMPLE, 3, Rules(), rep)


def test_a_z3_unknown_is_never_agreement(monkeypatch: pytest.MonkeyPatch) -> None:
    import gnomekit.solver.hexen_rennen.smt as smt
    from gnomekit.solver.core.smt import Check, Verdict

    assert smt.verify_turn(EXAMPLE, ED, 3).agrees
    monkeypatch.setattr(smt, "check", lambda s, *a, seconds=None: Check(Verdict.UNKNOWN, reason="timeout"))
    v = smt.verify_turn(EXAMPLE, ED, 3)
    assert not v.agrees and all(w.timed_out for w in v.witches)
