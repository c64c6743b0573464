"""Maze running at the command line: ``check POS --plan PLAN``, ``solve POS [--phase run]``, ``show``, ``to-run``.

The verbs are :class:`gnomekit.hedge_mage_cli.HedgeMageCLI`'s, which reads a running position
(text header ``hedge-mage run`` or JSON ``"phase": "run"``) and hands it here, settled, with who
woke at the start; this module adds the running options and puts the answers in words.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from gnomekit.common import NO, OK, Answer, add_common, budget, read_source
from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.game import RunningPosition
from gnomekit.models.hedge_mage.running import Event, PlanReport, RunPosition, execute_plan, running_score
from gnomekit.models.hedge_mage.running_notation import action_to_text, parse_plan, run_to_json, run_to_text

# seconds on setup gardens, 2-3 minutes on mid-game ones with the edition's tokens (about 1,000 states a
# second there; measured on the loaded 2-core machine, docs/rules/hedge-mage-running.md "Solving");
# beyond it the answer is the best plan found so far
DEFAULT_MAX_STATES = 150_000


def plan_text(p: str) -> tuple[str, str]:
    """The plan's text and its name in messages: the ``--plan`` value, or the file of ``@FILE``."""
    if p.startswith("@"):
        try:
            return read_source(p[1:])
        except UsageError as exc:  # the file is named by the option: say which option
            raise UsageError(f"{exc.message} (--plan @FILE reads the plan from FILE)", source="--plan") from None
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


def check_answer(position: RunningPosition, woke: list[Event], args: argparse.Namespace) -> Answer:
    """``check RUN --plan PLAN``: the plan executed (legal, or the first illegal action with every reason)."""
    pos, ed = position.run, position.game.edition
    if args.run_plan is None:  # an empty plan ('' or '[]', as solve may print) is a plan
        raise UsageError("check on a running position needs --plan PLAN (actions, or @FILE)")
    ptext, pname = plan_text(args.run_plan)
    plan = parse_plan(ptext, ed, pname)
    rep = execute_plan(pos, ed, plan)
    if rep.failed is not None and rep.failed < len(plan):
        rep.failed_action = action_to_text(plan[rep.failed], ed)
    return report_answer(rep, ed, woke, args.json)


def solve_answer(position: RunningPosition, woke: list[Event], args: argparse.Namespace) -> Answer:
    """``solve RUN``: the optimal running plan (or, at the state budget, the best found and the bound)."""
    from gnomekit.solver.core.result import Status
    from gnomekit.solver.hedge_mage.running import solve_run

    pos, ed = position.run, position.game.edition
    if pos.transit is not None:  # pragma: no cover - the notation cannot express it
        raise UsageError("the position has a character passing through another")
    if getattr(args, "run_method", "search") == "encoding":  # the second exact method (small positions)
        from gnomekit.solver.hedge_mage.run_encoding import solve_run_encoding
        res = solve_run_encoding(pos, ed, time_limit=args.time_limit, shortest=True)
    else:
        if getattr(args, "time_limit", None) is not None:  # not silently ignored
            raise UsageError("--time-limit applies to --run-method encoding; the running search is bounded by "
                             "--max-states")
        shown = None if args.json else _progress_line()
        res = solve_run(pos, ed, max_states=budget(args.max_states, "--max-states"), progress=shown)
        _done(shown)
    data: dict[str, Any] = {"phase": "run", "status": str(res.status), "method": res.stats.get("method", "search"),
                            "states": res.stats.get("states"), "seconds": round(res.seconds, 3)}
    optimal = res.status == Status.OPTIMAL
    if not optimal and res.witness is None:
        data.update({"rescued": None, "points": None, "plan": None, "reason": res.stats.get("reason")})
        states = res.stats.get("states")
        counted = f" ({states} states)" if states is not None else f" ({res.seconds:.1f} s)"
        return Answer(data, f"unknown: {res.stats.get('reason')}{counted}", NO)
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


def show_answer(position: RunningPosition, woke: list[Event], as_json: bool) -> Answer:
    """``show RUN``: the settled position, who woke at the start as a comment line (it reads back)."""
    pos, ed = position.run, position.game.edition
    data = run_to_json(pos, ed)
    out = run_to_text(pos, ed) if not as_json else ""
    if woke:
        data["woke_at_start"] = [e.to_json() for e in woke]
        out += "\n# at the start: " + _events(woke)  # a comment: the output reads back as the position
    return Answer(data, out)


def check_options(p: argparse.ArgumentParser) -> None:
    """``check``'s running option: the plan to execute."""
    p.add_argument("--plan", dest="run_plan", metavar="PLAN",
                   help="running position: actions to execute (e.g. 'M1>3,4>3,5 M1+3,6 T'), or @FILE")


def solve_options(p: argparse.ArgumentParser) -> None:
    """``solve``'s running options: the phase, the state budget, the method."""
    p.add_argument("--phase", choices=["build", "run", "round"],
                   help="run: the optimal maze-running plan of a running position (default for one)")
    p.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, metavar="N",
                   help="running: stop after N states with the best plan found so far, not proven optimal "
                   f"(status unknown, exit 1; default {DEFAULT_MAX_STATES}: seconds on setup gardens, 2-3 minutes "
                   "on mid-game ones with tokens)")
    p.add_argument("--run-method", choices=["search", "encoding"], default="search",
                   help="running: search (default) or encoding (z3 planning encoding, small positions; "
                   "--time-limit applies)")


def to_run_parser(verbs: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``to-run`` verb's parser (the verb itself is ``HedgeMageCLI.cmd_to_run``)."""
    p: argparse.ArgumentParser = verbs.add_parser(
        "to-run", help="a running position from a (rival's) garden: --points N",
        description="Starts the maze running phase in this garden: the mages and gnomes as "
        "drawn, the round's movement points, tokens held.")
    p.add_argument("position", help="garden file, or - for stdin")
    p.add_argument("--points", type=int, required=True, help="the round's movement points")
    p.add_argument("--tokens", type=int, default=None, help="movement tokens held (default: the edition's start)")
    p.add_argument("--springshroom-tokens", type=int, default=None,
                   help="springshroom tokens held (default: the edition's start)")
    p.add_argument("--enchantments", metavar="A,B,C", help="enchantment card ids (default: the first-game three)")
    add_common(p)
    return p
