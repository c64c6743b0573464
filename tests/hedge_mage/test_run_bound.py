"""The running bound (solver/hedge_mage/run_bound.py): admissible against the reference search.

At random states along random walks from generated small positions (sleeping gnomes, all nine
cards, tokens, springshrooms) the bound must be at least the exact optimum from that state (the
reference search, relevant_only=False); the length pruning must keep the shortest optimal plan;
and on default setup gardens where nothing can wake the bound proves 0/+0 at the root.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running import (
    Action,
    RunPosition,
    execute_plan,
    run_position_from_garden,
    running_score,
)
from gnomekit.models.hedge_mage.running_notation import parse_plan
from gnomekit.models.hedge_mage.setup import new_garden
from gnomekit.solver.hedge_mage.run_bound import RunBound
from gnomekit.solver.hedge_mage.run_engine import Engine
from gnomekit.solver.hedge_mage.running import solve_run, successors

from tests.marks import first_by_default

from .test_running import CARDS, pos, random_small, random_tiny, small_garden

ED = default_edition()


def random_sleepy(seed: int) -> RunPosition:
    """A 3x5 position with a hedge, 2 mages, 1 tunnel and 3 gnomes, mostly asleep (waking must be planned)."""
    rng = random.Random(f"run-sleepy/{seed}")
    grid, free = small_garden(rng, 3, 5, vertical=False)
    kind = rng.choice(["flower", "mushroom", "pumpkin"])
    for gc in free[3:6]:
        letter = ED.gnome_kinds[kind if rng.random() < 0.6 else rng.choice(["flower", "mushroom", "pumpkin"])]
        grid[gc[0]][gc[1]] += letter.upper() if rng.random() < 0.2 else letter
    tokens = rng.choice([0, 0, 0, 1])
    return pos("\n".join("  ".join(row) for row in grid), points=rng.choice([1, 1, 2]), tokens=tokens,
               shrooms=0 if tokens else rng.choice([0, 0, 1]), hedges="a=D2", enchantments=rng.choice(CARDS))


def _position(seed: int) -> RunPosition:
    kind = seed % 3
    if kind == 0:
        return random_sleepy(seed)
    rng = random.Random(seed)
    p = random_small(seed, tokens_allowed=True) if kind == 1 else random_tiny(seed)
    return replace(p, springshroom_tokens=rng.choice([0, 0, 1]) if p.tokens == 0 else 0)


def _units(plan: list[Action]) -> int:
    """Unit actions of a merged plan (a path of k steps is k units)."""
    return sum(len(a.path) if a.kind == "step" else 1 for a in plan)


def _check_walk(seed: int) -> None:
    p = _position(seed)
    rng = random.Random(seed)
    eng = Engine(p, ED)
    bound = RunBound(eng, ED, p)
    cur = p
    for _ in range(5):
        if cur.transit is None:
            ref = solve_run(cur, ED, relevant_only=False)
            s = eng.state(cur)
            r, pts = bound.value(s)
            assert r >= ref.value.rescued + cur.total_rescued(), (seed, ref.value)
            assert pts >= ref.value.points + running_score(cur, ED), (seed, ref.value)
            own = bound.own_costs(s)
            assert len(own) >= ref.value.rescued
            # the optimal plan's rescues need at least their own units
            assert _units(ref.witness) >= sum(own[:ref.value.rescued]), (seed, ref.witness, own)
        nxt = [n for _a, n, _t, _s in successors(cur, ED, relevant_only=False)]
        if not nxt:
            break
        cur = rng.choice(nxt)


FAST = [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 14, 15, 16, 19, 23, 24, 25, 27, 28, 29]  # each under a second


@pytest.mark.parametrize("seed", FAST)
def test_bound_is_admissible_along_random_walks(seed: int) -> None:
    _check_walk(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [s for s in range(200) if s not in FAST])
def test_bound_is_admissible_along_random_walks_full(seed: int) -> None:
    _check_walk(seed)


@pytest.mark.parametrize("seed", first_by_default([0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11], 4))  # 2 takes a minute
def test_length_pruning_keeps_the_shortest_optimal_plan(seed: int) -> None:
    """With and without the bound (and its length pruning) the same value and the same plan length."""
    p = random_sleepy(seed)
    with_b = solve_run(p, ED)
    without = solve_run(p, ED, bounds=False)
    assert with_b.value.key() == without.value.key()
    assert _units(with_b.witness) == _units(without.witness)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_setup_garden_where_nothing_can_wake_is_proved_at_the_root(seed: int) -> None:
    """Default setup gardens, 3 points, no tokens: no gnome can wake, the bound proves 0/+0 with 0 states."""
    g, _deck = new_garden(ED, seed)
    p = run_position_from_garden(g, ED, ED.first_game, 3, tokens=0, springshroom_tokens=0)
    eng = Engine(p, ED)
    s = eng.state(p)
    assert RunBound(eng, ED, p).value(s) == (0, running_score(p, ED))
    res = solve_run(p, ED)
    assert res.value.key() == (0, 0, 0) and res.stats["states"] == 0


def test_pumpkins_two_apart_wake_only_when_a_mage_can_carry_one_next_to_the_other() -> None:
    """Pump-kin, both asleep: a mage must walk to one and carry it next to the other (a pick-up puts
    the gnome on the mage's space).  Best: mage 2 walks 7 onto (2,2), picks it up for free, steps to
    (2,1): 8 units.  With 7 points the bound proves that nothing can wake; with 8 it allows it and that
    plan does it."""
    grid = """
.  .  .  .  +  .  .  .2 .1
.  .  .  .  .  .  .  .  .
.p .  .p .  .  .  .  .  .
"""
    short = pos(grid, points=7, hedges="-")
    eng = Engine(short, ED)
    assert RunBound(eng, ED, short).value(eng.state(short)) == (0, 0)
    assert solve_run(short, ED).value.key() == (0, 0, 0)
    enough = replace(short, points=8)
    eng = Engine(enough, ED)
    r, pts = RunBound(eng, ED, enough).value(eng.state(enough))
    assert pts >= 2
    rep = execute_plan(enough, ED, parse_plan("M2>1,7>2,7>2,6>2,5>2,4>2,3>2,2 M2+2,2 M2>2,1", ED))
    assert rep.legal and all(g.awake for g in rep.final.gnomes)


def random_bonus(seed: int) -> RunPosition:
    """A 3x4 position with 3 gnomes, two of them awake, 1 point and no movement token: a rescue's bonus
    (a flower's movement token, a mushroom's springshroom) may be what makes the next rescue possible."""
    rng = random.Random(f"run-bonus/{seed}")
    grid, free = small_garden(rng, 3, 4)
    for i, gc in enumerate(free[3:6]):
        letter = ED.gnome_kinds[rng.choice(["flower", "flower", "mushroom", "mushroom", "pumpkin"])]
        grid[gc[0]][gc[1]] += letter if i == 2 else letter.upper()
    return pos("\n".join("  ".join(row) for row in grid), points=1, tokens=0, shrooms=rng.choice([0, 0, 1]),
               hedges="a=D2", enchantments=rng.choice(CARDS))


BONUS_FAST = [2, 3, 6, 7, 8, 9, 10, 11]  # the reference search under a second each
BONUS_SLOW = [0, 1, 4, 5, 12, 13, 14, 15, 16, 17, 18, 19]


def _check_bonus_walk(seed: int) -> None:
    p = random_bonus(seed)
    eng = Engine(p, ED)
    pairs = [(RunBound(eng, ED, p, carry=c, by_kinds=True), RunBound(eng, ED, p, carry=c)) for c in (False, True)]
    rng = random.Random(seed)
    cur = p
    for _ in range(3):
        if cur.transit is None:
            s = eng.state(cur)
            ref = solve_run(cur, ED, relevant_only=False)
            for new, old in pairs:
                r, pts = new.value(s)
                assert r >= ref.value.rescued + cur.total_rescued(), (seed, ref.value, ref.witness)
                assert pts >= ref.value.points + running_score(cur, ED), (seed, ref.value, ref.witness)
                r0, p0 = old.value(s)
                assert r <= r0 and pts <= p0, (seed, (r, pts), (r0, p0))
        nxt = [n for _a, n, _t, _s in successors(cur, ED, relevant_only=False)]
        if not nxt:
            break
        cur = rng.choice(nxt)


@pytest.mark.parametrize("seed", first_by_default(BONUS_FAST, 3))
def test_bonuses_by_kind_are_admissible_and_never_looser(seed: int) -> None:
    """The rescue count with each rescue's resources the bonuses of the rescues before it, kind by kind
    (``by_kinds``, with and without the carrying test): above the reference search's optimum at the
    root and at states along a random walk, and never above the bound that gives every rescue the
    most bonuses any rescues could (many of these optimal plans spend a token or a springshroom that
    an earlier rescue won)."""
    _check_bonus_walk(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", BONUS_SLOW)
def test_bonuses_by_kind_are_admissible_and_never_looser_full(seed: int) -> None:
    _check_bonus_walk(seed)


@pytest.mark.parametrize("seed", [2, 8])
def test_bonuses_by_kind_know_which_kind_gives_the_bonus(seed: int) -> None:
    """Where the bonus that a third rescue would need comes only from a kind rescued late, ``by_kinds``
    bounds the rescues by 2 (the optimum) where the older count allowed 3."""
    p = random_bonus(seed)
    eng = Engine(p, ED)
    s = eng.state(p)
    ref = solve_run(p, ED, relevant_only=False)
    assert ref.value.rescued == 2
    assert RunBound(eng, ED, p).value(s)[0] == 3
    assert RunBound(eng, ED, p, by_kinds=True).value(s)[0] == 2
