"""Exact blocking numbers: the fewest earlier placements after which a tile has no legal placement.

The question (part (a) of ``gnomekit hedge-mage audit``): for a tile T, the
least k such that some reachable garden with k placements of distinct other
tiles leaves T no legal placement.  By the order lemma (``audit.py``) a
reachable garden is a set of pairwise disjoint placements avoiding the setup
pieces, with no all-hedge 2x2 window and connected ground, so the search is
over placement *sets*.  It is an exists-forall problem; the SAT model here
(``_BlockModel``) differs from the first one (``audit._TileBlocker``) in what
it lets the solver see, all of it sound (UNSAT stays a proof):

* **Cell sets, not placements.**  Blocking looks at hedge cells only, so the
  same cells with another sigil are one variable, and tiles of the same shape
  (I3/I3m, L3/L3e, L4/L4m, T4/T4e: equal families of cell sets) are one shape
  with a count ("at most 2 of these cell sets").  The witness gives each cell
  set one of the shape's tiles and a sigil.
* **Every placement of T from the start**, by a local necessary condition:
  a cell set Q of T is illegal only if a cell of Q is hedge, or the rest of a
  2x2 window through Q is hedge, or Q cuts the ground.  Q can cut a connected
  ground only if the ground cells next to Q are not joined through the ring of
  cells around Q (its 8-neighbourhood): every piece cut off touches Q, and a
  path in the ring would join the pieces.  That ring condition is encoded
  exactly with a side label per ring cell (equal across adjacent ground ring
  cells, two ground neighbours of Q with different labels).
  With ``ring="count"`` the labels are left out and only their implied part is
  kept: a split needs a hedge cell in the ring, two when the ring minus any one
  cell stays connected.  Weaker (a necessary condition still, so sound), and the
  path cuts below repair what it lets through.  Measured (benchmarks/README.md):
  fewer clauses, and with twins (``audit.twins``) "not with 4" for I3 and I3m,
  which the labels did not reach in the same time; no more values proven.
* **Lazily, the rest**: when a candidate garden still leaves Q legal, Q gets a
  cut (below: path cuts, or with ``exact`` the exact clause with side labels
  over the whole garden, as in the first model), so the loop ends with a garden
  that truly blocks T.
* **Half-turn symmetry**: when the setup pieces (and old hedges) are symmetric
  under a half turn, so is the question (a tile's placements are closed under
  rotation), and only gardens no larger, read cell by cell, than their half
  turn are searched (a lex-leader constraint on the hedge cells).
* **One incremental solver**, k rising from 1: "at most k" by a totalizer
  literal, so what is learnt at k (cuts, exact clauses, conflicts) is kept at
  k + 1; UNSAT at k proves the value is above k, and the first garden that
  blocks T at k is the answer, proven by the UNSAT at k - 1.
* **Counts per shape as assumptions** (``split``): "at most k" is asked as one
  question per way of sharing k among the shapes (``_splits``: every set of at
  most k cell sets fits one of them), which leaves the solver the placement
  choice only; measured 2-3x faster at k = 3 on the default edition than the
  one totalizer question.
* **Path cuts** instead of the exact cut (``exact`` False, the default): a
  legal Q of a candidate garden gets "Q is covered, in a 2x2 window, or a cell
  of this ground tree becomes hedge", the tree joining the ground next to Q in
  that garden, "or a cell next to Q that is hedge now becomes ground" (short
  clauses, which the solver uses far better than side labels over the whole
  garden; finitely many trees, so the loop still ends exact).

Ground connectivity of the candidate garden itself is by lazy cuts (as in
``audit._Packing``).

``maxsat_blocking`` asks the same model by core-guided MaxSAT instead (pysat's
RC2: fewest cell sets laid, same lazy cuts): no split questions, the bound
raised core by core; measured far faster on the default edition where it
finishes (I4 = 5 in about 14 s against 120-240 s), so the audit tries it first.
``BlockingSearch`` is the split search, resumable across deadlines.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gnomekit.models.core.grid import (
    Cell,
    all_cells,
    is_edge_connected,
    orthogonal_neighbours,
    windows_2x2,
    windows_containing,
)
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.placement import Placement, candidates, legal_placements
from gnomekit.models.hedge_mage.position import Garden, Hedge, ground_components
from gnomekit.solver.core.sat import LitOrConst, SatModel, SatTimeout, clause_literals
from pysat.card import ITotalizer
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

SOLVER = "g4"  # Glucose 4: interrupts (deadlines) and incremental assumptions

CellSet = tuple[Cell, ...]


@dataclass
class BlockingAnswer:
    """The exact method's answer for one tile.

    ``lower``: every k below it is proven impossible (UNSAT at ``lower - 1``);
    ``upper``: the size of the best blocking set found (None: none found);
    ``placements``: that set (unordered; ``audit.order_for_replay`` orders it).
    """

    tile: str
    status: str  # "proven" (lower == upper) or "unknown" (time ran out)
    lower: int
    upper: int | None
    placements: list[Placement] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    proofs: list[tuple[int, float]] = field(default_factory=list)  # (k proven UNSAT, seconds when)


@dataclass
class _Shape:
    """Tiles with the same family of cell sets (interchangeable for blocking)."""

    tiles: list[str]
    cellsets: list[CellSet]
    lits: list[int] = field(default_factory=list)
    rhs: list[int] = field(default_factory=list)  # rhs[m] false: at most m of ``lits``


def _rot(c: Cell, rows: int, cols: int) -> Cell:
    return (rows - 1 - c[0], cols - 1 - c[1])


def _ring(q: CellSet, rows: int, cols: int, radius: int = 1) -> list[Cell]:
    """The cells around ``q`` (within ``radius`` in both directions, minus ``q``), inside the board."""
    qs = set(q)
    span = range(-radius, radius + 1)
    return sorted({(r + dr, c + dc) for r, c in q for dr in span for dc in span
                   if 0 <= r + dr < rows and 0 <= c + dc < cols} - qs)


class _RecordingSat(SatModel):
    """A ``SatModel`` that also keeps every clause added (``taken`` hands them over once), for MaxSAT."""

    def __init__(self, solver: str) -> None:
        super().__init__(solver)
        self.kept: list[list[int]] = []

    def add(self, clause: Iterable[LitOrConst]) -> None:
        out = clause_literals(clause)
        if out is None:
            return
        self.kept.append(out)
        super().add(out)

    def taken(self) -> list[list[int]]:
        out, self.kept = self.kept, []
        return out


class _BlockModel:
    """The SAT model of "at most k placements of the other tiles leave ``tile`` none" (see module doc)."""

    def __init__(self, base: Garden, edition: HedgeMageEdition, tile: str, kmax: int,
                 symmetry: bool = True, solver: str = SOLVER, radius: int = 1,
                 ring: str = "labels", record: bool = False) -> None:
        if ring not in ("labels", "count"):
            raise ValueError(f"ring must be labels or count, not {ring!r}")
        self.radius, self.ring = radius, ring
        self.base, self.edition, self.tile = base, edition, tile
        self.rows, self.cols = base.rows, base.cols
        self.old = base.hedge_cells
        self.fixed = frozenset(c for c in base.occupants if base.in_bounds(c))
        taken = self.fixed | self.old
        self.sat: SatModel = _RecordingSat(solver) if record else SatModel(solver)
        self.stats = {"variables": 0, "clauses": 0, "exact_cuts": 0, "ground_cuts": 0, "guesses": 0,
                      "sat_calls": 0, "symmetry": 0, "path_cuts": 0, "splits": 0}
        # shapes of the other tiles
        groups: dict[tuple[CellSet, ...], _Shape] = {}
        for name, t in edition.tiles.items():
            if name == tile:
                continue
            sets = tuple(sorted({c.placement.cells for c in candidates(base, t)
                                 if not any(x in taken for x in c.placement.cells)}))
            groups.setdefault(sets, _Shape([], list(sets))).tiles.append(name)
        self.shapes = list(groups.values())
        by_cell: dict[Cell, list[int]] = {}
        self.ys: list[int] = []
        self.y_of: dict[int, tuple[int, int]] = {}
        for i, sh in enumerate(self.shapes):
            for j, cs in enumerate(sh.cellsets):
                v = self.sat.var(("y", i, j))
                sh.lits.append(v)
                self.ys.append(v)
                self.y_of[v] = (i, j)
                for c in cs:
                    by_cell.setdefault(c, []).append(v)
            self.sat.at_most_k(sh.lits, len(sh.tiles))
            tot = ITotalizer(lits=sh.lits, ubound=len(sh.tiles), top_id=self.sat.pool.top)
            self.sat.pool.top = max(self.sat.pool.top, tot.top_id)
            self.sat.add_all(tot.cnf.clauses)
            sh.rhs = list(tot.rhs)
            tot.delete()
        self.h: dict[Cell, int] = {}
        for c, lits in sorted(by_cell.items()):
            hv = self.sat.var(("h", c))
            self.h[c] = hv
            self.sat.define_or(hv, lits)
            self.sat.at_most_one(lits)  # placements are disjoint
        for w in windows_2x2(self.rows, self.cols):
            self.sat.add([self.not_hedge(c) for c in w])
        # connected ground of 2+ cells: every ground cell has a ground neighbour
        cells = [c for c in all_cells(self.rows, self.cols) if c not in self.old]
        if len(cells) > 1:
            for c in cells:
                self.sat.add([self.hedge(c)] + [self.not_hedge(n) for n in
                                                orthogonal_neighbours(c, self.rows, self.cols)])
        # the tile's cell sets that avoid the setup pieces and old hedges
        tobj = edition.tiles[tile]
        self.targets = sorted({c.placement.cells for c in candidates(base, tobj)
                               if not any(x in taken for x in c.placement.cells)})
        self.cover: dict[CellSet, list[LitOrConst]] = {}
        for q in self.targets:
            self.cover[q] = self._local(q)
        self.exact: set[CellSet] = set()
        if symmetry and self._symmetric():
            self._lex_leader()
            self.stats["symmetry"] = 1
        self.kmax = kmax
        self.tot: ITotalizer | None = None
        if self.ys:
            self.tot = ITotalizer(lits=self.ys, ubound=min(kmax + 1, len(self.ys)), top_id=self.sat.pool.top)
            self.sat.pool.top = max(self.sat.pool.top, self.tot.top_id)
            self.sat.add_all(self.tot.cnf.clauses)

    # -- literals --------------------------------------------------------------------------------
    def hedge(self, c: Cell) -> LitOrConst:
        """"c is hedge": a literal, or a constant (old hedge: True; never covered: False)."""
        if c in self.old:
            return True
        return self.h.get(c, False)

    def not_hedge(self, c: Cell) -> LitOrConst:
        x = self.hedge(c)
        return (not x) if isinstance(x, bool) else -x

    def _and(self, lits: Sequence[LitOrConst]) -> LitOrConst:
        """A literal implying every literal of ``lits`` (constants folded)."""
        if any(x is False for x in lits):
            return False
        rest = [x for x in lits if not isinstance(x, bool)]
        if not rest:
            return True
        if len(rest) == 1:
            return rest[0]
        a = self.sat.fresh()
        for x in rest:
            self.sat.add([-a, x])
        return a

    # -- the tile's placements ---------------------------------------------------------------------
    def _local(self, q: CellSet) -> list[LitOrConst]:
        """Add "q is blocked" in its local form; return the cover/2x2 literals (reused by the exact form)."""
        qs = set(q)
        lits: list[LitOrConst] = [self.hedge(c) for c in q]
        seen: set[tuple[Cell, ...]] = set()
        for c in q:
            for w in windows_containing(c, self.rows, self.cols):
                if w in seen:
                    continue
                seen.add(w)
                lits.append(self._and([self.hedge(x) for x in w if x not in qs]))
        lits = [x for x in lits if x is not False]
        self.sat.add(lits + [self._ring_split(q)])
        return lits

    def _labels(self, cells: Sequence[Cell]) -> dict[Cell, int]:
        """Side labels over ``cells``, equal across adjacent cells that are both ground."""
        s = {c: self.sat.fresh() for c in cells}
        for c in cells:
            for n in orthogonal_neighbours(c, self.rows, self.cols):
                if n in s and n > c:
                    guard = [self.hedge(c), self.hedge(n)]
                    self.sat.add(guard + [-s[c], s[n]])
                    self.sat.add(guard + [s[c], -s[n]])
        return s

    def _some_ground(self, d: int, cells: Sequence[Cell], s: dict[Cell, int], side: bool) -> None:
        """d -> some ground cell of ``cells`` has label ``side``."""
        ws: list[LitOrConst] = []
        for c in cells:
            g = self.not_hedge(c)
            if g is False:
                continue
            w = self.sat.fresh()
            self.sat.add([-w, s[c] if side else -s[c]])
            self.sat.add([-w, g])
            ws.append(w)
        self.sat.add([-d] + ws)

    def _ring_split(self, q: CellSet) -> LitOrConst:
        """A literal implying "the ground cells next to q are not joined through q's ring" (exact)."""
        ring = [c for c in _ring(q, self.rows, self.cols, self.radius) if c not in self.old]
        qs = set(q)
        near = [c for c in ring if any(n in qs for n in orthogonal_neighbours(c, self.rows, self.cols))]
        if len(near) < 2:
            return False
        d = self.sat.fresh()
        if self.ring == "labels":
            s = self._labels(ring)
            self._some_ground(d, near, s, True)
            self._some_ground(d, near, s, False)
        # implied, for short refutations: a split needs a hedge cell in the ring when the ring is
        # connected, and two when the ring minus any one cell stays connected (a ring that closes
        # around q).  A ring cut by the board's edge (q in a corner) can split with no hedge at
        # all: q alone cuts off the corner cell (the brute-force tests found it).
        hs = [self.hedge(c) for c in ring]
        if _connected(ring):
            self.sat.add([-d] + hs)
        for i, c in enumerate(ring):
            if _connected([x for x in ring if x != c]):
                self.sat.add([-d, self.not_hedge(c)] + hs[:i] + hs[i + 1:])
        return d

    def add_exact(self, q: CellSet) -> None:
        """Add the exact "q is blocked": covered, a 2x2 window, or the ground minus q split (side labels)."""
        if q in self.exact:
            return
        self.exact.add(q)
        self.stats["exact_cuts"] += 1
        qs = set(q)
        d = self.sat.fresh()
        cells = [c for c in all_cells(self.rows, self.cols) if c not in qs and c not in self.old]
        s = self._labels(cells)
        near = sorted({n for c in q for n in orthogonal_neighbours(c, self.rows, self.cols) if n in s})
        anchor = next((c for c in cells if c in self.fixed), None)
        self._some_ground(d, near, s, False)
        if anchor is not None:
            self.sat.add([-d, s[anchor]])
        else:
            self._some_ground(d, cells, s, True)
        self.sat.add([-d, self._ring_split(q)])
        self.sat.add(self.cover[q] + [d])

    def add_path_cut(self, q: CellSet, hedge: set[Cell]) -> None:
        """Add "q is covered, in a 2x2 window, a cell of this ground tree becomes hedge, or a hedge
        cell next to q becomes ground".

        The tree joins every ground cell next to q through the present ground minus q
        (q is legal here).  While all its cells stay ground and the cells next to q
        that are hedge now stay hedge, q cannot cut the ground: a piece cut off would
        touch q at a ground cell next to it, which is on the tree.  (Without the last
        part the cut is unsound: a hedge next to q may become ground in another
        garden and be the piece cut off; the brute-force tests found it.)  Cells that
        can never be hedge cost nothing, so the clause is short.
        """
        self.stats["path_cuts"] += 1
        tree = _ground_tree(q, hedge, self.rows, self.cols, set(self.h))
        qs = set(q)
        near_hedge = sorted({n for c in q for n in orthogonal_neighbours(c, self.rows, self.cols)
                             if n in hedge and n not in qs})
        self.sat.add(self.cover[q] + [self.h[c] for c in sorted(tree) if c in self.h]
                     + [self.not_hedge(c) for c in near_hedge])

    # -- symmetry ----------------------------------------------------------------------------------
    def _symmetric(self) -> bool:
        """Is the question invariant under the half turn (pieces, old hedges, every family of cell sets)?"""
        rows, cols = self.rows, self.cols

        def rot(cs: CellSet) -> CellSet:
            return tuple(sorted(_rot(c, rows, cols) for c in cs))

        if {_rot(c, rows, cols) for c in self.fixed} != set(self.fixed):
            return False
        if {_rot(c, rows, cols) for c in self.old} != set(self.old):
            return False
        fams = [sh.cellsets for sh in self.shapes] + [self.targets]
        return all({rot(cs) for cs in fam} == set(fam) for fam in fams)

    def _lex_leader(self) -> None:
        """Hedge cells read row by row are no larger than those of the half-turned garden."""
        rows, cols = self.rows, self.cols
        pairs = []
        for c in all_cells(rows, cols):
            r = _rot(c, rows, cols)
            if c >= r:
                break
            x, y = self.hedge(c), self.hedge(r)
            if isinstance(x, bool) and isinstance(y, bool):
                if x != y:
                    return  # cannot happen for a symmetric question
                continue
            pairs.append((x, y))
        eq: LitOrConst = True  # "all earlier pairs are equal"
        for x, y in pairs:
            guard = [] if eq is True else [-int(eq)]
            self.sat.add(guard + [_neg(x), y])  # x <= y while equal so far
            nxt = self.sat.fresh()
            self.sat.add(guard + [_neg(x), _neg(y), nxt])
            self.sat.add(guard + [x, y, nxt])
            eq = nxt

    # -- solving -----------------------------------------------------------------------------------
    def at_most(self, k: int) -> list[int]:
        if self.tot is None or k >= len(self.tot.rhs):
            return []
        return [-self.tot.rhs[k]]

    def shape_limits(self, counts: Sequence[int]) -> list[int]:
        """Assumptions meaning "at most counts[i] cell sets of shape i"."""
        return [-sh.rhs[m] for sh, m in zip(self.shapes, counts, strict=True) if m < len(sh.rhs)]

    def chosen(self) -> list[tuple[int, CellSet]]:
        return [(self.y_of[v][0], self.shapes[self.y_of[v][0]].cellsets[self.y_of[v][1]])
                for v in self.ys if self.sat.value(v)]

    def ground_cut(self, hedge: set[Cell]) -> bool:
        """Add cuts if the ground is split (as ``audit._Packing.cut``); True when connected."""
        comps = ground_components(self.rows, self.cols, hedge)
        if len(comps) <= 1:
            return True
        for i, comp in enumerate(comps):
            compset = set(comp)
            outside = [c for j, other in enumerate(comps) if j != i for c in other]
            z = next((c for c in outside if c in self.fixed), outside[0])
            boundary = {n for c in comp for n in orthogonal_neighbours(c, self.rows, self.cols)
                        if n not in compset}
            a = next((c for c in comp if c in self.fixed), comp[0])
            self.sat.add([self.hedge(a), self.hedge(z)] + [self.not_hedge(b) for b in sorted(boundary)])
            self.stats["ground_cuts"] += 1
        return False

    def placements(self, chosen: Sequence[tuple[int, CellSet]]) -> list[Placement]:
        """Real placements for the chosen cell sets: each shape's tiles in edition order, first sigil."""
        out: list[Placement] = []
        used: dict[int, int] = {}
        for i, cs in sorted(chosen):
            n = used.get(i, 0)
            used[i] = n + 1
            name = self.shapes[i].tiles[n]
            p = next(c.placement for c in candidates(self.base, self.edition.tiles[name])
                     if c.placement.cells == cs)
            out.append(p)
        return out

    def garden(self, ps: Sequence[Placement]) -> Garden:
        g = self.base
        for p in ps:
            g = g.with_hedge(Hedge(p.tile, p.cells, p.sigil))
        return g

    def close(self) -> None:
        self.stats["variables"] = self.sat.pool.top
        self.stats["clauses"] = int(self.sat.stats["clauses"])
        if self.tot is not None:
            self.tot.delete()
        self.sat.close()


def _ground_tree(q: CellSet, hedge: set[Cell], rows: int, cols: int, live: set[Cell]) -> set[Cell]:
    """A tree of ground cells (the ground minus q) joining every ground cell next to q.

    Built by 0-1 BFS: cells outside ``live`` (never hedge) cost nothing, so the
    tree uses as few cells that could become hedge as the search finds.
    """
    qs = set(q)
    ground = {c for c in all_cells(rows, cols) if c not in hedge and c not in qs}
    near = sorted({n for c in q for n in orthogonal_neighbours(c, rows, cols) if n in ground})
    tree = {near[0]} if near else set()
    todo = set(near[1:])
    while todo:
        # 0-1 BFS from the tree; the first unjoined near cell reached is joined by its path
        best = {c: 0 for c in tree}
        prev: dict[Cell, Cell] = {}
        queue = deque(sorted(tree))
        hit = None
        while queue:
            c = queue.popleft()
            if c in todo:
                hit = c
                break
            for n in orthogonal_neighbours(c, rows, cols):
                if n not in ground:
                    continue
                w = 1 if n in live else 0
                nd = best[c] + w
                if nd < best.get(n, 1 << 30):
                    best[n] = nd
                    prev[n] = c
                    if w == 0:
                        queue.appendleft(n)
                    else:
                        queue.append(n)
        if hit is None:  # pragma: no cover - q is legal, so the near cells are joined
            raise RuntimeError("path cut: the ground next to the placement is not connected")
        c = hit
        while c not in tree:
            tree.add(c)
            todo.discard(c)
            c = prev[c]
    return tree


def _connected(cells: Sequence[Cell]) -> bool:
    """Are the cells one orthogonally connected set (empty counts as connected)?"""
    return not cells or is_edge_connected(cells)


def _neg(x: LitOrConst) -> LitOrConst:
    return (not x) if isinstance(x, bool) else -x


class BlockingSearch:
    """``fewest_blocking`` as a search that can be paused at a deadline and resumed.

    ``run(deadline)`` raises k from ``lower`` (one split after another) until the
    value is proven or the deadline passes, keeping the model, its learnt clauses
    and its place (k, split) for the next ``run``; ``improve`` hands it a shorter
    blocking set found by another method (then k stops below that set's size).
    So the audit can try the exact method first and come back to it after its
    witness phases without redoing any question.  ``close`` frees the solver.
    """

    def __init__(self, base: Garden, edition: HedgeMageEdition, tile: str, kmax: int,
                 known: Sequence[Placement] | None = None, lower: int = 1,
                 symmetry: bool = True, solver: str = SOLVER, radius: int = 1,
                 exact: bool = False, split: bool = True, ring: str = "labels") -> None:
        self.t0 = time.monotonic()
        self.tobj = edition.tiles[tile]
        self.kmax, self.exact_cuts, self.split = kmax, exact, split
        self.ans = BlockingAnswer(tile, "unknown", lower, None)
        if known is not None:
            self.improve(known)
        self.model = _BlockModel(base, edition, tile, kmax, symmetry=symmetry, solver=solver,
                                 radius=radius, ring=ring)
        self.caps = [len(sh.tiles) for sh in self.model.shapes]
        self._k = -1  # the k whose splits ``_todo`` holds
        self._todo: list[list[int]] = []
        self._unsat: dict[int, set[tuple[int, ...]]] = {}  # splits of k that ``probe`` found UNSAT
        self.closed = False
        self._settle()

    def improve(self, placements: Sequence[Placement]) -> None:
        """A blocking set found elsewhere: an upper bound (the caller has checked it blocks the tile)."""
        if self.ans.upper is None or len(placements) < self.ans.upper:
            self.ans.upper, self.ans.placements = len(placements), list(placements)
            self._settle()

    def raise_lower(self, lower: int) -> None:
        """A lower bound proven elsewhere (every k below ``lower`` is impossible)."""
        if lower > self.ans.lower:
            self.ans.lower = lower
            self._settle()

    @property
    def done(self) -> bool:
        return self.ans.status == "proven"

    def _settle(self) -> None:
        ans = self.ans
        if ans.upper is not None and ans.lower >= ans.upper:
            ans.lower, ans.status = ans.upper, "proven"
        elif ans.upper is None and ans.lower > self.kmax:
            ans.status = "proven"

    def run(self, deadline: float) -> BlockingAnswer:
        """Go on until proven or ``deadline`` (time.monotonic); the answer so far."""
        model, ans = self.model, self.ans
        t_run = time.monotonic()
        try:
            while not self.done:
                k = ans.lower
                if self._k != k:
                    self._k = k
                    self._todo = _splits(self.caps, k) if self.split else [self.caps]
                    known = self._unsat.get(k, set())
                    self._todo = [c for c in self._todo if tuple(c) not in known]
                while self._todo:
                    counts = self._todo[0]
                    assume = model.at_most(k) + model.shape_limits(counts)
                    found = self._question(assume, deadline)
                    if found is not None:
                        ans.upper, ans.placements = len(found), found
                        break
                    self._todo.pop(0)
                    model.stats["splits"] += 1
                if ans.upper is not None and ans.upper <= k:
                    self._settle()
                    break
                ans.lower = k + 1
                ans.proofs.append((k, time.monotonic() - self.t0))
                self._settle()
        except SatTimeout:
            pass
        finally:
            ans.stats = dict(model.stats)
            ans.seconds += time.monotonic() - t_run
        return ans

    def probe(self, k: int, deadline: float, per_question: float) -> bool:
        """Look for a blocking set of at most ``k`` cell sets before the smaller k are settled.

        Each split of ``k`` gets at most ``per_question`` seconds (a timeout moves on to the next
        split; nothing is concluded from it).  A blocking set lowers ``upper``; a split proven UNSAT
        is remembered, so ``run`` does not ask it again when it reaches ``k``.  True when a
        blocking set of at most ``k`` was found.  Measured on the default edition: T4 at k = 5 finds
        a blocking set in 2.5 s, where ``run`` would first settle the 101 splits of k = 4.
        """
        if self.done or k < self.ans.lower or (self.ans.upper is not None and self.ans.upper <= k):
            return self.ans.upper is not None and self.ans.upper <= k
        model, ans = self.model, self.ans
        t_run = time.monotonic()
        seen = self._unsat.setdefault(k, set())
        try:
            for counts in (_splits(self.caps, k) if self.split else [self.caps]):
                if tuple(counts) in seen:
                    continue
                now = time.monotonic()
                if now >= deadline:
                    break
                assume = model.at_most(k) + model.shape_limits(counts)
                try:
                    found = self._question(assume, min(deadline, now + per_question))
                except SatTimeout:
                    continue
                if found is not None:
                    if ans.upper is None or len(found) < ans.upper:
                        ans.upper, ans.placements = len(found), found
                    self._settle()
                    return True
                seen.add(tuple(counts))
            return False
        finally:
            ans.stats = dict(model.stats)
            ans.seconds += time.monotonic() - t_run

    def _question(self, assume: list[int], deadline: float) -> list[Placement] | None:
        """One split: a blocking set under ``assume``, or None (UNSAT); SatTimeout at the deadline."""
        model = self.model
        while True:
            model.stats["sat_calls"] += 1
            if not model.sat.solve(assume, deadline):
                return None
            model.stats["guesses"] += 1
            chosen = model.chosen()
            hedge = set(model.old) | {c for _i, cs in chosen for c in cs}
            if not model.ground_cut(hedge):
                continue
            ps = model.placements(chosen)
            legal = {p.cells for p in legal_placements(model.garden(ps), self.tobj).placements}
            if not legal:
                return ps
            for q in sorted(legal):
                if self.exact_cuts:
                    model.add_exact(q)
                else:
                    model.add_path_cut(q, hedge)

    def cancel(self) -> None:
        """Stop the search from another thread: the running SAT call and every later one time out."""
        self.model.sat.cancel()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.model.close()
            self.ans.stats = dict(self.model.stats)


def maxsat_blocking(base: Garden, edition: HedgeMageEdition, tile: str, kmax: int, deadline: float,
                    symmetry: bool = True, ring: str = "count",
                    cancel: threading.Event | None = None) -> BlockingAnswer:
    """``fewest_blocking`` by core-guided MaxSAT (pysat's RC2): minimise the cell sets laid.

    The hard part is the model of ``_BlockModel`` without the "at most k" totalizers'
    assumptions (the clauses are the same), the soft part "cell set j not laid" for
    each j.  An optimum of the model so far is a proven lower bound (the model is a
    relaxation: every blocking garden satisfies it); when the optimum's garden truly
    blocks the tile it is the answer, else it gets the same path and ground cuts as
    in ``fewest_blocking`` and RC2 goes on with what it has learnt (its cores kept).
    No split questions: RC2 raises the bound one core at a time.  Measured on the
    default edition: I4 "not with 4" in about 14 s, against 120-240 s for the 101
    split questions (benchmarks/README.md).  ``deadline`` interrupts RC2's SAT call
    (status "unknown", lower bound from the last finished optimum), and so does ``cancel``
    being set (another thread has settled the question: the audit's portfolio).
    """
    t0 = time.monotonic()
    tobj = edition.tiles[tile]
    ans = BlockingAnswer(tile, "unknown", 1, None)
    model = _BlockModel(base, edition, tile, kmax, symmetry=symmetry, ring=ring, record=True)
    sat = model.sat
    assert isinstance(sat, _RecordingSat)
    wcnf = WCNF()
    for c in sat.taken():
        wcnf.append(c)
    for v in model.ys:
        wcnf.append([-v], weight=1)
    rc2 = RC2(wcnf, solver=SOLVER)
    model.stats["maxsat_optima"] = 0
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or (cancel is not None and cancel.is_set()):
                break
            stop = threading.Event()
            watcher = threading.Thread(target=_interrupt_when, args=(rc2, stop, deadline, cancel), daemon=True)
            watcher.start()
            try:
                best = rc2.compute(expect_interrupt=True)
            finally:
                stop.set()
                watcher.join()
            if cancel is not None and cancel.is_set():
                break
            if best is None:
                # the hard part alone is unsatisfiable: nothing blocks the tile (not trusted once the
                # deadline has passed: a late interrupt could have cut that call short)
                if not rc2.interrupted and time.monotonic() < deadline:
                    ans.lower, ans.status = kmax + 1, "proven"
                break
            model.stats["maxsat_optima"] += 1
            model.stats["sat_calls"] += 1
            ans.lower = max(ans.lower, int(rc2.cost))
            ans.proofs.append((ans.lower - 1, time.monotonic() - t0))
            if ans.lower > kmax:
                ans.lower, ans.status = kmax + 1, "proven"
                break
            true = {x for x in best if x > 0}
            chosen = [(model.y_of[v][0], model.shapes[model.y_of[v][0]].cellsets[model.y_of[v][1]])
                      for v in model.ys if v in true]
            hedge = set(model.old) | {c for _i, cs in chosen for c in cs}
            model.stats["guesses"] += 1
            if model.ground_cut(hedge):
                ps = model.placements(chosen)
                legal = {p.cells for p in legal_placements(model.garden(ps), tobj).placements}
                if not legal:
                    ans.upper, ans.placements = len(ps), ps
                    ans.lower, ans.status = len(ps), "proven"
                    break
                for q in sorted(legal):
                    model.add_path_cut(q, hedge)
            for c in sat.taken():
                rc2.add_clause(c)
    finally:
        rc2.delete()
        model.close()
        ans.stats = dict(model.stats)
        ans.seconds = time.monotonic() - t0
    return ans


def _interrupt_when(rc2: RC2, stop: threading.Event, deadline: float, cancel: threading.Event | None) -> None:
    """Interrupt RC2's running call at ``deadline`` or when ``cancel`` is set, unless ``stop`` comes first."""
    while not stop.wait(0.05):
        if time.monotonic() >= deadline or (cancel is not None and cancel.is_set()):
            rc2.interrupt()
            return


def fewest_blocking(base: Garden, edition: HedgeMageEdition, tile: str, kmax: int, deadline: float,
                    known: Sequence[Placement] | None = None, lower: int = 1,
                    symmetry: bool = True, solver: str = SOLVER, radius: int = 1,
                    exact: bool = False, split: bool = True, ring: str = "labels") -> BlockingAnswer:
    """The fewest placements of other distinct tiles (at most ``kmax``) leaving ``tile`` no legal placement.

    ``base`` must have ``tile`` legal somewhere (so the value is at least 1) and
    connected ground.  ``known``: a blocking set already found (its size is an
    upper bound: if every smaller k is UNSAT it is the answer).  ``deadline``
    (time.monotonic) cuts the search short: status "unknown" with the bounds so
    far.  "proven" with ``upper`` None means no garden of at most ``kmax``
    placements blocks the tile (``lower == kmax + 1``).  ``symmetry``, ``split``,
    ``exact`` and ``radius`` (of the local ring condition) switch the model's
    parts (module doc), as does ``ring`` ("labels": the exact ring condition;
    "count": only its hedge counts); the answers do not depend on them, only the time.
    One ``BlockingSearch`` run to the deadline.
    """
    search = BlockingSearch(base, edition, tile, kmax, known=known, lower=lower, symmetry=symmetry,
                            solver=solver, radius=radius, exact=exact, split=split, ring=ring)
    try:
        search.run(deadline)
    finally:
        search.close()
    search.ans.seconds = time.monotonic() - search.t0
    return search.ans


def _splits(caps: Sequence[int], k: int) -> list[list[int]]:
    """Every way to give each shape a count (at most its cap) adding up to k, or to all caps if fewer.

    Any set of at most k cell sets fits under one of them, so UNSAT under each is UNSAT at k.
    Larger shapes (later in the list) get their counts first.
    """
    total = min(k, sum(caps))
    out: list[list[int]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i < 0:
            if left == 0:
                out.append(acc[::-1])
            return
        room = sum(caps[:i])
        for m in range(min(caps[i], left), -1, -1):
            if left - m <= room:
                rec(i - 1, left - m, acc + [m])

    rec(len(caps) - 1, total, [])
    return out
