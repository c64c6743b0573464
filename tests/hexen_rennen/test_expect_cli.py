"""``gnomekit hexen-rennen solve --expect``: exact values in JSON, located usage errors, the state budget."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from gnomekit.models.hexen_rennen.notation import position_to_text
from gnomekit.models.hexen_rennen.setup import new_position
from gnomekit.solver.hexen_rennen.expect import expect_turn
from gnomekit.solver.hexen_rennen.generate import rich_position

from gnomekit.cli import main
from tests.hexen_rennen.hexen_build import ED


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["hexen-rennen", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_expect_json_has_exact_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = rich_position(ED, 4)
    f = tmp_path / "p.txt"
    f.write_text(position_to_text(pos, ED))
    code, out, _ = run(capsys, "solve", str(f), "--expect", "--json")
    d = json.loads(out)
    res = expect_turn(pos, ED)
    assert code == 0 and d["status"] == "optimal"
    assert Fraction(d["exact"]["value"]) == res.exact_overall and d["value"] == float(res.exact_overall)
    for w, x in zip(res.witches, d["witches"], strict=True):
        assert x["field"] == w.origin
        for r in res.rolls:
            ex = x["exact"]["by_roll"][str(r)]
            assert (ex is None) == (w.exact_by_roll[r] is None)
            assert ex is None or Fraction(ex) == w.exact_by_roll[r]


def test_expect_one_roll_and_bad_roll(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = rich_position(ED, 4)
    f = tmp_path / "p.txt"
    f.write_text(position_to_text(pos, ED))
    code, out, _ = run(capsys, "solve", str(f), "--expect", "--roll", "4", "--json")
    d = json.loads(out)
    assert code == 0 and d["rolls"] == [4]
    assert Fraction(d["exact"]["value"]) == expect_turn(pos, ED).exact_best_by_roll[4]
    code, _, err = run(capsys, "solve", str(f), "--expect", "--roll", "9")
    assert code == 2 and "--roll 9" in err and "Traceback" not in err


def test_expect_over_budget_is_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a game at setup: full hands over three face-down stages - far beyond 500 states
    f = tmp_path / "new.txt"
    f.write_text(position_to_text(new_position(ED, 2, 0), ED))
    code, out, _ = run(capsys, "solve", str(f), "--expect", "--max-nodes", "500", "--json")
    d = json.loads(out)
    assert code == 1 and d["status"] == "unknown" and d["value"] is None
