"""The optimal maze-running plan by a planning encoding with time steps (z3): the second exact method.

Independent of the search in solver/hedge_mage/running.py: the transition
relation is written here from the rules (docs/rules/hedge-mage-running.md), not
by calling the rules engine's successor or apply functions.  Only the position
and edition data structures, ``running_score`` (the definition of the points)
and ``execute_plan`` (to validate the plan found) are shared.

State per time step t = 0..H: every mage's cell; every gnome's cell, carrier,
awake and rescued flags and own points used; the gnome that moved itself per
kind; each mage's points used; the springshrooms on the board; movement
tokens spent and held; springshroom tokens held; gnomes rescued per kind; and
the *transit* (which character stands on an occupied space and must move on).
One unit action per time step - a mage step, a pick-up, a drop, a gnome step,
a springshroom placement, or nothing (only at the end) - preceded by any number
of movement tokens spent (spending early never hurts: allowances only grow).
Within a step: the unit move, the springshroom bounce chain (landing cells are
variables, every rule of the chain a constraint), then waking to a fixpoint
(layers) and rescue with the track bonuses.

Cone of influence (:func:`reach`): a sound over-approximation of what can change
- the largest allowance, the springshrooms placeable, per character the cells it
can ever stand on, which gnomes can step, be carried, wake or be rescued - so
variables exist only for those (constants elsewhere) and cell variables range
over their character's cells only.

Horizon: a bound on the number of unit actions possible within the allowances
and all tokens that could ever be held (see :func:`horizon`), so the encoding
is exact.  Lexicographic optimum (rescued, points, fewest tokens +
springshrooms) by iterated "can reach >= v" queries on one incremental solver.

Limits: enchantment conditions must be monotone (no ``at_most`` or ``not`` over
gnome counts, no ``awake = false``): then waking is order independent and a
rescue never enables a wake; otherwise the answer is UNKNOWN.  The encoding
grows with the cells in the cone x gnomes x horizon: it answers small gardens
and the 10x10 garden at 1-3 points without springshroom tokens (measured in
docs/solving.md, "The planning encoding"), not larger allowances.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import z3
from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.enchantments import Cond, scope_indices
from gnomekit.models.hedge_mage.running import Action, RunPosition, execute_plan, running_score
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.core.smt import Check
from gnomekit.solver.core.smt import check as smt_check
from gnomekit.solver.hedge_mage.running import PlanValue

NOOP, MSTEP, PICK, DROP, GSTEP, PLACE = range(6)
GNOME_TRANSIT = 10  # transit code of gnome g: 10 + g; mage m: 1 + m; mage m that must step: 3 + m


def nonmonotone_reason(cond: Cond, positive: bool = True) -> str | None:
    """Why a condition is not monotone in the awake/present gnomes (None: it is)."""
    if cond.op == "not":
        return nonmonotone_reason(cond.args[0], not positive)
    if cond.op in ("all", "any"):
        for a in cond.args:
            r = nonmonotone_reason(a, positive)
            if r is not None:
                return r
        return None
    if cond.op == "count" and cond.what == "gnome":
        if cond.awake is False:
            return "a count of sleeping gnomes"
        if (cond.at_most if positive else cond.at_least) is not None:
            return "a gnome count that a wake or a rescue could turn false-to-true"
    return None


def _mentions_awake(cond: Cond) -> bool:
    if cond.op == "count":
        return cond.what == "gnome" and cond.awake is not None
    return any(_mentions_awake(a) for a in cond.args)


@dataclass
class _Cell:
    """A cell variable: index x = row * cols + col, known to lie in ``dom``."""

    x: Any
    dom: frozenset[int]


@dataclass
class _State:
    mage: list[_Cell]
    gnome: list[_Cell]
    carrier: list[Any]  # -1: none, else mage index
    gone: list[Any]  # rescued
    awake: list[Any]
    moved: list[Any]
    mover: dict[str, Any]  # kind -> -1 none, -2 a rescued mover, else gnome index
    used: list[Any]
    shroom: dict[int, Any]  # cell index -> Bool (springshroom-able cells only)
    spent: Any
    tokens: Any
    stok: Any
    nresc: dict[str, Any]
    transit: Any


@dataclass
class _Step:
    typ: Any
    am: Any
    ag: Any
    tgt: _Cell
    k: Any
    n: Any = None
    land: list[_Cell] = field(default_factory=list)


def _track_cum(ed: HedgeMageEdition, kind: str, bonus: str, n: int) -> int:
    return sum(1 for i in range(n) if ed.running.bonus(kind, i) == bonus)


def horizon(pos: RunPosition, ed: HedgeMageEdition, r: Reach | None = None) -> int:
    """An upper bound on the unit actions (token spending excluded) of any legal plan from ``pos``.

    Every paid action uses one point of one character's allowance, which is at most
    ``reach(pos).amax``: points + spent + every token that could be held (tokens held plus the
    movement bonuses of the track spaces the gnomes rescuable with that allowance could fill).
    A mage's free pick-up needs a paid step onto the gnome just before (a distinct one each
    time); its free drop needs a paid step just after (a distinct one) - unless the gnome
    bounces away from a springshroom under the mage, and such drops are at most the pick-ups
    + 1.  So a mage with P paid actions makes at most 3 P unit actions without springshrooms
    and 4 P + 2 with them (+1 when the position starts with the mage in transit), and P when it
    can touch no gnome.  Placements are bounded by the springshroom tokens held and gainable;
    one gnome per kind moves itself, and only a gnome that can step (awake or wakeable) counts.
    """
    r = r or reach(pos, ed)
    amax = r.amax
    h = 0 if pos.transit is None else 1
    for m in range(len(pos.mages)):
        p = max(0, amax - pos.mage_used[m])
        near = _dilate(pos.rows, pos.cols, r.mage_dom[m], 1)
        if not any(r.touch[g] and r.gnome_dom[g] & near for g in range(len(pos.gnomes))):
            h += p
        else:
            h += 4 * p + 2 if r.chain else 3 * p
    movers = {g.kind: g for g in pos.gnomes if g.moved is not None}
    for k in ed.gnome_kinds:
        if k in pos.rescued_movers:
            continue
        if k in movers:
            h += max(0, amax - (movers[k].moved or 0))
        elif any(g.kind == k and r.mobile[i] for i, g in enumerate(pos.gnomes)):
            h += amax
    h += r.place
    return h


def _conds(pos: RunPosition, ed: HedgeMageEdition) -> dict[str, Cond]:
    out = {}
    for e in pos.enchantments:
        c = ed.running.conditions.get(e)
        if c is not None:
            out[ed.enchantment(e).kind] = c
    return out



# -- the cone of influence: what can change at all (sound over-approximations) -------------------------


@dataclass
class Reach:
    """What can change from a position, over-approximated, so the encoding builds variables only for it.

    ``amax``: the largest allowance a character can reach (points + tokens spent, held and winnable);
    ``place``: the springshrooms that can be placed; ``chain``: the longest bounce chain (one landing per
    springshroom that can be on the board); ``nmax``: per kind, the most rescued gnomes.  Per character,
    the cells it can ever stand on (``mage_dom``, ``gnome_dom``: Manhattan balls around its start,
    radius its paid moves plus one space per possible bounce; a gnome a mage can touch gets the mages'
    cells widened by a drop, a bounce and its own moves); ``mobile``: the gnome may step itself (awake,
    or its card can hold somewhere it can be, and its kind's self-moving gnome is not another);
    ``touch``: a mage can carry it; ``wakeable``; ``rescuable`` (can be awake on a tunnel).

    Tokens and springshrooms are won by rescues, and rescues need movement, so the bounds are a least
    fixpoint from the tokens held: with allowance A, only the gnomes rescuable with A count for the
    track bonuses.  Sound: a plan's k-th rescue happens while only its earlier rescues' bonuses were
    won, all rescuable within the fixpoint allowance, so the k-th is too (induction).
    """

    amax: int
    place: int
    chain: int
    nmax: dict[str, int]
    gain_mv: int
    mage_dom: list[frozenset[int]]
    gnome_dom: list[frozenset[int]]
    mobile: list[bool]
    touch: list[bool]
    wakeable: list[bool]
    rescuable: list[bool]
    place_dom: frozenset[int]


def _ball(rows: int, cols: int, at: Cell, r: int) -> set[int]:
    r = min(max(r, 0), rows + cols)
    return {y * cols + x for y in range(max(0, at[0] - r), min(rows, at[0] + r + 1))
            for x in range(max(0, at[1] - r), min(cols, at[1] + r + 1))
            if abs(y - at[0]) + abs(x - at[1]) <= r}


def _dilate(rows: int, cols: int, cells: set[int] | frozenset[int], r: int) -> set[int]:
    if r <= 0 or not cells:
        return set(cells)
    out: set[int] = set()
    for i in cells:
        out |= _ball(rows, cols, (i // cols, i % cols), r)
        if len(out) == rows * cols:
            break
    return out


def reach(pos: RunPosition, ed: HedgeMageEdition) -> Reach:
    """The cone of influence of ``pos`` (see :class:`Reach`)."""
    rows, cols = pos.rows, pos.cols
    idx = lambda c: c[0] * cols + c[1]  # noqa: E731
    hedge = {idx(c) for c in pos.hedge}
    tunnel = {idx(c) for c in pos.tunnel_set}
    cand = frozenset(i for i in range(rows * cols) if i not in hedge and i not in tunnel)
    kinds = list(ed.gnome_kinds)
    conds = _conds(pos, ed)
    gn = list(pos.gnomes)
    ng = len(gn)
    nr0 = {k: dict(pos.rescued).get(k, 0) for k in kinds}
    init_sh = {idx(c) for c in pos.springshrooms}
    counts_shrooms = any(c.mentions("springshroom") for c in conds.values())
    movers = {g.kind: i for i, g in enumerate(gn) if g.moved is not None}
    base = pos.points + pos.spent + pos.tokens

    def attempt(gain_mv: int, gain_sh: int) -> tuple[Any, ...]:
        amax = max([base + gain_mv, *pos.mage_used, *(g.moved or 0 for g in gn)])
        place = pos.springshroom_tokens + gain_sh
        chain = len(init_sh) + place
        mage_dom = []
        for m, at in enumerate(pos.mages):
            a = max(0, amax - pos.mage_used[m])
            mage_dom.append(frozenset(_ball(rows, cols, at, a + (a + place) * chain)))
        mages_all: set[int] = set().union(*mage_dom) if mage_dom else set()
        near_mages = _dilate(rows, cols, mages_all, 1)

        def may_step(g: int, woken: bool) -> bool:
            k = gn[g].kind
            if k in pos.rescued_movers or (k in movers and movers[k] != g):
                return False
            return (gn[g].awake or woken) and amax - (gn[g].moved or 0) > 0

        def domain(g: int, mob: bool) -> tuple[frozenset[int], bool]:
            own = amax - (gn[g].moved or 0) if mob else 0
            own += (own + place) * chain
            dom = _ball(rows, cols, gn[g].at, own)
            touch = gn[g].carried_by is not None or bool(dom & near_mages)
            if touch:
                dom |= _dilate(rows, cols, mages_all, 1 + chain + own)
            return frozenset(dom), touch

        far = rows * cols

        def dist(a: Cell, i: int) -> int:
            return abs(a[0] - i // cols) + abs(a[1] - i % cols)

        to_tunnel = [min((dist((i // cols, i % cols), t) for t in tunnel), default=far) for i in range(rows * cols)]

        def within(g: int, mob: bool, goal: str, wset: list[int]) -> bool:
            """The work to bring gnome ``g`` to where its card holds (``goal`` "wake") or into a tunnel
            ("rescue", by way of such a cell unless awake) fits the movement (a potential argument).

            Either no mage ever touches the gnome: its own steps and bounces cover the way.  Or one does,
            first at time T (then the nearest mage is at most 1 away): until T, Phi = max(0, (distance
            of the nearest mage) - 1) + (the length of the way left), after T the way alone; 0 at the
            goal.  A mage's paid action (a step, a pick-up or drop next to it, with a bounce chain and a
            free drop's bounce beside it) lowers it by at most 1 + 2 C, a gnome's own step by at most
            2 + 2 C (towards both), a placement's bounce by at most 2 C; waking never lowers it (the way
            by a cell where the card holds is at most the direct way from there).
            """
            at = gn[g].at
            if goal == "wake":
                way = min((dist(at, w) for w in wset), default=far)
            elif gn[g].awake:
                way = to_tunnel[at[0] * cols + at[1]]
            else:
                way = min((dist(at, w) + to_tunnel[w] for w in wset), default=far)
            if gn[g].carried_by is not None:
                dm = 0
            else:
                dm = min((max(0, abs(at[0] - m[0]) + abs(at[1] - m[1]) - 1) for m in pos.mages), default=far)
            own = amax - (gn[g].moved or 0) if mob and goal == "rescue" else 0
            # a sleeping gnome that cannot wake untouched (not where its card may hold, no placement to
            # bounce it there) steps only after T: then each own step shortens only the way
            late = not gn[g].awake and place == 0 and (at[0] * cols + at[1]) not in wset
            work = sum(max(0, amax - u) for u in pos.mage_used) * (1 + 2 * chain) \
                + own * (1 + chain) * (1 if late else 2) + place * 2 * chain
            return way <= own * (1 + chain) + place * chain or dm + way <= work

        def pair_ok(g: int, c: Cond, can_wake: list[bool]) -> bool:
            """A card "next to another gnome": some other gnome can come next to ``g`` (the argument of
            ``within`` for the distance between the two, ``g`` asleep, the other stepping if it can)."""
            a0 = gn[g].at
            work = sum(max(0, amax - u) for u in pos.mage_used) * (1 + 2 * chain) + place * 2 * chain
            for h in range(ng):
                if h == g or (c.kinds is not None and gn[h].kind not in c.kinds):
                    continue
                if c.awake is True and not can_wake[h]:
                    continue
                b0 = gn[h].at
                pd = max(0, abs(a0[0] - b0[0]) + abs(a0[1] - b0[1]) - 1)
                own = amax - (gn[h].moved or 0) if may_step(h, can_wake[h]) else 0
                if pd <= own * (1 + chain) + 2 * place * chain:
                    return True
                if gn[g].carried_by is not None or gn[h].carried_by is not None:
                    dm = 0
                else:
                    dm = min((max(0, min(abs(a0[0] - m[0]) + abs(a0[1] - m[1]), abs(b0[0] - m[0]) + abs(b0[1] - m[1]))
                                  - 1) for m in pos.mages), default=far)
                if dm + pd <= work + own * (2 + 2 * chain):
                    return True
            return False

        def pairwise(c: Cond) -> bool:
            return (c.op == "count" and c.what == "gnome" and c.scope == "adjacent" and c.at_most is None
                    and (c.at_least or 0) >= 1)

        # which gnomes can wake: a least fixpoint from the awake ones (the k-th gnome to wake in a plan is
        # helped only by gnomes awake before it, so only their own steps count for the others' cells)
        can_wake = [gn[g].awake for g in range(ng)]
        while True:
            opt = [domain(g, may_step(g, can_wake[g])) for g in range(ng)]
            wsets: list[list[int]] = []
            changed = False
            for g in range(ng):
                c = conds.get(gn[g].kind)
                wset: list[int] = []
                if not gn[g].awake and c is not None:
                    env = _Env(rows, cols, hedge, tunnel, cand, init_sh, place, mage_dom, opt, can_wake, gn, g,
                               opt[g][1])
                    wset = [i for i in sorted(opt[g][0]) if env.tv(c, i)[0]]
                    if not can_wake[g] and wset and within(g, False, "wake", wset) \
                            and (not pairwise(c) or pair_ok(g, c, can_wake)):
                        can_wake[g] = changed = True
                wsets.append(wset)
            if not changed:
                break
        wakeable = [can_wake[g] and not gn[g].awake for g in range(ng)]
        mobile = [may_step(g, wakeable[g]) for g in range(ng)]
        doms = [domain(g, mobile[g]) for g in range(ng)]
        rescuable = [(gn[g].awake or wakeable[g]) and bool(doms[g][0] & tunnel)
                     and within(g, mobile[g], "rescue", wsets[g]) for g in range(ng)]
        nmax = {k: nr0[k] + sum(1 for g in range(ng) if rescuable[g] and gn[g].kind == k) for k in kinds}
        return amax, place, chain, mage_dom, mages_all, wakeable, mobile, doms, rescuable, nmax

    gain_mv = gain_sh = 0
    while True:
        amax, place, chain, mage_dom, mages_all, wakeable, mobile, doms, rescuable, nmax = attempt(gain_mv, gain_sh)
        new_mv = sum(_track_cum(ed, k, "movement", nmax[k]) - _track_cum(ed, k, "movement", nr0[k]) for k in kinds)
        new_sh = sum(_track_cum(ed, k, "springshroom", nmax[k]) - _track_cum(ed, k, "springshroom", nr0[k])
                     for k in kinds)
        if (new_mv, new_sh) == (gain_mv, gain_sh):
            break
        gain_mv, gain_sh = new_mv, new_sh
    chars: set[int] = set(mages_all).union(*(d for d, _ in doms)) if doms else set(mages_all)
    place_dom = frozenset() if place == 0 else cand if counts_shrooms else cand & frozenset(chars)
    return Reach(amax, place, chain, nmax, gain_mv, mage_dom, [d for d, _ in doms], mobile,
                 [t for _, t in doms], wakeable, rescuable, place_dom)


@dataclass
class _Env:
    """Three-valued evaluation of a card for gnome ``g`` at a cell: (can be true, can be false)."""

    rows: int
    cols: int
    hedge: set[int]
    tunnel: set[int]
    cand: frozenset[int]
    shrooms: set[int]
    place: int
    mage_dom: list[frozenset[int]]
    doms: list[tuple[frozenset[int], bool]]
    may_wake: list[bool]
    gn: list[Any]
    g: int
    touch: bool

    def tv(self, c: Cond, i: int) -> tuple[bool, bool]:
        op = c.op
        if op in ("all", "any"):
            parts = [self.tv(a, i) for a in c.args]
            if op == "all":
                return all(t for t, _ in parts), any(f for _, f in parts)
            return any(t for t, _ in parts), all(f for _, f in parts)
        if op == "not":
            t, f = self.tv(c.args[0], i)
            return f, t
        if op == "on":
            v = (i in self.hedge) == (c.value == "hedge")
            return v, not v
        if op == "carried":
            could = self.touch or self.gn[self.g].carried_by is not None
            return (could, True) if c.value else (True, could)
        if op == "edge":
            r, col = i // self.cols, i % self.cols
            v = (r in (0, self.rows - 1) or col in (0, self.cols - 1)) == bool(c.value)
            return v, not v
        sc = scope_indices(c.scope, i, self.rows, self.cols)
        w = c.what
        if w in ("hedge", "ground", "tunnel"):
            n = sum(1 for x in sc if (x in self.hedge if w == "hedge" else x not in self.hedge if w == "ground"
                                      else x in self.tunnel))
            lo = hi = n
        elif w == "springshroom":
            lo = sum(1 for x in sc if x in self.shrooms)
            hi = lo + min(self.place, sum(1 for x in sc if x in self.cand and x not in self.shrooms))
        elif w == "mage":
            lo, hi = 0, sum(1 for d in self.mage_dom if any(x in d for x in sc))
        else:
            lo, hi = 0, 0
            for h, (d, _) in enumerate(self.doms):
                if h == self.g or (c.kinds is not None and self.gn[h].kind not in c.kinds):
                    continue
                if c.awake is True and not self.may_wake[h]:
                    continue
                if c.awake is False and self.gn[h].awake:
                    continue
                if any(x in d for x in sc):
                    hi += 1
        ok = [n for n in range(lo, hi + 1)
              if (c.at_least is None or n >= c.at_least) and (c.at_most is None or n <= c.at_most)]
        return bool(ok), len(ok) < hi - lo + 1


class _Encoding:
    """Builds the unrolled transition relation for one position."""

    def __init__(self, pos: RunPosition, ed: HedgeMageEdition, h: int) -> None:
        self.pos, self.ed, self.h = pos, ed, h
        self.rows, self.cols = pos.rows, pos.cols
        self.ncell = self.rows * self.cols
        self.hedge = {self.idx(c) for c in pos.hedge}
        self.tunnel = {self.idx(c) for c in pos.tunnel_set}
        self.nm = len(pos.mages)
        self.gn = list(pos.gnomes)
        self.ng = len(self.gn)
        self.kinds = list(ed.gnome_kinds)
        self.conds = _conds(pos, ed)
        self.cap = ed.movement_token_cap
        self.s = z3.SolverFor("QF_BV")
        self._sets: dict[tuple[int, frozenset[int]], Any] = {}
        nr0 = dict(pos.rescued)
        self.nr0 = {k: nr0.get(k, 0) for k in self.kinds}
        r = self.reach = reach(pos, ed)
        self.nmax = dict(r.nmax)
        self.max_place = r.place
        self.tmax_gain = r.gain_mv
        self.tmax = pos.tokens + r.gain_mv
        self.amax = r.amax
        self.cand = [i for i in range(self.ncell) if i not in self.hedge and i not in self.tunnel]
        self.max_chain = r.chain  # a chain visits distinct springshrooms
        self.wakeable = [g for g in range(self.ng) if r.wakeable[g]]
        awake_dep = any(_mentions_awake(c) for c in self.conds.values())
        self.layers = (len(self.wakeable) if awake_dep else 1) if self.wakeable else 0
        self.can_move = [g for g in range(self.ng) if r.mobile[g]]
        # the cells a character can stand on (targets, landings, bounce ends: any of them)
        self.all_dom = frozenset().union(*r.mage_dom, *r.gnome_dom, r.place_dom)
        self.states: list[_State] = []
        self.steps: list[_Step] = []
        self.place_flags: list[Any] = []
        self.nbrs = {i: [self.idx(d) for d in self._nb(self.cell(i))] for i in range(self.ncell)}
        rules = ed.running
        top = max([self.ncell, GNOME_TRANSIT + self.ng, self.amax + self.cap + 1, self.max_place + 1, 3 * self.ng,
                   running_score(pos, ed) + self.ng * rules.awake_rival_points
                   + sum(rules.track_points(k, self.nmax[k]) for k in self.kinds), *self.nmax.values()])
        self.width = (4 * top + 4).bit_length() + 1  # signed bit-vectors with room for every sum

    # -- numbers: signed bit-vectors (z3 bit-blasts them to SAT) -------------------------------------
    def I(self, name: str) -> Any:  # noqa: E743
        return z3.BitVec(name, self.width)

    def V(self, v: int) -> Any:
        return z3.BitVecVal(v, self.width)

    def B(self, c: Any) -> Any:
        """1 when ``c`` holds, else 0."""
        return z3.If(c, self.V(1), self.V(0))

    # -- static helpers -----------------------------------------------------------------------
    def idx(self, c: Cell) -> int:
        return c[0] * self.cols + c[1]

    def cell(self, i: int) -> Cell:
        return (i // self.cols, i % self.cols)

    def _nb(self, c: Cell) -> list[Cell]:
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            d = (c[0] + dr, c[1] + dc)
            if 0 <= d[0] < self.rows and 0 <= d[1] < self.cols:
                out.append(d)
        return out

    def cellvar(self, name: str, dom: frozenset[int]) -> _Cell:
        """A cell variable ranging over ``dom`` (a constant when ``dom`` has one cell)."""
        if len(dom) == 1:
            (i,) = dom
            return _Cell(self.V(i), dom)
        x = self.I(name)
        out = sorted(set(range(self.ncell)) - dom)
        if len(out) < len(dom):
            self.s.add(x >= 0, x < self.ncell, *[x != i for i in out])
        else:
            self.s.add(z3.Or([x == i for i in sorted(dom)]))
        return _Cell(x, dom)

    def in_set(self, c: _Cell, cells: set[int] | list[int] | frozenset[int]) -> Any:
        """``c`` lies in ``cells`` (only the cells of ``c``'s domain are written out)."""
        cs = frozenset(cells) & c.dom
        if not cs:
            return z3.BoolVal(False)
        if cs == c.dom:
            return z3.BoolVal(True)
        key = (c.x.get_id(), cs)
        hit = self._sets.get(key)
        if hit is None:
            rest = c.dom - cs
            if len(rest) < len(cs):
                hit = z3.And([c.x != i for i in sorted(rest)])
            else:
                hit = z3.Or([c.x == i for i in sorted(cs)])
            self._sets[key] = hit
        return hit

    def same(self, a: _Cell, b: _Cell) -> Any:
        """``a`` and ``b`` are the same cell."""
        if not (a.dom & b.dom):
            return z3.BoolVal(False)
        if len(a.dom) == 1 and len(b.dom) == 1:
            return z3.BoolVal(True)
        return a.x == b.x

    def at(self, c: _Cell, i: int) -> Any:
        """``c`` is cell ``i``."""
        if i not in c.dom:
            return z3.BoolVal(False)
        if len(c.dom) == 1:
            return z3.BoolVal(True)
        return c.x == i

    def hedge_at(self, c: _Cell) -> Any:
        return self.in_set(c, self.hedge)

    def tunnel_at(self, c: _Cell) -> Any:
        return self.in_set(c, self.tunnel)

    def adj(self, a: _Cell, b: _Cell) -> Any:
        """Orthogonal neighbours (index arithmetic; the column edges from a table)."""
        if len(a.dom) == 1:
            (i,) = a.dom
            return self.in_set(b, self.nbrs[i])
        if len(b.dom) == 1:
            (i,) = b.dom
            return self.in_set(a, self.nbrs[i])
        cols = self.cols
        right = self.in_set(a, [i for i in range(self.ncell) if i % cols != cols - 1])
        left = self.in_set(a, [i for i in range(self.ncell) if i % cols != 0])
        return z3.Or(z3.And(b.x == a.x + 1, right), z3.And(b.x == a.x - 1, left),
                     b.x == a.x + cols, b.x == a.x - cols)

    def adj_const(self, a: _Cell, d: int) -> Any:
        return self.in_set(a, self.nbrs[d])

    def shroom_at(self, st: _State, c: _Cell) -> Any:
        terms = [z3.And(self.at(c, i), st.shroom[i]) for i in sorted(c.dom)
                 if i in st.shroom and not z3.is_false(st.shroom[i])]
        return z3.Or(terms) if terms else z3.BoolVal(False)

    # -- state ------------------------------------------------------------------------------
    def initial(self) -> _State:
        p = self.pos

        def const_cell(c: Cell) -> _Cell:
            return _Cell(self.V(self.idx(c)), frozenset((self.idx(c),)))

        mover: dict[str, Any] = {}
        for k in self.kinds:
            mv = [g for g in range(self.ng) if self.gn[g].kind == k and self.gn[g].moved is not None]
            mover[k] = self.V(-2 if k in p.rescued_movers else (mv[0] if mv else -1))
        init_sh = {self.idx(c) for c in p.springshrooms}
        transit = 0
        if p.transit is not None:
            kind, i = p.transit
            transit = {"mage": 1 + i, "mage-step": 3 + i}.get(kind, GNOME_TRANSIT + i)
        return _State(
            mage=[const_cell(m) for m in p.mages],
            gnome=[const_cell(g.at) for g in self.gn],
            carrier=[self.V(-1 if g.carried_by is None else g.carried_by) for g in self.gn],
            gone=[z3.BoolVal(False) for _ in self.gn],
            awake=[z3.BoolVal(g.awake) for g in self.gn],
            moved=[self.V(g.moved or 0) for g in self.gn],
            mover=mover,
            used=[self.V(u) for u in p.mage_used],
            shroom={i: z3.BoolVal(i in init_sh) for i in self.cand},
            spent=self.V(p.spent), tokens=self.V(p.tokens), stok=self.V(p.springshroom_tokens),
            nresc={k: self.V(self.nr0[k]) for k in self.kinds},
            transit=self.V(transit))

    def fresh(self, t: int, prev: _State) -> _State:
        """State variables for time ``t`` (constants where nothing can change)."""
        s = self.s
        r = self.reach
        mage = [self.cellvar(f"m{m}@{t}", r.mage_dom[m]) if len(r.mage_dom[m]) > 1 else prev.mage[m]
                for m in range(self.nm)]
        gnome = [self.cellvar(f"g{g}@{t}", r.gnome_dom[g]) if len(r.gnome_dom[g]) > 1 else prev.gnome[g]
                 for g in range(self.ng)]
        carrier = [self.I(f"car{g}@{t}") if r.touch[g] else prev.carrier[g] for g in range(self.ng)]
        for g in range(self.ng):
            if r.touch[g]:
                s.add(carrier[g] >= -1, carrier[g] < self.nm)
        gone = [z3.Bool(f"gone{g}@{t}") if r.rescuable[g] else prev.gone[g] for g in range(self.ng)]
        awake = [z3.Bool(f"aw{g}@{t}") if g in self.wakeable else prev.awake[g] for g in range(self.ng)]
        moved = [self.I(f"mv{g}@{t}") if g in self.can_move else prev.moved[g] for g in range(self.ng)]
        mover = {k: self.I(f"mover_{k}@{t}") if any(self.gn[g].kind == k for g in self.can_move) else prev.mover[k]
                 for k in self.kinds}
        used = [self.I(f"used{m}@{t}") for m in range(self.nm)]
        shroom = {i: (z3.Bool(f"sh{i}@{t}") if i in r.place_dom else prev.shroom[i]) for i in self.cand}
        nresc = {k: (self.I(f"nr_{k}@{t}") if self.nmax[k] > self.nr0[k] else prev.nresc[k]) for k in self.kinds}
        st = _State(mage, gnome, carrier, gone, awake, moved, mover, used, shroom,
                    self.I(f"spent@{t}"), self.I(f"tokens@{t}"), self.I(f"stok@{t}"), nresc, self.I(f"tr@{t}"))
        amax = self.amax
        s.add(st.spent >= self.pos.spent, st.spent <= self.pos.spent + self.tmax, st.tokens >= 0,
              st.tokens <= max(self.cap, self.pos.tokens), st.stok >= 0, st.stok <= self.max_place,
              st.transit >= 0, st.transit <= GNOME_TRANSIT + self.ng)
        for v in used:
            s.add(v >= 0, v <= amax)
        for g in self.can_move:
            s.add(moved[g] >= 0, moved[g] <= amax)
        for k, v in mover.items():
            if v is not prev.mover[k]:
                s.add(v >= -2, v < self.ng)
        for kd, v in nresc.items():
            s.add(v >= self.nr0[kd], v <= self.nmax[kd])
        return st

    # -- conditions --------------------------------------------------------------------------
    def cond(self, c: Cond, g: int, cell: _Cell, st: _State, awake: list[Any]) -> Any:
        """The enchantment condition ``c`` for gnome ``g`` at ``cell`` in state ``st`` (awake flags ``awake``)."""
        op = c.op
        if op == "all":
            return z3.And([self.cond(a, g, cell, st, awake) for a in c.args])
        if op == "any":
            return z3.Or([self.cond(a, g, cell, st, awake) for a in c.args])
        if op == "not":
            return z3.Not(self.cond(c.args[0], g, cell, st, awake))
        if op == "on":
            h = self.hedge_at(cell)
            return h if c.value == "hedge" else z3.Not(h)
        if op == "carried":
            car = z3.And(st.carrier[g] != -1)
            return car if c.value else z3.Not(car)
        if op == "edge":
            edge = {i for i in range(self.ncell) if self.cell(i)[0] in (0, self.rows - 1)
                    or self.cell(i)[1] in (0, self.cols - 1)}
            e = self.in_set(cell, edge)
            return e if c.value else z3.Not(e)

        def bound(n: Any) -> Any:
            parts = []
            if c.at_least is not None:
                parts.append(n >= c.at_least)
            if c.at_most is not None:
                parts.append(n <= c.at_most)
            return z3.And(parts) if parts else z3.BoolVal(True)

        def scope_cells(i: int) -> list[int]:
            return scope_indices(c.scope, i, self.rows, self.cols)

        def in_scope(o: _Cell) -> Any:
            if c.scope == "same":
                if not (o.dom & cell.dom):
                    return z3.BoolVal(False)
                return o.x == cell.x
            if c.scope == "adjacent":  # index arithmetic, not a case per cell
                if not any(j in o.dom for i in cell.dom for j in self.nbrs[i]):
                    return z3.BoolVal(False)
                return self.adj(cell, o)
            return z3.Or([z3.And(self.at(cell, i), self.in_set(o, scope_cells(i))) for i in sorted(cell.dom)])

        w = c.what
        if w in ("hedge", "ground", "tunnel"):
            def static(i: int) -> bool:
                return (i in self.hedge) if w == "hedge" else (i not in self.hedge) if w == "ground" \
                    else (i in self.tunnel)
            ok = set()
            for i in cell.dom:
                n = sum(1 for x in scope_cells(i) if static(x))
                if (c.at_least is None or n >= c.at_least) and (c.at_most is None or n <= c.at_most):
                    ok.add(i)
            return self.in_set(cell, ok)
        if w == "springshroom":
            terms = []
            for i in sorted(cell.dom):
                n = z3.Sum([self.B(st.shroom[x]) for x in scope_cells(i) if x in st.shroom] + [self.V(0)])
                terms.append(z3.And(self.at(cell, i), bound(n)))
            return z3.Or(terms)
        if w == "mage":
            return bound(z3.Sum([self.B(in_scope(m)) for m in st.mage] + [self.V(0)]))
        terms = []
        for h in range(self.ng):
            if h == g or (c.kinds is not None and self.gn[h].kind not in c.kinds):
                continue
            parts = [z3.Not(st.gone[h]), in_scope(st.gnome[h])]
            if c.awake is not None:
                parts.append(awake[h] if c.awake else z3.Not(awake[h]))
            terms.append(self.B(z3.And(parts)))
        return bound(z3.Sum(terms + [self.V(0)]))

    # -- one transition ------------------------------------------------------------------------
    def transition(self, t: int, a: _State, b: _State) -> None:
        """Constrain ``b`` to follow ``a`` by one unit action (plus tokens spent before it)."""
        s = self.s
        nm, ng = self.nm, self.ng
        typ, am, ag, k = self.I(f"typ@{t}"), self.I(f"am@{t}"), self.I(f"ag@{t}"), self.I(f"k@{t}")
        r = self.reach
        tgt = self.cellvar(f"tgt@{t}", self.all_dom)
        nowhere = min(self.all_dom)  # where the unused cell variables point
        step = _Step(typ, am, ag, tgt, k)
        self.steps.append(step)
        s.add(typ >= 0, typ <= 5, am >= 0, am < max(nm, 1), ag >= 0, ag < max(ng, 1), k >= 0, k <= a.tokens,
              k <= max(self.cap, self.pos.tokens))
        if ng == 0:
            s.add(typ != PICK, typ != DROP, typ != GSTEP)
        if nm == 0:
            s.add(typ != MSTEP, typ != PICK, typ != DROP)
        if self.max_place == 0:
            s.add(typ != PLACE)
        allow = self.pos.points + a.spent + k
        tr = a.transit
        noop, place = typ == NOOP, typ == PLACE
        step_m = [z3.And(typ == MSTEP, am == m) for m in range(nm)]
        pick = [[z3.And(typ == PICK, am == m, ag == g) for g in range(ng)] for m in range(nm)]
        drop = [[z3.And(typ == DROP, am == m, ag == g) for g in range(ng)] for m in range(nm)]
        gstep = [z3.And(typ == GSTEP, ag == g) for g in range(ng)]
        self.place_flags.append(place)
        carries = [[z3.And(z3.Not(a.gone[g]), a.carrier[g] == m) for g in range(ng)] for m in range(nm)]
        free = [z3.Not(z3.Or(carries[m])) if ng else z3.BoolVal(True) for m in range(nm)]
        mage_here = z3.Or([self.same(a.mage[m], tgt) for m in range(nm)])
        gnome_here = [z3.And(z3.Not(a.gone[g]), self.same(a.gnome[g], tgt)) for g in range(ng)]
        lone_gnome_here = [z3.And(gnome_here[g], a.carrier[g] == -1) for g in range(ng)]
        sh_tgt = self.shroom_at(a, tgt)
        onto = self.V(-1)
        for m in reversed(range(nm)):
            onto = z3.If(z3.And(self.same(a.mage[m], tgt), free[m]), m, onto)

        # preconditions ------------------------------------------------------------------
        s.add(z3.Implies(noop, z3.And(tr == 0, k == 0, am == 0, ag == 0, tgt.x == nowhere)))
        for m in range(nm):
            s.add(z3.Implies(step_m[m], z3.And(
                z3.Or(tr == 0, tr == 1 + m, tr == 3 + m), ag == 0, self.adj(a.mage[m], tgt),
                z3.Implies(z3.Not(self.hedge_at(a.mage[m])), z3.Not(self.hedge_at(tgt))))))
            for g in range(ng):
                if not r.touch[g]:
                    s.add(z3.Not(pick[m][g]), z3.Not(drop[m][g]))
                    continue
                gc = a.gnome[g]
                here = self.same(gc, a.mage[m])
                s.add(z3.Implies(pick[m][g], z3.And(
                    z3.Or(tr == 0, z3.And(tr == 1 + m, here)), z3.Not(a.gone[g]), a.carrier[g] == -1, free[m],
                    z3.Or(here, self.adj(gc, a.mage[m])),
                    z3.Implies(z3.And(z3.Not(here), self.hedge_at(a.mage[m])), self.hedge_at(gc)),
                    self.same(tgt, gc))))
                own = self.same(tgt, a.mage[m])
                occupied = z3.Or(mage_here, z3.Or(gnome_here))
                s.add(z3.Implies(drop[m][g], z3.And(
                    tr == 0, carries[m][g], z3.Or(own, self.adj(a.mage[m], tgt)),
                    z3.Implies(z3.And(z3.Not(own), self.hedge_at(a.mage[m])), self.hedge_at(tgt)),
                    # a character on a tunnel does not block an awake gnome's rescue (rulings)
                    z3.Implies(z3.And(z3.Not(own), z3.Not(z3.And(a.awake[g], self.tunnel_at(tgt)))),
                               z3.Not(occupied)),
                    z3.Implies(z3.Not(a.awake[g]), z3.Not(self.tunnel_at(tgt))))))
        for g in range(ng):
            kind = self.gn[g].kind
            if g not in self.can_move:
                s.add(z3.Not(gstep[g]))
                continue
            gc = a.gnome[g]
            s.add(z3.Implies(gstep[g], z3.And(
                z3.Or(tr == 0, tr == GNOME_TRANSIT + g), am == 0, z3.Not(a.gone[g]), a.awake[g],
                self.adj(gc, tgt),
                z3.Implies(z3.And(onto == -1, a.carrier[g] == -1, z3.Not(self.hedge_at(gc))),
                           z3.Not(self.hedge_at(tgt))),
                z3.Or(a.mover[kind] == -1, a.mover[kind] == g))))
        someone_here = z3.Or(mage_here, z3.Or(lone_gnome_here))
        s.add(z3.Implies(place, z3.And(a.stok >= 1, am == 0, ag == 0, self.in_set(tgt, r.place_dom),
                                       z3.Not(sh_tgt), z3.Implies(someone_here, tr == 0))))

        # the unit move (before any bounce) --------------------------------------------------
        bounce_possible = self.max_chain > 0
        pm = [self.cellvar(f"pm{m}@{t}", r.mage_dom[m]) for m in range(nm)] if bounce_possible else b.mage
        pg = [self.cellvar(f"pg{g}@{t}", r.gnome_dom[g]) for g in range(ng)] if bounce_possible else b.gnome
        for m in range(nm):
            s.add(pm[m].x == z3.If(step_m[m], tgt.x, a.mage[m].x))
        for g in range(ng):
            if not r.touch[g] and g not in self.can_move:
                if pg[g] is not a.gnome[g]:
                    s.add(pg[g].x == a.gnome[g].x)
                continue
            x = a.gnome[g].x
            if r.touch[g]:
                for m in range(nm):
                    x = z3.If(z3.And(carries[m][g], step_m[m]), tgt.x, x)
                    x = z3.If(pick[m][g], a.mage[m].x, x)
                    x = z3.If(drop[m][g], tgt.x, x)
            if g in self.can_move:
                x = z3.If(gstep[g], tgt.x, x)
            s.add(pg[g].x == z3.If(a.gone[g], a.gnome[g].x, x))
            if r.touch[g]:
                car = a.carrier[g]
                for m in range(nm):
                    car = z3.If(pick[m][g], m, z3.If(drop[m][g], -1, car))
                if g in self.can_move:
                    car = z3.If(gstep[g], onto, car)
                s.add(b.carrier[g] == z3.If(a.gone[g], a.carrier[g], car))

        # the springshroom bounce ----------------------------------------------------------
        if bounce_possible:
            bm = []
            for m in range(nm):
                first = z3.And([z3.Not(self.same(a.mage[j], tgt)) for j in range(m)])
                bm.append(z3.Or(z3.And(step_m[m], sh_tgt), z3.And(place, self.same(a.mage[m], tgt), first)))
            bg = []
            for g in range(ng):
                first = z3.And([z3.Not(lone_gnome_here[h]) for h in range(g)])
                dropped = z3.Or([drop[m][g] for m in range(nm)]) if nm else z3.BoolVal(False)
                bg.append(z3.Or(z3.And(gstep[g], sh_tgt, onto == -1), z3.And(dropped, sh_tgt),
                                z3.And(place, z3.Not(mage_here), lone_gnome_here[g], first)))
            bouncing = z3.Or(bm + bg)
            sleepy = z3.Or([z3.And(bg[g], z3.Not(a.awake[g])) for g in range(ng)]) if ng else z3.BoolVal(False)
            # a lone awake gnome may bounce into a tunnel even with a character on it (it is rescued)
            lively = z3.Or([z3.And(bg[g], a.awake[g]) for g in range(ng)]) if ng else z3.BoolVal(False)

            blocks_m = [z3.Not(bm[m]) for m in range(nm)]
            blocks_g = [z3.And(z3.Not(a.gone[g]), z3.Not(bg[g]),
                               z3.Not(z3.Or([z3.And(bm[m], b.carrier[g] == m) for m in range(nm)])))
                        for g in range(ng)]

            def occ(x: _Cell | int) -> Any:
                """Another character (not the bouncing ones) on cell ``x``."""
                def on(c: _Cell) -> Any:
                    return self.at(c, x) if isinstance(x, int) else self.same(c, x)
                return z3.Or([z3.And(on(pm[m]), blocks_m[m]) for m in range(nm)]
                             + [z3.And(on(pg[g]), blocks_g[g]) for g in range(ng)])

            n = self.I(f"n@{t}")
            land = [self.cellvar(f"L{i}@{t}", self.all_dom) for i in range(1, self.max_chain + 1)]
            chain = [tgt, *land]
            step.n, step.land = n, land
            s.add(n >= 0, n <= self.max_chain, z3.Implies(z3.Not(bouncing), n == 0))
            for i in range(1, self.max_chain + 1):
                li = chain[i]
                s.add(z3.Implies(n >= i, z3.And(
                    self.adj(chain[i - 1], li), z3.Or(z3.Not(occ(li)), z3.And(lively, self.tunnel_at(li))),
                    z3.Not(z3.And(sleepy, self.tunnel_at(li))),
                    z3.And([li.x != chain[j].x for j in range(i)]))))
                s.add(z3.Implies(n > i, self.shroom_at(a, li)))
                s.add(z3.Implies(n < i, li.x == nowhere))
            end = self.cellvar(f"E@{t}", self.all_dom)
            ex = tgt.x
            for i in range(1, self.max_chain + 1):
                ex = z3.If(n == i, chain[i].x, ex)
            s.add(end.x == ex)
            no_landing = []
            # a landing outside every character's cells is never open (the domains are sound): skipped
            for d in sorted(self.all_dom):
                seen = z3.Or([self.at(tgt, d)]
                             + [z3.And(n >= i, chain[i].x == d) for i in range(1, self.max_chain + 1)])
                ok_d = z3.And(self.adj_const(end, d), z3.Not(occ(d)), z3.Not(seen))
                if d in self.tunnel:
                    ok_d = z3.And(self.adj_const(end, d), z3.Or(z3.Not(occ(d)), lively), z3.Not(seen),
                                  z3.Not(sleepy))
                no_landing.append(z3.Not(ok_d))
            s.add(z3.Implies(bouncing, z3.Or(z3.And(n >= 1, z3.Not(self.shroom_at(a, end))), z3.And(no_landing))))
            for m in range(nm):
                s.add(b.mage[m].x == z3.If(bm[m], end.x, pm[m].x))
            for g in range(ng):
                by = z3.Or([z3.And(bm[m], b.carrier[g] == m) for m in range(nm)])
                s.add(b.gnome[g].x == z3.If(z3.And(z3.Not(a.gone[g]), z3.Or(bg[g], by)), end.x, pg[g].x))

        # springshrooms on the board after a placement
        for i in sorted(r.place_dom):
            s.add(b.shroom[i] == z3.Or(a.shroom[i], z3.And(place, self.at(tgt, i))))

        # waking (layers to a fixpoint) and rescue -------------------------------------------
        view = _State(b.mage, b.gnome, b.carrier, a.gone, a.awake, b.moved, b.mover, b.used, b.shroom,
                      b.spent, b.tokens, b.stok, b.nresc, b.transit)
        aw = list(a.awake)
        for layer in range(self.layers):
            last = layer == self.layers - 1
            nxt = list(aw)
            for g in self.wakeable:
                v = b.awake[g] if last else z3.Bool(f"aw{g}@{t}.{layer}")
                c = self.conds[self.gn[g].kind]
                s.add(v == z3.Or(aw[g], z3.And(z3.Not(a.gone[g]), self.cond(c, g, b.gnome[g], view, aw))))
                nxt[g] = v
            aw = nxt
        for g in range(ng):
            if r.rescuable[g]:  # the others can never be awake on a tunnel (gone stays false)
                s.add(b.gone[g] == z3.Or(a.gone[g], z3.And(b.awake[g], self.tunnel_at(b.gnome[g]))))
        gained = {"movement": self.V(0), "springshroom": self.V(0)}
        for kind in self.kinds:
            if self.nmax[kind] == self.nr0[kind]:
                continue
            new = z3.Sum([self.B(z3.And(z3.Not(a.gone[g]), b.gone[g]))
                          for g in range(ng) if self.gn[g].kind == kind] + [self.V(0)])
            s.add(b.nresc[kind] == a.nresc[kind] + new)
            for bonus in gained:
                def cum(v: Any, kd: str = kind, bn: str = bonus) -> Any:
                    e: Any = self.V(_track_cum(self.ed, kd, bn, self.nr0[kd]))
                    for x in range(self.nr0[kd] + 1, self.nmax[kd] + 1):
                        e = z3.If(v >= x, _track_cum(self.ed, kd, bn, x), e)
                    return e
                gained[bonus] = gained[bonus] + cum(b.nresc[kind]) - cum(a.nresc[kind])

        # counters ---------------------------------------------------------------------
        held = a.tokens - k + gained["movement"]
        s.add(b.spent == a.spent + k, b.tokens == z3.If(held > self.cap, self.cap, held),
              b.stok == a.stok - self.B(place) + gained["springshroom"])
        for m in range(nm):
            touch = [g for g in range(ng) if r.touch[g]]
            paid = z3.Or([step_m[m]] + [z3.And(pick[m][g], z3.Not(self.same(a.gnome[g], a.mage[m]))) for g in touch]
                         + [z3.And(drop[m][g], z3.Not(self.same(tgt, a.mage[m]))) for g in touch])
            s.add(b.used[m] == z3.If(paid, a.used[m] + 1, a.used[m]), b.used[m] <= allow)
        for g in self.can_move:
            s.add(b.moved[g] == z3.If(gstep[g], a.moved[g] + 1, a.moved[g]), b.moved[g] <= allow)
        if self.pos.tokens + self.tmax_gain <= self.cap:
            # tokens are spent lazily, just before the action that needs the last of them (sound while
            # the cap can never bind: then spending earlier changes nothing but allowances, which only grow)
            need = [z3.And(z3.Or(step_m[m], *[pick[m][g] for g in range(ng) if r.touch[g]],
                                 *[drop[m][g] for g in range(ng) if r.touch[g]]),
                           b.used[m] == allow, b.used[m] != a.used[m])
                    for m in range(nm)] + [z3.And(gstep[g], b.moved[g] == allow) for g in self.can_move]
            s.add(z3.Implies(k >= 1, z3.Or(need)))
        for kind in self.kinds:
            mv = a.mover[kind]
            for g in self.can_move:
                if self.gn[g].kind == kind:
                    mv = z3.If(gstep[g], g, mv)
            s.add(b.mover[kind] == mv)

        # transit -------------------------------------------------------------------------
        nt: Any = tr
        for m in range(nm):
            share = z3.Or([self.same(b.mage[j], b.mage[m]) for j in range(nm) if j != m]
                          + [z3.And(z3.Not(b.gone[g]), self.same(b.gnome[g], b.mage[m]), b.carrier[g] != m)
                             for g in range(ng) if b.gnome[g].dom & b.mage[m].dom])
            nt = z3.If(step_m[m], z3.If(share, self.V(1 + m), self.V(0)), nt)
            for g in range(ng):
                if not r.touch[g]:
                    continue
                nt = z3.If(pick[m][g], 0, nt)
                stays = z3.And(self.same(tgt, a.mage[m]), z3.Not(b.gone[g]), self.same(b.gnome[g], a.mage[m]))
                nt = z3.If(drop[m][g], z3.If(stays, self.V(3 + m), self.V(0)), nt)
        for g in self.can_move:
            share = z3.Or([self.same(b.mage[j], b.gnome[g]) for j in range(nm)]
                          + [z3.And(z3.Not(b.gone[h]), self.same(b.gnome[h], b.gnome[g])) for h in range(ng)
                             if h != g and b.gnome[h].dom & b.gnome[g].dom])
            sharing = z3.And(z3.Not(b.gone[g]), b.carrier[g] == -1, share)
            nt = z3.If(gstep[g], z3.If(sharing, self.V(GNOME_TRANSIT + g), self.V(0)), nt)
        s.add(b.transit == nt)

    def build(self, deadline: float | None = None) -> bool:
        """Unroll H steps; False when ``deadline`` (perf_counter) passes first."""
        st = self.initial()
        self.states.append(st)
        for t in range(self.h):
            if deadline is not None and time.perf_counter() > deadline:
                return False
            nxt = self.fresh(t + 1, st)
            self.transition(t, st, nxt)
            st = nxt
            self.states.append(st)
            if t > 0:
                self.s.add(z3.Implies(self.steps[t - 1].typ == NOOP, self.steps[t].typ == NOOP))
        self.s.add(st.transit == 0)
        return True

    # -- objective ------------------------------------------------------------------------------
    def objective(self) -> tuple[Any, Any, Any]:
        fin = self.states[-1]
        rules = self.ed.running
        rescued = z3.Sum([fin.nresc[k] for k in self.kinds] + [self.V(0)]) - sum(self.nr0.values())
        pts: Any = self.V(-running_score(self.pos, self.ed))
        for kind in self.kinds:
            e: Any = self.V(rules.track_points(kind, self.nr0[kind]))
            for x in range(self.nr0[kind] + 1, self.nmax[kind] + 1):
                e = z3.If(fin.nresc[kind] >= x, rules.track_points(kind, x), e)
            pts = pts + e
        pts = pts + rules.awake_rival_points * z3.Sum(
            [self.B(z3.And(fin.awake[g], z3.Not(fin.gone[g]))) for g in range(self.ng)] + [self.V(0)])
        cost = fin.spent - self.pos.spent + z3.Sum([self.B(p) for p in self.place_flags] + [self.V(0)])
        return rescued, pts, cost

    def plan(self, model: z3.ModelRef) -> list[Action]:
        """The unit actions of the model (tokens spent just before the action that follows)."""
        def ev(e: Any) -> int:
            return model.eval(e, model_completion=True).as_signed_long()  # type: ignore[no-any-return]

        out: list[Action] = []
        for t, st in enumerate(self.steps):
            typ = ev(st.typ)
            if typ == NOOP:
                break
            out += [Action("token")] * ev(st.k)
            tgt = self.cell(ev(st.tgt.x))
            chain: tuple[Cell, ...] = ()
            if st.n is not None:
                chain = tuple(self.cell(ev(st.land[i].x)) for i in range(ev(st.n)))
            a = self.states[t]
            if typ == MSTEP:
                out.append(Action("step", f"M{ev(st.am) + 1}", path=(tgt,), bounces=chain))
            elif typ == PICK:
                out.append(Action("pickup", f"M{ev(st.am) + 1}", path=(tgt,)))
            elif typ == DROP:
                out.append(Action("drop", f"M{ev(st.am) + 1}", path=(tgt,), bounces=chain))
            elif typ == GSTEP:
                g = ev(st.ag)
                at = self.cell(ev(a.gnome[g].x))
                out.append(Action("step", self.gn[g].kind, at=at, path=(tgt,), bounces=chain))
            else:
                out.append(Action("shroom", path=(tgt,), bounces=chain))
        return out


def merge_units(units: list[Action]) -> list[Action]:
    """Join consecutive unit steps of one character (only tokens between) into one path action."""
    out: list[Action] = []
    for a in units:
        j = len(out) - 1
        while j >= 0 and out[j].kind == "token":
            j -= 1
        p = out[j] if j >= 0 else None
        if (a.kind == "step" and p is not None and p.kind == "step" and not p.bounces and p.who == a.who
                and (a.who.startswith("M") or a.at == p.path[-1])):
            tokens = out[j + 1:]
            out[j:] = [*tokens, Action("step", p.who, at=p.at, path=p.path + a.path, bounces=a.bounces)]
            continue
        out.append(a)
    return out


def solve_run_encoding(pos: RunPosition, ed: HedgeMageEdition, time_limit: float | None = None,
                       shortest: bool = False) -> Result:
    """The optimal plan for the round from ``pos`` by the planning encoding (z3).

    ``shortest``: then also look for a plan with as few unit actions as possible (best effort
    within ``time_limit``; the value stays optimal either way).

    Returns a :class:`Result` like ``solve_run``: status OPTIMAL with a :class:`PlanValue`
    (rescued, points, tokens, springshrooms) and the plan (validated by replaying it with
    the rules engine), or UNKNOWN when ``time_limit`` seconds run out, the conditions in
    play are not monotone, or the replay disagrees (``stats["reason"]`` says which).
    """
    t0 = time.perf_counter()
    conds = _conds(pos, ed)
    for kind, c in conds.items():
        why = nonmonotone_reason(c)
        if why is not None:
            return Result(Status.UNKNOWN, None, None, {"method": "encoding",
                                                       "reason": f"{kind} condition not monotone: {why}"},
                          time.perf_counter() - t0)
    h = horizon(pos, ed)
    enc = _Encoding(pos, ed, h)
    stats: dict[str, Any] = {"method": "encoding", "horizon": h}
    if not enc.build(None if time_limit is None else t0 + time_limit):
        stats["reason"] = "time limit (while building the encoding)"
        return Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0)
    rescued, points, cost = enc.objective()
    s = enc.s
    queries = 0

    def check(extra: Any) -> Check:
        """One query under the remaining time: SAT with a model, UNSAT, or UNKNOWN (time ran out)."""
        nonlocal queries
        queries += 1
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        s.push()
        s.add(extra)
        try:
            return smt_check(s, seconds=left)
        finally:
            s.pop()

    def unknown(why: str) -> Result:
        stats.update(queries=queries, reason=why)
        return Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0)

    # the first model: the empty plan (every step a no-op: quick to find), improved below
    first = check(enc.steps[0].typ == NOOP) if enc.steps else check(z3.BoolVal(True))
    if first.unsat:
        first = check(z3.BoolVal(True))
    if first.unknown:
        return unknown("time limit")
    if first.unsat:
        return unknown("no plan at all (the position is not well formed)")
    model: z3.ModelRef = first.model

    def val(m: z3.ModelRef, e: Any) -> int:
        return m.eval(e, model_completion=True).as_signed_long()  # type: ignore[no-any-return]

    # lexicographic: the most rescued, then (fixed) the most points, then the fewest tokens + springshrooms;
    # each by "can reach better than the best so far" queries until unsatisfiable
    fixed: list[Any] = []
    for expr, sign in ((rescued, 1), (points, 1), (cost, -1)):
        best = val(model, expr)
        while True:
            better = expr >= best + 1 if sign > 0 else expr <= best - 1
            c2 = check(z3.And(*fixed, better) if fixed else better)
            if c2.unknown:
                return unknown("time limit")
            if c2.unsat:
                break
            model, best = c2.model, val(c2.model, expr)
        fixed.append(expr == best)
    if shortest:  # best effort: as few unit actions as possible for the optimal value (readable plans)
        def length(m: z3.ModelRef) -> int:
            return sum(1 for st in enc.steps if val(m, st.typ) != NOOP)

        n_act = length(model)
        while n_act > 0:
            c3 = check(z3.And(*fixed, enc.steps[n_act - 1].typ == NOOP))
            if not c3.sat:
                break
            model, n_act = c3.model, length(c3.model)
    r_v, p_v, c_v = val(model, rescued), val(model, points), val(model, cost)
    units = enc.plan(model)
    plan = merge_units(units)
    rep = execute_plan(pos, ed, plan)
    if not rep.legal:
        plan = units
        rep = execute_plan(pos, ed, plan)
    stats["queries"] = queries
    tokens = sum(1 for a in units if a.kind == "token")
    shrooms = sum(1 for a in units if a.kind == "shroom")
    value = PlanValue(r_v, p_v, tokens, shrooms)
    if not rep.legal:
        stats["replay"] = f"action {rep.failed}: " + "; ".join(m for _, m in rep.reasons)
        return unknown(f"the encoding's plan is illegal for the rules engine ({stats['replay']}); value {value}")
    got = (rep.final.total_rescued() - pos.total_rescued(), running_score(rep.final, ed) - running_score(pos, ed),
           tokens + shrooms)
    if got != (r_v, p_v, c_v):
        return unknown(f"replayed plan achieves {got}, the encoding claimed {(r_v, p_v, c_v)}")
    return Result(Status.OPTIMAL, value, plan, stats, time.perf_counter() - t0)
