"""The threat search (``FastSearcher(threats=True)``): its two rules against the reference rules, and its
answers against the reference alpha-beta on puzzles and generated positions, open and hidden decks."""

from __future__ import annotations

import pytest
from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves, next_position
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher
from gnomekit.solver.gnomes_at_midnight.gen import open_positions, positions
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.puzzles import load_puzzle, puzzle_files
from gnomekit.solver.gnomes_at_midnight.search import Searcher
from hypothesis import given, settings
from hypothesis import strategies as st


def _children(pos: Position, r):  # type: ignore[no-untyped-def]
    a = after_move(pos, r)
    return [next_position(a, t if a.flips else None) for t, _w in (a.flips or ((None, 1),))]


def _wins_at_once(pos: Position) -> bool:
    """By the reference rules: can the side to move of ``pos`` win with its next move?"""
    return any(after_move(pos, m).wins for m in legal_moves(pos))


def _check_rules(pos: Position) -> tuple[int, int]:
    """Every reply the threat rules pass over, replayed by the reference rules: a spared threat is a
    win at once for the attacker after every flip; a quiet reply leaves it none.  Returns how many
    replies each rule judged (spared, quiet)."""
    e = FastEngine(pos)
    s = e.state(pos)
    threats = e.attacker_threats(s)
    spared = quiet = 0
    for r in legal_moves(pos):
        if after_move(pos, r).wins:
            continue  # the defender wins: the search stops before either rule
        fr = e.from_move(r)
        if e.spares_threat(fr, threats):
            spared += 1
            assert all(_wins_at_once(c) for c in _children(pos, r)), (pos, r)
        if not threats and e.quiet(s, fr):
            quiet += 1
            assert not any(_wins_at_once(c) for c in _children(pos, r)), (pos, r)
    return spared, quiet


def test_threat_rules_against_the_reference_rules() -> None:
    spared = quiet = 0
    for pos in positions(150, start=300) + open_positions(150, start=300):
        a, b = _check_rules(pos)
        spared, quiet = spared + a, quiet + b
    assert spared > 150 and quiet > 150  # both rules were exercised (not a vacuous pass)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_threat_rules_property(k: int, open_decks: bool) -> None:
    (pos,) = open_positions(1, start=k) if open_decks else positions(1, start=k)
    _check_rules(pos)


def test_threat_search_solves_the_puzzles_with_fewer_nodes() -> None:
    plain = threat = 0
    for f in puzzle_files():
        data, pos = load_puzzle(f)
        p = pos.hidden() if data.get("decks") == "hidden" else pos
        e = FastEngine(p)
        old, new = FastSearcher(e), FastSearcher(e, threats=True)
        want = int(data["answer"]["turns"])
        assert old.shortest(e.state(p), int(data["depth"])) == want
        assert new.shortest(e.state(p), int(data["depth"])) == want
        plain, threat = plain + old.nodes, threat + new.nodes
    assert threat < plain


@pytest.mark.parametrize("n", [2, 3])
def test_threat_search_agrees_with_the_reference_search(n: int) -> None:
    """Same answers as ``search.Searcher`` (the first engine) at every depth up to ``n``, open and hidden."""
    count = 60 if n == 2 else 20
    for pos in positions(count, start=4000) + open_positions(count, start=4000):
        for p in (pos, pos.hidden()):
            k = Kernel(p)
            e = FastEngine(p)
            ref, new = Searcher(k), FastSearcher(e, threats=True)
            assert new.shortest(e.state(p), n) == ref.shortest(k.state(p), n), p


@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_threat_search_agrees_many(n: int) -> None:
    """600 generated positions, each open and hidden, against the unpruned fast search (itself node for
    node the reference search: test_fast); about a third of them are wins within 3."""
    lengths = set()
    for pos in positions(300, start=5000) + open_positions(300, start=5000):
        for p in (pos, pos.hidden()):
            e = FastEngine(p)
            got = FastSearcher(e, threats=True).shortest(e.state(p), n)
            assert got == FastSearcher(e).shortest(e.state(p), n), p
            lengths.add(got)
    assert lengths >= {None, *range(1, n + 1)}
