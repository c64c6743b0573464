"""The SAT method against enumeration and brute force.

* ``sat_all`` (lazy and eager connectivity) returns exactly the placements and
  points of ``enumerate_all`` on random gardens (with extra springshrooms and
  bonus sigil tokens too), and on small hand-made and random gardens;
* ``sat_best_points`` equals the maximum over enumeration, ties included;
* ``plan_placements`` witnesses are re-checked step by step with
  ``check_placement``; its "no" answers, failing prefixes and cores are
  re-derived by a depth-first search over enumerated placements on small
  gardens, with the rules the core names switched on and off.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest
from gnomekit.models.core.grid import Cell, all_cells, orthogonal_neighbours, windows_2x2
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition
from gnomekit.models.hedge_mage.placement import (
    Placement,
    apply_placement,
    candidates,
    check_placement,
    legal_placements,
)
from gnomekit.models.hedge_mage.position import Garden, Gnome, Hedge, Mage
from gnomekit.models.hedge_mage.setup import random_garden
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hedge_mage.placements import enumerate_all
from gnomekit.solver.hedge_mage.sat import PlacementSat, plan_placements, sat_all, sat_best_points

from tests.marks import first_by_default

ED = default_edition()
TILES = list(ED.tiles)


# ---------------------------------------------------------------------------------------------
# Positions


def decorate(g: Garden, rng: random.Random) -> Garden:
    """Random extra springshrooms on free ground and bonus sigil tokens on hedges."""
    free = sorted(c for c in all_cells(g.rows, g.cols) if c not in g.hedge_cells and c not in g.occupants)
    shrooms = rng.sample(free, min(len(free), rng.randint(1, 4)))
    tile_sigils = {h.sigil for h in g.hedges}
    spots = sorted(c for c in g.hedge_cells if c not in tile_sigils and c not in g.bonus_sigils)
    tokens = rng.sample(spots, min(len(spots), rng.randint(0, 3)))
    return replace(g, springshrooms=g.springshrooms + tuple(shrooms), bonus_sigils=g.bonus_sigils + tuple(tokens))


def position(i: int) -> Garden:
    """Position number i: a random garden after i % 11 rounds, every third one decorated."""
    g, _ = random_garden(ED, 1000 + i, i % 11)
    if i % 3 == 2:
        g = decorate(g, random.Random(i))
    return g


def tiles_for(i: int, k: int) -> list[str]:
    """k tiles for position i (all of them when k >= 12), seeded."""
    return TILES if k >= len(TILES) else random.Random(f"tiles/{i}").sample(TILES, k)


def small_garden(seed: int) -> Garden:
    """A random 3x3..6x6 garden with a few occupants and some random legal hedges."""
    rng = random.Random(f"small/{seed}")
    rows, cols = rng.randint(3, 6), rng.randint(3, 6)
    cells = list(all_cells(rows, cols))
    occ = rng.sample(cells, rng.randint(0, 3))
    g = Garden(rows=rows, cols=cols, gnomes=tuple(Gnome("flower", c) for c in occ[:2]),
               mages=tuple(Mage(c) for c in occ[2:]))
    for _ in range(rng.randint(0, 3)):
        en = legal_placements(g, ED.tiles[rng.choice(TILES)])
        if en.placements:
            g = apply_placement(g, ED, rng.choice(en.placements))
    return g


def same(a: list, b: list) -> None:  # type: ignore[type-arg]
    assert [x.tile for x in a] == [x.tile for x in b]
    for x, y in zip(a, b, strict=True):
        assert x.placements == y.placements, x.tile
        assert x.points == y.points, x.tile


# ---------------------------------------------------------------------------------------------
# sat_all vs enumeration


def check_agreement(i: int, k: int) -> None:
    g = position(i)
    tiles = tiles_for(i, k)
    if g.tile is not None and g.tile not in tiles:
        tiles = [g.tile] + tiles
    same(sat_all(g, ED, tiles), enumerate_all(g, ED, tiles))


@pytest.mark.parametrize("i", first_by_default(range(40), 15))
def test_sat_matches_enumeration_sample(i: int) -> None:
    check_agreement(i, 2 if i % 11 < 4 else 4)


@pytest.mark.slow
def test_sat_matches_enumeration_500() -> None:
    for i in range(500):
        check_agreement(i, 12 if i % 11 >= 7 or i % 25 == 0 else 3)


def test_sat_matches_enumeration_small_gardens() -> None:
    for seed in range(40):
        g = small_garden(seed)
        same(sat_all(g, ED, TILES), enumerate_all(g, ED, TILES))


def test_lazy_and_eager_agree() -> None:
    for seed in range(12):
        g = small_garden(seed)
        same(sat_all(g, ED, TILES, connectivity="eager"), sat_all(g, ED, TILES, connectivity="lazy"))
    for i in (4, 7, 9, 10):
        g = position(i)
        tiles = tiles_for(i, 2)
        same(sat_all(g, ED, tiles, connectivity="eager"), enumerate_all(g, ED, tiles))


@pytest.mark.slow
def test_lazy_and_eager_agree_full() -> None:
    for i in range(60):
        g = position(i)
        tiles = tiles_for(i, 12 if i % 11 >= 6 else 3)
        same(sat_all(g, ED, tiles, connectivity="eager"), enumerate_all(g, ED, tiles))


def test_broken_gardens_have_no_placements() -> None:
    # Ground already split (a hedge wall across a 3x3 garden) or a 2x2 hedge block: nothing is legal.
    wall = Garden(rows=3, cols=3).with_hedge(_hedge("I3", ((1, 0), (1, 1), (1, 2)), (1, 0)))
    block = Garden(rows=4, cols=4).with_hedge(_hedge("S4", ((0, 1), (0, 2), (1, 0), (1, 1)), (0, 1)))
    block = block.with_hedge(_hedge("D2", ((2, 0), (2, 1)), (2, 0)))
    for g in (wall, block):
        assert g.warnings()
        for method in ("lazy", "eager"):
            assert all(not x.placements for x in sat_all(g, ED, ["D2", "I3"], connectivity=method))
        assert all(not x.placements for x in enumerate_all(g, ED, ["D2", "I3"]))
        res = plan_placements(g, ED, ["D2"])
        assert res.status is Status.UNSATISFIABLE and res.value == 0


def _hedge(tile: str, cells: tuple[Cell, ...], sigil: Cell) -> Hedge:
    return Hedge(tile, cells, sigil)


def test_warm_solver_answers_many_queries() -> None:
    """One warm solver: enumerations, single answers and best in any order stay exact."""
    g = position(6)
    expected = {x.tile: x for x in enumerate_all(g, ED, TILES)}
    with PlacementSat(g, ED) as ps:
        for t in ["N5", "D2", "T4", "N5", "I3m"]:
            first = ps.first(t)
            assert (first is None) == (not expected[t].placements)
            if first is not None:
                assert first in expected[t].placements
            got = ps.placements(t)
            assert got.placements == expected[t].placements and got.points == expected[t].points
        best = ps.best(["S4", "L3"])
        assert best.value == max(expected["S4"].points + expected["L3"].points)
        assert ps.placements("L3").placements == expected["L3"].placements


# ---------------------------------------------------------------------------------------------
# Best points


def expected_best(g: Garden, tiles: list[str]) -> tuple[int, Placement] | None:
    best = None
    for ti, grp in enumerate(enumerate_all(g, ED, tiles)):
        for p, pts in zip(grp.placements, grp.points, strict=True):
            k = (-pts, ti, p.key)
            if best is None or k < best[0]:
                best = (k, pts, p)
    return None if best is None else (best[1], best[2])


@pytest.mark.parametrize("i", range(0, 60, 5))
def test_best_points_matches_enumeration(i: int) -> None:
    g = position(i)
    tiles = tiles_for(i, 12) if i % 2 else random.Random(i).sample(TILES, 5)
    res = sat_best_points(g, ED, tiles)
    exp = expected_best(g, tiles)
    if exp is None:
        assert res.status is Status.UNSATISFIABLE
    else:
        assert res.status is Status.OPTIMAL
        assert (res.value, res.witness) == exp


def test_best_points_small_gardens_and_unsat() -> None:
    for seed in range(20):
        g = small_garden(seed)
        tiles = random.Random(seed).sample(TILES, 4)
        res = sat_best_points(g, ED, tiles)
        exp = expected_best(g, tiles)
        if exp is None:
            assert res.status is Status.UNSATISFIABLE
        else:
            assert (res.status, res.value, res.witness) == (Status.OPTIMAL, *exp)
    assert sat_best_points(Garden(rows=2, cols=2), ED, ["I3", "N5"]).status is Status.UNSATISFIABLE


# ---------------------------------------------------------------------------------------------
# Plans


def replay(g: Garden, ed: HedgeMageEdition, tiles: list[str], witness: list[Placement]) -> None:
    """Each witness step is the right tile and legal at its time."""
    assert [p.tile for p in witness] == tiles
    for p in witness:
        rep = check_placement(g, ed, p, check_tile_choice=False)
        assert rep.legal, rep.violations
        g = apply_placement(g, ed, p)


def legal_under(g: Garden, cells: tuple[Cell, ...], rules: frozenset[str]) -> bool:
    """Legality with the 2x2 and connectivity rules switchable (bounds and overlap always)."""
    if any(not g.in_bounds(c) or c in g.hedge_at or c in g.occupants for c in cells):
        return False
    after = set(g.hedge_cells) | set(cells)
    if "2x2" in rules and any(all(x in after for x in w) for w in windows_2x2(g.rows, g.cols)):
        return False
    if "connected" in rules:
        ground = [c for c in all_cells(g.rows, g.cols) if c not in after]
        if ground:
            seen, stack = {ground[0]}, [ground[0]]
            while stack:
                for n in orthogonal_neighbours(stack.pop(), g.rows, g.cols):
                    if n not in after and n not in seen:
                        seen.add(n)
                        stack.append(n)
            if len(seen) != len(ground):
                return False
    return True


def placeable(g: Garden, tiles: list[str], required: set[int],
              rules: frozenset[str] = frozenset({"2x2", "connected"})) -> bool:
    """Brute force: can the steps be done in order, the required ones placing, the others optional?"""

    @cache
    def rec(i: int, hedge: frozenset[Cell]) -> bool:
        if i == len(tiles):
            return True
        if i not in required and rec(i + 1, hedge):
            return True
        cur = replace(g, hedges=g.hedges + tuple(_hedge("D2", (c,), c) for c in sorted(hedge)))
        for cand in candidates(cur, ED.tiles[tiles[i]]):
            cells = cand.placement.cells
            if legal_under(cur, cells, rules) and rec(i + 1, hedge | frozenset(cells)):
                return True
        return False

    return rec(0, frozenset())


def check_plan(g: Garden, tiles: list[str]) -> Result:
    res = plan_placements(g, ED, tiles)
    n = len(tiles)
    everything = set(range(n))
    if res.status is Status.SATISFIED:
        replay(g, ED, tiles, res.witness)
        return res
    assert res.status is Status.UNSATISFIABLE
    assert not placeable(g, tiles, everything)
    m = res.value
    assert m == res.stats["failing_prefix"]
    assert not placeable(g, tiles[:m], set(range(m)))
    assert placeable(g, tiles[: m - 1], set(range(m - 1)))
    steps = {s - 1 for s in res.stats["core_steps"]}
    rules = frozenset(res.stats["core_rules"])
    assert max(steps) == m - 1
    # The core is a real conflict whatever the other steps do, and irreducible.
    assert not placeable(g, tiles[:m], steps, rules)
    for s in steps:
        assert placeable(g, tiles[:m], steps - {s}, rules)
    for r in rules:
        assert placeable(g, tiles[:m], steps, rules - {r})
    for t in res.stats["no_placement"]:
        assert not legal_placements(g, ED.tiles[t]).placements
    assert res.stats["explanation"]
    return res



def test_plan_hand_made_2x2() -> None:
    # 3x4 garden, a gnome on the top row: the first I4 must take the bottom row (the middle row
    # would cut the top row off), and the second then only fits on the middle row: a 2x2 block.
    g = Garden(rows=3, cols=4, gnomes=(Gnome("flower", (0, 1)),))
    res = check_plan(g, ["I4", "I4"])
    assert res.status is Status.UNSATISFIABLE and res.value == 2
    assert res.stats["core_steps"] == [1, 2] and res.stats["core_rules"] == ["2x2"]
    assert "I4 (step 2) cannot be placed after I4 (step 1)" in res.stats["explanation"][1]
    assert "2x2" in res.stats["explanation"][1]
    ok = check_plan(g, ["I4"])
    assert ok.status is Status.SATISFIED
    assert ok.witness == [Placement("I4", ((2, 0), (2, 1), (2, 2), (2, 3)), ok.witness[0].sigil)]


def test_plan_hand_made_no_room_and_nowhere() -> None:
    g = Garden(rows=1, cols=3)
    res = check_plan(g, ["D2", "D2"])
    assert res.status is Status.UNSATISFIABLE and res.stats["core_rules"] == []
    assert "no room" in res.stats["explanation"][1]
    res = check_plan(g, ["D2", "N5", "D2"])
    assert res.value == 2 and res.stats["core_steps"] == [2] and res.stats["no_placement"] == ["N5"]
    assert any("N5 has no legal placement" in s for s in res.stats["explanation"])


def test_plan_same_tiles_in_both_orders() -> None:
    # 3x3 with gnomes in two corners: the same tiles in either order, each checked against brute force.
    g = Garden(rows=3, cols=3, gnomes=(Gnome("flower", (0, 0)), Gnome("flower", (2, 2))))
    for tiles in (["D2", "L3"], ["L3", "D2"], ["I3", "D2"], ["D2", "I3"], ["L3", "L3"]):
        check_plan(g, tiles)


@pytest.mark.parametrize("seed", range(30))
def test_plan_small_gardens_against_brute_force(seed: int) -> None:
    g = small_garden(seed)
    if g.warnings():
        return
    rng = random.Random(f"plan/{seed}")
    for _ in range(3):
        check_plan(g, rng.sample(TILES, rng.randint(1, 3)))


@pytest.mark.parametrize("i", [1, 3, 5, 8, 12, 20])
def test_plan_witness_on_real_gardens(i: int) -> None:
    g = position(i)
    rng = random.Random(f"plan-real/{i}")
    tiles = rng.sample(TILES, 4)
    res = plan_placements(g, ED, tiles)
    if res.status is Status.SATISFIED:
        replay(g, ED, tiles, res.witness)
    else:
        assert res.status is Status.UNSATISFIABLE
        m = res.value
        # the failing prefix: its last tile finds no place after some legal run of the others
        prefix = plan_placements(g, ED, tiles[: m - 1])
        assert prefix.status is Status.SATISFIED
        replay(g, ED, tiles[: m - 1], prefix.witness)


def test_plan_lazy_and_eager_agree() -> None:
    for seed in range(12):
        g = small_garden(seed)
        if g.warnings():
            continue
        tiles = random.Random(seed).sample(TILES, 3)
        a = plan_placements(g, ED, tiles, connectivity="lazy")
        b = plan_placements(g, ED, tiles, connectivity="eager")
        assert a.status == b.status and a.value == b.value
        if b.status is Status.SATISFIED:
            replay(g, ED, tiles, b.witness)


def test_plan_time_limit_gives_unknown_not_no() -> None:
    res = plan_placements(position(0), ED, ["N5", "I4", "L4"], time_limit=1e-9)
    assert res.status is Status.UNKNOWN and not res.found


def test_plan_empty_and_unknown_tile() -> None:
    from gnomekit.models.core.errors import UsageError

    res = plan_placements(position(0), ED, [])
    assert res.status is Status.SATISFIED and res.witness == []
    with pytest.raises(UsageError):
        plan_placements(position(0), ED, ["Q9"])
    with pytest.raises(UsageError):
        sat_all(position(0), ED, ["D2"], connectivity="psychic")
