"""``expect_turn(..., bounded=True)``: over the state budget, proven intervals around the exact values.

The intervals come from the refinement (threshold rounds, ``ExpectSearch.refine_all``), the exact
values from the unbounded alpha-beta search (itself cross-checked against the naive reference in
test_expect_crosscheck.py): two methods, compared wherever the refinement closes.  On generated
positions with face-down tiles and card decisions: every interval (witch x roll, best per roll,
overall) contains the exact value; a bigger budget never gives a wider interval (measured on these
positions; not monotone by construction); with enough budget every interval is a point.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from gnomekit.models.hexen_rennen.notation import position_to_text
from gnomekit.models.hexen_rennen.setup import new_position
from gnomekit.solver.hexen_rennen.expect import BudgetExceeded, ExpectResult, expect_turn
from gnomekit.solver.hexen_rennen.generate import rich_position

from gnomekit.cli import main
from tests.hexen_rennen.hexen_build import ED
from tests.hexen_rennen.test_expect_crosscheck import small_positions

BUDGETS = (1, 3, 10, 40, 150)


def widths(res: ExpectResult) -> list[Fraction | None]:
    out: list[Fraction | None] = []
    for w in res.witches:
        out += [None if (iv := w.bounds_by_roll[r]) is None else iv[1] - iv[0] for r in res.rolls]
    out += [None if (iv := res.bounds_best_by_roll[r]) is None else iv[1] - iv[0] for r in res.rolls]
    return out + [res.bounds_overall[1] - res.bounds_overall[0]]


def contains(res: ExpectResult, ex: ExpectResult) -> None:
    for w, we in zip(res.witches, ex.witches, strict=True):
        assert w.origin == we.origin
        for r in res.rolls:
            iv, v = w.bounds_by_roll[r], we.exact_by_roll[r]
            assert (iv is None) == (v is None)
            assert iv is None or v is None or iv[0] <= v <= iv[1], (w.origin, r, iv, v)
            if iv is not None and v is not None and iv[0] == iv[1]:
                assert w.exact_by_roll[r] == v and w.by_roll[r] == float(v)
            else:
                assert w.by_roll[r] is None
        assert w.bounds_overall[0] <= we.exact_overall <= w.bounds_overall[1]
    for r in res.rolls:
        iv, v = res.bounds_best_by_roll[r], ex.exact_best_by_roll[r]
        assert (iv is None) == (v is None)
        assert iv is None or v is None or iv[0] <= v <= iv[1]
        b = res.best_by_roll[r][1]
        assert b is None or b == ex.best_by_roll[r][1]
    assert res.bounds_overall[0] <= ex.exact_overall <= res.bounds_overall[1]


def test_intervals_contain_the_exact_values_and_shrink() -> None:
    checked = opened = 0
    for seed, pos, rules in small_positions():
        if seed >= 5000 + 70:
            break
        ex = expect_turn(pos, ED, rules)
        if ex.nodes < 20 or ex.nodes > 3000:
            continue
        checked += 1
        prev: list[Fraction | None] | None = None
        for n in (*BUDGETS, 10**6):  # the last: far more than the refinement needs on these positions
            res = expect_turn(pos, ED, rules, max_nodes=n, bounded=True)
            contains(res, ex)
            ws = widths(res)
            opened += sum(1 for x in ws if x)
            if prev is not None:
                assert all(a is None or b is not None and b <= a for a, b in zip(prev, ws, strict=True)), (seed, n)
            prev = ws
        # enough budget: every interval is the exact value and the result is the exact one
        assert res.complete and all(x in (None, 0) for x in ws)
        assert res.exact_overall == ex.exact_overall and res.overall == ex.overall
        assert res.exact_best_by_roll == ex.exact_best_by_roll and res.best_by_roll == ex.best_by_roll
        assert [w.exact_by_roll for w in res.witches] == [w.exact_by_roll for w in ex.witches]
    assert checked >= 30 and opened >= 1000, (checked, opened)  # measured: 40 positions, 1317 open intervals


def test_without_bounded_the_budget_still_raises() -> None:
    with pytest.raises(BudgetExceeded):
        expect_turn(new_position(ED, 2, 0), ED, max_nodes=200)


def test_new_game_intervals_are_sound_and_narrow_with_budget() -> None:
    # a game at setup: far beyond the exact search (no exact value to compare with); ordered, inside 1..last
    pos = new_position(ED, 2, 1)
    small = expect_turn(pos, ED, max_nodes=300, bounded=True)
    big = expect_turn(pos, ED, max_nodes=3000, bounded=True)
    assert not small.complete and not big.complete
    for res in (small, big):
        lo, hi = res.bounds_overall
        assert 1 <= lo < hi <= ED.last_field
    assert big.bounds_overall[1] - big.bounds_overall[0] <= small.bounds_overall[1] - small.bounds_overall[0]


def test_face_up_positions_with_a_tiny_budget() -> None:
    # no face-down tile: only card decisions; a budget of one state still gives sound intervals
    from dataclasses import replace
    for seed in range(6):
        pos = rich_position(ED, 800 + seed)
        pos = replace(pos, track=tuple(replace(t, face_up=True) for t in pos.track))
        ex = expect_turn(pos, ED)
        res = expect_turn(pos, ED, max_nodes=1, bounded=True)
        contains(res, ex)


def test_cli_over_budget_prints_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "new.txt"
    f.write_text(position_to_text(new_position(ED, 2, 1), ED))
    code = main(["hexen-rennen", "solve", str(f), "--expect", "--max-nodes", "400", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1 and d["status"] == "unknown" and d["value"] is None and d["max_nodes"] == 400
    lo, hi = Fraction(d["exact"]["lower"]), Fraction(d["exact"]["upper"])
    assert 1 <= lo < hi and d["lower"] == float(lo) and d["upper"] == float(hi)
    for w in d["witches"]:
        for r in map(str, d["rolls"]):
            a, b = Fraction(w["exact"]["lower"][r]), Fraction(w["exact"]["upper"][r])
            assert a <= b and w["lower"][r] == float(a) and w["upper"][r] == float(b)
            assert a <= Fraction(d["best_by_roll"][r]["exact_upper"])
    code = main(["hexen-rennen", "solve", str(f), "--expect", "--max-nodes", "400"])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("unknown:") and "[" in out and "best per roll" in out
