"""Test options: ``--runslow`` runs the full-size cross-checks marked ``slow``.

Those also marked ``ci`` are checks the default run leaves out only for their time (the README's
command stays within a few minutes on two cores); CI runs them after it (``.ci/run``:
``--runslow -m ci``).
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="run the full-size cross-checks marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="full-size check: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
