"""The best hedge placement this round: most movement points, hardest maze, a plan, a hint.

Which tiles the owner may place (``tile_options``): the revealed tile (or, when
the card names the tile given away by an earlier 2x1 substitution, the tile
kept then), and, while the substitution is unused and the owner still holds
it, the edition's substitute tile (D2 by default).

Deterministic order (every tie below ends here): the revealed/kept tile before
the substitute, so the once-per-game substitution is chosen only when it is
strictly better; then ``Placement.key`` ascending (tile, sorted cells, sigil
cell, all row-major).

Movement points include the owner's held bonus sigil tokens: they must go on
the tile placed now, one per non-sigil cell, so a tile with ``n`` cells takes
at most ``n - 1`` of them and each adds 1 point (a constant per tile).

Block measure (the invader is the player whose mages run in this garden): for
each sleeping gnome g, d(g) is the fewest orthogonal steps over ground spaces
(hedges impassable; characters, tunnels and tokens passable) from any invading
mage standing on the ground to a ground space orthogonally adjacent to g (0 when
such a mage is already on one; rows x cols when none can reach one; a gnome on a
hedge counts through its ground neighbours).  ``block`` = sum of d(g) after the
placement minus before.  Computed with a multi-source bitboard BFS per
placement; the tests compare it with networkx shortest paths.

Goals:
- ``best_points``: most movement points (SAT via ``solver.hedge_mage.sat`` or
  enumeration; both exact); ties: the deterministic order.
- ``best_block``: largest block; ties: more movement points, then the order.
- ``hint``: largest ``movement points + block_weight * block`` (default weight 1:
  one movement point for you is worth one extra step for the invader); ties:
  more movement points, then the order.
- ``plan``: can the tiles be placed in the given order (SAT or search)?

``best_points``, ``best_block`` and ``hint`` take an optional ``tiles`` list that
replaces ``tile_options`` (in that order, except that a tile whose placing would
use the substitution is flagged so and moved last).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.notation import HEDGE_LETTERS, placement_to_text
from gnomekit.models.hedge_mage.placement import (
    Board,
    Placement,
    TileOption,
    check_placement,
    legal_placements,
    movement_points,
    tile_options,
)
from gnomekit.models.hedge_mage.position import Garden, Gnome, Hedge
from gnomekit.solver.core.budget import Budget, BudgetExhausted, Meter
from gnomekit.solver.core.result import Result, Status

TIE_BREAK = (
    "ties: the revealed (or kept) tile before the substitute tile, so the substitution is used only when "
    "strictly better; then placement key ascending (tile, sorted cells, sigil cell, row-major)"
)
NO_PLACEMENT = (
    "no legal placement: the player places nothing this round and gains no movement points from building"
)


# ---------------------------------------------------------------------------------------------
# Which tiles may be placed (``TileOption`` and ``tile_options`` are rules: models/hedge_mage/placement.py)


def options_for(
    garden: Garden, edition: HedgeMageEdition, tiles: Sequence[str] | None = None, *, substitution: bool = True
) -> list[TileOption]:
    """``tile_options``, or the named tiles in the given order, the substitute moved last when placing
    it would use the substitution (flagged so); unknown names raise UsageError."""
    if tiles is None:
        return tile_options(garden, edition, substitution=substitution)
    allowed = tile_options(garden, edition) if garden.tile is not None else []
    out = []
    for t in dict.fromkeys(tiles):  # each tile once, first mention wins
        if t not in edition.tiles:
            raise UsageError(f"unknown tile {t!r}; the edition has: {' '.join(edition.tiles)}")
        out.append(next((o for o in allowed if o.tile == t), TileOption(t, False)))
    return sorted(out, key=lambda o: o.substitution)  # stable: the substitution last, as always


def token_count(garden: Garden, edition: HedgeMageEdition, tile: str) -> int:
    """How many held bonus sigil tokens go on this tile (one per non-sigil cell)."""
    return min(garden.held_bonus_sigils, edition.tiles[tile].size - 1)


def with_tokens(garden: Garden, placement: Placement) -> Placement:
    """The placement carrying the held bonus sigil tokens on its first non-sigil cells."""
    free = [c for c in placement.cells if c != placement.sigil]
    tokens = tuple(free[: max(0, garden.held_bonus_sigils)])
    return Placement(placement.tile, placement.cells, placement.sigil, tokens)


# ---------------------------------------------------------------------------------------------
# Block measure


class BlockMeter:
    """Invader distances to the sleeping gnomes, for the garden and after a placement.

    Bitboards as in ``models.hedge_mage.placement.Board``: bit ``r * (cols + 1) + c``
    is cell (r, c); the padding column keeps shifts from wrapping.  ``distances``
    costs one BFS layer per step of the longest distance asked for.
    """

    def __init__(self, garden: Garden) -> None:
        self.garden = garden
        self.rows, self.cols = garden.rows, garden.cols
        self.width = garden.cols + 1
        self.unreachable = garden.rows * garden.cols
        full = 0
        for r in range(self.rows):
            full |= ((1 << self.cols) - 1) << (r * self.width)
        self.full = full
        hedge = 0
        for c in garden.hedge_cells:
            if garden.in_bounds(c):
                hedge |= self.bit(c)
        self.ground = full & ~hedge
        src = 0
        for m in garden.mages:
            if garden.in_bounds(m.at) and m.at not in garden.hedge_cells:
                src |= self.bit(m.at)
        self.sources = src
        self.sleeping: tuple[Gnome, ...] = tuple(g for g in garden.gnomes if not g.awake)
        self.neighbours = tuple(self._spread(self.bit(g.at)) & ~self.bit(g.at) for g in self.sleeping)
        self.before = self.distances(0)

    def bit(self, cell: Cell) -> int:
        return 1 << (cell[0] * self.width + cell[1])

    def mask(self, cells: Sequence[Cell]) -> int:
        m = 0
        for c in cells:
            m |= self.bit(c)
        return m

    def _spread(self, m: int) -> int:
        w = self.width
        return (m | (m << 1) | (m >> 1) | (m << w) | (m >> w)) & self.full

    def distances(self, pmask: int) -> tuple[int, ...]:
        """d(g) for each sleeping gnome (in ``self.sleeping`` order) with extra hedge cells ``pmask``."""
        ground = self.ground & ~pmask
        targets = [nb & ground for nb in self.neighbours]
        out = [self.unreachable] * len(targets)
        reach = self.sources & ground
        pending = [i for i, t in enumerate(targets) if t]
        step = 0
        while pending and reach:
            still = []
            for i in pending:
                if reach & targets[i]:
                    out[i] = step
                else:
                    still.append(i)
            pending = still
            if not pending:
                break
            nxt = self._spread(reach) & ground
            if nxt == reach:
                break
            reach = nxt
            step += 1
        return tuple(out)

    def block(self, pmask: int) -> int:
        """Sum of d(g) after the placement minus before."""
        return sum(self.distances(pmask)) - sum(self.before)


def block_value(garden: Garden, placement: Placement) -> int:
    """The block measure of one placement (no legality check)."""
    meter = BlockMeter(garden)
    return meter.block(meter.mask(placement.cells))


# ---------------------------------------------------------------------------------------------
# Scored placements


@dataclass(frozen=True)
class GnomeChange:
    """How far one sleeping gnome is from the invader before and after a placement."""

    gnome: Gnome
    before: int
    after: int

    def to_json(self) -> dict[str, object]:
        return {**self.gnome.to_json(), "before": self.before, "after": self.after}


@dataclass(frozen=True)
class Scored:
    """A legal placement this round with its numbers (tokens already on the placement)."""

    placement: Placement
    substitution: bool
    points: int  # movement points, held bonus sigil tokens included
    token_points: int
    option: int  # index in tile_options (the deterministic order)
    block: int | None = None
    gnomes: tuple[GnomeChange, ...] = ()

    @property
    def order_key(self) -> tuple[int, tuple[str, tuple[Cell, ...], Cell]]:
        return (self.option, self.placement.key)

    def to_json(self, edition: HedgeMageEdition | None = None) -> dict[str, object]:
        d: dict[str, object] = {
            "placement": self.placement.to_json(),
            "movement_points": self.points,
            "bonus_token_points": self.token_points,
            "substitution": self.substitution,
        }
        if edition is not None:
            d["notation"] = placement_to_text(self.placement, edition)
        if self.block is not None:
            d["block"] = self.block
        return d


def score_all(
    garden: Garden,
    edition: HedgeMageEdition,
    options: list[TileOption],
    *,
    with_block: bool = False,
) -> tuple[list[Scored], dict[str, int]]:
    """Every legal placement of every option with its points (and block); counts per tile.

    Returned in the deterministic order (option, key), not ranked.
    """
    board = Board(garden)
    meter = BlockMeter(garden) if with_block else None
    out: list[Scored] = []
    counts: dict[str, int] = {}
    for i, opt in enumerate(options):
        en = legal_placements(garden, edition.tiles[opt.tile], board)
        counts[opt.tile] = len(en.placements)
        ntok = token_count(garden, edition, opt.tile)
        for p, pts in zip(en.placements, en.points, strict=True):
            out.append(_scored(garden, p, opt, i, pts + ntok, ntok, meter))
    out.sort(key=lambda s: s.order_key)
    return out, counts


def _scored(
    garden: Garden, p: Placement, opt: TileOption, index: int, points: int, ntok: int, meter: BlockMeter | None
) -> Scored:
    placed = with_tokens(garden, p)
    if meter is None:
        return Scored(placed, opt.substitution, points, ntok, index)
    after = meter.distances(meter.mask(p.cells))
    changes = tuple(
        GnomeChange(g, b, a) for g, b, a in zip(meter.sleeping, meter.before, after, strict=True)
    )
    return Scored(placed, opt.substitution, points, ntok, index, sum(after) - sum(meter.before), changes)


def _rank(items: list[Scored], key: Callable[[Scored], tuple[float, ...]]) -> list[Scored]:
    """Best first: larger ``key`` first, then the deterministic order."""
    return sorted(items, key=lambda s: (tuple(-k for k in key(s)), s.order_key))


# ---------------------------------------------------------------------------------------------
# Goals


@dataclass
class Choice:
    """The answer of a ``best_*`` goal: the chosen placement and what it beat."""

    goal: str
    method: str
    best: Scored | None
    runner_up: Scored | None
    options: list[TileOption]
    per_tile: dict[str, dict[str, Any]]  # tile -> {"legal_placements", "best_points", "best_block"}
    notes: list[str] = field(default_factory=list)

    @property
    def placement(self) -> Placement | None:
        """The chosen placement (None when there is no legal placement)."""
        return self.best.placement if self.best is not None else None


def _per_tile(options: list[TileOption], scored: list[Scored], counts: dict[str, int]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for i, opt in enumerate(options):
        mine = [s for s in scored if s.option == i]
        d: dict[str, Any] = {
            "substitution": opt.substitution,
            "legal_placements": counts.get(opt.tile, 0),
            "best_points": max((s.points for s in mine), default=None),
        }
        if mine and mine[0].block is not None:
            d["best_block"] = max(s.block or 0 for s in mine)
        out[opt.tile] = d
    return out


def _notes(garden: Garden, edition: HedgeMageEdition, options: list[TileOption]) -> list[str]:
    notes = [o.note for o in options if o.note and not o.substitution]
    if garden.held_bonus_sigils:
        per = ", ".join(f"{o.tile} {token_count(garden, edition, o.tile)}" for o in options)
        notes.append(
            f"movement points include the {garden.held_bonus_sigils} held bonus sigil token(s), placed on the "
            f"tile's non-sigil cells (+1 each; tokens that fit: {per})"
        )
    sub = edition.substitute
    if sub is not None and not any(o.substitution for o in options) and options[0].tile != sub:
        if garden.substitution_used:
            notes.append(f"the {sub} substitution was already used")
        elif garden.remaining_tiles and sub not in garden.remaining_tiles:
            notes.append(f"{sub} is no longer held: no substitution")
    return notes


def _check_witness(garden: Garden, edition: HedgeMageEdition, p: Placement) -> None:
    rep = check_placement(garden, edition, p, check_tile_choice=False)
    if not rep.legal:  # a solver bug, not bad input
        raise RuntimeError(f"solver returned an illegal placement {p}: {[v.message for v in rep.violations]}")


def best_points(
    garden: Garden,
    edition: HedgeMageEdition,
    tiles: Sequence[str] | None = None,
    *,
    method: str = "sat",
    substitution: bool = True,
) -> Result:
    """The legal placement with the most movement points this round (substitution considered).

    ``method`` "sat" asks ``solver.hedge_mage.sat.sat_best_points`` for each tile
    option (held tokens are a constant per tile, added here); "enumerate" scores
    every legal placement.  Both are exact and break ties by the deterministic
    order.  The runner-up and the per-tile counts always come from enumeration.
    Result: OPTIMAL with value = points and witness a ``Choice``, or
    UNSATISFIABLE (no legal placement) with a ``Choice`` whose ``best`` is None.
    """
    t0 = time.perf_counter()
    options = options_for(garden, edition, tiles, substitution=substitution)
    scored, counts = score_all(garden, edition, options, with_block=True)
    ranked = _rank(scored, lambda s: (s.points,))
    stats: dict[str, Any] = {"method": method}
    if method == "enumerate":
        best = ranked[0] if ranked else None
    elif method == "sat":
        best = _sat_best(garden, edition, options, scored, stats)
    else:
        raise UsageError(f"unknown method {method!r}; use sat or enumerate")
    runner = next((s for s in ranked if best is not None and s.placement.key != best.placement.key), None)
    choice = Choice("points", method, best, runner, options, _per_tile(options, scored, counts),
                    _notes(garden, edition, options))
    stats["candidates_scored"] = len(scored)
    status = Status.OPTIMAL if best is not None else Status.UNSATISFIABLE
    return Result(status, best.points if best else None, choice, stats, time.perf_counter() - t0)


def _sat_best(
    garden: Garden, edition: HedgeMageEdition, options: list[TileOption], scored: list[Scored], stats: dict[str, Any]
) -> Scored | None:
    from gnomekit.solver.hedge_mage.sat import sat_best_points

    by_key = {s.placement.key: s for s in scored}
    per: list[Scored] = []
    sat_values: dict[str, Any] = {}
    for i, opt in enumerate(options):
        res = sat_best_points(garden, edition, [opt.tile])
        sat_values[opt.tile] = res.value
        if res.status == Status.UNSATISFIABLE:
            continue
        if res.status != Status.OPTIMAL or not isinstance(res.witness, Placement):
            raise RuntimeError(f"sat_best_points({opt.tile}) returned {res.status} without a placement")
        p = res.witness
        _check_witness(garden, edition, p)
        base = Board(garden).points(p.cells, p.sigil)
        if res.value != base:  # sat_best_points counts no held tokens
            raise RuntimeError(f"sat_best_points({opt.tile}) says {res.value} points, the placement has {base}")
        ntok = token_count(garden, edition, opt.tile)
        s = by_key.get(p.key) or _scored(garden, p, opt, i, base + ntok, ntok, BlockMeter(garden))
        per.append(s)
    stats["sat_values"] = sat_values
    if not per:
        return None
    return _rank(per, lambda s: (s.points,))[0]


def best_block(
    garden: Garden,
    edition: HedgeMageEdition,
    tiles: Sequence[str] | None = None,
    *,
    method: str = "enumerate",
    substitution: bool = True,
) -> Result:
    """The legal placement that makes the invader's maze hardest (largest block measure).

    Ties: more movement points, then the deterministic order.  ``method``
    "enumerate" uses the bitboard enumeration; "sat" takes the legal placements
    from ``solver.hedge_mage.sat.sat_all`` instead (the block measure itself is
    always the BFS).  Result: OPTIMAL with value = block and witness a
    ``Choice``, or UNSATISFIABLE when no legal placement exists.
    """
    t0 = time.perf_counter()
    options = options_for(garden, edition, tiles, substitution=substitution)
    scored, counts = score_all(garden, edition, options, with_block=True)
    if method == "sat":
        from gnomekit.solver.hedge_mage.sat import sat_all

        groups = sat_all(garden, edition, [o.tile for o in options])
        sat_keys = {p.key for grp in groups for p in grp.placements}
        if sat_keys != {s.placement.key for s in scored}:
            raise RuntimeError("SAT and enumeration disagree on the legal placements")
    elif method != "enumerate":
        raise UsageError(f"unknown method {method!r}; use sat or enumerate")
    ranked = _rank(scored, lambda s: (s.block or 0, s.points))
    best = ranked[0] if ranked else None
    runner = ranked[1] if len(ranked) > 1 else None
    choice = Choice("block", method, best, runner, options, _per_tile(options, scored, counts),
                    _notes(garden, edition, options))
    stats: dict[str, Any] = {"method": method, "candidates_scored": len(scored)}
    status = Status.OPTIMAL if best is not None else Status.UNSATISFIABLE
    return Result(status, best.block if best else None, choice, stats, time.perf_counter() - t0)


# ---------------------------------------------------------------------------------------------
# Hint


@dataclass
class Hint:
    """A recommended placement, the reasons in plain words, and the alternatives it beat."""

    best: Scored | None
    score: float | None
    reasons: list[str]
    alternatives: list[tuple[Scored, float]]
    block_weight: float
    options: list[TileOption]
    best_by_points: Scored | None = None
    best_by_block: Scored | None = None
    sigils: list[Cell] = field(default_factory=list)

    @property
    def placement(self) -> Placement | None:
        """The recommended placement (None when there is no legal placement)."""
        return self.best.placement if self.best is not None else None


def hint(
    garden: Garden,
    edition: HedgeMageEdition,
    tiles: Sequence[str] | None = None,
    *,
    block_weight: float = 1.0,
    alternatives: int = 3,
    substitution: bool = True,
) -> Result:
    """Recommend a placement: the largest ``points + block_weight * block``.

    Ties: more movement points, then the deterministic order.  Result:
    OPTIMAL with value = score and witness a ``Hint``; UNSATISFIABLE when no
    legal placement exists (the hint then says so).
    """
    t0 = time.perf_counter()
    if block_weight < 0:
        raise UsageError("block_weight must be 0 or more")
    if alternatives < 0:
        raise UsageError("alternatives must be 0 or more")
    options = options_for(garden, edition, tiles, substitution=substitution)
    scored, _counts = score_all(garden, edition, options, with_block=True)

    def score(s: Scored) -> float:
        return s.points + block_weight * (s.block or 0)

    ranked = _rank(scored, lambda s: (score(s), s.points))
    stats: dict[str, Any] = {"candidates_scored": len(scored), "policy": hint_policy(block_weight)}
    if not ranked:
        h = Hint(None, None, [NO_PLACEMENT] + _notes(garden, edition, options), [], block_weight, options)
        return Result(Status.UNSATISFIABLE, None, h, stats, time.perf_counter() - t0)
    best = ranked[0]
    by_points = _rank(scored, lambda s: (s.points,))[0]
    by_block = _rank(scored, lambda s: (s.block or 0, s.points))[0]
    alts = [(s, score(s)) for s in ranked[1 : 1 + alternatives]]
    _pts, counted = movement_points(garden, best.placement)
    reasons = explain(garden, edition, best, counted, options)
    if by_points.placement.key != best.placement.key:
        reasons.append(
            f"The most movement points available is {by_points.points} "
            f"({placement_to_text(by_points.placement, edition)}), but it lengthens the invader's routes by only "
            f"{by_points.block} step(s)."
        )
    if by_block.placement.key != best.placement.key:
        reasons.append(
            f"The hardest maze available adds {by_block.block} step(s) "
            f"({placement_to_text(by_block.placement, edition)}), but gives only {by_block.points} movement point(s)."
        )
    h = Hint(best, score(best), reasons, alts, block_weight, options, by_points, by_block, counted)
    return Result(Status.OPTIMAL, score(best), h, stats, time.perf_counter() - t0)


def hint_policy(block_weight: float) -> str:
    w = f"{block_weight:g}"
    return (
        f"recommend the largest movement points + {w} x block (block = extra steps the invader's mages need to "
        f"reach your sleeping gnomes); then more movement points; {TIE_BREAK}"
    )


def _hedge_name(garden: Garden, cell: Cell) -> str:
    i = garden.hedge_at[cell]
    letter = HEDGE_LETTERS[i] if i < len(HEDGE_LETTERS) else f"#{i}"
    return f"hedge {letter} ({garden.hedges[i].tile})"


def explain(
    garden: Garden, edition: HedgeMageEdition, s: Scored, counted: list[Cell], options: list[TileOption]
) -> list[str]:
    """Plain sentences: the sigils lined up, the gnomes made farther, the substitution."""
    p = s.placement
    rows = {r for r, _ in p.cells}
    cols = {c for _, c in p.cells}
    lined: list[str] = []
    for cell in counted:
        if cell in p.cells:
            continue
        how = []
        if cell[0] in rows:
            how.append(f"row {cell[0]}")
        if cell[1] in cols:
            how.append(f"column {cell[1]}")
        if cell in garden.bonus_sigils and cell in garden.hedge_at:
            what = f"the bonus sigil token on {_hedge_name(garden, cell)} at {cell[0]},{cell[1]}"
        elif cell in garden.hedge_at:
            what = f"the sigil of {_hedge_name(garden, cell)} at {cell[0]},{cell[1]}"
        else:
            what = f"the sigil at {cell[0]},{cell[1]}"
        lined.append(f"{what} ({' and '.join(how)})")
    name = placement_to_text(p, edition)
    own = "its own sigil"
    if s.token_points:
        own += f" and {s.token_points} held bonus sigil token(s) placed on it"
    if lined:
        first = f"{name} gives {s.points} movement point(s): {own}, plus it lines up with " + "; ".join(lined) + "."
    else:
        first = f"{name} gives {s.points} movement point(s): {own} only; it lines up with no other sigil."
    out = [first]
    farther = [g for g in s.gnomes if g.after > g.before]
    unreachable = garden.rows * garden.cols
    if farther:
        parts = []
        for g in farther:
            where = f"the {g.gnome.kind} gnome at {g.gnome.at[0]},{g.gnome.at[1]}"
            if g.after >= unreachable:
                parts.append(f"{where} can no longer be reached on foot (was {g.before} step(s))")
            else:
                parts.append(f"{where} goes from {g.before} to {g.after} steps (+{g.after - g.before})")
        out.append(f"It makes the invader's routes longer by {s.block} step(s) in total: " + "; ".join(parts) + ".")
    else:
        out.append("It does not lengthen any of the invader's routes to your sleeping gnomes.")
    if s.substitution:
        regular = options[0].tile
        out.append(f"It uses your once-per-game {p.tile} substitution instead of {regular}, because that is strictly "
                   "better here.")
    return out


# ---------------------------------------------------------------------------------------------
# Plans


@dataclass(frozen=True)
class PlanStep:
    """One placement of a plan with the movement points it earns at its time."""

    placement: Placement
    points: int
    token_points: int

    def to_json(self, edition: HedgeMageEdition) -> dict[str, object]:
        return {
            "placement": self.placement.to_json(),
            "notation": placement_to_text(self.placement, edition),
            "movement_points": self.points,
            "bonus_token_points": self.token_points,
        }


def plan_steps(garden: Garden, edition: HedgeMageEdition, placements: list[Placement]) -> list[PlanStep]:
    """Re-check a plan's placements one after another and price each at its time.

    Held bonus sigil tokens go on the first tiles placed.  Raises RuntimeError if
    a placement is illegal when its turn comes (a solver bug).
    """
    g = garden
    out: list[PlanStep] = []
    for p in placements:
        placed = with_tokens(g, Placement(p.tile, p.cells, p.sigil))
        _check_witness(g, edition, placed)
        pts, _ = movement_points(g, placed)
        out.append(PlanStep(placed, pts, len(placed.tokens)))
        g = g.with_hedge(Hedge(placed.tile, placed.cells, placed.sigil), placed.tokens)
        g = _replace_held(g, g.held_bonus_sigils - len(placed.tokens))
    return out


def _replace_held(g: Garden, held: int) -> Garden:
    from dataclasses import replace

    return replace(g, held_bonus_sigils=max(0, held))


def plan(
    garden: Garden,
    edition: HedgeMageEdition,
    tiles: list[str],
    *,
    method: str = "sat",
    time_limit: float | None = None,
    node_limit: int = 200_000,
    budget: Budget | None = None,
) -> Result:
    """Can ``tiles`` be placed one after another in this order?

    "sat" calls ``solver.hedge_mage.sat.plan_placements``; "enumerate" is a
    depth-first search over legal placements (deterministic order per step,
    failed states memoised) limited to ``node_limit`` placements tried.
    ``budget`` replaces ``time_limit`` and ``node_limit``: its seconds, and its
    states (placements tried; SAT calls with "sat"; ``node_limit`` when it has none).
    Result: SATISFIED with witness list[PlanStep]; UNSATISFIABLE with
    ``stats["explanation"]`` (sentences); UNKNOWN when a limit was hit.
    """
    t0 = time.perf_counter()
    for t in tiles:
        if t not in edition.tiles:
            raise UsageError(f"unknown tile {t!r}; the edition has: {' '.join(edition.tiles)}")
    if budget is not None and time_limit is not None:
        raise ValueError("give time_limit or budget, not both")
    if method == "sat":
        from gnomekit.solver.hedge_mage.sat import plan_placements

        res = plan_placements(garden, edition, tiles, time_limit=time_limit, budget=budget)
        stats = dict(res.stats)
        if res.status == Status.SATISFIED:
            steps = plan_steps(garden, edition, list(res.witness))
            return Result(Status.SATISFIED, sum(s.points for s in steps), steps, stats, time.perf_counter() - t0)
        return Result(res.status, None, None, stats, time.perf_counter() - t0)
    if method != "enumerate":
        raise UsageError(f"unknown method {method!r}; use sat or enumerate")
    if budget is None or budget.states is None:
        budget = Budget(states=node_limit, seconds=budget.seconds if budget is not None else time_limit)
    return _plan_search(garden, edition, tiles, Meter(budget, check_clock_every=1), t0)


def _plan_search(
    garden: Garden,
    edition: HedgeMageEdition,
    tiles: list[str],
    meter: Meter,
    t0: float,
) -> Result:
    failed: set[tuple[int, frozenset[Cell]]] = set()
    deepest = 0
    nodes = 0
    hit_limit = False

    def dfs(g: Garden, k: int) -> list[Placement] | None:
        nonlocal deepest, nodes, hit_limit
        deepest = max(deepest, k)
        if k == len(tiles):
            return []
        state = (k, g.hedge_cells)
        if state in failed:
            return None
        en = legal_placements(g, edition.tiles[tiles[k]])
        for p in sorted(en.placements, key=lambda x: x.key):
            nodes += 1
            try:
                meter.tick()
            except BudgetExhausted:
                hit_limit = True
                return None
            rest = dfs(g.with_hedge(Hedge(p.tile, p.cells, p.sigil)), k + 1)
            if rest is not None:
                return [p] + rest
            if hit_limit:
                return None
        failed.add(state)
        return None

    found = dfs(garden, 0)
    stats: dict[str, Any] = {"method": "enumerate", "nodes": nodes}
    if found is not None:
        steps = plan_steps(garden, edition, found)
        return Result(Status.SATISFIED, sum(s.points for s in steps), steps, stats, time.perf_counter() - t0)
    if hit_limit:
        stats["explanation"] = [f"search stopped after {nodes} placements tried (limit); no answer"]
        return Result(Status.UNKNOWN, None, None, stats, time.perf_counter() - t0)
    first = ", ".join(tiles[: deepest + 1])
    if deepest == 0:
        msg = f"{tiles[0]} has no legal placement in this garden."
    else:
        msg = (f"The first {deepest + 1} tiles ({first}) cannot all be placed in this order: every way to place "
               f"the first {deepest} leaves no legal placement for {tiles[deepest]}.")
    stats["explanation"] = [msg]
    return Result(Status.UNSATISFIABLE, None, None, stats, time.perf_counter() - t0)
