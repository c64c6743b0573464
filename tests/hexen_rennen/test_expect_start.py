"""``solve --expect`` at the start of a game: exact values against the naive reference, and the refinement bounds.

Positions come from ``new_position`` (2-4 players, every tile face down, every witch at the start)
with the hands cut down through the position text (``hand``/``deck`` lines), so that the naive
reference (tests/hexen_rennen/expect_reference.py) can enumerate every chain.  The refinement
(:meth:`solver.hexen_rennen.expect.ExpectSearch.refine_all`) is a second route to the exact value:
given enough states it closes every interval on the exact search's value, and with fewer states its
intervals contain it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from gnomekit.models.hexen_rennen.notation import position_from_text, position_to_text
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.setup import new_position
from gnomekit.models.hexen_rennen.turn import Turn
from gnomekit.solver.hexen_rennen.expect import BudgetExceeded, ExpectSearch, expect_turn

from tests.hexen_rennen.expect_reference import TooBig, reference_turn
from tests.hexen_rennen.hexen_build import ED


def cut_hands(pos: Position, rng: random.Random, most: int) -> Position:
    """The position with every hand and deck cut to at most ``most`` cards, rewritten through the text format."""
    lines = []
    for ln in position_to_text(pos, ED).splitlines():
        if ln.startswith(("hand ", "deck ")):
            head, cards = ln.split(":", 1)
            toks = cards.split()
            keep = sorted(rng.sample(range(len(toks)), rng.randint(0, min(most, len(toks)))))
            ln = head + ": " + " ".join(toks[i] for i in keep)
        lines.append(ln)
    return position_from_text("\n".join(lines) + "\n", "<cut>", ED)


def start_positions(most: int) -> Iterator[tuple[int, Position]]:
    seed = 0
    while True:
        rng = random.Random(f"start/{seed}")
        yield seed, cut_hands(new_position(ED, 2 + seed % 3, seed), rng, most)
        seed += 1


def compare_with_reference(n: int, most: int, limit: int) -> int:
    """Compare n game-start positions the reference finishes; returns how many needed more than 50 states."""
    done = deep = 0
    for _seed, pos in start_positions(most):
        try:
            res = expect_turn(pos, ED, max_nodes=20000)
            table, best, overall = reference_turn(pos, ED, limit=limit)
        except (BudgetExceeded, TooBig):
            continue
        (w,) = res.witches  # every witch is at the start: one choice
        assert w.exact_by_roll == table[0]
        assert res.exact_best_by_roll == best and res.exact_overall == overall
        done += 1
        deep += res.nodes > 50
        if done == n:
            return deep
    raise AssertionError("unreachable")


def test_game_start_matches_naive_reference_sample() -> None:
    # at most one card per hand and deck, so that the naive walk can finish (measured: with up to two
    # cards, 9 of the first 12 game starts need more than 20,000 exact states)
    assert compare_with_reference(3, 1, 30000) >= 2


@pytest.mark.slow
def test_game_start_matches_naive_reference_full() -> None:
    assert compare_with_reference(12, 1, 400000) >= 8


def refine_exact(pos: Position, allow: int) -> dict[int, tuple[Fraction, Fraction]]:
    turn = Turn(pos, ED, 0)
    s = ExpectSearch(turn, True)
    rolls = sorted(set(ED.die))
    ivs = s.refine_all([turn.start(t) for r in rolls if (t := turn.die_target(r)[0]) is not None], allow)
    return dict(zip(rolls, ivs, strict=True))


def test_refinement_alone_closes_on_the_exact_value() -> None:
    # no exact search first: the refinement rounds alone, with ample states, must end on the exact value
    checked = 0
    for _seed, pos in start_positions(2):
        try:
            ex = expect_turn(pos, ED, max_nodes=4000)
        except BudgetExceeded:
            continue
        got = refine_exact(pos, 10**7)
        for r in ex.rolls:
            v = ex.witches[0].exact_by_roll[r]
            assert got[r] == (v, v), (r, got[r], v)
        checked += 1
        if checked == 4:
            break


def test_refinement_intervals_contain_the_exact_value() -> None:
    checked = opened = 0
    for _seed, pos in start_positions(2):
        try:
            ex = expect_turn(pos, ED, max_nodes=6000)
        except BudgetExceeded:
            continue
        if ex.nodes < 200:
            continue
        for allow in (5, 50, 500):
            got = refine_exact(pos, allow)
            for r in ex.rolls:
                v = ex.witches[0].exact_by_roll[r]
                assert v is not None and got[r][0] <= v <= got[r][1], (allow, r, got[r], v)
                opened += got[r][0] < got[r][1]
        checked += 1
        if checked == 3:
            break
    assert opened >= 10


def test_full_game_start_refinement_beats_the_split_allowance() -> None:
    # a real game start (far beyond the exact search): with the same states the refinement's interval
    # is much narrower than the previous method's (one level at a time, the allowance split evenly)
    pos = new_position(ED, 2, 1)
    widths = {}
    for method in ("refine", "split"):
        res = expect_turn(pos, ED, max_nodes=2000, bounded=True, method=method)
        lo, hi = res.bounds_overall
        assert 1 <= lo < hi <= ED.last_field
        widths[method] = hi - lo
    assert widths["refine"] * 3 < widths["split"], widths
