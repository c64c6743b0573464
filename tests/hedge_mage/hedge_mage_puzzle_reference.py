"""Independent, slow answers to Hedge Mage puzzle questions (how the stored answers were made).

Nothing here uses the engine's orientation tables, bitboards, ``check_placement``
or the SAT model: tile orientations come from rotating and mirroring the
edition's picture by hand, legality and the cells a placement cuts off come
from networkx on the grid graph, movement points from counting sigils in the
rows and columns, block values from networkx shortest paths, and plans from a
depth-first search over all of that.  Only the parsed garden (a data value) is
shared with the main methods.

Run as a script to print the reference ``[answer]`` of puzzle files::

    python tests/hedge_mage/hedge_mage_puzzle_reference.py puzzles/hedge-mage/*.toml
"""

from __future__ import annotations

import sys
from typing import Any

import networkx as nx
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.notation import placement_to_text
from gnomekit.models.hedge_mage.placement import Placement
from gnomekit.models.hedge_mage.position import Garden, Hedge
from gnomekit.solver.hedge_mage.puzzles import Puzzle, load_puzzle

Cell = tuple[int, int]


def shapes(ed: HedgeMageEdition, tile: str) -> set[tuple[frozenset[Cell], Cell]]:
    """Every orientation of a tile as (cells relative to the sigil, (0, 0)), from its picture."""
    t = ed.tiles[tile]
    out = set()
    cells = [(r - t.sigil[0], c - t.sigil[1]) for r, c in t.cells]
    for mirror in (False, True):
        cur = [(r, -c) if mirror else (r, c) for r, c in cells]
        for _ in range(4):
            cur = [(c, -r) for r, c in cur]
            out.add((frozenset(cur), (0, 0)))
    return out


def all_candidates(g: Garden, ed: HedgeMageEdition, tile: str) -> list[Placement]:
    """Every placement of the tile inside the garden, legal or not."""
    out = set()
    for rel, _ in shapes(ed, tile):
        for r in range(g.rows):
            for c in range(g.cols):
                cells = tuple(sorted((r + dr, c + dc) for dr, dc in rel))
                if all(0 <= x < g.rows and 0 <= y < g.cols for x, y in cells):
                    out.add(Placement(tile, cells, (r, c)))
    return sorted(out)


def hedges_of(g: Garden) -> set[Cell]:
    return {c for h in g.hedges for c in h.cells}


def blocked(g: Garden) -> set[Cell]:
    """Cells that are not empty ground: hedges, tunnels, gnomes, mages, springshrooms."""
    out = hedges_of(g) | set(g.tunnels) | set(g.springshrooms)
    out |= {m.at for m in g.mages} | {x.at for x in g.gnomes}
    return out


def ground_graph(g: Garden, hedge: set[Cell]) -> nx.Graph:
    graph = nx.grid_2d_graph(g.rows, g.cols)
    graph.remove_nodes_from(hedge)
    return graph


def violations(g: Garden, p: Placement) -> list[dict[str, Any]]:
    """Every broken geometric rule with its cells, in the shape a puzzle answer stores."""
    out: list[dict[str, Any]] = []
    inside = [c for c in p.cells if 0 <= c[0] < g.rows and 0 <= c[1] < g.cols]
    outside = [c for c in p.cells if c not in inside]
    if outside:
        out.append({"rule": "out-of-bounds", "cells": sorted(outside)})
    covered = sorted(c for c in inside if c in blocked(g))
    if covered:
        out.append({"rule": "covers", "cells": covered})
    after = hedges_of(g) | set(inside)
    for r in range(g.rows - 1):
        for c in range(g.cols - 1):
            w = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            if all(x in after for x in w):
                out.append({"rule": "2x2", "cells": sorted(w)})
    graph = ground_graph(g, after)
    comps = sorted((sorted(cc) for cc in nx.connected_components(graph)), key=lambda cc: (-len(cc), cc[0]))
    if len(comps) > 1:
        out.append({"rule": "cut-off", "cells": sorted(c for cc in comps[1:] for c in cc)})
    out = [{"rule": v["rule"], "cells": [list(c) for c in v["cells"]]} for v in out]
    return sorted(out, key=lambda v: (v["rule"], v["cells"]))


def legal(g: Garden, p: Placement) -> bool:
    return not violations(g, p)


def legal_list(g: Garden, ed: HedgeMageEdition, tile: str) -> list[Placement]:
    return [p for p in all_candidates(g, ed, tile) if legal(g, p)]


def sigils_counted(g: Garden, p: Placement) -> list[Cell]:
    rows = {r for r, _ in p.cells}
    cols = {c for _, c in p.cells}
    board = {h.sigil for h in g.hedges} | set(g.bonus_sigils) | {p.sigil} | set(p.tokens)
    return sorted(s for s in board if s[0] in rows or s[1] in cols)


def place(g: Garden, p: Placement) -> Garden:
    from dataclasses import replace

    return replace(g, hedges=g.hedges + (Hedge(p.tile, p.cells, p.sigil),),
                   bonus_sigils=g.bonus_sigils + tuple(p.tokens))


def block_sum(g: Garden) -> int:
    hedge = hedges_of(g)
    graph = ground_graph(g, hedge)
    sources = [m.at for m in g.mages if m.at not in hedge]
    dist = nx.multi_source_dijkstra_path_length(graph, sources) if sources else {}
    total = 0
    for x in g.gnomes:
        if x.awake:
            continue
        r, c = x.at
        near = [dist[n] for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in dist]
        total += min(near) if near else g.rows * g.cols
    return total


def plan(g: Garden, ed: HedgeMageEdition, tiles: list[str]) -> list[Placement] | None:
    if not tiles:
        return []
    for p in legal_list(g, ed, tiles[0]):
        rest = plan(place(g, p), ed, tiles[1:])
        if rest is not None:
            return [p] + rest
    return None


def allowed(g: Garden, ed: HedgeMageEdition) -> list[str]:
    """Revealed tile, plus the substitute while unused (the simple reading used by the puzzles)."""
    out = [g.tile] if g.tile else []
    if substitute_available(g, ed) and ed.substitute not in out:
        out.append(ed.substitute)  # type: ignore[arg-type]
    return out


def substitute_available(g: Garden, ed: HedgeMageEdition) -> bool:
    """The 2x1 may replace the revealed tile: unused, and still held (not placed as a card)."""
    held = not g.remaining_tiles or ed.substitute in g.remaining_tiles
    return ed.substitute is not None and not g.substitution_used and held


def reference_answer(pz: Puzzle) -> dict[str, Any]:
    """The answer to a puzzle's question, computed by the slow methods above."""
    g, ed, prm = pz.garden, pz.edition, pz.params

    def txt(p: Placement) -> str:
        return placement_to_text(p, ed)

    if pz.kind == "count":
        per = {t: legal_list(g, ed, t) for t in prm["tiles"]}
        return {"count": sum(len(v) for v in per.values()), "per_tile": {t: len(v) for t, v in per.items()},
                "placements": sorted(txt(p) for v in per.values() for p in v)}
    if pz.kind in ("legal", "points"):
        p = prm["place"]
        vs = violations(g, p)
        if pz.kind == "legal" and not prm["any_tile"] and p.tile not in allowed(g, ed):
            vs = sorted(vs + [{"rule": "wrong-tile", "cells": []}], key=lambda v: (v["rule"], v["cells"]))
        if pz.kind == "legal":
            out: dict[str, Any] = {"legal": not vs, "violations": vs}
            if not vs:
                out["points"] = len(sigils_counted(g, p))
            return out
        return {"points": len(sigils_counted(g, p)), "sigils": [list(c) for c in sigils_counted(g, p)]}
    if pz.kind == "best-points":
        scored = [(len(sigils_counted(g, p)), p) for t in prm["tiles"] for p in legal_list(g, ed, t)]
        top = max((s for s, _ in scored), default=0)
        return {"points": top, "placements": sorted(txt(p) for s, p in scored if s == top)}
    if pz.kind == "best-block":
        before = block_sum(g)
        scored2 = [(block_sum(place(g, p)) - before, len(sigils_counted(g, p)), p)
                   for t in prm["tiles"] for p in legal_list(g, ed, t)]
        top = max((b for b, _, _ in scored2), default=0)
        best = [(pts, p) for b, pts, p in scored2 if b == top]
        top_pts = max(pts for pts, _ in best)
        # Documented tie-break: more movement points, then the revealed tile before the
        # substitute, then (tile, sorted cells, sigil cell) ascending.
        tied = [p for pts, p in best if pts == top_pts]
        choice = min(tied, key=lambda p: (p.tile != g.tile, p.key))
        return {"block": top, "placements": sorted(txt(p) for _, p in best), "choice": txt(choice)}
    if pz.kind == "plan":
        w = plan(g, ed, prm["tiles"])
        return {"possible": w is not None, "witness": None if w is None else [txt(p) for p in w]}
    if pz.kind == "no-placement":
        tile = prm["tiles"][0]
        out = {"count": len(legal_list(g, ed, tile))}
        sub = ed.substitute
        if sub is not None and substitute_available(g, ed) and sub != tile:
            out["substitute_count"] = len(legal_list(g, ed, sub))
        return out
    raise ValueError(pz.kind)


def recheck_witness(pz: Puzzle, witness: list[str]) -> bool:
    """Is a stored plan witness legal step by step (by the slow rules above)?"""
    from gnomekit.models.hedge_mage.notation import parse_placement

    g = pz.garden
    steps = [parse_placement(w, pz.edition) for w in witness]
    if [p.tile for p in steps] != pz.params["tiles"]:
        return False
    for p in steps:
        if not legal(g, p):
            return False
        g = place(g, p)
    return True


def placements_on_board(ed: HedgeMageEdition, rows: int, cols: int) -> list[frozenset[Cell]]:
    """Every cell set any tile of the edition can cover on an empty rows x cols board."""
    out = set()
    for name in ed.tiles:
        for rel, _ in shapes(ed, name):
            for r in range(rows):
                for c in range(cols):
                    cells = frozenset((r + dr, c + dc) for dr, dc in rel)
                    if all(0 <= x < rows and 0 <= y < cols for x, y in cells):
                        out.add(cells)
    return sorted(out, key=sorted)


def can_be_walled_in(cells: frozenset[Cell], rows: int, cols: int) -> bool:
    """Necessary condition for hedge cells ``cells`` to have only hedge (or the edge) around them.

    In a legal garden (no 2x2 bush, every hedge cell in a tile of 2 or more cells) the
    neighbours of ``cells`` would all be hedge; then no 2x2 window may lie inside cells +
    neighbours, the fourth cell of a window with three such cells must be ground, and every
    neighbour needs a hedge neighbour of its own outside ``cells`` that is not forced ground.
    False means it can never happen.  Why it matters: a plan's order can only matter when
    the tiles placed later are walled in by the earlier ones.
    """
    def inside(x: Cell) -> bool:
        return 0 <= x[0] < rows and 0 <= x[1] < cols

    def around(x: Cell) -> list[Cell]:
        r, c = x
        return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if inside(n)]

    walls = {n for x in cells for n in around(x) if n not in cells}
    hedge = cells | walls
    forced: set[Cell] = set()
    for r in range(rows - 1):
        for c in range(cols - 1):
            free = [x for x in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)) if x not in hedge]
            if not free:
                return False
            if len(free) == 1:
                forced.add(free[0])
    return all(any(n not in cells and n not in forced for n in around(w)) for w in walls)


def main(paths: list[str]) -> None:  # pragma: no cover - an authoring aid
    import json

    for path in paths:
        pz = load_puzzle(path)
        ans = reference_answer(pz)
        sys.stdout.write(f"# {path} ({pz.kind})\n{json.dumps(ans)}\n")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
