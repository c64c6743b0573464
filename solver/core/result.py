"""Solver results: a status, a value, a witness, statistics and time (never a bare bool)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Status(enum.StrEnum):
    """How a solver finished."""

    OPTIMAL = "optimal"  # best answer proven
    SATISFIED = "satisfied"  # a witness found (no optimisation asked)
    UNSATISFIABLE = "unsatisfiable"  # proven: no answer exists
    UNKNOWN = "unknown"  # ran out of time or budget; bounds may be known


@dataclass
class Result:
    """A solver's answer."""

    status: Status
    value: Any = None
    witness: Any = None
    stats: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def found(self) -> bool:
        return self.status in (Status.OPTIMAL, Status.SATISFIED)
