"""``gnomekit tour``: runs every bundled puzzle, prints a summary, exits 1 on any disagreement."""

from __future__ import annotations

import json
from pathlib import Path

import gnomekit.solver.gnomes_at_midnight.puzzles as mid_puzzles
import gnomekit.solver.hedge_mage.puzzles as hm_puzzles
import pytest

from gnomekit.cli import main
from gnomekit.tour_runner import TOUR_GAMES

GAMES = [g for g, _ in TOUR_GAMES]


def _every_game_solved_and_verified(out: str) -> None:
    """The text of a whole tour: every game's puzzles shown, each row all solved and verified."""
    assert "=== hedge-mage 1/" in out and "question:" in out and "answer:" in out
    header = [line for line in out.splitlines() if line.startswith("game ")]
    assert header and all(w in header[0] for w in ("puzzles", "solved", "verified", "time"))
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.split()[:1] and line.split()[0] in GAMES and line.split()[1].isdigit()}
    assert set(rows) == set(GAMES)
    for game, row in rows.items():
        n = row[1]
        assert n != "0" and row[2:4] == [f"{n}/{n}", f"{n}/{n}"], row
        assert f"=== {game} {n}/{n}:" in out
    n = len(hm_puzzles.puzzle_files())
    assert rows["hedge-mage"][1] == str(n)
    assert "puzzles solved and verified" in out and "MISMATCH" not in out


@pytest.mark.slow
@pytest.mark.ci
def test_tour_solves_and_verifies_everything(capsys: pytest.CaptureFixture[str]) -> None:
    """``gnomekit tour`` as the README runs it: every bundled puzzle (about 20 s of solving; CI runs it)."""
    assert main(["tour"]) == 0
    out = capsys.readouterr().out
    _every_game_solved_and_verified(out)
    assert f"=== gnomes-at-midnight {len(mid_puzzles.puzzle_files())}/" in out


def test_tour_solves_and_verifies_every_game(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole tour, every game's puzzles but Gnomes at Midnight's wins in 4 and 5 (three quarters of
    the tour's time; the full tour above and tests/gnomes_at_midnight/test_puzzles.py's long puzzles are
    slow, and CI runs them)."""
    files = mid_puzzles.puzzle_files()
    short = [f for f in files if f.stem[:8] in ("win-in-1", "win-in-2", "win-in-3")]
    assert 0 < len(short) < len(files)
    monkeypatch.setattr(mid_puzzles, "puzzle_files", lambda: short)  # the tour lists them in this process
    assert main(["tour"]) == 0
    out = capsys.readouterr().out
    _every_game_solved_and_verified(out)
    assert f"=== gnomes-at-midnight {len(short)}/{len(short)}:" in out and "win-in-4" not in out


def test_tour_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tour", "--json", "--game", "hedge-mage"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"puzzles", "summary", "ok"}
    assert data["ok"] is True
    assert set(data["summary"]) == {"puzzles", "solved", "verified", "seconds"}
    assert data["summary"]["puzzles"] == data["summary"]["verified"] == len(hm_puzzles.puzzle_files())
    for p in data["puzzles"]:
        assert {"game", "name", "question", "solved", "verified", "seconds", "answer", "detail"} <= set(p)
        assert p["game"] == "hedge-mage" and p["verified"] is True


def test_tour_quiet_prints_only_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tour", "--quiet", "--game", "hedge-mage"]) == 0
    out = capsys.readouterr().out
    assert "===" not in out and "hedge-mage garden" not in out and "hedge-mage " in out


def test_tour_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tour", "--game", "nope"]) == 2
    assert "unknown game 'nope'" in capsys.readouterr().err


def test_tour_exits_1_when_a_puzzle_disagrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = next(p for p in hm_puzzles.puzzle_files() if p.stem.endswith("one-way-in"))
    bad = tmp_path / "99-tampered.toml"
    bad.write_text(good.read_text(encoding="utf-8").replace("count = 1", "count = 2"), encoding="utf-8")
    monkeypatch.setattr(hm_puzzles, "puzzle_files", lambda: [good, bad])
    assert main(["tour", "--game", "hedge-mage"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "DIFFERS from the puzzle file: count: stored 2, found 1" in out
    assert main(["tour", "--game", "hedge-mage", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["summary"]["verified"] == 1


def test_tour_fails_a_puzzle_whose_cross_check_did_not_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = next(p for p in hm_puzzles.puzzle_files() if p.stem.endswith("one-way-in"))
    real = hm_puzzles.run_puzzle

    def skipped(path: Path) -> object:
        out = real(path)
        out.checks_applied = (*out.checks_applied, "imaginary")
        return out

    monkeypatch.setattr(hm_puzzles, "puzzle_files", lambda: [good])
    monkeypatch.setattr(hm_puzzles, "run_puzzle", skipped)
    assert main(["tour", "--game", "hedge-mage"]) == 1
    out = capsys.readouterr().out
    assert "did not run: imaginary" in out and "MISMATCH" in out


def test_tour_names_a_module_that_fails_to_import(monkeypatch: pytest.MonkeyPatch) -> None:
    import gnomekit.tour_runner as tr

    monkeypatch.setattr(tr, "TOUR_GAMES", [("hedge-mage", "gnomekit.solver.hedge_mage.no_such_module")])
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        main(["tour", "--game", "hedge-mage"])
