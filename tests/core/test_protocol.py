"""The same properties on all four games, through the one protocol (models/core/protocol.py).

Random playouts from new and random positions: every move ``legal_moves()`` lists passes
``check``; ``apply`` returns a new position and never changes the old one; text and JSON
round-trip; move notation round-trips; chance nodes list outcomes whose probabilities sum to 1;
what ``show`` prints reads back as the same position.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from gnomekit.models.core.protocol import CHANCE, TERMINAL, Position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gnomekit
from gnomekit.cli import main

GAMES = gnomekit.games()
#: Moves per playout, and how many of each position's legal moves are checked one by one.
PLAYOUT = 6
CHECKED = 25


def _snapshot(pos: Position) -> tuple[str, str, int]:
    return pos.to_text(), json.dumps(pos.to_json(), sort_keys=True), hash(pos)


def _round_trips(pos: Position) -> None:
    g = pos.game
    assert g.read(pos.to_text(), "<text>") == pos
    assert g.read(json.dumps(pos.to_json()), "<json>") == pos
    assert hash(g.read(pos.to_text(), "<text>")) == hash(pos)


def _check_position(pos: Position, rng: random.Random) -> Position | None:
    """Check one position's properties; return the next position of a random playout."""
    _round_trips(pos)
    player = pos.current_player()
    if pos.is_terminal():
        assert player == TERMINAL
        assert isinstance(pos.result(), str)
        return None
    assert player == CHANCE or player >= 0
    moves = pos.legal_moves()
    if player == CHANCE:
        outcomes = pos.chance_outcomes()
        assert outcomes and sum(Fraction(p) for _, p in outcomes) == 1
        assert [m for m, _ in outcomes] == moves
    assert len(set(moves)) == len(moves), "legal_moves lists a move twice"
    for m in rng.sample(moves, min(CHECKED, len(moves))):
        text = pos.move_text(m)
        assert pos.parse_move(text) == m, f"{text!r} does not read back"
        rep = pos.check(m)
        assert rep.legal, f"{text} is listed but check says: {rep}"
        assert pos.check(text).legal
    if not moves:
        return None
    before = _snapshot(pos)
    nxt = pos.apply(rng.choice(moves))
    assert _snapshot(pos) == before, "apply changed the position it was called on"
    assert isinstance(nxt, Position) and nxt is not pos
    return nxt


def _playout(pos: Position, seed: int) -> None:
    rng = random.Random(seed)
    cur: Position | None = pos
    for _ in range(PLAYOUT):
        if cur is None:
            break
        cur = _check_position(cur, rng)


@pytest.mark.parametrize("name", GAMES)
def test_new_position_playouts(name: str) -> None:
    g = gnomekit.game(name)
    _playout(g.new(), 0)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_random_position_playouts(name: str, seed: int) -> None:
    g = gnomekit.game(name)
    _playout(g.random(seed), seed)


@pytest.mark.parametrize("name", GAMES)
def test_random_is_reproducible(name: str) -> None:
    g = gnomekit.game(name)
    assert g.random(3) == g.random(3)
    assert g.read(g.write(g.random(3), "json")) == g.random(3)


@pytest.mark.parametrize("name", GAMES)
def test_show_output_reads_back(name: str, tmp_path: Path) -> None:
    g = gnomekit.game(name)
    pos = g.random(1)
    f = tmp_path / "pos.txt"
    f.write_text(pos.to_text())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([name, "show", str(f)])
    assert code == 0
    assert g.read(out.getvalue(), "<show>") == pos


@pytest.mark.parametrize("name", GAMES)
def test_illegal_move_names_every_broken_rule(name: str) -> None:
    """A move legal in one position but not in another is refused with its violations."""
    g = gnomekit.game(name)
    rng = random.Random(7)
    def decision(pos: Position) -> Position:  # past any chance node, so both have real choices
        while pos.is_chance_node():
            pos = pos.apply(pos.legal_moves()[seed % len(pos.legal_moves())])
        return pos

    for seed in range(20):
        a, b = decision(g.random(seed)), decision(g.random(seed + 100))
        if a.is_terminal() or b.is_terminal() or a.current_player() != b.current_player():
            continue
        moves_b = set(b.legal_moves())
        for m in a.legal_moves():
            if m in moves_b:
                continue
            rep = b.check(m)
            assert not rep.legal and rep.violations
            assert all(v.rule and v.message for v in rep.violations)
            with pytest.raises(gnomekit.IllegalMoveError) as exc:
                b.apply(m)
            assert exc.value.violations == rep.violations
            return
        rng.random()
    pytest.skip("no move legal in one random position and not another")


@pytest.mark.parametrize("name", GAMES)
def test_repr_is_a_board(name: str) -> None:
    pos = gnomekit.game(name).new()
    r = repr(pos)
    assert pos.to_text().strip().splitlines()[0] in r
    assert "dataclass" not in r and "(" not in r.splitlines()[0][:2]
