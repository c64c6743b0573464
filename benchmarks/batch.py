"""The batch runner's speed-ups, measured in one run: ``python -m benchmarks.batch``.

* Hedge Mage audit part (b) with 2,000 games a policy (4,000 games) and the tour (every bundled
  puzzle): wall time with 1 job (in-process), 2 jobs (process pool) and Ray (local, 2 CPUs), as
  ratios against 1 job.  The answers are checked to be equal.
* Ray's overhead per task: 400 empty tasks, one chunk each, against the same in-process.
* A scaling table by simulation: the measured task times of part (b) and the tour spread by
  list scheduling over N machines of 2 workers (plus Ray's measured overhead per task), with
  the bytes each task moves and the memory of one worker.

The machine is shared: the figures are ratios of runs made one after the other in this run.
"""

from __future__ import annotations

import heapq
import pickle
import resource
import time
from functools import partial
from typing import Any

from gnomekit.models.hedge_mage.edition import load_edition
from gnomekit.solver.core.batch import Backend, auto_chunk, ray_runtime, run_batch
from gnomekit.solver.hedge_mage.audit import POLICIES, _sim_game, setup_garden, simulate

from gnomekit.tour_runner import TOUR_GAMES, puzzle_task

GAMES = 2000


def timed(fn: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def noop(x: int) -> int:
    return x


def makespan(times: list[float], workers: int, overhead: float) -> float:
    """Greedy list scheduling (longest first) of the task times over ``workers``."""
    heap = [0.0] * workers
    for t in sorted(times, reverse=True):
        heapq.heapreplace(heap, heap[0] + t + overhead)
    return max(heap)


def main() -> None:
    ed = load_edition(None)
    base = setup_garden(ed)
    one, two, ray = Backend("inline"), Backend("processes", 2), Backend("ray", 2, "local")
    rows: list[tuple[str, float, float, float]] = []

    def sim(backend: Backend) -> Any:
        return [s.to_json() | {"seconds": 0} for s in simulate(base, ed, GAMES, 0, POLICIES, backend=backend)]

    t_start, _ = timed(lambda: ray_runtime(ray))
    s1, a1 = timed(lambda: sim(one))
    s2, a2 = timed(lambda: sim(two))
    sr, ar = timed(lambda: sim(ray))
    assert a1 == a2 == ar, "part (b) answers differ between backends"
    rows.append((f"hedge-mage audit (b), {GAMES} games a policy", s1, s2, sr))

    jobs = []
    for _game, module in TOUR_GAMES:
        import importlib

        jobs += [(module, str(p)) for p in importlib.import_module(module).puzzle_files()]

    def tour(backend: Backend) -> Any:
        batch = run_batch(puzzle_task, jobs, backend)
        return batch, [(o.name, o.verified, o.answer_text) for o in batch.values()]

    t1, (b1, o1) = timed(lambda: tour(one))
    t2, (_b2, o2) = timed(lambda: tour(two))
    tr, (_br, orr) = timed(lambda: tour(ray))
    assert o1 == o2 == orr, "tour answers differ between backends"
    rows.append((f"tour ({len(jobs)} puzzles)", t1, t2, tr))

    n = 400
    ti, _ = timed(lambda: run_batch(noop, range(n), one).values())
    tn, _ = timed(lambda: run_batch(noop, range(n), ray).values())
    per_task = (tn - ti) / n

    print("Batch runner, one run on a shared 2-core machine (wall seconds; ratio = 1 job / backend)\n")
    print(f"{'job':<44} {'1 job':>8} {'2 jobs':>8} {'x':>6} {'Ray':>8} {'x':>6}")
    for name, a, b, c in rows:
        print(f"{name:<44} {a:8.1f} {b:8.1f} {a / b:6.2f} {c:8.1f} {a / c:6.2f}")
    print(f"\nRay: local runtime start {t_start:.1f} s (once per process); overhead per task "
          f"{1000 * per_task:.1f} ms ({n} empty tasks, one chunk each)")

    # Scaling by simulation: measured task times, N machines x 2 workers, Ray's overhead per task.
    sim_task = partial(_sim_game, base, ed, 0)
    sim_times = []
    for pol in POLICIES:
        for i in range(0, GAMES, 20):  # a sample of the games' own times
            sim_times.append(sim_task((pol, i))[4])
    sim_times = sim_times * 20
    chunk = auto_chunk(len(sim_times), 2)
    sim_chunks = [sum(sim_times[s:s + chunk]) for s in range(0, len(sim_times), chunk)]
    tour_times = [o.seconds for o in b1.values()]
    bytes_sim = len(pickle.dumps(sim_task)) + chunk * len(pickle.dumps(("random", 1)))
    res_sim = chunk * len(pickle.dumps(sim_task(("random", 1))))
    bytes_tour = max(len(pickle.dumps(j)) for j in jobs)
    res_tour = max(len(pickle.dumps(o)) for o in b1.values())
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print("\nScaling by simulation (list scheduling of the measured task times over N machines x 2 workers, "
          f"plus {1000 * per_task:.1f} ms a task):")
    print(f"{'job':<28} {'tasks':>6} {'bytes in/task':>14} {'bytes out/task':>15} " + " ".join(
        f"{f'N={m}':>8}" for m in (1, 2, 4, 8, 16)))
    for name, times, tasks, bi, bo in (("audit (b) chunks", sim_chunks, len(sim_chunks), bytes_sim, res_sim),
                                       ("tour puzzles", tour_times, len(tour_times), bytes_tour, res_tour)):
        spans = [makespan(times, 2 * m, per_task) for m in (1, 2, 4, 8, 16)]
        print(f"{name:<28} {tasks:>6} {bi:>14} {bo:>15} " + " ".join(f"{s:8.1f}" for s in spans))
    print(f"memory per worker: about {rss} MB (this process's peak resident set, which holds every model)")
    print("(the tour cannot go below its longest puzzle, "
          f"{max(tour_times):.1f} s; the Midnight tablebase build splits only within a ply: see docs/batch.md)")


if __name__ == "__main__":
    main()
