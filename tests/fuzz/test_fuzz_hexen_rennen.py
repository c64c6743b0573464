"""Fuzz ``gnomekit hexen-rennen``: mutated positions (text, JSON, the board drawing), turns, editions, options.

Every run must end without a traceback, with exit 0, 1 or 2, and an exit-2 message that names its
place (``FILE:LINE`` or the option).  The default suite runs a few hundred inputs; the ``slow`` one
(``--runslow``) the same generators with ``SLOW`` times as many.  The inputs the fuzzing found are
the regression tests at the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fuzz.harness import WEIRD_NUMBERS, Outcome, _chars, _json, _lines, _numbers, located, run

H = "hexen-rennen"
ROOT = Path(__file__).resolve().parents[2]
MID_PATH = str(ROOT / "docs/examples/hexen-mid.txt")
MID = Path(MID_PATH).read_text()
IN_TURN = MID + "roll: 3\nturn: start\n"  # the example in the middle of a turn (rolled 3, witch from start)
EDITION = (ROOT / "models/hexen_rennen/data/default.toml").read_text()
TURNS = ["12 fog:7 ice:5", "start", "pass", "4 weather:S fog:stop",
         '{"witch": 12, "decisions": [{"clan": "fog", "play": 7}, {"clan": null, "play": "symbol"}]}']
VERBS = [["show"], ["show", "--json"], ["check", "--roll", "3", "--turn", "start"], ["moves", "--count", "--roll", "4"]]
N = 48  # mutants per seed text in the default suite (about 1,000 runs; the harness builds the parser once)
SLOW = 130  # --runslow: this many times as many (about 100,000 runs)



def mutants(text: str, rng: random.Random, n: int) -> Iterator[str]:
    """The harness's mutations; a JSON mutation of an already deeply nested text is skipped.

    (``harness.mutants`` lets ``json.loads`` raise RecursionError on its own deep-nesting mutants.)
    """
    ops = [_lines, _chars, _numbers]
    if text.lstrip().startswith("{"):
        ops += [_json, _json]
    for _ in range(n):
        t = text
        for _ in range(rng.randint(1, 3)):
            try:
                t = rng.choice(ops)(t, rng)
            except RecursionError:
                pass
        yield t


def problem(o: Outcome, source: str) -> str | None:
    """What is wrong with one run: an escaping exception, an odd exit status, an unlocated exit-2 message."""
    if o.crash:
        return f"{o.crash} for {o.argv}"
    if o.code not in (0, 1, 2):
        return f"exit {o.code} for {o.argv}"
    if o.code == 2 and not located(o, source):
        return f"unlocated {o.err[:200]!r} for {o.argv[:6]}"
    return None


def out(argv: list[str]) -> str:
    o = run([H, *argv])
    assert o.code == 0, (argv, o.err)
    return o.out


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The position texts to mutate: the documented example (text, JSON, drawing) and random ones."""
    mid = tmp_path_factory.mktemp("hx") / "mid.txt"
    mid.write_text(MID)
    text = [MID, IN_TURN] + [out(["random", "--seed", str(s), "--players", str(p)])
                             for s, p in ((1, 2), (2, 3), (5, 4))]
    turn = tmp_path_factory.mktemp("hx") / "turn.txt"
    turn.write_text(IN_TURN)
    assert "roll" in out(["show", str(turn)])  # the seed is a position in the middle of a turn
    js = [out(["show", "--json", str(mid)]), out(["random", "--json", "--seed", "7", "--players", "3"])]
    return {"text": text, "json": js, "board": [out(["show", str(mid)])]}


def fuzz_positions(tmp: Path, seeds: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    path = tmp / "pos.txt"
    found = []
    for base in seeds:
        for text in mutants(base, rng, n):
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            o = run([H, *rng.choice(VERBS), str(path)])
            if (p := problem(o, str(path))) is not None:
                found.append(f"{p} on {text[:300]!r}")
    return found


def fuzz_turns(tmp: Path, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pos = tmp / "mid.txt"
    pos.write_text(MID)
    found = []
    for base in TURNS:
        for text in mutants(base, rng, n):
            o = run([H, "check", "--roll", rng.choice(["1", "3", "6"]), "--turn", text, str(pos)])
            if (p := problem(o, "--turn")) is not None:
                found.append(f"{p} on {text[:300]!r}")
    return found


def fuzz_editions(tmp: Path, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pos = tmp / "mid.txt"
    pos.write_text(MID)
    ed = tmp / "ed.toml"
    found = []
    for text in mutants(EDITION, rng, n):
        ed.write_bytes(text.encode("utf-8", "surrogatepass"))
        verb = rng.choice([["new"], ["random", "--turns", "2"], ["show", str(pos)]])
        o = run([H, *verb, "--edition", str(ed)])
        # a mutated edition may make the (unmutated) position file the one that is wrong
        if (p := problem(o, str(ed))) is not None and (p := problem(o, str(pos))) is not None:
            found.append(f"{p} on {text[:300]!r}")
    return found


@pytest.mark.parametrize("kind", ["text", "json", "board"])
def test_fuzz_positions(tmp_path: Path, seeds: dict[str, list[str]], kind: str) -> None:
    assert fuzz_positions(tmp_path, seeds[kind], N, 1) == []


def test_fuzz_turns(tmp_path: Path) -> None:
    assert fuzz_turns(tmp_path, N, 2) == []


def test_fuzz_editions(tmp_path: Path) -> None:
    assert fuzz_editions(tmp_path, 3 * N, 3) == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["text", "json", "board"])
def test_fuzz_positions_slow(tmp_path: Path, seeds: dict[str, list[str]], kind: str) -> None:
    assert fuzz_positions(tmp_path, seeds[kind], SLOW * N, 11) == []


@pytest.mark.slow
def test_fuzz_turns_slow(tmp_path: Path) -> None:
    assert fuzz_turns(tmp_path, SLOW * N, 12) == []


@pytest.mark.slow
def test_fuzz_editions_slow(tmp_path: Path) -> None:
    assert fuzz_editions(tmp_path, SLOW * 3 * N, 13) == []


HUGE = {"99999999999", "1" + "0" * 30}


def numeric_runs(pos: str) -> Iterator[list[str]]:
    """Every numeric option of the verbs with each weird number (huge budgets only where they stay cheap)."""
    for w in WEIRD_NUMBERS:
        yield ["random", "--seed", w, "--turns", "2"]
        yield ["random", "--players", w, "--turns", "2", "--seed", "1"]
        yield ["random", "--turns", w, "--seed", "1"]
        yield ["new", "--seed", w]
        yield ["new", "--players", w]
        yield ["check", "--roll", w, "--turn", "start", pos]
        yield ["moves", "--roll", w, "--count", pos]
        yield ["moves", "--roll", "3", "--limit", w, pos]
        yield ["hint", "--roll", w, pos]
        yield ["solve", "--roll", w, pos]
        yield ["play", "--seed", w, "--max-turns", "3"]
        yield ["play", "--players", w, "--max-turns", "3"]
        yield ["audit", "--players", w, "--games", "1"]
        yield ["audit", "--seed", w, "--games", "1"]
        yield ["play", "--max-turns", w]  # capped, so huge ones are quick errors
        yield ["audit", "--games", w]
        if w not in HUGE:  # a huge state budget is a long (honest) search, not a bug
            yield ["solve", "--expect", "--roll", "3", "--max-nodes", w, pos]


def test_fuzz_numeric_options(tmp_path: Path) -> None:
    pos = tmp_path / "mid.txt"
    pos.write_text(MID)
    found = [p for argv in numeric_runs(str(pos)) if (p := problem(run([H, *argv]), str(pos))) is not None]
    assert found == []


# -- the inputs the fuzzing found --------------------------------------------------------------------------


def test_edition_with_huge_witches_count(tmp_path: Path) -> None:
    """The issue's example: ``witches = 99999999999`` made ``new`` allocate without bound (MemoryError)."""
    ed = tmp_path / "ed.toml"
    ed.write_text(EDITION.replace("witches = 3", "witches = 99999999999"))
    o = run([H, "new", "--edition", str(ed)])
    assert o.crash is None and o.code == 2
    assert f"{ed}:18:" in o.err and "'witches' must be a whole number 1..100" in o.err


def test_edition_with_huge_symbols_that_add_up(tmp_path: Path) -> None:
    """Huge counts that pass the sum checks (symbols = stages x symbols_per_stage) are capped too."""
    big = 10**12
    ed = tmp_path / "ed.toml"
    ed.write_text(EDITION.replace("symbols = 3", f"symbols = {big}")
                  .replace("stages = 3", "stages = 1")
                  .replace("tiles_per_stage = 4", f"tiles_per_stage = {big + 9}")
                  .replace("symbols_per_stage = 1", f"symbols_per_stage = {big}"))
    o = run([H, "new", "--edition", str(ed)])
    assert o.crash is None and o.code == 2 and f"{ed}:" in o.err and "'symbols' must be" in o.err


def test_board_drawing_with_huge_start_count(tmp_path: Path) -> None:
    """``start: wx99999999`` in a drawing ``show`` printed: MemoryError in the board reader.

    (The cap is the edition format's, not this edition's 3: ``show`` draws a position with more witches
    than the edition gives, with a warning, and that drawing reads back.)
    """
    mid = tmp_path / "mid.txt"
    mid.write_text(MID)
    board = out(["show", str(mid)])
    start = next(ln for ln in board.splitlines() if ln.startswith("start:"))
    path = tmp_path / "board.txt"
    for count in ("99999999", "9" * 5000):
        path.write_text(board.replace(start, start.replace("wx1", "wx" + count)))
        o = run([H, "moves", "--count", "--roll", "4", str(path)])
        assert o.crash is None and o.code == 2
        assert f"{path}:{board.splitlines().index(start) + 1}:" in o.err and "at most 100 witches" in o.err


@pytest.mark.parametrize("turn", ["9" * 5000, "12 fog:" + "7" * 5000, "\u00b2", "12 fog:\u00b2"])
def test_turn_with_huge_or_superscript_number(tmp_path: Path, turn: str) -> None:
    """A 5,000-digit number (``int`` refuses over 4,300 digits) or ``²`` (``isdigit`` but not ``int``)."""
    mid = tmp_path / "mid.txt"
    mid.write_text(MID)
    o = run([H, "check", "--roll", "3", "--turn", turn, str(mid)])
    assert o.crash is None and o.code == 2 and "--turn:1:" in o.err


@pytest.mark.parametrize("old,new", [("=0,1,13", "=0,1," + "1" * 5000), ("W3", "W" + "3" * 5000),
                                     ("stage 1:", "stage " + "1" * 5000 + ":"), ("W3", "W\u00b2"),
                                     ("hand weather: S S S 2", "hand weather: S S S " + "2" * 5000)])
def test_position_with_huge_or_superscript_number(tmp_path: Path, old: str, new: str) -> None:
    """The same numbers in a text position: a located error, not ValueError."""
    path = tmp_path / "pos.txt"
    path.write_text(MID.replace(old, new, 1))
    o = run([H, "show", str(path)])
    assert o.crash is None and o.code == 2 and f"{path}:" in o.err


@pytest.mark.parametrize("argv,option", [
    (["play", "--max-turns", "-1"], "--max-turns must be 1..100000"),
    (["play", "--max-turns", "99999999999"], "--max-turns must be 1..100000"),
    (["audit", "--games", "-1"], "--games must be 1..100000"),
    (["audit", "--games", "1" + "0" * 30], "--games must be 1..100000"),
    (["moves", "--roll", "3", "--limit", "-1", MID_PATH], "--limit must be 0 or more"),
])
def test_counts_out_of_range(argv: list[str], option: str) -> None:
    """A negative count was accepted (``play --max-turns -1`` printed a game, ``moves --limit -1`` a listing
    "stopped at --limit -1"); a huge one made ``play``/``audit`` run without bound."""
    o = run([H, *argv])
    assert o.crash is None and o.code == 2 and option in o.err


def test_more_witches_than_any_edition(tmp_path: Path) -> None:
    """A JSON position with 1,000 (or a million) witches of one clan was drawn, with a warning; now an error,
    as its drawing (``start: wx1000``) is for the board reader (no edition has more than 100)."""
    import json

    mid = tmp_path / "mid.txt"
    mid.write_text(MID)
    data = json.loads(out(["show", "--json", str(mid)]))
    path = tmp_path / "big.json"
    for n, code in ((5, 0), (1000, 2)):
        data["witches"]["weather"] = [0] * n
        path.write_text(json.dumps(data))
        o = run([H, "show", str(path)])
        assert o.crash is None and o.code == code, o.err
        if code == 0:  # more than the edition's 3, drawn with a warning: the drawing reads back
            board = tmp_path / "board.txt"
            board.write_text(o.out)
            assert run([H, "show", "--json", str(board)]).code == 0
        else:
            assert "weather has 1000 witches" in o.err and f"{path}:" in o.err


@pytest.mark.parametrize("roll", ["\u00b2", "3" * 5000])
def test_in_turn_roll_line_with_odd_number(tmp_path: Path, roll: str) -> None:
    """``roll: ²`` passed ``isdigit`` and made ``int`` raise ValueError, as did a 5,000-digit roll."""
    path = tmp_path / "pos.txt"
    path.write_text(MID + f"roll: {roll}\n")
    o = run([H, "show", str(path)])
    assert o.crash is None and o.code == 2 and f"{path}:{MID.count(chr(10)) + 1}:" in o.err
