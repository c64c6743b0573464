"""One level of a blocking number proven in pieces (``solver/hedge_mage/level_proof.py``, ``audit-level``):
the pieces agree with exhaustive search, a run resumed from its log asks only what is left, and a log that
does not fit the question is refused at its line."""

from __future__ import annotations

import io
import json
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.placement import legal_placements
from gnomekit.solver.hedge_mage.audit import brute_force_fewest, max_before, replay, setup_garden
from gnomekit.solver.hedge_mage.level_proof import (
    LevelProof,
    SplitAnswer,
    header,
    level_splits,
    log_line,
    prove_level,
    read_log,
)

from gnomekit.cli import main
from tests.hedge_mage.test_audit import SHAPES, check_witness, tiny_toml
from tests.hedge_mage.test_blocking import edition_of


def run_cli(argv: list[str]) -> tuple[int, str]:
    """Exit status and what was printed (stdout and stderr: the error messages)."""
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = main(argv)
    return code, out.getvalue()


@pytest.mark.parametrize("seed", range(6))
def test_levels_match_brute_force(seed: int) -> None:
    """Below the brute-force value every split is UNSAT ("proven"); at the value a split finds a garden that
    replays legally and blocks the tile ("blocks"), so the level's answer is never wrong either way."""
    ed = edition_of(seed, symmetric=seed % 2 == 0)
    base = setup_garden(ed)
    for tile in ed.tiles:
        if not legal_placements(base, ed.tiles[tile]).placements:
            continue
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        for k in range(1, max_before(ed) + 1):
            proof = prove_level(base, ed, tile, k, time.monotonic() + 60)
            want = "blocks" if bf is not None and k >= bf else "proven"
            assert proof.status == want, (seed, tile, k, bf)
            if want == "proven":
                assert proof.unsat == set(range(len(proof.splits))) and not proof.left
            else:
                assert proof.blocking is not None and len(proof.blocking) <= k
                check_witness(base, ed, tile, proof.blocking, replay(base, ed, proof.blocking))
                break


def test_resumed_run_asks_only_what_is_left_and_the_log_reads_back() -> None:
    """A level cut into runs by deadlines: each run skips the splits the log settles, a split cut by the
    deadline is asked again, and the union is the one-call answer (I4 at k = 4 on the default edition)."""
    ed = default_edition()
    base = setup_garden(ed)
    splits = level_splits(base, ed, "I4", 4)
    lines = [header("I4", 4, ed.name, len(splits))]
    asked: list[int] = []

    def heard(ans: SplitAnswer, proof: LevelProof) -> None:
        asked.append(ans.index)
        if ans.status == "unsat":
            lines.append(log_line(ans, proof, 0.0))

    settled: set[int] = set()
    runs = 0
    while True:
        runs += 1
        proof = prove_level(base, ed, "I4", 4, time.monotonic() + 1.0 + runs, settled, heard, only=range(3))
        assert proof.blocking is None
        again = read_log("\n".join(lines), "log", "I4", 4, splits)
        assert again == proof.unsat and settled <= again
        if again == set(range(3)):
            break
        settled = again
        assert runs < 20
    assert len(asked) >= 3 and not set(asked) - set(range(3))
    late = prove_level(base, ed, "I4", 4, time.monotonic(), set(), heard)
    assert late.unsat == set() and late.question_seconds == 0  # a passed deadline: nothing asked, nothing claimed
    assert len(splits) == 101 and proof.status == "unknown" and proof.left == list(range(3, 101))


def test_a_log_for_another_question_is_refused_at_its_line() -> None:
    ed = default_edition()
    splits = level_splits(setup_garden(ed), ed, "I4", 4)
    with pytest.raises(NotationError) as err:
        read_log("# a note\n" + header("L4", 5, ed.name, 179), "x.txt", "I4", 4, splits)
    assert (err.value.source, err.value.line, err.value.column) == ("x.txt", 2, 1)
    assert "tile L4 at k = 5" in str(err.value)
    wrong = f"  1.0s split 3 {splits[4]}: UNSAT in 1.0s"
    with pytest.raises(NotationError) as err:
        read_log(f"# note\n\n{wrong}", "x.txt", "I4", 4, splits)
    assert err.value.line == 3 and err.value.column == wrong.index("[") + 1
    with pytest.raises(NotationError):
        read_log("  1.0s split 101 [0]: UNSAT in 1.0s", "x.txt", "I4", 4, splits)


def test_cli_proves_a_level_across_runs(tmp_path: Path) -> None:
    """``audit-level`` with ``--log``: unknown (exit 1) while splits are left, a second run goes on, proven
    (exit 0) when all are UNSAT; a level at the value gives the witness; bad options exit 2."""
    path = tmp_path / "tiny.toml"
    path.write_text(tiny_toml(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
                              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"]}))
    log = tmp_path / "d2.txt"
    code, out = run_cli(["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "1",
                         "--log", str(log), "--json"])
    data = json.loads(out)
    assert code == 0 and data["status"] == "proven" and data["unsat"] == data["splits"] and data["left"] == []
    assert log.read_text().startswith("# level-proof tile=D2 k=1 edition=tiny")
    code, out = run_cli(["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "1",
                         "--log", str(log), "--json"])
    data = json.loads(out)
    assert code == 0 and data["settled_before"] == data["splits"] and data["question_seconds"] == 0
    code, out = run_cli(["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "2"])
    assert code == 0 and "blocked by 2 earlier placements" in out  # the hand example's value is 2
    code, out = run_cli(["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "2",
                         "--log", str(log)])
    assert code == 2 and f"{log}:1:1" in out and "tile D2 at k = 1, not D2 at k = 2" in out
    for bad in (["--tile", "X9", "--k", "1"], ["--tile", "D2", "--k", "0"],
                ["--tile", "D2", "--k", "1", "--time", "0"], ["--tile", "D2", "--k", "1", "--part", "2/2"],
                ["--tile", "D2", "--k", "1", "--part", "one"]):
        code, _ = run_cli(["hedge-mage", "audit-level", "--edition", str(path), *bad])
        assert code == 2, bad


def test_a_cut_run_says_unknown_and_how_to_go_on(tmp_path: Path) -> None:
    log = tmp_path / "t4.txt"
    code, out = run_cli(["hedge-mage", "audit-level", "--tile", "T4", "--k", "4", "--time", "2", "--log", str(log)])
    assert code == 1 and "T4 at k = 4: unknown" in out and f"run again with --log {log}" in out
    splits = level_splits(setup_garden(default_edition()), default_edition(), "T4", 4)
    settled = read_log(log.read_text(), str(log), "T4", 4, splits)
    assert f"{len(settled)} of {len(splits)} splits UNSAT" in out


def test_parts_split_the_level_between_logs(tmp_path: Path) -> None:
    """``--part I/N`` asks the splits numbered I modulo N; the logs of all parts, read together, prove the level."""
    ed = default_edition()
    splits = level_splits(setup_garden(ed), ed, "N5", 3)
    logs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for i, log in enumerate(logs):
        code, out = run_cli(["hedge-mage", "audit-level", "--tile", "N5", "--k", "3", "--part", f"{i}/2",
                             "--log", str(log), "--json"])
        data = json.loads(out)
        assert code == 1 and data["status"] == "unknown"
        mine = read_log(log.read_text(), str(log), "N5", 3, splits)
        assert mine == {j for j in range(len(splits)) if j % 2 == i}
    code, out = run_cli(["hedge-mage", "audit-level", "--tile", "N5", "--k", "3", "--log", str(logs[0]),
                         "--log", str(logs[1]), "--json"])
    data = json.loads(out)
    assert code == 0 and data["status"] == "proven" and data["settled_before"] == len(splits) == 59
