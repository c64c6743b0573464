"""Hedge Mage: how much of the audit's hardest question is proven, today's method vs the exact one (one run).

    python -m benchmarks.hedge_mage_prove [--tiles D2,I4] [--seconds 60]

Blocking (``audit --parts a``): for each tile of the default edition (the
instance list is the edition's 12 tiles, from setup), the fewest earlier
placements after which the tile has no legal placement, answered by
``audit_tile(..., method="cegar")`` (the first method: a CEGAR loop over
placements) and by ``audit_tile(..., method="exact")`` (the default now:
``solver/hedge_mage/blocking.py``), each with the same budget per tile, in this
process.  Per tile and method: the answer (the value when proven, else
``>= lower, <= best witness``), the witness length, the largest k proven UNSAT
and the wall-clock seconds; then the share proven per method.  Where both
prove a value they must agree (asserted), and every witness is replayed by
``audit_tile`` itself.

Wall-clock seconds (the budgets are wall clock): run it on an idle machine, or
compare the two methods within one run only.
"""

from __future__ import annotations

import argparse
import time

from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.solver.hedge_mage.audit import TileAudit, audit_tile, setup_garden


def answer(a: TileAudit) -> str:
    if a.value is not None:
        return f"{a.value}"
    if a.never:
        return "never"
    return f">={a.lower}, <={a.upper if a.upper is not None else '?'}"


def blocking(tiles: list[str] | None, seconds: float) -> None:
    """The blocking table: both methods on every tile asked for."""
    ed = default_edition()
    base = setup_garden(ed)
    names = tiles or list(ed.tiles)
    methods = ("cegar", "exact")
    proven = {m: 0 for m in methods}
    total = {m: 0.0 for m in methods}
    print(f"blocking: default edition, {len(names)} tiles, budget {seconds:g} s per tile and method")
    head = f"{'tile':<5} " + "  ".join(f"{m + ' answer':>16} {'wit':>3} {'unsat@':>6} {'s':>6}" for m in methods)
    print(head)
    print("-" * len(head))
    for t in names:
        cells = []
        got: dict[str, TileAudit] = {}
        for m in methods:
            t0 = time.monotonic()
            a = audit_tile(base, ed, t, seconds, method=m)
            dt = time.monotonic() - t0
            got[m] = a
            total[m] += dt
            proven[m] += a.status == "proven"
            unsat = str(a.stats["unsat_at"]) if "unsat_at" in a.stats else f"{a.lower - 1}"
            wit = "-" if a.upper is None else str(a.upper)
            cells.append(f"{answer(a):>16} {wit:>3} {unsat:>6} {dt:6.1f}")
        a, b = got["cegar"], got["exact"]
        if a.status == b.status == "proven":
            assert (a.value, a.never) == (b.value, b.never), (t, a.to_json(), b.to_json())
        # bounds are sound on both sides: neither's lower bound may pass the other's witness
        for x, y in ((a, b), (b, a)):
            assert y.upper is None or x.lower <= y.upper, (t, x.to_json(), y.to_json())
        print(f"{t:<5} " + "  ".join(cells), flush=True)
    for m in methods:
        print(f"{m}: proven {proven[m]}/{len(names)} ({100 * proven[m] / len(names):.0f}%), "
              f"{total[m]:.1f} s in total")
    print("answer: the proven value, or >= proven lower bound, <= best witness; wit: witness length; "
          "unsat@: the largest k proven impossible (a proven value v has unsat@ v-1)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tiles", default="", help="tiles of the default edition (default: all 12)")
    ap.add_argument("--seconds", type=float, default=60.0, help="budget per tile and method (default 60)")
    args = ap.parse_args(argv)
    tiles = [x for x in args.tiles.split(",") if x] or None
    blocking(tiles, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
