"""The lean tablebase builder and the stored (2-bit) form against the reference builder, state by state."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.core.batch import Backend
from gnomekit.solver.gnomes_at_midnight import tablebase
from gnomekit.solver.gnomes_at_midnight.tablebase import (
    LeanTablebase,
    build,
    load_or_build,
    pack,
    position_of,
    read_table,
    table_path,
    write_table,
)

from tests.gnomes_at_midnight.test_tablebase import tiny


@pytest.fixture(scope="module")
def reference() -> tablebase.Tablebase:
    return build(tiny(), method="reference")


@pytest.fixture(scope="module")
def lean() -> LeanTablebase:
    return LeanTablebase.of(build(tiny(), method="lean"))


VARIANTS = [(restrict, dance, cycles)
            for restrict in (False, True)
            for dance in (None, ((0, 0), (1, 1)))
            for cycles in (None, ((0, 0, 1), (2, 1, 0)), ((1,), (2,)))]


@pytest.mark.parametrize(("restrict", "dance", "cycles"), VARIANTS)
def test_lean_build_equals_the_reference_build(restrict: bool, dance: tuple[tuple[int, int], ...] | None,
                                               cycles: tuple[tuple[int, ...], tuple[int, ...]] | None) -> None:
    ed = dataclasses.replace(tiny(), moon_restricts_adding=restrict)
    ref = build(ed, dance, cycles, method="reference")
    new = build(ed, dance, cycles, method="lean", chunk=53)  # small batches: many per slice
    assert np.array_equal(new.keys, ref.keys)
    assert new.values.shape == ref.values.shape and new.values.dtype == ref.values.dtype
    assert np.array_equal(new.values, ref.values)  # every state's value byte
    assert new.counts() == ref.counts()


def test_the_default_build_is_the_lean_one(reference: tablebase.Tablebase) -> None:
    calls = []
    real = tablebase.build_values

    def spy(*args: object, **kw: object) -> object:
        calls.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tablebase, "build_values", spy)
        tb = build(tiny())
    assert calls and np.array_equal(tb.values, reference.values)


def test_every_lookup_of_the_stored_table_equals_the_reference(reference: tablebase.Tablebase,
                                                               lean: LeanTablebase) -> None:
    shape = reference.values.shape
    assert lean.shape == shape and lean.size == reference.size
    seen = {"win": 0, "loss": 0, "draw": 0}
    for s, dg, db, c in itertools.product(*map(range, shape)):
        want = reference.lookup_state(s, dg, db, c)
        assert lean.lookup_state(s, dg, db, c) == want, (s, dg, db, c)
        seen[want[0]] += 1
    assert seen == reference.counts() == lean.counts()
    assert np.array_equal(lean.values, reference.values)  # the vectorised decoding too


def test_lookups_of_positions_equal_the_reference(reference: tablebase.Tablebase, lean: LeanTablebase) -> None:
    like = new_position(tiny(), 0)
    shape = reference.values.shape
    for k in range(0, reference.size, 97):
        s, dg, db, c = np.unravel_index(k, shape)
        pos = position_of(reference, int(s), int(dg), int(db), int(c), like)
        assert lean.index(pos) == reference.index(pos) == (s, dg, db, c)
        assert lean.lookup(pos) == reference.lookup(pos)


def test_stored_size(lean: LeanTablebase, reference: tablebase.Tablebase) -> None:
    v = reference.values
    longer_losses = int((v > 129).sum())
    too_long = int((v > 128 + tablebase.NIBBLE_MAX).sum())
    assert len(lean.packed) == (v.size + 3) // 4  # 2 bits a state
    assert len(lean.turns4) == (longer_losses + 1) // 2  # and 4 bits a loss in 2 turns or more, nothing else
    assert len(lean.long_rank) == len(lean.long_turns) == too_long
    assert lean.stored_bytes == len(lean.packed) + len(lean.turns4) + 9 * too_long < v.size / 2


def test_pack_of_an_odd_size() -> None:
    v = np.array([0, 1, 5, 129, 130, 150, 127, 144, 145], dtype=np.uint8)
    packed, turns4, long_rank, long_turns = pack(v)
    assert len(packed) == 3
    assert list(tablebase._codes(packed, 9)) == [0, 1, 1, 2, 3, 3, 1, 3, 3]
    # longer losses in 2, 22, 16 and 17 turns: nibbles 0, 15 (too long), 14, 15 (too long)
    assert list(turns4) == [0 | 15 << 4, 14 | 15 << 4]
    assert list(long_rank) == [1, 3] and list(long_turns) == [22, 17]
    assert list(tablebase._loss_turns(turns4, long_rank, long_turns, 4)) == [2, 22, 16, 17]
    # a table of these 9 states (the last byte half padding) counts and answers as the bytes say
    one = LeanTablebase(tablebase.params_for(tiny()), np.zeros(9, np.int64), (1, 1, 1, 9), packed, turns4, long_rank,
                        long_turns)
    assert one.counts() == {"win": 3, "loss": 5, "draw": 1}
    assert [one.lookup_state(0, 0, 0, c) for c in (0, 3, 4, 5, 7, 8)] == [
        ("draw", None), ("loss", 1), ("loss", 2), ("loss", 22), ("loss", 16), ("loss", 17)]


def test_file_round_trip_and_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    lean: LeanTablebase) -> None:
    monkeypatch.setenv("GNOMEKIT_CACHE", str(tmp_path))
    path = table_path(lean.params)
    assert "-tb2-" in path.name
    # a format-1 file (one value byte a state) under the old name is never read as the new format
    old = tmp_path / path.name.replace("-tb2-", "-tb-")
    np.savez_compressed(old, keys=lean.keys, values=np.zeros(lean.shape, np.uint8), seconds=np.float64(0))
    tb, built = load_or_build(tiny())
    assert built and path.exists()
    back = read_table(path, lean.params)
    assert np.array_equal(back.packed, lean.packed) and np.array_equal(back.turns4, lean.turns4)
    assert np.array_equal(back.long_rank, lean.long_rank) and np.array_equal(back.long_turns, lean.long_turns)
    assert np.array_equal(back.keys, lean.keys) and back.shape == lean.shape
    assert np.array_equal(tb.packed, lean.packed)
    # a file of another format under the new name is refused, not misread
    np.savez_compressed(path, keys=lean.keys, values=np.zeros(lean.shape, np.uint8), seconds=np.float64(0))
    with pytest.raises(UsageError, match="format-2"):
        load_or_build(tiny())
    write_table(path, lean)
    assert load_or_build(tiny())[1] is False


def test_build_method_options() -> None:
    with pytest.raises(UsageError, match="method"):
        build(tiny(), method="fast")
    with pytest.raises(UsageError, match="one process"):
        build(tiny(), method="lean", backend=Backend("inline"))


@pytest.mark.slow
def test_mini_lean_equals_reference_every_state() -> None:
    """Every state of the mini table (67 million) equal from both builders (minutes, ~4 GB for the reference)."""
    ed = bundled_edition("mini")
    new = build(ed)
    ref = build(ed, method="reference")
    assert np.array_equal(new.keys, ref.keys) and np.array_equal(new.values, ref.values)
    stored = LeanTablebase.of(new)
    assert np.array_equal(stored.values, ref.values)
