"""``gnomekit.solve`` and ``gnomekit.hint`` for Hexen Rennen: thin wrappers over the chain search and the expectimax.

Every answer is one :class:`~gnomekit.solver.core.result.Result`.  Witnesses are protocol moves
(:mod:`gnomekit.models.hexen_rennen.game`), so ``pos.apply`` plays them:

* ``chain`` / ``cooperative`` (after the roll, or inside a chain; before the roll with
  ``roll=R``): ``value`` the final field of the moved witch, ``witness`` the moves of the
  principal line from here (the roll, the witch, every decision of every clan);
  ``Status.UNSATISFIABLE`` with the ``pass`` when no witch can move.
* ``expect`` (before the roll; after it for that roll only; inside a chain from there):
  ``value`` the exact expected final field (a Fraction), ``witness`` the witch to move for each
  roll (or the best decision inside a chain), ``stats["expect"]`` the whole table;
  ``Status.UNKNOWN`` with ``bound`` the proven interval when the state budget runs out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gnomekit.models.core.errors import GnomekitError
from gnomekit.models.hexen_rennen.game import PASS, HexenPosition, Move, Play, Roll, Witch
from gnomekit.models.hexen_rennen.notation import turn_to_text
from gnomekit.models.hexen_rennen.turn import ChainState, Turn, choice_name
from gnomekit.solver.core.budget import Budget, BudgetExhausted
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hexen_rennen.chain import ChainSearch, decision_order, solve_chain
from gnomekit.solver.hexen_rennen.expect import BudgetExceeded, ExpectSearch, expect_result

GOALS: dict[str, str] = {
    "chain": "the optimal chain for the roll: the mover maximises the moved witch's final field, every other "
             "clan minimises it (value: that field; witness: the moves of the principal line; before the roll "
             "give roll=R)",
    "cooperative": "the chain when every clan helps the mover (value: the best final field any legal chain "
                   "reaches; witness: its moves)",
    "expect": "before rolling: the exact expected final field with the best witch for each roll, face-down "
              "tiles drawn from their stage (value: a Fraction; witness: roll -> witch field; roll=R: that "
              "roll only; default budget 150,000 states)",
}

#: The state budget of ``expect`` when none is given (as ``solve --expect``'s default).
EXPECT_STATES = 150_000

METHODS: dict[str, tuple[str, ...]] = {
    "chain": ("search", "z3"),
    "cooperative": ("search", "z3"),
    "expect": ("refine", "alphabeta"),
}


def _goal(pos: HexenPosition, goal: str | None) -> str:
    if goal is None:
        return "expect" if pos.phase == "roll" else "chain"
    if goal not in GOALS:
        raise GnomekitError(f"unknown goal {goal!r} for hexen-rennen; expected one of {', '.join(GOALS)}")
    return goal


def _method(goal: str, method: str | None) -> str:
    allowed = METHODS[goal]
    if method is None:
        return allowed[0]
    if method not in allowed:
        raise GnomekitError(f"goal {goal!r} has the methods {', '.join(allowed)}, not {method!r}")
    return method


def _position(pos: Any) -> HexenPosition:
    if not isinstance(pos, HexenPosition):
        raise GnomekitError(f"not a Hexen Rennen position: {type(pos).__name__}")
    return pos


def _rolled(pos: HexenPosition, roll: int | None) -> tuple[HexenPosition, list[Move]]:
    """The position after the roll (``roll`` given before it) and the moves that led there."""
    if pos.phase == "over":
        raise GnomekitError("the race is over: there is nothing to solve")
    if pos.phase == "roll":
        if roll is None:
            raise GnomekitError("before the roll a chain needs the roll: give roll=R (or goal='expect')")
        r = Roll(roll)
        return pos.apply(r), [r]
    if roll is not None and roll != pos.roll:
        raise GnomekitError(f"the die already shows {pos.roll}, not {roll}")
    return pos, []


def solve(pos: Any, goal: str | None = None, budget: Budget | None = None, method: str | None = None,
          **options: Any) -> Result:
    """Answer ``goal`` (see :data:`GOALS`; default ``expect`` before the roll, else ``chain``) for ``pos``.

    Options: ``roll`` (the die, for a position before the roll).  ``budget``: states (and, for the
    chain goals, seconds); a budget that runs out answers ``Status.UNKNOWN``, never "no".
    """
    p = _position(pos)
    g = _goal(p, goal)
    m = _method(g, method)
    roll = options.pop("roll", None)
    if options:
        raise GnomekitError(f"unknown option(s) for hexen-rennen solve: {', '.join(sorted(options))}")
    if g == "expect":
        return _expect(p, roll, budget, m)
    return _chain(p, roll, budget, cooperative=g == "cooperative", method=m)


# -- chains ---------------------------------------------------------------------------------------


def _line_moves(turn: Turn, search: ChainSearch, st: ChainState) -> list[Move]:
    """The decisions of the principal line from ``st`` as protocol moves."""
    out: list[Move] = []
    while True:
        node = turn.expand(st)
        if node.kind == "end":
            return out
        best = search.best(st)
        assert best is not None
        if node.kind == "choice":
            out.append(Play(turn.clans[node.chooser or 0], best.code))
        st = best.state


def _chain(p: HexenPosition, roll: int | None, budget: Budget | None, cooperative: bool, method: str) -> Result:
    q, lead = _rolled(p, roll)
    meter = (budget or Budget()).meter()
    g = q.game
    try:
        if q.phase == "witch":
            assert q.roll is not None
            sol = solve_chain(q.base, g.edition, q.roll, g.rules, meter=meter)
            line = sol.coop if cooperative else sol.line
            stats: dict[str, Any] = {"states": sol.nodes,
                                     "witches": {w.origin: (w.value, w.coop) for w in sol.witches}}
            if line is None:
                return Result(Status.UNSATISFIABLE, None, [*lead, PASS], stats, meter.elapsed())
            turn = Turn(q.base, g.edition, line.witch, g.rules)
            search = ChainSearch(turn, cooperative=cooperative)
            moves: list[Move] = [*lead, Witch(line.witch), *_line_moves(turn, search, turn.start(line.chain[1]))]
            stats["turn"] = turn_to_text(line.plan)
            if method == "z3":
                stats["verified"] = _verify(q, sol)
                if not stats["verified"].agrees:
                    return Result(Status.UNKNOWN, line.value, moves, stats, meter.elapsed())
            return Result(Status.OPTIMAL, line.value, moves, stats, meter.elapsed())
        pend = q.pending
        assert pend is not None
        if method == "z3":
            raise GnomekitError("the z3 verifier checks whole turns: solve before the witch is chosen")
        search = ChainSearch(pend.turn, cooperative=cooperative, meter=meter)
        v = search.value(pend.state)
        moves = _line_moves(pend.turn, search, pend.state)
        return Result(Status.OPTIMAL, v, moves, {"states": search.nodes}, meter.elapsed())
    except BudgetExhausted as exc:
        return Result(Status.UNKNOWN, None, None, {"states": meter.states, "reason": str(exc)}, meter.elapsed())


def _verify(q: HexenPosition, sol: Any) -> Any:
    from gnomekit.solver.hexen_rennen.smt import verify_solution

    assert q.roll is not None
    return verify_solution(q.base, q.game.edition, q.roll, sol, q.game.rules)


# -- expectations ---------------------------------------------------------------------------------


def _states(budget: Budget | None) -> int:
    if budget is None:
        return EXPECT_STATES
    if budget.seconds is not None:
        raise GnomekitError("the expectation search is bounded by states only: give Budget(states=N)")
    return budget.states if budget.states is not None else EXPECT_STATES


def _expect(p: HexenPosition, roll: int | None, budget: Budget | None, method: str) -> Result:
    g = p.game
    states = _states(budget)
    if p.phase == "over":
        raise GnomekitError("the race is over: there is nothing to expect")
    if p.phase in ("roll", "witch"):
        if p.phase == "witch" and roll is not None and roll != p.roll:
            raise GnomekitError(f"the die already shows {p.roll}, not {roll}")
        r = p.roll if p.phase == "witch" else roll
        if r is not None and r not in g.edition.die:
            raise GnomekitError(f"the die has no face {r} (faces {list(g.edition.die)})")
        if method == "alphabeta":
            return _expect_alphabeta(p, r, states)
        res = expect_result(p.base, g.edition, g.rules, rolls=None if r is None else [r], max_nodes=states)
        w = {k: None if b is None else Witch(b) for k, b in res.witness.items()}
        if p.phase == "witch":
            # after the roll, no movable witch is a pass, not "unknown"
            w = {k: PASS if b is None and res.found else b for k, b in w.items()}
        res.witness = w
        return res
    pend = p.pending
    assert pend is not None
    es = ExpectSearch(pend.turn, exact=True, up=pend.state.up | (1 << pend.state.at), max_nodes=states)
    try:
        vals = [(Fraction(es.raw(o.state), es.chain.D), o.code) for o in pend.node.options]
    except BudgetExceeded:
        lo, hi = es.refine_all([pend.state], states)[0]
        return Result(Status.UNKNOWN, None, None, {"states": es.nodes}, 0.0, (lo, hi))
    mover = pend.node.chooser == pend.turn.mover
    best = (max if mover else min)(v for v, _ in vals)
    code = min((c for v, c in vals if v == best), key=decision_order)
    return Result(Status.OPTIMAL, best, Play(pend.chooser, code), {"states": es.nodes,
                                                                   "options": {choice_name(c): v for v, c in vals}},
                  0.0, (best, best))


def _expect_alphabeta(p: HexenPosition, roll: int | None, states: int) -> Result:
    """The exact alpha-beta/Star1 expectimax (no intervals): UNKNOWN without a bound past the budget."""
    from gnomekit.solver.hexen_rennen.expect import expect_turn

    g = p.game
    try:
        res = expect_turn(p.base, g.edition, g.rules, rolls=None if roll is None else [roll], max_nodes=states)
    except BudgetExceeded as exc:
        return Result(Status.UNKNOWN, None, None, {"reason": str(exc)}, 0.0)
    w = {r: None if b is None else Witch(b) for r, (_, b) in res.best_by_roll.items()}
    return Result(Status.OPTIMAL, res.exact_overall, w, {"states": res.nodes, "expect": res}, res.seconds,
                  (res.exact_overall, res.exact_overall))


# -- hints ----------------------------------------------------------------------------------------


@dataclass
class Hint:
    """A hint for the player to move: the suggested ``move``, why (``text``), the values behind it."""

    move: Any
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    result: Result | None = None

    def __str__(self) -> str:
        return self.text


def hint(pos: Any, budget: Budget | None = None, **options: Any) -> Hint:
    """What the player to move should do here, and why.

    Before the roll: the witch to move for each roll (by the expectation; ``roll=R``: the chain
    for that roll).  After it: the witch and the planned decisions (as ``hint --roll R``).
    Inside a chain: the decision, with the value of every alternative.
    """
    p = _position(pos)
    roll = options.pop("roll", None)
    if options:
        raise GnomekitError(f"unknown option(s) for hexen-rennen hint: {', '.join(sorted(options))}")
    if p.phase == "over":
        raise GnomekitError("the race is over: no move to hint")
    g = p.game
    if p.phase == "roll" and roll is None:
        r = solve(p, "expect", budget)
        res = r.stats["expect"]
        lines = [f"{p.base.to_move} before rolling ({r.status.value}):"]
        for k, w in r.witness.items():
            v, _ = res.best_by_roll[k]
            lines.append(f"  roll {k}: " + ("no witch can move" if w is None and v is None and r.found else
                                             f"move the witch on {w.field} (expected final field {v:.3f})"
                                             if w is not None and v is not None else "not decided yet"))
        # the die moves next, not a player: no move, the advice per roll is in ``data``
        return Hint(None, "\n".join(lines), {"by_roll": r.witness}, r)
    q, lead = _rolled(p, roll)
    if q.phase == "witch":
        from gnomekit.solver.hexen_rennen.hint import hint as turn_hint

        assert q.roll is not None
        h = turn_hint(q.base, g.edition, q.roll, g.rules)
        r = solve(q, "chain", budget)
        first = r.witness[0] if r.witness else None
        return Hint(lead[0] if lead else first, h.text, h.data, r)
    pend = q.pending
    assert pend is not None
    r = solve(q, "chain", budget)
    search = ChainSearch(pend.turn)
    alts = {choice_name(o.code): search.value(o.state) for o in pend.node.options}
    move = r.witness[0] if r.witness else None
    mine = pend.node.chooser == pend.turn.mover
    text = (f"On tile {pend.state.at} {pend.chooser} plays {choice_name(move.code) if move else '?'}"
            + (" (forced: a card must be played)" if pend.node.forced else "")
            + f": the outcomes are {', '.join(f'{k} -> {v}' for k, v in alts.items())}; "
            + ("the mover takes the highest" if mine else f"{pend.chooser} takes the lowest")
            + f", the chain ends on {r.value}.")
    return Hint(move, text, {"at": pend.state.at, "clan": pend.chooser, "values": alts, "value": r.value}, r)
