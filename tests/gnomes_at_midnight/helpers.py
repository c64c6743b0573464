"""Building Gnomes at Midnight test positions from `new`'s JSON with keys replaced."""

from __future__ import annotations

import json
from typing import Any

from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.notation import position_to_json, read_position
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.models.gnomes_at_midnight.setup import new_position


def base_json(edition: str = "default", seed: int = 0) -> dict[str, Any]:
    return position_to_json(new_position(bundled_edition(edition), seed))


def make(edition: str = "default", **keys: Any) -> Position:
    """`new --json` (seed 0) with the given keys replaced, read back through the JSON reader."""
    d = base_json(edition)
    d.update(keys)
    return read_position(json.dumps(d), "test", bundled_edition(edition))


def empty_board(**keys: Any) -> Position:
    """Default board, no gnomes anywhere, all off the board unless given."""
    d: dict[str, Any] = {"gnomes": {"green": [], "blue": []}, "off_board": {"green": 0, "blue": 0},
                         "decks": {"green": ["grass"] * 6, "blue": ["grass"] * 6},
                         "moon": {"green": None, "blue": None}}
    d.update(keys)
    return make(**d)
