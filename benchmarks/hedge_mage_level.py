"""Hedge Mage: one level of a blocking number asked split by split, one solver for all vs a model a split.

    python -m benchmarks.hedge_mage_level [--levels N5:3,I4:4:30,T4:4:20] [--repeat 1]

``audit-level`` asks a level's splits (``level_proof``) on one incremental solver in one process
(``prove_level``, the baseline: it keeps the clauses it learns from split to split), or with
``--jobs``/``--ray`` one task a split on a model of its own (``prove_level_batch``, which can use many
cores and machines but learns nothing across splits).  This compares the two on the same splits in one
process, one after the other (``INLINE`` backend: no pool, so only the loss of learnt clauses and the
model builds are measured): question seconds, ratio fresh / shared.  A level is ``TILE:K`` or
``TILE:K:N`` (its first N splits).  The answers are asserted equal (the same splits UNSAT).
"""

from __future__ import annotations

import argparse
import time

from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.solver.core.batch import INLINE
from gnomekit.solver.hedge_mage.audit import setup_garden
from gnomekit.solver.hedge_mage.level_proof import level_splits, prove_level, prove_level_batch


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--levels", default="N5:3,I4:4:30,T4:4:20", help="TILE:K[:N], comma-separated")
    ap.add_argument("--seconds", type=float, default=1200.0, help="budget per level and method")
    args = ap.parse_args(argv)
    ed = default_edition()
    base = setup_garden(ed)
    print("level        splits   shared s   fresh s   fresh/shared   status")
    for spec in args.levels.split(","):
        parts = spec.split(":")
        tile, k = parts[0], int(parts[1])
        n = len(level_splits(base, ed, tile, k))
        only = set(range(int(parts[2]))) if len(parts) > 2 else None
        t0 = time.monotonic()
        shared = prove_level(base, ed, tile, k, t0 + args.seconds, only=only)
        t_shared = time.monotonic() - t0
        t0 = time.monotonic()
        fresh = prove_level_batch(base, ed, tile, k, args.seconds, only=only, backend=INLINE)
        t_fresh = time.monotonic() - t0
        assert fresh.unsat == shared.unsat and (fresh.blocking is None) == (shared.blocking is None), spec
        asked = len(only) if only is not None else n
        print(f"{tile} k={k:<6} {asked:>3}/{n:<4} {t_shared:9.1f} {t_fresh:9.1f} {t_fresh / t_shared:12.2f}x   "
              f"{shared.status} ({len(shared.unsat)} UNSAT)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
