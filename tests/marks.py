"""Which parameters of a cross-check the default run keeps.

The README's test command has to stay within a few minutes on two cores, so a check with many generated
cases runs its first few there; the rest are marked ``slow`` and ``ci`` (tests/conftest.py) and CI runs
them after it (``.ci/run``: ``--runslow -m ci``), so every case is still checked on every landing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet

CI_ONLY = (pytest.mark.slow, pytest.mark.ci)


def first_by_default(values: Iterable[Any], keep: int, *, unpack: bool = False) -> list[Any]:
    """``values`` as parameters, the first ``keep`` in the default run and the others CI-only.

    ``unpack``: each value is a tuple of several arguments (``parametrize(("a", "b"), ...)``).
    """
    values = list(values)
    return by_default(values, values[:keep], unpack=unpack)


def by_default(values: Iterable[Any], default: Iterable[Any], *, unpack: bool = False) -> list[Any]:
    """``values`` as parameters, those in ``default`` in the default run (chosen as quick ones that still
    reach what the check is about) and the others CI-only."""
    keep = list(default)
    out: list[Any] = []
    for value in values:
        if value in keep:
            out.append(value)
        elif isinstance(value, ParameterSet):  # already a ``pytest.param``: keep its id and marks
            out.append(pytest.param(*value.values, marks=[*value.marks, *CI_ONLY], id=value.id))
        else:
            out.append(pytest.param(*value, marks=CI_ONLY) if unpack else pytest.param(value, marks=CI_ONLY))
    return out
