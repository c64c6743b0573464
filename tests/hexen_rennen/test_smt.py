"""z3 against the search: the same turn encoded twice must give the same values.

The default run checks a sample; ``--runslow`` checks at least 300 generated positions.
Positions whose longest chain exceeds MAX_STEPS are skipped (z3 time grows fast with
the unrolling; the skipped share is asserted to stay small).
"""

from __future__ import annotations

import pytest
from gnomekit.models.hexen_rennen.turn import Rules, Turn, movable_witches
from gnomekit.solver.hexen_rennen.generate import rich_position
from gnomekit.solver.hexen_rennen.smt import longest_chain, verify_turn

from tests.hexen_rennen.hexen_build import ED, make

MAX_STEPS = 6


def small_enough(pos, roll) -> bool:
    for o, t, _ in movable_witches(pos, ED, roll):
        if t is not None:
            turn = Turn(pos, ED, o)
            if longest_chain(turn, turn.start(t)) > MAX_STEPS:
                return False
    return True


def cross_check(seeds: range, want: int) -> None:
    checked, skipped, interesting = 0, 0, 0
    for seed in seeds:
        if checked >= want:
            break
        pos = rich_position(ED, seed)
        roll = 1 + seed % 6
        if not small_enough(pos, roll):
            skipped += 1
            continue
        rules = Rules(strict_symbol_target=seed % 3 == 0)
        v = verify_turn(pos, ED, roll, rules)
        assert v.agrees, (seed, roll, rules, v.to_json())
        checked += 1
        interesting += any(w.search_value != w.search_coop for w in v.witches)
    assert checked >= want
    assert skipped <= checked // 5
    assert interesting >= checked // 20  # the sample does exercise minimax != cooperative


def test_worked_example_z3() -> None:
    pos = make({13: "w10", 23: "W4", 27: "FS", 20: "IS", 15: "F6"},
               {"weather": [10, 0, 0], "fog": [0, 0, 0], "ice": [0, 0, 0]},
               {"weather": [], "fog": [7], "ice": [5, 9]}, players=("weather", "fog", "ice"))
    v = verify_turn(pos, ED, 3)
    assert v.agrees and {w.origin: (w.search_value, w.z3_coop) for w in v.witches} == {0: (3, 3), 10: (11, 27)}


def test_z3_catches_a_wrong_strategy() -> None:
    """The certificate check must fail when the claimed value is wrong (the test can fail)."""
    from gnomekit.solver.hexen_rennen.chain import ChainSearch
    from gnomekit.solver.hexen_rennen.smt import prove_lower, prove_upper, sufficient_bound

    pos = make({13: "w10", 23: "W4", 27: "FS", 20: "IS", 15: "F6"},
               {"weather": [10, 0, 0], "fog": [0, 0, 0], "ice": [0, 0, 0]},
               {"weather": [], "fog": [7], "ice": [5, 9]}, players=("weather", "fog", "ice"))
    turn = Turn(pos, ED, 10)
    st = turn.start(13)
    s = ChainSearch(turn)
    enc = sufficient_bound(pos, ED, 10, 13, Rules(), start=2)
    assert enc is not None and enc.K >= 5
    assert prove_lower(enc, s.strategy(st), 11) and not prove_lower(enc, s.strategy(st), 12)
    assert prove_upper(enc, s.counter_strategy(st), 11) and not prove_upper(enc, s.counter_strategy(st), 10)
    # a counter-strategy where ice answers 5 instead of 9 lets the mover reach 15 > 11
    bad = {h: (5 if c == 9 else c) for h, c in s.counter_strategy(st).items()}
    assert not prove_upper(enc, bad, 11)


def test_z3_agrees_on_a_sample() -> None:
    cross_check(range(0, 400), 12)


@pytest.mark.slow
def test_z3_agrees_on_300_positions() -> None:
    cross_check(range(1000, 2000), 300)
