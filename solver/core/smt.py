"""z3 helpers shared by the SMT encodings: a three-valued check with a deadline.

``check`` answers :class:`Verdict` ``SAT`` (with the model), ``UNSAT`` or ``UNKNOWN`` (time ran
out, or z3 gave up) - never a bare bool that folds "timed out" into "no".
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import z3


class Verdict(enum.StrEnum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Check:
    """One z3 answer: the verdict, the model when satisfiable, z3's reason when unknown."""

    verdict: Verdict
    model: Any = None
    reason: str = ""

    @property
    def sat(self) -> bool:
        return self.verdict is Verdict.SAT

    @property
    def unsat(self) -> bool:
        return self.verdict is Verdict.UNSAT

    @property
    def unknown(self) -> bool:
        return self.verdict is Verdict.UNKNOWN


def check(solver: Any, *assumptions: Any, seconds: float | None = None) -> Check:
    """Run ``solver.check(*assumptions)`` within ``seconds`` (``None``: no limit).

    The solver's timeout is set for this call only (z3 keeps it, so it is always set: 0 = none).
    A deadline already past answers UNKNOWN without calling z3.
    """
    if seconds is not None and seconds <= 0:
        return Check(Verdict.UNKNOWN, reason="timeout")
    solver.set("timeout", 0 if seconds is None else max(1, int(seconds * 1000)))
    r = solver.check(*assumptions)
    if r == z3.sat:
        return Check(Verdict.SAT, solver.model())
    if r == z3.unsat:
        return Check(Verdict.UNSAT)
    return Check(Verdict.UNKNOWN, reason=str(solver.reason_unknown()))
