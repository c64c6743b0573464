"""Generic game-tree searches over the game protocol (``gnomekit.models.core.protocol``).

In the spirit of OpenSpiel's ``alpha_beta_search`` and ``expectiminimax``, for any game that speaks
the protocol:

* :func:`alpha_beta`: minimax with alpha-beta pruning (the negamax recursion written from one
  player's view, so that chance nodes can take part) and a transposition table, for two-player
  zero-sum games.  Chance nodes are refused, or taken as the worst case for the player
  (``chance="worst"``: "wins under every outcome", the forced-win reading of hidden information).
* :func:`expectimax`: expectiminimax; the player maximises, the opponent minimises, chance nodes
  average their outcomes with the protocol's exact probabilities.

Values are from the view of ``player`` (default: the player to move at the root).  A terminal
position is worth ``utility(pos, player)`` (default: the player's entry of ``scores()``, players
in index order, as OpenSpiel's ``returns()``); a non-terminal position where the depth runs out is
worth ``value(pos, player)``, the caller's evaluation.  ``depth`` counts decisions (plies); chance
nodes use none, as in OpenSpiel's ``expectiminimax``.

The transposition table is keyed by the positions themselves (their ``key()`` hash and equality);
an entry answers only a search to the same remaining depth (the value of a depth-limited search
depends on the depth), while its best move orders the moves at any depth.  Both searches spend a
:class:`~gnomekit.solver.core.budget.Budget` (or a running :class:`Meter`, to share one budget over
several calls), one state per node; when it runs out the answer is ``Status.UNKNOWN`` with what is
known (alpha-beta deepens iteratively and keeps the last completed depth).  Positions are
immutable; the searches only call ``legal_moves``, ``chance_outcomes`` and the unchecked
``_apply`` of moves those listed, so the caller's position never changes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gnomekit.models.core.protocol import CHANCE, Position
from gnomekit.solver.core.budget import UNLIMITED, Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status

#: ``value(position, player)``: the caller's evaluation of a non-terminal leaf for ``player``.
ValueFn = Callable[[Position, int], Any]
#: ``utility(position, player)``: what a terminal position is worth to ``player``.
UtilityFn = Callable[[Position, int], Any]

EXACT, LOWER, UPPER = 0, 1, 2


def returns(position: Position) -> list[float]:
    """Each player's score, in player-index order (the protocol's ``scores()`` as a list)."""
    return list(position.scores().values())


def default_utility(position: Position, player: int) -> float:
    """A terminal position's score for ``player``."""
    return returns(position)[player]


def _meter(budget: Budget | Meter | None) -> Meter:
    if isinstance(budget, Meter):
        return budget
    return (budget or UNLIMITED).meter()


def _root_player(position: Position, player: int | None) -> int:
    if player is not None:
        return player
    p = position.current_player()
    if p < 0:
        raise ValueError("the root is not a player's decision: give player=")
    return p


@dataclass
class _Entry:
    depth: int
    value: Any
    flag: int
    move: Any


class _AlphaBeta:
    def __init__(self, player: int, value: ValueFn | None, utility: UtilityFn, chance: str, meter: Meter,
                 tt: bool) -> None:
        self.player = player
        self.value = value
        self.utility = utility
        self.chance = chance
        self.meter = meter
        self.table: dict[Position, _Entry] | None = {} if tt else None
        self.nodes = 0
        self.hits = 0

    def leaf(self, pos: Position) -> Any:
        if self.value is None:
            raise ValueError("the depth ran out at a non-terminal position and no value function was given")
        return self.value(pos, self.player)

    def search(self, pos: Position, depth: int, alpha: Any, beta: Any) -> tuple[Any, Any]:
        """(value, best move) of ``pos`` searched ``depth`` decisions deep within (alpha, beta)."""
        self.meter.tick()
        self.nodes += 1
        if pos.is_terminal():
            return self.utility(pos, self.player), None
        if depth == 0:
            return self.leaf(pos), None
        entry = self.table.get(pos) if self.table is not None else None
        if entry is not None and entry.depth == depth:
            if entry.flag == EXACT:
                self.hits += 1
                return entry.value, entry.move
            if entry.flag == LOWER and entry.value >= beta or entry.flag == UPPER and entry.value <= alpha:
                self.hits += 1
                return entry.value, entry.move
        a0, b0 = alpha, beta
        cp = pos.current_player()
        if cp == CHANCE:
            if self.chance != "worst":
                raise ValueError("alpha_beta met a chance node: pass chance='worst' or use expectimax")
            moves = [o for o, _p in pos.chance_outcomes()]
            maximize, child_depth = False, depth
        else:
            moves = pos.legal_moves()
            maximize, child_depth = cp == self.player, depth - 1
        if entry is not None and entry.move is not None and entry.move in moves:
            moves = [entry.move] + [m for m in moves if m != entry.move]
        best: Any = -math.inf if maximize else math.inf
        best_move = None
        for m in moves:
            v, _ = self.search(pos._apply(m), child_depth, alpha, beta)
            if maximize:
                if v > best or best_move is None:
                    best, best_move = v, m
                alpha = max(alpha, best)
            else:
                if v < best or best_move is None:
                    best, best_move = v, m
                beta = min(beta, best)
            if alpha >= beta:
                break
        if self.table is not None:
            flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
            self.table[pos] = _Entry(depth, best, flag, best_move)
        return best, best_move


def alpha_beta(position: Position, depth: int, value: ValueFn | None = None, *, player: int | None = None,
               utility: UtilityFn | None = None, chance: str = "error", budget: Budget | Meter | None = None,
               tt: bool = True, iterative: bool = True) -> Result:
    """The minimax value of ``position`` for ``player``, ``depth`` decisions deep, by alpha-beta.

    Two-player zero-sum: ``player`` maximises, the other player minimises.  ``chance="worst"`` takes
    chance nodes as the worst outcome for ``player``; the default refuses them.  ``iterative``
    deepens 1, 2, ..., ``depth`` (the table's moves order the next pass; a budget that runs out
    keeps the last completed depth).

    Result: OPTIMAL with ``value`` and ``witness`` = a best move at the root (None at a chance or
    terminal root), or UNKNOWN when the budget ran out, with the value and move of the deepest
    completed pass (None if none) and ``stats["depth_completed"]``.
    """
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    if chance not in ("error", "worst"):
        raise ValueError(f"chance must be 'error' or 'worst', not {chance!r}")
    t0 = time.perf_counter()
    me = _root_player(position, player)
    meter = _meter(budget)
    ab = _AlphaBeta(me, value, utility or default_utility, chance, meter, tt)
    done: tuple[int, Any, Any] | None = None
    stats: dict[str, Any] = {"depth": depth}
    try:
        for d in range(1 if iterative and depth > 0 else depth, depth + 1):
            v, m = ab.search(position, d, -math.inf, math.inf)
            done = (d, v, m)
    except BudgetExhausted as exc:
        stats.update(nodes=ab.nodes, tt_hits=ab.hits, exhausted=exc.what,
                     depth_completed=done[0] if done else None)
        return Result(Status.UNKNOWN, done[1] if done else None, done[2] if done else None, stats,
                      time.perf_counter() - t0)
    assert done is not None
    stats.update(nodes=ab.nodes, tt_hits=ab.hits, tt_entries=len(ab.table or {}), depth_completed=depth)
    return Result(Status.OPTIMAL, done[1], done[2], stats, time.perf_counter() - t0)


class _Expectimax:
    def __init__(self, player: int, value: ValueFn | None, utility: UtilityFn, bounds: tuple[Any, Any] | None,
                 meter: Meter, tt: bool) -> None:
        self.player = player
        self.value = value
        self.utility = utility
        self.bounds = bounds
        self.meter = meter
        self.table: dict[tuple[Position, int], tuple[Any, Any]] | None = {} if tt else None
        self.nodes = 0
        self.hits = 0

    def search(self, pos: Position, depth: int) -> tuple[Any, Any]:
        self.meter.tick()
        self.nodes += 1
        if pos.is_terminal():
            return self.utility(pos, self.player), None
        if depth == 0:
            if self.value is None:
                raise ValueError("the depth ran out at a non-terminal position and no value function was given")
            return self.value(pos, self.player), None
        if self.table is not None:
            hit = self.table.get((pos, depth))
            if hit is not None:
                self.hits += 1
                return hit
        cp = pos.current_player()
        out: tuple[Any, Any]
        if cp == CHANCE:
            total: Any = 0
            for o, p in pos.chance_outcomes():
                total += p * self.search(pos._apply(o), depth)[0]
            out = (total, None)
        else:
            maximize = cp == self.player
            best: Any = None
            best_move = None
            for m in pos.legal_moves():
                v, _ = self.search(pos._apply(m), depth - 1)
                if best is None or (v > best if maximize else v < best):
                    best, best_move = v, m
                    if self.bounds is not None and (best >= self.bounds[1] if maximize else best <= self.bounds[0]):
                        break
            out = (best, best_move)
        if self.table is not None:
            self.table[(pos, depth)] = out
        return out


def expectimax(position: Position, depth: int, value: ValueFn | None = None, *, player: int | None = None,
               utility: UtilityFn | None = None, bounds: tuple[Any, Any] | None = None,
               budget: Budget | Meter | None = None, tt: bool = True) -> Result:
    """The expectiminimax value of ``position`` for ``player``, ``depth`` decisions deep.

    ``player`` maximises, the other player minimises, a chance node is the probability-weighted sum
    of its outcomes (exact with ``Fraction`` probabilities and exact utilities).  ``bounds=(lo, hi)``
    (every utility and value lies in it) lets a decision stop once it reaches ``hi`` (``lo`` for
    the minimiser).  The table memoises (position, depth).

    Result: OPTIMAL with ``value`` and ``witness`` = a best move at a decision root, or UNKNOWN when
    the budget ran out (value None; ``bound`` = ``bounds``).
    """
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    t0 = time.perf_counter()
    me = _root_player(position, player)
    ex = _Expectimax(me, value, utility or default_utility, bounds, _meter(budget), tt)
    stats: dict[str, Any] = {"depth": depth}
    try:
        v, m = ex.search(position, depth)
    except BudgetExhausted as exc:
        stats.update(nodes=ex.nodes, tt_hits=ex.hits, exhausted=exc.what)
        return Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0, bound=bounds)
    stats.update(nodes=ex.nodes, tt_hits=ex.hits, tt_entries=len(ex.table or {}))
    return Result(Status.OPTIMAL, v, m, stats, time.perf_counter() - t0)


def zero(position: Position, player: int) -> int:
    """The value function "nothing is known yet" (0): with win/loss utilities a depth-limited search
    then answers whether a result can be forced within the depth."""
    return 0


__all__ = ["alpha_beta", "default_utility", "expectimax", "returns", "zero"]
