"""The shared PySAT helpers against brute force on tiny instances."""

from __future__ import annotations

import itertools
import random

import pytest
from gnomekit.solver.core.sat import (
    GridMask,
    SatModel,
    add_connectivity_cuts,
    add_eager_connectivity,
    components,
    grid_neighbours,
    grid_nodes,
    minimise_core,
)


def models_of(m: SatModel, xs: list[int]) -> set[tuple[bool, ...]]:
    """All assignments of ``xs`` that extend to a model (blocking clauses)."""
    out: set[tuple[bool, ...]] = set()
    while m.solve():
        a = tuple(m.value(x) for x in xs)
        out.add(a)
        m.add([-x if v else x for x, v in zip(xs, a, strict=True)])
    return out


@pytest.mark.parametrize("n,k", [(4, 0), (4, 1), (5, 2), (6, 3), (7, 1), (8, 1), (5, 5)])
def test_cardinality(n: int, k: int) -> None:
    for kind in ("most", "least", "exactly"):
        with SatModel() as m:
            xs = [m.var(("x", i)) for i in range(n)]
            {"most": m.at_most_k, "least": m.at_least_k, "exactly": m.exactly_k}[kind](xs, k)
            got = models_of(m, xs)
        want = {a for a in itertools.product([False, True], repeat=n)
                if {"most": sum(a) <= k, "least": sum(a) >= k, "exactly": sum(a) == k}[kind]}
        assert got == want, (kind, n, k)


def test_constants_and_definitions() -> None:
    with SatModel() as m:
        a, b, o, d = (m.var(x) for x in "abod")
        m.define_or(o, [a, b, False])
        m.define_and(d, [a, True, b])
        m.add([True])  # satisfied, dropped
        got = models_of(m, [a, b, o, d])
        assert got == {(x, y, x or y, x and y) for x in (False, True) for y in (False, True)}
        assert m.name_of(a) == "a"
    with SatModel() as m:
        m.add([False])
        assert m.unsat_forever and not m.solve()


def test_activation_literals_and_cores() -> None:
    with SatModel() as m:
        x, y = m.var("x"), m.var("y")
        a1 = m.activated([x])
        a2 = m.activated([-x])
        a3 = m.activated([y])
        assert not m.solve([a1, a2, a3])
        assert set(m.core()) <= {a1, a2, a3} and {a1, a2} <= set(m.core())
        core = minimise_core([a1, a2, a3], lambda lits: None if m.solve(lits) else m.core())
        assert core == [a1, a2]
        m.retire(a2)
        assert m.solve([a1, a3]) and m.value(x) and m.value(y)


def connected(rows: int, cols: int, hedge: set[tuple[int, int]]) -> bool:
    nodes = grid_nodes(rows, cols)
    return len(components(nodes, grid_neighbours(rows, cols), lambda c: c not in hedge)) <= 1


@pytest.mark.parametrize("rows,cols,fixed,never", [
    (3, 3, set(), set()),
    (3, 4, {(0, 1)}, {(2, 2)}),
    (2, 5, set(), {(0, 0)}),
    (4, 3, {(1, 1), (2, 1)}, set()),
])
@pytest.mark.parametrize("method", ["lazy", "eager"])
def test_connectivity_encodings_count_connected_subsets(rows: int, cols: int, fixed: set, never: set,  # type: ignore[type-arg]
                                                        method: str) -> None:
    nodes = grid_nodes(rows, cols)
    nb = grid_neighbours(rows, cols)
    free = [c for c in nodes if c not in fixed and c not in never]
    want = set()
    for bits in itertools.product([False, True], repeat=len(free)):
        hedge = set(fixed) | {c for c, b in zip(free, bits, strict=True) if b}
        if connected(rows, cols, hedge):
            want.add(bits)
    with SatModel() as m:
        lit = {c: (True if c in fixed else False if c in never else m.var(("h", c))) for c in nodes}
        xs = [lit[c] for c in free]
        if method == "eager":
            add_eager_connectivity(m, nodes, nb, lit.__getitem__, tag="t")
        got = set()
        while m.solve():
            hedge = {c for c in nodes if m.value(lit[c])}
            if method == "lazy":
                comps = add_connectivity_cuts(m, nodes, nb, lit.__getitem__, hedge.__contains__)
                if len(comps) > 1:
                    continue
            a = tuple(m.value(x) for x in xs)
            got.add(a)
            m.add([-x if v else x for x, v in zip(xs, a, strict=True)])  # type: ignore[operator]
    assert got == want


def test_grid_mask_connected_matches_bfs() -> None:
    rng = random.Random(5)
    for _ in range(300):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        hedge = {c for c in grid_nodes(rows, cols) if rng.random() < 0.35}
        gm = GridMask(rows, cols)
        ground = gm.full & ~gm.mask(hedge)
        assert gm.connected(ground) == connected(rows, cols, hedge)
