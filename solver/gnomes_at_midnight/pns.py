"""Forced wins by depth-first proof-number search (df-pn) over the bitboard engine.

The question is the one ``search.py`` answers: can the side to move (the *attacker*) force a win
within ``n`` of its own turns, against every reply and every moonlight flip?  Nodes are

* OR: the attacker to move, ``n`` turns left (this one included): proven as soon as a move wins
  at once; with ``n == 1`` and no such move it is disproven;
* CHANCE: after an attacker move whose flip is unknown (hidden decks, or a reshuffle): every
  flip must still win (an AND node); the afterstate carries ``fast.PENDING`` as the mover's moon;
* AND: the defender to move, the attacker keeps ``n`` turns: disproven when a reply wins for the
  defender, else every (reply, flip) must lead to a proven OR node.

Proof and disproof numbers follow Nagai's df-pn with the 1 + epsilon threshold of Pawlewicz and
Lew (children's thresholds grow by a factor, which cuts the re-expansions a plain df-pn does).
A node is a (state, n) pair; the tables are keyed by the engine's symmetry-canonical packed key,
so mirror images share entries.  Solved results are monotone in ``n`` (a win within n is a win
within n + 1, no win within n is none within n - 1) and are kept per state as the least n proven
and the greatest n disproven, across the iterative deepening on ``n`` that finds the shortest win.
A budget that runs out answers UNKNOWN with the depths disproven so far (never "no").
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import COLOURS
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.solver.core.budget import Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.gnomes_at_midnight.fast import K_ADD, K_PASS, PENDING, FastEngine, FState

OR, AND, CHANCE = 0, 1, 2
INF = 1 << 40
# A child of an expanded node: (state, kind, n, packed key)
Child = tuple[FState, int, int, int]


def prepare(pos: Position, decks: str) -> Position:
    """The position searched: with ``hidden`` decks every deck order is forgotten."""
    if decks not in ("open", "hidden"):
        raise UsageError(f"decks must be 'open' or 'hidden', not {decks!r}")
    return pos.hidden() if decks == "hidden" else pos


@dataclass
class ProofSearch:
    """One df-pn context for one root: engine, tables and counters (reused over depths)."""

    engine: FastEngine
    attacker: int
    meter: Meter | None = None
    epsilon: float = 1.0  # measured: 0.25 re-expands 15x more on hidden-deck openings
    mobility: bool = False  # initial numbers from the numbers of moves (measured: no better here)
    nodes: int = 0
    solved: dict[int, tuple[int, int]] = field(default_factory=dict)  # key -> (least n won, most n not)
    work: dict[int, tuple[int, int]] = field(default_factory=dict)  # key * 64 + n -> (pn, dn)

    # -- tables -----------------------------------------------------------------------------------
    def lookup(self, pk: int, n: int) -> tuple[int, int]:
        sv = self.solved.get(pk)
        if sv is not None:
            if n >= sv[0]:
                return 0, INF
            if n <= sv[1]:
                return INF, 0
        return self.work.get(pk << 6 | n, (1, 1))

    def set_proven(self, pk: int, n: int) -> None:
        sv = self.solved.get(pk)
        if sv is None:
            self.solved[pk] = (n, 0)
        elif n < sv[0]:
            self.solved[pk] = (n, sv[1])

    def set_disproven(self, pk: int, n: int) -> None:
        sv = self.solved.get(pk)
        if sv is None:
            self.solved[pk] = (INF, n)
        elif n > sv[1]:
            self.solved[pk] = (sv[0], n)

    def proven(self, s: FState, n: int) -> bool:
        """Is (s, n) proven in the tables (the attacker wins within n)?"""
        sv = self.solved.get(self.engine.key(s))
        return sv is not None and n >= sv[0]

    def least_proven(self, s: FState) -> int | None:
        sv = self.solved.get(self.engine.key(s))
        return sv[0] if sv is not None and sv[0] < INF else None

    # -- nodes ------------------------------------------------------------------------------------
    def kind(self, s: FState) -> int:
        if s[6] != self.attacker:
            return AND
        return CHANCE if s[7 + self.attacker] == PENDING else OR

    def _score(self, s: FState, m: int) -> int:
        kind = m & 3
        if kind == K_PASS:
            return 0
        j = m >> 9
        opp1, opp2 = (s[2], s[3]) if s[6] == 0 else (s[0], s[1])
        sc = 1000 * ((opp1 >> j & 1) + (opp2 >> j & 1))
        if self.engine.toad_mask >> j & 1:
            sc += 300
        if kind == K_ADD:
            sc += 50
        return sc

    def attacker_children(self, s: FState, n: int, moves: tuple[int, ...]) -> list[tuple[int, Child]]:
        """(move, child) for each of the attacker's (non-winning) moves, best-looking first."""
        e = self.engine
        out: list[tuple[int, Child]] = []
        seen: set[int] = set()
        for m in sorted(moves, key=lambda m: -self._score(s, m)):
            ch = e.children(s, m)
            if len(ch) == 1:
                c = ch[0][2]
                k = AND
            else:  # the flip is a chance event: an afterstate with the flip pending
                g1, g2, b1, b2, o0, o1, _b = e.after(s, m)
                me = s[6]
                c = (g1, g2, b1, b2, o0, o1, me, PENDING if me == 0 else s[7], PENDING if me == 1 else s[8],
                     s[9], s[10])
                k = CHANCE
            pk = e.key(c)
            if pk not in seen:
                seen.add(pk)
                out.append((m, (c, k, n - 1, pk)))
        return out

    def chance_children(self, s: FState) -> list[FState]:
        """The defender-to-move states after each flip of a pending afterstate."""
        e = self.engine
        me = s[6]
        if me == 0:
            return [(s[0], s[1], s[2], s[3], s[4], s[5], 1, t, s[8], d, s[10]) for t, _w, d in e.flips(s[9], 0)]
        return [(s[0], s[1], s[2], s[3], s[4], s[5], 0, s[7], t, s[9], d) for t, _w, d in e.flips(s[10], 1)]

    def expand(self, s: FState, kind: int, n: int) -> list[Child] | bool:
        """The children of (s, n), or True / False when it is proven / disproven on the spot."""
        e = self.engine
        if kind == OR:
            moves = e.moves(s)
            if e.first_win(s, moves) is not None:
                return True
            if n <= 1:
                return False
            return [c for _m, c in self.attacker_children(s, n, moves)]
        if kind == CHANCE:
            return [(c, AND, n, e.key(c)) for c in self.chance_children(s)]
        replies = e.moves(s)
        if e.first_win(s, replies) is not None:
            return False
        out: list[Child] = []
        seen: set[int] = set()
        last = n == 1
        for r in replies:
            for _t, _w, c in e.children(s, r):
                pk = e.key(c)
                if pk in seen:
                    continue
                seen.add(pk)
                if last:  # the attacker's last turn: it must win at once, decided here
                    sv = self.solved.get(pk)
                    if sv is None or (sv[0] > 1 and sv[1] < 1):
                        if e.first_win(c, e.moves(c)) is None:
                            self.set_disproven(pk, 1)
                            return False
                        self.set_proven(pk, 1)
                    elif sv[0] > 1:
                        return False
                    continue
                out.append((c, OR, n, pk))
        return True if last else out

    def mobility_of(self, s: FState, side: int) -> int:
        """How many moves ``side`` has in ``s`` (as if it were to move; a pending moon counts as none)."""
        moon = s[7 + side]
        if s[6] != side or moon == PENDING:
            t = list(s)
            t[6] = side
            if moon == PENDING:
                t[7 + side] = -1
            s = (t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10])
        return len(self.engine.moves(s))

    def _initial(self, c: Child) -> tuple[int, int]:
        """Numbers for a child never searched.  With ``mobility``: about what it weighs once expanded,
        the proof number from the defender's moves, the disproof number from the attacker's (an
        expanded OR node's disproof number is the sum over its moves, an AND node's proof number
        the sum over the replies)."""
        pn, dn = self.lookup(c[3], c[2])
        if (pn, dn) != (1, 1) or not self.mobility:
            return pn, dn
        a = self.attacker
        return self.mobility_of(c[0], 1 - a), self.mobility_of(c[0], a)

    # -- df-pn ------------------------------------------------------------------------------------
    def mid(self, s: FState, kind: int, n: int, pk: int, thpn: int, thdn: int) -> None:
        """Search (s, n) until its proof or disproof number reaches its threshold."""
        self.nodes += 1
        if self.meter is not None:
            self.meter.tick()
        res = self.expand(s, kind, n)
        if res is True:
            self.set_proven(pk, n)
            return
        if res is False:
            self.set_disproven(pk, n)
            return
        kids = res
        work = self.work
        wk = pk << 6 | n
        init = self._initial
        eps = 1.0 + self.epsilon
        for c in kids:  # seed the children's numbers (mobility) once
            ck = c[3] << 6 | c[2]
            if ck not in work and self.solved.get(c[3]) is None:
                v = init(c)
                if v != (1, 1):
                    work[ck] = v
        lookup = self.lookup
        while True:
            best = -1
            if kind == OR:
                pn1 = pn2 = INF
                dn = 0
                bdn = 0
                for i, c in enumerate(kids):
                    cpn, cdn = lookup(c[3], c[2])
                    dn += cdn
                    if cpn < pn1:
                        pn2 = pn1
                        pn1, best, bdn = cpn, i, cdn
                    elif cpn < pn2:
                        pn2 = cpn
                pn = pn1
                if dn > INF:
                    dn = INF
                if pn == 0:
                    self.set_proven(pk, n)
                    work.pop(wk, None)
                    return
                if dn == 0:
                    self.set_disproven(pk, n)
                    work.pop(wk, None)
                    return
                if pn >= thpn or dn >= thdn:
                    work[wk] = (pn, dn)
                    return
                cthpn = min(thpn, int(pn2 * eps) + 1)
                cthdn = thdn - dn + bdn
            else:
                dn1 = dn2 = INF
                pn = 0
                bpn = 0
                for i, c in enumerate(kids):
                    cpn, cdn = lookup(c[3], c[2])
                    pn += cpn
                    if cdn < dn1:
                        dn2 = dn1
                        dn1, best, bpn = cdn, i, cpn
                    elif cdn < dn2:
                        dn2 = cdn
                dn = dn1
                if pn > INF:
                    pn = INF
                if pn == 0:
                    self.set_proven(pk, n)
                    work.pop(wk, None)
                    return
                if dn == 0:
                    self.set_disproven(pk, n)
                    work.pop(wk, None)
                    return
                if pn >= thpn or dn >= thdn:
                    work[wk] = (pn, dn)
                    return
                cthdn = min(thdn, int(dn2 * eps) + 1)
                cthpn = thpn - pn + bpn
            c = kids[best]
            self.mid(c[0], c[1], c[2], c[3], min(cthpn, INF), min(cthdn, INF))

    def wins_within(self, s: FState, n: int) -> bool:
        """Prove or disprove that the attacker wins within ``n`` turns from ``s`` (attacker to move)."""
        pk = self.engine.key(s)
        pn, dn = self.lookup(pk, n)
        if pn and dn:
            self.mid(s, OR, n, pk, INF, INF)
        return self.lookup(pk, n)[0] == 0

    def shortest(self, s: FState, depth: int) -> int | None:
        """The least n <= depth with a forced win, or None (the tables keep every depth's results)."""
        for n in range(1, depth + 1):
            self.work.clear()
            if self.wins_within(s, n):
                return n
        return None

    def winning_move(self, s: FState, n: int) -> int | None:
        """A first move of a proven win within ``n`` (the first, in search order, proven in the tables)."""
        e = self.engine
        moves = e.moves(s)
        w = e.first_win(s, moves)
        if w is not None:
            return w
        if n <= 1:
            return None
        for m, c in self.attacker_children(s, n, moves):
            if self.lookup(c[3], c[2])[0] == 0:
                return m
        return None


@dataclass
class PnsRun:
    """A finished (or cut-short) df-pn run: the answer, the search with its tables, the root state."""

    result: Result
    search: ProofSearch
    root: FState
    position: Position  # the position searched (decks forgotten when hidden)


def run(pos: Position, depth: int = 3, decks: str = "open", budget: Budget | Meter | None = None,
        symmetry: bool = True, mobility: bool = False, epsilon: float = 1.0) -> PnsRun:
    """:func:`solve` keeping the tables (for proof export and the opening)."""
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise UsageError(f"depth must be a whole number >= 1, not {depth!r}")
    t0 = time.perf_counter()
    p = prepare(pos, decks)
    e = FastEngine(p, symmetry=symmetry)
    meter = budget.meter() if isinstance(budget, Budget) else budget
    ps = ProofSearch(e, p.to_move, meter, epsilon=epsilon, mobility=mobility)
    s = e.state(p)
    stats: dict[str, Any] = {"decks": decks, "depth": depth, "method": "pns", "attacker": COLOURS[p.to_move]}
    proven_none = 0
    turns = None
    try:
        for n in range(1, depth + 1):
            ps.work.clear()
            if ps.wins_within(s, n):
                turns = n
                break
            proven_none = n
    except BudgetExhausted as exc:
        ps.work.clear()
        stats.update(nodes=ps.nodes, exhausted=exc.what, exhausted_kind=exc.kind,
                     no_win_within=proven_none, solved_entries=len(ps.solved))
        return PnsRun(Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0,
                             bound={"no_win_within": proven_none}), ps, s, p)
    ps.work.clear()
    stats.update(nodes=ps.nodes, solved_entries=len(ps.solved), symmetries=len(e.syms))
    if turns is None:
        stats["no_win_within"] = depth
        return PnsRun(Result(Status.UNSATISFIABLE, None, None, stats, time.perf_counter() - t0), ps, s, p)
    m = ps.winning_move(s, turns)
    return PnsRun(Result(Status.OPTIMAL, turns, e.move_text(m) if m is not None else None, stats,
                         time.perf_counter() - t0), ps, s, p)


def solve(pos: Position, depth: int = 3, decks: str = "open", budget: Budget | Meter | None = None,
          symmetry: bool = True, mobility: bool = False) -> Result:
    """Is there a forced win for the side to move within ``depth`` of its own turns (df-pn)?

    The answer has the shape of ``search.solve``: OPTIMAL with value = the fewest turns and
    witness = a first move, UNSATISFIABLE for none within ``depth``, UNKNOWN when the budget ran
    out (``bound = {"no_win_within": n}``, the depths disproven so far).
    """
    return run(pos, depth, decks, budget, symmetry, mobility).result
