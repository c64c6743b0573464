"""Hexen Rennen benchmark: one table, every method run in this process on the same positions.

    python3 benchmarks/hexen_rennen.py [--positions 40] [--max-steps 6] [--expect 10]

(a) optimal chain (``solve_chain``: minimax and cooperative for every witch): time and states searched;
(b) the z3 verifier on the same turns (bound proof + Optimize + two strategy proofs) vs the search:
    the ratio z3 time / search time; values asserted equal;
(c) expectimax before rolling (``expect_turn``, all six rolls) on mid-game positions from ``random``:
    time and states, and how many hit the node budget.

Positions: ``solver.hexen_rennen.generate.rich_position`` seeds 0.. (rolls 1..6 in turn); for (b) only
turns whose longest chain is at most --max-steps (z3 time grows quickly with the unrolling).
Absolute times are printed only next to the ratios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.hexen_rennen.edition import default_edition  # noqa: E402
from models.hexen_rennen.setup import random_position  # noqa: E402
from models.hexen_rennen.turn import Turn, movable_witches  # noqa: E402
from solver.hexen_rennen.chain import solve_chain  # noqa: E402
from solver.hexen_rennen.expect import BudgetExceeded, expect_turn  # noqa: E402
from solver.hexen_rennen.generate import rich_position  # noqa: E402
from solver.hexen_rennen.smt import longest_chain, verify_turn  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--max-steps", type=int, default=6)
    ap.add_argument("--expect", type=int, default=10)
    ap.add_argument("--budget", type=int, default=300000)
    args = ap.parse_args()
    ed = default_edition()
    search_t, search_nodes, z3_t, longest = [], [], [], []
    checked = 0
    seed = 0
    while checked < args.positions:
        pos = rich_position(ed, seed)
        roll = 1 + seed % 6
        seed += 1
        steps = 0
        for o, t, _ in movable_witches(pos, ed, roll):
            if t is not None:
                turn = Turn(pos, ed, o)
                steps = max(steps, longest_chain(turn, turn.start(t)))
        if steps > args.max_steps:
            continue
        t0 = time.perf_counter()
        sol = solve_chain(pos, ed, roll)
        t1 = time.perf_counter()
        ver = verify_turn(pos, ed, roll)
        t2 = time.perf_counter()
        assert ver.agrees, (seed - 1, ver.summary)
        by = {w.origin: w for w in sol.witches}
        assert all(by[w.origin].value == w.search_value for w in ver.witches)
        search_t.append(t1 - t0)
        search_nodes.append(sol.nodes)
        z3_t.append(t2 - t1)
        longest.append(steps)
        checked += 1
    exp_t, exp_nodes, over = [], [], 0
    for s in range(args.expect):
        pos, _ = random_position(ed, s, 2 + s % 3, turns=20 + s)
        t0 = time.perf_counter()
        try:
            res = expect_turn(pos, ed, max_nodes=args.budget)
        except BudgetExceeded:
            over += 1
            continue
        exp_t.append(time.perf_counter() - t0)
        exp_nodes.append(res.nodes)
    ts, tz = sum(search_t), sum(z3_t)
    rows = [
        ("chain search (minimax + cooperative, all witches)", f"{len(search_t)} turns",
         f"mean {1000 * statistics.mean(search_t):.2f} ms, max {1000 * max(search_t):.2f} ms",
         f"states mean {statistics.mean(search_nodes):.0f}, max {max(search_nodes)}"),
        ("z3 verification of the same turns", f"{len(z3_t)} turns",
         f"mean {1000 * statistics.mean(z3_t):.1f} ms, max {1000 * max(z3_t):.1f} ms",
         f"z3 / search = {tz / ts:.0f}x (longest chain <= {max(longest)} steps)"),
        ("expectimax before rolling (6 rolls, all witches)", f"{len(exp_t)} positions",
         (f"mean {1000 * statistics.mean(exp_t):.1f} ms, max {1000 * max(exp_t):.1f} ms" if exp_t else "-"),
         (f"states mean {statistics.mean(exp_nodes):.0f}, max {max(exp_nodes)}; "
          f"{over} over the {args.budget}-state budget" if exp_t else f"{over} over budget")),
    ]
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip())


if __name__ == "__main__":
    main()
