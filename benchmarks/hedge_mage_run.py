"""Maze running: states explored and time of the memoised search vs plain enumeration (ratios, one run).

Usage: python3 benchmarks/hedge_mage_run.py [--max-allowance N] [--budget STATES]
Positions: small random running positions (tests/hedge_mage/test_running.py generator); the allowance is
raised from 1.  Plain enumeration (no memoisation, no reductions) is run only while it stays small.
The planning encoding (SAT/SMT) is not implemented yet, so it has no column.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "hedge_mage"))

from models.hedge_mage.edition import default_edition  # noqa: E402
from solver.hedge_mage.running import bfs_plain, solve_run  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-allowance", type=int, default=3)
    ap.add_argument("--budget", type=int, default=200_000)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    from test_running import random_small

    ed = default_edition()
    print(f"{'allowance':>9} {'seed':>4} {'search states':>13} {'search s':>9} {'plain states':>12} {'plain s':>8} "
          f"{'state ratio':>11}")
    for a in range(1, args.max_allowance + 1):
        for seed in range(args.seeds):
            p = replace(random_small(seed), points=a, tokens=0, springshroom_tokens=0)
            t = time.perf_counter()
            r = solve_run(p, ed, max_states=args.budget)
            ts = time.perf_counter() - t
            if a <= 2:
                t = time.perf_counter()
                _v, n = bfs_plain(p, ed)
                tp = time.perf_counter() - t
                ratio = f"{n / max(1, r.stats['states']):.1f}x"
                plain = f"{n:>12} {tp:>8.2f}"
            else:
                plain, ratio = f"{'-':>12} {'-':>8}", "-"
            states = r.stats["states"] if r.status == "optimal" else f">{args.budget}"
            print(f"{a:>9} {seed:>4} {states!s:>13} {ts:>9.2f} {plain} {ratio:>11}", flush=True)


if __name__ == "__main__":
    main()
