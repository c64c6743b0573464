"""Fuzzing Gnome Hollow through the CLI (issue 17): positions (text, JSON), placements, editions, options.

Every mutated input must end without a traceback, with exit 0, 1 or 2, and an exit-2 message that
names where the problem is.  ``N`` inputs per seed text by default; ``--runslow`` runs 100 times more.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.fuzz.harness import WEIRD_NUMBERS, Outcome, located, mutants, run

ROOT = Path(__file__).resolve().parents[2]
MID = str(ROOT / "docs" / "examples" / "hollow-mid.txt")
EDITION = ROOT / "models" / "gnome_hollow" / "data" / "default.toml"
N = 95  # per seed text: 6 positions, 2 placements, edition, options, a game record -> about 1,000 inputs
SLOW = 103  # --runslow: 103x the default, just over 100,000 inputs (100x ran 98,172)


def _problem(o: Outcome, *sources: str) -> str | None:
    """What is wrong with one run, if anything."""
    if o.crash or o.code not in (0, 1, 2):
        return f"{o.crash or f'exit {o.code}'} for {o.argv}"
    if o.code == 2 and not any(located(o, s) for s in sources):
        return f"unlocated {o.err[:200]!r} for {o.argv}"
    return None


def _seeds() -> list[str]:
    """The documented example and a few random positions, each as text and as JSON."""
    texts = [Path(MID).read_text()]
    texts.append(run(["hollow", "show", MID, "--json"]).out)
    for seed in (1, 5):
        texts.append(run(["hollow", "random", "--seed", str(seed)]).out)
        texts.append(run(["hollow", "random", "--seed", str(seed), "--turns", "3", "--json"]).out)
    assert all(t.strip() for t in texts)
    return texts


def _fuzz_positions(tmp: Path, n: int) -> list[str]:
    rng = random.Random(17)
    path = tmp / "pos.txt"
    problems = []
    for base in _seeds():
        for text in mutants(base, rng, n):
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            argv = ["hollow", rng.choice(["show", "moves"]), str(path)]
            argv += rng.choice([[], ["--json"], ["--count"] if argv[1] == "moves" else ["--json"]])
            o = run(argv)
            if p := _problem(o, str(path)):
                problems.append(p + f" on {text[:200]!r}")
    return problems


def _fuzz_placements(n: int) -> list[str]:
    rng = random.Random(18)
    problems = []
    for base in ("G31@0,-1:r2 G61@1,-1:r4", '{"tile": "G31", "cell": [0, -1], "orientation": 2}'):
        for text in mutants(base, rng, n):
            o = run(["hollow", "check", MID, "--place", *(text.split() or [text])])
            if p := _problem(o, "--place", MID):
                problems.append(p)
    return problems


def _fuzz_edition(tmp: Path, n: int) -> list[str]:
    rng = random.Random(19)
    path = tmp / "ed.toml"
    problems = []
    for text in mutants(EDITION.read_text(), rng, n):
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        o = run(["hollow", "show", MID, "--edition", str(path)])
        if p := _problem(o, str(path), MID):
            problems.append(p)
    return problems


def _option_runs(rng: random.Random, n: int) -> list[list[str]]:
    """Numeric and string options with weird values (solve only with tiny budgets)."""
    out = []
    for _ in range(n):
        v = rng.choice(WEIRD_NUMBERS + ["1e20", "0.01", "2", "3"])
        out.append(rng.choice([
            ["hollow", "new", "--players", v], ["hollow", "new", "--seed", v],
            ["hollow", "random", "--seed", v, "--turns", "1"], ["hollow", "random", "--seed", "1", "--turns", v],
            ["hollow", "random", "--seed", "2", "--players", v, "--turns", "1"],
            ["hollow", "solve", MID, "--time-limit", v if v not in ("1e20", "99999999999", "1" + "0" * 30, "2", "3")
             else "0", "--close", "0,0.0"],
            ["hollow", "hint", MID, "--time-limit", "0", "--weights", f"ring={v}"],
            ["hollow", "solve", MID, "--time-limit", "0", "--weights", f"flower={v},ring=1"],
            ["hollow", "solve", MID, f"--close={v},0.0", "--time-limit", "0.05"],
            ["hollow", "check", MID, "--place", f"G31@{v},-1:r2"],
            ["hollow", "play", "--players", v, "--games", "1"], ["hollow", "play", "--games", v, "--players", "1"],
            ["hollow", "play", "--max-states", v, "--players", "9"],
            ["hollow", "play", "--policy", rng.choice(["greedy,", ",", "random,random,random,random,random", v]),
             "--players", "2"],
        ]))
    return out


def _fuzz_options(n: int) -> list[str]:
    rng = random.Random(20)
    return [p for argv in _option_runs(rng, n) if (p := _problem(run(argv), "x"))]


def _fuzz_records(tmp: Path, n: int) -> list[str]:
    """Mutated game records through ``play --replay`` (a short game: the replay is quick)."""
    rng = random.Random(21)
    path = tmp / "game.record"
    rec = tmp / "seed.record"
    assert run(["hollow", "play", "--seed", "3", "--record", str(rec)]).code == 0
    problems = []
    for text in mutants(rec.read_text(), rng, n):
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        o = run(["hollow", "play", "--replay", str(path), *rng.choice([[], ["--json"]])])
        if p := _problem(o, str(path)):
            problems.append(p + f" on {text[:200]!r}")
        if o.code == 1 and not (o.out.startswith("bad record: ") or '"line": ' in o.out):
            problems.append(f"exit 1 without a located bad record: {o.out[:200]!r}")
    return problems


def _all(tmp: Path, n: int) -> list[str]:
    return (_fuzz_positions(tmp, n) + _fuzz_placements(n) + _fuzz_edition(tmp, n) + _fuzz_options(n)
            + _fuzz_records(tmp, max(1, n // 3)))


def test_fuzz_gnome_hollow(tmp_path: Path) -> None:
    problems = _all(tmp_path, N)
    assert not problems, "\n".join(problems[:20])


@pytest.mark.slow
def test_fuzz_gnome_hollow_slow(tmp_path: Path) -> None:
    problems = _all(tmp_path, N * SLOW)
    assert not problems, "\n".join(problems[:20])


# -- regressions: the exact inputs the fuzzing (and issue 17) found --------------------------------

@pytest.mark.parametrize(("argv", "option"), [
    (["random", "--seed", "1", "--turns", "99999999999"], "--turns"),  # looped for ever
    (["new", "--players", "0"], "--players"),  # was "<input>: players must be 2-4"
    (["random", "--seed", "1", "--players", "-1"], "--players"),
    (["solve", MID, "--weights", "ring=nan"], "--weights"),  # was "optimal, value nan ... MISMATCH", exit 0
    (["solve", MID, "--weights", "ring=inf"], "--weights"),
    (["hint", MID, "--weights", "mushroom=-inf"], "--weights"),
    (["solve", MID, "--weights="], "--weights"),
    (["solve", MID, "--close="], "--close"),  # was silently ignored: a best-turn search ran instead
    (["solve", MID, "--time-limit", "nan"], "--time-limit"),
    (["solve", MID, "--time-limit", "inf", "--close", "0,0.0"], "--time-limit"),
    (["hint", MID, "--time-limit", "-1"], "--time-limit"),
    (["solve", MID, "--close=-1,0.0", "--time-limit", "0.05"], "--close"),  # was "<input>: no path ..."
    (["check", MID, "--place", ""], "--place"),  # was "<input>: no placements to check"
])
def test_bad_options_are_located(argv: list[str], option: str) -> None:
    o = run(["hollow", *argv])
    assert o.crash is None and o.code == 2
    assert o.err.startswith(f"gnomekit: error: {option}: "), o.err


def test_time_limit_zero_is_unknown_and_exit_1() -> None:
    o = run(["hollow", "solve", MID, "--time-limit", "0"])
    assert o.code == 1 and "best turn (unknown)" in o.out
    o = run(["hollow", "solve", MID, "--time-limit", "0", "--json"])
    assert o.code == 1 and '"status": "unknown"' in o.out


def test_hint_cut_short_claims_no_negative() -> None:
    full = run(["hollow", "hint", MID])
    assert full.code == 0 and "it closes a ring" in full.out  # the best turn does close a ring
    o = run(["hollow", "hint", MID, "--time-limit", "0"])
    assert o.code == 1 and "no ring can be closed" not in o.out and "cut short" in o.out


def test_no_players_is_located(tmp_path: Path) -> None:
    """A text position whose player blocks are all gone: "no players" names a line (it named none)."""
    text = Path(MID).read_text().split("player: red")[0]
    text = text.replace("to-move: red\n", "").replace("phase: play\n", "")
    path = tmp_path / "pos.txt"
    path.write_text(text)
    o = run(["hollow", "show", str(path)])
    assert o.code == 2 and "no players" in o.err and located(o, str(path)), o.err
