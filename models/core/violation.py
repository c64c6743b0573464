"""One broken rule, the same shape in every game: a stable rule id, a sentence, the cells involved.

A legality answer is a list of these (empty when legal).  ``cells`` holds whatever a game's
board addresses are: ``(row, col)`` squares, axial ``(q, r)`` hexes, or track field numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any


def _cell_json(c: Any) -> Any:
    return list(c) if isinstance(c, tuple) else c


@dataclass(frozen=True)
class Violation:
    """One rule a move (or placement, or plan step) breaks, with the cells involved."""

    rule: str
    message: str
    cells: tuple[Hashable, ...] = field(default=())

    def __init__(self, rule: str, message: str, cells: Iterable[Hashable] = ()) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "cells", tuple(cells))

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "message": self.message, "cells": [_cell_json(c) for c in self.cells]}

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"
