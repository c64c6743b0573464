"""Regenerate perft.txt with the independent reference engine: ``python -m tests.gnomes_at_midnight.make_perft``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.notation import position_to_json
from gnomekit.models.gnomes_at_midnight.setup import new_position, random_position

from tests.gnomes_at_midnight.reference import Ref

HERE = Path(__file__).parent
NAMES = ["grass", "tulips", "cobblestone"]


def fixed_positions() -> list[tuple[str, str, dict[str, Any], int]]:
    """(id, edition, position JSON, max depth)."""
    out = []
    out.append(("default-start-seed0", "default", position_to_json(new_position(bundled_edition("default"), 0)), 4))
    out.append(("mini-start-seed0", "mini", position_to_json(new_position(bundled_edition("mini"), 0)), 4))
    for seed, turns in ((7, 10), (11, 14), (3, 9)):
        p, _ = random_position(bundled_edition("default"), seed, turns)
        out.append((f"default-random-{seed}-{turns}", "default", position_to_json(p), 3))
    p, _ = random_position(bundled_edition("mini"), 5, 8)
    out.append(("mini-random-5-8", "mini", position_to_json(p), 4))
    # decks about to run out: reshuffles (chance) inside the tree
    d = position_to_json(random_position(bundled_edition("default"), 21, 8)[0])
    d["decks"] = {"green": ["tulips"], "blue": []}
    d["decks_unknown"] = {"green": [], "blue": ["grass", "cobblestone"]}
    out.append(("default-reshuffle-21", "default", d, 3))
    # moon restricts adding, gnomes off the board, moon up
    d = position_to_json(random_position(bundled_edition("mini"), 9, 12)[0])
    d["gnomes"] = {"green": [[0, 0], [1, 1]], "blue": [[3, 4], [2, 3], [2, 3]]}
    d["off_board"] = {"green": 1, "blue": 0}
    d["moon"] = {"green": "grass", "blue": "cobblestone"}
    d["moon_restricts_adding"] = True
    out.append(("mini-restrict-adding", "mini", d, 4))
    return out


def main() -> None:
    lines = ["# Gnomes at Midnight perft: leaf counts of the game tree (see docs/formats-gnomes-at-midnight.md).",
             "# Established by tests/gnomes_at_midnight/reference.py (independent of the engine).", ""]
    for ident, ed, d, depth in fixed_positions():
        lines.append(f"id: {ident}")
        lines.append(f"edition: {ed}")
        lines.append("position: " + json.dumps(d, separators=(",", ":")))
        for k in range(1, depth + 1):
            lines.append(f"depth {k}: {_perft(d, ed, k)}")
        lines.append("")
    (HERE / "perft.txt").write_text("\n".join(lines))


def _perft(d: dict[str, Any], ed: str, depth: int) -> int:
    full = {c: [NAMES[t] for t in bundled_edition(ed).decks[i]] for i, c in enumerate(("green", "blue"))}
    return PerSide(d, full).perft(PerSide(d, full).start(d), depth)


class PerSide(Ref):
    """The reference with each side's own full deck for reshuffles."""

    def __init__(self, d: dict[str, Any], full: dict[str, list[str]]) -> None:
        super().__init__(d, [])
        self.full_by_side = full

    def play(self, st: tuple, mv: tuple) -> tuple[bool, list[tuple]]:
        self.full = self.full_by_side[st[3]]
        return super().play(st, mv)


if __name__ == "__main__":
    main()
