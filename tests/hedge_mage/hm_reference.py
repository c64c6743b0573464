"""An independent reference for Hedge Mage placement legality and movement points (tests only).

Nothing here uses the engine's geometry: tile orientations are generated from the
pictures in the edition TOML by this module's own rotation and mirror code,
connectivity is decided by networkx, and movement points are counted by
inclusion-exclusion over the row and column sums of a sigil grid.  Only the plain
fields of a ``Garden`` (cells of hedges, tokens and characters) are read.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

import networkx as nx
from gnomekit.models.hedge_mage.position import Garden

Cell = tuple[int, int]
Key = tuple[str, tuple[Cell, ...], Cell]  # (tile, sorted cells, sigil cell), as in the rulings


def pictures_from_toml(text: str) -> dict[str, list[str]]:
    """The ``[tiles]`` pictures of an edition TOML text, in file order."""
    tiles = tomllib.loads(text)["tiles"]
    return {name: list(rows) for name, rows in tiles.items()}


def default_pictures() -> dict[str, list[str]]:
    """The tile pictures of the bundled default edition, read from the data file itself."""
    text = resources.files("gnomekit.models.hedge_mage.data").joinpath("default.toml").read_text("utf-8")
    return pictures_from_toml(text)


def shapes(picture: list[str]) -> set[tuple[Cell, ...]]:
    """Every distinct orientation of a tile: sorted offsets of its cells from the sigil cell.

    Offsets are relative to the sigil, so two orientations that give the same cells and the
    same sigil cell coincide (one placement, per the rulings).
    """
    cells = [(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch in "@#"]
    (sr, sc), = [(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch == "@"]
    rel = [(r - sr, c - sc) for r, c in cells]
    out: set[tuple[Cell, ...]] = set()
    for mirrored in (False, True):
        pts = [(r, -c) for r, c in rel] if mirrored else list(rel)
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]  # a quarter turn
            out.add(tuple(sorted(pts)))
    return out


def placements_in_bounds(rows: int, cols: int, name: str, picture: list[str]) -> list[Key]:
    """Every (tile, cells, sigil) of this tile that fits inside a rows x cols garden."""
    out: set[Key] = set()
    for offs in shapes(picture):
        for sr in range(rows):
            for sc in range(cols):
                cells = tuple(sorted((sr + dr, sc + dc) for dr, dc in offs))
                if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                    out.add((name, cells, (sr, sc)))
    return sorted(out)


def blocked_cells(g: Garden) -> set[Cell]:
    """Cells a new tile may not cover: hedges, tunnels, gnomes, mages, springshrooms."""
    out = {c for h in g.hedges for c in h.cells}
    out |= set(g.tunnels) | set(g.springshrooms)
    out |= {x.at for x in g.gnomes} | {m.at for m in g.mages}
    return out


def all_sigils(g: Garden) -> set[Cell]:
    return {h.sigil for h in g.hedges} | set(g.bonus_sigils)


class Reference:
    """Legality and movement points of placements in one garden, the slow, obvious way."""

    def __init__(self, g: Garden) -> None:
        self.g = g
        self.rows, self.cols = g.rows, g.cols
        self.hedge = {c for h in g.hedges for c in h.cells}
        self.blocked = blocked_cells(g)
        self.graph = nx.grid_2d_graph(self.rows, self.cols)
        grid = [[0] * self.cols for _ in range(self.rows)]
        for r, c in all_sigils(g):
            grid[r][c] = 1
        self.sigil_grid = grid
        self.row_sum = [sum(row) for row in grid]
        self.col_sum = [sum(grid[r][c] for r in range(self.rows)) for c in range(self.cols)]
        self._legal: dict[frozenset[Cell], bool] = {}

    def violations(self, cells: Iterable[Cell]) -> set[str]:
        """Which rules a placement on these cells breaks: 'bounds', 'covers', '2x2', 'cut-off'."""
        cs = set(cells)
        out: set[str] = set()
        inside = {(r, c) for r, c in cs if 0 <= r < self.rows and 0 <= c < self.cols}
        if inside != cs:
            out.add("bounds")
        if inside & self.blocked:
            out.add("covers")
        after = self.hedge | inside
        for r in range(self.rows - 1):
            for c in range(self.cols - 1):
                if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= after:
                    out.add("2x2")
        ground = self.graph.copy()
        ground.remove_nodes_from(after)
        if ground.number_of_nodes() and not nx.is_connected(ground):
            out.add("cut-off")
        return out

    def legal(self, cells: Iterable[Cell]) -> bool:
        cs = frozenset(cells)
        if any(not (0 <= r < self.rows and 0 <= c < self.cols) for r, c in cs) or cs & self.blocked:
            return False  # cheap rules first; the full list is in violations()
        if cs not in self._legal:  # tiles of one shape share cell sets: decide each once
            self._legal[cs] = not self.violations(cs)
        return self._legal[cs]

    def points(self, cells: Iterable[Cell], sigil: Cell, tokens: int = 0) -> int:
        """Movement points by inclusion-exclusion: row sums + column sums - intersections + own."""
        cs = list(cells)
        rows = {r for r, _ in cs}
        cols = {c for _, c in cs}
        both = sum(self.sigil_grid[r][c] for r in rows for c in cols)
        own = 0 if self.sigil_grid[sigil[0]][sigil[1]] else 1
        return sum(self.row_sum[r] for r in rows) + sum(self.col_sum[c] for c in cols) - both + own + tokens

    def legal_keys(self, name: str, picture: list[str]) -> list[Key]:
        return [k for k in placements_in_bounds(self.rows, self.cols, name, picture) if self.legal(k[1])]


def reference_counts(g: Garden, pictures: dict[str, list[str]]) -> dict[str, tuple[int, int, list[Key]]]:
    """Per tile: (number of legal placements, sum of their movement points, their keys)."""
    ref = Reference(g)
    out = {}
    for name, pic in pictures.items():
        keys = ref.legal_keys(name, pic)
        out[name] = (len(keys), sum(ref.points(k[1], k[2]) for k in keys), keys)
    return out


PERFT_DIR = Path(__file__).parent / "perft"
