"""Gnome Hollow pictures: the hex table as SVG, and as an ASCII map for a terminal.

``position_svg`` draws a protocol position (:class:`GnomeHollowPosition`): every tile of the garden
with its mushroom paths (each path coloured by its mushroom, drawn between the edges it joins in the
tile's orientation), the Stump, wildflower tiles, completed rings highlighted and lettered, open path
ends, gnomes in their player's colour (standing upright, lying on their side), pots and signposts,
the empty hexes a tile may go on, and axial ``q,r`` coordinates on every hex; beside the board the
offered tiles and each player's stored tiles, mushrooms, flowers, ring markers and score.  Answers
are drawn from :class:`Marks` (a placement's hex, a broken rule's hexes, a route) and, for a
placement or a plan that is not on the table yet, the planned tiles themselves (dashed, numbered).

``ascii_map`` is the same table in text: one hex per tile with its id, ``q,r`` and orientation, the
rings it belongs to and the gnomes on it, cut into bands that fit a terminal's width.

The hex geometry is :mod:`gnomekit.models.core.hexgrid`'s: flat-topped, axial ``(q, r)``, edges
0-5 clockwise from north.  The drawn table is the one the turn in progress has reached (this
turn's tiles laid, rings resolved once the engine got there).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gnomekit.models.core.hexgrid import Hex, frontier, hex_name, neighbour
from gnomekit.models.core.svg import PALETTE, Marks, Svg
from gnomekit.models.gnome_hollow.edition import STUMP_ID, GnomeHollowEdition, Tile
from gnomekit.models.gnome_hollow.networks import ClosedNetwork, PathKey
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.position import FLOWERS, MARKET, Gnome, Position, edge_mismatches
from gnomekit.models.gnome_hollow.scoring import final_scores

if TYPE_CHECKING:
    from gnomekit.models.gnome_hollow.game import GnomeHollowPosition

SQRT3 = math.sqrt(3.0)

#: Mushroom colours of the default edition (another edition's colours fall back to ``_SPARE``).
MUSHROOM_COLOURS = {"red": "#d1352b", "yellow": "#e9b816", "pink": "#f08cb8", "teal": "#1f9e8f",
                    "purple": "#7a4aa8"}
#: Player colours by player name (names are usually colours); others take ``_SPARE`` by seat.
PLAYER_COLOURS = {"red": "#c8322a", "blue": "#2f62d0", "green": "#2e9a46", "yellow": "#e3b100",
                  "purple": "#8a43b0", "orange": "#e57a1e", "black": "#333333", "white": "#f4f4f4",
                  "pink": "#e86fa8", "teal": "#1f9e8f"}
FLOWER_COLOURS = {"clover": "#c86b9e", "lily": "#7d74d0", "larkspur": "#4f78d8", "yarrow": "#efe7cf",
                  "daisy": "#ffffff", "rose": "#e4587f", "geranium": "#b062cf", "paintbrush": "#e4513a"}
_SPARE = ("#8c564b", "#17becf", "#bcbd22", "#7f7f7f", "#9467bd", "#ff7f0e")
GRASS = "#cfe4b2"
GRASS_EDGE = "#7f9a68"
STUMP = "#a97c50"
PATH_PLAIN = "#f6f0df"  # a path without a mushroom (the Stump's)
SKIN = "#f3d3b0"
PANEL_W = 262
#: Text drawn over paths keeps a light outline so it stays readable.
HALO: dict[str, Any] = {"stroke": "#ffffff", "stroke_width": 2.5, "stroke_opacity": "0.8", "paint_order": "stroke"}


def _colour(table: dict[str, str], name: str, i: int) -> str:
    return table.get(name, _SPARE[i % len(_SPARE)])


def mushroom_colour(ed: GnomeHollowEdition, colour: str | None) -> str:
    """The drawing colour of a mushroom colour of the edition (None: a plain path)."""
    if colour is None:
        return PATH_PLAIN
    return _colour(MUSHROOM_COLOURS, colour, ed.colours.index(colour) if colour in ed.colours else 0)


def player_colours(pos: Position) -> dict[str, str]:
    """Each player's drawing colour (their name when it is a colour, else a spare one by seat)."""
    return {p.name: _colour(PLAYER_COLOURS, p.name, i) for i, p in enumerate(pos.players)}


# ---------------------------------------------------------------------------------------------
# the table a picture shows


def drawn_table(pos: GnomeHollowPosition) -> Position:
    """The engine table the turn in progress has reached: this turn's tiles laid, and once the
    engine resolved the turn (ring markers, refill) the table after that."""
    phase, detail = pos._state
    if phase == "action":
        return detail  # type: ignore[no-any-return]
    if phase == "marker":
        return detail.table.freeze()  # type: ignore[no-any-return]
    start = pos.start
    placed = start.lay(pos.placements).tiles[len(start.tiles):]  # one turn's tiles (option ring_check)
    if not placed:
        return start
    ids = {p.tile for p in placed}
    offered = tuple(t for t in start.offered if t not in ids)
    players = tuple(replace(p, storage=tuple(s for s in p.storage if s not in ids)) if i == start.to_move else p
                    for i, p in enumerate(start.players))
    return replace(start, tiles=start.tiles + tuple(placed), offered=offered, players=players)


def phase_words(pos: GnomeHollowPosition) -> str:
    """Whose turn and where in it, for the title line."""
    phase = pos.phase
    who = pos.start.mover.name
    if phase == "terminal":
        return f"game over: {pos.result()}"
    if pos.final is not None:
        return f"{who}: final gnome action ({pos.final + 1} of {len(pos.start.players)})"
    if phase == "place":
        n = len(pos.placements)
        return f"{who} to move: place tiles" + (f" ({n} placed this turn)" if n else "")
    if phase == "marker":
        need = pos._state[1]
        return f"{who} to move: a ring marker for the {need.ring.size}-tile ring"
    if phase == "chance":
        return f"{who}'s turn: a tile is drawn from the bag ({len(pos._state[1].bag)} left)"
    return f"{who} to move: gnome action or pass"


# ---------------------------------------------------------------------------------------------
# hex geometry


class _Geo:
    """Pixel positions of hexes of size ``s`` (centre to corner) with axial origin at ``(ox, oy)``."""

    def __init__(self, s: float, ox: float, oy: float) -> None:
        self.s, self.ox, self.oy = s, ox, oy

    def centre(self, cell: Hex) -> tuple[float, float]:
        q, r = cell
        return (self.ox + self.s * 1.5 * q, self.oy + self.s * SQRT3 * (r + q / 2))

    def corners(self, cell: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(cell)
        s = self.s * scale
        return [(cx + s * math.cos(math.radians(60 * i)), cy + s * math.sin(math.radians(60 * i))) for i in range(6)]

    def edge_mid(self, cell: Hex, edge: int, scale: float = 1.0) -> tuple[float, float]:
        cx, cy = self.centre(cell)
        a = math.radians(-90 + 60 * edge)
        d = self.s * SQRT3 / 2 * scale
        return (cx + d * math.cos(a), cy + d * math.sin(a))


def _bezier(cx: float, cy: float, a: tuple[float, float], b: tuple[float, float], t: float
            ) -> tuple[float, float]:
    """Point ``t`` of the path curve from edge midpoint ``a`` to ``b`` bending through the centre."""
    k = 0.55
    a2 = (a[0] + (cx - a[0]) * k, a[1] + (cy - a[1]) * k)
    b2 = (b[0] + (cx - b[0]) * k, b[1] + (cy - b[1]) * k)
    u = 1 - t
    return (u ** 3 * a[0] + 3 * u * u * t * a2[0] + 3 * u * t * t * b2[0] + t ** 3 * b[0],
            u ** 3 * a[1] + 3 * u * u * t * a2[1] + 3 * u * t * t * b2[1] + t ** 3 * b[1])


def _n(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _curve_d(cx: float, cy: float, a: tuple[float, float], b: tuple[float, float]) -> str:
    k = 0.55
    a2 = (a[0] + (cx - a[0]) * k, a[1] + (cy - a[1]) * k)
    b2 = (b[0] + (cx - b[0]) * k, b[1] + (cy - b[1]) * k)
    return (f"M{_n(a[0])},{_n(a[1])} C{_n(a2[0])},{_n(a2[1])} {_n(b2[0])},{_n(b2[1])} "
            f"{_n(b[0])},{_n(b[1])}")


# ---------------------------------------------------------------------------------------------
# pieces


def _draw_tile(svg: Svg, ed: GnomeHollowEdition, geo: _Geo, tile: Tile, cell: Hex, orientation: int,
               casing: dict[PathKey, str] | None = None, labels: bool = True, dashed: bool = False) -> None:
    """One tile: hex, paths between their edges (a completed ring's paths cased in the colour
    ``casing`` gives), mushrooms, id and q,r."""
    s = geo.s
    casing = casing or {}
    cx, cy = geo.centre(cell)
    if labels:
        svg.open_group(class_="tile", data_tile=tile.id, data_cell=hex_name(cell))
    else:  # an off-board tile (offered, stored)
        svg.open_group(class_="small-tile", data_tile=tile.id)
    fill = STUMP if tile.stump else ("#f5efdc" if tile.wildflower else GRASS)
    svg.polygon(geo.corners(cell), fill=fill, stroke=GRASS_EDGE, stroke_width=1.2,
                stroke_dasharray="4 3" if dashed else None, opacity="0.85" if dashed else None)
    if tile.wildflower:
        _flower(svg, cx, cy - s * 0.05, s * 0.2, _colour(FLOWER_COLOURS, tile.flower or "", 0))
    if tile.stump:
        svg.circle(cx, cy, s * 0.42, fill="#c39a6b", stroke="#7a5530", stroke_width=1)
        svg.circle(cx, cy, s * 0.26, fill="none", stroke="#7a5530", stroke_width=0.8)
    for i, p in enumerate(tile.paths):
        ea, eb = tile.oriented_ends(orientation, i)
        a, b = geo.edge_mid(cell, ea), geo.edge_mid(cell, eb)
        d = _curve_d(cx, cy, a, b)
        if (cell, i) in casing:  # a completed ring's path: a bold dark and white casing
            svg.path(d, fill="none", stroke=casing[(cell, i)], stroke_width=_n(s * 0.46), stroke_linecap="butt")
            svg.path(d, fill="none", stroke="#ffffff", stroke_width=_n(s * 0.34), stroke_linecap="butt")
        svg.path(d, fill="none", stroke=PALETTE["ink"], stroke_width=_n(s * 0.2 + 2), stroke_linecap="butt",
                 opacity="0.55")
        svg.path(d, fill="none", stroke=mushroom_colour(ed, p.mushroom), stroke_width=_n(s * 0.2),
                 stroke_linecap="butt")
        mx, my = _bezier(cx, cy, a, b, 0.5)
        if p.mushroom is not None:
            _mushroom(svg, mx, my, s * 0.16, mushroom_colour(ed, p.mushroom))
        if labels and len(tile.paths) > 1:
            # the path number K of Q,R.K (gnome claims name paths that way)
            # beside the mushroom, along the path
            tx, ty = _bezier(cx, cy, a, b, 0.5)
            (x1, y1), (x2, y2) = _bezier(cx, cy, a, b, 0.45), _bezier(cx, cy, a, b, 0.55)
            d0 = math.hypot(x2 - x1, y2 - y1) or 1.0
            ox, oy = (x2 - x1) / d0 * s * 0.3, (y2 - y1) / d0 * s * 0.3
            svg.text(tx + ox, ty + oy + s * 0.09, i, size=max(7.0, s * 0.24), fill=PALETTE["ink"],
                     font_weight="bold", **HALO)
    if labels:
        name = "Stump" if tile.stump else (f"{tile.id} {tile.flower}" if tile.wildflower else tile.id)
        svg.text(cx, cy - s * 0.52, name, size=max(7.0, s * 0.26), fill=PALETTE["ink"], **HALO)
        svg.text(cx, cy + s * 0.74, hex_name(cell), size=max(7.0, s * 0.24), fill="#3c4a2e", **HALO)
    svg.close_group()


def _mushroom(svg: Svg, x: float, y: float, r: float, colour: str) -> None:
    """A mushroom: a cap (half disc, white spots) on a stem."""
    svg.rect(x - r * 0.3, y - r * 0.1, r * 0.6, r * 0.8, fill="#fbf5e6", stroke=PALETTE["ink"], stroke_width=0.6)
    svg.path(f"M{_n(x - r)},{_n(y)} A{_n(r)},{_n(r)} 0 0 1 {_n(x + r)},{_n(y)} Z", fill=colour,
             stroke=PALETTE["ink"], stroke_width=0.7)
    svg.circle(x - r * 0.35, y - r * 0.45, r * 0.14, fill="#ffffff")
    svg.circle(x + r * 0.3, y - r * 0.55, r * 0.12, fill="#ffffff")


def _flower(svg: Svg, x: float, y: float, r: float, colour: str) -> None:
    """A wildflower: six petals round a yellow heart."""
    for i in range(6):
        a = math.radians(60 * i)
        svg.circle(x + r * 0.62 * math.cos(a), y + r * 0.62 * math.sin(a), r * 0.42, fill=colour,
                   stroke=PALETTE["grid"], stroke_width=0.6)
    svg.circle(x, y, r * 0.32, fill="#f2c744", stroke=PALETTE["grid"], stroke_width=0.6)


def _gnome(svg: Svg, x: float, y: float, u: float, colour: str, down: bool = False, **attrs: object) -> None:
    """A gnome: pointed hat and coat in the player's colour, face and beard; lying down it is turned
    on its side (a ring it will score at the start of its player's turn)."""
    svg.open_group(transform=f"translate({_n(x)},{_n(y)})" + (" rotate(-90)" if down else ""), **attrs)
    svg.element("ellipse", {"cx": 0.0, "cy": float(u * 0.55), "rx": float(u * 0.55), "ry": float(u * 0.5),
                            "fill": colour, "stroke": PALETTE["ink"], "stroke_width": 1.0})
    svg.circle(0, u * 0.02, u * 0.32, fill=SKIN, stroke=PALETTE["ink"], stroke_width=0.8)
    svg.polygon([(-u * 0.3, u * 0.12), (u * 0.3, u * 0.12), (0, u * 0.62)], fill="#ffffff", stroke=PALETTE["ink"],
                stroke_width=0.6)
    svg.polygon([(-u * 0.45, -u * 0.12), (u * 0.45, -u * 0.12), (u * 0.05, -u * 1.25)], fill=colour,
                stroke=PALETTE["ink"], stroke_width=1.0)
    svg.close_group()


def _pot(svg: Svg, x: float, y: float, r: float, ed: GnomeHollowEdition, mush: dict[str, int]) -> None:
    """A pot of mushrooms waiting in an unclaimed ring, with its counts."""
    svg.path(f"M{_n(x - r)},{_n(y - r * 0.4)} L{_n(x + r)},{_n(y - r * 0.4)} L{_n(x + r * 0.75)},{_n(y + r * 0.7)} "
             f"L{_n(x - r * 0.75)},{_n(y + r * 0.7)} Z", fill="#6d4c33", stroke=PALETTE["ink"], stroke_width=0.8)
    items = [(c, mush[c]) for c in ed.colours if mush.get(c, 0)]
    w = r * 0.62
    x0 = x - w * (len(items) - 1) / 2
    for i, (c, n) in enumerate(items):
        svg.circle(x0 + i * w, y - r * 0.55, r * 0.34, fill=mushroom_colour(ed, c), stroke=PALETTE["ink"],
                   stroke_width=0.5)
        svg.text(x0 + i * w, y + r * 0.45, n, size=max(7.0, r * 0.6), fill="#ffffff", font_weight="bold")


def _signpost(svg: Svg, x: float, y: float, r: float, name: str) -> None:
    """A signpost: a post with a board naming it."""
    svg.rect(x - r * 0.08, y - r * 0.2, r * 0.16, r * 1.0, fill="#7a5530")
    w = max(r * 1.6, len(name) * r * 0.42 + r * 0.3)
    svg.polygon([(x - w / 2, y - r * 0.75), (x + w / 2 - r * 0.2, y - r * 0.75), (x + w / 2, y - r * 0.45),
                 (x + w / 2 - r * 0.2, y - r * 0.15), (x - w / 2, y - r * 0.15)], fill="#e9d3a6",
                stroke="#7a5530", stroke_width=0.9)
    svg.text(x - r * 0.08, y - r * 0.3, name, size=max(7.0, r * 0.48), fill=PALETTE["ink"])


def _arrow_defs(svg: Svg) -> None:
    svg.add(f'<defs><marker id="gh-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" '
            f'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{PALETTE["path"]}"/></marker></defs>')


# ---------------------------------------------------------------------------------------------
# the picture


def _ring_letter(i: int) -> str:
    """Rings are lettered a, b, c ... in the order they were completed (lower case: gnomes are upper case)."""
    return chr(ord("a") + i) if i < 26 else f"z{i - 25}"


def _gnome_spot(geo: _Geo, ed: GnomeHollowEdition, tab: Position, key: PathKey, nth: int) -> tuple[float, float]:
    """Where a gnome on path ``key`` stands: a third of the way along the path (the mushroom sits
    in the middle), the next gnome on the same path further along."""
    cell, k = key
    t = tab.at[cell]
    tile = ed.tile(t.tile)
    ea, eb = tile.oriented_ends(t.orientation, k)
    cx, cy = geo.centre(cell)
    return _bezier(cx, cy, geo.edge_mid(cell, ea), geo.edge_mid(cell, eb), 0.22 + 0.56 * (nth % 2))


def position_svg(pos: GnomeHollowPosition, marks: Marks | None = None, planned: Sequence[Placement] = (),
                 bad_edges: Iterable[tuple[Hex, int]] = ()) -> str:
    """The table of ``pos`` as SVG, with ``marks`` drawn on it.

    ``planned``: placements not on the table (a move being checked, a plan), drawn dashed and
    numbered in order, with the rings they would close (green casing); ``bad_edges``: ``(cell, edge)``
    pairs crossed out (a path meeting grass).
    """
    marks = marks or Marks()
    ed = pos.game.edition
    tab = drawn_table(pos)
    planned = [p for p in planned if p.tile in ed.all_tiles and p.cell not in tab.at and 0 <= p.orientation < 12]
    planned = [p for i, p in enumerate(planned) if p.cell not in {q.cell for q in planned[:i]}]
    # the garden drawn: the table's tiles, then the planned ones laid on it
    garden = tab.lay(planned) if planned else tab
    tiles = [t for t in garden.tiles if t.tile in ed.all_tiles]
    empties = sorted(frontier([t.cell for t in tiles]), key=lambda c: (c[1], c[0]))
    extra = [c for c in (*marks.move, *marks.illegal, *(c for r in marks.routes for c in r), *marks.labels)
             if _is_hex(c)]
    cells: list[Hex] = [*(t.cell for t in tiles), *empties, *extra]  # type: ignore[list-item]

    # the board's size: hexes of size s fit into about 580 x 640 px (smaller hexes for a big garden)
    xs = [1.5 * q for q, _ in cells]
    ys = [SQRT3 * (r + q / 2) for q, r in cells]
    wu = max(xs) - min(xs) + 2.0
    hu = max(ys) - min(ys) + SQRT3
    s = max(13.0, min(54.0, 580.0 / wu, 640.0 / hu))
    margin, top = 14.0, 48.0
    board_w, board_h = wu * s, hu * s
    geo = _Geo(s, margin - min(xs) * s + s, top - min(ys) * s + s * SQRT3 / 2)

    caption_lines = _wrap(marks.caption, max(40, int((board_w + PANEL_W) / 6.6))) if marks.caption else []
    width = margin * 2 + board_w + 16 + PANEL_W
    height = max(top + board_h + 10 + 15 * len(caption_lines), top + _panel_height(tab, ed)) + margin
    svg = Svg(round(width), round(height), title=f"Gnome Hollow: {phase_words(pos)}")
    _arrow_defs(svg)
    svg.text(margin, 22, f"Gnome Hollow · {phase_words(pos)}", size=16, anchor="start", fill=PALETTE["ink"],
             font_weight="bold")
    sub = f"{len(tab.tiles)} tiles in the garden · bag {len(tab.bag)}"
    if tab.end_triggered:
        sub += " · the end is triggered"
    if pos.moves:
        sub += " · this turn: " + "; ".join(pos.move_text(m) for m in pos.moves)
    svg.text(margin, 39, _clip(sub, int(width / 6.2)), size=11, anchor="start", fill=PALETTE["label"])

    # empty hexes next to the garden: where a tile may go
    for c in empties:
        cx, cy = geo.centre(c)
        svg.polygon(geo.corners(c, 0.96), fill="#ffffff", fill_opacity="0.35", stroke=PALETTE["grid"],
                    stroke_width=0.8, stroke_dasharray="3 3", class_="empty", data_cell=hex_name(c))
        svg.text(cx, cy + s * 0.1, hex_name(c), size=max(7.0, s * 0.24), fill=PALETTE["label"])

    # rings (of the garden with the planned tiles: a plan's rings are drawn as closed, in green)
    completed = garden.completed(ed)
    before = {ring.paths for ring in tab.completed(ed)} if planned else {ring.paths for ring in completed}
    casing: dict[PathKey, str] = {}
    for ring in completed:
        for k in ring.paths:
            casing[k] = PALETTE["ink"] if ring.paths in before else PALETTE["move"]
    planned_at = {p.cell: n for n, p in enumerate(planned, start=1)}
    for t in tiles:
        _draw_tile(svg, ed, geo, ed.tile(t.tile), t.cell, t.orientation, casing, dashed=t.cell in planned_at)
        if t.cell in planned_at:
            cx, cy = geo.centre(t.cell)
            svg.circle(cx - s * 0.55, cy - s * 0.45, s * 0.2, fill=PALETTE["move"], stroke="#ffffff", stroke_width=1)
            svg.text(cx - s * 0.55, cy - s * 0.37, planned_at[t.cell], size=max(7.0, s * 0.26), fill="#ffffff",
                     font_weight="bold")
    grid = {t.cell: t for t in tiles}
    _open_ends(svg, ed, geo, grid)
    for i, ring in enumerate(completed):
        mx, my = _ring_middle(geo, ring)
        new = ring.paths not in before
        svg.circle(mx, my, s * 0.22, fill=PALETTE["move"] if new else PALETTE["highlight"], stroke=PALETTE["ink"],
                   stroke_width=1, class_="ring-planned" if new else "ring", data_ring=_ring_letter(i))
        svg.text(mx, my + s * 0.09, _ring_letter(i), size=max(8.0, s * 0.28), fill="#ffffff" if new else
                 PALETTE["ink"], font_weight="bold")
    # a pot or a signpost stands on the tile of the path that names it, on grass away from the paths
    taken: set[tuple[Hex, int]] = set()
    for k, m in tab.pots:
        if k[0] in grid:
            x, y = _beside(geo, ed, grid[k[0]], taken)
            _pot(svg, x, y, s * 0.26, ed, m)
    for sid, k in tab.placed_signposts:
        if k[0] in grid:
            x, y = _beside(geo, ed, grid[k[0]], taken)
            _signpost(svg, x, y + s * 0.2, s * 0.36, sid)
    colours = player_colours(tab)
    _gnomes(svg, ed, geo, tab, colours)

    # the answer
    _draw_marks(svg, geo, marks, outline_only=set(planned_at))
    for cell, e in bad_edges:
        x, y = geo.edge_mid(cell, e)
        d = max(4.0, s * 0.2)
        for sx in (1, -1):
            svg.line(x - d, y - d * sx, x + d, y + d * sx, stroke="#ffffff", stroke_width=6, stroke_linecap="round")
            svg.line(x - d, y - d * sx, x + d, y + d * sx, stroke=PALETTE["illegal"], stroke_width=3,
                     stroke_linecap="round")
    y = top + board_h + 12
    for line in caption_lines:
        svg.text(margin, y, line, size=11, anchor="start", fill=PALETTE["illegal"] if marks.illegal else PALETTE["ink"])
        y += 15

    _panel(svg, tab, pos, ed, margin + board_w + 16, top - 6, colours)
    return str(svg)


def _open_ends(svg: Svg, ed: GnomeHollowEdition, geo: _Geo, grid: dict[Hex, Any]) -> None:
    """A white dot on every path end facing an empty hex (or, in a malformed garden, grass)."""
    for t in grid.values():
        tile = ed.tile(t.tile)
        for i in range(len(tile.paths)):
            for e in tile.oriented_ends(t.orientation, i):
                nb = grid.get(neighbour(t.cell, e))
                if nb is not None:
                    other = ed.tile(nb.tile)
                    if other.wildflower or other.edge_path[nb.orientation][(e + 3) % 6] >= 0:
                        continue
                x, y = geo.edge_mid(t.cell, e, 0.93)
                svg.circle(x, y, max(2.5, geo.s * 0.1), fill="#ffffff", stroke=PALETTE["ink"], stroke_width=1.2)


def _gnomes(svg: Svg, ed: GnomeHollowEdition, geo: _Geo, tab: Position, colours: dict[str, str]) -> None:
    """Gnomes on paths (standing or lying) and at the market (on the Stump)."""
    u = max(6.0, geo.s * 0.3)
    seen: dict[PathKey, int] = {}
    for g in tab.gnomes:
        if isinstance(g.at, tuple) and g.at[0] in tab.at:
            nth = seen.get(g.at, 0)
            seen[g.at] = nth + 1
            x, y = _gnome_spot(geo, ed, tab, g.at, nth)
            _gnome(svg, x, y, u, colours.get(g.player, _SPARE[0]), g.down, class_="gnome-lying" if g.down else "gnome",
                   data_player=g.player, data_path=f"{hex_name(g.at[0])}.{g.at[1]}")
    market = [g for g in tab.gnomes if g.at == MARKET]
    cx, cy = geo.centre((0, 0))
    for i, g in enumerate(market):
        _gnome(svg, cx + (i - (len(market) - 1) / 2) * u * 1.25, cy + geo.s * 0.05, u * 0.9,
               colours.get(g.player, _SPARE[0]), class_="gnome", data_player=g.player, data_path="market")


def _is_hex(c: Hashable) -> bool:
    return isinstance(c, tuple) and len(c) == 2 and all(isinstance(v, int) for v in c)


def _beside(geo: _Geo, ed: GnomeHollowEdition, t: Any, taken: set[tuple[Hex, int]]) -> tuple[float, float]:
    """A spot on the grass of tile ``t`` for a pot or a signpost: towards the corner farthest from
    the tile's paths (never the top or bottom middle, where the id and q,r are written), and not a
    corner ``taken`` already."""
    tile = ed.tile(t.tile)
    cx, cy = geo.centre(t.cell)
    pts = []
    for i in range(len(tile.paths)):
        ea, eb = tile.oriented_ends(t.orientation, i)
        a, b = geo.edge_mid(t.cell, ea), geo.edge_mid(t.cell, eb)
        pts += [_bezier(cx, cy, a, b, j / 8) for j in range(9)]
    best, spot, corner = -1.0, (cx, cy), 0
    for v in range(6):
        if (t.cell, v) in taken:
            continue
        angle = math.radians(60 * v)
        x, y = cx + geo.s * 0.5 * math.cos(angle), cy + geo.s * 0.5 * math.sin(angle)
        d = min((math.hypot(x - px, y - py) for px, py in pts), default=geo.s)
        if d > best + 0.01:
            best, spot, corner = d, (x, y), v
    if best >= 0:
        taken.add((t.cell, corner))
    return spot


def _ring_middle(geo: _Geo, c: ClosedNetwork) -> tuple[float, float]:
    pts = [geo.centre(t) for t in c.tiles]
    return (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))


def _draw_marks(svg: Svg, geo: _Geo, marks: Marks, outline_only: set[Hex]) -> None:
    """A move's hexes outlined (and filled unless a planned tile is drawn there), a broken rule's
    hexes dashed in red, routes as arrows, labels in a box."""
    for c in marks.move:
        if _is_hex(c):
            fill = "none" if c in outline_only else PALETTE["move-fill"]
            svg.polygon(geo.corners(c, 0.9), fill=fill, stroke=PALETTE["move"], stroke_width=3,  # type: ignore[arg-type]
                        class_="move", data_cell=hex_name(c))  # type: ignore[arg-type]
    for c in marks.illegal:
        if _is_hex(c):
            svg.polygon(geo.corners(c, 0.8), fill=PALETTE["illegal-fill"], stroke=PALETTE["illegal"],  # type: ignore[arg-type]
                        stroke_width=3, stroke_dasharray="6 3", class_="illegal", data_cell=hex_name(c))  # type: ignore[arg-type]
    for route in marks.routes:
        pts = [geo.centre(c) for c in route if _is_hex(c)]  # type: ignore[arg-type]
        if len(pts) >= 2:
            svg.polyline(pts, stroke=PALETTE["path"], stroke_width=3, stroke_linejoin="round",
                         marker_end="url(#gh-arrow)", opacity="0.85")
    for c, text in marks.labels.items():
        if _is_hex(c):
            cx, cy = geo.centre(c)  # type: ignore[arg-type]
            svg.rect(cx - geo.s * 0.45, cy + geo.s * 0.2, geo.s * 0.9, geo.s * 0.34, fill="#ffffff", opacity="0.85",
                     rx=3)
            svg.text(cx, cy + geo.s * 0.45, text, size=max(7.0, geo.s * 0.26), fill=PALETTE["path"],
                     font_weight="bold")


def _wrap(text: str, width: int) -> list[str]:
    out: list[str] = []
    for part in text.split("; "):
        out += textwrap.wrap(part, width) or [""]
    return out


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


# -- the side panel -----------------------------------------------------------------------------


def _panel_height(tab: Position, ed: GnomeHollowEdition) -> float:
    rows = (len(tab.offered) + 3) // 4
    return 30 + rows * 52 + 40 + len(tab.players) * 120 + 140


def _small_tile(svg: Svg, ed: GnomeHollowEdition, ident: str, x: float, y: float, s: float) -> None:
    """An off-board tile (offered, stored) as a small hex with its paths in orientation r0, its id below."""
    if ident not in ed.all_tiles:
        svg.text(x, y, ident, size=9, fill=PALETTE["label"])
        return
    geo = _Geo(s, x, y)
    _draw_tile(svg, ed, geo, ed.tile(ident), (0, 0), 0, labels=False)
    tile = ed.tile(ident)
    svg.text(x, y + s * SQRT3 / 2 + 11, f"{ident} {tile.flower}" if tile.wildflower else ident, size=9,
             fill=PALETTE["ink"])


def _panel(svg: Svg, tab: Position, pos: GnomeHollowPosition, ed: GnomeHollowEdition, x0: float, y0: float,
           colours: dict[str, str]) -> None:
    ink, label = PALETTE["ink"], PALETTE["label"]
    svg.rect(x0, y0, PANEL_W, _panel_height(tab, ed) - 8, fill="#f3eee0", stroke="#d8cfb8", rx=6)
    x = x0 + 10
    y = y0 + 18
    svg.text(x, y, f"Offered tiles ({len(tab.offered)})", size=12, anchor="start", fill=ink, font_weight="bold")
    ss = 17.0
    for i, ident in enumerate(tab.offered):
        _small_tile(svg, ed, ident, x + 26 + (i % 4) * 62, y + 28 + (i // 4) * 52, ss)
    y += 16 + ((len(tab.offered) + 3) // 4) * 52
    if not tab.offered:
        svg.text(x, y + 4, "none", size=10, anchor="start", fill=label)
    y += 6
    sunset = f" · sunset {len(tab.sunset)}" if tab.sunset else ""
    svg.text(x, y, f"bag {len(tab.bag)}{sunset} · signposts left: {', '.join(tab.signposts) or '-'}"[:46],
             size=10, anchor="start", fill=label)
    y += 14
    blocked = ", ".join(f"{c} {'/'.join(map(str, v))}" for c, v in tab.market.items())
    svg.text(x, y, f"market blocked: {blocked or '-'}"[:46], size=10, anchor="start", fill=label)
    y += 12
    scores = {r["player"]: r for r in final_scores(tab, ed)}
    mover = pos.start.to_move  # the engine table after the resolve step has already passed the turn on
    for i, p in enumerate(tab.players):
        y += 12
        col = colours[p.name]
        if i == mover and not pos.is_terminal():
            svg.rect(x - 6, y - 4, PANEL_W - 8, 112, fill="#ffffff", stroke=col, stroke_width=2, rx=5)
        _gnome(svg, x + 8, y + 14, 9, col)
        sc = scores[p.name]
        svg.text(x + 24, y + 12, p.name + (" (to move)" if i == mover and not pos.is_terminal() else ""), size=12,
                 anchor="start", fill=ink, font_weight="bold")
        svg.text(x + 24, y + 26, f"score {sc['total']}: flowers {sc['flowers']}, rings {sc['rings']}, "
                 f"treasure {sc['treasure']}", size=10, anchor="start", fill=ink)
        # mushrooms: one coloured cap per colour with the count
        for j, c in enumerate(ed.colours):
            mx = x + 10 + j * 30
            _mushroom(svg, mx, y + 44, 7, mushroom_colour(ed, c))
            svg.text(mx + 13, y + 48, p.mushroom(c), size=10, anchor="middle", fill=ink)
        svg.text(x + 160, y + 48, f"{len(p.rings)} ring space{'s' if len(p.rings) != 1 else ''}", size=10,
                 anchor="start", fill=ink)
        fl = ", ".join(p.flowers) if p.flowers else "-"
        svg.text(x, y + 64, _clip(f"flowers ({len(p.flowers)}): {fl}", 46), size=10, anchor="start", fill=ink)
        off = [_gnome_place(g) for g in tab.gnomes if g.player == p.name]
        svg.text(x, y + 78, _clip("gnomes: " + (", ".join(off) or "-"), 46), size=10, anchor="start", fill=ink)
        svg.text(x, y + 94, "stored:", size=10, anchor="start", fill=ink)
        for j, ident in enumerate(p.storage):
            _small_tile(svg, ed, ident, x + 66 + j * 62, y + 88, 10.0)
        if not p.storage:
            svg.text(x + 42, y + 94, "-", size=10, anchor="start", fill=label)
        y += 108
    # legend
    y += 16
    svg.text(x, y, "Legend", size=11, anchor="start", fill=ink, font_weight="bold")
    _gnome(svg, x + 8, y + 20, 8, "#999999")
    svg.text(x + 22, y + 23, "standing gnome: claims its path", size=9, anchor="start", fill=ink)
    _gnome(svg, x + 8, y + 38, 8, "#999999", True)
    svg.text(x + 22, y + 41, "lying gnome: scores that ring at its next turn", size=9, anchor="start", fill=ink)
    svg.circle(x + 8, y + 56, 3.5, fill="#ffffff", stroke=ink, stroke_width=1.2)
    svg.text(x + 22, y + 59, "open path end", size=9, anchor="start", fill=ink)
    svg.circle(x + 108, y + 56, 6, fill=PALETTE["highlight"], stroke=ink)
    svg.text(x + 108, y + 59, "a", size=8, fill=ink, font_weight="bold")
    svg.text(x + 120, y + 59, "completed ring (cased paths)", size=9, anchor="start", fill=ink)
    _pot(svg, x + 8, y + 74, 7, ed, {})
    svg.text(x + 22, y + 77, "pot: a ring's mushrooms waiting", size=9, anchor="start", fill=ink)
    svg.text(x, y + 93, "paths coloured by mushroom: " + " ".join(ed.colours), size=9, anchor="start", fill=ink)
    svg.text(x, y + 107, "dashed hex: empty, a tile may go there (q,r)", size=9, anchor="start", fill=ink)


def _gnome_place(g: Gnome) -> str:
    if g.at is None:
        return "not placed"
    if g.at == MARKET:
        return "market (Stump)"
    if g.at == FLOWERS:
        return "flower market"
    if isinstance(g.at, tuple):
        return f"{hex_name(g.at[0])}.{g.at[1]}" + (" lying" if g.down else "")
    return str(g.at)


# ---------------------------------------------------------------------------------------------
# answers: a move checked, every legal placement, a plan


def check_svg(pos: GnomeHollowPosition, move: Any) -> str:
    """``pos`` with ``move`` checked: the move's hex, every broken rule's hexes, the caption of the
    report; a placement is drawn as a dashed tile with its path-meets-grass edges crossed out."""
    m = pos.parse_move(move) if isinstance(move, str) else move
    report = pos.check(m)
    marks = Marks.of_report(report, pos.move_cells(m))
    planned: list[Placement] = []
    bad: list[tuple[Hex, int]] = []
    if isinstance(m, Placement) and m.tile in pos.game.edition.all_tiles and 0 <= m.orientation < 12:
        tab = drawn_table(pos)
        if m.cell not in tab.at:
            planned = [m]
            bad = [(m.cell, e) for e, _n, _k, _msg in edge_mismatches(pos.game.edition, dict(tab.at), m.as_placed())]
    return position_svg(pos, marks, planned, bad)


def moves_svg(pos: GnomeHollowPosition, moves: Sequence[Any] | None = None) -> str:
    """``pos`` with every legal move's hexes marked; a hex is labelled with how many placements go there."""
    moves = pos.legal_moves() if moves is None else list(moves)
    count: dict[Hashable, int] = {}
    for m in moves:
        for c in pos.move_cells(m):
            count[c] = count.get(c, 0) + 1
    n_place = sum(1 for m in moves if isinstance(m, Placement))
    caption = f"{len(moves)} legal moves" + (f" ({n_place} placements, a hex shows how many go there)"
                                             if n_place else "")
    return position_svg(pos, Marks(move=tuple(count), labels={c: f"{n}" for c, n in count.items()},
                                   caption=caption))


def plan_svg(pos: GnomeHollowPosition, placements: Sequence[Placement], caption: str = "",
             extra: Marks | None = None) -> str:
    """``pos`` with a plan's placements (a closing sequence, a best turn's tiles) drawn dashed and
    numbered, their hexes marked and joined by a route in order."""
    cells = tuple(p.cell for p in placements)
    extra = extra or Marks()
    if not caption and not extra.caption:
        caption = "plan: " + ", ".join(pos.move_text(p) for p in placements)
        ed = pos.game.edition
        tab = drawn_table(pos)
        laid = tab.lay(p for p in placements if p.tile in ed.all_tiles)
        before = {c.paths for c in tab.completed(ed)}
        sizes = [str(c.size) for c in laid.completed(ed) if c.paths not in before]
        if sizes:
            caption += f" (closes {'a ring' if len(sizes) == 1 else 'rings'} of {', '.join(sizes)} tiles, in green)"
    marks = Marks(move=cells + extra.move, illegal=extra.illegal,
                  routes=((cells,) if len(cells) > 1 else ()) + extra.routes,
                  caption=caption or extra.caption, labels=extra.labels)
    return position_svg(pos, marks, list(placements))


def witness_placements(witness: Any) -> list[Placement]:
    """The placements of a solver witness: a closing sequence (a list of placements) or a best
    turn (``{"turn": Turn, ...}``); empty for anything else."""
    if isinstance(witness, dict) and "turn" in witness:
        witness = getattr(witness["turn"], "placements", ())
    if isinstance(witness, list | tuple) and all(isinstance(p, Placement) for p in witness):
        return list(witness)
    return []


# ---------------------------------------------------------------------------------------------
# the ASCII map

# One hex is 9 characters wide and 5 lines tall; neighbours share their sides, a column is 7
# characters to the right of the last and half a hex (2 lines) lower.  Inside: the tile id on the
# first line, q,r on the second, orientation / ring letters / gnomes on the third.
#
#      _____
#     / G85 \_____
#    / 0,-1  \ S   \
#    \ r0 A  /0,0   \
#     \_____/ A B R  /
_HEX = ("  _____", " /     \\", "/       \\", "\\       /", " \\_____/")
_COL = 7


def _gnome_letters(pos: Position) -> dict[str, str]:
    """A letter per player: the name's first letter when unique, else the seat number."""
    firsts = [p.name[:1].upper() for p in pos.players]
    return {p.name: (f if firsts.count(f) == 1 and f.isalpha() else str(i + 1))
            for i, (p, f) in enumerate(zip(pos.players, firsts, strict=True))}


def ascii_map(pos: GnomeHollowPosition, width: int = 80) -> str:
    """The garden as an ASCII hex map: each tile with its id, ``q,r`` and orientation, the letters of
    the completed rings it is part of, and the gnomes on it (the player's letter; ``!`` lying down;
    ``$`` at the market on the Stump); then a legend of rings and gnomes.  A garden wider than
    ``width`` columns is cut into bands of whole hex columns, west to east."""
    ed = pos.game.edition
    tab = drawn_table(pos)
    tiles = [t for t in tab.tiles if t.tile in ed.all_tiles]
    completed = tab.completed(ed)
    letters = _gnome_letters(tab)
    rings_at: dict[Hex, str] = {}
    for i, c in enumerate(completed):
        for cell in c.tiles:
            rings_at[cell] = rings_at.get(cell, "") + _ring_letter(i)
    gnomes_at: dict[Hex, list[str]] = {}
    for g in tab.gnomes:
        if isinstance(g.at, tuple):
            gnomes_at.setdefault(g.at[0], []).append(letters[g.player] + ("!" if g.down else ""))
        elif g.at == MARKET:
            gnomes_at.setdefault((0, 0), []).append(letters[g.player] + "$")
    qs = sorted({t.cell[0] for t in tiles})
    per_band = max(1, (width - 2) // _COL)
    bands = [list(range(q, min(q + per_band, qs[-1] + 1))) for q in range(qs[0], qs[-1] + 1, per_band)]
    out = [f"Gnome Hollow · {phase_words(pos)}"]
    for band in bands:
        band_tiles = [t for t in tiles if t.cell[0] in band]
        if not band_tiles:
            continue
        if len(bands) > 1:
            out.append(f"-- columns q = {band[0]} .. {band[-1]} --")
        out += _band(ed, band_tiles, band[0], rings_at, gnomes_at)
    out.append("")
    n_map = len(out)
    if completed:
        pots = {}
        nets = tab.networks(ed)
        for k, m in tab.pots:
            if k in nets.path_elem:
                pots[nets.root_of(k)] = m
        signs: dict[int, list[str]] = {}
        for sid, k in tab.placed_signposts:
            if k in nets.path_elem:
                signs.setdefault(nets.root_of(k), []).append(sid)
        for i, c in enumerate(completed):
            mush = " ".join(f"{col}={n}" for col, n in c.mushrooms.items() if n) or "no mushrooms"
            bits = [f"ring {_ring_letter(i)}: {c.size} tiles, {mush}"]
            if c.root in pots:
                bits.append("pot " + (" ".join(f"{col}={n}" for col, n in pots[c.root].items() if n) or "empty"))
            if c.root in signs:
                bits.append("signpost " + " ".join(signs[c.root]))
            out.append("; ".join(bits))
    else:
        out.append("no completed rings")
    who = []
    for p in tab.players:
        places = [_gnome_place(g) for g in tab.gnomes if g.player == p.name]
        who.append(f"{letters[p.name]} = {p.name} ({', '.join(places) or 'no gnomes'})")
    legend = [*out[n_map:], "gnomes: " + "; ".join(who),
              "(on a tile: rings a, b ... it is part of; a gnome's letter: it stands on a path there, "
              "with ! lying down (scores that ring at its player's next turn), with $ at the market)"]
    lines = out[:n_map] + [w for line in legend for w in (textwrap.wrap(line, width, subsequent_indent="  ") or [""])]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _band(ed: GnomeHollowEdition, tiles: list[Any], q0: int, rings_at: dict[Hex, str],
          gnomes_at: dict[Hex, list[str]]) -> list[str]:
    """The lines of one band of hex columns."""
    rows = [2 * t.cell[1] + t.cell[0] for t in tiles]
    y0 = min(rows)
    height = 2 * (max(rows) - y0) + 5
    width = _COL * (max(t.cell[0] for t in tiles) - q0) + 9
    canvas = [[" "] * width for _ in range(height)]

    def put(x: int, y: int, text: str, keep_spaces: bool = False) -> None:
        for i, ch in enumerate(text):
            if 0 <= x + i < width and (keep_spaces or ch != " "):
                canvas[y][x + i] = ch

    for t in tiles:
        x = _COL * (t.cell[0] - q0)
        y = 2 * (2 * t.cell[1] + t.cell[0] - y0)
        for dy, line in enumerate(_HEX):
            put(x, y + dy, line)
        tile = ed.tile(t.tile)
        name = "Stump" if t.tile == STUMP_ID else t.tile
        put(x + 2, y + 1, name[:5].center(5), keep_spaces=True)
        put(x + 1, y + 2, hex_name(t.cell)[:7].center(7), keep_spaces=True)
        bits = []
        if not tile.stump and not tile.wildflower:
            bits.append(f"m{t.orientation - 6}" if t.orientation >= 6 else f"r{t.orientation}")
        if tile.wildflower and tile.flower:
            bits.append(tile.flower[:3])
        if t.cell in rings_at:
            bits.append(rings_at[t.cell])
        bits += gnomes_at.get(t.cell, [])
        third = _fit(bits, 7, drop_first=not tile.stump)
        put(x + 1, y + 3, third.center(7), keep_spaces=True)
    return ["".join(row).rstrip() for row in canvas]


def _fit(bits: list[str], n: int, drop_first: bool) -> str:
    """``bits`` joined by spaces in ``n`` characters: without the first (the orientation) when too
    long, then without spaces, then cut with a ``+``."""
    text = " ".join(bits)
    if len(text) > n and drop_first and len(bits) > 1:
        bits = bits[1:]
        text = " ".join(bits)
    if len(text) > n:
        text = "".join(bits)
    return text if len(text) <= n else text[: n - 1] + "+"


__all__ = ["ascii_map", "check_svg", "drawn_table", "moves_svg", "phase_words", "plan_svg", "position_svg",
           "witness_placements"]
