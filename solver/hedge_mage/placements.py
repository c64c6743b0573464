"""All legal placements of a garden's tiles, by enumeration (the SAT method lives in sat.py)."""

from __future__ import annotations

from dataclasses import dataclass

from models.core.errors import UsageError
from models.hedge_mage.edition import HedgeMageEdition
from models.hedge_mage.placement import Board, Placement, legal_placements
from models.hedge_mage.position import Garden


@dataclass
class TilePlacements:
    """The legal placements of one tile with their movement points (tokens not counted)."""

    tile: str
    placements: list[Placement]
    points: list[int]


def tiles_for(garden: Garden, edition: HedgeMageEdition, tile: str | None) -> list[str]:
    """Which tiles a ``moves`` request covers: the revealed tile, one named tile, or all."""
    if tile is None:
        if garden.tile is None:
            raise UsageError("the garden has no revealed tile; name one with --tile T (or all)")
        return [garden.tile]
    if tile == "all":
        return list(edition.tiles)
    names = [t.strip() for t in tile.split(",") if t.strip()]
    for n in names:
        if n not in edition.tiles:
            raise UsageError(f"unknown tile {n!r}; the edition has: {' '.join(edition.tiles)}")
    return names


def enumerate_all(garden: Garden, edition: HedgeMageEdition, tiles: list[str]) -> list[TilePlacements]:
    """Legal placements of each named tile by direct enumeration (bitboards)."""
    board = Board(garden)
    out = []
    for name in tiles:
        en = legal_placements(garden, edition.tiles[name], board)
        order = sorted(range(len(en.placements)), key=lambda i: en.placements[i].key)
        out.append(
            TilePlacements(name, [en.placements[i] for i in order], [en.points[i] for i in order])
        )
    return out
