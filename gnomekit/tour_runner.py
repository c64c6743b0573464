"""Run every bundled puzzle of every game and print a summary table."""

from __future__ import annotations

import argparse
import importlib
import sys
import time

from gnomekit.common import NO, OK, Answer, table
from models.core.errors import UsageError
from solver.core.puzzles import PuzzleOutcome

# (game command name, module with puzzle_files() and run_puzzle(path))
TOUR_GAMES = [
    ("hedge-mage", "solver.hedge_mage.puzzles"),
    ("gnome-hollow", "solver.gnome_hollow.puzzles"),
    ("gnomes-at-midnight", "solver.gnomes_at_midnight.puzzles"),
    ("hexen-rennen", "solver.hexen_rennen.puzzles"),
]


def run_tour(args: argparse.Namespace) -> Answer:
    available = [(g, m) for g, m in TOUR_GAMES if _exists(m)]
    wanted = args.game or [g for g, _ in available]
    known = {g for g, _ in available}
    for g in wanted:
        if g not in known:
            raise UsageError(f"unknown game {g!r}; the tour has: {', '.join(sorted(known))}")
    outcomes: list[PuzzleOutcome] = []
    blocks: list[str] = []
    started = time.perf_counter()
    for game, module in available:
        if game not in wanted:
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        files = mod.puzzle_files()
        for i, path in enumerate(files, start=1):
            if not args.json:
                sys.stderr.write(f"\r[{game}] puzzle {i}/{len(files)}: {path.stem:<40}")
                sys.stderr.flush()
            out = mod.run_puzzle(path)
            outcomes.append(out)
            if not args.quiet:
                mark = "ok" if out.verified else "MISMATCH"
                blocks.append(
                    f"=== {game} / {out.name} [{mark}]\n{out.position_text.rstrip()}\n"
                    f"question: {out.question}\nanswer:   {out.answer_text}\n"
                    + (f"{out.detail.rstrip()}\n" if out.detail else "")
                )
        if not args.json and files:
            sys.stderr.write("\r" + " " * 70 + "\r")
    total = time.perf_counter() - started
    rows = []
    for game in wanted:
        mine = [o for o in outcomes if o.game == game]
        if not mine:
            rows.append([game, "0", "-", "-", "-"])
            continue
        rows.append([
            game,
            str(len(mine)),
            f"{sum(o.solved for o in mine)}/{len(mine)}",
            f"{sum(o.verified for o in mine)}/{len(mine)}",
            f"{sum(o.seconds for o in mine):.2f}s",
        ])
    bad = [o for o in outcomes if not o.verified]
    summary = table(rows, ["game", "puzzles", "solved", "verified", "time"])
    text = "\n".join(blocks) + "\n" + summary + f"\n\ntotal {total:.2f}s"
    if bad:
        text += "\nMISMATCH: " + ", ".join(f"{o.game}/{o.name}" for o in bad)
    else:
        text += f"\nall {len(outcomes)} puzzles solved and verified"
    data = {
        "puzzles": [o.to_json() for o in outcomes],
        "summary": {
            "puzzles": len(outcomes),
            "solved": sum(o.solved for o in outcomes),
            "verified": sum(o.verified for o in outcomes),
            "seconds": round(total, 3),
        },
        "ok": not bad and bool(outcomes),
    }
    return Answer(data, text, OK if (not bad and outcomes) else NO)


def _exists(module: str) -> bool:
    """Is this game's puzzle module built yet?"""
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
