"""Union-find networks against the networkx reference, and properties of closed networks."""

from __future__ import annotations

from gnomekit.models.core.hexgrid import neighbour, opposite
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.networks import replay
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.gnome_hollow.reference import random_garden, reference_rings

ED = default_edition()


RingKey = tuple[int, frozenset[tuple[int, int]], tuple[tuple[str, int], ...], int]


def _engine_rings(seq: list[tuple[str, tuple[int, int], int]], rule: str = "fresh") -> list[RingKey]:
    from gnomekit.models.gnome_hollow.networks import Networks

    nets = Networks(ED, rule)
    out = []
    for step, (t, c, o) in enumerate(seq):
        for cl in nets.place(ED.tile(t), c, o):
            if cl.ring:
                out.append((step, frozenset(cl.tiles), tuple(sorted((k, v) for k, v in cl.mushrooms.items() if v)),
                            len(cl.paths)))
    return out


def test_union_find_matches_networkx_on_generated_gardens() -> None:
    total = 0
    for seed in range(40):
        seq = random_garden(ED, seed, 30, wild=0.15)
        mine = _engine_rings(seq)
        ref = [(r.step, r.tiles, r.mushrooms, r.paths) for r in reference_rings(ED, seq)]
        assert sorted(mine, key=repr) == sorted(ref, key=repr), seed
        total += len(ref)
    assert total >= 10  # the generator does make rings


def test_dead_end_rule_matches_networkx() -> None:
    for seed in range(15):
        seq = random_garden(ED, 1000 + seed, 30, wild=0.3)
        mine = _engine_rings(seq, "dead-end")
        ref = [(r.step, r.tiles, r.mushrooms, r.paths) for r in reference_rings(ED, seq, dead_end=True)]
        assert sorted(mine, key=repr) == sorted(ref, key=repr), seed


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 30))
def test_closed_networks_have_no_open_end_and_rings_count_tiles_once(seed: int, n: int) -> None:
    seq = random_garden(ED, seed, n, wild=0.15)
    nets, closed = replay(ED, seq)
    grid = nets.grid
    for root in {nets.find(e) for e in nets.path_elem.values()}:
        d = nets.describe(root)
        open_ends = 0
        for cell, k in d.paths:
            tile, o = grid[cell]
            for e in nets.grid[cell][0].oriented_ends(o, k):
                m = neighbour(cell, e)
                if m not in grid:
                    open_ends += 1
                elif not grid[m][0].wildflower and grid[m][0].edge_path[grid[m][1]][opposite(e)] < 0:
                    open_ends += 1
        assert (open_ends == 0) == (nets.open_ends(root) == 0)
        assert nets.open_ends(root) == open_ends
    for c in closed:
        assert c.size == len(set(c.tiles)) <= len(c.paths) + sum(1 for t in c.tiles if grid[t][0].wildflower)
        if c.ring:
            assert c.size >= 3
            cells_of_paths = {cell for cell, _ in c.paths}
            assert cells_of_paths <= set(c.tiles)
