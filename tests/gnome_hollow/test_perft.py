"""Perft-style counts: legal placements (all 12 orientations) of each offered tile on fixed positions.

The counts were computed with the geometry reference (tests/gnome_hollow/reference.py,
``reference_legal`` over every frontier cell and orientation); the test re-derives them both ways.
"""

from __future__ import annotations

import pytest
from gnomekit.models.core.hexgrid import frontier
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.placement import legal_placements
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.models.gnome_hollow.setup import new_position

from tests.gnome_hollow.reference import reference_legal, two_players
from tests.gnome_hollow.test_rings import FIVE, TEN

ED = default_edition()


def cases() -> dict[str, tuple[Position, list[int]]]:
    return {
        "new-0": (new_position(ED, 2, 0), [24] * 8),
        "new-1": (new_position(ED, 3, 1), [48] + [24] * 7),
        "five": (two_players(FIVE, offered=("G10", "G02", "G03", "G20", "G21", "G22", "G30", "G31")),
                 [80, 76, 80, 76, 80, 80, 80, 80]),
        "ten": (two_players(TEN, offered=("G17", "G20", "G21", "G22", "G30", "G31", "G33", "G34")),
                [94, 94, 92, 112, 92, 112, 92, 112]),
    }


@pytest.mark.parametrize("name", list(cases()))
def test_placement_counts(name: str) -> None:
    pos, expected = cases()[name]
    before = [(t.tile, t.cell, t.orientation) for t in pos.tiles]
    cells = frontier([t.cell for t in pos.tiles])
    got = [len(legal_placements(pos, ED, tid, distinct=False)) for tid in pos.offered]
    ref = [sum(reference_legal(ED, before, [(tid, c, o)]) for c in cells for o in range(12)) for tid in pos.offered]
    assert got == ref == expected
