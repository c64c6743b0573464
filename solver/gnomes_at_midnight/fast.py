"""A bitboard Gnomes at Midnight engine for the proof-number search and the opening.

Why another engine: the tuple kernel (``kernel.py``) applies every move to find the
immediate wins of a node and hashes by a Zobrist sum per node; a forced-win search spends
most of its time there.  Here a state is a tuple of small integers:

    (g1, g2, b1, b2, off_green, off_blue, mover, moon_green, moon_blue, deck_green, deck_blue)

``g1``/``b1`` are bit masks of the squares holding at least one green/blue gnome, ``g2``/``b2``
of those holding two (bit ``i`` = square ``row * cols + col``); moons are terrain indices or
``NO_CARD``; a deck is an id into :attr:`FastEngine.decks` (known order and unknown counts),
whose flips are tabulated once.  Immediate dance wins come from a memo of "threats" per
occupancy mask (the placements one square short, with the squares they rely on), so finding
a node's winning moves needs no copy of the board.

A move is an int ``kind | (src + 1) << 2 | dst << 9`` (kinds as in ``kernel``: 0 step, 1 pair,
2 add, 3 pass; ``src`` -1 for add and pass).  The models layer
(``models.gnomes_at_midnight.moves``) stays the reference: the tests compare this engine with it
move by move, and :class:`FastSearcher` is the same AND-OR alpha-beta as ``search.Searcher``
(same move order, same tables, so the same nodes) for measuring the speed-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

from gnomekit.models.gnomes_at_midnight.moves import ADD, PAIR, PASS, STEP, Move
from gnomekit.models.gnomes_at_midnight.position import NO_CARD, Counts, Position, counts_of, dance_placements
from gnomekit.solver.core.budget import Meter

FState = tuple[int, int, int, int, int, int, int, int, int, int, int]
K_STEP, K_PAIR, K_ADD, K_PASS = 0, 1, 2, 3
PASS_M = K_PASS  # src -1 -> (src + 1) = 0, dst 0
BIG = 1 << 30
PENDING = 3  # a moon field value: the mover's flip is still to come (afterstates, used by pns)
_CHUNK = 12  # bits per lookup in the symmetry tables
# covered already; dst -> supports (the masks a win there relies on); mask of those dsts
Threat = tuple[bool, dict[int, tuple[int, ...]], int]


def move_int(kind: int, src: int, dst: int) -> int:
    return kind | (src + 1) << 2 | dst << 9


def move_parts(m: int) -> tuple[int, int, int]:
    """(kind, src, dst) of a move int (src -1 for add and pass, dst 0 for pass)."""
    return m & 3, ((m >> 2) & 127) - 1, m >> 9


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


@cache
def _sym_tables(perm: tuple[int, ...], n: int) -> list[list[int]]:
    """For each 12-bit chunk of an ``n``-bit mask, the image of every chunk value under ``perm``."""
    tables = []
    for c0 in range(0, n, _CHUNK):
        width = min(_CHUNK, n - c0)
        tab = [0] * (1 << width)
        for v in range(1, 1 << width):
            low = v & -v
            tab[v] = tab[v ^ low] | 1 << perm[c0 + low.bit_length() - 1]
        tables.append(tab)
    return tables


class FastEngine:
    """The rules of one board and rule set over bitboard states (see the module docstring)."""

    def __init__(self, pos: Position, symmetry: bool = True) -> None:
        b = pos.board
        self.board = b
        self.n = n = b.size
        self.full_mask = (1 << n) - 1
        self.nbr = tuple(sum(1 << j for j in b.nbrs[i]) for i in range(n))
        self.terr_mask = tuple(sum(1 << i for i in range(n) if b.terr[i] == t) for t in range(3))
        self.flowers = b.flower_idx
        self.flower_bits = tuple(tuple(1 << f for f in fl) for fl in b.flower_idx)
        self.toad_mask = sum(1 << t for t in b.toad_idx)
        self.limit = pos.bump_limit
        self.restrict = pos.moon_restricts_adding
        self.full = (counts_of(pos.full_decks[0]), counts_of(pos.full_decks[1]))
        self.dance = pos.dance
        self.placements = tuple(sum(1 << i for i in pl) for pl in dance_placements(b.rows, b.cols, pos.dance))
        self.syms = b.symmetries if symmetry else b.symmetries[:1]
        # per non-identity symmetry, per 12-bit chunk of a mask: the permuted bits
        self._sym_tables: list[list[list[int]]] = [_sym_tables(perm, n) for perm in self.syms[1:]]
        self._three = [tuple(t) for t in self._sym_tables] if 24 < n <= 36 else []
        self.decks: list[tuple[tuple[int, ...], Counts]] = []
        self._deck_id: dict[tuple[tuple[int, ...], Counts], int] = {}
        self._flips: dict[tuple[int, int], tuple[tuple[int, int, int], ...]] = {}
        self._threats: dict[int, Threat] = {}
        self._moves: dict[int, tuple[int, ...]] = {}
        self.flower_mask = (sum(self.flower_bits[0]), sum(self.flower_bits[1]))
        self.rest_shift = 4 * n

    # -- conversion -------------------------------------------------------------------------------
    def deck_id(self, known: tuple[int, ...], unknown: Counts) -> int:
        k = (tuple(known), (unknown[0], unknown[1], unknown[2]))
        i = self._deck_id.get(k)
        if i is None:
            if len(self.decks) >= 1 << 16:
                raise ValueError("more than 65,536 deck states: the packed keys cannot hold them")
            i = self._deck_id[k] = len(self.decks)
            self.decks.append(k)
        return i

    def state(self, pos: Position) -> FState:
        g1 = g2 = b1 = b2 = 0
        for i, v in enumerate(pos.cells):
            if v > 0:
                g1 |= 1 << i
                if v > 1:
                    g2 |= 1 << i
            elif v < 0:
                b1 |= 1 << i
                if v < -1:
                    b2 |= 1 << i
        return (g1, g2, b1, b2, pos.off[0], pos.off[1], pos.to_move, pos.moon[0], pos.moon[1],
                self.deck_id(pos.known[0], pos.unknown[0]), self.deck_id(pos.known[1], pos.unknown[1]))

    def cells(self, s: FState) -> tuple[int, ...]:
        g1, g2, b1, b2 = s[0], s[1], s[2], s[3]
        return tuple((g1 >> i & 1) + (g2 >> i & 1) - (b1 >> i & 1) - (b2 >> i & 1) for i in range(self.n))

    def position(self, s: FState, like: Position, turn: int | None = None) -> Position:
        """The reference position of ``s`` (board and rules from ``like``)."""
        k0, u0 = self.decks[s[9]]
        k1, u1 = self.decks[s[10]]
        return replace(like, cells=self.cells(s), off=(s[4], s[5]), to_move=s[6], moon=(s[7], s[8]),
                       known=(k0, k1), unknown=(u0, u1), turn=like.turn if turn is None else turn)

    def to_move(self, m: int) -> Move:
        kind, i, j = move_parts(m)
        b = self.board
        if kind == K_PASS:
            return Move(PASS)
        if kind == K_ADD:
            return Move(ADD, None, b.cell(j))
        return Move(STEP if kind == K_STEP else PAIR, b.cell(i), b.cell(j))

    def from_move(self, m: Move) -> int:
        b = self.board
        if m.kind == PASS:
            return PASS_M
        assert m.dst is not None
        if m.kind == ADD:
            return move_int(K_ADD, -1, b.index(m.dst))
        assert m.src is not None
        return move_int(K_STEP if m.kind == STEP else K_PAIR, b.index(m.src), b.index(m.dst))

    def move_text(self, m: int) -> str:
        return self.to_move(m).text()

    # -- hashing ----------------------------------------------------------------------------------
    def _perm(self, tables: list[list[int]], x: int) -> int:
        out = 0
        sh = 0
        for tab in tables:
            out |= tab[(x >> sh) & 0xFFF]
            sh += _CHUNK
        return out

    def key(self, s: FState) -> int:
        """A packed int identifying ``s`` up to the board's colour-keeping symmetries (least image).

        Off-board counts take 7 bits each, moons 3 (``PENDING`` included), deck ids 16 bits."""
        n = self.n
        rest = (s[4] | s[5] << 7 | s[6] << 14 | (s[7] + 1) << 15 | (s[8] + 1) << 18 | s[9] << 21
                | s[10] << 37) << self.rest_shift
        g1, g2, b1, b2 = s[0], s[1], s[2], s[3]
        best = g1 | g2 << n | b1 << 2 * n | b2 << 3 * n
        if self._three:  # boards of up to 36 squares: three table lookups per mask, inlined
            for t0, t1, t2 in self._three:
                k = (t0[g1 & 0xFFF] | t1[g1 >> 12 & 0xFFF] | t2[g1 >> 24]
                     | (t0[g2 & 0xFFF] | t1[g2 >> 12 & 0xFFF] | t2[g2 >> 24]) << n
                     | (t0[b1 & 0xFFF] | t1[b1 >> 12 & 0xFFF] | t2[b1 >> 24]) << 2 * n
                     | (t0[b2 & 0xFFF] | t1[b2 >> 12 & 0xFFF] | t2[b2 >> 24]) << 3 * n)
                if k < best:
                    best = k
            return best | rest
        p = self._perm
        for tables in self._sym_tables:
            k = p(tables, g1) | p(tables, g2) << n | p(tables, b1) << 2 * n | p(tables, b2) << 3 * n
            if k < best:
                best = k
        return best | rest

    # -- dance threats ----------------------------------------------------------------------------
    def threats(self, occ: int) -> Threat:
        """For a side's occupancy: does it already cover the dance, for each square ``j`` the
        supports (a placement less ``j``, inside ``occ``) that win when a gnome reaches ``j``, and
        the mask of those squares."""
        t = self._threats.get(occ)
        if t is not None:
            return t
        covered = False
        sup: dict[int, list[int]] = {}
        for pm in self.placements:
            miss = pm & ~occ
            if not miss:
                covered = True
            elif not miss & (miss - 1):
                sup.setdefault(miss.bit_length() - 1, []).append(pm ^ miss)
        if len(self._threats) > 2_000_000:
            self._threats.clear()
        t = self._threats[occ] = (covered, {j: tuple(v) for j, v in sup.items()}, sum(1 << j for j in sup))
        return t

    def covers(self, occ: int) -> bool:
        for pm in self.placements:
            if pm & occ == pm:
                return True
        return False

    # -- moves ------------------------------------------------------------------------------------
    def moves(self, s: FState) -> tuple[int, ...]:
        """Every legal turn of the mover, in the reference engine's order (``(pass,)`` when none).

        Memoised by what the list depends on (own gnomes, moon, which flowers take an add)."""
        me = s[6]
        if me == 0:
            own1, own2, opp1 = s[0], s[1], s[2]
        else:
            own1, own2, opp1 = s[2], s[3], s[0]
        moon = s[7 + me]
        addb = 0
        if s[4 + me] > 0:
            addb = self.flower_mask[me] & ~(opp1 | own2)
            if self.restrict and moon >= 0:
                addb &= ~self.terr_mask[moon]
        n = self.n
        mk = own1 | own2 << n | addb << 2 * n | (moon + 1) << 3 * n
        ml = self._moves.get(mk)
        if ml is not None:
            return ml
        free = self.full_mask ^ self.terr_mask[moon] if moon >= 0 else self.full_mask
        out: list[int] = []
        nbr = self.nbr
        src = own1 & free
        while src:
            low = src & -src
            src ^= low
            i = low.bit_length() - 1
            tgt = nbr[i] & free & ~own2
            base = (i + 1) << 2
            while tgt:
                lj = tgt & -tgt
                tgt ^= lj
                j = lj.bit_length() - 1
                out.append(base | j << 9)
                if own2 & low and not own1 & lj:
                    out.append(K_PAIR | base | j << 9)
        while addb:
            low = addb & -addb
            addb ^= low
            out.append(K_ADD | (low.bit_length() - 1) << 9)
        if len(self._moves) > 1_000_000:
            self._moves.clear()
        ml = self._moves[mk] = tuple(out) or (PASS_M,)
        return ml

    def first_win(self, s: FState, moves: tuple[int, ...]) -> int | None:
        """The first of ``moves`` (the mover's legal moves) that wins at once, else None."""
        me = s[6]
        if me == 0:
            own1, opp1, opp2 = s[0], s[2], s[3]
        else:
            own1, opp1, opp2 = s[2], s[0], s[1]
        offopp = s[5 - me]
        lim = self.limit
        if offopp >= lim:
            return moves[0]
        th = self.threats(own1)
        tm = self.toad_mask
        if th[0] or (tm and own1 & tm == tm):  # a condition already met: rare, check every move
            for m in moves:
                if self.wins(s, m, th):
                    return m
            return None
        w = th[2]
        if offopp + 1 >= lim:
            w |= opp1
        elif offopp + 2 >= lim:
            w |= opp2
        if tm:
            miss = tm & ~own1
            if not miss & (miss - 1):
                w |= miss
        if not w:
            return None
        for m in moves:
            if w >> (m >> 9) & 1 and m & 3 != K_PASS and self.wins(s, m, th):
                return m
        return None

    def wins(self, s: FState, m: int, th: Threat | None = None) -> bool:
        """Does the mover meet a win condition after ``m``?  ``th``: ``threats`` of its occupancy."""
        me = s[6]
        if me == 0:
            own1, own2, opp1, opp2 = s[0], s[1], s[2], s[3]
        else:
            own1, own2, opp1, opp2 = s[2], s[3], s[0], s[1]
        offopp = s[5 - me]
        kind = m & 3
        if kind == K_PASS:
            return offopp >= self.limit or (self.toad_mask != 0 and own1 & self.toad_mask == self.toad_mask) \
                or self.covers(own1)
        j = m >> 9
        bj = 1 << j
        if offopp + (opp1 >> j & 1) + (opp2 >> j & 1) >= self.limit:
            return True
        occ = own1 | bj
        gone = 0
        if kind != K_ADD:
            bi = 1 << (((m >> 2) & 127) - 1)
            if kind == K_PAIR or not own2 & bi:
                gone = bi
                occ ^= bi
        tm = self.toad_mask
        if tm and occ & tm == tm:
            return True
        if th is None:
            th = self.threats(own1)
        if th[0]:
            return self.covers(occ)
        sups = th[1].get(j)
        if sups is None:
            return False
        if not gone:
            return True
        for sp in sups:
            if not sp & gone:
                return True
        return False

    def win_names(self, s: FState, m: int) -> list[str]:
        """The win conditions the mover meets after ``m`` (as ``moves.win_conditions`` names them)."""
        c = self.after(s, m)
        me = s[6]
        own1 = c[0] if me == 0 else c[2]
        out = []
        if self.toad_mask and own1 & self.toad_mask == self.toad_mask:
            out.append("toadstools")
        if c[5 - me] >= self.limit:
            out.append("bumps")
        if self.covers(own1):
            out.append("dance")
        return out

    def after(self, s: FState, m: int) -> tuple[int, int, int, int, int, int, int]:
        """(g1, g2, b1, b2, off_green, off_blue, bumped) after ``m`` (mover, moons and decks unchanged)."""
        me = s[6]
        if me == 0:
            own1, own2, opp1, opp2, offme, offopp = s[0], s[1], s[2], s[3], s[4], s[5]
        else:
            own1, own2, opp1, opp2, offme, offopp = s[2], s[3], s[0], s[1], s[5], s[4]
        kind = m & 3
        bumped = 0
        if kind != K_PASS:
            j = m >> 9
            bj = 1 << j
            if kind == K_ADD:
                offme -= 1
            else:
                bi = 1 << (((m >> 2) & 127) - 1)
                if kind == K_PAIR:
                    own1 ^= bi
                    own2 ^= bi
                elif own2 & bi:
                    own2 ^= bi
                else:
                    own1 ^= bi
                if opp1 & bj:
                    bumped = 1 + (opp2 >> j & 1)
                    offopp += bumped
                    opp1 ^= bj
                    opp2 &= ~bj
            if kind == K_PAIR:
                own1 |= bj
                own2 |= bj
            elif own1 & bj:
                own2 |= bj
            else:
                own1 |= bj
        if me == 0:
            return own1, own2, opp1, opp2, offme, offopp, bumped
        return opp1, opp2, own1, own2, offopp, offme, bumped

    def flips(self, deck: int, side: int) -> tuple[tuple[int, int, int], ...]:
        """(terrain, weight, deck after) for each card ``side``'s deck ``deck`` can turn next."""
        key = (deck, side)
        f = self._flips.get(key)
        if f is not None:
            return f
        known, u = self.decks[deck]
        if known:
            f = ((known[0], 1, self.deck_id(known[1:], u)),)
        else:
            if not (u[0] or u[1] or u[2]):
                u = self.full[side]
            out = []
            for t in (0, 1, 2):
                if u[t]:
                    nu = (u[0] - (t == 0), u[1] - (t == 1), u[2] - (t == 2))
                    out.append((t, u[t], self.deck_id((), nu)))
            f = tuple(out)
        self._flips[key] = f
        return f

    def children(self, s: FState, m: int) -> list[tuple[int, int, FState]]:
        """The states after a non-winning move: (flip terrain or NO_CARD, weight, state) per outcome."""
        g1, g2, b1, b2, o0, o1, _b = self.after(s, m)
        me = s[6]
        if m & 3 == K_PASS:
            return [(NO_CARD, 1, (g1, g2, b1, b2, o0, o1, 1 - me, s[7], s[8], s[9], s[10]))]
        if me == 0:
            return [(t, w, (g1, g2, b1, b2, o0, o1, 1, t, s[8], d, s[10])) for t, w, d in self.flips(s[9], 0)]
        return [(t, w, (g1, g2, b1, b2, o0, o1, 0, s[7], t, s[9], d)) for t, w, d in self.flips(s[10], 1)]

    def attacker_threats(self, s: FState) -> tuple[tuple[int, bool, int], ...]:
        """The immediate wins the side *not* to move would have if it moved now (its moon as it is).

        One entry a winning move ``w``: (``need``, ``bump_only``, ``dst``).  ``need`` is the mask of
        squares where a reply of the side to move that lands there may spoil ``w``: its source (a
        bump there takes the gnome), the squares every placement (or the toadstools) it completes
        relies on, and for an add its flower (a gnome there blocks the add).  ``bump_only``: ``w``
        wins only by bumping (the squares do not matter, the count does: see
        :meth:`spares_threat`).  Used by :class:`FastSearcher` with ``threats`` (docstring there).
        """
        att = 1 - s[6]
        sa = (*s[:6], att, *s[7:])
        out: list[tuple[int, bool, int]] = []
        tm = self.toad_mask
        for m in self.moves(sa):
            if m & 3 == K_PASS or not self.wins(sa, m):
                continue
            g1, _g2, b1, _b2, o0, o1, _b = self.after(sa, m)
            occ = g1 if att == 0 else b1
            dst = m >> 9
            add = m & 3 == K_ADD
            src_bit = 0 if add else 1 << (((m >> 2) & 127) - 1)
            keep = 1 << dst if add else 0  # a step or pair lands on dst again whatever is there
            if tm and occ & tm == tm:
                rely = tm
            else:
                rely = -1
                for pm in self.placements:
                    if pm & occ == pm:
                        rely &= pm
            if rely == -1:  # wins by bumps alone
                out.append((src_bit | keep, True, dst))
            else:
                out.append((((src_bit | rely) & ~(1 << dst)) | keep, False, dst))
        return tuple(out)

    @staticmethod
    def spares_threat(r: int, threats: tuple[tuple[int, bool, int], ...]) -> bool:
        """Does some threat of :meth:`attacker_threats` survive the reply ``r`` of the side to move?

        A reply changes the attacker's position only where it lands (a bump), by an add (one
        fewer of its own gnomes off the board) and where it leaves (fewer of its gnomes there), and
        never the attacker's moon.  So a winning move ``w`` whose ``need`` squares the reply does
        not land on stays legal and still completes its placement or the toadstools; one that wins
        by bumps alone still does when the reply is no add and does not leave ``w``'s target."""
        if not threats:
            return False
        if r & 3 == K_PASS:
            return True
        dst = r >> 9
        add = r & 3 == K_ADD
        src = -1 if add else ((r >> 2) & 127) - 1
        for need, bump_only, wdst in threats:
            if need >> dst & 1 or (bump_only and (add or src == wdst)):
                continue
            return True
        return False

    def quiet(self, s: FState, r: int) -> bool:
        """When the side not to move has no immediate win (``attacker_threats`` empty): does it still
        have none after the reply ``r`` of the side to move?

        The reply must not bump an attacker's gnome (that would free an add), leave one of the
        attacker's flowers (the same), nor put so many of its gnomes on its target that a bump
        there reaches the bump limit.  Nothing else the reply changes (where its gnomes stand
        elsewhere, its own moon) can give the attacker a win: its gnomes and moon are as they
        were, and its steps onto the reply's gnomes were possible before (bumping)."""
        if r & 3 == K_PASS:
            return True
        me = s[6]
        att_own = s[2] if me == 0 else s[0]
        dst = r >> 9
        if att_own >> dst & 1:
            return False
        own1, own2 = (s[0], s[1]) if me == 0 else (s[2], s[3])
        off = s[4 + me]
        there = (own1 >> dst & 1) + (own2 >> dst & 1)
        kind = r & 3
        if kind == K_ADD:
            there += 1
            off -= 1
        else:
            if self.flower_mask[1 - me] >> (((r >> 2) & 127) - 1) & 1:
                return False
            there += 2 if kind == K_PAIR else 1
        return off + there < self.limit

    def own_occ(self, s: FState) -> int:
        return s[0] if s[6] == 0 else s[2]

    def winning_now(self, s: FState) -> int | None:
        """A move that wins at once for the mover of ``s`` (the first in move order), else None."""
        return self.first_win(s, self.moves(s))


# -------------------------------------------------------------------------------------------------
# The same AND-OR alpha-beta as search.Searcher, over this engine (for measuring the speed-up)


@dataclass
class FastSearcher:
    """``search.Searcher`` over :class:`FastEngine`: same recursion, tables and move order.

    ``threats`` (off by default, so that the search stays node for node the old one) is the
    *threat search*: the same answers from fewer nodes, by three sound rules.

    * A reply that spares an immediate win of the attacker (:meth:`FastEngine.spares_threat`: it
      does not land where that win relies on) loses at once, so it is not searched: its child is
      a win within 1 for the attacker without being visited.
    * With one turn left and no immediate win of the attacker, a *quiet* reply
      (:meth:`FastEngine.quiet`) leaves it none: the defender does not lose, without a visit.
    * A mover node that wins with no move keeps, as the hint for the next depth, the move whose
      refutation took the most nodes (the likeliest to win one turn deeper), as iterative
      deepening does for a principal variation.
    """

    engine: FastEngine
    tt: bool = True
    ordering: bool = True
    threats: bool = False
    meter: Meter | None = None
    nodes: int = 0
    win_tt: dict[int, tuple[int, int]] = field(default_factory=dict)
    lose_tt: dict[int, tuple[int, int]] = field(default_factory=dict)
    best: dict[int, int] = field(default_factory=dict)
    history: dict[int, int] = field(default_factory=dict)

    def _score(self, s: FState, m: int) -> int:
        kind = m & 3
        if kind == K_PASS:
            return 0
        sc = self.history.get(m, 0)
        j = m >> 9
        opp1, opp2 = (s[2], s[3]) if s[6] == 0 else (s[0], s[1])
        sc += 1000 * ((opp1 >> j & 1) + (opp2 >> j & 1))
        if self.engine.toad_mask >> j & 1:
            sc += 300
        if kind == K_ADD:
            sc += 50
        return sc

    def order(self, s: FState, moves: tuple[int, ...], hint: int | None) -> list[int]:
        if not self.ordering:
            return list(moves)
        out = sorted(moves, key=lambda m: -self._score(s, m))
        if hint is not None and hint in out:
            out.remove(hint)
            out.insert(0, hint)
        return out

    def win(self, s: FState, n: int) -> bool:
        """Can the mover of ``s`` force a win within ``n`` of its own turns?"""
        self.nodes += 1
        if self.meter is not None:
            self.meter.tick()
        h = 0
        if self.tt:
            h = self.engine.key(s)
            w, nw = self.win_tt.get(h, (BIG, 0))
            if n >= w:
                return True
            if n <= nw:
                return False
        e = self.engine
        moves = e.moves(s)
        m0 = e.first_win(s, moves)
        if m0 is not None:
            self._store_win(h, 1, m0)
            return True
        if n <= 1:
            self._store_nowin(h, 1)
            return False
        hint = self.best.get(h) if self.tt else None
        most, hardest = -1, None
        for m in self.order(s, moves, hint):
            before = self.nodes
            if all(self.loses(c, n - 1) for _t, _w, c in e.children(s, m)):
                self._store_win(h, n, m)
                if self.ordering:
                    self.history[m] = self.history.get(m, 0) + n * n
                return True
            if self.nodes - before > most:
                most, hardest = self.nodes - before, m
        self._store_nowin(h, n)
        if self.threats and self.tt and hardest is not None:
            self.best[h] = hardest
        return False

    def loses(self, s: FState, n: int) -> bool:
        """Does every reply of the mover of ``s`` lose within ``n`` turns of the other side?"""
        self.nodes += 1
        if self.meter is not None:
            self.meter.tick()
        h = 0
        if self.tt:
            h = self.engine.key(s)
            w, nw = self.lose_tt.get(h, (BIG, 0))
            if n >= w:
                return True
            if n <= nw:
                return False
        e = self.engine
        replies = e.moves(s)
        r0 = e.first_win(s, replies)
        if r0 is not None:
            if self.tt:
                self.lose_tt[h] = (self.lose_tt.get(h, (BIG, 0))[0], BIG)
                self.best[h] = r0
            return False
        threats: tuple[tuple[int, bool, int], ...] = ()
        if self.threats:
            threats = e.attacker_threats(s)
            if n <= 1 and not threats:
                for r in replies:
                    if e.quiet(s, r):
                        self._store_nolose(h, n, r)
                        return False
        hint = self.best.get(h) if self.tt else None
        for r in self.order(s, replies, hint):
            if threats and e.spares_threat(r, threats):
                continue
            for _t, _w, child in e.children(s, r):
                if not self.win(child, n):
                    self._store_nolose(h, n, r)
                    return False
        if self.tt:
            w, nw = self.lose_tt.get(h, (BIG, 0))
            self.lose_tt[h] = (min(w, n), nw)
        return True

    def _store_win(self, h: int, n: int, m: int) -> None:
        if self.tt:
            w, nw = self.win_tt.get(h, (BIG, 0))
            self.win_tt[h] = (min(w, n), nw)
            self.best[h] = m

    def _store_nolose(self, h: int, n: int, r: int) -> None:
        """The reply ``r`` escapes: the mover of node ``h`` does not lose within ``n``."""
        if self.tt:
            w, nw = self.lose_tt.get(h, (BIG, 0))
            self.lose_tt[h] = (w, max(nw, n))
            self.best[h] = r
        if self.ordering:
            self.history[r] = self.history.get(r, 0) + n * n

    def _store_nowin(self, h: int, n: int) -> None:
        if self.tt:
            w, nw = self.win_tt.get(h, (BIG, 0))
            self.win_tt[h] = (w, max(nw, n))

    def shortest(self, s: FState, depth: int) -> int | None:
        """The least n <= depth with a forced win, or None."""
        for n in range(1, depth + 1):
            if self.win(s, n):
                return n
        return None
