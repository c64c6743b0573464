"""Hedge Mage placements by SAT (python-sat, incremental, IDPool-named variables).

Two models, both over the cells of one garden:

* ``PlacementSat`` - the next placement of any of several tiles.  One variable
  per candidate ``("place", tile, orientation, row, col)`` (every orientation at
  every sigil anchor, also those sticking out of the board), one per free cell
  ``("new", row, col)`` with new(x) <-> OR of the candidates covering x, and one
  selector ``("tile", t)`` per tile.  Clauses encode bounds and overlap (unit
  clauses on candidates), "no 2x2 window all hedge afterwards" and ground
  connectivity.  Queries assume a tile's selector, so one warm solver answers
  every tile; enumeration blocks found placements under an activation literal
  that is retired afterwards, so the solver stays reusable.
* ``PlanSat`` - a sequence of placements (steps), each legal at its time: the
  hedge after step i is h_i(x) <-> h_{i-1}(x) v (a step-i candidate covers x),
  a step-i candidate may only cover cells that are not hedge after step i-1,
  the 2x2 rule is checked after the last step (hedge only grows, so a 2x2
  window after any step is one after the last), and the ground must be
  connected after *every* step.  Step i is forced by the assumption e_i, the
  2x2 rule and connectivity by the assumptions ("rule", ...), so that an
  unsatisfiable core names the steps and rules in conflict.

Connectivity is either ``"lazy"`` (solve, BFS the ground of the model, add one
cut per separated region - see ``solver.core.sat.add_connectivity_cuts`` - and
solve again) or ``"eager"`` (layered reachability from an always-ground cell,
``solver.core.sat.add_eager_connectivity``).  ``DEFAULT_CONNECTIVITY`` is
``"lazy"``: in ``benchmarks/hedge_mage.py`` it was about 11x faster than the
eager encoding for enumerating placements and about 4x faster for plans of 5
tiles; the eager reachability layers (up to one per free cell) are costly to
build and to propagate, while a handful of cuts usually suffices.

Observation (not used by the code): with at least 2 rows and 2 columns, a
region cut off after some step can never be reconnected, and covering it
completely later would make a 2x2 block (a single cell cannot be covered at
all), so a plan that ends 2x2-free and connected was connected after every
step.  The plan model still checks every step, as the rules say.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.grid import Cell, windows_2x2
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.notation import placement_to_text
from gnomekit.models.hedge_mage.placement import Board, Placement
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.solver.core.budget import Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.core.sat import (
    DEFAULT_SOLVER,
    GridMask,
    LitOrConst,
    SatModel,
    SatTimeout,
    add_connectivity_cuts,
    add_eager_connectivity,
    grid_neighbours,
    grid_nodes,
    minimise_core,
    negate,
)
from gnomekit.solver.hedge_mage.placements import TilePlacements

DEFAULT_CONNECTIVITY = "lazy"
CONNECTIVITY_METHODS = ("lazy", "eager")


@dataclass(frozen=True)
class SatCandidate:
    """A candidate placement that fits on free cells, with its variable and movement points."""

    placement: Placement
    var: int
    points: int


def _check_tiles(edition: HedgeMageEdition, tiles: Iterable[str]) -> list[str]:
    names = list(tiles)
    for t in names:
        if t not in edition.tiles:
            raise UsageError(f"unknown tile {t!r}; the edition has: {' '.join(edition.tiles)}")
    return names


def _check_method(connectivity: str) -> None:
    if connectivity not in CONNECTIVITY_METHODS:
        raise UsageError(f"connectivity must be one of {', '.join(CONNECTIVITY_METHODS)}, not {connectivity!r}")


class _GardenCells:
    """What every model needs to know about the garden's cells."""

    def __init__(self, garden: Garden) -> None:
        self.garden = garden
        self.rows, self.cols = garden.rows, garden.cols
        self.nodes = grid_nodes(self.rows, self.cols)
        self.neighbours = grid_neighbours(self.rows, self.cols)
        self.fixed = {c for c in garden.hedge_cells if garden.in_bounds(c)}
        self.occupied = {c for c in garden.occupants if garden.in_bounds(c)} - self.fixed
        self.free = [c for c in self.nodes if c not in self.fixed and c not in self.occupied]

    def fits(self, cells: tuple[Cell, ...]) -> bool:
        """Inside the garden and only on empty ground (the bounds and overlap rules)."""
        g = self.garden
        return all(g.in_bounds(c) and c not in self.fixed and c not in self.occupied for c in cells)


# ---------------------------------------------------------------------------------------------
# One placement


class PlacementSat:
    """A warm incremental SAT model of a garden's next placement, for several tiles at once.

    Build it once (``PlacementSat(garden, edition)``) and ask many questions:
    ``placements(tile)``, ``first(tile)``, ``best(tiles)``.  Building a new one
    per question is the "cold" way (the benchmark compares both).  Lazy
    connectivity cuts learned for one tile stay valid for every tile, since
    they only speak about cells.  Use as a context manager or call ``close``.
    """

    def __init__(
        self,
        garden: Garden,
        edition: HedgeMageEdition,
        tiles: Iterable[str] | None = None,
        *,
        connectivity: str = DEFAULT_CONNECTIVITY,
        solver: str = DEFAULT_SOLVER,
    ) -> None:
        _check_method(connectivity)
        self.garden, self.edition = garden, edition
        self.tiles = list(dict.fromkeys(_check_tiles(edition, tiles if tiles is not None else edition.tiles)))
        self.connectivity = connectivity
        self.cells = _GardenCells(garden)
        self.board = Board(garden)
        self.grid = GridMask(garden.rows, garden.cols)
        self.ground = self.grid.full & ~self.grid.mask(self.cells.fixed)
        self.m = SatModel(solver)
        self.cuts = 0
        self.variables_out_of_bounds = 0
        self.sel: dict[str, int] = {}
        self.live: dict[str, list[SatCandidate]] = {}
        self.hedge: dict[Cell, LitOrConst] = {}
        self._cache: dict[str, TilePlacements] = {}
        self._last: SatCandidate | None = None  # the placement of the last model, once read
        self._build()

    def _build(self) -> None:
        m, cells, g = self.m, self.cells, self.garden
        for x in cells.nodes:
            self.hedge[x] = True if x in cells.fixed else False if x in cells.occupied else m.var(("new",) + x)
        cover: dict[Cell, list[int]] = {x: [] for x in cells.free}
        for name in self.tiles:
            tile = self.edition.tiles[name]
            sel = m.var(("tile", name))
            self.sel[name] = sel
            live: list[SatCandidate] = []
            for o in tile.orientations:
                for r in range(g.rows):
                    for c in range(g.cols):
                        v = m.var(("place", name, o.index, r, c))
                        pcells = tuple(sorted((r + dr, c + dc) for dr, dc in o.offsets))
                        if not all(g.in_bounds(x) for x in pcells):
                            m.add([-v])  # bounds
                            self.variables_out_of_bounds += 1
                            continue
                        if not cells.fits(pcells):
                            m.add([-v])  # overlap with hedges, tunnels, gnomes, mages, springshrooms
                            continue
                        m.add([-v, sel])
                        for x in pcells:
                            m.add([-v, self.hedge[x]])  # candidate -> new(x)
                            cover[x].append(v)
                        pl = Placement(name, pcells, (r, c))
                        live.append(SatCandidate(pl, v, self.board.points(pcells, (r, c))))
            live.sort(key=lambda k: k.placement.key)
            self.live[name] = live
            m.add([-sel, *(k.var for k in live)])  # the selected tile is placed somewhere
            m.at_most_one([k.var for k in live])
        m.at_most_one(list(self.sel.values()))
        for x, vs in cover.items():
            m.add([negate(self.hedge[x]), *vs])  # new(x) -> some candidate covers x
        for w in windows_2x2(g.rows, g.cols):
            m.add([negate(self.hedge[x]) for x in w])  # no 2x2 window all hedge afterwards
        if self.connectivity == "eager":
            add_eager_connectivity(m, cells.nodes, cells.neighbours, self.hedge.__getitem__, tag="conn")

    # -- solving ------------------------------------------------------------------------------
    def _solve(self, assumptions: list[int], deadline: float | None = None) -> bool:
        m = self.m
        while True:
            self._last = None
            if not m.solve(assumptions, deadline):
                return False
            if self.connectivity == "lazy":
                self._last = self._chosen(self.tiles)
                cells = self._last.placement.cells
                if self.grid.connected(self.ground & ~self.grid.mask(cells)):
                    return True
                now = self.cells.fixed.union(cells)
                comps = add_connectivity_cuts(
                    m, self.cells.nodes, self.cells.neighbours, self.hedge.__getitem__, now.__contains__)
                if len(comps) > 1:
                    self.cuts += len(comps)
                    continue
            return True

    def _chosen(self, tiles: Iterable[str]) -> SatCandidate:
        if self._last is not None:
            return self._last
        model = self.m.model
        for t in tiles:
            if model[self.sel[t] - 1] > 0:
                for k in self.live[t]:
                    if model[k.var - 1] > 0:
                        return k
        raise RuntimeError("model without a placement")  # pragma: no cover - sel -> some candidate

    def _tile(self, tile: str) -> str:
        if tile not in self.sel:
            raise UsageError(f"tile {tile!r} is not in this model (built for {' '.join(self.tiles)})")
        return tile

    def first(self, tile: str) -> Placement | None:
        """Some legal placement of ``tile``, or None when it has none (one query)."""
        if not self._solve([self.sel[self._tile(tile)]]):
            return None
        return self._chosen([tile]).placement

    def placements(self, tile: str) -> TilePlacements:
        """Every legal placement of ``tile`` (sorted by key) with its points, by blocking clauses."""
        self._tile(tile)
        if tile in self._cache:
            return self._cache[tile]
        act = self.m.fresh()
        found: list[SatCandidate] = []
        while self._solve([self.sel[tile], act]):
            k = self._chosen([tile])
            found.append(k)
            self.m.add([-act, -k.var])  # block it, for this query only
        self.m.retire(act)
        found.sort(key=lambda k: k.placement.key)
        out = TilePlacements(tile, [k.placement for k in found], [k.points for k in found])
        self._cache[tile] = out
        return out

    def best(self, tiles: list[str]) -> Result:
        """The placement with the most movement points among ``tiles`` (tokens not counted).

        Each candidate's points are a constant of the garden (distinct sigils in
        its rows and columns, its own included), so "points > v" is one clause
        over the candidates worth more than v.  Linear SAT-UNSAT search: find a
        placement, demand strictly more than it gives, repeat until
        unsatisfiable.  Ties: tiles in the order given, then ``Placement.key``
        ascending, found by binary search over key-sorted prefixes.
        """
        t0 = time.perf_counter()
        names = list(dict.fromkeys(self._tile(t) for t in tiles))
        base = [-self.sel[u] for u in self.tiles if u not in names]
        calls0, cuts0 = self.m.stats["solves"], self.cuts

        def ask(clause: list[int]) -> SatCandidate | None:
            act = self.m.activated(clause)
            ok = self._solve(base + [act])
            self.m.retire(act)
            return self._chosen(names) if ok else None

        def stats(**extra: object) -> dict[str, object]:
            return {"sat_calls": int(self.m.stats["solves"] - calls0), "cuts": self.cuts - cuts0,
                    "connectivity": self.connectivity, **extra}

        cur = ask([self.sel[t] for t in names]) if names else None
        if cur is None:
            return Result(Status.UNSATISFIABLE, stats=stats(), seconds=time.perf_counter() - t0)
        value = cur.points
        pool = [k for t in names for k in self.live[t]]
        while True:
            better = [k.var for k in pool if k.points > value]
            if not better:
                break
            nxt = ask(better)
            if nxt is None:
                break
            value = nxt.points
        witness: SatCandidate | None = None
        for t in names:
            ties = [k for k in self.live[t] if k.points == value]  # already in key order
            if not ties:
                continue
            got = ask([k.var for k in ties])
            if got is None:
                continue
            index = {k.var: i for i, k in enumerate(ties)}
            lo, hi = 0, index[got.var]
            while lo < hi:
                mid = (lo + hi) // 2
                got = ask([k.var for k in ties[: mid + 1]])
                if got is None:
                    lo = mid + 1
                else:
                    hi = index[got.var]
            witness = ties[lo]
            break
        assert witness is not None  # a placement worth ``value`` was found above
        return Result(Status.OPTIMAL, value=value, witness=witness.placement,
                      stats=stats(tile=witness.placement.tile), seconds=time.perf_counter() - t0)

    def close(self) -> None:
        self.m.close()

    def __enter__(self) -> PlacementSat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sat_all(
    garden: Garden, edition: HedgeMageEdition, tiles: list[str], *, connectivity: str = DEFAULT_CONNECTIVITY
) -> list[TilePlacements]:
    """Legal placements of each named tile by SAT (one warm solver for all tiles).

    Returns the same sets, order and points as ``solver.hedge_mage.placements.enumerate_all``.
    """
    names = _check_tiles(edition, tiles)
    with PlacementSat(garden, edition, names, connectivity=connectivity) as ps:
        return [ps.placements(t) for t in names]


def sat_best_points(garden: Garden, edition: HedgeMageEdition, tiles: list[str]) -> Result:
    """The legal placement with the most movement points among ``tiles``, by SAT.

    OPTIMAL with the placement as witness and its points as value (held bonus
    sigil tokens not counted); ties go to the earlier tile in ``tiles``, then
    the smaller ``Placement.key``.  UNSATISFIABLE when no tile can be placed.
    """
    names = _check_tiles(edition, tiles)
    t0 = time.perf_counter()
    with PlacementSat(garden, edition, names) as ps:
        res = ps.best(names)
    res.seconds = time.perf_counter() - t0
    return res


# ---------------------------------------------------------------------------------------------
# Plans: several placements in order


class PlanSat:
    """SAT model of placing ``tiles`` one after another, each legal at its time.

    Assumption literals: ``step(i)`` forces step i to place its tile (without
    it, the step may place it or not); ``rule_2x2`` and ``rule_connected``
    switch on those rules (bounds and overlap are always on).
    """

    def __init__(
        self,
        garden: Garden,
        edition: HedgeMageEdition,
        tiles: list[str],
        *,
        connectivity: str = DEFAULT_CONNECTIVITY,
        solver: str = DEFAULT_SOLVER,
    ) -> None:
        _check_method(connectivity)
        self.garden, self.edition = garden, edition
        self.tiles = _check_tiles(edition, tiles)
        self.connectivity = connectivity
        self.cells = _GardenCells(garden)
        self.board = Board(garden)
        self.m = SatModel(solver)
        self.cuts = 0
        m = self.m
        self.rule_2x2 = m.var(("rule", "2x2"))
        self.rule_connected = m.var(("rule", "connected"))
        self.step = [m.var(("step", i)) for i in range(len(self.tiles))]
        self.cands: list[list[SatCandidate]] = []
        base: dict[Cell, LitOrConst] = {x: (x in self.cells.fixed) for x in self.cells.nodes}
        self.hedge: list[dict[Cell, LitOrConst]] = []  # hedge after step i
        prev = base
        for i, name in enumerate(self.tiles):
            tile = edition.tiles[name]
            cover: dict[Cell, list[int]] = {x: [] for x in self.cells.free}
            live: list[SatCandidate] = []
            for o in tile.orientations:
                for r in range(garden.rows):
                    for c in range(garden.cols):
                        pcells = tuple(sorted((r + dr, c + dc) for dr, dc in o.offsets))
                        if not self.cells.fits(pcells):
                            continue  # bounds and overlap with the garden as it is now
                        v = m.var(("plan", i, name, o.index, r, c))
                        m.add([-v, self.step[i]])
                        for x in pcells:
                            cover[x].append(v)
                            m.add([-v, negate(prev[x])])  # only on cells still free after step i-1
                        live.append(SatCandidate(Placement(name, pcells, (r, c)), v,
                                                 self.board.points(pcells, (r, c))))
            live.sort(key=lambda k: k.placement.key)
            self.cands.append(live)
            m.add([-self.step[i], *(k.var for k in live)])
            m.at_most_one([k.var for k in live])
            cur: dict[Cell, LitOrConst] = dict(base)
            for x in self.cells.free:
                if not cover[x]:
                    cur[x] = prev[x]
                    continue
                h = m.var(("hedge", i) + x)
                m.define_or(h, [prev[x], *cover[x]])
                cur[x] = h
            self.hedge.append(cur)
            prev = cur
            if connectivity == "eager":
                add_eager_connectivity(m, self.cells.nodes, self.cells.neighbours, cur.__getitem__,
                                       tag=("conn", i), guard=self.rule_connected)
        for w in windows_2x2(garden.rows, garden.cols):
            m.add([-self.rule_2x2, *(negate(prev[x]) for x in w)])

    def check(self, assumptions: list[int], deadline: float | None = None, meter: Meter | None = None) -> bool:
        """Satisfiable under these assumptions (lazy cuts added as needed)?  Raises SatTimeout.

        Each SAT call ticks ``meter`` (a state of the budget), which raises BudgetExhausted past its states.
        """
        m = self.m
        while True:
            if meter is not None:
                meter.tick()
            if not m.solve(assumptions, deadline):
                return False
            if self.connectivity != "lazy" or self.rule_connected not in assumptions:
                return True
            added = 0
            for hedge in self.hedge:
                now = {x for x in self.cells.nodes if m.value(hedge[x])}
                comps = add_connectivity_cuts(m, self.cells.nodes, self.cells.neighbours, hedge.__getitem__,
                                              now.__contains__, guard=self.rule_connected)
                if len(comps) > 1:
                    added += len(comps)
            if not added:
                return True
            self.cuts += added

    def core_if_unsat(self, assumptions: list[int], deadline: float | None = None,
                      meter: Meter | None = None) -> list[int] | None:
        """The solver's core (a subset of ``assumptions``) when unsatisfiable, else None."""
        if self.check(assumptions, deadline, meter):
            return None
        return [x for x in self.m.core() if x in assumptions]

    def witness(self) -> list[Placement]:
        """The placements of the last model, one per step that places its tile."""
        out: list[Placement] = []
        for i, live in enumerate(self.cands):
            if self.m.value(self.step[i]):
                out.extend(k.placement for k in live if self.m.value(k.var))
        return out

    def prefix(self, n: int) -> list[int]:
        """Assumptions for "exactly the first n steps, under all rules"."""
        return ([self.step[i] for i in range(n)] + [-self.step[i] for i in range(n, len(self.step))]
                + [self.rule_2x2, self.rule_connected])

    def close(self) -> None:
        self.m.close()

    def __enter__(self) -> PlanSat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _names(steps: list[int], tiles: list[str]) -> str:
    parts = [f"{tiles[i]} (step {i + 1})" for i in steps]
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _reason(rules: set[str]) -> str:
    if not rules:
        return "no room: they do not even fit on the free ground without overlapping"
    if rules == {"2x2"}:
        return "every way to fit them on the free ground makes a 2x2 block of hedge"
    if rules == {"connected"}:
        return "every way to fit them on the free ground cuts off part of the ground"
    return ("every way to fit them on the free ground makes a 2x2 block of hedge or cuts off part of the "
            "ground (neither rule alone excludes them all)")


def _where(ps: list[Placement], edition: HedgeMageEdition) -> str:
    return ", ".join(placement_to_text(p, edition) for p in ps)


def plan_placements(
    garden: Garden,
    edition: HedgeMageEdition,
    tiles: list[str],
    *,
    time_limit: float | None = None,
    connectivity: str = DEFAULT_CONNECTIVITY,
    budget: Budget | None = None,
) -> Result:
    """Can ``tiles`` all still be placed, in this order, each legal at its time?  Where, or why not.

    Only the geometry is checked (free cells, 2x2 rule, ground connected after
    every step), not which tile the deck reveals.  SATISFIED: ``witness`` is the
    list of placements and ``value`` the number of tiles.  UNSATISFIABLE:
    ``value`` (and ``stats["failing_prefix"]``) is the length of the shortest
    prefix that cannot be placed, ``stats["explanation"]`` the reasons in words
    (from a minimised unsatisfiable core over step and rule assumptions),
    ``stats["core_steps"]`` (1-based) and ``stats["core_rules"]``.  UNKNOWN when
    ``time_limit`` (seconds) runs out before the answer is proven, or ``budget`` (instead of
    ``time_limit``): its seconds, and its states counted as SAT calls.  Once the tiles are proven
    unplaceable, running out only shortens the explanation: the answer stays "no".
    """
    t0 = time.perf_counter()
    names = _check_tiles(edition, tiles)
    _check_method(connectivity)
    if budget is not None and time_limit is not None:
        raise ValueError("give time_limit or budget, not both")
    if budget is None:
        budget = Budget(seconds=time_limit)
    meter = budget.meter()
    deadline = budget.deadline(meter.started)
    broken = garden.warnings()
    if broken:
        return Result(Status.UNSATISFIABLE, value=0,
                      stats={"explanation": ["the garden already breaks the placement rules: " + "; ".join(broken)],
                             "failing_prefix": 0, "core_steps": [], "core_rules": []},
                      seconds=time.perf_counter() - t0)
    if not names:
        return Result(Status.SATISFIED, value=0, witness=[], stats={"explanation": []},
                      seconds=time.perf_counter() - t0)
    with PlanSat(garden, edition, names, connectivity=connectivity) as ps:
        stats: dict[str, object] = {"connectivity": connectivity}

        def done(status: Status, **kw: object) -> Result:
            stats.update(sat_calls=int(ps.m.stats["solves"]), cuts=ps.cuts)
            return Result(status, stats=stats, seconds=time.perf_counter() - t0, **kw)  # type: ignore[arg-type]

        try:
            if ps.check(ps.prefix(len(names)), deadline, meter):
                stats["explanation"] = []
                return done(Status.SATISFIED, value=len(names), witness=ps.witness())
        except SatTimeout:
            stats["explanation"] = [f"no answer within the time limit of {budget.seconds} s"]
            return done(Status.UNKNOWN)
        except BudgetExhausted:
            stats["explanation"] = [f"no answer within the budget of {budget.states} SAT calls"]
            return done(Status.UNKNOWN)
        explanation: list[str] = []
        stats["explanation"] = explanation
        try:
            fail, example = len(names), []
            for n in range(1, len(names) + 1):
                if ps.check(ps.prefix(n), deadline, meter):
                    example = ps.witness()
                else:
                    fail = n
                    break
            stats["failing_prefix"] = fail
            last = names[fail - 1]
            if fail == 1:
                explanation.append(f"the first tile, {last}, has no legal placement in this garden")
            else:
                before = "the first tile can" if fail == 2 else f"the first {fail - 1} can"
                how = "it is" if fail == 2 else "they are"
                explanation.append(
                    f"the first {fail} tiles ({', '.join(names[:fail])}) cannot all be placed in this order: "
                    f"{before} (e.g. {_where(example, edition)}), but however {how} placed, {last} "
                    f"(step {fail}) has no legal place afterwards")
            rules = {ps.rule_2x2: "2x2", ps.rule_connected: "connected"}
            lits = [ps.step[i] for i in range(fail)] + list(rules)
            core = ps.core_if_unsat(lits, deadline, meter)
            assert core is not None  # the failing prefix is unsatisfiable
            core = minimise_core(core, lambda a: ps.core_if_unsat(a, deadline, meter))
            steps = [i for i in range(fail) if ps.step[i] in core]
            used = {rules[x] for x in core if x in rules}
            stats["core_steps"] = [i + 1 for i in steps]
            stats["core_rules"] = sorted(used)
            if len(steps) == 1:
                i = steps[0]
                explanation.append(f"{names[i]} (step {i + 1}) cannot be placed whatever the other tiles do: "
                                   f"{_reason(used)}")
            elif steps:
                how = "that is" if len(steps) == 2 else "those are"
                explanation.append(
                    f"{names[steps[-1]]} (step {steps[-1] + 1}) cannot be placed after "
                    f"{_names(steps[:-1], names)}, however {how} placed and whatever the other tiles do: "
                    f"{_reason(used)}")
            nowhere: list[str] = []
            for i, name in enumerate(names):
                if name in nowhere:
                    continue
                alone = [ps.step[i], ps.rule_2x2, ps.rule_connected] + [
                    -ps.step[j] for j in range(len(names)) if j != i]
                if not ps.check(alone, deadline, meter):
                    nowhere.append(name)
                    explanation.append(f"{name} has no legal placement in this garden even on its own")
            stats["no_placement"] = nowhere
        except SatTimeout:
            explanation.append("(the explanation was cut short by the time limit)")
        except BudgetExhausted:
            explanation.append(f"(the explanation was cut short by the budget of {budget.states} SAT calls)")
        return done(Status.UNSATISFIABLE, value=stats.get("failing_prefix"))
