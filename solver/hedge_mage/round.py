"""One whole round for one player: the placement in our garden and the running plan in the rival's.

In a round a player first places a hedge tile in their own garden (building),
then runs with their mages in the rival's garden (running), with an allowance
equal to the movement points the placement earned (docs/rules/hedge-mage-running.md,
"A whole round").

Coupling.  The two parts share exactly one quantity: the placement's movement
points ``P`` become the running position's ``points``.  Nothing else links them:
the placement changes only our garden (where the *invader* runs), the plan
changes only the rival's garden; held bonus sigil tokens go on the tile and play
no part in running; rescue bonuses gained while running arrive after building.
So the round is solved jointly, but through ``P`` only: ``V(P)`` = the optimal
running value with allowance ``P`` (``solver.hedge_mage.running.solve_run``).

``V`` is monotone: a plan legal with ``P`` points is legal, with the same
value, with ``P + 1`` (every allowance check only gets looser), so
``V(P) <= V(P + 1)`` in the running order.  The search uses this to solve the
running part for few distinct ``P`` values (the tests compare it with solving
every placement's running position).

Objective (lexicographic, ``priority``):

* ``run`` (default): the best running value (most gnomes rescued, then most
  points, then fewest tokens + springshrooms spent), then the hardest maze for
  the invader (largest block measure, ``solver.hedge_mage.best``), then more
  movement points, then the building tie-break order;
* ``block``: the largest block first, then the running value, then more movement
  points, then the order.

When no placement is legal the player places nothing and runs with ``P = 0``
(rules: no movement points from building that round; tokens may still be spent).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.running import RunPosition, execute_plan, running_score, start_round
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hedge_mage.best import Scored, TileOption, options_for, score_all
from gnomekit.solver.hedge_mage.running import PlanValue, solve_run

PRIORITIES = ("run", "block")
OBJECTIVE = {
    "run": "best running value (most gnomes rescued, then most points, then fewest tokens + springshrooms "
           "spent), then the hardest maze for the invader (block), then more movement points, then the "
           "building tie-break order",
    "block": "the hardest maze for the invader (block), then the best running value, then more movement "
             "points, then the building tie-break order",
}

RunSolver = Callable[[RunPosition, HedgeMageEdition, int | None], Result]


def _default_solver(pos: RunPosition, ed: HedgeMageEdition, max_states: int | None) -> Result:
    return solve_run(pos, ed, max_states=max_states)


def mid_round_problems(rival: RunPosition) -> list[str]:
    """Why a running position is not at the start of a running phase (a round starts with none of these)."""
    out = []
    if rival.spent:
        out.append(f"spent: {rival.spent} (movement tokens already spent this round)")
    if any(rival.mage_used):
        out.append("used: " + " ".join(map(str, rival.mage_used)) + " (mages have already moved)")
    if any(g.moved is not None for g in rival.gnomes) or rival.rescued_movers:
        out.append("moved: a gnome has already moved itself this round")
    if rival.transit is not None:
        out.append("a character is passing through another")
    return out


def running_position(rival: RunPosition, garden: Garden, points: int, placed_tokens: int = 0) -> RunPosition:
    """The rival's position at the start of running after our placement: its allowance is ``points``.

    The held bonus sigil tokens are our garden's (the same supply): those placed on the tile are gone.
    """
    pos = start_round(rival, points)
    return replace(pos, sigil_tokens=max(0, garden.held_bonus_sigils - placed_tokens))


@dataclass
class RoundChoice:
    """The answer of :func:`solve_round`: the placement, the running plan, and how they were chosen."""

    priority: str
    build: Scored | None  # the chosen placement (None: nothing can be placed this round)
    movement_points: int  # the running allowance from building (0 when nothing is placed)
    run: Result  # solve_run on ``position`` (value PlanValue, witness the plan)
    position: RunPosition  # the rival's position the plan starts from
    values_by_points: dict[int, PlanValue]  # running values computed, by movement points
    options: list[TileOption]
    legal_placements: int
    same_value_from: int | None = None  # priority run: the fewest movement points reaching the best value
    notes: list[str] = field(default_factory=list)

    @property
    def value(self) -> PlanValue:
        v: PlanValue = self.run.value
        return v


def rank_key(priority: str, s: Scored, v: PlanValue) -> tuple[Any, ...]:
    """Larger is better (the deterministic order breaks what is left: smaller ``order_key`` first)."""
    if priority == "run":
        return (v.key(), s.block or 0, s.points)
    return (s.block or 0, v.key(), s.points)


def solve_round(
    garden: Garden,
    rival: RunPosition,
    ed: HedgeMageEdition,
    *,
    priority: str = "run",
    substitution: bool = True,
    max_states: int | None = None,
    solver: RunSolver | None = None,
    budget: Budget | None = None,
) -> Result:
    """The best placement in ``garden`` together with the best running plan in ``rival``.

    ``rival`` is the rival's garden as a running position at the start of the running phase (its
    ``points`` are replaced by the placement's movement points).  Returns OPTIMAL with value the
    running :class:`PlanValue` and witness a :class:`RoundChoice`, or UNKNOWN (witness None,
    ``stats["reason"]``) when a running search ran out of its ``max_states`` budget.  ``budget``
    (instead of ``max_states``, default solver only): its states for each running search, its
    seconds for all of them together (one clock for the whole round).
    Raises UsageError for a rival position in the middle of a round, or a garden with no revealed tile.
    """
    t0 = time.perf_counter()
    if priority not in PRIORITIES:
        raise UsageError(f"unknown priority {priority!r}; use run or block")
    probs = mid_round_problems(rival)
    if probs:
        raise UsageError("the rival position is in the middle of a running phase; a round starts with none of: "
                         + "; ".join(probs))
    if budget is not None and (max_states is not None or solver is not None):
        raise ValueError("a budget goes with the default running solver and no max_states")
    run_solver = solver or _default_solver
    meter = budget.meter() if budget is not None else None
    options = options_for(garden, ed, substitution=substitution)
    scored, _counts = score_all(garden, ed, options, with_block=True)
    cache: dict[int, Result] = {}
    stats: dict[str, Any] = {"states": 0, "run_solves": 0}

    def value(points: int) -> PlanValue | None:
        if points not in cache:
            start = running_position(rival, garden, points)
            if budget is None or meter is None:
                res = run_solver(start, ed, max_states)
            else:
                left = meter.seconds_left()
                res = (solve_run(start, ed, budget=Budget(states=budget.states, seconds=left))
                       if left is None or left > 0 else
                       Result(Status.UNKNOWN, stats={"states": 0, "reason": "time budget exhausted"}))
            stats["states"] += int(res.stats.get("states") or 0)
            stats["run_solves"] += 1
            cache[points] = res
        res = cache[points]
        return res.value if res.status == Status.OPTIMAL else None

    def unknown(points: int) -> Result:
        stats["reason"] = (f"the running search with {points} movement point(s) stopped: "
                           f"{cache[points].stats.get('reason', 'limit reached')}")
        return Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0)

    notes: list[str] = []
    same_from: int | None = None
    if not scored:
        best: Scored | None = None
        points = 0
        notes.append("no legal placement: nothing is placed and building gives no movement points; the mages "
                     "run with movement tokens only")
        if value(0) is None:
            return unknown(0)
    elif priority == "run":
        distinct = sorted({s.points for s in scored}, reverse=True)
        top = value(distinct[0])
        if top is None:
            return unknown(distinct[0])
        good = [distinct[0]]
        for p in distinct[1:]:  # V is monotone in P: stop at the first P that does worse
            v = value(p)
            if v is None:
                return unknown(p)
            if v.key() != top.key():
                break
            good.append(p)
        same_from = good[-1]
        cands = [s for s in scored if s.points in good]
        best = _pick(priority, cands, {p: top for p in good})
        points = best.points
    else:
        maxb = max(s.block or 0 for s in scored)
        group = [s for s in scored if (s.block or 0) == maxb]
        p = max(s.points for s in group)  # V monotone: the group's best running value is at its largest P
        v = value(p)
        if v is None:
            return unknown(p)
        best = _pick(priority, [s for s in group if s.points == p], {p: v})
        points = p
    placed = len(best.placement.tokens) if best is not None else 0
    pos = running_position(rival, garden, points, placed)
    res = cache[points]
    rep = execute_plan(pos, ed, res.witness)
    got = (rep.final.total_rescued() - pos.total_rescued(), running_score(rep.final, ed) - running_score(pos, ed))
    if not rep.legal or got != (res.value.rescued, res.value.points):
        raise RuntimeError(f"internal error: the running plan does not replay as solved: {rep.reasons}")
    if garden.round != rival.round:
        notes.append(f"our garden says round {garden.round}, the rival position round {rival.round}")
    if rival.sigil_tokens != garden.held_bonus_sigils:
        notes.append(f"bonus sigil tokens held: our garden's count ({garden.held_bonus_sigils}) is used; the "
                     f"rival position said {rival.sigil_tokens}")
    values = {p: r.value for p, r in sorted(cache.items()) if r.status == Status.OPTIMAL}
    choice = RoundChoice(priority, best, points, res, pos, values, options, len(scored), same_from, notes)
    stats["legal_placements"] = len(scored)
    return Result(Status.OPTIMAL, res.value, choice, stats, time.perf_counter() - t0)


def _pick(priority: str, cands: list[Scored], values: dict[int, PlanValue]) -> Scored:
    """The best candidate by :func:`rank_key`, then the deterministic order."""
    top = max(rank_key(priority, s, values[s.points]) for s in cands)
    return min((s for s in cands if rank_key(priority, s, values[s.points]) == top), key=lambda s: s.order_key)
