"""Gnomes at Midnight turns: legal moves, every reason a move is illegal, applying a move.

A turn is a *step* (one gnome one square in any of 8 directions), a *pair* step
(two gnomes sharing a square step together), an *add* (an off-board gnome onto
one of the mover's flowers with fewer than two gnomes and no opponent gnome), or
a *pass* when none of these exists.  The mover's face-up moonlight card forbids
stepping onto or off squares of its terrain (and adding onto them, when the
``moon_restricts_adding`` option is on).  After a step or add: opponent gnomes on
the target are bumped off, the mover's win conditions are checked, and the mover
turns its next moonlight card (a pass flips nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from gnomekit.models.core.grid import Cell
from gnomekit.models.core.violation import Violation
from gnomekit.models.gnomes_at_midnight.edition import COLOURS, TERRAINS
from gnomekit.models.gnomes_at_midnight.position import NO_CARD, Counts, Position, counts_of, dance_by_anchor

STEP, PAIR, ADD, PASS = "step", "pair", "add", "pass"
WIN_TOADSTOOLS, WIN_BUMPS, WIN_DANCE = "toadstools", "bumps", "dance"


class Move(NamedTuple):
    """A turn: kind and the squares involved (``src`` None for add/pass, ``dst`` None for pass)."""

    kind: str
    src: Cell | None = None
    dst: Cell | None = None

    def text(self) -> str:
        """The documented notation: ``r,c-r,c`` step, ``r,c=r,c`` pair, ``+r,c`` add, ``pass``."""
        if self.kind == PASS:
            return "pass"
        assert self.dst is not None
        d = f"{self.dst[0]},{self.dst[1]}"
        if self.kind == ADD:
            return "+" + d
        assert self.src is not None
        return f"{self.src[0]},{self.src[1]}{'=' if self.kind == PAIR else '-'}{d}"

    def __str__(self) -> str:
        """The notation (the game protocol's ``str(move)``)."""
        return self.text()

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind, "text": self.text()}
        if self.src is not None:
            d["from"] = list(self.src)
        if self.dst is not None:
            d["to"] = list(self.dst)
        return d


PASS_MOVE = Move(PASS)


class Flip(NamedTuple):
    """The outcome of a hidden moonlight flip: the terrain the turned card shows.

    Only the game protocol uses it (a chance node's outcome); notation ``flip grass``.
    """

    terrain: int

    def text(self) -> str:
        return f"flip {TERRAINS[self.terrain]}"

    def __str__(self) -> str:
        return self.text()

    def to_json(self) -> dict[str, object]:
        return {"kind": "flip", "terrain": TERRAINS[self.terrain], "text": self.text()}


# -------------------------------------------------------------------------------------------------
# Generation


def legal_moves(pos: Position) -> list[Move]:
    """Every legal turn for the side to move (``[pass]`` when nothing else is legal).

    Order: steps and pair steps by source square then target square (row-major),
    the single step before the pair step, then adds in the edition's flower order.
    """
    b = pos.board
    me = pos.to_move
    sign = 1 if me == 0 else -1
    moon = pos.moon[me]
    terr = b.terr
    cells = pos.cells
    out: list[Move] = []
    for i, v in enumerate(cells):
        own = v * sign
        if own <= 0 or terr[i] == moon:
            continue
        src = b.cell(i)
        for j in b.nbrs[i]:
            if terr[j] == moon:
                continue
            w = cells[j] * sign
            if w <= 1:
                out.append(Move(STEP, src, b.cell(j)))
            if own == 2 and w <= 0:
                out.append(Move(PAIR, src, b.cell(j)))
    out.extend(legal_adds(pos))
    return out or [PASS_MOVE]


def legal_adds(pos: Position) -> list[Move]:
    """The legal adds of the side to move."""
    me = pos.to_move
    if pos.off[me] <= 0:
        return []
    sign = 1 if me == 0 else -1
    b = pos.board
    out = []
    for f in b.flower_idx[me]:
        w = pos.cells[f] * sign
        if 0 <= w <= 1 and not (pos.moon_restricts_adding and b.terr[f] == pos.moon[me]):
            out.append(Move(ADD, None, b.cell(f)))
    return out




def _name(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


def check_move(pos: Position, move: Move) -> list[Violation]:
    """Every rule ``move`` breaks in ``pos`` (empty when legal)."""
    b = pos.board
    me = pos.to_move
    opp = 1 - me
    moon = pos.moon[me]
    moon_name = TERRAINS[moon] if moon != NO_CARD else None
    out: list[Violation] = []
    if move.kind == PASS:
        others = [m for m in legal_moves(pos) if m.kind != PASS]
        if others:
            out.append(Violation("pass-not-allowed",
                                 f"a player may pass only with no move and no add; {len(others)} exist "
                                 f"(e.g. {others[0].text()})"))
        return out
    dst = move.dst
    assert dst is not None
    if move.kind == ADD:
        if pos.off[me] <= 0:
            out.append(Violation("no-gnome-off-board", f"{COLOURS[me]} has no gnome off the board to add"))
        if not b.in_bounds(dst):
            out.append(Violation("outside-board", f"square {_name(dst)} is outside the {b.rows}x{b.cols} board",
                                 (dst,)))
            return out
        j = b.index(dst)
        if dst not in b.flowers[me]:
            out.append(Violation("not-own-flower", f"square {_name(dst)} is not one of {COLOURS[me]}'s flowers",
                                 (dst,)))
        if pos.count(j, opp):
            out.append(Violation("flower-has-opponent",
                                 f"square {_name(dst)} holds {COLOURS[opp]} gnome(s); adding onto them is not allowed",
                                 (dst,)))
        if pos.count(j, me) >= 2:
            out.append(Violation("flower-full", f"square {_name(dst)} already holds two gnomes", (dst,)))
        if pos.moon_restricts_adding and moon != NO_CARD and b.terr[j] == moon:
            out.append(Violation("moonlit-target",
                                 f"square {_name(dst)} is {moon_name}, moonlit for {COLOURS[me]} "
                                 "(option moon_restricts_adding)", (dst,)))
        return out
    src = move.src
    assert src is not None
    bad_bounds = False
    for c in (src, dst):
        if not b.in_bounds(c):
            out.append(Violation("outside-board", f"square {_name(c)} is outside the {b.rows}x{b.cols} board",
                                 (c,)))
            bad_bounds = True
    if max(abs(src[0] - dst[0]), abs(src[1] - dst[1])) != 1:
        out.append(Violation("not-adjacent", f"{_name(src)} to {_name(dst)} is not one step in one of the 8 "
                                             "directions", (src, dst)))
    if bad_bounds:
        return out
    i, j = b.index(src), b.index(dst)
    own_src = pos.count(i, me)
    moving = 2 if move.kind == PAIR else 1
    if own_src == 0:
        what = f"{COLOURS[opp]} gnome(s)" if pos.count(i, opp) else "no gnome"
        out.append(Violation("no-own-gnome", f"square {_name(src)} holds {what}, not a {COLOURS[me]} gnome",
                             (src,)))
    elif own_src < moving:
        out.append(Violation("pair-needs-two", f"a pair step needs two {COLOURS[me]} gnomes on {_name(src)}; "
                                               f"it holds {own_src}", (src,)))
    if moon != NO_CARD and b.terr[i] == moon:
        out.append(Violation("moonlit-source", f"square {_name(src)} is {moon_name}, moonlit for {COLOURS[me]}: "
                                               "gnomes may not move off it", (src,)))
    if moon != NO_CARD and b.terr[j] == moon:
        out.append(Violation("moonlit-target", f"square {_name(dst)} is {moon_name}, moonlit for {COLOURS[me]}: "
                                               "gnomes may not move onto it", (dst,)))
    if i != j and pos.count(j, me) + moving > 2:
        out.append(Violation("three-on-square", f"{moving} more gnome(s) on {_name(dst)}, which holds "
                                                f"{pos.count(j, me)}, would make more than two", (dst,)))
    return out


# -------------------------------------------------------------------------------------------------
# Applying


def win_conditions(pos: Position, side: int) -> list[str]:
    """The win conditions ``side`` meets in ``pos`` (toadstools, bumps, dance)."""
    b = pos.board
    sign = 1 if side == 0 else -1
    cells = pos.cells
    out = []
    if b.toad_idx and all(cells[t] * sign > 0 for t in b.toad_idx):
        out.append(WIN_TOADSTOOLS)
    if pos.off[1 - side] >= pos.bump_limit:
        out.append(WIN_BUMPS)
    anchors = dance_by_anchor(b.rows, b.cols, pos.dance)
    for i, v in enumerate(cells):
        if v * sign > 0:
            for pl in anchors[i]:
                if all(cells[k] * sign > 0 for k in pl):
                    out.append(WIN_DANCE)
                    break
            else:
                continue
            break
    return out


@dataclass(frozen=True)
class Afterstate:
    """The board right after a turn, before the flip: bumps, wins, and what the flip can give."""

    move: Move
    pos: Position  # gnomes and off-board counts updated; to_move, moon, decks, turn not yet
    bumped: int
    wins: tuple[str, ...]
    flips: tuple[tuple[int, int], ...]  # (terrain, weight); () for a pass or a win
    reshuffle: bool  # the flip draws from a freshly reshuffled deck


def after_move(pos: Position, move: Move) -> Afterstate:
    """Apply a legal move's effect on the gnomes and check the mover's wins (no legality check)."""
    me = pos.to_move
    sign = 1 if me == 0 else -1
    b = pos.board
    cells = list(pos.cells)
    off = list(pos.off)
    bumped = 0
    if move.kind == ADD:
        assert move.dst is not None
        cells[b.index(move.dst)] += sign
        off[me] -= 1
    elif move.kind in (STEP, PAIR):
        assert move.src is not None and move.dst is not None
        n = 2 if move.kind == PAIR else 1
        i, j = b.index(move.src), b.index(move.dst)
        cells[i] -= sign * n
        if cells[j] * sign < 0:
            bumped = -cells[j] * sign
            off[1 - me] += bumped
            cells[j] = 0
        cells[j] += sign * n
    mid = replace(pos, cells=tuple(cells), off=(off[0], off[1]))
    wins = tuple(win_conditions(mid, me))
    flips: tuple[tuple[int, int], ...] = ()
    reshuffle = False
    if move.kind != PASS and not wins:
        flips, reshuffle = flip_outcomes(pos, me)
    return Afterstate(move, mid, bumped, wins, flips, reshuffle)


def flip_outcomes(pos: Position, side: int) -> tuple[tuple[tuple[int, int], ...], bool]:
    """The terrains ``side``'s next flip can show, with weights, and whether it reshuffles first."""
    known = pos.known[side]
    if known:
        return ((known[0], 1),), False
    u = pos.unknown[side]
    reshuffle = sum(u) == 0
    if reshuffle:
        u = counts_of(pos.full_decks[side])
    return tuple((t, u[t]) for t in range(3) if u[t] > 0), reshuffle


def next_position(a: Afterstate, flip: int | None) -> Position:
    """The position after the turn: the flip ``flip`` (a terrain from ``a.flips``, None for none)."""
    return end_turn(a.pos, a.flips, a.reshuffle, flip)


def end_turn(p: Position, flips: tuple[tuple[int, int], ...], reshuffle: bool, flip: int | None) -> Position:
    """Finish the turn whose gnome effects ``p`` shows (its mover still ``to_move``): turn ``flip``.

    ``flips``/``reshuffle`` are what :func:`flip_outcomes` gives for the mover (``()`` for no flip).
    """
    me = p.to_move
    moon = list(p.moon)
    known = list(p.known)
    unknown: list[Counts] = list(p.unknown)
    if flips:
        if flip is None or flip not in [t for t, _ in flips]:
            raise ValueError("flip must be one of the outcomes")
        moon[me] = flip
        if known[me]:
            known[me] = known[me][1:]
        else:
            u = list(counts_of(p.full_decks[me]) if reshuffle else unknown[me])
            u[flip] -= 1
            unknown[me] = (u[0], u[1], u[2])
    return replace(p, to_move=1 - me, moon=(moon[0], moon[1]), known=(known[0], known[1]),
                   unknown=(unknown[0], unknown[1]), turn=p.turn + 1)


def play(pos: Position, move: Move, flip: int | None = None) -> Position:
    """Apply a move and the given flip (defaults to the known next card); raises on chance without one."""
    a = after_move(pos, move)
    if a.flips and flip is None:
        if len(a.flips) != 1:
            raise ValueError("the flip is a chance event: give the terrain")
        flip = a.flips[0][0]
    return next_position(a, flip)


def perft(pos: Position, depth: int) -> int:
    """Leaf count of the game tree to ``depth`` turns: each (move, flip outcome) is one edge;
    a winning move is a leaf (it ends the game), a pass has one outcome."""
    if depth == 0:
        return 1
    total = 0
    for m in legal_moves(pos):
        a = after_move(pos, m)
        if a.wins:
            total += 1 if depth == 1 else 0
        elif not a.flips:
            total += perft(next_position(a, None), depth - 1)
        else:
            total += sum(perft(next_position(a, t), depth - 1) for t, _w in a.flips)
    return total
