"""All legal placements of a garden's tiles, by enumeration (the SAT method lives in sat.py)."""

from __future__ import annotations

from dataclasses import dataclass

from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.placement import Board, Placement, legal_placements
from gnomekit.models.hedge_mage.position import Garden


@dataclass
class TilePlacements:
    """The legal placements of one tile with their movement points (tokens not counted)."""

    tile: str
    placements: list[Placement]
    points: list[int]


def tiles_for(garden: Garden, edition: HedgeMageEdition, tile: str | None, source: str = "<tiles>",
              or_all: bool = True) -> list[str]:
    """Which tiles a request covers: the revealed tile (``tile`` None), named tiles (``T1,T2``), or ``all``.

    ``source`` names where the list came from, for error messages; ``or_all`` says whether ``all``
    may be asked for there (the message then offers it).  Raises UsageError for an unknown tile or
    an empty name, and when no tile is named and none is revealed.
    """
    if tile is None:
        if garden.tile is None:
            raise UsageError("the garden has no revealed tile")
        if (
            garden.remaining_tiles
            and garden.tile not in garden.remaining_tiles
            and garden.substitution_used
            and garden.kept_tile is not None
        ):
            # The card names the tile given up for the 2x1 substitution: the kept tile is played.
            return [garden.kept_tile]
        return [garden.tile]
    if tile.strip() == "all":
        return list(edition.tiles)
    names = []
    col = 1
    for raw in tile.split(","):
        n = raw.strip()
        names.append(n)
        col += len(raw) - len(raw.lstrip())
        if n not in edition.tiles:
            what = "expected a tile name" if not n else f"unknown tile {n!r}; expected a tile of the edition"
            raise UsageError(f"{what}: {' '.join(edition.tiles)}" + (" (or all)" if or_all else ""),
                             source=source, line=1, column=col)
        col += len(raw.lstrip()) + 1
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
