"""Optimal chains: exact, memoised search over one turn's decision tree.

The *optimal chain* (rulings): the mover picks the witch and its own card plays to
maximise the measure (default: the moved witch's final field, finish fields worth
their number), every other clan answers to minimise it.  Neutral draws and tile
actions are forced.  The *cooperative* chain lets every clan maximise.

Tie rules (documented in docs/rules/hexen-rennen.md): among witches of equal value
the one with the lowest field before the roll; among equal decisions: stop, then
the smallest number card, then the symbol card.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gnomekit.models.hexen_rennen.edition import STOP, SYMBOL, HexenEdition
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.turn import (
    ChainState,
    Option,
    Rules,
    Step,
    Turn,
    TurnPlan,
    movable_witches,
    turn_plan_of,
)
from gnomekit.solver.core.budget import Meter

Measure = Callable[[int], int]


def field_measure(at: int) -> int:
    """The default measure: the field the moved witch ends on."""
    return at


def decision_order(code: int) -> int:
    """Tie-break order among equally good decisions: stop, small numbers first, symbol last."""
    if code == STOP:
        return -1
    if code == SYMBOL:
        return 1 << 20
    return code


class ChainSearch:
    """Memoised minimax (or cooperative max) over the states of one turn."""

    def __init__(self, turn: Turn, cooperative: bool = False, measure: Measure = field_measure,
                 meter: Meter | None = None) -> None:
        self.turn = turn
        self.cooperative = cooperative
        self.measure = measure
        self.memo: dict[ChainState, int] = {}
        self.nodes = 0
        self.meter = meter  # counts every new state (raises BudgetExhausted past its budget)

    def value(self, st: ChainState) -> int:
        v = self.memo.get(st)
        if v is not None:
            return v
        self.nodes += 1
        if self.meter is not None:
            self.meter.tick()
        node = self.turn.expand(st)
        if node.kind == "end":
            v = self.measure(st.at)
        elif node.kind == "auto":
            v = self.value(node.options[0].state)
        else:
            vals = [self.value(o.state) for o in node.options]
            maximise = self.cooperative or node.chooser == self.turn.mover
            v = max(vals) if maximise else min(vals)
        self.memo[st] = v
        return v

    def best(self, st: ChainState) -> Option | None:
        """The decision the principal line takes at ``st`` (None at the end)."""
        node = self.turn.expand(st)
        if node.kind == "end":
            return None
        if node.kind == "auto":
            return node.options[0]
        target = self.value(st)
        good = [o for o in node.options if self.value(o.state) == target]
        return min(good, key=lambda o: decision_order(o.code))

    def line(self, st: ChainState) -> tuple[list[Step], ChainState]:
        """The principal line from ``st``: its steps and the final state."""
        steps: list[Step] = []
        while True:
            o = self.best(st)
            if o is None:
                return steps, st
            steps.append(o.step)
            st = o.state

    def strategy(self, st: ChainState) -> dict[tuple[int, ...], int]:
        """The mover's principal decisions under every answer of the other clans.

        Keys are histories: the codes chosen at the earlier steps of the chain (STOP at
        steps without a choice); values the code the mover plays at that step.  It is the
        certificate z3 checks for "the mover reaches at least the value"
        (solver/hexen_rennen/smt.py).
        """
        out: dict[tuple[int, ...], int] = {}
        self._strategy(st, (), out, maximiser=True)
        return out

    def counter_strategy(self, st: ChainState) -> dict[tuple[int, ...], int]:
        """The minimisers' best replies under every play of the mover (proves "no better")."""
        out: dict[tuple[int, ...], int] = {}
        self._strategy(st, (), out, maximiser=False)
        return out

    def _strategy(self, st: ChainState, hist: tuple[int, ...], out: dict[tuple[int, ...], int],
                  maximiser: bool) -> None:
        node = self.turn.expand(st)
        if node.kind == "end":
            return
        if node.kind == "auto":
            self._strategy(node.options[0].state, hist + (STOP,), out, maximiser)
            return
        mine = (node.chooser == self.turn.mover) == maximiser
        if mine:
            o = self.best(st)
            assert o is not None
            out[hist] = o.code
            self._strategy(o.state, hist + (o.code,), out, maximiser)
        else:
            for o in node.options:
                self._strategy(o.state, hist + (o.code,), out, maximiser)


@dataclass
class WitchValue:
    """One witch choice: its field, the die target, and its minimax and cooperative values."""

    origin: int
    target: int | None
    reasons: list[str]
    value: int | None = None
    coop: int | None = None


@dataclass
class Line:
    """A chain: the witch, the fields visited (origin first), its steps and decisions."""

    witch: int
    value: int
    chain: list[int]
    steps: list[Step]
    plan: TurnPlan
    final: Position


@dataclass
class ChainSolution:
    """The answer of :func:`solve_chain`."""

    roll: int
    value: int | None
    witch: int | None
    line: Line | None
    coop: Line | None
    witches: list[WitchValue]
    nodes: int
    seconds: float
    rules: Rules = field(default_factory=Rules)


def _line(turn: Turn, search: ChainSearch, target: int) -> Line:
    st = turn.start(target)
    steps, end = search.line(st)
    chain = [turn.origin, target] + [s.to for s in steps if s.to is not None]
    plan = TurnPlan(turn.origin, tuple(turn_plan_of(steps)))
    return Line(turn.origin, search.value(st), chain, steps, plan, turn.final_position(end))


def solve_chain(pos: Position, edition: HexenEdition, roll: int, rules: Rules | None = None,
                measure: Measure = field_measure, meter: Meter | None = None) -> ChainSolution:
    """Minimax and cooperative value of every witch choice for ``roll``; the optimal chain.

    ``meter`` (optional) counts the states of every search and raises
    :class:`~gnomekit.solver.core.budget.BudgetExhausted` when its budget runs out.
    """
    rules = rules or Rules()
    t0 = time.perf_counter()
    ws = [WitchValue(o, t, why) for o, t, why in movable_witches(pos, edition, roll, rules)]
    nodes = 0
    best: tuple[int, int] | None = None
    best_c: tuple[int, int] | None = None
    lines: dict[tuple[int, bool], Line] = {}
    for w in ws:
        if w.target is None:
            continue
        turn = Turn(pos, edition, w.origin, rules)
        for helping in (False, True):
            s = ChainSearch(turn, cooperative=helping, measure=measure, meter=meter)
            ln = _line(turn, s, w.target)
            nodes += s.nodes
            lines[(w.origin, helping)] = ln
            if helping:
                w.coop = ln.value
                if best_c is None or ln.value > best_c[0]:
                    best_c = (ln.value, w.origin)
            else:
                w.value = ln.value
                if best is None or ln.value > best[0]:
                    best = (ln.value, w.origin)
    line: Line | None = lines[(best[1], False)] if best else None
    coop: Line | None = lines[(best_c[1], True)] if best_c else None
    return ChainSolution(roll, best[0] if best else None, best[1] if best else None, line, coop, ws, nodes,
                         time.perf_counter() - t0, rules)
