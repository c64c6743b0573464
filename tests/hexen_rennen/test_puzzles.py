"""The bundled puzzles: at least ten, each solved from scratch, replayed and verified by z3 (as in the tour)."""

from __future__ import annotations

from gnomekit.solver.hexen_rennen.puzzles import puzzle_files, run_puzzle


def test_puzzles_verify() -> None:
    files = puzzle_files()
    assert len(files) >= 10
    for f in files:
        out = run_puzzle(f)
        assert out.solved and out.verified, (f.name, out.detail)


def test_a_tampered_puzzle_is_a_mismatch(tmp_path) -> None:
    good = next(f for f in puzzle_files() if f.stem.startswith("01-"))
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text(encoding="utf-8").replace("value = 11", "value = 15"), encoding="utf-8")
    out = run_puzzle(bad)
    assert out.solved and not out.verified and "value: stored 15, found 11" in out.detail
