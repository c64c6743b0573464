"""Hedge placement: legality with every reason, movement points, fast enumeration.

A placement is identified by (tile, sorted cells, sigil cell), as the rulings
say.  ``check_placement`` explains a placement in full (every broken rule, the
cells involved, the movement points and the sigils that gave them);
``legal_placements`` enumerates every legal placement of a tile quickly with
bitboards (a Python int per cell set, one padding column so shifts never wrap)
and a flood fill that stops as soon as every ground neighbour of the tile is
reached.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.grid import Cell, all_cells, orthogonal_neighbours, windows_containing
from gnomekit.models.core.violation import Violation
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, Orientation, Tile
from gnomekit.models.hedge_mage.position import Garden, ground_components

ORIENTATION_NAMES = ("R0", "R90", "R180", "R270", "F0", "F90", "F180", "F270")


@dataclass(frozen=True, order=True)
class Placement:
    """A tile laid in the garden: its name, sorted cells and sigil cell."""

    tile: str
    cells: tuple[Cell, ...]
    sigil: Cell
    # Where held bonus sigil tokens go (non-sigil cells of this tile); not part of identity.
    tokens: tuple[Cell, ...] = field(default=(), compare=False)

    @property
    def key(self) -> tuple[str, tuple[Cell, ...], Cell]:
        return (self.tile, self.cells, self.sigil)

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {
            "tile": self.tile,
            "cells": [list(c) for c in self.cells],
            "sigil": list(self.sigil),
        }
        if self.tokens:
            d["tokens"] = [list(c) for c in self.tokens]
        return d


def placement_at(tile: Tile, orientation: Orientation, sigil: Cell) -> Placement:
    """The placement of ``tile`` in ``orientation`` with its sigil on ``sigil``."""
    sr, sc = sigil
    cells = tuple(sorted((sr + dr, sc + dc) for dr, dc in orientation.offsets))
    return Placement(tile.name, cells, sigil)


def orientation_of(tile: Tile, placement: Placement) -> Orientation | None:
    """The orientation that gives this placement's shape, or None if none does."""
    sr, sc = placement.sigil
    offs = tuple(sorted((r - sr, c - sc) for r, c in placement.cells))
    for o in tile.orientations:
        if o.offsets == offs:
            return o
    return None


# ---------------------------------------------------------------------------------------------
# Explanations




@dataclass
class PlacementReport:
    """Everything ``check`` says about one placement."""

    placement: Placement
    violations: list[Violation]
    movement_points: int
    sigils_counted: list[Cell]
    token_points: int
    substitution: bool
    notes: list[str]

    @property
    def legal(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, object]:
        return {
            "placement": self.placement.to_json(),
            "legal": self.legal,
            "violations": [v.to_json() for v in self.violations],
            "movement_points": self.movement_points if self.legal else None,
            "sigils_counted": [list(c) for c in self.sigils_counted] if self.legal else [],
            "bonus_token_points": self.token_points if self.legal else 0,
            "substitution": self.substitution,
            "notes": self.notes,
        }


def _fmt(cells: list[Cell]) -> str:
    return " ".join(f"{r},{c}" for r, c in cells)


def movement_points(garden: Garden, placement: Placement) -> tuple[int, list[Cell]]:
    """Movement points of a placement and the sigil cells counted (tokens included).

    Counts distinct sigils (tile sigils, bonus sigil tokens, the new tile's own
    sigil and any tokens placed on it) lying in a row or column the new tile
    occupies.
    """
    rows = {r for r, _ in placement.cells}
    cols = {c for _, c in placement.cells}
    counted = [s for s in garden.sigils if s[0] in rows or s[1] in cols]
    own = [placement.sigil] + [t for t in placement.tokens if t != placement.sigil]
    for s in own:
        if s not in counted:
            counted.append(s)
    return len(counted), sorted(counted)


def tile_choice_problem(
    garden: Garden, edition: HedgeMageEdition, tile: str
) -> tuple[str | None, bool]:
    """Is ``tile`` one the owner may place now?  (problem sentence or None, substitution?)."""
    sub = edition.substitute
    if garden.tile is None:
        return None, False
    if tile == garden.tile:
        if garden.remaining_tiles and tile not in garden.remaining_tiles:
            if garden.substitution_used and garden.kept_tile:
                return (
                    f"{tile} is no longer held (it was the substitution); place the kept tile "
                    f"{garden.kept_tile} instead",
                    False,
                )
        return None, False
    if (
        garden.substitution_used
        and garden.kept_tile == tile
        and garden.remaining_tiles
        and garden.tile not in garden.remaining_tiles
    ):
        return None, False  # the card names the substituted tile: play the kept one
    if sub is not None and tile == sub:
        if garden.substitution_used:
            return f"the {sub} substitution was already used this game", True
        if garden.remaining_tiles and sub not in garden.remaining_tiles:
            return f"{sub} is no longer held", True
        return None, True
    return f"the revealed tile is {garden.tile}, not {tile}", False


@dataclass(frozen=True)
class TileOption:
    """A tile the owner may place now, and whether placing it uses the 2x1 substitution."""

    tile: str
    substitution: bool
    note: str = ""

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"tile": self.tile, "substitution": self.substitution}
        if self.note:
            d["note"] = self.note
        return d


def tile_options(garden: Garden, edition: HedgeMageEdition, *, substitution: bool = True) -> list[TileOption]:
    """The tiles the owner may place this round, in the deterministic order (regular tile first).

    Raises UsageError when the garden has no revealed tile.  With ``substitution``
    False the substitute is never offered (unless it is the revealed tile).
    """
    if garden.tile is None:
        raise UsageError("the garden has no revealed tile (tile: -); nothing to place this round")
    regular, note = garden.tile, ""
    problem, _ = tile_choice_problem(garden, edition, regular)
    if problem is not None and garden.kept_tile is not None:
        regular = garden.kept_tile
        note = f"the card names {garden.tile}, given away by the substitution: the kept tile {regular} is placed"
    if regular not in edition.tiles:
        raise UsageError(f"tile {regular!r} is not in the edition")
    out = [TileOption(regular, False, note)]
    sub = edition.substitute
    if substitution and sub is not None and sub != regular:
        problem, is_sub = tile_choice_problem(garden, edition, sub)
        if problem is None and is_sub:
            out.append(TileOption(sub, True, f"once-per-game substitution: {sub} instead of {regular}"))
    return out


def check_placement(
    garden: Garden,
    edition: HedgeMageEdition,
    placement: Placement,
    *,
    check_tile_choice: bool = True,
    components: Callable[[int, int, frozenset[Cell] | set[Cell]], list[list[Cell]]] = ground_components,
) -> PlacementReport:
    """Explain a placement: every broken rule with its cells, or its movement points.

    ``components`` finds the ground's regions (largest first) for the cut-off rule: the flood
    fill here by default, or another method with the same answers (the networkx graph view,
    solver/hedge_mage/graph.py).
    """
    v: list[Violation] = []
    notes: list[str] = []
    tile = edition.tiles.get(placement.tile)
    substitution = False
    if tile is None:
        v.append(Violation("unknown-tile", f"no tile named {placement.tile!r} in this edition", []))
    elif orientation_of(tile, placement) is None:
        v.append(
            Violation(
                "shape",
                f"cells {_fmt(list(placement.cells))} with sigil {placement.sigil[0]},"
                f"{placement.sigil[1]} are not tile {tile.name} in any orientation",
                list(placement.cells),
            )
        )
    if check_tile_choice:
        problem, substitution = tile_choice_problem(garden, edition, placement.tile)
        if problem:
            v.append(Violation("wrong-tile", problem, []))
        elif substitution:
            notes.append(f"uses the once-per-game {placement.tile} substitution")

    v += _token_violations(garden, placement)
    cells = list(placement.cells)
    outside = [c for c in cells if not garden.in_bounds(c)]
    if outside:
        v.append(
            Violation("out-of-bounds", f"cells outside the {garden.rows}x{garden.cols} garden: "
                      f"{_fmt(outside)}", outside)
        )
    inside = [c for c in cells if garden.in_bounds(c)]
    covered: list[Cell] = []
    what: list[str] = []
    for c in inside:
        things: list[str] = []
        if c in garden.hedge_at:
            things.append(f"hedge {garden.hedges[garden.hedge_at[c]].tile}")
        things += garden.occupants.get(c, [])
        if things:
            covered.append(c)
            what.append(f"{c[0]},{c[1]} ({', '.join(things)})")
    if covered:
        v.append(Violation("covers", "cells are not empty ground: " + "; ".join(what), covered))

    after = set(garden.hedge_cells) | set(inside)
    bad_windows: list[tuple[Cell, ...]] = []
    seen_w: set[tuple[Cell, ...]] = set()
    for c in inside:
        for w in windows_containing(c, garden.rows, garden.cols):
            if w not in seen_w and all(x in after for x in w):
                seen_w.add(w)
                bad_windows.append(w)
    for win in sorted(bad_windows):
        v.append(
            Violation("2x2", f"the 2x2 window {_fmt(list(win))} would be all hedge", list(win))
        )
    # A 2x2 window of old hedges elsewhere also breaks "no 2x2 afterwards".
    for win in _old_windows(garden, seen_w):
        v.append(Violation("2x2", f"the 2x2 window {_fmt(list(win))} is already all hedge", list(win)))

    comps = components(garden.rows, garden.cols, after)
    if len(comps) > 1:
        cut = sorted(c for comp in comps[1:] for c in comp)
        before = len(components(garden.rows, garden.cols, garden.hedge_cells))
        msg = f"the ground would split into {len(comps)} regions; cut off: {_fmt(cut)}"
        if before > 1:
            msg += f" (the ground was already split into {before} regions)"
        v.append(Violation("cut-off", msg, cut))

    points, counted = 0, list[Cell]()
    token_points = 0
    if not v:
        points, counted = movement_points(garden, placement)
        token_points = len(placement.tokens)
    return PlacementReport(placement, v, points, counted, token_points, substitution, notes)


def _token_violations(garden: Garden, placement: Placement) -> list[Violation]:
    """Bonus sigil tokens go on distinct non-sigil cells of the new tile, at most as many as held."""
    out: list[Violation] = []
    toks = list(placement.tokens)
    off = sorted({t for t in toks if t not in placement.cells or t == placement.sigil})
    if off:
        out.append(Violation("bonus-token", f"bonus sigil tokens must lie on non-sigil cells of the new tile: "
                             f"{_fmt(off)}", off))
    dup = sorted({t for t in toks if toks.count(t) > 1})
    if dup:
        out.append(Violation("bonus-token", f"two bonus sigil tokens on one cell: {_fmt(dup)}", dup))
    if len(toks) > garden.held_bonus_sigils:
        out.append(Violation("bonus-token", f"places {len(toks)} bonus sigil token(s) but the owner holds "
                             f"{garden.held_bonus_sigils}", []))
    return out


def _old_windows(garden: Garden, skip: set[tuple[Cell, ...]]) -> list[tuple[Cell, ...]]:
    hc = garden.hedge_cells
    out: list[tuple[Cell, ...]] = []
    for r in range(garden.rows - 1):
        for c in range(garden.cols - 1):
            w = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            if w not in skip and all(x in hc for x in w):
                out.append(w)
    return out


def with_held_tokens(garden: Garden, placement: Placement) -> Placement:
    """Put the owner's held bonus sigil tokens on the placement (first non-sigil cells)."""
    if garden.held_bonus_sigils <= 0 or placement.tokens:
        return placement
    free = [c for c in placement.cells if c != placement.sigil]
    return Placement(
        placement.tile, placement.cells, placement.sigil, tuple(free[: garden.held_bonus_sigils])
    )


def apply_placement(garden: Garden, edition: HedgeMageEdition, placement: Placement) -> Garden:
    """The garden after a placement (call only with a legal one)."""
    from dataclasses import replace

    from gnomekit.models.hedge_mage.position import Hedge

    g = garden.with_hedge(Hedge(placement.tile, placement.cells, placement.sigil), placement.tokens)
    remaining = list(garden.remaining_tiles)
    sub_used, kept = garden.substitution_used, garden.kept_tile
    if placement.tile in remaining:
        remaining.remove(placement.tile)
    if (
        garden.tile is not None
        and placement.tile != garden.tile
        and placement.tile == edition.substitute
        and not garden.substitution_used
    ):
        sub_used, kept = True, garden.tile
    return replace(
        g,
        remaining_tiles=tuple(remaining),
        substitution_used=sub_used,
        kept_tile=kept,
        held_bonus_sigils=max(0, garden.held_bonus_sigils - len(placement.tokens)),
    )


# ---------------------------------------------------------------------------------------------
# Fast enumeration


class Board:
    """Bitboard view of a garden for fast legality tests.

    Bit ``r * (cols + 1) + c`` is cell (r, c); column ``cols`` is padding and
    always zero, so shifting by one never wraps a row.
    """

    def __init__(self, garden: Garden) -> None:
        self.garden = garden
        self.rows, self.cols = garden.rows, garden.cols
        self.width = garden.cols + 1
        full = 0
        for r in range(self.rows):
            full |= ((1 << self.cols) - 1) << (r * self.width)
        self.full = full
        hedge = 0
        for c in garden.hedge_cells:
            hedge |= self.bit(c)
        self.hedge = hedge
        occ = 0
        for c in garden.occupants:
            if garden.in_bounds(c):
                occ |= self.bit(c)
        self.blocked = hedge | occ
        self.ground = full & ~hedge
        self.connected_before = self._connected(self.ground)
        self.square_free_before = self._no_square(hedge)
        sig = 0
        for s in garden.sigils:
            if garden.in_bounds(s):
                sig |= self.bit(s)
        self.sigil_mask = sig
        self.row_mask = [((1 << self.cols) - 1) << (r * self.width) for r in range(self.rows)]
        col = [0] * self.cols
        for cc in range(self.cols):
            m = 0
            for rr in range(self.rows):
                m |= 1 << (rr * self.width + cc)
            col[cc] = m
        self.col_mask = col

    def bit(self, cell: Cell) -> int:
        return 1 << (cell[0] * self.width + cell[1])

    def mask(self, cells: tuple[Cell, ...]) -> int:
        m = 0
        for c in cells:
            m |= 1 << (c[0] * self.width + c[1])
        return m

    def _spread(self, m: int) -> int:
        w = self.width
        return (m | (m << 1) | (m >> 1) | (m << w) | (m >> w)) & self.full

    def _connected(self, ground: int) -> bool:
        if ground == 0:
            return True
        low = ground & -ground
        reach = low
        while True:
            nxt = self._spread(reach) & ground
            if nxt == reach:
                return reach == ground
            reach = nxt

    def _no_square(self, hedge: int) -> bool:
        w = self.width
        return (hedge & (hedge >> 1) & (hedge >> w) & (hedge >> (w + 1))) == 0

    def legal(self, pmask: int) -> bool:
        """Is a placement with this cell mask legal (cells already known to be in bounds)?"""
        if pmask & self.blocked:
            return False
        hedge = self.hedge | pmask
        if not self._no_square(hedge):
            return False
        ground = self.ground & ~pmask
        if not self.connected_before:
            return self._connected(ground)
        # Ground was connected: it stays connected iff every ground neighbour of the tile
        # is reached from one of them inside the new ground.
        border = self._spread(pmask) & ground
        if border == 0:
            return ground == 0 or self._connected(ground)
        low = border & -border
        reach = low
        while True:
            if reach & border == border:
                return True
            nxt = self._spread(reach) & ground
            if nxt == reach:
                return False
            reach = nxt

    def points(self, cells: tuple[Cell, ...], sigil: Cell) -> int:
        """Movement points of a placement (no tokens), from row and column masks."""
        m = 0
        for r in {c[0] for c in cells}:
            m |= self.row_mask[r]
        for col in {c[1] for c in cells}:
            m |= self.col_mask[col]
        sig = self.sigil_mask & ~self.bit(sigil)
        return (m & sig).bit_count() + 1


@dataclass(frozen=True)
class Candidate:
    """A placement that fits inside the garden, with its bit mask (not yet checked)."""

    placement: Placement
    mask: int
    orientation: int


def candidates(garden: Garden, tile: Tile) -> list[Candidate]:
    """Every placement of ``tile`` that fits inside the garden, in a deterministic order.

    They depend only on the garden's size and the tile, so they are built once per
    (rows, cols, tile) and shared (Candidate and Placement are immutable).
    """
    return list(_candidates(garden.rows, garden.cols, tile))


@lru_cache(maxsize=512)
def _candidates(rows: int, cols: int, tile: Tile) -> tuple[Candidate, ...]:
    out: list[Candidate] = []
    width = cols + 1
    for o in tile.orientations:
        for r in range(rows):
            for c in range(cols):
                cells = []
                ok = True
                m = 0
                for dr, dc in o.offsets:
                    rr, cc = r + dr, c + dc
                    if not (0 <= rr < rows and 0 <= cc < cols):
                        ok = False
                        break
                    cells.append((rr, cc))
                    m |= 1 << (rr * width + cc)
                if ok:
                    out.append(Candidate(Placement(tile.name, tuple(sorted(cells)), (r, c)), m,
                                         o.index))
    out.sort(key=lambda x: (x.placement.cells, x.placement.sigil))
    return tuple(out)


@dataclass
class Enumeration:
    """Result of enumerating the legal placements of one tile."""

    tile: str
    placements: list[Placement]
    points: list[int]
    checked: int

    @cached_property
    def keys(self) -> set[tuple[str, tuple[Cell, ...], Cell]]:
        return {p.key for p in self.placements}


def legal_placements(garden: Garden, tile: Tile, board: Board | None = None) -> Enumeration:
    """Every legal placement of ``tile`` with its movement points (tokens not counted)."""
    b = board or Board(garden)
    ps: list[Placement] = []
    pts: list[int] = []
    cands = candidates(garden, tile)
    for cand in cands:
        if b.legal(cand.mask):
            ps.append(cand.placement)
            pts.append(b.points(cand.placement.cells, cand.placement.sigil))
    return Enumeration(tile.name, ps, pts, len(cands))


def is_legal_slow(garden: Garden, placement: Placement) -> bool:
    """Reference legality straight from the ruling's words (for tests)."""
    cells = set(placement.cells)
    if any(not garden.in_bounds(c) for c in cells):
        return False
    if any(c in garden.hedge_at or c in garden.occupants for c in cells):
        return False
    after = set(garden.hedge_cells) | cells
    for r in range(garden.rows - 1):
        for c in range(garden.cols - 1):
            if all(x in after for x in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))):
                return False
    ground = [c for c in all_cells(garden.rows, garden.cols) if c not in after]
    if not ground:
        return True
    seen = {ground[0]}
    stack = [ground[0]]
    while stack:
        cur = stack.pop()
        for n in orthogonal_neighbours(cur, garden.rows, garden.cols):
            if n not in after and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(ground)
