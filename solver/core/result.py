"""Solver results: a status, a value, a witness, statistics and time (never a bare bool)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Status(enum.StrEnum):
    """How a solver finished: solved (optimal or satisfied), no solution, or unknown at the budget."""

    OPTIMAL = "optimal"  # best answer proven
    SATISFIED = "satisfied"  # a witness found (no optimisation asked)
    UNSATISFIABLE = "unsatisfiable"  # proven: no answer exists
    UNKNOWN = "unknown"  # ran out of time or budget; bounds may be known


@dataclass
class Result:
    """A solver's answer: every solver in gnomekit returns one.

    ``value`` is the answer's value (best found, when UNKNOWN), ``witness`` the move, plan or
    placement that achieves it, ``bound`` what is proven about the true value when the budget ran
    out (e.g. an upper bound, or an interval), ``stats`` counts (states, nodes, conflicts).
    """

    status: Status
    value: Any = None
    witness: Any = None
    stats: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    bound: Any = None

    @property
    def found(self) -> bool:
        return self.status in (Status.OPTIMAL, Status.SATISFIED)

    def __repr__(self) -> str:
        """Short: status, value, witness, bound and time (the statistics stay in ``stats``)."""
        parts = [self.status.value, f"value={self.value!r}"]
        if self.witness is not None:
            w = self.witness
            text = str(w) if not isinstance(w, list | tuple) else "[" + ", ".join(str(x) for x in w) + "]"
            parts.append(f"witness={text if len(text) <= 80 else text[:77] + '...'}")
        if self.bound is not None:
            parts.append(f"bound={self.bound!r}")
        parts.append(f"{self.seconds:.2f}s")
        return f"Result({', '.join(parts)})"

    @property
    def solved(self) -> bool:
        """A definite answer: optimal, satisfied, or proven to have no solution."""
        return self.status is not Status.UNKNOWN
