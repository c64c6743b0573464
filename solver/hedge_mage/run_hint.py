"""A hint for a running position: the optimal plan in words, and the runner-up.

The best plan is ``solve_run``'s.  Its *first move* is its first character move:
one unit step (the first step of a path), a pick-up, a drop, or a springshroom
placed beneath a character (who bounces).  Spending a token and placing a
springshroom on an empty space move nobody: they prepare a move and are not
first moves.  A move is identified by what it does and where its character
starts: "mage 1 steps from 0,0 to 0,1", "the pumpkin gnome steps from 0,2 to
0,3 (bouncing to ...)", "mage 2 on 1,1 picks up from 1,2".

The *runner-up* is the best plan (same objective as ``solve``: most gnomes
rescued, then most points, then fewest tokens + springshrooms spent, then fewer
unit actions) that never makes the best plan's first move - so its first move
differs, and it is not the best plan with a pointless move put in front or its
moves reordered (moving costs nothing in the objective, so "first move differs"
alone would nearly always give such a twin).  Doing nothing is a plan too.  When
the best plan is to do nothing, the runner-up is the best plan that moves.

How (exact): a memoised depth-first search over the same successors as the
running search (``solver.hedge_mage.running.successors``: unit moves, tokens
spent lazily, springshrooms placed just before they are entered - the
reductions stay sound with a move forbidden) skipping every successor that makes
the forbidden move.  The tests compare it, with nothing forbidden, with
``solve_run``, and, with the move forbidden, with an exhaustive enumeration of
unit actions.

Library code returns data: the sentences are data for the CLI to print.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.running import Action, Event, RunPosition, cname, execute_plan, running_score
from gnomekit.models.hedge_mage.running_notation import action_to_text
from gnomekit.solver.core.budget import Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hedge_mage.running import (
    PlanValue,
    follow_plan,
    merge_plan,
    run_meter,
    solve_run,
    successors,
)

RunSolver = Callable[[RunPosition, HedgeMageEdition, int | None], Result]
MoveId = tuple[str, str, Cell, tuple[Cell, ...], tuple[Cell, ...]]  # kind, who, origin, target(s), bounces
Value = tuple[int, int, int, int]  # (rescued, points, -(tokens + springshrooms), -unit actions), absolute
NEG: Value = (-1, -(10**9), -(10**9), -(10**9))


# ---------------------------------------------------------------------------------------------
# First moves


def _occupied(pos: RunPosition, cell: Cell) -> bool:
    return cell in pos.mages or any(g.at == cell and g.carried_by is None for g in pos.gnomes)


def is_move(pos: RunPosition, a: Action) -> bool:
    """Whether ``a`` (about to be applied to ``pos``) moves a character: a first-move candidate."""
    if a.kind in ("step", "pickup", "drop"):
        return True
    return a.kind == "shroom" and _occupied(pos, a.path[0])


def unit_of(a: Action) -> Action:
    """The first unit of an action: the first step of a path (its bounces only if the path is one step)."""
    if a.kind == "step" and len(a.path) > 1:
        return Action("step", a.who, at=a.at, path=a.path[:1])
    return a


def move_id(pos: RunPosition, a: Action) -> MoveId:
    """What a (unit) character move does and where its character starts, in ``pos``."""
    u = unit_of(a)
    if u.kind == "shroom":
        origin = u.path[0]
    elif u.mage is not None:
        origin = pos.mages[u.mage] if 0 <= u.mage < len(pos.mages) else (-1, -1)
    else:
        origin = u.at if u.at is not None else (-1, -1)
    return (u.kind, u.who, origin, u.path, u.bounces)


def first_move(pos: RunPosition, ed: HedgeMageEdition, plan: list[Action]) -> tuple[Action, MoveId] | None:
    """The first character move of a plan (as a unit action, with its identity), or None if it moves nobody."""
    cur = pos
    for a in plan:
        if is_move(cur, a):
            return unit_of(a), move_id(cur, a)
        rep = execute_plan(cur, ed, [a])
        if not rep.legal:
            raise RuntimeError(f"internal error: plan action {action_to_text(a, ed)} is illegal: {rep.reasons}")
        cur = rep.final
    return None


def move_words(m: MoveId) -> str:
    """A move identity in words (for the runner-up's "without ...")."""
    kind, who, origin, path, bounces = m
    b = (" bouncing to " + " then ".join(cname(c) for c in bounces)) if bounces else ""
    if kind == "shroom":
        return f"placing a springshroom beneath the character on {cname(origin)}{b}"
    actor = f"mage {who[1:]}" if who.startswith("M") else f"the {who} gnome"
    if kind == "step":
        return f"{actor} stepping from {cname(origin)} to {cname(path[0])}{b}"
    if kind == "pickup":
        return f"{actor} on {cname(origin)} picking up the gnome on {cname(path[0])}"
    return f"{actor} on {cname(origin)} dropping its gnome on {cname(path[0])}{b}"


# ---------------------------------------------------------------------------------------------
# The search with a forbidden move


class ForbiddenSearch:
    """Memoised depth-first search for the best plan that never makes move ``banned``.

    ``must_move``: the plan may not be empty.  Every state ticks ``meter`` (made from ``max_states``
    when not given), which raises :class:`BudgetExhausted` when its states or seconds run out.
    """

    def __init__(self, ed: HedgeMageEdition, banned: MoveId | None, must_move: bool = False,
                 max_states: int | None = None, meter: Meter | None = None) -> None:
        self.ed = ed
        self.banned = banned
        self.must_move = must_move
        self.meter = run_meter(max_states, meter=meter)
        self.memo: dict[tuple[object, ...], tuple[Value, list[Action] | None]] = {}
        self.states = 0

    def _makes_banned(self, pos: RunPosition, acts: list[Action]) -> bool:
        # tokens and springshrooms on empty spaces move nobody, so every move's origin is read in ``pos``
        return self.banned is not None and any(is_move(pos, a) and move_id(pos, a) == self.banned for a in acts)

    def best(self, pos: RunPosition, root: bool = False) -> Value:
        k = (pos.key(), root)
        hit = self.memo.get(k)
        if hit is not None:
            return hit[0]
        self.states += 1
        self.meter.tick()
        best: Value = NEG
        if pos.transit is None and not (root and self.must_move):
            best = (pos.total_rescued(), running_score(pos, self.ed), 0, 0)
        move: list[Action] | None = None
        for acts, nxt, t, s in successors(pos, self.ed):
            if self._makes_banned(pos, acts):
                continue
            r, p, c, n = self.best(nxt)
            v = (r, p, c - t - s, n - len(acts))
            if v > best:
                best, move = v, acts
        self.memo[k] = (best, move)
        return best

    def plan(self, pos: RunPosition) -> list[Action]:
        """The unit actions of the best plan found by :meth:`best` (called on ``pos`` as the root)."""
        return follow_plan(pos, self.ed, lambda cur, root: self.memo[(cur.key(), root)][1])


@dataclass(frozen=True)
class Candidate:
    """A plan with its value (the runner-up)."""

    first: Action | None  # its first move (None: the plan moves nobody)
    value: PlanValue
    plan: tuple[Action, ...]  # merged path actions


def best_without(pos: RunPosition, ed: HedgeMageEdition, banned: MoveId | None, must_move: bool = False,
                 max_states: int | None = None, meter: Meter | None = None) -> tuple[Candidate | None, int]:
    """The best plan from ``pos`` that never makes move ``banned`` (None when there is none, or the budget
    ran out: ``max_states`` states, or ``meter``'s budget) and the states explored."""
    s = ForbiddenSearch(ed, banned, must_move, max_states, meter)
    try:
        r, p, c, _n = s.best(pos, root=True)
    except BudgetExhausted:
        return None, s.states
    if r < 0:
        return None, s.states
    units = s.plan(pos)
    tokens = sum(1 for a in units if a.kind == "token")
    shrooms = sum(1 for a in units if a.kind == "shroom")
    if -c != tokens + shrooms:
        raise RuntimeError("internal error: the forbidden-move search counts its spending wrongly")
    v = PlanValue(r - pos.total_rescued(), p - running_score(pos, ed), tokens, shrooms)
    plan = merge_plan(units)
    fm = first_move(pos, ed, plan)
    return Candidate(fm[0] if fm else None, v, tuple(plan)), s.states


# ---------------------------------------------------------------------------------------------
# Words


@dataclass
class StepWords:
    """One action of a plan, what it costs and what happens, in words."""

    index: int  # 1-based
    action: Action
    notation: str
    words: str
    cost: int  # movement points taken from the acting character's allowance
    events: list[Event]
    event_words: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "action": self.notation, "words": self.words, "cost": self.cost,
                "events": [e.to_json() for e in self.events], "event_words": self.event_words}


def _gnome_words(pos: RunPosition, i: int) -> str:
    g = pos.gnomes[i]
    return f"{'awake' if g.awake else 'sleeping'} {g.kind} gnome"


def _route(pos: RunPosition, start: Cell, path: tuple[Cell, ...]) -> str:
    return " -> ".join(cname(c) + (" (hedge)" if c in pos.hedge else "") for c in (start, *path))


def _bounce_words(a: Action) -> str:
    if not a.bounces:
        return ""
    return ", bounces off the springshroom to " + " then ".join(cname(c) for c in a.bounces)


def action_words(before: RunPosition, after: RunPosition, a: Action) -> tuple[str, int]:
    """What an action does, in words, and the movement points it costs its character."""
    if a.kind == "token":
        return (f"Spend a movement token: every character's allowance goes from {before.allowance} to "
                f"{after.allowance}.", 0)
    if a.kind == "shroom":
        t = a.path[0]
        who = [f"mage {i + 1}" for i, m in enumerate(before.mages) if m == t]
        who += [f"the {g.kind} gnome" for g in before.gnomes if g.at == t and g.carried_by is None]
        if who:
            return f"Place a springshroom beneath {who[0]} on {cname(t)}: it{_bounce_words(a)[1:] or ' stays'}.", 0
        return f"Place a springshroom on {cname(t)}, ready for the next move.", 0
    m = a.mage
    if m is not None:
        cost = after.mage_used[m] - before.mage_used[m]
        used = f"{after.mage_used[m]} of {after.allowance} used"
        carried = before.carried(m)
        if a.kind == "step":
            load = f", carrying the {_gnome_words(before, carried)}," if carried is not None else ""
            return (f"Mage {m + 1}{load} walks {_route(before, before.mages[m], a.path)}{_bounce_words(a)} "
                    f"({cost} point(s); {used}).", cost)
        t = a.path[0]
        height = "hedge" if t in before.hedge else "ground"
        where = "on its own space (free)" if t == before.mages[m] else \
            f"{'from' if a.kind == 'pickup' else 'onto'} the neighbouring {height} space {cname(t)} ({cost} point)"
        if a.kind == "pickup":
            gi = next((i for i, g in enumerate(before.gnomes) if g.at == t and g.carried_by is None), None)
            what = _gnome_words(before, gi) if gi is not None else "gnome"
            return f"Mage {m + 1} picks up the {what} {where}; {used}.", cost
        what = _gnome_words(before, carried) if carried is not None else "gnome"
        return f"Mage {m + 1} drops the {what} {where}{_bounce_words(a)}; {used}.", cost
    # a gnome moving itself
    gi = next((i for i, g in enumerate(before.gnomes) if g.kind == a.who and g.at == a.at), None)
    g = before.gnomes[gi] if gi is not None else None
    start = a.at if a.at is not None else (0, 0)
    moved_before = (g.moved or 0) if g is not None else 0
    cost = len(a.path)
    how = []
    if g is not None and g.carried_by is not None:
        how.append(f"steps off mage {g.carried_by + 1}")
    last = a.path[-1]
    if any(mc == last for mc in before.mages):
        how.append(f"climbs onto mage {before.mages.index(last) + 1} (a mage is a ladder)")
    extra = f" ({'; '.join(how)})" if how else ""
    return (f"The awake {a.who} gnome walks {_route(before, start, a.path)}{extra}{_bounce_words(a)} with its own "
            f"points ({cost} point(s); {moved_before + cost} of {after.allowance} used - the one {a.who} gnome "
            "that moves itself this round).", cost)


def event_words(e: Event, pos: RunPosition, ed: HedgeMageEdition) -> str | None:
    """A wake or a rescue in words (None for events the action's words already say)."""
    if e.what == "wake":
        card = next((c for c in ed.enchantments if c.id in pos.enchantments and c.kind == e.kind), None)
        why = f" ({card.name}: {card.text})" if card is not None else ""
        return f"the {e.kind} gnome on {cname(e.cell) if e.cell else '?'} wakes{why}"
    if e.what == "rescue":
        return f"the {e.kind} gnome is rescued through the tunnel at {cname(e.cell) if e.cell else '?'} ({e.detail})"
    return None


def plan_words(pos: RunPosition, ed: HedgeMageEdition, plan: list[Action]) -> list[StepWords]:
    """Every action of a legal plan in words, with its events."""
    rep = execute_plan(pos, ed, plan)
    if not rep.legal:
        raise RuntimeError(f"internal error: the plan is illegal: {rep.reasons}")
    out = []
    before = pos
    for s in rep.steps:
        words, cost = action_words(before, s.position, s.action)
        ew = [w for w in (event_words(e, s.position, ed) for e in s.events) if w]
        out.append(StepWords(s.index + 1, s.action, action_to_text(s.action, ed), words, cost, s.events, ew))
        before = s.position
    return out


def score_words(start: RunPosition, ed: HedgeMageEdition, v: PlanValue, final: RunPosition) -> list[str]:
    """Where the plan's points come from: the tracks and the awake gnomes left in the rival's garden."""
    rules = ed.running
    out = []
    kinds = [k for k in ed.gnome_kinds if final.rescued_count(k) != start.rescued_count(k)]
    for k in kinds:
        a, b = start.rescued_count(k), final.rescued_count(k)
        out.append(f"{k} track: {a} -> {b} rescued, worth {rules.track_points(k, a)} -> "
                   f"{rules.track_points(k, b)} point(s) (the rightmost filled space scores)")
    aw0 = sum(1 for g in start.gnomes if g.awake)
    aw1 = sum(1 for g in final.gnomes if g.awake)
    if aw0 != aw1:
        out.append(f"awake gnomes left in the rival's garden: {aw0} -> {aw1} "
                   f"({rules.awake_rival_points} point each at final scoring)")
    spent = []
    if v.tokens:
        spent.append(f"{v.tokens} movement token(s)")
    if v.springshrooms:
        spent.append(f"{v.springshrooms} springshroom token(s)")
    if spent:
        out.append("spends " + " and ".join(spent) + " (nothing cheaper reaches the same)")
    return out


def value_words(v: PlanValue) -> str:
    return (f"rescues {v.rescued}, points {v.points:+d}, tokens spent {v.tokens}, "
            f"springshrooms spent {v.springshrooms}")


def difference(best: PlanValue, other: PlanValue) -> str:
    """How ``other`` compares with ``best``, in words."""
    if other.key() == best.key():
        return "just as good: another way to the same result"
    if other.rescued != best.rescued:
        d = best.rescued - other.rescued
        return f"{d} gnome(s) fewer rescued" if d > 0 else f"{-d} gnome(s) more rescued"
    if other.points != best.points:
        return f"{best.points - other.points} point(s) fewer"
    d = (other.tokens + other.springshrooms) - (best.tokens + best.springshrooms)
    return f"{d} more token(s) spent for the same result"


# ---------------------------------------------------------------------------------------------
# The hint


@dataclass
class RunHint:
    """The hint: the best plan in words and the runner-up."""

    value: PlanValue
    plan: list[Action]
    first: Action | None
    first_id: MoveId | None
    steps: list[StepWords]
    reasons: list[str]
    final: RunPosition
    runner_up: Candidate | None = None
    runner_up_steps: list[StepWords] = field(default_factory=list)
    runner_up_reasons: list[str] = field(default_factory=list)
    complete: bool = True  # False: the runner-up search ran out of its budget (runner_up is None)


def run_hint(pos: RunPosition, ed: HedgeMageEdition, *, max_states: int | None = None,
             budget: Budget | None = None, solver: RunSolver | None = None) -> Result:
    """The best plan with reasons, and the runner-up (the best plan that never makes its first move).

    Result: OPTIMAL with value the best :class:`PlanValue` and witness a :class:`RunHint`
    (``complete`` False and no runner-up when only the runner-up search ran out of its budget);
    UNKNOWN with witness None when the best plan itself is unknown.

    The budget is ``max_states`` or a :class:`Budget` (not both): its states limit each of the two
    searches (the best plan's, then the runner-up's), its seconds both together.  A custom
    ``solver`` is given the state limit only.
    """
    t0 = time.perf_counter()
    if max_states is not None and budget is not None:
        raise ValueError("give max_states or budget, not both")
    budget = budget if budget is not None else Budget(states=max_states)
    meter = budget.meter()
    res = solver(pos, ed, budget.states) if solver is not None else solve_run(pos, ed, meter=meter)
    stats: dict[str, Any] = {"states": int(res.stats.get("states") or 0)}
    if res.status != Status.OPTIMAL:
        stats["reason"] = res.stats.get("reason", "limit reached")
        return Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0)
    best: PlanValue = res.value
    plan: list[Action] = list(res.witness)
    fm = first_move(pos, ed, plan)
    steps = plan_words(pos, ed, plan)
    final = execute_plan(pos, ed, plan).final
    hint = RunHint(best, plan, fm[0] if fm else None, fm[1] if fm else None, steps,
                   _reasons(pos, ed, best, plan, steps, final), final)
    if fm is None:  # standing still is best: every plan that moves gains nothing (moves are free: many tie)
        hint.runner_up_reasons = ["Any plan that moves gains nothing over standing still, so there is no "
                                  "runner-up worth showing."]
        return Result(Status.OPTIMAL, best, hint, stats, time.perf_counter() - t0)
    left = meter.seconds_left()
    ru: Candidate | None = None
    n = 0
    if left is None or left > 0:  # the runner-up's own states, the time that is left
        ru_meter = Budget(states=budget.states, seconds=left).meter()
        ru, n = best_without(pos, ed, hint.first_id, meter=ru_meter)
    stats["runner_up_states"] = n
    cap = budget.states
    if ru is None and (cap is not None and n > cap):
        hint.complete = False
        stats["reason"] = f"the runner-up search ran out of its state budget ({cap})"
        return Result(Status.OPTIMAL, best, hint, stats, time.perf_counter() - t0)
    if ru is None and budget.seconds is not None:
        hint.complete = False
        stats["reason"] = f"the runner-up search ran out of the time budget ({budget.seconds:g} s)"
        return Result(Status.OPTIMAL, best, hint, stats, time.perf_counter() - t0)
    if ru is not None:
        if ru.value.key() > best.key():
            raise RuntimeError("internal error: the runner-up beats the optimal plan")
        hint.runner_up = ru
        hint.runner_up_steps = plan_words(pos, ed, list(ru.plan))
        rv = execute_plan(pos, ed, list(ru.plan))
        got = (rv.final.total_rescued() - pos.total_rescued(), running_score(rv.final, ed) - running_score(pos, ed))
        if got != (ru.value.rescued, ru.value.points):
            raise RuntimeError("internal error: the runner-up plan does not replay to its value")
        hint.runner_up_reasons = _runner_reasons(hint, ru)
    return Result(Status.OPTIMAL, best, hint, stats, time.perf_counter() - t0)


def _runner_reasons(h: RunHint, ru: Candidate) -> list[str]:
    assert h.first_id is not None
    start = "is to stand still" if not ru.plan else "starts differently"
    return [f"The best plan without {move_words(h.first_id)} {start} and {value_words(ru.value)}: "
            f"{difference(h.value, ru.value)}."]


def _reasons(pos: RunPosition, ed: HedgeMageEdition, v: PlanValue, plan: list[Action], steps: list[StepWords],
             final: RunPosition) -> list[str]:
    if not plan:
        return ["No plan rescues a gnome or gains a point this round (waking a gnome would be +1): the best is "
                "to stand still and keep the tokens."]
    out = [f"This plan {value_words(v)}: no plan rescues more, none with as many rescues scores more, and none "
           "with the same rescues and points spends fewer tokens and springshrooms."]
    for s in steps:
        out += [f"After action {s.index} ({s.notation}): {w}." for w in s.event_words]
    out += [x[0].upper() + x[1:] + "." for x in score_words(pos, ed, v, final)]
    return out
