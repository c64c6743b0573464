"""Hedge Mage running: how many optimal rescue plans are proven, today's search vs the new one (one run).

    python -m benchmarks.hedge_mage_prove_run [--seeds 1-20] [--rounds 1-8] [--points 3-5]
        [--limit N] [--methods today,new] [--seconds 60] [--max-states 150000] [--jobs 2]

Instances (the issue's list, fixed by seeds): ``gnomekit hedge-mage random --seed S --round R`` then
``to-run --points P`` (the first-game cards, the edition's movement tokens and springshroom at the
start), settled as ``solve`` reads it, for S, R and P in the ranges given (default 20 x 8 x 3 =
480 instances), in the order P, R, S; ``--limit N`` takes N of them drawn with a fixed seed (the same subset
every run, named in the output).

Methods, each ``solve_run`` (solver/hedge_mage/running.py) on the same instance with the same budget
(``--seconds`` wall clock, and ``--max-states`` expanded states like ``solve --phase run``):

* ``today``: the breadth-first search with dominance and branch and bound as it was
  (``strategy="bfs"``);
* ``new``: the default search now (``strategy="best"``, see ``solve_run``).

Per instance and method: the status, the value (rescued/points/tokens+springshrooms spent, or
``?``), the seconds (wall clock of the task) and the states; then per method the shares proven
within 10 s and within 60 s (a proof that took longer than the threshold does not count).  Where
both methods prove an instance their values must agree (asserted).  ``--jobs 2`` runs the tasks on
the batch runner (solver/core/batch.py); the seconds are wall clock, so on a busy machine they
are an upper bound on what an idle one would take.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running import RunPosition, run_position_from_garden, settle_position
from gnomekit.models.hedge_mage.setup import random_garden
from gnomekit.solver.core.batch import Progress, choose, run_batch
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.running import solve_run

METHODS = {"today": "bfs", "new": "best"}
THRESHOLDS = (10.0, 60.0)


@dataclass(frozen=True)
class Instance:
    """One running position of the list: ``random --seed S --round R`` + ``to-run --points P``."""

    seed: int
    round: int
    points: int

    def label(self) -> str:
        return f"s{self.seed}/r{self.round}/p{self.points}"


@dataclass(frozen=True)
class Row:
    """One method on one instance."""

    instance: Instance
    method: str
    status: str
    value: str  # rescued/points/spent, or "?"
    seconds: float
    states: int
    found: str = ""  # unknown: the best plan found (rescued/points) and the bound "<= rescued/points"

    def proven_within(self, seconds: float) -> bool:
        return self.status == str(Status.OPTIMAL) and self.seconds <= seconds


def _range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def instances(seeds: Sequence[int], rounds: Sequence[int], points: Sequence[int],
              limit: int | None = None) -> list[Instance]:
    """The instance list in the order points, rounds, seeds; with ``limit``, that many of them drawn by a
    fixed seed (the same subset every run), kept in list order."""
    full = [Instance(s, r, p) for p in points for r in rounds for s in seeds]
    if limit is None or limit >= len(full):
        return full
    keep = set(random.Random(0).sample(range(len(full)), limit))
    return [x for i, x in enumerate(full) if i in keep]


def position(inst: Instance) -> RunPosition:
    """The settled running position of ``inst`` (as ``solve`` reads what ``to-run`` wrote)."""
    ed = default_edition()
    g = random_garden(ed, inst.seed, inst.round)[0]
    raw = run_position_from_garden(g, ed, ed.first_game, inst.points)
    return settle_position(raw, ed)[0]


def run_one(task: tuple[Instance, str], seconds: float, max_states: int | None) -> Row:
    """One method on one instance (a batch task: top-level, picklable)."""
    inst, method = task
    ed = default_edition()
    pos = position(inst)
    t0 = time.monotonic()
    res = solve_run(pos, ed, budget=Budget(states=max_states, seconds=seconds), strategy=METHODS[method])
    took = time.monotonic() - t0
    ok = res.status == Status.OPTIMAL
    v = res.value
    value = f"{v.rescued}/{v.points:+d}/{v.tokens + v.springshrooms}" if ok and v is not None else "?"
    found = ""
    if not ok and v is not None:
        ub = res.stats.get("upper_bound")
        bound = f"{ub['rescued']}/{ub['points']:+d}" if isinstance(ub, dict) else "?"
        found = f"{v.rescued}/{v.points:+d} <= {bound}"
    return Row(inst, method, str(res.status), value, took, int(res.stats.get("states", 0) or 0), found)


def rows(insts: Sequence[Instance], methods: Sequence[str] = ("today", "new"), seconds: float = 60.0,
         max_states: int | None = 150_000, jobs: int = 1,
         progress: Callable[[Progress], None] | None = None) -> list[Row]:
    """Every method on every instance (same budget), in instance order; values of two proofs agree."""
    tasks = [(i, m) for i in insts for m in methods]
    batch = run_batch(partial(run_one, seconds=seconds, max_states=max_states), tasks, choose(jobs), progress)
    if batch.errors:
        raise RuntimeError("; ".join(str(e) for e in batch.errors))
    out = batch.values()
    by: dict[Instance, dict[str, Row]] = {}
    for r in out:
        by.setdefault(r.instance, {})[r.method] = r
    for inst, rs in by.items():
        proven = {r.value for r in rs.values() if r.status == str(Status.OPTIMAL)}
        assert len(proven) <= 1, (inst, rs)
    return out


def shares(rs: Sequence[Row], method: str) -> dict[float, tuple[int, int]]:
    """Per threshold: (instances proven within it, instances) for ``method``."""
    mine = [r for r in rs if r.method == method]
    return {t: (sum(r.proven_within(t) for r in mine), len(mine)) for t in THRESHOLDS}


def table(rs: Sequence[Row], methods: Sequence[str]) -> list[str]:
    """The per-instance lines and the shares, for people."""
    head = "".join(f" {m + ' status':>15} {'value':>9} {'s':>7} {'states':>8} {'found <= bound':>16}" for m in methods)
    lines = [f"{'instance':<12}{head}"]
    by: dict[Instance, dict[str, Row]] = {}
    for r in rs:
        by.setdefault(r.instance, {})[r.method] = r
    for inst, d in by.items():
        line = f"{inst.label():<12}"
        for m in methods:
            r = d[m]
            line += f" {r.status:>15} {r.value:>9} {r.seconds:>7.1f} {r.states:>8} {r.found:>16}"
        lines.append(line)
    for m in methods:
        sh = shares(rs, m)
        lines.append(f"{m}: " + ", ".join(f"proven within {t:.0f} s: {a}/{n} ({100 * a / max(n, 1):.0f}%)"
                                          for t, (a, n) in sh.items()))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--seeds", default="1-20", help="garden seeds S (default 1-20)")
    ap.add_argument("--rounds", default="1-8", help="building rounds R (default 1-8)")
    ap.add_argument("--points", default="3-5", help="movement points P (default 3-5)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many instances, spread over the list")
    ap.add_argument("--methods", default="today,new", help="methods to run (default today,new)")
    ap.add_argument("--seconds", type=float, default=60.0, help="wall-clock seconds per instance and method")
    ap.add_argument("--max-states", type=int, default=150_000,
                    help="expanded states per instance and method (default 150000, as solve; 0: no limit)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = ap.parse_args(argv)
    methods = [m for m in args.methods.split(",") if m]
    for m in methods:
        if m not in METHODS:
            ap.error(f"--methods: unknown method {m!r} (choose from {', '.join(METHODS)})")
    insts = instances(_range(args.seeds), _range(args.rounds), _range(args.points), args.limit)
    print(f"running positions: seeds {args.seeds}, rounds {args.rounds}, points {args.points}"
          f"{f', {len(insts)} spread over the list' if args.limit else ''} ({len(insts)} instances); "
          f"budget {args.seconds:.0f} s and {args.max_states or 'no limit of'} states per method; "
          f"{args.jobs} job(s)", flush=True)
    def shown(p: Progress) -> None:
        print(f"  {p.done}/{p.total} tasks, {p.seconds:.0f} s", file=sys.stderr, flush=True)

    rs = rows(insts, methods, args.seconds, args.max_states or None, args.jobs, shown)
    for line in table(rs, methods):
        print(line)
    return 0


def summary(rs: Sequence[Row]) -> dict[str, Any]:
    """The shares per method, for JSON (the lead's benchmarks/hedge_mage_prove.py)."""
    methods = sorted({r.method for r in rs})
    return {m: {f"{t:.0f}s": a / max(n, 1) for t, (a, n) in shares(rs, m).items()} | {"instances": len(
        [r for r in rs if r.method == m])} for m in methods}


if __name__ == "__main__":
    sys.exit(main())
