"""Can this open network be closed this turn, and how?  Two exact methods.

The tiles available are the offered ones (at most 2 of them, a turn takes 2) and the mover's stored
tiles.  Every tile that helps close a network ends up in it, so it lies on a cell an open end of the
network faces at the moment it is laid.

* :func:`close_by_search` - depth-first search: the cell faced by the first open end of the target
  network must be filled, so branch only on which tile and orientation go there (identical tiles
  collapsed), lay it, repeat.  The gnome rules depend on the order the tiles are laid in, so they
  cut no branch: when the tiles close the network every order of them is checked with the rules'
  own ``check_sequence`` and the first legal one is the witness.  :func:`close_by_networkx` runs
  the same search on the garden's networkx graph.
* :func:`close_by_sat` - a SAT model (PySAT): one Boolean per candidate placement (cell within reach
  of the target's open ends with the tiles of the turn, also through the networks it would draw in:
  :func:`_reach`; x tile x orientation that fits the garden), at most one per cell and per tile, at
  most 2 offered tiles, edge matching between chosen neighbours, membership in the target network
  spread along active joins, every chosen tile in it, and no open end on any member.  A model is
  ordered and re-checked with ``check_sequence`` (permission, gnome joins); a model the rules reject
  is blocked and the solver asked again.

Both return a :class:`solver.core.result.Result`: SATISFIED with the placements, UNSATISFIABLE, or
UNKNOWN on a time limit.  The other offered tile(s) of the turn are assumed placeable elsewhere.
Both answer the same question: a closing whose tiles all end up in the target network (a tile laid
elsewhere only to change which networks are claimed is not considered).  Once tile placement has
ended (the final gnome actions) no tile can be laid, so the answer is no.
"""

from __future__ import annotations

import collections
import itertools
import time
from dataclasses import dataclass
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.hexgrid import Hex, neighbour, opposite
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, Tile
from gnomekit.models.gnome_hollow.networks import Networks, PathKey
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence, fits, touched_groups
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.solver.core.result import Result, Status


@dataclass(frozen=True)
class Supply:
    """Tiles the mover may lay this turn."""

    offered: tuple[str, ...]
    stored: tuple[str, ...]
    max_offered: int = 2

    @property
    def all(self) -> tuple[str, ...]:
        return self.offered + self.stored


def refuse_ring_check_turn(pos: Position, what: str) -> None:
    """The searches check rings tile by tile: refuse option ``ring_check = "turn"`` rather than answer
    by another rule (UsageError naming the option)."""
    if pos.option("ring_check") == "turn":
        raise UsageError(f"{what} checks rings after each tile and does not model option ring_check=turn")


def supply_of(pos: Position) -> Supply:
    """The tiles the mover may lay this turn: none once tile placement has ended (the final gnome actions)."""
    if pos.final_actions is not None:
        return Supply((), ())
    return Supply(tuple(pos.offered), tuple(pos.mover.storage))


def look(tile: Tile) -> tuple[object, ...]:
    """Tiles with the same look (paths with mushrooms, up to orientation) are interchangeable."""
    if tile.wildflower:
        return ("wild",)
    best = None
    for o in range(12):
        key = tuple(sorted((min(a, b), max(a, b), p.mushroom or "")
                           for p, (a, b) in ((p, tile.oriented_ends(o, i)) for i, p in enumerate(tile.paths))))
        if best is None or key < best:
            best = key
    return ("garden", best)


def _target_root(nets: Networks, ref: PathKey) -> int:
    if ref not in nets.path_elem:
        raise UsageError(f"no path {ref[0][0]},{ref[0][1]}.{ref[1]} in the garden")
    return nets.root_of(ref)


def open_end_cells(nets: Networks, root: int) -> list[tuple[Hex, bool]]:
    """(cell faced, faces grass?) for every open end of a network, in a stable order."""
    out = []
    for e in sorted(nets.members(root), key=lambda x: (nets.cell[x][1], nets.cell[x][0], nets.pidx[x])):
        k = nets.pidx[e]
        if k < 0:
            continue
        cell = nets.cell[e]
        tile, o = nets.grid[cell]
        for edge in tile.oriented_ends(o, k):
            n = neighbour(cell, edge)
            got = nets.grid.get(n)
            if got is None:
                out.append((n, False))
            elif not got[0].wildflower and got[0].edge_path[got[1]][opposite(edge)] < 0:
                out.append((n, True))
    return out


class _UnionFindGarden:
    """The search's view of a garden kept by the union-find engine (:class:`Networks`)."""

    def __init__(self, nets: Networks, ref: PathKey) -> None:
        self.nets, self.ref = nets, ref
        self.grid = nets.grid

    def closed(self) -> bool:
        return self.nets.open_ends(self.nets.root_of(self.ref)) == 0

    def open_end_cells(self) -> list[tuple[Hex, bool]]:
        return open_end_cells(self.nets, self.nets.root_of(self.ref))

    def after(self, tile: Tile, cell: Hex, o: int) -> _UnionFindGarden:
        nxt = self.nets.copy()
        nxt.place(tile, cell, o)
        return _UnionFindGarden(nxt, self.ref)


class _GraphGarden:
    """The search's view of a garden kept as a networkx graph (:class:`GardenGraph`)."""

    def __init__(self, gg: Any, ref: PathKey) -> None:
        self.gg, self.ref = gg, ref
        self.grid = gg.grid

    def closed(self) -> bool:
        return bool(self.gg.open_ends(self.ref) == 0)

    def open_end_cells(self) -> list[tuple[Hex, bool]]:
        return list(self.gg.open_end_cells(self.ref))

    def after(self, tile: Tile, cell: Hex, o: int) -> _GraphGarden:
        nxt = self.gg.copy()
        nxt.place(tile, cell, o)
        return _GraphGarden(nxt, self.ref)


def close_by_search(pos: Position, ed: GnomeHollowEdition, ref: PathKey, permits: tuple[str, ...] = (),
                    supply: Supply | None = None, time_limit: float | None = None,
                    max_nodes: int | None = None) -> Result:
    """Exact depth-first search on the union-find engine; witness = the placements in a legal order."""
    refuse_ring_check_turn(pos, "the close search")
    started = time.perf_counter()
    nets0 = pos.networks(ed)
    root0 = _target_root(nets0, ref)
    if nets0.is_ring(root0) or nets0.open_ends(root0) == 0:
        raise UsageError("that network is already closed")
    return _search(pos, ed, ref, permits, supply, time_limit, max_nodes, _UnionFindGarden(nets0, ref), started)


def close_by_networkx(pos: Position, ed: GnomeHollowEdition, ref: PathKey, permits: tuple[str, ...] = (),
                      supply: Supply | None = None, time_limit: float | None = None,
                      max_nodes: int | None = None) -> Result:
    """The depth-first search of :func:`close_by_search` on the garden's networkx graph.

    The target network, its open ends and whether it closed come from
    :class:`~gnomekit.models.gnome_hollow.graph.GardenGraph` (components of the path graph, no
    union-find); the search itself is the same code, trying the same tiles in the same order, so
    the answer and the witness are the same.
    """
    from gnomekit.models.gnome_hollow.graph import position_graph

    refuse_ring_check_turn(pos, "the close search")
    started = time.perf_counter()
    g0 = position_graph(pos, ed)
    try:
        closed0 = g0.is_ring(ref) or g0.open_ends(ref) == 0
    except KeyError:
        raise UsageError(f"no path {ref[0][0]},{ref[0][1]}.{ref[1]} in the garden") from None
    if closed0:
        raise UsageError("that network is already closed")
    return _search(pos, ed, ref, permits, supply, time_limit, max_nodes, _GraphGarden(g0, ref), started)


def _search(pos: Position, ed: GnomeHollowEdition, ref: PathKey, permits: tuple[str, ...], supply: Supply | None,
            time_limit: float | None, max_nodes: int | None, garden: _UnionFindGarden | _GraphGarden,
            started: float) -> Result:
    """The depth-first search both garden views share.

    The cell faced by the first open end of the target network must be filled, so the search
    branches only on which tile and orientation go there (identical tiles collapsed), lays it and
    repeats.  The gnome rules (permission, two gnomes) depend on the order the tiles are laid in -
    a wildflower laid first can merge the network with a rival's claimed one, laid last it
    cannot - and the rulebook lets stored tiles go before, between or after the garden tiles, so
    no branch is cut by them: when the tiles close the network, every order of them is checked
    with the rules' own ``check_sequence`` (:func:`_legal_order`), and the search goes on if no
    order is legal.
    """
    supply = supply or supply_of(pos)
    stats = {"nodes": 0, "orders": 0}
    deadline = None if time_limit is None else started + time_limit

    def rec(g: _UnionFindGarden | _GraphGarden, seq: list[Placement], offered_left: list[str],
            stored_left: list[str], offered_used: int) -> list[Placement] | None | str:
        if deadline is not None and time.perf_counter() > deadline:
            return "timeout"
        if max_nodes is not None and stats["nodes"] > max_nodes:
            return "timeout"
        if g.closed():
            stats["orders"] += 1
            return _legal_order(pos, ed, ref, seq, permits)
        ends = g.open_end_cells()
        if any(grass for _, grass in ends):
            return None
        cells = {c for c, _ in ends}
        capacity = min(len(offered_left), supply.max_offered - offered_used) + len(stored_left)
        if len(cells) > capacity:
            return None
        cell = ends[0][0]
        seen: set[tuple[object, ...]] = set()
        choices = [(t, True) for t in offered_left if offered_used < supply.max_offered] + \
                  [(t, False) for t in stored_left]
        for tid, from_offer in choices:
            tile = ed.tile(tid)
            key = (look(tile), from_offer)
            if key in seen:
                continue
            seen.add(key)
            for o in ((0,) if tile.wildflower else tile.distinct_orientations):
                if not fits(g, tile, cell, o):
                    continue
                stats["nodes"] += 1
                got = rec(g.after(tile, cell, o), seq + [Placement(tid, cell, o)],
                          [t for t in offered_left if t != tid], [t for t in stored_left if t != tid],
                          offered_used + from_offer)
                if got is not None:
                    return got
        return None

    got = rec(garden, [], list(supply.offered), list(supply.stored), 0)
    secs = time.perf_counter() - started
    if got == "timeout":
        return Result(Status.UNKNOWN, stats=stats, seconds=secs)
    if got is None:
        return Result(Status.UNSATISFIABLE, value=False, stats=stats, seconds=secs)
    return Result(Status.SATISFIED, value=True, witness=got, stats=stats, seconds=secs)


def _claims_ok(pos: Position, ed: GnomeHollowEdition, nets: Networks, p: Placement, permits: tuple[str, ...]) -> bool:
    gk = [(g, g.at) for g in pos.gnomes if isinstance(g.at, tuple) and not g.down]
    claims: dict[int, set[str]] = {}
    for g, k in gk:
        if k in nets.path_elem:
            r = nets.root_of(k)
            if not nets.is_ring(r):
                claims.setdefault(r, set()).add(g.player)
    if not claims:
        return True
    wild = ed.tile(p.tile).wildflower
    for grp in touched_groups(nets, p, ed):
        held = [r for r in grp if r in claims]
        if len(held) >= 2:
            return False
        if not wild:
            for r in held:
                if any(who != pos.mover.name and who not in permits for who in claims[r]):
                    return False
    return True


# ---------------------------------------------------------------------------------------------
# SAT


def close_by_sat(pos: Position, ed: GnomeHollowEdition, ref: PathKey, permits: tuple[str, ...] = (),
                 supply: Supply | None = None, time_limit: float | None = None, max_rounds: int = 1000) -> Result:
    """SAT model (PySAT) of tile choice, position and orientation with edge matching (module docstring)."""
    from gnomekit.solver.core.sat import SatModel, SatTimeout

    if pos.option("wildflowers_join") == "yes":  # the model joins wildflowers to path ends only
        raise UsageError("method sat does not model option wildflowers_join=yes; use method search")
    refuse_ring_check_turn(pos, "method sat")
    started = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    supply = supply or supply_of(pos)
    nets = pos.networks(ed)
    root = _target_root(nets, ref)
    if nets.is_ring(root) or nets.open_ends(root) == 0:
        raise UsageError("that network is already closed")
    ends = open_end_cells(nets, root)
    n_tiles = min(len(supply.offered), supply.max_offered) + len(supply.stored)
    stats: dict[str, int] = {"candidates": 0, "rounds": 0}
    if any(g for _, g in ends) or len({c for c, _ in ends}) > n_tiles:
        return Result(Status.UNSATISFIABLE, value=False, stats=stats, seconds=time.perf_counter() - started)
    region = _reach(nets, {c for c, _ in ends}, n_tiles - 1)
    cands: list[Placement] = []
    for cell in sorted(region, key=lambda c: (c[1], c[0])):
        for tid in dict.fromkeys(supply.all):
            tile = ed.tile(tid)
            for o in ((0,) if tile.wildflower else tile.distinct_orientations):
                if fits(nets, tile, cell, o):
                    cands.append(Placement(tid, cell, o))
    stats["candidates"] = len(cands)
    m = SatModel()
    x = [m.var(("x", p.tile, p.cell, p.orientation)) for p in cands]
    by_cell: dict[Hex, list[int]] = {}
    by_tile: dict[str, list[int]] = {}
    for j, p in enumerate(cands):
        by_cell.setdefault(p.cell, []).append(j)
        by_tile.setdefault(p.tile, []).append(j)
    for js in [*by_cell.values(), *by_tile.values()]:
        m.at_most_one([x[j] for j in js])
    offered_js = [x[j] for j, p in enumerate(cands) if p.tile in supply.offered]
    if len(offered_js) > supply.max_offered:
        m.at_most_k(offered_js, supply.max_offered)

    def path_at(p: Placement, edge: int) -> int:
        t = ed.tile(p.tile)
        return -1 if t.wildflower else t.edge_path[p.orientation][edge]

    def inv(key: object) -> int:
        return m.var(("in", key))

    def join(a: object, b: object, conds: list[int]) -> None:
        """When all of ``conds`` hold, a and b are in the same network: "in" spreads both ways."""
        neg = [-c for c in conds]
        m.add([*neg, -inv(a), inv(b)])
        m.add([*neg, -inv(b), inv(a)])

    # Per empty cell and edge: "a garden tile there has a path on this edge" (A) or "grass" (G), and
    # "that path end is in the target network" (the end's own "in").  Chosen tiles imply them, so
    # edge matching and joins between two new tiles are one constraint per shared edge, not one per
    # pair of candidates.
    def has_path(cell: Hex, e: int) -> int:
        return m.var(("A", cell, e))

    def has_grass(cell: Hex, e: int) -> int:
        return m.var(("G", cell, e))

    def end(cell: Hex, e: int) -> tuple[str, Hex, int]:
        return ("end", cell, e)

    def filled(cell: Hex) -> int:
        return m.var(("filled", cell))

    for cell in region:
        m.add([-filled(cell), *[x[j] for j in by_cell.get(cell, [])]])
    for j, p in enumerate(cands):
        if ed.tile(p.tile).wildflower:
            continue
        for e in range(6):
            m.add([-x[j], has_path(p.cell, e) if path_at(p, e) >= 0 else has_grass(p.cell, e)])
    for cell in region:  # each shared edge of two empty cells once
        for e in range(3):
            n = neighbour(cell, e)
            if n not in region:
                continue
            o = opposite(e)
            m.add([-has_path(cell, e), -has_grass(n, o)])
            m.add([-has_grass(cell, e), -has_path(n, o)])
            join(end(cell, e), end(n, o), [has_path(cell, e), has_path(n, o)])

    def existing_key(cell: Hex, edge_of_cell: int) -> object | None:
        tile, o = nets.grid[cell]
        if tile.wildflower:
            h = nets.current_hub(cell)
            if h is None:
                return None
            return ("hub-new", cell) if h < 0 else ("root", nets.find(h))
        k = tile.edge_path[o][edge_of_cell]
        if k < 0:
            return None
        r = nets.root_of((cell, k))
        return None if nets.is_ring(r) else ("root", r)

    roots: set[int] = {root}
    for j, p in enumerate(cands):
        tile = ed.tile(p.tile)
        if tile.wildflower:
            hub = ("hub", j)
            m.add([-x[j], inv(hub)])  # a chosen tile is part of the target network
            for e in range(6):
                n = neighbour(p.cell, e)
                if n in nets.grid:
                    if not nets.grid[n][0].wildflower:
                        key = existing_key(n, opposite(e))
                        if key is not None:
                            join(hub, key, [x[j]])
                            if isinstance(key, tuple) and key[0] == "root":
                                roots.add(key[1])  # type: ignore[arg-type]
                elif n in region:
                    join(hub, end(n, opposite(e)), [x[j], has_path(n, opposite(e))])
            continue
        m.add([-x[j], *[inv(("path", j, i)) for i in range(len(tile.paths))]])  # a chosen tile is in it
        for i in range(len(tile.paths)):
            pe = ("path", j, i)
            m.add([-inv(pe), x[j]])
            for edge in tile.oriented_ends(p.orientation, i):
                n = neighbour(p.cell, edge)
                if n in nets.grid:
                    key = existing_key(n, opposite(edge))
                    if key is not None:
                        join(pe, key, [x[j]])
                        if isinstance(key, tuple) and key[0] == "root":
                            roots.add(key[1])  # type: ignore[arg-type]
                    continue
                join(pe, end(p.cell, edge), [x[j]])
                m.add([-inv(pe), filled(n) if n in region else False])  # an end of a member must be closed
    for r in roots:  # existing networks drawn in: every open end filled
        cells_needed = open_end_cells(nets, r)
        if any(g for _, g in cells_needed):
            m.add([-inv(("root", r))])
            continue
        for c, _ in cells_needed:
            m.add([-inv(("root", r)), *[x[k] for k in by_cell.get(c, [])]])
    m.add([inv(("root", root))])
    stats["variables"] = m.pool.top if hasattr(m, "pool") else 0
    try:
        for _ in range(max_rounds):
            stats["rounds"] += 1
            if not m.solve(deadline=deadline):
                return Result(Status.UNSATISFIABLE, value=False, stats=stats, seconds=time.perf_counter() - started)
            chosen_js = [j for j in range(len(cands)) if m.value(x[j])]
            seq = _legal_order(pos, ed, ref, [cands[j] for j in chosen_js], permits)
            if seq is not None:
                return Result(Status.SATISFIED, value=True, witness=seq, stats=stats,
                              seconds=time.perf_counter() - started)
            m.add([-x[j] for j in chosen_js])  # the rules reject this set (and every superset)
    except SatTimeout:
        pass
    finally:
        m.close()
    return Result(Status.UNKNOWN, stats=stats, seconds=time.perf_counter() - started)


def _reach(nets: Networks, start: set[Hex], steps: int) -> set[Hex]:
    """The empty cells a closing can use: within ``steps`` new tiles of the target's open-end cells.

    A tile of the closing is in the target network at the end, joined to it through a chain of
    new tiles and networks already in the garden that get drawn in.  So from a cell a new tile
    reaches its empty neighbours (one more tile) and, through every open network it would join
    (one whose open end faces the cell, or a wildflower's beside it), that network's open-end
    cells (one more tile too).  A breadth-first search over those steps.
    """
    cells_of: dict[int, set[Hex]] = {}
    facing: dict[Hex, set[int]] = {}
    for r in nets.open_networks():
        cs = {c for c, _ in open_end_cells(nets, r) if c not in nets.grid}
        cells_of[r] = cs
        for c in cs:
            facing.setdefault(c, set()).add(r)
    for cell in nets.hub:
        h = nets.current_hub(cell)
        if h is None or h < 0:
            continue
        r = nets.find(h)
        cells_of.setdefault(r, {c for c, _ in open_end_cells(nets, r) if c not in nets.grid})
        for e in range(6):
            n = neighbour(cell, e)
            if n not in nets.grid:
                facing.setdefault(n, set()).add(r)
    best: dict[Hex, int] = {c: 0 for c in start}
    todo = collections.deque(sorted(start))
    while todo:
        cell = todo.popleft()
        k = best[cell]
        if k >= steps:
            continue
        nxt = {neighbour(cell, e) for e in range(6)}
        for r in facing.get(cell, ()):
            nxt |= cells_of[r]
        for n in sorted(nxt):
            if n not in nets.grid and n not in best:
                best[n] = k + 1
                todo.append(n)
    return set(best)


def _legal_order(pos: Position, ed: GnomeHollowEdition, ref: PathKey, chosen: list[Placement],
                 permits: tuple[str, ...]) -> list[Placement] | None:
    """An order of the chosen placements the rules accept and that closes the target network."""
    for perm in itertools.permutations(chosen):
        rep = check_sequence(pos, ed, list(perm), permits, check_supply=True)
        if not rep.legal:
            continue
        nets = pos.networks(ed)
        for p in perm:
            nets.place(ed.tile(p.tile), p.cell, p.orientation)
        r = nets.root_of(ref)
        if nets.open_ends(r) == 0:
            return list(perm)
    return None


def closes(pos: Position, ed: GnomeHollowEdition, ref: PathKey, seq: list[Placement]) -> bool:
    """Does this sequence close the network of ``ref``?"""
    nets = pos.networks(ed)
    for p in seq:
        nets.place(ed.tile(p.tile), p.cell, p.orientation)
    return nets.open_ends(nets.root_of(ref)) == 0
