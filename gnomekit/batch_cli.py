"""The batch options every long verb shares (``--jobs N``, ``--ray [ADDRESS]``) and what they choose.

Library: solver/core/batch.py.  The answers do not depend on these options (results come
back in input order and every task's seed comes from its input), only the time does.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Callable
from typing import Any

from gnomekit.common import NO, OK, Answer
from gnomekit.models.core.errors import UsageError
from gnomekit.progress import Display, display
from gnomekit.solver.core.batch import LOCAL, Backend, BatchError, choose, cores


def add_batch_options(p: argparse.ArgumentParser) -> None:
    """``--jobs N`` and ``--ray [ADDRESS]``."""
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help=f"worker processes on this machine (default: every core, {cores()} here; 1: in-process)")
    p.add_argument("--ray", nargs="?", const=LOCAL, default=None, metavar="ADDRESS",
                   help="run the tasks on Ray: a local runtime with --jobs CPUs, or the cluster at ADDRESS "
                        "(needs the ray extra: pip install 'gnomekit[ray]')")


def backend_of(args: argparse.Namespace) -> Backend:
    """The backend the options ask for (bad values name their option)."""
    jobs = getattr(args, "jobs", None)
    if jobs is not None and not 1 <= jobs <= 1024:
        raise UsageError("expected 1 to 1024 worker processes", source="--jobs", text=str(jobs))
    ray = getattr(args, "ray", None)
    if ray is not None:
        if not ray.strip():
            raise UsageError("expected a Ray address (host:port or ray://host:port)", source="--ray", text=ray)
        if importlib.util.find_spec("ray") is None:
            raise UsageError("the ray package is not installed (pip install 'gnomekit[ray]')", source="--ray")
    return choose(jobs, ray)


def bar(label: str, args: argparse.Namespace, unit: str = "task") -> Display:
    """The progress display of one batch of this verb (a terminal only, never with --json)."""
    return display(label, bool(getattr(args, "json", False)), unit=unit)


def incomplete(err: BatchError) -> dict[str, Any]:
    """What a verb's JSON says about a batch that did not complete (interrupted or failed tasks)."""
    return err.batch.to_json()


def batch_answer(data: dict[str, Any], text: str, stop: BatchError | None) -> Answer:
    """A batch verb's answer; when its batch did not complete, with what finished said (``incomplete``,
    the batch's summary line) and exit 130 after Ctrl-C, else 1."""
    if stop is None:
        return Answer(data, text)
    data["incomplete"] = incomplete(stop)
    return Answer(data, text + "\n" + stop.batch.summary(), 130 if stop.interrupted else NO)


def audit_answer(run: Callable[[argparse.Namespace, str], tuple[dict[str, Any], str, BatchError | None]],
                 args: argparse.Namespace,
                 write_witnesses: Callable[[dict[str, Any], str], str] | None = None) -> Answer:
    """A simulated audit's answer: ``run`` on ``--compare``'s two editions (what differs), or on
    ``--edition`` with its witnesses written to ``--witness-dir`` by ``write_witnesses``."""
    if args.compare:
        data, out, stop = compare_runs(run, args)
    else:
        data, out, stop = run(args, args.edition)
        if write_witnesses is not None and args.witness_dir:
            out += "\n" + write_witnesses(data["witnesses"], args.witness_dir)
    return batch_answer(data, out, stop)


def compare_runs(run: Callable[[argparse.Namespace, str], tuple[dict[str, Any], str, BatchError | None]],
                 args: argparse.Namespace) -> tuple[dict[str, Any], str, BatchError | None]:
    """``--compare A B`` for an audit ``run(args, edition) -> (data, text, stop)``: both runs (the second
    only when the first completed) and the figures that differ."""
    a, _ta, stop_a = run(args, args.compare[0])
    b, _tb, stop_b = run(args, args.compare[1]) if stop_a is None else (a, "", None)
    data, out = compare_answer((args.compare[0], args.compare[1]), a, b)
    return data, out, stop_a or stop_b


def compare_editions(audit: Callable[[argparse.Namespace], Answer], args: argparse.Namespace,
                     repeated: tuple[str, ...] = ("policies",)) -> Answer:
    """``audit``, or with ``--compare A B`` the same audit on two editions and the figures that differ
    (``repeated`` keys restate figures found elsewhere in the answer: compared once, not twice)."""
    if not args.compare:
        return audit(args)
    answers = []
    for edition in args.compare:
        answer = audit(argparse.Namespace(**{**vars(args), "edition": edition}))
        if answer.status != OK:  # interrupted or failed: that answer, as it is
            return answer
        answers.append(answer)
    data, text = compare_answer((args.compare[0], args.compare[1]),
                                *({k: v for k, v in ans.data.items() if k not in repeated} for ans in answers))
    data["a"], data["b"] = answers[0].data, answers[1].data
    return Answer(data, text)


def add_compare_option(p: argparse.ArgumentParser) -> None:
    """``--compare A.toml B.toml``: the same audit on two editions, and what differs."""
    p.add_argument("--compare", nargs=2, metavar=("A.toml", "B.toml"),
                   help="run the same audit on editions A and B and print the figures that differ")


SKIP = frozenset({"seconds", "backend", "edition", "witnesses", "witness", "first_witness_records", "record_file"})


def differences(a: Any, b: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """(path, value in A, value in B) for every figure that differs (timings, names and witnesses left out)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[tuple[str, Any, Any]] = []
        for k in list(a) + [k for k in b if k not in a]:
            if k in SKIP:
                continue
            out += differences(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
            isinstance(x, dict | list) for x in a + b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [(path, a, b)]


def compare_text(names: tuple[str, str], diffs: list[tuple[str, Any, Any]]) -> str:
    """The differences for people: one line a figure, A's value then B's."""
    head = f"compared {names[0]} (A) with {names[1]} (B): {len(diffs)} figure(s) differ"
    return "\n".join([head] + [f"  {path}: {a!r} -> {b!r}" for path, a, b in diffs])


def compare_answer(names: tuple[str, str], a: dict[str, Any], b: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``--compare``'s JSON (both answers and the differences) and text."""
    diffs = differences(a, b)
    data = {"compare": {"a": names[0], "b": names[1]},
            "differences": [{"figure": p, "a": x, "b": y} for p, x, y in diffs], "a": a, "b": b}
    return data, compare_text(names, diffs)
