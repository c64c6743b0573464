"""Gnomes at Midnight as an SVG picture: the board, the gnomes, the moon cards and the dance card.

Drawn with :mod:`gnomekit.models.core.svg` (plain SVG text, deterministic, golden-file tested).
Every square shows its terrain by colour *and* by a letter in its corner (G grass, T tulips,
C cobblestone), so the picture reads in black and white; squares moonlit for the side to move
carry a crescent.  Flowers are drawn as flowers with the owner's letter, toadstools as a
mushroom, green gnomes as pointed hats (triangles) and blue gnomes as round caps (circles), two
on a square side by side.  The panel on the right has whose turn it is, each side's face-up
moonlight card, deck and off-board count, and the dance pattern.

Answers come as :class:`~gnomekit.models.core.svg.Marks` in the game's own addresses, ``(row,
col)`` squares: ``move`` squares are outlined green (a move of two squares, as
``move_cells`` gives a step, also gets an arrow from its source to its target), ``illegal``
squares red with a cross, ``routes`` as blue arrows; squares outside the board cannot be drawn
and are left out (the caption still names them).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from gnomekit.models.core.svg import PALETTE, Marks, Svg
from gnomekit.models.core.svg import wrap_words as _wrap
from gnomekit.models.gnomes_at_midnight.edition import COLOURS, TERRAIN_LETTERS, TERRAINS
from gnomekit.models.gnomes_at_midnight.moves import PAIR, STEP, WIN_DANCE, WIN_TOADSTOOLS, Flip, Move
from gnomekit.models.gnomes_at_midnight.position import NO_CARD
from gnomekit.models.gnomes_at_midnight.position import Position as State

if TYPE_CHECKING:
    from gnomekit.models.gnomes_at_midnight.game import MidnightPosition

CELL = 64  # square size in px
MARGIN = 28  # room for the coordinates
TOP = 44  # room for the title
PANEL = 250  # the right-hand panel's width

#: Terrain colours (light enough for the pieces to stand out) and their darker ink.
TERRAIN_FILL = ("#b9dc8c", "#f6c4d4", "#c9c4bb")
TERRAIN_INK = ("#4c7a22", "#a8325e", "#5e5a52")
#: Side colours: gnome fill and a darker outline.
SIDE_FILL = ("#2f9e44", "#1c6fd1")
SIDE_INK = ("#1b5e28", "#0f3f7a")
SIDE_LETTER = ("g", "b")


def _centre(r: int, c: int) -> tuple[float, float]:
    return MARGIN + c * CELL + CELL / 2, TOP + MARGIN + r * CELL + CELL / 2


def _cell_of(x: Hashable, rows: int, cols: int) -> tuple[int, int] | None:
    """A mark's square when it is a ``(row, col)`` on the board, else None (not drawable)."""
    if isinstance(x, tuple) and len(x) == 2 and all(isinstance(v, int) for v in x):
        r, c = x
        if 0 <= r < rows and 0 <= c < cols:
            return r, c
    return None


def _gnome(svg: Svg, side: int, x: float, y: float, s: float) -> None:
    """One gnome: green a pointed hat (triangle), blue a round cap (circle); a letter inside."""
    if side == 0:
        svg.polygon([(x, y - s), (x + s * 0.9, y + s * 0.75), (x - s * 0.9, y + s * 0.75)],
                    fill=SIDE_FILL[0], stroke=SIDE_INK[0], stroke_width=2, stroke_linejoin="round")
        svg.text(x, y + s * 0.55, SIDE_LETTER[0], size=s * 0.8, fill="#ffffff", font_weight="bold")
    else:
        svg.circle(x, y, s * 0.8, fill=SIDE_FILL[1], stroke=SIDE_INK[1], stroke_width=2)
        svg.text(x, y + s * 0.3, SIDE_LETTER[1], size=s * 0.8, fill="#ffffff", font_weight="bold")


def _flower(svg: Svg, side: int, x: float, y: float) -> None:
    """A flower of ``side``'s colour: five petals round a centre holding the side's letter."""
    for k in range(5):
        a = 2 * math.pi * k / 5 - math.pi / 2
        svg.circle(x + 6 * math.cos(a), y + 6 * math.sin(a), 4.2, fill=SIDE_FILL[side], fill_opacity="0.55",
                   stroke=SIDE_INK[side], stroke_width=0.8)
    svg.circle(x, y, 3.6, fill="#fff3b0", stroke=SIDE_INK[side], stroke_width=0.8)
    svg.text(x, y + 2.4, SIDE_LETTER[side], size=6.5, fill=SIDE_INK[side], font_weight="bold")


def _toadstool(svg: Svg, x: float, y: float) -> None:
    """A toadstool: a red cap with white spots on a pale stem."""
    svg.rect(x - 2.5, y - 1, 5, 8, fill="#f3ead8", stroke=PALETTE["ink"], stroke_width=0.8)
    svg.path(f"M {x - 9} {y} A 9 8 0 0 1 {x + 9} {y} Z", fill="#d63a2f", stroke=PALETTE["ink"], stroke_width=0.8)
    for dx, dy in ((-4, -3), (2, -5), (4.5, -1.5)):
        svg.circle(x + dx, y + dy, 1.3, fill="#ffffff")


def _crescent(svg: Svg, x: float, y: float, r: float = 6.0) -> None:
    """The moon: a crescent (moonlit square or a moonlight card)."""
    svg.path(f"M {x} {y - r} A {r} {r} 0 1 0 {x} {y + r} A {r * 0.72} {r} 0 1 1 {x} {y - r} Z",
             fill="#f5d76e", stroke="#7a6420", stroke_width=0.8)


def _arrow(svg: Svg, a: tuple[float, float], b: tuple[float, float], colour: str, width: float = 4) -> None:
    """A straight arrow from ``a`` to ``b`` (head drawn as a polygon: no markers, stable output)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d < 1:
        svg.circle(a[0], a[1], 6, fill="none", stroke=colour, stroke_width=width)
        return
    ux, uy = dx / d, dy / d
    head = 13.0
    tip = (b[0] - ux * 8, b[1] - uy * 8)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    start = (a[0] + ux * 8, a[1] + uy * 8)
    svg.line(start[0], start[1], base[0], base[1], stroke=colour, stroke_width=width, stroke_linecap="round",
             stroke_opacity="0.85")
    px, py = -uy * head * 0.55, ux * head * 0.55
    svg.polygon([tip, (base[0] + px, base[1] + py), (base[0] - px, base[1] - py)], fill=colour,
                fill_opacity="0.9")


def _route(svg: Svg, cells: Sequence[tuple[int, int]], colour: str) -> None:
    for a, b in pairwise(cells):
        _arrow(svg, _centre(*a), _centre(*b), colour)


def _card(svg: Svg, x: float, y: float, terrain: int, w: float = 64, h: float = 34) -> None:
    """A face-up moonlight card: the terrain's colour, letter and name, with a moon."""
    if terrain == NO_CARD:
        svg.rect(x, y, w, h, rx=4, fill="#ffffff", stroke=PALETTE["grid"], stroke_dasharray="3 3")
        svg.text(x + w / 2, y + h / 2 + 4, "none", size=10, fill=PALETTE["label"])
        return
    svg.rect(x, y, w, h, rx=4, fill=TERRAIN_FILL[terrain], stroke=TERRAIN_INK[terrain], stroke_width=2)
    _crescent(svg, x + 10, y + 11, 5)
    svg.text(x + w - 10, y + 15, TERRAIN_LETTERS[terrain], size=12, fill=TERRAIN_INK[terrain], font_weight="bold")
    svg.text(x + w / 2, y + h - 6, TERRAINS[terrain], size=9, fill=PALETTE["ink"])


def _deck_words(state: State, side: int) -> str:
    known = state.known[side]
    unknown = state.unknown[side]
    n = len(known) + sum(unknown)
    if n == 0:
        return "deck empty (reshuffles)"
    parts = [f"deck {n} card(s)"]
    if known:
        parts.append("next: " + " ".join(TERRAIN_LETTERS[t] for t in known))
    if sum(unknown):
        parts.append(("then " if known else "") + "unordered: "
                     + " ".join(f"{k}{TERRAIN_LETTERS[t]}" for t, k in enumerate(unknown) if k))
    return ", ".join(parts)


def _dance_name(pos: MidnightPosition) -> str:
    for card in pos.game.edition.dance:
        if card.cells == pos.state.dance:
            return card.name
    return "custom"


def _winning_squares(state: State, side: int, wins: Sequence[str]) -> set[tuple[int, int]]:
    """The squares that make ``side``'s win visible: its toadstools, a completed dance placement."""
    b = state.board
    sign = 1 if side == 0 else -1
    out: set[tuple[int, int]] = set()
    if WIN_TOADSTOOLS in wins:
        out |= set(b.toadstools)
    if WIN_DANCE in wins:
        for pl in state.dance_placements:
            if all(state.cells[k] * sign > 0 for k in pl):
                out |= {b.cell(k) for k in pl}
                break
    return out


def _title(pos: MidnightPosition) -> str:
    s = pos.state
    me = COLOURS[s.to_move]
    if pos.wins:
        return f"Gnomes at Midnight · turn {s.turn} · {me} wins ({', '.join(pos.wins)})"
    if pos.afterstate:
        return f"Gnomes at Midnight · turn {s.turn} · {me} has moved, moonlight flip pending"
    return f"Gnomes at Midnight · turn {s.turn} · {me} to move"


def position_svg(pos: MidnightPosition, marks: Marks | None = None) -> str:
    """The protocol position ``pos`` as an SVG document, with ``marks`` (an answer) drawn on it."""
    marks = marks or Marks()
    s = pos.state
    b = s.board
    rows, cols = b.rows, b.cols
    me = s.to_move
    moon = s.moon[me]
    bw, bh = cols * CELL, rows * CELL
    width = MARGIN * 2 + bw + PANEL
    caption_lines = _wrap(marks.caption, int((width - 20) / 6.4)) if marks.caption else []
    svg = Svg(width, 0, title=_title(pos))
    svg.text(12, 26, _title(pos), size=16, anchor="start", fill=PALETTE["ink"], font_weight="bold")

    # -- board ------------------------------------------------------------------------------------
    y0 = TOP + MARGIN
    for c in range(cols):
        svg.text(MARGIN + c * CELL + CELL / 2, y0 - 9, c, size=12, fill=PALETTE["label"])
        svg.text(MARGIN + c * CELL + CELL / 2, y0 + bh + 18, c, size=12, fill=PALETTE["label"])
    for r in range(rows):
        svg.text(MARGIN / 2, y0 + r * CELL + CELL / 2 + 4, r, size=12, fill=PALETTE["label"])
        svg.text(MARGIN * 1.5 + bw, y0 + r * CELL + CELL / 2 + 4, r, size=12, fill=PALETTE["label"])
    flowers = {c: side for side in (0, 1) for c in b.flowers[side]}
    toads = set(b.toadstools)
    for r in range(rows):
        for c in range(cols):
            t = b.terr[b.index((r, c))]
            x, y = MARGIN + c * CELL, y0 + r * CELL
            svg.rect(x, y, CELL, CELL, fill=TERRAIN_FILL[t], stroke=PALETTE["grid"], stroke_width=1,
                     data_cell=f"{r},{c}")
            svg.text(x + 4, y + 12, TERRAIN_LETTERS[t], size=10, anchor="start", fill=TERRAIN_INK[t],
                     font_weight="bold")
            if t == moon:
                svg.rect(x + 1, y + 1, CELL - 2, CELL - 2, fill="#1d2a4a", fill_opacity="0.18")
                _crescent(svg, x + CELL - 10, y + 10)
            if (r, c) in flowers:
                _flower(svg, flowers[(r, c)], x + 12, y + CELL - 12)
            if (r, c) in toads:
                _toadstool(svg, x + CELL - 13, y + CELL - 12)
    svg.rect(MARGIN, y0, bw, bh, fill="none", stroke=PALETTE["ink"], stroke_width=2)

    # highlights of a won game under the pieces
    if pos.wins:
        for r, c in sorted(_winning_squares(s, me, pos.wins)):
            svg.rect(MARGIN + c * CELL + 3, y0 + r * CELL + 3, CELL - 6, CELL - 6, fill="none",
                     stroke=PALETTE["highlight"], stroke_width=5)

    # answer marks under the pieces (fills), outlines and crosses over them
    move_cells = [c for c in (_cell_of(x, rows, cols) for x in marks.move) if c is not None]
    bad_cells = [c for c in (_cell_of(x, rows, cols) for x in marks.illegal) if c is not None]
    for r, c in move_cells:
        svg.rect(MARGIN + c * CELL, y0 + r * CELL, CELL, CELL, fill=PALETTE["move-fill"])
    for r, c in bad_cells:
        svg.rect(MARGIN + c * CELL, y0 + r * CELL, CELL, CELL, fill=PALETTE["illegal-fill"])

    for i, v in enumerate(s.cells):
        if not v:
            continue
        side = 0 if v > 0 else 1
        r, c = b.cell(i)
        cx, cy = _centre(r, c)
        if abs(v) == 1:
            _gnome(svg, side, cx, cy, 15)
        else:
            _gnome(svg, side, cx - 12, cy, 12)
            _gnome(svg, side, cx + 12, cy, 12)

    for r, c in move_cells:
        svg.rect(MARGIN + c * CELL + 2, y0 + r * CELL + 2, CELL - 4, CELL - 4, fill="none",
                 stroke=PALETTE["move"], stroke_width=4)
    for r, c in bad_cells:
        x, y = MARGIN + c * CELL, y0 + r * CELL
        svg.rect(x + 2, y + 2, CELL - 4, CELL - 4, fill="none", stroke=PALETTE["illegal"], stroke_width=4,
                 stroke_dasharray="8 4")
        svg.line(x + 6, y + 6, x + 18, y + 18, stroke=PALETTE["illegal"], stroke_width=3)
        svg.line(x + 18, y + 6, x + 6, y + 18, stroke=PALETTE["illegal"], stroke_width=3)
    routes = [[c for c in (_cell_of(x, rows, cols) for x in rt) if c is not None] for rt in marks.routes]
    if not routes and len(move_cells) == 2 and len(marks.move) == 2:
        routes = [move_cells]
    for rt in routes:
        _route(svg, rt, PALETTE["path"])
    for cell, text in marks.labels.items():
        sq = _cell_of(cell, rows, cols)
        if sq is not None:
            x, y = MARGIN + sq[1] * CELL, y0 + sq[0] * CELL
            svg.text(x + CELL / 2, y + CELL - 4, text, size=10, fill=PALETTE["ink"], font_weight="bold")

    # -- panel ------------------------------------------------------------------------------------
    px = MARGIN * 2 + bw + 10
    py = TOP + 4
    for side in (0, 1):
        turn = side == me and not pos.wins
        svg.rect(px - 6, py - 4, PANEL - 18, 108, rx=6, fill="#ffffff",
                 stroke=SIDE_INK[side] if turn else PALETTE["grid"], stroke_width=3 if turn else 1)
        _gnome(svg, side, px + 12, py + 14, 10)
        name = COLOURS[side] + ("  ◀ to move" if turn and not pos.afterstate else
                                "  ◀ flip pending" if turn else "")
        svg.text(px + 30, py + 19, name, size=13, anchor="start", fill=SIDE_INK[side], font_weight="bold")
        svg.text(px, py + 44, "moon:", size=11, anchor="start", fill=PALETTE["label"])
        _card(svg, px + 42, py + 28, s.moon[side])
        svg.text(px + 114, py + 40, f"off board: {s.off[side]}", size=11, anchor="start", fill=PALETTE["ink"])
        svg.text(px + 114, py + 55, f"({s.bump_limit} lose)", size=10, anchor="start", fill=PALETTE["label"])
        for k in range(min(s.off[side], 6)):
            _gnome(svg, side, px + 120 + k * 16, py + 72, 6)
        svg.text(px, py + 96, _deck_words(s, side), size=10, anchor="start", fill=PALETTE["ink"])
        py += 118
    # dance card
    svg.rect(px - 6, py - 4, PANEL - 18, 120, rx=6, fill="#ffffff", stroke=PALETTE["grid"])
    svg.text(px, py + 12, f"dance: {_dance_name(pos)}", size=12, anchor="start", fill=PALETTE["ink"],
             font_weight="bold")
    svg.text(px, py + 26, "any place, any turn or mirror", size=9, anchor="start", fill=PALETTE["label"])
    dh = max(r for r, _ in s.dance) + 1
    dw = max(c for _, c in s.dance) + 1
    ds = min(18.0, 80.0 / max(dh, dw))
    dx0, dy0 = px + (PANEL - 30 - dw * ds) / 2, py + 32
    for r in range(dh):
        for c in range(dw):
            svg.rect(dx0 + c * ds, dy0 + r * ds, ds, ds, fill="#f1ede3", stroke=PALETTE["grid"], stroke_width=0.8)
    for r, c in s.dance:
        svg.circle(dx0 + c * ds + ds / 2, dy0 + r * ds + ds / 2, ds * 0.36, fill=PALETTE["ink"])
    py += 126
    if pos.afterstate and not pos.wins:
        words = ", ".join(f"{TERRAINS[f.terrain]} {p}" for f, p in pos.chance_outcomes() if isinstance(f, Flip))
        svg.rect(px - 6, py - 4, PANEL - 18, 44, rx=6, fill="#fff7d6", stroke=PALETTE["highlight"], stroke_width=2)
        svg.text(px, py + 12, f"chance: {COLOURS[me]} turns a card", size=11, anchor="start",
                 fill=PALETTE["ink"], font_weight="bold")
        svg.text(px, py + 30, words, size=11, anchor="start", fill=PALETTE["ink"])
        py += 50

    # -- legend and caption ---------------------------------------------------------------------
    ly = max(TOP + MARGIN * 2 + bh, py) + 14
    svg.text(12, ly, "G grass · T tulips · C cobblestone · ▲g green gnome · ●b blue gnome · "
             "flower: starting garden (g/b) · red cap: toadstool",
             size=10, anchor="start", fill=PALETTE["label"])
    svg.text(12, ly + 14, f"moon: moonlit for {COLOURS[me]} (no step onto or off it) · green outline: move · "
             "red dashes: broken rule · blue arrow: route", size=10, anchor="start", fill=PALETTE["label"])
    for k, line in enumerate(caption_lines):
        svg.text(12, ly + 36 + 16 * k, line, size=12, anchor="start", fill=PALETTE["ink"])
    svg.height = ly + 26 + 16 * len(caption_lines) + (10 if caption_lines else 0)
    return str(svg)


def move_cells(move: object) -> tuple[tuple[int, int], ...]:
    """The squares a move occupies: a step's or pair step's source then target, an add's flower."""
    if isinstance(move, Move):
        if move.kind in (STEP, PAIR) and move.src is not None and move.dst is not None:
            return (move.src, move.dst)
        if move.dst is not None:
            return (move.dst,)
    return ()


def move_marks(pos: MidnightPosition, move: Move | Flip | str, caption: str | None = None) -> Marks:
    """Marks for a move in ``pos``: its squares, an arrow for a step, every broken rule's squares,
    and as caption the check's words (or ``caption``)."""
    report = pos.check(move)
    mv = pos.parse_move(move) if isinstance(move, str) else move
    m = Marks.of_report(report, move_cells(mv))
    cells = move_cells(mv)
    routes = (cells,) if len(cells) == 2 else ()
    return Marks(move=m.move, illegal=m.illegal, routes=routes, caption=m.caption if caption is None else caption)


def move_svg(pos: MidnightPosition, move: Move | Flip | str, caption: str | None = None) -> str:
    """The position with one move drawn: its squares and arrow, or every broken rule's squares."""
    return position_svg(pos, move_marks(pos, move, caption))


def moves_svg(pos: MidnightPosition) -> str:
    """The position with every legal move's target marked (steps as arrows), for ``moves``."""
    moves = [m for m in pos.legal_moves() if isinstance(m, Move)]
    cells: list[tuple[int, int]] = []
    routes: list[tuple[tuple[int, int], ...]] = []
    for m in moves:
        mc = move_cells(m)
        if mc and mc[-1] not in cells:
            cells.append(mc[-1])
        if len(mc) == 2 and mc not in routes and (mc[1], mc[0]) not in routes:
            routes.append(mc)
    words = f"{len(moves)} legal move(s)" if moves else "no legal move"
    return position_svg(pos, Marks(move=tuple(cells), routes=tuple(routes), caption=words))


def result_svg(pos: MidnightPosition, result: object, caption: str | None = None) -> str:
    """The position with a solver answer drawn (``gnomekit.solve`` / ``hint`` Result): its witness
    move's squares and arrow, the status and value as caption (or ``caption``); no witness draws
    the position."""
    status = getattr(result, "status", None)
    value = getattr(result, "value", None)
    witness = getattr(result, "witness", None)
    words = f"{getattr(status, 'name', status)}".lower()
    if value is not None:
        words += f", value {value}"
    if caption is not None:
        words = caption
    if witness is None or isinstance(witness, Flip):
        return position_svg(pos, Marks(caption=words + ("" if witness is None else f": {witness}")))
    mv = pos.parse_move(witness) if isinstance(witness, str) else witness
    cells = move_cells(mv)
    return position_svg(pos, Marks(move=cells, routes=(cells,) if len(cells) == 2 else (),
                                   caption=f"{words}: first move {mv}"))
