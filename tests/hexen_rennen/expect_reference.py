"""A deliberately naive expectimax for ``solve --expect``: the second exact method the tests compare with.

No memo, no tile classes, no pruning, Fractions everywhere.  It walks the turn engine
(:meth:`models.hexen_rennen.turn.Turn.expand`, the tested single source of the rules) and,
whenever the witch lands on a face-down tile, branches over every identity (clan, value)
still face down in that stage, weighted by its multiplicity: the enumeration of every
assignment of the face-down tiles a chain turns over, in the order it turns them over
(a decision can depend on the tiles turned over before it, never on later ones).
Exponential: only for small positions.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from gnomekit.models.hexen_rennen.edition import HexenEdition
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.turn import ChainState, Rules, Turn

Pools = tuple[Counter[tuple[int, int]], ...]


class TooBig(RuntimeError):
    """The naive walk visited more than its ``limit`` of landings (the position is too big for it)."""


def _pools(turn: Turn) -> Pools:
    n = turn.edition.stage_length
    pools: list[Counter[tuple[int, int]]] = [Counter() for _ in range(turn.edition.stages)]
    for t, tile in enumerate(turn.pos.track, start=1):
        if not tile.face_up:
            pools[(t - 1) // n][(turn.tclan[t], turn.tval[t])] += 1
    return tuple(pools)


def _walk(turn: Turn, st: ChainState, pools: Pools, drawn: frozenset[int], budget: list[int]) -> Fraction:
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig("the naive expectimax gave up")
    at = st.at
    if not st.done and 1 <= at <= turn.L and not st.up >> at & 1 and at not in drawn:
        s = (at - 1) // turn.edition.stage_length
        total = sum(pools[s].values())
        saved = (turn.tclan[at], turn.tval[at])
        acc = Fraction(0)
        for ident, m in sorted(pools[s].items()):
            if m == 0:
                continue
            rest = pools[s].copy()
            rest[ident] -= 1
            turn.tclan[at], turn.tval[at] = ident
            try:
                sub = _walk(turn, st, pools[:s] + (rest,) + pools[s + 1:], drawn | {at}, budget)
                acc += Fraction(m, total) * sub
            finally:
                turn.tclan[at], turn.tval[at] = saved
        return acc
    node = turn.expand(st)
    if node.kind == "end":
        return Fraction(st.at)
    if node.kind == "auto":
        return _walk(turn, node.options[0].state, pools, drawn, budget)
    vals = [_walk(turn, o.state, pools, drawn, budget) for o in node.options]
    return max(vals) if node.chooser == turn.mover else min(vals)


def reference_value(pos: Position, edition: HexenEdition, origin: int, roll: int,
                    rules: Rules | None = None, limit: int | None = None) -> Fraction | None:
    """The expected final field of moving the witch on ``origin`` with ``roll`` (None: it cannot move).

    ``limit``: raise :class:`TooBig` after that many landings.
    """
    turn = Turn(pos, edition, origin, rules)
    target, _ = turn.die_target(roll)
    if target is None:
        return None
    budget = [limit if limit is not None else 1 << 62]
    return _walk(turn, turn.start(target), _pools(turn), frozenset(), budget)


Table = dict[int, dict[int, Fraction | None]]


def reference_turn(pos: Position, edition: HexenEdition, rules: Rules | None = None,
                   limit: int | None = None) -> tuple[Table, dict[int, Fraction | None], Fraction]:
    """Every (witch, roll) value, the best per roll and the mean of the best over rolls where a witch moves."""
    faces = list(edition.die)
    rolls = sorted(set(faces))
    origins = sorted(set(pos.witches_of(pos.to_move)))
    table = {o: {r: reference_value(pos, edition, o, r, rules, limit) for r in rolls} for o in origins}
    best: dict[int, Fraction | None] = {}
    num, den = Fraction(0), Fraction(0)
    for r in rolls:
        vals = [v for o in origins if (v := table[o][r]) is not None]
        best[r] = max(vals) if vals else None
        if vals:
            w = Fraction(faces.count(r), len(faces))
            num += w * max(vals)
            den += w
    return table, best, (num / den if den else Fraction(0))
