"""The optimal maze-running plan for one round: exact search with memoisation.

Objective (lexicographic): most gnomes rescued, then most points (the running
player's final-scoring total after the plan minus before it: track points plus
awake gnomes left in the rival's garden), then fewest movement tokens and
springshroom tokens spent (their sum).

The search runs over unit actions (one step, a pick-up, a drop, a springshroom
placement, each with its bounce choices) generated and applied by the rules
engine (models/hedge_mage/run_actions.py and running.py), with a transposition table keyed on the
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.enchantments import Cond
from gnomekit.models.hedge_mage.run_actions import (
    _bounces_after,
    _general_placements,
    _nbrs,
    unit_actions,
)
from gnomekit.models.hedge_mage.running import (
    Action,
    Illegal,
    RunPosition,
    apply_action,
    execute_plan,
    running_score,
)
from gnomekit.solver.core.budget import Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hedge_mage.run_bound import RunBound
from gnomekit.solver.hedge_mage.run_engine import (
    GNOMES,
    GONE,
    MAGES,
    RESCUED,
    SHROOMS,
    SIG,
    SPENT,
    STOK,
    TOKENS,
    TRANSIT,
    USED,
    Act,
    Engine,
    State,
    may_hold,
)
from gnomekit.solver.hedge_mage.run_engine import Illegal as EngineIllegal

Value = tuple[int, int, int, int]  # (rescued, points, -(tokens + springshrooms spent), -unit actions)
NEG: Value = (-1, -(10**9), -(10**9), -(10**9))
STRATEGIES = ("bfs", "best")


@dataclass(frozen=True)
class PlanValue:
    """What a plan achieves, relative to the start of the plan."""

    rescued: int
    points: int
    tokens: int
    springshrooms: int

    def key(self) -> tuple[int, int, int]:
        return (self.rescued, self.points, -(self.tokens + self.springshrooms))

    def to_json(self) -> dict[str, int]:
        return {"rescued": self.rescued, "points": self.points, "tokens_spent": self.tokens,
                "springshrooms_spent": self.springshrooms}


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


def run_meter(max_states: int | None = None, budget: Budget | None = None, meter: Meter | None = None) -> Meter:
    """The one :class:`Meter` a running search spends: ``meter`` as given (shared with the caller),
    else a new one for ``budget``, else for ``max_states`` states (``None``: no limit).

    Every search here counts its expanded states with ``meter.tick()`` and asks :func:`out_of_time`
    between its phases, so a budget of seconds covers the setup (bounds, beam) as well as the search.
    """
    given = sum(x is not None for x in (max_states, budget, meter))
    if given > 1:
        raise ValueError("give one of max_states, budget and meter, not several")
    if meter is not None:
        return meter
    return (budget if budget is not None else Budget(states=max_states)).meter()


def out_of_time(meter: Meter) -> bool:
    """Whether the meter's seconds have run out (never true without a time limit; states not looked at)."""
    left = meter.seconds_left()
    return left is not None and left <= 0


def exhausted_reason(meter: Meter) -> str:
    """Why a metered search stopped, in words (the time when it ran out, else the states)."""
    if out_of_time(meter):
        return "time budget exhausted"
    return f"state budget of {meter.budget.states} exhausted"


@dataclass
class _Search:
    ed: HedgeMageEdition
    relevant_only: bool
    memo: dict[tuple[object, ...], tuple[Value, list[Action] | None, tuple[object, ...] | None, int, int]]
    meter: Meter
    states: int = 0

    def best(self, pos: RunPosition) -> Value:
        k = pos.key()
        hit = self.memo.get(k)
        if hit is not None:
            return hit[0]
        self.states += 1
        self.meter.tick()
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
        """The unit actions of the best plan found by :meth:`best` (called on ``pos``)."""
        return follow_plan(pos, self.ed, lambda cur, _root: self.memo[cur.key()][1])


def follow_plan(pos: RunPosition, ed: HedgeMageEdition,
                move_at: Callable[[RunPosition, bool], list[Action] | None]) -> list[Action]:
    """The unit actions of a memoised search's best plan from ``pos``.

    ``move_at(position, is_root)`` gives the best successor's actions stored for a position (None: stop
    there); each is replayed by the rules engine to reach the next position.  Shared by the reference
    search here and the hint's search with a forbidden move (solver/hedge_mage/run_hint.py).
    """
    out: list[Action] = []
    cur, root = pos, True
    while True:
        move = move_at(cur, root)
        if move is None:
            return out
        for a in move:
            cur, _ = apply_action(cur, ed, a, continues=True)
            out.append(a)
        root = False


def solve_run(pos: RunPosition, ed: HedgeMageEdition, relevant_only: bool = True,
              max_states: int | None = None, bounds: bool = True,
              progress: Callable[[str], None] | None = None, inert: bool = True,
              *, budget: Budget | None = None, meter: Meter | None = None, strategy: str = "best") -> Result:
    """The optimal plan for the round from ``pos``.

    Returns status OPTIMAL with a :class:`PlanValue` and the plan (merged path actions).  When
    more than ``max_states`` states would be explored the answer is anytime: status UNKNOWN with
    the best plan found so far (the best final position the search reached, or the quick first
    plan, or standing still) and its value, replayed by the rules engine, and in
    ``stats["upper_bound"]`` an admissible bound ``{"rescued", "points"}`` on every plan from
    ``pos`` (each an upper bound on its own; value relative to ``pos`` like :class:`PlanValue`).
    The reference search (``relevant_only=False``) gives UNKNOWN without a plan.  The position
    must be settled (nobody passing through another character).

    ``relevant_only`` (default): the fast search (:func:`_solve_fast`: compact states,
    dominance, symmetry, branch and bound when ``bounds``).  ``relevant_only=False``: the
    unpruned reference, a memoised depth-first search over every unit action applied by the
    rules engine of record (springshroom placements tried everywhere; tests only: slow).
    ``progress`` (fast search only) is called now and then with a line on the search's progress;
    ``inert`` False searches the whole game at once instead of the inert-gnome relaxation first
    (tests and benchmarks).

    ``strategy`` (fast search): "bfs", the search as first written, or "best", the same search dropping
    the costly tight bound once it stops pruning (:func:`_bfs`); both exact, the same optimum.

    The budget: ``max_states`` (states expanded), or a :class:`Budget` of states and seconds, or a
    :class:`Meter` already spending one (shared with the caller); at most one of the three.  Every
    phase of the fast search (the bounds and beam search before it, the relaxation, the frozen and
    the whole-game searches) spends the same meter and looks at the same clock, so a budget of
    seconds ends the search within about one state's work of it; running out is the anytime
    answer above, never "no".
    """
    m = run_meter(max_states, budget, meter)
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
    if relevant_only:
        return _solve_fast(pos, ed, m, bounds, progress, inert, strategy)
    t0 = time.perf_counter()
    s = _Search(ed, relevant_only, {}, m)
    try:
        r, p, c, _n = s.best(pos)
    except BudgetExhausted:
        return Result(Status.UNKNOWN, None, None, {"states": s.states, "method": "search",
                                                   "reason": exhausted_reason(m)},
                      time.perf_counter() - t0)
    units = s.plan(pos)
    plan = merge_plan(units)
    tokens = sum(1 for a in units if a.kind == "token")
    shrooms = sum(1 for a in units if a.kind == "shroom")
    assert -c == tokens + shrooms
    value = PlanValue(r - pos.total_rescued(), p - running_score(pos, ed), tokens, shrooms)
    return Result(Status.OPTIMAL, value, plan, {"states": s.states, "method": "search"},
                  time.perf_counter() - t0)


def bfs_plain(pos: RunPosition, ed: HedgeMageEdition, max_states: int | None = None) -> tuple[Value | None, int]:
    """Plain exhaustive enumeration without memoisation or reductions (benchmarks and tests: tiny allowances).

    Returns the best (rescued, points, -cost, -unit actions) in absolute terms and the number of
    action sequences enumerated; (None, count) when more than ``max_states`` would be.
    """
    count = 0
    meter = run_meter(max_states)

    def go(p: RunPosition) -> Value:
        nonlocal count
        count += 1
        meter.tick()
        best: Value = (p.total_rescued(), running_score(p, ed), 0, 0) if p.transit is None else NEG
        for acts, nxt, t, s in successors(p, ed, relevant_only=False):
            r, q, c, n = go(nxt)
            best = max(best, (r, q, c - t - s, n - len(acts)))
        return best

    try:
        v = go(pos)
    except BudgetExhausted:
        return None, count
    return v, count


# ---------------------------------------------------------------------------------------------
# The fast search: compact states (solver/hedge_mage/run_engine.py), breadth-first by the number
# of unit actions, dominance and mage symmetry, branch and bound.  Soundness: docs/rules/
# hedge-mage-running.md, "Solving".


def _canon(eng: Engine, s: State) -> tuple[tuple[object, ...], tuple[int, ...]]:
    """The state without its resources and with the mages unnumbered, and its resources (higher is better).

    Resources: minus the points each mage and each self-moved gnome has used, movement tokens held
    plus spent (what can be spent by the end), minus tokens spent.  Compared with the plan length
    in ``_bfs``'s ``dominated``: a position that spent fewer tokens can spend the difference first.
    """
    mages, used, gnomes = s[MAGES], s[USED], s[GNOMES]
    carrying: dict[int, tuple[str, bool, bool]] = {g[3]: (g[1], g[2], g[4] >= 0) for g in gnomes if g[3] >= 0}
    if len(mages) == 2 and (mages[1], carrying.get(1, ()), used[1]) < (mages[0], carrying.get(0, ()), used[0]):
        order: tuple[int, ...] = (1, 0)
    elif len(mages) <= 2:
        order = tuple(range(len(mages)))
    else:  # pragma: no cover - the default edition has two mages
        order = tuple(sorted(range(len(mages)), key=lambda i: (mages[i], carrying.get(i, ()), used[i])))
    ents = tuple((g[0], g[1], g[2], g[3] >= 0, g[4] >= 0) for g in gnomes)
    tr = s[TRANSIT]
    trc: tuple[object, ...] | None = None
    if tr is not None:
        trc = ("gnome", ents[tr[1]]) if tr[0] == "gnome" else (tr[0], order.index(tr[1]))
    key = (tuple((mages[i], carrying.get(i)) for i in order), ents, s[SHROOMS], s[STOK], s[SIG],
           s[RESCUED], s[GONE], trc)
    vec = tuple(-used[i] for i in order) + tuple(-g[4] for g in gnomes if g[4] >= 0) + \
        (s[TOKENS] + s[SPENT], -s[SPENT])
    return key, vec


class _CheapBound:
    """A cheap admissible upper bound on (gnomes rescued, points) reachable from a state.

    Kept beside :class:`~solver.hedge_mage.run_bound.RunBound` (tighter, but about 50x the cost per
    state): both are upper bounds on each of rescued and points, so their minimum is one too.

    A gnome can be rescued only if it is awake or its kind's card can hold somewhere on this
    board (static analysis of the condition), and only by moving it from its space to a tunnel:
    at least the Manhattan distance D.  Every unit of movement moves a gnome at most one space
    (a step, a pick-up or drop from the next space, a carried step), plus at most one space per
    springshroom that can be on the board in a bounce chain (and a placement beneath a
    character bounces it that far for no movement point).  The movement left is at most the
    points left of both mages and of one gnome per kind, each raised by every movement token
    that can still be spent (held + movement bonuses left on the tracks, capped).  A gnome that
    cannot walk all the way itself must first be reached by a mage: that mage walks at least
    its Manhattan distance - 1 minus the gnome's own walk, before any of its points move the
    gnome, so a gnome whose D plus that approach exceeds all the movement left is out.  The
    number of rescues is at most the largest k whose k smallest D (of the gnomes left) fit into
    the movement left.  Points: every track at its best reachable space plus every gnome awake.
    """

    def __init__(self, eng: Engine, ed: HedgeMageEdition, pos: RunPosition) -> None:
        self.eng = eng
        self.rules = ed.running
        self.wakeable = {k: _can_hold(eng, c) for k, c in eng.raw_conds.items()}
        tunnels = [i for i in range(eng.n) if eng.tunnel[i]]
        self.dist = [min((abs(i // eng.cols - t // eng.cols) + abs(i % eng.cols - t % eng.cols) for t in tunnels),
                         default=10**6) for i in range(eng.n)]
        self.track_len = {k: len(self.rules.tracks.get(k, ())) for k in eng.kinds}

    def value(self, s: State) -> tuple[int, int]:
        eng = self.eng
        rescued = s[RESCUED]
        allow = eng.points + s[SPENT]
        # movement bonuses and springshroom bonuses still on the tracks
        mv_left = sh_left = 0
        for k, kind in enumerate(eng.kinds):
            # a track moves on only by rescuing gnomes of its kind still in the garden
            here = sum(1 for g in s[GNOMES] if g[1] == kind)
            for j in range(rescued[k], min(self.track_len[kind], rescued[k] + here)):
                b = self.rules.bonus(kind, j)
                mv_left += b == "movement"
                sh_left += b == "springshroom"
        extra = min(eng.cap, s[TOKENS] + mv_left)
        shrooms_max = len(s[SHROOMS]) + s[STOK] + sh_left
        factor = 1 + shrooms_max
        free = (s[STOK] + sh_left) * shrooms_max
        mage_budget = sum(max(0, allow - u) + extra for u in s[USED])
        moved = {g[1]: g[4] for g in s[GNOMES] if g[4] >= 0}
        cands: list[int] = []
        per_kind: dict[str, int] = {}
        own_total: dict[str, int] = {}
        sleeping_ok = 0
        awake_now = 0
        cols = eng.cols
        for g in s[GNOMES]:
            if g[2]:
                awake_now += 1
            elif self.wakeable.get(g[1], False):
                sleeping_ok += 1
            else:
                continue
            kind = g[1]
            own = 0  # what the gnome can walk itself: its kind's mover, if that can still be it
            if kind not in s[GONE] and (kind not in moved or g[4] >= 0):
                own = max(0, allow - max(g[4], 0)) + extra
            own_total[kind] = max(own_total.get(kind, 0), own)
            # a mage must first reach it (unless it walks): Manhattan distance - 1, minus its own walk
            if g[3] >= 0:
                approach = 0
            else:
                r, c = divmod(g[0], cols)
                approach = min((abs(r - m // cols) + abs(c - m % cols) - 1 for m in s[MAGES]), default=10**6)
            need = self.dist[g[0]] + max(0, approach - own)
            if need > (own + mage_budget) * factor + free:
                continue  # cannot be rescued, even with every point spent on it alone
            cands.append(self.dist[g[0]])
            per_kind[kind] = per_kind.get(kind, 0) + 1
        budget = (mage_budget + sum(own_total.get(k, 0) for k in per_kind)) * factor + free
        cands.sort()
        k = 0
        total = 0
        for d in cands:
            total += d
            if total > budget:
                break
            k += 1
        # points: per kind the best track space reachable with at most k more rescues of that kind
        pts = 0
        for ki, kind in enumerate(eng.kinds):
            n = rescued[ki]
            pts += max(self.rules.track_points(kind, n + j) for j in range(min(k, per_kind.get(kind, 0)) + 1))
        pts += self.rules.awake_rival_points * (awake_now + sleeping_ok)
        return sum(rescued) + k, pts


def _can_hold(eng: Engine, cond: Cond) -> bool:
    """Whether ``cond`` can hold for some gnome somewhere on this board."""
    return any(may_hold(eng, cond, i) for i in range(eng.n))


def _beam(eng: Engine, s0: State, f: Callable[[State, int], tuple[int, int, int, int]], bound: RunBound,
          width: int, max_depth: int, meter: Meter | None = None) -> tuple[tuple[int, int, int, int], list[Act]]:
    """A quick feasible plan (beam search over the same moves): the first incumbent for branch and bound.

    Not counted in the states; when ``meter``'s seconds run out it stops with the best plan so far.
    """
    best = f(s0, 0)
    best_units: list[Act] = []
    near = bound.dt
    layer: list[tuple[State, list[Act]]] = [(s0, [])]
    seen: set[State] = {s0}
    for _ in range(max_depth):
        nxt: list[tuple[tuple[object, ...], State, list[Act]]] = []
        for s, units in layer:
            if meter is not None and out_of_time(meter):
                return best, best_units
            for acts, s2, _t, _s in eng.successors(s):
                if s2 in seen:
                    continue
                seen.add(s2)
                u2 = units + list(acts)
                if s2[TRANSIT] is None:
                    v = f(s2, len(u2))
                    if v > best:
                        best, best_units = v, u2
                # a cheap order (the bound is too slow to call on every successor): value so far,
                # then awake gnomes near a tunnel
                nxt.append(((f(s2, len(u2)), -sum(near[g[0]] for g in s2[GNOMES] if g[2])), s2, u2))
        if not nxt:
            break
        nxt.sort(key=lambda x: x[0], reverse=True)
        layer = [(s2, u2) for _k, s2, u2 in nxt[:width]]
    return best, best_units


_TIGHT_CALLS = 500  # the tight bound is asked about the first this many positions only: then the cheap one alone
_TIGHT_PROBE = 40  # strategy "best": the tight bound is dropped after this many calls in a row that pruned nothing
_PROGRESS_EVERY = 5000  # expanded positions between two progress lines


@dataclass
class _Outcome:
    """What one breadth-first search found (values absolute, like the states': (rescued, score, -cost, -units))."""

    optimal: bool
    best: tuple[int, int, int, int]
    units: list[Act]
    origin: str  # where the best plan comes from: "search", "first plan" or "standing still"
    expanded: int
    pruned: int
    bound: tuple[int, int]  # (rescued, score) no plan from the start exceeds (its optimum when proven)


def _value_fns(eng: Engine, ed: HedgeMageEdition, s0: State
               ) -> tuple[Callable[[State], int], Callable[[State, int], tuple[int, int, int, int]]]:
    """The running score of a state and its search value after ``depth`` unit actions from ``s0``."""
    spent0, shrooms0 = s0[SPENT], len(s0[SHROOMS])
    rules = ed.running
    kinds = eng.kinds

    def score(s: State) -> int:
        return sum(rules.track_points(k, n) for k, n in zip(kinds, s[RESCUED], strict=True)) + \
            rules.awake_rival_points * sum(1 for g in s[GNOMES] if g[2])

    def f(s: State, depth: int) -> tuple[int, int, int, int]:
        return (sum(s[RESCUED]), score(s), -((s[SPENT] - spent0) + (len(s[SHROOMS]) - shrooms0)), -depth)

    return score, f


def _bfs(eng: Engine, ed: HedgeMageEdition, pos: RunPosition, meter: Meter, bounds: bool,
         progress: Callable[[str], None] | None = None, label: str = "search", strategy: str = "bfs") -> _Outcome:
    """The exact breadth-first search with dominance, symmetry and branch and bound over ``eng``'s game.

    ``strategy`` "bfs" asks the tight bound about the first ``_TIGHT_CALLS`` positions the cheap bound
    cannot prune; "best" also stops asking it once ``_TIGHT_PROBE`` calls in a row pruned nothing (a
    call costs tens of milliseconds, the work of about 50 expansions; where the tight bound cannot
    prune near the start, as with the edition's movement tokens and springshroom, it only slows the
    search down).  Either way every prune is by an admissible bound, so the optimum is the same.

    Each expanded state ticks ``meter``; when its states or seconds run out the outcome is not optimal
    (the best plan so far, and the bound at the start).  The clock is also looked at before the
    bounds, the beam search and every state's bound, the costly steps.
    """
    s0 = eng.state(pos)
    spent0, shrooms0 = s0[SPENT], len(s0[SHROOMS])
    score, f = _value_fns(eng, ed, s0)

    def cost(s: State) -> int:
        return (s[SPENT] - spent0) + (len(s[SHROOMS]) - shrooms0)

    bound = RunBound(eng, ed, pos) if bounds else None
    best = f(s0, 0)
    best_units: list[Act] | None = []
    if bound is not None and bound.value(s0) == best[:2]:
        # nothing can be gained (e.g. no gnome can wake): standing still is optimal
        return _Outcome(True, best, [], "standing still", 0, 1, best[:2])
    if bound is not None:
        best, best_units = _beam(eng, s0, f, bound, width=30, max_depth=60, meter=meter)
    best_id = -1  # a node of the breadth-first search that beats the incumbent, if any
    nodes: list[tuple[State, int, tuple[Act, ...]]] = [(s0, -1, ())]
    front: dict[tuple[object, ...], list[tuple[tuple[int, ...], int]]] = {}
    buckets: dict[int, list[int]] = {0: [0]}
    waiting: dict[int, set[State]] = {}  # the positions queued at each depth
    expanded = pruned = 0

    def dominated(key: tuple[object, ...], vec: tuple[int, ...], depth: int) -> bool:
        # u (expanded at depth d, spent b) dominates vec (spent a >= b): spending a - b tokens first, it
        # has every resource of vec's position, at a plan length d + a - b (vec[-1] = -a, u[-1] = -b)
        for u, d in front.get(key, ()):
            if d + u[-1] <= depth + vec[-1] and all(a >= b for a, b in zip(u, vec, strict=True)):
                return True
        return False

    cheap = _CheapBound(eng, ed, pos) if bounds else None
    # the tight bound near the start only, where a prune saves the most (it is sound either way)
    tight = {"on": bound is not None, "calls": 0, "idle": 0}
    probe = strategy == "best"

    def hopeless(s: State, depth: int) -> bool:
        # nothing below can beat the incumbent: its (rescued, points, -cost) bound is lower, or equal
        # while every plan through here is at least as long (its depth plus a lower bound on the
        # unit actions still needed to reach the incumbent's rescues)
        if bound is None or cheap is None:
            return False
        r, p = cheap.value(s)
        ub = (r, p, -cost(s))
        if ub < best[:3]:
            return True
        use = tight["on"]
        if use:
            r2, p2 = bound.value(s)
            ub = (min(r, r2), min(p, p2), ub[2])
            tight["calls"] += 1
        if ub < best[:3]:
            out = True
        elif ub != best[:3]:
            out = False
        else:
            more = best[0] - sum(s[RESCUED])
            if more > 0 and use:
                rest = sum(bound.own_costs(s)[:more])
            else:
                rest = 1 if s[TRANSIT] is not None else 0  # a plan never ends in transit
            out = -(depth + rest) <= best[3]
        if use:
            tight["idle"] = 0 if out else tight["idle"] + 1
        if use and (tight["calls"] >= _TIGHT_CALLS or (probe and tight["idle"] >= _TIGHT_PROBE)):
            tight["on"] = False
        return out

    def stopped() -> _Outcome:
        # the budget ran out: the best plan so far, and the bound at the start
        units = best_units if best_units is not None else _units_to(nodes, best_id)
        origin = "search" if best_units is None else ("first plan" if best_units else "standing still")
        top = bound or RunBound(eng, ed, pos)
        ub_r, ub_p = top.value_carry(s0)  # the tightest bound, once
        ub_c = (cheap or _CheapBound(eng, ed, pos)).value(s0)
        return _Outcome(False, best, units, origin, expanded, pruned, (min(ub_r, ub_c[0]), min(ub_p, ub_c[1])))

    while buckets:
        depth = min(buckets)
        for sid in buckets.pop(depth):
            s = nodes[sid][0]
            key, vec = _canon(eng, s)
            if dominated(key, vec, depth):
                continue
            front.setdefault(key, []).append((vec, depth))
            if s[TRANSIT] is None:
                v = f(s, depth)
                if v > best:
                    best, best_id, best_units = v, sid, None
            if out_of_time(meter):
                return stopped()
            if hopeless(s, depth):
                pruned += 1
                continue
            expanded += 1
            if progress is not None and expanded % _PROGRESS_EVERY == 0:
                progress(f"{label}: {expanded:,} positions, {depth} unit actions deep")
            try:
                meter.tick()
            except BudgetExhausted:
                return stopped()
            for acts, nxt, _t, _s in eng.successors(s):
                d2 = depth + len(acts)
                queued = waiting.setdefault(d2, set())
                if nxt in queued:  # the same position by another order of the same actions
                    continue
                k2, v2 = _canon(eng, nxt)
                if dominated(k2, v2, d2):
                    continue
                queued.add(nxt)
                nodes.append((nxt, sid, acts))
                buckets.setdefault(d2, []).append(len(nodes) - 1)
        waiting.pop(depth, None)
    if best_units is None:
        best_units = _units_to(nodes, best_id)
    return _Outcome(True, best, best_units, "search", expanded, pruned, best[:2])


def inert_kinds(eng: Engine) -> frozenset[str]:
    """Kinds whose sleeping gnomes are *inert*: no card in play can wake them (static analysis of the
    fixed board) and none counts them (a ``count`` of gnomes that could include one; a count of awake
    gnomes never does).  Such a gnome never scores, never wakes anyone and never stops a wake: it
    matters only as an obstacle."""
    counted: set[str] = set()

    def walk(c: Cond) -> bool:  # False: a count of gnomes of any kind may include it
        if c.op == "count" and c.what == "gnome" and c.awake is not True:
            if c.kinds is None:
                return False
            counted.update(c.kinds)
        return all(walk(a) for a in c.args)

    if not all(walk(c) for c in eng.raw_conds.values()):
        return frozenset()
    return frozenset(k for k in eng.kinds
                     if k not in counted and not (k in eng.maybe and any(eng.maybe[k])))


def _replay(eng: Engine, s0: State, units: list[Act]) -> State | None:
    """The state after ``units`` by ``eng``'s rules (None when one is illegal or the plan ends in transit)."""
    s = s0
    for a in units:
        try:
            s = eng.apply(s, a)
        except EngineIllegal:
            return None
    return s if s[TRANSIT] is None else None


def _solve_fast(pos: RunPosition, ed: HedgeMageEdition, meter: Meter, bounds: bool,
                progress: Callable[[str], None] | None = None, use_inert: bool = True,
                strategy: str = "bfs") -> Result:
    t0 = time.perf_counter()

    def can_go_on() -> bool:  # states left for one more phase, and time (the phases share the meter)
        cap = meter.budget.states
        return (cap is None or meter.states < cap) and not out_of_time(meter)

    eng = Engine(pos, ed)
    s0 = eng.state(pos)
    score, f = _value_fns(eng, ed, s0)
    inert = inert_kinds(eng)
    out: _Outcome | None = None
    stats: dict[str, object] = {"method": "search"}
    spent = 0
    if use_inert and pos.transit is None and any(not g.awake and g.kind in inert for g in pos.gnomes):
        # 1. the relaxation without the inert gnomes: its optimum bounds every plan of the game
        rel_pos = replace(pos, gnomes=tuple(g for g in pos.gnomes if g.awake or g.kind not in inert))
        rel = _bfs(Engine(rel_pos, ed, relaxed=True), ed, rel_pos, meter, bounds, progress,
                   "without the inert gnomes", strategy)
        spent = rel.expanded
        stats["relaxed"] = {"states": rel.expanded, "optimal": rel.optimal}
        stats["inert"] = len(pos.gnomes) - len(rel_pos.gnomes)
        stats["route"] = "relaxation"
        upper = rel.bound
        # its best plan, played by the rules with the inert gnomes where they are
        fin = _replay(eng, s0, rel.units)
        if fin is not None and f(fin, len(rel.units)) == rel.best:
            out = _Outcome(rel.optimal, rel.best, rel.units, rel.origin, spent, rel.pruned, upper)
        else:
            # 2. the game with the inert gnomes left where they stand (every plan legal by the rules)
            if can_go_on():
                fro = _bfs(Engine(pos, ed, frozen=inert), ed, pos, meter, bounds, progress, "inert gnomes frozen",
                           strategy)
                spent += fro.expanded
                stats["frozen"] = {"states": fro.expanded, "optimal": fro.optimal}
                stats["route"] = "frozen"
                # the same rescues, points and cost as the relaxation's optimum: optimal (the plan is the
                # shortest of those leaving the inert gnomes in place; one moving them might be shorter)
                proven = rel.optimal and fro.optimal and fro.best[:3] == rel.best[:3]
                out = _Outcome(proven, fro.best, fro.units, fro.origin, spent, fro.pruned, upper)
            if out is None or not out.optimal:
                # 3. the whole game (inert gnomes move too), seeded by nothing but its own beam search
                if can_go_on():
                    full = _bfs(eng, ed, pos, meter, bounds, progress, "whole game", strategy)
                    spent += full.expanded
                    stats["route"] = "whole"
                    upper = (min(upper[0], full.bound[0]), min(upper[1], full.bound[1]))
                    if out is None or full.optimal or full.best > out.best:
                        out = _Outcome(full.optimal, full.best, full.units, full.origin, spent, full.pruned, upper)
                if out is None:  # the budget went on the relaxation, whose plan the rules forbid
                    first, units = f(s0, 0), list[Act]()
                    if bounds:  # the quick first plan with the inert gnomes left in place (not counted)
                        frozen = Engine(pos, ed, frozen=inert)
                        first, units = _beam(frozen, s0, f, RunBound(frozen, ed, pos), width=30, max_depth=60,
                                             meter=meter)
                    out = _Outcome(False, first, units, "first plan" if units else "standing still", spent, 0, upper)
                out.bound = (min(upper[0], out.bound[0]), min(upper[1], out.bound[1]))
                out.expanded = spent
    else:
        out = _bfs(eng, ed, pos, meter, bounds, progress, strategy=strategy)
    stats.update({"states": out.expanded, "pruned": out.pruned})
    actions = [eng.action(a) for a in out.units]
    r, p, c, _n = out.best
    if not out.optimal:
        stats.update({"reason": exhausted_reason(meter), "best_from": out.origin,
                      "upper_bound": {"rescued": out.bound[0] - sum(s0[RESCUED]), "points": out.bound[1] - score(s0)}})
        claimed = (r - sum(s0[RESCUED]), p - score(s0), -c)
        return _anytime(pos, ed, actions, claimed, stats, t0)
    tokens = sum(1 for a in actions if a.kind == "token")
    shrooms = sum(1 for a in actions if a.kind == "shroom")
    assert -c == tokens + shrooms
    value = PlanValue(r - sum(s0[RESCUED]), p - score(s0), tokens, shrooms)
    return Result(Status.OPTIMAL, value, merge_plan(actions), stats, time.perf_counter() - t0)


def _units_to(nodes: list[tuple[State, int, tuple[Act, ...]]], node: int) -> list[Act]:
    """The unit actions from the root of the breadth-first search to ``node``."""
    units: list[Act] = []
    while node > 0:
        _st, parent, back = nodes[node]
        units[:0] = list(back)
        node = parent
    return units


def _anytime(pos: RunPosition, ed: HedgeMageEdition, actions: list[Action], claimed: tuple[int, int, int],
             stats: dict[str, object], t0: float) -> Result:
    """Status UNKNOWN with the best plan found so far, replayed by the rules engine to state its value.

    ``claimed`` is the search's (rescued, points, cost) for the plan; the replay must agree.  The
    merged plan is used when it replays to the same final position as the unit plan (else the unit
    plan).  ``stats["upper_bound"]`` bounds (rescued, points) of every plan from ``pos``.
    """
    plan = merge_plan(actions)
    rep = execute_plan(pos, ed, plan)
    units_rep = execute_plan(pos, ed, actions)
    if not rep.legal or rep.final.key() != units_rep.final.key():
        plan, rep = actions, units_rep
    assert rep.legal, f"the best plan found is illegal: {rep.reasons}"
    fin = rep.final
    value = PlanValue(fin.total_rescued() - pos.total_rescued(), running_score(fin, ed) - running_score(pos, ed),
                      sum(1 for a in actions if a.kind == "token"), sum(1 for a in actions if a.kind == "shroom"))
    assert fin.spent - pos.spent == value.tokens
    assert (value.rescued, value.points, value.tokens + value.springshrooms) == claimed, (value, claimed)
    ub = stats["upper_bound"]
    assert isinstance(ub, dict) and (value.rescued, value.points) <= (ub["rescued"], ub["points"])
    return Result(Status.UNKNOWN, value, plan, stats, time.perf_counter() - t0)
