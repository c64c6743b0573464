"""SVG pictures of Hedge Mage gardens and running positions, with answers drawn on them.

One picture shows the garden grid with its row and column numbers; hedges filled in their
tile's colour, outlined piece by piece and marked with their sigil and tile name; bonus sigil
tokens; the edition's shaded spaces (numbered ones with their number) and the tunnels; gnomes by
kind (flower, mushroom, pumpkin: each its own shape and colour; asleep pale and dashed with a
lower-case letter, awake solid with an upper-case one); mages as hats (owner under it in a
garden, the mage number and movement left in a running position); springshrooms; a carried
gnome rides on its mage.  A side panel says what the board does not: the revealed tile (drawn),
the tiles held, tokens, movement allowance and what each character has left, and a legend.

Answers come as :class:`~gnomekit.models.core.svg.Marks` in ``(row, col)`` cells, the addresses
Hedge Mage's violations use: ``move`` (a placement's cells), ``illegal`` (the broken rules'
cells), ``routes`` (a running plan's walks, drawn as numbered arrows) and ``labels``.  The
helpers :func:`check_svg`, :func:`moves_svg` and :func:`answer_svg` build the marks for a
``check``, a ``moves`` list and a solver's witness.  Output is plain, deterministic SVG text.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from gnomekit.models.core.grid import Cell
from gnomekit.models.core.svg import PALETTE, Marks, Svg
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.running import Action, RunPosition, execute_plan

# -- colours and sizes -----------------------------------------------------------------------------

#: Hedge fills, one per tile in the edition's tile order (greens of different hue and depth).
HEDGE_COLOURS = (
    "#4f8f3a", "#2f7d6d", "#86a83a", "#3b6e9c", "#6f8f2a", "#2e8f5e",
    "#5a6e2e", "#4a9e9a", "#7a9a5c", "#2f5f3f", "#9aa03a", "#3f7f8f",
)
HEDGE_EDGE = "#16301a"
GROUND = "#f3ead2"
SHADED = "#ddc99c"
TUNNEL = "#3b2a1a"
SIGIL = "#fff1a8"
TOKEN = "#d4a00d"
MAGE = "#2c3e8f"
SPRING = "#12a4b6"
#: Gnome colours by kind (the rulebook's purple flower, red mushroom and orange pumpkin gnomes).
GNOME_COLOURS = {"flower": "#8e44ad", "mushroom": "#d9412b", "pumpkin": "#e67e22"}
OTHER_GNOME_COLOURS = ("#7f8c8d", "#a0522d", "#c71585", "#008b8b")

PANEL = 250  # width of the side panel
MARGIN = 14


def _mix(colour: str, towards: str = "#ffffff", t: float = 0.62) -> str:
    """``colour`` moved a fraction ``t`` towards ``towards`` (pale versions of a colour)."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(towards[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def tile_colour(edition: HedgeMageEdition, tile: str) -> str:
    """The fill of a hedge of ``tile`` (by the tile's place in the edition)."""
    return HEDGE_COLOURS[edition.tile_order(tile) % len(HEDGE_COLOURS)]


def gnome_colour(edition: HedgeMageEdition, kind: str) -> str:
    if kind in GNOME_COLOURS:
        return GNOME_COLOURS[kind]
    kinds = sorted(edition.gnome_kinds)
    i = kinds.index(kind) if kind in kinds else len(kinds)
    return OTHER_GNOME_COLOURS[i % len(OTHER_GNOME_COLOURS)]


def _letter(edition: HedgeMageEdition, kind: str) -> str:
    return edition.gnome_kinds.get(kind, kind[:1] or "?")


def _cname(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


# -- shapes ------------------------------------------------------------------------------------------


def _star(svg: Svg, x: float, y: float, r: float, points: int = 8, fill: str = SIGIL, stroke: str = "#5a4a00",
          **attrs: object) -> None:
    pts = []
    for i in range(2 * points):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.pi * i / points - math.pi / 2
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    svg.polygon(pts, fill=fill, stroke=stroke, stroke_width=max(0.8, r / 9), **attrs)


def draw_sigil(svg: Svg, x: float, y: float, r: float) -> None:
    """A tile's sigil: a pale eight-pointed rune star."""
    _star(svg, x, y, r, class_="sigil")


def draw_bonus_token(svg: Svg, x: float, y: float, r: float) -> None:
    """A bonus sigil token: a round gold token with a sigil star on it."""
    svg.circle(x, y, r, fill=TOKEN, stroke="#5a4a00", stroke_width=max(0.8, r / 8), class_="bonus-sigil")
    _star(svg, x, y, r * 0.72, points=8)


def draw_tunnel(svg: Svg, x: float, y: float, cs: float) -> None:
    """A tunnel: a dark arched doorway filling most of the cell."""
    w, top, bottom = cs * 0.3, y - cs * 0.12, y + cs * 0.42
    d = (f"M{x - w:.2f},{bottom:.2f} L{x - w:.2f},{top:.2f} A{w:.2f},{w:.2f} 0 0 1 {x + w:.2f},{top:.2f} "
         f"L{x + w:.2f},{bottom:.2f} Z")
    svg.path(d, fill=TUNNEL, stroke="#1a120a", stroke_width=1.2, class_="tunnel")


def draw_springshroom(svg: Svg, x: float, y: float, r: float) -> None:
    """A springshroom: a flat cyan cap on a zigzag spring."""
    zig = []
    n = 5
    for i in range(n + 1):
        zig.append((x + (r * 0.35 if i % 2 else -r * 0.35), y - r * 0.1 + i * r * 1.0 / n))
    svg.polyline(zig, stroke="#0b5560", stroke_width=max(1.0, r / 7), class_="springshroom")
    svg.line(x - r * 0.55, y + r * 0.92, x + r * 0.55, y + r * 0.92, stroke="#0b5560", stroke_width=max(1.0, r / 6))
    d = (f"M{x - r:.2f},{y - r * 0.1:.2f} A{r:.2f},{r * 0.6:.2f} 0 0 1 {x + r:.2f},{y - r * 0.1:.2f} Z")
    svg.path(d, fill=SPRING, stroke="#0b5560", stroke_width=max(1.0, r / 8))


def _flower_points(x: float, y: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(60):
        a = 2 * math.pi * i / 60 - math.pi / 2
        rr = r * (0.55 + 0.45 * abs(math.cos(2.5 * (a + math.pi / 2))))
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return pts


def draw_gnome(svg: Svg, edition: HedgeMageEdition, kind: str, awake: bool, x: float, y: float, r: float) -> None:
    """A gnome: its kind's shape (flower, mushroom cap, pumpkin) and colour, awake solid, asleep pale.

    The letter is the text notation's: upper case awake, lower case asleep.
    """
    col = gnome_colour(edition, kind)
    fill = col if awake else _mix(col)
    stroke = HEDGE_EDGE if awake else col
    sw = max(1.0, r / 9) if awake else max(1.0, r / 11)
    dash = None if awake else "3 2"
    state = "awake" if awake else "asleep"
    svg.open_group(class_=f"gnome {kind} {state}")
    ty = y + r * 0.36
    if kind == "flower":
        svg.polygon(_flower_points(x, y, r), fill=fill, stroke=stroke, stroke_width=sw, stroke_dasharray=dash)
    elif kind == "mushroom":
        svg.rect(x - r * 0.32, y - r * 0.05, r * 0.64, r * 0.95, fill="#f5e6c8" if awake else "#fbf5ea",
                 stroke=stroke, stroke_width=sw, stroke_dasharray=dash)
        d = (f"M{x - r:.2f},{y + r * 0.05:.2f} A{r:.2f},{r * 0.95:.2f} 0 0 1 {x + r:.2f},{y + r * 0.05:.2f} Z")
        svg.path(d, fill=fill, stroke=stroke, stroke_width=sw, stroke_dasharray=dash)
        ty = y - r * 0.08
    elif kind == "pumpkin":
        svg.rect(x - r * 0.1, y - r * 0.95, r * 0.2, r * 0.35, fill="#3d7a2a" if awake else "#9fc28f",
                 stroke=stroke, stroke_width=sw * 0.7)
        svg.element("ellipse", {"cx": float(x), "cy": float(y + r * 0.1), "rx": float(r), "ry": float(r * 0.78),
                                "fill": fill, "stroke": stroke, "stroke_width": sw, "stroke_dasharray": dash})
        svg.element("ellipse", {"cx": float(x), "cy": float(y + r * 0.1), "rx": float(r * 0.42),
                                "ry": float(r * 0.78), "fill": "none", "stroke": stroke,
                                "stroke_width": sw * 0.6, "stroke_dasharray": dash})
        ty = y + r * 0.42
    else:
        svg.circle(x, y, r * 0.85, fill=fill, stroke=stroke, stroke_width=sw, stroke_dasharray=dash)
    letter = _letter(edition, kind)
    svg.text(x, ty, letter.upper() if awake else letter.lower(), size=r * 0.95, fill="#ffffff" if awake else col,
             font_weight="bold")
    svg.close_group()


def draw_mage(svg: Svg, x: float, y: float, r: float, number: str = "", owner: str = "") -> None:
    """A mage: a blue pointed hat with a brim; its number (running) or a star, owner written under."""
    svg.open_group(class_="mage")
    svg.polygon([(x - r * 0.72, y + r * 0.55), (x + r * 0.1, y - r * 1.05), (x + r * 0.72, y + r * 0.55)],
                fill=MAGE, stroke="#ffffff", stroke_width=max(1.0, r / 10), stroke_linejoin="round")
    svg.element("ellipse", {"cx": float(x), "cy": float(y + r * 0.6), "rx": float(r), "ry": float(r * 0.26),
                            "fill": MAGE, "stroke": "#ffffff", "stroke_width": max(1.0, r / 10)})
    if number:
        svg.text(x + r * 0.04, y + r * 0.38, number, size=r * 0.95, fill="#ffffff", font_weight="bold")
    else:
        _star(svg, x + r * 0.02, y + r * 0.05, r * 0.3, points=5, fill="#f7dc6f", stroke="#7a6400")
    if owner:
        svg.text(x, y + r * 1.25, owner[:8], size=max(6.0, r * 0.55), fill=MAGE, stroke="#ffffff",
                 stroke_width=2.5, paint_order="stroke", font_weight="bold", class_="owner")
    svg.close_group()


def _badge(svg: Svg, x: float, y: float, r: float, text: str, fill: str, cls: str) -> None:
    svg.circle(x, y, r, fill=fill, stroke="#ffffff", stroke_width=1, class_=cls)
    svg.text(x, y + r * 0.38, text, size=r * 1.1, fill="#ffffff", font_weight="bold")


# -- the board -----------------------------------------------------------------------------------------


class _Board:
    """Geometry of one garden picture: cell size, board origin, and cell centres."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cs = float(max(12, min(56, 520 // max(rows, cols, 1))))
        self.left = MARGIN + 22.0
        self.top = 40.0 + 18.0
        self.width = self.cs * cols
        self.height = self.cs * rows

    def x(self, c: float) -> float:
        return self.left + c * self.cs

    def y(self, r: float) -> float:
        return self.top + r * self.cs

    def centre(self, cell: Cell) -> tuple[float, float]:
        return self.x(cell[1] + 0.5), self.y(cell[0] + 0.5)

    def inside(self, cell: Hashable) -> bool:
        return (isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(v, int) for v in cell)
                and 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols)


class _Scene:
    """What stands on the board, whichever kind of position it came from."""

    def __init__(self, board: Garden, edition: HedgeMageEdition) -> None:
        self.board = board
        self.edition = edition
        self.springshrooms: tuple[Cell, ...] = board.springshrooms
        self.mages: list[tuple[Cell, str, str]] = []  # cell, number, owner
        self.gnomes: list[tuple[Cell, str, bool, int | None]] = []  # cell, kind, awake, carried by (index)
        self.badges: dict[tuple[str, int], str] = {}  # ("mage"|"gnome", index) -> movement left


def _draw_cells(svg: Svg, b: _Board, scene: _Scene) -> None:
    g, ed, cs = scene.board, scene.edition, b.cs
    shaded: dict[Cell, int | None] = {}
    if (g.rows, g.cols) == (ed.rows, ed.cols):
        shaded.update({c: i + 1 for i, c in enumerate(ed.numbered)})
        shaded.update({c: None for c in ed.shaded})
    tunnels = set(g.tunnels)
    svg.open_group(class_="cells")
    for r in range(g.rows):
        for c in range(g.cols):
            cell = (r, c)
            hi = g.hedge_at.get(cell)
            if hi is not None:
                fill = tile_colour(ed, g.hedges[hi].tile)
                kind = "hedge"
            elif cell in shaded:
                fill, kind = SHADED, "shaded"
            else:
                fill, kind = GROUND, "ground"
            svg.rect(b.x(c), b.y(r), cs, cs, fill=fill, stroke=PALETTE["grid"], stroke_width=0.6,
                     class_=kind, data_cell=_cname(cell))
    svg.close_group()
    # hedge outlines: a thick edge wherever a hedge cell meets anything but its own hedge
    svg.open_group(class_="hedge-edges", stroke=HEDGE_EDGE, stroke_width=max(1.5, cs / 16), stroke_linecap="round")
    for cell, hi in sorted(g.hedge_at.items()):
        r, c = cell
        for (dr, dc), (x1, y1, x2, y2) in (((-1, 0), (c, r, c + 1, r)), ((1, 0), (c, r + 1, c + 1, r + 1)),
                                           ((0, -1), (c, r, c, r + 1)), ((0, 1), (c + 1, r, c + 1, r + 1))):
            if g.hedge_at.get((r + dr, c + dc)) != hi:
                svg.line(b.x(x1), b.y(y1), b.x(x2), b.y(y2))
    svg.close_group()
    occupied = {m[0] for m in scene.mages} | {gn[0] for gn in scene.gnomes}
    for cell, num in sorted(shaded.items()):
        if num is not None and cell not in g.hedge_at:
            svg.text(b.x(cell[1] + 1) - 3, b.y(cell[0]) + cs * 0.24, num, size=cs * 0.22, anchor="end",
                     fill=PALETTE["label"], font_weight="bold")
    for cell in sorted(tunnels):
        if b.inside(cell):
            x, y = b.centre(cell)
            draw_tunnel(svg, x, y, cs)
    bonus = set(g.bonus_sigils)
    for h in g.hedges:
        if b.inside(h.sigil):
            x, y = b.centre(h.sigil)
            if h.sigil in occupied:
                draw_sigil(svg, b.x(h.sigil[1]) + cs * 0.2, b.y(h.sigil[0]) + cs * 0.2, cs * 0.17)
            else:
                draw_sigil(svg, x, y + cs * 0.04, cs * 0.3)
            svg.text(b.x(h.sigil[1] + 1) - 2, b.y(h.sigil[0]) + cs * 0.25, h.tile, size=cs * 0.24, anchor="end",
                     fill="#ffffff", stroke=HEDGE_EDGE, stroke_width=max(1.5, cs / 18), paint_order="stroke",
                     font_weight="bold", class_="tile-name")
    for cell in sorted(bonus):
        if b.inside(cell):
            x, y = b.centre(cell)
            if cell in occupied:
                draw_bonus_token(svg, b.x(cell[1]) + cs * 0.2, b.y(cell[0]) + cs * 0.2, cs * 0.16)
            else:
                draw_bonus_token(svg, x, y, cs * 0.26)


def _draw_pieces(svg: Svg, b: _Board, scene: _Scene) -> None:
    cs, ed = b.cs, scene.edition
    chars: dict[Cell, list[tuple[str, int]]] = {}
    for i, m in enumerate(scene.mages):
        chars.setdefault(m[0], []).append(("mage", i))
    for i, gn in enumerate(scene.gnomes):
        chars.setdefault(gn[0], []).append(("gnome", i))
    for cell in sorted(scene.springshrooms):
        if b.inside(cell):
            x, y = b.centre(cell)
            if cell in chars:
                draw_springshroom(svg, b.x(cell[1]) + cs * 0.2, b.y(cell[0] + 1) - cs * 0.22, cs * 0.14)
            else:
                draw_springshroom(svg, x, y - cs * 0.05, cs * 0.3)
    r0 = cs * 0.34
    for cell in sorted(chars):
        if not b.inside(cell):
            continue
        x, y = b.centre(cell)
        who = chars[cell]
        mages = [i for k, i in who if k == "mage"]
        gnomes = [i for k, i in who if k == "gnome"]
        carried = [i for i in gnomes if scene.gnomes[i][3] is not None]
        if len(who) == 1:
            spots = [(x, y + cs * 0.02, r0)]
        elif len(mages) == 1 and len(gnomes) == 1 and carried:
            spots = [(x - cs * 0.1, y + cs * 0.1, r0 * 0.85), (x + cs * 0.2, y - cs * 0.2, r0 * 0.55)]
        else:
            q = cs * 0.23
            spots = [(x - q, y - q, r0 * 0.55), (x + q, y - q, r0 * 0.55), (x - q, y + q, r0 * 0.55),
                     (x + q, y + q, r0 * 0.55)]
        order = [("mage", i) for i in mages] + [("gnome", i) for i in gnomes]
        for (kind, i), (px, py, pr) in zip(order, spots, strict=False):
            if kind == "mage":
                _, number, owner = scene.mages[i]
                draw_mage(svg, px, py, pr, number, owner)
            else:
                _, gkind, awake, _carrier = scene.gnomes[i]
                draw_gnome(svg, ed, gkind, awake, px, py, pr)
            left = scene.badges.get((kind, i))
            if left is not None:
                _badge(svg, b.x(cell[1] + 1) - cs * 0.13, b.y(cell[0] + 1) - cs * 0.13, cs * 0.12, left,
                       MAGE if kind == "mage" else gnome_colour(ed, scene.gnomes[i][1]), "movement-left")
        if len(order) > len(spots):
            svg.text(x, y + cs * 0.45, f"+{len(order) - len(spots)}", size=cs * 0.22, fill=PALETTE["ink"])


def _draw_coordinates(svg: Svg, b: _Board) -> None:
    size = max(8.0, min(12.0, b.cs * 0.3))
    svg.open_group(class_="coordinates", fill=PALETTE["label"])
    for c in range(b.cols):
        svg.text(b.x(c + 0.5), b.top - 5, c, size=size)
    for r in range(b.rows):
        svg.text(b.left - 6, b.y(r + 0.5) + size * 0.35, r, size=size, anchor="end")
    svg.close_group()


def _cells_of(marks: Iterable[Hashable], b: _Board) -> list[Cell]:
    out: list[Cell] = []
    for c in marks:
        if b.inside(c) and c not in out:
            out.append(c)  # type: ignore[arg-type]
    return out


def _draw_mark_fills(svg: Svg, b: _Board, marks: Marks) -> None:
    for cell in _cells_of(marks.move, b):
        svg.rect(b.x(cell[1]), b.y(cell[0]), b.cs, b.cs, fill=PALETTE["move-fill"], class_="mark-move-fill",
                 data_cell=_cname(cell))
    for cell in _cells_of(marks.illegal, b):
        svg.rect(b.x(cell[1]), b.y(cell[0]), b.cs, b.cs, fill=PALETTE["illegal-fill"], class_="mark-illegal-fill",
                 data_cell=_cname(cell))


def _draw_mark_outlines(svg: Svg, b: _Board, marks: Marks) -> None:
    cs = b.cs
    for cell in _cells_of(marks.move, b):
        svg.rect(b.x(cell[1]) + 1.5, b.y(cell[0]) + 1.5, cs - 3, cs - 3, fill="none", stroke=PALETTE["move"],
                 stroke_width=3, class_="move", data_cell=_cname(cell))
    for cell in _cells_of(marks.illegal, b):
        x, y = b.x(cell[1]), b.y(cell[0])
        svg.rect(x + 3, y + 3, cs - 6, cs - 6, fill="none", stroke=PALETTE["illegal"], stroke_width=3,
                 stroke_dasharray="5 3", class_="illegal", data_cell=_cname(cell))
        # a small cross in the corner: broken rule, readable without colour
        k = cs * 0.12
        svg.path(f"M{x + 5:.2f},{y + 5:.2f} l{k:.2f},{k:.2f} M{x + 5 + k:.2f},{y + 5:.2f} l{-k:.2f},{k:.2f}",
                 stroke=PALETTE["illegal"], stroke_width=2)


def _draw_routes(svg: Svg, b: _Board, marks: Marks, numbered: bool) -> None:
    cs = b.cs
    colour = PALETTE["path"]
    for n, route in enumerate(marks.routes):
        cells = [c for c in route if b.inside(c)]
        if not cells:
            continue
        off = ((n % 3) - 1) * cs * 0.08
        pts = [(b.centre(c)[0] + off, b.centre(c)[1] + off) for c in cells]  # type: ignore[arg-type]
        dedup = [pts[0]] + [p for i, p in enumerate(pts[1:]) if p != pts[i]]
        svg.open_group(class_="route", data_route=str(n + 1))
        svg.circle(dedup[0][0], dedup[0][1], cs * 0.07, fill=colour)
        if len(dedup) == 1:
            svg.circle(dedup[0][0], dedup[0][1], cs * 0.3, fill="none", stroke=colour, stroke_width=3, opacity=0.85)
        else:
            svg.polyline(dedup, stroke=colour, stroke_width=max(2.0, cs / 13), stroke_linejoin="round",
                         stroke_linecap="round", opacity=0.85)
            (x1, y1), (x2, y2) = dedup[-2], dedup[-1]
            a = math.atan2(y2 - y1, x2 - x1)
            h = cs * 0.26
            tip = (x2 - math.cos(a) * cs * 0.12, y2 - math.sin(a) * cs * 0.12)
            svg.polygon([tip, (tip[0] - h * math.cos(a - 0.45), tip[1] - h * math.sin(a - 0.45)),
                         (tip[0] - h * math.cos(a + 0.45), tip[1] - h * math.sin(a + 0.45))], fill=colour,
                        opacity=0.95)
        if numbered and len(marks.routes) > 1:  # the plan's order, a third along the first step
            (x1, y1), (x2, y2) = dedup[0], dedup[1] if len(dedup) > 1 else dedup[0]
            _badge(svg, x1 + (x2 - x1) * 0.36, y1 + (y2 - y1) * 0.36, cs * 0.13, str(n + 1), colour, "route-number")
        svg.close_group()


def _draw_labels(svg: Svg, b: _Board, marks: Marks) -> None:
    for cell, text in sorted(marks.labels.items(), key=lambda kv: str(kv[0])):
        if not b.inside(cell):
            continue
        x, y = b.x(cell[1] + 0.5), b.y(cell[0] + 1) - 3  # type: ignore[index]
        size = max(7.0, b.cs * 0.24)
        w = size * 0.62 * len(text) + 4
        svg.rect(x - w / 2, y - size, w, size + 2, fill="#ffffff", opacity=0.85, rx=2)
        svg.text(x, y - 1, text, size=size, fill=PALETTE["ink"], font_weight="bold", class_="label")


# -- the side panel ------------------------------------------------------------------------------------


class _Panel:
    """Lines of text (and small drawings) down the right-hand side."""

    def __init__(self, svg: Svg, x: float, y: float) -> None:
        self.svg, self.x, self.y = svg, x, y
        self.width = PANEL - MARGIN

    def head(self, text: str) -> None:
        self.y += 6
        self.svg.text(self.x, self.y + 12, text, size=12.5, anchor="start", fill=PALETTE["ink"], font_weight="bold")
        self.y += 17

    def line(self, text: str, size: float = 11.0, colour: str | None = None) -> None:
        for part in textwrap.wrap(text, width=int(self.width / (size * 0.56))) or [""]:
            self.svg.text(self.x + 4, self.y + size, part, size=size, anchor="start",
                          fill=colour or PALETTE["ink"])
            self.y += size + 3

    def tile(self, edition: HedgeMageEdition, name: str) -> None:
        """A small drawing of a tile (its cells, the sigil cell starred)."""
        t = edition.tiles.get(name)
        if t is None:
            return
        s = 16.0
        for r, c in t.cells:
            self.svg.rect(self.x + 4 + c * s, self.y + r * s, s, s, fill=tile_colour(edition, name), stroke=HEDGE_EDGE,
                          stroke_width=1.2, class_="revealed-tile")
        sr, sc = t.sigil
        draw_sigil(self.svg, self.x + 4 + (sc + 0.5) * s, self.y + (sr + 0.5) * s, s * 0.36)
        self.y += s * (1 + max(r for r, _ in t.cells)) + 6

    def legend(self, edition: HedgeMageEdition, running: bool) -> None:
        self.head("Legend")
        svg, r = self.svg, 8.0
        kinds = list(edition.gnome_kinds)
        x0 = self.x + 12
        for i, kind in enumerate(kinds):
            draw_gnome(svg, edition, kind, True, x0 + i * 24, self.y + 9, r)
            draw_gnome(svg, edition, kind, False, x0 + i * 24, self.y + 31, r)
        tx = x0 + len(kinds) * 24 - 6
        svg.text(tx, self.y + 13, "awake: solid, capital", size=9.5, anchor="start", fill=PALETTE["ink"])
        svg.text(tx, self.y + 35, "asleep: pale, dashed", size=9.5, anchor="start", fill=PALETTE["ink"])
        self.y += 44
        self.line("gnomes: " + ", ".join(f"{_letter(edition, k)} {k}" for k in kinds), size=9.5)
        self.y += 2
        items: list[tuple[str, str]] = [
            ("mage", "mage (number: movement left)" if running else "mage (owner under it)"),
            ("carried", "gnome on a mage: carried"),
            ("tunnel", "tunnel"),
            ("spring", "springshroom"),
            ("sigil", "sigil (tile name beside it)"),
            ("token", "bonus sigil token"),
            ("shaded", "shaded space (number: tunnel space)"),
        ]
        for what, text in items:
            cx, cy = self.x + 14, self.y + 9
            if what == "mage":
                draw_mage(svg, cx, cy + 1, r, "1" if running else "")
                if running:
                    _badge(svg, cx + 10, cy + 7, 5, "3", MAGE, "legend")
            elif what == "carried":
                draw_mage(svg, cx - 2, cy + 2, r * 0.8, "1" if running else "")
                draw_gnome(svg, edition, kinds[0] if kinds else "?", True, cx + 6, cy - 5, r * 0.5)
            elif what == "tunnel":
                svg.rect(cx - 9, cy - 9, 18, 18, fill=GROUND, stroke=PALETTE["grid"], stroke_width=0.6)
                draw_tunnel(svg, cx, cy, 18)
            elif what == "spring":
                draw_springshroom(svg, cx, cy - 1, r)
            elif what == "sigil":
                svg.rect(cx - 9, cy - 9, 18, 18, fill=HEDGE_COLOURS[0], stroke=HEDGE_EDGE, stroke_width=1.2)
                draw_sigil(svg, cx, cy, 7)
            elif what == "token":
                svg.rect(cx - 9, cy - 9, 18, 18, fill=HEDGE_COLOURS[1], stroke=HEDGE_EDGE, stroke_width=1.2)
                draw_bonus_token(svg, cx, cy, 6.5)
            elif what == "shaded":
                svg.rect(cx - 9, cy - 9, 18, 18, fill=SHADED, stroke=PALETTE["grid"], stroke_width=0.6)
                svg.text(cx + 7, cy - 2, "2", size=6, anchor="end", fill=PALETTE["label"], font_weight="bold")
            svg.text(self.x + 32, self.y + 13, text, size=9.5, anchor="start", fill=PALETTE["ink"])
            self.y += 22

    def answer_legend(self, marks: Marks, numbered: bool) -> None:
        svg = self.svg
        rows: list[tuple[str, str]] = []
        if marks.move:
            rows.append(("move", "cells of the move"))
        if marks.illegal:
            rows.append(("illegal", "cells of a broken rule"))
        if marks.routes:
            rows.append(("path", "route (numbered in plan order)" if numbered and len(marks.routes) > 1
                         else "route"))
        for what, text in rows:
            cx, cy = self.x + 14, self.y + 9
            if what == "path":
                svg.line(cx - 9, cy, cx + 5, cy, stroke=PALETTE["path"], stroke_width=3)
                svg.polygon([(cx + 9, cy), (cx + 3, cy - 4), (cx + 3, cy + 4)], fill=PALETTE["path"])
            else:
                dash = "5 3" if what == "illegal" else None
                svg.rect(cx - 8, cy - 8, 16, 16, fill=PALETTE[f"{what}-fill"], stroke=PALETTE[what], stroke_width=2.5,
                         stroke_dasharray=dash)
            svg.text(self.x + 32, self.y + 13, text, size=9.5, anchor="start", fill=PALETTE["ink"])
            self.y += 22


# -- whole pictures ------------------------------------------------------------------------------------


def _picture(scene: _Scene, title: str, marks: Marks | None, panel: Any, running: bool, numbered: bool) -> str:
    """Lay out board, coordinates, panel, legend and caption; ``panel`` fills the panel's first lines."""
    marks = marks or Marks()
    g = scene.board
    b = _Board(g.rows, g.cols)
    width = max(b.left + b.width + 2 * MARGIN + PANEL, 2 * MARGIN + len(title) * 9.4)
    probe = Svg(width, 100)
    p = _Panel(probe, b.left + b.width + 2 * MARGIN, b.top - 18)
    panel(p)
    p.answer_legend(marks, numbered)
    p.legend(scene.edition, running)
    chars = int((width - 2 * MARGIN) / 6.7)
    caption = []
    for para in marks.caption.split("\n") if marks.caption else []:
        caption += textwrap.wrap(para, width=chars) or [""]
    board_bottom = b.top + b.height + 10
    body = max(board_bottom, p.y + 6)
    height = body + (len(caption) * 16 + 10 if caption else 4)
    svg = Svg(width, height, title=title)
    svg.text(MARGIN, 24, title, size=15, anchor="start", fill=PALETTE["ink"], font_weight="bold", class_="title")
    svg.open_group(class_="board")
    _draw_cells(svg, b, scene)
    _draw_mark_fills(svg, b, marks)
    _draw_pieces(svg, b, scene)
    _draw_mark_outlines(svg, b, marks)
    _draw_routes(svg, b, marks, numbered)
    _draw_labels(svg, b, marks)
    svg.rect(b.left, b.top, b.width, b.height, fill="none", stroke=PALETTE["ink"], stroke_width=1.5)
    svg.close_group()
    _draw_coordinates(svg, b)
    svg.open_group(class_="panel")
    p = _Panel(svg, b.left + b.width + 2 * MARGIN, b.top - 18)
    panel(p)
    p.answer_legend(marks, numbered)
    p.legend(scene.edition, running)
    svg.close_group()
    for i, line in enumerate(caption):
        svg.text(MARGIN, body + 14 + i * 16, line, size=12, anchor="start",
                 fill=PALETTE["illegal"] if marks.illegal or "[" in marks.caption else PALETTE["ink"],
                 class_="caption")
    return str(svg)


def garden_svg(garden: Garden, edition: HedgeMageEdition, marks: Marks | None = None, numbered: bool = True) -> str:
    """The picture of a building-phase garden (the models ``Garden``), with ``marks`` drawn on it.

    ``numbered``: number the routes (a plan's order); off for a set of alternatives.
    """
    scene = _Scene(garden, edition)
    scene.mages = [(m.at, "", m.owner or "") for m in garden.mages]
    mage_cells = [m.at for m in garden.mages]
    scene.gnomes = [(gn.at, gn.kind, gn.awake, mage_cells.index(gn.at) if gn.at in mage_cells else None)
                    for gn in garden.gnomes]
    tile = garden.tile or "-"
    title = f"Hedge Mage: garden {garden.rows}x{garden.cols}, round {garden.round}, revealed tile {tile}"

    def panel(p: _Panel) -> None:
        p.head(f"Revealed tile: {tile}")
        if garden.tile is not None:
            p.tile(edition, garden.tile)
        p.line("Held: " + (" ".join(garden.remaining_tiles) or "-"))
        sub = "unused" if not garden.substitution_used else (
            f"used, kept {garden.kept_tile}" if garden.kept_tile else "used")
        p.line(f"Substitution ({edition.substitute or '-'}): {sub}")
        p.line(f"Bonus sigil tokens held: {garden.held_bonus_sigils}")
        p.head("In the garden")
        for kind in edition.gnome_kinds:
            gs = [gn for gn in garden.gnomes if gn.kind == kind]
            p.line(f"{kind} gnomes: {len(gs)} ({sum(1 for gn in gs if gn.awake)} awake)")
        if garden.mages:
            p.line("Mages: " + ", ".join(_cname(m.at) + (f" ({m.owner})" if m.owner else "") for m in garden.mages))
        if garden.springshrooms:
            p.line("Springshrooms: " + " ".join(_cname(c) for c in garden.springshrooms))

    return _picture(scene, title, marks, panel, running=False, numbered=numbered)


def run_svg(run: RunPosition, edition: HedgeMageEdition, marks: Marks | None = None, numbered: bool = True) -> str:
    """The picture of a running position (the models ``RunPosition``): characters, carried gnomes, movement left.

    ``numbered`` as for :func:`garden_svg`.
    """
    scene = _Scene(run.board, edition)
    scene.springshrooms = run.springshrooms
    allowance = run.allowance
    scene.mages = [(at, str(i + 1), "") for i, at in enumerate(run.mages)]
    scene.gnomes = [(gn.at, gn.kind, gn.awake, gn.carried_by) for gn in run.gnomes]
    for i, used in enumerate(run.mage_used):
        scene.badges[("mage", i)] = str(max(0, allowance - used))
    for i, gn in enumerate(run.gnomes):
        if gn.moved is not None:
            scene.badges[("gnome", i)] = str(max(0, allowance - gn.moved))
    title = (f"Hedge Mage: maze running, round {run.round}, allowance {allowance} "
             f"({run.points} point{'s' if run.points != 1 else ''} + {run.spent} token{'s' if run.spent != 1 else ''})")

    def panel(p: _Panel) -> None:
        p.head("Movement left")
        for i, at in enumerate(run.mages):
            used = run.mage_used[i] if i < len(run.mage_used) else 0
            ci = run.carried(i)
            carry = ""
            if ci is not None:
                cg = run.gnomes[ci]
                carry = f", carries {'an awake' if cg.awake else 'a sleeping'} {cg.kind} gnome"
            p.line(f"mage {i + 1} at {_cname(at)}: {max(0, allowance - used)} of {allowance}{carry}")
        for kind in edition.gnome_kinds:
            mover = next((gn for gn in run.gnomes if gn.kind == kind and gn.moved is not None), None)
            awake = any(gn.kind == kind and gn.awake for gn in run.gnomes)
            if mover is not None:
                state = f"the one at {_cname(mover.at)} moved: {max(0, allowance - mover.moved)} left"  # type: ignore[operator]
            elif kind in run.rescued_movers:
                state = "used (the mover was rescued)"
            elif awake:
                state = f"one awake gnome may move {allowance}"
            else:
                state = "none awake"
            p.line(f"{kind}: {state}")
        if run.transit is not None:
            kind, i = run.transit
            who = f"mage {i + 1}" if kind != "gnome" else f"the {run.gnomes[i].kind} gnome"
            p.line(f"{who} is passing through and must move on", colour=PALETTE["illegal"])
        p.head("Supply")
        p.line(f"movement tokens: {run.tokens} (cap {edition.movement_token_cap})")
        p.line(f"springshroom tokens: {run.springshroom_tokens}")
        p.line(f"bonus sigil tokens: {run.sigil_tokens}")
        p.line("rescued: " + (", ".join(f"{k} {n}" for k, n in run.rescued) or "-"))
        names = []
        for e in run.enchantments:
            try:
                ench = edition.enchantment(e)
                names.append(f"{ench.name} ({ench.kind})")
            except KeyError:
                names.append(e)
        p.line("enchantments: " + (", ".join(names) or "-"))

    return _picture(scene, title, marks, panel, running=True, numbered=numbered)


def position_svg(pos: Any, marks: Marks | None = None, numbered: bool = True) -> str:
    """The picture of a Hedge Mage protocol position (garden or running), with ``marks`` drawn on it.

    ``numbered``: number the routes in plan order (off when they are alternatives, as in ``moves``).
    """
    from gnomekit.models.hedge_mage.game import GardenPosition, RunningPosition

    if isinstance(pos, GardenPosition):
        return garden_svg(pos.garden, pos.game.edition, marks, numbered)
    if isinstance(pos, RunningPosition):
        return run_svg(pos.run, pos.game.edition, marks, numbered)
    raise TypeError(f"not a Hedge Mage position: {type(pos).__name__}")


# -- answers -------------------------------------------------------------------------------------------


def _actions(pos: Any, move: Any) -> list[Action]:
    """The running actions of a move, a list of moves, an action, or plan text."""
    if isinstance(move, Action):
        return [move]
    if isinstance(move, str):
        from gnomekit.models.hedge_mage.running_notation import parse_plan

        return parse_plan(move, pos.game.edition)
    if isinstance(move, Sequence):
        out: list[Action] = []
        for m in move:
            out += _actions(pos, m)
        return out
    actions = getattr(move, "actions", None)
    if actions is None:
        raise TypeError(f"not a running move: {type(move).__name__}")
    return list(actions)


def _action_route(run: RunPosition, a: Action) -> tuple[Cell, ...]:
    """The cells an action takes a character through, from where it stands (empty for a token)."""
    m = a.mage
    here = run.mages[m] if m is not None and 0 <= m < len(run.mages) else None
    if a.kind == "step":
        start = here if m is not None else a.at
        return ((start,) if start is not None else ()) + a.path + a.bounces
    if a.kind == "pickup" and a.path:
        return (a.path[0],) + ((here,) if here is not None else ())
    if a.kind == "drop" and a.path:
        return ((here,) if here is not None else ()) + (a.path[0],) + a.bounces
    if a.kind == "shroom":
        return a.path + a.bounces
    return ()


def plan_marks(pos: Any, move: Any, caption: str = "") -> Marks:
    """Marks for a running move or plan: every character's route (consecutive steps joined), pick-ups and
    drops labelled; the first illegal action's cells marked illegal (running rules name no cells)."""
    ed = pos.game.edition
    actions = _actions(pos, move)
    rep = execute_plan(pos.run, ed, actions)
    before = [rep.start] + [s.position for s in rep.steps]
    routes: list[tuple[str, list[Cell]]] = []
    labels: dict[Hashable, str] = {}
    moved: list[Cell] = []
    illegal: list[Cell] = []

    def label(cell: Cell, text: str) -> None:
        labels[cell] = f"{labels[cell]} {text}" if cell in labels and text not in labels[cell] else text

    for i, a in enumerate(actions):
        if i >= len(before):
            break
        route = list(_action_route(before[i], a))
        if i == rep.failed:
            illegal += route
            break
        if a.kind in ("pickup", "drop") and a.path:
            moved.append(a.path[0])
            label(a.path[0], "pick" if a.kind == "pickup" else "drop")
        if a.kind == "shroom" and a.path:
            moved.append(a.path[0])
            label(a.path[0], "^")
        who = a.who if a.kind == "step" else f"{a.kind}{i}"
        if len(set(route)) < 2:
            continue
        if routes and a.kind == "step" and routes[-1][0] == who and routes[-1][1][-1] == route[0]:
            routes[-1][1].extend(route[1:])
        else:
            routes.append((who, route))
    if rep.failed is not None and rep.failed >= len(actions) and rep.final.transit is not None:
        kind, k = rep.final.transit  # the plan ends with this character sharing a space
        illegal.append(rep.final.mages[k] if kind != "gnome" else rep.final.gnomes[k].at)
    words = caption
    if not words:
        text = " ".join(_action_text(a, ed) for a in actions)
        if rep.legal:
            words = f"{text or '(empty plan)'}: legal"
        else:
            words = f"{text}: " + "; ".join(f"[{r}] {m}" for r, m in rep.reasons)
    return Marks(move=tuple(dict.fromkeys(moved)), illegal=tuple(dict.fromkeys(illegal)),
                 routes=tuple(tuple(r) for _, r in routes), caption=words, labels=labels)


def _action_text(a: Action, ed: HedgeMageEdition) -> str:
    from gnomekit.models.hedge_mage.running_notation import action_to_text

    return action_to_text(a, ed)


def move_cells(pos: Any, move: Any) -> tuple[Cell, ...]:
    """The cells a move occupies or passes: a placement's cells; a running move's walked and target cells."""
    from gnomekit.models.hedge_mage.game import GardenPosition

    if isinstance(pos, GardenPosition):
        return tuple(pos.move_cells(move))  # type: ignore[arg-type]
    ed = pos.game.edition
    actions = _actions(pos, move)
    rep = execute_plan(pos.run, ed, actions)
    before = [rep.start] + [s.position for s in rep.steps]
    out: list[Cell] = []
    for i, a in enumerate(actions):
        run = before[i] if i < len(before) else before[-1]
        out += _action_route(run, a)
    return tuple(dict.fromkeys(out))


def check_marks(pos: Any, move: Any) -> Marks:
    """Marks for ``check``: the move's cells, every broken rule's cells, and for running its routes."""
    from gnomekit.models.hedge_mage.game import GardenPosition

    if isinstance(pos, GardenPosition):
        mv = pos._move(move)
        rep = pos.check(mv)
        marks = Marks.of_report(rep, pos.move_cells(mv))
        labels: dict[Hashable, str] = {mv.sigil: "sigil"}
        for t in rep.detail.placement.tokens:  # the bonus sigil tokens, where check put them
            labels[t] = "token"
        return Marks(marks.move, marks.illegal, (), marks.caption, labels)
    return plan_marks(pos, move)


def check_svg(pos: Any, move: Any) -> str:
    """The picture ``check`` shows: the position with the move (or running plan) and its verdict drawn."""
    return position_svg(pos, check_marks(pos, move))


def moves_marks(pos: Any, moves: Sequence[Any] | None = None) -> Marks:
    """Marks for ``moves``: every legal move's cells; on a garden each cell labelled with how many
    placements cover it, on a running position every move's route."""
    from gnomekit.models.hedge_mage.game import GardenPosition

    ms = list(pos.legal_moves() if moves is None else moves)
    if isinstance(pos, GardenPosition):
        count: dict[Hashable, int] = {}
        for m in ms:
            for c in pos.move_cells(m):
                count[c] = count.get(c, 0) + 1
        tiles = ", ".join(dict.fromkeys(getattr(m, "tile", "?") for m in ms))
        cap = (f"{len(ms)} legal placement{'s' if len(ms) != 1 else ''}" + (f" of {tiles}" if tiles else "")
               + ": a cell's number is how many of them cover it")
        return Marks(move=tuple(count), caption=cap, labels={c: str(n) for c, n in count.items()})
    routes: list[tuple[Hashable, ...]] = []
    shown: list[str] = []
    plain = 0
    for m in ms:
        pm = plan_marks(pos, m)
        if not pm.routes:  # a token spent, a springshroom placed where nobody stands
            plain += 1
            continue
        routes += pm.routes
        shown.append(str(m))
    cap = f"{len(ms)} legal running move{'s' if len(ms) != 1 else ''}"
    if plain:
        cap += f" ({plain} without a route not drawn: tokens, springshrooms where nobody stands)"
    return Marks(routes=tuple(routes), caption=cap + (": " + " ".join(shown) if shown else ""))


def moves_svg(pos: Any, moves: Sequence[Any] | None = None) -> str:
    """The picture ``moves`` shows: every legal move drawn on the position (routes not numbered)."""
    return position_svg(pos, moves_marks(pos, moves), numbered=False)


def answer_marks(pos: Any, answer: Any, caption: str = "") -> Marks:
    """Marks for a solver's witness or a hint's move: a placement, a sequence of placements (numbered in
    order), a running plan (its routes), or ground regions (numbered, the ``connected`` goal)."""
    from gnomekit.models.hedge_mage.game import GardenPosition, PlacementMove, RunMove

    if answer is not None and not isinstance(answer, str | Sequence | PlacementMove | RunMove | Action) \
            and hasattr(answer, "plan") and hasattr(answer, "move"):  # a hint: its move, or its whole plan
        caption = caption or str(answer)
        answer = answer.move if isinstance(pos, GardenPosition) else answer.plan
    if answer is None:
        return Marks(caption=caption or "no move")
    if isinstance(pos, GardenPosition):
        if isinstance(answer, PlacementMove):
            return Marks(move=tuple(answer.cells), caption=caption or str(answer), labels={answer.sigil: "sigil"})
        items = list(answer)
        if items and all(isinstance(m, PlacementMove) for m in items):
            labels: dict[Hashable, str] = {}
            cells: list[Hashable] = []
            for n, m in enumerate(items):
                for c in m.cells:
                    cells.append(c)
                    labels[c] = str(n + 1)
            return Marks(move=tuple(dict.fromkeys(cells)), labels=labels,
                         caption=caption or " then ".join(f"{n + 1}: {m}" for n, m in enumerate(items)))
        if items and all(isinstance(r, list | tuple) and r and isinstance(r[0], tuple) for r in items):
            labels = {c: str(n + 1) for n, region in enumerate(items) for c in region}
            return Marks(labels=labels, caption=caption or f"{len(items)} ground region(s), numbered largest first")
        raise TypeError(f"cannot draw a garden answer of type {type(answer).__name__}")
    return plan_marks(pos, answer, caption)


def answer_svg(pos: Any, answer: Any, caption: str = "") -> str:
    """The picture for ``solve`` and ``hint``: the position with the witness move or plan drawn."""
    return position_svg(pos, answer_marks(pos, answer, caption))
