"""Expectimax before rolling: the expected final field of every witch for every roll.

Chance enters twice: the die (uniform over the edition's faces) and every landing
on a face-down tile, whose identity is drawn uniformly from the tiles still face
down in that stage (the stage's remaining multiset, less what this chain already
turned over).  Decisions are as in the optimal chain: the mover maximises the
expectation, every other clan minimises it.  Neutral decks are drawn in their
listed order (the position states them, as in puzzles).

The search reuses the turn engine: the identity drawn for a tile is written into
the turn's tile table before the engine looks at it; memo keys carry the draws.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from models.hexen_rennen.edition import HexenEdition
from models.hexen_rennen.position import Position
from models.hexen_rennen.turn import ChainState, Rules, Turn

Assign = tuple[tuple[int, tuple[int, int]], ...]  # (tile, (clan index, value)) drawn so far, sorted


class BudgetExceeded(RuntimeError):
    """The expectimax tree grew past its node budget (early-game positions with full hands)."""


class ExpectSearch:
    """Exact expectimax (fractions) over one turn's chain with face-down tiles as chance nodes."""

    def __init__(self, turn: Turn, exact: bool = False, up: int | None = None, max_nodes: int | None = None) -> None:
        """``up``: the face-up mask to draw from (default: the position's; mid-chain: the chain's).

        ``max_nodes``: raise :class:`BudgetExceeded` past this many distinct states.
        """
        self.max_nodes = max_nodes
        self.turn = turn
        self.exact = exact
        L = turn.L
        self.true_clan = list(turn.tclan)
        self.true_val = list(turn.tval)
        self.stage_len = turn.edition.stage_length
        pools: list[Counter[tuple[int, int]]] = [Counter() for _ in range(turn.edition.stages)]
        mask = turn.initial_up() if up is None else up
        for t in range(1, L + 1):
            if not mask >> t & 1:
                pools[(t - 1) // self.stage_len][(turn.tclan[t], turn.tval[t])] += 1
        self.pools = pools
        self.memo: dict[tuple[ChainState, Assign], Any] = {}
        self.nodes = 0

    def _apply(self, assign: Assign) -> None:
        for t, (c, v) in assign:
            self.turn.tclan[t] = c
            self.turn.tval[t] = v

    def value(self, st: ChainState) -> Any:
        """The expectimax value from ``st``; the turn's tile tables are restored afterwards."""
        try:
            return self._value(st, ())
        finally:
            self.turn.tclan[:] = self.true_clan
            self.turn.tval[:] = self.true_val

    def _value(self, st: ChainState, assign: Assign) -> Any:
        key = (st, assign)
        v = self.memo.get(key)
        if v is not None:
            return v
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded(f"expectimax gave up after {self.max_nodes} states")
        turn = self.turn
        at = st.at
        if not st.done and 1 <= at <= turn.L and not (st.up >> at & 1) and at not in dict(assign):
            stage = (at - 1) // self.stage_len
            pool = self.pools[stage].copy()
            for t, ident in assign:
                if (t - 1) // self.stage_len == stage:
                    pool[ident] -= 1
            total = sum(pool.values())
            acc: Any = Fraction(0) if self.exact else 0.0
            for ident, m in sorted(pool.items()):
                if m <= 0:
                    continue
                sub = self._value(st, tuple(sorted(assign + ((at, ident),))))
                acc += (Fraction(m, total) if self.exact else m / total) * sub
            v = acc
        else:
            self._apply(assign)
            node = turn.expand(st)
            if node.kind == "end":
                v = Fraction(st.at) if self.exact else float(st.at)
            elif node.kind == "auto":
                v = self._value(node.options[0].state, assign)
            else:
                opts = list(node.options)
                vals = []
                for o in opts:
                    vals.append(self._value(o.state, assign))
                    self._apply(assign)
                v = max(vals) if node.chooser == turn.mover else min(vals)
        self.memo[key] = v
        return v


@dataclass
class WitchExpect:
    origin: int
    by_roll: dict[int, float | None]  # None: this witch cannot move with that roll
    overall: float  # mean over the die; a witch that cannot move counts as staying


@dataclass
class ExpectResult:
    rolls: list[int]
    witches: list[WitchExpect]
    best_by_roll: dict[int, tuple[float | None, int | None]]
    overall: float
    p_no_move: float
    nodes: int
    seconds: float
    rules: Rules = field(default_factory=Rules)

    def to_json(self) -> dict[str, Any]:
        return {
            "rolls": self.rolls,
            "witches": [{"field": w.origin, "by_roll": {str(r): w.by_roll[r] for r in self.rolls},
                         "overall": w.overall} for w in self.witches],
            "best_by_roll": {str(r): {"value": v, "witch": b} for r, (v, b) in self.best_by_roll.items()},
            "value": self.overall, "p_no_move": self.p_no_move, "measure": "expected final field",
            "rules": self.rules.names(), "stats": {"nodes": self.nodes, "seconds": round(self.seconds, 4)},
        }


def _or(v: float | None, default: int) -> float:
    return float(default) if v is None else v


def expect_witch(pos: Position, edition: HexenEdition, origin: int, roll: int, rules: Rules | None = None,
                 exact: bool = False, max_nodes: int | None = None) -> tuple[Any, int]:
    """Expected final field of moving the witch on ``origin`` with ``roll`` (None if it cannot), and nodes."""
    turn = Turn(pos, edition, origin, rules)
    target, _ = turn.die_target(roll)
    if target is None:
        return None, 0
    s = ExpectSearch(turn, exact, max_nodes=max_nodes)
    return s.value(turn.start(target)), s.nodes


def expect_turn(pos: Position, edition: HexenEdition, rules: Rules | None = None,
                rolls: list[int] | None = None, max_nodes: int | None = None) -> ExpectResult:
    """Expectimax over the die and the face-down tiles for every witch of the clan to move.

    ``max_nodes`` bounds each (witch, roll) search; past it :class:`BudgetExceeded` is raised.
    """
    rules = rules or Rules()
    t0 = time.perf_counter()
    faces = list(edition.die)
    rolls = rolls or sorted(set(faces))
    origins = sorted(set(pos.witches_of(pos.to_move)))
    nodes = 0
    table: dict[int, dict[int, float | None]] = {o: {} for o in origins}
    for r in rolls:
        for o in origins:
            v, n = expect_witch(pos, edition, o, r, rules, max_nodes=max_nodes)
            nodes += n
            table[o][r] = None if v is None else float(v)
    weights = {r: faces.count(r) / len(faces) for r in rolls}
    norm = sum(weights.values())
    witches = []
    for o in origins:
        overall = sum(weights[r] * _or(table[o][r], o) for r in rolls) / norm
        witches.append(WitchExpect(o, table[o], overall))
    best: dict[int, tuple[float | None, int | None]] = {}
    num, den, none_w = 0.0, 0.0, 0.0
    for r in rolls:
        cand = [(table[o][r], o) for o in origins if table[o][r] is not None]
        if not cand:
            best[r] = (None, None)
            none_w += weights[r]
            continue
        v = max(c[0] for c in cand if c[0] is not None)
        b = min(o for val, o in cand if val == v)
        best[r] = (v, b)
        num += weights[r] * v
        den += weights[r]
    return ExpectResult(rolls, witches, best, num / den if den else 0.0, none_w / norm, nodes,
                        time.perf_counter() - t0, rules)
