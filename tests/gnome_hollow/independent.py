"""A second, independent Gnome Hollow ring checker written only from docs/formats-gnome-hollow.md.

It imports nothing from models/ or solver/: the hex directions, the orientation formula and the
tile paths (read straight from the edition TOML) are written here from the documentation, so a
mistake in models/core/hexgrid.py or in the documented convention shows up as a disagreement.
Networks are kept with a plain union-find over path nodes and wildflower hubs; a closed network
(no end facing an empty hex or grass) is a ring when it has at least as many paths as junctions.
Used by tests/gnome_hollow/test_qa.py; nothing here prints.
"""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path
from typing import Any

COLOURS = ("red", "yellow", "pink", "teal", "purple")
# Documented table: edge 0 N (q, r-1), 1 NE (q+1, r-1), 2 SE (q+1, r), 3 S (q, r+1), 4 SW (q-1, r+1), 5 NW (q-1, r).
DIRS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DEFAULT_TOML = Path(__file__).resolve().parents[2] / "models" / "gnome_hollow" / "data" / "default.toml"

Cell = tuple[int, int]
PathDef = tuple[int, int, str | None]
Node = tuple[Any, ...]


def load_tiles(path: Path = DEFAULT_TOML) -> dict[str, list[PathDef]]:
    """Tile id -> paths in orientation 0, read from the edition's ``[tiles]`` and ``[stump]``."""
    with open(path, "rb") as f:
        d = tomllib.load(f)

    def conv(ps: list[list[Any]]) -> list[PathDef]:
        return [(p[0], p[1], p[2] if len(p) > 2 else None) for p in ps]

    tiles = {k: conv(v) for k, v in d["tiles"].items()}
    tiles["S"] = conv(d["stump"]["paths"])
    for w in d["wildflowers"]:
        tiles[w] = []
    return tiles


def orient_edge(e: int, o: int) -> int:
    """Documented: ``rk`` turns e -> (e + k) % 6; ``mk`` first mirrors e -> (6 - e) % 6."""
    if o >= 6:
        e, o = (6 - e) % 6, o - 6
    return (e + o) % 6


def nb(cell: Cell, e: int) -> Cell:
    return (cell[0] + DIRS[e][0], cell[1] + DIRS[e][1])


class Garden:
    """The garden replayed tile by tile, with networks, completed (final) rings and claims."""

    def __init__(self, tiles: dict[str, list[PathDef]], wildflowers: set[str]) -> None:
        self.T = tiles
        self.W = wildflowers
        self.cells: dict[Cell, tuple[str, int]] = {}
        self.parent: dict[Node, Node] = {}
        self.hub: dict[Cell, Node] = {}
        self.final: set[Node] = set()
        self.gnomes: dict[tuple[Cell, int], str] = {}
        self.cells[(0, 0)] = ("S", 0)
        for k in range(len(tiles["S"])):
            self.parent[("p", (0, 0), k)] = ("p", (0, 0), k)

    def clone(self) -> Garden:
        """A copy to try a placement on (every field is a flat dict or set of tuples)."""
        g = copy.copy(self)
        g.cells, g.parent, g.hub = dict(self.cells), dict(self.parent), dict(self.hub)
        g.final, g.gnomes = set(self.final), dict(self.gnomes)
        return g

    def wild(self, tid: str) -> bool:
        return tid in self.W

    def ends_of(self, tid: str, o: int) -> dict[int, int]:
        out = {}
        for k, (a, b, _m) in enumerate(self.T[tid]):
            out[orient_edge(a, o)] = k
            out[orient_edge(b, o)] = k
        return out

    def ends(self, cell: Cell) -> dict[int, int]:
        return self.ends_of(*self.cells[cell])

    def find(self, x: Node) -> Node:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def attach(self, cell: Cell, e: int) -> Node | None:
        """The node a path end on edge e of cell touches: a neighbour's path, a wildflower hub, or None."""
        n = nb(cell, e)
        if n not in self.cells:
            return None
        if self.wild(self.cells[n][0]):
            return self.hub[n]
        k = self.ends(n).get((e + 3) % 6)
        return None if k is None else ("p", n, k)

    def owner(self, root: Node) -> str | None:
        for (cell, k), pl in self.gnomes.items():
            if cell in self.cells and ("p", cell, k) in self.parent and self.find(("p", cell, k)) == root:
                return pl
        return None

    def reasons(self, tid: str, cell: Cell, o: int, mover: str = "", permits: tuple[str, ...] = ()) -> list[str]:
        """Every rule this placement breaks (short tags), without laying it."""
        if cell in self.cells:
            return ["occupied"]
        out = []
        if not any(nb(cell, e) in self.cells for e in range(6)):
            out.append("not-adjacent")
        if self.wild(tid):
            roots = set()
            for e in range(6):
                node = self.attach(cell, e)
                if node is not None and node[0] == "p" and self.find(node) not in self.final:
                    roots.add(self.find(node))
            groups = [roots]
        else:
            mine = self.ends_of(tid, o)
            for e in range(6):
                n = nb(cell, e)
                if n in self.cells and not self.wild(self.cells[n][0]):
                    if (e in mine) != ((e + 3) % 6 in self.ends(n)):
                        out.append("edges")
            groups = []
            for a, b, _m in self.T[tid]:
                g = set()
                for e in (orient_edge(a, o), orient_edge(b, o)):
                    node = self.attach(cell, e)
                    if node is not None and self.find(node) not in self.final:
                        g.add(self.find(node))
                groups.append(g)
        for g in groups:
            if sum(self.owner(r) is not None for r in g) >= 2:
                out.append("two-gnomes")
        if not self.wild(tid):
            need = {self.owner(r) for g in groups for r in g} - {None, mover}
            out += ["permission" for p in sorted(need, key=str) if p not in permits]
        return out

    def lay(self, tid: str, cell: Cell, o: int) -> list[dict[str, Any]]:
        """Lay the tile (cell must be free); return the rings it closes as {size, mushrooms}."""
        self.cells[cell] = (tid, o)
        new: list[Node] = []
        if self.wild(tid):
            h: Node = ("h", cell, 0)
            self.parent[h] = h
            self.hub[cell] = h
            for e in range(6):
                node = self.attach(cell, e)
                if node is not None and node[0] == "p" and self.find(node) not in self.final:
                    self.parent[self.find(node)] = self.find(h)
            new.append(h)
        else:
            for k, (a, b, _m) in enumerate(self.T[tid]):
                pn: Node = ("p", cell, k)
                self.parent[pn] = pn
                for e in (orient_edge(a, o), orient_edge(b, o)):
                    node = self.attach(cell, e)
                    if node is None:
                        continue
                    if self.find(node) in self.final:
                        if node[0] != "h":
                            continue
                        fresh: Node = ("h", node[1], node[2] + 1)  # documented default: `fresh`
                        self.parent[fresh] = fresh
                        self.hub[node[1]] = fresh
                        node = fresh
                    ra, rb = self.find(pn), self.find(node)
                    if ra != rb:
                        self.parent[ra] = rb
                new.append(pn)
        rings = []
        for r in dict.fromkeys(self.find(x) for x in new):
            ring = self._closed_ring(r)
            if ring is not None:
                rings.append(ring)
                self.final.add(r)
        return rings

    def _closed_ring(self, root: Node) -> dict[str, Any] | None:
        members = [x for x in self.parent if self.find(x) == root]
        paths = [x for x in members if x[0] == "p"]
        hubs = [x for x in members if x[0] == "h"]
        if not paths:
            return None
        hub_ends = 0
        for _, c, k in paths:
            tid, o = self.cells[c]
            a, b, _m = self.T[tid][k]
            for e in (orient_edge(a, o), orient_edge(b, o)):
                n = nb(c, e)
                if n not in self.cells:
                    return None  # open: faces an empty hex
                if self.wild(self.cells[n][0]):
                    hub_ends += 1
                elif (e + 3) % 6 not in self.ends(n):
                    return None  # open: faces grass
        junctions = (2 * len(paths) - hub_ends) // 2 + len(hubs)
        if len(paths) < junctions:
            return None  # closed but no loop
        mush = dict.fromkeys(COLOURS, 0)
        for _, c, k in paths:
            m = self.T[self.cells[c][0]][k][2]
            if m:
                mush[m] += 1
        tiles = {c for _, c, _k in paths} | {h[1] for h in hubs}
        return {"size": len(tiles), "mushrooms": mush}


def check(tiles: dict[str, list[PathDef]], wild: set[str], garden: list[tuple[str, Cell, int]],
          gnomes: dict[tuple[Cell, int], str], seq: list[tuple[str, Cell, int]], mover: str,
          permits: tuple[str, ...] = ()) -> dict[str, Any]:
    """``check`` as documented: legal, reason tags per tile, rings (each with ``closed_by``)."""
    g = Garden(tiles, wild)
    for tid, cell, o in garden:
        g.lay(tid, cell, o)
    g.gnomes = dict(gnomes)
    reasons: list[str] = []
    rings: list[dict[str, Any]] = []
    for i, (tid, cell, o) in enumerate(seq, 1):
        rs = g.reasons(tid, cell, o, mover, permits)
        reasons += [f"tile {i}: {r}" for r in rs]
        if cell not in g.cells:
            for ring in g.lay(tid, cell, o):
                rings.append(ring | {"closed_by": i})
    return {"legal": not reasons, "reasons": reasons, "rings_if_placed": rings, "rings": [] if reasons else rings}


def frontier(g: Garden) -> list[Cell]:
    return sorted({nb(c, e) for c in g.cells for e in range(6)} - set(g.cells))


def _options(g: Garden, tids: list[str], mover: str = "", permits: tuple[str, ...] = ()) -> list[tuple[Any, ...]]:
    """Legal (tile, cell, orientation, rings closed) for these tiles."""
    out = []
    for tid in tids:
        for cell in frontier(g):
            for o in [0] if g.wild(tid) else range(12):
                if not g.reasons(tid, cell, o, mover, permits):
                    out.append((tid, cell, o, len(g.clone().lay(tid, cell, o))))
    return out


def generate(seed: int, tiles: dict[str, list[PathDef]], wild: set[str]) -> dict[str, Any]:
    """A garden of 0-12 tiles, gnomes on open networks, and a 1-3 tile sequence biased to close rings."""
    rng = random.Random(seed)
    g = Garden(tiles, wild)
    pool = sorted(t for t in tiles if t != "S")
    rng.shuffle(pool)
    garden = []
    for _ in range(rng.randint(0, 12)):
        tid = pool.pop()
        opts = _options(g, [tid])
        if not opts:
            continue
        rings = [x for x in opts if x[3]]
        tid, cell, o, _n = rng.choice(rings if rings and rng.random() < 0.3 else opts)
        g.lay(tid, cell, o)
        garden.append((tid, cell, o))
    gnomes: dict[tuple[Cell, int], str] = {}
    count = {"red": 0, "blue": 0}
    roots: set[Node] = set()
    paths = [x for x in g.parent if x[0] == "p" and g.find(x) not in g.final]
    rng.shuffle(paths)
    for x in paths[: rng.randint(0, 4)]:
        pl = rng.choice(["red", "blue"])
        if count[pl] < 2 and g.find(x) not in roots and g._closed_ring(g.find(x)) is None:
            roots.add(g.find(x))
            count[pl] += 1
            gnomes[(x[1], x[2])] = pl
    g.gnomes = dict(gnomes)
    permits = ("blue",) if rng.random() < 0.3 else ()
    seq = []
    for _ in range(rng.randint(1, 3)):
        shapes: dict[Any, str] = {}
        for t in rng.sample(pool, len(pool)):  # one tile per distinct shape covers every option
            shapes.setdefault("W" if t in wild else tuple((a, b) for a, b, _m in tiles[t]), t)
        opts = _options(g, list(shapes.values()), "red", permits)
        rings = [x for x in opts if x[3]]
        if rings and rng.random() < 0.9:
            tid, cell, o, _n = rng.choice(rings)
        elif opts and rng.random() < 0.85:
            tid, cell, o, _n = rng.choice(opts)
        else:  # often illegal
            tid = rng.choice(pool)
            cell = rng.choice(frontier(g))
            o = 0 if tid in wild else rng.randrange(12)
        pool.remove(tid)
        seq.append((tid, cell, o))
        if cell not in g.cells:
            g.lay(tid, cell, o)
    return {"garden": garden, "gnomes": gnomes, "seq": seq, "permits": permits}


def position_json(case: dict[str, Any]) -> dict[str, Any]:
    """The case's position in the documented JSON form (red to move, red and blue)."""
    tiles = [{"tile": "S", "cell": [0, 0], "orientation": 0}]
    tiles += [{"tile": t, "cell": list(c), "orientation": o} for t, c, o in case["garden"]]
    players = []
    for name in ("red", "blue"):
        gs: list[dict[str, Any]] = [{"at": {"cell": list(c), "path": k}, "down": False}
                                    for (c, k), pl in case["gnomes"].items() if pl == name]
        players.append({"name": name, "gnomes": gs + [{"at": None, "down": False}] * (2 - len(gs))})
    return {"game": "gnome-hollow", "to_move": "red", "tiles": tiles, "players": players}


def placement_args(seq: list[tuple[str, Cell, int]]) -> list[str]:
    return [f"{t}@{c[0]},{c[1]}:{'m' if o >= 6 else 'r'}{o % 6}" for t, c, o in seq]
