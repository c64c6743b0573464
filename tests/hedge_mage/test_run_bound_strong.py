"""The mover-aware carrying test of the running bound (``carry_need`` in solver/hedge_mage/run_bound.py).

``carry_need`` must equal a brute force over gnome subsets, never be weaker than the pooled test,
stay below the mage units of the reference search's optimal plans, and (through ``RunBound.value``)
keep the bound above the exact optimum on generated small positions the older tests do not walk.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running import Action, running_score
from gnomekit.solver.hedge_mage.run_bound import INF, RunBound, carry_need
from gnomekit.solver.hedge_mage.run_engine import Engine
from gnomekit.solver.hedge_mage.running import solve_run

from .test_run_bound import _position

ED = default_edition()
KINDS = ("flower", "mushroom", "pumpkin")


def _brute(tagged: list[tuple[str, int, int]], k: int) -> int:
    """The least ``sum(u) - sum over kinds of max(min(u, b))`` over every set of ``k`` gnomes."""
    best = INF
    for sub in combinations(tagged, k):
        walk = {kind: max(min(u, b) for kk, u, b in sub if kk == kind) for kind, _u, _b in sub}
        best = min(best, sum(u for _k, u, _b in sub) - sum(walk.values()))
    return best


def _random_tagged(rng: random.Random) -> list[tuple[str, int, int]]:
    return [(rng.choice(KINDS), rng.randint(0, 9), rng.choice([0, 0, rng.randint(0, 8)]))
            for _ in range(rng.randint(0, 7))]


@pytest.mark.parametrize("seed", range(40))
def test_carry_need_is_the_least_over_gnome_sets(seed: int) -> None:
    rng = random.Random(f"carry/{seed}")
    tagged = _random_tagged(rng)
    for k in range(len(tagged) + 2):
        want = 0 if k == 0 else (_brute(tagged, k) if k <= len(tagged) else INF)
        assert carry_need(tagged, k) == want, (tagged, k)


@pytest.mark.parametrize("seed", range(40))
def test_carry_need_is_never_weaker_than_the_pooled_test(seed: int) -> None:
    """need(k) >= the k cheapest units less every kind's walk budget: passing it passes the pooled test."""
    rng = random.Random(f"pool/{seed}")
    tagged = _random_tagged(rng)
    walk = {kind: max((b for kk, _u, b in tagged if kk == kind), default=0) for kind in KINDS}
    costs = sorted(u for _k, u, _b in tagged)
    for k in range(1, len(tagged) + 1):
        assert carry_need(tagged, k) >= sum(costs[:k]) - sum(walk.values())
        assert carry_need(tagged, k) <= sum(costs[:k])  # and never more than no walking at all


def test_carry_need_counts_one_walker_per_kind() -> None:
    # two pumpkins 5 from a tunnel, each able to walk 7: only one walks, the mages carry the other
    assert carry_need([("pumpkin", 5, 7), ("pumpkin", 5, 7)], 2) == 5
    assert carry_need([("pumpkin", 5, 7), ("flower", 5, 7)], 2) == 0
    assert carry_need([("pumpkin", 5, 2), ("flower", 5, 0)], 2) == 8


def _mage_units_at_most(plan: list[Action]) -> int:
    """An upper bound on the mage units of a plan: every mage pick-up and drop counted as paid."""
    return sum((len(a.path) if a.kind == "step" else 1) for a in plan
               if a.mage is not None and a.kind in ("step", "pickup", "drop"))


SLOW = {30, 33, 37, 39, 40, 63}  # 2 to 200 seconds each
SEEDS = [s for s in range(31, 75) if s % 3 != 2 and s not in SLOW]
FAST = SEEDS[:12]


def _check_root(seed: int) -> None:
    p = _position(seed)
    eng = Engine(p, ED)
    bound = RunBound(eng, ED, p, carry=True)
    s = eng.state(p)
    ref = solve_run(p, ED, relevant_only=False)
    r, pts = bound.value(s)
    assert r >= ref.value.rescued + p.total_rescued(), (seed, ref.value)
    assert pts >= ref.value.points + running_score(p, ED), (seed, ref.value)
    mv = bound._bonus_prefix(s, "movement")
    sh = bound._bonus_prefix(s, "springshroom")
    tagged = bound._level(s, mv[-1], sh[-1])[3]
    assert carry_need(tagged, ref.value.rescued) <= _mage_units_at_most(ref.witness), (seed, ref.witness, tagged)


@pytest.mark.parametrize("seed", FAST)
def test_strong_bound_is_admissible_and_below_the_optimal_plans_mage_units(seed: int) -> None:
    _check_root(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [s for s in SEEDS if s not in FAST] + sorted(SLOW))
def test_strong_bound_is_admissible_and_below_the_optimal_plans_mage_units_full(seed: int) -> None:
    _check_root(seed)
