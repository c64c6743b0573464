"""Gnome Hollow through the game protocol: the turn as protocol moves, the bag as chance, the API."""

from __future__ import annotations

import contextlib
import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from gnomekit.models.core.protocol import CHANCE, TERMINAL
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.game import Draw, EndPlacing, GnomeHollowPosition, Pass, RingMarker, make_game
from gnomekit.models.gnome_hollow.notation import read_position
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.scoring import GnomeAction, MarkerChoice, Turn, apply_turn
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Status

import gnomekit
from gnomekit.cli import main

ED = default_edition()
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
MID = (EXAMPLES / "hollow-mid.txt").read_text()
G = gnomekit.game("gnome-hollow")


def _cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["gnome-hollow", *args])
    return code, out.getvalue()


def _ring_turn() -> GnomeHollowPosition:
    """hollow-mid.txt after the two placements that close a 3-tile ring, and ``end``."""
    pos = G.read(MID)
    for m in ("G31@0,-1:r2", "G61@1,-1:r4", "end"):
        pos = pos.apply(m)
    return pos


def test_a_turn_is_placements_end_draws_markers_and_an_action() -> None:
    pos = G.read(MID)
    assert pos.phase == "place" and pos.current_player() == 0
    first = pos.apply("G31@0,-1:r2")
    rep = first.check("end")
    assert not rep.legal and rep.violations[0].rule == "two-tiles" and rep.violations[0].cells
    pos = _ring_turn()
    assert pos.current_player() == CHANCE
    outcomes = pos.chance_outcomes()
    bag = sorted(pos.start.bag)
    assert [m for m, _ in outcomes] == [Draw(t) for t in bag]
    assert all(p == Fraction(1, len(bag)) for _, p in outcomes) and sum(p for _, p in outcomes) == 1
    pos = pos.apply("draw G01").apply("draw G02")
    assert pos.phase == "marker" and pos.current_player() == 0
    moves = pos.legal_moves()
    assert moves == [RingMarker(3, r) for r in (1, 2, 3, 4)]
    bad = pos.check("marker 4.1")
    assert not bad.legal and bad.violations[0].rule == "ring-space" and len(bad.violations[0].cells) == 3
    pos = pos.apply("marker 3.2")
    assert pos.phase == "action" and Pass() in pos.legal_moves()
    done = pos.apply("gnome 0 flowers geranium")
    assert done.moves == () and done.current_player() == 1 and done.phase == "place"
    # the same turn through the engine, with the same choices and draws, gives the same table
    start = read_position(MID, "<mid>", ED)

    class Draws(random.Random):
        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
            return 0  # the bag is sorted: G01, then G02

    turn = Turn((Placement("G31", (0, -1), 2), Placement("G61", (1, -1), 4)), (MarkerChoice(row=2),),
                GnomeAction(0, "flowers", flower="geranium"))
    nxt, gains, _ = apply_turn(start, ED, turn, Draws())
    assert done.start == nxt and gains.points == 3
    assert done.scores()["red"] == G.read(MID).scores()["red"] + 3


def test_mid_turn_positions_read_back_and_the_cli_says_why_not() -> None:
    pos = _ring_turn().apply("draw G05")
    text = pos.to_text()
    assert "turn: G31@0,-1:r2; G61@1,-1:r4; end; draw G05\n" in text
    assert G.read(text) == pos and G.read(json.dumps(pos.to_json())) == pos
    with pytest.raises(gnomekit.NotationError, match="turn in progress"):
        read_position(text, "<t>", ED)
    broken = text.replace("draw G05", "draw G31")
    with pytest.raises(gnomekit.NotationError, match="G31 is not in the bag"):
        G.read(broken)


def test_moves_out_of_turn_order_are_refused_with_the_hex() -> None:
    pos = _ring_turn()
    rep = pos.check("G54@2,0:r0")
    assert rep.violations[0].rule == "turn-order" and rep.violations[0].cells == ((2, 0),)
    place = G.read(MID)
    rep = place.check("G38@0,-1:r0")
    assert [v.rule for v in rep.violations] == ["edges"]
    assert rep.violations[0].cells == ((0, -1), (0, 0))
    assert rep.to_json()["violations"][0]["cells"] == [[0, -1], [0, 0]]
    with pytest.raises(gnomekit.IllegalMoveError) as exc:
        place.apply("G38@0,-1:r0")
    assert exc.value.violations == rep.violations
    for text in ("draw", "marker 3", "gnome x market", "gnome 0 dance", "G1@x"):
        with pytest.raises(gnomekit.NotationError):
            place.parse_move(text)


def test_every_listed_move_of_whole_games_passes_check_and_games_end() -> None:
    for seed, players in ((0, 2), (1, 3)):
        rng = random.Random(seed)
        pos = G.new(players=players, seed=seed, variants=("trade-board",) if seed else ())
        phases: set[str] = set()
        for _ in range(3000):
            if pos.is_terminal():
                break
            phases.add(pos.phase)
            moves = pos.legal_moves()
            assert moves and len(set(moves)) == len(moves)
            if pos.phase == "marker":
                assert all(pos.check(m).legal for m in moves)
            m = rng.choice(moves)
            assert pos.check(m).legal and pos.parse_move(pos.move_text(m)) == m
            pos = pos.apply(m)
        assert pos.is_terminal() and pos.current_player() == TERMINAL and pos.final == players
        assert pos.legal_moves() == [] and isinstance(pos.result(), str)
        assert G.read(pos.to_text()) == pos
        assert {"place", "chance", "action"} <= phases


def test_end_is_legal_when_no_offered_tile_fits() -> None:
    pos = G.read(MID)
    assert EndPlacing() not in pos.legal_moves()
    two = pos.apply("G31@0,-1:r2").apply("G61@1,-1:r4")
    assert EndPlacing() in two.legal_moves()
    assert not any(isinstance(m, Placement) and m.tile in pos.start.offered for m in two.legal_moves())


def test_make_game_takes_an_edition_file_or_object() -> None:
    path = Path(__file__).resolve().parents[2] / "models" / "gnome_hollow" / "data" / "default.toml"
    assert make_game(path).edition.name == ED.name
    assert make_game(ED).edition is ED
    with pytest.raises(TypeError):
        make_game(3)  # type: ignore[arg-type]
    assert G.new(players=3).start.players[2].name == "green"
    assert G.random(2, turns=3) == G.random(2, turns=3)
    assert G.random(2, turns=3).start == G.read(_cli("random", "--seed", "2", "--turns", "3")[1]).start


def test_show_prints_its_report_as_comments_and_networkx_shows_the_same(tmp_path: Path) -> None:
    for seed in range(6):
        f = tmp_path / "p.txt"
        f.write_text(G.random(seed, turns=8).to_text())
        code, a = _cli("show", str(f))
        assert code == 0 and "# completed rings:" in a and "# open networks:" in a
        assert G.read(a) == G.read(f.read_text())
        assert _cli("show", str(f), "--method", "networkx")[1] == a
        assert _cli("show", str(f), "--json")[1] == _cli("show", str(f), "--json", "--method", "networkx")[1]


def test_cli_check_and_close_by_networkx_answer_as_the_defaults() -> None:
    mid = str(EXAMPLES / "hollow-mid.txt")
    for place in (["G31@0,-1:r2", "G61@1,-1:r4"], ["G38@0,-1:r0"], ["G31@0,-1:r2"]):
        a = _cli("check", mid, "--place", *place, "--json")
        b = _cli("check", mid, "--place", *place, "--json", "--method", "networkx")
        assert a == b
    for net in ("0,0.0", "1,1.0"):
        a = json.loads(_cli("solve", mid, "--close", net, "--json")[1])
        b = json.loads(_cli("solve", mid, "--close", net, "--json", "--method", "networkx")[1])
        assert (a["closable"], a["placements"]) == (b["closable"], b["placements"]) and b["method"] == "networkx"


def test_api_goals_budgets_and_methods() -> None:
    pos = G.read(MID)
    assert set(gnomekit.goals("gnome-hollow")) == {"best-turn", "close", "market", "rings"}
    best = gnomekit.solve(pos)
    assert best.status == Status.OPTIMAL and best.value == 3
    cut = gnomekit.solve(pos, budget=Budget(states=5))
    assert cut.status == Status.UNKNOWN and cut.bound == (cut.value, None) and cut.value <= best.value
    for method in ("search", "sat", "networkx"):
        r = gnomekit.solve(pos, "close", method=method, network="0,0.0")
        assert r.status == Status.SATISFIED and r.value is True
    assert gnomekit.solve(pos, "close", network=((1, 1), 0)).status == Status.UNSATISFIABLE
    a, b = gnomekit.solve(pos, "rings"), gnomekit.solve(pos, "rings", method="networkx")
    assert (a.value, a.witness) == (b.value, b.witness) and len(a.witness) == 9
    with pytest.raises(gnomekit.GnomekitError, match="no method"):
        gnomekit.solve(pos, "market", method="sat")
    with pytest.raises(gnomekit.GnomekitError, match="start of a turn"):
        gnomekit.solve(pos.apply("G31@0,-1:r2"))
    assert gnomekit.hint(pos).lines[0] == "place G31@0,-1:r2, then G61@1,-1:r4"
