"""Maze running: states and time of the optimal-plan search at allowances 3..8, vs the memoised reference
search and vs the planning encoding (ratios, one run, one table).

Usage: python -m benchmarks.hedge_mage_run [--allowances 3-8] [--setup 0,1] [--mid 1/5,2/6] [--no-small]
       [--budget STATES] [--ref-cap STATES] [--encoding-limit SECONDS] [--tokens T]
       [--springshroom-tokens S] [--quick]

Positions (first-game cards), each made a running position with allowance N (``to-run --points N``,
``--tokens`` movement tokens and ``--springshroom-tokens`` held, default none: the allowance is N):

* ``small``: a 1x6 corridor (``+1 .  .P .  .p +``: a mage on its tunnel, an awake and a sleeping
  pumpkin, a tunnel), where all three methods finish at several allowances;
* ``setup S``: ``gnomekit hedge-mage new --seed S`` (the default 10x10 garden at setup);
* ``mid S/R``: ``gnomekit hedge-mage random --seed S --round R`` (a 10x10 garden after R random
  building rounds: hedges, so mushrooms and flowers can wake).

Methods, all in this process:

* ``search``: ``solve_run`` (solver/hedge_mage/running.py); more than ``--budget`` expanded
  states stops it (status unknown: ``>budget``);
* ``ref``: the reference search (``solve_run(..., relevant_only=False)``): a memoised depth-first
  search over every unit action of the rules engine, no dominance, symmetry or bounds - what one
  writes first, and the second exact method of the tests - stopped after ``--ref-cap`` states
  (``>cap``).  (The previous baseline, ``bfs_plain``, enumerated unit-action sequences without any
  memo, which flattered the search.)
* ``encoding``: ``solve_run_encoding`` (the z3 planning encoding), stopped after
  ``--encoding-limit`` seconds (``>limit``).

A method that stopped on a position is not run again on it at larger allowances (``skip``: the work
only grows with N).  Ratios are ref/search (states, and seconds) and encoding/search
(seconds); values are asserted equal whenever two methods finish.  Seconds are CPU seconds of this
process (``time.process_time``, z3 included), so other jobs on the machine do not skew the ratios.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.running import RunPosition, run_position_from_garden, settle_position
from gnomekit.models.hedge_mage.running_notation import read_run
from gnomekit.models.hedge_mage.setup import new_garden, random_garden
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.run_encoding import solve_run_encoding
from gnomekit.solver.hedge_mage.running import solve_run

SMALL = "+1 .  .P .  .p +"


def _range(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",") if x]


def small_position(ed: HedgeMageEdition, tokens: int, shrooms: int, n: int) -> RunPosition:
    """The 1x6 corridor with allowance ``n``."""
    cols = len(SMALL.split())
    head = "   " + "  ".join(str(c) for c in range(cols))
    text = (f"hedge-mage run\nsize: 1x{cols}\nenchantments: {' '.join(ed.first_game)}\npoints: {n}\n"
            f"tokens: {tokens}\nspringshroom-tokens: {shrooms}\nhedges: -\n\n{head}\n0  {SMALL}\n")
    return settle_position(read_run(text, "small", ed), ed)[0]


def _from_garden(g: Garden, ed: HedgeMageEdition, tokens: int, shrooms: int, n: int) -> RunPosition:
    return run_position_from_garden(g, ed, ed.first_game, n, tokens, shrooms)


def positions(args: argparse.Namespace, ed: HedgeMageEdition) -> list[tuple[str, Callable[[int], RunPosition]]]:
    """(label, allowance -> running position) for every position asked for."""
    out: list[tuple[str, Callable[[int], RunPosition]]] = []
    tok, sh = args.tokens, args.springshroom_tokens
    if not args.no_small:
        out.append(("small", partial(small_position, ed, tok, sh)))
    for seed in _range(args.setup):
        g0 = new_garden(ed, seed)[0]
        out.append((f"setup {seed}", partial(_from_garden, g0, ed, tok, sh)))
    for spec in [x for x in args.mid.split(",") if x]:
        s, r = (int(v) for v in spec.split("/"))
        g1 = random_garden(ed, s, r)[0]
        out.append((f"mid {s}/{r}", partial(_from_garden, g1, ed, tok, sh)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--allowances", default="3-8", help="movement points N, e.g. 3-8 or 3,5 (default 3-8)")
    ap.add_argument("--setup", default="0,1", help="setup garden seeds (default 0,1; '' for none)")
    ap.add_argument("--mid", default="1/5,2/6", help="mid-game gardens SEED/ROUND (default 1/5,2/6; '' for none)")
    ap.add_argument("--no-small", action="store_true", help="leave out the 1x6 corridor")
    ap.add_argument("--budget", type=int, default=20_000, help="search state budget (default 20000)")
    ap.add_argument("--ref-cap", type=int, default=50_000, help="reference search state cap (default 50000)")
    ap.add_argument("--encoding-limit", type=float, default=60.0, help="seconds for the encoding (default 60)")
    ap.add_argument("--tokens", type=int, default=0, help="movement tokens held (default 0)")
    ap.add_argument("--springshroom-tokens", type=int, default=0, help="springshroom tokens held (default 0)")
    ap.add_argument("--quick", action="store_true",
                    help="allowances 3-4, setup 0, mid 1/5, budget 5000, reference cap 3000, encoding 5 s")
    args = ap.parse_args()
    if args.quick:
        args.allowances, args.setup, args.mid = "3-4", "0", "1/5"
        args.budget, args.ref_cap, args.encoding_limit = 5000, 3000, 5.0
    ed = default_edition()
    print(f"tokens {args.tokens}, springshroom tokens {args.springshroom_tokens}; search budget {args.budget} "
          f"states, reference cap {args.ref_cap} states, encoding limit {args.encoding_limit:.0f} s")
    head = (f"{'N':>2} {'position':>9} {'value':>9} {'search st':>9} {'search s':>8} {'ref st':>9} "
            f"{'ref s':>7} {'ref/search st':>15} {'ref/search s':>14} {'enc s':>7} {'enc/search s':>12}")
    print(head)
    print("-" * len(head))
    plist = positions(args, ed)
    stopped: dict[tuple[str, str], bool] = {}
    for n in _range(args.allowances):
        for label, make in plist:
            p = make(n)
            t = time.process_time()
            r = solve_run(p, ed, max_states=args.budget)
            ts = time.process_time() - t
            ok = r.status == Status.OPTIMAL
            value = f"{r.value.rescued}/{r.value.points:+d}/{r.value.tokens + r.value.springshrooms}" if ok else "?"
            st = f"{r.stats['states']}" if ok else ">budget"
            plain_st = plain_s = ratio_st = ratio_s = "-"
            if stopped.get((label, "ref")):
                plain_st = "skip"
            else:
                t = time.process_time()
                ref = solve_run(p, ed, relevant_only=False, max_states=args.ref_cap)
                tp = time.process_time() - t
                if ref.status != Status.OPTIMAL:
                    plain_st, stopped[(label, "ref")] = ">cap", True
                else:
                    count = ref.stats["states"]
                    plain_st, plain_s = str(count), f"{tp:.2f}"
                    if ok:
                        assert ref.value.key() == r.value.key(), (n, label, ref.value, r.value)
                        ratio_st = f"{count / max(1, r.stats['states']):.1f}x"
                        ratio_s = f"{tp / max(ts, 1e-3):.1f}x"
            enc_s = enc_ratio = "-"
            if stopped.get((label, "encoding")):
                enc_s = "skip"
            else:
                t = time.process_time()
                e = solve_run_encoding(p, ed, time_limit=args.encoding_limit)
                te = time.process_time() - t
                if e.status == Status.OPTIMAL:
                    enc_s = f"{te:.2f}"
                    if ok:
                        assert e.value.key() == r.value.key(), (n, label, e.value, r.value)
                        enc_ratio = f"{te / max(ts, 1e-3):.1f}x"
                else:
                    enc_s, stopped[(label, "encoding")] = ">limit", True
            print(f"{n:>2} {label:>9} {value:>9} {st:>9} {ts:>8.2f} {plain_st:>9} {plain_s:>7} {ratio_st:>15} "
                  f"{ratio_s:>14} {enc_s:>7} {enc_ratio:>12}", flush=True)
    print("value = rescued/points/tokens+springshrooms spent; search st, ref st: states expanded; "
          ">budget/>cap/>limit: stopped; skip: stopped at a smaller allowance")


if __name__ == "__main__":
    main()
