"""Gnomes at Midnight through the game protocol (models/gnomes_at_midnight/game.py) and the API.

The protocol's moves are the CLI's `moves`, its checks the CLI's `check`; hidden flips are chance
nodes with exact probabilities; afterstates and finished games read back in both notations;
``gnomekit.solve``/``hint`` answer as the Midnight solvers do.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from gnomekit.models.core.errors import NotationError, UsageError
from gnomekit.models.core.protocol import CHANCE, TERMINAL
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.game import MidnightPosition, make_game
from gnomekit.models.gnomes_at_midnight.moves import Flip, Move, after_move, check_move, next_position
from gnomekit.models.gnomes_at_midnight.notation import parse_move
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnomes_at_midnight.gen import open_positions
from gnomekit.solver.gnomes_at_midnight.hint import hint as midnight_hint
from gnomekit.solver.gnomes_at_midnight.search import solve as midnight_solve

import gnomekit
from gnomekit.cli import main
from tests.gnomes_at_midnight.helpers import empty_board

G = gnomekit.game("gnomes-at-midnight")
TINY = Path(__file__).parent / "data" / "tiny.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, _err = capsys.readouterr()
    return code, out


def _chance_after(pos: MidnightPosition) -> tuple[Move, MidnightPosition]:
    """A move of ``pos`` (hidden decks) and the chance node after it."""
    for m in pos.legal_moves():
        nxt = pos.apply(m)
        if nxt.current_player() == CHANCE:
            return m, nxt
    raise AssertionError("no move leads to a chance node")


def test_make_game_takes_every_kind_of_edition() -> None:
    assert (G.name, G.title, G.min_players, G.max_players, G.has_chance) == (
        "gnomes-at-midnight", "Gnomes at Midnight", 2, 2, True)
    assert G.edition.name == "default"
    assert make_game("mini").edition.name == "mini"
    assert make_game(bundled_edition("mini")).edition == bundled_edition("mini")
    assert make_game(TINY).edition.name == "tiny" and make_game(str(TINY)).new().state.board.rows == 3
    assert gnomekit.game("midnight", "mini").new().to_text().splitlines()[1:3] == ["format: 1", "edition: mini"]


def test_new_and_random_mirror_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "midnight", "new", "--seed", "4")[1] == G.new(seed=4).to_text()
    assert run(capsys, "midnight", "new", "--seed", "2", "--dance", "tee", "--moon-restricts-adding")[1] == \
        G.new(seed=2, dance="tee", moon_restricts_adding=True).to_text()
    assert run(capsys, "midnight", "random", "--seed", "9", "--turns", "5", "--edition", "mini")[1] == \
        make_game("mini").random(9, turns=5).to_text()
    with pytest.raises(TypeError, match="unknown option"):
        G.new(players=3)


@pytest.mark.parametrize("seed", range(6))
def test_moves_and_checks_equal_the_cli(seed: int, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pos = G.random(seed, turns=4 + seed)
    f = tmp_path / "p.txt"
    f.write_text(pos.to_text())
    code, out = run(capsys, "midnight", "moves", str(f), "--json")
    assert code == 0
    assert [str(m) for m in pos.legal_moves()] == [m["text"] for m in json.loads(out)["moves"]]
    other = G.random(seed + 50)
    for m in other.legal_moves()[:12] + [Move("step", (0, 0), (2, 2)), Move("add", None, (1, 1))]:
        rep = pos.check(m)
        assert rep.violations == tuple(check_move(pos.state, m))
        code, out = run(capsys, "midnight", "check", str(f), f"--move={m}", "--json")
        d = json.loads(out)
        assert code == (0 if rep.legal else 1) and d["legal"] == rep.legal
        assert [v["rule"] for v in d["violations"]] == [v.rule for v in rep.violations]


def test_moves_and_flips_read_back() -> None:
    for text in ("2,0-2,1", "0,0=1,1", "+4,0", "pass", "flip grass", "flip cobblestone"):
        m = G.parse_move(text)
        assert str(m) == text and G.parse_move(str(m)) == m
        assert G.parse_move(json.dumps(m.to_json())) == m
    assert G.parse_move('{"kind": "flip", "terrain": "tulips"}') == Flip(1)
    with pytest.raises(NotationError, match="expected a flip"):
        G.parse_move("flip mud")
    with pytest.raises(NotationError, match="expected a move"):
        G.parse_move("2,0 to 2,1")
    with pytest.raises(NotationError):
        G.parse_move('{"kind": "flip", "terrain": "mud"}')


def test_a_known_flip_is_turned_at_once() -> None:
    pos = G.new()
    nxt = pos.apply("2,0-2,1")
    assert nxt.current_player() == 1 and not nxt.afterstate
    assert nxt.state == next_position(after_move(pos.state, parse_move("2,0-2,1")), pos.state.known[0][0])
    assert nxt.state.moon[0] == pos.state.known[0][0]


def test_hidden_flips_are_chance_nodes_with_exact_probabilities() -> None:
    pos = G.new().hidden()
    m, node = _chance_after(pos)
    assert node.current_player() == CHANCE and node.is_chance_node() and node.afterstate
    outcomes = node.chance_outcomes()
    a = after_move(pos.state, m)
    total = sum(w for _t, w in a.flips)
    assert outcomes == [(Flip(t), Fraction(w, total)) for t, w in a.flips]
    assert sum(p for _o, p in outcomes) == 1 and node.legal_moves() == [o for o, _p in outcomes]
    for o, _p in outcomes:
        child = node.apply(o)
        assert child.state == next_position(a, o.terrain) and child.current_player() == 1
        assert node.apply(str(o)) == child
    # a move of a player at a chance node, a flip at a decision, an impossible flip
    assert [v.rule for v in node.check(m).violations] == ["flip-pending"]
    assert [v.rule for v in pos.check("flip grass").violations] == ["no-flip-pending"]
    deck = replace(pos.state, unknown=((0, 2, 1), pos.state.unknown[1]))
    m2, node2 = _chance_after(G.position(deck))
    assert [o for o, _ in node2.chance_outcomes()] == [Flip(1), Flip(2)]
    assert [v.rule for v in node2.check("flip grass").violations] == ["flip-impossible"]
    with pytest.raises(gnomekit.IllegalMoveError) as exc:
        node2.apply("flip grass")
    assert exc.value.violations == node2.check("flip grass").violations
    with pytest.raises(ValueError):
        pos.chance_outcomes()


def test_a_reshuffle_is_chance_even_with_open_decks() -> None:
    pos = G.position(replace(G.new().state, known=((), G.new().state.known[1])))
    _m, node = _chance_after(pos)
    assert [p for _o, p in node.chance_outcomes()] == [Fraction(1, 3)] * 3
    assert node.check("flip tulips").legal


def test_afterstates_round_trip_and_the_cli_refuses_them(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    _m, node = _chance_after(G.new().hidden())
    text = node.to_text()
    assert "after-move: yes" in text.splitlines() and node.to_json()["after_move"] is True
    assert G.read(text) == node and G.read(json.dumps(node.to_json())) == node
    assert "after-move" not in G.new().to_text() and "after_move" not in G.new().to_json()
    assert G.read(G.new().to_text().replace("turn: 1\n", "turn: 1\nafter-move: no\n")) == G.new()
    for name, body in (("a.txt", text), ("a.json", json.dumps(node.to_json(), indent=1))):
        f = tmp_path / name
        f.write_text(body)
        code = main(["midnight", "show", str(f)])
        _out, err = capsys.readouterr()
        assert code == 2 and "middle of a turn" in err and f"{f}:" in err
    with pytest.raises(NotationError, match="yes or no"):
        G.read(text.replace("after-move: yes", "after-move: maybe"))


def test_a_winning_move_ends_the_game() -> None:
    # green steps onto the last toadstool
    st = empty_board(gnomes={"green": [[0, 3], [2, 3], [3, 3]], "blue": [[0, 6]]}, to_move="green")
    pos = G.position(st)
    end = pos.apply("3,3-4,3")
    assert end.is_terminal() and end.current_player() == TERMINAL and end.wins == ("toadstools",)
    assert end.scores() == {"green": 1.0, "blue": -1.0} and end.result() == "green wins (toadstools)"
    assert end.legal_moves() == [] and [v.rule for v in end.check("pass").violations] == ["game-over"]
    assert G.read(end.to_text()) == end and G.read(json.dumps(end.to_json())) == end
    assert pos.scores() == {"green": 0.0, "blue": 0.0} and pos.result() is None
    assert "green wins: toadstools" in pos.check("3,3-4,3").notes


def test_show_output_with_warnings_reads_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    st = empty_board(gnomes={"green": [[0, 3], [2, 3], [4, 3]], "blue": [[0, 6]]}, to_move="blue")
    pos = G.position(st)
    f = tmp_path / "w.txt"
    f.write_text(pos.to_text())
    code, out = run(capsys, "midnight", "show", str(f))
    assert code == 0 and "\nwarnings:\n" in out
    assert G.read(out) == pos and not pos.is_terminal()  # only the mover's wins end the game
    assert pos.warnings() and "green (not to move) already meets" in pos.warnings()[-1]


def test_read_follows_the_named_bundled_edition_like_the_cli() -> None:
    mini = make_game("mini").new(seed=1)
    back = G.read(mini.to_text())
    assert back == mini and back.game.edition.name == "mini"
    with pytest.raises(NotationError):  # an explicit edition is kept: the mini board is not well formed
        make_game("default").read(json.dumps({"edition": "mini", "rows": 9}))


def test_repr_is_the_board() -> None:
    r = repr(G.new())
    assert "gnomes-at-midnight position" in r and " 0  G<gg" in r


def test_playouts_with_hidden_decks_stay_consistent() -> None:
    rng = random.Random(3)
    for seed in range(4):
        pos = G.random(seed).hidden()
        for _ in range(30):
            if pos.is_terminal():
                break
            assert G.read(pos.to_text()) == pos and G.read(json.dumps(pos.to_json())) == pos
            moves = pos.legal_moves()
            for m in moves[:8]:
                assert pos.check(m).legal and pos.parse_move(pos.move_text(m)) == m
            if pos.is_chance_node():
                outs = pos.chance_outcomes()
                pos = pos.apply(rng.choices([o for o, _ in outs], [float(p) for _o, p in outs])[0])
            else:
                pos = pos.apply(rng.choice(moves))


# -- the API -------------------------------------------------------------------------------------------


def test_goals_and_default_solve_equal_the_search() -> None:
    assert set(gnomekit.goals("gnomes-at-midnight")) == {"win", "probability", "value"}
    for st in open_positions(5, 300):
        pos = G.position(st)
        want = midnight_solve(st, 2)
        got = gnomekit.solve(pos, depth=2)
        assert (got.status, got.value, got.witness) == (want.status, want.value, want.witness)
        assert got.stats["method"] == "search"
        z = gnomekit.solve(pos, depth=2, method="z3")
        assert (z.status, z.value) == (want.status, want.value)
        h = gnomekit.hint(pos, depth=2)
        assert h == midnight_hint(st, 2)


def test_probability_goal_by_both_methods() -> None:
    for st in open_positions(4, 80):
        pos = G.position(st)
        a = gnomekit.solve(pos, "probability", depth=2, decks="hidden")
        b = gnomekit.solve(pos, "probability", depth=2, decks="hidden", method="protocol")
        assert a.status is b.status is Status.OPTIMAL and isinstance(b.value, Fraction)
        assert abs(a.value - float(b.value)) < 1e-12


def test_budget_runs_out_as_unknown_never_no() -> None:
    pos = G.position(open_positions(1, 5)[0])
    full = gnomekit.solve(pos, depth=3)
    for method in ("search", "protocol", "z3"):
        r = gnomekit.solve(pos, depth=3, budget=Budget(states=3), method=method)
        assert r.status is Status.UNKNOWN and r.value is None and "no_win_within" in r.bound
        assert r.bound["no_win_within"] < (full.value or 4)
    r = gnomekit.solve(pos, "probability", budget=Budget(states=3), depth=3)
    assert r.status is Status.UNKNOWN
    h = gnomekit.hint(G.new(), budget=5)
    assert h.move is not None and "budget ran out" in h.reasons[0]


def test_solve_refuses_what_it_cannot_answer() -> None:
    node = _chance_after(G.new().hidden())[1]
    with pytest.raises(UsageError, match="chance node"):
        gnomekit.solve(node)
    with pytest.raises(UsageError, match="methods"):
        gnomekit.solve(G.new(), method="networkx")
    with pytest.raises(UsageError, match="unknown goal"):
        gnomekit.solve(G.new(), goal="draw")
    with pytest.raises(UsageError, match="open decks"):
        gnomekit.solve(G.new(), method="z3", decks="hidden")
    with pytest.raises(TypeError):
        gnomekit.solve(G.new(), turns=3)


def test_value_goal_is_the_tablebase(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GNOMEKIT_CACHE", str(tmp_path))
    g = make_game(TINY)
    pos = g.new()
    r = gnomekit.solve(pos, "value")
    f = tmp_path / "t.txt"
    f.write_text(pos.to_text())
    code = main(["midnight", "solve", str(f), "--edition", str(TINY), "--tablebase", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and r.status is Status.OPTIMAL
    assert (r.value, r.stats["turns"], r.witness) == (d["value"], d["turns"] if d["value"] == "win" else
                                                      d["loss_in"], d["move"])
    with pytest.raises(UsageError, match="no budget"):
        gnomekit.solve(pos, "value", budget=Budget(states=10))
