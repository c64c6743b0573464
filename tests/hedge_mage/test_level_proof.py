"""One level of a blocking number proven in pieces (``solver/hedge_mage/level_proof.py``, ``audit-level``):
the pieces agree with exhaustive search, a run resumed from its log asks only what is left, and a log that
does not fit the question is refused at its line."""

from __future__ import annotations

import io
import json
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition
from gnomekit.models.hedge_mage.placement import legal_placements
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.solver.core.sat import SatTimeout
from gnomekit.solver.hedge_mage.audit import (
    TileAudit,
    audit_tile,
    brute_force_fewest,
    max_before,
    replay,
    setup_garden,
    twins,
)
from gnomekit.solver.hedge_mage.level_proof import (
    LevelProof,
    SplitAnswer,
    SplitJob,
    ask_split,
    header,
    level_splits,
    log_line,
    lower_bounds,
    prove_level,
    prove_level_batch,
    question_key,
    read_levels,
    read_log,
    with_levels,
)

from gnomekit.cli import main
from tests.hedge_mage.test_audit import SHAPES, check_witness, tiny, tiny_toml
from tests.hedge_mage.test_blocking import edition_of
from tests.marks import by_default


def tiny_edition_file(folder: Path) -> Path:
    """A 4x5 edition with D2, I3, L3 and T4 (quick levels for the CLI tests), written as ``folder/tiny.toml``."""
    path = folder / "tiny.toml"
    path.write_text(tiny_toml(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
                              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"]}))
    return path


def run_cli(argv: list[str]) -> tuple[int, str]:
    """Exit status and what was printed (stdout and stderr: the error messages)."""
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = main(argv)
    return code, out.getvalue()


@pytest.mark.parametrize("seed", by_default(range(6), [1, 3]))
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


@pytest.mark.slow
@pytest.mark.ci
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
    path = tiny_edition_file(tmp_path)
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


@pytest.mark.slow
@pytest.mark.ci
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


def test_cli_parts_and_jobs_on_a_small_edition(tmp_path: Path) -> None:
    """The default run's check of ``--part I/N`` and ``--jobs 2`` (the default edition's, above, are CI's):
    the tiny edition's D2 level 1 in two part logs that prove it only together, and on two workers in one
    log that settles it for a run without workers."""
    path = tiny_edition_file(tmp_path)
    ed = tiny(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"]})
    splits = level_splits(setup_garden(ed), ed, "D2", 1)
    assert len(splits) >= 2
    argv = ["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "1", "--json"]
    logs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for i, log in enumerate(logs):
        code, out = run_cli([*argv, "--part", f"{i}/2", "--log", str(log)])
        assert code == 1 and json.loads(out)["status"] == "unknown"
        assert read_log(log.read_text(), str(log), "D2", 1, splits) == {j for j in range(len(splits)) if j % 2 == i}
    code, out = run_cli([*argv, "--log", str(logs[0]), "--log", str(logs[1])])
    assert code == 0 and json.loads(out)["settled_before"] == len(splits)
    log = tmp_path / "jobs.txt"
    code, out = run_cli([*argv, "--jobs", "2", "--log", str(log)])
    data = json.loads(out)
    assert code == 0 and data["status"] == "proven" and data["unsat"] == data["splits"] == len(splits)
    assert read_log(log.read_text(), str(log), "D2", 1, splits) == set(range(len(splits)))
    code, out = run_cli([*argv, "--log", str(log)])
    assert code == 0 and json.loads(out)["settled_before"] == len(splits)


def _hard_split(monkeypatch: pytest.MonkeyPatch, hard: int, deadlines: list[float]) -> None:
    """Make split ``hard`` a question that is never answered: it notes the seconds it is given (in
    ``deadlines``) and times out at once, as if they had passed; the other splits are asked as they are."""
    from gnomekit.solver.hedge_mage import level_proof

    real = level_proof._ask

    def ask(search: Any, k: int, counts: list[int], deadline: float) -> Any:
        if counts == hard_counts[0]:
            deadlines.append(deadline - time.monotonic())
            raise SatTimeout()
        return real(search, k, counts, deadline)

    hard_counts: list[list[int]] = []
    monkeypatch.setattr(level_proof, "_ask", ask)
    ed = tiny(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"]})
    hard_counts.append(level_splits(setup_garden(ed), ed, "D2", 1)[hard])


@pytest.mark.parametrize("batch", [False, True])
def test_split_seconds_leaves_a_hard_split_and_goes_on(monkeypatch: pytest.MonkeyPatch, batch: bool) -> None:
    """``split_seconds``: a split not answered in time is heard as "timeout" and left, the run asks the
    splits after it; without it the run waits on that split until its end and asks nothing after it."""
    ed = tiny(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"]})
    base = setup_garden(ed)
    n = len(level_splits(base, ed, "D2", 1))
    assert n >= 2
    deadlines: list[float] = []
    _hard_split(monkeypatch, 0, deadlines)
    heard: list[tuple[int, str]] = []

    def note(ans: SplitAnswer, _proof: LevelProof) -> None:
        heard.append((ans.index, ans.status))

    if batch:
        proof = prove_level_batch(base, ed, "D2", 1, 600.0, on_answer=note, split_seconds=30.0)
    else:
        proof = prove_level(base, ed, "D2", 1, time.monotonic() + 600.0, on_answer=note, split_seconds=30.0)
    assert proof.status == "unknown" and proof.left == [0] and proof.unsat == set(range(1, n))
    assert (0, "timeout") in heard and len(heard) == n
    assert deadlines and 0 < deadlines[0] <= 30.0  # the split's own limit, not the run's ten minutes
    if not batch:
        heard.clear()
        proof = prove_level(base, ed, "D2", 1, time.monotonic() + 600.0, on_answer=note)
        assert heard == [(0, "timeout")] and proof.unsat == set()  # the run's end, nothing after it
    with pytest.raises(ValueError, match="split_seconds"):
        prove_level(base, ed, "D2", 1, time.monotonic() + 1.0, split_seconds=0)


def test_cli_split_time(tmp_path: Path) -> None:
    """``--split-time``: the run names it in the log; a bad value exits 2 naming the option."""
    path = tiny_edition_file(tmp_path)
    log = tmp_path / "d2.txt"
    argv = ["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "1"]
    code, out = run_cli([*argv, "--split-time", "30", "--log", str(log), "--json"])
    assert code == 0 and json.loads(out)["status"] == "proven"
    assert "--split-time 30" in log.read_text()
    code, out = run_cli([*argv, "--split-time", "0"])
    assert code == 2 and "--split-time" in out


def _complete_log(base: Garden, ed: HedgeMageEdition, tile: str, k: int) -> str:
    """The log of a whole level asked in one run (every split UNSAT), as ``audit-level --log`` writes it."""
    lines = [header(tile, k, ed.name, len(level_splits(base, ed, tile, k)))]

    def heard(ans: SplitAnswer, proof: LevelProof) -> None:
        if ans.status == "unsat":
            lines.append(log_line(ans, proof, 0.0))

    proof = prove_level(base, ed, tile, k, time.monotonic() + 120, on_answer=heard)
    assert proof.status == "proven", (tile, k)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", by_default(range(4), [2]))
def test_a_complete_level_log_proves_a_witness_optimal(seed: int) -> None:
    """Small editions: a budget-cut answer (lower 1, the brute-force value's witness) with the complete log of
    level value - 1 becomes proven at the brute-force value; the log of a lower level only raises the bound;
    a log that contradicts a witness is refused."""
    ed = edition_of(seed, symmetric=seed % 2 == 1)
    base = setup_garden(ed)
    seen = 0
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        if bf is None or bf < 2:
            continue
        full = audit_tile(base, ed, tile, 60)
        assert full.value == bf
        cut = replace(full, status="unknown", lower=1, stats={})
        log = _complete_log(base, ed, tile, bf - 1)
        [rec] = read_levels([(log, "lvl.txt")], base, ed)
        assert rec.complete and (rec.tile, rec.k, rec.sources) == (tile, bf - 1, ("lvl.txt",))
        head, *done = log.splitlines()
        [bare] = read_levels([(head, "bare.txt")], base, ed)  # no split settled yet: not used
        assert not bare.complete and with_levels([cut], [bare], base, ed) == [cut]
        halves = [(head + "\n" + "\n".join(done[i::2]), f"part{i}.txt") for i in range(2)]
        [both] = read_levels(halves, base, ed)  # the logs of two parts, read together
        assert both.complete and both.sources == ("part0.txt", "part1.txt")
        [got] = with_levels([cut], [rec], base, ed)
        assert got.value == bf and got.level_logs == ["lvl.txt"] and got.stats["unsat_at"] == bf - 1
        assert got.to_json()["level_logs"] == ["lvl.txt"] and got.sequence == full.sequence
        if bf >= 3:
            low = read_levels([(_complete_log(base, ed, tile, bf - 2), "low.txt")], base, ed)
            [part] = with_levels([cut], low, base, ed)
            assert part.status == "unknown" and part.lower == bf - 1 and part.upper == bf
        short = replace(cut, upper=bf - 1)  # a witness the log says cannot exist: the log is wrong
        with pytest.raises(NotationError) as err:
            with_levels([short], [rec], base, ed)
        assert err.value.source == "lvl.txt"
        seen += 1
    assert seen >= 1


@pytest.mark.parametrize("seed", by_default(range(4), [1, 3]))
def test_the_audit_starts_at_a_logs_level(seed: int) -> None:
    """Small editions: ``audit_tile(lower=v)`` with the brute-force value v (as ``lower_bounds`` gives it from
    a complete log of level v - 1, to the tile and its twins) proves v with a replayed witness of v placements,
    never claims a shorter one, and runs no MaxSAT; with the quick witness as ``known`` it asks no SAT question
    at all. ``with_levels`` then names the log. A bound outside 1..max_before + 1 is a ValueError."""
    ed = edition_of(seed, symmetric=seed % 2 == 0)
    base = setup_garden(ed)
    rep = twins(base, ed)
    seen = 0
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        if bf is None or bf < 2:
            continue
        log = _complete_log(base, ed, tile, bf - 1)
        recs = read_levels([(log, "lvl.txt")], base, ed)
        lows = lower_bounds(recs, base, ed)
        assert lows == {t: bf for t in ed.tiles if rep[t] == rep[tile]}
        assert lower_bounds([replace(recs[0], settled=frozenset())], base, ed) == {}  # incomplete: no bound
        got = audit_tile(base, ed, tile, 60, lower=lows[tile])
        assert got.value == bf and len(got.sequence) == bf and got.stats["lower_given"] == bf
        assert "maxsat_optima" not in got.stats
        check_witness(base, ed, tile, got.sequence, replay(base, ed, got.sequence))
        again = audit_tile(base, ed, tile, 60, lower=bf, known=got.sequence)
        assert again.value == bf and again.stats["exact_sat_calls"] == 0
        [named] = with_levels([got], recs, base, ed)
        assert named.level_logs == ["lvl.txt"] and named.value == bf
        for bad in (0, max_before(ed) + 2):
            with pytest.raises(ValueError):
                audit_tile(base, ed, tile, 5, lower=bad)
        seen += 1
    assert seen >= 1


def test_the_recorded_logs_settle_the_default_twins() -> None:
    """The offline logs of docs/audit, read as ``audit --level-log`` reads them: L3's level 5 with the
    10-minute audit's 6-placement witness (docs/audit/hedge-mage-a-2026-12-04.json.gz) proves L3 = 6 and, by
    its twin, L3e = 6; I3's log proves I3 and I3m; L4's two parts, read together, prove L4 and L4m; D2's level 6
    (two parts) raises its range to 7-8, above its level 5; no log touches another tile."""
    import gzip

    ed = default_edition()
    base = setup_garden(ed)
    root = Path(__file__).parents[2] / "docs/audit"
    names = ("I3-not-with-5.txt", "L3-not-with-5.txt", "D2-not-with-5.txt", "L4-not-with-5.part-0.txt",
             "L4-not-with-5.part-1.txt", "D2-not-with-6.part-0.txt", "D2-not-with-6.part-1.txt")
    logs = [((root / f"hedge-mage-{n}").read_text(), str(root / f"hedge-mage-{n}")) for n in names]
    recs = read_levels(logs, base, ed)
    assert [(r.tile, r.k, r.complete, r.splits) for r in recs] == [("I3", 5, True, 179), ("L3", 5, True, 179),
                                                                   ("D2", 5, True, 131), ("L4", 5, True, 179),
                                                                   ("D2", 6, True, 131)]
    doc = json.loads(gzip.decompress((root / "hedge-mage-a-2026-12-04.json.gz").read_bytes()))
    answers = [TileAudit(t["tile"], t["status"], t["lower_bound"], t["upper_bound"], t["max_before"])
               for t in doc["per_tile"]["tiles"]]
    got = {a.tile: a for a in with_levels(answers, recs, base, ed)}
    l4 = [logs[3][1], logs[4][1]]
    for tile, want in (("I3", [logs[0][1]]), ("I3m", [logs[0][1]]), ("L3", [logs[1][1]]), ("L3e", [logs[1][1]]),
                       ("L4", l4), ("L4m", l4)):
        assert got[tile].status == "proven" and got[tile].value == 6 and got[tile].level_logs == want, tile
    d2 = got["D2"]
    assert (d2.status, d2.lower, d2.upper, d2.level_logs) == ("unknown", 7, 8, [logs[5][1], logs[6][1]])
    for tile in ("I4", "T4", "T4e", "S4", "N5"):
        before = next(a for a in answers if a.tile == tile)
        assert got[tile] == before, tile
    assert sum(a.status == "proven" for a in got.values()) == 11


def test_audit_takes_level_logs_and_refuses_bad_ones(tmp_path: Path) -> None:
    """``audit --level-log``: the log is read, its level is where the audit's search starts (the tile's lower
    bound, named in the answer); a log for another edition, a missing file, a log without part (a) or with
    other enchantments exit 2."""
    path = tiny_edition_file(tmp_path)
    log = tmp_path / "d2.txt"
    code, _ = run_cli(["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "1",
                       "--log", str(log)])
    assert code == 0
    argv = ["hedge-mage", "audit", "--edition", str(path), "--parts", "a", "--tiles", "D2", "--jobs", "1",
            "--time-per-tile", "30", "--level-log", str(log)]
    code, out = run_cli(argv + ["--json"])
    data = json.loads(out)
    [d2] = data["per_tile"]["tiles"]
    assert code == 0 and d2["fewest_placements"] == 2 and d2["stats"]["unsat_at"] == 1
    assert d2["stats"]["lower_given"] == 2 and d2["level_logs"] == [str(log)]
    [rec] = data["per_tile"]["level_logs"]
    assert rec == {"tile": "D2", "k": 1, "logs": [str(log)], "splits": rec["splits"], "unsat": rec["splits"],
                   "complete": True}
    code, out = run_cli(argv)
    said = f"level log {log}: no garden of at most 1 earlier placements blocks D2 (all {rec['splits']} splits UNSAT)"
    assert code == 0 and f"{said}; used for D2" in out and "D2    2 (proven)" in out
    code, out = run_cli(["hedge-mage", "audit", "--parts", "a", "--tiles", "D2", "--level-log", str(log)])
    assert code == 2 and f"{log}:1:" in out and "edition tiny, not default" in out
    for bad in (["--level-log", str(tmp_path / "none.txt")], ["--parts", "b", "--level-log", str(log)],
                ["--enchantments", "fl,pu,mu", "--level-log", str(log)], ["--level-log", str(path)]):
        code, out = run_cli(["hedge-mage", "audit", "--edition", str(path), "--tiles", "D2", *bad])
        assert code == 2 and "Traceback" not in out, (bad, out)


@pytest.mark.parametrize(("tile", "k", "n", "complete"), [("L4", 5, 179, True), ("D2", 6, 131, True)])
def test_the_parts_of_a_long_level_read_back(tile: str, k: int, n: int, complete: bool) -> None:
    """docs/audit/hedge-mage-<tile>-not-with-<k>.part-*.txt, a level asked in two parts side by side (L4's 5
    and D2's 6 proven): each part alone is incomplete, the two read together as ``audit --level-log``
    reads them hold the union of their UNSAT lines (each line fits its split), no split is answered in both,
    and when the level is complete every one of its splits is there."""
    ed = default_edition()
    base = setup_garden(ed)
    paths = sorted((Path(__file__).parents[2] / "docs/audit").glob(f"hedge-mage-{tile}-not-with-{k}.part-*.txt"))
    assert [p.name[-10:] for p in paths] == ["part-0.txt", "part-1.txt"]
    parts = []
    for p in paths:
        [one] = read_levels([(p.read_text(), str(p))], base, ed)
        assert (one.tile, one.k, one.splits, one.sources) == (tile, k, n, (str(p),)) and not one.complete
        parts.append(one.settled)
    assert parts[0] and parts[1] and not parts[0] & parts[1]
    [rec] = read_levels([(p.read_text(), str(p)) for p in paths], base, ed)
    assert rec.settled == parts[0] | parts[1] and rec.complete == complete
    if complete:
        assert rec.settled == frozenset(range(n))


@pytest.mark.parametrize("seed", by_default(range(3), [2]))
def test_the_batch_form_gives_the_same_answers(seed: int) -> None:
    """``prove_level_batch`` (a split a task, a model each) settles the same splits as ``prove_level`` (one
    solver) on small editions, below the brute-force value and at it, in this process and on two workers."""
    from gnomekit.solver.core.batch import INLINE, Backend

    ed = edition_of(seed)
    base = setup_garden(ed)
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        for k in range(1, min(bf or max_before(ed), 3) + 1):
            one = prove_level(base, ed, tile, k, time.monotonic() + 60)
            heard: list[SplitAnswer] = []
            many = prove_level_batch(base, ed, tile, k, 60, on_answer=lambda a, _p, h=heard: h.append(a),
                                     backend=INLINE if k % 2 else Backend("processes", 2))
            assert many.status == one.status, (seed, tile, k)
            if one.status == "proven":
                assert many.unsat == one.unsat and sorted(a.index for a in heard) == list(range(len(one.splits)))
            else:
                assert many.blocking is not None and len(many.blocking) <= k
                check_witness(base, ed, tile, many.blocking, replay(base, ed, many.blocking))


def test_a_batch_split_past_the_end_is_not_settled() -> None:
    """A split task that starts after the run's end is "unasked", one the end cuts is "timeout": neither is
    settled (L4's split 5 at k = 5 took 635 s; 0.5 s cannot settle it)."""
    ed = default_edition()
    base = setup_garden(ed)
    splits = level_splits(base, ed, "L4", 5)
    late = ask_split(base, ed, "L4", 5, SplitJob(5, tuple(splits[5]), time.time() - 1))
    assert late.status == "unasked" and late.seconds == 0
    cut = ask_split(base, ed, "L4", 5, SplitJob(5, tuple(splits[5]), time.time() + 0.5))
    assert cut.status == "timeout" and 0.3 < cut.seconds < 30
    proof = prove_level_batch(base, ed, "L4", 5, 0.5, settled=set(range(5)), only={5, 6})
    assert proof.unsat == set(range(5)) and proof.status == "unknown" and proof.blocking is None


@pytest.mark.slow
@pytest.mark.ci
def test_cli_jobs_proves_a_level_on_workers_with_one_log(tmp_path: Path) -> None:
    """``audit-level --jobs 2``: N5's level 3 proven on two workers, every split in the one log (read back);
    the same log then settles the level for a run without workers; bad --jobs exits 2."""
    log = tmp_path / "n5.txt"
    code, out = run_cli(["hedge-mage", "audit-level", "--tile", "N5", "--k", "3", "--jobs", "2", "--time", "300",
                         "--log", str(log), "--json"])
    data = json.loads(out)
    assert code == 0 and data["status"] == "proven" and data["unsat"] == data["splits"] == 59
    ed = default_edition()
    splits = level_splits(setup_garden(ed), ed, "N5", 3)
    assert read_log(log.read_text(), str(log), "N5", 3, splits) == set(range(59))
    assert "--jobs 2" in log.read_text().splitlines()[1]
    code, out = run_cli(["hedge-mage", "audit-level", "--tile", "N5", "--k", "3", "--log", str(log), "--json"])
    assert code == 0 and json.loads(out)["settled_before"] == 59
    code, out = run_cli(["hedge-mage", "audit-level", "--tile", "N5", "--k", "3", "--jobs", "0"])
    assert code == 2 and "--jobs" in out


@pytest.mark.slow
@pytest.mark.ci
def test_cli_ray_proves_a_level_with_one_log(tmp_path: Path) -> None:
    """``audit-level --ray``: the tiny edition's D2 level 1 asked as Ray tasks (a local runtime of 2 CPUs),
    every split in the log, the same answer as in-process."""
    from tests.core.test_batch import _ray_or_skip

    _ray_or_skip()
    path = tiny_edition_file(tmp_path)
    log = tmp_path / "d2.txt"
    argv = ["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "1", "--json"]
    try:
        code, out = run_cli([*argv, "--ray", "--jobs", "2", "--log", str(log)])
    finally:
        import ray

        ray.shutdown()
    data = json.loads(out)
    code1, out1 = run_cli(argv)
    one = json.loads(out1)
    assert code == code1 == 0 and data["status"] == one["status"] == "proven"
    assert data["unsat"] == one["unsat"] == data["splits"]
    ed = tiny(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"]})
    splits = level_splits(setup_garden(ed), ed, "D2", 1)
    assert read_log(log.read_text(), str(log), "D2", 1, splits) == set(range(len(splits)))


def test_the_audit_text_says_how_to_go_on_with_each_open_tile() -> None:
    """Part (a)'s text names an ``audit-level`` command for every open tile searched, at its lower bound, in
    the logs of a level begun in ``--level-log`` (else ``--log FILE``); tiles answered by a twin are left out."""
    from gnomekit.solver.hedge_mage.level_proof import LevelRecord

    from gnomekit.hedge_mage_audit_cli import _text_tiles

    ed = default_edition()
    res = [TileAudit("D2", "unknown", 6, 8, 9), TileAudit("L4", "unknown", 5, 6, 9),
           TileAudit("L4m", "unknown", 5, 6, 9, answered_with="L4"), TileAudit("N5", "proven", 4, 4, 9)]
    begun = LevelRecord("L4", 5, ("a.txt", "b.txt"), frozenset({0, 1}), 179)
    text = _text_tiles(res, ed, 1.0, 15.0, levels=[(begun, ["L4", "L4m"])])
    assert "    gnomekit hedge-mage audit-level --tile D2 --k 6 --log FILE" in text
    assert "    gnomekit hedge-mage audit-level --tile L4 --k 5 --log a.txt --log b.txt" in text
    assert "--tile L4m" not in text and "--tile N5" not in text
    assert "level log a.txt + b.txt: L4 at k = 5, 2 of 179 splits UNSAT: not complete, not used" in text


def test_a_log_of_an_edited_edition_with_the_same_name_is_refused(tmp_path: Path) -> None:
    """The header's question digest (``question_key``: setup garden, tiles, placements allowed, tile, k): a log
    proven on one tiny edition is refused for another of the same name whose shaded cells differ, by the
    audit and by ``audit-level``; a header without a digest (older logs) is read by name and splits."""
    tiles = {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"]}
    a = tiny(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]], tiles)
    b = tiny(4, 5, [[0, 0], [3, 4]], [[1, 3], [2, 0]], tiles)
    assert a.name == b.name
    log = _complete_log(setup_garden(a), a, "D2", 1)
    head = header("D2", 1, a.name, len(level_splits(setup_garden(a), a, "D2", 1)),
                  question_key(setup_garden(a), a, "D2", 1))
    log = log.replace(log.splitlines()[0], head, 1)
    assert read_levels([(log, "a.txt")], setup_garden(a), a)[0].complete
    assert question_key(setup_garden(a), a, "D2", 1) != question_key(setup_garden(b), b, "D2", 1)
    with pytest.raises(NotationError) as err:
        read_levels([(log, "a.txt")], setup_garden(b), b)
    assert "question" in str(err.value) and (err.value.line, err.value.column) == (1, head.index("question=") + 10)
    path = tmp_path / "b.toml"
    path.write_text(tiny_toml(4, 5, [[0, 0], [3, 4]], [[1, 3], [2, 0]], tiles))
    (tmp_path / "a.txt").write_text(log)
    code, out = run_cli(["hedge-mage", "audit-level", "--edition", str(path), "--tile", "D2", "--k", "1",
                         "--log", str(tmp_path / "a.txt")])
    assert code == 2 and "the setup garden or the tiles differ" in out
    bare = log.replace(head, header("D2", 1, a.name, len(level_splits(setup_garden(a), a, "D2", 1))), 1)
    assert read_levels([(bare, "old.txt")], setup_garden(a), a)[0].complete
