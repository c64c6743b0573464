"""``gnomekit puzzles check FILE_OR_DIR...``: solve and verify puzzle files of one's own, in parallel.

The files have the bundled puzzles' format (puzzles/README.md).  Each is solved from scratch
and checked by the game's own puzzle module, with the independent cross-checks the tour uses
(gnomekit/tour_runner.py), one task a file on the batch runner.  For each file: is the stated
answer right, and is it unique?  Unique is asked of questions whose answer is a choice: the
winning first moves of a Gnomes at Midnight puzzle, the best placements of a Hedge Mage
best-points or best-block puzzle (the stored answer lists every one, and the check has proven
that list complete, so one entry means every other first move fails); other questions have
one answer by their nature ("n/a").
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import Any

from gnomekit.batch_cli import add_batch_options, backend_of, bar, incomplete
from gnomekit.common import BAD, NO, OK, Answer, table
from gnomekit.models.core.errors import UsageError
from gnomekit.solver.core.batch import BatchError, run_batch
from gnomekit.tour_runner import TOUR_GAMES, puzzle_task

MODULES = dict(TOUR_GAMES)
#: The answer key that lists every solution, per game and question kind (None: any kind).
CHOICES = {("gnomes-at-midnight", None): "moves", ("hedge-mage", "best-points"): "placements",
           ("hedge-mage", "best-block"): "placements"}


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(path.rglob("*.toml"))
            if not found:
                raise UsageError("no puzzle files (*.toml) in this folder", source=p)
            out += found
        elif path.is_file():
            out.append(path)
        else:
            raise UsageError("no such file or folder", source=p)
    return out


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"not a puzzle file: {exc}", source=str(path)) from None


def game_of(path: Path, data: dict[str, Any], forced: str | None) -> str:
    """The puzzle's game: ``--game``, else the first word of its position text, else its folder's name."""
    if forced is not None:
        return forced
    pos = data.get("position")
    first = pos.strip().split()[0] if isinstance(pos, str) and pos.strip() else ""
    for name in (first, path.parent.name):
        if name in MODULES:
            return name
    raise UsageError("cannot tell the game: the position's first line names none of "
                     + ", ".join(MODULES) + " (pass --game)", source=str(path))


def uniqueness(game: str, data: dict[str, Any]) -> tuple[bool | None, int | None]:
    """(unique?, how many answers) from a verified puzzle's stored answer; (None, None) when not a choice."""
    q = data.get("question")
    kind = q.get("kind") if isinstance(q, dict) else None
    key = CHOICES.get((game, kind)) or CHOICES.get((game, None))
    answer = data.get("answer")
    if key is None or not isinstance(answer, dict) or not isinstance(answer.get(key), list):
        return None, None
    n = len(answer[key])
    return n == 1, n


def cmd_check(args: argparse.Namespace) -> Answer:
    if args.game is not None and args.game not in MODULES:
        raise UsageError(f"unknown game; choose from {', '.join(MODULES)}", source="--game", text=args.game)
    files = _files(args.paths)
    puzzles = [(f, _read(f)) for f in files]
    games = [game_of(f, d, args.game) for f, d in puzzles]
    jobs = [(MODULES[g], str(f)) for (f, _d), g in zip(puzzles, games, strict=True)]
    with bar("puzzles check", args, "puzzle") as show:
        batch = run_batch(puzzle_task, jobs, backend_of(args), show)
    errors = {e.index: e for e in batch.errors}
    results = dict(batch.items())
    rows, out = [], []
    for i, ((f, d), g) in enumerate(zip(puzzles, games, strict=True)):
        entry: dict[str, Any] = {"file": str(f), "game": g}
        if i in errors:
            entry.update(status="error", right=None, unique=None, error=errors[i].message)
            rows.append([str(f), g, "ERROR", "-", errors[i].message[:60]])
        elif i in results:
            o = results[i]
            right = o.verified and not o.checks_missing
            unique, n = uniqueness(g, d) if right else (None, None)
            entry.update(status="right" if right else "wrong", right=right, unique=unique, answers=n,
                         answer=o.answer_text, detail=o.detail, seconds=round(o.seconds, 3),
                         checks={"applied": list(o.checks_applied), "ran": list(o.checks_ran)})
            u = "n/a" if unique is None else ("yes" if unique else f"no ({n})")
            rows.append([str(f), g, "right" if right else ("WRONG" if o.solved else "NOT SOLVED"),
                         u if right else "-", o.answer_text[:60]])
        else:
            entry.update(status="not run", right=None, unique=None)
            rows.append([str(f), g, "not run", "-", ""])
        out.append(entry)
    n_right = sum(1 for e in out if e["status"] == "right")
    text = table(rows, ["file", "game", "answer", "unique", "solved answer"])
    text += f"\n\n{n_right} of {len(out)} puzzle(s) right"
    data: dict[str, Any] = {"puzzles": out, "right": n_right, "total": len(out)}
    status = OK if n_right == len(out) else NO
    if errors:
        status = BAD
        text += "\n" + "\n".join(f"gnomekit: error: {errors[i].message}" for i in sorted(errors))
    if batch.interrupted:
        data["incomplete"] = incomplete(BatchError(batch))
        text += "\n" + batch.summary()
        status = 130
    return Answer(data, text, status)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    grp = sub.add_parser("puzzles", help="puzzle files of one's own: solve and verify them")
    grp.set_defaults(group_parser=grp, func=None)
    verbs = grp.add_subparsers(dest="verb", metavar="VERB")
    p = verbs.add_parser("check", help="solve and verify puzzle files: is the stated answer right, is it unique?",
                         description="Solve each puzzle file (or every *.toml under a folder) from scratch, "
                         "compare with its stated answer using the tour's cross-checks, and say whether the "
                         "answer is unique.")
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR", help="puzzle files, or folders of them")
    p.add_argument("--game", metavar="NAME", help="the game of every file (default: read from each position)")
    add_batch_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=cmd_check)
