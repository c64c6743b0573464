"""A z3 encoding of one Hexen Rennen turn: the verifier of the chain search.

The chain is unrolled for K steps (one step per landing, as in the engine).  Step
k has the state variables ``at_k`` (the witch's field), ``forced_k``, ``done_k``,
the card counts of every playing clan and the deck pointer of every neutral clan,
and one choice variable ``c_k`` (STOP, SYMBOL or a number).  Which tiles are face
up is not a variable: a tile is face up at step k when it was face up before the
turn or ``at_j == t`` for some j <= k.  The rules are written here a second time,
from the rulings, independently of :mod:`models.hexen_rennen.turn`.

* The bound K is proved sufficient inside z3: no legal choice sequence leaves the
  chain running after K steps (K doubles until that holds).
* Cooperative value: ``Optimize`` maximises the final field over all legal choices.
* Minimax value v: the search hands over the mover's strategy (a table from the
  history of choices to a decision) and the other clans' counter-strategy.  z3
  proves "the mover reaches at least v" (no legal answer of the others drives the
  strategy below v) and "the mover cannot reach v+1" (no legal mover play beats the
  counter-strategy).  A table entry z3 finds missing or illegal counts as a failure,
  so a disagreement about the rules cannot hide.

z3 is the verifier: nothing here runs inside a search loop.  Every z3 call goes through
:func:`gnomekit.solver.core.smt.check`: an *unknown* (a timeout) leaves the check unproved and
marks the witch ``timed_out``; it is never read as "no counterexample".
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import z3
from gnomekit.models.hexen_rennen.edition import STOP, SYMBOL, HexenEdition
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.turn import Rules, Turn, movable_witches
from gnomekit.solver.core.smt import check
from gnomekit.solver.hexen_rennen.chain import ChainSearch

NONE = -100  # "no target"


class TurnEncoding:
    """The bounded unrolling of one turn (a witch, a die target) as z3 terms."""

    def __init__(self, pos: Position, edition: HexenEdition, origin: int, target: int, k: int,
                 rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.K = k
        L, last = edition.track_length, edition.last_field
        self.L, self.last = L, last
        clans = edition.clan_ids
        self.clans = clans
        mover = clans.index(pos.to_move)
        self.mover = mover
        self.tclan = {t: clans.index(pos.track[t - 1].clan) for t in range(1, L + 1)}
        self.tval = {t: pos.track[t - 1].value for t in range(1, L + 1)}
        occ = {p for _, ps in pos.witches for p in ps if 1 <= p <= L}
        occ.discard(origin)  # the moving witch has left its tile
        self.occ = occ
        playing = [c in pos.players for c in clans]
        codes = sorted(set(edition.numbers) | {SYMBOL})
        self.codes = codes
        up0 = {t for t in range(1, L + 1) if pos.track[t - 1].face_up}
        sym_tiles = {c: [t for t in range(1, L + 1) if self.tclan[t] == c and self.tval[t] == SYMBOL]
                     for c in range(len(clans))}
        decks = {c: list(pos.hand(clans[c])) for c in range(len(clans)) if not playing[c] and c != mover}

        # Board lookups as z3 functions with ground axioms (small terms instead of If chains).
        lo, hi = -max(codes) - 2, last + max(codes) + 2
        occ_f = z3.Function("occupied", z3.IntSort(), z3.BoolSort())
        clan_f = z3.Function("tile_clan", z3.IntSort(), z3.IntSort())
        val_f = z3.Function("tile_value", z3.IntSort(), z3.IntSort())
        self.cons: list[Any] = []
        for t in range(lo, hi + 1):
            self.cons.append(occ_f(t) == z3.BoolVal(t in occ))
            self.cons.append(clan_f(t) == (self.tclan[t] if 1 <= t <= L else -1))
            self.cons.append(val_f(t) == (self.tval[t] if 1 <= t <= L else -1))

        def occupied(q: Any) -> Any:
            return occ_f(q)

        self.at: list[Any] = [z3.IntVal(target)]
        self.forced: list[Any] = [z3.BoolVal(False)]
        self.done: list[Any] = [z3.BoolVal(False)]
        cnt = {(c, v): z3.IntVal(list(pos.hand(clans[c])).count(v)) for c in range(len(clans)) if playing[c]
               for v in set(pos.hand(clans[c]))}
        ptr = {c: z3.IntVal(0) for c in decks}
        self.c: list[Any] = []
        # cards a clan may still hold: only those in its hand now (hands never grow)
        held = {c: sorted(set(pos.hand(clans[c]))) for c in range(len(clans)) if playing[c]}
        # face-up flags of the symbol tiles that are face down now, per step
        hidden_sym = [t for c in sym_tiles for t in sym_tiles[c] if t not in up0]
        upv: dict[int, Any] = {t: z3.BoolVal(False) for t in hidden_sym}
        self.legal: list[Any] = []  # legal_k: the choice c_k is allowed by the rules
        self.chooser: list[Any] = []  # Int: the clan deciding at step k, -1 nobody
        self.real: list[Any] = []  # Bool: someone has a real decision (a legal card play) at step k
        for k in range(self.K):
            at, forced, done = self.at[k], self.forced[k], self.done[k]
            ck = z3.Int(f"c_{k}")
            self.c.append(ck)

            nu = {}
            for t in hidden_sym:
                b = z3.Bool(f"up_{k}_{t}")
                self.cons.append(b == z3.Or(upv[t], at == t))
                nu[t] = b
            upv = nu

            def up(t: int, upv: dict[int, Any] = upv) -> Any:
                return z3.BoolVal(True) if t in up0 else upv[t]

            def sym_target(clan: int, forward: bool, at: Any = at, up: Any = up) -> Any:
                tiles = sym_tiles[clan]
                res: Any = z3.IntVal(NONE)
                # the nearest qualifying tile wins: build from the farthest one inwards
                order = sorted(tiles, reverse=True) if forward else sorted(tiles)
                for t in order:
                    cond = (at < t) if forward else (at > t)
                    if self.rules.strict_symbol_target:
                        res = z3.If(z3.And(cond, up(t)), z3.IntVal(t), res)
                    else:
                        res = z3.If(z3.And(cond, up(t), z3.BoolVal(t not in occ)), z3.IntVal(t), res)
                if self.rules.strict_symbol_target:
                    res = z3.If(occupied(res), z3.IntVal(NONE), res)
                return res

            fin = at > L
            clan_e = clan_f(at)
            val_e = val_f(at)
            is_sym = z3.And(z3.Not(fin), val_e == SYMBOL)
            own_num = z3.And(z3.Not(fin), val_e != SYMBOL, clan_e == mover)
            oth_num = z3.And(z3.Not(fin), val_e != SYMBOL, clan_e != mover)
            q_own = at + val_e
            own_ok = z3.And(q_own <= last, z3.Not(occupied(q_own)))

            # moves of card `code` played by clan `cl` (forward iff it is the mover's own symbol)
            def move(cl: int, code: int, at: Any = at, sym_target: Any = sym_target) -> tuple[Any, Any]:
                fwd = cl == mover
                if code == SYMBOL:
                    t = sym_target(cl, fwd)
                    return t, t != NONE
                q = at + code if fwd else at - code
                ok = z3.And(q <= last, z3.Not(occupied(q))) if fwd else z3.And(q >= 1, z3.Not(occupied(q)))
                return q, ok

            nxt_at: Any = at
            nxt_forced: Any = z3.BoolVal(False)
            nxt_done: Any = z3.BoolVal(True)
            legal_k: Any = ck == STOP
            chooser_k: Any = z3.IntVal(-1)
            real_k: Any = z3.BoolVal(False)
            new_cnt = dict(cnt)
            new_ptr = dict(ptr)
            # own number tile
            nxt_at = z3.If(z3.And(z3.Not(done), own_num, own_ok), q_own, nxt_at)
            nxt_done = z3.If(z3.And(z3.Not(done), own_num), z3.Not(own_ok), nxt_done)
            for cl in range(len(clans)):
                here = z3.And(z3.Not(done), is_sym, clan_e == cl)
                if cl != mover and not playing[cl]:
                    deck = decks.get(cl, [])
                    if not deck:
                        continue
                    p = ptr[cl]
                    # the drawn card, applied if legal
                    res_at: Any = at
                    res_done: Any = z3.BoolVal(True)
                    res_forced: Any = z3.BoolVal(False)
                    for i, card in enumerate(deck):
                        q, ok = move(cl, card)
                        sel = p == i
                        res_at = z3.If(z3.And(sel, ok), q, res_at)
                        if card != SYMBOL:
                            res_done = z3.If(z3.And(sel, ok), z3.BoolVal(False), res_done)
                            res_forced = z3.If(z3.And(sel, ok), z3.BoolVal(True), res_forced)
                    has = p < len(deck)
                    nxt_at = z3.If(z3.And(here, has), res_at, nxt_at)
                    nxt_done = z3.If(z3.And(here, has), res_done, nxt_done)
                    nxt_forced = z3.If(z3.And(here, has), res_forced, nxt_forced)
                    new_ptr[cl] = z3.If(z3.And(here, has), p + 1, p)
                    continue
                if not playing[cl]:
                    continue
                any_legal = []
                code_legal: dict[int, Any] = {}
                for code in held[cl]:
                    q, ok = move(cl, code)
                    lg = z3.And(cnt[(cl, code)] >= 1, ok)
                    code_legal[code] = lg
                    any_legal.append(lg)
                    take = z3.And(here, ck == code)
                    nxt_at = z3.If(take, q, nxt_at)
                    nxt_done = z3.If(take, z3.BoolVal(code == SYMBOL), nxt_done)
                    nxt_forced = z3.If(take, z3.BoolVal(code != SYMBOL and cl != mover), nxt_forced)
                    new_cnt[(cl, code)] = z3.If(take, cnt[(cl, code)] - 1, new_cnt[(cl, code)])
                anyl = z3.Or(any_legal) if any_legal else z3.BoolVal(False)
                stop_ok = z3.Not(z3.And(forced, anyl))
                legal_here = z3.Or(z3.And(ck == STOP, stop_ok), *[z3.And(ck == code, lg)
                                                                   for code, lg in code_legal.items()])
                legal_k = z3.If(here, legal_here, legal_k)
                chooser_k = z3.If(here, z3.IntVal(cl), chooser_k)
                real_k = z3.If(here, anyl, real_k)
            # a finish field, another clan's number, a stop, a neutral miss: the chain ends where it is
            nxt_at = z3.If(done, at, nxt_at)
            nxt_done = z3.If(done, z3.BoolVal(True), z3.If(z3.Or(fin, oth_num), z3.BoolVal(True), nxt_done))
            nxt_forced = z3.If(z3.Or(done, fin, oth_num, own_num), z3.BoolVal(False), nxt_forced)
            at1, forced1, done1 = z3.Int(f"at_{k + 1}"), z3.Bool(f"forced_{k + 1}"), z3.Bool(f"done_{k + 1}")
            self.cons += [at1 == nxt_at, forced1 == nxt_forced, done1 == nxt_done]
            cnt = {}
            for key, e in new_cnt.items():
                v = z3.Int(f"n_{k + 1}_{key[0]}_{key[1]}")
                self.cons.append(v == e)
                cnt[key] = v
            ptr = {}
            for cl, e in new_ptr.items():
                v = z3.Int(f"p_{k + 1}_{cl}")
                self.cons.append(v == e)
                ptr[cl] = v
            self.at.append(at1)
            self.forced.append(forced1)
            self.done.append(done1)
            self.legal.append(legal_k)
            self.chooser.append(chooser_k)
            self.real.append(real_k)

    @property
    def final(self) -> Any:
        return self.at[self.K]

    def all_legal(self) -> list[Any]:
        return [z3.Implies(self.chooser[k] == -1, self.c[k] == STOP) for k in range(self.K)] + self.legal

    def strategy_constraints(self, table: dict[tuple[int, ...], int], mover_side: bool) -> tuple[list[Any], Any]:
        """The side's choices fixed by ``table``; returns (constraints, bad): bad = a missing or illegal entry."""
        cons: list[Any] = []
        bad: list[Any] = []
        by_len: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        for h, code in table.items():
            by_len.setdefault(len(h), []).append((h, code))
        for k in range(self.K):
            side = (self.chooser[k] == self.mover) if mover_side else z3.And(self.chooser[k] != self.mover,
                                                                               self.chooser[k] != -1)
            decides = z3.And(z3.Not(self.done[k]), side, self.real[k])
            matches = []
            for h, code in by_len.get(k, []):
                m = z3.And([self.c[j] == h[j] for j in range(k)]) if k else z3.BoolVal(True)
                matches.append(m)
                cons.append(z3.Implies(z3.And(decides, m), self.c[k] == code))
            missing = z3.Not(z3.Or(matches)) if matches else z3.BoolVal(True)
            cons.append(z3.Implies(z3.And(decides, missing), self.c[k] == STOP))
            bad.append(z3.And(decides, z3.Or(missing, z3.Not(self.legal[k]))))
            # the side's non-decisions (nothing legal to play) are plain stops
            cons.append(z3.Implies(z3.And(side, z3.Not(self.real[k])), self.legal[k]))
        return cons, z3.Or(bad) if bad else z3.BoolVal(False)

    def free_legal(self, mover_side: bool) -> list[Any]:
        """The side's choices free but legal; steps nobody decides are stops."""
        out = []
        for k in range(self.K):
            side = (self.chooser[k] == self.mover) if mover_side else z3.And(self.chooser[k] != self.mover,
                                                                               self.chooser[k] != -1)
            out.append(z3.Implies(side, self.legal[k]))
            out.append(z3.Implies(self.chooser[k] == -1, self.c[k] == STOP))
        return out


def _lookup(at: Any, table: dict[int, int], L: int) -> Any:
    """table[at] as an If chain (0 outside the track)."""
    res: Any = z3.IntVal(0)
    for t in range(L, 0, -1):
        res = z3.If(at == t, z3.IntVal(table[t]), res)
    return res


@dataclass
class WitchCheck:
    origin: int
    bound: int
    search_value: int
    search_coop: int
    z3_coop: int | None
    lower_ok: bool  # z3 proved: the mover's strategy reaches >= value
    upper_ok: bool  # z3 proved: the mover cannot reach value + 1
    seconds: float
    timed_out: bool = False

    @property
    def agrees(self) -> bool:
        return self.lower_ok and self.upper_ok and self.z3_coop == self.search_coop


@dataclass
class Verification:
    witches: list[WitchCheck] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def agrees(self) -> bool:
        return all(w.agrees for w in self.witches)

    @property
    def summary(self) -> str:
        if not self.witches:
            return "nothing to verify (no witch can move)"
        word = "agrees" if self.agrees else "DISAGREES"
        return (f"{word} with the search on {len(self.witches)} witch choice(s) "
                f"({', '.join(f'{w.origin}: {w.search_value}/{w.z3_coop}' for w in self.witches)}; "
                f"minimax/cooperative) in {self.seconds:.2f}s")

    def to_json(self) -> dict[str, Any]:
        return {"agrees": self.agrees, "summary": self.summary, "seconds": round(self.seconds, 3),
                "witches": [{"field": w.origin, "bound": w.bound, "value": w.search_value,
                             "cooperative": w.search_coop, "z3_cooperative": w.z3_coop,
                             "lower_bound_proved": w.lower_ok, "upper_bound_proved": w.upper_ok,
                             "timed_out": w.timed_out}
                            for w in self.witches]}


def sufficient_bound(pos: Position, edition: HexenEdition, origin: int, target: int, rules: Rules,
                     start: int = 8, cap: int = 512, timeout_ms: int | None = None) -> TurnEncoding | None:
    """An encoding whose bound K provably covers every legal chain (doubling K until done_K is forced)."""
    k = start
    while True:
        enc = TurnEncoding(pos, edition, origin, target, k, rules)
        s = z3.Solver()
        s.add(enc.cons)
        s.add(enc.all_legal())
        s.add(z3.Not(enc.done[k]))
        r = check(s, seconds=_seconds(timeout_ms))
        if r.unsat:
            return enc
        if r.unknown:
            return None
        if k >= cap:
            raise RuntimeError(f"chain longer than {cap} steps: the termination argument failed")
        k *= 2


def longest_chain(turn: Turn, st: Any, memo: dict[Any, int] | None = None) -> int:
    """The most steps any legal chain from ``st`` takes (a first guess for K; z3 proves the bound)."""
    memo = {} if memo is None else memo
    if st in memo:
        return memo[st]
    node = turn.expand(st)
    n = 0 if node.kind == "end" else 1 + max(longest_chain(turn, o.state, memo) for o in node.options)
    memo[st] = n
    return n


def _seconds(timeout_ms: int | None) -> float | None:
    """A z3 time limit in milliseconds (None or 0: none) as the seconds ``check`` takes."""
    return timeout_ms / 1000 if timeout_ms else None


def z3_cooperative(enc: TurnEncoding, at_least: int | None = None,
                   timeout_ms: int | None = None) -> tuple[int | None, list[int]]:
    """The best final field over all legal choices (every clan helping), and the choices taken.

    ``at_least`` (the value the search claims) only prunes: if no legal chain reaches it the
    answer is None, which can never be mistaken for agreement; so is an unknown (a timeout).
    """
    o = z3.Optimize()
    o.add(enc.cons)
    o.add(enc.all_legal())
    o.add(enc.done[enc.K])
    if at_least is not None:
        o.add(enc.final >= at_least)
    h = o.maximize(enc.final)
    r = check(o, seconds=_seconds(timeout_ms))
    if not r.sat:
        return None, []
    del h
    m = r.model
    return m.eval(enc.final).as_long(), [m.eval(c, model_completion=True).as_long() for c in enc.c]


def prove_lower(enc: TurnEncoding, table: dict[tuple[int, ...], int], v: int, timeout_ms: int | None = None) -> bool:
    """True when z3 proves the mover's strategy ``table`` ends on >= v against every legal answer."""
    return _prove_lower(enc, table, v, timeout_ms).unsat


def prove_upper(enc: TurnEncoding, table: dict[tuple[int, ...], int], v: int, timeout_ms: int | None = None) -> bool:
    """True when z3 proves no legal mover play beats the others' ``table`` (the mover cannot reach v+1)."""
    return _prove_upper(enc, table, v, timeout_ms).unsat


def _prove_lower(enc: TurnEncoding, table: dict[tuple[int, ...], int], v: int, timeout_ms: int | None) -> Any:
    """z3's answer to "can the others drive the strategy below v?" (unsat: proved)."""
    s = z3.Solver()
    s.add(enc.cons)
    cons, bad = enc.strategy_constraints(table, mover_side=True)
    s.add(cons)
    s.add(enc.free_legal(mover_side=False))
    s.add(z3.Or(bad, z3.And(enc.done[enc.K], enc.final < v)))
    return check(s, seconds=_seconds(timeout_ms))


def _prove_upper(enc: TurnEncoding, table: dict[tuple[int, ...], int], v: int, timeout_ms: int | None) -> Any:
    """z3's answer to "can the mover beat the counter-strategy?" (unsat: proved)."""
    s = z3.Solver()
    s.add(enc.cons)
    cons, bad = enc.strategy_constraints(table, mover_side=False)
    s.add(cons)
    s.add(enc.free_legal(mover_side=True))
    s.add(z3.Or(bad, z3.And(enc.done[enc.K], enc.final >= v + 1)))
    return check(s, seconds=_seconds(timeout_ms))


def verify_turn(pos: Position, edition: HexenEdition, roll: int, rules: Rules | None = None,
                timeout_ms: int | None = None) -> Verification:
    """Recompute every witch choice's values with the search and verify them with z3.

    With ``timeout_ms`` a z3 call that runs out of time leaves that check unproved
    (``unknown``), which never counts as agreement.
    """
    rules = rules or Rules()
    t0 = time.perf_counter()
    out = Verification()
    for origin, target, _ in movable_witches(pos, edition, roll, rules):
        if target is None:
            continue
        t1 = time.perf_counter()
        turn = Turn(pos, edition, origin, rules)
        st = turn.start(target)
        mm = ChainSearch(turn)
        v = mm.value(st)
        coop = ChainSearch(turn, cooperative=True).value(st)
        enc = sufficient_bound(pos, edition, origin, target, rules, start=max(1, longest_chain(turn, st)),
                               timeout_ms=timeout_ms)
        if enc is None:
            out.witches.append(WitchCheck(origin, -1, v, coop, None, False, False, time.perf_counter() - t1, True))
            continue
        zc, _ = z3_cooperative(enc, at_least=coop, timeout_ms=timeout_ms)
        lo = _prove_lower(enc, mm.strategy(st), v, timeout_ms)
        hi = _prove_upper(enc, mm.counter_strategy(st), v, timeout_ms)
        out.witches.append(WitchCheck(origin, enc.K, v, coop, zc, lo.unsat, hi.unsat, time.perf_counter() - t1,
                                      lo.unknown or hi.unknown))
    out.seconds = time.perf_counter() - t0
    return out


def verify_solution(pos: Position, edition: HexenEdition, roll: int, sol: Any,
                    rules: Rules | None = None) -> Verification:
    """Verify a :class:`ChainSolution` (same values for every witch, checked by z3)."""
    v = verify_turn(pos, edition, roll, rules)
    by = {w.origin: w for w in sol.witches}
    for w in v.witches:
        s = by.get(w.origin)
        if s is None or s.value != w.search_value or s.coop != w.search_coop:
            w.lower_ok = False
    return v
