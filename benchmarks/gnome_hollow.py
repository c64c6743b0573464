"""Gnome Hollow benchmark: one table of ratios, every baseline run in this process on the same gardens.

    python3 benchmarks/gnome_hollow.py [--gardens 20] [--tiles 60] [--turns 6] [--repeat 3]

(a) ring detection per placement: the incremental union-find (``Networks.place``) vs recomputing
    with networkx after every placement (path graph rebuilt, connected components, cycle_basis on
    each closed component).  The rings found are asserted identical.  Issue target: >= 50x.
(b) best-turn search (``solve``) on random tables: time and nodes, against the exhaustive brute
    force of the tests on the same positions (two offered tiles), values asserted equal.

Absolute times are printed only next to the ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx  # noqa: E402

from models.core.hexgrid import neighbour, opposite  # noqa: E402
from models.gnome_hollow.edition import GnomeHollowEdition, default_edition  # noqa: E402
from models.gnome_hollow.networks import Networks  # noqa: E402
from models.gnome_hollow.placement import legal_placements  # noqa: E402
from models.gnome_hollow.position import Placed, PlayerState, Position  # noqa: E402
from models.gnome_hollow.setup import random_position  # noqa: E402
from solver.gnome_hollow.best import best_turn  # noqa: E402

Seq = list[tuple[str, tuple[int, int], int]]


def garden(ed: GnomeHollowEdition, seed: int, n: int) -> Seq:
    """A random legal sequence of n tiles (no wildflowers), biased to join open ends."""
    rng = random.Random(seed)
    bag = list(ed.tiles)
    rng.shuffle(bag)
    seq: Seq = [("S", (0, 0), 0)]
    players = (PlayerState("a"), PlayerState("b"))
    while len(seq) <= n and bag:
        pos = Position(players=players, tiles=tuple(Placed(t, c, o) for t, c, o in seq))
        tid = bag.pop()
        opts = legal_placements(pos, ed, tid)
        if not opts:
            continue
        nets = pos.networks(ed)
        w = [1 + 6 * sum(1 for e in range(6) if neighbour(p.cell, e) in nets.grid) ** 2 for p in opts]
        p = rng.choices(opts, w)[0]
        seq.append((p.tile, p.cell, p.orientation))
    return seq


def by_union_find(ed: GnomeHollowEdition, seq: Seq) -> list[tuple[int, frozenset[tuple[int, int]]]]:
    nets = Networks(ed)
    out = []
    for i, (t, c, o) in enumerate(seq):
        for cl in nets.place(ed.tile(t), c, o):
            if cl.ring:
                out.append((i, frozenset(cl.tiles)))
    return out


def by_networkx(ed: GnomeHollowEdition, seq: Seq) -> list[tuple[int, frozenset[tuple[int, int]]]]:
    """Recompute from scratch after every placement (no wildflowers in these gardens)."""
    grid: dict[tuple[int, int], tuple[str, int]] = {}
    done: set[frozenset[object]] = set()
    out = []
    for i, (t, c, o) in enumerate(seq):
        grid[c] = (t, o)
        g = nx.Graph()
        open_nodes: set[object] = set()
        for cell, (tid, oo) in grid.items():
            tile = ed.tile(tid)
            for k in range(len(tile.paths)):
                g.add_node((cell, k))
                for e in tile.oriented_ends(oo, k):
                    n = neighbour(cell, e)
                    if n not in grid:
                        open_nodes.add((cell, k))
                        continue
                    u, uo = ed.tile(grid[n][0]), grid[n][1]
                    j = u.edge_path[uo][opposite(e)]
                    if j < 0:
                        open_nodes.add((cell, k))
                    else:
                        g.add_edge((cell, k), (n, j))
        for comp in nx.connected_components(g):
            fz = frozenset(comp)
            if fz in done or comp & open_nodes:
                continue
            if nx.cycle_basis(g.subgraph(comp)):
                done.add(fz)
                out.append((i, frozenset(x[0] for x in comp)))  # type: ignore[index]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gardens", type=int, default=20)
    ap.add_argument("--tiles", type=int, default=60)
    ap.add_argument("--turns", type=int, default=6, help="random turns before the best-turn positions")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3, help="best of N timings for (a)")
    args = ap.parse_args()
    ed = default_edition()
    seqs = [garden(ed, s, args.tiles) for s in range(args.gardens)]
    placements = sum(len(s) for s in seqs)
    t_uf = t_nx = float("inf")
    for _ in range(args.repeat):  # best of N for both: the machine is shared
        t0 = time.perf_counter()
        uf = [by_union_find(ed, s) for s in seqs]
        t_uf = min(t_uf, time.perf_counter() - t0)
        t0 = time.perf_counter()
        ref = [by_networkx(ed, s) for s in seqs]
        t_nx = min(t_nx, time.perf_counter() - t0)
    assert [sorted(a, key=repr) for a in uf] == [sorted(b, key=repr) for b in ref]
    rings = sum(len(a) for a in uf)
    print(f"(a) ring detection per placement: {args.gardens} gardens, {placements} placements, {rings} rings")
    print(f"    union-find {1e6 * t_uf / placements:8.1f} us/placement")
    print(f"    networkx   {1e6 * t_nx / placements:8.1f} us/placement")
    print(f"    ratio      {t_nx / t_uf:8.1f}x   (target >= 50x)")
    print()
    print(f"(b) best turn on random tables after {args.turns} turns (two offered tiles):")
    print("    seed  value  nodes  leaves  pruned  search s  brute s  ratio")
    try:
        from tests.gnome_hollow.brute import brute_best
    except ImportError:  # pragma: no cover - run from the repository root
        brute_best = None  # type: ignore[assignment]
    for seed in range(args.positions):
        pos = random_position(ed, seed, args.turns)
        pos = replace(pos, offered=pos.offered[:2])
        t0 = time.perf_counter()
        res = best_turn(pos, ed)
        ts = time.perf_counter() - t0
        tb = float("nan")
        if brute_best is not None:
            t0 = time.perf_counter()
            bv = brute_best(pos, ed)
            tb = time.perf_counter() - t0
            assert abs(bv - res.value) < 1e-9
        s = res.stats
        print(f"    {seed:4d}  {res.value:5g}  {s['nodes']:5d}  {s['leaves']:6d}  {s['pruned']:6d}  {ts:8.3f}  "
              f"{tb:7.3f}  {tb / ts:5.1f}x")
    print()
    print("(c) best turn, all 8 offered tiles (brute force not run: too slow):")
    for seed in range(args.positions):
        pos = random_position(ed, seed, args.turns)
        t0 = time.perf_counter()
        res = best_turn(pos, ed)
        print(f"    seed {seed}: value {res.value:g}, status {res.status}, nodes {res.stats['nodes']}, "
              f"{time.perf_counter() - t0:.2f}s")


if __name__ == "__main__":
    main()
