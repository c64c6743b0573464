"""The lean retrograde builder of the Midnight tablebase: a perfect index of states, no move graph.

The reference builder (``tablebase.build(..., method="reference")``) stores every move of every
configuration as an edge list, sorts it by destination and merges each ply's predecessors with
``np.unique``: about 57 bytes a state at peak on ``mini``.  This one computes the same table
(every value equal, tests/gnomes_at_midnight/test_tablebase_lean.py) from small tables instead:

- A configuration is a pair (green placement, blue placement); a (placements x placements)
  table gives each pair's index in the sorted-key order (-1 for overlapping pairs), so the index
  of any configuration is one array read (a perfect index: no search, no ``np.unique``).
- A move template (step, pair or add on given squares) acts on the mover's placement alone
  (plus, for a bump, clearing one square of the other side's), so moves and *unmoves* are
  lookups in per-placement tables.  Predecessors of a frontier are generated on the fly from
  per-placement reverse lists; nothing of the size of the move graph is ever stored.
- A ply's frontier is not a list: it is the states holding that ply's value code (each ply
  writes a distinct code), found by scanning one deck-state slice at a time.  The moves into
  a frontier configuration are generated once a ply and handed to every deck slice whose
  frontier holds it.  A winning frontier's predecessors lose an option (``np.subtract.at`` on
  a one-byte counter, duplicates counted as separate moves) and lose when none is left; a
  losing frontier's predecessors win (plain assignment).  The order of these updates does
  not matter, so the table equals the reference's state for state.

Memory: the value byte and the remaining-moves byte of every state, plus tables of the size of
the configurations and bounded chunks (mini: about 6.3 bytes a state at peak, against 57).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.position import dance_placements

EDGE_CHUNK = 1 << 15  # frontier configurations whose moves are generated at a time (bounds the temporaries)


def placement_array(n: int, g: int) -> np.ndarray:
    """Every placement of one side (counts 0..2 a square, at most ``g`` gnomes), in the reference order."""
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, cur: list[int]) -> None:
        if i == n:
            out.append(tuple(cur))
            return
        for k in range(min(2, left) + 1):
            cur.append(k)
            rec(i + 1, left - k, cur)
            cur.pop()

    rec(0, g, [])
    return np.array(out, dtype=np.int8)


class _Index:
    """Placements, configurations (in sorted-key order) and the perfect (green, blue) -> config index."""

    def __init__(self, n: int, g: int) -> None:
        P = placement_array(n, g)
        self.P = P
        self.n = n
        self.on = P.sum(axis=1).astype(np.int64)
        pow5 = 5 ** np.arange(n, dtype=np.int64)
        P64 = P.astype(np.int64)
        gkey = P64 @ pow5
        bkey = np.where(P64 > 0, P64 + 2, 0) @ pow5
        pow3 = 3 ** np.arange(n, dtype=np.int64)
        self.code3 = P64 @ pow3  # base-3 code of each placement, searched through its sorted order
        self._code_order = np.argsort(self.code3)
        self._code_sorted = self.code3[self._code_order]
        occ = P > 0
        masks = (occ.astype(np.int64) << np.arange(n, dtype=np.int64)).sum(axis=1)
        gi, bi = np.nonzero((masks[:, None] & masks[None, :]) == 0)
        keys = gkey[gi] + bkey[bi]
        order = np.argsort(keys)
        self.keys = keys[order]
        self.cg = gi[order].astype(np.int32)  # green placement of each configuration
        self.cb = bi[order].astype(np.int32)
        del gi, bi, keys
        C = len(self.keys)
        self.C = C
        pair = np.full((len(P), len(P)), -1, dtype=np.int32)
        pair[self.cg, self.cb] = np.arange(C, dtype=np.int32)
        self.pair = pair

    def find(self, counts: np.ndarray) -> np.ndarray:
        """Placement index of each row of ``counts`` (-1 where it is no placement)."""
        c3 = counts.astype(np.int64) @ (3 ** np.arange(self.n, dtype=np.int64))
        ok = (counts >= 0).all(axis=1) & (counts <= 2).all(axis=1) & (counts.sum(axis=1) <= self.on.max())
        pos = np.searchsorted(self._code_sorted, c3)
        pos = np.minimum(pos, len(self._code_sorted) - 1)
        hit = ok & (self._code_sorted[pos] == c3)
        return np.where(hit, self._code_order[pos], -1).astype(np.int32)


class Moves:
    """Every move of the board as per-placement tables, for the builder, the lookups and decoding.

    For side ``s`` and template ``t`` (kind 0 step, 1 pair, 2 add; from square ``src[t]`` to
    ``dst[t]``): ``legal[s][t, a]`` whether the mover's placement ``a`` allows it, ``trans[s][t, a]``
    the placement after it, ``code[s][t]`` the moons it is allowed under (bit m for moon m + 1,
    m = -1 for no card).  A step or pair onto the other side's gnomes bumps them (``clear``)."""

    def __init__(self, rows: int, cols: int, terr: tuple[int, ...], nbrs: tuple[tuple[int, ...], ...],
                 flower_idx: tuple[tuple[int, ...], tuple[int, ...]], toad_idx: tuple[int, ...], gnomes: int,
                 bump_limit: int, restrict: bool, dance: tuple[tuple[int, int], ...]) -> None:
        n = rows * cols
        G = gnomes
        ix = _Index(n, G)
        self.ix = ix
        P = ix.P
        NP = len(P)
        occ = P > 0
        own_win = np.zeros(NP, dtype=bool)
        if toad_idx:
            own_win |= occ[:, list(toad_idx)].all(axis=1)
        for pl in dance_placements(rows, cols, tuple(sorted(dance))):
            own_win |= occ[:, list(pl)].all(axis=1)
        bumped_out = (G - ix.on) >= bump_limit  # by the other side's placement
        # W[s][c]: side s meets a win condition in configuration c
        self.W = [own_win[ix.cg] | bumped_out[ix.cb], own_win[ix.cb] | bumped_out[ix.cg]]
        # clear[j][b]: placement b with square j emptied (a bump); addopp[k-1][j][b]: b with k gnomes put on j
        self.clear = np.empty((n, NP), dtype=np.int32)
        self.addopp = np.full((2, n, NP), -1, dtype=np.int32)
        for j in range(n):
            q = P.copy()
            q[:, j] = 0
            self.clear[j] = ix.find(q)
            for k in (1, 2):
                q = P.copy()
                q[:, j] = k
                self.addopp[k - 1, j] = np.where(P[:, j] == 0, ix.find(q), -1)
        base_t: list[tuple[int, int, int]] = []
        for i in range(n):
            for j in nbrs[i]:
                base_t += [(0, i, j), (1, i, j)]
        self.kind: list[np.ndarray] = []
        self.src: list[np.ndarray] = []
        self.dst: list[np.ndarray] = []
        self.code: list[np.ndarray] = []
        self.legal: list[np.ndarray] = []
        self.trans: list[np.ndarray] = []
        for s in (0, 1):
            temps = base_t + [(2, -1, f) for f in flower_idx[s]]
            T = len(temps)
            legal = np.zeros((T, NP), dtype=bool)
            trans = np.full((T, NP), -1, dtype=np.int32)
            code = np.zeros(T, dtype=np.uint8)
            for t, (kind, i, j) in enumerate(temps):
                if kind == 0:
                    ok = (P[:, i] >= 1) & (P[:, j] <= 1)
                elif kind == 1:
                    ok = (P[:, i] == 2) & (P[:, j] == 0)
                else:
                    ok = ((G - ix.on) >= 1) & (P[:, j] <= 1)
                a = np.nonzero(ok)[0]
                k = 2 if kind == 1 else 1
                moved = P[a].copy()
                moved[:, j] += k
                if kind != 2:
                    moved[:, i] -= k
                legal[t] = ok
                trans[t, a] = ix.find(moved)
                if kind == 2:
                    allowed = [True] + [(not restrict) or m != terr[j] for m in range(3)]
                else:
                    allowed = [True] + [m != terr[i] and m != terr[j] for m in range(3)]
                code[t] = sum(1 << m for m in range(4) if allowed[m])
            self.kind.append(np.array([t[0] for t in temps], dtype=np.int8))
            self.src.append(np.array([t[1] for t in temps], dtype=np.int64))
            self.dst.append(np.array([t[2] for t in temps], dtype=np.int64))
            self.code.append(code)
            self.legal.append(legal)
            self.trans.append(trans)

    def own_opp(self, s: int) -> tuple[np.ndarray, np.ndarray]:
        """(mover's placement, other side's placement) of every configuration, for mover ``s``."""
        return (self.ix.cg, self.ix.cb) if s == 0 else (self.ix.cb, self.ix.cg)

    def config(self, s: int, own: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """The configuration of the placements (-1 where they overlap)."""
        return self.ix.pair[own, opp] if s == 0 else self.ix.pair[opp, own]

    def forward(self, s: int, t: int, cidx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(configurations kept, destination of each) of template ``t`` of side ``s`` from ``cidx``,
        whose mover placements allow it (an add needs its flower free of the other side)."""
        own_c, opp_c = self.own_opp(s)
        opp = opp_c[cidx]
        j = int(self.dst[s][t])
        if self.kind[s][t] == 2:
            keep = self.ix.P[opp, j] == 0
            cidx, opp = cidx[keep], opp[keep]
            nb = opp
        else:
            nb = self.clear[j][opp]
        return cidx, self.config(s, self.trans[s][t][own_c[cidx]], nb)

    def children(self, s: int, m: int, c: int) -> np.ndarray:
        """The configurations after each legal move of side ``s`` in configuration ``c`` under moon
        code ``m`` (moon + 1), one entry a move."""
        own_c, opp_c = self.own_opp(s)
        a, b = int(own_c[c]), int(opp_c[c])
        ok = self.legal[s][:, a] & ((self.code[s] >> m) & 1).astype(bool)
        ok &= (self.kind[s] != 2) | (self.ix.P[b][self.dst[s]] == 0)
        t = np.nonzero(ok)[0]
        na = self.trans[s][t, a]
        nb = np.where(self.kind[s][t] == 2, b, self.clear[self.dst[s][t], b])
        return np.asarray(self.config(s, na, nb))

    def by_own(self, s: int) -> tuple[np.ndarray, np.ndarray]:
        """(configurations ordered by the mover's placement, where each placement's run starts)."""
        own_c, _ = self.own_opp(s)
        order = np.argsort(own_c, kind="stable").astype(np.int32)
        return order, np.searchsorted(own_c[order], np.arange(len(self.ix.P) + 1))

    def configs_of(self, s: int, t: int, order: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """Every configuration whose mover placement allows template ``t`` of side ``s``."""
        a = np.nonzero(self.legal[s][t])[0]
        lens = starts[a + 1] - starts[a]
        tot = int(lens.sum())
        if not tot:
            return np.zeros(0, dtype=np.int32)
        return order[np.repeat(starts[a] - (np.cumsum(lens) - lens), lens) + np.arange(tot)]


def build_values(rows: int, cols: int, terr: tuple[int, ...], nbrs: tuple[tuple[int, ...], ...],
                 flower_idx: tuple[tuple[int, ...], tuple[int, ...]], toad_idx: tuple[int, ...], gnomes: int,
                 bump_limit: int, restrict: bool, dance: tuple[tuple[int, int], ...],
                 cycles: tuple[tuple[int, ...], tuple[int, ...]], say: Callable[[str, float], None],
                 max_ply: int, chunk: int = EDGE_CHUNK) -> tuple[np.ndarray, np.ndarray]:
    """(sorted configuration keys, values (2, D, D, C) uint8) with the reference builder's encoding.

    ``chunk``: how many frontier configurations' moves are generated at a time (bounds the
    temporaries; the table is the same whatever it is)."""
    say("configurations", 0.0)
    L = len(cycles[0])
    if L != len(cycles[1]) or not L:
        raise UsageError("the tablebase needs two deck cycles of the same, non-zero length")
    D = L + 1
    mv = Moves(rows, cols, terr, nbrs, flower_idx, toad_idx, gnomes, bump_limit, restrict, dance)
    ix = mv.ix
    C = ix.C
    NP = len(ix.P)
    W = mv.W

    def moon_of(s: int, ds: int) -> int:
        return -1 if ds == 0 else cycles[s][(ds - 2) % L]

    def adv(ds: int) -> int:
        return 1 + ((0 if ds == 0 else ds - 1) + 1) % L

    legal_cnt = np.zeros((2, 4, C), dtype=np.uint8)
    nonwin_cnt = np.zeros((2, 4, C), dtype=np.uint8)
    has_win = np.zeros((2, 4, C), dtype=bool)
    # Unmoves.  Every reverse entry, listed under the mover's placement after the move, gives the
    # mover's placement before it (as a row offset into the pair table), the moons allowing it and
    # how the other side's placement was before it: a row of ``before_opp`` (the same placement,
    # or one with 1 or 2 gnomes on the target square, bumped by the move).  Pair tables have an
    # extra column, index NP, for "no such placement" (-1).
    NP1 = NP + 1
    ident = np.arange(NP, dtype=np.int32)
    before_opp = np.concatenate([ident[None, :], np.where(mv.addopp >= 0, mv.addopp, NP).reshape(-1, NP)])
    before_opp_flat = np.ascontiguousarray(before_opp).reshape(-1).astype(np.int32)
    pair_ext = np.full((NP, NP1), -1, dtype=np.int32)
    pair_ext[:, :NP] = ix.pair
    pairs_flat = [pair_ext.reshape(-1), np.concatenate([ix.pair.T, np.full((NP, 1), -1, np.int32)], axis=1)
                  .reshape(-1)]  # indexed by mover placement * NP1 + other placement, per mover
    del pair_ext
    n_sq = rows * cols
    rev: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for s in (0, 1):
        order, starts = mv.by_own(s)
        T = len(mv.kind[s])
        r_after, r_before, r_code, r_opp = [], [], [], []
        for t in range(T):
            code = int(mv.code[s][t])
            cidx, dst = mv.forward(s, t, mv.configs_of(s, t, order, starts))
            win = W[s][dst]
            for m in range(4):
                if (code >> m) & 1:
                    legal_cnt[s, m, cidx] += 1
                    nonwin_cnt[s, m, cidx[~win]] += 1
                    has_win[s, m, cidx[win]] = True
            a = np.nonzero(mv.legal[s][t])[0]
            j = int(mv.dst[s][t])
            variants = [(a, 0)]
            if mv.kind[s][t] != 2:  # a bump is possible when the mover had no gnome on the target square
                bump = a[ix.P[a, j] == 0]
                variants += [(bump, 1 + k * n_sq + j) for k in (0, 1)]
            for aa, row in variants:
                r_after.append(mv.trans[s][t][aa])
                r_before.append((aa * NP1).astype(np.int32))
                r_code.append(np.full(len(aa), code, dtype=np.uint8))
                r_opp.append(np.full(len(aa), row * NP, dtype=np.int32))
            say("moves", (s * T + t + 1) / (2 * T))
        after = np.concatenate(r_after)
        o = np.argsort(after, kind="stable")
        rptr = np.searchsorted(after[o], np.arange(NP + 1))
        rev.append((rptr, np.concatenate(r_before)[o], np.concatenate(r_code)[o], np.concatenate(r_opp)[o]))

    total = 2 * D * D * C
    vals = np.zeros(total, dtype=np.uint8)
    rem = np.zeros(total, dtype=np.uint8)
    nomove = legal_cnt == 0  # (2, 4, C)

    def base(s: int, dg: int, db: int) -> int:
        return ((s * D + dg) * D + db) * C

    for s in (0, 1):
        for dg in range(D):
            for db in range(D):
                m = moon_of(s, dg if s == 0 else db) + 1
                b0 = base(s, dg, db)
                nm = nomove[s, m]
                rem[b0:b0 + C] = np.where(nm, 1, nonwin_cnt[s, m])
                vals[b0:b0 + C][has_win[s, m] | (nm & W[s])] = 1
    del legal_cnt, nonwin_cnt, has_win

    def sources(s: int, F: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(source configuration, moon code) of every move of side ``s`` into the configurations
        ``F``, grouped by destination in ``F``'s order, and how many each destination has."""
        rptr, rbefore, rcode, ropp = rev[s]
        own_c, opp_c = mv.own_opp(s)
        ownp = own_c[F]
        lo = rptr[ownp]
        lens = rptr[ownp + 1] - lo
        tot = int(lens.sum())
        if not tot:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.uint8), np.zeros(len(F), dtype=np.int64)
        ends = np.cumsum(lens)
        e = np.repeat(lo - (ends - lens), lens)
        e += np.arange(tot, dtype=e.dtype)
        b = np.repeat(opp_c[F], lens)
        b += ropp[e]
        src = pairs_flat[s][before_opp_flat[b] + rbefore[e]]
        ok = src >= 0
        kept = np.concatenate([[0], np.cumsum(ok)])
        return src[ok], rcode[e][ok], kept[ends] - kept[ends - lens]

    decided = int(np.count_nonzero(vals))
    ply = 1
    one = np.uint8(1)
    while True:
        code_now = (ply + 1) // 2 if ply % 2 == 1 else 128 + ply // 2
        new_code = np.uint8(128 + (ply + 1) // 2 if ply % 2 == 1 else ply // 2 + 1)
        say(f"retrograde {ply}", decided / total)
        found = 0
        for s_new in (0, 1):
            s = 1 - s_new  # the side that moved into the frontier
            slices = [(dg, db) for dg in range(D) for db in range(D)]
            member = np.zeros((len(slices), C), dtype=bool)  # member[k, c]: (s_new, slice k, c) in the frontier
            targets: list[list[tuple[int, int]]] = []  # per slice: (moon bit, predecessor slice) of s's moves
            for k, (dg, db) in enumerate(slices):
                b0 = base(s_new, dg, db)
                np.equal(vals[b0:b0 + C], code_now, out=member[k])
                F_all = np.flatnonzero(member[k])
                found += len(F_all)
                own_after = dg if s == 0 else db
                tg = []
                for prev in range(D):
                    if adv(prev) == own_after:
                        g_, b_ = (prev, db) if s == 0 else (dg, prev)
                        tg.append((1 << (moon_of(s, prev) + 1), base(s, g_, b_)))
                targets.append(tg)
                if len(F_all):
                    # passes: the same configuration and decks, side s to move with no move at all
                    m_same = moon_of(s, dg if s == 0 else db) + 1
                    _settle(vals, rem, base(s, dg, db), C, F_all[nomove[s, m_same, F_all]], ply, new_code, one)
            # a move into a winning configuration is itself a win: no moves into those
            U = np.flatnonzero(member.any(axis=0) & ~W[s])
            # each configuration's moves are generated once a ply, then handed to every slice it is in
            for lo in range(0, len(U), chunk):
                Uc = U[lo:lo + chunk]
                srcs, codes, counts = sources(s, Uc)
                starts = np.cumsum(counts) - counts
                for k in range(len(slices)):
                    sel = np.flatnonzero(member[k][Uc])
                    if not len(sel):
                        continue
                    cn = counts[sel]
                    tot = int(cn.sum())
                    if not tot:
                        continue
                    e = np.repeat(starts[sel] - (np.cumsum(cn) - cn), cn)
                    e += np.arange(tot, dtype=e.dtype)
                    ss, cc = srcs[e], codes[e]
                    for bit, tb0 in targets[k]:
                        _settle(vals, rem, tb0, C, ss[(cc & bit) != 0], ply, new_code, one)
        if not found:
            break
        if ply > 1:
            decided += found  # the frontier of a ply is what the ply before decided
        ply += 1
        if ply > max_ply:
            raise RuntimeError("tablebase distances exceed the byte encoding")
    return ix.keys, vals.reshape(2, D, D, C)


def _settle(vals: np.ndarray, rem: np.ndarray, b0: int, C: int, src: np.ndarray, ply: int, code: np.uint8,
            one: np.uint8) -> None:
    """Predecessors ``src`` (configurations of the slice at ``b0``) of frontier states: after a
    winning frontier each loses one option, and loses (``code``) when none is left; after a
    losing frontier each wins (``code``).  Marking a loss at once is safe: a state with no
    option left has no further move into the frontier, and the frontier's code differs."""
    if not len(src):
        return
    v = vals[b0:b0 + C]
    src = src[v[src] == 0]
    if ply % 2 == 1:
        r = rem[b0:b0 + C]
        np.subtract.at(r, src, one)
        v[src[r[src] == 0]] = code
    else:
        v[src] = code
