"""Maze running: the inert-gnome relaxation vs searching the whole game at once (ratios, one run, one table).

Usage: python -m benchmarks.hedge_mage_run_inert [--setup 1-6] [--allowances 3-6] [--budget STATES]
       [--bounds] [--quick]

Positions: ``gnomekit hedge-mage new --seed S`` made a running position with ``to-run --points N
--tokens 0 --springshroom-tokens 0`` (setup gardens: no hedges, so under the first-game cards every
flower and mushroom is inert; pumpkins wake next to each other).

Methods, both ``solve_run`` in this process, on the same position and budget:

* ``relaxation``: the default: the game without its inert gnomes first (solver/hedge_mage/running.py,
  docs/rules/hedge-mage-running.md "Inert gnomes"), then, if needed, frozen and whole;
* ``whole``: ``solve_run(..., inert=False)``: the whole game at once, inert gnomes carried about too.

Both without the bound by default (``--bounds`` turns it on for both), so the ratio is the
reduction's alone.  More than ``--budget`` expanded positions stops a method (``>budget``); a method
that stopped is not run again on that seed at larger allowances.  The ratio whole/relaxation is of
expanded positions and of CPU seconds (``time.process_time``); when ``whole`` stopped it is a lower
bound (``>``).  Values are asserted equal whenever both finish.
"""

from __future__ import annotations

import argparse
import time

from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running import run_position_from_garden
from gnomekit.models.hedge_mage.setup import new_garden
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.running import solve_run


def _range(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",") if x]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--setup", default="1-6", help="setup garden seeds (default 1-6)")
    ap.add_argument("--allowances", default="3-6", help="movement points N (default 3-6)")
    ap.add_argument("--budget", type=int, default=150_000, help="expanded positions per method (default 150000)")
    ap.add_argument("--bounds", action="store_true", help="branch and bound on (both methods)")
    ap.add_argument("--quick", action="store_true", help="seeds 1,2 at 3-5 points, budget 30000")
    args = ap.parse_args()
    if args.quick:
        args.setup, args.allowances, args.budget = "1,2", "3-5", 30_000
    ed = default_edition()
    print(f"budget {args.budget} positions, bounds {'on' if args.bounds else 'off'}")
    head = ["position", "N", "optimum", "relaxation states", "s", "whole states", "s", "ratio states", "ratio s"]
    rows: list[list[str]] = []
    for seed in _range(args.setup):
        garden = new_garden(ed, seed)[0]
        stopped = {"relaxation": False, "whole": False}
        for n in _range(args.allowances):
            pos = run_position_from_garden(garden, ed, ed.first_game, n, 0, 0)
            got = {}
            for name, inert in (("relaxation", True), ("whole", False)):
                if stopped[name]:
                    got[name] = None
                    continue
                t0 = time.process_time()
                res = solve_run(pos, ed, max_states=args.budget, bounds=args.bounds, inert=inert)
                sec = time.process_time() - t0
                done = res.status == Status.OPTIMAL
                stopped[name] = not done
                got[name] = (done, res.stats["states"], sec, res.value.key() if done else None)
            rel, whole = got["relaxation"], got["whole"]
            if rel is not None and whole is not None and rel[0] and whole[0]:
                assert rel[3] == whole[3], (seed, n, rel, whole)

            def cells(x: tuple[bool, int, float, object] | None) -> list[str]:
                if x is None:
                    return ["skip", ""]
                return [f"{x[1]}" if x[0] else f">{args.budget}", f"{x[2]:.1f}"]

            opt = "" if rel is None or not rel[0] else "{}/+{}".format(*rel[3][:2])  # type: ignore[index]
            ratio = ["", ""]
            if rel is not None and rel[0] and whole is not None:
                more = "" if whole[0] else ">"
                ratio = [f"{more}{whole[1] / max(rel[1], 1):.1f}", f"{more}{whole[2] / max(rel[2], 1e-3):.1f}"]
            rows.append([f"setup {seed}", str(n), opt, *cells(rel), *cells(whole), *ratio])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))


if __name__ == "__main__":
    main()
