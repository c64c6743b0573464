"""df-pn (solver/gnomes_at_midnight/pns.py) against the alpha-beta forced-win search."""

from __future__ import annotations

import pytest
from gnomekit.models.gnomes_at_midnight.game import make_game
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnomes_at_midnight import pns
from gnomekit.solver.gnomes_at_midnight.api import solve as api_solve
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher
from gnomekit.solver.gnomes_at_midnight.gen import open_positions, positions
from gnomekit.solver.gnomes_at_midnight.puzzles import load_puzzle, puzzle_files, winning_first_moves
from gnomekit.solver.gnomes_at_midnight.search import solve as ab_solve


def _agree(pos, depth: int, decks: str, old: bool) -> int | None:  # type: ignore[no-untyped-def]
    """df-pn's shortest win equals the alpha-beta's (the old search, or its fast twin)."""
    r = pns.solve(pos, depth, decks)
    if old:
        want = ab_solve(pos, depth, decks).value
    else:
        p = pns.prepare(pos, decks)
        e = FastEngine(p)
        want = FastSearcher(e).shortest(e.state(p), depth)
    assert r.value == want, (decks, depth)
    assert r.status is (Status.OPTIMAL if want is not None else Status.UNSATISFIABLE)
    if want is not None:
        assert r.witness in winning_first_moves(pos, want, decks)
    return want


@pytest.mark.parametrize("path", puzzle_files(), ids=lambda p: p.stem)
def test_pns_solves_every_puzzle(path) -> None:  # type: ignore[no-untyped-def]
    data, pos = load_puzzle(path)
    decks = str(data.get("decks", "open"))
    r = pns.solve(pos, int(data["depth"]), decks)
    assert r.value == data["answer"].get("turns")
    assert r.witness in data["answer"]["moves"]


def test_pns_agrees_on_generated_positions() -> None:
    """A fast sample of the 500+ (the rest run with the slow marker)."""
    wins = cases = 0
    for pos in positions(40, start=50) + open_positions(40, start=50):
        for decks in ("open", "hidden"):
            wins += _agree(pos, 2, decks, old=cases % 8 == 0) is not None
            cases += 1
    for pos in open_positions(12, start=150):
        wins += _agree(pos, 3, "open", old=False) is not None
    assert wins >= 10 and cases >= 160


def test_pns_without_symmetry_agrees() -> None:
    for pos in open_positions(10, start=250):
        a = pns.solve(pos, 3, "open", symmetry=False).value
        assert a == pns.solve(pos, 3, "open").value


def test_budget_gives_unknown_never_no() -> None:
    pos = open_positions(1, start=5)[0]
    r = pns.solve(pos, 6, "hidden", Budget(states=30))
    assert r.status is Status.UNKNOWN
    assert r.bound == {"no_win_within": r.stats["no_win_within"]}
    assert r.value is None


def test_api_method_pns() -> None:
    path = next(p for p in puzzle_files() if p.stem == "win-in-2-a")
    data, pos = load_puzzle(path)
    r = api_solve(make_game(data["edition"]).position(pos), "win", method="pns", depth=3)
    assert r.value == 2 and r.stats["method"] == "pns" and r.witness in data["answer"]["moves"]


@pytest.mark.slow
def test_pns_agrees_on_500_positions() -> None:
    n = 0
    for pos in positions(150, start=3000) + open_positions(150, start=3000):
        for decks in ("open", "hidden"):
            _agree(pos, 3 if decks == "open" else 2, decks, old=True)
            n += 1
    assert n >= 500


@pytest.mark.parametrize("k,count,start", [(1, 12, 400), (2, 5, 420)])
def test_pns_agrees_with_z3(k: int, count: int, start: int) -> None:
    """The z3 cross-check where it applies (open decks): df-pn and the SMT encoding answer alike."""
    from gnomekit.solver.gnomes_at_midnight.smt import smt_wins_within

    answers = set()
    for pos in open_positions(count, start):
        got = pns.solve(pos, k, "open").value
        want = smt_wins_within(pos, k).value
        assert (got is not None) == want, (k, pos)
        answers.add(want)
    assert answers == {True, False}
