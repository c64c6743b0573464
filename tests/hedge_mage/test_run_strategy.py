"""The running search's strategies: "best" (the default: the tight bound dropped once it stops pruning)
and "bfs" (as first written) prove the same optimum as the unpruned reference search.

The second exact method is the reference (``solve_run(..., relevant_only=False)``: every unit action
of the rules engine of record, memoised, no dominance, symmetry or bounds) on generated small
positions; every plan is replayed by ``execute_plan``.
"""

from __future__ import annotations

import pytest
from gnomekit.models.hedge_mage.running import RunPosition, execute_plan, running_score
from gnomekit.models.hedge_mage.running_notation import run_to_text
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hedge_mage import running
from gnomekit.solver.hedge_mage.running import solve_run

from tests.hedge_mage.test_running import ED, random_small, random_tiny, random_tokens
from tests.marks import first_by_default

_REFERENCE: dict[str, Result] = {}


def _reference(p: RunPosition) -> Result:
    """The reference search's answer, once a position: it reads no strategy option (``_TIGHT_PROBE`` is the
    fast search's), and two tests here ask it about the same positions."""
    text = run_to_text(p, ED)
    if text not in _REFERENCE:
        _REFERENCE[text] = solve_run(p, ED, relevant_only=False)
    return _REFERENCE[text]


def _check(p: RunPosition) -> None:
    ref = _reference(p)
    assert ref.status is Status.OPTIMAL
    for strategy in running.STRATEGIES:
        res = solve_run(p, ED, strategy=strategy)
        assert res.status is Status.OPTIMAL
        assert res.value.key() == ref.value.key(), (strategy, run_to_text(p, ED))
        rep = execute_plan(p, ED, res.witness)
        assert rep.legal, (strategy, rep.reasons)
        assert rep.final.total_rescued() - p.total_rescued() == res.value.rescued
        assert running_score(rep.final, ED) - running_score(p, ED) == res.value.points
        assert rep.final.spent - p.spent == res.value.tokens


@pytest.mark.parametrize("seed", [0, 2, 6])
def test_strategies_equal_reference_tiny(seed: int) -> None:
    _check(random_tiny(seed))


@pytest.mark.parametrize("seed", first_by_default([1, 3], 1))
def test_strategies_equal_reference_with_tokens(seed: int) -> None:
    _check(random_tokens(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_strategies_equal_reference_small(seed: int) -> None:
    _check(random_small(seed))


@pytest.mark.parametrize("seed", [1, 3])
def test_tight_bound_dropped_at_once_keeps_the_optimum(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """"best" with the tight bound dropped after its first call that prunes nothing: the same optimum."""
    monkeypatch.setattr(running, "_TIGHT_PROBE", 1)
    _check(random_tokens(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_strategies_equal_reference_many(seed: int) -> None:
    _check(random_tiny(seed))
    _check(random_tokens(seed))


def test_unknown_strategy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown strategy"):
        solve_run(random_tiny(0), ED, strategy="dfs")
