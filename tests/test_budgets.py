"""State budgets on the command line: a budget below 1 is a usage error (exit 2, located), never a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from gnomekit.cli import main

EX = Path(__file__).resolve().parent.parent / "docs" / "examples"


@pytest.mark.parametrize("argv, option", [
    (["hedge-mage", "solve", str(EX / "tiny-run.txt"), "--phase", "run", "--max-states", "-3"], "--max-states"),
    (["hedge-mage", "solve", str(EX / "tiny-run.txt"), "--phase", "run", "--max-states", "0", "--json"],
     "--max-states"),
    (["hedge-mage", "hint", str(EX / "tiny-run.txt"), "--max-states", "0"], "--max-states"),
    (["hedge-mage", "play", "--players", "2", "--seed", "1", "--max-states", "0"], "--max-states"),
    (["hexen-rennen", "solve", str(EX / "hexen-mid.txt"), "--expect", "--max-nodes", "0"], "--max-nodes"),
])
def test_budget_below_one_is_a_usage_error(capsys: pytest.CaptureFixture[str], argv: list[str], option: str) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out + err
    assert f"{option}: expected a state budget >= 1" in out + err


def test_budget_of_one_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hedge-mage", "solve", str(EX / "tiny-run.txt"), "--phase", "run", "--max-states", "1"])
    out, _err = capsys.readouterr()
    assert code in (0, 1) and "plan" in out
