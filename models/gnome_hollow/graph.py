"""Ring closure as a graph: the garden's path network as a ``networkx`` graph (the ``networkx`` method).

The fast engine (:mod:`gnomekit.models.gnome_hollow.networks`) keeps networks in a union-find with
counters.  This module answers the same questions on an explicit :class:`networkx.Graph`, so that
every answer can be recomputed from the graph itself:

* nodes are the paths of placed tiles, ``("p", cell, k)``, and one *hub* per wildflower tile,
  ``("h", cell, generation)``; each path node carries ``open``, its ends facing an empty hex or a
  grass edge;
* an edge is a join across a shared edge (path-path or path-hub);
* a *network* is a connected component; it is *closed* when no node has an open end, and a *ring*
  when it is closed and holds a cycle (``networkx.cycle_basis`` is not empty).

Rings are final: the nodes of a completed ring join nothing placed later, and a path end laid later
against a wildflower of a completed ring gets a fresh hub (option ``fresh``) or is capped
(``dead-end``), exactly as the rules page says.  Tiles are laid in placement order with
:meth:`GardenGraph.place`, which returns the networks that placement closed, in the same order and
shape (:class:`ClosedNetwork`, ``root`` = -1) as ``Networks.place``.  With ``deferred`` (option
``ring_check = "turn"``) the check waits for :meth:`GardenGraph.settle`, after the turn's tiles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import networkx as nx
from gnomekit.models.core.hexgrid import Hex, neighbour, opposite
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, Tile
from gnomekit.models.gnome_hollow.networks import WILDFLOWER_RULES, ClosedNetwork, PathKey

if TYPE_CHECKING:
    from gnomekit.models.gnome_hollow.position import Position

Node = tuple[Any, ...]


class GardenGraph:
    """A garden's path network as a ``networkx.Graph``, built placement by placement."""

    def __init__(self, edition: GnomeHollowEdition, wildflower_rule: str = "fresh",
                 wildflowers_join: bool = False, deferred: bool = False) -> None:
        if wildflower_rule not in WILDFLOWER_RULES:
            raise ValueError(f"wildflower_after_ring must be one of {WILDFLOWER_RULES}")
        self.ed = edition
        self.deferred = deferred  # option ring_check = "turn": closures wait for settle()
        self.pending: list[Node] = []  # deferred: the nodes laid since the last settle()
        self.rule = wildflower_rule
        self.wild_join = wildflowers_join  # option wildflowers_join: adjacent wildflowers join
        self.graph = nx.Graph()
        self.grid: dict[Hex, tuple[Tile, int]] = {}
        self.generation: dict[Hex, int] = {}  # wildflower cell -> generation of its current hub
        self.final: set[Node] = set()  # nodes of completed rings
        self.completed: list[ClosedNetwork] = []  # every ring, in the order of completion
        self.closed: list[ClosedNetwork] = []  # every closed network (rings and trees), in order

    def copy(self) -> GardenGraph:
        other = GardenGraph.__new__(GardenGraph)
        other.ed, other.rule, other.wild_join = self.ed, self.rule, self.wild_join
        other.deferred, other.pending = self.deferred, list(self.pending)
        other.graph = self.graph.copy()
        other.grid = dict(self.grid)
        other.generation = dict(self.generation)
        other.final = set(self.final)
        other.completed = list(self.completed)
        other.closed = list(self.closed)
        return other

    # -- building ----------------------------------------------------------------------------
    def _hub(self, cell: Hex) -> Node:
        return ("h", cell, self.generation[cell])

    def _add_open(self, node: Node, n: int) -> None:
        self.graph.nodes[node]["open"] += n

    def place(self, tile: Tile, cell: Hex, orientation: int) -> list[ClosedNetwork]:
        """Lay ``tile`` on the empty ``cell``; the networks this closed (rings and trees), in order."""
        if cell in self.grid:
            raise ValueError(f"cell {cell} is occupied")
        g = self.graph
        self.grid[cell] = (tile, orientation)
        new: list[Node] = []
        if tile.wildflower:
            self.generation[cell] = 0
            hub = self._hub(cell)
            g.add_node(hub, open=0)
            new.append(hub)
            for e in range(6):
                n = neighbour(cell, e)
                got = self.grid.get(n)
                if got is None:
                    continue
                if got[0].wildflower:
                    if self.wild_join:
                        if self._hub(n) in self.final:
                            if self.rule == "dead-end":
                                continue
                            self.generation[n] += 1
                            g.add_node(self._hub(n), open=0)
                        g.add_edge(hub, self._hub(n))
                    continue
                j = got[0].edge_path[got[1]][opposite(e)]
                if j >= 0 and ("p", n, j) not in self.final:
                    g.add_edge(hub, ("p", n, j))
                    self._add_open(("p", n, j), -1)
        else:
            for i in range(len(tile.paths)):
                node = ("p", cell, i)
                g.add_node(node, open=0)
                new.append(node)
            for i in range(len(tile.paths)):
                node = ("p", cell, i)
                for e in tile.oriented_ends(orientation, i):
                    n = neighbour(cell, e)
                    got = self.grid.get(n)
                    if got is None:
                        self._add_open(node, 1)
                        continue
                    u, uo = got
                    if u.wildflower:
                        if self._hub(n) in self.final:
                            if self.rule == "dead-end":
                                continue  # capped: closed, joins nothing
                            self.generation[n] += 1
                            g.add_node(self._hub(n), open=0)
                        g.add_edge(node, self._hub(n))
                        continue
                    j = u.edge_path[uo][opposite(e)]
                    if j < 0:
                        self._add_open(node, 1)  # a path end facing grass stays open
                        continue
                    g.add_edge(node, ("p", n, j))
                    self._add_open(("p", n, j), -1)  # the neighbour's end faced this empty hex
        if self.deferred:
            self.pending += new
            return []
        return self._close(new)

    def settle(self) -> list[ClosedNetwork]:
        """Deferred mode: the networks the nodes laid since the last call are in, now closed, in order."""
        new, self.pending = self.pending, []
        return self._close(new)

    def _close(self, new: list[Node]) -> list[ClosedNetwork]:
        """The networks of ``new`` nodes that are closed (rings become final), in the order of ``new``."""
        g = self.graph
        out: list[ClosedNetwork] = []
        seen: set[Node] = set()
        for node in new:
            if node in seen:
                continue
            comp = nx.node_connected_component(g, node)
            seen |= comp
            sub = g.subgraph(comp)
            if sub.number_of_edges() == 0 or comp & self.final or all(x[0] == "h" for x in comp):
                continue
            if any(g.nodes[x]["open"] > 0 for x in comp):
                continue
            ring = bool(nx.cycle_basis(sub))
            closed = self._describe(comp, ring)
            if ring:
                self.final |= comp
                self.completed.append(closed)
            self.closed.append(closed)
            out.append(closed)
        return out

    # -- queries -----------------------------------------------------------------------------
    def _describe(self, comp: set[Node], ring: bool) -> ClosedNetwork:
        tiles = tuple(sorted({x[1] for x in comp}))
        paths = tuple(sorted((x[1], x[2]) for x in comp if x[0] == "p"))
        mush = dict.fromkeys(self.ed.colours, 0)
        for cell, k in paths:
            m = self.grid[cell][0].paths[k].mushroom
            if m is not None:
                mush[m] += 1
        return ClosedNetwork(-1, ring, tiles, paths, mush)

    def network(self, key: PathKey) -> set[Node]:
        """The nodes of the network holding path ``key`` (KeyError when there is no such path)."""
        node = ("p", key[0], key[1])
        if node not in self.graph:
            raise KeyError(key)
        return set(nx.node_connected_component(self.graph, node))

    def is_ring(self, key: PathKey) -> bool:
        return ("p", key[0], key[1]) in self.final

    def open_ends(self, key: PathKey) -> int:
        return sum(self.graph.nodes[x]["open"] for x in self.network(key))

    def describe(self, key: PathKey) -> ClosedNetwork:
        comp = self.network(key)
        return self._describe(comp, bool(comp & self.final))

    def open_networks(self) -> list[ClosedNetwork]:
        """Every network with an open end, ordered by its first path (``paths[0]``)."""
        out = []
        for comp in nx.connected_components(self.graph):
            if any(self.graph.nodes[x]["open"] > 0 for x in comp):
                out.append(self._describe(set(comp), False))
        return sorted(out, key=lambda d: d.paths[0])

    def open_end_cells(self, key: PathKey) -> list[tuple[Hex, bool]]:
        """(cell faced, faces grass?) for every open end of the network of ``key``, in a stable order
        (paths by row, column, index; ends in the tile's order), as the search branches on them."""
        out = []
        nodes = sorted((x for x in self.network(key) if x[0] == "p"), key=lambda x: (x[1][1], x[1][0], x[2]))
        for _, cell, k in nodes:
            tile, o = self.grid[cell]
            for edge in tile.oriented_ends(o, k):
                n = neighbour(cell, edge)
                got = self.grid.get(n)
                if got is None:
                    out.append((n, False))
                elif not got[0].wildflower and got[0].edge_path[got[1]][opposite(edge)] < 0:
                    out.append((n, True))
        return out


def garden_graph(edition: GnomeHollowEdition, placements: list[tuple[str, Hex, int]],
                 wildflower_rule: str = "fresh", wildflowers_join: bool = False,
                 same_turn: list[bool] | None = None) -> GardenGraph:
    """The graph of a garden, its tiles laid in placement order (the Stump first); ``same_turn`` as in
    :func:`gnomekit.models.gnome_hollow.networks.replay` (option ``ring_check = "turn"``)."""
    gg = GardenGraph(edition, wildflower_rule, wildflowers_join, same_turn is not None)
    for i, (ident, cell, o) in enumerate(placements):
        gg.place(edition.tile(ident), cell, o)
        if same_turn is not None and (i + 1 == len(placements) or not same_turn[i + 1]):
            gg.settle()
    return gg


def position_graph(pos: Position, edition: GnomeHollowEdition) -> GardenGraph:
    """The graph of a position's garden, under its options (every turn's tiles checked)."""
    laid = [t for t in pos.tiles if t.tile in edition.all_tiles]
    return garden_graph(edition, [(t.tile, t.cell, t.orientation) for t in laid], pos.option("wildflower_after_ring"),
                        pos.option("wildflowers_join") == "yes",
                        [t.same_turn for t in laid] if pos.option("ring_check") == "turn" else None)
