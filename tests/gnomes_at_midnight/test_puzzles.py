"""The bundled puzzles: enough of them, each solved and verified; answers re-checked by z3 (slow: all)."""

from __future__ import annotations

import tomllib

import pytest
from gnomekit.solver.gnomes_at_midnight.puzzles import load_puzzle, puzzle_files, run_puzzle

from tests.gnomes_at_midnight.make_puzzles import methods, second_opinion

FILES = puzzle_files()


def test_puzzle_set_shape() -> None:
    assert len(FILES) >= 15
    turns = {tomllib.loads(f.read_text())["answer"]["turns"] for f in FILES}
    assert turns == {1, 2, 3, 4, 5}


SHORT = [f for f in FILES if f.stem[:8] in ("win-in-1", "win-in-2", "win-in-3")]
LONG = [f for f in FILES if f not in SHORT]


@pytest.mark.parametrize("path", SHORT, ids=[f.stem for f in SHORT])
def test_puzzle_is_solved_and_verified(path) -> None:  # type: ignore[no-untyped-def]
    out = run_puzzle(path)
    assert out.solved and out.verified, out.detail


@pytest.mark.slow
@pytest.mark.parametrize("path", LONG, ids=[f.stem for f in LONG])
def test_long_puzzle_is_solved_and_verified(path) -> None:  # type: ignore[no-untyped-def]
    out = run_puzzle(path)
    assert out.solved and out.verified, out.detail


def test_a_mismatch_is_reported(tmp_path) -> None:  # type: ignore[no-untyped-def]
    src = SHORT[0].read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(src.replace("turns = 1", "turns = 2"))
    out = run_puzzle(bad)
    assert out.solved and not out.verified


def _z3_check(path) -> None:  # type: ignore[no-untyped-def]
    """The second method(s) the file names: z3 (and for 4-5 turns the reference strategy check)."""
    data, pos = load_puzzle(path)
    n = data["answer"]["turns"]
    assert data["answer"]["verified_by"] == methods(n)
    assert second_opinion(pos, n)


@pytest.mark.parametrize("path", [f for f in FILES if f.stem.startswith(("win-in-1", "win-in-2"))],
                         ids=lambda f: f.stem)
def test_short_puzzles_agree_with_z3(path) -> None:  # type: ignore[no-untyped-def]
    _z3_check(path)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_puzzle_agrees_with_the_second_method(path) -> None:  # type: ignore[no-untyped-def]
    _z3_check(path)
