"""Budgets on Hedge Mage's solvers: one :class:`Budget`/:class:`Meter` for states and seconds.

Running out answers ``Status.UNKNOWN`` with the best plan found (legal: the position's ``apply``
takes every move) and a bound on every plan, never "no"; a budget of seconds ends close to its
limit, setup (bounds, relaxation, beam search) included; enough budget answers exactly as the
search always did (same value, plan and states).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from gnomekit.models.core.protocol import Position
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running import running_score
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hedge_mage.audit import max_points, setup_garden
from gnomekit.solver.hedge_mage.running import run_meter, solve_run

import gnomekit

EX = Path(__file__).resolve().parents[2] / "docs" / "examples"
GAME = gnomekit.game("hedge-mage")
ED = default_edition()

#: ``random --seed 1 --round 6``, ``to-run --points 5``: several gnomes can wake, the tight bound
#: costs milliseconds per state, and the optimum is far beyond a second (a 0.5 s budget took 4.7 s
#: when only the search loop looked at the clock, every 256 states)
MID = """hedge-mage run
edition: default
size: 10x10
round: 7
enchantments: planter-enchanter morel-evate pump-kin
points: 5
spent: 0
tokens: 4
springshroom-tokens: 1
sigil-tokens: 0
rescued: -
used: 0 0
moved: -
hedges: a=L3e b=T4 c=L4 d=I3m e=I3 f=D2

   0  1  2  3  4  5  6  7  8  9
0  .  .  .p .  d  D  d  +1 .  .
1  .  .  .  .  .  .  .  .  .  .
2  .  .  .m .  .  .  .  .f .  .
3  .  b  .  .  .  .f .  .  f  .
4  .p B  b  .p .  .  .  .  F  .
5  .  b  .  e  .  .  .p .  .  +2
6  .  .  .  e  .m A  a  .  .  .
7  .  .  .m E  .  .  a  .m .  c
8  .  .  .  .  .  .  .  c  c  C
9  .  .  .f .  .  .  .  .f .  .
"""
SLACK = 1.0  # seconds allowed past the budget on this loaded machine (measured: about 0.01)


def tiny() -> Position:
    return GAME.read((EX / "tiny-run.txt").read_text())


def setup_6() -> Position:
    """``new --seed 1``, ``to-run --points 6 --tokens 0 --springshroom-tokens 0`` (inert-gnome route)."""
    garden = GAME.new(seed=1)
    return garden.to_run(6, tokens=0, springshroom_tokens=0)  # type: ignore[attr-defined]


def assert_anytime(pos: Position, res: Result) -> None:
    """UNKNOWN, a plan the position takes move by move reaching the value claimed, within the bound."""
    assert res.status is Status.UNKNOWN and not res.solved
    assert res.witness is not None and res.bound is not None
    cur = pos
    for move in res.witness:
        cur = cur.apply(move)  # raises IllegalMoveError on an illegal move
    start, fin = pos.run, cur.run  # type: ignore[attr-defined]
    got = (fin.total_rescued() - start.total_rescued(), running_score(fin, ED) - running_score(start, ED))
    assert got == (res.value.rescued, res.value.points)
    assert res.value.rescued <= res.bound["rescued"] and res.value.points <= res.bound["points"]


def test_a_state_budget_ends_unknown_with_a_legal_plan_and_a_bound() -> None:
    pos = tiny()
    res = gnomekit.solve(pos, budget=Budget(states=50))
    assert_anytime(pos, res)
    assert res.stats["states"] == 51 and res.stats["reason"] == "state budget of 50 exhausted"


def mid() -> Position:
    return GAME.read(MID)


@pytest.mark.parametrize("make", [mid, setup_6], ids=["mid-game", "setup-seed-1-6-points"])
def test_a_seconds_budget_ends_on_time_unknown_with_a_legal_plan_and_a_bound(
        make: Callable[[], Position]) -> None:
    pos = make()
    t0 = time.monotonic()
    res = gnomekit.solve(pos, budget=Budget(seconds=0.3))
    took = time.monotonic() - t0
    assert took < 0.3 + SLACK, f"a 0.3 s budget took {took:.2f} s"
    assert_anytime(pos, res)
    assert res.stats["reason"] == "time budget exhausted"


def test_enough_budget_answers_as_before() -> None:
    pos = tiny()
    answers = [gnomekit.solve(pos, budget=b) for b in (None, Budget(states=150_000), Budget(seconds=120),
                                                      Budget(states=199, seconds=120))]
    direct = solve_run(pos.run, ED, max_states=150_000)  # type: ignore[attr-defined]
    assert direct.status is Status.OPTIMAL and direct.stats["states"] == 199
    for res in answers:
        assert res.status is Status.OPTIMAL and res.bound is None
        assert res.value == direct.value and res.stats["states"] == 199
        assert [a for m in res.witness for a in m.actions] == list(direct.witness)
    # one state fewer than the search needs: no longer proven
    assert gnomekit.solve(pos, budget=Budget(states=198)).status is Status.UNKNOWN


def test_a_shared_meter_counts_every_search_it_is_given() -> None:
    pos = tiny().run  # type: ignore[attr-defined]
    meter = Budget(states=250).meter()
    first = solve_run(pos, ED, meter=meter)
    assert first.status is Status.OPTIMAL and meter.states == first.stats["states"] == 199
    second = solve_run(pos, ED, meter=meter)  # 51 states left of the 250
    assert second.status is Status.UNKNOWN and meter.states == 251
    with pytest.raises(ValueError):
        run_meter(max_states=5, budget=Budget(states=5))


def test_the_hint_honours_seconds() -> None:
    pos = mid()
    t0 = time.monotonic()
    h = gnomekit.hint(pos, budget=Budget(seconds=0.3))
    took = time.monotonic() - t0
    assert took < 0.3 + SLACK, f"a 0.3 s hint took {took:.2f} s"  # before: the seconds were ignored
    assert h.status is Status.UNKNOWN and h.move is None
    assert "time budget exhausted" in h.why[0]
    full, default = gnomekit.hint(tiny(), budget=Budget(seconds=120)), gnomekit.hint(tiny())
    assert full.status is Status.OPTIMAL and full.runner_up is not None
    assert (full.move, full.why, full.runner_up, full.value, full.plan) == (
        default.move, default.why, default.runner_up, default.value, default.plan)


def test_plan_by_sat_honours_the_state_count() -> None:
    """With the SAT method a state is one SAT call (lazy connectivity cuts make several)."""
    garden = GAME.new(seed=1)
    tiles = ["I3", "I3m", "L3", "L3e", "I4"]
    free = gnomekit.solve(garden, goal="plan", tiles=tiles)
    calls = free.stats["sat_calls"]
    assert free.status is Status.SATISFIED and calls > 1
    short = gnomekit.solve(garden, goal="plan", tiles=tiles, budget=Budget(states=calls - 1))
    assert short.status is Status.UNKNOWN and short.witness is None
    assert short.stats["sat_calls"] == calls - 1
    enough = gnomekit.solve(garden, goal="plan", tiles=tiles, budget=Budget(states=calls))
    assert enough.status is Status.SATISFIED and enough.witness == free.witness


def test_an_audit_that_runs_out_of_time_is_unknown_not_no() -> None:
    pa = max_points(setup_garden(ED), ED, 0.05)
    assert pa.status == "unknown"
    assert pa.best is None or pa.best <= pa.upper


def test_the_round_solver_takes_a_budget_as_its_state_count() -> None:
    from gnomekit.solver.hedge_mage.round import solve_round

    from tests.hedge_mage.test_round import OURS, RIVALS

    for states in (2, 150_000):
        old = solve_round(OURS[0], RIVALS[0], ED, max_states=states)
        new = solve_round(OURS[0], RIVALS[0], ED, budget=Budget(states=states))
        assert (new.status, new.value, new.stats) == (old.status, old.value, old.stats)
    timed = solve_round(OURS[0], RIVALS[0], ED, budget=Budget(seconds=120))
    assert timed.status is Status.OPTIMAL and timed.value == old.value
