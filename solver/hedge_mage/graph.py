"""The garden's ground as a networkx graph: the reference method for ground connectivity.

The placement rule "all parts of the board must remain accessible via ground spaces" is a graph
property: the ground cells (every cell that is not hedge) with an edge between orthogonal
neighbours must form one connected graph.  :class:`GroundGraph` builds that graph once per garden
with ``networkx.grid_2d_graph`` and answers, for the garden or for it after a placement,
``is_connected`` and ``connected_components`` (networkx's names).  It is slower than the
bitboard flood fill of models/hedge_mage/placement.py (the default everywhere) and answers
exactly the same; ``--method networkx`` (and ``method="networkx"`` in the API) use it, and the
tour cross-checks the fast engine against it on every puzzle where ground connectivity decides.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
from gnomekit.models.core.grid import Cell, windows_containing
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.placement import (
    Placement,
    PlacementReport,
    candidates,
    check_placement,
    movement_points,
)
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.solver.hedge_mage.placements import TilePlacements

METHOD = "networkx"


class GroundGraph:
    """The ground of one garden as an undirected networkx graph (nodes: cells; edges: orthogonal steps).

    Building it is O(rows x cols); each question below is O(rows x cols) too (one traversal).
    """

    def __init__(self, garden: Garden) -> None:
        self.garden = garden
        grid = nx.grid_2d_graph(garden.rows, garden.cols)
        self.hedge = frozenset(c for c in garden.hedge_cells if garden.in_bounds(c))
        self.graph: nx.Graph = grid.subgraph(n for n in grid.nodes if n not in self.hedge).copy()

    def is_connected(self, cells: Iterable[Cell] = ()) -> bool:
        """Whether the ground is one region with ``cells`` turned to hedge (no ground counts as one).

        The cells are taken out of the graph and put back with their edges afterwards (much
        faster than a filtered view), so one ``GroundGraph`` is not for several threads at once.
        """
        gone = [c for c in dict.fromkeys(cells) if c in self.graph]
        edges = list(self.graph.edges(gone))
        self.graph.remove_nodes_from(gone)
        try:
            return self.graph.number_of_nodes() == 0 or bool(nx.is_connected(self.graph))
        finally:
            self.graph.add_nodes_from(gone)
            self.graph.add_edges_from(edges)

    def connected_components(self, cells: Iterable[Cell] = ()) -> list[list[Cell]]:
        """The ground's regions with ``cells`` turned to hedge: sorted cells, largest first (ties: earliest cell).

        The same order as ``models.hedge_mage.position.ground_components``.
        """
        gone = set(cells)
        view: nx.Graph = nx.subgraph_view(self.graph, filter_node=lambda n: n not in gone)
        comps = [sorted(c) for c in nx.connected_components(view)]
        comps.sort(key=lambda c: (-len(c), c[0]))
        return comps


def ground_components_networkx(rows: int, cols: int, hedge: frozenset[Cell] | set[Cell]) -> list[list[Cell]]:
    """``ground_components`` answered by networkx (the signature ``check_placement`` takes)."""
    grid = nx.grid_2d_graph(rows, cols)
    ground: nx.Graph = grid.subgraph(n for n in grid.nodes if n not in hedge)
    comps = [sorted(c) for c in nx.connected_components(ground)]
    comps.sort(key=lambda c: (-len(c), c[0]))
    return comps


def check_placement_networkx(garden: Garden, edition: HedgeMageEdition, placement: Placement, *,
                             check_tile_choice: bool = True) -> PlacementReport:
    """``check_placement`` with the cut-off rule decided on the networkx ground graph."""
    return check_placement(garden, edition, placement, check_tile_choice=check_tile_choice,
                           components=ground_components_networkx)


def legal_placements_networkx(garden: Garden, edition: HedgeMageEdition, tile: str,
                              graph: GroundGraph | None = None) -> TilePlacements:
    """Every legal placement of ``tile`` with its movement points (tokens not counted), connectivity by networkx.

    The other rules are plain set tests: inside the garden (the candidates fit by construction),
    only on empty ground, no 2x2 window all hedge afterwards.  Sorted by ``Placement.key``, as
    ``solver.hedge_mage.placements.enumerate_all`` answers.
    """
    gg = graph or GroundGraph(garden)
    blocked = set(garden.hedge_cells) | set(garden.occupants)
    out: list[tuple[Placement, int]] = []
    if any(all(x in gg.hedge for x in w) for w in _windows(garden)):
        return TilePlacements(tile, [], [])  # a 2x2 hedge already: no placement keeps the rule
    for cand in candidates(garden, edition.tiles[tile]):
        p = cand.placement
        if any(c in blocked for c in p.cells):
            continue
        after = set(gg.hedge) | set(p.cells)
        if any(all(x in after for x in w) for c in p.cells for w in windows_containing(c, garden.rows, garden.cols)):
            continue
        if not gg.is_connected(p.cells):
            continue
        out.append((p, movement_points(garden, p)[0]))
    out.sort(key=lambda x: x[0].key)
    return TilePlacements(tile, [p for p, _ in out], [n for _, n in out])


def _windows(garden: Garden) -> list[tuple[Cell, ...]]:
    return [((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            for r in range(garden.rows - 1) for c in range(garden.cols - 1)]


def enumerate_all_networkx(garden: Garden, edition: HedgeMageEdition, tiles: list[str]) -> list[TilePlacements]:
    """``enumerate_all`` with ground connectivity decided by networkx (one graph for all tiles)."""
    gg = GroundGraph(garden)
    return [legal_placements_networkx(garden, edition, t, gg) for t in tiles]
