"""Hand-built Hexen Rennen positions for tests: name a few tiles, the rest stop the witch."""

from __future__ import annotations

from gnomekit.models.hexen_rennen.edition import SYMBOL, default_edition
from gnomekit.models.hexen_rennen.position import Position, Tile

ED = default_edition()


def tile(tok: str) -> Tile:
    """``W10`` face-up weather 10, ``wS`` face-down weather symbol."""
    clan = ED.clan_by_letter(tok[0])
    assert clan is not None
    value = SYMBOL if tok[1:].upper() == "S" else int(tok[1:])
    return Tile(clan, value, tok[0].isupper())


def make(tiles: dict[int, str], witches: dict[str, list[int]], hands: dict[str, list[int | str]],
         players: tuple[str, ...] = ("weather", "fog", "ice", "forest"), to_move: str = "weather",
         filler: str = "R2") -> Position:
    """A position: the named tiles, every other tile ``filler`` (by default a face-up forest 2)."""
    track = tuple(tile(tiles.get(i, filler)) for i in range(1, ED.track_length + 1))
    hs = tuple((c, tuple(SYMBOL if v == "S" else int(v) for v in h)) for c, h in hands.items())
    return Position(track=track, players=players, to_move=to_move,
                    witches=tuple((c, tuple(p)) for c, p in witches.items()), hands=hs)
