"""Hedge Mage: how much of the two hardest questions is proven, today's method vs a new one (one run).

    python -m benchmarks.hedge_mage_prove [--questions blocking,running]
        [--tiles D2,I4] [--seconds 60] [--methods exact,exact-count+twins] [--parallel] [--json FILE]
        [--run-seeds 1-20 --run-rounds 1-8 --run-points 3-5 --run-limit 24 --run-seconds 60
         --run-methods today,new --jobs 1]

Both questions of issue 15 are asked by default, blocking first; ``--questions`` picks one.

Blocking (``audit --parts a``): for each tile of the default edition (the
instance list is the edition's 12 tiles, from setup), the fewest earlier
placements after which the tile has no legal placement, answered by each method
with the same budget per tile.  Methods: ``audit_tile``'s own (``cegar``,
``exact``, ``exact-count`` - the default), and ``M+twins``: method M with tiles
that ask the same question (``audit.twins``: I3/I3m, L3/L3e, L4/L4m, T4/T4e on
the default garden) solved once by the first of them with the budget of the
pair, the other answered by ``audit.from_twin`` (its row shows 0 s; the total
budget is the same).  Per tile and method: the answer (the value when proven,
else ``>= lower, <= best witness``), the witness length, the largest k proven
UNSAT and the wall-clock seconds; then the share proven per method.  Where two
methods prove a value they must agree, and no lower bound may pass another
method's witness (asserted); every witness is replayed by ``audit_tile`` itself.

``--json FILE``: every answer (``TileAudit.to_json``, witnesses included) per method.
``--parallel``: each method in its own process at the same time (both see the
same machine load; on a 2-core machine, two methods use both cores).
Wall-clock seconds (the budgets are wall clock): run it on an idle machine, or
compare the methods within one run only.

Running (``solve --phase run``): the optimal rescue plan of running positions made by
``random --seed S --round R`` + ``to-run --points P`` (the edition's movement tokens and
springshroom), the instance list fixed by the seeds, asked of ``solve_run`` as it was
(``today``: ``strategy="bfs"``) and as it is (``new``: the default) with the same budget
(``--run-seconds`` wall clock and 150,000 expanded states, as ``solve``); per instance the status,
value, seconds, states and (when unknown) the best found and the bound, then the shares proven
within 10 s and 60 s (benchmarks/hedge_mage_prove_run.py, which also runs alone).  The full list
is 480 instances (hours); ``--run-limit N`` (default 24) takes N of them drawn by a fixed seed,
the same subset every run, ``--run-limit 0`` all of them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.solver.core.batch import Progress
from gnomekit.solver.hedge_mage.audit import METHODS, TileAudit, audit_tile, from_twin, setup_garden, twins

from benchmarks import hedge_mage_prove_run as running


def answer(a: TileAudit) -> str:
    if a.value is not None:
        return f"{a.value}"
    if a.never:
        return "never"
    return f">={a.lower}, <={a.upper if a.upper is not None else '?'}"


def run_method(method: str, names: list[str], seconds: float) -> list[tuple[TileAudit, float]]:
    """Every tile by one method (``M`` or ``M+twins``): (audit, wall-clock seconds) per tile."""
    ed = default_edition()
    base = setup_garden(ed)
    inner, _plus, share = method.partition("+")
    rep = twins(base, ed) if share == "twins" else {n: n for n in names}
    group = {r: [n for n in names if rep[n] == r] for r in rep.values()}
    done: dict[str, TileAudit] = {}
    out: list[tuple[TileAudit, float]] = []
    for t in names:
        t0 = time.monotonic()
        if rep[t] in done:
            a = from_twin(base, ed, t, done[rep[t]])
        else:
            a = audit_tile(base, ed, t, seconds * len(group[rep[t]]), method=inner)
            done[rep[t]] = a
        out.append((a, time.monotonic() - t0))
    return out


def blocking(tiles: list[str] | None, seconds: float, methods: list[str], parallel: bool,
             out: str | None = None) -> None:
    """The blocking table: every method on every tile asked for."""
    ed = default_edition()
    names = tiles or list(ed.tiles)
    for m in methods:
        if m.partition("+")[0] not in METHODS or m.partition("+")[2] not in ("", "twins"):
            raise SystemExit(f"--methods: unknown method {m!r} (choose from {', '.join(METHODS)}, each "
                             "optionally with +twins)")
    print(f"blocking: default edition, {len(names)} tiles, budget {seconds:g} s per tile and method"
          + (", methods in parallel processes" if parallel else ""))
    if parallel:
        with ProcessPoolExecutor(len(methods)) as pool:
            futs = [pool.submit(run_method, m, names, seconds) for m in methods]
            results = [f.result() for f in futs]
    else:
        results = [run_method(m, names, seconds) for m in methods]
    head = f"{'tile':<5} " + "  ".join(f"{m[:18] + ' answer':>25} {'wit':>3} {'unsat@':>6} {'s':>6}"
                                      for m in methods)
    print(head)
    print("-" * len(head))
    for row, t in enumerate(names):
        cells = []
        got = [res[row][0] for res in results]
        for a, dt in (res[row] for res in results):
            unsat = str(a.stats["unsat_at"]) if "unsat_at" in a.stats else f"{a.lower - 1}"
            wit = "-" if a.upper is None else str(a.upper)
            cells.append(f"{answer(a):>25} {wit:>3} {unsat:>6} {dt:6.1f}")
        for x in got:
            for y in got:
                if x.status == y.status == "proven":
                    assert (x.value, x.never) == (y.value, y.never), (t, x.to_json(), y.to_json())
                assert y.upper is None or x.lower <= y.upper, (t, x.to_json(), y.to_json())
        print(f"{t:<5} " + "  ".join(cells), flush=True)
    for m, res in zip(methods, results, strict=True):
        proven = sum(a.status == "proven" for a, _dt in res)
        print(f"{m}: proven {proven}/{len(names)} ({100 * proven / len(names):.0f}%), "
              f"{sum(dt for _a, dt in res):.1f} s in total")
    if out:
        with open(out, "w") as f:
            json.dump({m: [dict(a.to_json(), wall_seconds=round(dt, 3)) for a, dt in res]
                       for m, res in zip(methods, results, strict=True)}, f, indent=1)
    print("answer: the proven value, or >= proven lower bound, <= best witness; wit: witness length; "
          "unsat@: the largest k proven impossible (a proven value v has unsat@ v-1)")


def run_table(seeds: str, rounds: str, points: str, limit: int | None, seconds: float,
              methods: list[str], jobs: int) -> None:
    """The running table: every method on every instance of the list (or the fixed subset)."""
    for m in methods:
        if m not in running.METHODS:
            raise SystemExit(f"--run-methods: unknown method {m!r} (choose from {', '.join(running.METHODS)})")
    insts = running.instances(running._range(seeds), running._range(rounds), running._range(points), limit)
    print(f"running: random --seed {seeds} --round {rounds} + to-run --points {points}, {len(insts)} instances"
          f"{' drawn by a fixed seed' if limit else ''}; budget {seconds:g} s and 150000 states per instance "
          f"and method; {jobs} job(s)", flush=True)

    def shown(p: Progress) -> None:
        print(f"  {p.done}/{p.total} tasks, {p.seconds:.0f} s", file=sys.stderr, flush=True)

    rs = running.rows(insts, methods, seconds, 150_000, jobs, shown)
    for line in running.table(rs, methods):
        print(line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--questions", default="blocking,running",
                    help="blocking, running or both (default: both, blocking first)")
    ap.add_argument("--tiles", default="", help="tiles of the default edition (default: all 12)")
    ap.add_argument("--seconds", type=float, default=60.0, help="budget per tile and method (default 60)")
    ap.add_argument("--methods", default="exact,exact-count+twins",
                    help="comma-separated methods (default: exact,exact-count+twins)")
    ap.add_argument("--parallel", action="store_true", help="each method in its own process, at once")
    ap.add_argument("--json", default=None, metavar="FILE", help="write every blocking answer with its witness")
    ap.add_argument("--run-seeds", default="1-20", help="running: garden seeds S (default 1-20)")
    ap.add_argument("--run-rounds", default="1-8", help="running: building rounds R (default 1-8)")
    ap.add_argument("--run-points", default="3-5", help="running: movement points P (default 3-5)")
    ap.add_argument("--run-limit", type=int, default=24,
                    help="running: this many instances of the list, drawn by a fixed seed (default 24; 0: all)")
    ap.add_argument("--run-seconds", type=float, default=60.0, help="running: seconds per instance and method")
    ap.add_argument("--run-methods", default="today,new", help="running: methods (default today,new)")
    ap.add_argument("--jobs", type=int, default=1, help="running: worker processes (default 1)")
    args = ap.parse_args(argv)
    questions = [q for q in args.questions.split(",") if q]
    if not questions or any(q not in ("blocking", "running") for q in questions):
        ap.error(f"--questions: expected blocking, running or both, comma-separated (found {args.questions!r})")
    if "blocking" in questions:
        tiles = [x for x in args.tiles.split(",") if x] or None
        blocking(tiles, args.seconds, [m for m in args.methods.split(",") if m], args.parallel, args.json)
    if "running" in questions:
        run_table(args.run_seeds, args.run_rounds, args.run_points, args.run_limit or None, args.run_seconds,
                  [m for m in args.run_methods.split(",") if m], args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
