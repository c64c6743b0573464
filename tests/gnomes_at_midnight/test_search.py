"""The search (kernel, TT, ordering, symmetry) against the models layer and the independent reference."""

from __future__ import annotations

import pytest
from gnomekit.models.gnomes_at_midnight.edition import TERRAINS
from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves, next_position
from gnomekit.models.gnomes_at_midnight.notation import position_to_json
from gnomekit.solver.gnomes_at_midnight.gen import positions
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.search import SearchOptions, forced_win_within, solve

from tests.gnomes_at_midnight.helpers import empty_board
from tests.gnomes_at_midnight.reference import Ref


def reference(pos, hidden: bool = False) -> tuple[Ref, tuple]:  # type: ignore[no-untyped-def]
    d = position_to_json(pos.hidden() if hidden else pos)
    full = {c: [TERRAINS[t] for t in pos.full_decks[i]] for i, c in enumerate(("green", "blue"))}
    from tests.gnomes_at_midnight.make_perft import PerSide

    ref = PerSide(d, full)
    return ref, ref.start(d)


def test_kernel_matches_models_move_for_move() -> None:
    for pos in positions(30):
        k = Kernel(pos)
        s = k.state(pos)
        km = [k.to_move(m) for m in k.moves(s)]
        assert km == legal_moves(pos)
        for m in legal_moves(pos):
            a = after_move(pos, m)
            km_ = k.from_move(m)
            cells, off, bumped = k.apply(s, km_)
            assert (cells, off, bumped) == (a.pos.cells, a.pos.off, a.bumped)
            assert k.wins(cells, off, pos.to_move, km_, k.covers_dance(s[0], pos.to_move)) == bool(a.wins)
            if not a.wins:
                kids = k.children(s, km_, cells, off)
                want = [next_position(a, t if a.flips else None) for t, _ in (a.flips or ((None, 1),))]
                assert [k.position(c, pos, pos.turn + 1) for _t, _w, c in kids] == want


@pytest.mark.parametrize("n", [1, 2])
def test_search_matches_reference(n: int) -> None:
    count = 24 if n == 1 else 12
    wins = 0
    for pos in positions(count, start=100):
        ref, st = reference(pos)
        want = ref.wins_within(st, n)
        wins += want
        assert forced_win_within(pos, n) == want
        assert forced_win_within(pos, n, options=SearchOptions(tt=False, ordering=False, symmetry=False)) == want
    assert wins > 0  # the sample holds positive cases


def test_hidden_decks_match_reference() -> None:
    for pos in positions(8, start=300):
        ref, st = reference(pos, hidden=True)
        assert forced_win_within(pos, 2, decks="hidden") == ref.wins_within(st, 2)


@pytest.mark.slow
def test_search_matches_reference_many() -> None:
    for n, count in ((1, 300), (2, 300), (3, 50)):
        for pos in positions(count, start=1000 * n):
            ref, st = reference(pos)
            assert forced_win_within(pos, n) == ref.wins_within(st, n)


def test_solve_reports_shortest_win_and_line() -> None:
    # green needs two turns to complete the toadstools; blue cannot interfere in time
    pos = empty_board(gnomes={"green": [[0, 3], [1, 2], [3, 2]], "blue": [[0, 6]]},
                      decks={"green": ["tulips"] * 6, "blue": ["grass"] * 6})
    ref, st = reference(pos)
    assert not ref.wins_within(st, 1) and ref.wins_within(st, 2)
    r = solve(pos, 3)
    assert r.value == 2 and r.witness is not None
    line = r.stats["line"]
    assert line[-1]["side"] == "green" and line[-1]["wins"] == ["toadstools"]
    assert solve(pos, 1).value is None


def test_probability_is_between_and_consistent() -> None:
    for pos in positions(6, start=500):
        r = solve(pos, 2, decks="hidden", probability=True)
        p = r.stats["probability"]
        assert 0.0 <= p <= 1.0
        if r.value is not None:
            assert p == 1.0


def test_reshuffled_deck_makes_the_win_a_chance() -> None:
    # green's decks are empty: every flip reshuffles (2 of each terrain).  The quickest route to the third
    # toadstool goes 3,1 -> 3,2 (grass) -> 4,3 (grass), blocked only when grass is flipped (2 in 6).
    # blue's only gnome stands on grass under a grass moon: it must pass every turn
    pos = empty_board(gnomes={"green": [[0, 3], [2, 3], [3, 1]], "blue": [[0, 6]]},
                      decks={"green": [], "blue": ["grass"] * 6}, moon={"green": None, "blue": "grass"})
    r = solve(pos, 2, probability=True)
    assert r.value is None
    assert abs(r.stats["probability"] - 2 / 3) < 1e-9
    ref, st = reference(pos)
    assert not ref.wins_within(st, 2)
    # the worst case keeps flipping the terrain that blocks (grass, then tulips to trap a gnome): no sure win
    assert solve(pos, 3).value is None and not ref.wins_within(st, 3)


@pytest.mark.slow
def test_reshuffled_deck_deeper() -> None:
    pos = empty_board(gnomes={"green": [[0, 3], [2, 3], [3, 1]], "blue": [[0, 6]]},
                      decks={"green": [], "blue": ["grass"] * 6}, moon={"green": None, "blue": "grass"})
    ref, st = reference(pos)
    assert solve(pos, 4).value is None and not ref.wins_within(st, 4)


def test_hint_without_a_win_picks_a_safe_move() -> None:
    from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves, next_position
    from gnomekit.models.gnomes_at_midnight.notation import parse_move
    from gnomekit.solver.gnomes_at_midnight.hint import hint

    seen = 0
    for pos in positions(12, start=700):
        h = hint(pos, 1)
        if h.kind != "keeps-options":
            continue
        seen += 1
        a = after_move(pos, parse_move(h.move or ""))
        for t, _w in a.flips or ((None, 1),):
            child = next_position(a, t)
            assert not any(after_move(child, r).wins for r in legal_moves(child))
    assert seen
