"""``gnomekit gnomes-at-midnight audit --opening``: the opening table (solver.gnomes_at_midnight.opening)
in words or JSON.  The audit verb adds these options with :func:`add_opening_options` and answers
with :func:`run_opening` when ``--opening`` is given."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from gnomekit.batch_cli import backend_of, bar, batch_answer
from gnomekit.common import NO, OK, Answer, table
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import MidnightEdition
from gnomekit.models.gnomes_at_midnight.game import make_game
from gnomekit.solver.core.batch import BatchError
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.gnomes_at_midnight.opening import METHODS, opening_json, settle_opening


def add_opening_options(p: argparse.ArgumentParser) -> None:
    """The options of ``audit --opening`` (all but ``--opening`` start with ``--opening-``)."""
    p.add_argument("--opening", action="store_true",
                   help="settle the opening: for every dance card, does the first player force a win?")
    p.add_argument("--opening-turns", type=int, default=12, metavar="N",
                   help="own turns searched at most (default 12)")
    p.add_argument("--opening-decks", choices=["open", "hidden", "both"], default="both",
                   help="deck modes (default both)")
    p.add_argument("--opening-seeds", default="0", metavar="S,S",
                   help="open decks: the deck orders of these setup seeds (default 0)")
    p.add_argument("--opening-dance", action="append", metavar="C1,C2",
                   help="only these dance cards (comma-separated or repeated; default every card of the edition)")
    p.add_argument("--opening-time-limit", type=float, default=8.0, metavar="S",
                   help="seconds per row (default 8; the rows are spread over --jobs)")
    p.add_argument("--opening-max-nodes", type=int, metavar="N", help="search nodes per row (default no limit)")
    p.add_argument("--opening-method", choices=list(METHODS), default="ab",
                   help="ab: the fast alpha-beta, compiled when numba is installed (default); jit: compiled only; "
                   "pns: df-pn")
    p.add_argument("--opening-deals", type=int, metavar="N",
                   help="open decks over every deal instead: per dance card, the share of deck orders with a "
                   "forced win within N own turns, the best and the worst deal (the time limit is then per deal)")
    p.add_argument("--opening-proofs", metavar="DIR",
                   help="write each win's proof tree there and replay it with the independent checker")


def _seeds(text: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError("expected seeds as whole numbers separated by commas", source="--opening-seeds",
                         text=text) from None
    if not out:
        raise UsageError("expected at least one seed", source="--opening-seeds", text=text)
    return out


def _budget(args: argparse.Namespace) -> Budget:
    s = args.opening_time_limit
    if s is not None and not (math.isfinite(s) and s > 0):
        raise UsageError("expected a finite number of seconds > 0", source="--opening-time-limit", text=str(s))
    n = args.opening_max_nodes
    if n is not None and n < 1:
        raise UsageError("expected a node budget >= 1", source="--opening-max-nodes", text=str(n))
    return Budget(states=n, seconds=s)


def run_opening(args: argparse.Namespace, edition: MidnightEdition | None = None) -> Answer:
    """The opening table; exit 0 when every row is settled (and every proof checked), else 1."""
    ed = edition or make_game(getattr(args, "edition", None)).edition
    if args.opening_turns < 1:
        raise UsageError("expected 1 or more", source="--opening-turns", text=str(args.opening_turns))
    decks = ("open", "hidden") if args.opening_decks == "both" else (args.opening_decks,)
    proof_dir = None
    if args.opening_proofs:
        proof_dir = Path(args.opening_proofs)
        if not proof_dir.is_dir():
            raise UsageError("no such directory", source="--opening-proofs", text=args.opening_proofs)
    budget = _budget(args)
    dances = None
    if args.opening_dance:
        dances = [x.strip() for arg in args.opening_dance for x in arg.split(",") if x.strip()]
        for card in dances:
            if ed.dance_card(card) is None:
                raise UsageError("unknown dance card; the edition has: " + ", ".join(d.name for d in ed.dance),
                                 source="--opening-dance", text=card)
    if args.opening_deals is not None:
        return _run_deals(args, ed, dances, budget)
    backend = backend_of(args)
    stop = None
    try:
        with bar("opening", args, "row") as show:
            rows = settle_opening(ed, dances=dances, decks=decks, seeds=_seeds(args.opening_seeds),
                                  max_turns=args.opening_turns, budget=budget, method=args.opening_method,
                                  proof_dir=proof_dir, backend=backend, progress=show)
    except BatchError as err:
        rows, stop = err.partial, err
    data = opening_json(ed, rows, args.opening_turns, args.opening_method, budget)
    data["backend"] = backend.to_json()
    lines = [f"opening of the {ed.name} edition: does the first player force a win within "
             f"{args.opening_turns} own turns?", ""]
    lines.append(table([[r.dance, r.decks + (f" (seed {r.seed})" if r.seed is not None else ""), r.text(),
                         f"{r.nodes:,}", f"{r.seconds:.1f}"] for r in rows],
                       ["dance", "decks", "answer", "nodes", "seconds"]))
    lines.append("")
    lines.append(_engine_line({r.engine for r in rows if args.opening_method != "pns"}))
    settled = all(r.status != "unknown" and r.proof_checked is not False for r in rows)
    if stop is not None:
        return batch_answer(data, "\n".join(lines), stop)
    if not settled:
        lines.append("")
        lines.append("unknown rows ran out of budget: raise --opening-time-limit to go deeper")
    return Answer(data, "\n".join(lines), OK if settled else NO)


def _run_deals(args: argparse.Namespace, ed: MidnightEdition, dances: list[str] | None, budget: Budget) -> Answer:
    """``--opening-deals N``: every dance card over every deal of the open decks."""
    from gnomekit.solver.gnomes_at_midnight.deals import HEADER, engine, every_deal, row_text

    within = args.opening_deals
    if not 1 <= within <= 12:
        raise UsageError("expected 1 to 12 own turns", source="--opening-deals", text=str(within))
    if args.opening_decks == "hidden":
        raise UsageError("every deal is about open decks; hidden decks have no deal to vary",
                         source="--opening-decks", text=args.opening_decks)
    for option, value, default in (("--opening-seeds", args.opening_seeds, "0"),
                                   ("--opening-proofs", args.opening_proofs, None)):
        if value != default:
            raise UsageError("not used with --opening-deals (every deal is searched; no proof is written)",
                             source=option, text=str(value))
    backend = backend_of(args)
    rows = []
    stop = None
    for name in dances or [d.name for d in ed.dance]:
        try:
            with bar(f"deals, {name}", args, "task") as show:
                rows.append(every_deal(ed, name, within, budget, backend, show))
        except BatchError as err:
            rows.append(err.partial)
            stop = err
            break
    data = {"edition": ed.name, "within": within, "decks": "open, every deal", "engine": engine(),
            "deal_budget": {"seconds": budget.seconds, "nodes": budget.states},
            "rows": [r.to_json() for r in rows]}
    lines = [f"opening of the {ed.name} edition over every deal of the open decks: does green force a win "
             f"within {within} own turns? (a deal: the orders of both moonlight decks; "
             f"a search turns only the top {within - 1} card(s) of each)", ""]
    lines.append(table([row_text(r) for r in rows], HEADER))
    lines.append("")
    lines.append(_engine_line({engine()}))
    answer = batch_answer(data, "\n".join(lines), stop)
    if stop is None and any(r.unknown_orders for r in rows):
        answer.text += ("\n\nunknown deals ran out of budget: raise --opening-time-limit or --opening-max-nodes "
                        "(both per deal)")
        answer.status = NO
    return answer


def _engine_line(engines: set[str]) -> str:
    """Which search engine ran, and how to get the compiled one when it did not."""
    if engines == {"numba"}:
        return "engine: compiled (numba)"
    if not engines:
        return "engine: df-pn (Python)"
    return ("engine: Python (the compiled search needs numba: pip install 'gnomekit[fast]'; "
            "same answers, 28-95x the nodes a second)")
