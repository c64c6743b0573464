"""Hexen Rennen benchmark: one table, every method run in this process on the same positions.

    python -m benchmarks.hexen_rennen [--positions 40] [--max-steps 6] [--expect 10] [--small 20]

(a) optimal chain (``solve_chain``: minimax and cooperative for every witch): time and states searched;
(b) the z3 verifier on the same turns (bound proof + Optimize + two strategy proofs) vs the search:
    the ratio z3 time / search time; values asserted equal;
(c) expectimax before rolling (``expect_turn``, all six rolls, all witches) against the naive reference
    (tests/hexen_rennen/expect_reference.py: no memo, no classes, no pruning) on small positions where the
    reference finishes: time ratio, values asserted equal;
(d) expectimax with proven intervals (``expect_turn(bounded=True)``, as ``solve --expect``) on positions from
    ``new`` (2/3/4 players) and ``random`` after --turns-list turns, --budget states per witch: the refinement
    (threshold rounds, the default) against the previous method (exact search, then as many states again split
    evenly level by level) on the same positions in this process: CPU seconds, states, interval width of the
    overall value (0: exact), and the ratios; exact values asserted equal where both close.

Positions: ``solver.hexen_rennen.generate.rich_position`` seeds 0.. (rolls 1..6 in turn); for (b) only
turns whose longest chain is at most --max-steps (z3 time grows quickly with the unrolling).
Absolute times are printed only next to the ratios.
"""

from __future__ import annotations

import argparse
import statistics
import time
from fractions import Fraction

from gnomekit.models.hexen_rennen.edition import default_edition  # noqa: E402
from gnomekit.models.hexen_rennen.setup import new_position, random_position  # noqa: E402
from gnomekit.models.hexen_rennen.turn import Turn, movable_witches  # noqa: E402
from gnomekit.solver.hexen_rennen.chain import solve_chain  # noqa: E402
from gnomekit.solver.hexen_rennen.expect import expect_turn  # noqa: E402
from gnomekit.solver.hexen_rennen.generate import rich_position  # noqa: E402
from gnomekit.solver.hexen_rennen.smt import longest_chain, verify_turn  # noqa: E402

from tests.hexen_rennen.expect_reference import TooBig, reference_turn  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--max-steps", type=int, default=6)
    ap.add_argument("--expect", type=int, default=3, help="(d): seeds per player count and kind")
    ap.add_argument("--budget", type=int, default=150000, help="(d): states per witch (solve --expect's default)")
    ap.add_argument("--small", type=int, default=20, help="(c): small positions compared with the naive reference")
    ap.add_argument("--turns-list", default="12,30,60", help="(d): random turns before the position")
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
    small_new, small_ref, small_nodes = [], [], []
    s = 5000
    while len(small_new) < args.small:
        pos = rich_position(ed, s, face_up=0.7, keep_cards=0.4)
        s += 1
        t0 = time.perf_counter()
        try:
            _, _, ref = reference_turn(pos, ed, limit=200000)
        except TooBig:
            continue
        t1 = time.perf_counter()
        res = expect_turn(pos, ed)
        t2 = time.perf_counter()
        assert res.exact_overall == ref, s - 1
        small_ref.append(t1 - t0)
        small_new.append(t2 - t1)
        small_nodes.append(res.nodes)
    big: list[tuple[str, int, dict[str, tuple[float, int, Fraction]]]] = []  # (kind, players, per method)
    turns_list = [int(x) for x in args.turns_list.split(",") if x]
    for n in (2, 3, 4):
        for s in range(args.expect):
            cases = [("new", new_position(ed, n, s))]
            cases += [(f"random {k} turns", random_position(ed, s, n, turns=k)[0]) for k in turns_list]
            for kind, pos in cases:
                got: dict[str, tuple[float, int, Fraction]] = {}
                vals = {}
                for method in ("refine", "split"):
                    c0 = time.process_time()
                    # the same states per witch for both: refine's budget is for all witches together
                    witches = len(set(pos.witches_of(pos.to_move)))
                    budget = args.budget * witches if method == "refine" else args.budget
                    res = expect_turn(pos, ed, max_nodes=budget, bounded=True, method=method)
                    lo, hi = res.bounds_overall
                    got[method] = (time.process_time() - c0, res.nodes, hi - lo)
                    vals[method] = res.bounds_overall
                assert vals["refine"][0] <= vals["split"][1] and vals["split"][0] <= vals["refine"][1]
                if got["refine"][2] == 0 and got["split"][2] == 0:
                    assert vals["refine"] == vals["split"]
                big.append((kind, n, got))
    ts, tz = sum(search_t), sum(z3_t)
    rows = [
        ("chain search (minimax + cooperative, all witches)", f"{len(search_t)} turns",
         f"mean {1000 * statistics.mean(search_t):.2f} ms, max {1000 * max(search_t):.2f} ms",
         f"states mean {statistics.mean(search_nodes):.0f}, max {max(search_nodes)}"),
        ("z3 verification of the same turns", f"{len(z3_t)} turns",
         f"mean {1000 * statistics.mean(z3_t):.1f} ms, max {1000 * max(z3_t):.1f} ms",
         f"z3 / search = {tz / ts:.0f}x (longest chain <= {max(longest)} steps)"),
        ("expectimax vs naive reference (6 rolls, all witches)", f"{len(small_new)} small positions",
         f"mean {1000 * statistics.mean(small_new):.2f} ms vs {1000 * statistics.mean(small_ref):.1f} ms",
         f"naive / expectimax = {sum(small_ref) / sum(small_new):.1f}x; states mean "
         f"{statistics.mean(small_nodes):.0f}; values equal"),
    ]
    for kind, n, got in big:
        (tr, nr, wr), (tp, np_, wp) = got["refine"], got["split"]
        ratio = (f"width previous / refinement = {float(wp / wr):.1f}x" if wr else
                 f"refinement exact; previous {'exact' if not wp else f'width {float(wp):.4f}'}")
        rows.append((f"expectimax bounded, {kind}, {n} players", "1 position",
                     f"refinement {tr:.1f} s CPU, previous {tp:.1f} s CPU (ratio {tp / tr:.1f}x)",
                     f"states {nr} vs {np_}; overall width {float(wr):.4f} vs {float(wp):.4f}; {ratio}"))
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip())


if __name__ == "__main__":
    main()
