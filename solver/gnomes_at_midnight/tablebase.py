"""Retrograde (out-count) tablebase for small editions (built for `mini`), vectorised with numpy.

Tablebase mode (a rule of this mode, see docs/rules/gnomes-at-midnight.md): the
dance card is fixed and each side's moonlight deck is a fixed order that repeats
as a cycle (no reshuffle chance).  A state is (gnome configuration, side to move,
deck state of each side); off-board counts follow from the configuration (the
edition's gnomes per side minus those on the board).  A side's deck state is 0
before its first flip (no card face up, next card the cycle's first) or 1 + p
where p is the position in the cycle of its next card (the face-up card is the
one before it).  With 3-card cycles that is 4 x 4 = 16 deck states (the 9
in-cycle ones plus those where a side has not flipped yet).

Values, one byte per state as the builders make them (:class:`Tablebase`): 0 draw
(no forced result: repetition has no rule), 1..127 the side to move wins in that
many of its own turns, 128 + n the side to move loses, the opponent winning in n
of its turns.  Two builders give the same table: the lean one (default,
tablebase_lean.py: a perfect index of states and no move graph; mini: about 6 bytes
a state at peak) and the reference one (edge lists and ``np.unique``; about 57).
The table is stored (:class:`LeanTablebase`, cache format 2) at 2 bits a state
(draw / win / loss in 1 / longer loss) plus 4 bits for each longer loss, under
$GNOMEKIT_CACHE (default ~/.cache/gnomekit); a win's distance is recomputed at
lookup from the state's moves, so lookups answer exactly as the byte table.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import MidnightEdition
from gnomekit.models.gnomes_at_midnight.position import NO_CARD, Position, dance_placements
from gnomekit.models.gnomes_at_midnight.setup import edition_board
from gnomekit.solver.core.batch import Backend
from gnomekit.solver.gnomes_at_midnight.tablebase_lean import EDGE_CHUNK, Moves, build_values, placement_array

Progress = Callable[[str, float], None] | None
WIN_MAX = 127


def cache_dir() -> Path:
    return Path(os.environ.get("GNOMEKIT_CACHE") or Path.home() / ".cache" / "gnomekit")


@dataclass
class Params:
    """What a table is built for: edition geometry, rules, dance card, deck cycles."""

    rows: int
    cols: int
    terrain: tuple[str, ...]
    flowers: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    toadstools: tuple[tuple[int, int], ...]
    gnomes: int
    bump_limit: int
    restrict: bool
    dance: tuple[tuple[int, int], ...]
    cycles: tuple[tuple[int, ...], tuple[int, ...]]

    def key(self) -> str:
        blob = json.dumps([self.rows, self.cols, self.terrain, self.flowers, self.toadstools, self.gnomes,
                           self.bump_limit, self.restrict, self.dance, self.cycles, 1])
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def params_for(ed: MidnightEdition, dance: tuple[tuple[int, int], ...] | None = None,
               cycles: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> Params:
    return Params(ed.rows, ed.cols, ed.terrain, ed.flowers, ed.toadstools, ed.gnomes, ed.bump_limit,
                  ed.moon_restricts_adding, dance if dance is not None else ed.dance[0].cells,
                  cycles if cycles is not None else ed.decks)


class _Indexed:
    """Where a position sits in a table: its side, deck states and configuration index."""

    params: Params
    keys: np.ndarray  # sorted configuration keys (base 5 per square)

    def index(self, pos: Position) -> tuple[int, int, int, int]:
        """(side, green deck state, blue deck state, config index) of a position (UsageError if outside)."""
        p = self.params
        b = pos.board
        if (b.rows, b.cols, b.terrain, b.flowers, b.toadstools) != (p.rows, p.cols, p.terrain,
                                                                  tuple(tuple(sorted(f)) for f in p.flowers),
                                                                  tuple(sorted(p.toadstools))):
            raise UsageError("the tablebase is for the edition's board; this position has another")
        if pos.dance != tuple(sorted(p.dance)) and pos.dance != p.dance:
            raise UsageError("the tablebase is built for another dance card than the position's")
        if pos.bump_limit != p.bump_limit or pos.moon_restricts_adding != p.restrict:
            raise UsageError("the tablebase is built for the edition's bump limit and options")
        for s in (0, 1):
            if pos.on_board(s) + pos.off[s] != p.gnomes:
                raise UsageError(f"the tablebase needs {p.gnomes} gnomes a side on and off the board")
        key = 0
        for i, v in enumerate(pos.cells):
            st = v if v > 0 else (2 - v if v < 0 else 0)
            key += st * 5**i
        c = int(np.searchsorted(self.keys, key))
        ds = [self.deck_state(pos, s) for s in (0, 1)]
        return pos.to_move, ds[0], ds[1], c

    def deck_state(self, pos: Position, s: int) -> int:
        cyc = self.params.cycles[s]
        L = len(cyc)
        if pos.moon[s] == NO_CARD:
            if pos.known[s] and pos.known[s][0] != cyc[0]:
                raise UsageError("with no card face up the next card must be the first of the tablebase's deck "
                                 "cycle (" + " ".join(str(t) for t in cyc) + ")")
            return 0
        cands = [ptr for ptr in range(L) if cyc[(ptr - 1) % L] == pos.moon[s]]
        if pos.known[s]:
            cands = [ptr for ptr in cands if cyc[ptr] == pos.known[s][0]]
        if len(cands) != 1:
            raise UsageError("the position's moonlight card and deck do not fit the tablebase's deck cycle "
                             "(" + " ".join(str(t) for t in cyc) + ")")
        return 1 + cands[0]


@dataclass
class Tablebase(_Indexed):
    """A table as the builders make it: one value byte a state (see the module's docstring)."""

    params: Params
    keys: np.ndarray  # sorted configuration keys (base 5 per square)
    values: np.ndarray  # uint8, shape (2, D, D, C): side to move, green deck state, blue deck state, config
    seconds: float = 0.0

    @property
    def size(self) -> int:
        return int(self.values.size)

    def counts(self) -> dict[str, int]:
        v = self.values
        return {"win": int(((v >= 1) & (v <= WIN_MAX)).sum()), "loss": int((v > 128).sum()),
                "draw": int((v == 0).sum())}

    def lookup(self, pos: Position) -> tuple[str, int | None]:
        return self.lookup_state(*self.index(pos))

    def lookup_state(self, s: int, dg: int, db: int, c: int) -> tuple[str, int | None]:
        """The answer for one table state: (value, turns) as :meth:`lookup` gives it."""
        v = int(self.values[s, dg, db, c])
        if v == 0:
            return "draw", None
        if v <= WIN_MAX:
            return "win", v
        return "loss", v - 128


# -------------------------------------------------------------------------------------------------
# Building


def _configs(n: int, g: int) -> tuple[np.ndarray, np.ndarray]:
    """All configurations: (sorted keys, states (C, n) uint8); state 1/2 green count, 3/4 blue count + 2."""
    P = placement_array(n, g).astype(np.int64)  # (Pn, n) counts, the order the lean index uses too
    masks = ((P > 0).astype(np.int64) * (1 << np.arange(n, dtype=np.int64))).sum(axis=1)
    pow5 = 5 ** np.arange(n, dtype=np.int64)
    gkey = (P * pow5).sum(axis=1)
    bkey = (np.where(P > 0, P + 2, 0) * pow5).sum(axis=1)
    gi, bi = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    keys = gkey[gi] + bkey[bi]
    order = np.argsort(keys)
    keys = keys[order]
    states = (P[gi[order]] + np.where(P[bi[order]] > 0, P[bi[order]] + 2, 0)).astype(np.uint8)
    return keys, states


METHODS = ("lean", "reference")
MAX_SIDE_PLACEMENTS = 5000  # mini: 1751; the pairing step needs (placements)^2 words of memory


def side_placements(n: int, g: int) -> int:
    """How many ways one side can stand on ``n`` squares with at most ``g`` gnomes, two a square at most."""
    ways = [1] + [0] * g  # ways[k]: exactly k gnomes on the squares seen so far
    for _ in range(n):
        ways = [ways[k] + (ways[k - 1] if k >= 1 else 0) + (ways[k - 2] if k >= 2 else 0) for k in range(g + 1)]
    return sum(ways)


def build(ed: MidnightEdition, dance: tuple[tuple[int, int], ...] | None = None,
          cycles: tuple[tuple[int, ...], tuple[int, ...]] | None = None, progress: Progress = None,
          backend: Backend | None = None, chunk: int = 1 << 20, method: str | None = None) -> Tablebase:
    """Build the table (no cache).  ``progress(stage, fraction)`` is called along the way.

    ``method``: "lean" (the default without a backend; tablebase_lean.py: a perfect index of
    states, no move graph; mini: about 6 bytes a state at peak, 3.5x less CPU) or "reference"
    (the first builder: an edge list and ``np.unique``, 57 bytes a state, kept as the
    reference the lean one is tested against).  Both give the same table, value for value.
    ``backend`` (reference builder only; giving one selects it) runs each retrograde ply's
    predecessor generation as tasks of ``chunk`` frontier states on the batch runner; the
    table is the same whatever the backend.  The lean builder generates the moves of at most
    ``chunk`` (and at most 2^15) frontier configurations at a time.
    Refuses (UsageError) editions too big for a full table, such as the default one."""
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    if method is None:
        method = "lean" if backend is None else "reference"
    if method not in METHODS:
        raise UsageError(f"unknown tablebase build method {method!r}; expected one of {', '.join(METHODS)}")
    if method == "lean" and backend is not None:
        raise UsageError("the lean tablebase builder runs in one process; a backend splits the reference builder")
    t0 = time.perf_counter()
    p = params_for(ed, dance, cycles)
    board = edition_board(ed)
    n = p.rows * p.cols
    G = p.gnomes
    per_side = side_placements(n, G)
    if per_side > MAX_SIDE_PLACEMENTS:
        raise UsageError(f"the tablebase is for small editions such as mini: edition {ed.name!r} "
                         f"({p.rows}x{p.cols}, {G} gnomes a side) has {per_side} placements a side, at most "
                         f"{MAX_SIDE_PLACEMENTS} are supported")
    say = progress or (lambda _s, _f: None)
    if method == "lean":
        keys, lean_values = build_values(p.rows, p.cols, board.terr, board.nbrs, board.flower_idx, board.toad_idx,
                                         G, p.bump_limit, p.restrict, p.dance, p.cycles, say, 2 * WIN_MAX,
                                         min(chunk, EDGE_CHUNK))
        say("done", 1.0)
        return Tablebase(p, keys, lean_values, time.perf_counter() - t0)
    say("configurations", 0.0)
    keys, st = _configs(n, G)
    C = len(keys)
    pow5 = 5 ** np.arange(n, dtype=np.int64)
    cnt = [np.ascontiguousarray(np.where(st <= 2, st, 0).astype(np.int8).T),
           np.ascontiguousarray(np.where(st >= 3, st - 2, 0).astype(np.int8).T)]  # (n, C): one row per square
    stT = np.ascontiguousarray(st.T).astype(np.int64)
    del st
    on = [cnt[0].sum(axis=0), cnt[1].sum(axis=0)]
    terr = board.terr
    # W[s][c]: side s meets a win condition in configuration c
    W = []
    places = dance_placements(p.rows, p.cols, tuple(sorted(p.dance)))
    for s in (0, 1):
        own = cnt[s] > 0
        w = (G - on[1 - s]) >= p.bump_limit
        if board.toad_idx:
            w |= own[list(board.toad_idx)].all(axis=0)
        for pl in places:
            w |= own[list(pl)].all(axis=0)
        W.append(w)
    L = [len(p.cycles[0]), len(p.cycles[1])]
    if L[0] != L[1] or not L[0]:
        raise UsageError("the tablebase needs two deck cycles of the same, non-zero length")
    D = L[0] + 1

    def moon_of(s: int, ds: int) -> int:
        return -1 if ds == 0 else p.cycles[s][(ds - 2) % L[s]]

    def adv(s: int, ds: int) -> int:
        return 1 + ((0 if ds == 0 else ds - 1) + 1) % L[s]

    # templates: (kind, src, dst); kind 0 step, 1 pair, 2 add
    templates: list[tuple[int, int, int]] = []
    for i in range(n):
        for j in board.nbrs[i]:
            templates += [(0, i, j), (1, i, j)]
    # per side: edges (src config, dst config, template) for legal moves; counts by moon terrain
    edges: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    legal_cnt = [[np.zeros(C, dtype=np.int16) for _ in range(4)] for _ in (0, 1)]  # all legal, by moon t+1
    nonwin_cnt = [[np.zeros(C, dtype=np.int16) for _ in range(4)] for _ in (0, 1)]
    has_win = [[np.zeros(C, dtype=bool) for _ in range(4)] for _ in (0, 1)]
    allowed_t: list[list[list[bool]]] = [[], []]
    total_steps = 2 * (len(templates) + 2)
    done = 0
    for s in (0, 1):
        o, q = cnt[s], cnt[1 - s]
        enc_own = (lambda k: np.where(k > 0, k, 0)) if s == 0 else (lambda k: np.where(k > 0, k + 2, 0))
        srcs, dsts, tids = [], [], []
        side_templates = templates + [(2, -1, f) for f in board.flower_idx[s]]
        for tid, (kind, i, j) in enumerate(side_templates):
            if kind == 0:
                ok = (o[i] >= 1) & (o[j] <= 1)
            elif kind == 1:
                ok = (o[i] == 2) & (o[j] == 0)
            else:
                ok = ((G - on[s]) >= 1) & (o[j] <= 1) & (q[j] == 0)
            idx = np.nonzero(ok)[0]
            k = 2 if kind == 1 else 1
            newj = np.where(q[j][idx] > 0, k, o[j][idx] + k)
            nk = keys[idx] + (enc_own(newj) - stT[j][idx]) * pow5[j]
            if kind != 2:
                newi = o[i][idx] - k
                nk = nk + (enc_own(newi) - stT[i][idx]) * pow5[i]
            dst = np.searchsorted(keys, nk)
            win = W[s][dst]
            if kind == 2:
                allowed = [True] + [(not p.restrict) or t != terr[j] for t in range(3)]
            else:
                allowed = [True] + [t != terr[i] and t != terr[j] for t in range(3)]
            allowed_t[s].append(allowed)
            for m in range(4):
                if allowed[m]:
                    legal_cnt[s][m][idx] += 1
                    nonwin_cnt[s][m][idx[~win]] += 1
                    has_win[s][m][idx[win]] = True
            keep = ~win
            srcs.append(idx[keep].astype(np.int32))
            dsts.append(dst[keep].astype(np.int32))
            tids.append(np.full(int(keep.sum()), tid, dtype=np.int16))
            done += 1
            say("moves", done / total_steps)
        e_src = np.concatenate(srcs)
        e_dst = np.concatenate(dsts)
        e_tid = np.concatenate(tids)
        order = np.argsort(e_dst, kind="stable")
        edges.append((e_src[order], e_dst[order], e_tid[order]))
    rev_ptr = [np.searchsorted(e[1], np.arange(C + 1)) for e in edges]
    # per template and moon: allowed; and terrain checks as arrays for the reverse pass
    allowed_arr = [np.array(allowed_t[s], dtype=bool) for s in (0, 1)]  # (T, 4)

    values = np.zeros((2, D, D, C), dtype=np.uint8)
    remaining = np.zeros((2, D, D, C), dtype=np.int16)
    nomove = np.zeros((2, D, D, C), dtype=bool)
    for s in (0, 1):
        for dg in range(D):
            for db in range(D):
                ds = dg if s == 0 else db
                m = moon_of(s, ds) + 1
                nm = legal_cnt[s][m] == 0
                nomove[s, dg, db] = nm
                win_now = has_win[s][m] | (nm & W[s])
                remaining[s, dg, db] = np.where(nm, 1, nonwin_cnt[s][m])
                values[s, dg, db][win_now] = 1
    flat_vals = values.reshape(-1)
    flat_rem = remaining.reshape(-1)
    frontier_idx = np.nonzero(flat_vals == 1)[0]
    ply = 1
    total = values.size
    decided = len(frontier_idx)
    nomove_flat = nomove.reshape(-1)

    arrays = _Arrays(edges[0][0], edges[0][2], rev_ptr[0], edges[1][0], edges[1][2], rev_ptr[1],
                     allowed_arr[0], allowed_arr[1], nomove_flat, flat_vals)
    shape = (2, D, D, C)

    def predecessors(chunk: np.ndarray) -> np.ndarray:
        return _predecessors(arrays, p.cycles, shape, chunk)

    if backend is None:
        while len(frontier_idx):
            found: list[np.ndarray] = []
            for k0 in range(0, len(frontier_idx), chunk):
                say(f"retrograde {ply}", decided / total)
                pred = predecessors(frontier_idx[k0:k0 + chunk])
                if ply % 2 == 1:  # the frontier wins for its mover: each predecessor loses an option
                    uniq, mult = np.unique(pred, return_counts=True)
                    flat_rem[uniq] -= mult.astype(np.int16)
                    found.append(uniq[flat_rem[uniq] <= 0])
                else:  # the frontier loses for its mover: predecessors win
                    uniq = np.unique(pred)
                    flat_vals[uniq] = ply // 2 + 1
                    found.append(uniq)
            new = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
            if ply % 2 == 1:
                new = new[flat_vals[new] == 0]
                flat_vals[new] = 128 + (ply + 1) // 2
            decided += len(new)
            frontier_idx = new
            ply += 1
            if ply > 2 * WIN_MAX:
                raise RuntimeError("tablebase distances exceed the byte encoding")
    else:
        values = _retrograde_batched(arrays, p.cycles, shape, flat_rem, frontier_idx, decided, chunk, backend, say)
    say("done", 1.0)
    return Tablebase(p, keys, values, time.perf_counter() - t0)


@dataclass
class _Arrays:
    """The read-only move graph of the retrograde pass and the values so far (arrays or memory maps)."""

    src0: np.ndarray
    tid0: np.ndarray
    ptr0: np.ndarray
    src1: np.ndarray
    tid1: np.ndarray
    ptr1: np.ndarray
    allowed0: np.ndarray
    allowed1: np.ndarray
    nomove: np.ndarray
    values: np.ndarray  # flat uint8


_FIELDS = ("src0", "tid0", "ptr0", "src1", "tid1", "ptr1", "allowed0", "allowed1", "nomove", "values")


def _predecessors(a: _Arrays, cycles: tuple[tuple[int, ...], tuple[int, ...]], shape: tuple[int, int, int, int],
                  chunk: np.ndarray) -> np.ndarray:
    """Undecided states with a move into one of the states ``chunk`` (one entry per such move)."""
    _two, D, _d, C = shape
    L = len(cycles[0])

    def moon_of(s: int, ds: int) -> int:
        return -1 if ds == 0 else cycles[s][(ds - 2) % L]

    def adv(ds: int) -> int:
        return 1 + ((0 if ds == 0 else ds - 1) + 1) % L

    s_f, dg_f, db_f, c_f = np.unravel_index(chunk, shape)
    preds: list[np.ndarray] = []
    for s_new in (0, 1):
        sel = s_f == s_new
        if not sel.any():
            continue
        s = 1 - s_new  # the side that moved into these states
        cs, dgs, dbs = c_f[sel], dg_f[sel], db_f[sel]
        e_src, e_tid, ptr, allowed = (a.src0, a.tid0, a.ptr0, a.allowed0) if s == 0 else \
            (a.src1, a.tid1, a.ptr1, a.allowed1)
        lo, hi = ptr[cs], ptr[cs + 1]
        lens = hi - lo
        tot = int(lens.sum())
        if tot:
            rep = np.repeat(np.arange(len(cs)), lens)
            eidx = lo[rep] + (np.arange(tot) - np.repeat(np.cumsum(lens) - lens, lens))
            pc = e_src[eidx].astype(np.int64)
            pt = e_tid[eidx]
            pdg, pdb = dgs[rep], dbs[rep]
            own_after = pdg if s == 0 else pdb
            for prev in range(D):
                ok = (own_after == adv(prev)) & allowed[pt, moon_of(s, prev) + 1]
                k_ok = int(ok.sum())
                if not k_ok:
                    continue
                if s == 0:
                    g_, b_ = np.full(k_ok, prev, dtype=np.int64), pdb[ok]
                else:
                    g_, b_ = pdg[ok], np.full(k_ok, prev, dtype=np.int64)
                preds.append(((s * D + g_) * D + b_) * C + pc[ok])
        # passes: same configuration and deck states, the other side to move, when it had no move
        pidx = ((s * D + dgs) * D + dbs) * C + cs
        preds.append(pidx[a.nomove[pidx]].astype(np.int64))
    pred = np.concatenate(preds) if preds else np.zeros(0, dtype=np.int64)
    return pred[a.values[pred] == 0]


@dataclass(frozen=True)
class _Shared:
    """Where a retrograde task finds the arrays (a folder of .npy files, opened as memory maps)."""

    folder: str
    cycles: tuple[tuple[int, ...], tuple[int, ...]]
    shape: tuple[int, int, int, int]


_OPENED: dict[str, _Arrays] = {}


def _opened(folder: str) -> _Arrays:
    """The arrays of ``folder``, mapped once per worker process (the values map sees the parent's writes)."""
    a = _OPENED.get(folder)
    if a is None:
        _OPENED.clear()
        a = _Arrays(*(np.load(Path(folder) / f"{f}.npy", mmap_mode="r") for f in _FIELDS))
        _OPENED[folder] = a
    return a


def _pred_task(shared: _Shared, task: tuple[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
    """One retrograde task: the distinct undecided predecessors of a frontier chunk (and, after a
    winning frontier, how many moves lead from each into the chunk)."""
    ply, chunk = task
    pred = _predecessors(_opened(shared.folder), shared.cycles, shared.shape, chunk)
    if ply % 2 == 1:
        uniq, mult = np.unique(pred, return_counts=True)
        return uniq, mult
    return np.unique(pred), None


def _retrograde_batched(arrays: _Arrays, cycles: tuple[tuple[int, ...], tuple[int, ...]],
                        shape: tuple[int, int, int, int], flat_rem: np.ndarray, frontier_idx: np.ndarray,
                        decided: int, chunk: int, backend: Backend,
                        say: Callable[[str, float], None]) -> np.ndarray:
    """The retrograde pass with each ply's predecessor generation split into tasks on ``backend``.

    The plies are sequential (a ply's frontier is what the one before decided), but within a
    ply every chunk of the frontier is independent: each task reads the move graph and the
    values as they stood when the ply began, and the parent merges the chunks' answers in
    chunk order, so the table is the same as the single-process build's.  The arrays travel
    as memory-mapped files in a temporary folder (workers map them, nothing large is pickled
    but the chunks and their answers)."""
    import tempfile
    from functools import partial

    from gnomekit.solver.core.batch import run_batch

    total = int(np.prod(shape))
    with tempfile.TemporaryDirectory(prefix="gnomekit-tb-") as folder:
        for f in _FIELDS[:-1]:
            np.save(Path(folder) / f"{f}.npy", getattr(arrays, f))
        flat_vals = np.lib.format.open_memmap(Path(folder) / "values.npy", mode="w+", dtype=np.uint8,
                                              shape=(total,))
        flat_vals[:] = arrays.values
        task = partial(_pred_task, _Shared(folder, cycles, shape))
        ply = 1
        while len(frontier_idx):
            say(f"retrograde {ply}", decided / total)
            flat_vals.flush()
            inputs = [(ply, frontier_idx[k0:k0 + chunk]) for k0 in range(0, len(frontier_idx), chunk)]
            batch = run_batch(task, inputs, backend)
            answers = batch.values()  # BatchError when a task failed or the build was interrupted
            if ply % 2 == 1:  # the frontier wins for its mover: each predecessor loses an option
                found = []
                for uniq, mult in answers:
                    assert mult is not None
                    flat_rem[uniq] -= mult.astype(np.int16)
                    found.append(uniq[flat_rem[uniq] <= 0])
                new = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
                new = new[flat_vals[new] == 0]
                flat_vals[new] = 128 + (ply + 1) // 2
            else:  # the frontier loses for its mover: predecessors win
                new = np.unique(np.concatenate([u for u, _m in answers])) if answers else np.zeros(0, np.int64)
                new = new[flat_vals[new] == 0]
                flat_vals[new] = ply // 2 + 1
            decided += len(new)
            frontier_idx = new
            ply += 1
            if ply > 2 * WIN_MAX:
                raise RuntimeError("tablebase distances exceed the byte encoding")
        out = np.array(flat_vals).reshape(shape)
        del flat_vals
    _OPENED.clear()
    return out


def default_cycles(pos: Position, ed: MidnightEdition) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's deck cycle when none is given: the position's deck when no card of it is face up
    yet and the deck is complete, otherwise the edition's deck order."""
    out = []
    for s in (0, 1):
        L = len(ed.decks[s])
        out.append(pos.known[s][:L] if pos.moon[s] == NO_CARD and len(pos.known[s]) >= L else ed.decks[s])
    return out[0], out[1]


FORMAT = 2  # the cache file format; files of another format have another name and are never read


def table_path(p: Params) -> Path:
    """Where the table for ``p`` is cached (format 2; format 1 files, ``-tb-``, are ignored)."""
    return cache_dir() / f"gnomes-at-midnight-tb{FORMAT}-{p.key()}.npz"


# Stored form (format 2): a 2-bit code a state, four states a byte, and 4 more bits only for a
# loss in 2 turns or more.  Codes: 0 draw (no forced result), 1 win, 2 loss in 1 turn (the
# opponent wins on its next turn), 3 longer loss.  The k-th code-3 state (state order) has
# nibble k of ``turns4`` (two a byte, the low one first): n - 2 for a loss in n <= 16 turns, 15
# for a longer one, whose n is in ``long_turns`` at k's place in the sorted ``long_rank``.  A
# win's distance is not stored: the lookup recomputes it from the state's moves (one ply: 1 when
# a move wins at once, else 1 + the shortest loss among the replies), which is how the
# retrograde pass decided it.
DRAW_C, WIN_C, LOSS1_C, LOSS_C = 0, 1, 2, 3
NIBBLE_MAX = 16  # the longest loss a nibble holds (n - 2 in 0..14; 15 marks a longer one)
BLOCK = 256  # states per entry of the rank directory of the code-3 states
# _PER_BYTE[c][b]: how many of the four codes in byte b are c
_PER_BYTE = np.array([[sum(((b >> (2 * k)) & 3) == c for k in range(4)) for b in range(256)] for c in range(4)],
                     dtype=np.uint8)
_COUNT3 = _PER_BYTE[LOSS_C]


def pack(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(2-bit codes packed four a byte, nibbles of the longer losses, ranks and turns of the
    losses too long for a nibble) of a value array (a few MB of temporaries at a time)."""
    flat = values.reshape(-1)
    packed = np.zeros((len(flat) + 3) // 4, dtype=np.uint8)
    turns_parts = []
    step = 1 << 22  # states at a time, a multiple of 4
    for lo in range(0, len(flat), step):
        v = flat[lo:lo + step]
        c = np.zeros(len(v) + (-len(v)) % 4, dtype=np.uint8)
        c[:len(v)][(v >= 1) & (v <= WIN_MAX)] = WIN_C
        c[:len(v)][v == 129] = LOSS1_C
        longer = v > 129
        c[:len(v)][longer] = LOSS_C
        q = c.reshape(-1, 4)
        packed[lo // 4:lo // 4 + len(q)] = q[:, 0] | (q[:, 1] << 2) | (q[:, 2] << 4) | (q[:, 3] << 6)
        turns_parts.append(v[longer] - np.uint8(128))
    turns = np.concatenate(turns_parts) if turns_parts else np.zeros(0, dtype=np.uint8)
    too_long = turns > NIBBLE_MAX
    nib = np.where(too_long, np.uint8(15), turns - np.uint8(2)).astype(np.uint8)
    if len(nib) % 2:
        nib = np.concatenate([nib, np.zeros(1, dtype=np.uint8)])
    turns4 = (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8)
    return packed, turns4, np.flatnonzero(too_long).astype(np.int64), turns[too_long].astype(np.uint8)


def _loss_turns(turns4: np.ndarray, long_rank: np.ndarray, long_turns: np.ndarray, count: int) -> np.ndarray:
    """The turns of every longer loss (rank order) from :func:`pack`'s nibbles and long list."""
    nib = np.empty((len(turns4), 2), dtype=np.uint8)
    nib[:, 0] = turns4 & 15
    nib[:, 1] = turns4 >> 4
    out = nib.reshape(-1)[:count].astype(np.int64) + 2
    if len(long_rank):
        out[long_rank] = long_turns
    return out


def _codes(packed: np.ndarray, total: int) -> np.ndarray:
    """One code a state (uint8) from the packed codes."""
    out = np.empty((len(packed), 4), dtype=np.uint8)
    for k in range(4):
        out[:, k] = (packed >> (2 * k)) & 3
    return out.reshape(-1)[:total]


@dataclass
class LeanTablebase(_Indexed):
    """The stored form of a table (format 2): 2 bits a state plus 4 bits a longer loss.

    Answers :meth:`lookup` exactly as the full :class:`Tablebase` it was packed from (a win's
    distance is recomputed from the state's moves).  ``values`` decodes the full byte table
    (one byte a state, all wins' distances recomputed at once) for tests and tools."""

    params: Params
    keys: np.ndarray
    shape: tuple[int, int, int, int]
    packed: np.ndarray  # uint8, four 2-bit codes a byte, state order ((side, green deck, blue deck, config))
    turns4: np.ndarray  # uint8, two nibbles a byte: a code-3 state's loss turns - 2 (15: see long_*)
    long_rank: np.ndarray  # int64, sorted: ranks (among code-3 states) of the losses too long for a nibble
    long_turns: np.ndarray  # uint8: their turns
    seconds: float = 0.0

    def __post_init__(self) -> None:
        total = int(np.prod(self.shape))
        if len(self.packed) != (total + 3) // 4:
            raise ValueError("the packed codes do not match the table's shape")
        per_block = BLOCK // 4
        blocks = np.zeros(-(-len(self.packed) // per_block), dtype=np.int64)
        step = per_block << 14  # a few MB at a time: the directory costs no full-size temporary
        for lo in range(0, len(self.packed), step):
            part = _COUNT3[self.packed[lo:lo + step]]
            part = np.concatenate([part, np.zeros((-len(part)) % per_block, dtype=np.uint8)])
            blocks[lo // per_block:lo // per_block + len(part) // per_block] = part.reshape(-1, per_block).sum(
                axis=1, dtype=np.int64)
        self._rank = np.concatenate([[0], np.cumsum(blocks)])
        self._longer = int(self._rank[-1])
        if len(self.turns4) != (self._longer + 1) // 2 or len(self.long_rank) != len(self.long_turns):
            raise ValueError("the stored distances do not match the codes")
        self._moves: Moves | None = None
        self._values: np.ndarray | None = None

    @classmethod
    def of(cls, tb: Tablebase) -> LeanTablebase:
        packed, turns4, long_rank, long_turns = pack(tb.values)
        s = tb.values.shape
        return cls(tb.params, tb.keys, (s[0], s[1], s[2], s[3]), packed, turns4, long_rank, long_turns, tb.seconds)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def stored_bytes(self) -> int:
        """Bytes of the stored table (codes and longer losses' bytes; the keys not counted)."""
        return int(self.packed.nbytes + self.turns4.nbytes + self.long_rank.nbytes + self.long_turns.nbytes)

    def counts(self) -> dict[str, int]:
        hist = np.zeros(256, dtype=np.int64)  # how many packed bytes have each value
        for lo in range(0, len(self.packed), 1 << 22):
            hist += np.bincount(self.packed[lo:lo + (1 << 22)], minlength=256)
        n = [int(_PER_BYTE[c].astype(np.int64) @ hist) for c in range(4)]
        n[DRAW_C] -= 4 * len(self.packed) - self.size  # the padding codes of the last byte
        return {"win": n[WIN_C], "loss": n[LOSS1_C] + n[LOSS_C], "draw": n[DRAW_C]}

    def _flat(self, s: int, dg: int, db: int, c: int) -> int:
        _two, D, _d, C = self.shape
        return ((s * D + dg) * D + db) * C + c

    def code(self, i: int) -> int:
        return (int(self.packed[i >> 2]) >> (2 * (i & 3))) & 3

    def _loss_at(self, i: int) -> int:
        """The turns of the code-3 state ``i`` (its rank among code-3 states indexes the nibbles)."""
        blk = i // BLOCK
        first = blk * (BLOCK // 4)
        r = int(self._rank[blk]) + int(_COUNT3[self.packed[first:i >> 2]].sum())
        byte = int(self.packed[i >> 2])
        r += sum(((byte >> (2 * k)) & 3) == LOSS_C for k in range(i & 3))
        nib = (int(self.turns4[r >> 1]) >> (4 * (r & 1))) & 15
        if nib < 15:
            return nib + 2
        return int(self.long_turns[int(np.searchsorted(self.long_rank, r))])

    def moves(self) -> Moves:
        if self._moves is None:
            self._moves = _moves_for(self.params)
        return self._moves

    def lookup_state(self, s: int, dg: int, db: int, c: int) -> tuple[str, int | None]:
        """The answer for one table state: (value, turns) as :meth:`Tablebase.lookup_state` gives it."""
        i = self._flat(s, dg, db, c)
        k = self.code(i)
        if k == DRAW_C:
            return "draw", None
        if k == LOSS1_C:
            return "loss", 1
        if k == LOSS_C:
            return "loss", self._loss_at(i)
        return "win", self._win_turns(s, dg, db, c)

    def _win_turns(self, s: int, dg: int, db: int, c: int) -> int:
        """A win's distance: 1 if a move wins at once (or, with no move, the side already wins),
        else 1 + the shortest loss among the positions its moves (or its pass) lead to."""
        mv = self.moves()
        cyc = self.params.cycles
        L = len(cyc[0])
        own = dg if s == 0 else db
        m = 0 if own == 0 else cyc[s][(own - 2) % L] + 1
        dst = mv.children(s, m, c)
        if len(dst) and bool(mv.W[s][dst].any()):
            return 1
        if not len(dst):
            if bool(mv.W[s][c]):
                return 1
            nxt = [self._flat(1 - s, dg, db, c)]
        else:
            after = 1 + ((0 if own == 0 else own - 1) + 1) % L
            g, b = (after, db) if s == 0 else (dg, after)
            nxt = [self._flat(1 - s, g, b, int(d)) for d in dst]
        best = None
        for i in nxt:
            k = self.code(i)
            n = 1 if k == LOSS1_C else self._loss_at(i) if k == LOSS_C else None
            if n is not None and (best is None or n < best):
                best = n
        if best is None:
            raise RuntimeError("the tablebase is inconsistent: a win with no move to a loss")
        return 1 + best

    def lookup(self, pos: Position) -> tuple[str, int | None]:
        return self.lookup_state(*self.index(pos))

    @property
    def values(self) -> np.ndarray:
        """The full byte table (:class:`Tablebase`'s encoding), decoded once and kept."""
        if self._values is None:
            self._values = _decode(self)
        return self._values


def _moves_for(p: Params) -> Moves:
    from gnomekit.models.gnomes_at_midnight.position import Board

    b = Board(p.rows, p.cols, p.terrain, p.flowers, p.toadstools)
    return Moves(p.rows, p.cols, b.terr, b.nbrs, b.flower_idx, b.toad_idx, p.gnomes, p.bump_limit, p.restrict,
                 p.dance)


def _decode(tb: LeanTablebase) -> np.ndarray:
    """Every state's value byte: codes and stored losses as they are, every win's distance
    recomputed from its moves at once (the vectorised form of :meth:`LeanTablebase._win_turns`)."""
    _two, D, _d, C = tb.shape
    cyc = tb.params.cycles
    L = len(cyc[0])
    total = tb.size
    codes = _codes(tb.packed, total)
    vals = np.zeros(total, dtype=np.uint8)
    vals[codes == LOSS1_C] = 129
    vals[codes == LOSS_C] = 128 + _loss_turns(tb.turns4, tb.long_rank, tb.long_turns, tb._longer)
    best = np.full(total, 255, dtype=np.uint8)  # shortest loss reached (0: a move wins at once)
    mv = tb.moves()
    any_move = np.zeros((2, 4, C), dtype=bool)

    def base(s: int, dg: int, db: int) -> int:
        return ((s * D + dg) * D + db) * C

    def moon(s: int, ds: int) -> int:
        return 0 if ds == 0 else cyc[s][(ds - 2) % L] + 1

    def adv(ds: int) -> int:
        return 1 + ((0 if ds == 0 else ds - 1) + 1) % L

    def reach(idx: np.ndarray, child: np.ndarray) -> None:
        cv = vals[child]
        cand = np.where(cv > 128, cv - 128, 255).astype(np.uint8)
        best[idx] = np.minimum(best[idx], cand)

    for s in (0, 1):
        order, starts = mv.by_own(s)
        for t in range(len(mv.kind[s])):
            cidx, dst = mv.forward(s, t, mv.configs_of(s, t, order, starts))
            win = mv.W[s][dst]
            for m in range(4):
                if (int(mv.code[s][t]) >> m) & 1:
                    any_move[s, m, cidx] = True
            for dg in range(D):
                for db in range(D):
                    own = dg if s == 0 else db
                    if not (int(mv.code[s][t]) >> moon(s, own)) & 1:
                        continue
                    b0 = base(s, dg, db)
                    best[b0 + cidx[win]] = 0
                    g, b = (adv(own), db) if s == 0 else (dg, adv(own))
                    reach(b0 + cidx[~win], base(1 - s, g, b) + dst[~win])
    cfg = np.arange(C)
    for s in (0, 1):
        for dg in range(D):
            for db in range(D):
                stuck = cfg[~any_move[s, moon(s, dg if s == 0 else db)]]
                b0 = base(s, dg, db)
                best[b0 + stuck[mv.W[s][stuck]]] = 0
                go = stuck[~mv.W[s][stuck]]
                reach(b0 + go, base(1 - s, dg, db) + go)
    wins = codes == WIN_C
    if (best[wins] == 255).any():
        raise RuntimeError("the tablebase is inconsistent: a win with no move to a loss")
    vals[wins] = best[wins] + 1
    return vals.reshape(tb.shape)


def load_or_build(ed: MidnightEdition, dance: tuple[tuple[int, int], ...] | None = None,
                  cycles: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
                  progress: Progress = None, backend: Backend | None = None) -> tuple[LeanTablebase, bool]:
    """The cached table for these parameters, building and storing it first if needed; (table, was built).

    The table comes in its stored form (:class:`LeanTablebase`, 2 bits a state plus 4 bits a
    longer loss), whether just built or read back.

    ``backend``: where the build's retrograde tasks run (see :func:`build`); the table is the same."""
    p = params_for(ed, dance, cycles)
    path = table_path(p)
    if path.exists():
        return read_table(path, p), False
    lean = LeanTablebase.of(build(ed, dance, cycles, progress, backend))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    write_table(tmp, lean)
    tmp.replace(path)
    return lean, True


def write_table(path: Path, tb: LeanTablebase) -> None:
    """Store a table (format 2, compressed .npz)."""
    np.savez_compressed(path, format=np.int64(FORMAT), shape=np.array(tb.shape, dtype=np.int64), keys=tb.keys,
                        codes=tb.packed, turns4=tb.turns4, long_rank=tb.long_rank, long_turns=tb.long_turns,
                        seconds=np.float64(tb.seconds))


def read_table(path: Path, p: Params) -> LeanTablebase:
    """A table stored by :func:`write_table` (UsageError for a file of another format)."""
    with np.load(path) as z:
        if "format" not in z.files or int(z["format"]) != FORMAT:
            raise UsageError(f"{path}: not a format-{FORMAT} tablebase file; delete it to rebuild")
        s = tuple(int(x) for x in z["shape"])
        return LeanTablebase(p, z["keys"], (s[0], s[1], s[2], s[3]), z["codes"], z["turns4"], z["long_rank"],
                             z["long_turns"], float(z["seconds"]))


def describe(tb: Tablebase | LeanTablebase) -> dict[str, Any]:
    shape = tb.shape if isinstance(tb, LeanTablebase) else tb.values.shape
    return {"positions": tb.size, "counts": tb.counts(), "build_seconds": round(tb.seconds, 2),
            "deck_states": int(shape[1] * shape[2]), "configurations": int(shape[3])}


def position_of(tb: Tablebase | LeanTablebase, s: int, dg: int, db: int, c: int, like: Position,
                repeat: int = 12) -> Position:
    """The position of a table state, decks written out as the cycle repeated ``repeat`` times."""
    from dataclasses import replace

    p = tb.params
    key = int(tb.keys[c])
    cells = []
    for _ in range(p.rows * p.cols):
        key, st = divmod(key, 5)
        cells.append(st if st <= 2 else -(st - 2))
    moon, known = [], []
    for side, ds in ((0, dg), (1, db)):
        cyc = p.cycles[side]
        L = len(cyc)
        ptr = 0 if ds == 0 else ds - 1
        moon.append(NO_CARD if ds == 0 else cyc[(ptr - 1) % L])
        known.append(tuple(cyc[(ptr + k) % L] for k in range(L * repeat)))
    on = [sum(v for v in cells if v > 0), -sum(v for v in cells if v < 0)]
    return replace(like, cells=tuple(cells), off=(p.gnomes - on[0], p.gnomes - on[1]), to_move=s,
                   moon=(moon[0], moon[1]), known=(known[0], known[1]), unknown=((0, 0, 0), (0, 0, 0)),
                   dance=tuple(sorted(p.dance)))
