"""The shared budget: what ran out is said in words and named by kind."""

from __future__ import annotations

import time

import pytest
from gnomekit.solver.core.budget import Budget, BudgetExhausted


def test_states_and_seconds_say_which_ran_out() -> None:
    m = Budget(states=3).meter()
    with pytest.raises(BudgetExhausted) as got:
        for _ in range(10):
            m.tick()
    assert (got.value.kind, got.value.what) == ("states", "3 states")
    m = Budget(seconds=0.001).meter()
    time.sleep(0.01)
    with pytest.raises(BudgetExhausted) as got:
        for _ in range(1000):
            m.tick()
    assert (got.value.kind, got.value.what) == ("seconds", "0.001 s")


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="kind must be one of"):
        BudgetExhausted("x", kind="luck")
