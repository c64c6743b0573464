"""The tablebase built with its retrograde plies split into tasks equals the single-process build."""

from __future__ import annotations

import numpy as np
import pytest
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.solver.core.batch import Backend, BatchError
from gnomekit.solver.gnomes_at_midnight import tablebase
from gnomekit.solver.gnomes_at_midnight.tablebase import build

from tests.gnomes_at_midnight.test_tablebase import tiny


@pytest.fixture(scope="module")
def single():  # type: ignore[no-untyped-def]
    return build(tiny())


@pytest.mark.parametrize("backend", [Backend("inline"), Backend("processes", 2)], ids=["1 job", "2 jobs"])
def test_every_state_equals_the_single_process_build(single, backend: Backend) -> None:  # type: ignore[no-untyped-def]
    # small chunks: every ply (in-process) or the first five plies (2 jobs: a pool a ply) are many
    # tasks, merged in chunk order
    split = build(tiny(), backend=backend, chunk=97 if backend.kind == "inline" else 4000)
    assert np.array_equal(split.keys, single.keys)
    assert split.values.shape == single.values.shape and split.values.dtype == single.values.dtype
    assert np.array_equal(split.values, single.values)
    assert split.counts() == single.counts()


def test_the_default_chunk_equals_small_chunks(single) -> None:  # type: ignore[no-untyped-def]
    assert np.array_equal(build(tiny(), chunk=61).values, single.values)


def test_a_failed_task_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object) -> None:
        raise MemoryError("no room")

    monkeypatch.setattr(tablebase, "_predecessors", broken)
    with pytest.raises(BatchError, match="MemoryError: no room"):
        build(tiny(), backend=Backend("inline"))


def test_bad_chunk() -> None:
    with pytest.raises(ValueError, match="chunk"):
        build(tiny(), chunk=0)


@pytest.mark.slow
def test_mini_table_equal_with_1_and_2_jobs() -> None:
    """Every state of the mini board's table (67 million) equal with 1 and 2 jobs (minutes, GBs)."""
    ed = bundled_edition("mini")
    one = build(ed)
    two = build(ed, backend=Backend("processes", 2))
    assert np.array_equal(one.keys, two.keys) and np.array_equal(one.values, two.values)
