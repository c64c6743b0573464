"""Gnome Hollow solvers behind ``gnomekit.solve`` and ``gnomekit.hint`` (thin wrappers).

Goals (``GOALS``): ``best-turn`` (default), ``close``, ``market``, ``rings``.  A :class:`Budget`
gives seconds and/or states (placements tried); when it runs out the answer is
``Status.UNKNOWN`` with the best found and a bound, never "no".  Options: ``permits`` (players who
allow the mover to extend their claimed networks), ``weights`` (best turn and hint:
``"ring=1,flower=1,treasure=1,mushroom=0"`` or a :class:`Weights`), ``network`` (close: the path
``"Q,R.K"`` or ``((q, r), k)``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from gnomekit.models.core.errors import GnomekitError
from gnomekit.models.gnome_hollow.game import GnomeHollowPosition
from gnomekit.models.gnome_hollow.graph import position_graph
from gnomekit.models.gnome_hollow.networks import PathKey
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.gnome_hollow.best import Weights, best_turn
from gnomekit.solver.gnome_hollow.close import close_by_networkx, close_by_sat, close_by_search
from gnomekit.solver.gnome_hollow.hint import Hint
from gnomekit.solver.gnome_hollow.hint import hint as _hint
from gnomekit.solver.gnome_hollow.market import solve_market

GOALS: dict[str, str] = {
    "best-turn": "the best turn for the player to move: tiles, resolve choices and gnome action, by the points "
                 "it gains (option weights); exact",
    "close": "can the network of path `network` be closed this turn with the offered and stored tiles? "
             "(methods: search (default), sat, networkx)",
    "market": "the best Pinwheel Market visit for the player to move; exact",
    "rings": "the garden's completed rings (value) and open networks (witness) "
             "(methods: union-find (default), networkx)",
}
METHODS: dict[str, tuple[str, ...]] = {"close": ("search", "sat", "networkx"), "rings": ("union-find", "networkx")}
OPTIONS = ("permits", "weights", "network")


def _start(pos: Any, goal: str) -> Position:
    """The engine position a turn-start goal works on (a turn in progress is refused, not guessed;
    in the final gnome actions the turn is the gnome action alone; a game over has no turn)."""
    if not isinstance(pos, GnomeHollowPosition):
        raise GnomekitError(f"expected a Gnome Hollow position, not {type(pos).__name__}")
    if pos.moves:
        raise GnomekitError(f"goal {goal!r} is asked at the start of a turn, not with a turn in progress "
                            f"({pos.phase})")
    if pos.start.phase == "over":
        raise GnomekitError(f"goal {goal!r}: the game is over (final scores: position.scores(), position.result())")
    return pos.start


def _options(options: dict[str, Any]) -> tuple[tuple[str, ...], Weights]:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise GnomekitError(f"unknown option {unknown[0]!r} (known: {', '.join(OPTIONS)})")
    permits = options.get("permits", ())
    permits = (permits,) if isinstance(permits, str) else tuple(permits)
    w = options.get("weights")
    if w is None or isinstance(w, Weights):
        weights = w or Weights()
    else:
        try:
            weights = Weights.parse(w)
        except ValueError:
            raise GnomekitError("weights take ring=N,flower=N,treasure=N,mushroom=N", text=str(w)) from None
    return permits, weights


def _network(value: Any) -> PathKey:
    if isinstance(value, str):
        cell, dot, k = value.strip().partition(".")
        q, comma, r = cell.partition(",")
        try:
            if dot and comma:
                return ((int(q), int(r)), int(k))
        except ValueError:
            pass
        raise GnomekitError("expected a network as a path Q,R.K (path K of the tile at Q,R)", text=value)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple):
        return ((int(value[0][0]), int(value[0][1])), int(value[1]))
    raise GnomekitError("goal 'close' needs network='Q,R.K' (the path whose network to close)")


def solve(pos: Any, goal: str | None = None, budget: Budget | None = None, method: str | None = None,
          **options: Any) -> Result:
    """Answer ``goal`` (``GOALS``; default ``best-turn``) for a Gnome Hollow position."""
    goal = goal or "best-turn"
    if goal not in GOALS:
        raise GnomekitError(f"unknown goal {goal!r} for gnome-hollow (known: {', '.join(GOALS)})", text=goal)
    methods = METHODS.get(goal, ())
    if method is not None and method not in methods:
        known = ", ".join(methods) if methods else "none: it has one method"
        raise GnomekitError(f"goal {goal!r} has no method {method!r} (methods: {known})", text=method)
    permits, weights = _options(options)
    seconds = budget.seconds if budget is not None else None
    states = budget.states if budget is not None else None
    ed = pos.game.edition
    if goal == "rings":
        return _rings(pos, method or "union-find")
    start = _start(pos, goal)
    if goal == "best-turn":
        return best_turn(start, ed, weights, permits, seconds, states)
    if goal == "market":
        return solve_market(start, ed)
    ref = _network(options.get("network"))
    method = method or "search"
    if method == "sat":
        if states is not None:
            raise GnomekitError("method 'sat' takes a time budget (seconds), not states")
        return close_by_sat(start, ed, ref, permits, time_limit=seconds)
    fn = close_by_networkx if method == "networkx" else close_by_search
    return fn(start, ed, ref, permits, time_limit=seconds, max_nodes=states)


def _rings(pos: GnomeHollowPosition, method: str) -> Result:
    """The rings and open networks of the garden as it is now (placements of the turn included)."""
    started = time.perf_counter()
    ed = pos.game.edition
    garden = pos.start.lay(pos.placements)
    if method == "networkx":
        gg = position_graph(garden, ed)
        rings, opens = list(gg.completed), gg.open_networks()
    else:
        rings = garden.completed(ed)
        nets = garden.networks(ed)
        opens = sorted((nets.describe(r) for r in nets.open_networks()), key=lambda d: d.paths[0])
    rings = [replace(r, root=-1) for r in rings]
    opens = [replace(d, root=-1) for d in opens]
    return Result(Status.SATISFIED, value=rings, witness=opens, stats={"rings": len(rings), "open": len(opens)},
                  seconds=time.perf_counter() - started)


def hint(pos: Any, budget: Budget | None = None, **options: Any) -> Hint:
    """The best turn in words (``Hint.lines``), with what it sets up and leaves open (``Hint.result``:
    the best-turn :class:`Result`)."""
    permits, weights = _options(options)
    if "network" in options:
        raise GnomekitError("hint takes permits and weights, not network")
    start = _start(pos, "hint")
    return _hint(start, pos.game.edition, weights, permits, budget.seconds if budget else None,
                 budget.states if budget else None)
