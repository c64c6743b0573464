"""``solve`` and ``hint`` on a garden: the best placement this round, a plan of tiles (render only).

The verbs are :class:`gnomekit.hedge_mage_cli.HedgeMageCLI`'s; this module adds their garden
options and puts the answers in words (running positions: hedge_mage_run_cli.py).
"""

from __future__ import annotations

import argparse
import math
import re
from typing import Any

from gnomekit.common import NO, OK, Answer
from gnomekit.models.core.errors import GnomekitError, UsageError
from gnomekit.models.core.jsonpos import loads_with_positions
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.game import GardenPosition
from gnomekit.models.hedge_mage.notation import draw_marked, placement_to_text
from gnomekit.models.hedge_mage.placement import Placement, movement_points
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.hedge_mage.best import (
    NO_PLACEMENT,
    TIE_BREAK,
    Choice,
    Hint,
    PlanStep,
    Scored,
    best_block,
    best_points,
    hint,
    plan,
)
from gnomekit.solver.hedge_mage.placements import tiles_for

GOAL_WORDS = {"points": "most movement points", "block": "hardest maze for the invader"}


def position_name(args: argparse.Namespace) -> str:
    """The name read_source gives the position argument (for errors about the garden as a whole)."""
    return "<stdin>" if args.position == "-" else str(args.position)


def tile_place(args: argparse.Namespace) -> tuple[int | None, int | None]:
    """Line and column where the position file gives its revealed tile, or where that line belongs.

    For errors about the revealed tile (there is none); ``(None, None)`` when the text is not at hand.
    """
    text = getattr(args, "position_text", None)
    if not isinstance(text, str):
        return None, None
    if text.lstrip().startswith("{"):
        try:
            _, places = loads_with_positions(text, "")
        except GnomekitError:
            return None, None
        return places.get(("tile",), (1, 1))
    lines = text.splitlines()
    for i, line in enumerate(lines, start=1):
        m = re.match(r"\s*tile\s*:\s*", line.split("#", 1)[0])
        if m:
            return i, m.end() + 1
    header = next((i for i, ln in enumerate(lines, start=1) if ln.strip() and not ln.lstrip().startswith("#")), 1)
    return header + 1, 1  # no tile line: it belongs after the header (missing means '-')


def about_position(exc: UsageError, args: argparse.Namespace) -> UsageError:
    """A solver's complaint about the garden as a whole, located in the position file (at its tile line
    when it is about the revealed tile)."""
    place = tile_place(args) if "no revealed tile" in exc.message else (None, None)
    exc.located(position_name(args), *place)
    return exc



def _cells(cells: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> str:
    return " ".join(f"{r},{c}" for r, c in cells)


def _marks(p: Placement) -> dict[tuple[int, int], str]:
    marks = {c: ("@" if c == p.sigil else "#") for c in p.cells}
    for t in p.tokens:
        marks[t] = marks[t] + "*"
    return marks


def _scored_json(s: Scored, ed: HedgeMageEdition) -> dict[str, Any]:
    return s.to_json(ed)


def _block_line(s: Scored) -> str:
    before = sum(g.before for g in s.gnomes)
    after = sum(g.after for g in s.gnomes)
    return f"block: {s.block:+d} (invader steps to the sleeping gnomes, summed: {before} -> {after})"


def _option_lines(choice: Choice) -> list[str]:
    parts = []
    for tile, d in choice.per_tile.items():
        what = f"{tile} (substitution)" if d["substitution"] else tile
        best = "no legal placement" if d["best_points"] is None else f"best {d['best_points']} pt"
        parts.append(f"{what}: {d['legal_placements']} legal, {best}")
    return parts


def choice_answer(res: Result, g: Garden, ed: HedgeMageEdition) -> Answer:
    """Render a best_points / best_block result."""
    choice: Choice = res.witness
    best = choice.best
    data: dict[str, Any] = {
        "goal": choice.goal,
        "status": str(res.status),
        "method": choice.method,
        "placement": best.placement.to_json() if best else None,
        "notation": placement_to_text(best.placement, ed) if best else None,
        "movement_points": best.points if best else 0,
        "bonus_token_points": best.token_points if best else 0,
        "block": best.block if best else None,
        "substitution": best.substitution if best else False,
        "runner_up": _scored_json(choice.runner_up, ed) if choice.runner_up else None,
        "tile_options": [{"tile": t, **d} for t, d in choice.per_tile.items()],
        "tie_break": ("more block, then more movement points; " if choice.goal == "block" else "") + TIE_BREAK,
        "notes": choice.notes,
    }
    if best is not None:
        _pts, counted = movement_points(g, best.placement)
        data["sigils_counted"] = [list(c) for c in counted]
        data["gnomes"] = [x.to_json() for x in best.gnomes]
    lines = [f"goal: {GOAL_WORDS[choice.goal]} (method: {choice.method})"]
    if best is None:
        lines.append(f"no legal placement of {' or '.join(choice.per_tile)}")
        lines.append(NO_PLACEMENT)
        data["message"] = NO_PLACEMENT
        lines += [f"note: {n}" for n in choice.notes]
        return Answer(data, "\n".join(lines), NO)
    p = best.placement
    lines.append(f"best: {placement_to_text(p, ed)}  cells {_cells(p.cells)}")
    tok = f", incl. {best.token_points} held bonus sigil token(s) on {_cells(p.tokens)}" if best.token_points else ""
    lines.append(f"movement points: {best.points} (sigils counted: {_cells(counted)}{tok})")
    lines.append(_block_line(best))
    if choice.goal == "block":
        for gc in best.gnomes:
            if gc.after != gc.before:
                lines.append(f"  {gc.gnome.kind} gnome at {gc.gnome.at[0]},{gc.gnome.at[1]}: "
                             f"{gc.before} -> {gc.after} steps")
    sub = "yes, the once-per-game substitution" if best.substitution else "no"
    lines.append(f"substitution: {sub} ({'; '.join(_option_lines(choice))})")
    ru = choice.runner_up
    if ru is not None:
        lines.append(f"runner-up: {placement_to_text(ru.placement, ed)}  {ru.points} pt, block {ru.block:+d}"
                     + (" (substitution)" if ru.substitution else ""))
    else:
        lines.append("runner-up: none (only one legal placement)")
    lines.append(f"{data['tie_break']}")
    lines += [f"note: {n}" for n in choice.notes]
    lines.append("")
    lines.append(draw_marked(g, ed, _marks(p)))
    lines.append("(# new hedge cell, @ its sigil, * a held bonus sigil token placed)")
    return Answer(data, "\n".join(lines), OK)


def plan_answer(res: Result, g: Garden, ed: HedgeMageEdition, tiles: list[str], method: str) -> Answer:
    """Render a plan result."""
    steps: list[PlanStep] = res.witness or []
    data: dict[str, Any] = {
        "goal": "plan",
        "status": str(res.status),
        "method": method,
        "tiles": tiles,
        "placement": steps[0].placement.to_json() if steps else None,
        "movement_points": steps[0].points if steps else None,
        "total_movement_points": res.value,
        "steps": [s.to_json(ed) for s in steps],
        "explanation": list(res.stats.get("explanation", [])),
    }
    if res.status == Status.SATISFIED:
        lines = [f"plan {' '.join(tiles)}: possible (method: {method})"]
        marks: dict[tuple[int, int], str] = {}
        for k, s in enumerate(steps, 1):
            p = s.placement
            tok = f" (incl. {s.token_points} bonus token(s))" if s.token_points else ""
            lines.append(f"  {k}. {placement_to_text(p, ed):<16} {s.points} pt{tok}  cells {_cells(p.cells)}")
            for c in p.cells:
                marks[c] = f"{k}@" if c == p.sigil else str(k)
        lines.append(f"total movement points: {res.value}")
        lines.append("")
        lines.append(draw_marked(g, ed, marks))
        lines.append("(k = cell of the k-th placement, k@ its sigil)")
        return Answer(data, "\n".join(lines), OK)
    word = "impossible" if res.status == Status.UNSATISFIABLE else "unknown (limit reached)"
    lines = [f"plan {' '.join(tiles)}: {word} (method: {method})"]
    lines += [f"  {x}" for x in data["explanation"]]
    return Answer(data, "\n".join(lines), NO)


def plan_notes(g: Garden, tiles: list[str]) -> list[str]:
    """What a plan asks that a game would not: a tile twice, or a tile the owner no longer holds."""
    notes = [f"{t} appears {tiles.count(t)} times; a hedge set has one of each tile"
             for t in dict.fromkeys(tiles) if tiles.count(t) > 1]
    if g.remaining_tiles:
        gone = [t for t in dict.fromkeys(tiles) if t not in g.remaining_tiles]
        if gone:
            notes.append(f"not among the remaining tiles: {' '.join(gone)} (the plan is answered for the "
                         "geometry only)")
    return notes


def solve_answer(pos: GardenPosition, args: argparse.Namespace) -> Answer:
    """``solve GARDEN``: the best placement (``--goal points|block``), or ``--plan T1,T2,...``."""
    g, ed = pos.garden, pos.game.edition
    sub = not args.no_substitution
    if args.plan is not None:
        if args.goal is not None:
            raise UsageError("--plan and --goal do not go together")
        if args.plan.strip() == "all":
            raise UsageError("expected tile names T1,T2,... in the order to place them", source="--plan",
                             line=1, column=1, text=args.plan)
        tiles = tiles_for(g, ed, args.plan, source="--plan", or_all=False)
        method = args.method or "sat"
        res = plan(g, ed, tiles, method=method, time_limit=args.time_limit)
        ans = plan_answer(res, g, ed, tiles, method)
        notes = plan_notes(g, tiles)
        ans.data["notes"] = notes
        if notes:
            ans.text = "\n".join([f"note: {n}" for n in notes] + [ans.text])
        return ans
    if args.time_limit is not None:  # not silently ignored: the best placement has no time budget
        raise UsageError("--time-limit applies to --plan (and to a running position's --run-method encoding); "
                         "the best placement is found exactly, without a time limit")
    goal = args.goal or "points"
    try:
        if goal == "points":
            res = best_points(g, ed, method=args.method or "sat", substitution=sub)
        else:
            res = best_block(g, ed, method=args.method or "enumerate", substitution=sub)
    except UsageError as exc:  # e.g. no revealed tile: that is about the position file
        raise about_position(exc, args) from None
    return choice_answer(res, g, ed)


def hint_answer(pos: GardenPosition, args: argparse.Namespace) -> Answer:
    """``hint GARDEN``: the recommended placement, why, and the alternatives it beat."""
    g, ed = pos.garden, pos.game.edition
    for option, value in (("--block-weight", args.block_weight), ("--alternatives", args.alternatives)):
        if value < 0:  # worded (and located) as it always was; the library names its parameters
            raise UsageError(f"{option} must be 0 or more", source=option)
    try:
        res = hint(g, ed, block_weight=args.block_weight, alternatives=args.alternatives,
                   substitution=not args.no_substitution)
    except UsageError as exc:
        raise about_position(exc, args) from None
    h: Hint = res.witness
    best = h.best
    data: dict[str, Any] = {
        "goal": "hint",
        "status": str(res.status),
        "policy": res.stats["policy"],
        "block_weight": h.block_weight,
        "placement": best.placement.to_json() if best else None,
        "notation": placement_to_text(best.placement, ed) if best else None,
        "movement_points": best.points if best else 0,
        "block": best.block if best else None,
        "score": h.score,
        "substitution": best.substitution if best else False,
        "reasons": h.reasons,
        "sigils_counted": [list(c) for c in h.sigils],
        "gnomes": [x.to_json() for x in best.gnomes] if best else [],
        "alternatives": [{**_scored_json(s, ed), "score": sc} for s, sc in h.alternatives],
    }
    if best is None:
        return Answer(data, "hint: " + "\n".join(h.reasons), NO)
    lines = [f"hint: play {placement_to_text(best.placement, ed)}  cells {_cells(best.placement.cells)}",
             f"  {best.points} movement point(s), block {best.block:+d}, score {h.score:g}"]
    lines.append("why:")
    lines += [f"  - {r}" for r in h.reasons]
    if h.alternatives:
        lines.append(f"alternatives it beat (score = points + {h.block_weight:g} x block):")
        for k, (s, sc) in enumerate(h.alternatives, 1):
            lines.append(f"  {k}. {placement_to_text(s.placement, ed):<16} {s.points} pt, block {s.block:+d}, "
                         f"score {sc:g}" + (" (substitution)" if s.substitution else "")
                         + (" (equal: lost on the tie-break order)" if sc == h.score and s.points == best.points
                            else ""))
    else:
        lines.append("alternatives: none (only one legal placement)")
    lines.append(f"policy: {data['policy']}")
    lines.append("")
    lines.append(draw_marked(g, ed, _marks(best.placement)))
    lines.append("(# new hedge cell, @ its sigil, * a held bonus sigil token placed)")
    return Answer(data, "\n".join(lines), OK)


#: The longest ``--time-limit`` taken (about 11.6 days): longer ones overflow the timers and z3's limit.
MAX_TIME_LIMIT = 1_000_000.0


def _positive_float(s: str) -> float:
    """A finite number >= 0 (nan and inf are not numbers of anything here)."""
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {s!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {s!r}")
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {s!r}")
    return v


def time_limit(s: str) -> float:
    """``--time-limit SECONDS``: a finite number of seconds, > 0 and at most :data:`MAX_TIME_LIMIT`."""
    v = _positive_float(s)
    if v <= 0 or v > MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0 and <= {MAX_TIME_LIMIT:g}, got {s!r}")
    return v


def solve_options(p: argparse.ArgumentParser) -> None:
    """``solve``'s garden options: the goal, the method, a plan of tiles."""
    p.add_argument("--goal", choices=["points", "block"],
                   help="points: most movement points (default); block: hardest maze for the invader, "
                   "ties by more points")
    p.add_argument("--method", choices=["sat", "enumerate"],
                   help="default: sat for points and plans, enumerate for block")
    p.add_argument("--plan", metavar="T1,T2,...", help="can these tiles be placed in this order?")
    p.add_argument("--time-limit", type=time_limit, metavar="SECONDS",
                   help="for --plan, and a running position's --run-method encoding (refused elsewhere)")
    p.add_argument("--no-substitution", action="store_true", help="do not consider the 2x1 substitution")


def hint_options(p: argparse.ArgumentParser) -> None:
    """``hint``'s garden options: how much blocking is worth, how many alternatives to list."""
    p.add_argument("--block-weight", type=_positive_float, default=1.0, metavar="W",
                   help="worth of one extra invader step in movement points (default 1)")
    p.add_argument("--alternatives", type=int, default=3, metavar="N", help="how many to list (default 3)")
    p.add_argument("--no-substitution", action="store_true", help="do not consider the 2x1 substitution")
