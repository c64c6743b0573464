"""Small PySAT helpers shared by the game solvers.

``SatModel`` wraps one incremental ``pysat`` solver and an ``IDPool`` so that
variables have readable names (``model.var(("hedge", r, c))``) and can be read
back from a model.  Around it: constant-aware clause helpers (a "literal" may be
the Python constants ``True``/``False``, checked with ``type(x) is bool``),
cardinality constraints through ``pysat.card`` sharing the pool, solving with a
deadline (``None`` = timed out, never folded into "no"), activation literals
for clauses that must be retracted later, core minimisation, and two ways to
demand that the "ground" (the cells that are not hedge) of a graph stays
connected: lazy cuts from a BFS of a candidate model, or an eager layered
reachability encoding.

Names here are used by several solvers (Hedge Mage placements and audit); keep
them stable: ``SatModel`` (var, fresh, name_of, add, add_all, implies, define_or,
define_and, at_least_one, at_most_one, exactly_one, at_most_k, at_least_k,
exactly_k, activated, retire, solve, value, model, core, close), ``SatTimeout``,
``minimise_core``, ``components``, ``add_connectivity_cuts``,
``add_eager_connectivity``, ``grid_nodes``, ``grid_neighbours``, ``GridMask``,
``negate``, ``is_const``, ``DEFAULT_SOLVER``, ``LitOrConst``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

DEFAULT_SOLVER = "g4"  # Glucose 4: fast on small incremental problems, supports cores and interrupts

Lit = int
#: A literal, or a constant: ``True`` (always holds) / ``False`` (never holds).
LitOrConst = int | bool

N = TypeVar("N", bound=Hashable)


def is_const(x: LitOrConst) -> bool:
    """True when ``x`` is one of the constants ``True``/``False`` (not a literal)."""
    return type(x) is bool


def negate(x: LitOrConst) -> LitOrConst:
    """The negation of a literal or constant."""
    if type(x) is bool:
        return not x
    return -x


class SatTimeout(Exception):
    """A solve call ran out of its time budget (the answer is unknown, not "no")."""


def clause_literals(clause: Iterable[LitOrConst]) -> list[int] | None:
    """A clause's literals with its constants folded: ``None`` when a ``True`` member satisfies it."""
    out: list[int] = []
    for x in clause:
        if type(x) is bool:
            if x:
                return None
            continue
        out.append(int(x))
    return out


class SatModel:
    """One incremental SAT solver with named variables and bookkeeping.

    Use as a context manager (or call ``close``).  ``stats`` counts solve calls,
    clauses added and time spent inside the solver.
    """

    def __init__(self, solver: str = DEFAULT_SOLVER) -> None:
        self.pool = IDPool()
        self.solver = Solver(name=solver)
        self.name = solver
        self.unsat_forever = False  # an empty clause was added
        self.cancelled = False  # set by ``cancel`` (from another thread): every solve times out
        self.stats: dict[str, float] = {"solves": 0, "clauses": 0, "solve_seconds": 0.0}
        self._model: list[int] | None = None
        self._core: list[int] = []

    # -- variables ----------------------------------------------------------------------------
    def var(self, key: Hashable) -> int:
        """The variable named ``key`` (created on first use)."""
        return self.pool.id(key)

    def fresh(self) -> int:
        """A new anonymous variable (activation literals, auxiliaries)."""
        return self.pool.id()

    def name_of(self, v: int) -> Hashable | None:
        """The key a variable was created with (None for anonymous ones)."""
        return self.pool.obj(abs(v))

    # -- clauses ------------------------------------------------------------------------------
    def add(self, clause: Iterable[LitOrConst]) -> None:
        """Add a clause; ``True`` members satisfy it, ``False`` members are dropped."""
        out = clause_literals(clause)
        if out is None:
            return
        if not out:
            self.unsat_forever = True
            v = self.fresh()  # keep the solver itself unsatisfiable too
            self.solver.add_clause([v])
            self.solver.add_clause([-v])
            return
        self.solver.add_clause(out)
        self.stats["clauses"] += 1

    def add_all(self, clauses: Iterable[Iterable[LitOrConst]]) -> None:
        for c in clauses:
            self.add(c)

    def implies(self, a: LitOrConst, clause: Iterable[LitOrConst]) -> None:
        """``a -> OR(clause)``."""
        self.add([negate(a), *clause])

    def define_or(self, out: int, lits: Sequence[LitOrConst]) -> None:
        """``out <-> OR(lits)`` (an empty OR is false)."""
        for x in lits:
            self.add([negate(x), out])
        self.add([-out, *lits])

    def define_and(self, out: int, lits: Sequence[LitOrConst]) -> None:
        """``out <-> AND(lits)`` (an empty AND is true)."""
        for x in lits:
            self.add([-out, x])
        self.add([out, *(negate(x) for x in lits)])

    def at_least_one(self, lits: Sequence[LitOrConst], guard: LitOrConst | None = None) -> None:
        """At least one of ``lits`` (only when ``guard`` holds, if given)."""
        self.add(([negate(guard)] if guard is not None else []) + list(lits))

    def at_most_one(self, lits: Sequence[int]) -> None:
        """At most one of ``lits`` (pairwise up to 6 literals, bitwise above: log n auxiliaries)."""
        self.at_most_k(lits, 1)

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.at_least_one(lits)
        self.at_most_one(lits)

    def at_most_k(self, lits: Sequence[int], k: int) -> None:
        """At most ``k`` of ``lits`` true (pysat.card, auxiliaries from the shared pool)."""
        if k >= len(lits):
            return
        if k < 0:
            self.add([])
            return
        if k == 1:
            enc = EncType.pairwise if len(lits) <= 6 else EncType.bitwise
        else:
            enc = EncType.seqcounter
        self.add_all(CardEnc.atmost(list(lits), bound=k, vpool=self.pool, encoding=enc).clauses)

    def at_least_k(self, lits: Sequence[int], k: int) -> None:
        """At least ``k`` of ``lits`` true (pysat.card)."""
        if k <= 0:
            return
        if k > len(lits):
            self.add([])
            return
        self.add_all(CardEnc.atleast(list(lits), bound=k, vpool=self.pool, encoding=EncType.seqcounter).clauses)

    def exactly_k(self, lits: Sequence[int], k: int) -> None:
        self.at_most_k(lits, k)
        self.at_least_k(lits, k)

    def activated(self, clause: Iterable[LitOrConst]) -> int:
        """Add ``clause`` guarded by a new activation literal and return it.

        The clause only holds while the literal is assumed; ``retire(act)``
        switches it off for good.
        """
        act = self.fresh()
        self.add([-act, *clause])
        return act

    def retire(self, act: int) -> None:
        """Switch off the clauses guarded by an activation literal, permanently."""
        self.solver.add_clause([-act])

    # -- solving ------------------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop the running solve and every later one (``SatTimeout``), e.g. from another thread whose
        answer made this search moot.  Only a call with a deadline can be interrupted."""
        self.cancelled = True
        self.solver.interrupt()

    def solve(self, assumptions: Sequence[int] = (), deadline: float | None = None) -> bool:
        """Solve under assumptions; raise ``SatTimeout`` if ``deadline`` (time.monotonic) passes
        or the model was cancelled."""
        t0 = time.perf_counter()
        self.stats["solves"] += 1
        if self.cancelled:
            raise SatTimeout()
        try:
            if deadline is None:
                ok = self.solver.solve(assumptions=list(assumptions))
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SatTimeout()
                timer = threading.Timer(left, self.solver.interrupt)
                timer.start()
                try:
                    res = self.solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
                finally:
                    timer.cancel()
                    self.solver.clear_interrupt()
                if res is None or self.cancelled:
                    raise SatTimeout()
                ok = bool(res)
        finally:
            self.stats["solve_seconds"] += time.perf_counter() - t0
        if ok:
            self._model = self.solver.get_model()
            self._core = []
        else:
            self._model = None
            core = self.solver.get_core()
            self._core = list(core) if core else []
        return bool(ok)

    @property
    def model(self) -> list[int]:
        """The last model (a list indexed by ``var - 1``)."""
        if self._model is None:
            raise RuntimeError("no model: the last solve was not satisfiable")
        return self._model

    def value(self, x: LitOrConst) -> bool:
        """Truth of a literal or constant in the last model."""
        if type(x) is bool:
            return x
        v = int(x)
        m = self.model
        i = abs(v) - 1
        if i >= len(m):
            return False  # a variable the solver never saw is unconstrained: read as false
        return (m[i] > 0) == (v > 0)

    def core(self) -> list[int]:
        """The assumptions that the last unsatisfiable solve needed (pysat's ``get_core``)."""
        return list(self._core)

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> SatModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def minimise_core(core: Sequence[int], is_unsat: Callable[[list[int]], list[int] | None]) -> list[int]:
    """Shrink an unsatisfiable set of assumptions to an irreducible one (deletion-based).

    ``is_unsat(lits)`` must answer a *monotone* question (more assumptions, fewer
    solutions) and return a core (a subset of ``lits``) when unsatisfiable, None
    when satisfiable.  The result keeps the input order and is unsatisfiable
    while dropping any one member makes it satisfiable.  Cost: at most
    ``len(core)`` calls.
    """
    cur = list(core)
    i = 0
    while i < len(cur):
        trial = cur[:i] + cur[i + 1:]
        sub = is_unsat(trial)
        if sub is None:
            i += 1  # cur[i] is needed
        else:
            keep = set(sub)
            cur = [x for x in trial if x in keep]  # members before i are needed, so they stay
    return cur


# ---------------------------------------------------------------------------------------------
# Connectivity of the ground over a graph whose nodes may be hedge (blocked) or ground


def grid_nodes(rows: int, cols: int) -> list[tuple[int, int]]:
    """The cells of a rows x cols grid, row-major."""
    return [(r, c) for r in range(rows) for c in range(cols)]


def grid_neighbours(rows: int, cols: int) -> Callable[[tuple[int, int]], list[tuple[int, int]]]:
    """Orthogonal neighbours on a rows x cols grid, as a function of a cell."""
    table: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r in range(rows):
        for c in range(cols):
            table[(r, c)] = [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                             if 0 <= r + dr < rows and 0 <= c + dc < cols]
    return table.__getitem__


class GridMask:
    """Cell sets of a rows x cols grid as Python ints, for a quick "is the ground connected?".

    Bit ``r * (cols + 1) + c`` is cell (r, c); the padding column stays empty so
    shifting by one never wraps a row.  ``connected`` floods in O(diameter) big-int steps.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, self.width = rows, cols, cols + 1
        self.full = 0
        for r in range(rows):
            self.full |= ((1 << cols) - 1) << (r * self.width)

    def mask(self, cells: Iterable[tuple[int, int]]) -> int:
        m = 0
        for r, c in cells:
            m |= 1 << (r * self.width + c)
        return m

    def connected(self, ground: int) -> bool:
        """Are the cells of ``ground`` one orthogonally connected region (empty counts)?"""
        if ground == 0:
            return True
        w, full = self.width, self.full
        reach = ground & -ground
        while True:
            nxt = (reach | (reach << 1) | (reach >> 1) | (reach << w) | (reach >> w)) & full & ground
            if nxt == reach:
                return reach == ground
            reach = nxt


def components(nodes: Iterable[N], neighbours: Callable[[N], Iterable[N]],
               is_ground: Callable[[N], bool]) -> list[list[N]]:
    """Connected regions of the ground nodes, in order of their first node.  O(V + E)."""
    seen: set[N] = set()
    out: list[list[N]] = []
    for start in nodes:
        if start in seen or not is_ground(start):
            continue
        comp = [start]
        seen.add(start)
        stack = [start]
        while stack:
            cur = stack.pop()
            for n in neighbours(cur):
                if n not in seen and is_ground(n):
                    seen.add(n)
                    comp.append(n)
                    stack.append(n)
        out.append(comp)
    return out


def add_connectivity_cuts(
    model: SatModel,
    nodes: Sequence[N],
    neighbours: Callable[[N], Iterable[N]],
    hedge: Callable[[N], LitOrConst],
    is_hedge_now: Callable[[N], bool],
    guard: int | None = None,
) -> list[list[N]]:
    """Lazy connectivity: if the current model's ground is split, add a cut per region.

    ``hedge(n)`` is the literal "n is hedge" (``True`` fixed hedge, ``False``
    never hedge); ``is_hedge_now`` reads the current model.  For a region C of
    the current ground, let B be its non-fixed boundary (all hedge now) and O
    the non-fixed nodes outside C and B.  Every path from C to O crosses B, so
    in any connected solution, if all of B stays hedge then C or O has no
    ground: ``-g v -aC v -aO v OR(-h(b) for b in B)`` with ``aC`` implied by any
    ground node of C and ``aO`` by any of O.  The cut never excludes a
    connected solution and always excludes the current one.  Returns the
    regions found (one or none: nothing was added).  O(V + E) plus the clauses.
    """
    comps = components(nodes, neighbours, lambda n: not is_hedge_now(n))
    if len(comps) <= 1:
        return comps
    for comp in comps:
        inside = set(comp)
        boundary: set[N] = set()
        for x in comp:
            for n in neighbours(x):
                if n not in inside:
                    boundary.add(n)
        blits = [hedge(b) for b in boundary]
        clause: list[LitOrConst] = [] if guard is None else [-guard]
        clause += [negate(b) for b in blits]
        outside = [n for n in nodes if n not in inside and n not in boundary and hedge(n) is not True]
        for part in (comp, outside):
            lits = [hedge(n) for n in part]
            if any(h is False for h in lits):
                clause.append(False)  # some node of the part is always ground: aX is true
                continue
            a = model.fresh()
            for h in lits:
                model.add([h, a])  # ground(node) -> a
            clause.append(-a)
        model.add(clause)
    return comps


def add_eager_connectivity(
    model: SatModel,
    nodes: Sequence[N],
    neighbours: Callable[[N], Iterable[N]],
    hedge: Callable[[N], LitOrConst],
    tag: Hashable,
    guard: int | None = None,
) -> None:
    """Eager connectivity: layered reachability from a root, encoded up front.

    ``reach(k, n)`` means "n is ground and within k steps of the root through
    ground".  The root is a node that is never hedge when there is one (then
    ``reach(k, n)`` only exists for k at least n's distance in the largest
    possible ground), otherwise the first ground node in ``nodes`` order.
    Every ground node must be reached within K = (possible ground nodes - 1)
    layers.  Only the sound direction of ``reach`` is encoded, so the clauses
    hold in exactly the connected solutions.  Size O(V * K * degree).
    """
    g: list[LitOrConst] = [] if guard is None else [-guard]
    free = [n for n in nodes if hedge(n) is not True]
    if not free:
        return
    K = len(free) - 1
    free_set = set(free)
    fixed_ground = [n for n in free if hedge(n) is False]
    reach: dict[tuple[int, N], int] = {}

    def rv(k: int, n: N) -> LitOrConst:
        return reach.get((k, n), False)

    if fixed_ground:
        root = fixed_ground[0]
        dist = {root: 0}
        queue = [root]
        for cur in queue:
            for n in neighbours(cur):
                if n in free_set and n not in dist:
                    dist[n] = dist[cur] + 1
                    queue.append(n)
        for n in free:
            if n not in dist:
                model.add(g + [hedge(n)])  # no ground path can ever reach it
        for k in range(1, K + 1):
            for n, d in dist.items():
                if d <= k and n != root:
                    reach[(k, n)] = model.var((tag, "reach", k, n))
        for k in range(1, K + 1):
            for n, d in dist.items():
                if n == root or d > k:
                    continue
                v = reach[(k, n)]
                model.add([-v, negate(hedge(n))])
                prev: list[LitOrConst] = [rv(k - 1, n)] if k > 1 else []
                for m in neighbours(n):
                    if m == root:
                        prev.append(True)
                    elif m in dist:
                        prev.append(rv(k - 1, m) if k > 1 else False)
                model.add([-v, *prev])
        for n in dist:
            if n != root:
                model.add(g + [hedge(n), reach[(K, n)]])
        return

    # No node is always ground: the root is the first ground node in ``nodes`` order.
    allh: list[LitOrConst] = [True]  # allh[i]: free[0..i-1] are all hedge
    for i, n in enumerate(free[:-1]):
        a = model.var((tag, "allhedge", i + 1))
        model.add([-a, allh[i]])
        model.add([-a, hedge(n)])
        allh.append(a)
    for k in range(K + 1):
        for n in free:
            reach[(k, n)] = model.var((tag, "reach", k, n))
    for i, n in enumerate(free):
        v0 = reach[(0, n)]
        model.add([-v0, negate(hedge(n))])
        model.add([-v0, allh[i]])
    for k in range(1, K + 1):
        for n in free:
            v = reach[(k, n)]
            model.add([-v, negate(hedge(n))])
            prev = [reach[(k - 1, n)]] + [reach[(k - 1, m)] for m in neighbours(n) if m in free_set]
            model.add([-v, *prev])
    for n in free:
        model.add(g + [hedge(n), reach[(K, n)]])
