"""``gnomekit hedge-mage audit-level``: one level of a tile's blocking number, proven in pieces (thin).

"Does any garden of at most K earlier placements leave tile T no legal placement?" asked
split by split (``solver/hedge_mage/level_proof.py``); with ``--log FILE`` every split
proven UNSAT is appended to FILE as it comes, and a later run with the same FILE asks only
the splits left, so an hours-long level can be proven across many runs.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import IO, Any

from gnomekit.batch_cli import backend_of, bar, batch_answer
from gnomekit.common import NO, OK, Answer, add_common, read_source
from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, load_edition
from gnomekit.models.hedge_mage.notation import garden_to_json, garden_to_text, placement_to_text
from gnomekit.solver.core.batch import LOCAL, BatchError, Progress
from gnomekit.solver.hedge_mage.audit import max_before, replay, setup_garden
from gnomekit.solver.hedge_mage.level_proof import (
    LevelProof,
    SplitAnswer,
    header,
    level_splits,
    log_line,
    prove_level,
    prove_level_batch,
    question_key,
    read_log,
)


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = verbs.add_parser(
        "audit-level", help="prove that no garden of at most K placements blocks a tile, in resumable pieces",
        description="Audit part (a) for one tile and one level K: every way of sharing K placements among "
        "the other shapes is asked as one SAT question; UNSAT for all of them proves the tile's blocking "
        "number is above K. With --log the answers are kept and a later run goes on where this one stopped.")
    p.add_argument("--tile", required=True, help="the tile whose blocking number is asked")
    p.add_argument("--k", type=int, required=True, metavar="K", help="the level: at most K earlier placements")
    p.add_argument("--time", type=float, default=60.0, metavar="S",
                   help="seconds for this run (default 60); the split cut by it is asked again next run")
    p.add_argument("--split-time", type=float, default=None, metavar="S",
                   help="leave a split not answered within S seconds for a later run and go on with the next "
                   "(a sweep that settles the quick splits first, or finds a blocking garden in one; default: "
                   "wait on each split until --time)")
    p.add_argument("--part", metavar="I/N", default=None,
                   help="ask only the splits whose number is I modulo N (run N of these side by side, each "
                   "with its own log, to use N cores)")
    p.add_argument("--log", metavar="FILE", action="append",
                   help="record of the splits proven UNSAT: read to skip them, appended as new ones come; "
                   "repeated, every log is read and the first is written")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="ask the splits on N worker processes, one task a split on a model of its own (default: "
                   "in this process, one solver for all the splits, which keeps what it learns)")
    p.add_argument("--ray", nargs="?", const=LOCAL, default=None, metavar="ADDRESS",
                   help="one task a split on Ray: a local runtime with --jobs CPUs, or the cluster at ADDRESS "
                   "(the ray extra)")
    add_common(p)
    p.set_defaults(func=cmd_audit_level)


def cmd_audit_level(args: argparse.Namespace) -> Answer:
    ed = load_edition(args.edition)
    if args.tile not in ed.tiles:
        raise UsageError(f"unknown tile {args.tile!r}; the edition has: {' '.join(ed.tiles)}",
                         source="--tile", text=args.tile)
    kmax = max_before(ed)
    if not 1 <= args.k <= kmax:
        raise UsageError(f"expected a level from 1 to {kmax} (the placements before the last round)",
                         source="--k", text=str(args.k))
    if args.time <= 0:
        raise UsageError("expected a time budget in seconds > 0", source="--time", text=str(args.time))
    if args.split_time is not None and not args.split_time > 0:
        raise UsageError("expected seconds > 0 for each split", source="--split-time", text=str(args.split_time))
    part = _part(args.part)
    base = setup_garden(ed)
    splits = level_splits(base, ed, args.tile, args.k)
    question = question_key(base, ed, args.tile, args.k)
    settled: set[int] = set()
    log: IO[str] | None = None
    for path in args.log or []:
        if Path(path).exists():
            text, source = read_source(path)
            settled |= read_log(text, source, args.tile, args.k, splits, question)
    only = None if part is None else {i for i in range(len(splits)) if i % part[1] == part[0]}
    t0 = time.monotonic()
    stop: BatchError | None = None
    try:
        if args.log:
            path = args.log[0]
            fresh = not Path(path).exists()
            try:
                log = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed below, written per split
            except OSError as exc:
                raise UsageError(f"cannot write the log: {exc.strerror}", source=path) from None
            if fresh:
                log.write(header(args.tile, args.k, ed.name, len(splits), question) + "\n")
            share = ("" if part is None else f", --part {part[0]}/{part[1]}") + \
                ("" if args.jobs is None else f", --jobs {args.jobs}") + ("" if args.ray is None else ", --ray") + \
                ("" if args.split_time is None else f", --split-time {args.split_time:g}")
            log.write(f"# run {time.strftime('%Y-%m-%d %H:%M:%S %Z')}: {len(settled)} of {len(splits)} "
                      f"settled before, --time {args.time:g}{share}\n")
            log.flush()
        with bar(f"{args.tile} not with {args.k}", args, "split") as show:
            show(Progress(len(settled), len(splits), 0, 0.0))

            def heard(ans: SplitAnswer, proof: LevelProof) -> None:
                if log is not None:
                    if ans.status == "unsat":
                        log.write(log_line(ans, proof, time.monotonic() - t0) + "\n")
                    elif ans.status == "unasked":
                        pass
                    elif ans.status == "timeout":
                        cut = "--time" if args.split_time is None or ans.seconds < args.split_time else "--split-time"
                        log.write(f"# split {ans.index} {ans.counts}: cut by {cut} after {ans.seconds:.1f}s "
                                  "(asked again next run)\n")
                    else:
                        log.write(f"# split {ans.index} {ans.counts}: blocked by {len(ans.placements)}: "
                                  + " ".join(placement_to_text(p, ed) for p in ans.placements) + "\n")
                    log.flush()
                show(Progress(len(proof.unsat), len(splits), 0, time.monotonic() - t0))

            if args.ray is not None or (args.jobs is not None and args.jobs > 1):
                try:
                    proof = prove_level_batch(base, ed, args.tile, args.k, args.time, settled, heard, only,
                                              backend_of(args), args.split_time)
                except BatchError as err:  # Ctrl-C or a failed task: what was heard is in the log
                    proof, stop = err.partial, err
            else:
                backend_of(args)  # check --jobs
                proof = prove_level(base, ed, args.tile, args.k, t0 + args.time, settled, heard, only,
                                    args.split_time)
    finally:
        if log is not None:
            log.close()
    ans = _answer(proof, args, ed, len(settled), time.monotonic() - t0)
    return ans if stop is None else batch_answer(ans.data, ans.text, stop)


def _part(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise UsageError("expected I/N, two whole numbers, such as 0/2", source="--part", text=text) from None
    if not (n >= 1 and 0 <= i < n):
        raise UsageError("expected I/N with 0 <= I < N, such as 0/2", source="--part", text=text)
    return i, n


def _answer(proof: LevelProof, args: argparse.Namespace, ed: HedgeMageEdition, before: int, secs: float) -> Answer:
    n = len(proof.splits)
    data: dict[str, Any] = {
        "tile": proof.tile, "k": proof.k, "status": proof.status, "splits": n,
        "unsat": len(proof.unsat), "settled_before": before, "left": proof.left,
        "question_seconds": round(proof.question_seconds, 3), "seconds": round(secs, 3),
        "log": args.log[0] if args.log else None, "witness": None,
    }
    where = f" (log {' '.join(args.log)})" if args.log else ""
    if proof.status == "proven":
        text = (f"{proof.tile}: no garden of at most {proof.k} earlier placements blocks it (proven: all {n} "
                f"splits UNSAT{where}), so its blocking number is above {proof.k}")
        return Answer(data, text, OK)
    if proof.blocking is not None:
        seq = proof.blocking
        garden = replay(setup_garden(ed), ed, seq)
        data["witness"] = {"placements": [p.to_json() for p in seq], "garden": garden_to_json(garden)}
        text = (f"{proof.tile}: blocked by {len(seq)} earlier placements, so its blocking number is at most "
                f"{len(seq)}: " + " ".join(placement_to_text(p, ed) for p in seq) + "\n" + garden_to_text(garden, ed))
        return Answer(data, text, OK)
    again = (f"; run again with {' '.join('--log ' + x for x in args.log)} to go on" if args.log
             else "; give --log FILE to keep the answers")
    text = (f"{proof.tile} at k = {proof.k}: unknown, {len(proof.unsat)} of {n} splits UNSAT "
            f"({len(proof.unsat) - before} this run in {secs:.1f} s){where}; {n - len(proof.unsat)} left{again}")
    return Answer(data, text, NO)
