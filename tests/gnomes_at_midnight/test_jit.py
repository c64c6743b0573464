"""The compiled forced-win search (solver/gnomes_at_midnight/jit.py) against FastSearcher and the
reference search: same answers, same node counts, same table entries, same budget semantics."""

from __future__ import annotations

import os

import pytest
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.core.budget import Budget, BudgetExhausted
from gnomekit.solver.gnomes_at_midnight import jit
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher
from gnomekit.solver.gnomes_at_midnight.gen import open_positions, positions
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.opening import settle_opening
from gnomekit.solver.gnomes_at_midnight.puzzles import load_puzzle, puzzle_files
from gnomekit.solver.gnomes_at_midnight.search import Searcher

if os.environ.get("GNOMEKIT_JIT_TESTS") == "required" and not jit.available():  # CI: fail, never skip
    raise RuntimeError(f"GNOMEKIT_JIT_TESTS=required but numba is not importable: {jit.unavailable_reason()}")
needs_numba = pytest.mark.skipif(not jit.available(), reason=f"numba is not importable: {jit.unavailable_reason()} "
                                 "(the optional extra gnomekit[fast]); the compiled search is not tested")
ED = bundled_edition("default")


def _first_move(sr, e: FastEngine, s, n: int) -> int:  # type: ignore[no-untyped-def]
    """The first move (generation order) that wins within ``n``, as opening.py finds it."""
    return next(m for m in e.moves(s) if e.wins(s, m) or (
        n > 1 and all(sr.loses(c, n - 1) for _t, _w, c in e.children(s, m))))


def _same(pos, depth: int, decks: str, check_move: bool = False) -> tuple[int | None, int]:  # type: ignore[no-untyped-def]
    """Both searches on ``pos``: equal shortest win, nodes and table entries; returns (turns, nodes)."""
    p = pos.hidden() if decks == "hidden" else pos
    e1 = FastEngine(p)
    fs = FastSearcher(e1)
    want = fs.shortest(e1.state(p), depth)
    e2 = FastEngine(p)
    js = jit.JitSearcher(e2)
    got = js.shortest(e2.state(p), depth)
    assert got == want, (decks, depth)
    assert js.nodes == fs.nodes, (decks, depth)
    assert js.tt_entries == len(fs.win_tt) + len(fs.lose_tt)
    if check_move and got is not None:
        s = e2.state(p)
        m = _first_move(js, e2, s, got)
        assert m in e2.moves(s)
        text = e2.move_text(m)
        assert text == e1.move_text(_first_move(fs, e1, e1.state(p), got))
        assert _wins_per_reference(p, text, got)
    return got, js.nodes


def _wins_per_reference(p, text: str, n: int) -> bool:  # type: ignore[no-untyped-def]
    """Does the move ``text`` force a win within ``n`` per the rules layer and ``search.Searcher``?"""
    move = next(m for m in legal_moves(p) if m.text() == text)  # legal per the rules layer
    if after_move(p, move).wins:
        return True
    k = Kernel(p)
    ks = k.state(p)
    km = next(m for m in k.moves(ks) if k.to_move(m).text() == text)
    cells, off, _b = k.apply(ks, km)
    sr = Searcher(k)
    return n > 1 and all(sr.loses(c, n - 1) for _t, _w, c in k.children(ks, km, cells, off))


@needs_numba
@pytest.mark.parametrize("decks", ["open", "hidden"])
def test_every_puzzle(decks: str, full: bool = False) -> None:
    """Every puzzle at its depth with its own decks; with the other decks at depth 4 at most
    (``full``: at the puzzle's depth, the slow test)."""
    wins = 0
    for path in puzzle_files():
        data, pos = load_puzzle(path)
        depth = int(data["depth"])
        if decks != str(data.get("decks", "open")) and not full:
            depth = min(depth, 4)
        got, _nodes = _same(pos, depth, decks, check_move=True)
        if decks == str(data.get("decks", "open")):
            assert got == data["answer"].get("turns"), path.stem
            if got is not None:
                p = pos.hidden() if decks == "hidden" else pos
                e = FastEngine(p)
                assert e.move_text(_first_move(jit.JitSearcher(e), e, e.state(p), got)) in data["answer"]["moves"]
        wins += got is not None
    assert wins > 0


@needs_numba
def test_generated_positions_open_and_hidden() -> None:
    """200 generated positions (100 as dealt, 100 with known orders), each open and hidden, depth 3."""
    seen = {True: 0, False: 0}
    for pos in positions(100, start=3000) + open_positions(100, start=3000):
        for decks in ("open", "hidden"):
            got, _ = _same(pos, 3, decks, check_move=True)
            seen[got is not None] += 1
    assert seen[True] > 20 and seen[False] > 20, seen


@needs_numba
def test_opening_depth_and_a_growing_table() -> None:
    """Deeper searches of the opening, with a table that starts tiny and doubles many times."""
    assert _same(new_position(ED, 0), 4, "open") == (4, 1364)
    p = new_position(ED, 0).hidden()
    e = FastEngine(p)
    fs = FastSearcher(e)
    assert fs.shortest(e.state(p), 5) is None
    js = jit.JitSearcher(FastEngine(p), table_slots=64)
    assert js.shortest(js.engine.state(p), 5) is None
    assert js.nodes == fs.nodes and js.tt_entries == len(fs.win_tt) + len(fs.lose_tt)


@needs_numba
def test_win_and_loses_match_on_reused_tables() -> None:
    """Calls in any order on one searcher (the tables carry over) give FastSearcher's answers and nodes."""
    pos = new_position(ED, 3)
    e1, e2 = FastEngine(pos), FastEngine(pos)
    fs, js = FastSearcher(e1), jit.JitSearcher(e2)
    s1, s2 = e1.state(pos), e2.state(pos)
    for n in (2, 4, 3, 1):
        assert js.win(s2, n) == fs.win(s1, n)
        kids1 = [c for m in e1.moves(s1) for _t, _w, c in e1.children(s1, m)][:6]
        kids2 = [c for m in e2.moves(s2) for _t, _w, c in e2.children(s2, m)][:6]
        assert [js.loses(c, n) for c in kids2] == [fs.loses(c, n) for c in kids1]
        assert js.nodes == fs.nodes


@needs_numba
def test_options_without_table_ordering_or_symmetry() -> None:
    """The plain search (no table, no ordering) and the search without the mirror: same nodes too."""
    for pos in positions(6, start=4000) + open_positions(6, start=4000):
        for tt, ordering, symmetry in ((False, False, False), (True, False, True), (True, True, False)):
            e1, e2 = FastEngine(pos, symmetry), FastEngine(pos, symmetry)
            fs = FastSearcher(e1, tt=tt, ordering=ordering)
            js = jit.JitSearcher(e2, tt=tt, ordering=ordering)
            assert js.shortest(e2.state(pos), 3) == fs.shortest(e1.state(pos), 3)
            assert js.nodes == fs.nodes and js.tt_entries == len(fs.win_tt) + len(fs.lose_tt)


@needs_numba
@pytest.mark.parametrize("states", [1, 500, 1364, 1365])
def test_node_budget_is_unknown_at_the_same_node(states: int) -> None:
    """A node budget raises BudgetExhausted at the same node as FastSearcher with the same meter."""
    pos = new_position(ED, 0)
    out = []
    for make in (FastSearcher, jit.JitSearcher):
        e = FastEngine(pos)
        m = Budget(states=states).meter()
        m.tick(0)
        sr = make(e, meter=m)  # type: ignore[operator]
        try:
            got = sr.shortest(e.state(pos), 4)
            what = None
        except BudgetExhausted as exc:
            got, what = None, exc.what
        out.append((got, what, sr.nodes, m.states))
    assert out[0] == out[1]
    assert (out[0][1] is None) == (states >= 1364)


@needs_numba
def test_deadline_is_unknown_not_no() -> None:
    p = new_position(ED, 0).hidden()
    e = FastEngine(p)
    sr = jit.JitSearcher(e, meter=Budget(seconds=0.02).meter())
    with pytest.raises(BudgetExhausted, match="0.02 s"):
        sr.shortest(e.state(p), 12)
    assert sr.nodes > 0


@needs_numba
def test_table_memory_cap_is_unknown_not_no() -> None:
    p = new_position(ED, 0).hidden()
    e = FastEngine(p)
    sr = jit.JitSearcher(e, table_slots=64, max_table_bytes=1 << 16, replace=False)
    with pytest.raises(BudgetExhausted, match="GiB of table"):
        sr.shortest(e.state(p), 7)
    assert sr.table_bytes() <= 1 << 16 and sr.nodes > 0


def _same_answers_replacing(pos, depth: int, decks: str, table_bytes: int) -> tuple[int | None, bool]:  # type: ignore[no-untyped-def]
    """FastSearcher (every entry kept) against the compiled search with a table capped at
    ``table_bytes`` that replaces entries: the same shortest win; (turns, did it replace)."""
    p = pos.hidden() if decks == "hidden" else pos
    e1, e2 = FastEngine(p), FastEngine(p)
    fs = FastSearcher(e1)
    want = fs.shortest(e1.state(p), depth)
    js = jit.JitSearcher(e2, table_slots=64, max_table_bytes=table_bytes)
    got = js.shortest(e2.state(p), depth)
    assert got == want, (decks, depth)
    assert js.table_bytes() <= table_bytes
    if got is not None:  # the first winning move the replacing table finds does win, per the reference
        assert _wins_per_reference(p, e2.move_text(_first_move(js, e2, e2.state(p), got)), got)
    return got, js.replacing


@needs_numba
def test_a_full_table_replaces_entries_and_keeps_the_answers() -> None:
    """A table of 64 slots (it fills within a few hundred nodes, then replaces entries): every
    puzzle and 60 generated positions, open and hidden, give the answers of the full table."""
    replaced = wins = 0
    for path in puzzle_files():
        data, pos = load_puzzle(path)
        got, rep = _same_answers_replacing(pos, int(data["depth"]), str(data.get("decks", "open")), 1 << 12)
        assert got == data["answer"].get("turns"), path.stem
        replaced += rep
    for pos in positions(30, start=5000) + open_positions(30, start=5000):
        for decks in ("open", "hidden"):
            got, rep = _same_answers_replacing(pos, 4, decks, 1 << 12)
            replaced += rep
            wins += got is not None
    assert replaced > 60 and wins > 10, (replaced, wins)
    assert _same_answers_replacing(new_position(ED, 0), 6, "hidden", 1 << 14) == (None, True)


@needs_numba
def test_engine_choice_is_visible() -> None:
    e = FastEngine(new_position(ED, 0))
    assert jit.engine_name(jit.searcher(e)) == "numba"
    assert jit.engine_name(jit.searcher(e, prefer="python")) == "python"
    a = settle_opening(ED, dances=["diamond"], decks=["open"], max_turns=4, method="ab")[0]
    b = settle_opening(ED, dances=["diamond"], decks=["open"], max_turns=4, method="jit")[0]
    assert a.engine == b.engine == "numba" and b.to_json()["engine"] == "numba"
    assert (a.status, a.turns, a.first_move, a.nodes) == (b.status, b.turns, b.first_move, b.nodes)


def test_without_numba_the_python_engine_runs_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """No numba: ``searcher`` gives FastSearcher (named "python"), method "jit" is refused, "ab" runs."""
    monkeypatch.setattr(jit, "_tried", True)
    monkeypatch.setattr(jit, "_kernel_module", None)
    monkeypatch.setattr(jit, "_error", "numba is not importable (test)")
    assert not jit.available() and jit.unavailable_reason()
    e = FastEngine(new_position(ED, 0))
    assert isinstance(jit.searcher(e), FastSearcher) and jit.engine_name(jit.searcher(e)) == "python"
    with pytest.raises(UsageError):
        jit.searcher(e, prefer="numba")
    with pytest.raises(UsageError, match="numba"):
        settle_opening(ED, dances=["diamond"], decks=["open"], max_turns=2, method="jit")
    row = settle_opening(ED, dances=["diamond"], decks=["open"], max_turns=2, method="ab")[0]
    assert row.engine == "python" and row.to_json()["engine"] == "python"


@needs_numba
@pytest.mark.slow
def test_every_puzzle_other_decks_full_depth() -> None:
    for decks in ("open", "hidden"):
        test_every_puzzle(decks, full=True)


@needs_numba
@pytest.mark.slow
def test_many_generated_positions() -> None:
    for pos in positions(300, start=5000) + open_positions(300, start=5000):
        for decks in ("open", "hidden"):
            _same(pos, 4, decks, check_move=True)


@needs_numba
@pytest.mark.slow
def test_hidden_opening_depth_six_every_card() -> None:
    for card in ED.dance:
        _same(new_position(ED, 0, dance=card.name), 6, "hidden")


@needs_numba
def test_threat_search_is_the_same_compiled() -> None:
    """``threats=True``: the compiled search visits FastSearcher(threats=True)'s nodes, with its answers and
    table entries, open and hidden, with and without a table and ordering, and on reused tables."""
    for pos in positions(40, start=5000) + open_positions(40, start=5000):
        for p in (pos, pos.hidden()):
            for tt, ordering in ((True, True), (False, False), (True, False)):
                e1, e2 = FastEngine(p), FastEngine(p)
                fs = FastSearcher(e1, tt=tt, ordering=ordering, threats=True)
                js = jit.JitSearcher(e2, tt=tt, ordering=ordering, threats=True)
                assert js.shortest(e2.state(p), 3) == fs.shortest(e1.state(p), 3)
                assert js.nodes == fs.nodes and js.tt_entries == len(fs.win_tt) + len(fs.lose_tt)
    pos = new_position(ED, 3).hidden()
    e1, e2 = FastEngine(pos), FastEngine(pos)
    fs, js = FastSearcher(e1, threats=True), jit.JitSearcher(e2, threats=True)
    for n in (2, 4, 3, 1):
        assert js.win(e2.state(pos), n) == fs.win(e1.state(pos), n)
        assert js.nodes == fs.nodes
    assert isinstance(jit.searcher(FastEngine(pos)), jit.JitSearcher) and jit.searcher(FastEngine(pos)).threats
