"""The open-deck opening over every deck order: in how many deals does the first player force a win?

With open decks a forced win depends on the orders of the two moonlight decks.  Shuffled decks of
six cards (two of each terrain) can lie in 90 orders each, 8,100 deals in all, but a search for a
win within n of the first player's own turns only ever turns the first n - 1 cards of each deck:
the attacker's card is turned after each of its first n - 1 moves (its n-th move must win at
once, no flip is looked at), the defender's after each of its n - 1 replies.  So every deal with
the same two prefixes of n - 1 cards has the same answer, and one search per pair of prefixes
settles all of them; each pair stands for the number of orders of the cards left below it.

The position searched for a pair holds the prefixes as the known order and the rest of each deck
as unknown (``Position.known``/``unknown``): if a search ever turned a card below a prefix, that
flip would be a chance event that must go the attacker's way, so a win found is a win for every
completion.  The tests check the prefix argument itself against whole orders.

Answers per dance card: the share of deals (weighted by the orders they stand for) in which green
forces a win within n, the shortest win over all deals (the best deal for green), whether every
deal is a win (the worst deal), and the deals the budget left unknown (never counted as no-win).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from math import factorial
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import TERRAINS, MidnightEdition
from gnomekit.models.gnomes_at_midnight.position import Counts, Position
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.core.batch import Backend, BatchError, Progress, run_batch
from gnomekit.solver.core.budget import Budget, BudgetExhausted
from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher
from gnomekit.solver.gnomes_at_midnight.jit import TABLE_BYTES, JitSearcher, engine_name, searcher

Prefix = tuple[int, ...]


def prefixes(deck: Sequence[int], length: int) -> list[Prefix]:
    """Every distinct sequence of ``length`` cards that can lie on top of a shuffled ``deck``."""
    counts = [list(deck).count(t) for t in range(len(TERRAINS))]
    out: list[Prefix] = []

    def rec(acc: list[int]) -> None:
        if len(acc) == length:
            out.append(tuple(acc))
            return
        for t in range(len(counts)):
            if counts[t]:
                counts[t] -= 1
                rec(acc + [t])
                counts[t] += 1

    rec([])
    return out


def rest(deck: Sequence[int], prefix: Prefix) -> Counts:
    """The cards of ``deck`` below ``prefix``, per terrain."""
    left = [list(deck).count(t) for t in range(len(TERRAINS))]
    for t in prefix:
        left[t] -= 1
    if min(left) < 0:
        raise ValueError(f"the prefix {prefix} is not part of the deck {tuple(deck)}")
    return (left[0], left[1], left[2])


def orders(counts: Counts) -> int:
    """How many distinct orders the cards ``counts`` can lie in (a multinomial)."""
    out = factorial(sum(counts))
    for c in counts:
        out //= factorial(c)
    return out


def engine() -> str:
    """"numba" when the deal searches run compiled, else "python" (same answers either way)."""
    from gnomekit.solver.gnomes_at_midnight.jit import available

    return "numba" if available() else "python"


def prefix_text(prefix: Prefix) -> str:
    return " ".join(TERRAINS[t] for t in prefix) or "-"


@dataclass
class Deal:
    """One pair of deck prefixes and its answer."""

    green: Prefix
    blue: Prefix
    weight: int  # deals (whole order pairs) it stands for
    status: str  # "win", "no-win", "unknown"
    turns: int | None = None
    nodes: int = 0


@dataclass
class DealsRow:
    """One dance card over every deal."""

    dance: str
    within: int
    deals: int = 0  # prefix pairs searched
    orders: int = 0  # whole deals they stand for
    win_orders: int = 0
    unknown_orders: int = 0
    shortest: int | None = None
    best: Deal | None = None  # a deal with the shortest win
    worst: Deal | None = None  # a deal with no forced win (or an unknown one), None when every deal wins
    by_turns: dict[int, int] = field(default_factory=dict)  # win length -> deals (orders) winning so
    no_win: list[Deal] = field(default_factory=list)  # every prefix pair without a win (for hidden_bound)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def every_deal_wins(self) -> bool:
        return self.win_orders == self.orders

    def to_json(self) -> dict[str, Any]:
        def deal(d: Deal | None) -> dict[str, Any] | None:
            if d is None:
                return None
            return {"green_top": [TERRAINS[t] for t in d.green], "blue_top": [TERRAINS[t] for t in d.blue],
                    "status": d.status, "turns": d.turns}

        return {"dance": self.dance, "within": self.within, "prefix_pairs": self.deals, "deals": self.orders,
                "win_deals": self.win_orders, "unknown_deals": self.unknown_orders,
                "no_win_deals": self.orders - self.win_orders - self.unknown_orders,
                "win_share": round(self.win_orders / self.orders, 6) if self.orders else None,
                "shortest_win": self.shortest, "best_deal": deal(self.best),
                "every_deal_wins": self.every_deal_wins, "worst_deal": deal(self.worst),
                "wins_by_turns": {str(k): v for k, v in sorted(self.by_turns.items())},
                "nodes": self.nodes, "seconds": round(self.seconds, 3)}


def deck_left(base: Position, side: int) -> tuple[int, ...]:
    """The cards still in ``side``'s deck (known and unknown), sorted."""
    return tuple(t for t, c in enumerate(base.deck_cards(side)) for _ in range(c))


def below(base: Position, side: int, seq: Prefix) -> Counts:
    """The cards whose order stays unknown below ``seq`` on ``side``'s deck.

    ``seq`` may run past the deck: its cards beyond the deck's are the first of the reshuffled
    (whole, edition's) deck, so the unknown cards are the rest of that reshuffled deck."""
    deck = deck_left(base, side)
    if len(seq) <= len(deck):
        return rest(deck, seq)
    rest(deck, seq[:len(deck)])  # the first part must be a whole order of the deck
    return rest(base.full_decks[side], seq[len(deck):])


def deal_position(base: Position, green: Prefix, blue: Prefix) -> Position:
    """``base`` with these cards on top of the decks and the rest of each deck unknown.

    A sequence longer than its deck fixes the reshuffled deck's top cards too (:func:`below`)."""
    return replace(base, known=(green, blue), unknown=(below(base, 0, green), below(base, 1, blue)))


def reshuffled(base: Position, side: int, order: Prefix) -> Prefix:
    """A whole order of ``side``'s deck followed by one of the reshuffled deck: the same cards in
    the same order, then the full deck's others in terrain order (the same order again at setup).

    Any order of the reshuffled deck gives a sound certificate (one sequence of flips out of
    all); repeating the order is the one tried (measured 2026-12-03: zigzag settled at 12 in
    100 s, square in 230 s, where the whole order alone took 1,150-2,800 s)."""
    counts = rest(base.full_decks[side], order)
    return order + order + tuple(t for t in range(len(TERRAINS)) for _ in range(counts[t]))


def search_deal(pos: Position, within: int, budget: Budget | None) -> tuple[str, int | None, int]:
    """(status, shortest win or None, nodes) of one deal's position, deepening 1..within.

    The compiled search when numba is there (``jit.searcher``), else the fast alpha-beta: the same
    search, so the same answers and nodes; :func:`engine` says which runs."""
    e = FastEngine(pos)
    sr = searcher(e, meter=budget.meter() if budget is not None else None)
    s = e.state(pos)
    try:
        n = sr.shortest(s, within)
    except BudgetExhausted:
        return "unknown", None, sr.nodes
    return ("win", n, sr.nodes) if n is not None else ("no-win", None, sr.nodes)


def _task(base: Position, within: int, budget: Budget | None, blues: Sequence[Prefix],
          green: Prefix) -> list[Deal]:
    """Every blue prefix under one green prefix (one batch task)."""
    gw = orders(rest(deck_left(base, 0), green))
    out = []
    for blue in blues:
        status, turns, nodes = search_deal(deal_position(base, green, blue), within, budget)
        out.append(Deal(green, blue, gw * orders(rest(deck_left(base, 1), blue)), status, turns, nodes))
    return out


def every_deal(edition: MidnightEdition, dance: str, within: int, budget: Budget | None = None,
               backend: Backend | None = None,
               progress: Callable[[Progress], None] | None = None, base: Position | None = None) -> DealsRow:
    """Green's forced wins within ``within`` own turns over every deck order, for one dance card.

    ``budget`` applies to each deal's search (a deal cut short is unknown).  One batch task per
    green prefix on ``backend``.  ``base``: the position to search from (default: the setup of
    ``dance``; given, ``dance`` only names the row), its decks' remaining cards dealt.  Raises
    :class:`BatchError` (its ``partial`` the row of the deals that finished) when a task failed or
    the batch was interrupted.
    """
    if base is None and edition.dance_card(dance) is None:
        raise UsageError(f"unknown dance card {dance!r}; the edition has: "
                         + ", ".join(d.name for d in edition.dance), text=dance)
    if within < 1:
        raise UsageError(f"the turn limit must be 1 or more, not {within}")
    t0 = time.monotonic()
    if base is None:
        base = new_position(edition, 0, dance=dance)
    length = within - 1
    greens = prefixes(deck_left(base, 0), length)
    blues = prefixes(deck_left(base, 1), length)
    batch = run_batch(partial(_task, base, within, budget, blues), greens, backend, progress)
    row = DealsRow(dance, within)
    for deals in batch.values():
        for d in deals:
            row.deals += 1
            row.orders += d.weight
            row.nodes += d.nodes
            if d.status == "win":
                assert d.turns is not None
                row.win_orders += d.weight
                row.by_turns[d.turns] = row.by_turns.get(d.turns, 0) + d.weight
                if row.shortest is None or d.turns < row.shortest:
                    row.shortest, row.best = d.turns, d
            else:
                if d.status == "unknown":
                    row.unknown_orders += d.weight
                else:
                    row.no_win.append(d)
                if row.worst is None or (row.worst.status == "unknown" and d.status == "no-win"):
                    row.worst = d
    row.seconds = time.monotonic() - t0
    if not batch.complete:
        raise BatchError(batch, row)
    return row


def row_text(row: DealsRow) -> list[str]:
    """The row's cells in words: deals, share with a win, shortest (best deal), every deal, unknown."""
    share = f"{100 * row.win_orders / row.orders:.1f}% ({row.win_orders:,} of {row.orders:,})" if row.orders else "-"
    if row.best is not None:
        best = f"{row.shortest} (green {prefix_text(row.best.green)}; blue {prefix_text(row.best.blue)})"
    else:
        best = "none"
    if row.every_deal_wins:
        worst = "yes"
    elif row.worst is not None and row.worst.status == "no-win":
        worst = f"no (green {prefix_text(row.worst.green)}; blue {prefix_text(row.worst.blue)})"
    else:
        worst = "unknown"
    return [row.dance, str(row.within), share, best, worst, f"{row.unknown_orders:,}"]


HEADER = ["dance", "within", "deals with a forced win", "shortest win (best deal, top cards)",
          "every deal wins?", "unknown deals"]


# -------------------------------------------------------------------------------------------------
# Hidden decks: "no forced win within n", certified by a deal


@dataclass
class HiddenBound:
    """Hidden decks: no forced win within ``within`` turns, because of the deal ``green``/``blue``.

    The certificate: with these cards on top of the decks (the top cards, or a whole order; the
    rest of each deck still unknown, every later flip a chance event, a reshuffle too), green has
    no forced win within ``within``.  A forced win under hidden decks must win under every flip,
    so also under the flips that start with these cards; there is none, so there is no
    hidden-deck win either.  ``None`` deal: no candidate stayed without a win past the start depth.
    """

    dance: str
    within: int
    green: Prefix | None = None
    blue: Prefix | None = None
    tried: int = 0  # (deal, depth) searches run
    nodes: int = 0
    seconds: float = 0.0
    exhausted: str | None = None  # what stopped the deepening before max_turns, None when max_turns was reached
    # why, as a word: a BudgetExhausted kind ("states", "seconds", ...) or "deals" (no candidate left)
    stopped_by: str | None = None
    engine: str = "python"
    # with the reshuffle fixed too: how many cards of each side's sequence are its deck's (the
    # rest are the reshuffled deck's first cards); None when no sequence runs past its deck
    reshuffle_at: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        deal: dict[str, Any] | None = None
        if self.green is not None and self.blue is not None:
            deal = {"green_top": [TERRAINS[t] for t in self.green], "blue_top": [TERRAINS[t] for t in self.blue]}
            if self.reshuffle_at is not None and (len(self.green) > self.reshuffle_at[0]
                                                  or len(self.blue) > self.reshuffle_at[1]):
                deal["reshuffle_at"] = list(self.reshuffle_at)
        return {"dance": self.dance, "no_win_within": self.within, "deal": deal,
                "searches": self.tried, "nodes": self.nodes, "seconds": round(self.seconds, 3),
                "exhausted": self.exhausted, "stopped_by": self.stopped_by, "engine": self.engine}


def completions(base: Position, green: Prefix, blue: Prefix) -> list[tuple[Prefix, Prefix]]:
    """Every whole order of both decks that starts with these top cards (up to 36 when three of
    six are fixed; the candidates take 36 at most a deal)."""
    def whole(side: int, top: Prefix) -> list[Prefix]:
        left = rest(deck_left(base, side), top)
        return [top + tail for tail in prefixes([t for t in range(3) for _ in range(left[t])], sum(left))]

    return [(g, b) for g in whole(0, green) for b in whole(1, blue)]


def hidden_bound(edition: MidnightEdition, dance: str, start: DealsRow, max_turns: int,
                 budget: Budget | None = None, keep: int = 3, base: Position | None = None,
                 complete: int = 12, reshuffle: bool = False,
                 trace: Callable[[Prefix, Prefix, int, bool, int, float], None] | None = None) -> HiddenBound:
    """Deepen the deals of ``start`` (an :func:`every_deal` row) that have no win, one turn at a time.

    The candidates: the whole orders of both decks below the ``complete`` cheapest deals of
    ``start`` (:func:`completions`; measured 3-35x fewer nodes than their top cards alone at 8
    turns: with no chance event before the reshuffle the search has fewer states), then the deals
    of ``start`` themselves.  At each depth the candidates still without a win are searched in
    order (fewest nodes first) until ``keep`` of them hold (at ``max_turns`` one: no deeper depth
    needs the spares); the depth is certified as soon as one holds.  ``budget`` covers the whole
    deepening; when it runs out the answer is the last depth certified (with ``exhausted``).
    With ``reshuffle`` the candidates are those whole orders each followed by an order of the
    reshuffled deck (:func:`reshuffled`): no flip is a chance event within 12 turns, so a search
    often costs far fewer nodes (zigzag at 12: 77 million against over 1 billion), but green knows
    more, and on some cards wins (diamond within 10): a phase to try first, not a replacement.
    ``trace(green, blue, depth, won, nodes, seconds)`` is called after each finished search.
    """
    t0 = time.monotonic()
    if base is None:
        base = new_position(edition, 0, dance=dance)
    out = HiddenBound(dance, start.within if start.no_win else 0)
    if not start.no_win or start.unknown_orders:
        out.exhausted = "no deal without a win to deepen" if not start.no_win else "the start row has unknown deals"
        out.stopped_by = "deals"
        if start.unknown_orders:
            out.within = 0
        return out
    meter = budget.meter() if budget is not None else None
    first = start.no_win[0]
    out.green, out.blue = first.green, first.blue
    searchers: dict[tuple[Prefix, Prefix], tuple[FastSearcher | JitSearcher, Any]] = {}
    cands = sorted(start.no_win, key=lambda d: d.nodes)
    cost = {(d.green, d.blue): d.nodes for d in cands}
    pairs = [(d.green, d.blue) for d in cands]
    whole = [c for d in cands[:complete] for c in completions(base, d.green, d.blue)[:36] if c not in cost]
    if reshuffle:
        whole = [(reshuffled(base, 0, g), reshuffled(base, 1, b)) for g, b in whole]
        pairs = []
        out.reshuffle_at = (len(deck_left(base, 0)), len(deck_left(base, 1)))
    cost.update({c: 0 for c in whole})
    pairs = whole + pairs
    try:
        for n in range(start.within + 1, max_turns + 1):
            held: list[tuple[Prefix, Prefix]] = []
            tested: set[tuple[Prefix, Prefix]] = set()
            for pair in pairs:
                tested.add(pair)
                if pair not in searchers:
                    pos = deal_position(base, *pair)
                    e = FastEngine(pos)
                    made = searcher(e, meter=meter)
                    if isinstance(made, JitSearcher):  # up to ``keep`` tables live at once
                        made.max_table_bytes = TABLE_BYTES // max(1, keep)
                    searchers[pair] = (made, e.state(pos))
                    out.engine = engine_name(searchers[pair][0])
                sr, st = searchers[pair]
                before, began = sr.nodes, time.monotonic()
                out.tried += 1
                try:
                    won = sr.win(st, n)
                finally:
                    out.nodes += sr.nodes - before
                cost[pair] = sr.nodes - before
                if trace is not None:
                    trace(*pair, n, won, cost[pair], time.monotonic() - began)
                if not won:
                    held.append(pair)
                    if len(held) == 1:
                        out.within, (out.green, out.blue) = n, pair
                    if len(held) >= (1 if n == max_turns else keep):  # the last depth needs one
                        break
            if not held:
                out.exhausted = f"every deal tried has a win within {n}"
                out.stopped_by = "deals"
                break
            # next depth: the deals that held (cheapest first), then those not reached at this depth
            # (no win within n + 1 certifies n + 1 whatever n showed); deals that won are dropped
            pairs = sorted(held, key=lambda p: cost[p]) + [p for p in pairs if p not in tested]
            for gone in [p for p in searchers if p not in held]:  # a deal that won: free its table
                del searchers[gone]
    except BudgetExhausted as exc:
        out.exhausted, out.stopped_by = exc.what, exc.kind
    out.seconds = time.monotonic() - t0
    return out
