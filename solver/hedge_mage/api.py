"""``gnomekit.solve`` and ``gnomekit.hint`` for Hedge Mage: thin wrappers over the solvers.

A garden (building phase) answers the goals ``placements``, ``points`` (default), ``block``,
``plan`` and ``connected``; a running position answers ``run`` (its default).  Every answer is a
:class:`~gnomekit.solver.core.result.Result`; witnesses are protocol moves (``PlacementMove``,
or a running plan as a list of ``RunMove``) that the position's ``apply`` takes.  A budget that
runs out gives ``Status.UNKNOWN`` with the best found and, where known, a bound; never "no".
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.core.errors import GnomekitError
from gnomekit.models.core.protocol import Position
from gnomekit.models.hedge_mage.game import GardenPosition, PlacementMove, RunMove, RunningPosition
from gnomekit.models.hedge_mage.placement import Placement
from gnomekit.models.hedge_mage.position import ground_components
from gnomekit.models.hedge_mage.running import Action, RunPosition, apply_action
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Result, Status

GOALS: dict[str, str] = {
    "placements": "garden: every legal placement of the tiles the owner may place now (value: how many; witness: "
                  "the moves); methods enumerate (default), sat, networkx",
    "points": "garden (default goal): the placement earning the most movement points (value: points; witness: "
              "the move); methods sat (default), enumerate",
    "block": "garden: the placement that makes the invader's maze hardest (value: block, extra invader steps; "
             "witness: the move); methods enumerate (default), sat",
    "plan": "garden: can tiles=[...] be placed one after another in this order (witness: the moves); methods "
            "sat (default), enumerate",
    "connected": "garden: is the ground one region (value: True/False; witness: the regions, largest first); "
                 "methods flood (default), networkx",
    "run": "running position (default goal): the best maze-running plan this round, most gnomes rescued, then "
           "most points, then fewest tokens and springshrooms spent (value: PlanValue; witness: the plan as "
           "moves); methods search (default), encoding",
}

#: States the running search may expand when no budget is given (seconds to about a minute on a
#: default 10x10 position; the command line uses the same default).
RUN_DEFAULT_STATES = 150_000

_METHODS = {
    "placements": ("enumerate", "sat", "networkx"),
    "points": ("sat", "enumerate"),
    "block": ("enumerate", "sat"),
    "plan": ("sat", "enumerate"),
    "connected": ("flood", "networkx"),
    "run": ("search", "encoding"),
}
_GARDEN_GOALS = ("placements", "points", "block", "plan", "connected")


def _method(goal: str, method: str | None) -> str:
    allowed = _METHODS[goal]
    if method is None:
        return allowed[0]
    if method not in allowed:
        raise GnomekitError(f"goal {goal!r} has no method {method!r}; expected one of {', '.join(allowed)}")
    return method


def _no_options(goal: str, options: dict[str, Any], allowed: tuple[str, ...] = ()) -> None:
    extra = sorted(set(options) - set(allowed))
    if extra:
        can = f" (it takes {', '.join(allowed)})" if allowed else ""
        raise GnomekitError(f"goal {goal!r} takes no option {extra[0]!r}{can}")


def solve(pos: Position, goal: str | None = None, budget: Budget | None = None, method: str | None = None,
          **options: Any) -> Result:
    """Answer ``goal`` (see :data:`GOALS`) for a Hedge Mage position.

    Options: ``tiles`` (``points``, ``block``: the tiles to consider instead of those the owner may
    place now; ``plan``: the tiles to place, required), ``substitution`` (``points``, ``block``:
    False leaves the 2x1 substitution out).  ``budget``: ``plan`` and ``run`` use its states and
    seconds (``plan``: placements tried by ``enumerate``, SAT calls by ``sat``; ``run``: positions
    expanded, :data:`RUN_DEFAULT_STATES` when the budget sets no limit, with every phase of the search
    on the same clock); the other garden goals are exact and fast and do not need one.
    """
    if isinstance(pos, RunningPosition):
        goal = goal or "run"
        if goal != "run":
            raise GnomekitError(f"a running position answers the goal 'run', not {goal!r}")
        _no_options(goal, options)
        return _solve_run(pos, budget, _method(goal, method))
    if not isinstance(pos, GardenPosition):
        raise GnomekitError(f"not a Hedge Mage position: {type(pos).__name__}")
    goal = goal or "points"
    if goal not in _GARDEN_GOALS:
        raise GnomekitError(f"a garden answers the goals {', '.join(_GARDEN_GOALS)}, not {goal!r}")
    m = _method(goal, method)
    if goal == "placements":
        _no_options(goal, options)
        return _placements(pos, m)
    if goal == "connected":
        _no_options(goal, options)
        return _connected(pos, m)
    if goal == "plan":
        _no_options(goal, options, ("tiles",))
        if "tiles" not in options:
            raise GnomekitError("goal 'plan' needs tiles=[...] (the tiles to place, in order)")
        return _plan(pos, list(options["tiles"]), m, budget)
    _no_options(goal, options, ("tiles", "substitution"))
    return _best(pos, goal, m, options.get("tiles"), bool(options.get("substitution", True)))


def _pmove(pos: GardenPosition, p: Placement) -> PlacementMove:
    return pos.move_of(p)


def _placements(pos: GardenPosition, method: str) -> Result:
    t0 = time.perf_counter()
    g, ed = pos.garden, pos.game.edition
    tiles = pos.tiles()
    if method == "enumerate":
        from gnomekit.solver.hedge_mage.placements import enumerate_all

        groups = enumerate_all(g, ed, tiles)
    elif method == "sat":
        from gnomekit.solver.hedge_mage.sat import sat_all

        groups = sat_all(g, ed, tiles)
    else:
        from gnomekit.solver.hedge_mage.graph import enumerate_all_networkx

        groups = enumerate_all_networkx(g, ed, tiles)
    moves = [_pmove(pos, p) for grp in groups for p in grp.placements]
    points = {str(_pmove(pos, p)): n for grp in groups for p, n in zip(grp.placements, grp.points, strict=True)}
    stats: dict[str, Any] = {"method": method, "tiles": tiles, "per_tile": {grp.tile: len(grp.placements)
                                                                              for grp in groups},
                             "movement_points": points}
    status = Status.SATISFIED if moves else Status.UNSATISFIABLE
    return Result(status, len(moves), moves, stats, time.perf_counter() - t0)


def _connected(pos: GardenPosition, method: str) -> Result:
    t0 = time.perf_counter()
    g = pos.garden
    if method == "networkx":
        from gnomekit.solver.hedge_mage.graph import GroundGraph

        comps = GroundGraph(g).connected_components()
    else:
        comps = ground_components(g.rows, g.cols, g.hedge_cells)
    one = len(comps) <= 1
    return Result(Status.SATISFIED if one else Status.UNSATISFIABLE, one, comps,
                  {"method": method, "regions": len(comps)}, time.perf_counter() - t0)


def _best(pos: GardenPosition, goal: str, method: str, tiles: Any, substitution: bool) -> Result:
    from gnomekit.solver.hedge_mage.best import best_block, best_points

    g, ed = pos.garden, pos.game.edition
    names = None if tiles is None else list(tiles)
    fn = best_points if goal == "points" else best_block
    res = fn(g, ed, names, method=method, substitution=substitution)
    choice = res.witness
    best = choice.best
    stats = dict(res.stats)
    stats.update({"choice": choice, "notes": list(choice.notes),
                  "runner_up": _pmove(pos, choice.runner_up.placement) if choice.runner_up else None})
    witness = _pmove(pos, best.placement) if best is not None else None
    return Result(res.status, res.value, witness, stats, res.seconds)


def _plan(pos: GardenPosition, tiles: list[str], method: str, budget: Budget | None) -> Result:
    from gnomekit.solver.hedge_mage.best import plan

    res = plan(pos.garden, pos.game.edition, tiles, method=method, budget=budget)
    steps = res.witness or []
    moves = [_pmove(pos, s.placement) for s in steps] if res.status == Status.SATISFIED else None
    stats = dict(res.stats)
    if steps:
        stats["steps"] = steps
    return Result(res.status, res.value, moves, stats, res.seconds)


def plan_moves(pos: RunningPosition, actions: list[Action]) -> list[RunMove]:
    """A running plan's actions grouped into protocol moves (a move ends where nobody shares a space)."""
    ed = pos.game.edition
    out: list[RunMove] = []
    cur: RunPosition = pos.run
    pending: list[Action] = []
    for a in actions:
        cur, _ = apply_action(cur, ed, a, continues=True)
        pending.append(a)
        if cur.transit is None:
            out.append(RunMove.of(pending, ed))
            pending = []
    if pending:  # the plan ends with someone sharing a space: the plan itself is illegal
        raise GnomekitError("the plan ends with a character sharing a space")
    return out


def _run_budget(budget: Budget | None) -> Budget:
    """The budget of a running search: as given, or :data:`RUN_DEFAULT_STATES` states when it sets no limit."""
    if budget is None or (budget.states is None and budget.seconds is None):
        return Budget(states=RUN_DEFAULT_STATES)
    return budget


def _solve_run(pos: RunningPosition, budget: Budget | None, method: str) -> Result:
    ed = pos.game.edition
    if method == "encoding":
        from gnomekit.solver.hedge_mage.run_encoding import solve_run_encoding

        res = solve_run_encoding(pos.run, ed, time_limit=budget.seconds if budget else None, shortest=True)
    else:
        from gnomekit.solver.hedge_mage.running import solve_run

        res = solve_run(pos.run, ed, budget=_run_budget(budget))
    stats = dict(res.stats)
    witness = plan_moves(pos, list(res.witness)) if res.witness is not None else None
    bound = stats.get("upper_bound") if res.status == Status.UNKNOWN else None
    return Result(res.status, res.value, witness, stats, res.seconds, bound)


# ---------------------------------------------------------------------------------------------
# Hints


@dataclass
class Hint:
    """What ``gnomekit.hint`` answers: the recommended move, why, and the runner-up.

    ``move`` is a protocol move (``None`` when nothing can be done); for a running position
    ``plan`` holds the whole best plan as moves (``move`` is its first).  ``detail`` is the
    solver's own hint object.
    """

    status: Status
    move: Any
    why: list[str]
    runner_up: Any = None
    value: Any = None
    plan: list[Any] = field(default_factory=list)
    detail: Any = field(default=None, repr=False)

    def __str__(self) -> str:
        head = f"hint: {self.move}" if self.move is not None else "hint: nothing to play"
        return "\n".join([head, *(f"  - {w}" for w in self.why)])


def hint(pos: Position, budget: Budget | None = None, **options: Any) -> Hint:
    """A hint for the player to move: a garden's recommended placement, a running position's first move.

    Garden options: ``block_weight`` (worth of one extra invader step in movement points, default 1),
    ``alternatives`` (how many beaten placements to keep, default 3), ``substitution``.  A running
    position's hint uses ``budget``'s states (each for the best plan's search and the runner-up's) and
    seconds (for both together); a budget without either stands for :data:`RUN_DEFAULT_STATES` states.
    """
    if isinstance(pos, RunningPosition):
        _no_options("hint", options)
        return _run_hint(pos, budget)
    if not isinstance(pos, GardenPosition):
        raise GnomekitError(f"not a Hedge Mage position: {type(pos).__name__}")
    _no_options("hint", options, ("block_weight", "alternatives", "substitution"))
    from gnomekit.solver.hedge_mage.best import hint as garden_hint

    weight = float(options.get("block_weight", 1.0))
    alts = int(options.get("alternatives", 3))
    if weight < 0:
        raise GnomekitError(f"block_weight must be 0 or more, not {weight:g}")
    if alts < 0:
        raise GnomekitError(f"alternatives must be 0 or more, not {alts}")
    res = garden_hint(pos.garden, pos.game.edition, block_weight=weight, alternatives=alts,
                      substitution=bool(options.get("substitution", True)))
    h = res.witness
    move = _pmove(pos, h.best.placement) if h.best is not None else None
    runner = _pmove(pos, h.alternatives[0][0].placement) if h.alternatives else None
    return Hint(res.status, move, list(h.reasons), runner, res.value, [move] if move else [], h)


def _run_hint(pos: RunningPosition, budget: Budget | None) -> Hint:
    from gnomekit.solver.hedge_mage.run_hint import run_hint

    res = run_hint(pos.run, pos.game.edition, budget=_run_budget(budget))
    h = res.witness
    if res.status != Status.OPTIMAL or h is None:
        return Hint(Status.UNKNOWN, None, [f"unknown: {res.stats.get('reason', 'limit reached')}"], detail=res)
    plan = plan_moves(pos, list(h.plan))
    why = list(h.reasons) + list(h.runner_up_reasons)
    ru = h.runner_up
    runner = plan_moves(pos, list(ru.plan))[0] if ru is not None and ru.plan else None
    return Hint(Status.OPTIMAL, plan[0] if plan else None, why, runner, res.value, plan, h)
