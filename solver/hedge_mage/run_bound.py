"""An admissible upper bound on (gnomes rescued, points) reachable from a running state.

Used by the fast search (solver/hedge_mage/running.py) for branch and bound.  The argument for
every step is in docs/rules/hedge-mage-running.md ("Solving", "The bound"); in short:

* *Units.*  Every paid unit action (a step, an adjacent pick-up or drop) moves at most one
  gnome by one space and is paid from one character's allowance; every other change of a
  gnome's space is a bounce, which leaves a springshroom space.  A walk from a to b therefore
  needs at least ``|a - b| - S`` paid units, S = the springshrooms that can be on the board
  (on it, held, and still on the tracks).
* *Budgets.*  A mage can pay at most its points left plus every movement token that can still
  be spent (held + movement bonuses of the rescues still possible); one gnome per kind (the
  kind's mover) likewise.
* *Contact.*  A sleeping gnome moves (other than by a bounce) only when a mage carries it, so a
  mage must first walk next to it: its approach (height-graph distance when no springshroom
  can exist) is paid by that mage before any of it moves the gnome.
* *Waking.*  A gnome wakes where its card holds: the cells where it can (static three-valued
  analysis), the moves of the gnome to get there and of the other gnomes a ``count`` of
  gnomes needs next to it.  The *first* gnome to wake does so while every other sleeping gnome
  is still asleep (so it cannot walk to help); when no sleeping gnome can be the first, none
  wakes at all (setup gardens: the bound is 0/+0 at the root).
* *Rescues.*  A gnome's own paid units to a tunnel add up over distinct gnomes (one unit
  moves one gnome), so k rescues need the k cheapest of them within all the budgets.
* *Carrying.*  Only one gnome of each kind walks in a round, so the units of all but one rescued
  gnome per kind are mage units: k rescues also need :func:`carry_need` within the mages'
  budgets alone (argument in its docstring).
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.enchantments import Cond
from gnomekit.models.hedge_mage.running import RunPosition
from gnomekit.solver.hedge_mage.run_engine import (
    GNOMES,
    GONE,
    MAGES,
    RESCUED,
    SHROOMS,
    SPENT,
    STOK,
    TOKENS,
    USED,
    Engine,
    State,
    may_hold,
)

INF = 10**6
Level = tuple[list[int], dict[str, int], int, list[tuple[str, int, int]]]


class RunBound:
    """An admissible upper bound on (rescued, points) and a lower bound on the plan length to a target."""

    def __init__(self, eng: Engine, ed: HedgeMageEdition, pos: RunPosition, carry: bool = False,
                 by_kinds: bool = False) -> None:
        """``carry``: also apply :func:`carry_need` (tighter, same cost; off by default so that the search
        expands exactly the states it did before, which tests pin).  ``by_kinds``: count the rescues by
        :meth:`_value_by_kinds` (each rescue with the bonuses of the rescues before it, kind by kind;
        never looser on the states measured, but about twice the cost a call and, on the instances of
        issue 15, no tighter at the start: off in the search, on in :meth:`value_carry`)."""
        self.carry = carry
        self.by_kinds = by_kinds
        self.eng = eng
        self.rules = ed.running
        self.n_mages = len(pos.mages)
        n, cols = eng.n, eng.cols
        self.md = [[abs(a // cols - b // cols) + abs(a % cols - b % cols) for b in range(n)] for a in range(n)]
        tunnels = [i for i in range(n) if eng.tunnel[i]]
        self.tunnels = tunnels
        self.dt = [min((self.md[i][t] for t in tunnels), default=INF) for i in range(n)]
        # mages without springshrooms: steps low->low, high->high, high->low only
        self.mh = [self._bfs(i) for i in range(n)]
        # a mage's approach to touch a gnome on cell e: reach e or a neighbour
        self.touch = [[min([self.mh[m][e]] + [self.mh[m][y] for y in eng.nb[e]]) for e in range(n)]
                      for m in range(n)]
        self.reach_np = np.array([[min(self.mh[m][y] for y in eng.nb[x]) for x in range(n)] for m in range(n)],
                                 dtype=np.int64)
        self.ground_free = [not eng.hedge[i] and not eng.tunnel[i] for i in range(n)]
        self.cells: dict[str, list[int]] = {k: [i for i in range(n) if may_hold(eng, c, i)]
                                           for k, c in eng.raw_conds.items()}
        self.scope_cells: dict[str, list[tuple[int, ...]]] = {}
        self.scope_dist: dict[str, np.ndarray] = {}
        self.room: dict[str, np.ndarray] = {}
        for c in eng.raw_conds.values():
            self._prepare(c)
        self.track_len = {k: len(self.rules.tracks.get(k, ())) for k in eng.kinds}
        self._wanted = {k: _gnome_kinds(c) for k, c in eng.raw_conds.items()}
        self._prefix: dict[tuple[tuple[int, ...], tuple[int, ...], str], list[int]] = {}
        self._ways: dict[tuple[object, ...], tuple[np.ndarray, ...]] = {}
        self._static: dict[int, np.ndarray] = {}
        self.md_np = np.array(self.md, dtype=np.int64)
        self.dt_np = np.array(self.dt, dtype=np.int64)
        self._memo: dict[State, tuple[int, int]] = {}

    # -- precomputation ------------------------------------------------------------------------
    def _bfs(self, src: int) -> list[int]:
        eng = self.eng
        dist = [INF] * eng.n
        dist[src] = 0
        queue = [src]
        for a in queue:
            for b in eng.nb[a]:
                if dist[b] == INF and not (not eng.hedge[a] and eng.hedge[b]):
                    dist[b] = dist[a] + 1
                    queue.append(b)
        return dist

    def _prepare(self, c: Cond) -> None:
        for a in c.args:
            self._prepare(a)
        if c.op == "count" and c.scope not in self.scope_dist:
            sc = [self.eng._scope(c.scope, x) for x in range(self.eng.n)]
            self.scope_cells[c.scope] = sc
            # distance from cell h to the nearest cell of scope(x)
            self.scope_dist[c.scope] = np.array([[min((self.md[h][y] for y in sc[x]), default=INF)
                                                  for x in range(self.eng.n)] for h in range(self.eng.n)],
                                                dtype=np.int64)
            self.room[c.scope] = np.array([sum(1 for y in sc[x] if self.ground_free[y]) for x in range(self.eng.n)],
                                          dtype=np.int64)

    def _static_arr(self, c: Cond) -> np.ndarray:
        """0 where ``c`` may hold for a gnome on the cell (fixed board), INF where it cannot."""
        hit = self._static.get(id(c))
        if hit is None:
            hit = self._static[id(c)] = np.array([0 if may_hold(self.eng, c, x) else INF for x in range(self.eng.n)],
                                                 dtype=np.int64)
        return hit

    # -- the cost of making a condition hold -----------------------------------------------------
    def _cost(self, c: Cond, g: int, gnomes: tuple[tuple[Any, ...], ...], shrooms: int,
              may: frozenset[int], touch: dict[int, int], ctx: tuple[Any, ...]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Other characters' paid units for ``c`` to hold for gnome ``g`` standing on each cell.

        Returns arrays over the cells: (without any mage touching a sleeping gnome; when one may
        touch one; the same plus the walk of the mage that must touch a moved sleeping gnome, when
        the card counts one gnome).  ``may``: the sleeping gnomes that may be awake when ``g``
        wakes (the others walk nothing before); ``touch``: a sleeping gnome's nearest mage walk;
        ``ctx``: (mage cells, mage budgets, each mage's least walk to get next to each cell).
        """
        op = c.op
        n = self.eng.n
        if op in ("all", "any"):
            parts = [self._cost(a, g, gnomes, shrooms, may, touch, ctx) for a in c.args]
            f = np.maximum if op == "all" else np.minimum
            c0, c1, c2 = parts[0]
            for p0, p1, p2 in parts[1:]:
                c0, c1, c2 = f(c0, p0), f(c1, p1), f(c2, p2)
            return c0, c1, c2
        if op in ("not", "on", "edge") or (op == "count" and c.what in ("hedge", "ground", "tunnel")):
            v = self._static_arr(c)
            return v, v, v
        if op == "carried":
            z = np.zeros(n, dtype=np.int64)
            if c.value:  # being carried: a mage touches it
                return np.full(n, INF, dtype=np.int64), z, z
            return z, z, z
        lo = c.at_least or 0
        if lo <= 0:
            z = np.zeros(n, dtype=np.int64)
            return z, z, z  # only an upper limit: never costs movement
        if c.what == "springshroom":
            v = np.where(np.minimum(self.room[c.scope], shrooms) >= lo, 0, INF).astype(np.int64)
            return v, v, v
        if c.what == "mage":
            v = np.full(n, 0 if lo <= self.n_mages else INF, dtype=np.int64)
            return v, v, v
        # gnomes: the ``lo`` cheapest others to bring into the scope (one unit moves one gnome)
        sd = self.scope_dist[c.scope]
        every: list[np.ndarray] = []
        free: list[np.ndarray] = []
        walked: list[np.ndarray] = []
        for h, gh in enumerate(gnomes):
            if h == g or (c.kinds is not None and gh[1] not in c.kinds):
                continue
            awake = bool(gh[2])
            if c.awake is True and not awake and h not in may:
                continue
            if c.awake is False and awake:
                continue
            cost = np.maximum(sd[gh[0]] - shrooms, 0)
            every.append(cost)
            if awake or h in may:
                free.append(cost)
                walked.append(cost)
            else:  # moved only by a mage, which walks to it first
                free.append(np.where(cost == 0, 0, INF))
                if lo == 1:
                    mc, budgets, near = ctx
                    far = [np.maximum(f - 1, 0) for f in near]  # next to a space of the scope
                    walked.append(np.where(cost == 0, 0, self._carried_to(mc, budgets, gh[0], sd, shrooms, far)))
        c1 = _sum_smallest(every, lo, n)
        return _sum_smallest(free, lo, n), c1, (_sum_smallest(walked, 1, n) if lo == 1 else c1)

    def _carried_to(self, mcells: tuple[int, ...], budgets: list[int], e: int, target: np.ndarray | None,
                    shrooms: int, far: list[np.ndarray]) -> np.ndarray:
        """Least units to bring sleeping gnome on cell ``e`` to each cell (``target`` None) or into the
        scope of each cell (``target[y]``: distance from y to it), by a mage alone or handing it on to
        the other, which must get within reach of the cell (``far[b]``, its least walk); INF when no
        mage can.  A mage walks to a space y next to it (or on it), picks it up there (1 unless on
        it: the gnome lands on y) and carries or drops it on; a relay is no shorter.
        """
        s2 = 2 * shrooms
        n = self.eng.n
        per: list[np.ndarray] = []
        lift: list[int] = []  # the walk and pick-up of each mage alone (before any hand-over)
        for mc in mcells:
            best = np.full(n, INF, dtype=np.int64)
            first = INF
            for y in (e, *self.eng.nb[e]):
                walk = self.mh[mc][y] if shrooms == 0 else max(0, self.md[mc][y] - s2)
                if walk >= INF:
                    continue
                first = min(first, walk + (y != e))
                dist = self.md_np[y] if target is None else target[y]
                best = np.minimum(best, walk + (y != e) + np.maximum(dist - s2, 0))
            per.append(best)
            lift.append(first)
        out = np.full(n, INF, dtype=np.int64)
        for a, ca in enumerate(per):
            if lift[a] > budgets[a]:
                continue
            ok = ca <= budgets[a]
            for b in range(len(per)):
                if b != a:
                    ok |= (far[b] <= budgets[b]) & (ca <= budgets[a] + budgets[b])
            out = np.where(ok, np.minimum(out, ca), out)
        return out

    def _ways_for(self, s: State, g: int, shrooms: int, may: frozenset[int],
                  touch: dict[int, int], budgets: list[int]) -> tuple[np.ndarray, ...]:
        """Arrays over the cells where sleeping gnome ``g`` may wake: (own units there, others' units
        as in :meth:`_cost`, own units from there to a tunnel)."""
        gnomes = s[GNOMES]
        key = (gnomes, s[MAGES], tuple(budgets), g, shrooms, may)
        hit = self._ways.get(key)
        if hit is not None:
            return hit
        gc, kind = gnomes[g][0], gnomes[g][1]
        mcells = s[MAGES]
        near = [self.reach_np[mc] if shrooms == 0 else np.maximum(self.md_np[mc] - 1 - shrooms, 0) for mc in mcells]
        c0, c1, c2 = self._cost(self.eng.raw_conds[kind], g, gnomes, shrooms, may, touch, (mcells, budgets, near))
        keep = c1 < INF
        pre = np.maximum(self.md_np[gc] - shrooms, 0)[keep]
        post = np.maximum(self.dt_np - shrooms, 0)[keep]
        moved = self._carried_to(mcells, budgets, gc, None, shrooms, near)[keep] if gnomes[g][3] < 0 else \
            np.zeros(int(keep.sum()), dtype=np.int64)
        ways = (pre, c0[keep], c1[keep], c2[keep], post, moved)
        if len(self._ways) > 100_000:
            self._ways.clear()
        self._ways[key] = ways
        return ways

    # -- the bound -----------------------------------------------------------------------------
    def _bonus_prefix(self, s: State, what: str) -> list[int]:
        """best[j] = the most ``what`` bonuses any j further rescues can give (j = 0..).

        A kind's track moves on only by rescuing gnomes of that kind still in the garden, so it
        gives at most as many further bonuses as there are such gnomes."""
        rescued = s[RESCUED]
        left = tuple(sum(1 for g in s[GNOMES] if g[1] == kind) for kind in self.eng.kinds)
        hit = self._prefix.get((rescued, left, what))
        if hit is not None:
            return hit
        per: list[list[int]] = []
        for ki, kind in enumerate(self.eng.kinds):
            acc = [0]
            for j in range(rescued[ki], min(self.track_len[kind], rescued[ki] + left[ki])):
                acc.append(acc[-1] + (self.rules.bonus(kind, j) == what))
            per.append(acc)
        total = sum(len(p) - 1 for p in per)
        best = [0] * (total + 1)
        for combo in product(*[range(len(p)) for p in per]):
            j = sum(combo)
            v = sum(p[i] for p, i in zip(per, combo, strict=True))
            best[j] = max(best[j], v)
        for j in range(1, total + 1):
            best[j] = max(best[j], best[j - 1])
        self._prefix[(rescued, left, what)] = best
        return best

    def value(self, s: State) -> tuple[int, int]:
        """Upper bounds on the (rescued, points) of every plan from ``s`` (absolute, like the state's)."""
        hit = self._memo.get(s)
        if hit is None:
            if len(self._memo) > 300_000:
                self._memo.clear()
            hit = self._memo[s] = self._value(s)
        return hit

    def value_carry(self, s: State) -> tuple[int, int]:
        """:meth:`value` with :func:`carry_need` and ``by_kinds`` applied (not memoised): for the bound a
        result reports (asked once, so its cost does not matter)."""
        was = self.carry, self.by_kinds
        self.carry = self.by_kinds = True
        try:
            return self._value(s)
        finally:
            self.carry, self.by_kinds = was

    def own_costs(self, s: State) -> list[int]:
        """Sorted lower bounds on the paid units of each gnome's rescue from ``s`` (one per rescuable gnome).

        Distinct gnomes need distinct units, so the plan from ``s`` is at least as long as the sum of
        the cheapest ``j`` of these when it rescues ``j`` more gnomes.
        """
        mv = self._bonus_prefix(s, "movement")
        sh = self._bonus_prefix(s, "springshroom")
        return sorted(self._level(s, mv[-1], sh[-1])[0])

    def _value(self, s: State) -> tuple[int, int]:
        if self.by_kinds:
            return self._value_by_kinds(s)
        eng = self.eng
        rescued = s[RESCUED]
        mv = self._bonus_prefix(s, "movement")
        sh = self._bonus_prefix(s, "springshroom")
        gnomes = s[GNOMES]
        best_k = 0
        levels: dict[tuple[int, int], Level] = {}

        def level(j: int) -> Level:
            j = min(j, len(mv) - 1)
            key = (mv[j], sh[j])
            if key not in levels:
                levels[key] = self._level(s, mv[j], sh[j])
            return levels[key]

        # k rescues: the k-th uses the resources after k - 1 rescues at most
        # (k rescues possible => k - 1 are: the first failure ends the search)
        for k in range(1, len(gnomes) + 1):
            own = level(k - 1)[0]
            extra = mv[min(k - 1, len(mv) - 1)]
            if len(own) >= k and sum(sorted(own)[:k]) <= self._pool(s, extra) \
                    and (not self.carry or self._carry_ok(level(k - 1)[3], k, sum(self._budgets(s, extra)[0]))):
                best_k = k
            else:
                break
        _own, kinds_ok, wakes, _tagged = level(best_k)
        pts = 0
        for ki, kind in enumerate(eng.kinds):
            n = rescued[ki]
            pts += max(self.rules.track_points(kind, n + j2) for j2 in range(min(best_k, kinds_ok.get(kind, 0)) + 1))
        awake_now = sum(1 for g in gnomes if g[2])
        pts += self.rules.awake_rival_points * (awake_now + wakes)
        return sum(rescued) + best_k, pts

    def _value_by_kinds(self, s: State) -> tuple[int, int]:
        """:meth:`value` with each rescue's resources the bonuses of the rescues before it, kind by kind.

        Soundness.  A kind's track fills from the left, so the bonuses the rescues so far have given
        depend only on how many of each kind were rescued: with ``c[K]`` more rescues of kind K, the
        tokens and springshrooms won are those of the next ``c[K]`` spaces of K's track (tokens beyond
        the cap are lost, so at most that many).  Take any plan and order its rescues by time (those
        made by one action in any order).  Everything done before its j-th rescue was done with the
        resources after its first j - 1 rescues, counts ``c``, i.e. at most ``level(c)`` (the level of
        :meth:`_level`: budgets with those tokens, S with those springshrooms).  So every gnome rescued
        by then (counts ``c + e[K_j]``) needs at least its own units at ``level(c)`` (its units were
        paid at a level no higher, and the lower bounds only fall as the level rises), distinct gnomes
        distinct units: the ``c'[K]`` cheapest of each kind at ``level(c)`` together fit the pool of
        ``level(c)``, and (with ``carry``) :func:`carry_need`'s per-kind least needs fit the mages'
        budgets there (a walker's steps are at most its budget at ``level(c)``, the largest it had).
        So the counts after each of the plan's rescues are *reachable* below (from 0, one rescue of
        one kind at a time, each step passing both tests): the rescued bound is the largest reachable
        total, the track points the most any reachable counts give, and the wakes those at the level
        of the most tokens and springshrooms of any reachable counts (wakes only grow with resources).
        Before, the j-th rescue had the most bonuses any j - 1 rescues could give (whichever kinds),
        and all the rescues' units were taken at that level.
        """
        eng = self.eng
        rescued = s[RESCUED]
        gnomes = s[GNOMES]
        kinds = list(eng.kinds)
        left = [sum(1 for g in gnomes if g[1] == kind) for kind in kinds]
        # the tokens and springshrooms the next j rescues of each kind give
        gain: list[list[tuple[int, int]]] = []
        for ki, kind in enumerate(kinds):
            acc = [(0, 0)]
            for j in range(left[ki]):
                b = self.rules.bonus(kind, rescued[ki] + j)
                acc.append((acc[-1][0] + (b == "movement"), acc[-1][1] + (b == "springshroom")))
            gain.append(acc)
        levels: dict[tuple[int, int], tuple[Level, list[list[int]], list[list[int]], int, int]] = {}

        def level(c: tuple[int, ...]) -> tuple[Level, list[list[int]], list[list[int]], int, int]:
            tok = sum(gain[ki][c[ki]][0] for ki in range(len(kinds)))
            sh = sum(gain[ki][c[ki]][1] for ki in range(len(kinds)))
            hit = levels.get((tok, sh))
            if hit is None:
                lv = self._level(s, tok, sh)
                costs: list[list[int]] = [[] for _ in kinds]
                items: list[list[tuple[int, int]]] = [[] for _ in kinds]
                for kind, u, b in lv[3]:
                    ki = kinds.index(kind)
                    costs[ki].append(u)
                    items[ki].append((u, b))
                prefix = []
                for cs in costs:
                    cs.sort()
                    acc = [0]
                    for u in cs:
                        acc.append(acc[-1] + u)
                    prefix.append(acc)
                needs = [_kind_needs(it) for it in items]
                hit = levels[(tok, sh)] = (lv, prefix, needs, self._pool(s, tok), sum(self._budgets(s, tok)[0]))
            return hit

        start = tuple(0 for _ in kinds)
        seen = {start}
        queue = [start]
        for c in queue:
            _lv, prefix, needs, pool, mage_total = level(c)
            for ki in range(len(kinds)):
                if c[ki] >= left[ki]:
                    continue
                nxt = c[:ki] + (c[ki] + 1,) + c[ki + 1:]
                if nxt in seen or any(nxt[kj] >= len(prefix[kj]) for kj in range(len(kinds))):
                    continue
                if sum(prefix[kj][nxt[kj]] for kj in range(len(kinds))) > pool:
                    continue
                if self.carry and sum(needs[kj][nxt[kj]] for kj in range(len(kinds))) > mage_total:
                    continue
                seen.add(nxt)
                queue.append(nxt)
        best_k = max(sum(c) for c in seen)
        track = max(sum(max(self.rules.track_points(kind, rescued[ki] + j) for j in range(c[ki] + 1))
                        for ki, kind in enumerate(kinds)) for c in seen)
        tok = max(sum(gain[ki][c[ki]][0] for ki in range(len(kinds))) for c in seen)
        sh = max(sum(gain[ki][c[ki]][1] for ki in range(len(kinds))) for c in seen)
        wakes = self._level(s, tok, sh)[2] if (tok, sh) not in levels else levels[(tok, sh)][0][2]
        awake_now = sum(1 for g in gnomes if g[2])
        return sum(rescued) + best_k, track + self.rules.awake_rival_points * (awake_now + wakes)

    def _budgets(self, s: State, extra_tokens: int) -> tuple[list[int], dict[str, int]]:
        """Each mage's and each kind mover's most paid units (points left + tokens that can be spent)."""
        allow = self.eng.points + s[SPENT]
        x = s[TOKENS] + extra_tokens
        mages = [max(0, allow - u) + x for u in s[USED]]
        kinds: dict[str, int] = {}
        gone = s[GONE]
        for g in s[GNOMES]:
            kind = g[1]
            if kind in gone:
                continue
            if g[4] >= 0:
                kinds[kind] = max(0, allow - g[4]) + x
            elif kind not in kinds:
                kinds[kind] = allow + x
        for g in s[GNOMES]:  # a kind whose mover moved: only that gnome walks
            if g[4] >= 0 and g[1] not in gone:
                kinds[g[1]] = max(0, allow - g[4]) + x
        return mages, kinds

    def _pool(self, s: State, extra_tokens: int) -> int:
        mages, kinds = self._budgets(s, extra_tokens)
        return sum(mages) + sum(kinds.values())

    def _own_budget(self, s: State, g: int, kinds: dict[str, int]) -> int:
        gn = s[GNOMES][g]
        if gn[1] not in kinds:
            return 0
        if gn[4] < 0 and any(o[1] == gn[1] and o[4] >= 0 for o in s[GNOMES]):
            return 0  # another gnome of its kind is the mover
        return kinds[gn[1]]

    def _level(self, s: State, extra_tokens: int, extra_shrooms: int) -> Level:
        """At one level of resources: each rescuable gnome's own units, rescuable per kind, wakeable sleepers,
        and (kind, own units, most units its own walking can pay) of each rescuable gnome."""
        eng = self.eng
        gnomes, mcells = s[GNOMES], s[MAGES]
        shrooms = len(s[SHROOMS]) + s[STOK] + extra_shrooms
        mages, kinds = self._budgets(s, extra_tokens)
        mage_total = sum(mages)
        dt = self.dt
        own: list[int] = []
        tagged: list[tuple[str, int, int]] = []
        kinds_ok: dict[str, int] = {}
        sleeping = [i for i, g in enumerate(gnomes) if not g[2] and g[1] in eng.raw_conds]
        # each mage's walk to touch each sleeping gnome (0: it carries it)
        app: list[dict[int, int]] = []
        for m, mc in enumerate(mcells):
            row: dict[int, int] = {}
            for e, ge in enumerate(gnomes):
                if ge[2]:
                    continue
                if ge[3] == m:
                    row[e] = 0
                elif shrooms == 0:
                    row[e] = self.touch[mc][ge[0]]
                else:
                    row[e] = max(0, self.md[mc][ge[0]] - 1 - 2 * shrooms)
            app.append(row)
        # the mage that moves a sleeping gnome first walks to it, within its own budget
        touch = {e: min((row[e] for row, b in zip(app, mages, strict=True) if row[e] <= b), default=INF)
                 for e in app[0]} if app else {}
        # the gnomes that can wake, in wake order: when one wakes, the sleeping gnomes not yet found
        # wakeable are still asleep (induction on the order of the wakes)
        may: set[int] = set()
        grown = bool(sleeping)
        while grown:
            grown = False
            for i in sleeping:
                if i not in may and self._wake(s, i, shrooms, mages, kinds, app, touch, frozenset(may))[0]:
                    may.add(i)
                    grown = True
        fm = frozenset(may)
        wakes = len(may)
        for i, g in enumerate(gnomes):
            if i in may:
                rescue_cost = self._wake(s, i, shrooms, mages, kinds, app, touch, fm)[1]
                if rescue_cost < INF:
                    own.append(max(rescue_cost, max(0, dt[g[0]] - shrooms)))
                    tagged.append((g[1], own[-1], self._own_budget(s, i, kinds)))
                    kinds_ok[g[1]] = kinds_ok.get(g[1], 0) + 1
                continue
            if not g[2]:
                continue
            ob = self._own_budget(s, i, kinds)
            post = max(0, dt[g[0]] - shrooms)
            ok = post <= ob + mage_total
            if ok and post > ob and g[3] < 0:
                # a mage must touch it: its approach to where they meet (>= the three-point span - 1)
                need = min((self._span(g[0], t, m) - 1 - 3 * shrooms for t in self.tunnels for m in mcells),
                           default=INF)
                ok = max(post, need) <= ob + mage_total
            if ok:
                own.append(post)
                tagged.append((g[1], post, ob))
                kinds_ok[g[1]] = kinds_ok.get(g[1], 0) + 1
        return own, kinds_ok, wakes, tagged

    @staticmethod
    def _carry_ok(tagged: list[tuple[str, int, int]], k: int, mage_total: int) -> bool:
        """Whether some ``k`` of the rescuable gnomes fit the mages' carrying (see :func:`carry_need`)."""
        return carry_need(tagged, k) <= mage_total

    def _span(self, a: int, b: int, c: int) -> int:
        cols = self.eng.cols
        rs = (a // cols, b // cols, c // cols)
        cs = (a % cols, b % cols, c % cols)
        return max(rs) - min(rs) + max(cs) - min(cs)

    def _wake(self, s: State, g: int, shrooms: int, mages: list[int], kinds: dict[str, int],
              app: list[dict[int, int]], touch: dict[int, int], may: frozenset[int]) -> tuple[bool, int]:
        """Whether sleeping gnome ``g`` can wake, and the least own units (wake + to a tunnel) of a rescue.

        ``app[m][e]``: mage m's walk to touch sleeping gnome e; ``touch[e]``: the least of them.
        """
        gnomes = s[GNOMES]
        gn = gnomes[g]
        pre, c0, c1, c2, post, moved = self._ways_for(s, g, shrooms, may, touch, mages)
        if len(pre) == 0:
            return False, INF
        # the first mage to touch a sleeping gnome (g, or one its card counts) walks to it first
        wanted = self._wanted[gn[1]]
        touched = [g] + [h for h, gh in enumerate(gnomes) if h != g and not gh[2]
                         and (wanted is None or gh[1] in wanted)]
        first = [min(row[e] for e in touched) for row in app]
        first = [a for b, a in zip(mages, first, strict=True) if a <= b]
        mage_total = sum(mages)
        ob = self._own_budget(s, g, kinds)
        # gnomes still asleep walk nothing: only kinds with a gnome awake or that may be (g's own: ob)
        walkers = sum(v for k, v in kinds.items()
                      if any((o[2] or h in may) and o[1] == k for h, o in enumerate(gnomes)))
        total = mage_total + walkers
        if first:
            a0 = min(first)
            need = np.maximum(pre + c1 + (0 if gn[3] >= 0 else a0), c2)
            # g moves only when carried: some mage walks to it and on (INF: no mage can), mages only
            carried_far = np.where(pre > 0, moved, 0)
            need = np.maximum(need, carried_far)
            ok_touch = (pre + a0 <= mage_total) & (need <= total) & (carried_far <= mage_total)
        else:
            need = c1
            ok_touch = np.zeros(len(pre), dtype=bool)
        ok_free = (pre == 0) & (c0 <= total)
        if not (ok_touch.any() or ok_free.any()):
            return False, INF
        fits = (ok_touch & (need + post <= total + ob)) | (ok_free & (c0 + post <= total + ob))
        if not fits.any():
            return True, INF
        return True, int((pre + post)[fits].min())


def carry_need(tagged: list[tuple[str, int, int]], k: int) -> int:
    """The least mage units any ``k`` rescues need: ``tagged`` holds (kind, own units, walk budget) per gnome.

    Soundness.  Let ``u_g`` (the gnome's own units in ``tagged``) be a lower bound on the paid units
    that move gnome g on its way to a tunnel (as in the pooled bound: bounces excluded).  A paid
    unit moves g either as g's own step (paid by its kind's mover allowance) or as a unit of the
    mage carrying it (a step, an adjacent pick-up or drop): a mage carries one gnome at a time, so
    each mage unit moves at most one gnome.  With ``w_g`` g's own steps and ``c_g`` the mage units
    that move g, ``u_g <= w_g + c_g``, hence ``u_g - min(u_g, w_g) <= c_g``.  Only one gnome of each
    kind may walk in a round (the rules' "one Awake Gnome of each color"; the engine's mover), and
    its steps are at most its walk budget ``b_g`` (0 when another gnome of its kind is the mover or
    its kind is gone), so over a set S of rescued gnomes
    ``sum(u_g) - sum over kinds of max_{g in S of that kind} min(u_g, b_g) <= sum(c_g) <= the mages'
    units``.  This function is the least left side over all sets of ``k`` gnomes (INF when fewer
    than ``k``), so a plan rescuing ``k`` needs at least that many mage units.  It is never larger
    than the pooled bound's test: that one also lets every kind's allowance pay for every gnome.
    """
    if k <= 0:
        return 0
    if len(tagged) < k:
        return INF
    by_kind: dict[str, list[tuple[int, int]]] = {}
    for kind, u, b in tagged:
        by_kind.setdefault(kind, []).append((u, b))
    total = [0]  # total[j]: least need of j gnomes from the kinds so far
    for items in by_kind.values():
        per = _kind_needs(items)
        merged = [INF] * (len(total) + len(items))
        for a, ta in enumerate(total):
            for j, pj in enumerate(per):
                merged[a + j] = min(merged[a + j], ta + pj)
        total = merged
    return total[k] if k < len(total) else INF


def _kind_needs(items: list[tuple[int, int]]) -> list[int]:
    """per[j]: the least ``sum(u) - min(u_w, b_w)`` over ``j`` of one kind's (own units, walk budget) pairs,
    one of them (w) the kind's walker: :func:`carry_need` for a single kind."""
    items = sorted(items)
    costs = [u for u, _b in items]
    per = [0] + [INF] * len(items)
    for w, (u, b) in enumerate(items):
        rest = costs[:w] + costs[w + 1:]
        acc = u - min(u, b)
        per[1] = min(per[1], acc)
        for j in range(1, len(items)):
            acc += rest[j - 1]
            per[j + 1] = min(per[j + 1], acc)
    return per


def _sum_smallest(arrs: list[np.ndarray], k: int, n: int) -> np.ndarray:
    """Per cell, the sum of the ``k`` smallest values among ``arrs`` (INF when fewer than ``k``)."""
    if len(arrs) < k:
        return np.full(n, INF, dtype=np.int64)
    if k == 1:
        return np.minimum.reduce(arrs) if len(arrs) > 1 else arrs[0]
    m = np.sort(np.stack(arrs), axis=0)[:k].sum(axis=0)
    return np.minimum(m, INF)


def _gnome_kinds(c: Cond) -> set[str] | None:
    """The kinds of gnome a condition counts (None: any kind; empty: it counts no gnome)."""
    if c.op == "count":
        if c.what != "gnome":
            return set()
        return None if c.kinds is None else set(c.kinds)
    out: set[str] = set()
    for a in c.args:
        k = _gnome_kinds(a)
        if k is None:
            return None
        out |= k
    return out
