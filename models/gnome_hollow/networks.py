"""Path networks of a garden, kept incrementally with a union-find.

Elements are the paths of placed tiles and one *hub* per wildflower tile (a wildflower joins every
path end that touches it).  A join across a shared edge (path-path or path-hub) is an edge of the
*path graph*; a network is a connected component of that graph.  Per root we keep the number of
open path ends (facing an empty hex or a grass edge), nodes and joins, so that after each
placement we know in O(alpha) whether a network closed and whether it holds a cycle (joins >=
nodes, since the path graph is simple); its tiles and mushrooms are gathered when it closes.
Rings are final: once a network closes with a cycle nothing joins it again; a wildflower in a
completed ring gets a fresh hub for later path ends (option ``wildflower_after_ring = "fresh"``)
or caps them (``"dead-end"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from models.core.hexgrid import DIRECTIONS, Hex, neighbour, opposite
from models.gnome_hollow.edition import GnomeHollowEdition, Tile

PathKey = tuple[Hex, int]  # (cell, path index on that tile)
WILDFLOWER_RULES = ("fresh", "dead-end")


@dataclass(frozen=True)
class ClosedNetwork:
    """A network that a placement closed: a ring (it holds a cycle) or a closed tree."""

    root: int
    ring: bool
    tiles: tuple[Hex, ...]  # distinct tiles it uses (Stump and wildflowers included), sorted
    paths: tuple[PathKey, ...]  # its paths, sorted
    mushrooms: dict[str, int]  # every colour of the edition, in edition order

    @property
    def size(self) -> int:
        return len(self.tiles)


class Networks:
    """Union-find over the paths and wildflower hubs of a garden (add-only)."""

    def __init__(self, edition: GnomeHollowEdition, wildflower_rule: str = "fresh") -> None:
        if wildflower_rule not in WILDFLOWER_RULES:
            raise ValueError(f"wildflower_after_ring must be one of {WILDFLOWER_RULES}")
        self.ed = edition
        self.rule = wildflower_rule
        self.ncol = len(edition.colours)
        self.cidx = {c: i for i, c in enumerate(edition.colours)}
        self.grid: dict[Hex, tuple[Tile, int]] = {}
        self.parent: list[int] = []
        self.rank: list[int] = []
        self.open: list[int] = []
        self.nodes: list[int] = []
        self.joins: list[int] = []
        self.ring: list[bool] = []
        self.cell: list[Hex] = []
        self.pidx: list[int] = []  # path index, -1 for a hub
        self.path_elem: dict[PathKey, int] = {}
        self.hub: dict[Hex, int] = {}
        self.order: list[Hex] = []

    # -- union-find ------------------------------------------------------------------------------
    def _new(self, cell: Hex, pidx: int) -> int:
        e = len(self.parent)
        self.parent.append(e)
        self.rank.append(0)
        self.open.append(0)
        self.nodes.append(1)
        self.joins.append(0)
        self.ring.append(False)
        self.cell.append(cell)
        self.pidx.append(pidx)
        return e

    def find(self, x: int) -> int:
        parent = self.parent
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    def _join(self, a: int, b: int) -> int:
        """Add one path-graph edge between elements a and b; return the merged root."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            self.joins[ra] += 1
            return ra
        if self.rank[ra] < self.rank[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        if self.rank[ra] == self.rank[rb]:
            self.rank[ra] += 1
        self.open[ra] += self.open[rb]
        self.nodes[ra] += self.nodes[rb]
        self.joins[ra] += self.joins[rb] + 1
        return ra

    def copy(self) -> Networks:
        """An independent copy (flat lists, cheap enough for search)."""
        other = Networks.__new__(Networks)
        other.ed, other.rule, other.ncol, other.cidx = self.ed, self.rule, self.ncol, self.cidx
        other.grid = dict(self.grid)
        for name in ("parent", "rank", "open", "nodes", "joins", "ring", "cell", "pidx", "order"):
            setattr(other, name, list(getattr(self, name)))
        other.path_elem = dict(self.path_elem)
        other.hub = dict(self.hub)
        return other

    # -- queries ---------------------------------------------------------------------------------
    def root_of(self, key: PathKey) -> int:
        return self.find(self.path_elem[key])

    def is_ring(self, root: int) -> bool:
        return self.ring[root]

    def open_ends(self, root: int) -> int:
        return self.open[root]

    def has_cycle(self, root: int) -> bool:
        return self.joins[root] >= self.nodes[root]

    def members(self, root: int) -> list[int]:
        """Every element of a network (O(elements); used when a network closes or on request)."""
        return [e for e in range(len(self.parent)) if self.find(e) == root]

    def describe(self, root: int) -> ClosedNetwork:
        mem = self.members(root)
        tiles = tuple(sorted({self.cell[e] for e in mem}))
        paths = tuple(sorted((self.cell[e], self.pidx[e]) for e in mem if self.pidx[e] >= 0))
        mush = dict.fromkeys(self.ed.colours, 0)
        for e in mem:
            k = self.pidx[e]
            if k >= 0:
                m = self.grid[self.cell[e]][0].paths[k].mushroom
                if m is not None:
                    mush[m] += 1
        return ClosedNetwork(root, self.ring[root], tiles, paths, mush)

    def open_networks(self) -> list[int]:
        """Roots of every network that still has an open end."""
        return sorted({self.find(e) for e in self.path_elem.values() if self.open[self.find(e)] > 0})

    def current_hub(self, cell: Hex) -> int | None:
        """The hub a new path end touching the wildflower at ``cell`` would join (None: capped).

        Does not create the fresh hub; ``-1`` means "a fresh hub would be made".
        """
        h = self.hub[cell]
        if self.ring[self.find(h)]:
            return -1 if self.rule == "fresh" else None
        return h

    # -- placing -----------------------------------------------------------------------------------
    def place(self, tile: Tile, cell: Hex, orientation: int) -> list[ClosedNetwork]:
        """Lay ``tile`` on the empty ``cell``; return the networks this closed (rings and trees).

        Mismatched edges are not refused here (legality is placement.py's job): a path end facing
        grass simply stays open.
        """
        if cell in self.grid:
            raise ValueError(f"cell {cell} is occupied")
        self.grid[cell] = (tile, orientation)
        self.order.append(cell)
        new: list[int] = []
        if tile.wildflower:
            h = self._new(cell, -1)
            self.hub[cell] = h
            new.append(h)
            for e in range(6):
                n = neighbour(cell, e)
                got = self.grid.get(n)
                if got is None or got[0].wildflower:
                    continue
                u, uo = got
                j = u.edge_path[uo][opposite(e)]
                if j >= 0:
                    pe = self.path_elem[(n, j)]
                    if self.ring[self.find(pe)]:  # cannot happen: a ring has no end facing an empty hex
                        continue
                    r = self._join(h, pe)
                    self.open[r] -= 1
        else:
            elems = []
            for i in range(len(tile.paths)):
                el = self._new(cell, i)
                self.path_elem[(cell, i)] = el
                elems.append(el)
                new.append(el)
            grid = self.grid
            q0, r0 = cell
            # only this tile's path ends matter: its grass edges change nothing (a neighbour's path
            # end facing them was open and stays open)
            for e, i in tile.path_ends[orientation]:
                dq, dr = DIRECTIONS[e]
                n = (q0 + dq, r0 + dr)
                got = grid.get(n)
                if got is None:
                    self.open[self.find(elems[i])] += 1
                    continue
                u, uo = got
                if u.flower is not None:
                    h = self.hub[n]
                    if self.ring[self.find(h)]:
                        if self.rule == "dead-end":
                            continue
                        h = self._new(n, -1)
                        self.hub[n] = h
                    self._join(elems[i], h)
                    continue
                j = u.edge_path[uo][(e + 3) % 6]
                if j >= 0:
                    r = self._join(elems[i], self.path_elem[(n, j)])
                    self.open[r] -= 1  # the neighbour's end was open, facing this empty hex
                else:
                    self.open[self.find(elems[i])] += 1  # path facing grass: open for good
        closed: list[ClosedNetwork] = []
        seen: set[int] = set()
        for el in new:
            r = self.find(el)
            if r in seen:
                continue
            seen.add(r)
            if self.joins[r] == 0 or self.open[r] > 0 or self.ring[r]:  # no join: a lone path or hub
                continue
            if self.joins[r] >= self.nodes[r]:
                self.ring[r] = True
            closed.append(self.describe(r))
        return closed


def replay(edition: GnomeHollowEdition, placements: list[tuple[str, Hex, int]],
           wildflower_rule: str = "fresh") -> tuple[Networks, list[ClosedNetwork]]:
    """Build the networks of a garden by placing its tiles in order; every network closed on the way."""
    nets = Networks(edition, wildflower_rule)
    closed: list[ClosedNetwork] = []
    for ident, cell, o in placements:
        closed += nets.place(edition.tile(ident), cell, o)
    return nets, closed
