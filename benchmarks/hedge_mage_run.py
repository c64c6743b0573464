"""Maze running: states and time of the optimal-plan search at allowances 3..8, vs plain enumeration and
vs the planning encoding (ratios, one run, one table).

Usage: python3 benchmarks/hedge_mage_run.py [--allowances 3-8] [--seeds 0,1] [--budget STATES]
       [--plain-cap STATES] [--encoding-limit SECONDS] [--tokens T] [--springshroom-tokens S] [--quick]

Positions: ``gnomekit hedge-mage new --seed S`` (the default 10x10 garden at setup, first-game
cards) made a running position with ``to-run --points N`` and, by default, no tokens held (so the
allowance is exactly N; ``--tokens 4 --springshroom-tokens 1`` gives the edition's start).  For
each position:

* ``search``: ``solve_run`` (compact engine, dominance, symmetry, branch and bound); a run that
  would explore more than ``--budget`` states stops with status unknown and shows ``>budget``;
* ``plain``: ``bfs_plain``, exhaustive enumeration of every unit-action sequence without
  memoisation or reductions, stopped after ``--plain-cap`` states (``-`` when it did not finish);
* ``encoding``: ``solver.hedge_mage.run_encoding.solve_run_encoding`` (the z3 planning encoding)
  when that module exists, with ``--encoding-limit`` seconds (``-`` when it did not finish).

Ratios are plain/search (states) and encoding/search (seconds); values are asserted equal when
two methods finish.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable
from typing import Any

from models.hedge_mage.edition import default_edition
from models.hedge_mage.running import RunPosition, run_position_from_garden, running_score
from models.hedge_mage.setup import new_garden
from solver.core.result import Status
from solver.hedge_mage.running import bfs_plain, solve_run


def _encoding() -> Callable[..., Any] | None:
    try:
        mod = importlib.import_module("solver.hedge_mage.run_encoding")
    except ImportError:
        return None
    fn = getattr(mod, "solve_run_encoding", None)
    return fn if callable(fn) else None


def _range(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--allowances", default="3-8", help="movement points N, e.g. 3-8 or 3,5 (default 3-8)")
    ap.add_argument("--seeds", default="0,1,2", help="garden seeds (default 0,1,2)")
    ap.add_argument("--budget", type=int, default=20_000, help="search state budget (default 20000)")
    ap.add_argument("--plain-cap", type=int, default=200_000, help="plain enumeration cap (default 200000)")
    ap.add_argument("--encoding-limit", type=float, default=60.0, help="seconds for the encoding (default 60)")
    ap.add_argument("--tokens", type=int, default=0, help="movement tokens held (default 0)")
    ap.add_argument("--springshroom-tokens", type=int, default=0, help="springshroom tokens held (default 0)")
    ap.add_argument("--quick", action="store_true", help="allowances 3-4, seed 0, small budgets")
    args = ap.parse_args()
    if args.quick:
        args.allowances, args.seeds, args.budget, args.plain_cap, args.encoding_limit = "3-4", "0", 3000, 20_000, 20
    ed = default_edition()
    enc = _encoding()
    enc_text = f"{args.encoding_limit:.0f} s" if enc else "not available"
    print(f"positions: new --seed S, to-run --points N --tokens {args.tokens} "
          f"--springshroom-tokens {args.springshroom_tokens}; budget {args.budget} states, plain cap "
          f"{args.plain_cap}, encoding {enc_text}")
    head = (f"{'N':>2} {'seed':>4} {'value':>10} {'search st':>10} {'search s':>9} {'plain st':>9} {'plain s':>8} "
            f"{'plain/search':>12} {'enc s':>7} {'enc/search':>10}")
    print(head)
    print("-" * len(head))
    for n in _range(args.allowances):
        for seed in _range(args.seeds):
            g, _deck = new_garden(ed, seed)
            p: RunPosition = run_position_from_garden(g, ed, ed.first_game, n, tokens=args.tokens,
                                                      springshroom_tokens=args.springshroom_tokens)
            t = time.perf_counter()
            r = solve_run(p, ed, max_states=args.budget)
            ts = time.perf_counter() - t
            ok = r.status == Status.OPTIMAL
            value = f"{r.value.rescued}/{r.value.points:+d}/{r.value.tokens + r.value.springshrooms}" if ok else "?"
            st = f"{r.stats['states']}" if ok else f">{args.budget}"
            plain_st = plain_s = ratio = "-"
            t = time.perf_counter()
            pv, count = bfs_plain(p, ed, max_states=args.plain_cap)
            tp = time.perf_counter() - t
            if pv is not None:
                plain_st, plain_s = str(count), f"{tp:.2f}"
                if ok:
                    expect = (pv[0] - p.total_rescued(), pv[1] - running_score(p, ed), pv[2])
                    assert expect == r.value.key(), (n, seed, expect, r.value)
                    ratio = f"{count / max(1, r.stats['states']):.1f}x"
            enc_s = enc_ratio = "-"
            if enc is not None:
                t = time.perf_counter()
                e = enc(p, ed, time_limit=args.encoding_limit)
                te = time.perf_counter() - t
                if e.status == Status.OPTIMAL:
                    enc_s = f"{te:.2f}"
                    if ok:
                        assert e.value.key() == r.value.key(), (n, seed, e.value, r.value)
                        enc_ratio = f"{te / max(ts, 1e-3):.1f}x"
            print(f"{n:>2} {seed:>4} {value:>10} {st:>10} {ts:>9.2f} {plain_st:>9} {plain_s:>8} {ratio:>12} "
                  f"{enc_s:>7} {enc_ratio:>10}", flush=True)
    print("value = rescued/points/tokens+springshrooms spent; plain st: unit-action sequences enumerated")


if __name__ == "__main__":
    main()
