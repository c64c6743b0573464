"""Gnome Hollow benchmark: one table of ratios, every baseline run in this process on the same gardens.

    python -m benchmarks.gnome_hollow [--gardens 20] [--sizes 20,40,60,90] [--turns 6] [--repeat 5]

(a) ring detection per placement: the incremental union-find (``Networks.place``) vs recomputing
    with networkx after every placement (path graph rebuilt, connected components, cycle_basis on
    each closed component), for gardens of each size.  The rings found are asserted identical.
    Each method runs over all the gardens of a size as one block, best of ``--repeat`` (the machine
    is shared; both methods get the same treatment).  Issue target: >= 50x.
(b) best-turn search (``solve``) on random tables: time and nodes, against the exhaustive brute
    force of the tests on the same positions (two offered tiles), values asserted equal.

Absolute times are printed only next to the ratio.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace

import networkx as nx  # noqa: E402
from gnomekit.models.core.hexgrid import neighbour, opposite  # noqa: E402
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, default_edition  # noqa: E402
from gnomekit.models.gnome_hollow.networks import Networks  # noqa: E402
from gnomekit.models.gnome_hollow.placement import legal_placements  # noqa: E402
from gnomekit.models.gnome_hollow.position import Placed, PlayerState, Position  # noqa: E402
from gnomekit.models.gnome_hollow.setup import random_position  # noqa: E402
from gnomekit.solver.gnome_hollow.best import best_turn  # noqa: E402

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


def ring_detection(ed: GnomeHollowEdition, gardens: int, size: int, repeat: int) -> tuple[int, int, float, float]:
    """(placements, rings, union-find seconds, networkx seconds) over ``gardens`` gardens of ``size`` tiles.

    Each method runs over all the gardens as one block (warm caches for both), best of ``repeat``.
    """
    seqs = [garden(ed, s, size) for s in range(gardens)]
    placements = sum(len(s) for s in seqs)
    t_uf = t_nx = float("inf")
    uf: list[list[tuple[int, frozenset[tuple[int, int]]]]] = []
    ref: list[list[tuple[int, frozenset[tuple[int, int]]]]] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        uf = [by_union_find(ed, s) for s in seqs]
        t1 = time.perf_counter()
        ref = [by_networkx(ed, s) for s in seqs]
        t2 = time.perf_counter()
        t_uf, t_nx = min(t_uf, t1 - t0), min(t_nx, t2 - t1)
    for i, (a, b) in enumerate(zip(uf, ref, strict=True)):
        assert sorted(a, key=repr) == sorted(b, key=repr), f"garden {i}: rings differ"
    return placements, sum(len(a) for a in uf), t_uf, t_nx


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gardens", type=int, default=20)
    ap.add_argument("--sizes", default="20,40,60,90", help="garden sizes (tiles) for (a), comma-separated")
    ap.add_argument("--turns", type=int, default=6, help="random turns before the best-turn positions")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=5, help="best of N timings per garden for (a)")
    args = ap.parse_args()
    ed = default_edition()
    print(f"(a) ring detection per placement, {args.gardens} gardens per size, best of {args.repeat} (target >= 50x)")
    print("    tiles  placements  rings  union-find us  networkx us   ratio")
    for size in (int(x) for x in args.sizes.split(",")):
        placements, rings, t_uf, t_nx = ring_detection(ed, args.gardens, size, args.repeat)
        print(f"    {size:5d}  {placements:10d}  {rings:5d}  {1e6 * t_uf / placements:13.2f}  "
              f"{1e6 * t_nx / placements:11.1f}  {t_nx / t_uf:5.1f}x")
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
