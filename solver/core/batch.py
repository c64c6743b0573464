"""The one batch runner: map a task over inputs in-process, on a local process pool, or on Ray.

Every long job of the toolkit (audits, many games, puzzle collections) is many
independent tasks.  :func:`run_batch` runs them with the :class:`Backend` the
caller chose and always gives the results back **in input order**, so an answer
built from them does not depend on the backend or the number of workers.  Tasks
must take their randomness from their input (a seed derived from the game's
index, say), never from the worker.

* A task is a picklable top-level function of one input (a ``functools.partial``
  of one binds shared arguments).  ``chunk`` inputs travel together, so a task
  that builds something per call can reuse it within a chunk.
* A task that raises is recorded as a :class:`TaskError` with its input; the other
  tasks' results are kept.
* Ctrl-C (``KeyboardInterrupt``) stops the workers; the :class:`Batch` keeps what
  finished and says it was interrupted.
* ``progress`` is called with a :class:`Progress` (done / total, rate, time left)
  as tasks finish.  The library never prints: rendering it is the caller's.

Backends: ``inline`` (this process), ``processes`` (a ``multiprocessing`` pool of
``jobs`` workers started by forkserver), ``ray`` (a local Ray runtime started once
per process with ``jobs`` CPUs, or an existing cluster at ``address``; needs the
optional ``ray`` package).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")

KINDS = ("inline", "processes", "ray")
#: ``Backend.address`` meaning "start a local Ray runtime" (the CLI's bare ``--ray``).
LOCAL = "local"


def cores() -> int:
    """The CPUs this process may run on (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Backend:
    """Where tasks run: ``kind`` (inline, processes, ray), ``jobs`` workers, Ray's ``address``."""

    kind: str = "inline"
    jobs: int = 1
    address: str | None = None  # ray only: LOCAL (or None) starts a local runtime

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown backend {self.kind!r}; choose from {', '.join(KINDS)}")
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs}")

    def describe(self) -> str:
        """One phrase for people: "1 job (in-process)", "2 jobs", "Ray (local, 2 CPUs)"."""
        if self.kind == "inline":
            return "1 job (in-process)"
        if self.kind == "processes":
            return f"{self.jobs} jobs"
        if self.address in (None, LOCAL):
            return f"Ray (local, {self.jobs} CPUs)"
        return f"Ray ({self.address})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "jobs": self.jobs, "address": self.address}


INLINE = Backend()


def choose(jobs: int | None = None, ray: str | None = None) -> Backend:
    """The backend for ``jobs`` workers (None: every core) or Ray (``ray``: LOCAL or an address).

    One job without Ray runs in-process (no pool to start).
    """
    n = cores() if jobs is None else jobs
    if ray is not None:
        return Backend("ray", n, ray)
    return Backend("inline" if n == 1 else "processes", n)


@dataclass(frozen=True)
class Progress:
    """How far a batch is: ``done`` of ``total`` inputs (``failed`` of them raised), after ``seconds``."""

    done: int
    total: int
    failed: int
    seconds: float

    @property
    def rate(self) -> float:
        """Inputs finished per second so far (0 before the first)."""
        return self.done / self.seconds if self.seconds > 0 else 0.0

    @property
    def left(self) -> float | None:
        """Estimated seconds left at the rate so far (None before the first input finishes)."""
        if self.done == 0 or self.rate == 0:
            return None
        return (self.total - self.done) / self.rate


@dataclass(frozen=True)
class TaskError:
    """A task that raised: its input's index and text, the exception's type, message and traceback."""

    index: int
    input: str
    kind: str
    message: str
    trace: str = ""

    def __str__(self) -> str:
        return f"task {self.index} ({self.input}) raised {self.kind}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "input": self.input, "error": self.kind, "message": self.message}


@dataclass
class Batch(Generic[R]):
    """A batch's outcome: ``results[i]`` for input i (None where it failed or did not finish)."""

    total: int
    backend: Backend
    results: list[R | None] = field(default_factory=list)
    finished: list[bool] = field(default_factory=list)
    errors: list[TaskError] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        """Every task finished without raising."""
        return not self.errors and not self.interrupted and all(self.finished)

    @property
    def done(self) -> int:
        return sum(self.finished)

    def items(self) -> list[tuple[int, R]]:
        """(index, result) of every task that finished, in input order."""
        return [(i, cast(R, r)) for i, r in enumerate(self.results) if self.finished[i]]

    def values(self) -> list[R]:
        """Every result in input order; :class:`BatchError` when a task failed or the batch was interrupted."""
        if not self.complete:
            raise BatchError(self)
        return [r for _i, r in self.items()]

    def status(self) -> str:
        """"complete", "interrupted" or "failed" (some task raised)."""
        if self.interrupted:
            return "interrupted"
        return "failed" if self.errors else "complete"

    def summary(self) -> str:
        """One line for people: what finished, what failed, whether it was interrupted."""
        head = f"{self.done} of {self.total} task(s) finished"
        if self.interrupted:
            head = "interrupted: " + head
        if self.errors:
            head += f"; {len(self.errors)} failed: " + "; ".join(str(e) for e in self.errors[:5])
            if len(self.errors) > 5:
                head += f"; and {len(self.errors) - 5} more"
        return head

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status(), "total": self.total, "finished": self.done,
                "errors": [e.to_json() for e in self.errors], "backend": self.backend.to_json()}


class BatchError(RuntimeError):
    """A batch that did not complete (a task raised, or Ctrl-C); ``partial``: an answer over what finished."""

    def __init__(self, batch: Batch[Any], partial: Any = None) -> None:
        super().__init__(batch.summary())
        self.batch = batch
        self.partial = partial

    @property
    def interrupted(self) -> bool:
        return self.batch.interrupted


# ---------------------------------------------------------------------------------------------
# Running a chunk (in any process)


def _describe(item: Any) -> str:
    text = repr(item)
    return text if len(text) <= 200 else text[:197] + "..."


def run_chunk(fn: Callable[[Any], Any], start: int, items: Sequence[Any]) -> list[tuple[bool, Any]]:
    """Apply ``fn`` to each item; (True, result) or (False, TaskError) per item, never raising."""
    out: list[tuple[bool, Any]] = []
    for k, item in enumerate(items):
        try:
            out.append((True, fn(item)))
        except Exception as exc:  # noqa: BLE001 - reported with the input, the others go on
            out.append((False, TaskError(start + k, _describe(item), type(exc).__name__, str(exc),
                                         traceback.format_exc())))
    return out


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---------------------------------------------------------------------------------------------
# The runner


def chunks(total: int, chunk: int) -> list[tuple[int, int]]:
    """(start, stop) ranges of ``chunk`` inputs covering ``range(total)``."""
    return [(s, min(total, s + chunk)) for s in range(0, total, chunk)]


def auto_chunk(total: int, workers: int, most: int = 64) -> int:
    """A chunk size for many small tasks: about 8 chunks a worker, at most ``most`` inputs each."""
    return max(1, min(most, math.ceil(total / (8 * max(1, workers)))))


def run_batch(
    fn: Callable[[T], R],
    inputs: Iterable[T],
    backend: Backend | None = None,
    progress: Callable[[Progress], None] | None = None,
    chunk: int = 1,
    on_result: Callable[[int, R], None] | None = None,
) -> Batch[R]:
    """Map ``fn`` over ``inputs`` on ``backend`` (in-process by default); results in input order.

    ``chunk`` inputs go to a worker together (for many small tasks); a single chunk runs in
    this process (a pool would only add its start-up).  Never raises for a task's exception
    (see ``Batch.errors``) nor for Ctrl-C (``Batch.interrupted``).  ``on_result(index, value)``
    hears each result in this process as its chunk comes back (in finishing order), for work
    that must be kept as it comes (a log of hours-long runs), before ``progress``.
    """
    items = list(inputs)
    be = backend or INLINE
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    batch: Batch[R] = Batch(len(items), be, [None] * len(items), [False] * len(items))
    t0 = time.monotonic()
    ranges = chunks(len(items), chunk)

    def take(start: int, out: list[tuple[bool, Any]]) -> None:
        for k, (ok, value) in enumerate(out):
            if ok:
                batch.results[start + k] = value
                batch.finished[start + k] = True
                if on_result is not None:
                    on_result(start + k, value)
            else:
                batch.errors.append(value)
        if progress is not None:
            progress(Progress(batch.done + len(batch.errors), batch.total, len(batch.errors),
                              time.monotonic() - t0))

    try:
        if not items:
            pass
        elif be.kind == "inline" or (be.kind == "processes" and (be.jobs == 1 or len(ranges) == 1)):
            for s, e in ranges:
                take(s, run_chunk(fn, s, items[s:e]))
        elif be.kind == "processes":
            _run_pool(fn, items, ranges, be.jobs, take)
        else:
            _run_ray(fn, items, ranges, be, take)
    except KeyboardInterrupt:
        batch.interrupted = True
    batch.errors.sort(key=lambda e: e.index)
    batch.seconds = time.monotonic() - t0
    return batch


def _run_pool(fn: Callable[[Any], Any], items: list[Any], ranges: list[tuple[int, int]], jobs: int,
              take: Callable[[int, list[tuple[bool, Any]]], None]) -> None:
    """The chunks on a forkserver pool of ``jobs`` workers (a clean start: no inherited threads)."""
    ctx = multiprocessing.get_context("forkserver")
    pool = ctx.Pool(min(jobs, len(ranges)), initializer=_ignore_sigint)
    try:
        pending = {s: pool.apply_async(run_chunk, (fn, s, items[s:e])) for s, e in ranges}
        while pending:
            ready = [s for s, r in pending.items() if r.ready()]
            if not ready:
                next(iter(pending.values())).wait(0.05)
                continue
            for s in ready:
                take(s, pending.pop(s).get())
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


_RAY_STARTED: dict[str, Any] = {}


def ray_runtime(backend: Backend) -> Any:
    """The ``ray`` module, initialised once per process: a local runtime with ``jobs`` CPUs or the cluster."""
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("the Ray backend needs the optional ray package (pip install 'gnomekit[ray]')") from exc
    if not ray.is_initialized():
        import logging

        kw: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR,
                              "log_to_driver": False, "configure_logging": True}
        if backend.address in (None, LOCAL):  # a task killed for memory is not retried (see _run_ray)
            ray.init(num_cpus=backend.jobs, _system_config={"task_oom_retries": 0}, **kw)
        else:
            ray.init(address=backend.address, **kw)
        _RAY_STARTED["address"] = backend.address
    return ray


def _run_ray(fn: Callable[[Any], Any], items: list[Any], ranges: list[tuple[int, int]], backend: Backend,
             take: Callable[[int, list[tuple[bool, Any]]], None]) -> None:
    ray = ray_runtime(backend)
    # No retries: a chunk whose worker dies (killed for memory, say) is reported failed with its inputs,
    # not run again and again (Ray retries an out-of-memory kill without end by default).
    remote = ray.remote(max_retries=0)(run_chunk)
    fn_ref = ray.put(fn)
    refs = {remote.remote(fn_ref, s, items[s:e]): (s, e) for s, e in ranges}
    try:
        while refs:
            done, _ = ray.wait(list(refs), num_returns=1, timeout=0.5)
            for ref in done:
                s, e = refs.pop(ref)
                try:
                    chunk = ray.get(ref)
                except ray.exceptions.RayError as exc:  # the worker was lost: every input of the chunk failed
                    chunk = [(False, TaskError(s + k, _describe(items[s + k]), type(exc).__name__, str(exc)[:500],
                                               "")) for k in range(e - s)]
                take(s, chunk)
    except BaseException:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise
