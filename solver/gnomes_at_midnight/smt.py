"""A second exact method: "the side to move wins within k turns" on z3, by counterexample-guided refinement.

The rules are encoded afresh here (no code shared with the models layer or the
search kernel): a square is four booleans (at least one / two gnomes of each
colour), off-board counts and each side's deck pointer are integers, a turn of
the side that is *guessed* is a one-hot choice over every step, pair step, add
and pass, with its legality, its effect and the win conditions as formulas.

Expanding every opponent reply at every level blows up at k = 3, so the
quantifier alternation (exists move, for all replies, exists move, ...) is
solved by a counterexample-guided loop in the style of RAReQS:

1. *Abstraction*: a z3 formula that guesses the mover's first move and, for every
   opponent reply collected so far (a tree of concrete replies), guesses the
   mover's answers further down.  It over-approximates "wins within k".
2. If unsatisfiable: no forced win, and the reply tree is the proof.
3. Otherwise take the guessed first move, evaluate the state after it from the
   model, and look for a refuting reply: one that wins for the opponent at once,
   or after which the mover cannot win within k - 1 (a recursive call).  None:
   the guess wins.  Found: add the reply, with the subtree that refuted it, to
   the abstraction and repeat.

Deck orders must be known over the horizon (open decks, at least k - 1 known
cards per side): flips are then deterministic given how many cards a side has
turned, which a pass does not change.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import z3
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.solver.core.budget import Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.core.smt import check

Bx: TypeAlias = bool | z3.BoolRef
Ix: TypeAlias = int | z3.ArithRef
Action = tuple[int, int, int]  # (kind 0 step / 1 pair / 2 add / 3 pass, src, dst)
PASS_A: Action = (3, -1, -1)
LETTERS = "GTC"


# -- constant-folding helpers ------------------------------------------------------------------------

def AND(*xs: Bx) -> Bx:
    out = []
    for x in xs:
        if x is False:
            return False
        if x is True:
            continue
        out.append(x)
    if not out:
        return True
    return out[0] if len(out) == 1 else z3.And(out)


def OR(*xs: Bx) -> Bx:
    out = []
    for x in xs:
        if x is True:
            return True
        if x is False:
            continue
        out.append(x)
    if not out:
        return False
    return out[0] if len(out) == 1 else z3.Or(out)


def NOT(x: Bx) -> Bx:
    return (not x) if isinstance(x, bool) else z3.Not(x)


def ITE(c: Bx, a: Any, b: Any) -> Any:
    if c is True:
        return a
    if c is False:
        return b
    if isinstance(a, (bool, int)) and isinstance(b, (bool, int)) and type(a) is type(b) and a == b:
        return a
    if a is True and b is False:
        return c
    if a is False and b is True:
        return NOT(c)
    return z3.If(c, _z(a), _z(b))


def EQ(a: Ix, b: int) -> Bx:
    return a == b if isinstance(a, int) else (a == b)


def GE(a: Ix, b: int) -> Bx:
    return a >= b if isinstance(a, int) else (a >= b)


def _z(x: Any) -> Any:
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, int):
        return z3.IntVal(x)
    return x


@dataclass
class St:
    """A state: per square one/two green, one/two blue; off-board counts; cards turned per side."""

    g1: list[Bx]
    g2: list[Bx]
    b1: list[Bx]
    b2: list[Bx]
    off: list[Ix]
    ptr: list[Ix]
    mover: int

    def own(self, side: int) -> tuple[list[Bx], list[Bx], list[Bx], list[Bx]]:
        return (self.g1, self.g2, self.b1, self.b2) if side == 0 else (self.b1, self.b2, self.g1, self.g2)


@dataclass
class Tree:
    """Opponent replies collected for one mover node, each with the subtree that refuted a guess."""

    kids: dict[Action, Tree] = field(default_factory=dict)

    def merge(self, other: Tree) -> None:
        for r, t in other.kids.items():
            if r in self.kids:
                self.kids[r].merge(t)
            else:
                self.kids[r] = t

    def size(self) -> int:
        return 1 + sum(t.size() for t in self.kids.values())


class SmtGame:
    """The encoding of one position's rules (board, decks, dance) and the refinement loop."""

    def __init__(self, pos: Position, meter: Meter | None = None) -> None:
        self.meter = meter  # each z3 query ticks it and gets the seconds left as its timeout
        b = pos.board
        self.rows, self.cols = b.rows, b.cols
        self.n = b.rows * b.cols
        self.terr = [LETTERS.index(b.terrain[i // b.cols][i % b.cols]) for i in range(self.n)]
        self.flowers = [[r * b.cols + c for r, c in b.flowers[s]] for s in (0, 1)]
        self.toads = [r * b.cols + c for r, c in b.toadstools]
        self.limit = pos.bump_limit
        self.restrict = pos.moon_restricts_adding
        # cards[s][p]: the face-up terrain after side s has turned p cards in the horizon (-1: none)
        self.cards = [[pos.moon[s]] + list(pos.known[s]) for s in (0, 1)]
        self.placements = self._placements(pos.dance)
        self.moves: list[Action] = []
        for i in range(self.n):
            r, c = divmod(i, self.cols)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                        j = (r + dr) * self.cols + c + dc
                        self.moves += [(0, i, j), (1, i, j)]
        self.counter = 0
        self.queries = 0
        self.memo: dict[tuple[Any, ...], tuple[bool, Action | None, Tree]] = {}
        self.pos = pos

    def _placements(self, pattern: tuple[tuple[int, int], ...]) -> list[list[int]]:
        shapes = set()
        pts = list(pattern)
        for flip in (False, True):
            cur = [(r, -c) if flip else (r, c) for r, c in pts]
            for _ in range(4):
                cur = [(-c, r) for r, c in cur]
                mr, mc = min(r for r, _ in cur), min(c for _, c in cur)
                shapes.add(tuple(sorted((r - mr, c - mc) for r, c in cur)))
        out = set()
        for sh in shapes:
            for dr in range(self.rows):
                for dc in range(self.cols):
                    if all(r + dr < self.rows and c + dc < self.cols for r, c in sh):
                        out.add(tuple(sorted((r + dr) * self.cols + c + dc for r, c in sh)))
        return [list(p) for p in sorted(out)]

    def initial(self, pos: Position) -> St:
        v = pos.cells
        return St([x >= 1 for x in v], [x >= 2 for x in v], [x <= -1 for x in v], [x <= -2 for x in v],
                  [pos.off[0], pos.off[1]], [0, 0], pos.to_move)

    def actions(self, side: int) -> list[Action]:
        return self.moves + [(2, -1, f) for f in self.flowers[side]] + [PASS_A]

    # -- the rules as formulas ------------------------------------------------------------------
    def moonlit(self, st: St, side: int, terrain: int) -> Bx:
        ptr = st.ptr[side]
        return OR(*[EQ(ptr, p) for p, t in enumerate(self.cards[side]) if t == terrain])

    def legal(self, st: St, side: int, a: Action, lit: list[Bx]) -> Bx:
        own1, own2, opp1, _opp2 = st.own(side)
        kind, i, j = a
        if kind == 0:
            return AND(own1[i], NOT(own2[j]), NOT(lit[self.terr[i]]), NOT(lit[self.terr[j]]))
        if kind == 1:
            return AND(own2[i], NOT(own1[j]), NOT(lit[self.terr[i]]), NOT(lit[self.terr[j]]))
        if kind == 2:
            return AND(GE(st.off[side], 1), NOT(own2[j]), NOT(opp1[j]),
                       NOT(lit[self.terr[j]]) if self.restrict else True)
        raise ValueError("pass legality is the absence of other moves")

    def apply(self, st: St, side: int, sel: dict[Action, Bx]) -> St:
        """The state after the (one) selected action; ``sel`` maps actions to selectors."""
        own1, own2, opp1, opp2 = st.own(side)
        src1: list[list[Bx]] = [[] for _ in range(self.n)]
        src2: list[list[Bx]] = [[] for _ in range(self.n)]
        dst1: list[list[Bx]] = [[] for _ in range(self.n)]
        dst2: list[list[Bx]] = [[] for _ in range(self.n)]
        addc: list[list[Bx]] = [[] for _ in range(self.n)]
        adding: list[Bx] = []
        passing: Bx = False
        for a, s in sel.items():
            if s is False:
                continue
            kind, i, j = a
            if kind == 0:
                src1[i].append(s)
                dst1[j].append(s)
            elif kind == 1:
                src2[i].append(s)
                dst2[j].append(s)
            elif kind == 2:
                addc[j].append(s)
                adding.append(s)
            else:
                passing = s
        n1, n2, m1, m2 = [], [], [], []
        bumped: Ix = 0
        for c in range(self.n):
            s1, s2, d1, d2, ad = OR(*src1[c]), OR(*src2[c]), OR(*dst1[c]), OR(*dst2[c]), OR(*addc[c])
            dmove = OR(d1, d2)
            n1.append(ITE(OR(dmove, ad), True, ITE(s2, False, ITE(s1, own2[c], own1[c]))))
            n2.append(ITE(d2, True, ITE(OR(d1, ad), own1[c], ITE(OR(s1, s2), False, own2[c]))))
            m1.append(ITE(dmove, False, opp1[c]))
            m2.append(ITE(dmove, False, opp2[c]))
            if dmove is not False:
                bumped = _add(bumped, ITE(AND(dmove, opp2[c]), 2, ITE(AND(dmove, opp1[c]), 1, 0)))
        off = list(st.off)
        off[1 - side] = _add(off[1 - side], bumped)
        off[side] = _add(off[side], ITE(OR(*adding), -1, 0))
        ptr = list(st.ptr)
        ptr[side] = _add(ptr[side], ITE(passing, 0, 1))
        if side == 0:
            return St(n1, n2, m1, m2, off, ptr, 1 - st.mover)
        return St(m1, m2, n1, n2, off, ptr, 1 - st.mover)

    def wins(self, st: St, side: int) -> Bx:
        own1 = st.own(side)[0]
        return OR(AND(*[own1[t] for t in self.toads]) if self.toads else False,
                  GE(st.off[1 - side], self.limit),
                  *[AND(*[own1[c] for c in pl]) for pl in self.placements])

    def ply(self, st: St, side: int, tag: str) -> tuple[Bx, dict[Action, Bx], St]:
        """A guessed turn: (constraints, selectors, next state)."""
        lit = [self.moonlit(st, side, t) for t in range(3)]
        legal = {a: self.legal(st, side, a, lit) for a in self.actions(side) if a != PASS_A}
        sel: dict[Action, Bx] = {}
        cons: list[Bx] = []
        for a, lg in legal.items():
            if lg is False:
                continue
            v = z3.Bool(f"{tag}:{a[0]}:{a[1]}:{a[2]}")
            sel[a] = v
            cons.append(z3.Implies(v, _z(lg)))
        no_move = AND(*[NOT(lg) for lg in legal.values()])
        if no_move is not False:
            v = z3.Bool(f"{tag}:pass")
            sel[PASS_A] = v
            cons.append(z3.Implies(v, _z(no_move)))
        if not sel:  # pragma: no cover - pass is always available when nothing else is
            return False, sel, st
        cons.append(z3.PbEq([(v, 1) for v in sel.values()], 1))  # type: ignore[arg-type]
        return AND(*cons), sel, self.apply(st, side, sel)

    def reply(self, st: St, side: int, r: Action) -> tuple[Bx, St]:
        """A fixed turn ``r``: (its legality, next state)."""
        lit = [self.moonlit(st, side, t) for t in range(3)]
        if r == PASS_A:
            lg = AND(*[NOT(self.legal(st, side, a, lit)) for a in self.actions(side) if a != PASS_A])
        else:
            lg = self.legal(st, side, r, lit)
        return lg, self.apply(st, side, {r: True})

    # -- abstraction and refinement -------------------------------------------------------------
    def encode(self, st: St, k: int, tree: Tree, tag: str) -> tuple[Bx, dict[Action, Bx], St]:
        me = st.mover
        cons, sel, after = self.ply(st, me, tag)
        win = self.wins(after, me)
        if k == 1:
            return AND(cons, win), sel, after
        parts: list[Bx] = []
        for r, sub in tree.kids.items():
            lg, st2 = self.reply(after, 1 - me, r)
            if lg is False:
                continue
            inner, _s, _a = self.encode(st2, k - 1, sub, f"{tag}/{r[0]}.{r[1]}.{r[2]}")
            parts.append(OR(NOT(lg), AND(NOT(self.wins(st2, 1 - me)), inner)))
        return AND(cons, OR(win, AND(*parts))), sel, after

    def concrete(self, st: St, model: z3.ModelRef) -> St:
        def ev(x: Any) -> Any:
            if isinstance(x, (bool, int)):
                return x
            v = model.eval(x, model_completion=True)
            return z3.is_true(v) if z3.is_bool(v) else v.as_long()  # type: ignore[union-attr]

        return St([ev(x) for x in st.g1], [ev(x) for x in st.g2], [ev(x) for x in st.b1],
                  [ev(x) for x in st.b2], [ev(x) for x in st.off], [ev(x) for x in st.ptr], st.mover)

    def solve(self, st: St, k: int) -> tuple[bool, Action | None, Tree]:
        """Does the mover of the concrete state ``st`` win within ``k``?  (yes, first move, refutation tree).

        Answers are remembered per concrete state and k (sub-problems recur across guesses)."""
        key = (tuple(st.g1), tuple(st.g2), tuple(st.b1), tuple(st.b2), tuple(st.off), tuple(st.ptr), st.mover, k)
        if key not in self.memo:
            self.memo[key] = self._solve(st, k)
        return self.memo[key]

    def _solve(self, st: St, k: int) -> tuple[bool, Action | None, Tree]:
        tree = Tree()
        me = st.mover
        while True:
            self.counter += 1
            formula, sel, after = self.encode(st, k, tree, f"n{self.counter}")
            if formula is False:
                return False, None, tree
            solver = z3.Solver()
            solver.add(_z(formula))
            self.queries += 1
            if self.meter is not None:
                self.meter.tick()
            c = check(solver, seconds=self.meter.seconds_left() if self.meter is not None else None)
            if c.unknown:  # a timeout (or z3 giving up) is not a "no"
                raise BudgetExhausted(f"z3: {c.reason}", kind="solver")
            if c.unsat:
                return False, None, tree
            model = c.model
            move = next(a for a, v in sel.items() if v is True or z3.is_true(model.eval(v, model_completion=True)))
            st1 = self.concrete(after, model)
            if self.wins(st1, me) is True:
                return True, move, tree
            refuted = self._refute(st1, k)
            if refuted is None:
                return True, move, tree
            r, sub = refuted
            if r in tree.kids:
                tree.kids[r].merge(sub)
            else:
                tree.kids[r] = sub

    def _refute(self, st1: St, k: int) -> tuple[Action, Tree] | None:
        """A reply of the opponent (to move in concrete ``st1``) that the mover cannot beat within k - 1."""
        opp = st1.mover
        cands = []
        for r in self.actions(opp):
            lg, st2 = self.reply(st1, opp, r)
            if lg is True:
                cands.append((r, st2))
        for r, st2 in cands:
            if self.wins(st2, opp) is True:
                return r, Tree()
        if k == 1:
            return cands[0][0], Tree()
        for r, st2 in cands:
            ok, _m, sub = self.solve(st2, k - 1)
            if not ok:
                return r, sub
        return None


def action_text(a: Action, cols: int) -> str:
    kind, i, j = a
    if kind == 3:
        return "pass"
    d = f"{j // cols},{j % cols}"
    if kind == 2:
        return "+" + d
    return f"{i // cols},{i % cols}{'=' if kind == 1 else '-'}{d}"


def smt_wins_within(pos: Position, k: int, budget: Budget | Meter | None = None) -> Result:
    """Does the side to move force a win within ``k`` turns?  (open decks, at least k - 1 known cards a side)

    Result: SATISFIED with witness = a winning first move, or UNSATISFIABLE;
    stats: z3 queries, abstraction nodes, final refutation tree size.  A ``budget`` (states =
    z3 queries, seconds) that runs out, or z3 answering unknown, gives UNKNOWN (value None).
    """
    if k < 1:
        raise UsageError("k must be 1 or more")
    for s in (0, 1):
        if len(pos.known[s]) < k - 1:
            raise UsageError(f"the SMT method needs open decks with at least {k - 1} known cards a side")
    t0 = time.perf_counter()
    meter = budget if isinstance(budget, Meter) else budget.meter() if budget is not None else None
    g = SmtGame(pos, meter)
    try:
        ok, move, tree = g.solve(g.initial(pos), k)
    except BudgetExhausted as exc:
        return Result(Status.UNKNOWN, None, None, {"queries": g.queries, "abstractions": g.counter,
                                                   "exhausted": exc.what}, time.perf_counter() - t0)
    stats = {"queries": g.queries, "abstractions": g.counter, "tree": tree.size()}
    return Result(Status.SATISFIED if ok else Status.UNSATISFIABLE, ok,
                  action_text(move, g.cols) if move else None, stats, time.perf_counter() - t0)


def _add(a: Ix, b: Ix) -> Ix:
    if isinstance(b, int) and b == 0:
        return a
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return _z(a) + _z(b)
