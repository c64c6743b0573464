"""A compact copy of the maze-running rules for the plan search (fast, tuple states).

The rules engine of record is models/hedge_mage/running.py (``apply_action``,
every reason, events).  The search needs millions of transitions, so this
module re-implements the same transitions on plain tuples: cells are integers
``row * cols + col``, a state is a tuple, nothing is validated twice and no
reasons are collected.  It must agree with ``apply_action`` exactly; the tests
(tests/hedge_mage/test_running.py) compare the successor sets of both engines on
generated positions and every plan the search returns is replayed with
``execute_plan``.

State layout (all immutable)::

    (mages, used, gnomes, shrooms, spent, tokens, stok, sig, rescued, gone, transit)

``gnomes`` is sorted like ``RunPosition.gnomes``; a gnome is
``(cell, kind, awake, carrier, moved)`` with ``carrier``/``moved`` = -1 for none.
``rescued`` counts per kind in edition order, ``gone`` the kinds whose self-moved
gnome was rescued, ``transit`` None or ``(what, index)`` as in ``RunPosition``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.enchantments import Cond, scope_indices
from gnomekit.models.hedge_mage.running import ORTH, Action, RGnome, RunPosition

Gnome = tuple[int, str, bool, int, int]
State = tuple[Any, ...]
MAGES, USED, GNOMES, SHROOMS, SPENT, TOKENS, STOK, SIG, RESCUED, GONE, TRANSIT = range(11)
# compact actions: ("T",) token; ("^", x, chain) springshroom; ("M", m, to, chain) mage step;
# ("+", m, t) pick-up; ("-", m, t, chain) drop; ("g", kind, at, to, chain) gnome step
Act = tuple[Any, ...]
Ctx = tuple[dict[int, int], dict[int, list[tuple[int, str, bool]]], frozenset[int] | set[int]]
CondFn = Callable[[int, int, bool, Ctx], bool]


class Illegal(Exception):
    """The action breaks a rule (``allowance``: only because a movement point is missing)."""

    def __init__(self, allowance: bool = False) -> None:
        super().__init__()
        self.allowance = allowance


class _W:
    """A mutable working copy of a state while one unit action is applied."""

    __slots__ = ("mages", "used", "gnomes", "shrooms", "spent", "tokens", "stok", "sig", "rescued", "gone")

    def __init__(self, s: State) -> None:
        self.mages: list[int] = list(s[MAGES])
        self.used: list[int] = list(s[USED])
        self.gnomes: list[list[Any]] = [list(g) for g in s[GNOMES]]
        self.shrooms: set[int] = set(s[SHROOMS])
        self.spent: int = s[SPENT]
        self.tokens: int = s[TOKENS]
        self.stok: int = s[STOK]
        self.sig: int = s[SIG]
        self.rescued: list[int] = list(s[RESCUED])
        self.gone: frozenset[str] = s[GONE]

    def carried_by(self, m: int) -> int:
        for i, g in enumerate(self.gnomes):
            if g[3] == m:
                return i
        return -1

    def occupied(self, cell: int, skip_mage: int = -1, skip_gnome: int = -1) -> bool:
        """Whether a character other than the skipped ones (and the skipped mage's gnome) is on ``cell``."""
        for i, mc in enumerate(self.mages):
            if mc == cell and i != skip_mage:
                return True
        for i, g in enumerate(self.gnomes):
            if g[0] == cell and i != skip_gnome and not (skip_mage >= 0 and g[3] == skip_mage):
                return True
        return False


class Engine:
    """The running rules of one position's board and edition, on compact states."""

    def __init__(self, pos: RunPosition, ed: HedgeMageEdition, relaxed: bool = False,
                 frozen: frozenset[str] = frozenset()) -> None:
        """``relaxed``: bounce chains may also stop early and an awake gnome may step into the space of
        a mage that carries nothing without climbing it (action ``p``), a relaxation of the rules used
        by the solver to bound the game (see solver/hedge_mage/running.py, "inert gnomes");
        ``frozen``: kinds whose sleeping gnomes are never picked up nor put on a springshroom (a
        restriction: every plan of this engine is legal by the rules)."""
        self.relaxed = relaxed
        self.frozen = frozen
        self.rows, self.cols = pos.rows, pos.cols
        n = self.rows * self.cols
        self.n = n
        self.hedge = [False] * n
        for r, c in pos.hedge:
            self.hedge[r * self.cols + c] = True
        self.tunnel = [False] * n
        for r, c in pos.tunnel_set:
            self.tunnel[r * self.cols + c] = True
        self.nb: list[tuple[int, ...]] = []
        for i in range(n):
            r, c = divmod(i, self.cols)
            self.nb.append(tuple((r + dr) * self.cols + c + dc for dr, dc in ORTH
                                 if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols))
        self.points = pos.points
        self.kinds = tuple(ed.gnome_kinds)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.cap = ed.movement_token_cap
        self.rules = ed.running
        self.conds: dict[str, CondFn] = {}
        self.raw_conds: dict[str, Cond] = {}
        for e in pos.enchantments:
            cond = ed.running.conditions.get(e)
            if cond is not None:
                kind = ed.enchantment(e).kind
                self.conds[kind] = self._compile(cond)
                self.raw_conds[kind] = cond
        # cells where a kind's card can never hold (static three-valued analysis): never evaluated there
        self.maybe: dict[str, list[bool]] = {k: [may_hold(self, c, i) for i in range(n)]
                                             for k, c in self.raw_conds.items()}
        # a card in play counts springshrooms: placements matter before anyone enters them
        self.general_shrooms = any(c.mentions("springshroom") for c in self.raw_conds.values())

    # -- conversion -------------------------------------------------------------------------------
    def cell(self, i: int) -> Cell:
        return divmod(i, self.cols)

    def idx(self, c: Cell) -> int:
        return c[0] * self.cols + c[1]

    def state(self, pos: RunPosition) -> State:
        gn = tuple(sorted((self.idx(g.at), g.kind, g.awake, -1 if g.carried_by is None else g.carried_by,
                           -1 if g.moved is None else g.moved) for g in pos.gnomes))
        tr = pos.transit
        if tr is not None and tr[0] == "gnome":
            target = pos.gnomes[tr[1]]
            key = (self.idx(target.at), target.kind, target.awake,
                   -1 if target.carried_by is None else target.carried_by,
                   -1 if target.moved is None else target.moved)
            tr = ("gnome", gn.index(key))
        return (tuple(self.idx(m) for m in pos.mages), tuple(pos.mage_used), gn,
                frozenset(self.idx(s) for s in pos.springshrooms), pos.spent, pos.tokens, pos.springshroom_tokens,
                pos.sigil_tokens, tuple(pos.rescued_count(k) for k in self.kinds), frozenset(pos.rescued_movers), tr)

    def position(self, s: State, like: RunPosition) -> RunPosition:
        """The RunPosition of a state (``like`` gives the board, cards and round)."""
        gl = [RGnome(self.cell(g[0]), g[1], g[2], None if g[3] < 0 else g[3], None if g[4] < 0 else g[4])
              for g in s[GNOMES]]
        return RunPosition(board=like.board, enchantments=like.enchantments,
                           mages=tuple(self.cell(m) for m in s[MAGES]), gnomes=tuple(gl), points=like.points,
                           springshrooms=tuple(self.cell(x) for x in s[SHROOMS]), spent=s[SPENT], tokens=s[TOKENS],
                           springshroom_tokens=s[STOK], sigil_tokens=s[SIG], mage_used=s[USED],
                           rescued=tuple((k, n) for k, n in zip(self.kinds, s[RESCUED], strict=True)),
                           round=like.round, transit=s[TRANSIT], rescued_movers=tuple(s[GONE]))

    def action(self, a: Act) -> Action:
        """The notation-level action of a compact one."""
        def ch(chain: tuple[int, ...]) -> tuple[Cell, ...]:
            return tuple(self.cell(x) for x in chain)
        if a[0] == "T":
            return Action("token")
        if a[0] == "^":
            return Action("shroom", path=(self.cell(a[1]),), bounces=ch(a[2]))
        if a[0] == "M":
            return Action("step", f"M{a[1] + 1}", path=(self.cell(a[2]),), bounces=ch(a[3]))
        if a[0] == "+":
            return Action("pickup", f"M{a[1] + 1}", path=(self.cell(a[2]),))
        if a[0] == "-":
            return Action("drop", f"M{a[1] + 1}", path=(self.cell(a[2]),), bounces=ch(a[3]))
        return Action("step", a[1], at=self.cell(a[2]), path=(self.cell(a[3]),), bounces=ch(a[4]))

    # -- conditions -------------------------------------------------------------------------------
    def _scope(self, scope: str, i: int) -> tuple[int, ...]:
        return tuple(scope_indices(scope, i, self.rows, self.cols))

    def _compile(self, cond: Cond) -> CondFn:
        op = cond.op
        if op in ("all", "any", "not"):
            parts = [self._compile(a) for a in cond.args]
            if op == "all":
                return lambda g, cell, car, ctx: all(p(g, cell, car, ctx) for p in parts)
            if op == "any":
                return lambda g, cell, car, ctx: any(p(g, cell, car, ctx) for p in parts)
            inner = parts[0]
            return lambda g, cell, car, ctx: not inner(g, cell, car, ctx)
        if op == "on":
            want = cond.value == "hedge"
            hedge = self.hedge
            return lambda g, cell, car, ctx: hedge[cell] == want
        if op == "carried":
            val = bool(cond.value)
            return lambda g, cell, car, ctx: car == val
        if op == "edge":
            val = bool(cond.value)
            rows, cols = self.rows, self.cols

            def edge(g: int, cell: int, car: bool, ctx: Ctx) -> bool:
                r, c = divmod(cell, cols)
                return (r in (0, rows - 1) or c in (0, cols - 1)) == val
            return edge
        lo, hi = cond.at_least, cond.at_most

        def within(k: int) -> bool:
            return not (lo is not None and k < lo) and not (hi is not None and k > hi)

        scopes = [self._scope(cond.scope, i) for i in range(self.n)]
        what = cond.what
        if what in ("hedge", "ground", "tunnel"):
            table = self.hedge if what != "tunnel" else self.tunnel
            counts = [sum(1 for x in sc if table[x] == (what != "ground")) for sc in scopes]
            return lambda g, cell, car, ctx: within(counts[cell])
        if what == "springshroom":
            return lambda g, cell, car, ctx: within(sum(1 for x in scopes[cell] if x in ctx[2]))
        if what == "mage":
            return lambda g, cell, car, ctx: within(sum(ctx[0].get(x, 0) for x in scopes[cell]))
        kinds, awake = cond.kinds, cond.awake

        def count_gnomes(g: int, cell: int, car: bool, ctx: Ctx) -> bool:
            k = 0
            gat = ctx[1]
            for x in scopes[cell]:
                for gid, kind, aw in gat.get(x, ()):
                    if gid == g or (kinds is not None and kind not in kinds) or (awake is not None and aw != awake):
                        continue
                    k += 1
            return within(k)
        return count_gnomes

    # -- settle: wake, then rescue, until nothing changes ----------------------------------------
    def _ctx(self, w: _W) -> Ctx:
        mc: dict[int, int] = {}
        for m in w.mages:
            mc[m] = mc.get(m, 0) + 1
        gat: dict[int, list[tuple[int, str, bool]]] = {}
        for i, g in enumerate(w.gnomes):
            gat.setdefault(g[0], []).append((i, g[1], g[2]))
        return mc, gat, w.shrooms

    def settle(self, w: _W) -> None:
        conds = self.conds
        maybe = self.maybe
        tunnel = self.tunnel
        changed = True
        while changed:
            changed = False
            ctx: Ctx | None = None
            for i, g in enumerate(w.gnomes):
                if g[2]:
                    continue
                f = conds.get(g[1])
                if f is None or not maybe[g[1]][g[0]]:
                    continue
                if ctx is None:
                    ctx = self._ctx(w)
                if f(i, g[0], g[3] >= 0, ctx):
                    g[2] = True
                    ctx = None
                    changed = True
            for i, g in enumerate(w.gnomes):
                if g[2] and tunnel[g[0]]:
                    self._rescue(w, i)
                    changed = True
                    break

    def _rescue(self, w: _W, i: int) -> None:
        g = w.gnomes.pop(i)
        kind = g[1]
        if g[4] >= 0:
            w.gone = w.gone | {kind}
        k = self.kind_index[kind]
        bonus = self.rules.bonus(kind, w.rescued[k])
        w.rescued[k] += 1
        if bonus == "movement":
            if w.tokens < self.cap:
                w.tokens += 1
        elif bonus == "springshroom":
            w.stok += 1
        elif bonus == "sigil":
            w.sig += 1

    # -- bounces ----------------------------------------------------------------------------------
    def bounce_options(self, w: _W, start: int, mage: int, gnome: int) -> list[tuple[int, ...]]:
        """Every complete bounce chain from springshroom ``start`` (``[()]`` when nobody can land)."""
        alone = gnome >= 0 and mage < 0
        sleeping_alone = alone and not w.gnomes[gnome][2]
        awake_alone = alone and bool(w.gnomes[gnome][2])
        out: list[tuple[int, ...]] = []
        tunnel = self.tunnel

        def go(cur: int, seen: frozenset[int], chain: tuple[int, ...]) -> None:
            opts = []
            for d in self.nb[cur]:
                if d in seen:
                    continue
                if w.occupied(d, mage, gnome) and not (awake_alone and tunnel[d]):
                    continue
                if sleeping_alone and tunnel[d]:
                    continue
                opts.append(d)
            if not opts or self.relaxed:
                out.append(chain)
            for d in opts:
                if d in w.shrooms:
                    go(d, seen | {d}, chain + (d,))
                else:
                    out.append(chain + (d,))

        go(start, frozenset((start,)), ())
        return out

    def _bounce(self, w: _W, cell: int, mage: int, gnome: int, chain: tuple[int, ...]) -> None:
        if chain not in self.bounce_options(w, cell, mage, gnome):
            raise Illegal()
        end = chain[-1] if chain else cell
        if mage >= 0:
            w.mages[mage] = end
            c = w.carried_by(mage)
            if c >= 0:
                w.gnomes[c][0] = end
        else:
            w.gnomes[gnome][0] = end

    # -- apply ------------------------------------------------------------------------------------
    def _freeze(self, w: _W, transit: tuple[str, int] | None, ident: list[Any] | None = None) -> State:
        gl = [tuple(g) for g in w.gnomes]
        if transit is not None and transit[0] == "gnome":
            assert ident is not None
            key = tuple(ident)
            gs = sorted(gl)
            transit = ("gnome", gs.index(key))  # type: ignore[arg-type]
            return (tuple(w.mages), tuple(w.used), tuple(gs), frozenset(w.shrooms), w.spent, w.tokens, w.stok,
                    w.sig, tuple(w.rescued), w.gone, transit)
        return (tuple(w.mages), tuple(w.used), tuple(sorted(gl)), frozenset(w.shrooms), w.spent, w.tokens, w.stok,
                w.sig, tuple(w.rescued), w.gone, transit)

    def apply(self, s: State, a: Act) -> State:
        """The state after unit action ``a`` (characters may pass through: ``continues``); Illegal if not legal."""
        op = a[0]
        tr = s[TRANSIT]
        if op == "T":
            if s[TOKENS] <= 0:
                raise Illegal()
            return s[:TOKENS - 1] + (s[SPENT] + 1, s[TOKENS] - 1) + s[TOKENS + 1:]
        w = _W(s)
        allow = self.points + w.spent
        if op == "^":
            t = a[1]
            if w.stok <= 0 or self.hedge[t] or self.tunnel[t] or t in w.shrooms:
                raise Illegal()
            here_m = [i for i, m in enumerate(w.mages) if m == t]
            here_g = [i for i, g in enumerate(w.gnomes) if g[0] == t and g[3] < 0]
            if tr is not None and (here_m or here_g):
                raise Illegal()
            ident = w.gnomes[tr[1]] if tr is not None and tr[0] == "gnome" else None
            w.stok -= 1
            w.shrooms.add(t)
            if here_m:
                self._bounce(w, t, here_m[0], -1, a[2])
            elif here_g:
                self._bounce(w, t, -1, here_g[0], a[2])
            elif a[2]:
                raise Illegal()
            self.settle(w)
            if ident is not None:
                if not any(x is ident for x in w.gnomes):  # pragma: no cover - only by a rescue while passing
                    return self._freeze(w, None)
                return self._freeze(w, tr, ident)
            return self._freeze(w, tr)
        if op in ("M", "+", "-"):
            m = a[1]
            if tr is not None:
                if tr[0] not in ("mage", "mage-step") or tr[1] != m:
                    raise Illegal()
                if op == "-" or (op == "+" and (tr[0] != "mage" or a[2] != w.mages[m])):
                    raise Illegal()
            mc = w.mages[m]
            if op == "M":
                to = a[2]
                if not self.hedge[mc] and self.hedge[to]:
                    raise Illegal()
                if w.used[m] + 1 > allow:
                    raise Illegal(True)
                w.used[m] += 1
                w.mages[m] = to
                c = w.carried_by(m)
                if c >= 0:
                    w.gnomes[c][0] = to
                if to in w.shrooms:
                    self._bounce(w, to, m, -1, a[3])
                elif a[3]:
                    raise Illegal()
                self.settle(w)
                return self._freeze(w, ("mage", m) if w.occupied(w.mages[m], skip_mage=m) else None)
            if op == "+":
                t = a[2]
                if w.carried_by(m) >= 0:
                    raise Illegal()
                cands = [i for i, g in enumerate(w.gnomes) if g[0] == t and g[3] < 0
                         and (g[2] or g[1] not in self.frozen)]
                if not cands:
                    raise Illegal()
                cost = 0 if t == mc else 1
                if t != mc and self.hedge[mc] and not self.hedge[t]:
                    raise Illegal()
                if w.used[m] + cost > allow:
                    raise Illegal(True)
                w.used[m] += cost
                g = w.gnomes[cands[0]]
                g[3] = m
                g[0] = mc
                self.settle(w)
                return self._freeze(w, ("mage", m) if w.occupied(w.mages[m], skip_mage=m) else None)
            # drop
            t = a[2]
            gi = w.carried_by(m)
            if gi < 0:
                raise Illegal()
            g = w.gnomes[gi]
            cost = 0 if t == mc else 1
            if t != mc and self.hedge[mc] and not self.hedge[t]:
                raise Illegal()
            into_tunnel = bool(g[2]) and self.tunnel[t]
            if t != mc and not into_tunnel and w.occupied(t, skip_mage=m):
                raise Illegal()
            if not g[2] and self.tunnel[t]:
                raise Illegal()
            if w.used[m] + cost > allow:
                raise Illegal(True)
            w.used[m] += cost
            g[3] = -1
            g[0] = t
            if t in w.shrooms:
                self._bounce(w, t, -1, gi, a[3])
            elif a[3]:
                raise Illegal()
            self.settle(w)
            if t == mc and any(x is g for x in w.gnomes) and g[0] == mc:
                return self._freeze(w, ("mage-step", m))
            return self._freeze(w, None)
        # gnome step: ("g", kind, at, to, chain); the gnome is the first of its kind on ``at``;
        # ("p", ...) in the relaxed engine only: into a mage's space without climbing it
        if op == "p" and not self.relaxed:
            raise Illegal()
        kind, at, to = a[1], a[2], a[3]
        gi = next((i for i, g in enumerate(w.gnomes) if g[1] == kind and g[0] == at), -1)
        if tr is not None and tr[0] == "gnome" and w.gnomes[tr[1]][1] == kind and w.gnomes[tr[1]][0] == at:
            gi = tr[1]  # of two of a kind on one space, the notation names the one passing through
        if gi < 0:
            raise Illegal()
        if tr is not None:
            if tr[0] != "gnome":
                raise Illegal()
            tg = s[GNOMES][tr[1]]
            if tg[0] != at or tg[1] != kind:
                raise Illegal()
        g = w.gnomes[gi]
        if not g[2] or kind in w.gone:
            raise Illegal()
        for j, other in enumerate(w.gnomes):
            if j != gi and other[1] == kind and other[4] >= 0:
                raise Illegal()
        frm = g[0]
        onto = -1 if op == "p" else next((i for i, mc in enumerate(w.mages) if mc == to and w.carried_by(i) < 0), -1)
        if onto < 0 and g[3] < 0 and not self.hedge[frm] and self.hedge[to]:
            raise Illegal()
        if max(g[4], 0) + 1 > allow:
            raise Illegal(True)
        g[4] = max(g[4], 0) + 1
        g[0] = to
        g[3] = onto
        if to in w.shrooms and onto < 0:
            self._bounce(w, to, -1, gi, a[4])
        elif a[4]:
            raise Illegal()
        self.settle(w)
        idx = next((i for i, x in enumerate(w.gnomes) if x is g), -1)
        if idx < 0:
            return self._freeze(w, None)
        if g[3] < 0 and w.occupied(g[0], skip_gnome=idx):
            return self._freeze(w, ("gnome", idx), g)
        return self._freeze(w, None)

    # -- candidate unit actions -------------------------------------------------------------------
    def _arrival_chains(self, s: State, cell: int, mage: int, gnome: int) -> list[tuple[int, ...]]:
        """Bounce chains of a character arriving on springshroom ``cell``."""
        w = _W(s)
        if mage >= 0:
            w.mages[mage] = cell
            c = w.carried_by(mage)
            if c >= 0:
                w.gnomes[c][0] = cell
        else:
            w.gnomes[gnome][0] = cell
            w.gnomes[gnome][3] = -1
        return self.bounce_options(w, cell, mage, gnome)

    def candidates(self, s: State, everywhere: bool = False) -> Iterator[tuple[Act, ...]]:
        """Candidate moves (one unit action, or a springshroom placed just before the step/drop entering it).

        Placements: beneath a character; or, unless ``everywhere`` or a card in play counts
        springshrooms, only just before the step, drop or bounce chain that enters the new
        springshroom (any other placement can be delayed to that moment without changing
        anything) and, with two or more springshroom tokens, next to a character or a
        springshroom (several placements delayed to one move form such a chain); otherwise on
        every ground space.
        """
        tr = s[TRANSIT]
        mages, gnomes, shrooms = s[MAGES], s[GNOMES], s[SHROOMS]
        hedge, tunnel = self.hedge, self.tunnel
        general = everywhere or self.general_shrooms
        compound = s[STOK] > 0 and not general
        if s[STOK] > 0:
            cells: set[int] = set(range(self.n)) if general else set(mages) | {g[0] for g in gnomes if g[3] < 0}
            if not general and s[STOK] >= 2:  # several placed before one entering move: a chain from a character
                for c in list(cells) + list(shrooms):
                    cells.update(self.nb[c])
            for t in sorted(cells):
                if hedge[t] or tunnel[t] or t in shrooms:
                    continue
                here_m = [i for i, m in enumerate(mages) if m == t]
                here_g = [i for i, g in enumerate(gnomes) if g[0] == t and g[3] < 0]
                if not here_m and here_g and self.frozen and \
                        all(not gnomes[i][2] and gnomes[i][1] in self.frozen for i in here_g):
                    continue
                if here_m or here_g:
                    if tr is not None:
                        continue
                    w = _W(s)
                    w.shrooms.add(t)
                    chains = self.bounce_options(w, t, here_m[0] if here_m else -1, -1 if here_m else here_g[0])
                else:
                    chains = [()]
                for ch in chains:
                    yield (("^", t, ch),)
        carrier_of = {g[3]: i for i, g in enumerate(gnomes) if g[3] >= 0}
        for m, mc in enumerate(mages):
            if tr is not None and not (tr[0] in ("mage", "mage-step") and tr[1] == m):
                continue
            carried = carrier_of.get(m, -1)
            for to in self.nb[mc]:
                if to in shrooms:
                    for ch in self._arrival_chains(s, to, m, -1):
                        yield (("M", m, to, ch),)
                else:
                    yield (("M", m, to, ()),)
                    if compound:
                        yield from self._entering(s, ("M", m, to), m, -1)
            if tr is not None and tr[0] == "mage-step":
                continue
            if carried < 0:
                for t in (mc, *self.nb[mc]):
                    if tr is not None and t != mc:
                        continue
                    if any(g[0] == t and g[3] < 0 and (g[2] or g[1] not in self.frozen) for g in gnomes):
                        yield (("+", m, t),)
            elif tr is None:
                for t in (mc, *self.nb[mc]):
                    if t in shrooms:
                        for ch in self._arrival_chains(s, t, -1, carried):
                            yield (("-", m, t, ch),)
                    else:
                        yield (("-", m, t, ()),)
                        if compound:
                            yield from self._entering(s, ("-", m, t), -1, carried)
        moved_kinds = {g[1] for g in gnomes if g[4] >= 0} | set(s[GONE])
        seen: set[tuple[int, str]] = set()
        order = [tr[1]] if tr is not None and tr[0] == "gnome" else range(len(gnomes))
        for i in order:
            g = gnomes[i]
            if (g[0], g[1]) in seen:
                continue
            seen.add((g[0], g[1]))
            if not g[2]:
                continue
            if tr is not None and not (tr[0] == "gnome" and gnomes[tr[1]][0] == g[0] and gnomes[tr[1]][1] == g[1]):
                continue
            if g[1] in moved_kinds and g[4] < 0:
                continue
            for to in self.nb[g[0]]:
                onto = any(mc2 == to and j not in carrier_of for j, mc2 in enumerate(mages))
                if to in shrooms and not onto:
                    for ch in self._arrival_chains(s, to, -1, i):
                        yield (("g", g[1], g[0], to, ch),)
                else:
                    yield (("g", g[1], g[0], to, ()),)
                    if compound and not onto:
                        yield from self._entering(s, ("g", g[1], g[0], to), -1, i)
                if onto and self.relaxed:  # the relaxation's plain step into the mage's space
                    if to in shrooms:
                        for ch in self._arrival_chains(s, to, -1, i):
                            yield (("p", g[1], g[0], to, ch),)
                    else:
                        yield (("p", g[1], g[0], to, ()),)

    def _entering(self, s: State, base: Act, mage: int, gnome: int) -> Iterator[tuple[Act, ...]]:
        """A springshroom placed on the free target ``t`` of a step or drop just before it, with the bounces."""
        t = base[-1]
        if self.hedge[t] or self.tunnel[t] or t in s[SHROOMS]:
            return
        if any(m == t for m in s[MAGES]) or any(g[0] == t for g in s[GNOMES]):
            return
        s2 = s[:SHROOMS] + (s[SHROOMS] | {t},) + s[SHROOMS + 1:]
        for ch in self._arrival_chains(s2, t, mage, gnome):
            yield (("^", t, ()), base + (ch,))

    def chain_extensions(self, s: State) -> Iterator[tuple[Act, ...]]:
        """Placements that extend a bounce chain through springshrooms on the board (see ``candidates``)."""
        if s[STOK] <= 0 or self.general_shrooms or not s[SHROOMS]:
            return
        near: set[int] = set()
        for x in s[SHROOMS]:
            near.update(self.nb[x])
        occupied = set(s[MAGES]) | {g[0] for g in s[GNOMES]}
        for x in sorted(near):
            if self.hedge[x] or self.tunnel[x] or x in s[SHROOMS] or x in occupied:
                continue
            try:
                s2 = self.apply(s, ("^", x, ()))
            except Illegal:
                continue
            for (a,) in self.candidates(s2[:STOK] + (0,) + s2[STOK + 1:]):
                if a[0] in ("M", "-", "g") and a[-1] and x in a[-1]:
                    yield (("^", x, ()), a)

    def successors(self, s: State, everywhere: bool = False) -> Iterator[tuple[tuple[Act, ...], State, int, int]]:
        """Legal moves: (unit actions with a lazily spent token, next state, tokens spent, springshrooms spent)."""
        moves = list(self.candidates(s, everywhere))
        if not everywhere:
            moves += list(self.chain_extensions(s))
        for seq in moves:
            cur = s
            out: list[Act] = []
            spent = 0
            ok = True
            for a in seq:
                try:
                    cur = self.apply(cur, a)
                    out.append(a)
                except Illegal as exc:
                    if exc.allowance and cur[TOKENS] > 0:
                        try:
                            cur = self.apply(self.apply(cur, ("T",)), a)
                        except Illegal:
                            ok = False
                            break
                        out += [("T",), a]
                        spent += 1
                    else:
                        ok = False
                        break
            if ok:
                yield tuple(out), cur, spent, sum(1 for a in seq if a[0] == "^")


def may_hold(eng: Engine, cond: Cond, cell: int) -> bool:
    """False when ``cond`` cannot hold for a gnome on ``cell`` whatever the play (hedges and tunnels are fixed)."""

    def ev(c: Cond) -> bool | None:  # True / False / None (depends on the play)
        if c.op in ("all", "any"):
            vals = [ev(a) for a in c.args]
            if c.op == "all":
                return False if False in vals else (True if all(v is True for v in vals) else None)
            return True if True in vals else (False if all(v is False for v in vals) else None)
        if c.op == "not":
            v = ev(c.args[0])
            return None if v is None else not v
        if c.op == "on":
            return eng.hedge[cell] == (c.value == "hedge")
        if c.op == "edge":
            r, col = divmod(cell, eng.cols)
            return (r in (0, eng.rows - 1) or col in (0, eng.cols - 1)) == bool(c.value)
        if c.op == "count" and c.what in ("hedge", "ground", "tunnel"):
            table = eng.hedge if c.what != "tunnel" else eng.tunnel
            k = sum(1 for x in eng._scope(c.scope, cell) if table[x] == (c.what != "ground"))
            return not (c.at_least is not None and k < c.at_least) and not (c.at_most is not None and k > c.at_most)
        return None  # carried, springshrooms, mages, gnomes: depend on the play

    return ev(cond) is not False
