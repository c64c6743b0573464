"""``solve GARDEN --phase round --rival RIVAL`` and ``hint`` on a running position (render only).

The verbs are :class:`gnomekit.hedge_mage_cli.HedgeMageCLI`'s: this module adds ``--rival`` and
``--priority`` to ``solve`` and ``--max-states`` to ``hint``, and puts the answers in words.
"""

from __future__ import annotations

import argparse
from typing import Any

from gnomekit.common import NO, OK, Answer, budget, read_source
from gnomekit.hedge_mage_solve_cli import position_name
from gnomekit.models.core.errors import GnomekitError, UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.game import GardenPosition, RunningPosition
from gnomekit.models.hedge_mage.notation import placement_to_text, read_garden
from gnomekit.models.hedge_mage.running import (
    Event,
    RunPosition,
    execute_plan,
    run_position_from_garden,
    settle_position,
)
from gnomekit.models.hedge_mage.running_notation import action_to_text, is_run_text, read_run, run_to_json, run_to_text
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.round import OBJECTIVE, RoundChoice, solve_round
from gnomekit.solver.hedge_mage.run_hint import RunHint, StepWords, run_hint, value_words


def load_rival(path: str, ed: HedgeMageEdition) -> tuple[RunPosition, list[str]]:
    """The rival's garden as a running position: a running position file, or a garden read as ``to-run`` does."""
    text, name = read_source(path)
    notes: list[str] = []
    if is_run_text(text):
        pos = read_run(text, name, ed)
    else:
        g = read_garden(text, name, ed)
        pos = run_position_from_garden(g, ed, ed.first_game, 0)
        notes.append(f"{name} is a garden: read as `to-run` does (first-game enchantments, "
                     f"{ed.start_movement_tokens} movement token(s), {ed.start_springshrooms} springshroom token(s))")
    probs = pos.problems(ed)
    if probs:
        raise UsageError("the rival position is not well formed: " + "; ".join(probs), source=name)
    pos, woke = settle_position(pos, ed)
    if woke:
        notes.append("at the start: " + "; ".join(e.text() for e in woke if e.what != "bounce"))
    return pos, notes


def _plan_lines(steps: list[StepWords], indent: str = "  ") -> list[str]:
    out = []
    for s in steps:
        out.append(f"{indent}{s.index:2}. {s.notation:<20} {s.words}")
        out += [f"{indent}    {'':<20} -> {w}" for w in s.event_words]
    return out


def solve_answer(pos: GardenPosition, args: argparse.Namespace) -> Answer:
    """``solve OUR-GARDEN --phase round --rival RIVAL``: placement and running plan together."""
    garden, ed, name = pos.garden, pos.game.edition, position_name(args)
    rival_path = args.rival  # required: HedgeMageCLI.read refuses --phase round without it
    rival, notes = load_rival(rival_path, ed)
    try:
        res = solve_round(garden, rival, ed, priority=args.priority, substitution=not args.no_substitution,
                          max_states=budget(args.max_states, "--max-states"))
    except GnomekitError as exc:
        src = rival_path if "rival position" in exc.message else name
        raise exc.located(source="<stdin>" if src == "-" else src) from None
    data: dict[str, Any] = {"phase": "round", "status": str(res.status), "priority": args.priority,
                            "objective": OBJECTIVE[args.priority],
                            "coupling": "the placement's movement points are the running allowance; nothing else "
                                        "links the two parts",
                            "states": res.stats.get("states"), "seconds": round(res.seconds, 3)}
    if res.status != Status.OPTIMAL:
        data.update({"build": None, "run": None, "reason": res.stats.get("reason"), "notes": notes})
        return Answer(data, f"unknown: {res.stats.get('reason')}", NO)
    ch: RoundChoice = res.witness
    notes += ch.notes
    b = ch.build
    build: dict[str, Any] = {
        "placement": b.placement.to_json() if b else None,
        "notation": placement_to_text(b.placement, ed) if b else None,
        "movement_points": ch.movement_points,
        "bonus_token_points": b.token_points if b else 0,
        "block": b.block if b else None,
        "substitution": b.substitution if b else False,
        "legal_placements": ch.legal_placements,
    }
    v = ch.value
    plan = list(ch.run.witness)
    rep = execute_plan(ch.position, ed, plan)
    run: dict[str, Any] = {**v.to_json(), "plan": [action_to_text(a, ed) for a in plan],
                           "start": run_to_json(ch.position, ed), "position": run_to_json(rep.final, ed)}
    data.update({"build": build, "run": run, "notes": notes,
                 "values_by_points": [{"movement_points": p, **x.to_json()} for p, x in ch.values_by_points.items()],
                 "same_value_from": ch.same_value_from})
    lines = [f"round: {value_words(v)}; movement points {ch.movement_points} ({ch.legal_placements} legal "
             f"placement(s), priority {args.priority})"]
    if b is not None:
        cells = " ".join(f"{r},{c}" for r, c in b.placement.cells)
        lines.append(f"build: {placement_to_text(b.placement, ed)}  cells {cells}  {ch.movement_points} movement "
                     f"point(s), block {b.block or 0:+d}" + (" (substitution)" if b.substitution else ""))
    else:
        lines.append("build: no legal placement (nothing placed, no movement points from building)")
    lines.append("run: " + (" ".join(run["plan"]) if plan else "(no action improves on standing still)"))
    for s in rep.steps:
        ev = "; ".join(e.text() for e in s.events if e.what != "bounce")
        lines.append((f"  {s.index + 1:2}. {action_to_text(s.action, ed):<20}" + (f" {ev}" if ev else "")).rstrip())
    vals = ", ".join(f"{p} pt: {x.rescued} rescued {x.points:+d}" for p, x in ch.values_by_points.items())
    lines.append(f"running value by movement points (solved): {vals}")
    if ch.same_value_from is not None and ch.same_value_from < max(ch.values_by_points):
        lines.append(f"  (any placement with at least {ch.same_value_from} movement points runs as well; among "
                     "them the hardest maze for the invader was chosen)")
    lines.append(f"objective: {OBJECTIVE[args.priority]}")
    lines += [f"note: {n}" for n in notes]
    if not args.json:
        lines += ["", "rival's garden after the plan:", run_to_text(rep.final, ed)]
    return Answer(data, "\n".join(lines), OK)


def hint_answer(position: RunningPosition, woke: list[Event], args: argparse.Namespace) -> Answer:
    """``hint`` on a running position: the best plan in words and the runner-up."""
    pos, ed = position.run, position.game.edition
    max_states = budget(getattr(args, "max_states", None), "--max-states")
    res = run_hint(pos, ed, max_states=max_states)
    data: dict[str, Any] = {"phase": "run", "goal": "hint", "status": str(res.status),
                            "states": res.stats.get("states"), "runner_up_states": res.stats.get("runner_up_states"),
                            "seconds": round(res.seconds, 3)}
    if woke:
        data["woke_at_start"] = [e.to_json() for e in woke]
    h: RunHint | None = res.witness
    if h is None:
        data.update({"rescued": None, "points": None, "plan": None, "runner_up": None,
                     "reason": res.stats.get("reason")})
        return Answer(data, f"unknown: {res.stats.get('reason')}", NO)
    ru = h.runner_up
    data.update({**h.value.to_json(), "plan": [action_to_text(a, ed) for a in h.plan],
                 "first_move": action_to_text(h.first, ed) if h.first else None,
                 "steps": [s.to_json() for s in h.steps], "reasons": h.reasons,
                 "runner_up": None if ru is None else {
                     **ru.value.to_json(), "first_move": action_to_text(ru.first, ed) if ru.first else None,
                     "plan": [action_to_text(a, ed) for a in ru.plan],
                     "steps": [s.to_json() for s in h.runner_up_steps]},
                 "runner_up_status": "unknown" if not h.complete else "none" if ru is None else "optimal",
                 "runner_up_reasons": h.runner_up_reasons,
                 "position": run_to_json(h.final, ed)})
    lines = []
    if woke:
        lines.append("at the start: " + "; ".join(e.text() for e in woke if e.what != "bounce"))
    if h.plan:
        lines.append(f"hint: start with {action_to_text(h.first, ed) if h.first else '-'}; the best plan "
                     f"{value_words(h.value)}")
        lines += _plan_lines(h.steps)
    else:
        lines.append("hint: stand still (keep your tokens); nothing can be gained this round")
    lines.append("why:")
    lines += [f"  - {r}" for r in h.reasons]
    if ru is not None:
        lines.append(f"runner-up (without the first move {action_to_text(h.first, ed) if h.first else '-'}): "
                     + (" ".join(action_to_text(a, ed) for a in ru.plan) or "stand still"))
        lines += _plan_lines(h.runner_up_steps)
    lines += [f"  - {r}" for r in h.runner_up_reasons]
    if not h.complete:
        lines.append(f"runner-up: not determined ({res.stats.get('reason')})")
    if not args.json:
        lines += ["", "final position:", run_to_text(h.final, ed)]
    return Answer(data, "\n".join(lines), OK)


def solve_options(p: argparse.ArgumentParser) -> None:
    """``solve``'s whole-round options: the rival's garden and what comes first."""
    p.add_argument("--rival", metavar="FILE",
                   help="--phase round: the rival's garden where your mages run (running position or garden)")
    p.add_argument("--priority", choices=["run", "block"], default="run",
                   help="--phase round: run (default): best running value first, then block; block: the "
                   "hardest maze first")


def hint_options(p: argparse.ArgumentParser) -> None:
    """``hint``'s running option: the state budget of each search."""
    p.add_argument("--max-states", type=int, default=200_000, metavar="N",
                   help="running position: give up after N states per search (the best plan: status "
                   "unknown; the runner-up: not determined; default 200000)")
