"""Generated Gnomes at Midnight positions, shared by the tests and the benchmark.

Random play from setup on the bundled editions (alternating default and mini), each
position fixed by its index: the same ``start`` and ``count`` give the same positions on
every machine (``random_position`` and ``random.Random`` are seeded explicitly).
"""

from __future__ import annotations

import random
from dataclasses import replace

from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.models.gnomes_at_midnight.setup import random_position


def positions(count: int, start: int = 0) -> list[Position]:
    """``count`` positions, alternating editions, 4-20 random turns played (hidden decks as dealt)."""
    out: list[Position] = []
    for k in range(start, start + count):
        ed = bundled_edition("mini" if k % 2 else "default")
        pos, _ = random_position(ed, 1000 + k, 4 + (k * 7) % 17)
        out.append(pos)
    return out


def open_positions(count: int, start: int = 0) -> list[Position]:
    """Like ``positions`` but each deck replaced by a freshly shuffled, known full deck (open decks
    over any short horizon), and more turns played (6-28) so that gnomes meet."""
    out: list[Position] = []
    for k in range(start, start + count):
        ed = bundled_edition("mini" if k % 2 else "default")
        pos, _ = random_position(ed, 7000 + k, 6 + (k * 5) % 23)
        rng = random.Random(k)
        decks: list[tuple[int, ...]] = []
        for s in (0, 1):
            d = list(pos.full_decks[s])
            rng.shuffle(d)
            decks.append(tuple(d))
        out.append(replace(pos, known=(decks[0], decks[1]), unknown=((0, 0, 0), (0, 0, 0))))
    return out
