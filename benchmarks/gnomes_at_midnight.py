"""Gnomes at Midnight benchmark: ratios within one run, one table per part.

    python -m benchmarks.gnomes_at_midnight [--quick]

1. Search on the puzzle set with and without the transposition table, move
   ordering and symmetry reduction: nodes, seconds, nodes per second, and the
   node ratio against the full search.
2. z3 counterexample-guided method against the search, per depth k: seconds on
   the same generated positions (open decks), and the z3 query counts.
3. Tablebase builds, old (reference: edge lists and np.unique) against new
   (lean: perfect index, no move graph), each in its own child process one
   after the other: wall and CPU seconds, positions per second, peak RSS (MB
   and bytes a state), bits a state stored (raw and as the compressed cache
   file).  The tiny test edition; the full run also builds mini with both
   (minutes; the old builder needs ~4 GB of memory).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from gnomekit.models.gnomes_at_midnight.edition import bundled_edition  # noqa: E402
from gnomekit.models.gnomes_at_midnight.setup import new_position  # noqa: E402
from gnomekit.solver.gnomes_at_midnight.gen import open_positions  # noqa: E402
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel  # noqa: E402
from gnomekit.solver.gnomes_at_midnight.puzzles import load_puzzle, puzzle_files  # noqa: E402
from gnomekit.solver.gnomes_at_midnight.search import Searcher, SearchOptions  # noqa: E402
from gnomekit.solver.gnomes_at_midnight.smt import smt_wins_within  # noqa: E402

from gnomekit.common import table  # noqa: E402


def search_part(quick: bool) -> str:
    configs = [
        ("full (TT + ordering + symmetry)", SearchOptions()),
        ("no symmetry", SearchOptions(symmetry=False)),
        ("no ordering", SearchOptions(ordering=False)),
        ("no TT", SearchOptions(tt=False)),
        ("no TT, no ordering", SearchOptions(tt=False, ordering=False, symmetry=False)),
    ]
    puzzles = []
    for f in puzzle_files():
        data, pos = load_puzzle(f)
        if quick and int(data["answer"]["turns"]) > 3:
            continue
        puzzles.append((pos, int(data["depth"]), int(data["answer"]["turns"])))
    # opening positions (default edition, several deck orders and dance cards) searched to depth 4
    ed = bundled_edition("default")
    openings = [(new_position(ed, seed), 4, None) for seed in range(3 if quick else 10)]
    rows = []
    for label, cases in (("puzzles", puzzles), ("openings, depth 4", openings)):
        base = None
        base_sec = None
        for name, opt in configs:
            nodes = 0
            t0 = time.perf_counter()
            for pos, depth, turns in cases:
                k = Kernel(pos)
                sr = Searcher(k, opt)
                got = sr.shortest(k.state(pos), depth)
                if turns is not None and got != turns:
                    raise AssertionError(f"search gave {got}, the puzzle says {turns}")
                nodes += sr.nodes
            sec = time.perf_counter() - t0
            base = base or nodes
            base_sec = base_sec or max(sec, 1e-9)
            rows.append([label, name, str(len(cases)), str(nodes), f"{sec:.2f}",
                         f"{nodes / max(sec, 1e-9):.0f}", f"{nodes / base:.2f}", f"{sec / base_sec:.2f}"])
    return table(rows, ["set", "search", "positions", "nodes", "seconds", "nodes/s", "nodes vs full",
                        "time vs full"])


def smt_part(quick: bool) -> str:
    rows = []
    for k, count in ((1, 20), (2, 8 if quick else 20), (3, 2 if quick else 6)):
        ps = open_positions(count, 500 + 10 * k)
        t0 = time.perf_counter()
        ans_s = []
        for p in ps:
            kk = Kernel(p)
            ans_s.append(Searcher(kk).win(kk.state(p), k))
        ts = time.perf_counter() - t0
        t0 = time.perf_counter()
        queries = 0
        ans_z = []
        for p in ps:
            r = smt_wins_within(p, k)
            ans_z.append(r.value)
            queries += r.stats["queries"]
        tz = time.perf_counter() - t0
        agree = sum(a == b for a, b in zip(ans_s, ans_z, strict=True))
        rows.append([str(k), str(count), str(sum(ans_s)), f"{agree}/{count}", f"{ts:.3f}", f"{tz:.2f}",
                     f"{tz / max(ts, 1e-9):.0f}x", str(queries)])
    return table(rows, ["k", "positions", "wins", "agree", "search s", "z3 s", "z3/search", "z3 queries"])


TB_CHILD = """
import json, resource, sys, tempfile, time
from pathlib import Path
import numpy as np
from gnomekit.models.core.edition import read_toml_file
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition, edition_from_toml
from gnomekit.solver.gnomes_at_midnight import tablebase
name, method = sys.argv[1], sys.argv[2]
ed = bundled_edition(name) if name == "mini" else edition_from_toml(read_toml_file(Path(name)))
t0, c0 = time.perf_counter(), time.process_time()
tb = tablebase.build(ed, method=method)
sec, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with tempfile.TemporaryDirectory() as d:
    f = Path(d) / "t.npz"
    if method == "reference":  # the format-1 file: one value byte a state
        stored = tb.values.nbytes
        np.savez_compressed(f, keys=tb.keys, values=tb.values, seconds=np.float64(tb.seconds))
    else:  # format 2: 2 bits a state plus a byte a longer loss
        lean = tablebase.LeanTablebase.of(tb)
        stored = lean.stored_bytes
        tablebase.write_table(f, lean)
    file_bytes = f.stat().st_size
print(json.dumps({"n": tb.size, "counts": tb.counts(), "sec": sec, "cpu": cpu, "peak": peak, "stored": stored,
                  "file": file_bytes}))
"""


def tablebase_part(quick: bool) -> str:
    """Old (reference) and new (lean) builders on the same editions, one after the other.

    Each build runs in a fresh child process: its peak RSS is a process's high-water mark, so two
    builds in one process could not be told apart (the children run one at a time, same machine)."""
    import json
    import subprocess
    import sys

    try:
        from gnomekit.solver.gnomes_at_midnight import tablebase  # noqa: F401
    except ModuleNotFoundError:
        return "tablebase: not built (solver/gnomes_at_midnight/tablebase.py missing)"
    tiny = Path(__file__).resolve().parents[1] / "tests" / "gnomes_at_midnight" / "data" / "tiny.toml"
    rows = []
    for label, name in [("tiny (test edition)", str(tiny))] + ([] if quick else [("mini", "mini")]):
        got = {}
        for method, shown in (("reference", "old (edges, np.unique)"), ("lean", "new (lean, 2-bit)")):
            out = subprocess.run([sys.executable, "-c", TB_CHILD, name, method], check=True, capture_output=True,
                                 text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            got[method] = r
            n, c = r["n"], r["counts"]
            rows.append([label, shown, str(n), str(c["win"]), str(c["loss"]), str(c["draw"]), f"{r['sec']:.1f}",
                         f"{r['cpu']:.1f}", f"{n / r['sec']:.0f}", f"{r['peak'] / 2**20:.0f}", f"{r['peak'] / n:.1f}",
                         f"{8 * r['stored'] / n:.2f}", f"{8 * r['file'] / n:.2f}"])
        old, new = got["reference"], got["lean"]
        assert old["counts"] == new["counts"], "the builders disagree"
        rows.append([label, "old / new", "", "", "", "", f"{old['sec'] / new['sec']:.1f}x",
                     f"{old['cpu'] / new['cpu']:.1f}x", "", f"{old['peak'] / new['peak']:.1f}x", "",
                     f"{old['stored'] / new['stored']:.1f}x", f"{old['file'] / new['file']:.1f}x"])
    return table(rows, ["tablebase", "builder", "positions", "win", "loss", "draw", "build s", "CPU s",
                        "positions/s", "peak MB", "peak B/state", "stored bits/state", "file bits/state"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smaller run (puzzles up to 3 turns, fewer z3 cases)")
    ap.add_argument("--no-tablebase", action="store_true")
    args = ap.parse_args()
    print("== search on the puzzle set ==")
    print(search_part(args.quick))
    print("\n== z3 (counterexample-guided) vs search, per depth ==")
    print(smt_part(args.quick))
    if not args.no_tablebase:
        print("\n== tablebase ==")
        print(tablebase_part(args.quick))


if __name__ == "__main__":
    main()
