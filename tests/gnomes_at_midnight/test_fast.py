"""The bitboard engine (solver/gnomes_at_midnight/fast.py) against the reference rules, move by move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from gnomekit.models.core.grid import normalise, transform
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves, next_position, win_conditions
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher
from gnomekit.solver.gnomes_at_midnight.gen import open_positions, positions
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.search import Searcher


def _same_as_reference(pos) -> int:  # type: ignore[no-untyped-def]
    """Compare every legal move of ``pos`` in both engines; returns how many moves were compared."""
    e = FastEngine(pos)
    s = e.state(pos)
    assert e.position(s, pos) == pos
    ref = legal_moves(pos)
    assert [e.to_move(m) for m in e.moves(s)] == ref
    wins = [m for m in ref if after_move(pos, m).wins]
    first = e.winning_now(s)
    assert (e.to_move(first) if first is not None else None) == (wins[0] if wins else None)
    for m in ref:
        a = after_move(pos, m)
        fm = e.from_move(m)
        assert e.wins(s, fm) == bool(a.wins), m
        if a.wins:
            assert sorted(e.win_names(s, fm)) == sorted(a.wins)
            continue
        want = [next_position(a, t if a.flips else None) for t, _ in (a.flips or ((None, 1),))]
        kids = e.children(s, fm)
        assert [e.position(c, pos, pos.turn + 1) for _t, _w, c in kids] == want
        assert [w for _t, w, _c in kids] == [w for _t, w in (a.flips or ((None, 1),))]
    return len(ref)


def test_engine_matches_reference_on_generated_positions() -> None:
    compared = 0
    for pos in positions(120) + open_positions(120):
        for p in (pos, pos.hidden()):
            compared += _same_as_reference(p)
    assert compared > 3000


def test_moon_restricts_adding_option_matches() -> None:
    n = 0
    for pos in positions(60, start=400):
        p = replace(pos, moon_restricts_adding=True)
        n += _same_as_reference(p)
        assert FastEngine(p).restrict
    assert n > 0


def test_random_playouts_move_by_move() -> None:
    """Long random games (decks reshuffle, gnomes get bumped and re-added) in both engines."""
    rng = random.Random(16)
    ed = bundled_edition("default")
    steps = 0
    for g in range(12):
        pos = new_position(ed, g).hidden() if g % 2 else new_position(ed, g)
        for _ in range(40):
            _same_as_reference(pos)
            moves = [m for m in legal_moves(pos) if not after_move(pos, m).wins]
            if not moves:
                break
            a = after_move(pos, rng.choice(moves))
            pos = next_position(a, rng.choice(a.flips)[0] if a.flips else None)
            steps += 1
    assert steps > 300


def test_dance_under_all_eight_symmetries() -> None:
    """Every orientation of every dance card, anywhere it fits, wins for the side standing on it."""
    ed = bundled_edition("default")
    for card in ed.dance:
        pos = new_position(ed, 0, dance=card.name)
        empty = replace(pos, cells=(0,) * len(pos.cells), off=(5, 5))
        e = FastEngine(empty)
        for k in range(8):
            shape = normalise(transform(c, k) for c in card.cells)
            h = max(r for r, _ in shape) + 1
            w = max(c for _, c in shape) + 1
            for dr in range(ed.rows - h + 1):
                for dc in range(ed.cols - w + 1):
                    cells = [0] * len(pos.cells)
                    for r, c in shape:
                        cells[(r + dr) * ed.cols + c + dc] = 1
                    p = replace(empty, cells=tuple(cells))
                    assert "dance" in win_conditions(p, 0)
                    assert e.covers(e.state(p)[0])
                    # one square short: the engine's threat names exactly the missing square
                    missing = (shape[0][0] + dr) * ed.cols + shape[0][1] + dc
                    cells[missing] = 0
                    occ = e.state(replace(empty, cells=tuple(cells)))[0]
                    assert not e.covers(occ) or "dance" in win_conditions(replace(empty, cells=tuple(cells)), 0)
                    if not e.covers(occ):
                        assert missing in e.threats(occ)[1]


def test_symmetric_positions_share_a_key() -> None:
    for pos in positions(40, start=700):
        e = FastEngine(pos)
        s = e.state(pos)
        for perm in pos.board.symmetries:
            cells = [0] * len(pos.cells)
            for i, v in enumerate(pos.cells):
                cells[perm[i]] = v
            img = replace(pos, cells=tuple(cells))
            assert e.key(e.state(img)) == e.key(s)
            assert (e.winning_now(e.state(img)) is None) == (e.winning_now(s) is None)
        assert FastEngine(pos, symmetry=False).key(s) != 0


@pytest.mark.parametrize("n", [2, 3])
def test_fast_searcher_is_the_same_search(n: int) -> None:
    """Same answers and the same node counts as search.Searcher (the speed-up is per node)."""
    count = 10 if n == 2 else 4
    for pos in positions(count, start=900) + open_positions(count, start=900):
        for p in (pos, pos.hidden()):
            k = Kernel(p)
            old = Searcher(k)
            e = FastEngine(p)
            new = FastSearcher(e)
            assert new.shortest(e.state(p), n) == old.shortest(k.state(p), n)
            assert new.nodes == old.nodes


@pytest.mark.slow
def test_engine_matches_reference_many() -> None:
    for pos in positions(600, start=2000) + open_positions(600, start=2000):
        for p in (pos, pos.hidden()):
            _same_as_reference(p)
