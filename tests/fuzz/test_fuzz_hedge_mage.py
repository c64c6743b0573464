"""Fuzzing Hedge Mage through the CLI (issue 17): gardens and running positions, placements, plans, editions, options.

Every input must end without a traceback, with exit 0, 1 or 2, and an exit-2 message that says where
(``SOURCE:LINE`` or the option's name).  The default run is about 1,000 inputs over all the formats below
(fast verbs: ``show``, ``check``, ``moves --count``; ``solve`` and ``hint`` only for the numeric options,
on tiny positions and budgets); ``--runslow`` runs :data:`SLOW` times as many.  Inputs the fuzzing found
become the regression tests at the end.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import gnomekit.cli
from tests.fuzz import harness
from tests.fuzz.harness import WEIRD_NUMBERS, Outcome, located, run

CLI = "hedge-mage"
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
DEFAULT_TOML = ROOT / "models" / "hedge_mage" / "data" / "default.toml"
GARDENS = ["small.txt", "start.txt", "round6.txt", "kept.txt", "stuck.txt", "square.txt", "tiny.txt",
           "round-ours.txt"]
SLOW = 100  # the --runslow run: 100x the default (about 100,000 inputs)


@pytest.fixture(autouse=True)
def _one_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build the CLI's parser once: building it is ~95% of a fast verb's time (argparse reads a fresh
    namespace on every parse, so reusing the parser changes nothing the verbs see)."""
    monkeypatch.setattr(gnomekit.cli, "build_parser", functools.cache(gnomekit.cli.build_parser))


def _json_op(text: str, rng: random.Random) -> str:
    """The harness's JSON mutation, except that it re-parses its own deep nesting (RecursionError, a
    harness bug reported to the lead): then a character mutation instead."""
    try:
        return harness._json(text, rng)
    except RecursionError:
        return harness._chars(text, rng)


def mutants(text: str, rng: random.Random, n: int) -> Iterator[str]:
    """:func:`harness.mutants` with :func:`_json_op`: ``n`` copies of ``text``, one to three mutations each."""
    ops: list[Callable[[str, random.Random], str]] = [harness._lines, harness._chars, harness._numbers]
    if text.lstrip().startswith("{"):
        ops += [_json_op, _json_op]
    for _ in range(n):
        t = text
        for _ in range(rng.randint(1, 3)):
            t = rng.choice(ops)(t, rng)
        yield t


def problem(o: Outcome, *sources: str) -> str | None:
    """What is wrong with one run (None: nothing); an exit-2 message must name one of ``sources``."""
    if o.crash:
        return f"{o.crash} for {o.argv}"
    if o.code not in (0, 1, 2):
        return f"exit {o.code} for {o.argv}"
    if o.code == 2 and not any(located(o, source) for source in sources):
        return f"unlocated exit-2 message {o.err.strip()[:200]!r} for {o.argv}"
    return None


def fuzz(tmp: Path, argv_of: Callable[[str], list[str]], seeds: list[str], n: int, seed: int,
         name: str, *also: str) -> list[str]:
    """Mutate each seed ``n`` times into ``tmp/name``, run ``argv_of(path)``; the problems (with the input).

    An exit-2 message names the mutated file, or one of the files ``also`` (a garden that an edition
    with fewer tiles no longer reads)."""
    rng = random.Random(seed)
    path = tmp / name
    out = []
    for base in seeds:
        for text in mutants(base, rng, n):
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            bad = problem(run([CLI, *argv_of(str(path))]), str(path), *also)
            if bad:
                out.append(f"{bad} on {text[:300]!r}")
    return out


def _out(argv: list[str]) -> str:
    o = run([CLI, *argv])
    assert o.code == 0 and not o.crash, (argv, o.err, o.crash)
    return o.out


@functools.cache
def garden_seeds() -> tuple[list[str], list[str]]:
    """The documented gardens and two random ones, in text; small.json and three more in JSON."""
    texts = [(EXAMPLES / f).read_text() for f in GARDENS]
    texts += [_out(["random", "--seed", str(s), "--round", str(k)]) for s, k in ((3, 2), (11, 6))]
    jsons = [(EXAMPLES / "small.json").read_text()]
    jsons += [_out(["show", "--json", str(EXAMPLES / f)]) for f in ("round6.txt", "kept.txt")]
    jsons.append(_out(["random", "--json", "--seed", "5", "--round", "4"]))
    return texts, jsons


@functools.cache
def run_seeds() -> list[str]:
    """The documented running position in text and JSON, and one made by ``to-run`` from a random garden."""
    tiny = (EXAMPLES / "tiny-run.txt").read_text()
    return [tiny, _out(["show", "--json", str(EXAMPLES / "tiny-run.txt")]),
            _out(["to-run", str(EXAMPLES / "round-ours.txt"), "--points", "3"])]


# -- the default suite (about 1,000 inputs) and the slow one (SLOW x as many) -------------------------------------

def fuzz_all(tmp: Path, scale: int) -> tuple[list[str], int]:
    """Every format and option, ``scale`` x the default counts; the problems and how many inputs ran."""
    texts, jsons = garden_seeds()
    runs = run_seeds()
    probs: list[str] = []
    count = 0

    def go(argv_of: Callable[[str], list[str]], seeds: list[str], n: int, seed: int, name: str, *also: str) -> None:
        nonlocal count
        each = max(1, n * scale // len(seeds))
        probs.extend(fuzz(tmp, argv_of, seeds, each, seed, name, *also))
        count += each * len(seeds)

    go(lambda p: ["show", p], texts, 200, 1, "garden.txt")                   # garden text
    go(lambda p: ["show", "--json", p], jsons, 150, 2, "garden.json")         # garden JSON
    go(lambda p: ["moves", "--count", p], texts[:4], 40, 3, "moves.txt")      # garden read for moves
    go(lambda p: ["show", p], runs, 150, 4, "run.txt")                        # running text and JSON
    go(lambda p: ["check", "--plan", "M1>0,1", p], runs[:2], 60, 5, "runplan.txt")
    go(lambda p: ["solve", "--max-states", "50", p], runs, 30, 9, "runsolve.txt")  # a running position solved
    go(lambda p: ["solve", "--method", "enumerate", p], texts[:3], 30, 10, "solve.txt")  # a garden solved
    go(lambda p: ["show", "--edition", p, str(EXAMPLES / "small.txt")], [DEFAULT_TOML.read_text()], 150, 6,
       "edition.toml", str(EXAMPLES / "small.txt"))                           # the edition
    go(lambda p: ["new", "--edition", p, "--seed", "1"], [DEFAULT_TOML.read_text()], 30, 7, "edition2.toml")

    rng = random.Random(8)
    start, small, tiny_run = (str(EXAMPLES / f) for f in ("start.txt", "small.txt", "tiny-run.txt"))
    for placement, where in (("T4:R0@0,5", start), ("T4:R90@1,1", start), ("L3:R180@2,1", small),
                             ('{"tile": "T4", "cells": [[0, 4], [0, 5], [0, 6], [1, 5]], "sigil": [0, 5]}', start)):
        for text in mutants(placement, rng, 25 * scale):                      # placements
            bad = problem(run([CLI, "check", where, "--place", text]), "--place")
            count += 1
            if bad:
                probs.append(f"{bad} on {text!r}")
    for plan in ("p0,2>0,3", "M1>0,1>0,2 M2>1,3", "M1>0,1>0,2 M1+0,2 M1-1,2~1,3 T ^2,1"):
        for text in mutants(plan, rng, 25 * scale):                           # running plans
            bad = problem(run([CLI, "check", tiny_run, "--plan", text]), "--plan")
            count += 1
            if bad:
                probs.append(f"{bad} on {text!r}")

    numbers = WEIRD_NUMBERS + ["1e20", "0.5", "-0", "1_0", " 3", "0x10"]
    options: list[tuple[list[str], str]] = [
        (["new", "--seed", "{}"], "--seed"),
        (["random", "--round", "{}"], "--round"),
        (["random", "--round", "1", "--seed", "{}"], "--seed"),
        (["solve", str(EXAMPLES / "round-ours.txt"), "--plan", "D2", "--time-limit", "{}"], "--time-limit"),
        (["solve", tiny_run, "--run-method", "encoding", "--time-limit", "{}"], "--time-limit"),
        (["solve", tiny_run, "--max-states", "{}"], "--max-states"),
        (["hint", tiny_run, "--max-states", "{}"], "--max-states"),
        (["hint", str(EXAMPLES / "round-ours.txt"), "--block-weight", "{}"], "--block-weight"),
        (["hint", str(EXAMPLES / "round-ours.txt"), "--alternatives", "{}"], "--alternatives"),
        (["to-run", str(EXAMPLES / "round-ours.txt"), "--points", "{}"], "--points"),
        (["to-run", str(EXAMPLES / "round-ours.txt"), "--points", "2", "--tokens", "{}"], "--tokens"),
        (["to-run", str(EXAMPLES / "round-ours.txt"), "--points", "2", "--springshroom-tokens", "{}"],
         "--springshroom-tokens"),
    ]
    for argv, option in options:                                              # numeric options
        values = numbers if scale == 1 else numbers + [str(rng.choice([-1, 1]) * 10 ** rng.randrange(40))
                                                       for _ in range(scale)]
        for v in values:
            full = [a.replace("{}", _small(option, v)) for a in argv]
            o = run([CLI, *full])
            count += 1
            bad = problem(o, option)
            if bad:
                probs.append(bad)
    return probs, count


#: A budget option's largest value fuzzed as it is: a larger valid one only runs a longer search (what a
#: budget above this does is the regression tests' job), so it runs with this one instead.
SMALL = {"--max-states": 200.0, "--time-limit": 0.01}


def _small(option: str, value: str) -> str:
    """``value``, or :data:`SMALL`'s budget for ``option`` when ``value`` is a valid, larger budget."""
    try:
        v = float(value)
    except ValueError:
        return value
    cap = SMALL.get(option)
    if cap is None or not cap < v <= 1e6:
        return value
    return str(int(cap)) if option == "--max-states" else str(cap)


def test_fuzz_hedge_mage(tmp_path: Path) -> None:
    """About 1,000 mutated inputs: no traceback, exit 0/1/2, every exit-2 message located."""
    probs, count = fuzz_all(tmp_path, 1)
    assert count >= 900
    assert not probs, f"{len(probs)} problems, e.g.:\n" + "\n".join(probs[:10])


@pytest.mark.slow
@pytest.mark.ci  # CI too: it found tracebacks (2026-12-08) that no default-run test met
def test_fuzz_hedge_mage_slow(tmp_path: Path) -> None:
    """:data:`SLOW` x the default inputs (about 100,000)."""
    probs, count = fuzz_all(tmp_path, SLOW)
    assert count >= 900 * SLOW
    assert not probs, f"{len(probs)} problems, e.g.:\n" + "\n".join(probs[:10])


# -- regression tests: the inputs the fuzzing (and the issue) found ---------------------------------------------

def _run_json(tmp: Path, change: Callable[[Any], None]) -> Path:
    data = json.loads(_out(["show", "--json", str(EXAMPLES / "tiny-run.txt")]))
    change(data)
    path = tmp / "run.json"
    path.write_text(json.dumps(data))
    return path


def _exit2(argv: list[str], source: str, *words: str) -> str:
    o = run([CLI, *argv])
    assert not o.crash, o.crash
    assert o.code == 2, (o.code, o.out[:300], o.err[:300])
    assert located(o, source), o.err[:300]
    for w in words:
        assert w in o.err, o.err[:300]
    return o.err


def test_run_json_gnome_kind_list(tmp_path: Path) -> None:
    """``gnomes[0].kind`` a list: was ``TypeError: unhashable type: 'list'``."""
    def change(d: Any) -> None:
        d["gnomes"][0]["kind"] = [1]
    p = _run_json(tmp_path, change)
    _exit2(["show", str(p)], str(p), "gnomes[0].kind", "a gnome kind")


def test_run_json_enchantment_list(tmp_path: Path) -> None:
    """An ``enchantments`` entry a list: was ``TypeError: unhashable type: 'list'``."""
    def change(d: Any) -> None:
        d["enchantments"][0] = [1]
    p = _run_json(tmp_path, change)
    _exit2(["check", str(p), "--plan", "T"], str(p), "enchantments[0]")


def test_run_json_moved_rescued_list(tmp_path: Path) -> None:
    """A ``moved_rescued`` entry a list (the same unhashable lookup)."""
    def change(d: Any) -> None:
        d["moved_rescued"] = [{"a": 1}]
    p = _run_json(tmp_path, change)
    _exit2(["show", str(p)], str(p), "moved_rescued[0]")


@pytest.mark.parametrize("text", ['{"phase": ' + "[" * 100_000, '{"a": ' + "[" * 5_000 + "]" * 5_000 + "}"])
def test_deep_json_to_solve(tmp_path: Path, text: str) -> None:
    """Deeply nested JSON to ``solve``: was ``RecursionError`` in ``is_run_text``."""
    p = tmp_path / "deep.json"
    p.write_text(text)
    for verb in ("solve", "show", "hint", "check"):
        _exit2([verb, str(p)], str(p))


@pytest.mark.parametrize("key", ["per_kind", "mages"])
def test_edition_huge_count(tmp_path: Path, key: str) -> None:
    """A huge ``per_kind`` (or ``mages``) in an edition: was a ``MemoryError`` at setup."""
    text = DEFAULT_TOML.read_text()
    old = "per_kind = 4" if key == "per_kind" else "mages = 2"
    assert old in text
    p = tmp_path / "big.toml"
    p.write_text(text.replace(old, f"{key} = 99999999999999"))
    for argv in (["new", "--edition", str(p)], ["random", "--seed", "0", "--edition", str(p)]):
        _exit2(argv, str(p), key)


@pytest.mark.parametrize("value", ["1e20", "inf", "-inf", "nan", "1e400", "99999999999", "0"])
@pytest.mark.parametrize("where", ["plan", "encoding"])
def test_time_limit_not_a_budget(value: str, where: str) -> None:
    """``--time-limit 1e20``/``inf``: timer-thread tracebacks (exit 0) or OverflowError in the z3 encoding;
    ``nan`` was taken; ``0`` was a ValueError from the budget."""
    if where == "plan":
        argv = ["solve", str(EXAMPLES / "round6.txt"), "--plan", "D2,L3", "--time-limit", value]
    else:
        argv = ["solve", str(EXAMPLES / "tiny-run.txt"), "--run-method", "encoding", "--time-limit", value]
    _exit2(argv, "--time-limit", "--time-limit")


def test_time_limit_still_works() -> None:
    """A tiny time limit still answers "unknown" (exit 1), a generous one the answer."""
    o = run([CLI, "solve", str(EXAMPLES / "round6.txt"), "--plan", "D2,L3", "--time-limit", "1e-9"])
    assert (o.code, o.crash) == (1, None), o.err
    o = run([CLI, "solve", str(EXAMPLES / "round6.txt"), "--plan", "D2,L3", "--time-limit", "1000000"])
    assert (o.code, o.crash) == (0, None), o.err


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_block_weight_not_a_number(value: str) -> None:
    """``--block-weight nan``/``inf`` were taken (a nan score ranks nothing)."""
    _exit2(["hint", str(EXAMPLES / "round-ours.txt"), "--block-weight", value], "--block-weight", "finite")


@pytest.mark.parametrize(("extra", "option"), [(["--points", "-1"], "--points"),
                                               (["--points", "2", "--tokens", "-1"], "--tokens"),
                                               (["--points", "2", "--tokens", "99999999999"], "--tokens"),
                                               (["--points", "2", "--springshroom-tokens", "-1"],
                                                "--springshroom-tokens"),
                                               (["--points", "2", "--enchantments", "pump-kin,pump-kin"],
                                                "--enchantments")])
def test_to_run_options_are_named(extra: list[str], option: str) -> None:
    """``to-run`` counts out of range were "<input>: the running position is not well formed: ..."."""
    _exit2(["to-run", str(EXAMPLES / "round-ours.txt"), *extra], option, option)
    _exit2(["to-run", str(EXAMPLES / "round-ours.txt"), "--points", "99999999999"], "--points", "--points")


def test_plan_file_missing_names_the_option(tmp_path: Path) -> None:
    """``check --plan @FILE`` with no such file named only the file (found by the fuzzing: '@,1>2M 2,0>1,0>1M')."""
    _exit2(["check", str(EXAMPLES / "tiny-run.txt"), "--plan", "@,1>2M 2,0>1,0>1M"], "--plan", "no such file")
    plan = tmp_path / "plan.txt"
    plan.write_text("p0,2>0,3\n")
    o = run([CLI, "check", str(EXAMPLES / "tiny-run.txt"), "--plan", f"@{plan}"])
    assert (o.code, o.crash) == (0, None), o.err


def test_first_game_cards_that_clash_point_at_first_game(tmp_path: Path) -> None:
    """An edition whose first-game cards are two of a kind: the setup error named only the file."""
    text = DEFAULT_TOML.read_text()
    p = tmp_path / "fg.toml"
    p.write_text("\n".join('first_game = ["planter-enchanter", "morel-evate", "morel-evate"]'
                           if line.startswith("first_game") else line for line in text.splitlines()))
    line = next(n for n, x in enumerate(p.read_text().splitlines(), 1) if x.startswith("first_game"))
    for argv in (["new", "--edition", str(p)], ["random", "--seed", "1", "--edition", str(p)]):
        assert f"{p}:{line}:1: " in _exit2(argv, str(p), "one card per kind")


def test_missing_tables_are_located(tmp_path: Path) -> None:
    """An edition truncated before [garden] and [tiles]: "missing table [garden]" named no line."""
    p = tmp_path / "short.toml"
    p.write_text('[edition]\ngame = "hedge-mage"\n')
    err = _exit2(["new", "--edition", str(p)], str(p), "missing table [garden]", "missing table [tiles]")
    assert f"{p}:2:1: missing table [garden]" in err


@pytest.mark.parametrize("key", ["springshroom_tokens", "points", "sigil_tokens", "spent"])
def test_run_json_huge_counts(tmp_path: Path, key: str) -> None:
    """``springshroom_tokens: 10**30`` was ``OverflowError: Python int too large to convert to C long`` in the
    running bound (``solve``); the other counts are capped alike."""
    def change(d: Any) -> None:
        d[key] = 10**30
    p = _run_json(tmp_path, change)
    _exit2(["solve", str(p), "--max-states", "100"], str(p), key, "0..")


@pytest.mark.parametrize(("old", "new"), [("springshroom-tokens: 0", "springshroom-tokens: 99999999999999999999"),
                                          ("points: 2", "points: 1000"), ("used: 0 0", "used: 0 1000")])
def test_run_text_huge_counts(tmp_path: Path, old: str, new: str) -> None:
    """The same counts in the text format."""
    text = (EXAMPLES / "tiny-run.txt").read_text()
    assert old in text
    p = tmp_path / "run.txt"
    p.write_text(text.replace(old, new))
    line = next(n for n, x in enumerate(p.read_text().splitlines(), 1) if x.startswith(new))
    assert f"{p}:{line}:" in _exit2(["solve", str(p), "--max-states", "100"], str(p), "0..")
