"""Gnomes at Midnight behind ``gnomekit.solve`` and ``gnomekit.hint``: thin wrappers over the solvers.

The fast Midnight solvers (``search``, ``hint``, ``smt``, ``tablebase``) answer as the command line
does; ``method="protocol"`` answers the same questions with the generic searches of
``gnomekit.solver.core.search`` over the game protocol (a second, independent method, slower).
A budget that runs out answers ``Status.UNKNOWN`` (never "no"), with ``bound =
{"no_win_within": n}`` where the search had proven that much.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.protocol import Position
from gnomekit.models.gnomes_at_midnight.edition import terrain_index
from gnomekit.models.gnomes_at_midnight.game import MidnightPosition
from gnomekit.solver.core.budget import Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.core.search import alpha_beta, expectimax, zero
from gnomekit.solver.gnomes_at_midnight.hint import Hint
from gnomekit.solver.gnomes_at_midnight.hint import hint as _hint
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.search import Searcher, SearchOptions, prepare
from gnomekit.solver.gnomes_at_midnight.search import solve as _search

GOALS: dict[str, str] = {
    "win": "a forced win for the side to move within `depth` of its own turns (default 3; every reply, "
           "every flip): OPTIMAL with value = the fewest turns and witness = a first move, or "
           "UNSATISFIABLE (none within the depth: not a loss); options depth, decks ('open' or "
           "'hidden'); methods 'search' (default), 'z3' (open decks, depth - 1 known cards a side), "
           "'protocol' (solver.core.search.alpha_beta), 'pns' (df-pn on the bitboard engine)",
    "probability": "the win probability within `depth` turns, each hidden flip uniform over the cards "
                   "that can come, the opponent minimising: OPTIMAL with the value (a float from "
                   "'search', an exact Fraction from 'protocol' = solver.core.search.expectimax)",
    "value": "the retrograde tablebase's value (deck orders repeat as cycles; for small editions such "
             "as 'mini'): OPTIMAL with value 'win', 'loss' or 'draw', stats['turns'], witness = a first "
             "move of a shortest win; option cycles (each side's deck order); method 'tablebase'",
}
METHODS: dict[str, tuple[str, ...]] = {
    "win": ("search", "z3", "protocol", "pns"),
    "probability": ("search", "protocol"),
    "value": ("tablebase",),
}


def _decision(pos: Position) -> MidnightPosition:
    """The position, checked to be a Midnight decision between turns."""
    if not isinstance(pos, MidnightPosition):
        raise UsageError(f"expected a gnomes-at-midnight position, got {type(pos).__name__}")
    if pos.is_terminal():
        raise UsageError(f"the game is over: {pos.result()}")
    if pos.is_chance_node():
        raise UsageError("the position waits for a moonlight flip (a chance node): apply one of its "
                         "chance_outcomes() first")
    return pos


def _meter(budget: Budget | Meter | None) -> Meter | None:
    if budget is None or isinstance(budget, Meter):
        return budget
    return budget.meter()


def _turns(depth: int) -> int:
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise UsageError(f"depth must be a whole number >= 1, not {depth!r}")
    return depth


def _decks(decks: str) -> str:
    if decks not in ("open", "hidden"):
        raise UsageError(f"decks must be 'open' or 'hidden', not {decks!r}")
    return decks


def solve(pos: Position, goal: str | None = None, budget: Budget | Meter | None = None,
          method: str | None = None, *, depth: int = 3, decks: str = "open",
          cycles: Sequence[Sequence[int | str]] | None = None, **options: Any) -> Result:
    """Answer ``goal`` (see ``GOALS``; default ``"win"``) for the side to move of ``pos``."""
    if options:
        raise TypeError(f"unknown option(s) for gnomes-at-midnight solve: {', '.join(sorted(options))}")
    goal = goal or "win"
    if goal not in GOALS:
        raise UsageError(f"unknown goal {goal!r}; expected one of {', '.join(GOALS)}", text=goal)
    method = method or METHODS[goal][0]
    if method not in METHODS[goal]:
        raise UsageError(f"goal {goal!r} takes the methods {', '.join(METHODS[goal])}, not {method!r}",
                         text=method)
    p = _decision(pos)
    if goal == "value":
        if budget is not None:
            raise UsageError("the tablebase method takes no budget (it loads or builds the whole table)")
        return _tablebase(p, cycles)
    if cycles is not None:
        raise UsageError("cycles is an option of the goal 'value' (the tablebase)")
    depth, decks = _turns(depth), _decks(decks)
    meter = _meter(budget)
    r: Result
    if goal == "win":
        if method == "search":
            r = _search(p.state, depth, decks, options=SearchOptions(meter=meter))
        elif method == "z3":
            r = _z3_win(p, depth, decks, meter)
        elif method == "pns":
            from gnomekit.solver.gnomes_at_midnight.pns import solve as _pns

            r = _pns(p.state, depth, decks, meter)
        else:
            r = _protocol_win(p, depth, decks, meter)
    elif method == "search":
        r = _search_probability(p, depth, decks, meter)
    else:
        r = _protocol_probability(p, depth, decks, meter)
    r.stats.setdefault("goal", goal)
    r.stats.setdefault("method", method)
    return r


def hint(pos: Position, budget: Budget | Meter | None = None, *, depth: int = 3, decks: str = "open",
         **options: Any) -> Hint:
    """The best move and why (as ``hint`` on the command line): a forced win's first move, else the
    safe move that keeps the most options.  A budget bounds the forced-win search."""
    if options:
        raise TypeError(f"unknown option(s) for gnomes-at-midnight hint: {', '.join(sorted(options))}")
    p = _decision(pos)
    return _hint(p.state, _turns(depth), _decks(decks), SearchOptions(meter=_meter(budget)))


# -- the methods -----------------------------------------------------------------------------------

def _unknown(t0: float, proven: int, stats: dict[str, Any]) -> Result:
    return Result(Status.UNKNOWN, None, None, {**stats, "no_win_within": proven}, time.perf_counter() - t0,
                  bound={"no_win_within": proven})


def _z3_win(p: MidnightPosition, depth: int, decks: str, meter: Meter | None) -> Result:
    """The shortest forced win by the z3 method, asked for 1, 2, ... turns."""
    from gnomekit.solver.gnomes_at_midnight.smt import smt_wins_within

    if decks != "open":
        raise UsageError("the z3 method needs open decks (flips known over the horizon)")
    t0 = time.perf_counter()
    queries = 0
    for n in range(1, depth + 1):
        r = smt_wins_within(p.state, n, meter)
        queries += r.stats.get("queries", 0)
        if r.status is Status.UNKNOWN:
            return _unknown(t0, n - 1, {"queries": queries, "exhausted": r.stats.get("exhausted")})
        if r.value:
            return Result(Status.OPTIMAL, n, r.witness, {"queries": queries, "depth": depth},
                          time.perf_counter() - t0)
    return Result(Status.UNSATISFIABLE, None, None, {"queries": queries, "depth": depth}, time.perf_counter() - t0)


def _root(p: MidnightPosition, decks: str) -> MidnightPosition:
    return p.hidden() if decks == "hidden" else p


def _protocol_win(p: MidnightPosition, depth: int, decks: str, meter: Meter | None) -> Result:
    """The shortest forced win by alpha-beta over the protocol: n turns of the mover are 2n - 1
    decisions; a chance flip is the worst case; win +1, loss -1, anything else 0."""
    t0 = time.perf_counter()
    root = _root(p, decks)
    nodes = 0
    for n in range(1, depth + 1):
        r = alpha_beta(root, 2 * n - 1, zero, chance="worst", budget=meter, iterative=False)
        nodes += r.stats.get("nodes", 0)
        if r.status is Status.UNKNOWN:
            return _unknown(t0, n - 1, {"nodes": nodes, "exhausted": r.stats.get("exhausted")})
        if r.value > 0:
            return Result(Status.OPTIMAL, n, root.move_text(r.witness), {"nodes": nodes, "depth": depth},
                          time.perf_counter() - t0)
    return Result(Status.UNSATISFIABLE, None, None, {"nodes": nodes, "depth": depth}, time.perf_counter() - t0)


def _won(pos: Position, player: int) -> int:
    """1 when ``player`` has won, else 0 (a win-probability utility)."""
    return 1 if isinstance(pos, MidnightPosition) and pos.winner() == player else 0


def _protocol_probability(p: MidnightPosition, depth: int, decks: str, meter: Meter | None) -> Result:
    root = _root(p, decks)
    r = expectimax(root, 2 * depth - 1, zero, utility=_won, bounds=(0, 1), budget=meter)
    if r.status is Status.UNKNOWN:
        return r
    return Result(Status.OPTIMAL, Fraction(r.value), root.move_text(r.witness), r.stats, r.seconds)


def _search_probability(p: MidnightPosition, depth: int, decks: str, meter: Meter | None) -> Result:
    t0 = time.perf_counter()
    state = prepare(p.state, decks)
    k = Kernel(state)
    sr = Searcher(k, SearchOptions(meter=meter))
    try:
        v = sr.probability(k.state(state), depth, {})
    except BudgetExhausted as exc:
        return Result(Status.UNKNOWN, None, None, {"nodes": sr.nodes, "exhausted": exc.what},
                      time.perf_counter() - t0, bound=(0.0, 1.0))
    return Result(Status.OPTIMAL, v, None, {"nodes": sr.nodes, "depth": depth, "decks": decks},
                  time.perf_counter() - t0)


def _cycle(c: Sequence[int | str]) -> tuple[int, ...]:
    out = []
    for x in c:
        t = x if isinstance(x, int) and 0 <= x < 3 else terrain_index(x) if isinstance(x, str) and len(x) > 1 else None
        if t is None:
            raise UsageError(f"a deck cycle lists terrains (grass, tulips, cobblestone), not {x!r}")
        out.append(t)
    return tuple(out)


def _tablebase(p: MidnightPosition, cycles: Sequence[Sequence[int | str]] | None) -> Result:
    from gnomekit.solver.gnomes_at_midnight.tablebase import default_cycles, describe, load_or_build

    t0 = time.perf_counter()
    ed = p.game.edition
    if cycles is None:
        cyc = default_cycles(p.state, ed)
    else:
        if len(cycles) != 2:
            raise UsageError("cycles: one deck order for green and one for blue")
        cyc = (_cycle(cycles[0]), _cycle(cycles[1]))
    tb, built = load_or_build(ed, p.state.dance, cyc)
    value, turns = tb.lookup(p.state)
    move = _search(p.state, turns).witness if value == "win" and turns else None
    stats = {"turns": turns, "built_now": built, "tablebase": describe(tb)}
    return Result(Status.OPTIMAL, value, move, stats, time.perf_counter() - t0)
