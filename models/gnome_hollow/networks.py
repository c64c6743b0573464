"""Path networks of a garden, kept incrementally with a union-find.

Elements are the paths of placed tiles and one *hub* per wildflower tile (a wildflower joins every
path end that touches it).  A join across a shared edge (path-path or path-hub) is an edge of the
*path graph*; a network is a connected component of that graph.  Per root we keep the number of
open path ends (facing an empty hex or a grass edge), nodes and joins, so that after each
placement we know in O(alpha) whether a network closed and whether it holds a cycle (joins >=
nodes, since the path graph is simple); its tiles and mushrooms are gathered when it closes.
Rings are final: once a network closes with a cycle nothing joins it again; a wildflower in a
completed ring gets a fresh hub for later path ends (option ``wildflower_after_ring = "fresh"``)
or caps them (``"dead-end"``).  Two adjacent wildflower tiles do not join (option
``wildflowers_join = "no"``) or join their hubs (``"yes"``).  With ``deferred`` (option
``ring_check = "turn"``) nothing is checked as it is laid: :meth:`Networks.settle`, called after the
turn's tiles, checks every network they touched, so a later tile of the turn laid against a
wildflower of a network an earlier tile closed still joins that network.
"""

from __future__ import annotations

from dataclasses import dataclass

from gnomekit.models.core.hexgrid import Hex, neighbour, opposite
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, Tile

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

    def __init__(self, edition: GnomeHollowEdition, wildflower_rule: str = "fresh",
                 wildflowers_join: bool = False, deferred: bool = False) -> None:
        if wildflower_rule not in WILDFLOWER_RULES:
            raise ValueError(f"wildflower_after_ring must be one of {WILDFLOWER_RULES}")
        self.ed = edition
        self.deferred = deferred  # option ring_check = "turn": closures wait for settle()
        self.pending: list[int] = []  # deferred: an element of each new tile, in placement order
        self.rule = wildflower_rule
        self.wild_join = wildflowers_join
        self.ncol = len(edition.colours)
        self.cidx = {c: i for i, c in enumerate(edition.colours)}
        self.grid: dict[Hex, tuple[Tile, int]] = {}
        # one entry per element (path or hub); open/nodes/joins/ring are meaningful at roots only
        self.parent: list[int] = []
        self.open: list[int] = []
        self.nodes: list[int] = []  # elements in the network (union by size)
        self.joins: list[int] = []
        self.ring: list[bool] = []
        self.link: list[int] = []  # circular list of each network's elements (O(1) merge)
        self.cell: list[Hex] = []
        self.pidx: list[int] = []  # path index, -1 for a hub
        self.path_elem: dict[PathKey, int] = {}
        self.hub: dict[Hex, int] = {}
        self.order: list[Hex] = []

    # -- union-find ------------------------------------------------------------------------------
    def _new(self, cell: Hex, pidx: int) -> int:
        e = len(self.parent)
        self.parent.append(e)
        self.open.append(0)
        self.nodes.append(1)
        self.joins.append(0)
        self.ring.append(False)
        self.link.append(e)
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
        nodes = self.nodes
        if nodes[ra] < nodes[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        nodes[ra] += nodes[rb]
        self.open[ra] += self.open[rb]
        self.joins[ra] += self.joins[rb] + 1
        link = self.link
        link[ra], link[rb] = link[rb], link[ra]  # splice the two circular member lists
        return ra

    def copy(self) -> Networks:
        """An independent copy (flat lists, cheap enough for search)."""
        other = Networks.__new__(Networks)
        other.ed, other.rule, other.ncol, other.cidx = self.ed, self.rule, self.ncol, self.cidx
        other.wild_join = self.wild_join
        other.deferred, other.pending = self.deferred, self.pending[:]
        other.grid = self.grid.copy()
        other.parent = self.parent[:]
        other.open = self.open[:]
        other.nodes = self.nodes[:]
        other.joins = self.joins[:]
        other.ring = self.ring[:]
        other.link = self.link[:]
        other.cell = self.cell[:]
        other.pidx = self.pidx[:]
        other.order = self.order[:]
        other.path_elem = self.path_elem.copy()
        other.hub = self.hub.copy()
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
        """Every element of the network of ``root`` (O(network size): walks its circular member list)."""
        link = self.link
        out = [root]
        e = link[root]
        while e != root:
            out.append(e)
            e = link[e]
        return out

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
        grass simply stays open.  Cost: O(alpha) per path end, plus O(size) for each network that
        closes (to describe it).
        """
        grid = self.grid
        if cell in grid:
            raise ValueError(f"cell {cell} is occupied")
        grid[cell] = (tile, orientation)
        self.order.append(cell)
        if tile.flower is not None:
            return self._place_wildflower(tile, cell)
        # The hot path (once per placement in every search), kept free of calls and allocations:
        # new elements are appended, each end is looked up with precomputed steps, and a join of a
        # new element into a neighbour's network finds only the neighbour's root.
        parent, open_, nodes, joins, link = self.parent, self.open, self.nodes, self.joins, self.link
        ring, path_elem = self.ring, self.path_elem
        base = len(parent)
        npaths = len(tile.paths)
        for i in range(npaths):
            el = base + i
            parent.append(el)
            link.append(el)
            open_.append(0)
            nodes.append(1)
            joins.append(0)
            ring.append(False)
            self.cell.append(cell)
            self.pidx.append(i)
            path_elem[(cell, i)] = el
        q0, r0 = cell
        # only this tile's path ends matter: its grass edges change nothing (a neighbour's path
        # end facing them was open and stays open)
        for dq, dr, back, i in tile.end_steps[orientation]:
            n = (q0 + dq, r0 + dr)
            got = grid.get(n)
            a = base + i
            while parent[a] != a:  # root of the new path's network (short: it is new)
                a = parent[a]
            if got is None:
                open_[a] += 1
                continue
            u, uo = got
            if u.flower is not None:
                h = self.hub[n]
                if ring[self.find(h)]:
                    if self.rule == "dead-end":
                        continue
                    h = self._new(n, -1)
                    self.hub[n] = h
                self._join(a, h)
                continue
            j = u.edge_path[uo][back]
            if j < 0:
                open_[a] += 1  # path facing grass: open for good
                continue
            b = self.find(path_elem[(n, j)])
            if a == b:
                joins[a] += 1
                open_[a] -= 1  # the neighbour's end was open, facing this empty hex
                continue
            if nodes[a] < nodes[b]:
                a, b = b, a
            parent[b] = a
            nodes[a] += nodes[b]
            open_[a] += open_[b] - 1  # minus the neighbour's end, open until now
            joins[a] += joins[b] + 1
            link[a], link[b] = link[b], link[a]  # splice the two circular member lists
        if self.deferred:
            self.pending.extend(range(base, base + npaths))
            return []
        closed: list[ClosedNetwork] = []
        done = -1
        for el in range(base, base + npaths):
            r = el
            while parent[r] != r:
                r = parent[r]
            if r == done:
                continue
            done = r
            if joins[r] == 0 or open_[r] > 0 or ring[r]:  # no join: a lone path
                continue
            if joins[r] >= nodes[r]:
                ring[r] = True
            closed.append(self.describe(r))
        return closed

    def _place_wildflower(self, tile: Tile, cell: Hex) -> list[ClosedNetwork]:
        """A wildflower: one new hub joined to every path end touching it."""
        h = self._new(cell, -1)
        self.hub[cell] = h
        for e in range(6):
            n = neighbour(cell, e)
            got = self.grid.get(n)
            if got is None:
                continue
            if got[0].wildflower:
                if self.wild_join:  # option wildflowers_join = "yes": hub to hub
                    h2 = self.hub[n]
                    if self.ring[self.find(h2)]:  # the neighbour is in a completed ring
                        if self.rule == "dead-end":
                            continue
                        h2 = self._new(n, -1)
                        self.hub[n] = h2
                    self._join(h, h2)
                continue
            u, uo = got
            j = u.edge_path[uo][opposite(e)]
            if j >= 0:
                pe = self.path_elem[(n, j)]
                if self.ring[self.find(pe)]:  # cannot happen: a ring has no end facing an empty hex
                    continue
                r = self._join(h, pe)
                self.open[r] -= 1
        if self.deferred:
            self.pending.append(h)
            return []
        return self._close_hub(h)

    def _close_hub(self, h: int) -> list[ClosedNetwork]:
        """The network of the wildflower hub ``h``, if it is now closed (a ring is marked final)."""
        r = self.find(h)
        if self.joins[r] == 0 or self.open[r] > 0 or self.ring[r]:  # no join: a lone hub
            return []
        if all(self.pidx[e] < 0 for e in self.members(r)):  # wildflowers only, no path: no network
            return []
        if self.joins[r] >= self.nodes[r]:
            self.ring[r] = True
        return [self.describe(r)]

    def settle(self) -> list[ClosedNetwork]:
        """Deferred mode: every network the tiles laid since the last call touched that is now closed,
        in the order of their first new tile (rings become final); empty otherwise."""
        closed: list[ClosedNetwork] = []
        seen: set[int] = set()
        for e in self.pending:
            r = self.find(e)
            if r in seen:
                continue
            seen.add(r)
            if self.pidx[e] < 0:
                closed += self._close_hub(e)
            elif not (self.joins[r] == 0 or self.open[r] > 0 or self.ring[r]):
                if self.joins[r] >= self.nodes[r]:
                    self.ring[r] = True
                closed.append(self.describe(r))
        self.pending = []
        return closed


def replay(edition: GnomeHollowEdition, placements: list[tuple[str, Hex, int]],
           wildflower_rule: str = "fresh", wildflowers_join: bool = False,
           same_turn: list[bool] | None = None, settled: bool = True) -> tuple[Networks, list[ClosedNetwork]]:
    """Build the networks of a garden by placing its tiles in order; every network closed on the way.

    ``same_turn`` (option ``ring_check = "turn"``): per tile, laid in the same turn as the tile before
    it; networks are then checked after each turn's tiles (the last turn's only when ``settled``)."""
    nets = Networks(edition, wildflower_rule, wildflowers_join, same_turn is not None)
    closed: list[ClosedNetwork] = []
    for i, (ident, cell, o) in enumerate(placements):
        closed += nets.place(edition.tile(ident), cell, o)
        if same_turn is not None and (i + 1 < len(placements) and not same_turn[i + 1]
                                      or i + 1 == len(placements) and settled):
            closed += nets.settle()
    return nets, closed
