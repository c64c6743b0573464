"""Random positions rich in chain reactions, for cross-checks, puzzles and benchmarks.

Unlike ``random`` (which plays from setup), these scatter witches over the whole
track, turn about half of the tiles face up and deal partial hands, so that
chains meet many symbol tiles and card decisions.  Deterministic per seed.
"""

from __future__ import annotations

import random
from dataclasses import replace

from gnomekit.models.hexen_rennen.edition import HexenEdition
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.setup import new_position


def rich_position(edition: HexenEdition, seed: int, players: int | None = None, face_up: float = 0.55,
                  keep_cards: float = 0.5) -> Position:
    """A random, well-formed position with witches spread out, many face-up tiles and partial hands."""
    rng = random.Random(f"hexen-rennen/rich/{seed}")
    n = players if players is not None else rng.choice([2, 3, 4, 4])
    pos = new_position(edition, n, seed)
    L = edition.track_length
    free = list(range(1, L + 1))
    rng.shuffle(free)
    witches = []
    ups = {t for t in range(1, L + 1) if rng.random() < face_up}
    for c in pos.players:
        fs = []
        for _ in range(edition.witches):
            r = rng.random()
            if r < 0.15:
                fs.append(0)
            elif r < 0.2:
                fs.append(rng.randint(L + 1, edition.last_field))
            else:
                t = free.pop()
                fs.append(t)
                ups.add(t)
        witches.append((c, tuple(fs)))
    track = tuple(replace(t, face_up=(i in ups)) for i, t in enumerate(pos.track, start=1))
    hands = []
    for c in edition.clan_ids:
        h = pos.hand(c)
        if c in pos.players:
            hands.append((c, tuple(v for v in h if rng.random() < keep_cards)))
        else:
            hands.append((c, h[rng.randrange(len(h) + 1):]))
    return replace(pos, track=track, witches=tuple(witches), hands=tuple(hands),
                   to_move=rng.choice(pos.players))
