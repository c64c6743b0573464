"""The forced-win alpha-beta of ``fast.FastSearcher``, compiled with numba: same search, same nodes.

Why: the opening questions (issue 16) need millions of nodes; the pure-Python searches run at
thousands to tens of thousands of nodes a second.  This module runs exactly the search of
:class:`~gnomekit.solver.gnomes_at_midnight.fast.FastSearcher` (same move generation order, same
immediate-win test, same move ordering with its history table, same transposition table entries
keyed by the same symmetry classes, same iterative deepening), so answers and node counts are
identical (the tests compare them), only faster.

Design: the rules tables (neighbours, terrain, flowers, toadstools, dance placements, symmetry
lookups, every reachable deck state's flips) come from a :class:`FastEngine` as numpy arrays; the
search is one compiled loop over an explicit stack (a frame per ply: state, depth, ordered moves,
the move and flip being tried), with the transposition table in preallocated numpy arrays (open
addressing, full keys stored, so no entry is ever confused or dropped: the table doubles when half
full).  The loop stops every slice of nodes so that Python can check the clock and grow the table,
then resumes where it stopped; a node budget and a deadline make the answer "unknown"
(:class:`BudgetExhausted`, as ``Meter.tick`` raises), never "no".

numba is optional (the ``fast`` extra): :func:`available` says whether it can be used, and
:func:`searcher` picks this engine or ``FastSearcher`` and says which (``engine_name``), never
silently.  The kernel is ``jit_kernel.py``, imported on first use, so importing this module never
imports numba.  Compiled code is cached on disk (``cache=True``), so a machine compiles once
(measured: about 4.5 s of CPU, then 0.4 s to load the cache in each new process).

A time budget is looked at between slices (2**14 nodes, some milliseconds), not every 256 nodes as
``Meter.tick`` does: a search may finish with a proven answer a few milliseconds past its deadline.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import numpy as np
from gnomekit.models.core.errors import UsageError
from gnomekit.solver.core.budget import BudgetExhausted, Meter
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher, FState

MAX_SQUARES = 62  # masks are int64 (no sign bit used)
TABLE_BYTES = 4 << 30  # the table doubles while it stays within this, then replaces entries (or stops)
SLICE = 1 << 14  # nodes between returns to Python (clock checks, table growth): 10-30 ms
_kernel_module: Any = None
_tried = False
_error: str | None = None


def _kernel() -> Any:
    """The compiled kernel module (importing numba on first use), or None without numba."""
    global _kernel_module, _tried, _error
    if not _tried:
        _tried = True
        try:
            from gnomekit.solver.gnomes_at_midnight import jit_kernel
        except ImportError as exc:  # the optional extra is not installed
            _error = f"numba is not importable ({exc}); install gnomekit[fast]"
        else:
            _kernel_module = jit_kernel
    return _kernel_module


def available() -> bool:
    """True when numba can be imported (the compiled search can run)."""
    return _kernel() is not None


def unavailable_reason() -> str | None:
    """Why the compiled search cannot run (``None`` when it can)."""
    _kernel()
    return _error


def numba_version() -> str | None:
    """The numba version in use (``None`` without numba)."""
    if not available():
        return None
    import numba

    return str(numba.__version__)


def fits(engine: FastEngine) -> bool:
    """Does the board fit the compiled engine's 62-bit masks?"""
    return engine.n <= MAX_SQUARES


@cache
def _sym_chunks(perm: tuple[int, ...], n: int) -> np.ndarray:
    """For each 8-bit chunk of an n-bit mask, the image of every chunk value under ``perm``."""
    nch = (n + 7) // 8
    tab = np.zeros((nch, 256), dtype=np.int64)
    for c in range(nch):
        for v in range(1, 256):
            low = v & -v
            b = 8 * c + low.bit_length() - 1
            tab[c, v] = tab[c, v ^ low] | (1 << perm[b] if b < n else 0)
    return tab


class JitSearcher:
    """``FastSearcher``'s search compiled with numba, over the same :class:`FastEngine`.

    Same interface for what the callers use: ``win``, ``loses``, ``shortest``, ``nodes``, ``meter``
    (a shared budget: its count goes up by the nodes visited; :class:`BudgetExhausted` when it runs
    out, as ``Meter.tick`` raises), and ``tt_entries`` (``len(win_tt) + len(lose_tt)``).  One more
    bound FastSearcher does not have: the table doubles only while it stays within
    ``max_table_bytes`` (default 4 GiB: 2**26 slots of 40 bytes on the default board, 2.7 GB).
    At that size, with ``replace`` (the default), new entries fill the table's empty half and then
    go over the shallowest entry of the 16 slots where a key may sit: the search goes on with the
    same answers (an entry is only ever a proven bound; a dropped one is searched again), at the
    cost of more nodes.  Without ``replace`` a search that needs more table raises
    :class:`BudgetExhausted` (unknown, never "no").  Until the table is full both visit exactly
    FastSearcher's nodes (with ``threats``, those of ``FastSearcher(threats=True)``)."""

    engine_name = "numba"

    def __init__(self, engine: FastEngine, tt: bool = True, ordering: bool = True,
                 meter: Meter | None = None, table_slots: int = 1 << 12,
                 max_table_bytes: int = TABLE_BYTES, replace: bool = True, threats: bool = False) -> None:
        k = _kernel()
        if k is None:
            raise RuntimeError(_error or "numba is not available")
        self._k = k
        if not fits(engine):
            raise ValueError(f"the compiled engine holds boards of up to {MAX_SQUARES} squares, not {engine.n}")
        self.engine = e = engine
        self.tt = tt
        self.ordering = ordering
        self.threats = threats
        self.meter = meter
        self.max_table_bytes = max_table_bytes
        self.replace = replace
        self.nodes = 0
        n = e.n
        syms = [_sym_chunks(perm, n) for perm in e.syms[1:]]
        nch = (n + 7) // 8
        self._symtab = np.stack(syms) if syms else np.zeros((0, nch, 256), dtype=np.int64)
        self._kw = (4 * n + 53 + 63) // 64
        self._E = np.array([n, e.full_mask, e.toad_mask, e.limit, int(e.restrict), e.flower_mask[0],
                            e.flower_mask[1], len(syms), nch, self._kw], dtype=np.int64)
        self._nbr = np.array(e.nbr, dtype=np.int64)
        self._terr = np.array(e.terr_mask, dtype=np.int64)
        self._pl = np.array(e.placements, dtype=np.int64)
        by_sq: list[list[int]] = [[pm for pm in e.placements if pm >> j & 1] for j in range(n)]
        self._plsq0 = np.cumsum([0] + [len(v) for v in by_sq]).astype(np.int64)
        self._plsq = np.array([pm for v in by_sq for pm in v] or [0], dtype=np.int64)
        deg = sum(bin(x).count("1") for x in e.nbr)
        self._maxm = 2 * deg + n + 4
        self._tmp = np.zeros(self._maxm, dtype=np.int64)
        self._score = np.zeros(self._maxm, dtype=np.int64)
        self._hist = np.zeros(1 << 16, dtype=np.int64)
        slots = 1 << max(6, (table_slots - 1).bit_length())
        self._tkeys, self._tv = self._table(slots)
        self._ctx = np.zeros(k.CTX_FIELDS, dtype=np.int64)
        self._ctx[k.TT] = int(tt)
        self._ctx[k.ORDER] = int(ordering)
        self._ctx[k.THREATS] = int(threats)
        self._sa = np.zeros(11, dtype=np.int64)
        self._buf = np.zeros(self._maxm, dtype=np.int64)
        self._decks_done: set[tuple[int, int]] = set()
        self._flip_n = np.zeros((0, 2), dtype=np.int64)
        self._flip_t = np.zeros((0, 2, 3), dtype=np.int64)
        self._flip_d = np.zeros((0, 2, 3), dtype=np.int64)
        self._depth = 0
        self._stack(8)

    def _table(self, slots: int) -> tuple[np.ndarray, np.ndarray]:
        """An empty table: one row a slot (the key words, then the packed value word of
        ``jit_kernel.FRESH``: 0 when empty), seen as two views so that a probe touches one row."""
        kw = self._kw
        rows = np.zeros((slots, kw + 1), dtype=np.int64)
        return rows[:, :kw], rows[:, kw]

    @property
    def replacing(self) -> bool:
        """True once the table is full and new entries replace old ones (``replace``)."""
        return bool(self._ctx[self._k.REPLACE])

    @property
    def tt_entries(self) -> int:
        """Entries of the win and lose tables together (``len(win_tt) + len(lose_tt)``)."""
        k = self._k
        return int(self._ctx[k.WINS] + self._ctx[k.LOSES])

    def _stack(self, plies: int) -> None:
        if plies <= self._depth:
            return
        self._depth = plies
        self._st = np.zeros((plies, 11), dtype=np.int64)
        self._typ = np.zeros(plies, dtype=np.int64)
        self._nn = np.zeros(plies, dtype=np.int64)
        self._kwst = np.zeros((plies, self._kw), dtype=np.int64)
        self._mv = np.zeros((plies, self._maxm), dtype=np.int64)
        self._nm = np.zeros(plies, dtype=np.int64)
        self._mi = np.zeros(plies, dtype=np.int64)
        self._ci = np.zeros(plies, dtype=np.int64)
        self._tneed = np.zeros((plies, self._maxm), dtype=np.int64)
        self._tbump = np.zeros((plies, self._maxm), dtype=np.int64)
        self._tdst = np.zeros((plies, self._maxm), dtype=np.int64)
        self._mstart = np.zeros(plies, dtype=np.int64)
        self._most = np.zeros(plies, dtype=np.int64)
        self._hard = np.zeros(plies, dtype=np.int64)

    def _decks(self, s: FState) -> None:
        """Tabulate the flips of every deck state reachable from ``s`` (FastEngine.flips)."""
        e = self.engine
        todo = [(s[9], 0), (s[10], 1)]
        new = False
        while todo:
            d, side = todo.pop()
            if (d, side) in self._decks_done:
                continue
            self._decks_done.add((d, side))
            new = True
            for _t, _w, nd in e.flips(d, side):
                todo.append((nd, side))
        if not new:
            return
        nd = len(e.decks)
        fn = np.zeros((nd, 2), dtype=np.int64)
        ft = np.zeros((nd, 2, 3), dtype=np.int64)
        fd = np.zeros((nd, 2, 3), dtype=np.int64)
        for d, side in self._decks_done:
            fl = e.flips(d, side)
            fn[d, side] = len(fl)
            for k, (t, _w, d2) in enumerate(fl):
                ft[d, side, k] = t
                fd[d, side, k] = d2
        self._flip_n, self._flip_t, self._flip_d = fn, ft, fd

    def table_bytes(self) -> int:
        """The transposition table's size in bytes (its slots, used or not)."""
        return int(self._tkeys.shape[0] * (self._kw + 1) * 8)

    def _grow(self) -> None:
        """Double the table; at the cap, start replacing entries (``replace``) or raise."""
        if 2 * self.table_bytes() > self.max_table_bytes:
            if self.replace:
                self._ctx[self._k.REPLACE] = 1
                return
            raise BudgetExhausted(f"{self.max_table_bytes / 2**30:g} GiB of table", kind="memory")
        nk, nv = self._table(2 * self._tv.shape[0])
        self._k.rehash(self._tkeys, self._tv, nk, nv)
        self._tkeys, self._tv = nk, nv

    def _search(self, s: FState, n: int, kind: int) -> bool:
        k = self._k
        if not 0 <= n <= k.MAX_DEPTH:
            raise ValueError(f"the compiled search goes to {k.MAX_DEPTH} turns at most, not {n}")
        self._decks(s)
        self._stack(2 * n + 4)
        ctx = self._ctx
        self._st[0, :] = s
        self._typ[0] = kind
        self._nn[0] = n
        ctx[k.SP] = 0
        ctx[k.NODES] = 0
        meter = self.meter
        base = meter.states if meter is not None else 0
        cap = meter.budget.states if meter is not None else None
        ctx[k.LIMIT] = (cap - base) if cap is not None else (1 << 62)
        while True:
            # half full at most, with room for the inserts of one unwinding stack between checks
            while not ctx[k.REPLACE] and self._tv.shape[0] // 2 <= int(ctx[k.COUNT]) + 2 * n + 8:
                try:
                    self._grow()
                except BudgetExhausted:
                    self.nodes += int(ctx[k.NODES])
                    raise
            ctx[k.SLICE_END] = ctx[k.NODES] + SLICE
            code = k.run(ctx, self._st, self._typ, self._nn, self._kwst, self._mv, self._nm, self._mi, self._ci,
                       self._tmp, self._score, self._hist, self._tkeys, self._tv,
                       self._E, self._nbr, self._terr, self._pl, self._plsq0, self._plsq, self._symtab,
                       k.DB_TABLE, self._flip_n, self._flip_t, self._flip_d,
                       self._sa, self._buf, self._tneed, self._tbump, self._tdst, self._mstart, self._most,
                       self._hard)
            if meter is not None:
                meter.states = base + int(ctx[k.NODES])
            if code == k.DONE:
                self.nodes += int(ctx[k.NODES])
                return bool(ctx[k.RES])
            if code == k.EXHAUSTED:
                self.nodes += int(ctx[k.NODES])
                assert meter is not None and cap is not None
                raise BudgetExhausted(f"{cap:,} states")
            if code == k.OVERFLOW:
                raise RuntimeError("a move list longer than the compiled engine's buffers")
            if meter is not None:
                left = meter.seconds_left()
                if left is not None and left <= 0:
                    self.nodes += int(ctx[k.NODES])
                    raise BudgetExhausted(f"{meter.budget.seconds:g} s", kind="seconds")

    def win(self, s: FState, n: int) -> bool:
        """Can the mover of ``s`` force a win within ``n`` of its own turns?"""
        return self._search(s, n, self._k.WIN)

    def loses(self, s: FState, n: int) -> bool:
        """Does every reply of the mover of ``s`` lose within ``n`` turns of the other side?"""
        return self._search(s, n, self._k.LOSE)

    def shortest(self, s: FState, depth: int) -> int | None:
        """The least n <= depth with a forced win, or None."""
        for n in range(1, depth + 1):
            if self.win(s, n):
                return n
        return None


def searcher(engine: FastEngine, meter: Meter | None = None, prefer: str = "auto",
             threats: bool = True) -> JitSearcher | FastSearcher:
    """The compiled searcher when numba is there and the board fits (``prefer`` "auto" or "numba"),
    else ``FastSearcher``; ``engine_name(sr)`` says which ran.  ``prefer="numba"`` raises UsageError
    instead of falling back, ``prefer="python"`` always gives ``FastSearcher``.  ``threats``: the
    threat search (``FastSearcher``'s docstring; the same answers from fewer nodes), on by default."""
    if prefer not in ("auto", "numba", "python"):
        raise UsageError(f"prefer must be auto, numba or python, not {prefer!r}")
    if prefer != "python" and available() and fits(engine):
        return JitSearcher(engine, meter=meter, threats=threats)
    if prefer == "numba":
        raise UsageError(f"the compiled search cannot run: {_error}" if _error else
                         f"the compiled search holds boards of up to {MAX_SQUARES} squares, not {engine.n}")
    return FastSearcher(engine, meter=meter, threats=threats)


def engine_name(sr: JitSearcher | FastSearcher) -> str:
    """"numba" for the compiled search, "python" for FastSearcher."""
    return "numba" if isinstance(sr, JitSearcher) else "python"


_warm = False


def warm_up() -> float:
    """Compile (or load from the cache) the kernel on a tiny search, once a process; returns the
    seconds it took (0 when already done).  Callers with a time budget call it before starting
    their clock, so that compiling (seconds on a machine without the cache) is not charged to it."""
    global _warm
    if _warm:
        return 0.0
    from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
    from gnomekit.models.gnomes_at_midnight.setup import new_position

    _warm = True
    t0 = time.perf_counter()
    pos = new_position(bundled_edition("mini"), 0)
    e = FastEngine(pos)
    JitSearcher(e).shortest(e.state(pos), 2)
    return time.perf_counter() - t0
