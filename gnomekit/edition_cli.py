"""``gnomekit GAME edition [--dump]``: check an edition, or write its TOML for a designer to copy and change.

``--dump`` prints the edition file as it is (the bundled one by default, or ``--edition NAME|FILE``'s),
comments included, so ``gnomekit GAME edition --dump > mine.toml`` starts a new edition; every
verb reads it back with ``--edition mine.toml``.
"""

from __future__ import annotations

import argparse
from importlib import resources
from pathlib import Path

from gnomekit import api
from gnomekit.common import Answer, read_source
from gnomekit.models.core.errors import UsageError


def edition_file(name: str, edition: str | None) -> tuple[str, str]:
    """The TOML text of the edition ``--edition`` names (a file, a bundled name, or the default) and its source."""
    if edition is not None and Path(edition).is_file():
        return read_source(edition)
    bundled = edition or "default"
    data = resources.files(f"gnomekit.models.{api.entry(name).package}.data")
    f = data.joinpath(f"{bundled}.toml")
    if not f.is_file():
        known = sorted(p.name.removesuffix(".toml") for p in data.iterdir() if p.name.endswith(".toml"))
        raise UsageError(f"no such file or bundled edition; bundled: {', '.join(known)}", source="--edition",
                         text=edition)
    return f.read_text(encoding="utf-8"), f"bundled:{bundled}"


def edition_answer(name: str, args: argparse.Namespace) -> Answer:
    """``edition``: the edition checked (every problem at once, exit 2); ``--dump``: its TOML text."""
    text, source = edition_file(name, args.edition)
    game = api.game(name, args.edition)  # reads and validates it: an edition with problems is exit 2
    title = str(getattr(game.edition, "name", None) or game.edition)
    if args.dump:
        return Answer({"edition": title, "source": source, "toml": text}, text)
    return Answer({"edition": title, "source": source, "valid": True},
                  f"edition {title} ({source}): valid; --dump prints its TOML to copy and change")


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dump", action="store_true", help="print the edition's TOML file (to copy and change)")
