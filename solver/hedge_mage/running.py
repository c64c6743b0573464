"""The optimal maze-running plan for one round: exact search with memoisation.

Objective (lexicographic): most gnomes rescued, then most points (the running
player's final-scoring total after the plan minus before it: track points plus
awake gnomes left in the rival's garden), then fewest movement tokens and
springshroom tokens spent (their sum).

The search runs over unit actions (one step, a pick-up, a drop, a springshroom
placement, each with its bounce choices) generated and applied by the rules
engine (models/hedge_mage/running.py), with a transposition table keyed on the
changing part of the position.  Every action but a free pick-up/drop costs a
movement point or consumes a token, and a free drop forces a step, so the
state graph is acyclic and memoised depth-first search is exact.

Sound reductions (docs/rules/hedge-mage-running.md, "Solving"):

* tokens are spent lazily, just before an action that needs one (spending
  earlier never enables more: allowances only grow);
* a springshroom is placed only beneath a character, next to a character or
  next to a springshroom on the board - unless an enchantment in play counts
  springshrooms.  Any other placement can be delayed, without changing what
  happens, until just before the first character enters its space, which is
  then next to the entering character or to the previous springshroom of a
  bounce chain.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from models.core.grid import Cell
from models.hedge_mage.edition import HedgeMageEdition
from models.hedge_mage.running import (
    ORTH,
    Action,
    Illegal,
    RunPosition,
    _work,
    apply_action,
    bounce_options,
    running_score,
)
from solver.core.result import Result, Status

Value = tuple[int, int, int, int]  # (rescued, points, -(tokens + springshrooms spent), -unit actions)
NEG: Value = (-1, -(10**9), -(10**9), -(10**9))


@dataclass(frozen=True)
class PlanValue:
    """What a plan achieves, relative to the start of the plan."""

    rescued: int
    points: int
    tokens: int
    springshrooms: int

    def key(self) -> Value:
        return (self.rescued, self.points, -(self.tokens + self.springshrooms))

    def to_json(self) -> dict[str, int]:
        return {"rescued": self.rescued, "points": self.points, "tokens_spent": self.tokens,
                "springshrooms_spent": self.springshrooms}


def _inside(pos: RunPosition, c: Cell) -> bool:
    return 0 <= c[0] < pos.rows and 0 <= c[1] < pos.cols


def _nbrs(pos: RunPosition, c: Cell) -> Iterator[Cell]:
    for dr, dc in ORTH:
        d = (c[0] + dr, c[1] + dc)
        if _inside(pos, d):
            yield d


def _bounces_after(pos: RunPosition, ed: HedgeMageEdition, cell: Cell, mage: int | None, gnome: int | None,
                   move_to: Cell) -> list[tuple[Cell, ...]]:
    """Bounce chains for a character arriving on springshroom ``cell`` (simulated arrival)."""
    w = _work(pos, ed)
    if mage is not None:
        w.mages[mage] = move_to
        c = w.carried_by(mage)
        if c is not None:
            w.gnomes[c]["at"] = move_to
    elif gnome is not None:
        w.gnomes[gnome]["at"] = move_to
        w.gnomes[gnome]["carried_by"] = None
    return bounce_options(w, cell, mage, gnome)


def _general_placements(pos: RunPosition, ed: HedgeMageEdition) -> bool:
    """Whether springshroom placements must be tried everywhere (a card in play counts springshrooms)."""
    return any(ed.running.conditions[e].mentions("springshroom") for e in pos.enchantments
               if e in ed.running.conditions)


def unit_actions(pos: RunPosition, ed: HedgeMageEdition, relevant_only: bool = True) -> Iterator[Action]:
    """Candidate unit actions (not yet checked for legality; apply_action decides).

    Springshroom placements come in three modes: everywhere (``relevant_only`` False or a card
    counts springshrooms); next to characters and springshrooms (two or more tokens held);
    or, with one token, only beneath a character here and as part of an entering move
    (see :func:`successors`).
    """
    tr = pos.transit
    shrooms = set(pos.springshrooms)
    if pos.springshroom_tokens > 0:
        occupied = set(pos.mages) | {g.at for g in pos.gnomes}
        if not relevant_only or _general_placements(pos, ed):
            cands = {(r, c) for r in range(pos.rows) for c in range(pos.cols)}
        elif pos.springshroom_tokens >= 2:
            cands = set(occupied)
            for c in list(occupied) + list(shrooms):
                cands.update(_nbrs(pos, c))
        else:
            cands = set(occupied)
        for t in sorted(cands):
            if t in pos.hedge or t in pos.tunnel_set or t in shrooms:
                continue
            here_m = [i for i, m in enumerate(pos.mages) if m == t]
            here_g = [i for i, g in enumerate(pos.gnomes) if g.at == t and g.carried_by is None]
            if here_m or here_g:
                if tr is not None:
                    continue
                w = _work(pos, ed)
                w.shrooms.add(t)
                chains = bounce_options(w, t, here_m[0] if here_m else None, None if here_m else here_g[0])
            else:
                chains = [()]
            for ch in chains:
                yield Action("shroom", path=(t,), bounces=ch)
    for m, mc in enumerate(pos.mages):
        if tr is not None and not (tr[0] in ("mage", "mage-step") and tr[1] == m):
            continue
        carried = pos.carried(m)
        for to in _nbrs(pos, mc):
            if to in shrooms:
                for ch in _bounces_after(pos, ed, to, m, None, to):
                    yield Action("step", f"M{m + 1}", path=(to,), bounces=ch)
            else:
                yield Action("step", f"M{m + 1}", path=(to,))
        if tr is not None and tr[0] == "mage-step":
            continue
        if carried is None:
            for t in [mc, *_nbrs(pos, mc)]:
                if any(g.at == t and g.carried_by is None for g in pos.gnomes):
                    yield Action("pickup", f"M{m + 1}", path=(t,))
        elif tr is None:
            for t in [mc, *_nbrs(pos, mc)]:
                if t in shrooms:
                    for ch in _bounces_after(pos, ed, t, None, carried, t):
                        yield Action("drop", f"M{m + 1}", path=(t,), bounces=ch)
                else:
                    yield Action("drop", f"M{m + 1}", path=(t,))
    moved_kinds = {g.kind for g in pos.gnomes if g.moved is not None} | set(pos.rescued_movers)
    for i, g in enumerate(pos.gnomes):
        if not g.awake:
            continue
        if tr is not None and not (tr[0] == "gnome" and tr[1] == i):
            continue
        if g.kind in moved_kinds and g.moved is None:
            continue
        for to in _nbrs(pos, g.at):
            onto = any(mc == to and pos.carried(j) is None for j, mc in enumerate(pos.mages))
            if to in shrooms and not onto:
                for ch in _bounces_after(pos, ed, to, None, i, to):
                    yield Action("step", g.kind, at=g.at, path=(to,), bounces=ch)
            else:
                yield Action("step", g.kind, at=g.at, path=(to,))


def _entering(pos: RunPosition, ed: HedgeMageEdition, a: Action) -> Iterator[Action]:
    """Variants of a step or drop whose target (or bounce chain) uses a springshroom placed just before."""
    t = a.path[0]
    if a.kind == "step" and a.mage is None:
        onto = any(mc == t and pos.carried(j) is None for j, mc in enumerate(pos.mages))
        if onto:
            return
    shrooms = set(pos.springshrooms)
    occupied = set(pos.mages) | {g.at for g in pos.gnomes}
    near = {t}
    if t in shrooms:
        for sc in shrooms:
            near.update(_nbrs(pos, sc))
    for x in sorted(near):
        if x in pos.hedge or x in pos.tunnel_set or x in shrooms or x in occupied:
            continue
        try:
            pos2, _ = apply_action(pos, ed, Action("shroom", path=(x,)))
        except Illegal:
            continue
        if a.kind == "step" and a.mage is not None:
            chains = _bounces_after(pos2, ed, t, a.mage, None, t)
        elif a.kind == "step":
            gi = next(i for i, g in enumerate(pos2.gnomes) if g.kind == a.who and g.at == a.at)
            chains = _bounces_after(pos2, ed, t, None, gi, t)
        else:
            carried = pos2.carried(a.mage or 0)
            if carried is None:
                continue
            chains = _bounces_after(pos2, ed, t, None, carried, t)
        for ch in chains:
            if x == t or x in ch:
                yield Action("shroom", path=(x,))
                yield Action(a.kind, a.who, at=a.at, path=a.path, bounces=ch)


def successors(pos: RunPosition, ed: HedgeMageEdition, relevant_only: bool = True
               ) -> Iterator[tuple[list[Action], RunPosition, int, int]]:
    """Legal moves: (unit actions incl. a lazily spent token, next position, tokens spent, springshrooms spent)."""
    compound = relevant_only and pos.springshroom_tokens == 1 and not _general_placements(pos, ed)
    for a in unit_actions(pos, ed, relevant_only):
        seqs = [[a]]
        if compound and a.kind in ("step", "drop"):
            variants = list(_entering(pos, ed, a))
            seqs += [variants[i:i + 2] for i in range(0, len(variants), 2)]
        for seq in seqs:
            res = _apply_seq(pos, ed, seq)
            if res is not None:
                acts, nxt, t = res
                yield acts, nxt, t, sum(1 for x in seq if x.kind == "shroom")


def _apply_seq(pos: RunPosition, ed: HedgeMageEdition, seq: list[Action]
               ) -> tuple[list[Action], RunPosition, int] | None:
    """Apply unit actions, spending a token lazily before one that needs it; None when illegal."""
    cur = pos
    out: list[Action] = []
    spent = 0
    for a in seq:
        try:
            cur, _ = apply_action(cur, ed, a, continues=True)
            out.append(a)
        except Illegal as exc:
            if cur.tokens > 0 and all(r == "allowance" for r, _ in exc.reasons):
                tok, _ = apply_action(cur, ed, Action("token"))
                try:
                    cur, _ = apply_action(tok, ed, a, continues=True)
                except Illegal:
                    return None
                out += [Action("token"), a]
                spent += 1
            else:
                return None
    return out, cur, spent


def merge_plan(actions: list[Action]) -> list[Action]:
    """Join consecutive unit steps of one character into path actions (tokens hoisted before the path)."""
    out: list[Action] = []
    pending_tokens: list[Action] = []
    for a in actions:
        if a.kind == "token":
            pending_tokens.append(a)
            continue
        prev_i = len(out) - 1
        # the previous character action, skipping tokens already emitted after it
        if (a.kind == "step" and out and out[prev_i].kind == "step" and not out[prev_i].bounces
                and out[prev_i].who == a.who
                and (a.who.startswith("M") or a.at == out[prev_i].path[-1])):
            p = out[prev_i]
            merged = Action("step", p.who, at=p.at, path=p.path + a.path, bounces=a.bounces)
            # tokens needed inside the path go before it
            j = prev_i
            while j > 0 and out[j - 1].kind == "token":
                j -= 1
            out[prev_i:prev_i + 1] = []
            out[j:j] = pending_tokens
            pending_tokens = []
            out.append(merged)
            continue
        out.extend(pending_tokens)
        pending_tokens = []
        out.append(a)
    out.extend(pending_tokens)
    return out


class _Budget(Exception):
    """The state budget ran out."""


@dataclass
class _Search:
    ed: HedgeMageEdition
    relevant_only: bool
    memo: dict[tuple[object, ...], tuple[Value, list[Action] | None, tuple[object, ...] | None, int, int]]
    states: int = 0
    max_states: int | None = None

    def best(self, pos: RunPosition) -> Value:
        k = pos.key()
        hit = self.memo.get(k)
        if hit is not None:
            return hit[0]
        self.states += 1
        if self.max_states is not None and self.states > self.max_states:
            raise _Budget
        best: Value = NEG
        move: list[Action] | None = None
        nxt_key: tuple[object, ...] | None = None
        bt = bs = 0
        if pos.transit is None:
            best = (pos.total_rescued(), running_score(pos, self.ed), 0, 0)
        for acts, nxt, t, s in successors(pos, self.ed, self.relevant_only):
            r, p, c, n = self.best(nxt)
            v = (r, p, c - t - s, n - len(acts))
            if v > best:
                best, move, nxt_key, bt, bs = v, acts, nxt.key(), t, s
        self.memo[k] = (best, move, nxt_key, bt, bs)
        return best

    def plan(self, pos: RunPosition) -> list[Action]:
        out: list[Action] = []
        cur = pos
        while True:
            _v, move, _nk, _t, _s = self.memo[cur.key()]
            if move is None:
                return out
            for a in move:
                cur, _ = apply_action(cur, self.ed, a, continues=True)
                out.append(a)


def solve_run(pos: RunPosition, ed: HedgeMageEdition, relevant_only: bool = True,
              max_states: int | None = None) -> Result:
    """The optimal plan for the round from ``pos``.

    Returns status OPTIMAL with a :class:`PlanValue` and the plan (merged path actions), or
    UNKNOWN (no plan) when more than ``max_states`` states would be explored.  The position
    must be settled (nobody passing through another character).
    """
    t0 = time.perf_counter()
    s = _Search(ed, relevant_only, {}, max_states=max_states)
    try:
        r, p, c, _n = s.best(pos)
    except _Budget:
        return Result(Status.UNKNOWN, None, None, {"states": s.states, "method": "search",
                                                   "reason": f"state budget of {max_states} exhausted"},
                      time.perf_counter() - t0)
    units = s.plan(pos)
    plan = merge_plan(units)
    tokens = sum(1 for a in units if a.kind == "token")
    shrooms = sum(1 for a in units if a.kind == "shroom")
    assert -c == tokens + shrooms
    value = PlanValue(r - pos.total_rescued(), p - running_score(pos, ed), tokens, shrooms)
    return Result(Status.OPTIMAL, value, plan, {"states": s.states, "method": "search"},
                  time.perf_counter() - t0)


def bfs_plain(pos: RunPosition, ed: HedgeMageEdition) -> tuple[Value, int]:
    """Plain exhaustive enumeration without memoisation or reductions (benchmarks only: tiny allowances)."""
    count = 0

    def go(p: RunPosition) -> Value:
        nonlocal count
        count += 1
        best: Value = (p.total_rescued(), running_score(p, ed), 0, 0) if p.transit is None else NEG
        for acts, nxt, t, s in successors(p, ed, relevant_only=False):
            r, q, c, n = go(nxt)
            best = max(best, (r, q, c - t - s, n - len(acts)))
        return best

    v = go(pos)
    return v, count
