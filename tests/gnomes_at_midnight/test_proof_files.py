"""The committed proof files of the opening table hold, and every win the table claims has one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gnomekit.solver.gnomes_at_midnight.proof import check_proof, read_proof

DOCS = Path(__file__).resolve().parents[2] / "docs"
PROOFS = sorted((DOCS / "proofs").glob("*.json*"))


def test_there_are_proof_files() -> None:
    assert len(PROOFS) >= 3


@pytest.mark.parametrize("path", PROOFS, ids=[p.name for p in PROOFS])
def test_committed_proof_holds(path: Path) -> None:
    data = read_proof(path)
    chk = check_proof(data)
    assert chk.ok, chk.problems
    assert chk.turns == data["turns"]
    assert f"-{data['decks']}" in path.name  # the name says what it proves: DANCE-DECKS[-sSEED]


def test_every_claimed_win_in_the_opening_table_has_a_checked_proof_file() -> None:
    """A row of docs/midnight-opening.md that claims a win names a proof file that exists and holds."""
    text = (DOCS / "midnight-opening.md").read_text(encoding="utf-8")
    claimed = re.findall(r"\[proof\]\(proofs/([^)]+)\)", text)
    wins = re.findall(r"\bwin in \d+", text.split("## The table")[1].split("##")[0])
    assert claimed, "the opening table links no proof file"
    assert len(claimed) >= len(wins) > 0
    for name in claimed:
        path = DOCS / "proofs" / name
        assert path.is_file(), name
        assert check_proof(read_proof(path)).ok, name


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from gnomekit.cli import main

    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_proof_verb_answers_holds_fails_and_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    good = PROOFS[0]
    status, out, _err = _cli(["midnight", "proof", str(good), "--json"], capsys)
    assert status == 0 and json.loads(out)["ok"] is True
    short = dict(read_proof(good), turns=read_proof(good)["turns"] - 1)
    bad = tmp_path / "short.json"
    bad.write_text(json.dumps(short), encoding="utf-8")
    status, out, _err = _cli(["midnight", "proof", str(bad)], capsys)
    assert status == 1 and "does not hold" in out and "claims" in out
    broken = tmp_path / "broken.json"
    broken.write_text('{"format":\n', encoding="utf-8")
    status, _out, err = _cli(["midnight", "proof", str(broken)], capsys)
    assert status == 2 and f"{broken}:2:1: expected JSON" in err and "Traceback" not in err
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}', encoding="utf-8")
    status, _out, err = _cli(["midnight", "proof", str(other)], capsys)
    assert status == 2 and "gnomekit-midnight-proof" in err
