"""Gnomes at Midnight: the old search, the same search on the bitboard engine, and df-pn, in one run.

    python -m benchmarks.midnight_pns [--quick] [--deep 6,7]

1. The same AND-OR alpha-beta (``search.Searcher`` on the tuple kernel, ``fast.FastSearcher`` on the
   bitboard engine, ``jit.JitSearcher`` compiled with numba when it is installed): all visit exactly
   the same nodes (checked), so the ratio of nodes per second is the engine's speed-up.  The jit's
   compile (or cache load) time is printed apart, before the table.
2. Nodes to solve on the 15 puzzles and on opening positions: plain alpha-beta (no table, no
   ordering), the full alpha-beta, the threat search (``FastSearcher(threats=True)``: the full
   alpha-beta that does not search replies sparing an immediate win, refutes with a quiet reply at
   the last turn, and keeps the hardest move of a failed node as the next depth's hint; every node
   it visits is counted, a reply it passes over is no node), and df-pn (``pns.py``; a node is one
   expansion, re-expansions included).
   The threat search runs in Python and compiled (``JitSearcher(threats=True)``, the same nodes).
3. ``--deep 6,7``: the opening of ``new --seed 0`` under hidden decks at those depths, for the
   alpha-betas only (plain alpha-beta and df-pn take too long there).
"""

from __future__ import annotations

import argparse
import time

from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.gnomes_at_midnight import jit, pns
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.puzzles import load_puzzle, puzzle_files
from gnomekit.solver.gnomes_at_midnight.search import Searcher, SearchOptions

from gnomekit.common import table


def cases(quick: bool, deep: list[int]) -> list[tuple[str, object, int, str]]:
    out: list[tuple[str, object, int, str]] = []
    for f in puzzle_files():
        data, pos = load_puzzle(f)
        if quick and int(data["answer"]["turns"]) > 4:
            continue
        out.append(("puzzles", pos, int(data["depth"]), str(data.get("decks", "open"))))
    ed = bundled_edition("default")
    for seed in range(2 if quick else 5):
        out.append(("openings open d4", new_position(ed, seed), 4, "open"))
    for seed in range(1 if quick else 3):
        out.append(("openings hidden d5", new_position(ed, seed), 5, "hidden"))
    for d in deep:
        out.append((f"seed 0 hidden d{d}", new_position(ed, 0), d, "hidden"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer positions")
    ap.add_argument("--deep", default="", metavar="D,D", help="also the seed 0 opening, hidden decks, at these depths")
    args = ap.parse_args()
    deep = [int(x) for x in args.deep.split(",") if x.strip()]
    sums: dict[tuple[str, str], list[float]] = {}
    names = ["old alpha-beta", "fast alpha-beta", "jit alpha-beta", "threat alpha-beta", "jit threat alpha-beta",
             "plain alpha-beta", "df-pn"]
    if jit.available():
        print(f"jit: numba {jit.numba_version()}, compile or cache load {jit.warm_up():.2f} s (not in the table)")
    else:
        names.remove("jit alpha-beta")
        names.remove("jit threat alpha-beta")
        print(f"jit alpha-beta left out: {jit.unavailable_reason()}")
    for label, pos, depth, decks in cases(args.quick, deep):
        p = pos.hidden() if decks == "hidden" else pos  # type: ignore[attr-defined]
        results = []
        per_pos: dict[str, int] = {}
        for name in names:
            if label.startswith("seed 0 hidden") and name in ("plain alpha-beta", "df-pn"):
                continue
            t0 = time.perf_counter()
            if name == "old alpha-beta":
                k = Kernel(p)
                sr = Searcher(k)
                got, nodes = sr.shortest(k.state(p), depth), sr.nodes
            elif name == "plain alpha-beta":
                k = Kernel(p)
                sr = Searcher(k, SearchOptions(tt=False, ordering=False, symmetry=False))
                got, nodes = sr.shortest(k.state(p), depth), sr.nodes
            elif name == "fast alpha-beta":
                e = FastEngine(p)
                fs = FastSearcher(e)
                got, nodes = fs.shortest(e.state(p), depth), fs.nodes
            elif name == "threat alpha-beta":
                e = FastEngine(p)
                ts = FastSearcher(e, threats=True)
                got, nodes = ts.shortest(e.state(p), depth), ts.nodes
            elif name == "jit threat alpha-beta":
                e = FastEngine(p)
                jt = jit.JitSearcher(e, threats=True)
                got, nodes = jt.shortest(e.state(p), depth), jt.nodes
            elif name == "jit alpha-beta":
                e = FastEngine(p)
                js = jit.JitSearcher(e)
                got, nodes = js.shortest(e.state(p), depth), js.nodes
            else:
                r = pns.run(pos, depth, decks)  # type: ignore[arg-type]
                got, nodes = r.result.value, r.search.nodes
            sec = time.perf_counter() - t0
            results.append(got)
            per_pos[name] = nodes
            acc = sums.setdefault((label, name), [0, 0.0, 0])
            acc[0] += nodes
            acc[1] += sec
            acc[2] += 1
        if len(set(results)) != 1:
            raise AssertionError(f"the searches disagree on a {label} position: {results}")
        same = {per_pos[k] for k in ("old alpha-beta", "fast alpha-beta", "jit alpha-beta") if k in per_pos}
        if len(same) != 1:
            raise AssertionError(f"the old, fast and jit alpha-beta should visit the same nodes: {per_pos}")
        same = {per_pos[k] for k in ("threat alpha-beta", "jit threat alpha-beta") if k in per_pos}
        if len(same) > 1:
            raise AssertionError(f"the threat search should visit the same nodes compiled: {per_pos}")
    rows = []
    for (label, name), (nodes, sec, count) in sums.items():
        old_nodes, old_sec, _ = sums[(label, "old alpha-beta")]
        plain = sums.get((label, "plain alpha-beta"))
        rows.append([label, name, str(int(count)), f"{int(nodes):,}", f"{sec:.2f}", f"{nodes / max(sec, 1e-9):,.0f}",
                     f"{old_sec / max(sec, 1e-9):.1f}x", f"{plain[0] / max(nodes, 1):.2f}x" if plain else "-"])
    print(table(rows, ["set", "search", "positions", "nodes", "seconds", "nodes/s", "speed vs old",
                       "fewer nodes than plain"]))


if __name__ == "__main__":
    main()
