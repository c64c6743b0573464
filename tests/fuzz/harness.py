"""A fuzz harness for the CLI: mutate real inputs, run them through ``gnomekit.cli.main`` in-process.

What every run must do: no traceback (any exception escaping ``main`` other than argparse's own
``SystemExit(2)`` is a bug), an exit status of 0, 1 or 2, and an exit-2 message that names where
the problem is (see :func:`located`).  ``mutants(text, rng)`` makes the inputs: deleted,
duplicated and swapped lines, flipped characters, truncation, huge/negative/nan/inf numbers,
unicode and binary bytes; for JSON also deep nesting, wrong types and missing keys.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import unittest.mock
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gnomekit.cli
from gnomekit.cli import build_parser as _build_parser
from gnomekit.cli import main

NUMBER = re.compile(r"-?\d+")
WEIRD_NUMBERS = ["0", "-1", "-99999999999", "99999999999", "1" + "0" * 30, "9" * 5000, "nan", "inf", "-inf", "1e400",
                 "", "x"]  # 5000 digits: more than Python converts to an int (4300)
WEIRD_TEXT = ["\u00e9", "\u2603", "\x00", "\ufeff", "\u202e", "\t", "\r", "\x1b[31m", "😀", "Ω" * 50]
WEIRD_JSON: list[Any] = [None, True, 0, -1, 10**30, 1.5, "", "x", [], {}, [[1, 2]], {"a": 1}, "nan"]


def _lines(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return text[::-1]
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[j])
    elif op == 2:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return "\n".join(lines)


def _chars(text: str, rng: random.Random) -> str:
    if not text:
        return rng.choice(WEIRD_TEXT)
    i = rng.randrange(len(text))
    op = rng.randrange(4)
    if op == 0:
        return text[:i] + rng.choice(WEIRD_TEXT) + text[i:]
    if op == 1:
        return text[:i] + chr(rng.randrange(32, 127)) + text[i + 1:]
    if op == 2:
        return text[:i]
    return text[:i] + text[i + 1:]


def _numbers(text: str, rng: random.Random) -> str:
    found = list(NUMBER.finditer(text))
    if not found:
        return _chars(text, rng)
    m = rng.choice(found)
    return text[: m.start()] + rng.choice(WEIRD_NUMBERS) + text[m.end():]


def _json_paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _json_paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _json_paths(v, (*path, i))


def _json(text: str, rng: random.Random) -> str:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or a nesting an earlier mutation made
        return _chars(text, rng)
    op = rng.randrange(4)
    if op == 0:
        return "[" * rng.choice([50, 2000, 100_000]) + "]" * rng.choice([0, 50, 2000])
    paths = [p for p in _json_paths(data) if p]
    if not paths:
        return json.dumps(rng.choice(WEIRD_JSON))
    path = rng.choice(paths)
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    if op == 1 and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice(WEIRD_JSON)
    return json.dumps(data)


def mutants(text: str, rng: random.Random, n: int) -> Iterator[str]:
    """``n`` mutated copies of ``text`` (one to three mutations each)."""
    ops: list[Callable[[str, random.Random], str]] = [_lines, _chars, _numbers]
    if text.lstrip().startswith("{"):
        ops += [_json, _json]
    for _ in range(n):
        t = text
        for _ in range(rng.randint(1, 3)):
            t = rng.choice(ops)(t, rng)
        yield t


@dataclass
class Outcome:
    argv: list[str]
    code: int | None
    out: str
    err: str
    crash: str | None  # the exception that escaped, if any


_PARSER: argparse.ArgumentParser | None = None
RUNS = {"count": 0}  # inputs run in this process (tests/fuzz/conftest.py reports it)


def _parser() -> argparse.ArgumentParser:
    """The CLI's parser, built once: building it (all four games) is ~90% of a fast verb's time, and an
    argparse parser parses again with a fresh namespace each time, so the verbs see nothing different."""
    global _PARSER
    if _PARSER is None:
        _PARSER = _build_parser()
    return _PARSER


def run(argv: list[str]) -> Outcome:
    """``gnomekit ARGV`` in-process; what it printed, its status, and any escaping exception."""
    out, err = io.StringIO(), io.StringIO()
    crash = None
    code: int | None = None
    RUNS["count"] += 1
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            unittest.mock.patch.object(gnomekit.cli, "build_parser", _parser):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:  # noqa: BLE001 - any other escape is the bug we look for
            crash = f"{type(exc).__name__}: {exc}"[:500]
    return Outcome(argv, code, out.getvalue(), err.getvalue(), crash)


def located(outcome: Outcome, source: str) -> bool:
    """An exit-2 message names the file and a line (``SOURCE:LINE``), or an option (``--name``)."""
    msg = outcome.err
    return bool(re.search(re.escape(source) + r":\d+", msg) or re.search(r"(^|\s|\()--[a-z]", msg)
                or "usage:" in msg)


def fuzz_file(tmp: Path, argv_of: Callable[[str], list[str]], seeds: list[str], n: int, seed: int = 0,
              name: str = "pos.txt") -> list[str]:
    """Mutate each seed text ``n`` times, write it to ``tmp/name`` and run ``argv_of(path)``; the problems."""
    rng = random.Random(seed)
    path = tmp / name
    problems: list[str] = []
    for base in seeds:
        for text in mutants(base, rng, n):
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            o = run(argv_of(str(path)))
            if o.crash or o.code not in (0, 1, 2):
                problems.append(f"{o.crash or f'exit {o.code}'} for {o.argv} on {text[:300]!r}")
    return problems
