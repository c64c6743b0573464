"""Independent reference for rings: rebuild the path graph with networkx after every placement.

It shares only the edition data and the hex convention with the engine.  Rings are found by cycle
detection (``nx.cycle_basis``) on each closed component; completed rings are final, so a path end
later touching a wildflower of a completed ring attaches to a fresh hub of that wildflower.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import networkx as nx
from gnomekit.models.core.hexgrid import DIRECTIONS, orient_edge
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.placement import Placement, legal_placements
from gnomekit.models.gnome_hollow.position import Placed, PlayerState, Position

Hex = tuple[int, int]


def ends(ed: GnomeHollowEdition, tid: str, o: int) -> dict[int, int]:
    """edge -> path index for a tile in an orientation, computed from the raw path list."""
    out = {}
    for i, p in enumerate(ed.tile(tid).paths):
        out[orient_edge(p.a, o)] = i
        out[orient_edge(p.b, o)] = i
    return out


def nb(cell: Hex, e: int) -> Hex:
    return (cell[0] + DIRECTIONS[e][0], cell[1] + DIRECTIONS[e][1])


@dataclass(frozen=True)
class RefRing:
    step: int
    tiles: frozenset[Hex]
    mushrooms: tuple[tuple[str, int], ...]
    paths: int


def reference_rings(ed: GnomeHollowEdition, placements: list[tuple[str, Hex, int]],
                    dead_end: bool = False) -> list[RefRing]:
    grid: dict[Hex, tuple[str, int]] = {}
    gen: dict[Hex, int] = {}
    attach: dict[tuple[Hex, int, int], tuple[Hex, int] | None] = {}  # (cell, path, edge) -> hub (cell, gen)
    completed: list[frozenset[object]] = []
    ring_nodes: set[object] = set()
    out: list[RefRing] = []
    for step, (tid, cell, o) in enumerate(placements):
        tile = ed.tile(tid)
        if tile.wildflower:
            gen[cell] = 0
            for e in range(6):
                n = nb(cell, e)
                if n in grid and not ed.tile(grid[n][0]).wildflower:
                    back = (e + 3) % 6
                    em = ends(ed, *grid[n])
                    if back in em:
                        attach[(n, em[back], back)] = (cell, 0)
        else:
            em = ends(ed, tid, o)
            for e, i in em.items():
                n = nb(cell, e)
                if n in grid and ed.tile(grid[n][0]).wildflower:
                    hub = ("h", n, gen[n])
                    if hub in ring_nodes:
                        if dead_end:
                            attach[(cell, i, e)] = None
                            continue
                        gen[n] += 1
                    attach[(cell, i, e)] = (n, gen[n])
        grid[cell] = (tid, o)
        g = nx.Graph()
        open_ends: dict[object, int] = {}
        for c, (t, oo) in grid.items():
            if ed.tile(t).wildflower:
                g.add_node(("h", c, gen[c]))
                continue
            em = ends(ed, t, oo)
            for e, i in em.items():
                node = ("p", c, i)
                g.add_node(node)
                n = nb(c, e)
                if n not in grid:
                    open_ends[node] = open_ends.get(node, 0) + 1
                elif ed.tile(grid[n][0]).wildflower:
                    hub = attach.get((c, i, e))
                    if hub is not None:
                        g.add_edge(node, ("h", hub[0], hub[1]))
                else:
                    em2 = ends(ed, *grid[n])
                    if (e + 3) % 6 in em2:
                        g.add_edge(node, ("p", n, em2[(e + 3) % 6]))
                    else:
                        open_ends[node] = open_ends.get(node, 0) + 1
        for comp in nx.connected_components(g):
            fz = frozenset(comp)
            paths = [x for x in comp if x[0] == "p"]
            if not paths or any(open_ends.get(x, 0) for x in paths) or fz in completed:
                continue
            if any(x in ring_nodes for x in comp):
                continue
            if not nx.cycle_basis(g.subgraph(comp)):
                continue
            completed.append(fz)
            ring_nodes |= fz
            tiles = frozenset(x[1] for x in comp)
            mush: dict[str, int] = {}
            for x in paths:
                m = ed.tile(grid[x[1]][0]).paths[x[2]].mushroom
                if m:
                    mush[m] = mush.get(m, 0) + 1
            out.append(RefRing(step, tiles, tuple(sorted(mush.items())), len(paths)))
    return out


def two_players(tiles: list[tuple[str, Hex, int]] | None = None, **kw: object) -> Position:
    """A bare two-player position whose garden holds the Stump and then ``tiles`` in order."""
    placed = (Placed("S", (0, 0), 0),) + tuple(Placed(t, c, o) for t, c, o in (tiles or []))
    kw.setdefault("players", (PlayerState("red"), PlayerState("blue")))
    return Position(tiles=placed, **kw)  # type: ignore[arg-type]


def random_garden(ed: GnomeHollowEdition, seed: int, n: int, wild: float = 0.1) -> list[tuple[str, Hex, int]]:
    """A random legal placement sequence of ``n`` tiles, biased towards joining open ends."""
    rng = random.Random(seed)
    bag = list(ed.tiles)
    rng.shuffle(bag)
    wilds = list(ed.wildflowers)
    rng.shuffle(wilds)
    seq: list[tuple[str, Hex, int]] = [("S", (0, 0), 0)]
    pos = two_players()
    for _ in range(n):
        tid = wilds.pop() if wilds and rng.random() < wild else bag.pop()
        nets = pos.networks(ed)
        opts = legal_placements(pos, ed, tid, nets, distinct=False)
        if not opts:
            continue
        weights = [1 + 6 * _joins(nets, p, ed) ** 2 for p in opts]
        p: Placement = rng.choices(opts, weights)[0]
        seq.append((p.tile, p.cell, p.orientation))
        pos = two_players(seq[1:])
    return seq


def _joins(nets: object, p: Placement, ed: GnomeHollowEdition) -> int:
    grid = nets.grid  # type: ignore[attr-defined]
    return sum(1 for e in range(6) if nb(p.cell, e) in grid)


def reference_legal(ed: GnomeHollowEdition, before: list[tuple[str, Hex, int]],
                    seq: list[tuple[str, Hex, int]]) -> bool:
    """Geometry-only legality from the raw path lists: free cell, touches the garden, edges match."""
    grid = {c: (t, o) for t, c, o in before}
    for t, c, o in seq:
        if c in grid or not any(nb(c, e) in grid for e in range(6)):
            return False
        if not ed.tile(t).wildflower:
            mine = ends(ed, t, o)
            for e in range(6):
                n = nb(c, e)
                if n in grid and not ed.tile(grid[n][0]).wildflower:
                    if (e in mine) != ((e + 3) % 6 in ends(ed, *grid[n])):
                        return False
        grid[c] = (t, o)
    return True
