"""Placing tiles: legality with every broken rule, and what a sequence of placements closes.

``check_sequence`` takes one to four placements in order (the two offered tiles and up to two
stored ones) and reports, per tile, every rule it breaks:

* ``unknown-tile``  the id is not in the edition;
* ``supply``        the tile is neither offered nor in the mover's storage (or used twice, or a
                    third offered / stored tile);
* ``occupied``      the cell already holds a tile;
* ``not-adjacent``  the cell touches neither the Stump nor a placed tile;
* ``edges``         across a shared edge a path meets grass (each such edge named);
* ``two-gnomes``    a path would join two unfinished networks that each hold a gnome;
* ``permission``    it extends a network claimed by another player's gnome and that player did not
                    give permission (``permits``); wildflower tiles never need permission.

For a legal sequence it lists every network closed, in order: rings (size = distinct tiles, the
Stump and wildflowers counted once; every mushroom on the network) with who collects them, and
closed networks that are not rings.  Tiles are laid even when illegal (if their cell is free) so
that later tiles are judged against the garden the player describes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.hexgrid import Hex, hex_name, neighbour, opposite
from gnomekit.models.core.violation import Violation
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, Tile
from gnomekit.models.gnome_hollow.networks import ClosedNetwork, Networks
from gnomekit.models.gnome_hollow.position import Gnome, Placed, Position, edge_mismatches


@dataclass(frozen=True)
class Placement:
    """One tile to lay: id, cell and orientation (0-11; wildflowers ignore orientation)."""

    tile: str
    cell: Hex
    orientation: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "cell": list(self.cell), "orientation": self.orientation}

    def as_placed(self) -> Placed:
        return Placed(self.tile, self.cell, self.orientation)

    def __str__(self) -> str:
        """The placement notation ``TILE@Q,R:ORIENT`` (reads back through ``parse_placement_token``)."""
        o = self.orientation
        return f"{self.tile}@{self.cell[0]},{self.cell[1]}:" + (f"m{o - 6}" if o >= 6 else f"r{o}")


@dataclass(frozen=True)
class RingReport:
    """A ring a sequence closed and who gets what from it."""

    index: int  # 1-based, in the order the sequence closes rings
    by_tile: int  # 1-based index of the placement that closed it
    network: ClosedNetwork
    claimed_by: str | None  # player whose standing gnome is on it
    collector: str | None  # who takes the mushrooms now (None: they wait in the ring or for claimant)
    marker: str | None  # who moves a ring marker for it (now or at their next turn)
    when: str  # "now", "next-turn" (claimant scores at the start of their turn) or "pot"

    def to_json(self, edition: GnomeHollowEdition) -> dict[str, Any]:
        n = self.network
        return {
            "index": self.index,
            "closed_by": self.by_tile,
            "size": n.size,
            "mushrooms": {c: n.mushrooms.get(c, 0) for c in edition.colours},
            "tiles": [list(c) for c in n.tiles],
            "paths": [{"cell": list(c), "path": k} for c, k in n.paths],
            "claimed_by": self.claimed_by,
            "collector": self.collector,
            "marker": self.marker,
            "when": self.when,
        }


@dataclass
class TileReport:
    placement: Placement
    violations: list[Violation] = field(default_factory=list)
    source: str | None = None  # "offered", "storage" (None when not checked or unknown)

    @property
    def legal(self) -> bool:
        return not self.violations


@dataclass
class SequenceReport:
    """The answer of ``check``: per tile reasons, rings closed, who collects."""

    mover: str
    tiles: list[TileReport]
    rings: list[RingReport]
    trees: list[tuple[int, ClosedNetwork]]  # (placement index, closed network without a cycle)
    permits: tuple[str, ...]
    wildflower_rule: str
    offered_used: int

    @property
    def legal(self) -> bool:
        return all(t.legal for t in self.tiles)

    @property
    def reasons(self) -> list[str]:
        out = []
        for i, t in enumerate(self.tiles, start=1):
            for v in t.violations:
                out.append(f"tile {i} ({t.placement.tile} at {hex_name(t.placement.cell)}): {v.message}")
        return out

    @property
    def needs_permission(self) -> list[str]:
        return sorted({v.message.rsplit(" ", 1)[-1] for t in self.tiles for v in t.violations
                       if v.rule == "permission"})

    def to_json(self, edition: GnomeHollowEdition) -> dict[str, Any]:
        legal = self.legal
        rings = [r.to_json(edition) for r in self.rings]
        return {
            "legal": legal,
            "reasons": self.reasons,
            "rings": rings if legal else [],
            "rings_if_placed": rings,
            "closed_not_rings": [
                {"closed_by": i, "size": n.size, "tiles": [list(c) for c in n.tiles],
                 "mushrooms": {c: n.mushrooms.get(c, 0) for c in edition.colours}}
                for i, n in self.trees
            ],
            "mover": self.mover,
            "permits": list(self.permits),
            "needs_permission_from": self.needs_permission,
            "tiles": [
                {**t.placement.to_json(), "legal": t.legal, "source": t.source,
                 "violations": [v.to_json() for v in t.violations]}
                for t in self.tiles
            ],
            "offered_used": self.offered_used,
            "turn_complete": self.offered_used == 2,
            "options": {"wildflower_after_ring": self.wildflower_rule},
        }


def touched_groups(nets: Networks, p: Placement, edition: GnomeHollowEdition) -> list[set[int]]:
    """For each new path (or the new wildflower's hub): the roots of unfinished networks it would join."""
    tile = edition.tile(p.tile)
    if tile.wildflower:
        g: set[int] = set()
        for e in range(6):
            n = neighbour(p.cell, e)
            got = nets.grid.get(n)
            if got is None or got[0].wildflower:
                continue
            j = got[0].edge_path[got[1]][opposite(e)]
            if j >= 0:
                r = nets.root_of((n, j))
                if not nets.is_ring(r):
                    g.add(r)
        return [g]
    groups: list[set[int]] = [set() for _ in tile.paths]
    row = tile.edge_path[p.orientation]
    for e in range(6):
        i = row[e]
        if i < 0:
            continue
        n = neighbour(p.cell, e)
        got = nets.grid.get(n)
        if got is None:
            continue
        u, uo = got
        if u.wildflower:
            h = nets.current_hub(n)
            if h is not None and h >= 0:
                groups[i].add(nets.find(h))
            continue
        j = u.edge_path[uo][opposite(e)]
        if j >= 0:
            r = nets.root_of((n, j))
            if not nets.is_ring(r):
                groups[i].add(r)
    return groups


def check_sequence(
    pos: Position,
    edition: GnomeHollowEdition,
    placements: list[Placement],
    permits: tuple[str, ...] = (),
    check_supply: bool = True,
    method: str = "union-find",
) -> SequenceReport:
    """Check placements in order; see the module docstring for the rules and the report.

    ``method`` decides which networks close and which are rings: ``"union-find"`` (the fast engine)
    or ``"networkx"`` (:mod:`gnomekit.models.gnome_hollow.graph`, the same answers from a graph).
    Every violation names the placement's hex first, then the other hexes involved.
    """
    if not placements:
        raise NotationError("no placements to check")
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    nets = pos.networks(edition)
    graph = None
    if method == "networkx":
        from gnomekit.models.gnome_hollow.graph import position_graph

        graph = position_graph(pos, edition)
    mover = pos.mover.name
    claims: dict[int, list[Gnome]] = pos.claims(edition, nets)
    gnome_keys = [(g, g.at) for g in pos.gnomes if isinstance(g.at, tuple) and not g.down]
    grid: dict[Hex, Placed] = dict(pos.at)
    offered_left = list(pos.offered)
    stored_left = list(pos.mover.storage)
    offered_used = stored_used = 0
    reports: list[TileReport] = []
    rings: list[RingReport] = []
    trees: list[tuple[int, ClosedNetwork]] = []
    for idx, p in enumerate(placements, start=1):
        rep = TileReport(p)
        reports.append(rep)
        if p.tile not in edition.all_tiles or p.tile == "S":
            rep.violations.append(Violation("unknown-tile", f"unknown tile {p.tile!r}", (p.cell,)))
            continue
        tile = edition.tile(p.tile)
        if check_supply:
            if p.tile in offered_left:
                offered_left.remove(p.tile)
                offered_used += 1
                rep.source = "offered"
                if offered_used > 2:
                    rep.violations.append(Violation("supply", "a turn takes only 2 tiles from the garden tile board",
                                                    (p.cell,)))
            elif p.tile in stored_left:
                stored_left.remove(p.tile)
                stored_used += 1
                rep.source = "storage"
            else:
                if any(q.tile == p.tile for q in placements[: idx - 1]):
                    why = "placed earlier in this sequence"
                elif p.tile in {t.tile for t in pos.tiles}:
                    why = "already in the garden"
                else:
                    why = f"neither offered nor in {mover}'s storage"
                rep.violations.append(Violation("supply", f"{p.tile} is {why}", (p.cell,)))
        elif any(q.tile == p.tile for q in placements[: idx - 1]):
            # even without the supply check a tile exists once: it cannot be laid twice
            rep.violations.append(Violation("supply", f"{p.tile} is placed earlier in this sequence", (p.cell,)))
        elif p.tile in {t.tile for t in pos.tiles}:
            rep.violations.append(Violation("supply", f"{p.tile} is already in the garden", (p.cell,)))
        if p.cell in grid:
            rep.violations.append(Violation("occupied", f"{hex_name(p.cell)} already holds {grid[p.cell].tile}",
                                            (p.cell,)))
            continue
        if not any(neighbour(p.cell, e) in grid for e in range(6)):
            rep.violations.append(Violation("not-adjacent", f"{hex_name(p.cell)} touches neither the Stump nor a "
                                            "placed tile", (p.cell,)))
        if not 0 <= p.orientation < 12:
            rep.violations.append(Violation("orientation", f"orientation {p.orientation} is not 0-11", (p.cell,)))
            continue
        for _e, n, _k, msg in edge_mismatches(edition, grid, p.as_placed()):
            rep.violations.append(Violation("edges", msg, (p.cell, n)))
        groups = touched_groups(nets, p, edition)
        for g in groups:
            holders = [gn for r in sorted(g) for gn in claims.get(r, [])]
            claimed_roots = [r for r in g if claims.get(r)]
            if len(claimed_roots) >= 2:
                who = ", ".join(sorted(gn.player for gn in holders))
                rep.violations.append(Violation(
                    "two-gnomes",
                    f"would join {len(claimed_roots)} unfinished networks that each hold a gnome ({who})",
                    _cells(p.cell, holders)))
        if not tile.wildflower:
            others = sorted({gn.player for g in groups for r in g for gn in claims.get(r, []) if gn.player != mover})
            for who in others:
                if who not in permits:
                    theirs = [gn for g in groups for r in g for gn in claims.get(r, []) if gn.player == who]
                    rep.violations.append(Violation("permission", f"extends a network claimed by {who}'s gnome: "
                                                    f"needs permission from {who}", _cells(p.cell, theirs)))
        # lay the tile and see what closes
        grid[p.cell] = p.as_placed()
        closed = nets.place(tile, p.cell, p.orientation)
        if graph is not None:
            closed = graph.place(tile, p.cell, p.orientation)
        claims = _claims(nets, gnome_keys)
        _report_closed(pos, closed, idx, gnome_keys, rings, trees)
    if nets.deferred:  # option ring_check = "turn": the rings are checked after the tiles
        closed = nets.settle()
        if graph is not None:
            closed = graph.settle()
        _report_closed(pos, closed, len(placements), gnome_keys, rings, trees)
    return SequenceReport(mover, reports, rings, trees, tuple(permits), nets.rule, offered_used)


def _report_closed(pos: Position, closed: list[ClosedNetwork], idx: int, gnome_keys: list[tuple[Gnome, Any]],
                   rings: list[RingReport], trees: list[tuple[int, ClosedNetwork]]) -> None:
    """Add the networks placement ``idx`` closed to ``rings`` (with who collects) and ``trees``."""
    mover = pos.mover.name
    for c in closed:
        if not c.ring:
            trees.append((idx, c))
            continue
        members = set(c.paths)
        # the mover first, then turn order from the mover (several claimants: option claim=path)
        order = [q.name for q in pos.players]
        names = sorted({g.player for g, k in gnome_keys if k in members},
                       key=lambda n: ((order.index(n) - pos.to_move) % len(order) if n in order else len(order), n))
        claimant = names[0] if names else None
        if claimant is None:
            rr = RingReport(len(rings) + 1, idx, c, None, None, mover, "pot")
        elif claimant == mover:
            rr = RingReport(len(rings) + 1, idx, c, mover, mover, mover, "now")
        else:
            rr = RingReport(len(rings) + 1, idx, c, claimant, claimant, claimant, "next-turn")
        rings.append(rr)


#: How ring closure is decided: the union-find engine (default) or the networkx graph.
METHODS = ("union-find", "networkx")


def _cells(cell: Hex, gnomes: list[Gnome]) -> tuple[Hex, ...]:
    """The placement's hex, then the hexes of the gnomes involved (each once)."""
    out = [cell]
    for g in gnomes:
        if isinstance(g.at, tuple) and g.at[0] not in out:
            out.append(g.at[0])
    return tuple(out)


def _claims(nets: Networks, gnome_keys: list[tuple[Gnome, Any]]) -> dict[int, list[Gnome]]:
    out: dict[int, list[Gnome]] = {}
    for g, k in gnome_keys:
        if k in nets.path_elem:
            r = nets.root_of(k)
            if not nets.is_ring(r):
                out.setdefault(r, []).append(g)
    return out


def legal_cells(pos: Position, nets: Networks) -> list[Hex]:
    """Empty cells adjacent to the garden, sorted (row, then column)."""
    from gnomekit.models.core.hexgrid import frontier

    return sorted(frontier(nets.grid), key=lambda c: (c[1], c[0]))


def legal_placements(pos: Position, edition: GnomeHollowEdition, tile_id: str, nets: Networks | None = None,
                     permits: tuple[str, ...] = (), distinct: bool = True) -> list[Placement]:
    """Every legal placement of one tile (supply not checked), one orientation per distinct look."""
    return legal_placements_of(pos, edition, [tile_id], nets, permits, distinct)


def legal_placements_of(pos: Position, edition: GnomeHollowEdition, tile_ids: Iterable[str],
                        nets: Networks | None = None, permits: tuple[str, ...] = (),
                        distinct: bool = True) -> list[Placement]:
    """``legal_placements`` of each tile in turn, one list: the cells, the claims and what the neighbours
    fix are worked out once for all the tiles."""
    nets = nets or pos.networks(edition)
    claims = pos.claims(edition, nets)
    mover = pos.mover.name
    cells = legal_cells(pos, nets)
    fixed: dict[Hex, tuple[tuple[int, bool], ...]] = {}
    out: list[Placement] = []
    for tile_id in tile_ids:
        tile = edition.tile(tile_id)
        orients = (0,) if tile.wildflower else (tile.distinct_orientations if distinct else tuple(range(12)))
        for cell in cells:
            if tile.wildflower:
                edges: tuple[tuple[int, bool], ...] = ()
            elif (got := fixed.get(cell)) is not None:
                edges = got
            else:
                edges = fixed[cell] = fixed_edges(nets, cell)
            for o in orients:
                row = tile.edge_path[o]
                if any((row[e] >= 0) != path for e, path in edges):  # ``fits``, the neighbours read once a cell
                    continue
                p = Placement(tile_id, cell, o)
                if _claims_ok(nets, p, edition, claims, mover, permits, tile.wildflower):
                    out.append(p)
    return out


class HasGrid(Protocol):
    """Anything that keeps a garden's grid (cell -> tile, orientation): the union-find or the graph."""

    grid: dict[Hex, tuple[Tile, int]]


def fixed_edges(nets: HasGrid, cell: Hex) -> tuple[tuple[int, bool], ...]:
    """The edges of ``cell`` its neighbours decide, as (edge, must be a path): ``fits`` for every orientation
    of a tile at once (a wildflower neighbour decides nothing)."""
    out = []
    for e in range(6):
        got = nets.grid.get(neighbour(cell, e))
        if got is not None and not got[0].wildflower:
            out.append((e, got[0].edge_path[got[1]][opposite(e)] >= 0))
    return tuple(out)


def fits(nets: HasGrid, tile: Any, cell: Hex, o: int) -> bool:
    """Edge matching only: every shared edge meets path to path or grass to grass."""
    if tile.wildflower:
        return True
    row = tile.edge_path[o]
    for e in range(6):
        got = nets.grid.get(neighbour(cell, e))
        if got is None or got[0].wildflower:
            continue
        if (row[e] >= 0) != (got[0].edge_path[got[1]][opposite(e)] >= 0):
            return False
    return True


def _claims_ok(nets: Networks, p: Placement, edition: GnomeHollowEdition, claims: dict[int, list[Gnome]],
               mover: str, permits: tuple[str, ...], wildflower: bool) -> bool:
    if not claims:
        return True
    for g in touched_groups(nets, p, edition):
        held = [r for r in g if claims.get(r)]
        if len(held) >= 2:
            return False
        if not wildflower:
            for r in held:
                for gn in claims[r]:
                    if gn.player != mover and gn.player not in permits:
                        return False
    return True
