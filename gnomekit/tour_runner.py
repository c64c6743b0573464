"""Run every bundled puzzle of every game and print a summary table."""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path

from gnomekit.batch_cli import backend_of, bar, incomplete
from gnomekit.common import NO, OK, Answer, table
from gnomekit.models.core.errors import UsageError
from gnomekit.solver.core.batch import BatchError, run_batch
from gnomekit.solver.core.puzzles import PuzzleOutcome

# (game command name, module with puzzle_files() and run_puzzle(path))
TOUR_GAMES = [
    ("hedge-mage", "gnomekit.solver.hedge_mage.puzzles"),
    ("gnome-hollow", "gnomekit.solver.gnome_hollow.puzzles"),
    ("gnomes-at-midnight", "gnomekit.solver.gnomes_at_midnight.puzzles"),
    ("hexen-rennen", "gnomekit.solver.hexen_rennen.puzzles"),
]


def run_tour(args: argparse.Namespace) -> Answer:
    available = TOUR_GAMES
    wanted = args.game or [g for g, _ in available]
    known = {g for g, _ in available}
    for g in wanted:
        if g not in known:
            raise UsageError(f"unknown game {g!r}; the tour has: {', '.join(sorted(known))}")
    outcomes: list[PuzzleOutcome] = []
    blocks: list[str] = []
    started = time.perf_counter()
    jobs: list[tuple[str, str]] = []  # (module, puzzle file), one task each
    for game, module in available:
        if game not in wanted:
            continue
        mod = importlib.import_module(module)  # no fallback: a broken module is an error that names it
        jobs += [(module, str(path)) for path in mod.puzzle_files()]
    with bar("tour puzzles", args, "puzzle") as show:
        batch = run_batch(puzzle_task, jobs, backend_of(args), show)
    stop = None if batch.complete else BatchError(batch)
    counts = {m: sum(1 for x, _p in jobs if x == m) for m, _p in jobs}
    for i, out in batch.items():
        module = jobs[i][0]
        number = sum(1 for x, _p in jobs[: i + 1] if x == module)
        if out.checks_missing:  # a cross-check that applies but did not run fails the puzzle
            out.verified = False
            out.detail = (out.detail.rstrip() + "\n" if out.detail else "") + (
                f"cross-check did not run: {', '.join(out.checks_missing)}")
        outcomes.append(out)
        if not args.quiet:
            blocks.append(render_outcome(out, number, counts[module]))
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
    intro = ""
    if blocks:
        games = sorted({o.game for o in outcomes})
        intro = (f"gnomekit tour: {len(outcomes)} puzzles from {', '.join(games)}. Each position is shown, "
                 "solved from scratch\nby the toolkit's main methods, and compared with the answer stored "
                 "in its puzzle file.\n\n")
    text = intro + ("\n".join(blocks) + "\n" if blocks else "") + summary + f"\n\ntotal {total:.2f}s"
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
        "ok": not bad and bool(outcomes) and stop is None,
    }
    if stop is not None:
        data["incomplete"] = incomplete(stop)
        text += "\n" + stop.batch.summary()
        return Answer(data, text, 130 if stop.interrupted else NO)
    return Answer(data, text, OK if (not bad and outcomes) else NO)


def puzzle_task(job: tuple[str, str]) -> PuzzleOutcome:
    """Solve and verify one puzzle file with its game's puzzle module (a task of the batch runner)."""
    module, path = job
    return importlib.import_module(module).run_puzzle(Path(path))  # type: ignore[no-any-return]


def render_outcome(out: PuzzleOutcome, index: int, count: int) -> str:
    """One puzzle for people: title, story, position (beside the answer's picture), question, answer."""
    mark = "verified" if out.verified else ("MISMATCH" if out.solved else "NOT SOLVED")
    title = out.data.get("title") if isinstance(out.data.get("title"), str) else ""
    head = f"=== {out.game} {index}/{count}: {out.name}" + (f" - {title}" if title else "") + f"  [{mark}]"
    lines = [head]
    about = out.data.get("about")
    if isinstance(about, str) and about.strip():
        lines += [f"  {x}" for x in about.strip().splitlines()]
    lines.append("")
    picture = out.data.get("picture")
    if isinstance(picture, str) and picture.strip():
        lines.append(side_by_side(out.position_text, picture))
        legend = out.data.get("legend")
        if isinstance(legend, str) and legend:
            lines.append(f"(right: {legend})")
    else:
        lines.append(out.position_text.rstrip())
    lines.append("")
    lines.append(f"question: {out.question}")
    lines.append(f"answer:   {out.answer_text}")
    if out.detail:
        lines += [f"  {x}" if x else "" for x in out.detail.rstrip().splitlines()]
    if out.checks_applied:
        ran = [c for c in out.checks_applied if c in out.checks_ran]
        lines.append(f"cross-checks: {', '.join(ran) if ran else 'none'}"
                     + (f" (did not run: {', '.join(out.checks_missing)})" if out.checks_missing else ""))
    lines.append(f"{mark} in {out.seconds:.2f}s")
    return "\n".join(lines) + "\n"


def side_by_side(position: str, picture: str, gap: int = 6) -> str:
    """The position text with a same-height picture printed to the right of its last lines."""
    left = position.rstrip().splitlines()
    right = picture.rstrip().splitlines()
    if len(right) > len(left):
        return position.rstrip() + "\n\n" + picture.rstrip()
    width = max(len(x) for x in left[-len(right):])
    top = left[: len(left) - len(right)]
    rows = [f"{a.ljust(width)}{' ' * gap}{b}".rstrip() for a, b in zip(left[-len(right):], right, strict=True)]
    return "\n".join(top + rows)
