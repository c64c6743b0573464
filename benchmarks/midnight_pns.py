"""Gnomes at Midnight: the old search, the same search on the bitboard engine, and df-pn, in one run.

    python -m benchmarks.midnight_pns [--quick]

1. The same AND-OR alpha-beta (``search.Searcher`` on the tuple kernel, ``fast.FastSearcher`` on the
   bitboard engine): both visit exactly the same nodes (checked), so the ratio of nodes per second
   is the engine's speed-up.
2. Nodes to solve on the 15 puzzles and on opening positions: plain alpha-beta (no table, no
   ordering), the full alpha-beta, and df-pn (``pns.py``; a node is one expansion, re-expansions
   included).
"""

from __future__ import annotations

import argparse
import time

from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.gnomes_at_midnight import pns
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.puzzles import load_puzzle, puzzle_files
from gnomekit.solver.gnomes_at_midnight.search import Searcher, SearchOptions

from gnomekit.common import table


def cases(quick: bool) -> list[tuple[str, object, int, str]]:
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
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer positions")
    args = ap.parse_args()
    sums: dict[tuple[str, str], list[float]] = {}
    for label, pos, depth, decks in cases(args.quick):
        p = pos.hidden() if decks == "hidden" else pos  # type: ignore[attr-defined]
        results = []
        for name in ("old alpha-beta", "fast alpha-beta", "plain alpha-beta", "df-pn"):
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
            else:
                r = pns.run(pos, depth, decks)  # type: ignore[arg-type]
                got, nodes = r.result.value, r.search.nodes
            sec = time.perf_counter() - t0
            results.append(got)
            acc = sums.setdefault((label, name), [0, 0.0, 0])
            acc[0] += nodes
            acc[1] += sec
            acc[2] += 1
        if len(set(results)) != 1:
            raise AssertionError(f"the searches disagree on a {label} position: {results}")
    rows = []
    for (label, name), (nodes, sec, count) in sums.items():
        old_nodes, old_sec, _ = sums[(label, "old alpha-beta")]
        plain_nodes = sums[(label, "plain alpha-beta")][0]
        rows.append([label, name, str(int(count)), f"{int(nodes):,}", f"{sec:.2f}", f"{nodes / max(sec, 1e-9):,.0f}",
                     f"{old_sec / max(sec, 1e-9):.1f}x", f"{plain_nodes / max(nodes, 1):.2f}x"])
    print(table(rows, ["set", "search", "positions", "nodes", "seconds", "nodes/s", "speed vs old",
                       "fewer nodes than plain"]))
    fo = sums[("puzzles", "fast alpha-beta")]
    oo = sums[("puzzles", "old alpha-beta")]
    if fo[0] != oo[0]:
        raise AssertionError("the fast alpha-beta should visit the same nodes as the old one")


if __name__ == "__main__":
    main()
