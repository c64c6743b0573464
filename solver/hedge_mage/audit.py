"""Rules verification over a Hedge Mage edition: where "no legal placement" (a rulebook hole) is hit.

A garden is *reachable* when it arises from setup (tunnels, gnomes and mages
where setup puts them, nobody moving) by legal placements of distinct tiles of
the edition, at most ``max_before`` of them (the deck's rounds minus one).

Three questions:

(a) ``audit_tile``: for a tile T, the fewest earlier placements after which T
    has no legal placement, with a witness garden.  An exists-forall problem,
    solved by SAT with a counterexample-guided loop (see ``_TileBlocker``).
(b) ``simulate``: K games per policy; how often a round has no legal placement.
(c) ``max_points``: the most movement points one placement can earn without
    bonus sigils, with a witness, proven by SAT against the bound
    ``1 + max_before``.

Order lemma (why SAT may reason about *sets* of placements).  A set S of
pairwise disjoint placements avoiding the setup pieces, with no all-hedge 2x2
window and connected ground, can always be laid one tile at a time, every step
legal: remove from S a tile that touches the final ground (one exists while S is
not empty, the grid being connected and the ground non-empty); the ground with
that tile's cells added stays connected.  Repeating and reading the removals
backwards gives a legal order (2x2 and cover hold for every subset).  So the
reachable gardens are exactly those sets, and ``order_for_replay`` builds the
order; every witness is replayed with ``check_placement``/``apply_placement``.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.grid import (
    Cell,
    all_cells,
    orthogonal_neighbours,
    windows_2x2,
    windows_containing,
)
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.notation import garden_to_json
from gnomekit.models.hedge_mage.placement import (
    Placement,
    apply_placement,
    candidates,
    check_placement,
    legal_placements,
    movement_points,
)
from gnomekit.models.hedge_mage.position import Garden, ground_components
from gnomekit.models.hedge_mage.setup import deal_deck, new_garden
from gnomekit.solver.core.batch import Backend, BatchError, Progress, auto_chunk, run_batch
from gnomekit.solver.core.sat import SatModel, SatTimeout
from gnomekit.solver.hedge_mage.blocking import BlockingAnswer, BlockingSearch, _connected, maxsat_blocking
from pysat.card import ITotalizer

SAT_SOLVER = "glucose4"  # supports interrupts (time budgets)
#: Methods of ``audit_tile``: "exact" (``blocking.fewest_blocking``, exact ring condition),
#: "exact-count" (the same with ``ring="count"``), "cegar" (the first method).
METHODS = ("exact", "exact-count", "cegar")
POLICIES = ("random", "planning")

# ---------------------------------------------------------------------------------------------
# Setup, geometry, replay


def setup_garden(edition: HedgeMageEdition, enchantments: tuple[str, ...] | None = None) -> Garden:
    """The garden at setup with no tile revealed (gnome kinds do not matter for building)."""
    g, _deck = new_garden(edition, 0, enchantments)
    return replace(g, tile=None, remaining_tiles=tuple(edition.tiles), round=1)


def rounds_of(edition: HedgeMageEdition) -> int:
    """How many rounds a game has at most: the deck minus the cards removed unseen."""
    return len(edition.deck) - edition.removed


def max_before(edition: HedgeMageEdition) -> int:
    """The most placements that can precede a tile: rounds - 1, and distinct tiles - 1."""
    return max(0, min(rounds_of(edition) - 1, len(edition.tiles) - 1))


def fixed_cells(garden: Garden) -> frozenset[Cell]:
    """Cells that are never hedge: the setup pieces (tunnels, gnomes, mages, springshrooms)."""
    return frozenset(c for c in garden.occupants if garden.in_bounds(c))


def order_for_replay(base: Garden, placements: Sequence[Placement], last: Placement | None = None
                     ) -> list[Placement] | None:
    """A legal order for a set of placements (see the order lemma), ``last`` placed last.

    Returns None when no order found by the lemma exists (the final ground is not
    connected, or ``last`` touches no final ground).
    """
    rest = list(placements)
    hedge = set(base.hedge_cells) | {c for p in rest for c in p.cells}
    if len(ground_components(base.rows, base.cols, hedge)) != 1:
        return None
    removed: list[Placement] = []

    def touches(p: Placement) -> bool:
        return any(n not in hedge for c in p.cells for n in orthogonal_neighbours(c, base.rows, base.cols))

    if last is not None:
        if last not in rest or not touches(last):
            return None
        rest.remove(last)
        removed.append(last)
        hedge -= set(last.cells)
    while rest:
        pick = next((p for p in rest if touches(p)), None)
        if pick is None:  # pragma: no cover - impossible by the lemma
            return None
        rest.remove(pick)
        removed.append(pick)
        hedge -= set(pick.cells)
    return removed[::-1]


def replay(base: Garden, edition: HedgeMageEdition, sequence: Sequence[Placement]) -> Garden:
    """Lay the placements in order from ``base``, checking each with ``check_placement``.

    Raises RuntimeError (a solver bug, not bad input) if a step is illegal.
    """
    g = base
    for i, p in enumerate(sequence):
        rep = check_placement(g, edition, p, check_tile_choice=False)
        if not rep.legal:
            why = "; ".join(v.message for v in rep.violations)
            raise RuntimeError(f"witness step {i + 1} ({p.tile}) is illegal: {why}")
        g = apply_placement(g, edition, p)
    return g


def _windows(rows: int, cols: int) -> list[tuple[Cell, Cell, Cell, Cell]]:
    return list(windows_2x2(rows, cols))


@dataclass
class _Geometry:
    """Candidate placements per tile that avoid the setup pieces."""

    base: Garden
    edition: HedgeMageEdition
    fixed: frozenset[Cell]  # setup pieces: always ground
    cands: dict[str, list[Placement]]

    @staticmethod
    def of(base: Garden, edition: HedgeMageEdition) -> _Geometry:
        fixed = fixed_cells(base)
        taken = fixed | base.hedge_cells
        cands: dict[str, list[Placement]] = {}
        for name, tile in edition.tiles.items():
            cands[name] = [c.placement for c in candidates(base, tile)
                           if not any(x in taken for x in c.placement.cells)]
        return _Geometry(base, edition, fixed, cands)


class _Packing:
    """SAT model of a reachable garden: which placements are laid (x), which cells are hedge (h).

    Clauses: h_c <-> some placement covers c; at most one placement per cell and per
    tile; no all-hedge 2x2 window; the number of placements bounded by a totalizer
    (assumption literals); ground connectivity by lazy cuts (``cut``), each implied
    by the rules, so UNSAT stays a proof.
    """

    def __init__(self, geo: _Geometry, tiles: Iterable[str], max_count: int, eager: bool = True) -> None:
        self.geo = geo
        self.base = geo.base
        self.top = 0
        self.clauses: list[list[int]] = []
        self.placements: list[Placement] = []
        self.x: list[int] = []
        by_cell: dict[Cell, list[int]] = {}
        for name in tiles:
            lits = []
            for p in geo.cands[name]:
                v = self.new()
                self.placements.append(p)
                self.x.append(v)
                lits.append(v)
                for c in p.cells:
                    by_cell.setdefault(c, []).append(v)
            self._at_most_one(lits)
        self.h: dict[Cell, int] = {}
        for c, lits in by_cell.items():
            hv = self.new()
            self.h[c] = hv
            self.clauses.append([-hv] + lits)
            for v in lits:
                self.clauses.append([-v, hv])
            self._at_most_one(lits)
        for w in _windows(self.base.rows, self.base.cols):
            if all(c in self.h for c in w):
                self.clauses.append([-self.h[c] for c in w])
        # Implied by connected ground (of 2+ cells): a ground cell has a ground neighbour.
        rows, cols = self.base.rows, self.base.cols
        if rows * cols - len(self.base.hedge_cells) > 1:
            for c in all_cells(rows, cols):
                if c in self.base.hedge_cells:
                    continue
                nbrs = list(orthogonal_neighbours(c, rows, cols))
                if any(self.always_ground(n) for n in nbrs):
                    continue
                tail = [-self.h[n] for n in nbrs if n in self.h]
                self.clauses.append(([self.h[c]] if c in self.h else []) + tail)
        if eager:
            self._reachability()
        self.max_count = max(0, min(max_count, len(self.x)))
        self.tot: ITotalizer | None = None
        if self.x:
            self.tot = ITotalizer(lits=self.x, ubound=self.max_count + 1, top_id=self.top)
            self.top = max(self.top, self.tot.top_id)
            self.clauses.extend(self.tot.cnf.clauses)
        # the shared solver wrapper for solving with a deadline (SatTimeout: unknown, never "no");
        # the variables stay numbered here (``new``), so the clauses go to its pysat solver as they are
        self.sat = SatModel(SAT_SOLVER)
        self.solver = self.sat.solver
        self.solver.append_formula(self.clauses)
        self.cuts = 0
        self.index = {v: i for i, v in enumerate(self.x)}

    def new(self) -> int:
        self.top += 1
        return self.top

    def _reachability(self) -> None:
        """Exact connectivity: every ground cell is reached from a root within |cells| steps.

        r[c][t] -> c is ground and (r[c][t-1] or r[n][t-1] for a neighbour n); ground -> r[c][T].
        """
        rows, cols = self.base.rows, self.base.cols
        cells = [c for c in all_cells(rows, cols) if c not in self.base.hedge_cells]
        root = next((c for c in cells if self.always_ground(c)), None)
        if root is None or len(cells) <= 1:
            return
        levels = len(cells) - 1
        prev = {c: 0 for c in cells}  # 0: false constant at level 0 except the root
        for _t in range(1, levels + 1):
            cur: dict[Cell, int] = {}
            for c in cells:
                if c == root:
                    continue
                v = self.new()
                cur[c] = v
                if c in self.h:
                    self.clauses.append([-v, -self.h[c]])
                src = [prev[c]] if prev[c] else []
                for n in orthogonal_neighbours(c, rows, cols):
                    if n == root:
                        src = []  # reached from the root at step 1: no condition
                        break
                    if n in prev and prev[n]:
                        src.append(prev[n])
                else:
                    self.clauses.append([-v] + src)
                if prev[c]:
                    self.clauses.append([-prev[c], v])
            prev = {**cur, root: 0}
        for c in cells:
            if c == root:
                continue
            self.clauses.append(([self.h[c]] if c in self.h else []) + [prev[c]])

    def add(self, clause: list[int]) -> None:
        self.solver.add_clause(clause)

    def _at_most_one(self, lits: list[int]) -> None:
        if len(lits) <= 6:
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    self.clauses.append([-lits[i], -lits[j]])
            return
        # sequential (ladder) encoding
        prev = 0
        for i, v in enumerate(lits):
            if i == len(lits) - 1:
                if prev:
                    self.clauses.append([-v, -prev])
                break
            s = self.new()
            self.clauses.append([-v, s])
            if prev:
                self.clauses.append([-prev, s])
                self.clauses.append([-v, -prev])
            prev = s

    def at_most(self, k: int) -> list[int]:
        """Assumptions meaning "at most k placements"."""
        if self.tot is None or k >= len(self.x):
            return []
        return [-self.tot.rhs[k]]

    def hedge_lit(self, c: Cell) -> int | None:
        """The literal "c is hedge", or None when c can never be hedge."""
        return self.h.get(c)

    def chosen(self) -> list[Placement]:
        model = self.solver.get_model() or []
        true = {v for v in model if v > 0}
        return [self.placements[i] for i, v in enumerate(self.x) if v in true]

    def always_ground(self, c: Cell) -> bool:
        """No placement of the model covers c and it is not an old hedge."""
        return c not in self.h and c not in self.base.hedge_cells

    def cut(self, chosen: Sequence[Placement]) -> bool:
        """Add cuts if the chosen garden's ground is split; True when it is connected.

        For a ground component C and cells a in C, z outside it, every connected
        ground holding a and z passes through the boundary of C, so:
        h_a or h_z or some boundary cell is ground.
        """
        hedge = set(self.base.hedge_cells) | {c for p in chosen for c in p.cells}
        comps = ground_components(self.base.rows, self.base.cols, hedge)
        if len(comps) <= 1:
            return True
        for i, comp in enumerate(comps):
            compset = set(comp)
            outside = [c for j, other in enumerate(comps) if j != i for c in other]
            z = next((c for c in outside if self.always_ground(c)), outside[0])
            boundary = {n for c in comp for n in orthogonal_neighbours(c, self.base.rows, self.base.cols)
                        if n not in compset}
            tail = [-self.h[b] for b in sorted(boundary) if b in self.h]
            zl = [] if self.always_ground(z) else [self.h[z]]
            fixed_in = [c for c in comp if self.always_ground(c)]
            for a in fixed_in[:1] or comp:
                al = [] if self.always_ground(a) else [self.h[a]]
                self.add(al + zl + tail)
                self.cuts += 1
        return False

    def close(self) -> None:
        self.sat.close()
        if self.tot is not None:
            self.tot.delete()


# ---------------------------------------------------------------------------------------------
# (a) the fewest placements before a tile that leave it no legal placement


@dataclass
class TileAudit:
    """Answer for one tile.  ``lower``: proven lower bound on k; ``upper``: best witness's k."""

    tile: str
    status: str  # "proven" or "unknown"
    lower: int
    upper: int | None
    max_before: int
    sequence: list[Placement] = field(default_factory=list)
    garden: Garden | None = None
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
    #: the twin (``twins``) whose search answered this tile too, or None when searched itself
    answered_with: str | None = None
    #: the level-proof logs (``level_proof.with_levels``) whose recorded UNSAT level gives ``lower``
    level_logs: list[str] = field(default_factory=list)

    @property
    def value(self) -> int | None:
        """The proven fewest placements (None when unknown or when no k <= max_before works)."""
        if self.status == "proven" and self.upper is not None and self.upper == self.lower:
            return self.upper
        return None

    @property
    def never(self) -> bool:
        """Proven: no reachable garden (within max_before placements) blocks this tile."""
        return self.status == "proven" and self.upper is None

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "status": self.status,
            "fewest_placements": self.value,
            "never_within_max": self.never,
            "lower_bound": self.lower,
            "upper_bound": self.upper,
            "max_before": self.max_before,
            "witness": _witness_json(self.sequence, self.garden),
            "seconds": round(self.seconds, 3),
            "stats": self.stats,
            "answered_with": self.answered_with,
            "level_logs": self.level_logs,
        }


def _witness_json(seq: Sequence[Placement], garden: Garden | None) -> dict[str, Any] | None:
    if garden is None:
        return None
    return {"placements": [p.to_json() for p in seq], "garden": garden_to_json(garden)}


class _TileBlocker:
    """Exists k placements such that every placement of T is illegal: the CEGAR loop.

    Guess a garden (SAT), enumerate T's legal placements in it; each legal one P gets
    the exact clause "P is blocked": a cell of P is hedge, or the rest of a 2x2 window
    through P is hedge, or the ground minus P is split.  The split is encoded exactly:
    side variables s over the non-P cells, equal across adjacent ground cells, the
    side of a setup piece (always ground) fixed true, and some ground cell false.
    Every added clause is implied by the question, so UNSAT is a proof.
    """

    def __init__(self, geo: _Geometry, tile: str, kmax: int) -> None:
        self.geo = geo
        self.tile = tile
        others = [t for t in geo.edition.tiles if t != tile]
        self.pack = _Packing(geo, others, kmax)
        self.blocked: set[tuple[str, tuple[Cell, ...], Cell]] = set()
        self.blocked_cells: set[tuple[Cell, ...]] = set()

    def block(self, p: Placement) -> None:
        if p.cells in self.blocked_cells:  # the same cells with another sigil: same clause
            return
        self.blocked_cells.add(p.cells)
        pk = self.pack
        rows, cols = pk.base.rows, pk.base.cols
        pcells = set(p.cells)
        lits: list[int] = [pk.h[c] for c in p.cells if c in pk.h]
        seen: set[tuple[Cell, ...]] = set()
        for c in p.cells:
            for w in windows_containing(c, rows, cols):
                if w in seen:
                    continue
                seen.add(w)
                restw = [x for x in w if x not in pcells]
                if not restw or any(x not in pk.h for x in restw):
                    continue
                y = pk.new()
                for x in restw:
                    pk.add([-y, pk.h[x]])
                lits.append(y)
        lits.append(self._split(pcells))
        pk.add(lits)

    def _split(self, pcells: set[Cell]) -> int:
        """A literal d with d -> "the ground minus pcells is not connected" (exact)."""
        pk = self.pack
        rows, cols = pk.base.rows, pk.base.cols
        old = pk.base.hedge_cells
        d = pk.new()
        s = {c: pk.new() for c in all_cells(rows, cols) if c not in pcells and c not in old}
        for c in s:
            for n in orthogonal_neighbours(c, rows, cols):
                if n in s and n > c:
                    guard = [pk.h[x] for x in (c, n) if x in pk.h]
                    pk.add(guard + [-s[c], s[n]])
                    pk.add(guard + [s[c], -s[n]])
        anchor = next((c for c in sorted(s) if pk.always_ground(c)), None)

        # The garden's ground is connected, so every piece cut off by P touches P: the
        # "other side" needs a ground cell next to P (exact, and far fewer choices).
        near = {n for c in pcells for n in orthogonal_neighbours(c, rows, cols) if n in s}

        def some_ground(side: bool) -> None:
            ws = []
            for c in (s if side else near):
                w = pk.new()
                pk.add([-w, s[c] if side else -s[c]])
                if c in pk.h:
                    pk.add([-w, -pk.h[c]])
                ws.append(w)
            pk.add([-d] + ws)

        some_ground(False)
        if anchor is not None:
            pk.add([s[anchor]])
        else:
            some_ground(True)
        # Implied local clauses (they make refutations short): if the ring of cells around P
        # (its 8-neighbourhood on the board) stays 4-connected ground, every ground cell next to
        # P is joined through the ring, so P cannot split a connected ground.  Hence P splits
        # the ground only if ring cells are hedge: at least one, and at least two when the
        # ring minus any one cell stays connected (a ring that closes around P).
        ring = sorted({(r + dr, c + dc) for r, c in pcells for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                       if 0 <= r + dr < rows and 0 <= c + dc < cols} - pcells - old)
        if _connected(ring):
            lits = [pk.h[c] for c in ring if c in pk.h]
            pk.add([-d] + lits)
            for c in ring:
                if c in pk.h and _connected([x for x in ring if x != c]):
                    pk.add([-d, -pk.h[c]] + [v for v in lits if v != pk.h[c]])
        return d


def audit_tile(
    base: Garden,
    edition: HedgeMageEdition,
    tile: str,
    seconds: float = 60.0,
    kmax: int | None = None,
    method: str = "exact-count",
    known: Sequence[Placement] | None = None,
    lower: int = 1,
) -> TileAudit:
    """The fewest placements of other distinct tiles after which ``tile`` has no legal placement.

    Status "proven": ``lower == upper`` (the answer, with a replayed witness), or
    ``upper`` None and ``lower == kmax + 1`` (no garden within kmax placements
    blocks the tile).  Status "unknown": the time budget ran out; ``lower`` is
    proven (every smaller k is UNSAT) and ``upper`` is the best witness found.

    With ``method`` "exact-count" (the default) or "exact", two searches side by side for the
    whole budget, the first to settle the tile stopping the other: ``blocking.maxsat_blocking``
    in a thread (RC2 on the cell-set model, ring counts: I4 = 5 in 14-23 s idle, S4 = 5 in
    about 40 s), and here the split search ``blocking.BlockingSearch`` (cell-set model, every
    placement of the tile from the start, half-turn symmetry, counts per shape; "exact": exact
    ring condition, "exact-count": its hedge counts only, ``ring="count"``) for a tenth of
    the budget, at least 8 s (N5 = 4 in 3-5 s), a randomised greedy search (a twentieth) for
    a first witness, shorter ones by a local search (``_local_run``, a tenth: I3's 6 in
    0.5-5 s), shorter witnesses by ``BlockingSearch.probe`` in the count form
    (``_probe_run``, to half the budget: T4's 5-placement witness in 1.4 s), then the split
    search again for the rest.  With "cegar" (the first method): the greedy search (a
    tenth), the shorter witnesses on the first model (up to half the budget), then k
    raised on small fresh models.
    A proven value v is proven by UNSAT at v - 1 (``stats["unsat_at"]``).
    Every witness is replayed from setup and checked by enumeration; ``known``, a blocking
    set found before (any order), is replayed and checked too and starts as the best witness.
    ``lower``: a lower bound proven elsewhere (every smaller k UNSAT, e.g. by the level-proof logs of
    ``level_proof``; ``stats["lower_given"]``): the searches start there, no shorter witness is looked
    for, and MaxSAT, which would have to prove those levels again, is not run; a known witness of
    ``lower`` placements settles the tile at once, so a pooled audit hands its time on.  A witness
    found below ``lower`` (the bound given was wrong) is kept and proves its own value: the caller
    checks its bound against the answer (``level_proof.with_levels`` refuses such a log).
    """
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if tile not in edition.tiles:
        raise UsageError(f"unknown tile {tile!r}; the edition has: {' '.join(edition.tiles)}")
    t0 = time.monotonic()
    deadline = t0 + seconds
    kmax = max_before(edition) if kmax is None else kmax
    tobj = edition.tiles[tile]
    res = TileAudit(tile, "unknown", 0, None, kmax)
    if not legal_placements(base, tobj).placements:
        res.status, res.upper, res.garden = "proven", 0, replace(base, tile=tile)
        res.seconds = time.monotonic() - t0
        return res
    if not 1 <= lower <= kmax + 1:
        raise ValueError(f"lower must be from 1 to {kmax + 1}, not {lower}")
    res.lower = lower
    if known:
        _take_blocking(base, edition, res, known, bad=ValueError, what="the known blocking set")
    geo = _Geometry.of(base, edition)
    stats = {"guesses": 0, "blocked_placements": 0, "cuts": 0, "sat_calls": 0}
    if lower > 1:
        stats["lower_given"] = lower

    def attempt(blocker: _TileBlocker, k: int, until: float, spread: int) -> bool:
        """SAT for "at most k placements": True (witness stored), False (UNSAT); SatTimeout when
        ``until`` (time.monotonic) passes first (unknown, never "no").

        With ``spread`` 0 every legal placement of a guess gets its blocking clause
        (finds witnesses fast); otherwise only ``spread`` of them, far from the hedges
        and from each other (small models, quicker UNSAT).
        """
        pk = blocker.pack
        while True:
            stats["sat_calls"] += 1
            if not pk.sat.solve(pk.at_most(k), until):
                return False
            stats["guesses"] += 1
            chosen = pk.chosen()
            if not pk.cut(chosen):
                continue
            seq = order_for_replay(base, chosen)
            assert seq is not None
            g = replay(base, edition, seq)
            legal = legal_placements(g, tobj).placements
            if not legal:
                if res.upper is None or len(seq) < res.upper:
                    _set_witness(res, seq, g)
                return True
            for p in (legal if spread == 0 else _far_apart(g, legal, spread)):
                blocker.block(p)

    def done(blocker: _TileBlocker) -> None:
        stats["blocked_placements"] += len(blocker.blocked_cells)
        stats["cuts"] += blocker.pack.cuts
        blocker.pack.close()

    def settled() -> bool:
        return (res.upper is not None and res.lower >= res.upper) or (res.upper is None and res.lower > kmax)

    search: BlockingSearch | None = None
    if method in ("exact", "exact-count"):
        search = BlockingSearch(base, edition, tile, kmax, lower=lower,
                                ring="count" if method == "exact-count" else "labels")
    prober: BlockingSearch | None = None
    portfolio: _MaxSatThread | None = None
    try:
        if search is not None:
            # MaxSAT in a thread beside the split search, greedy and probes here (each SAT call
            # releases the GIL); whichever settles the tile first cancels the other
            prober = search if method == "exact-count" else BlockingSearch(base, edition, tile, kmax,
                                                                            lower=lower, ring="count")
            if lower == 1:
                portfolio = _MaxSatThread(base, edition, tile, kmax, deadline, (search, prober))

            def folded() -> bool:
                if portfolio is not None:
                    portfolio.fold(res)
                return settled()

            _exact_run(search, base, edition, res, t0 + _first_split_share(seconds) * seconds)
            if not folded():
                _greedy_run(base, edition, res, kmax, time.monotonic() + 0.05 * seconds)
            if not folded():
                _local_run(base, edition, res, time.monotonic() + LOCAL_SHARE * seconds, folded)
            if not folded():
                _probe_run(prober, base, edition, res, t0 + 0.5 * seconds, seconds, folded)
            if not folded():
                _exact_run(search, base, edition, res, deadline)
            folded()
        if search is None and not settled():
            # the greedy search (a tenth of the budget) for an early, short witness
            _greedy_run(base, edition, res, kmax, time.monotonic() + 0.1 * seconds)
        if search is None and not settled():
            # witnesses with fewer placements than the best so far, on one incremental model;
            # UNSAT for "at most k" proves the lower bound k + 1
            until = t0 + 0.5 * seconds
            first = _TileBlocker(geo, tile, kmax)
            try:
                k = kmax if res.upper is None else res.upper - 1
                while k >= res.lower and time.monotonic() < until:
                    try:
                        r = attempt(first, k, until, 0)
                    except SatTimeout:
                        break
                    if r is False:
                        res.lower = k + 1
                        break
                    assert res.upper is not None
                    k = res.upper - 1
            finally:
                done(first)
    finally:
        if portfolio is not None:
            portfolio.stop()
            portfolio.fold(res)
            stats.update({f"maxsat_{k}": v for k, v in portfolio.stats().items()})
        if prober is not None and prober is not search:
            prober.close()
        if search is not None:
            search.close()
            for key in ("sat_calls", "guesses", "path_cuts", "ground_cuts"):
                stats[f"exact_{key}"] = search.ans.stats.get(key, 0)
    # "cegar": raise the lower bound from below, a fresh small model per k.
    k = res.lower
    while (method == "cegar" and k < (res.upper if res.upper is not None else kmax + 1)
           and time.monotonic() < deadline):
        blocker = _TileBlocker(geo, tile, k)
        try:
            r = attempt(blocker, k, deadline, 4)
        except SatTimeout:
            break
        finally:
            done(blocker)
        if r is False:
            res.lower = k + 1
        k += 1  # on True the witness has exactly k placements (all fewer are UNSAT)
    if res.upper is not None and res.lower >= res.upper:
        res.lower = res.upper
        res.status = "proven"
    elif res.upper is None and res.lower > kmax:
        res.status = "proven"
    if res.status == "proven":
        stats["unsat_at"] = res.lower - 1
    res.stats = stats
    res.seconds = time.monotonic() - t0
    return res


def _greedy_run(base: Garden, edition: HedgeMageEdition, res: TileAudit, kmax: int, until: float) -> None:
    """The randomised greedy witness search until ``until``: a shorter witness, replayed, is kept."""
    seq = _greedy_witness(_Sim(base, edition), res.tile, kmax, random.Random(f"audit/{res.tile}"), until,
                          floor=res.lower)
    if seq is not None and (res.upper is None or len(seq) < res.upper):
        g = replay(base, edition, seq)
        if not legal_placements(g, edition.tiles[res.tile]).placements:
            _set_witness(res, seq, g)


#: the share of a tile's budget for the local search (``_local_run``), after the greedy search
LOCAL_SHARE = 0.1


def _local_run(base: Garden, edition: HedgeMageEdition, res: TileAudit, until: float,
               settled: Callable[[], bool] = lambda: False) -> None:
    """Shorter witnesses by ``_local_witness`` until ``until``, each replayed and checked before it is kept.

    k runs from the best witness less one (with none, ``max_before``) down to the proven lower
    bound, each k with all the time left (the easy levels take milliseconds); the first k that
    finds none ends the descent (fewer are harder).  A witness at the lower bound proves the
    value.
    """
    sim = _Sim(base, edition)
    rng = random.Random(f"local/{res.tile}")
    while not settled():
        k = res.max_before if res.upper is None else res.upper - 1
        now = time.monotonic()
        if k < res.lower or now >= until:
            return
        found = _local_witness(sim, res.tile, k, rng, until)
        if found is None:
            return
        _take_blocking(base, edition, res, found)


#: seconds a split question of a probe may take before the probe moves on to the next split: at least
#: this, or a twentieth of the tile's budget (T4's first question at k = 5 takes 1.4 s alone at load 2.5,
#: over 3 s beside the MaxSAT thread at load 4-5, where a 3 s limit made the probe miss it)
PROBE_QUESTION = 3.0


def _probe_run(prober: BlockingSearch, base: Garden, edition: HedgeMageEdition, res: TileAudit,
               until: float, seconds: float, settled: Callable[[], bool] = lambda: False) -> None:
    """Shorter witnesses by ``BlockingSearch.probe`` (count form) until ``until``.

    Below the best witness: first k = lower + 1 (a witness there leaves only the lower bound's
    own level to settle), then k = upper - 1, upper - 2, ... while each k finds one (a k that
    finds none in its time ends the descent: fewer are harder); with no witness yet, k rises
    from the lower bound.  Each k gets at most a tenth of the budget (10 s at least), each
    split question a twentieth (3 s at least).  Measured (count form, 3 s a split question): T4 a 5-placement
    blocking set in 1.4 s (the split search settles k = 4 first), L3 6 in 12 s, D2 8 in 1 s.
    """
    if res.upper is not None:
        prober.improve(res.sequence)
    prober.raise_lower(res.lower)
    failed: set[int] = set()
    while time.monotonic() < until and not settled():
        if res.upper is None:
            rising = [x for x in range(res.lower, res.max_before + 1) if x not in failed]
            if not rising:
                break
            k = rising[0]
        else:
            below = [x for x in range(res.lower, res.upper) if x not in failed]
            if not below:
                break
            k = res.lower + 1 if res.lower + 1 in below else below[-1]
        step_until = min(until, time.monotonic() + max(0.1 * seconds, 10.0))
        before = res.upper
        if prober.probe(k, step_until, max(PROBE_QUESTION, 0.05 * seconds)):
            ans = prober.ans
            if res.upper is None or (ans.upper is not None and ans.upper < res.upper):
                _take_blocking(base, edition, res, ans.placements)
            if res.upper == before:  # pragma: no cover - a found set is always shorter; never loop on it
                failed.add(k)
        else:
            failed.add(k)
            if res.upper is not None and k != res.lower + 1:
                failed.update(range(res.lower, k))  # fewer than a k that found none: harder still


def _first_split_share(seconds: float) -> float:
    """The share of a tile's budget the split search gets first: a tenth, but at least 8 s (at most 0.4).

    N5's value is proven by the split search in 2.5-4.5 s (MaxSAT stalls on it; measured
    4.5 s with the machine's load at 3.5), so a small budget (the CLI's 15 s a tile)
    must not cut it at 1.5 s.
    """
    return max(0.1, min(0.4, 8.0 / seconds)) if seconds > 0 else 0.1


class _MaxSatThread:
    """``blocking.maxsat_blocking`` in a thread until ``deadline``; when it settles the tile it cancels
    ``searches`` (the split search and prober in the audit's own thread).

    The answer is folded into the audit's result by ``fold``, in the audit's thread only.
    """

    def __init__(self, base: Garden, edition: HedgeMageEdition, tile: str, kmax: int, deadline: float,
                 searches: Sequence[BlockingSearch]) -> None:
        self.base, self.edition = base, edition
        self.cancel = threading.Event()
        self.answer: BlockingAnswer | None = None
        self.error: BaseException | None = None
        self._folded = False

        def work() -> None:
            try:
                ans = maxsat_blocking(base, edition, tile, kmax, deadline, cancel=self.cancel)
            except BaseException as exc:  # pragma: no cover - re-raised by fold in the audit's thread
                self.error = exc
                return
            self.answer = ans
            if ans.status == "proven":
                for sr in searches:
                    sr.cancel()

        self.thread = threading.Thread(target=work, name=f"maxsat-{tile}", daemon=True)
        self.thread.start()

    def fold(self, res: TileAudit) -> None:
        """Once MaxSAT has finished: its lower bound, and its blocking set replayed (never a longer one)."""
        if self.error is not None:  # pragma: no cover - a solver bug, never hidden
            raise self.error
        ans = self.answer
        if ans is None or self._folded:
            return
        self._folded = True
        res.lower = max(res.lower, ans.lower)
        if ans.status == "proven" and ans.upper is None:
            res.lower = res.max_before + 1
        if ans.upper is not None and (res.upper is None or ans.upper < res.upper):
            _take_blocking(self.base, self.edition, res, ans.placements)

    def stop(self) -> None:
        """Cancel MaxSAT (when still running) and wait for its thread."""
        self.cancel.set()
        self.thread.join()

    def stats(self) -> dict[str, int]:
        if self.answer is None:
            return {}
        return {"optima": int(self.answer.stats.get("maxsat_optima", 0)), "lower": self.answer.lower,
                "proven": int(self.answer.status == "proven")}


def _take_blocking(base: Garden, edition: HedgeMageEdition, res: TileAudit,
                   placements: Sequence[Placement], bad: type[Exception] = RuntimeError,
                   what: str = "blocking set") -> list[Placement]:
    """Keep a blocking set as ``res``'s witness: ordered by the order lemma and replayed first.

    Raises ``bad`` when it has split ground or leaves the tile a placement (from a solver: a bug,
    never hidden; ``audit_tile(known=)`` passes ValueError: the caller's set)."""
    seq = order_for_replay(base, placements)
    if seq is None:  # pragma: no cover - the models only answer connected gardens
        raise bad(f"{what} for {res.tile} has split ground")
    g = replay(base, edition, seq)
    if legal_placements(g, edition.tiles[res.tile]).placements:
        raise bad(f"{what} for {res.tile} leaves it a legal placement")
    _set_witness(res, seq, g)
    return seq


def _set_witness(res: TileAudit, seq: list[Placement], garden: Garden) -> None:
    """``seq`` (replayed: ``garden`` is where it ends) becomes ``res``'s witness and upper bound."""
    res.sequence, res.upper = seq, len(seq)
    res.garden = replace(garden, tile=res.tile, round=len(seq) + 1)


def _exact_run(search: BlockingSearch, base: Garden, edition: HedgeMageEdition, res: TileAudit,
               until: float) -> None:
    """Run the exact search until ``until``, after telling it the bounds in ``res``; take its bounds back.

    A blocking set it finds is ordered by the order lemma and replayed before it is kept.
    """
    if res.upper is not None:
        search.improve(res.sequence)
    search.raise_lower(res.lower)
    ans = search.run(until)
    res.lower = max(res.lower, ans.lower)
    if ans.upper is not None and (res.upper is None or ans.upper < res.upper):
        search.improve(_take_blocking(base, edition, res, ans.placements))


def _greedy_witness(sim: _Sim, tile: str, kmax: int, rng: random.Random, until: float,
                    sample: int = 24, runs: int = 40, floor: int = 1) -> list[Placement] | None:
    """Up to ``runs`` random greedy games: each step lays, of ``sample`` random legal placements of unused
    other tiles, one leaving ``tile`` the fewest legal placements.  The shortest sequence
    after which ``tile`` has none, or None; it stops early at one of ``floor`` placements
    (a proven lower bound: none can be shorter)."""
    best: list[Placement] | None = None
    others = [t for t in sim.edition.tiles if t != tile]
    for _run in range(runs):
        if time.monotonic() >= until:
            break
        hedge, used = sim.hedge0, set()
        seq: list[Placement] = []
        limit = kmax if best is None else len(best) - 1
        while sim.legal(tile, hedge) and len(seq) < limit and time.monotonic() < until:
            pool = [(t, i) for t in others if t not in used for i in sim.legal(t, hedge)]
            if not pool:
                break
            picks = pool if len(pool) <= sample else rng.sample(pool, sample)
            scored = [(len(sim.legal(tile, hedge | sim.masks[t][i])), rng.random(), t, i) for t, i in picks]
            _n, _r, t, i = min(scored)
            seq.append(sim.cands[t][i])
            used.add(t)
            hedge |= sim.masks[t][i]
        if not sim.legal(tile, hedge) and (best is None or len(seq) < len(best)):
            best = seq
        if best is not None and len(best) <= max(1, floor):
            break
    return best


def _local_witness(sim: _Sim, tile: str, k: int, rng: random.Random, until: float,
                   steps: int | None = None, stall: int = 3000) -> list[Placement] | None:
    """Local search for ``k`` placements of distinct other tiles after which ``tile`` has none.

    A state is a reachable garden of exactly ``k`` placements (as a set: pairwise disjoint,
    no all-hedge 2x2 window, connected ground; the order lemma makes it reachable); its cost
    is the number of the tile's cell sets still legal.  A move takes one placement out and
    lays another of an unused tile (or the same) instead, drawn near a cell set still legal
    (its 2-neighbourhood; one in five anywhere), accepted when the cost does not grow, else
    with the annealing probability exp(-growth / temperature).  ``stall`` moves without a
    better cost start again from a random garden.  Stops at cost 0 (the placements, in no
    particular order), at ``until`` (time.monotonic) or after ``steps`` moves: then None,
    which proves nothing.  Measured on the default edition (2026-12-04): witnesses of 6 for
    I3 in 0.5 s and for L4 in 0.3 s, where the split probes had 7 and 6.
    """
    bits = sim.bits
    others = [t for t in sim.edition.tiles if t != tile]
    k = min(k, len(others))
    first: dict[str, dict[int, int]] = {t: {} for t in others}  # tile -> cell mask -> a placement index
    for t in others:
        for i, m in enumerate(sim.masks[t]):
            first[t].setdefault(m, i)
    masks = {t: list(first[t]) for t in others}
    targets = sorted(set(sim.masks[tile]))
    fixed, hedge0 = sim.fixed_mask, sim.hedge0

    def legal_targets(hedge: int) -> list[int]:
        blocked = hedge | fixed
        return [q for q in targets if bits.legal(q, hedge, blocked)]

    def fits(hedge: int, m: int) -> bool:
        """m can join ``hedge`` (whose ground may be split where a placement was taken out)."""
        if m & (hedge | fixed):
            return False
        h2 = hedge | m
        return bits.no_square(h2) and bits.connected(bits.full & ~h2)

    def laid(state: dict[str, int]) -> list[Placement]:
        return [sim.cands[t][first[t][m]] for t, m in state.items()]

    moves = 0
    scanned: set[int] = set()
    while time.monotonic() < until and (steps is None or moves < steps):
        state: dict[str, int] = {}
        hedge = hedge0
        for _try in range(50 * k):
            if len(state) == k:
                break
            t = rng.choice([x for x in others if x not in state])
            m = rng.choice(masks[t]) if masks[t] else 0
            if m and fits(hedge, m):
                state[t] = m
                hedge |= m
        moves += 1
        if len(state) < k:
            continue
        live = legal_targets(hedge)
        temp, since = 2.0, 0
        best = len(live)
        while live and since < stall and (steps is None or moves < steps):
            moves += 1
            if moves % 64 == 0 and time.monotonic() >= until:
                return None
            out = rng.choice(list(state))
            rest = hedge & ~state[out]
            pool = [x for x in others if x not in state or x == out]
            q = rng.choice(live)
            near = bits.spread(bits.spread(q))
            for _draw in range(30):
                t = rng.choice(pool)
                if not masks[t]:
                    continue
                m = rng.choice(masks[t])
                if (m & near or rng.random() < 0.2) and fits(rest, m):
                    break
            else:
                since += 1
                continue
            live2 = legal_targets(rest | m)
            grow = len(live2) - len(live)
            if grow <= 0 or rng.random() < math.exp(-grow / temp):
                del state[out]
                state[t] = m
                hedge, live = rest | m, live2
            since = 0 if len(live) < best else since + 1
            best = min(best, len(live))
            temp = max(0.3, temp * 0.999)
            if len(live) == 1 and hedge not in scanned:
                # one cell set left: try every single exchange before moving on
                scanned.add(hedge)
                for out in list(state):
                    rest = hedge & ~state[out]
                    for t in [x for x in others if x not in state or x == out]:
                        for m in masks[t]:
                            if fits(rest, m) and not legal_targets(rest | m):
                                del state[out]
                                state[t] = m
                                return laid(state)
        if not live:
            return laid(state)
    return None


def _far_apart(g: Garden, legal: Sequence[Placement], n: int) -> list[Placement]:
    """Up to n legal placements, each far from the hedges and from those picked before."""
    marks = [c for c in g.hedge_cells]
    out: list[Placement] = []

    def dist(p: Placement) -> int:
        if not marks:
            return 0
        return min(abs(a - c) + abs(b - d) for (a, b) in p.cells for (c, d) in marks)

    pool = list(legal)
    while pool and len(out) < n:
        best = max(pool, key=dist)
        out.append(best)
        marks.extend(best.cells)
        pool = [p for p in pool if p.cells != best.cells]
    return out


def twins(base: Garden, edition: HedgeMageEdition) -> dict[str, str]:
    """Each tile's representative: the first tile (edition order) with the same placements' cells.

    Blocking looks at hedge cells only, so two tiles whose placements cover the
    same family of cell sets (I3/I3m, ...) ask the same question: blocking either
    uses the same families of the other tiles (the twin stands in for the tile
    asked about), so they have the same answer and a witness of one is one of the
    other with the twin's placement laid as the tile (``from_twin``).
    """
    taken = fixed_cells(base) | base.hedge_cells
    first: dict[frozenset[tuple[Cell, ...]], str] = {}
    out: dict[str, str] = {}
    for name, t in edition.tiles.items():
        fam = frozenset(c.placement.cells for c in candidates(base, t)
                        if not any(x in taken for x in c.placement.cells))
        out[name] = first.setdefault(fam, name)
    return out


def from_twin(base: Garden, edition: HedgeMageEdition, tile: str, twin: TileAudit) -> TileAudit:
    """``tile``'s answer from its twin's (``twins``): bounds kept, witness relabelled and replayed."""
    if twins(base, edition)[tile] != twins(base, edition)[twin.tile]:
        raise ValueError(f"{tile} and {twin.tile} are not twins")
    seq: list[Placement] = []
    for p in twin.sequence:
        if p.tile == tile:  # the tile asked about stands in for its twin
            p = next(c.placement for c in candidates(base, edition.tiles[twin.tile])
                     if c.placement.cells == p.cells)
        seq.append(p)
    res = replace(twin, tile=tile, sequence=[], garden=None, stats={**twin.stats, "from_twin": 1},
                  answered_with=twin.tile)
    if twin.upper is not None:
        order = order_for_replay(base, seq)
        if order is None:  # pragma: no cover - the twin's witness was replayed
            raise RuntimeError(f"witness for {tile} from {twin.tile} has split ground")
        g = replay(base, edition, order)
        if legal_placements(g, edition.tiles[tile]).placements:  # pragma: no cover - twins block alike
            raise RuntimeError(f"witness for {tile} from {twin.tile} leaves it a legal placement")
        res.sequence, res.garden = order, replace(g, tile=tile, round=len(order) + 1)
    return res


def _tile_task(base: Garden, edition: HedgeMageEdition, seconds: float, lower: Mapping[str, int], tile: str,
               method: str = "exact-count") -> TileAudit:
    """One task of ``audit_tiles`` (top level, so a worker process or Ray can run it)."""
    return audit_tile(base, edition, tile, seconds, method=method, lower=lower.get(tile, 1))


def _group_task(base: Garden, edition: HedgeMageEdition, method: str, lower: Mapping[str, int],
                job: tuple[str, float]) -> TileAudit:
    """One task of ``audit_tiles`` with twins shared: (tile, seconds of its whole group)."""
    return audit_tile(base, edition, job[0], job[1], method=method, lower=lower.get(job[0], 1))


@dataclass(frozen=True)
class _PoolJob:
    """One group of a pooled ``audit_tiles``: its tile, the run's end (time.time), the groups after it."""

    tile: str
    end: float
    after: int
    least: float
    jobs: int
    known: tuple[Placement, ...]
    lower: int = 1

    def seconds(self) -> float:
        """The time left, less ``least`` a group for the groups after it (each worker runs its share)."""
        reserve = self.least * math.ceil(self.after / self.jobs)
        return max(self.least, self.end - time.time() - reserve)


def _pool_task(base: Garden, edition: HedgeMageEdition, method: str, job: _PoolJob) -> TileAudit:
    """One task of a pooled ``audit_tiles``: its budget is reckoned when it starts."""
    return audit_tile(base, edition, job.tile, job.seconds(), method=method, known=job.known, lower=job.lower)


#: seconds of the quick witness search that orders the groups of a pooled ``audit_tiles``
POOL_ESTIMATE = 0.5


def pool_order(base: Garden, edition: HedgeMageEdition, reps: Sequence[str]
               ) -> list[tuple[str, list[Placement]]]:
    """The groups of a pooled audit in the order they are searched, each with its quick witness.

    A short greedy and local search (``POOL_ESTIMATE`` seconds a group) finds a blocking set;
    the groups with the shortest come first (then larger tiles, then edition order), since a
    tile that few placements block is the likeliest to be proven and to hand its unused time
    on.  Deterministic only up to the clock (the searches stop at a time, not a count).
    """
    kmax = max_before(edition)
    found: list[tuple[int, int, int, str, list[Placement]]] = []
    for i, tile in enumerate(reps):
        res = TileAudit(tile, "unknown", 1, None, kmax)
        if legal_placements(base, edition.tiles[tile]).placements:
            until = time.monotonic() + POOL_ESTIMATE
            _greedy_run(base, edition, res, kmax, until - POOL_ESTIMATE / 2)
            _local_run(base, edition, res, until)
        size = len(edition.tiles[tile].cells)
        found.append((kmax + 1 if res.upper is None else res.upper, -size, i, tile, res.sequence))
    return [(tile, seq) for _u, _s, _i, tile, seq in sorted(found)]


def audit_tiles(
    base: Garden,
    edition: HedgeMageEdition,
    tiles: Sequence[str] | None = None,
    seconds_per_tile: float = 60.0,
    progress: Callable[[Progress], None] | None = None,
    backend: Backend | None = None,
    method: str = "exact-count",
    share_twins: bool = False,
    total: float | None = None,
    lower: Mapping[str, int] | None = None,
) -> list[TileAudit]:
    """``audit_tile`` for each tile (all tiles of the edition by default), one task a tile on ``backend``.

    In the tiles' order.  BatchError when a task raised or the run was interrupted (its
    ``partial``: the tiles that finished).  ``share_twins``: tiles asking the same
    question (``twins``) are solved once, by the first of them, with the budget of
    them all, the others answered by ``from_twin`` (one task per group).

    ``total`` (seconds, wall clock, twins shared; ``seconds_per_tile`` is then unused): one
    budget for the whole run instead of one a tile.  The groups are searched in
    ``pool_order`` and each, when it starts, may use all the time left but a quarter of an
    even share (``total * jobs / groups / 4``) for each group after it on its worker: a tile
    proven early hands its time on to the later ones.  Measured (2026-12-04): T4's "not with 4"
    needs about 360 s of one tile's search, more than an even share of ten minutes on two jobs.

    ``lower``: lower bounds proven elsewhere, by tile (``audit_tile(lower=)``; the level-proof logs'
    ``level_proof.lower_bounds``, which gives twins the same bound).
    """
    names = list(tiles) if tiles is not None else list(edition.tiles)
    lower = dict(lower or {})
    if total is not None:
        return _audit_pooled(base, edition, names, total, progress, backend, method, lower)
    if not share_twins:
        batch = run_batch(partial(_tile_task, base, edition, seconds_per_tile, lower, method=method), names,
                          backend, progress)
        done = [a for _i, a in batch.items()]
        if not batch.complete:
            raise BatchError(batch, done)
        return done
    return _by_groups(base, edition, names, partial(_group_task, base, edition, method, lower),
                      lambda gs: [(g[0], seconds_per_tile * len(g)) for g in gs], backend, progress)


def _by_groups(base: Garden, edition: HedgeMageEdition, names: list[str], task: Callable[[Any], TileAudit],
               jobs_of: Callable[[list[list[str]]], list[Any]], backend: Backend | None,
               progress: Callable[[Progress], None] | None) -> list[TileAudit]:
    """Run ``task`` once per group of twins (``jobs_of`` makes the tasks' inputs from the groups, each
    group's searched tile first); the other tiles of a group answered by ``from_twin``, in ``names``' order."""
    rep = twins(base, edition)
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(rep[n], []).append(n)
    batch = run_batch(task, jobs_of(list(groups.values())), backend, progress)
    done = [a for _i, a in batch.items()]
    if not batch.complete:
        raise BatchError(batch, done)
    by_tile = {a.tile: a for a in done}
    return [by_tile[n] if n in by_tile else from_twin(base, edition, n, by_tile[groups[rep[n]][0]])
            for n in names]


def _audit_pooled(base: Garden, edition: HedgeMageEdition, names: list[str], total: float,
                  progress: Callable[[Progress], None] | None, backend: Backend | None,
                  method: str, lower: Mapping[str, int]) -> list[TileAudit]:
    """``audit_tiles`` with one budget for the run (see there)."""
    if total <= 0:
        raise ValueError(f"total must be positive, not {total}")
    end = time.time() + total
    jobs = (backend.jobs if backend is not None else 1) or 1

    def jobs_of(groups: list[list[str]]) -> list[_PoolJob]:
        order = pool_order(base, edition, [g[0] for g in groups])
        least = total * jobs / len(order) / 4
        return [_PoolJob(tile, end, len(order) - 1 - i, least, jobs, tuple(seq), lower.get(tile, 1))
                for i, (tile, seq) in enumerate(order)]

    return _by_groups(base, edition, names, partial(_pool_task, base, edition, method), jobs_of, backend,
                      progress)


# ---------------------------------------------------------------------------------------------
# (b) simulated games


class _Bits:
    """Bitboards for the simulation (same layout as ``models.hedge_mage.placement.Board``)."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, self.width = rows, cols, cols + 1
        full = 0
        for r in range(rows):
            full |= ((1 << cols) - 1) << (r * self.width)
        self.full = full

    def mask(self, cells: Iterable[Cell]) -> int:
        m = 0
        for r, c in cells:
            m |= 1 << (r * self.width + c)
        return m

    def spread(self, m: int) -> int:
        w = self.width
        return (m | (m << 1) | (m >> 1) | (m << w) | (m >> w)) & self.full

    def connected(self, ground: int) -> bool:
        """Whether the cells of ``ground`` form one orthogonally connected region (or none)."""
        if ground == 0:
            return True
        reach = ground & -ground
        while True:
            nxt = self.spread(reach) & ground
            if nxt == reach:
                return reach == ground
            reach = nxt

    def no_square(self, hedge: int) -> bool:
        w = self.width
        return (hedge & (hedge >> 1) & (hedge >> w) & (hedge >> (w + 1))) == 0

    def legal(self, pmask: int, hedge: int, blocked: int) -> bool:
        """Legality of a placement when the ground (full minus hedge) is connected."""
        if pmask & blocked:
            return False
        if not self.no_square(hedge | pmask):
            return False
        ground = self.full & ~(hedge | pmask)
        border = self.spread(pmask) & ground
        if border == 0:
            return True
        reach = border & -border
        while True:
            if reach & border == border:
                return True
            nxt = self.spread(reach) & ground
            if nxt == reach:
                return False
            reach = nxt


@dataclass
class PolicyStats:
    """Simulation results for one policy."""

    policy: str
    games: int = 0
    games_with_dead_round: int = 0
    dead_rounds: dict[int, int] = field(default_factory=dict)  # round -> games dead in it
    first_dead_round: dict[int, int] = field(default_factory=dict)
    substitutions: int = 0  # games where the 2x1 substitution avoided a dead round
    witness: dict[str, Any] | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "games": self.games,
            "games_with_dead_round": self.games_with_dead_round,
            "fraction": round(self.games_with_dead_round / self.games, 4) if self.games else 0.0,
            "dead_rounds": {str(k): v for k, v in sorted(self.dead_rounds.items())},
            "first_dead_round": {str(k): v for k, v in sorted(self.first_dead_round.items())},
            "substitutions_used": self.substitutions,
            "witness": self.witness,
            "seconds": round(self.seconds, 3),
        }


class _Sim:
    """Fast building-phase games from setup (bitboards, and bitsets over candidates for planning)."""

    def __init__(self, base: Garden, edition: HedgeMageEdition) -> None:
        self.base, self.edition = base, edition
        self.bits = b = _Bits(base.rows, base.cols)
        geo = _Geometry.of(base, edition)
        self.fixed_mask = b.mask(geo.fixed)
        self.hedge0 = b.mask(base.hedge_cells)
        self.cands = geo.cands
        self.masks = {t: [b.mask(p.cells) for p in ps] for t, ps in geo.cands.items()}
        # Top-left cells of the 2x2 windows.
        self.win_tl = b.mask((r, c) for r in range(base.rows - 1) for c in range(base.cols - 1))
        # Planning: every distinct cell set of every shape gets a bit j; covers[cell bit] is
        # the bitset of the cell sets that cover that cell; shape_bits[tile] the tile's bits.
        index: dict[tuple[Cell, ...], int] = {}
        self.shape_bits: dict[str, int] = {}
        for t, ps in geo.cands.items():
            m = 0
            for p in ps:
                j = index.setdefault(p.cells, len(index))
                m |= 1 << j
            self.shape_bits[t] = m
        self.covers: dict[int, int] = {}
        for cells, j in index.items():
            for c in cells:
                k = c[0] * b.width + c[1]
                self.covers[k] = self.covers.get(k, 0) | (1 << j)

    def legal(self, tile: str, hedge: int) -> list[int]:
        blocked = hedge | self.fixed_mask
        legal = self.bits.legal
        return [i for i, m in enumerate(self.masks[tile]) if legal(m, hedge, blocked)]

    def dead_cells(self, hedge: int) -> int:
        """Ground cells that would complete an all-hedge 2x2 window (3 of its cells are hedge)."""
        w = self.bits.width
        a, b, c, d = hedge, hedge >> 1, hedge >> w, hedge >> (w + 1)
        three = ((a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)) & self.win_tl
        cells = three | (three << 1) | (three << w) | (three << (w + 1))
        return cells & self.bits.full & ~hedge

    def room(self, hedge: int, coming: list[str]) -> float:
        """Lookahead score: sum over tiles still to come of log(1 + room left for the tile).

        "Room" counts the tile's placements that cover no hedge, setup piece or dead
        cell (``dead_cells``); it ignores connectivity and 2x2 windows made with the
        tile's own cells (a cheap proxy for its legal placements).
        """
        blocked = hedge | self.fixed_mask | self.dead_cells(hedge)
        hit = 0
        covers = self.covers
        while blocked:
            low = blocked & -blocked
            hit |= covers.get(low.bit_length() - 1, 0)
            blocked ^= low
        return sum(math.log1p((self.shape_bits[t] & ~hit).bit_count()) for t in coming)

    def play(self, deck: list[str], policy: str, rng: random.Random
             ) -> tuple[list[int], list[Placement | None], bool]:
        """One game: the dead rounds (1-based), the placements per round, substitution used?"""
        hedge = self.hedge0
        sub = self.edition.substitute
        held = set(self.edition.tiles)
        kept: str | None = None
        used_sub = False
        dead: list[int] = []
        laid: list[Placement | None] = []
        for rnd, card in enumerate(deck, start=1):
            tile = card if card in held else kept
            if tile is None or tile not in held:
                laid.append(None)
                dead.append(rnd)
                continue
            options = self.legal(tile, hedge)
            if not options and policy == "planning" and sub and not used_sub and sub in held and sub != tile:
                alt = self.legal(sub, hedge)
                if alt:
                    used_sub, kept, tile, options = True, tile, sub, alt
            if not options:
                laid.append(None)
                dead.append(rnd)
                continue
            if policy == "random":
                i = options[rng.randrange(len(options))]
            else:
                unrevealed = list(deck[rnd:]) + [t for t in self.edition.deck if t not in deck]
                coming: list[str] = []
                for t in unrevealed:  # cards removed unseen may still come, as far as we know
                    real = kept if (used_sub and t == sub) else t
                    if real is not None and real in held and real != tile and real not in coming:
                        coming.append(real)
                masks = self.masks[tile]
                scores = [self.room(hedge | masks[j], coming) for j in options]
                best = max(scores)
                ties = [options[j] for j in range(len(options)) if scores[j] >= best - 1e-9]
                i = ties[rng.randrange(len(ties))]
            laid.append(self.cands[tile][i])
            hedge |= self.masks[tile][i]
            held.discard(tile)
        return dead, laid, used_sub


def game_rngs(seed: int, game: int) -> tuple[random.Random, random.Random]:
    """The deck shuffle and the policy's choices of one game (the same deck for every policy)."""
    return random.Random(f"hedge-mage/audit/deck/{seed}/{game}"), random.Random(
        f"hedge-mage/audit/policy/{seed}/{game}")


def simulate(
    base: Garden,
    edition: HedgeMageEdition,
    games: int = 1000,
    seed: int = 0,
    policies: Sequence[str] = POLICIES,
    progress: Callable[[Progress], None] | None = None,
    backend: Backend | None = None,
) -> list[PolicyStats]:
    """Play ``games`` games per policy from setup; count rounds with no legal placement.

    Policies: "random" places the revealed tile at a uniformly random legal
    placement and never uses the 2x1 substitution.  "planning" picks the
    placement with the best lookahead score (``_Sim.plan_scores``; ties at
    random) and uses the 2x1 substitution only to avoid a dead round.  Game i
    uses the same deck under every policy.

    One task a game on ``backend``; game i's randomness comes from (seed, i) alone, so
    the figures do not depend on the backend.  BatchError when a task raised or the run
    was interrupted (its ``partial``: the figures over the games that finished).
    """
    for pol in policies:
        if pol not in POLICIES:
            raise UsageError(f"unknown policy {pol!r}; choose from {', '.join(POLICIES)}")
    if games < 0:
        raise UsageError("games must be 0 or more")
    jobs = [(pol, i) for pol in policies for i in range(games)]
    workers = 1 if backend is None else backend.jobs
    batch = run_batch(partial(_sim_game, base, edition, seed), jobs, backend, progress,
                      chunk=auto_chunk(len(jobs), workers))
    out = {pol: PolicyStats(pol) for pol in policies}
    for k, (dead, laid, used_sub, deck, secs) in batch.items():
        pol, i = jobs[k]
        st = out[pol]
        st.games += 1
        st.seconds += secs
        st.substitutions += int(used_sub)
        if dead:
            st.games_with_dead_round += 1
            for r in dead:
                st.dead_rounds[r] = st.dead_rounds.get(r, 0) + 1
            st.first_dead_round[dead[0]] = st.first_dead_round.get(dead[0], 0) + 1
            if st.witness is None:
                st.witness = _sim_witness(base, edition, seed, i, deck, laid, dead[0])
    stats = list(out.values())
    if not batch.complete:
        raise BatchError(batch, stats)
    return stats


_SIM_CACHE: list[Any] = []  # (base, edition, _Sim): the last simulator built in this process


def _sim_game(base: Garden, edition: HedgeMageEdition, seed: int, job: tuple[str, int]
              ) -> tuple[list[int], list[Placement | None], bool, list[str], float]:
    """One simulated game (a task): dead rounds, placements, substitution used, the deck, seconds.

    The simulator is built once per process and garden (a chunk of games shares it).
    """
    t0 = time.monotonic()
    if not _SIM_CACHE or _SIM_CACHE[0] is not base or _SIM_CACHE[1] is not edition:
        _SIM_CACHE[:] = [base, edition, _Sim(base, edition)]
    sim: _Sim = _SIM_CACHE[2]
    pol, i = job
    deck_rng, pol_rng = game_rngs(seed, i)
    deck = deal_deck(edition, deck_rng)
    dead, laid, used_sub = sim.play(deck, pol, pol_rng)
    return dead, laid if dead else [], used_sub, deck if dead else [], time.monotonic() - t0


def _sim_witness(base: Garden, edition: HedgeMageEdition, seed: int, game: int, deck: list[str],
                 laid: list[Placement | None], dead_round: int) -> dict[str, Any]:
    """The first dead game: its seed, deck, the round, and the garden then (replayed)."""
    seq = [p for p in laid[: dead_round - 1] if p is not None]
    g = replay(base, edition, seq)
    g = replace(g, tile=deck[dead_round - 1], round=dead_round)
    return {
        "seed": seed,
        "game": game,
        "round": dead_round,
        "deck": deck,
        "placements": [None if p is None else p.to_json() for p in laid[: dead_round - 1]],
        "garden": garden_to_json(g),
    }


# ---------------------------------------------------------------------------------------------
# (c) the most movement points of one placement, without bonus sigils


@dataclass
class PointsAudit:
    """The most movement points a single placement can earn (no bonus sigils)."""

    status: str  # "proven" or "unknown"
    best: int | None  # best witness's points
    upper: int  # proven upper bound
    trivial_upper: int
    sequence: list[Placement] = field(default_factory=list)
    garden: Garden | None = None  # the garden before the last placement
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        last = self.sequence[-1] if self.sequence else None
        return {
            "status": self.status,
            "value": self.best if self.status == "proven" else None,
            "best_found": self.best,
            "upper_bound": self.upper,
            "trivial_upper_bound": self.trivial_upper,
            "witness": None if self.garden is None else {
                "placements": [p.to_json() for p in self.sequence],
                "last": None if last is None else last.to_json(),
                "garden_before_last": garden_to_json(self.garden),
            },
            "seconds": round(self.seconds, 3),
            "stats": self.stats,
        }


def max_points(base: Garden, edition: HedgeMageEdition, seconds: float = 120.0) -> PointsAudit:
    """The most movement points one placement can earn in a reachable garden, with a witness.

    Points = distinct sigils in the rows and columns the new tile spans, its own
    included, so at most 1 + (tiles laid before) <= 1 + max_before: the trivial
    bound.  SAT asks for a garden of at most max_before + 1 placements, one of them
    marked last, with at least m sigils of the others in the last one's rows or
    columns; m goes down from the bound, so the first SAT answer is optimal.
    """
    t0 = time.monotonic()
    deadline = t0 + seconds
    kmax = max_before(edition)
    trivial = 1 + kmax
    geo = _Geometry.of(base, edition)
    pk = _Packing(geo, list(edition.tiles), kmax + 1)
    rows, cols = base.rows, base.cols
    last = [pk.new() for _ in pk.x]
    for lv, xv in zip(last, pk.x, strict=True):
        pk.add([-lv, xv])
    # exactly one last placement
    for c in _card_clauses(pk, last):
        pk.add(c)
    pk.add(list(last))
    row_l = {r: pk.new() for r in range(rows)}
    col_l = {c: pk.new() for c in range(cols)}
    span_r: dict[int, list[int]] = {r: [] for r in range(rows)}
    span_c: dict[int, list[int]] = {c: [] for c in range(cols)}
    sig_of: dict[Cell, list[int]] = {}
    last_sig: dict[Cell, list[int]] = {}
    for p, xv, lv in zip(pk.placements, pk.x, last, strict=True):
        for r in {c[0] for c in p.cells}:
            span_r[r].append(lv)
        for q in {c[1] for c in p.cells}:
            span_c[q].append(lv)
        sig_of.setdefault(p.sigil, []).append(xv)
        last_sig.setdefault(p.sigil, []).append(lv)
    for r, v in row_l.items():
        pk.add([-v] + span_r[r])
    for q, v in col_l.items():
        pk.add([-v] + span_c[q])
    counted = []
    for cell, xs in sorted(sig_of.items()):
        u = pk.new()
        pk.add([-u] + xs)  # a sigil lies here
        pk.add([-u, row_l[cell[0]], col_l[cell[1]]])  # in a row or column of the last tile
        for lv in last_sig[cell]:
            pk.add([-u, -lv])  # not the last tile's own sigil
        counted.append(u)
    negs = [-u for u in counted]
    tot = ITotalizer(lits=negs, ubound=len(negs), top_id=pk.top)
    pk.top = max(pk.top, tot.top_id)
    for c in tot.cnf.clauses:
        pk.add(c)

    def at_least(m: int) -> list[int]:  # sum(u) >= m  <=>  sum(not u) <= n - m
        n = len(negs)
        if m <= 0:
            return []
        if n - m < 0:
            return [counted[0], -counted[0]] if counted else []
        return [-tot.rhs[n - m]] if n - m < len(tot.rhs) else []

    res = PointsAudit("unknown", None, trivial, trivial)
    iters = 0
    lasti = {v: i for i, v in enumerate(last)}
    try:
        target = trivial
        while target >= 1:
            try:
                ok = pk.sat.solve(pk.at_most(kmax + 1) + at_least(target - 1), deadline)
            except SatTimeout:  # unknown: the bounds so far stand
                break
            if not ok:
                res.upper = target - 1
                target -= 1
                continue
            iters += 1
            model = pk.solver.get_model() or []
            chosen = pk.chosen()
            if not pk.cut(chosen):
                continue
            lp = next(pk.placements[lasti[v]] for v in model if v > 0 and v in lasti)
            seq = order_for_replay(base, chosen, last=lp)
            if seq is None:  # the last tile touches no ground: it cannot have been laid last
                border = {n for c in lp.cells for n in orthogonal_neighbours(c, rows, cols)} - set(lp.cells)
                pk.add([-last[pk.placements.index(lp)]] + [-pk.h[b] for b in border if b in pk.h])
                pk.cuts += 1
                continue
            before = replay(base, edition, seq[:-1])
            rep = check_placement(before, edition, seq[-1], check_tile_choice=False)
            if not rep.legal:  # pragma: no cover - replay would have raised
                raise RuntimeError("max-points witness: last placement illegal")
            pts, _ = movement_points(before, seq[-1])
            if res.best is None or pts > res.best:
                res.best, res.sequence, res.garden = pts, seq, before
            if pts >= target:
                break
            target = pts + 1  # pragma: no cover - the model promises >= target
        if res.best is not None and res.best >= res.upper:
            res.upper = res.best
            res.status = "proven"
        elif res.upper == 0:
            res.status = "proven"
    finally:
        res.stats = {"guesses": iters, "cuts": pk.cuts, "variables": pk.top}
        tot.delete()
        pk.close()
    res.seconds = time.monotonic() - t0
    return res


def _card_clauses(pk: _Packing, lits: list[int]) -> list[list[int]]:
    """At most one of ``lits`` (sequential encoding, fresh variables from ``pk``)."""
    out: list[list[int]] = []
    prev = 0
    for i, v in enumerate(lits):
        if i == len(lits) - 1:
            if prev:
                out.append([-v, -prev])
            break
        s = pk.new()
        out.append([-v, s])
        if prev:
            out.append([-prev, s])
            out.append([-v, -prev])
        prev = s
    return out


# ---------------------------------------------------------------------------------------------
# Brute force (tests and tiny editions): the second exact method


def brute_force_fewest(base: Garden, edition: HedgeMageEdition, tile: str, kmax: int) -> int | None:
    """Fewest placements before ``tile`` leaving it no legal placement, by DFS over real sequences.

    Walks every legal sequence of distinct other tiles (each step enumerated with
    ``legal_placements``), deduplicating gardens by their hedge cells and used tiles.
    Exponential: tiny gardens only.
    """
    tobj = edition.tiles[tile]
    others = [t for t in edition.tiles if t != tile]
    frontier: dict[tuple[frozenset[Cell], frozenset[str]], Garden] = {(frozenset(), frozenset()): base}
    for k in range(kmax + 1):
        for g in frontier.values():
            if not legal_placements(g, tobj).placements:
                return k
        if k == kmax:
            break
        nxt: dict[tuple[frozenset[Cell], frozenset[str]], Garden] = {}
        for (cells, used), g in frontier.items():
            for t in others:
                if t in used:
                    continue
                for p in legal_placements(g, edition.tiles[t]).placements:
                    key = (cells | frozenset(p.cells), used | {t})
                    if key not in nxt:
                        nxt[key] = apply_placement(g, edition, p)
        frontier = nxt
    return None


def brute_force_max_points(base: Garden, edition: HedgeMageEdition, kmax: int) -> int:
    """The most movement points of one placement over all reachable gardens, by DFS (tiny only)."""
    best = 0
    frontier: dict[tuple[frozenset[tuple[Cell, ...]], frozenset[str]], Garden] = {
        (frozenset(), frozenset()): base}
    for k in range(kmax + 1):
        nxt: dict[tuple[frozenset[tuple[Cell, ...]], frozenset[str]], Garden] = {}
        for (laid, used), g in frontier.items():
            for t in edition.tiles:
                if t in used:
                    continue
                en = legal_placements(g, edition.tiles[t])
                if en.points:
                    best = max(best, max(en.points))
                if k == kmax:
                    continue
                for p in en.placements:
                    key = (laid | {(p.sigil,) + p.cells}, used | {t})
                    if key not in nxt:
                        nxt[key] = apply_placement(g, edition, p)
        frontier = nxt
    return best
