"""``gnomekit tour``: solve and verify every bundled puzzle of every game."""

from __future__ import annotations

import argparse

from gnomekit.batch_cli import add_batch_options
from gnomekit.common import Answer


def cmd_tour(args: argparse.Namespace) -> Answer:
    from gnomekit.tour_runner import run_tour

    return run_tour(args)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("tour", help="solve and verify the bundled puzzles of every game")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--quiet", action="store_true", help="only the summary table")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_batch_options(p)
    p.set_defaults(func=cmd_tour)
