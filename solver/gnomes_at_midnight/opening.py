"""The opening of Gnomes at Midnight, settled as far as a budget allows: one row per dance card
and deck mode, "first player wins in n" (with a checked proof tree) or "no forced win within n".

Open decks: the deck orders of ``new_position(edition, seed, dance)`` for each seed given.  Hidden
decks: nobody knows the orders (every flip a chance event; one row per card, the seed plays no
part).  Each row deepens n = 1, 2, ... on the fast engine until a win is found, ``max_turns`` is
disproven, or its budget runs out (then the row is ``unknown`` with the depth disproven so far,
never "no").  Method ``ab`` is the fast AND-OR alpha-beta: compiled (``jit.JitSearcher``) when
numba is installed, else ``fast.FastSearcher`` (the same search, the same nodes; each row says which
ran in ``engine``); ``jit`` insists on the compiled one; ``pns`` is the df-pn of ``pns.py``.  All
answer the same question (the tests compare them); ``ab`` is the default because it was measured
faster on these disproof-heavy questions (docs/midnight-opening.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import COLOURS, MidnightEdition
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.core.batch import Backend, BatchError, Progress, run_batch
from gnomekit.solver.core.budget import Budget, BudgetExhausted
from gnomekit.solver.gnomes_at_midnight import jit
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine

METHODS = ("ab", "jit", "pns")


@dataclass
class OpeningRow:
    """One dance card under one deck mode (and, for open decks, one seed's deck orders)."""

    dance: str
    decks: str
    seed: int | None
    status: str  # "win", "no-win" (none within no_win_within = max_turns), "unknown"
    turns: int | None = None
    no_win_within: int = 0
    first_move: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    exhausted: str | None = None
    budget_out: bool = True  # an unknown row: did a budget stop it (else ``exhausted`` says what did)
    stopped_by: str | None = None  # the direct search's exhausted budget kind (``BudgetExhausted.kind``)
    proof: str | None = None
    proof_checked: bool | None = None
    proof_nodes: int | None = None
    proof_problems: list[str] = field(default_factory=list)
    engine: str = "python"  # which engine searched: "numba" (jit.JitSearcher) or "python"
    # hidden decks: the deal certificate (``deals.hidden_bound``), when it was tried
    certificate: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"dance": self.dance, "decks": self.decks, "seed": self.seed, "status": self.status,
                "turns": self.turns, "no_win_within": self.no_win_within, "first_move": self.first_move,
                "nodes": self.nodes, "seconds": round(self.seconds, 3), "exhausted": self.exhausted,
                "proof": self.proof, "proof_checked": self.proof_checked, "proof_nodes": self.proof_nodes,
                "proof_problems": self.proof_problems, "engine": self.engine, "certificate": self.certificate}

    def text(self) -> str:
        """The row's answer in words."""
        if self.status == "win":
            checked = {True: ", proof checked", False: ", PROOF FAILED", None: ""}[self.proof_checked]
            return f"win in {self.turns}: {self.first_move}{checked}"
        by = ""
        c = self.certificate
        if c is not None and c.get("deal") and c["no_win_within"] == self.no_win_within and c["no_win_within"] > 0:
            at = c["deal"].get("reshuffle_at", [None, None])

            def cards(top: list[str], cut: int | None) -> str:
                if cut is None or len(top) <= cut:
                    return " ".join(top)
                return " ".join(top[:cut]) + ", reshuffled " + " ".join(top[cut:])

            by = (f", shown on the deal green {cards(c['deal']['green_top'], at[0])}; "
                  f"blue {cards(c['deal']['blue_top'], at[1])}")
        if self.status == "no-win":
            return f"no forced win within {self.no_win_within}{by}"
        why = "budget" if self.budget_out else "stopped"
        return f"unknown (no forced win within {self.no_win_within}{by}; {why}: {self.exhausted})"


def _search(pos: Position, decks: str, max_turns: int, budget: Budget, method: str,
            row: OpeningRow) -> None:
    """Deepen until a win, ``max_turns`` disproven, or the budget runs out; fill ``row``."""
    p = pos.hidden() if decks == "hidden" else pos
    if method != "pns" and jit.available():
        jit.warm_up()  # compile or load the kernel before the row's clock starts
    meter = budget.meter()
    if method == "pns":
        from gnomekit.solver.gnomes_at_midnight.pns import run

        r = run(pos, max_turns, decks, meter).result
        row.nodes = int(r.stats.get("nodes", 0))
        row.no_win_within = int(r.stats.get("no_win_within", 0) or 0)
        row.exhausted = r.stats.get("exhausted")
        kind = r.stats.get("exhausted_kind")
        row.stopped_by = kind if isinstance(kind, str) else None
        if r.value is not None:
            row.status, row.turns, row.first_move = "win", r.value, r.witness
            row.no_win_within = r.value - 1
        else:
            row.status = "no-win" if row.exhausted is None else "unknown"
        return
    e = FastEngine(p)
    sr = jit.searcher(e, meter=meter, prefer="numba" if method == "jit" else "auto")
    row.engine = jit.engine_name(sr)
    s = e.state(p)
    try:
        for n in range(1, max_turns + 1):
            if sr.win(s, n):
                row.status, row.turns = "win", n
                sr.meter = None
                m = next(m for m in e.moves(s) if e.wins(s, m) or (
                    n > 1 and all(sr.loses(c, n - 1) for _t, _w, c in e.children(s, m))))
                row.first_move = e.move_text(m)
                break
            row.no_win_within = n
        else:
            row.status = "no-win"
    except BudgetExhausted as exc:
        row.status, row.exhausted, row.stopped_by = "unknown", exc.what, exc.kind
    row.nodes = sr.nodes


RESHUFFLE_SHARE = 0.15  # hidden rows: the certificate's share for deals fixed through the reshuffle
DIRECT_SHARE = 0.25  # hidden rows: the direct search's least share of the row's seconds (after the certificate)


def _certify(edition: MidnightEdition, name: str, pos: Position, max_turns: int, budget: Budget,
             row: OpeningRow, row_seconds: float | None = None) -> None:
    """Deepen ``row`` (hidden decks, no win found) with a deal certificate within ``budget``."""
    from gnomekit.solver.gnomes_at_midnight.deals import engine as deals_engine
    from gnomekit.solver.gnomes_at_midnight.deals import every_deal, hidden_bound

    if row.no_win_within >= max_turns or (budget.seconds is not None and budget.seconds <= 0):
        return
    t0 = time.perf_counter()
    try:
        start = every_deal(edition, name, min(START_DEPTH, max_turns), budget, base=pos)
    except BatchError as err:  # in-process: only Ctrl-C (a failing deal search is a bug, raised)
        if err.interrupted:
            raise KeyboardInterrupt from None
        raise

    def left() -> float | None:
        return None if budget.seconds is None else max(0.0, budget.seconds - (time.perf_counter() - t0))

    # first the deals fixed through the reshuffle (cheap when they hold), then the plain ones
    first, states = left(), budget.states
    phase = Budget(states=None if states is None else int(states * RESHUFFLE_SHARE),
                   seconds=None if first is None else first * RESHUFFLE_SHARE)
    hb = hidden_bound(edition, name, start, max_turns, phase, base=pos, reshuffle=True)
    phases = [hb]
    if hb.within < max_turns:
        rest = Budget(states=None if states is None else max(0, states - hb.nodes), seconds=left())
        plain = hidden_bound(edition, name, start, max_turns, rest, base=pos)
        phases.append(plain)
        if plain.within >= hb.within:
            hb = plain
    row.certificate = {**hb.to_json(), "start_deals": start.deals, "start_nodes": start.nodes,
                       "phases": [{"reshuffle": p is phases[0], **p.to_json()} for p in phases]}
    row.engine = deals_engine()  # every_deal's and hidden_bound's searches
    row.nodes += start.nodes + sum(p.nodes for p in phases)
    if hb.within > row.no_win_within:
        row.no_win_within = hb.within
    if row.no_win_within >= max_turns:
        row.status, row.exhausted = "no-win", None
    elif hb.exhausted is not None:
        # the row's time when the clock stopped it; else what did (a node budget)
        timed = row_seconds is not None and hb.stopped_by == "seconds"
        row.exhausted = f"{row_seconds:g} s" if timed else hb.exhausted
        row.budget_out = hb.stopped_by != "deals"


def _hidden_row(edition: MidnightEdition, name: str, pos: Position, max_turns: int, budget: Budget,
                method: str, row: OpeningRow, t0: float) -> None:
    """A hidden-deck row: the deal certificate first (its share of the time), then the direct search.

    The certificate settles some cards at ``max_turns`` in seconds (tee, ell, skew: under 2 s at 12,
    where the direct search spent its whole quarter first); it can never show a win, so when it
    stops short the direct search gets the rest of the row's time (at least ``DIRECT_SHARE``) to
    find one, and the row keeps the deeper "no forced win within" of the two.
    """
    cert_share = None if budget.seconds is None else budget.seconds * (1.0 - DIRECT_SHARE)
    _certify(edition, name, pos, max_turns, Budget(states=budget.states, seconds=cert_share), row,
             budget.seconds)
    if row.status == "no-win":
        return
    left = None if budget.seconds is None else max(0.0, budget.seconds - (time.perf_counter() - t0))
    direct = OpeningRow(row.dance, row.decks, row.seed, "unknown")
    _search(pos, "hidden", max_turns, Budget(states=budget.states, seconds=left), method, direct)
    row.nodes += direct.nodes
    if direct.engine != "numba":  # the row names the slower engine when the two differ
        row.engine = direct.engine
    if direct.status == "win":
        assert direct.turns is not None
        if direct.turns <= row.no_win_within:  # pragma: no cover - the certificate is sound (tested)
            raise RuntimeError(f"{name}: hidden win in {direct.turns} but a deal shows none within "
                               f"{row.no_win_within}")
        row.status, row.turns, row.first_move = "win", direct.turns, direct.first_move
        row.no_win_within, row.exhausted = direct.turns - 1, None
        return
    row.no_win_within = max(row.no_win_within, direct.no_win_within)
    if direct.status == "no-win" or row.no_win_within >= max_turns:
        row.status, row.exhausted = "no-win", None
    else:
        row.status = "unknown"
        if row.exhausted is None or not row.budget_out:  # the direct search's budget stopped the row
            timed = budget.seconds is not None and direct.stopped_by == "seconds"
            row.exhausted = f"{budget.seconds:g} s" if timed else direct.exhausted
            row.budget_out = True


START_DEPTH = 4  # the certificate's candidate deals: those without a win within 4 (top 3 cards fixed)


def settle_opening(edition: MidnightEdition, *, dances: Sequence[str] | None = None,
                   decks: Sequence[str] = ("open", "hidden"), seeds: Sequence[int] = (0,),
                   max_turns: int = 12, budget: Budget | None = None, method: str = "ab",
                   proof_dir: Path | None = None, proof_max_nodes: int = 200_000,
                   certify: bool = True, backend: Backend | None = None,
                   progress: Callable[[Progress], None] | None = None) -> list[OpeningRow]:
    """One row per dance card x deck mode (x seed, for open decks); ``budget`` is per row.

    The rows are independent tasks on ``backend`` (in-process by default; the hidden rows are
    handed out first), each with its own budget, so the answers do not depend on the backend.
    A row that raised, or Ctrl-C, is a :class:`BatchError` whose ``partial`` holds the rows
    that finished.

    Hidden decks with ``certify``: a deal certificate first (``deals.hidden_bound``: a deal under
    which green, even knowing the top cards, has no win within n; a hidden-deck win would be one),
    for three quarters of the row's time; when it does not reach ``max_turns``, the direct search
    gets the rest (it alone can find a win), and the row's "no forced win within" is the deeper of
    the two.

    With ``proof_dir`` every win is exported there as a proof tree (``<card>-<decks>[-s<seed>].json.gz``)
    and replayed by the independent checker (``proof.check_proof``); the row records the outcome.
    """
    if method not in METHODS:
        raise UsageError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if method == "jit" and not jit.available():
        raise UsageError(f"method 'jit' needs numba: {jit.unavailable_reason()}")
    if max_turns < 1:
        raise UsageError(f"max_turns must be 1 or more, not {max_turns}")
    for d in decks:
        if d not in ("open", "hidden"):
            raise UsageError(f"decks must be 'open' or 'hidden', not {d!r}")
    names = list(dances) if dances is not None else [d.name for d in edition.dance]
    for name in names:
        if edition.dance_card(name) is None:
            raise UsageError(f"unknown dance card {name!r}; the edition has: "
                             + ", ".join(d.name for d in edition.dance))
    budget = budget or Budget(seconds=20.0)
    jobs = [_RowJob(name, mode, seed)
            for name in names for mode in decks
            for seed in (seeds if mode == "open" else (seeds[0] if seeds else 0,))]
    # hidden rows first: they are the long ones, so a pool packs the short open rows in beside them
    order = sorted(range(len(jobs)), key=lambda i: jobs[i].decks != "hidden")
    task = partial(_settle_row, edition, max_turns, budget, method, proof_dir, proof_max_nodes, certify)
    batch = run_batch(task, [jobs[i] for i in order], backend, progress)
    rows: list[OpeningRow | None] = [None] * len(jobs)
    for k, row in batch.items():
        rows[order[k]] = row
    done = [r for r in rows if r is not None]
    if not batch.complete:
        raise BatchError(batch, partial=done)
    return done


@dataclass(frozen=True)
class _RowJob:
    """One row to settle: a dance card, a deck mode and (open decks) a seed."""

    dance: str
    decks: str
    seed: int


def _settle_row(edition: MidnightEdition, max_turns: int, budget: Budget, method: str,
                proof_dir: Path | None, proof_max_nodes: int, certify: bool, job: _RowJob) -> OpeningRow:
    """One row of :func:`settle_opening` (a batch task: picklable arguments, any process)."""
    from gnomekit.solver.gnomes_at_midnight.proof import ProofTooLarge, check_proof, export_proof, write_proof

    name, mode, seed = job.dance, job.decks, job.seed
    pos = new_position(edition, seed, dance=name)
    row = OpeningRow(name, mode, seed if mode == "open" else None, "unknown")
    t0 = time.perf_counter()
    if mode == "hidden" and certify:
        _hidden_row(edition, name, pos, max_turns, budget, method, row, t0)
    else:
        _search(pos, mode, max_turns, budget, method, row)
    row.seconds = time.perf_counter() - t0
    if row.status == "win" and proof_dir is not None and row.turns is not None:
        path = proof_dir / (f"{name}-{mode}" + (f"-s{seed}" if mode == "open" else "") + ".json.gz")
        try:
            data = export_proof(pos, mode, row.turns, max_nodes=proof_max_nodes)
        except ProofTooLarge as exc:
            row.proof_problems.append(str(exc))
        else:
            write_proof(data, path)
            chk = check_proof(data)
            row.proof = str(path)
            row.proof_checked = chk.ok and chk.turns == row.turns
            row.proof_nodes = len(data["nodes"])
            row.proof_problems = chk.problems
    return row


def opening_json(edition: MidnightEdition, rows: list[OpeningRow], max_turns: int, method: str,
                 budget: Budget) -> dict[str, Any]:
    """The results table as one JSON object."""
    return {"edition": edition.name, "first": COLOURS[edition.first], "max_turns": max_turns, "method": method,
            "budget_per_row": {"states": budget.states, "seconds": budget.seconds},
            "rows": [r.to_json() for r in rows]}
