"""Say how many inputs the fuzz tests ran (in this process: without xdist, the whole run)."""

from __future__ import annotations

import pytest

from tests.fuzz import harness


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if harness.RUNS["count"]:
        terminalreporter.write_line(f"fuzz: {harness.RUNS['count']:,} inputs run through the CLI in this process")
