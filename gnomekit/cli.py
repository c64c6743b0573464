"""The ``gnomekit`` command: one subcommand group per game, plus ``tour`` and ``serve``.

Each game registers its verbs from its own module (``gnomekit/<game>_cli.py``);
this file only wires them together.
"""

from __future__ import annotations

import argparse
import sys

from gnomekit import __version__
from gnomekit.common import run_verb

GAMES = [
    # (module, command name, aliases)
    ("gnomekit.hedge_mage_cli", "hedge-mage", ["hedge"]),
    ("gnomekit.gnome_hollow_cli", "gnome-hollow", ["hollow"]),
    ("gnomekit.gnomes_at_midnight_cli", "gnomes-at-midnight", ["midnight"]),
    ("gnomekit.hexen_rennen_cli", "hexen-rennen", ["hexen"]),
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gnomekit",
        description="Rules verification and solvers for Hedge Mage, Gnome Hollow, "
        "Gnomes at Midnight and Hexen Rennen.",
    )
    parser.add_argument("--version", action="version", version=f"gnomekit {__version__}")
    sub = parser.add_subparsers(dest="group", metavar="COMMAND")
    import importlib

    for module, name, aliases in GAMES:
        importlib.import_module(module).register(sub, name, aliases)  # no fallback: errors name the module
    from gnomekit import tour

    tour.register(sub)
    from gnomekit import puzzles_cli

    puzzles_cli.register(sub)
    from gnomekit.web import command as web_command

    web_command.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        if getattr(args, "group_parser", None) is not None:
            args.group_parser.print_help()
        else:
            parser.print_help()
        return 2
    return run_verb(args.func, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
