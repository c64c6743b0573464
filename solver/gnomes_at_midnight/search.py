"""Forced wins for the side to move: iterative deepening AND-OR alpha-beta with a transposition table.

``win(s, n)`` asks whether the mover can force a win within ``n`` of its own
turns (mate-in-n).  Values are booleans, so alpha-beta is a null window: a
mover node stops at the first winning move, an opponent node at the first
refuting reply.  Chance (a moonlight flip whose card is unknown) is a node
where *every* outcome must still win (worst case).  The transposition table is
keyed by a Zobrist hash made canonical under the board symmetries that keep
terrain, toadstools and each colour's flowers; it stores for each state the
least depth proven winning and the greatest proven not winning.

``win_probability`` is the expectimax variant: uniform flips over the cards
left, the opponent minimising the mover's chance to win within ``n`` turns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import COLOURS, TERRAINS
from gnomekit.models.gnomes_at_midnight.position import NO_CARD, Position
from gnomekit.solver.core.budget import BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.gnomes_at_midnight.kernel import K_ADD, K_PASS, Kernel, KMove, State

BIG = 1 << 30


@dataclass
class SearchOptions:
    tt: bool = True
    ordering: bool = True
    symmetry: bool = True
    max_nodes: int | None = None  # stop with SearchBudgetExceeded beyond this many nodes
    meter: Meter | None = None  # a shared budget: every node ticks it (BudgetExhausted when it runs out)


class SearchBudgetExceeded(Exception):
    """The node budget of SearchOptions.max_nodes ran out (the answer is unknown)."""


@dataclass
class Searcher:
    """One search context: kernel, tables and counters (reuse it across depths of one root)."""

    kernel: Kernel
    options: SearchOptions = field(default_factory=SearchOptions)
    nodes: int = 0
    win_tt: dict[int, tuple[int, int]] = field(default_factory=dict)
    lose_tt: dict[int, tuple[int, int]] = field(default_factory=dict)
    best: dict[int, KMove] = field(default_factory=dict)
    history: dict[KMove, int] = field(default_factory=dict)

    def key(self, s: State) -> int:
        return self.kernel.zobrist(s, canonical=self.options.symmetry)

    # -- ordering ---------------------------------------------------------------------------------
    def _score(self, s: State, m: KMove) -> int:
        k = self.kernel
        kind, _i, j = m
        if kind == K_PASS:
            return 0
        sc = self.history.get(m, 0)
        cells = s[0]
        sign = 1 if s[2] == 0 else -1
        if cells[j] * sign < 0:
            sc += 1000 * -cells[j] * sign
        if j in k.toads:
            sc += 300
        if kind == K_ADD:
            sc += 50
        return sc

    def order(self, s: State, moves: list[KMove], hint: KMove | None) -> list[KMove]:
        if not self.options.ordering:
            return moves
        out = sorted(moves, key=lambda m: -self._score(s, m))
        if hint is not None and hint in out:
            out.remove(hint)
            out.insert(0, hint)
        return out

    # -- the AND-OR search ------------------------------------------------------------------------
    def win(self, s: State, n: int) -> bool:
        """Can the mover of ``s`` force a win within ``n`` of its own turns?"""
        self.nodes += 1
        if self.options.max_nodes is not None and self.nodes > self.options.max_nodes:
            raise SearchBudgetExceeded(self.nodes)
        if self.options.meter is not None:
            self.options.meter.tick()
        h = 0
        if self.options.tt:
            h = self.key(s)
            w, nw = self.win_tt.get(h, (BIG, 0))
            if n >= w:
                return True
            if n <= nw:
                return False
        k = self.kernel
        me = s[2]
        moves = k.moves(s)
        pre = k.covers_dance(s[0], me)
        after = []
        for m in moves:
            cells, off, _b = k.apply(s, m)
            if k.wins(cells, off, me, m, pre):
                self._store_win(h, s, 1, m)
                return True
            after.append((m, cells, off))
        if n <= 1:
            self._store_nowin(h, 1)
            return False
        hint = self.best.get(h) if self.options.tt else None
        by_move = {m: (c, o) for m, c, o in after}
        for m in self.order(s, [m for m, _c, _o in after], hint):
            cells, off = by_move[m]
            if all(self.loses(child, n - 1) for _t, _w, child in k.children(s, m, cells, off)):
                self._store_win(h, s, n, m)
                if self.options.ordering:
                    self.history[m] = self.history.get(m, 0) + n * n
                return True
        self._store_nowin(h, n)
        return False

    def loses(self, s: State, n: int) -> bool:
        """Does every reply of the mover of ``s`` lose within ``n`` turns of the *other* side?"""
        self.nodes += 1
        if self.options.meter is not None:
            self.options.meter.tick()
        h = 0
        if self.options.tt:
            h = self.key(s)
            w, nw = self.lose_tt.get(h, (BIG, 0))
            if n >= w:
                return True
            if n <= nw:
                return False
        k = self.kernel
        me = s[2]
        replies = k.moves(s)
        pre = k.covers_dance(s[0], me)
        after = []
        for r in replies:
            cells, off, _b = k.apply(s, r)
            if k.wins(cells, off, me, r, pre):
                if self.options.tt:
                    self.lose_tt[h] = (self.lose_tt.get(h, (BIG, 0))[0], BIG)
                    self.best[h] = r
                return False
            after.append((r, cells, off))
        hint = self.best.get(h) if self.options.tt else None
        by_move = {r: (c, o) for r, c, o in after}
        for r in self.order(s, [r for r, _c, _o in after], hint):
            cells, off = by_move[r]
            for _t, _w, child in k.children(s, r, cells, off):
                if not self.win(child, n):
                    if self.options.tt:
                        w, nw = self.lose_tt.get(h, (BIG, 0))
                        self.lose_tt[h] = (w, max(nw, n))
                        self.best[h] = r
                    if self.options.ordering:
                        self.history[r] = self.history.get(r, 0) + n * n
                    return False
        if self.options.tt:
            w, nw = self.lose_tt.get(h, (BIG, 0))
            self.lose_tt[h] = (min(w, n), nw)
        return True

    def _store_win(self, h: int, s: State, n: int, m: KMove) -> None:
        if self.options.tt:
            w, nw = self.win_tt.get(h, (BIG, 0))
            self.win_tt[h] = (min(w, n), nw)
            self.best[h] = m

    def _store_nowin(self, h: int, n: int) -> None:
        if self.options.tt:
            w, nw = self.win_tt.get(h, (BIG, 0))
            self.win_tt[h] = (w, max(nw, n))

    def winning_moves(self, s: State, n: int) -> list[KMove]:
        """Every move of the mover that forces a win within ``n`` turns (in generation order)."""
        k = self.kernel
        me = s[2]
        pre = k.covers_dance(s[0], me)
        out = []
        for m in k.moves(s):
            cells, off, _b = k.apply(s, m)
            if k.wins(cells, off, me, m, pre) or (
                n > 1 and all(self.loses(c, n - 1) for _t, _w, c in k.children(s, m, cells, off))
            ):
                out.append(m)
        return out

    def shortest(self, s: State, depth: int) -> int | None:
        """The least n <= depth with a forced win, or None."""
        for n in range(1, depth + 1):
            if self.win(s, n):
                return n
        return None

    # -- expectimax -------------------------------------------------------------------------------
    def probability(self, s: State, n: int, memo: dict[tuple[int, int, int], float], mover: bool = True) -> float:
        """Win probability within ``n`` turns: uniform flips, opponent minimising.

        ``mover`` says whose turn ``s`` is: ours (maximise; a win now is 1) or the opponent's (minimise;
        their win now is 0 for us). ``n`` counts our turns, so it drops after ours.
        """
        key = (self.kernel.zobrist(s, canonical=self.options.symmetry), n, 0 if mover else 1)
        if key in memo:
            return memo[key]
        self.nodes += 1
        if self.options.meter is not None:
            self.options.meter.tick()
        k = self.kernel
        me = s[2]
        pre = k.covers_dance(s[0], me)
        after = []
        for m in k.moves(s):
            cells, off, _b = k.apply(s, m)
            if k.wins(cells, off, me, m, pre):
                memo[key] = 1.0 if mover else 0.0
                return memo[key]
            after.append((m, cells, off))
        best = 0.0 if mover else 1.0
        if n > 1 or not mover:
            for m, cells, off in after:
                ch = k.children(s, m, cells, off)
                tot = sum(w for _t, w, _c in ch)
                v = sum(w * self.probability(c, n - 1 if mover else n, memo, not mover) for _t, w, c in ch) / tot
                if (v > best) if mover else (v < best):
                    best = v
                    if (best >= 1.0) if mover else (best <= 0.0):
                        break
        memo[key] = best
        return best


# -------------------------------------------------------------------------------------------------
# Public API


def prepare(pos: Position, decks: str) -> Position:
    """The position the search works on: with ``hidden`` decks every order is forgotten."""
    if decks not in ("open", "hidden"):
        raise UsageError(f"decks must be open or hidden, got {decks!r}")
    return pos.hidden() if decks == "hidden" else pos


def main_line(sr: Searcher, s: State, n: int, limit: int = 40) -> list[dict[str, Any]]:
    """A principal variation of a win in exactly ``n`` turns: the winner's shortest wins, the
    defender's longest resistance, and at chance the flip that delays the win most."""
    k = sr.kernel
    line: list[dict[str, Any]] = []
    while n >= 1 and len(line) < limit:
        me = s[2]
        pre = k.covers_dance(s[0], me)
        choice = None
        for m in k.moves(s):  # generation order: stable lines
            cells, off, _b = k.apply(s, m)
            if k.wins(cells, off, me, m, pre):
                line.append(_step(k, s, m, NO_CARD, k.win_names(cells, off, me)))
                return line
            if n > 1 and all(sr.loses(c, n - 1) for _t, _w, c in k.children(s, m, cells, off)):
                choice = (m, cells, off)
                break
        if choice is None:
            break
        m, cells, off = choice
        # the worst flip for the winner: the one after which the defender holds out longest
        worst = None
        for t, _w, c in k.children(s, m, cells, off):
            hold = _defence(sr, c, n - 1)
            if worst is None or hold[0] > worst[0]:
                worst = (hold[0], t, c, hold[1])
        assert worst is not None
        _d, t, c, reply = worst
        line.append(_step(k, s, m, t, []))
        if reply is None:
            break
        r, rt, s2, need = reply
        line.append(_step(k, c, r, rt, []))
        s = s2
        n = need
    return line


def _defence(sr: Searcher, s: State, n: int) -> tuple[int, tuple[KMove, int, State, int] | None]:
    """The defender's reply (and flip) after which the winner needs the most turns (<= n)."""
    k = sr.kernel
    best: tuple[int, tuple[KMove, int, State, int] | None] = (0, None)
    for r in k.moves(s):
        cells, off, _b = k.apply(s, r)
        for t, _w, c in k.children(s, r, cells, off):
            need = sr.shortest(c, n) or n
            if best[1] is None or need > best[0]:
                best = (need, (r, t, c, need))
    return best


def _step(k: Kernel, s: State, m: KMove, flip: int, wins: list[str]) -> dict[str, Any]:
    d: dict[str, Any] = {"side": COLOURS[s[2]], "move": k.to_move(m).text()}
    if flip != NO_CARD:
        d["flip"] = TERRAINS[flip]
        d["chance"] = not s[4][s[2]]
    if wins:
        d["wins"] = wins
    return d


def solve(pos: Position, depth: int = 3, decks: str = "open", probability: bool = False,
          options: SearchOptions | None = None) -> Result:
    """Is there a forced win for the side to move within ``depth`` of its own turns?

    Returns a Result: status OPTIMAL with value = the shortest number of turns
    when there is a win, UNSATISFIABLE ("no-win within depth") otherwise;
    witness = the first move; stats has the main line, nodes, and with
    ``probability`` the win probability within ``depth`` turns.  When the budget of
    ``options.meter`` runs out: UNKNOWN, with ``bound = {"no_win_within": n}`` for the
    depths completed (the main line of a proven win is then read off the tables unmetered).
    """
    if depth < 1:
        raise UsageError(f"depth must be 1 or more, not {depth}")
    t0 = time.perf_counter()
    p = prepare(pos, decks)
    k = Kernel(p)
    sr = Searcher(k, options or SearchOptions())
    s = k.state(p)
    stats: dict[str, Any] = {"decks": decks, "depth": depth}
    turns = None
    proven = 0
    prob_nodes = 0  # not counted in stats["nodes"] (the win search's nodes, as without a budget)
    try:
        for n in range(1, depth + 1):  # as Searcher.shortest, keeping the depths proven
            if sr.win(s, n):
                turns = n
                break
            proven = n
        if probability and turns is None:
            before = sr.nodes
            stats["probability"] = sr.probability(s, depth, {})
            prob_nodes = sr.nodes - before
    except BudgetExhausted as exc:
        stats.update(nodes=sr.nodes, exhausted=exc.what, no_win_within=proven)
        return Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0,
                      bound={"no_win_within": proven})
    if sr.options.meter is not None:
        sr.options = replace(sr.options, meter=None)
    move = None
    if turns is not None:
        line = main_line(sr, s, turns)
        stats["line"] = line
        move = line[0]["move"] if line else None
    stats["nodes"] = sr.nodes - prob_nodes
    stats["tt_entries"] = len(sr.win_tt) + len(sr.lose_tt)
    stats["symmetries"] = len(k.syms)
    if probability and turns is not None:
        stats["probability"] = 1.0
    return Result(Status.OPTIMAL if turns is not None else Status.UNSATISFIABLE, turns, move, stats,
                  time.perf_counter() - t0)


def forced_win_within(pos: Position, n: int, decks: str = "open", options: SearchOptions | None = None) -> bool:
    """Plain yes/no: can the side to move force a win within ``n`` turns?"""
    p = prepare(pos, decks)
    k = Kernel(p)
    return Searcher(k, options or SearchOptions()).win(k.state(p), n)
