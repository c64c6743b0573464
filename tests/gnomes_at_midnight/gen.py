"""Generated test positions: random play from setup on both editions, a few hand-made twists."""

from __future__ import annotations

from models.gnomes_at_midnight.edition import bundled_edition
from models.gnomes_at_midnight.position import Position
from models.gnomes_at_midnight.setup import random_position


def positions(count: int, start: int = 0) -> list[Position]:
    """``count`` positions, alternating editions, 4-20 random turns played."""
    out = []
    for k in range(start, start + count):
        ed = bundled_edition("mini" if k % 2 else "default")
        pos, _ = random_position(ed, 1000 + k, 4 + (k * 7) % 17)
        out.append(pos)
    return out


def open_positions(count: int, start: int = 0) -> list[Position]:
    """Like ``positions`` but each deck replaced by a freshly shuffled, known full deck (open decks
    over any short horizon), and more turns played so that gnomes meet."""
    import random
    from dataclasses import replace

    out = []
    for k in range(start, start + count):
        ed = bundled_edition("mini" if k % 2 else "default")
        pos, _ = random_position(ed, 7000 + k, 6 + (k * 5) % 23)
        rng = random.Random(k)
        decks = []
        for s in (0, 1):
            d = list(pos.full_decks[s])
            rng.shuffle(d)
            decks.append(tuple(d))
        out.append(replace(pos, known=(decks[0], decks[1]), unknown=((0, 0, 0), (0, 0, 0))))
    return out
