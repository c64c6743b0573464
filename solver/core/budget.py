"""One budget for every solver: states (or nodes) and seconds, with one way to say "ran out".

A :class:`Budget` is what a caller allows; a :class:`Meter` is one run's spending against it.
Searches call ``meter.tick()`` per state (it raises :class:`BudgetExhausted` when the count or the
clock runs out); SAT and z3 calls ask ``meter.seconds_left()`` for their own time limits.  An
exhausted budget always means *unknown*, never *no*: the solver reports the best answer found and
a bound (see :class:`~gnomekit.solver.core.result.Result`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass


class BudgetExhausted(Exception):
    """The states, nodes or seconds of a :class:`Budget` ran out (the answer is unknown).

    ``what`` says it in words ("10,000 states", "60 s"); ``kind`` names what ran out, for callers
    that act on it: "states", "seconds", "memory" (a table cap) or "solver" (an external solver's
    own limit)."""

    KINDS = ("states", "seconds", "memory", "solver")

    def __init__(self, what: str, kind: str = "states") -> None:
        if kind not in self.KINDS:
            raise ValueError(f"kind must be one of {', '.join(self.KINDS)}, not {kind!r}")
        super().__init__(f"budget exhausted: {what}")
        self.what = what
        self.kind = kind


@dataclass(frozen=True)
class Budget:
    """What a solver may spend: ``states`` (positions expanded or search nodes) and ``seconds``.

    ``None`` means no limit of that kind.  ``nodes`` is an alias some searches use for states.
    """

    states: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.states is not None and self.states < 1:
            raise ValueError(f"a state budget must be at least 1, not {self.states}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"a time budget must be positive, not {self.seconds}")

    @property
    def nodes(self) -> int | None:
        return self.states

    def meter(self) -> Meter:
        """Start spending this budget now."""
        return Meter(self)

    def deadline(self, start: float | None = None) -> float | None:
        """The ``time.monotonic()`` instant the seconds run out (``None``: no time limit)."""
        if self.seconds is None:
            return None
        return (time.monotonic() if start is None else start) + self.seconds


UNLIMITED = Budget()


class Meter:
    """One run's spending: states counted by ``tick``, time since the meter started."""

    __slots__ = ("budget", "states", "started", "_deadline", "_every")

    def __init__(self, budget: Budget, check_clock_every: int = 256) -> None:
        self.budget = budget
        self.states = 0
        self.started = time.monotonic()
        self._deadline = budget.deadline(self.started)
        self._every = max(1, check_clock_every)

    def tick(self, n: int = 1) -> None:
        """Count ``n`` states; raise :class:`BudgetExhausted` when the states or the time ran out."""
        self.states += n
        cap = self.budget.states
        if cap is not None and self.states > cap:
            raise BudgetExhausted(f"{cap:,} states")
        if self._deadline is not None and self.states % self._every == 0 and time.monotonic() > self._deadline:
            raise BudgetExhausted(f"{self.budget.seconds:g} s", kind="seconds")

    def exhausted(self) -> bool:
        """True when the states or the time are used up (without raising)."""
        cap = self.budget.states
        if cap is not None and self.states >= cap:
            return True
        return self._deadline is not None and time.monotonic() > self._deadline

    def seconds_left(self) -> float | None:
        """Seconds until the deadline (at least 0), ``None`` without a time limit."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.monotonic())

    def elapsed(self) -> float:
        return time.monotonic() - self.started
