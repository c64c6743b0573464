"""The z3 counterexample-guided method against the search: same yes/no on generated positions."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gnomekit.models.core.errors import UsageError
from gnomekit.solver.gnomes_at_midnight.gen import open_positions
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.search import Searcher, forced_win_within
from gnomekit.solver.gnomes_at_midnight.smt import smt_wins_within

from tests.gnomes_at_midnight.helpers import empty_board


def _variants(count: int, start: int):  # type: ignore[no-untyped-def]
    for i, pos in enumerate(open_positions(count, start)):
        yield replace(pos, moon_restricts_adding=True) if i % 5 == 4 else pos


def _agree(k: int, count: int, start: int) -> tuple[int, int]:
    wins = 0
    for pos in _variants(count, start):
        want = forced_win_within(pos, k)
        res = smt_wins_within(pos, k)
        assert res.value == want, (k, pos)
        if want:
            # the SMT witness really wins: it is a first move of some forced win within k
            assert res.witness is not None
            k_ = Kernel(pos)
            good = {k_.to_move(m).text() for m in Searcher(k_).winning_moves(k_.state(pos), k)}
            assert res.witness in good
        wins += want
    return wins, count - wins


@pytest.mark.parametrize("k,count,start", [(1, 24, 100), (2, 6, 212), (3, 2, 300)])
def test_smt_agrees_with_search_sample(k: int, count: int, start: int) -> None:
    wins, losses = _agree(k, count, start)
    assert wins and losses  # the sample holds both answers


@pytest.mark.slow
@pytest.mark.parametrize("k,count", [(1, 300), (2, 300), (3, 50)])
def test_smt_agrees_with_search_full(k: int, count: int) -> None:
    wins, losses = _agree(k, count, 10_000 * k)
    assert wins and losses


def test_smt_handles_pass_and_needs_known_cards() -> None:
    # green stuck under a tulips moon passes; blue then completes the toadstools
    pos = empty_board(gnomes={"green": [[0, 1]], "blue": [[0, 3], [2, 3], [3, 2]]}, to_move="green",
                      moon={"green": "tulips", "blue": "tulips"})
    assert forced_win_within(pos, 1) is False
    assert smt_wins_within(pos, 1).value is False
    blue = replace(pos, to_move=1)
    assert smt_wins_within(blue, 1).value is True and forced_win_within(blue, 1)
    with pytest.raises(UsageError):
        smt_wins_within(replace(pos, known=((), ())), 2)
