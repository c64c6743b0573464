"""The batch runner (solver/core/batch.py): input order, failures with their inputs, Ctrl-C, progress.

The process-pool tests start real workers (about a second); the Ray test starts a local Ray
runtime once (several seconds) and runs the same audits there: it is skipped only when ray is
not installed, and fails instead with GNOMEKIT_RAY_TESTS=required (as CI sets it).
"""

from __future__ import annotations

import functools
import io
import json
import multiprocessing
import os
import random
import re
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from gnomekit.solver.core.batch import (
    INLINE,
    Backend,
    BatchError,
    Progress,
    auto_chunk,
    choose,
    chunks,
    cores,
    run_batch,
)

from gnomekit.cli import main
from gnomekit.progress import Display, display
from tests.marks import first_by_default


def seeded(salt: int, x: int) -> float:
    """A task whose answer depends only on its input (its seed comes from it)."""
    rng = random.Random(f"test/{salt}/{x}")
    return sum(rng.random() for _ in range(200)) + x


def fails_on_sevens(x: int) -> int:
    if x % 7 == 0:
        raise ValueError(f"no sevens: {x}")
    return x * x


def slow(x: int) -> int:
    time.sleep(0.3 if x >= 2 else 0.0)
    return x


def test_choose_and_describe() -> None:
    assert choose(1) == INLINE
    assert choose(3) == Backend("processes", 3)
    assert choose(None).jobs == cores()
    assert choose(2, "local") == Backend("ray", 2, "local")
    assert Backend("ray", 2, "10.0.0.1:6379").describe() == "Ray (10.0.0.1:6379)"
    with pytest.raises(ValueError, match="jobs"):
        Backend("processes", 0)
    with pytest.raises(ValueError, match="unknown backend"):
        Backend("threads", 2)


def test_chunks_cover_the_inputs_once() -> None:
    for total in (0, 1, 7, 64, 65):
        for size in (1, 3, 64):
            got = [i for s, e in chunks(total, size) for i in range(s, e)]
            assert got == list(range(total))
    assert auto_chunk(2000, 2) == 64
    assert auto_chunk(10, 2) == 1


@pytest.mark.parametrize("chunk", [1, 5])
def test_results_in_input_order_whatever_the_backend(chunk: int) -> None:
    fn = functools.partial(seeded, 3)
    want = [seeded(3, x) for x in range(23)]
    inline = run_batch(fn, range(23), INLINE, chunk=chunk)
    pool = run_batch(fn, range(23), Backend("processes", 2), chunk=chunk)
    assert inline.values() == want
    assert pool.values() == want
    assert pool.complete and pool.status() == "complete"


def test_on_result_hears_every_result_once_as_it_comes() -> None:
    """``on_result`` is called in the calling process for each finished task (failed ones are not results)."""
    for backend in (INLINE, Backend("processes", 2)):
        for chunk in (1, 4):
            heard: list[tuple[int, int]] = []
            b = run_batch(fails_on_sevens, range(15), backend, chunk=chunk,
                          on_result=lambda i, v, h=heard: h.append((i, v)))
            assert sorted(heard) == b.items() == [(x, x * x) for x in range(15) if x % 7]


def test_a_failing_task_is_reported_with_its_input_and_the_others_are_kept() -> None:
    for backend in (INLINE, Backend("processes", 2)):
        b = run_batch(fails_on_sevens, range(20), backend, chunk=3)
        assert [e.index for e in b.errors] == [0, 7, 14]
        assert b.errors[1].input == "7" and b.errors[1].kind == "ValueError"
        assert "no sevens: 7" in str(b.errors[1]) and "fails_on_sevens" in b.errors[1].trace
        assert [i for i, _ in b.items()] == [x for x in range(20) if x % 7]
        assert all(r == i * i for i, r in b.items())
        assert b.status() == "failed" and not b.complete
        with pytest.raises(BatchError, match="3 failed") as exc:
            b.values()
        assert exc.value.batch is b


def test_progress_reports_done_total_rate_and_time_left() -> None:
    seen: list[Progress] = []
    run_batch(fails_on_sevens, range(10), INLINE, progress=seen.append, chunk=2)
    assert [p.done for p in seen] == [2, 4, 6, 8, 10]
    assert all(p.total == 10 for p in seen)
    assert seen[-1].failed == 2 and seen[-1].left == 0
    assert seen[0].rate > 0 and seen[0].left is not None
    assert Progress(0, 5, 0, 0.0).left is None


def _interrupt_after(n: int) -> Any:
    def cb(p: Progress) -> None:
        if p.done >= n:
            raise KeyboardInterrupt
    return cb


def test_ctrl_c_stops_the_workers_and_keeps_what_finished() -> None:
    b = run_batch(slow, range(8), INLINE, progress=_interrupt_after(2))
    assert b.interrupted and b.status() == "interrupted" and b.done == 2
    assert b.items() == [(0, 0), (1, 1)]
    t0 = time.monotonic()
    b = run_batch(slow, range(40), Backend("processes", 2), progress=_interrupt_after(1))
    assert b.interrupted and 1 <= b.done < 40
    assert all(r == i for i, r in b.items())
    assert time.monotonic() - t0 < 5  # the 38 tasks left (0.3 s each) did not run
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("ForkServerPoolWorker")]


def test_display_draws_only_on_a_terminal_and_never_for_json() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    with display("audit", stream=tty) as d:
        for i in range(1, 4):
            d(Progress(i, 3, 0, 0.5 * i))
    assert "audit" in tty.getvalue() and "3/3" in tty.getvalue()
    quiet = Tty()
    with display("audit", as_json=True, stream=quiet) as d:
        d(Progress(1, 3, 0, 1.0))
    assert quiet.getvalue() == ""
    pipe = io.StringIO()
    with display("audit", stream=pipe) as d:
        d(Progress(1, 3, 0, 1.0))
    assert pipe.getvalue() == "" and isinstance(d, Display) and d.calls == 1


# ---------------------------------------------------------------------------------------------
# The same audits whatever the backend (through the command line, as a designer runs them)


def run(argv: list[str]) -> tuple[int, Any]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, json.loads(out.getvalue())


def untimed(data: Any) -> Any:
    """The answer without timings (keys and times within texts) and without the backend it ran on."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in ("seconds", "backend")}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    if isinstance(data, str):  # a time within a text ("agrees ... in 0.34s")
        return re.sub(r"\d+\.\d+ ?s\b", "T", data)
    return data


AUDITS = [
    ["hedge-mage", "audit", "--parts", "b", "--games", "30", "--seed", "4"],
    ["hexen-rennen", "audit", "--games", "4", "--players", "3"],
    ["gnomes-at-midnight", "audit", "--games", "2", "--dance", "square,ell"],
    ["hedge-mage", "play", "--games", "3", "--players", "3"],
    ["gnome-hollow", "audit", "--games", "1", "--players", "2,3", "--policies", "random"],
    ["hexen-rennen", "play", "--games", "3", "--players", "2"],
    ["puzzles", "check", str(Path(__file__).resolve().parents[2] / "puzzles" / "gnome-hollow")],
]


_ONE_JOB: dict[tuple[str, ...], tuple[int, Any]] = {}


def one_job(argv: list[str]) -> tuple[int, Any]:
    """``argv`` in-process (``--jobs 1``): the reference answer, computed once per worker and shared by
    the process-pool and the Ray comparisons (the answer does not depend on which test asks)."""
    key = tuple(argv)
    if key not in _ONE_JOB:
        _ONE_JOB[key] = run([*argv, "--json", "--jobs", "1"])
    code, data = _ONE_JOB[key]
    return code, json.loads(json.dumps(data))  # a fresh copy: a test may not change another's answer


@pytest.mark.parametrize("argv", first_by_default(AUDITS, 2), ids=lambda a: a[0])
def test_audit_with_one_job_and_two_gives_the_same_json(argv: list[str]) -> None:
    c1, one = one_job(argv)
    c2, two = run([*argv, "--json", "--jobs", "2"])
    assert c1 == c2 == 0
    assert untimed(one) == untimed(two)


def exits_on_fives(x: int) -> int:
    """A task whose worker process dies on 5 (no exception to report: the process is gone)."""
    if x == 5:
        os._exit(3)
    return x


def _ray_or_skip() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("GNOMEKIT_RAY_TESTS") == "required":
            raise
        pytest.skip("ray is not installed (pip install 'gnomekit[ray]')")


def _ray_equals_one_job(audits: list[list[str]]) -> None:
    """One local Ray runtime (2 CPUs) for ``audits``: each JSON equals the in-process one's."""
    from gnomekit.solver.core.batch import ray_runtime

    ray_runtime(Backend("ray", 2, "local"))
    try:
        for argv in audits:
            c1, one = one_job(argv)
            cr, on_ray = run([*argv, "--json", "--ray", "--jobs", "2"])
            assert c1 == cr == 0, argv
            assert untimed(one) == untimed(on_ray), argv
        b = run_batch(fails_on_sevens, range(10), Backend("ray", 2, "local"), chunk=3)
        assert [e.index for e in b.errors] == [0, 7] and [i for i, _ in b.items()] == [1, 2, 3, 4, 5, 6, 8, 9]
        # A worker that dies (as one killed for memory does) fails its chunk's inputs; it is not retried.
        b = run_batch(exits_on_fives, range(8), Backend("ray", 2, "local"), chunk=2)
        assert [e.index for e in b.errors] == [4, 5] and [i for i, _ in b.items()] == [0, 1, 2, 3, 6, 7]
    finally:
        import ray as _ray

        _ray.shutdown()


def test_ray_gives_the_same_answers_as_one_job() -> None:
    """The Hedge Mage audit on a local Ray runtime, and its errors and dead workers (the rest: below)."""
    _ray_or_skip()
    _ray_equals_one_job(AUDITS[:1])


@pytest.mark.slow
@pytest.mark.ci
def test_ray_gives_the_same_answers_as_one_job_for_every_audit() -> None:
    """Every audit and the tour of another game's puzzles (Hexen Rennen's take 3 s, and its own tests
    solve them) on Ray; left out of the default run for its time only (85 s on a fresh clone)."""
    _ray_or_skip()
    _ray_equals_one_job([*AUDITS[1:], ["tour", "--game", "hedge-mage"]])
