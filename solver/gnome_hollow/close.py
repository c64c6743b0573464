"""Can this open network be closed this turn, and how?  Two exact methods.

The tiles available are the offered ones (at most 2 of them, a turn takes 2) and the mover's stored
tiles.  Every tile that helps close a network ends up in it, so it lies on a cell an open end of the
network faces at the moment it is laid.

* :func:`close_by_search` - depth-first search: the cell faced by the first open end of the target
  network must be filled, so branch only on which tile and orientation go there (identical tiles
  collapsed), lay it, repeat; every sequence found is re-checked with the rules' own
  ``check_sequence``.
* :func:`close_by_smt` - a z3 model: one Boolean per candidate placement (cell within reach x tile x
  orientation that fits the garden), at most one per cell and per tile, at most 2 offered tiles,
  edge matching between chosen neighbours, membership in the target network by join-distance levels
  (so no self-supporting loop of new tiles counts), and no open end on any member.  A model is
  ordered and re-checked with ``check_sequence`` (permission, gnome joins); a model the rules reject
  is blocked and the solver asked again.

Both return a :class:`solver.core.result.Result`: SATISFIED with the placements, UNSATISFIABLE, or
UNKNOWN on a time limit.  The other offered tile(s) of the turn are assumed placeable elsewhere.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from models.core.errors import UsageError
from models.core.hexgrid import Hex, neighbour, opposite
from models.gnome_hollow.edition import GnomeHollowEdition, Tile
from models.gnome_hollow.networks import Networks, PathKey
from models.gnome_hollow.placement import Placement, check_sequence, fits, touched_groups
from models.gnome_hollow.position import Position
from solver.core.result import Result, Status


@dataclass(frozen=True)
class Supply:
    """Tiles the mover may lay this turn."""

    offered: tuple[str, ...]
    stored: tuple[str, ...]
    max_offered: int = 2

    @property
    def all(self) -> tuple[str, ...]:
        return self.offered + self.stored


def supply_of(pos: Position) -> Supply:
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


def close_by_search(pos: Position, ed: GnomeHollowEdition, ref: PathKey, permits: tuple[str, ...] = (),
                    supply: Supply | None = None, time_limit: float | None = None) -> Result:
    """Exact depth-first search; witness = the placements in a legal order."""
    started = time.perf_counter()
    supply = supply or supply_of(pos)
    nets0 = pos.networks(ed)
    root0 = _target_root(nets0, ref)
    if nets0.is_ring(root0) or nets0.open_ends(root0) == 0:
        raise UsageError("that network is already closed")
    stats = {"nodes": 0}
    deadline = None if time_limit is None else started + time_limit

    def rec(nets: Networks, seq: list[Placement], offered_left: list[str], stored_left: list[str],
            offered_used: int) -> list[Placement] | None | str:
        if deadline is not None and time.perf_counter() > deadline:
            return "timeout"
        root = nets.root_of(ref)
        if nets.open_ends(root) == 0:
            rep = check_sequence(pos, ed, seq, permits, check_supply=True)
            return list(seq) if rep.legal else None
        ends = open_end_cells(nets, root)
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
                if not fits(nets, tile, cell, o):
                    continue
                p = Placement(tid, cell, o)
                stats["nodes"] += 1
                if not _claims_ok(pos, ed, nets, p, permits):
                    continue
                nxt = nets.copy()
                nxt.place(tile, cell, o)
                ol = [t for t in offered_left if t != tid]
                sl = [t for t in stored_left if t != tid]
                got = rec(nxt, seq + [p], ol, sl, offered_used + from_offer)
                if got is not None:
                    return got
        return None

    got = rec(nets0, [], list(supply.offered), list(supply.stored), 0)
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
# SMT


def close_by_smt(pos: Position, ed: GnomeHollowEdition, ref: PathKey, permits: tuple[str, ...] = (),
                 supply: Supply | None = None, time_limit: float | None = None, max_rounds: int = 200) -> Result:
    """z3 model of tile choice, position and orientation with edge matching (see module docstring)."""
    import z3

    started = time.perf_counter()
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
    # candidate cells: empty cells within n_tiles - 1 steps of the open-end cells
    region: set[Hex] = {c for c, _ in ends}
    frontier_ = set(region)
    for _ in range(max(0, n_tiles - 1)):
        nxt = {neighbour(c, e) for c in frontier_ for e in range(6)} - set(nets.grid) - region
        region |= nxt
        frontier_ = nxt
    cands: list[Placement] = []
    for cell in sorted(region, key=lambda c: (c[1], c[0])):
        for tid in dict.fromkeys(supply.all):
            tile = ed.tile(tid)
            for o in ((0,) if tile.wildflower else tile.distinct_orientations):
                if fits(nets, tile, cell, o):
                    cands.append(Placement(tid, cell, o))
    stats["candidates"] = len(cands)
    x = [z3.Bool(f"x-{p.tile}@{p.cell[0]},{p.cell[1]}:{p.orientation}") for p in cands]
    s = z3.Solver()
    if time_limit is not None:
        s.set("timeout", max(1, int(time_limit * 1000)))
    by_cell: dict[Hex, list[int]] = {}
    by_tile: dict[str, list[int]] = {}
    for j, p in enumerate(cands):
        by_cell.setdefault(p.cell, []).append(j)
        by_tile.setdefault(p.tile, []).append(j)
    for js in [*by_cell.values(), *by_tile.values()]:
        s.add(z3.AtMost(*[x[j] for j in js], 1))
    offered_js = [j for j, p in enumerate(cands) if p.tile in supply.offered]
    if offered_js:
        s.add(z3.AtMost(*[x[j] for j in offered_js], supply.max_offered))

    def path_at(p: Placement, edge: int) -> int:
        t = ed.tile(p.tile)
        return -1 if t.wildflower else t.edge_path[p.orientation][edge]

    # edge matching between chosen neighbours
    for j, p in enumerate(cands):
        for e in range(3):  # each unordered neighbour pair once
            n = neighbour(p.cell, e)
            for k in by_cell.get(n, []):
                q = cands[k]
                if ed.tile(p.tile).wildflower or ed.tile(q.tile).wildflower:
                    continue
                if (path_at(p, e) >= 0) != (path_at(q, opposite(e)) >= 0):
                    s.add(z3.Not(z3.And(x[j], x[k])))
    # elements: existing roots touched, new paths, new hubs; joins between them
    elems: dict[object, z3.BoolRef] = {}
    level: dict[object, z3.ArithRef] = {}
    joins: dict[object, list[tuple[object, z3.BoolRef]]] = {}

    def elem(key: object) -> z3.BoolRef:
        if key not in elems:
            elems[key] = z3.Bool(f"in-{key}")
            level[key] = z3.Int(f"lvl-{key}")
            joins[key] = []
        return elems[key]

    def join(a: object, b: object, cond: z3.BoolRef) -> None:
        elem(a)
        elem(b)
        joins[a].append((b, cond))
        joins[b].append((a, cond))

    def existing_key(cell: Hex, edge_of_cell: int) -> object | None:
        """The existing element a path end facing ``cell`` across its edge ``edge_of_cell`` joins."""
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

    tgt = ("root", root)
    elem(tgt)
    for j, p in enumerate(cands):
        tile = ed.tile(p.tile)
        if tile.wildflower:
            hub = ("hub", j)
            elem(hub)
            s.add(z3.Implies(elems[hub], x[j]))
            for e in range(6):
                n = neighbour(p.cell, e)
                if n in nets.grid:
                    if not nets.grid[n][0].wildflower:
                        key = existing_key(n, opposite(e))
                        if key is not None:
                            join(hub, key, x[j])
                else:
                    for k in by_cell.get(n, []):
                        q = cands[k]
                        i = path_at(q, opposite(e))
                        if i >= 0:
                            join(hub, ("path", k, i), z3.And(x[j], x[k]))
            continue
        for i in range(len(tile.paths)):
            pe = ("path", j, i)
            elem(pe)
            s.add(z3.Implies(elems[pe], x[j]))
            closed_ends = []
            for edge in tile.oriented_ends(p.orientation, i):
                n = neighbour(p.cell, edge)
                if n in nets.grid:
                    key = existing_key(n, opposite(edge))
                    if key is not None:
                        join(pe, key, x[j])
                    continue  # faces an existing tile (matched by fits, or a capped wildflower)
                filled = []
                for k in by_cell.get(n, []):
                    q = cands[k]
                    filled.append(x[k])
                    if ed.tile(q.tile).wildflower:
                        join(pe, ("hub", k), z3.And(x[j], x[k]))
                    elif k > j:
                        i2 = path_at(q, opposite(edge))
                        if i2 >= 0:
                            join(pe, ("path", k, i2), z3.And(x[j], x[k]))
                closed_ends.append(z3.Or(*filled) if filled else z3.BoolVal(False))
            s.add(z3.Implies(elems[pe], z3.And(*closed_ends)))
    # a path reached from two cells: joins with k < j were added from the other side
    # existing networks drawn in: all their open ends must be filled
    for key in list(elems):
        if isinstance(key, tuple) and key[0] == "root":
            r = key[1]
            cells_needed = open_end_cells(nets, r) if nets.open_ends(r) else []
            if any(g for _, g in cells_needed):
                s.add(z3.Not(elems[key]))
                continue
            for c, _ in cells_needed:
                s.add(z3.Implies(elems[key], z3.Or(*[x[k] for k in by_cell.get(c, [])])
                                 if by_cell.get(c) else z3.BoolVal(False)))
    # membership: the target is in; any other element is in iff joined to an in element at a lower level
    s.add(elems[tgt])
    s.add(level[tgt] == 0)
    for key, b in elems.items():
        s.add(level[key] >= 0)
        if key == tgt:
            continue
        sup = [z3.And(cond, elems[o], level[o] < level[key]) for o, cond in joins[key]]
        s.add(b == (z3.Or(*sup) if sup else z3.BoolVal(False)))
        for o, cond in joins[key]:  # joined elements are in the same network
            s.add(z3.Implies(z3.And(cond, elems[o]), b))
    stats["variables"] = len(x) + 2 * len(elems)
    for _ in range(max_rounds):
        stats["rounds"] += 1
        if time_limit is not None and time.perf_counter() - started > time_limit:
            return Result(Status.UNKNOWN, stats=stats, seconds=time.perf_counter() - started)
        res = s.check()
        if res == z3.unknown:
            return Result(Status.UNKNOWN, stats=stats, seconds=time.perf_counter() - started)
        if res == z3.unsat:
            return Result(Status.UNSATISFIABLE, value=False, stats=stats, seconds=time.perf_counter() - started)
        m = s.model()
        chosen = [cands[j] for j in range(len(cands)) if z3.is_true(m.eval(x[j], model_completion=True))]
        seq = _legal_order(pos, ed, ref, chosen, permits)
        if seq is not None:
            return Result(Status.SATISFIED, value=True, witness=seq, stats=stats, seconds=time.perf_counter() - started)
        s.add(z3.Not(z3.And(*[x[cands.index(p)] for p in chosen])))
    return Result(Status.UNKNOWN, stats=stats, seconds=time.perf_counter() - started)


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
