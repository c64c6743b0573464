"""The compiled kernel of ``jit.py`` (numba, imported only when the compiled search is used).

Every integer is int64 and masks stay below bit 62.  The search state lives in arrays (a frame a
ply), so ``run`` can stop at a node boundary and resume (PAUSE) when Python has to look at the
clock or grow the transposition table.  Kept apart from ``jit.py`` so that importing the solver
never imports numba, and so that numba's on-disk cache depends on this file alone (every constant
the kernel uses is defined here).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

WIN, LOSE = 0, 1
DONE, PAUSE, EXHAUSTED, OVERFLOW = 0, 1, 2, 3
# ctx fields
SP, NODES, RES, COUNT, WINS, LOSES, LIMIT, SLICE_END, TT, ORDER, REPLACE, THREATS = range(12)
CTX_FIELDS = 12
PROBE = 16  # slots looked at for a key once the table is full and entries are replaced
# engine scalar fields (the ``E`` array)
_N, _FULL, _TOAD, _LIM, _RESTRICT, _FL0, _FL1, _NSYM, _NCHUNK, _KW = range(10)
_DEBRUIJN = 0x03F79D71B4CB0A89
DB_TABLE = np.zeros(64, dtype=np.int64)  # de Bruijn: bit index of a single-bit mask
for _i in range(64):
    DB_TABLE[(((1 << _i) * _DEBRUIJN) & ((1 << 64) - 1)) >> 58] = _i


@njit(cache=True, nogil=True)
def _bit(low: int, db: Any) -> int:
    """The index of the single set bit ``low`` (de Bruijn)."""
    return int(db[((low * 0x03F79D71B4CB0A89) >> 58) & 63])


@njit(cache=True, nogil=True)
def _covers_all(occ: int, pl: Any) -> bool:
    for k in range(pl.shape[0]):
        if pl[k] & occ == pl[k]:
            return True
    return False


@njit(cache=True, nogil=True)
def _covers_at(j: int, occ: int, plsq0: Any, plsq: Any) -> bool:
    """Does ``occ`` cover a placement containing square ``j``?"""
    for k in range(plsq0[j], plsq0[j + 1]):
        if plsq[k] & occ == plsq[k]:
            return True
    return False


@njit(cache=True, nogil=True)
def _gen(s: Any, E: Any, nbr: Any, terr: Any, db: Any, out: Any) -> int:
    """The mover's legal moves in FastEngine.moves order into ``out``; returns how many."""
    me = s[6]
    if me == 0:
        own1, own2, opp1 = s[0], s[1], s[2]
    else:
        own1, own2, opp1 = s[2], s[3], s[0]
    moon = s[7 + me]
    addb = 0
    if s[4 + me] > 0:
        addb = (E[_FL0] if me == 0 else E[_FL1]) & ~(opp1 | own2)
        if E[_RESTRICT] != 0 and moon >= 0:
            addb &= ~terr[moon]
    free = E[_FULL] ^ terr[moon] if moon >= 0 else E[_FULL]
    c = 0
    src = own1 & free
    while src:
        low = src & -src
        src ^= low
        i = _bit(low, db)
        tgt = nbr[i] & free & ~own2
        base = (i + 1) << 2
        while tgt:
            lj = tgt & -tgt
            tgt ^= lj
            j = _bit(lj, db)
            out[c] = base | j << 9
            c += 1
            if own2 & low and not own1 & lj:
                out[c] = 1 | base | j << 9
                c += 1
    while addb:
        low = addb & -addb
        addb ^= low
        out[c] = 2 | _bit(low, db) << 9
        c += 1
    if c == 0:
        out[0] = 3
        c = 1
    return c


@njit(cache=True, nogil=True)
def _wins(s: Any, m: int, covered: bool, E: Any, pl: Any, plsq0: Any, plsq: Any) -> bool:
    """FastEngine.wins: does the mover meet a win condition after ``m``?"""
    me = s[6]
    if me == 0:
        own1, own2, opp1, opp2, offopp = s[0], s[1], s[2], s[3], s[5]
    else:
        own1, own2, opp1, opp2, offopp = s[2], s[3], s[0], s[1], s[4]
    tm = E[_TOAD]
    kind = m & 3
    if kind == 3:
        return offopp >= E[_LIM] or (tm != 0 and own1 & tm == tm) or covered
    j = m >> 9
    bj = 1 << j
    if offopp + ((opp1 >> j) & 1) + ((opp2 >> j) & 1) >= E[_LIM]:
        return True
    occ = own1 | bj
    if kind != 2:
        bi = 1 << (((m >> 2) & 127) - 1)
        if kind == 1 or not own2 & bi:
            occ ^= bi
    if tm != 0 and occ & tm == tm:
        return True
    if covered:
        return _covers_all(occ, pl)
    return _covers_at(j, occ, plsq0, plsq)


@njit(cache=True, nogil=True)
def _first_win(s: Any, moves: Any, cnt: int, E: Any, pl: Any, plsq0: Any, plsq: Any) -> int:
    """FastEngine.first_win: the first winning move in generation order, else -1."""
    me = s[6]
    if me == 0:
        own1, opp1, opp2, offopp = s[0], s[2], s[3], s[5]
    else:
        own1, opp1, opp2, offopp = s[2], s[0], s[1], s[4]
    lim = E[_LIM]
    if offopp >= lim:
        return moves[0]
    covered = False
    w = 0
    for k in range(pl.shape[0]):
        miss = pl[k] & ~own1
        if miss == 0:
            covered = True
        elif miss & (miss - 1) == 0:
            w |= miss
    tm = E[_TOAD]
    if covered or (tm != 0 and own1 & tm == tm):
        for k in range(cnt):
            if _wins(s, moves[k], covered, E, pl, plsq0, plsq):
                return moves[k]
        return -1
    if offopp + 1 >= lim:
        w |= opp1
    elif offopp + 2 >= lim:
        w |= opp2
    if tm != 0:
        miss = tm & ~own1
        if miss & (miss - 1) == 0:
            w |= miss
    if w == 0:
        return -1
    for k in range(cnt):
        m = moves[k]
        if (w >> (m >> 9)) & 1 and m & 3 != 3 and _wins(s, m, False, E, pl, plsq0, plsq):
            return m
    return -1


@njit(cache=True, nogil=True)
def _perm(x: int, tab: Any, nchunk: int) -> int:
    out = 0
    for c in range(nchunk):
        out |= tab[c, (x >> (8 * c)) & 255]
    return out


@njit(cache=True, nogil=True)
def _put(out: Any, pos: int, val: int, width: int) -> None:
    idx = pos >> 6
    off = pos & 63
    out[idx] |= val << off
    if off + width > 64:
        out[idx + 1] |= val >> (64 - off)


@njit(cache=True, nogil=True)
def _key(s: Any, E: Any, symtab: Any, out: Any) -> None:
    """FastEngine.key as words: the least image under the symmetries (order b2, b1, g2, g1), then
    off-board counts, mover, moons and deck ids."""
    n = E[_N]
    g1, g2, b1, b2 = s[0], s[1], s[2], s[3]
    nch = E[_NCHUNK]
    for t in range(E[_NSYM]):
        tab = symtab[t]
        p3 = _perm(s[3], tab, nch)
        if p3 > b2:
            continue
        p2 = _perm(s[2], tab, nch)
        if p3 == b2 and p2 > b1:
            continue
        p1 = _perm(s[1], tab, nch)
        if p3 == b2 and p2 == b1 and p1 > g2:
            continue
        p0 = _perm(s[0], tab, nch)
        if p3 == b2 and p2 == b1 and p1 == g2 and p0 >= g1:
            continue
        g1, g2, b1, b2 = p0, p1, p2, p3
    for k in range(out.shape[0]):
        out[k] = 0
    _put(out, 0, g1, n)
    _put(out, n, g2, n)
    _put(out, 2 * n, b1, n)
    _put(out, 3 * n, b2, n)
    rest = (s[4] | s[5] << 7 | s[6] << 14 | (s[7] + 1) << 15 | (s[8] + 1) << 18 | s[9] << 21
            | s[10] << 37)
    _put(out, 4 * n, rest, 53)


@njit(cache=True, nogil=True)
def _hash(kw: Any) -> int:
    h = 0
    for k in range(kw.shape[0]):
        h = (h ^ kw[k]) * -7046029254386353131
        h ^= (h >> 31) & 0x1FFFFFFFF
    h = (h ^ ((h >> 30) & 0x3FFFFFFFF)) * -4658895280553007687
    h = (h ^ ((h >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685
    return h ^ ((h >> 31) & 0x1FFFFFFFF)


# A table slot is its key words and one packed value word: win, no-win, lose, no-lose depths (8 bits
# each, 255 standing for "none yet" = BIG), the best move + 1 (17 bits), and the flags saying the slot
# is an entry of the win table (bit 49) or the lose table (bit 50).  An empty slot's word is 0.
FRESH = 255 | 255 << 16  # win and lose "none yet", no-win and no-lose 0, no best move
WIN_FLAG, LOSE_FLAG = 1 << 49, 1 << 50
NONE8 = 255
MAX_DEPTH = 250


@njit(cache=True, nogil=True)
def _get(v: int, f: int) -> int:
    """Field ``f`` (0 win, 1 no-win, 2 lose, 3 no-lose) of a value word; 255 reads as 1 << 30."""
    x = (v >> (8 * f)) & 255
    return (1 << 30) if x == 255 else x


@njit(cache=True, nogil=True)
def _set(v: int, f: int, x: int) -> int:
    return (v & ~(255 << (8 * f))) | (255 if x >= 255 else x) << (8 * f)


@njit(cache=True, nogil=True)
def _best(v: int) -> int:
    return ((v >> 32) & 0x1FFFF) - 1


@njit(cache=True, nogil=True)
def _set_best(v: int, m: int) -> int:
    return (v & ~(0x1FFFF << 32)) | (m + 1) << 32


@njit(cache=True, nogil=True)
def _find(kw: Any, tkeys: Any, tv: Any, window: int) -> int:
    """The slot holding ``kw``, or ``-1 - slot`` of the empty slot where it would go.

    ``window`` 0: probe until an empty slot (the table is at most half full).  Otherwise (the
    table is full and entries are replaced) look at ``window`` slots at most; absent from them,
    ``-1 - slot`` names the first of them (``_slot`` picks the one to replace).  No slot ever
    becomes empty again, so a key is always found in the run of slots before the first empty one."""
    mask = tv.shape[0] - 1
    h = _hash(kw) & mask
    i = h
    nk = kw.shape[0]
    looked = 0
    while tv[i] != 0:
        same = True
        for k in range(nk):
            if tkeys[i, k] != kw[k]:
                same = False
                break
        if same:
            return i
        looked += 1
        if window and looked >= window:
            return -1 - h
        i = (i + 1) & mask
    return -1 - i


@njit(cache=True, nogil=True)
def _work(v: int) -> int:
    """How deep a search a slot's entry stands for (its greatest proven depth): the entry to
    replace is the cheapest to find again."""
    best = 0
    for f in range(4):
        x = (v >> (8 * f)) & 255
        if x != 255 and x > best:
            best = x
    return best


@njit(cache=True, nogil=True)
def _slot(kw: Any, tkeys: Any, tv: Any, ctx: Any) -> int:
    """The slot of ``kw``, inserted (fresh values) when absent: into an empty slot, or, once the
    table is full (``ctx[REPLACE]``), over the shallowest entry of the probed slots."""
    window = PROBE if ctx[REPLACE] else 0
    i = _find(kw, tkeys, tv, window)
    if i >= 0:
        return i
    i = -1 - i
    if tv[i] != 0:  # every probed slot is taken: replace the one with the least work
        mask = tv.shape[0] - 1
        best, least = i, 1 << 30
        j = i
        for _ in range(window):
            w = _work(tv[j])
            if w < least:
                best, least = j, w
            j = (j + 1) & mask
        i = best
        if tv[i] & WIN_FLAG:
            ctx[WINS] -= 1
        if tv[i] & LOSE_FLAG:
            ctx[LOSES] -= 1
        ctx[COUNT] -= 1
    tv[i] = FRESH
    for k in range(kw.shape[0]):
        tkeys[i, k] = kw[k]
    ctx[COUNT] += 1
    return i


@njit(cache=True, nogil=True)
def _mark(i: int, flag: int, tv: Any, ctx: Any) -> None:
    """Count slot ``i`` as an entry of the win table (WIN_FLAG) or the lose table (LOSE_FLAG)."""
    if tv[i] & flag == 0:
        tv[i] |= flag
        ctx[WINS if flag == WIN_FLAG else LOSES] += 1


@njit(cache=True, nogil=True)
def rehash(tkeys: Any, tv: Any, nkeys: Any, nv: Any) -> None:
    """Move every entry of one table into a larger, empty one."""
    for i in range(tv.shape[0]):
        if tv[i] != 0:
            j = -1 - _find(tkeys[i], nkeys, nv, 0)
            nv[j] = tv[i]
            for k in range(tkeys.shape[1]):
                nkeys[j, k] = tkeys[i, k]


@njit(cache=True, nogil=True)
def _child(st: Any, p: int, m: int, ci: int, flip_t: Any, flip_d: Any) -> None:
    """The state after move ``m`` of frame ``p`` and its ``ci``-th flip, into frame ``p + 1``."""
    s = st[p]
    c = st[p + 1]
    me = s[6]
    if me == 0:
        own1, own2, opp1, opp2, offme, offopp = s[0], s[1], s[2], s[3], s[4], s[5]
    else:
        own1, own2, opp1, opp2, offme, offopp = s[2], s[3], s[0], s[1], s[5], s[4]
    kind = m & 3
    if kind != 3:
        j = m >> 9
        bj = 1 << j
        if kind == 2:
            offme -= 1
        else:
            bi = 1 << (((m >> 2) & 127) - 1)
            if kind == 1:
                own1 ^= bi
                own2 ^= bi
            elif own2 & bi:
                own2 ^= bi
            else:
                own1 ^= bi
            if opp1 & bj:
                offopp += 1 + ((opp2 >> j) & 1)
                opp1 ^= bj
                opp2 &= ~bj
        if kind == 1:
            own1 |= bj
            own2 |= bj
        elif own1 & bj:
            own2 |= bj
        else:
            own1 |= bj
    if me == 0:
        c[0], c[1], c[2], c[3], c[4], c[5] = own1, own2, opp1, opp2, offme, offopp
    else:
        c[0], c[1], c[2], c[3], c[4], c[5] = opp1, opp2, own1, own2, offopp, offme
    c[7], c[8], c[9], c[10] = s[7], s[8], s[9], s[10]
    c[6] = 1 - me
    if kind != 3:
        d = s[9 + me]
        c[7 + me] = flip_t[d, me, ci]
        c[9 + me] = flip_d[d, me, ci]


@njit(cache=True, nogil=True)
def _order(s: Any, moves: Any, cnt: int, hint: int, hist: Any, E: Any, out: Any, score: Any,
           ordering: bool) -> None:
    """FastSearcher.order: a stable sort by score, best first, then the table's move first."""
    if not ordering:
        for k in range(cnt):
            out[k] = moves[k]
        return
    if s[6] == 0:
        opp1, opp2 = s[2], s[3]
    else:
        opp1, opp2 = s[0], s[1]
    tm = E[_TOAD]
    for k in range(cnt):
        m = moves[k]
        kind = m & 3
        sc = 0
        if kind != 3:
            j = m >> 9
            sc = hist[m] + 1000 * (((opp1 >> j) & 1) + ((opp2 >> j) & 1))
            if (tm >> j) & 1:
                sc += 300
            if kind == 2:
                sc += 50
        # insertion, stable: past every earlier move of a strictly lower score
        i = k
        while i > 0 and score[i - 1] < sc:
            out[i] = out[i - 1]
            score[i] = score[i - 1]
            i -= 1
        out[i] = m
        score[i] = sc
    if hint >= 0:
        for k in range(cnt):
            if out[k] == hint:
                for i in range(k, 0, -1):
                    out[i] = out[i - 1]
                out[0] = hint
                break


@njit(cache=True, nogil=True)
def _threats(s: Any, E: Any, nbr: Any, terr: Any, db: Any, pl: Any, plsq0: Any, plsq: Any,
             sa: Any, buf: Any, need: Any, bump: Any, wdst: Any) -> int:
    """FastEngine.attacker_threats into (need, bump, wdst); returns how many."""
    for k in range(11):
        sa[k] = s[k]
    att = 1 - s[6]
    sa[6] = att
    own1, own2 = (s[0], s[1]) if att == 0 else (s[2], s[3])
    covered = _covers_all(own1, pl)
    cnt = _gen(sa, E, nbr, terr, db, buf)
    tm = E[_TOAD]
    c = 0
    for k in range(cnt):
        m = buf[k]
        kind = m & 3
        if kind == 3 or not _wins(sa, m, covered, E, pl, plsq0, plsq):
            continue
        j = m >> 9
        occ = own1 | 1 << j
        src_bit = 0
        keep = 1 << j
        if kind != 2:
            keep = 0
            src_bit = 1 << (((m >> 2) & 127) - 1)
            if kind == 1 or not own2 & src_bit:
                occ ^= src_bit
        if tm != 0 and occ & tm == tm:
            rely = tm
        else:
            rely = -1
            for q in range(pl.shape[0]):
                if pl[q] & occ == pl[q]:
                    rely &= pl[q]
        if rely == -1:
            need[c] = src_bit | keep
            bump[c] = 1
        else:
            need[c] = ((src_bit | rely) & ~(1 << j)) | keep
            bump[c] = 0
        wdst[c] = j
        c += 1
    return c


@njit(cache=True, nogil=True)
def _spares(r: int, nt: int, need: Any, bump: Any, wdst: Any) -> bool:
    """FastEngine.spares_threat over the first ``nt`` threats."""
    if nt == 0:
        return False
    if r & 3 == 3:
        return True
    dst = r >> 9
    add = r & 3 == 2
    src = -1 if add else ((r >> 2) & 127) - 1
    for k in range(nt):
        if (need[k] >> dst) & 1 or (bump[k] != 0 and (add or src == wdst[k])):
            continue
        return True
    return False


@njit(cache=True, nogil=True)
def _quiet(s: Any, r: int, E: Any) -> bool:
    """FastEngine.quiet."""
    if r & 3 == 3:
        return True
    me = s[6]
    att_own = s[2] if me == 0 else s[0]
    dst = r >> 9
    if (att_own >> dst) & 1:
        return False
    own1, own2 = (s[0], s[1]) if me == 0 else (s[2], s[3])
    off = s[4 + me]
    there = ((own1 >> dst) & 1) + ((own2 >> dst) & 1)
    kind = r & 3
    if kind == 2:
        there += 1
        off -= 1
    else:
        fl = E[_FL1] if me == 0 else E[_FL0]
        if (fl >> (((r >> 2) & 127) - 1)) & 1:
            return False
        there += 2 if kind == 1 else 1
    return off + there < E[_LIM]


@njit(cache=True, nogil=True)
def _escapes(key: Any, n: int, r: int, tkeys: Any, tv: Any, ctx: Any, hist: Any, use_tt: bool,
             ordering: bool) -> None:
    """The reply ``r`` escapes: the mover of the node keyed ``key`` does not lose within ``n``."""
    if use_tt:
        i = _slot(key, tkeys, tv, ctx)
        tv[i] = _set(tv[i], 3, max(_get(tv[i], 3), n))
        tv[i] = _set_best(tv[i], r)
        _mark(i, LOSE_FLAG, tv, ctx)
    if ordering:
        hist[r] += n * n


@njit(cache=True, nogil=True)
def run(ctx: Any, st: Any, typ: Any, nn: Any, kw: Any, mv: Any, nm: Any, mi: Any, ci: Any,
        tmp: Any, score: Any, hist: Any, tkeys: Any, tv: Any,
        E: Any, nbr: Any, terr: Any, pl: Any, plsq0: Any, plsq: Any, symtab: Any, db: Any,
        flip_n: Any, flip_t: Any, flip_d: Any,
        sa: Any, buf: Any, tneed: Any, tbump: Any, tdst: Any, mstart: Any, most: Any, hard: Any) -> int:
    """Run (or resume) the AND-OR search of the stack's frames; DONE (result in ctx), PAUSE (a slice
    ended or the table needs to grow: resume by calling again), EXHAUSTED (node budget) or
    OVERFLOW (a move list longer than the buffers: cannot happen on a valid engine).

    Table values per slot (packed, see FRESH): win (least depth proven), no-win (greatest proven),
    lose, no-lose, best move.  With ctx[THREATS] it is FastSearcher's threat search (same nodes).

    ``sa``, ``buf``: scratch (a state, a move list); ``tneed``/``tbump``/``tdst``: per frame, the
    attacker's threats at a lose frame (count in ``most``); ``mstart``, ``most``, ``hard``: per win frame,
    the node count when its current move started, the most nodes a failed move took and that move."""
    use_tt = ctx[TT] != 0
    use_thr = ctx[THREATS] != 0
    ordering = ctx[ORDER] != 0
    window = PROBE if ctx[REPLACE] else 0
    grow_at = tv.shape[0] + 1 if window else tv.shape[0] // 2
    sp = ctx[SP]
    phase = 0  # 0 enter frame sp, 1 try its next child, 2 return res to the frame below
    res = 0
    big = 1 << 30
    while True:
        if phase == 0:
            if ctx[NODES] >= ctx[SLICE_END] or ctx[COUNT] >= grow_at:
                ctx[SP] = sp
                return PAUSE
            ctx[NODES] += 1
            if ctx[NODES] > ctx[LIMIT]:
                ctx[SP] = sp
                return EXHAUSTED
            s = st[sp]
            n = nn[sp]
            found = -1
            if use_tt:
                _key(s, E, symtab, kw[sp])
                found = _find(kw[sp], tkeys, tv, window)
                w, nw = big, 0
                if found >= 0:
                    if typ[sp] == WIN:
                        w, nw = _get(tv[found], 0), _get(tv[found], 1)
                    else:
                        w, nw = _get(tv[found], 2), _get(tv[found], 3)
                if n >= w:
                    res = 1
                    phase = 2
                    continue
                if n <= nw:
                    res = 0
                    phase = 2
                    continue
            cnt = _gen(s, E, nbr, terr, db, tmp)
            if cnt > tmp.shape[0] - 2:
                return OVERFLOW
            m0 = _first_win(s, tmp, cnt, E, pl, plsq0, plsq)
            if typ[sp] == WIN:
                if m0 >= 0:
                    if use_tt:
                        i = _slot(kw[sp], tkeys, tv, ctx)
                        tv[i] = _set(tv[i], 0, min(_get(tv[i], 0), 1))
                        tv[i] = _set_best(tv[i], m0)
                        _mark(i, WIN_FLAG, tv, ctx)
                    res = 1
                    phase = 2
                    continue
                if n <= 1:
                    if use_tt:
                        i = _slot(kw[sp], tkeys, tv, ctx)
                        tv[i] = _set(tv[i], 1, max(_get(tv[i], 1), 1))
                        _mark(i, WIN_FLAG, tv, ctx)
                    res = 0
                    phase = 2
                    continue
            elif m0 >= 0:
                if use_tt:
                    i = _slot(kw[sp], tkeys, tv, ctx)
                    tv[i] = _set(tv[i], 3, big)
                    tv[i] = _set_best(tv[i], m0)
                    _mark(i, LOSE_FLAG, tv, ctx)
                res = 0
                phase = 2
                continue
            nt = 0
            if use_thr and typ[sp] == LOSE:
                nt = _threats(s, E, nbr, terr, db, pl, plsq0, plsq, sa, buf, tneed[sp], tbump[sp], tdst[sp])
                if n <= 1 and nt == 0:
                    q = -1
                    for k in range(cnt):
                        if _quiet(s, tmp[k], E):
                            q = tmp[k]
                            break
                    if q >= 0:
                        _escapes(kw[sp], n, q, tkeys, tv, ctx, hist, use_tt, ordering)
                        res = 0
                        phase = 2
                        continue
            hint = -1
            if use_tt and found >= 0:
                hint = _best(tv[found])
            _order(s, tmp, cnt, hint, hist, E, mv[sp], score, ordering)
            if nt > 0:
                kept = 0
                for k in range(cnt):
                    r = mv[sp, k]
                    if not _spares(r, nt, tneed[sp], tbump[sp], tdst[sp]):
                        mv[sp, kept] = r
                        kept += 1
                cnt = kept
            nm[sp] = cnt
            mi[sp] = 0
            ci[sp] = 0
            most[sp] = -1
            hard[sp] = -1
            phase = 1
        elif phase == 1:
            p = sp
            n = nn[p]
            if mi[p] >= nm[p]:  # every move tried
                if use_tt:
                    i = _slot(kw[p], tkeys, tv, ctx)
                    if typ[p] == WIN:
                        tv[i] = _set(tv[i], 1, max(_get(tv[i], 1), n))
                        if use_thr and hard[p] >= 0:
                            tv[i] = _set_best(tv[i], hard[p])
                        _mark(i, WIN_FLAG, tv, ctx)
                    else:
                        tv[i] = _set(tv[i], 2, min(_get(tv[i], 2), n))
                        _mark(i, LOSE_FLAG, tv, ctx)
                res = 0 if typ[p] == WIN else 1
                phase = 2
                continue
            m = mv[p, mi[p]]
            kids = 1 if m & 3 == 3 else flip_n[st[p, 9 + st[p, 6]], st[p, 6]]
            if ci[p] >= kids:
                if typ[p] == WIN:  # every flip of m loses for the opponent: m wins
                    if use_tt:
                        i = _slot(kw[p], tkeys, tv, ctx)
                        tv[i] = _set(tv[i], 0, min(_get(tv[i], 0), n))
                        tv[i] = _set_best(tv[i], m)
                        _mark(i, WIN_FLAG, tv, ctx)
                    if ordering:
                        hist[m] += n * n
                    res = 1
                    phase = 2
                    continue
                mi[p] += 1
                ci[p] = 0
                continue
            if ci[p] == 0:
                mstart[p] = ctx[NODES]
            _child(st, p, m, ci[p], flip_t, flip_d)
            typ[p + 1] = 1 - typ[p]
            nn[p + 1] = n - 1 if typ[p] == WIN else n
            sp = p + 1
            phase = 0
        else:
            if sp == 0:
                ctx[RES] = res
                ctx[SP] = 0
                return DONE
            sp -= 1
            p = sp
            if typ[p] == WIN:
                if res == 1:  # the opponent loses after this flip: try the next flip
                    ci[p] += 1
                else:  # a refutation: try the next move
                    if ctx[NODES] - mstart[p] > most[p]:
                        most[p] = ctx[NODES] - mstart[p]
                        hard[p] = mv[p, mi[p]]
                    mi[p] += 1
                    ci[p] = 0
                phase = 1
            elif res == 1:
                ci[p] += 1
                phase = 1
            else:  # the reply (and flip) escapes: this node does not lose
                _escapes(kw[p], nn[p], mv[p, mi[p]], tkeys, tv, ctx, hist, use_tt, ordering)
                res = 0
                phase = 2
