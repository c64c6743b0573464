"""Hedge Mage benchmark: one table of speed ratios, every baseline run in this process on the same gardens.

    python -m benchmarks.hedge_mage [--gardens 30] [--small 6]

(a) all legal placements of all tiles: our bitboard enumeration (``enumerate_all``)
    vs a naive baseline (per candidate: the cover and 2x2 checks, then a copy of
    the networkx grid graph without the hedge cells and ``nx.is_connected``).
    Results are asserted identical.  Issue target: ours >= 20x faster.
(b) SAT enumeration with lazy connectivity cuts vs the eager reachability encoding,
    and the same for plans of 5 tiles.
(c) SAT queries on one warm solver (all 12 tiles, built once) vs a cold model of
    only the tile asked about, built for each query (existence of a placement per
    tile, and best points per tile).  The cold side used to rebuild the whole
    12-tile model per query, which flattered the warm solver; a one-tile model is
    what one would write first.
(d) SAT enumeration (default connectivity) vs our enumeration.

Absolute times are printed only next to the ratio.  Runs in about two minutes on
an idle 2-core machine (``--gardens`` and ``--small`` shrink it).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import networkx as nx  # noqa: E402
from gnomekit.models.core.grid import windows_2x2  # noqa: E402
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition  # noqa: E402
from gnomekit.models.hedge_mage.placement import candidates, movement_points  # noqa: E402
from gnomekit.models.hedge_mage.position import Garden  # noqa: E402
from gnomekit.models.hedge_mage.setup import random_garden  # noqa: E402
from gnomekit.solver.hedge_mage.placements import TilePlacements, enumerate_all  # noqa: E402
from gnomekit.solver.hedge_mage.sat import DEFAULT_CONNECTIVITY, PlacementSat, plan_placements, sat_all  # noqa: E402


def naive_all(garden: Garden, edition: HedgeMageEdition, tiles: list[str]) -> list[TilePlacements]:
    """The straightforward way: check every candidate from scratch with networkx."""
    grid = nx.grid_2d_graph(garden.rows, garden.cols)
    hedge = set(garden.hedge_cells)
    occupied = set(garden.occupants)
    out = []
    for name in tiles:
        found = []
        for cand in candidates(garden, edition.tiles[name]):
            cells = cand.placement.cells
            if any(c in hedge or c in occupied for c in cells):
                continue
            after = hedge | set(cells)
            if any(all(x in after for x in w) for w in windows_2x2(garden.rows, garden.cols)):
                continue
            g = grid.copy()
            g.remove_nodes_from(after)
            if g.number_of_nodes() and not nx.is_connected(g):
                continue
            found.append((cand.placement, movement_points(garden, cand.placement)[0]))
        found.sort(key=lambda x: x[0].key)
        out.append(TilePlacements(name, [p for p, _ in found], [v for _, v in found]))
    return out


def same(a: list[TilePlacements], b: list[TilePlacements]) -> bool:
    return all(x.tile == y.tile and x.placements == y.placements and x.points == y.points
               for x, y in zip(a, b, strict=True)) and len(a) == len(b)


def timed(f: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    r = f()
    return time.perf_counter() - t0, r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gardens", type=int, default=30, help="random gardens for (a) and (d)")
    ap.add_argument("--small", type=int, default=6, help="gardens (of the same list) for (b) and (c)")
    args = ap.parse_args(argv)
    ed = default_edition()
    tiles = list(ed.tiles)
    gardens = [random_garden(ed, 7000 + i, i % 11)[0] for i in range(args.gardens)]
    rows: list[tuple[str, str, float, str, float]] = []

    # (a) enumeration vs naive networkx
    ours = base = 0.0
    count = 0
    for g in gardens:
        t1, a = timed(partial(enumerate_all, g, ed, tiles))
        t2, b = timed(partial(naive_all, g, ed, tiles))
        assert same(a, b), "enumeration and the naive baseline disagree"
        ours, base, count = ours + t1, base + t2, count + sum(len(x.placements) for x in a)
    rows.append((f"(a) enumerate_all, 12 tiles, {len(gardens)} gardens ({count} placements)",
                 "enumerate", ours, "naive networkx", base))

    # (d) SAT (default connectivity) vs enumeration
    ours = base = 0.0
    for g in gardens:
        t1, a = timed(partial(enumerate_all, g, ed, tiles))
        t2, b = timed(partial(sat_all, g, ed, tiles))
        assert same(a, b), "SAT and enumeration disagree"
        ours, base = ours + t1, base + t2
    rows.append((f"(d) all placements, 12 tiles, {len(gardens)} gardens", "enumerate", ours,
                 f"SAT ({DEFAULT_CONNECTIVITY})", base))

    small = gardens[: args.small]
    # (b) lazy vs eager connectivity (3 tiles per garden: the eager encoding is slow)
    ours = base = 0.0
    for i, g in enumerate(small):
        ts = [tiles[(i + k * 4) % len(tiles)] for k in range(3)]
        t1, a = timed(partial(sat_all, g, ed, ts, connectivity="lazy"))
        t2, b = timed(partial(sat_all, g, ed, ts, connectivity="eager"))
        assert same(a, b), "lazy and eager connectivity disagree"
        ours, base = ours + t1, base + t2
    rows.append((f"(b) SAT all placements, 3 tiles, {len(small)} gardens", "lazy cuts", ours,
                 "eager reachability", base))

    # (b) the same for plans of 5 tiles (ground connected after every step)
    ours = base = 0.0
    for i, g in enumerate(small):
        ts = [tiles[(i + k * 5) % len(tiles)] for k in range(5)]
        t1, a = timed(partial(plan_placements, g, ed, ts, connectivity="lazy"))
        t2, b = timed(partial(plan_placements, g, ed, ts, connectivity="eager"))
        assert (a.status, a.value) == (b.status, b.value), "lazy and eager plans disagree"
        ours, base = ours + t1, base + t2
    rows.append((f"(b) SAT plan of 5 tiles, {len(small)} gardens", "lazy cuts", ours, "eager reachability", base))

    # (c) warm vs cold solver: per garden, one query per tile
    for kind in ("exists", "best"):
        ours = base = 0.0
        for g in small:
            def ask(ps: PlacementSat, t: str, kind: str = kind) -> object:
                return ps.first(t) if kind == "exists" else ps.best([t]).value

            def warm(g: Garden = g) -> list[object]:
                with PlacementSat(g, ed) as ps:
                    return [ask(ps, t) for t in tiles]

            def cold(g: Garden = g) -> list[object]:
                out = []
                for t in tiles:
                    with PlacementSat(g, ed, tiles=[t]) as ps:
                        out.append(ask(ps, t))
                return out

            t1, a = timed(warm)
            t2, b = timed(cold)
            if kind == "best":
                assert a == b
            else:
                assert [x is None for x in a] == [x is None for x in b]
            ours, base = ours + t1, base + t2
        rows.append((f"(c) SAT '{kind}' query x 12 tiles, {len(small)} gardens (build included)",
                     "warm solver", ours, "cold 1-tile model", base))

    w = max(len(r[0]) for r in rows)
    print(f"{'comparison':<{w}}  {'ours':<12} {'time s':>8}  {'baseline':<20} {'time s':>8}  {'speed-up':>8}")
    for label, name, t_ours, bname, t_base in rows:
        print(f"{label:<{w}}  {name:<12} {t_ours:8.2f}  {bname:<20} {t_base:8.2f}  {t_base / t_ours:7.1f}x")
    print("speed-up = baseline time / ours (above 1: ours is faster)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
