"""The generic searches (solver/core/search.py) against plain references and against Midnight's own solver.

1. A small protocol game with transpositions and chance nodes (``Race`` below): alpha-beta (with
   and without its table, deepening or not) equals plain minimax, expectimax equals plain
   expectiminimax, exactly, on many random instances.
2. Gnomes at Midnight: "forced win within n turns" by alpha-beta over the protocol (2n - 1
   decisions, flips the worst case) equals Midnight's own AND-OR search on generated positions,
   open and hidden decks; the win probability by expectimax (exact Fractions) equals the Midnight
   search's float.  The default run is small; ``--runslow`` runs the big sets.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest
from gnomekit.models.core.protocol import CHANCE, TERMINAL, Game, Position, Report
from gnomekit.models.core.violation import Violation
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Status
from gnomekit.solver.core.search import alpha_beta, expectimax, zero
from gnomekit.solver.gnomes_at_midnight.gen import open_positions, positions
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.search import Searcher, forced_win_within, prepare

import gnomekit

# -- a small game with transpositions and chance ------------------------------------------------------


class RaceGame(Game):
    """Two players add 1 or 2 (or 3) to a shared counter up to ``goal``; landing on a multiple of 3 sends
    the counter to a chance node (+0 or +1).  Terminal and leaf values come from a seeded table."""

    name = "race"
    title = "Race"
    min_players = max_players = 2

    def __init__(self, seed: int, goal: int, chance: bool) -> None:
        rng = random.Random(seed)
        self.goal = goal
        self.chance = chance
        self.pay = {(c, p): rng.choice((-1, 0, 1)) for c in range(goal + 2) for p in (0, 1)}
        self.leaf = {(c, p): Fraction(rng.randrange(-8, 9), 8) for c in range(goal + 2) for p in (0, 1)}
        self.moves = 3 if seed % 2 else 2

    @property
    def edition(self) -> Any:
        return None

    def new(self, **options: Any) -> Race:
        return Race(self, 0, 0, False)

    def random(self, seed: int = 0, **options: Any) -> Race:
        return self.new()

    def read(self, text: str, source: str = "<input>") -> Race:
        c, p, w = json.loads(text)
        return Race(self, c, p, w)

    def parse_move(self, text: str, source: str = "<move>") -> Any:
        return int(text)


class Race(Position):
    def __init__(self, game: RaceGame, count: int, player: int, waiting: bool) -> None:
        self._g, self.c, self.p, self.waiting = game, count, player, waiting

    @property
    def game(self) -> RaceGame:
        return self._g

    def key(self) -> Hashable:
        return (self.c, self.p, self.waiting)

    def legal_moves(self) -> list[Any]:
        if self.is_terminal():
            return []
        if self.waiting:
            return [0, 1]
        return [m for m in range(1, self._g.moves + 1) if self.c + m <= self._g.goal]

    def check(self, move: Any) -> Report:
        ok = move in self.legal_moves()
        return Report(str(move), () if ok else (Violation("no", "not a move"),))

    def _apply(self, move: Any) -> Race:
        if self.waiting:
            return Race(self._g, min(self.c + move, self._g.goal), self.p, False)
        c = self.c + move
        waiting = self._g.chance and c % 3 == 0 and c < self._g.goal
        return Race(self._g, c, 1 - self.p, waiting)

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else CHANCE if self.waiting else self.p

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        return [(0, Fraction(1, 3)), (1, Fraction(2, 3))]

    def is_terminal(self) -> bool:
        return self.c >= self._g.goal

    def scores(self) -> dict[str, float]:
        v = self._g.pay[(self.c, self.p)] if self.is_terminal() else 0
        return {"first": v, "second": -v}

    def to_text(self) -> str:
        return json.dumps([self.c, self.p, self.waiting])

    def to_json(self) -> dict[str, Any]:
        return {"c": self.c, "p": self.p, "waiting": self.waiting}


def _leaf(pos: Position, player: int) -> Any:
    assert isinstance(pos, Race)
    v = pos.game.leaf[(pos.c, pos.p)]
    return v if player == 0 else -v


def _utility(pos: Position, player: int) -> Any:
    return list(pos.scores().values())[player]


def minimax(pos: Position, depth: int, player: int) -> Any:
    """Plain minimax, no pruning, no table; chance nodes the worst case for ``player``."""
    if pos.is_terminal():
        return _utility(pos, player)
    if depth == 0:
        return _leaf(pos, player)
    cp = pos.current_player()
    if cp == CHANCE:
        return min(minimax(pos._apply(o), depth, player) for o, _ in pos.chance_outcomes())
    vals = [minimax(pos._apply(m), depth - 1, player) for m in pos.legal_moves()]
    return max(vals) if cp == player else min(vals)


def expectiminimax(pos: Position, depth: int, player: int) -> Any:
    if pos.is_terminal():
        return _utility(pos, player)
    if depth == 0:
        return _leaf(pos, player)
    cp = pos.current_player()
    if cp == CHANCE:
        return sum(p * expectiminimax(pos._apply(o), depth, player) for o, p in pos.chance_outcomes())
    vals = [expectiminimax(pos._apply(m), depth - 1, player) for m in pos.legal_moves()]
    return max(vals) if cp == player else min(vals)


CASES = [(seed, goal, depth) for seed in range(24) for goal, depth in ((7, 3), (9, 5), (12, 8))]


@pytest.mark.parametrize("seed,goal,depth", CASES)
def test_alpha_beta_equals_minimax(seed: int, goal: int, depth: int) -> None:
    g = RaceGame(seed, goal, chance=seed % 3 == 0)
    root = g.new()
    want = minimax(root, depth, 0)
    chance = "worst" if g.chance else "error"
    for tt in (True, False):
        for iterative in (True, False):
            r = alpha_beta(root, depth, _leaf, utility=_utility, chance=chance, tt=tt, iterative=iterative)
            assert r.status is Status.OPTIMAL and r.value == want, (tt, iterative)
    # the witness is a best move: its child has the root's value
    r = alpha_beta(root, depth, _leaf, utility=_utility, chance=chance)
    child = root._apply(r.witness)
    assert minimax(child, depth - 1 if root.current_player() >= 0 else depth, 0) == want
    # the other player's view of a zero-sum game is the negation
    second = root._apply(1)
    if not second.is_terminal() and second.current_player() == 1:
        assert alpha_beta(second, depth, _leaf, utility=_utility, chance=chance).value == minimax(second, depth, 1)


@pytest.mark.parametrize("seed,goal,depth", CASES)
def test_expectimax_equals_expectiminimax(seed: int, goal: int, depth: int) -> None:
    g = RaceGame(seed, goal, chance=True)
    root = g.new()
    want = expectiminimax(root, depth, 0)
    for tt in (True, False):
        r = expectimax(root, depth, _leaf, utility=_utility, tt=tt)
        assert r.status is Status.OPTIMAL and r.value == want and isinstance(r.value, Fraction | int)
    r = expectimax(root, depth, _leaf, utility=_utility, bounds=(-1, 1))
    assert r.value == want


def test_chance_nodes_are_refused_unless_asked() -> None:
    root = RaceGame(0, 9, chance=True).new()
    with pytest.raises(ValueError, match="chance node"):
        alpha_beta(root, 5, _leaf, utility=_utility)
    with pytest.raises(ValueError, match="value function"):
        alpha_beta(root, 2, None, utility=_utility, chance="worst")


def test_budget_gives_unknown_with_what_is_known() -> None:
    root = RaceGame(5, 12, chance=False).new()
    full = alpha_beta(root, 8, _leaf, utility=_utility)
    small = alpha_beta(root, 8, _leaf, utility=_utility, budget=Budget(states=40))
    assert full.status is Status.OPTIMAL and small.status is Status.UNKNOWN
    done = small.stats["depth_completed"]
    assert done is not None and 1 <= done < 8
    assert small.value == minimax(root, done, 0)  # the deepest completed pass
    ex = expectimax(RaceGame(5, 12, chance=True).new(), 8, _leaf, utility=_utility, budget=Budget(states=10),
                    bounds=(-1, 1))
    assert ex.status is Status.UNKNOWN and ex.value is None and ex.bound == (-1, 1)


# -- Gnomes at Midnight: the protocol searches against Midnight's own ---------------------------------

MIDNIGHT = gnomekit.game("gnomes-at-midnight")


def _protocol_wins(pos: Position, n: int) -> bool:
    r = alpha_beta(pos, 2 * n - 1, zero, chance="worst", iterative=False)
    assert r.status is Status.OPTIMAL and r.value in (-1, 0, 1)
    return bool(r.value > 0)


def _won(pos: Position, player: int) -> int:
    return 1 if pos.is_terminal() and list(pos.scores().values())[player] > 0 else 0


def _cross_check(states: list[Any], turns: tuple[int, ...], decks: str) -> tuple[int, int]:
    wins = nowins = 0
    for st in states:
        pos = MIDNIGHT.position(prepare(st, decks))
        before = (pos.to_text(), hash(pos))
        for n in turns:
            want = forced_win_within(st, n, decks)
            assert _protocol_wins(pos, n) == want, (n, decks, pos.to_text())
            wins += want
            nowins += not want
        assert (pos.to_text(), hash(pos)) == before  # the caller's position is untouched
    return wins, nowins


def test_midnight_forced_wins_open_decks() -> None:
    wins, nowins = _cross_check(open_positions(14, 40), (1, 2), "open")
    assert wins and nowins


def test_midnight_forced_wins_hidden_decks() -> None:
    wins, nowins = _cross_check(positions(10, 60), (1, 2), "hidden")
    assert wins and nowins


def _probabilities(states: list[Any], decks: str) -> list[Fraction]:
    out = []
    for st in states:
        p = prepare(st, decks)
        k = Kernel(p)
        want = Searcher(k).probability(k.state(p), 2, {})
        r = expectimax(MIDNIGHT.position(p), 3, zero, utility=_won, bounds=(0, 1))
        assert r.status is Status.OPTIMAL and isinstance(r.value, Fraction | int)
        assert math.isclose(float(r.value), want, abs_tol=1e-12), (decks, r.value, want)
        out.append(Fraction(r.value))
    return out


@pytest.mark.parametrize("decks", ["open", "hidden"])
def test_midnight_win_probability(decks: str) -> None:
    values = _probabilities(open_positions(16, 80), decks)
    assert 0 in values and 1 in values
    if decks == "hidden":  # (measured: 9 of these 16 lie strictly between)
        assert any(0 < v < 1 for v in values)


def test_midnight_api_protocol_method_equals_search() -> None:
    for st in open_positions(6, 120):
        pos = MIDNIGHT.position(st)
        a = gnomekit.solve(pos, depth=2)
        b = gnomekit.solve(pos, depth=2, method="protocol")
        assert (a.status, a.value) == (b.status, b.value)


@pytest.mark.slow
@pytest.mark.parametrize("decks,count,start", [("open", 150, 1000), ("hidden", 100, 2000)])
def test_midnight_forced_wins_many(decks: str, count: int, start: int) -> None:
    gen = open_positions if decks == "open" else positions
    wins, nowins = _cross_check(gen(count, start), (1, 2, 3), decks)
    assert wins and nowins


@pytest.mark.slow
def test_midnight_win_probability_many() -> None:
    values = _probabilities(open_positions(150, 3000) + positions(100, 4000), "hidden")
    assert sum(0 < v < 1 for v in values) > 10
