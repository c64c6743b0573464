"""Ring shapes for the advanced player board: a set of hex cells up to translation, turn and mirror.

A ring's *shape* is the set of cells of its tiles.  Two cell sets have the same shape when one is
the other turned by a multiple of 60 degrees, optionally mirrored, and shifted.  The turn and the
mirror are the ones of :mod:`models.core.hexgrid` (turning maps edge direction ``e`` to ``e + 1``,
the mirror maps ``e`` to ``(6 - e) % 6``), written as linear maps on axial coordinates.
"""

from __future__ import annotations

from collections.abc import Iterable

from gnomekit.models.core.grid import normalise
from gnomekit.models.core.hexgrid import Hex

Shape = tuple[Hex, ...]


def _turn(c: Hex) -> Hex:
    """One sixth of a turn clockwise: direction (0,-1) N -> (1,-1) NE -> (1,0) SE -> ..."""
    q, r = c
    return (-r, q + r)


def _mirror(c: Hex) -> Hex:
    """Reflection across the north-south axis: NE <-> NW, SE <-> SW."""
    q, r = c
    return (-q, q + r)


def canonical(cells: Iterable[Hex]) -> Shape:
    """The same value for every cell set of the same shape (the least of its 12 images)."""
    cur = list(cells)
    if not cur:
        return ()
    images = []
    for mirrored in (False, True):
        img = [_mirror(c) for c in cur] if mirrored else list(cur)
        for _ in range(6):
            images.append(normalise(img))
            img = [_turn(c) for c in img]
    return min(images)
