"""A fast, tuple-based copy of the Gnomes at Midnight rules for the solvers.

The models layer (``models.gnomes_at_midnight.moves``) is the reference; this
kernel trades readability for speed (no dataclass copies, incremental dance
checks) and is tested move for move against it on generated positions.

A state is ``(cells, off, mover, moon, known, unknown)`` with the meanings of
:class:`~models.gnomes_at_midnight.position.Position`.  A move is
``(kind, src, dst)`` with square indices: kind 0 step, 1 pair, 2 add (src -1),
3 pass (src = dst = -1).
"""

from __future__ import annotations

import random

from gnomekit.models.gnomes_at_midnight.moves import ADD, PAIR, PASS, STEP, Move
from gnomekit.models.gnomes_at_midnight.position import NO_CARD, Position, counts_of, dance_placements

State = tuple  # (cells, off, mover, moon, known, unknown)
KMove = tuple[int, int, int]
K_STEP, K_PAIR, K_ADD, K_PASS = 0, 1, 2, 3
KINDS = (STEP, PAIR, ADD, PASS)
PASS_K: KMove = (K_PASS, -1, -1)


class Kernel:
    """Static data of one board and rule set, and the move functions over states."""

    def __init__(self, pos: Position) -> None:
        b = pos.board
        self.board = b
        self.n = b.size
        self.nbrs = b.nbrs
        self.terr = b.terr
        self.flowers = b.flower_idx
        self.toads = b.toad_idx
        self.placements = dance_placements(b.rows, b.cols, pos.dance)
        by_cell: list[list[tuple[int, ...]]] = [[] for _ in range(self.n)]
        for pl in self.placements:
            for i in pl:
                by_cell[i].append(pl)
        self.by_cell = tuple(tuple(x) for x in by_cell)
        self.limit = pos.bump_limit
        self.full = (counts_of(pos.full_decks[0]), counts_of(pos.full_decks[1]))
        self.restrict = pos.moon_restricts_adding
        self.syms = b.symmetries
        rng = random.Random(20260101)
        self.z_cell = [[rng.getrandbits(64) for _ in range(5)] for _ in range(self.n)]
        self.z_mover = rng.getrandbits(64)
        self._rng = rng
        self._z: dict[tuple[int, ...], int] = {}  # keys for off counts, moons and decks, made on first use

    # -- conversion -------------------------------------------------------------------------------
    @staticmethod
    def state(pos: Position) -> State:
        return (pos.cells, pos.off, pos.to_move, pos.moon, pos.known, pos.unknown)

    def to_move(self, m: KMove) -> Move:
        kind, i, j = m
        b = self.board
        if kind == K_PASS:
            return Move(PASS)
        if kind == K_ADD:
            return Move(ADD, None, b.cell(j))
        return Move(KINDS[kind], b.cell(i), b.cell(j))

    def from_move(self, m: Move) -> KMove:
        b = self.board
        if m.kind == PASS:
            return PASS_K
        assert m.dst is not None
        if m.kind == ADD:
            return (K_ADD, -1, b.index(m.dst))
        assert m.src is not None
        return (KINDS.index(m.kind), b.index(m.src), b.index(m.dst))

    # -- hashing ----------------------------------------------------------------------------------
    def zobrist(self, s: State, canonical: bool = True) -> int:
        """Zobrist hash; with ``canonical`` the least over the board's colour-keeping symmetries."""
        cells, off, mover, moon, known, unk = s
        occ = [(i, v) for i, v in enumerate(cells) if v]
        zc = self.z_cell
        if canonical and len(self.syms) > 1:
            h = min(_xor(zc[perm[i]][v + 2] for i, v in occ) for perm in self.syms)
        else:
            h = _xor(zc[i][v + 2] for i, v in occ)
        if mover:
            h ^= self.z_mover
        z = self._zkey
        for p in (0, 1):
            h ^= z(0, p, off[p]) ^ z(1, p, moon[p]) ^ z(2, p, len(known[p]))
            for k, t in enumerate(known[p]):
                h ^= z(3, p, k, t)
            for t in range(3):
                h ^= z(4, p, t, unk[p][t])
        return h

    def _zkey(self, *what: int) -> int:
        v = self._z.get(what)
        if v is None:
            v = self._z[what] = self._rng.getrandbits(64)
        return v

    # -- moves ------------------------------------------------------------------------------------
    def moves(self, s: State) -> list[KMove]:
        cells, off, me, moon_t, _k, _u = s
        sign = 1 if me == 0 else -1
        moon = moon_t[me]
        terr = self.terr
        out: list[KMove] = []
        for i, v in enumerate(cells):
            own = v * sign
            if own <= 0 or terr[i] == moon:
                continue
            for j in self.nbrs[i]:
                if terr[j] == moon:
                    continue
                w = cells[j] * sign
                if w <= 1:
                    out.append((K_STEP, i, j))
                if own == 2 and w <= 0:
                    out.append((K_PAIR, i, j))
        if off[me] > 0:
            for f in self.flowers[me]:
                w = cells[f] * sign
                if 0 <= w <= 1 and not (self.restrict and terr[f] == moon):
                    out.append((K_ADD, -1, f))
        return out or [PASS_K]

    def apply(self, s: State, m: KMove) -> tuple[tuple[int, ...], tuple[int, int], int]:
        """Cells and off-board counts after the move, and how many gnomes it bumped."""
        cells, off, me, _m, _k, _u = s
        kind, i, j = m
        if kind == K_PASS:
            return cells, off, 0
        sign = 1 if me == 0 else -1
        c = list(cells)
        o = [off[0], off[1]]
        bumped = 0
        if kind == K_ADD:
            c[j] += sign
            o[me] -= 1
        else:
            n = 2 if kind == K_PAIR else 1
            c[i] -= sign * n
            w = c[j] * sign
            if w < 0:
                bumped = -w
                o[1 - me] += bumped
                c[j] = 0
            c[j] += sign * n
        return tuple(c), (o[0], o[1]), bumped

    def covers_dance(self, cells: tuple[int, ...], me: int) -> bool:
        sign = 1 if me == 0 else -1
        return any(all(cells[k] * sign > 0 for k in pl) for pl in self.placements)

    def wins(self, cells: tuple[int, ...], off: tuple[int, int], me: int, m: KMove, precovered: bool) -> bool:
        """Does the mover meet a win condition after ``m``?  ``precovered``: it covered the dance before."""
        if off[1 - me] >= self.limit:
            return True
        sign = 1 if me == 0 else -1
        if self.toads and all(cells[t] * sign > 0 for t in self.toads):
            return True
        if precovered or m[0] == K_PASS:
            return self.covers_dance(cells, me)
        return any(all(cells[k] * sign > 0 for k in pl) for pl in self.by_cell[m[2]])

    def win_names(self, cells: tuple[int, ...], off: tuple[int, int], me: int) -> list[str]:
        sign = 1 if me == 0 else -1
        out = []
        if self.toads and all(cells[t] * sign > 0 for t in self.toads):
            out.append("toadstools")
        if off[1 - me] >= self.limit:
            out.append("bumps")
        if self.covers_dance(cells, me):
            out.append("dance")
        return out

    def flips(self, s: State, me: int) -> list[tuple[int, int, tuple[int, ...], tuple[int, int, int]]]:
        """(terrain, weight, known deck after, unknown counts after) for the mover's flip."""
        known = s[4][me]
        if known:
            return [(known[0], 1, known[1:], s[5][me])]
        u = s[5][me]
        if not (u[0] or u[1] or u[2]):
            u = self.full[me]
        out: list[tuple[int, int, tuple[int, ...], tuple[int, int, int]]] = []
        for t in (0, 1, 2):
            if u[t]:
                nu = (u[0] - (t == 0), u[1] - (t == 1), u[2] - (t == 2))
                out.append((t, u[t], (), nu))
        return out

    def children(self, s: State, m: KMove, cells: tuple[int, ...], off: tuple[int, int]
                 ) -> list[tuple[int, int, State]]:
        """The states after a non-winning move: (flip terrain or NO_CARD, weight, state) per outcome."""
        me = s[2]
        if m[0] == K_PASS:
            return [(NO_CARD, 1, (cells, off, 1 - me, s[3], s[4], s[5]))]
        out = []
        for t, w, k, u in self.flips(s, me):
            moon = (t, s[3][1]) if me == 0 else (s[3][0], t)
            known = (k, s[4][1]) if me == 0 else (s[4][0], k)
            unk = (u, s[5][1]) if me == 0 else (s[5][0], u)
            out.append((t, w, (cells, off, 1 - me, moon, known, unk)))
        return out

    def position(self, s: State, like: Position, turn: int) -> Position:
        from dataclasses import replace

        return replace(like, cells=s[0], off=s[1], to_move=s[2], moon=s[3], known=s[4], unknown=s[5], turn=turn)


def _xor(values: object) -> int:
    h = 0
    for v in values:  # type: ignore[attr-defined]
        h ^= v
    return h
