"""Fuzzing Gnomes at Midnight through the CLI (issue 17): positions (text, JSON), moves, editions, options.

Every input must end without a traceback, with exit 0, 1 or 2, and an exit-2 message that says where
(``SOURCE:LINE`` or the option's name).  The default run is about 1,000 inputs (a few seconds);
``--runslow`` runs 100,000.
Inputs the fuzzing found become the regression tests at the end.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import gnomekit.cli
from tests.fuzz.harness import Outcome, located, mutants, run

CLI = "gnomes-at-midnight"
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "midnight-mid.txt"
DEFAULT_TOML = ROOT / "models" / "gnomes_at_midnight" / "data" / "default.toml"
MINI_TOML = ROOT / "models" / "gnomes_at_midnight" / "data" / "mini.toml"
N = 1000  # inputs in the default run, over all the formats below
SLOW = 100  # --runslow: 100,000 inputs (about 4 minutes)


@pytest.fixture(autouse=True, scope="module")
def _one_parser() -> Iterator[None]:
    """Build the CLI's parser once for this module: building it (all four games) is ~95% of a run's time,
    and an argparse parser can parse again.  ``main`` itself still runs for every input."""
    build = gnomekit.cli.build_parser
    gnomekit.cli.build_parser = functools.cache(build)
    try:
        yield
    finally:
        gnomekit.cli.build_parser = build


def _mutants(base: str, rng: random.Random, n: int) -> list[str]:
    """``mutants`` one at a time: the harness's JSON mutation re-parses its own deeply nested output
    and raises RecursionError (a harness bug, reported); such a mutant is kept as deep nesting."""
    out = []
    for _ in range(n):
        try:
            out.append(next(mutants(base, rng, 1)))
        except RecursionError:
            out.append("[" * 100_000)
    return out


# The shared TOML reader (models/core/edition.py, not this game's file) reports a syntax error that


def _ok(o: Outcome, source: str) -> str | None:
    """What is wrong with one run (None: nothing)."""
    if o.crash:
        return f"{o.crash} for {o.argv}"
    if o.code not in (0, 1, 2):
        return f"exit {o.code} for {o.argv}"
    if o.code == 2 and not located(o, source):
        return f"unlocated exit-2 message {o.err.strip()[:200]!r} for {o.argv}"
    return None


def _seeds() -> list[str]:
    """The documented example and a few random positions, each in text and JSON."""
    texts = [EXAMPLE.read_text()]
    for seed in (1, 7):
        texts.append(run([CLI, "random", "--seed", str(seed), "--turns", "4"]).out)
    jsons = [run([CLI, "show", "--json", str(EXAMPLE)]).out]
    jsons.append(run([CLI, "random", "--json", "--seed", "5"]).out)
    assert all(t.startswith("gnomes-at-midnight position") for t in texts)
    assert all(j.lstrip().startswith("{") for j in jsons)
    return texts + jsons


def _fuzz_positions(tmp: Path, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    problems = []
    path = tmp / "pos.txt"
    verbs = [["show"], ["show", "--json"], ["moves", "--count"], ["check", "--move", "pass"]]
    for base in _seeds():
        for text in _mutants(base, rng, n):
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            o = run([CLI, *rng.choice(verbs)[:1], str(path), *rng.choice(verbs)[1:]])
            p = _ok(o, str(path))
            if p:
                problems.append(f"{p} on {text[:300]!r}")
    return problems


MOVES = ["2,0-3,0", "0,1=1,1", "+2,2", "pass", '{"kind": "step", "from": [2, 0], "to": [3, 0]}',
         '{"kind": "add", "to": [2, 2]}', "flip grass"]


def _fuzz_moves(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    problems = []
    for base in MOVES:
        for text in _mutants(base, rng, n):
            o = run([CLI, "check", str(EXAMPLE), "--move", text])
            p = _ok(o, "--move")
            if p:
                problems.append(f"{p} on {text[:300]!r}")
    return problems


def _fuzz_editions(tmp: Path, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    problems = []
    path = tmp / "ed.toml"
    for base in (DEFAULT_TOML.read_text(), MINI_TOML.read_text()):
        for text in _mutants(base, rng, n):
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            verb = rng.choice([["new", "--seed", "1"], ["random", "--seed", "2", "--turns", "2"]])
            o = run([CLI, verb[0], "--edition", str(path), *verb[1:]])
            p = _ok(o, str(path))
            if p:
                problems.append(f"{p} on {text[:300]!r}")
    return problems


WEIRD = ["0", "-1", "-99999999999", "99999999999", "1" + "0" * 30, "nan", "inf", "-inf", "1e400", "", "x",
         "1e20", "0.5", "3"]
OPTIONS = [(["new"], "--seed"), (["random"], "--seed"), (["random"], "--turns"),
           (["solve", str(EXAMPLE), "--depth", "1"], "--max-nodes"),
           (["solve", str(EXAMPLE), "--depth", "1"], "--time-limit"),
           (["hint", str(EXAMPLE), "--depth", "1"], "--max-nodes"),
           (["hint", str(EXAMPLE), "--depth", "1"], "--time-limit"),
           (["solve", str(EXAMPLE), "--max-nodes", "50"], "--depth"),
           (["hint", str(EXAMPLE), "--max-nodes", "50"], "--depth")]


def _fuzz_options(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    problems = []
    for _ in range(n):
        verb, opt = rng.choice(OPTIONS)
        value = rng.choice(WEIRD)
        if opt == "--turns" and value in ("99999999999", "1" + "0" * 30):
            value = rng.choice(["0", "-1", "nan", ""])  # a huge --turns is a long (legal) playout, not a fuzz case
        if opt == "--depth" and value in ("99999999999", "1" + "0" * 30, "3"):
            value = "2"  # deep searches are cut by --max-nodes 50; keep the default run fast
        o = run([CLI, verb[0], *verb[1:], f"{opt}={value}"])
        p = _ok(o, opt)
        if p:
            problems.append(p)
    return problems


def _all(tmp: Path, n: int, seed: int) -> list[str]:
    """``n`` inputs in all: positions 60%, moves 15%, editions 15%, options 10%."""
    return (_fuzz_positions(tmp, max(1, n * 6 // 10 // 5), seed)
            + _fuzz_moves(max(1, n * 15 // 100 // len(MOVES)), seed)
            + _fuzz_editions(tmp, max(1, n * 15 // 100 // 2), seed)
            + _fuzz_options(max(1, n // 10), seed))


def test_fuzz(tmp_path: Path) -> None:
    problems = _all(tmp_path, N, 0)
    assert not problems, "\n".join(problems[:20])


@pytest.mark.slow
def test_fuzz_slow(tmp_path: Path) -> None:
    problems = _all(tmp_path, N * SLOW, 1)
    assert not problems, "\n".join(problems[:20])


# -- regression tests: inputs the fuzzing (or the issue) found ------------------------------------------------


def _example_with(old: str, new: str) -> str:
    text = EXAMPLE.read_text()
    assert old in text
    return text.replace(old, new, 1)


def _run_text(tmp: Path, text: str, *verb: str) -> Outcome:
    path = tmp / "pos.txt"
    path.write_text(text)
    return run([CLI, verb[0] if verb else "show", str(path), *verb[1:]])


@pytest.mark.parametrize("size", ["5x99999999999", "5x" + "9" * 30, "99999999999x7", "101x7", "5x0", "0x7",
                                  "5x" + "9" * 5000])
def test_huge_size_is_a_located_error(tmp_path: Path, size: str) -> None:
    # the issue: `size: 5x99999999999` was a MemoryError, a 30-digit size an OverflowError
    o = _run_text(tmp_path, _example_with("size: 5x7", f"size: {size}"))
    assert o.crash is None and o.code == 2
    assert f"{tmp_path / 'pos.txt'}:3:7: expected ROWSxCOLS, each 1 to 100" in o.err


@pytest.mark.parametrize("key", ["rows", "cols"])
def test_huge_json_size_is_a_located_error(tmp_path: Path, key: str) -> None:
    data = json.loads(run([CLI, "show", "--json", str(EXAMPLE)]).out)
    data[key] = 10**30
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(data, indent=2))
    o = run([CLI, "show", str(path)])
    assert o.crash is None and o.code == 2
    assert "a whole number >= 1 and <= 100" in o.err and located(o, str(path))


@pytest.mark.parametrize(("old", "new"), [("turn: ", "turn: " + "9" * 5000),
                                          ("bump-limit: 3", "bump-limit: " + "9" * 5000),
                                          ("off-board: green 0", "off-board: green " + "9" * 5000),
                                          ("dance: 0,0", "dance: " + "9" * 5000 + ",0")])
def test_huge_digit_strings_are_located_errors(tmp_path: Path, old: str, new: str) -> None:
    # int() refuses more than 4,300 digits (ValueError): the readers bound the digits first
    o = _run_text(tmp_path, _example_with(old, new))
    assert o.crash is None and o.code == 2 and located(o, str(tmp_path / "pos.txt")), o.err


def test_huge_move_coordinate_is_a_located_error() -> None:
    o = run([CLI, "check", str(EXAMPLE), "--move", "+" + "9" * 5000 + ",1"])
    assert o.crash is None and o.code == 2 and "--move:1:1: expected a move" in o.err


@pytest.mark.parametrize(("old", "new", "message"), [
    ("rows = 5", "rows = 99999999999", "'rows' must be at most 100"),
    ("cols = 7", "cols = 99999999999", "'cols' must be at most 100"),
    ("gnomes = 5", "gnomes = 99999999999", "'gnomes' must be at most 100"),
])
def test_huge_edition_counts_are_located_errors(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = DEFAULT_TOML.read_text()
    assert old in text
    path = tmp_path / "ed.toml"
    path.write_text(text.replace(old, new, 1))
    o = run([CLI, "new", "--edition", str(path)])
    assert o.crash is None and o.code == 2 and message in o.err and located(o, str(path)), o.err


@pytest.mark.parametrize(("cut", "message"), [("[board]", "missing table [board]"),
                                              ("[[dance]]", "at least one [[dance]] card")])
def test_missing_edition_tables_are_located(tmp_path: Path, cut: str, message: str) -> None:
    # found by the fuzzing: a missing table (or a dance cell outside the board) named no line
    text = DEFAULT_TOML.read_text()
    path = tmp_path / "ed.toml"
    path.write_text(text.replace(cut, "", 1) if cut == "[board]" else text.split("[[dance]]")[0])
    o = run([CLI, "new", "--edition", str(path)])
    assert o.code == 2 and message in o.err and located(o, str(path)), o.err


@pytest.mark.parametrize(("drop", "message"), [("toadstools = ", "ed.toml:12:1: board.toadstools: at least one"),
                                               ("terrain = ", "ed.toml:12:1: board.terrain: expected a list"),
                                               (None, "ed.toml:1:1: missing table [board]")])
def test_missing_keys_are_located_at_their_table(tmp_path: Path, drop: str | None, message: str) -> None:
    # found by the slow fuzzing: a deleted key (or an empty file) gave a problem without a line
    text = DEFAULT_TOML.read_text()
    lines = text.split("\n")
    if drop == "terrain = ":
        i = next(k for k, ln in enumerate(lines) if ln.startswith(drop))
        del lines[i:i + 7]  # the key and its list of rows
    elif drop is not None:
        lines = [ln for ln in lines if not ln.startswith(drop)]
    path = tmp_path / "ed.toml"
    path.write_text("\n".join(lines) if drop else "")
    o = run([CLI, "new", "--edition", str(path)])
    assert o.code == 2 and message in o.err, o.err


def test_dance_cell_outside_is_located(tmp_path: Path) -> None:
    text = DEFAULT_TOML.read_text()
    old = 'name = "square"\ncells = [[0, 0], [0, 1]'
    assert old in text
    path = tmp_path / "ed.toml"
    path.write_text(text.replace(old, 'name = "square"\ncells = [[-4, 0], [0, 1]'))
    o = run([CLI, "new", "--edition", str(path)])
    assert o.code == 2 and "is outside the" in o.err and located(o, str(path)), o.err


def test_budget_cut_short_is_unknown(tmp_path: Path) -> None:
    # the issue: Midnight had no node or time budget; cut short it answers unknown (exit 1), with the bound
    pos = run([CLI, "random", "--seed", "3"]).out
    path = tmp_path / "pos.txt"
    path.write_text(pos)
    full = run([CLI, "solve", str(path), "--depth", "3", "--json"])
    assert full.code == 0 and json.loads(full.out)["result"] == "win"
    o = run([CLI, "solve", str(path), "--depth", "3", "--max-nodes", "5", "--json"])
    data = json.loads(o.out)
    assert o.code == 1 and data["result"] == "unknown" and data["bound"] == {"no_win_within": 1}
    assert data["move"] is None and data["turns"] is None
    t = run([CLI, "solve", str(path), "--depth", "3", "--max-nodes", "5"])
    assert t.code == 1 and "unknown" in t.out and "no forced win within 1 turn(s)" in t.out
    h = run([CLI, "hint", str(path), "--depth", "3", "--max-nodes", "5", "--json"])
    hd = json.loads(h.out)
    assert h.code == 1 and hd["unknown"] is True and hd["bound"] == {"no_win_within": 1}
    assert "budget ran out" in hd["reasons"][0]


@pytest.mark.parametrize(("opt", "value"), [("--time-limit", "nan"), ("--time-limit", "inf"),
                                            ("--time-limit", "0"), ("--time-limit", "-1"), ("--time-limit", "1e400"),
                                            ("--max-nodes", "0"), ("--max-nodes", "-5"), ("--max-nodes", "")])
def test_bad_budgets_name_the_option(opt: str, value: str) -> None:
    for verb in ("solve", "hint"):
        o = run([CLI, verb, str(EXAMPLE), f"{opt}={value}"])
        assert o.crash is None and o.code == 2 and opt in o.err, o.err


def test_huge_time_limit_runs() -> None:
    # the issue: `--time-limit 1e20` crashed timer threads in other games; here it is a plain deadline
    o = run([CLI, "solve", str(EXAMPLE), "--depth", "2", "--time-limit", "1e20"])
    assert o.crash is None and o.code == 0 and "forced win in 2" in o.out


def test_missing_deck_lines_are_a_stated_assumption(tmp_path: Path) -> None:
    # the issue: a position without deck lines silently took the deck orders of `new --seed 0`
    text = "".join(ln for ln in EXAMPLE.read_text().splitlines(keepends=True) if not ln.startswith("deck-green"))
    o = _run_text(tmp_path, text, "moves", "--count", "--json")
    assert o.code == 0
    assert "warning:" in o.err and "no deck order for green" in o.err and "blue" not in o.err
    data = json.loads(o.out)
    assert len(data["assumed"]) == 1 and "seed 0" in data["assumed"][0]
    shown = _run_text(tmp_path, text, "show", "--json")
    back = tmp_path / "back.json"
    back.write_text(shown.out)
    again = run([CLI, "show", "--json", str(back)])  # `show` wrote the decks: nothing is assumed any more
    assert again.code == 0 and again.err == "" and "assumed" not in json.loads(again.out)
    full = run([CLI, "moves", "--count", "--json", str(EXAMPLE)])
    assert full.err == "" and "assumed" not in json.loads(full.out)


def test_missing_json_decks_are_a_stated_assumption(tmp_path: Path) -> None:
    data = json.loads(run([CLI, "show", "--json", str(EXAMPLE)]).out)
    del data["decks"], data["decks_unknown"]
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(data))
    o = run([CLI, "solve", str(path), "--depth", "1", "--json", "--decks", "open"])
    assert o.code in (0, 1) and o.err.count("warning:") == 2 and len(json.loads(o.out)["assumed"]) == 2
    # Without --decks, orders nobody gave are not searched as if known: hidden decks, and it says so.
    o = run([CLI, "solve", str(path), "--depth", "1", "--json"])
    data = json.loads(o.out)
    assert o.code in (0, 1) and o.err.count("warning:") == 3 and len(data["assumed"]) == 3
    assert data["decks"] == "hidden" and "hidden decks" in data["assumed"][2]
    full = run([CLI, "solve", str(EXAMPLE), "--depth", "1", "--json"])  # both deck lines given: open decks
    assert json.loads(full.out)["decks"] == "open" and full.err == ""
