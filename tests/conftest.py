"""Test options: ``--runslow`` runs the full-size cross-checks marked ``slow``.

Those also marked ``ci`` are checks the default run leaves out only for their time (the README's
command stays within a few minutes on two cores); CI runs them after it (``.ci/run``:
``--runslow -m ci``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="run the full-size cross-checks marked slow")


def pytest_configure(config: pytest.Config) -> None:
    # On the xdist controller only (a worker has ``workerinput``): compile the Midnight numba kernel
    # once and write its cache, so that the workers that use it load it (under a second) instead of
    # each compiling it side by side (about 10 CPU-seconds each on a fresh clone).
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from gnomekit.solver.gnomes_at_midnight import jit

    if jit.available():
        jit.warm_up()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="full-size check: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# ---------------------------------------------------------------------------------------------
# One CLI parser a worker.  ``gnomekit.cli.main`` builds the whole parser (four games, every verb) on
# each call, about 25 ms: more than most verbs take, and the tests call ``main`` in-process over a
# thousand times.  argparse parses into a fresh namespace each time and nothing in the CLI changes
# its parser, so the verbs see the same thing (tests/fuzz/harness.py has done this from the start).
# The web runner is the exception: it makes the parser it builds raise instead of exit
# (gnomekit/web/runner.py, ``_quiet``), so the web tests build their own, and a parser found changed
# after a test is dropped.

_CLI: dict[str, Any] = {}


def _changed(parser: argparse.ArgumentParser) -> bool:
    """Whether ``parser`` or a subparser was changed as the web runner changes it."""
    if "error" in vars(parser) or not parser.allow_abbrev:
        return True
    return any(_changed(sub) for action in parser._actions if isinstance(action, argparse._SubParsersAction)
               for sub in set(action.choices.values()))


def _one_parser() -> argparse.ArgumentParser:
    if "parser" not in _CLI:
        _CLI["parser"] = _CLI["build"]()
    parser: argparse.ArgumentParser = _CLI["parser"]
    return parser


@pytest.fixture(autouse=True)
def _one_cli_parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if request.node.path.parent.name == "web":
        yield
        return
    import gnomekit.cli

    _CLI.setdefault("build", gnomekit.cli.build_parser)  # the real one (the patch ends with each test)
    monkeypatch.setattr(gnomekit.cli, "build_parser", _one_parser)
    yield
    if "parser" in _CLI and _changed(_CLI["parser"]):
        del _CLI["parser"]
