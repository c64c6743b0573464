"""Maze running at the command line: ``check POS --plan PLAN``, ``solve POS --phase run``, ``to-run``, ``show``.

Registered from gnomekit/hedge_mage_cli.py (``_register_more``).  It adds
options to the existing ``check``, ``solve`` and ``show`` verbs and routes a
running position (text header ``hedge-mage run`` or JSON ``"phase": "run"``) to
the running engine; building-phase gardens go to the original verbs unchanged.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from typing import Any

from gnomekit.common import NO, OK, Answer, add_common, budget, read_source
from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, load_edition
from gnomekit.models.hedge_mage.notation import read_garden
from gnomekit.models.hedge_mage.running import (
    Event,
    PlanReport,
    RunPosition,
    execute_plan,
    run_position_from_garden,
    running_score,
    settle_position,
)
from gnomekit.models.hedge_mage.running_notation import (
    action_to_text,
    is_run_text,
    parse_plan,
    read_run,
    run_to_json,
    run_to_text,
)

Verb = Callable[[argparse.Namespace], Answer]

# seconds to about a minute on a default 10x10 position (measured on the loaded 2-core machine,
# docs/rules/hedge-mage-running.md "Solving"); beyond it the answer is the best plan found so far
DEFAULT_MAX_STATES = 150_000


def _load(args: argparse.Namespace, text: str, name: str) -> tuple[RunPosition, HedgeMageEdition, list[Event]]:
    ed = load_edition(getattr(args, "edition", None))
    pos = read_run(text, name, ed)
    pos, woke = settle_position(pos, ed)
    return pos, ed, woke


def _plan_text(args: argparse.Namespace) -> tuple[str, str]:
    p: str = args.plan
    if p.startswith("@"):
        return read_source(p[1:])
    return p, "--plan"


def _events(events: list[Event]) -> str:
    return "; ".join(e.text() for e in events if e.what != "bounce")


def _summary(start: RunPosition, final: RunPosition, ed: HedgeMageEdition, units: list[Any]) -> dict[str, Any]:
    rescued = {k: final.rescued_count(k) - start.rescued_count(k) for k in ed.gnome_kinds}
    return {
        "rescued": final.total_rescued() - start.total_rescued(),
        "rescued_kinds": {k: n for k, n in rescued.items() if n},
        "points": running_score(final, ed) - running_score(start, ed),
        "tokens_spent": final.spent - start.spent,
        "springshrooms_spent": sum(1 for a in units if a.kind == "shroom"),
    }


def report_answer(rep: PlanReport, ed: HedgeMageEdition, woke: list[Event], as_json: bool) -> Answer:
    """Render an executed plan (legal, or the first illegal action with every reason)."""
    actions = [s.action for s in rep.steps]
    data: dict[str, Any] = {"phase": "run", "legal": rep.legal}
    if woke:
        data["woke_at_start"] = [e.to_json() for e in woke]
    data["steps"] = [{"action": action_to_text(s.action, ed), "events": [e.to_json() for e in s.events]}
                     for s in rep.steps]
    data.update(_summary(rep.start, rep.final, ed, actions))
    lines = []
    if woke:
        lines.append("at the start: " + _events(woke))
    for s in rep.steps:
        ev = _events(s.events)
        lines.append(f"{s.index + 1:3}. {action_to_text(s.action, ed):<24}" + (f" {ev}" if ev else ""))
    if not rep.legal:
        assert rep.failed is not None
        data["failed_index"] = rep.failed + 1
        data["reasons"] = [{"rule": r, "message": m} for r, m in rep.reasons]
        at_end = rep.failed >= len(rep.steps) and any("the plan ends" in m for _, m in rep.reasons)
        data["failed_action"] = None if at_end else rep.failed_action
        lines.append("illegal: the end of the plan" if at_end else
                     f"illegal: action {rep.failed + 1} {rep.failed_action}")
        for r, m in rep.reasons:
            lines.append(f"  - [{r}] {m}")
        data["position"] = run_to_json(rep.final, ed)
        return Answer(data, "\n".join(lines), NO)
    data["position"] = run_to_json(rep.final, ed)
    lines.append(f"legal: rescued {data['rescued']}"
                 + (f" ({', '.join(f'{n} {k}' for k, n in data['rescued_kinds'].items())})" if data["rescued"] else "")
                 + f", points {data['points']:+d}, tokens spent {data['tokens_spent']}, "
                 f"springshrooms spent {data['springshrooms_spent']}")
    if not as_json:
        lines.append("")
        lines.append(run_to_text(rep.final, ed))
    return Answer(data, "\n".join(lines), OK)


def _progress_line() -> Callable[[str], None] | None:
    """On a terminal, the search's progress on one line of stderr (overwritten; cleared by :func:`_done`)."""
    if not sys.stderr.isatty():
        return None

    def show(msg: str) -> None:
        sys.stderr.write("\r" + msg[:78].ljust(78))
        sys.stderr.flush()
    return show


def _done(shown: Callable[[str], None] | None) -> None:
    if shown is not None:
        sys.stderr.write("\r" + " " * 78 + "\r")
        sys.stderr.flush()


def cmd_run_check(args: argparse.Namespace, text: str, name: str) -> Answer:
    pos, ed, woke = _load(args, text, name)
    if getattr(args, "plan", None) is None:  # an empty plan ('' or '[]', as solve may print) is a plan
        raise UsageError("check on a running position needs --plan PLAN (actions, or @FILE)")
    ptext, pname = _plan_text(args)
    plan = parse_plan(ptext, ed, pname)
    rep = execute_plan(pos, ed, plan)
    if rep.failed is not None and rep.failed < len(plan):
        rep.failed_action = action_to_text(plan[rep.failed], ed)
    return report_answer(rep, ed, woke, args.json)


def cmd_run_solve(args: argparse.Namespace, text: str, name: str) -> Answer:
    from gnomekit.solver.core.result import Status
    from gnomekit.solver.hedge_mage.running import solve_run

    pos, ed, woke = _load(args, text, name)
    if pos.transit is not None:  # pragma: no cover - the notation cannot express it
        raise UsageError("the position has a character passing through another")
    if getattr(args, "run_method", "search") == "encoding":  # the second exact method (small positions)
        from gnomekit.solver.hedge_mage.run_encoding import solve_run_encoding
        res = solve_run_encoding(pos, ed, time_limit=args.time_limit, shortest=True)
    else:
        shown = None if args.json else _progress_line()
        res = solve_run(pos, ed, max_states=budget(args.max_states, "--max-states"), progress=shown)
        _done(shown)
    data: dict[str, Any] = {"phase": "run", "status": str(res.status), "method": res.stats.get("method", "search"),
                            "states": res.stats.get("states"), "seconds": round(res.seconds, 3)}
    optimal = res.status == Status.OPTIMAL
    if not optimal and res.witness is None:
        data.update({"rescued": None, "points": None, "plan": None, "reason": res.stats.get("reason")})
        return Answer(data, f"unknown: {res.stats.get('reason')} ({res.stats.get('states')} states)", NO)
    plan = res.witness
    rep = execute_plan(pos, ed, plan)
    if not rep.legal:  # pragma: no cover - the search only uses legal actions
        raise RuntimeError(f"internal error: solver plan is illegal: {rep.reasons}")
    v = res.value
    data.update({"rescued": v.rescued, "points": v.points, "tokens_spent": v.tokens,
                 "springshrooms_spent": v.springshrooms, "plan": [action_to_text(a, ed) for a in plan],
                 "objective": "most gnomes rescued, then most points, then fewest tokens + springshrooms spent",
                 "position": run_to_json(rep.final, ed)})
    if woke:
        data["woke_at_start"] = [e.to_json() for e in woke]
    if "inert" in res.stats:  # gnomes no card can wake here: solved without them first (docs: "Inert gnomes")
        data["inert_gnomes"] = {"left_out": res.stats["inert"], "answered_by": res.stats["route"]}
    effort = (f"{res.stats['states']} states" if "states" in res.stats
              else f"{res.stats.get('method')}, horizon {res.stats.get('horizon')}")
    found = (f"rescues {v.rescued}, points {v.points:+d}, tokens spent {v.tokens}, "
             f"springshrooms spent {v.springshrooms}")
    if optimal:
        lines = [f"optimal plan: {found} ({effort}, {res.seconds:.2f} s)"]
    else:  # anytime answer: the best plan found when the budget ran out, and the bound
        ub = res.stats["upper_bound"]
        data.update({"reason": res.stats.get("reason"), "upper_bound": ub, "best_from": res.stats.get("best_from")})
        lines = [f"unknown: {res.stats.get('reason')} ({effort}, {res.seconds:.2f} s)",
                 f"best plan found (NOT proven optimal): {found}",
                 f"upper bound: at most {ub['rescued']} rescued, at most {ub['points']:+d} points"]
    if "inert" in res.stats:
        how = {"relaxation": "its plan is legal with them", "frozen": "then solved with them left in place",
               "whole": "then the whole game was searched"}[str(res.stats["route"])]
        lines.append(f"({res.stats['inert']} gnomes no card in play can wake here were left out first; {how})")
    if woke:
        lines.append("at the start: " + _events(woke))
    if not plan:
        lines.append("  (no action improves on standing still)")
    for s in rep.steps:
        ev = _events(s.events)
        lines.append(f"{s.index + 1:3}. {action_to_text(s.action, ed):<24}" + (f" {ev}" if ev else ""))
        last = s is rep.steps[-1]  # the last step's board is the final position, printed once below
        if any(e.what == "rescue" for e in s.events) and not args.json and not last:
            lines.append("")
            lines.append(run_to_text(s.position, ed))
    if not args.json:
        lines.append("final position:")
        lines.append(run_to_text(rep.final, ed))
    return Answer(data, "\n".join(lines), OK if optimal else NO)


def cmd_to_run(args: argparse.Namespace) -> Answer:
    ed = load_edition(getattr(args, "edition", None))
    text, name = read_source(args.position)
    g = read_garden(text, name, ed)
    enchs = tuple(args.enchantments.split(",")) if args.enchantments else ed.first_game
    pos = run_position_from_garden(g, ed, enchs, args.points, tokens=args.tokens,
                                   springshroom_tokens=args.springshroom_tokens)
    probs = pos.problems(ed)
    if probs:
        raise UsageError("the running position is not well formed: " + "; ".join(probs))
    return Answer(run_to_json(pos, ed), "" if args.json else run_to_text(pos, ed))


def _read_once(args: argparse.Namespace) -> tuple[str, str]:
    """Read the position once; for stdin, put the text back so the original verb can read it."""
    text, name = read_source(args.position)
    if args.position == "-":
        sys.stdin = io.StringIO(text)
    return text, name


def _wrap(old: Verb, run_verb: Callable[[argparse.Namespace, str, str], Answer], forced: str | None = None) -> Verb:
    def verb(args: argparse.Namespace) -> Answer:
        text, name = _read_once(args)
        phase = getattr(args, "phase", None)
        if is_run_text(text) or (forced is not None and phase == forced):
            if phase not in (None, "run"):
                raise UsageError(f"--phase {phase} does not go with a running position")
            return run_verb(args, text, name)
        if getattr(args, "run_plan", None) is not None:
            raise UsageError("--plan needs a running position (header 'hedge-mage run' or JSON \"phase\": \"run\")")
        if phase == "run":
            raise UsageError("--phase run needs a running position (make one with `to-run GARDEN --points N`)")
        if phase == "round":  # hook: gnomekit/hedge_mage_round_cli.py
            from gnomekit.hedge_mage_round_cli import cmd_round_solve

            return cmd_round_solve(args, text, name)
        return old(args)

    return verb


def _show_run(args: argparse.Namespace, text: str, name: str) -> Answer:
    pos, ed, woke = _load(args, text, name)
    data = run_to_json(pos, ed)
    out = run_to_text(pos, ed) if not args.json else ""
    if woke:
        data["woke_at_start"] = [e.to_json() for e in woke]
        out += "\n# at the start: " + _events(woke)  # a comment: the output reads back as the position
    return Answer(data, out)


def _check_run(args: argparse.Namespace, text: str, name: str) -> Answer:
    if getattr(args, "method", "flood") != "flood":
        raise UsageError(f"--method {args.method} decides ground connectivity of a garden's placement; "
                         "a running position has none to decide")
    args.plan = args.run_plan
    return cmd_run_check(args, text, name)


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the running options to check/solve/show and the ``to-run`` verb."""
    choices = verbs.choices
    if "check" in choices:
        p = choices["check"]
        p.add_argument("--plan", dest="run_plan", metavar="PLAN",
                       help="running position: actions to execute (e.g. 'M1>3,4>3,5 M1+3,6 T'), or @FILE")
        p.set_defaults(func=_wrap(p.get_default("func"), _check_run))
    if "solve" in choices:
        p = choices["solve"]
        p.add_argument("--phase", choices=["build", "run", "round"],
                       help="run: the optimal maze-running plan of a running position (default for one)")
        p.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, metavar="N",
                       help="running: stop after N states with the best plan found so far, not proven optimal "
                       f"(status unknown, exit 1; default {DEFAULT_MAX_STATES}: seconds to about a minute)")
        p.add_argument("--run-method", choices=["search", "encoding"], default="search",
                       help="running: search (default) or encoding (z3 planning encoding, small positions; "
                       "--time-limit applies)")
        p.set_defaults(func=_wrap(p.get_default("func"), cmd_run_solve, forced="run"))
    if "show" in choices:
        p = choices["show"]
        p.set_defaults(func=_wrap(p.get_default("func"), _show_run))
    p = verbs.add_parser("to-run", help="a running position from a (rival's) garden: --points N",
                         description="Starts the maze running phase in this garden: the mages and gnomes as "
                         "drawn, the round's movement points, tokens held.")
    p.add_argument("position", help="garden file, or - for stdin")
    p.add_argument("--points", type=int, required=True, help="the round's movement points")
    p.add_argument("--tokens", type=int, default=None, help="movement tokens held (default: the edition's start)")
    p.add_argument("--springshroom-tokens", type=int, default=None,
                   help="springshroom tokens held (default: the edition's start)")
    p.add_argument("--enchantments", metavar="A,B,C", help="enchantment card ids (default: the first-game three)")
    add_common(p)
    p.set_defaults(func=cmd_to_run)
