"""The bundled Hedge Mage puzzles: each verifies, tampering is caught, bad files give located errors."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.solver.hedge_mage.puzzles import KINDS, load_puzzle, puzzle_files, run_puzzle, solve_puzzle

from tests.hedge_mage.hedge_mage_puzzle_reference import recheck_witness, reference_answer

# the building puzzles (the running puzzles, kind "run", are tested in test_run_puzzles.py)
FILES = [p for p in puzzle_files() if load_puzzle(p).kind != "run"]
BY_NAME = {p.stem.split("-", 1)[1]: p for p in FILES}
# The independent reference is slow (networkx per candidate): these take 10-60 s each.
SLOW_REFERENCE = {"every-tile", "not-all-three", "other-order"}


def test_enough_puzzles_of_every_kind() -> None:
    assert len(FILES) >= 10
    kinds = {load_puzzle(p).kind for p in FILES}
    assert kinds == set(KINDS) - {"run"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_bundled_puzzle_verifies(path: Path) -> None:
    out = run_puzzle(path)
    assert out.solved and out.verified, out.detail
    assert out.game == "hedge-mage" and out.name == path.stem.split("-", 1)[1]
    assert out.position_text.startswith("hedge-mage garden")
    assert out.answer_text and "\n" not in out.answer_text
    assert out.seconds > 0


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.stem.split("-", 1)[1] in SLOW_REFERENCE else p for p in FILES],
    ids=[p.stem for p in FILES],
)
def test_stored_answer_equals_the_independent_reference(path: Path) -> None:
    pz = load_puzzle(path)
    ref = reference_answer(pz)
    for key, stored in pz.answer.items():
        if key == "witness":
            assert recheck_witness(pz, stored), f"stored witness {stored} is not legal step by step"
            continue
        assert ref[key] == stored, key


def test_solving_never_reads_the_stored_answer() -> None:
    for path in FILES:
        pz = load_puzzle(path)
        blind = replace(pz, answer={})
        assert solve_puzzle(blind).answer == solve_puzzle(pz).answer


# -- tampering ----------------------------------------------------------------------------------

TAMPER = [
    ("one-way-in", "count = 1", "count = 2"),
    ("one-way-in", '"N5:F90@8,1"', '"N5:R0@8,4"'),
    ("triple-fault", 'cells = [[0, 8], [0, 9], [1, 9]]', 'cells = [[0, 8], [0, 9]]'),
    ("triple-fault", "legal = false", "legal = true"),
    ("sigil-lineup", "points = 8", "points = 7"),
    ("sigil-lineup", "\"N5:R180@7,9\"", "\"N5:F90@4,7\""),
    ("other-order", "possible = false", "possible = true"),
    ("d2-beats-l4", "points = 6", "points = 4"),
    ("nowhere-to-go", "count = 0", "count = 3"),
    ("stuck-but-saved", "substitute_count = 60", "substitute_count = 59"),
    ("block-the-runners", "block = 28", "block = 27"),
    ("block-the-runners", 'choice = "L3:R270@6,7"', 'choice = "L3:R180@6,8"'),
    ("bonus-sigil", "points = 6", "points = 5"),
    ("three-more", "possible = true", "possible = false"),
    ("not-all-three", "possible = false", "possible = true"),
    ("no-longer-held", 'rule = "wrong-tile"', 'rule = "covers"'),
]


@pytest.mark.parametrize(("name", "old", "new"), TAMPER, ids=[f"{n}:{o}" for n, o, _ in TAMPER])
def test_tampered_answer_is_not_verified(tmp_path: Path, name: str, old: str, new: str) -> None:
    text = BY_NAME[name].read_text(encoding="utf-8")
    assert text.count(old) == 1, f"tamper target {old!r} not found once in {name}"
    bad = tmp_path / f"{name}.toml"
    bad.write_text(text.replace(old, new), encoding="utf-8")
    out = run_puzzle(bad)
    assert not out.verified
    assert "DIFFERS from the puzzle file" in out.detail


def test_a_different_legal_plan_witness_still_verifies(tmp_path: Path) -> None:
    """A plan's witness is re-checked, not compared: another legal witness is fine."""
    text = BY_NAME["three-more"].read_text(encoding="utf-8")
    m = re.search(r"^witness = .*$", text, re.M)
    assert m
    other = tmp_path / "other.toml"
    other.write_text(text.replace(m.group(0), 'witness = ["N5:F90@4,7", "I4:R0@9,3", "L4m:F90@8,9"]'),
                     encoding="utf-8")
    assert recheck_witness(load_puzzle(other), ["N5:F90@4,7", "I4:R0@9,3", "L4m:F90@8,9"])
    assert run_puzzle(other).verified


# -- malformed files ------------------------------------------------------------------------------


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = BY_NAME[name].read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "bad.toml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


def _line_of(path: Path, needle: str) -> int:
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return i
    raise AssertionError(needle)


def test_toml_syntax_error_is_located(tmp_path: Path) -> None:
    p = _variant(tmp_path, "one-way-in", 'kind = "count"', 'kind = "count')
    with pytest.raises(NotationError) as ei:
        load_puzzle(p)
    assert ei.value.source == str(p)
    assert ei.value.line == _line_of(p, 'kind = "count')


def test_unknown_kind_is_located(tmp_path: Path) -> None:
    p = _variant(tmp_path, "one-way-in", 'kind = "count"', 'kind = "guess"')
    with pytest.raises(NotationError) as ei:
        load_puzzle(p)
    assert ei.value.line == _line_of(p, 'kind = "guess"') and ei.value.column == 8
    assert "unknown question kind" in ei.value.message


def test_bad_cell_in_the_position_is_located_in_the_file(tmp_path: Path) -> None:
    p = _variant(tmp_path, "one-way-in", "8  .  .  .  .  .  .", "8  .  .  ?  .  .  .")
    with pytest.raises(NotationError) as ei:
        load_puzzle(p)
    assert ei.value.line == _line_of(p, "8  .  .  ?")
    assert ei.value.column == 10 and ei.value.text == "?"
    assert "in the position" in ei.value.message


def test_bad_placement_in_the_question_is_located(tmp_path: Path) -> None:
    p = _variant(tmp_path, "triple-fault", 'place = "T4e:F270@0,7"', 'place = "T4e:F271@0,7"')
    with pytest.raises(NotationError) as ei:
        load_puzzle(p)
    assert ei.value.line == _line_of(p, "F271") and ei.value.text == "T4e:F271@0,7"


def test_answer_of_the_wrong_type_is_located(tmp_path: Path) -> None:
    p = _variant(tmp_path, "one-way-in", "count = 1", 'count = "one"')
    with pytest.raises(NotationError) as ei:
        load_puzzle(p)
    assert ei.value.line == _line_of(p, 'count = "one"') and "whole number" in ei.value.message


def test_missing_verified_by_and_unknown_keys_are_reported(tmp_path: Path) -> None:
    text = BY_NAME["one-way-in"].read_text(encoding="utf-8")
    p = tmp_path / "bad.toml"
    p.write_text(re.sub(r"^verified_by = .*\n", "", text, flags=re.M), encoding="utf-8")
    with pytest.raises(NotationError, match="verified_by"):
        load_puzzle(p)
    p2 = _variant(tmp_path, "one-way-in", "count = 1", "count = 1\nanswer_hint = 3")
    with pytest.raises(NotationError) as ei:
        load_puzzle(p2)
    assert ei.value.line == _line_of(p2, "answer_hint") and ei.value.text == "answer_hint"


def test_unreadable_puzzle_is_reported_by_run_puzzle(tmp_path: Path) -> None:
    p = _variant(tmp_path, "one-way-in", 'kind = "count"', 'kind = "guess"')
    out = run_puzzle(p)
    assert not out.solved and not out.verified
    assert re.search(r"bad\.toml:\d+:8: unknown question kind", out.detail)


def test_a_solver_crash_is_a_failed_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    import gnomekit.solver.hedge_mage.puzzles as mod

    def boom(pz: object) -> object:
        raise RuntimeError("bug")

    monkeypatch.setitem(mod.SOLVERS, "count", boom)
    out = run_puzzle(BY_NAME["one-way-in"])
    assert not out.solved and not out.verified and "RuntimeError: bug" in out.detail


def test_no_single_tile_can_be_walled_in() -> None:
    """Why 'other-order' is right: order matters only for a tile walled in by earlier hedges."""
    from gnomekit.models.hedge_mage.edition import default_edition

    from tests.hedge_mage.hedge_mage_puzzle_reference import can_be_walled_in, placements_on_board

    ed = default_edition()
    cells = placements_on_board(ed, ed.rows, ed.cols)
    assert len(cells) > 1000
    assert not any(can_be_walled_in(x, ed.rows, ed.cols) for x in cells)
    # the check can say yes: a single cell (no such tile) could be walled in by four dominoes
    assert can_be_walled_in(frozenset({(5, 5)}), ed.rows, ed.cols)


@pytest.mark.slow
def test_no_two_touching_tiles_can_be_walled_in() -> None:
    from gnomekit.models.hedge_mage.edition import default_edition

    from tests.hedge_mage.hedge_mage_puzzle_reference import can_be_walled_in, placements_on_board

    ed = default_edition()
    cells = placements_on_board(ed, ed.rows, ed.cols)
    by_cell: dict[tuple[int, int], list[int]] = {}
    for i, x in enumerate(cells):
        for c in x:
            by_cell.setdefault(c, []).append(i)
    for i, b in enumerate(cells):
        touching = {j for r, c in b for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                    for j in by_cell.get(n, []) if j > i}
        for j in touching:
            if not b & cells[j]:
                assert not can_be_walled_in(b | cells[j], ed.rows, ed.cols)
