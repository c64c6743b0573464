"""Expectimax before rolling: the expected final field of every witch for every roll.

Chance enters twice: the die (uniform over the edition's faces) and every landing on
a face-down tile, whose identity is drawn uniformly from the tiles still face down in
that stage (the stage's remaining multiset, less what this chain already turned over).
The identity becomes known when the witch lands on the tile (it is turned face up)
and *before* anyone decides anything there; every later decision of the chain may
depend on it and on everything turned over earlier, never on a tile still face down.
Decisions are as in the optimal chain: the mover maximises the expectation, every
other clan minimises it.  Neutral decks are drawn in their listed order.

The search is exact and fast because it works on an abstraction that loses nothing
the rest of the turn can observe (see docs/solving.md):

* **Tile classes.**  Within one turn a tile only matters through what it does to the
  moving witch: *stop* (any other clan's number), *own number N*, or *symbol of clan
  c*.  Face-up tiles, face-down pools and revealed tiles are all kept as classes, so
  chance outcomes of the same class are merged (e.g. the 9 other-clan numbers of a
  stage are one outcome), and memo keys do not tell apart states that differ only
  in which stopping tile lies where.
* **Hands that matter.**  A clan's hand (or neutral deck) is dropped from the state
  when no tile with its symbol is face up or left in any pool: nobody can ever
  consult it this turn.
* **Memo.**  One table per witch, shared by all rolls; keys are (field, forced, hands,
  tiles revealed in this chain as (tile, class)).
* **Exact arithmetic without Fractions in the loop.**  Every value is an integer
  numerator over the fixed common denominator ``D`` = the product of ``n!`` over the
  stages (``n`` face-down tiles in the stage), so a chance node is integer sums and
  one exact division.
  Fractions are built only for the answer.

**Intervals** (``solve --expect``): :meth:`ExpectSearch.refine_all` narrows a proven interval per
state in rounds, expanding the states whose probability x interval width reaches a threshold that
shrinks each round and never expanding an option proven no better than another; closed intervals are
the exact values (a second exact method, compared with the alpha-beta search in the tests).  The
previous one-level-at-a-time split of an allowance (:meth:`_Chain.bounds`) is kept for the benchmark.

:class:`ExpectSearch` keeps the old interface (a :class:`~models.hexen_rennen.turn.Turn`
and a :class:`~models.hexen_rennen.turn.ChainState`) for the ``solver`` play policy.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gnomekit.models.hexen_rennen.edition import SYMBOL, HexenEdition
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.turn import ChainState, Rules, Turn
from gnomekit.solver.core.result import Result, Status

END = 0  # tile class: any other clan's number (the chain stops there); N > 0: own number N; -1-c: symbol of clan c

Hands = tuple[tuple[int, ...], ...]
Rev = tuple[tuple[int, int], ...]  # (tile, class) turned over in this chain, sorted by tile


_MIN_EXPAND = 4  # allowance below which a node gets its trivial/memo bounds only
_INF = float("inf")
_REFINE_STEP = 4.0  # refine: the threshold is divided by this each round


class BudgetExceeded(RuntimeError):
    """The expectimax search grew past its state budget (``max_nodes``)."""


def _sym(c: int) -> int:
    return -1 - c


def _outcome_order(km: tuple[int, int]) -> tuple[int, int]:
    """Chance outcomes: stopping tiles first (free), then own numbers, then symbols."""
    k = km[0]
    return (0 if k == END else 1 if k > 0 else 2, -km[1])


class _Chain:
    """Exact expectimax over one witch's chains (any landing field), on tile classes, integer values.

    ``value(at, forced, hands, rev)`` is the expectation of the final field times ``self.D``.
    """

    def __init__(self, turn: Turn, mask: int, max_nodes: int | None = None) -> None:
        self.turn = turn
        self.max_nodes = max_nodes
        self.L = turn.L
        self.last = turn.last
        self.mover = turn.mover
        self.playing = turn.playing
        self.occ = frozenset(turn.occ)
        self.strict = turn.rules.strict_symbol_target
        self.n_clans = len(turn.clans)
        self.stage_len = turn.edition.stage_length
        # class of every track tile (true identity; used for face-up tiles only)
        self.cls = [END] * (self.L + 1)
        for t in range(1, self.L + 1):
            c, v = turn.tclan[t], turn.tval[t]
            self.cls[t] = _sym(c) if v == SYMBOL else (v if c == self.mover else END)
        self.mask = mask
        self.pools: list[Counter[int]] = [Counter() for _ in range(turn.edition.stages)]
        for t in range(1, self.L + 1):
            if not mask >> t & 1:
                self.pools[(t - 1) // self.stage_len][self.cls[t]] += 1
        # face-up symbol tiles of each clan (ascending), for symbol-card targets
        self.sym_up: list[tuple[int, ...]] = [
            tuple(t for t in range(1, self.L + 1) if mask >> t & 1 and self.cls[t] == _sym(c))
            for c in range(self.n_clans)]
        present = {self.cls[t] for t in range(1, self.L + 1) if mask >> t & 1}
        for p in self.pools:
            present |= {k for k, m in p.items() if m}
        self.relevant = tuple(_sym(c) in present for c in range(self.n_clans))
        # common denominator: the product of n! over the stages (n face-down tiles); a state with j tiles of
        # a stage turned over has a value whose denominator divides (n - j)!, so every chance node divides
        self.D = 1
        for p in self.pools:
            self.D *= math.factorial(sum(p.values()))
        self.LO, self.HI = self.D, self.last * self.D  # every final field lies in 1..last
        self.memo: dict[tuple[Any, ...], tuple[int, int]] = {}  # (lower, upper) bounds
        self.back: dict[Hands, int] = {}
        self.nodes = 0
        self.limit = max_nodes  # the exact search raises BudgetExceeded past this node count
        self.bmemo: dict[tuple[Any, ...], tuple[int, int, float]] = {}  # refine: (lower, upper, threshold)
        self.limit_refine = 0  # refine expands no node once ``nodes`` reaches this
        self.cut = False  # refine left some node with an open interval unexpanded in this round

    def hands_key(self, hands: Hands) -> Hands:
        """The hands with those nobody can consult this turn emptied (a canonical memo key)."""
        return tuple(h if self.relevant[c] else () for c, h in enumerate(hands))

    # --- search -----------------------------------------------------------------------------------------

    def exact(self, at: int, forced: bool, hands: Hands, rev: Rev) -> int:
        """D x the expected final field of a witch that has just landed on ``at`` (exact)."""
        return self.search(at, forced, hands, rev, self.LO - 1, self.HI + 1)

    def search(self, at: int, forced: bool, hands: Hands, rev: Rev, a: int, b: int) -> int:
        """Fail-soft alpha-beta / Star1: a result <= a is an upper bound, >= b a lower bound, else exact."""
        if at > self.L:
            return at * self.D
        cls = self._known(at, rev)
        if cls is not None and cls >= 0:
            return self._resolve(at, forced, hands, rev, cls, a, b)
        key = (at, forced if cls is None or self.playing[-1 - cls] else False, hands, self._rev_key(at, hands, rev))
        ent = self.memo.get(key)
        if ent is None:
            lo, hi = self.LO, self.HI
        else:
            lo, hi = ent
            if lo == hi or lo >= b:
                return lo
            if hi <= a:
                return hi
            a, b = max(a, lo), min(b, hi)
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise BudgetExceeded(f"expectimax gave up after {self.max_nodes} states")
        if cls is not None:
            v = self._resolve(at, forced, hands, rev, cls, a, b)
        else:
            v = self._chance(at, forced, hands, rev, a, b)
        if v <= a:
            hi = min(hi, v)
        elif v >= b:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.memo[key] = (lo, hi)
        return v

    def _back_reach(self, hands: Hands) -> int:
        """How far back the rest of a chain can carry the witch: every other clan's number cards, once each."""
        v = self.back.get(hands)
        if v is None:
            v = sum(x for c, h in enumerate(hands) if c != self.mover for x in h if x != SYMBOL)
            self.back[hands] = v
        return v

    def _rev_key(self, at: int, hands: Hands, rev: Rev) -> tuple[Any, ...]:
        """The part of the tiles turned over in this chain that the rest of it can observe.

        The witch never comes below ``lo = at - back reach`` again; there a revealed tile only
        counts towards its stage's pool, except the highest revealed symbol tile of each clan
        (a symbol card played back may target it).
        """
        lo = at - self._back_reach(hands)
        if not rev or rev[0][0] >= lo:
            return (rev,)
        near = tuple(e for e in rev if e[0] >= lo)
        top: dict[int, int] = {}
        drawn: list[tuple[int, int]] = []
        first_stage = (lo - 1) // self.stage_len if lo >= 1 else 0  # stages before it are never drawn from again
        for t, k in rev:
            if t < lo:
                s = (t - 1) // self.stage_len
                if s >= first_stage:
                    drawn.append((s, k))
                if k < 0 and k != _sym(self.mover) and SYMBOL in hands[-1 - k]:
                    top[k] = max(top.get(k, 0), t)
        return near, tuple(sorted(top.items())), tuple(sorted(drawn))

    def _outcomes(self, at: int, rev: Rev) -> list[tuple[int, int]]:
        """The tile classes still in the stage of field ``at`` (minus those revealed), with their counts."""
        stage = (at - 1) // self.stage_len
        pool = self.pools[stage].copy()
        lo_t, hi_t = stage * self.stage_len, (stage + 1) * self.stage_len
        for t, k in rev:
            if lo_t < t <= hi_t:
                pool[k] -= 1
        return sorted(((k, m) for k, m in pool.items() if m > 0), key=_outcome_order)

    def _chance(self, at: int, forced: bool, hands: Hands, rev: Rev, a: int, b: int) -> int:
        """A landing on a face-down tile: average over the classes left in its stage (Star1 cut-offs)."""
        outcomes = self._outcomes(at, rev)
        total = sum(m for _, m in outcomes)
        LO, HI = self.LO, self.HI
        known = 0  # sum of m x value over the outcomes done
        rest = total
        for k, m in outcomes:
            rest -= m
            if k == END:
                known += m * at * self.D
                continue
            aj = (total * a - known - HI * rest) // m  # child <= aj: the average is <= a
            bj = -((known + LO * rest - total * b) // m)  # child >= bj: the average is >= b
            if aj >= HI:
                return -(-(known + HI * (m + rest)) // total)
            if bj <= LO:
                return (known + LO * (m + rest)) // total
            r2 = tuple(sorted(rev + ((at, k),)))
            v = self._resolve(at, forced, hands, r2, k, aj, bj)
            if v <= aj:
                return -(-(known + m * v + HI * rest) // total)
            if v >= bj:
                return (known + m * v + LO * rest) // total
            known += m * v
        v, rem = divmod(known, total)
        assert rem == 0, "the common denominator absorbs every chance node"
        return v

    def _forced_step(self, at: int, hands: Hands, rev: Rev, cls: int
                     ) -> tuple[int, tuple[int, bool, Hands] | None] | None:
        """What the tile of class ``cls`` at ``at`` does when nobody chooses (shared by the searches).

        ``(field, None)``: the chain ends on ``field``; ``(0, (q, forced, hands))``: it goes on with a
        landing on ``q``; ``None``: a clan chooses (the mover's own symbol, a playing clan's symbol).
        """
        if cls == END:
            return at, None
        if cls > 0:
            q = at + cls
            if q > self.last or q in self.occ:
                return at, None
            return 0, (q, False, hands)
        c = -1 - cls
        if c == self.mover or self.playing[c]:
            return None
        hand = hands[c]  # a neutral clan: the top card of its deck
        if not hand:
            return at, None
        card = hand[0]
        if card == SYMBOL:
            t = self._sym_target(at, c, False, rev)
            return (at if t is None else t), None
        q = at - card
        if q < 1 or q in self.occ:
            return at, None
        return 0, (q, True, hands[:c] + (hand[1:],) + hands[c + 1:])

    def _resolve(self, at: int, forced: bool, hands: Hands, rev: Rev, cls: int, a: int, b: int) -> int:
        """D x the value once the class of ``at`` is known (window as in :meth:`search`)."""
        D = self.D
        step = self._forced_step(at, hands, rev, cls)
        if step is not None:
            end, nxt = step
            return end * D if nxt is None else self.search(*nxt, rev, a, b)
        c = -1 - cls
        own = c == self.mover
        targets, moves = self._card_options(at, c, own, hands, rev)
        fixed = [t * D for t in targets]  # options whose value is known at once: stop, symbol card
        if not fixed and not moves:
            return at * D
        if not forced:
            fixed.append(at * D)
        if own:
            best = max(fixed) if fixed else self.LO - 1
            for q, nh in moves:
                if best >= b:
                    break
                v = self.search(q, False, nh, rev, max(a, best), b)
                if v > best:
                    best = v
            return best
        best = min(fixed) if fixed else self.HI + 1
        for q, nh in moves:
            if best <= a:
                break
            v = self.search(q, True, nh, rev, a, min(b, best))
            if v < best:
                best = v
        return best

    # --- proven bounds when the exact search is over budget ------------------------------------------------

    def trivial(self, at: int, hands: Hands, rev: Rev) -> tuple[int, int]:
        """D x sound bounds on the final field of a witch on ``at`` (no search).

        Upper: the last field.  Lower: the witch only goes back by other clans' number cards (at most
        their sum, once each) or by a symbol card onto a face-up tile with that clan's symbol, and a
        tile turned over later lies where the witch already stood; so it never ends below
        ``min(at, lowest such symbol tile) - back reach``, nor below field 1.
        """
        back = self._back_reach(hands)
        if at - back <= 1:
            return self.D, self.HI
        low = at
        for c in range(self.n_clans):
            if c == self.mover or SYMBOL not in hands[c]:
                continue
            k = _sym(c)
            for t in self.sym_up[c][:1]:
                low = min(low, t)
            for t, kk in rev:
                if kk == k:
                    low = min(low, t)
        return max(1, low - back) * self.D, self.HI

    def bounds(self, at: int, forced: bool, hands: Hands, rev: Rev, allow: int) -> tuple[int, int]:
        """D x a proven interval for :meth:`exact` spending about ``allow`` states at most.

        First the exact search with half the allowance; over it, the node is expanded one level
        and the rest is shared among its children (recursively); a child left without allowance
        gets :meth:`trivial` bounds tightened by whatever the memo has proven about it.  Equal
        bounds are the exact value.
        """
        if at > self.L:
            return at * self.D, at * self.D
        cls = self._known(at, rev)
        if cls is not None and cls >= 0:
            return self._resolve_bounds(at, forced, hands, rev, cls, allow)
        start = self.nodes
        self.nodes += 1  # the expansion itself
        if allow > 1:
            saved = self.limit
            self.limit = self.nodes + allow // 2
            try:
                v = self.search(at, forced, hands, rev, self.LO - 1, self.HI + 1)
                return v, v
            except BudgetExceeded:
                pass
            finally:
                self.limit = saved
        lo, hi = self.trivial(at, hands, rev)
        key = (at, forced if cls is None or self.playing[-1 - cls] else False, hands, self._rev_key(at, hands, rev))
        ent = self.memo.get(key)
        if ent is not None:
            lo, hi = max(lo, ent[0]), min(hi, ent[1])
        rem = allow - (self.nodes - start)
        if lo < hi and rem >= _MIN_EXPAND:
            if cls is not None:
                lo2, hi2 = self._resolve_bounds(at, forced, hands, rev, cls, rem)
            else:
                lo2, hi2 = self._chance_bounds(at, forced, hands, rev, rem)
            lo, hi = max(lo, lo2), min(hi, hi2)
        return lo, hi

    def _chance_bounds(self, at: int, forced: bool, hands: Hands, rev: Rev, allow: int) -> tuple[int, int]:
        """:meth:`_chance` on intervals: the weighted average of the outcomes' bounds (rounded outwards)."""
        outcomes = self._outcomes(at, rev)
        total = sum(m for _, m in outcomes)
        slo = shi = 0
        live = [km for km in outcomes if km[0] != END]
        left = allow
        for k, m in outcomes:
            if k == END:
                slo += m * at * self.D
                shi += m * at * self.D
                continue
            share = left // len(live)
            live.remove((k, m))
            start = self.nodes
            lo, hi = self._resolve_bounds(at, forced, hands, tuple(sorted(rev + ((at, k),))), k, share)
            left -= self.nodes - start
            slo += m * lo
            shi += m * hi
        return slo // total, -(-shi // total)

    def _resolve_bounds(self, at: int, forced: bool, hands: Hands, rev: Rev, cls: int,
                        allow: int) -> tuple[int, int]:
        """:meth:`_resolve` on intervals: max (mover) or min (other clans) of the options' bounds."""
        D = self.D
        step = self._forced_step(at, hands, rev, cls)
        if step is not None:
            end, nxt = step
            return (end * D, end * D) if nxt is None else self.bounds(*nxt, rev, allow)
        c = -1 - cls
        own = c == self.mover
        targets, moves = self._card_options(at, c, own, hands, rev)
        opts = [(t * D, t * D) for t in targets]
        if not opts and not moves:
            return at * D, at * D
        if not forced:
            opts.append((at * D, at * D))
        left = allow
        for i, (q, nh) in enumerate(moves):
            start = self.nodes
            opts.append(self.bounds(q, not own, nh, rev, left // (len(moves) - i)))
            left -= self.nodes - start
        pick = max if own else min
        return pick(o[0] for o in opts), pick(o[1] for o in opts)

    # --- proven bounds by refinement: every chance path down to a probability threshold -------------------

    def refine(self, at: int, forced: bool, hands: Hands, rev: Rev, t: float,
               skip: tuple[int, bool] | None = None) -> tuple[int, int]:
        """D x a proven interval for :meth:`exact`, expanding every node whose weight reaches the threshold.

        ``t`` is the node's local threshold: the global threshold divided by the probability of the
        chance outcomes on the way here.  A node is expanded when ``t x (HI - LO) / (hi - lo) <= 1``
        (``lo, hi``: what is already proven about it), so a wide interval on a likely path is expanded
        first; otherwise (or with the state budget spent) it keeps its :meth:`trivial` bounds
        tightened by both memos.  Results are stored with the threshold they were computed at and
        reused for any threshold at least as large.  Equal bounds are the exact value.
        """
        if at > self.L:
            return at * self.D, at * self.D
        cls = self._known(at, rev)
        if cls is not None and cls >= 0:
            return self._resolve_refine(at, forced, hands, rev, cls, t, skip)
        key = (at, forced if cls is None or self.playing[-1 - cls] else False, hands, self._rev_key(at, hands, rev))
        be = self.bmemo.get(key)
        if be is not None:
            lo, hi, done = be
            if done <= t or lo >= hi:
                self.cut = self.cut or lo < hi
                return lo, hi
        else:
            lo, hi = self.trivial(at, hands, rev)
            ent = self.memo.get(key)
            if ent is not None:
                lo, hi = max(lo, ent[0]), min(hi, ent[1])
            if (lo >= hi or t * (self.HI - self.LO) > hi - lo or self.nodes >= self.limit_refine
                    or skip is not None and (hi <= skip[0] if skip[1] else lo >= skip[0])):
                self.bmemo[key] = (lo, hi, _INF)  # what is proven without expanding (the memo is fixed by now)
                self.cut = self.cut or lo < hi
                return lo, hi
        if skip is not None and (hi <= skip[0] if skip[1] else lo >= skip[0]):
            return lo, hi  # the caller has a better option already: this one need not be expanded
        if t * (self.HI - self.LO) > hi - lo or self.nodes >= self.limit_refine:
            self.cut = True
            return lo, hi
        self.nodes += 1
        if cls is not None:
            lo2, hi2 = self._resolve_refine(at, forced, hands, rev, cls, t)
        else:
            lo2, hi2 = self._chance_refine(at, forced, hands, rev, t)
        lo, hi = max(lo, lo2), min(hi, hi2)
        self.bmemo[key] = (lo, hi, t)
        return lo, hi

    def _chance_refine(self, at: int, forced: bool, hands: Hands, rev: Rev, t: float) -> tuple[int, int]:
        """:meth:`_chance` on intervals: each outcome with the threshold divided by its probability."""
        outcomes = self._outcomes(at, rev)
        total = sum(m for _, m in outcomes)
        slo = shi = 0
        for k, m in outcomes:
            if k == END:
                slo += m * at * self.D
                shi += m * at * self.D
                continue
            lo, hi = self._resolve_refine(at, forced, hands, tuple(sorted(rev + ((at, k),))), k, t * total / m)
            slo += m * lo
            shi += m * hi
        return slo // total, -(-shi // total)

    def _resolve_refine(self, at: int, forced: bool, hands: Hands, rev: Rev, cls: int,
                        t: float, skip: tuple[int, bool] | None = None) -> tuple[int, int]:
        """:meth:`_resolve` on intervals; an option proven no better than another's bound is skipped."""
        D = self.D
        step = self._forced_step(at, hands, rev, cls)
        if step is not None:
            end, nxt = step
            return (end * D, end * D) if nxt is None else self.refine(*nxt, rev, t, skip)
        c = -1 - cls
        own = c == self.mover
        targets, moves = self._card_options(at, c, own, hands, rev)
        fixed = [s * D for s in targets]
        if not fixed and not moves:
            return at * D, at * D
        if not forced:
            fixed.append(at * D)
        back = not own  # a number card played against the witch makes a forced landing
        if own:
            blo = bhi = max(fixed) if fixed else None
            for q, nh in moves:
                # skip: an option proven no better than one already bounded from below is not expanded
                lo, hi = self.refine(q, back, nh, rev, t, None if blo is None else (blo, True))
                if blo is not None and hi <= blo:
                    continue
                blo = lo if blo is None else max(blo, lo)
                bhi = hi if bhi is None else max(bhi, hi)
        else:
            blo = bhi = min(fixed) if fixed else None
            for q, nh in moves:
                lo, hi = self.refine(q, back, nh, rev, t, None if bhi is None else (bhi, False))
                if bhi is not None and lo >= bhi:
                    continue
                blo = lo if blo is None else min(blo, lo)
                bhi = hi if bhi is None else min(bhi, hi)
        assert blo is not None and bhi is not None
        return blo, bhi

    def _card_options(self, at: int, c: int, own: bool, hands: Hands, rev: Rev
                      ) -> tuple[list[int], list[tuple[int, Hands]]]:
        """Clan ``c``'s card choices at ``at``: the fields symbol cards send to, and the number-card moves."""
        hand = hands[c]
        targets: list[int] = []
        moves: list[tuple[int, Hands]] = []
        for card in sorted(set(hand), reverse=True):
            if card == SYMBOL:
                t = self._sym_target(at, c, own, rev)
                if t is not None:
                    targets.append(t)
                continue
            q = at + card if own else at - card
            if (q > self.last if own else q < 1) or q in self.occ:
                continue
            h = list(hand)
            h.remove(card)
            moves.append((q, hands[:c] + (tuple(h),) + hands[c + 1:]))
        return targets, moves

    def _known(self, t: int, rev: Rev) -> int | None:
        if self.mask >> t & 1:
            return self.cls[t]
        for u, k in rev:
            if u == t:
                return k
        return None

    def _sym_target(self, at: int, c: int, forward: bool, rev: Rev) -> int | None:
        """Nearest face-up tile with clan c's symbol in the direction (empty; strict: the first must be)."""
        k = _sym(c)
        cands = [t for t in self.sym_up[c] if (t > at if forward else t < at)]
        cands += [t for t, kk in rev if kk == k and (t > at if forward else t < at)]
        cands.sort(reverse=not forward)
        for t in cands:
            if t in self.occ:
                if self.strict:
                    return None
                continue
            return t
        return None


class ExpectSearch:
    """Exact expectimax over one turn's chain with face-down tiles as chance nodes.

    ``up``: the face-up mask the pools are drawn from (default the position's; mid-chain:
    the chain's).  ``max_nodes``: raise :class:`BudgetExceeded` past this many states.
    :meth:`value` returns a Fraction when ``exact`` else a float.
    """

    def __init__(self, turn: Turn, exact: bool = False, up: int | None = None, max_nodes: int | None = None) -> None:
        self.turn = turn
        self.exact = exact
        self.chain = _Chain(turn, turn.initial_up() if up is None else up, max_nodes)

    @property
    def nodes(self) -> int:
        return self.chain.nodes

    def value(self, st: ChainState) -> Any:
        """The expectimax value of the chain state ``st`` (a Fraction if exact, else a float)."""
        v = Fraction(self.raw(st), self.chain.D)
        return v if self.exact else float(v)

    def raw(self, st: ChainState) -> int:
        """D x the value of ``st`` (an integer)."""
        ch = self.chain
        hands, rev = self._key(st)
        if st.done:
            return st.at * ch.D
        return ch.exact(st.at, st.forced, hands, rev)

    def _key(self, st: ChainState) -> tuple[Hands, Rev]:
        ch = self.chain
        # tiles face up in the chain state but drawn from the pools: revealed in this chain
        rev = tuple(sorted((t, ch.cls[t]) for t in range(1, ch.L + 1)
                           if st.up >> t & 1 and not ch.mask >> t & 1))
        return ch.hands_key(st.hands), rev

    def refine_all(self, sts: list[ChainState], allow: int) -> list[tuple[Fraction, Fraction]]:
        """Proven intervals around the values of ``sts``, spending at most about ``allow`` more states.

        Rounds of :meth:`_Chain.refine` over all the states with the threshold halved each round, until
        every interval is a point or the allowance is spent (the last round may stop part-way; what it
        proved is still sound).
        """
        ch = self.chain
        ch.limit_refine = ch.nodes + allow
        out: list[tuple[int, int]] = []
        args = []
        for st in sts:
            hands, rev = self._key(st)
            args.append((st.at, st.forced, hands, rev))
            out.append((st.at * ch.D, st.at * ch.D) if st.done else ch.trivial(st.at, hands, rev))
        t = 0.5
        while True:
            ch.cut = False
            for i, a in enumerate(args):
                if out[i][0] < out[i][1]:
                    lo, hi = ch.refine(*a, t)
                    out[i] = (max(out[i][0], lo), min(out[i][1], hi))
            # no node left unexpanded: every interval is closed (a leaf is exact)
            if not ch.cut or ch.nodes >= ch.limit_refine or all(lo == hi for lo, hi in out):
                break
            t /= _REFINE_STEP
        return [(Fraction(lo, ch.D), Fraction(hi, ch.D)) for lo, hi in out]

    def bounds(self, st: ChainState, allow: int) -> tuple[Fraction, Fraction]:
        """A proven interval [lo, hi] containing the value of ``st``, spending about ``allow`` more states."""
        ch = self.chain
        if st.done:
            return Fraction(st.at), Fraction(st.at)
        hands, rev = self._key(st)
        lo, hi = ch.bounds(st.at, st.forced, hands, rev, allow)
        return Fraction(lo, ch.D), Fraction(hi, ch.D)


Interval = tuple[Fraction, Fraction]


@dataclass
class WitchExpect:
    origin: int
    by_roll: dict[int, float | None]  # None: this witch cannot move with that roll (or, over budget: not exact)
    overall: float  # mean over the die; a witch that cannot move counts as staying
    exact_by_roll: dict[int, Fraction | None] = field(default_factory=dict)
    exact_overall: Fraction = Fraction(0)
    bounds_by_roll: dict[int, Interval | None] = field(default_factory=dict)  # proven [lo, hi]; None: cannot move
    bounds_overall: Interval = (Fraction(0), Fraction(0))


@dataclass
class ExpectResult:
    rolls: list[int]
    witches: list[WitchExpect]
    best_by_roll: dict[int, tuple[float | None, int | None]]
    overall: float
    p_no_move: float
    nodes: int
    seconds: float
    rules: Rules = field(default_factory=Rules)
    exact_best_by_roll: dict[int, Fraction | None] = field(default_factory=dict)
    exact_overall: Fraction = Fraction(0)
    exact_p_no_move: Fraction = Fraction(0)
    complete: bool = True  # every value exact; False: over budget, only the bounds are proven
    bounds_best_by_roll: dict[int, Interval | None] = field(default_factory=dict)
    bounds_overall: Interval = (Fraction(0), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        def fr(v: Fraction | None) -> str | None:
            return None if v is None else str(v)

        def fl(v: Fraction | None) -> float | None:
            return None if v is None else float(v)

        data: dict[str, Any] = {
            "rolls": self.rolls,
            "witches": [{"field": w.origin, "by_roll": {str(r): w.by_roll[r] for r in self.rolls},
                         "overall": w.overall,
                         "exact": {"by_roll": {str(r): fr(w.exact_by_roll.get(r)) for r in self.rolls},
                                   "overall": fr(w.exact_overall)}} for w in self.witches],
            "best_by_roll": {str(r): {"value": v, "witch": b, "exact": fr(self.exact_best_by_roll.get(r))}
                             for r, (v, b) in self.best_by_roll.items()},
            "value": self.overall, "p_no_move": self.p_no_move,
            "exact": {"value": fr(self.exact_overall), "p_no_move": fr(self.exact_p_no_move)},
            "measure": "expected final field",
            "rules": self.rules.names(), "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }
        if self.complete:
            return data

        def side(iv: Interval | None, i: int) -> Fraction | None:
            return None if iv is None else iv[i]

        def put(d: dict[str, Any], ex: dict[str, Any], by: dict[int, Interval | None], total: Interval | None,
                overall_key: str) -> None:
            for i, name in enumerate(("lower", "upper")):
                d[name] = {str(r): fl(side(by.get(r), i)) for r in self.rolls}
                ex[name] = {str(r): fr(side(by.get(r), i)) for r in self.rolls}
                if total is not None:
                    d[f"{overall_key}_{name}"] = float(total[i])
                    ex[f"{overall_key}_{name}"] = str(total[i])

        for w, d in zip(self.witches, data["witches"], strict=True):
            put(d, d["exact"], w.bounds_by_roll, w.bounds_overall, "overall")
            if w.bounds_overall[0] != w.bounds_overall[1]:
                d["overall"] = d["exact"]["overall"] = None
        for r, d in data["best_by_roll"].items():
            iv = self.bounds_best_by_roll.get(int(r))
            d["lower"], d["upper"] = fl(side(iv, 0)), fl(side(iv, 1))
            d["exact_lower"], d["exact_upper"] = fr(side(iv, 0)), fr(side(iv, 1))
        data["value"] = float(self.exact_overall) if self.bounds_overall[0] == self.bounds_overall[1] else None
        data["exact"]["value"] = str(self.exact_overall) if data["value"] is not None else None
        for i, name in enumerate(("lower", "upper")):
            data[name] = float(self.bounds_overall[i])
            data["exact"][name] = str(self.bounds_overall[i])
        return data


def expect_witch(pos: Position, edition: HexenEdition, origin: int, roll: int, rules: Rules | None = None,
                 exact: bool = False, max_nodes: int | None = None) -> tuple[Any, int]:
    """Expected final field of moving the witch on ``origin`` with ``roll`` (None if it cannot), and states."""
    turn = Turn(pos, edition, origin, rules)
    target, _ = turn.die_target(roll)
    if target is None:
        return None, 0
    s = ExpectSearch(turn, exact, max_nodes=max_nodes)
    return s.value(turn.start(target)), s.nodes


def expect_turn(pos: Position, edition: HexenEdition, rules: Rules | None = None,
                rolls: list[int] | None = None, max_nodes: int | None = None,
                bounded: bool = False, method: str = "refine") -> ExpectResult:
    """Expectimax over the die and the face-down tiles for every witch of the clan to move.

    Exact (fractions in the ``exact_*`` fields, floats beside them).  Not ``bounded``: the
    alpha-beta/Star1 search (:meth:`_Chain.search`); ``max_nodes`` bounds its states for each witch
    (all rolls together) and past it :class:`BudgetExceeded` is raised.  ``bounded``: proven
    intervals instead, exact wherever they close, and ``complete=False`` unless every one closed:
    with ``method="refine"`` (the default) by threshold rounds alone (:meth:`ExpectSearch.refine_all`,
    at most ``max_nodes`` states for all witches together: each witch gets an equal share of what the
    witches before it left); with ``method="split"`` (the previous method, kept for
    the benchmark) the exact search first and, past ``max_nodes``, as many states again split
    evenly level by level (:meth:`_Chain.bounds`).
    """
    if method not in ("refine", "split"):
        raise ValueError(f"unknown bounding method {method!r}")
    rules = rules or Rules()
    t0 = time.perf_counter()
    faces = list(edition.die)
    rolls = rolls or sorted(set(faces))
    origins = sorted(set(pos.witches_of(pos.to_move)))
    nodes = 0
    left = max_nodes  # refine: the states of all witches together; a witch that closes early leaves the rest
    box: dict[int, dict[int, Interval | None]] = {o: {} for o in origins}
    for i_o, o in enumerate(origins):
        turn = Turn(pos, edition, o, rules)
        search = ExpectSearch(turn, True, max_nodes=max_nodes)
        starts: dict[int, ChainState] = {}
        for r in rolls:
            target = turn.die_target(r)[0]
            if target is None:
                box[o][r] = None
            else:
                starts[r] = turn.start(target)
        todo = list(starts)
        if bounded and left is not None and method == "refine":
            share = left // (len(origins) - i_o)
            for r, proven in zip(todo, search.refine_all([starts[r] for r in todo], share), strict=True):
                box[o][r] = proven
            nodes += search.nodes
            left -= min(search.nodes, share)
            continue
        try:
            for r in todo:
                v = search.value(starts[r])
                box[o][r] = (v, v)
        except BudgetExceeded:
            if not bounded or max_nodes is None:
                raise
            todo = [r for r in todo if r not in box[o]]
            left = max_nodes
            for i, r in enumerate(todo):
                before = search.nodes
                box[o][r] = search.bounds(starts[r], left // (len(todo) - i))
                left -= search.nodes - before
        nodes += search.nodes
    weights = {r: Fraction(faces.count(r), len(faces)) for r in rolls}
    norm = sum(weights.values(), Fraction(0))

    def point(iv: Interval | None) -> Fraction | None:
        return None if iv is None or iv[0] != iv[1] else iv[0]

    witches = []
    for o in origins:
        stay = (Fraction(o), Fraction(o))
        ivs = [(weights[r], stay if (bx := box[o][r]) is None else bx) for r in rolls]
        tot = (sum((w * iv[0] for w, iv in ivs), Fraction(0)) / norm,
               sum((w * iv[1] for w, iv in ivs), Fraction(0)) / norm)
        ex = tot[0] if tot[0] == tot[1] else Fraction(0)
        witches.append(WitchExpect(o, {r: None if (v := point(box[o][r])) is None else float(v) for r in rolls},
                                   float(ex), {r: point(box[o][r]) for r in rolls}, ex, dict(box[o]), tot))
    best: dict[int, tuple[float | None, int | None]] = {}
    exact_best: dict[int, Fraction | None] = {}
    best_box: dict[int, Interval | None] = {}
    lo_sum, hi_sum, den, none_w = Fraction(0), Fraction(0), Fraction(0), Fraction(0)
    for r in rolls:
        cand = [(iv, o) for o in origins if (iv := box[o][r]) is not None]
        if not cand:
            best[r] = (None, None)
            exact_best[r] = None
            best_box[r] = None
            none_w += weights[r]
            continue
        lo = max(iv[0] for iv, _ in cand)
        hi = max(iv[1] for iv, _ in cand)
        best_box[r] = (lo, hi)
        # the best witch is known when the intervals decide it (ties: the lowest field)
        alive = [(iv, o) for iv, o in cand if iv[1] >= lo]
        if len(alive) == 1 or all(iv[0] == iv[1] == lo for iv, _ in alive):
            b: int | None = min(o for _, o in alive)
        else:
            b = None
        v = lo if lo == hi else None
        best[r] = (None if v is None else float(v), b)
        exact_best[r] = v
        lo_sum += weights[r] * lo
        hi_sum += weights[r] * hi
        den += weights[r]
    total = (lo_sum / den, hi_sum / den) if den else (Fraction(0), Fraction(0))
    overall = total[0] if total[0] == total[1] else Fraction(0)
    complete = all(iv is None or iv[0] == iv[1] for o in origins for iv in box[o].values())
    p_none = none_w / norm
    return ExpectResult(rolls, witches, best, float(overall), float(p_none), nodes, time.perf_counter() - t0, rules,
                        exact_best, overall, p_none, complete, best_box, total)


def expect_result(pos: Position, edition: HexenEdition, rules: Rules | None = None,
                  rolls: list[int] | None = None, max_nodes: int | None = None) -> Result:
    """The expectation before rolling as the shared :class:`Result` (what ``solve --expect`` reports).

    ``Status.OPTIMAL`` with ``value`` the exact expected final field (a Fraction) with the best witch
    for each roll, when every interval closed; else ``Status.UNKNOWN`` with ``value`` None and
    ``bound`` the proven interval (lower, upper).  ``witness`` maps each roll to the field of the
    witch to move (None: no witch moves, or the intervals do not decide it yet); ``stats["expect"]``
    is the whole :class:`ExpectResult` (every witch and roll), ``stats["states"]`` the states searched.
    Without ``max_nodes`` the search is exact and unbounded.
    """
    res = expect_turn(pos, edition, rules, rolls=rolls, max_nodes=max_nodes, bounded=True)
    witness = {r: b for r, (_, b) in res.best_by_roll.items()}
    stats = {"states": res.nodes, "expect": res}
    if res.complete:
        return Result(Status.OPTIMAL, res.exact_overall, witness, stats, res.seconds, res.bounds_overall)
    return Result(Status.UNKNOWN, None, witness, stats, res.seconds, res.bounds_overall)
