"""Hexen Rennen as an SVG picture: the track by stage, the witches, the finish board, the hands.

Drawn with :mod:`gnomekit.models.core.svg` (plain SVG text, deterministic, golden-file tested).
Each stage is one row of tiles, field numbers above them, the start box before stage 1 and the
finish board (fields with their points) under stage 3.  A face-up tile shows its clan by colour
*and* letter and its value (a number, or a star for the clan's symbol); a face-down tile is a
dark back with the identity the position holds in small grey letters (the puzzle view: the
same thing the text notation writes in lower case).  Witches are drawn by clan with a shape
each (weather a triangle, fog a circle, ice a diamond, forest a square, further clans polygons)
and the clan letter; on the start and finish fields, where several stand, one shape per clan
with its count.  Below: whose turn, the roll and the turn in progress (its chain so far as a
dashed grey route, the tile where a clan decides ringed in yellow), and every clan's hand (a
neutral clan's draw pile, top first) and score.

Answers come as :class:`~gnomekit.models.core.svg.Marks` in the game's own addresses, field
numbers (0 start, 1..L track, L+1.. finish): ``move`` fields outlined green, ``illegal``
fields red with a cross, ``routes`` (a chain's hops) as numbered blue arcs, forward hops
above the tiles and backward hops below.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gnomekit.models.core.svg import PALETTE, Marks, Svg
from gnomekit.models.core.svg import wrap_words as _wrap
from gnomekit.models.hexen_rennen.edition import SYMBOL, HexenEdition
from gnomekit.models.hexen_rennen.position import Position as RacePosition
from gnomekit.models.hexen_rennen.position import Tile, card_name
from gnomekit.models.hexen_rennen.turn import Decision, Turn, TurnPlan, replay

if TYPE_CHECKING:
    from gnomekit.models.hexen_rennen.game import HexenPosition

TILE = 46  # tile pitch in px (tiles are drawn 2 px smaller)
LEFT = 90  # left column: stage labels and the start box
ROW = 106  # vertical pitch of the stage rows
TOP = 64  # the first row's top (under the title and the status line)

#: Clan colours by id (other ids take FALLBACK colours by their edition index).
CLAN_COLOUR = {"weather": "#d99a00", "fog": "#8a63c2", "ice": "#1f9bc4", "forest": "#3c8c34"}
FALLBACK = ("#c0587e", "#7a6a58", "#d2691e", "#4b6b8a")
BACK = "#4a4238"  # a face-down tile


def clan_colour(ed: HexenEdition, clan: str) -> str:
    return CLAN_COLOUR.get(clan) or FALLBACK[ed.clan_index(clan) % len(FALLBACK)]


def _shape_points(kind: int, x: float, y: float, r: float) -> list[tuple[float, float]]:
    """The outline of clan shape ``kind``: 0 triangle, 2 diamond, 3 square, 4+ polygons (1 is a circle)."""
    if kind == 0:
        return [(x, y - r), (x + r * 0.95, y + r * 0.75), (x - r * 0.95, y + r * 0.75)]
    if kind == 2:
        return [(x, y - r * 1.05), (x + r * 0.9, y), (x, y + r * 1.05), (x - r * 0.9, y)]
    if kind == 3:
        s = r * 0.82
        return [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    n = kind + 1
    return [(x + r * math.sin(2 * math.pi * k / n), y - r * math.cos(2 * math.pi * k / n)) for k in range(n)]


def _witch(svg: Svg, ed: HexenEdition, clan: str, x: float, y: float, r: float = 10) -> None:
    """A witch of ``clan``: the clan's shape in its colour, the clan letter inside."""
    kind = ed.clan_index(clan)
    col = clan_colour(ed, clan)
    if kind == 1:
        svg.circle(x, y, r * 0.88, fill=col, stroke=PALETTE["ink"], stroke_width=1.5)
    else:
        svg.polygon(_shape_points(kind, x, y, r), fill=col, stroke=PALETTE["ink"], stroke_width=1.5,
                    stroke_linejoin="round")
    svg.text(x, y + r * (0.5 if kind == 0 else 0.36), ed.letter(clan), size=r * 0.95, fill="#ffffff",
             font_weight="bold")


def _star(svg: Svg, x: float, y: float, r: float, colour: str) -> None:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = math.pi * k / 5
        pts.append((x + rr * math.sin(a), y - rr * math.cos(a)))
    svg.polygon(pts, fill=colour, stroke=PALETTE["ink"], stroke_width=0.8)


class Layout:
    """Where each field is drawn for one edition (tile size shrinks for long stages)."""

    def __init__(self, ed: HexenEdition) -> None:
        self.ed = ed
        self.n = ed.stage_length
        self.t = min(TILE, 736 / self.n)
        self.width = LEFT + self.n * self.t + 16
        self.finish_y = TOP + ed.stages * ROW + 6
        nf = len(ed.finish_points)
        self.fw = min(2.2 * TILE, (self.width - LEFT - 300) / max(nf, 1))

    def tile_box(self, f: int) -> tuple[float, float, float, float]:
        """x, y, width, height of field ``f``'s box (start box, track tile or finish field)."""
        ed = self.ed
        if f <= 0:
            return 10, TOP + 16, LEFT - 22, self.t
        if f > ed.track_length:
            k = f - ed.track_length - 1
            nf = len(ed.finish_points)
            x0 = self.width - 16 - nf * self.fw
            return x0 + k * self.fw + 2, self.finish_y + 22, self.fw - 4, 56
        s, i = divmod(f - 1, self.n)
        return LEFT + i * self.t + 1, TOP + s * ROW + 16, self.t - 2, self.t - 2

    def centre(self, f: int) -> tuple[float, float]:
        x, y, w, h = self.tile_box(f)
        return x + w / 2, y + h / 2


def _counts(p: RacePosition, ed: HexenEdition, f: int) -> list[tuple[str, int]]:
    """(clan, witches) standing on the start or a finish field ``f``, clans in the edition's order."""
    return [(c, p.witches_of(c).count(f)) for c in ed.clan_ids if p.witches_of(c).count(f)]


def _draw_tile(svg: Svg, ed: HexenEdition, lay: Layout, f: int, tile: Tile) -> None:
    x, y, w, h = lay.tile_box(f)
    if tile.face_up:
        col = clan_colour(ed, tile.clan)
        svg.rect(x, y, w, h, rx=4, fill="#ffffff", stroke=col, stroke_width=2.5)
        svg.rect(x + 2, y + 2, w - 4, h - 4, rx=3, fill=col, fill_opacity="0.22")
        svg.text(x + 3, y + 10, ed.letter(tile.clan), size=8.5, anchor="start", fill=PALETTE["ink"], font_weight="bold")
        if tile.is_symbol:
            _star(svg, x + w / 2, y + h * 0.34, h * 0.2, col)
        else:
            svg.text(x + w / 2, y + h * 0.44, tile.value, size=h * 0.3, fill=PALETTE["ink"], font_weight="bold")
    else:
        svg.rect(x, y, w, h, rx=4, fill=BACK, stroke=PALETTE["ink"], stroke_width=1)
        svg.path(f"M {x + 5:.1f} {y + h - 5:.1f} L {x + w - 5:.1f} {y + 5:.1f} M {x + 5:.1f} {y + 5:.1f} "
                 f"L {x + w - 5:.1f} {y + h - 5:.1f}", stroke="#6d6253", stroke_width=1.2)
        token = ed.letter(tile.clan).lower() + card_name(tile.value)
        svg.text(x + w - 3, y + h - 3, token, size=7.5, anchor="end", fill="#b9ad98")


def _drawn_state(pos: HexenPosition) -> tuple[RacePosition, int | None]:
    """The race as it stands now: inside a chain, the moving witch where the chain has taken it,
    the tiles it turned and the cards played (the base keeps the position before the roll)."""
    pend = pos.pending
    if pend is None:
        return pos.base, None
    st = pend.state
    up = st.up | (1 << st.at) if st.at <= pos.edition.track_length else st.up
    now = pend.turn.final_position(replace(st, up=up))
    return replace(now, to_move=pos.base.to_move), st.at


def _arc(svg: Svg, lay: Layout, a: int, b: int, colour: str, width: float, label: str | None,
         dash: str | None = None) -> None:
    """One hop from field ``a`` to ``b``: an arc above the tiles forward, below them backward."""
    ax, ay, aw, ah = lay.tile_box(a)
    bx, by, bw, bh = lay.tile_box(b)
    forward = b > a
    same_row = abs(ay - by) < 1
    if same_row:
        y1 = ay if forward else ay + ah
        y2 = by if forward else by + bh
        p1, p2 = (ax + aw / 2, y1), (bx + bw / 2, y2)
        lift = min(34.0, 10 + 2.2 * abs(b - a))
        ctrl = ((p1[0] + p2[0]) / 2, y1 - lift if forward else y1 + lift)
    else:
        down = by > ay
        p1 = (ax + aw / 2, ay + ah if down else ay)
        p2 = (bx + bw / 2, by if down else by + bh)
        ctrl = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
    svg.path(f"M {p1[0]:.1f} {p1[1]:.1f} Q {ctrl[0]:.1f} {ctrl[1]:.1f} {p2[0]:.1f} {p2[1]:.1f}", fill="none",
             stroke=colour, stroke_width=width, stroke_linecap="round", stroke_dasharray=dash, stroke_opacity="0.9")
    dx, dy = p2[0] - ctrl[0], p2[1] - ctrl[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    head = 4 + 2.2 * width
    base = (p2[0] - ux * head, p2[1] - uy * head)
    px, py = -uy * head * 0.5, ux * head * 0.5
    svg.polygon([p2, (base[0] + px, base[1] + py), (base[0] - px, base[1] - py)], fill=colour)
    if label:
        mx = 0.25 * p1[0] + 0.5 * ctrl[0] + 0.25 * p2[0]
        my = 0.25 * p1[1] + 0.5 * ctrl[1] + 0.25 * p2[1]
        svg.circle(mx, my, 7, fill="#ffffff", stroke=colour, stroke_width=1.5)
        svg.text(mx, my + 3.5, label, size=9, fill=colour, font_weight="bold")


def _fields(xs: Sequence[Hashable], last: int) -> list[int]:
    """The marks that are fields of the board (ints 0..last)."""
    return [x for x in xs if isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= last]


def position_svg(pos: HexenPosition, marks: Marks | None = None) -> str:
    """The protocol position ``pos`` as an SVG document, with ``marks`` (an answer) drawn on it."""
    marks = marks or Marks()
    ed = pos.edition
    lay = Layout(ed)
    p, at = _drawn_state(pos)
    L = ed.track_length
    caption_lines = _wrap(marks.caption, int((lay.width - 24) / 6.4)) if marks.caption else []
    status = pos.status()  # the one sentence of where the turn stands, as the text and the API say it
    svg = Svg(lay.width, 0, title=f"Hexen Rennen · {p.to_move} to move · {status}")
    svg.text(12, 24, f"Hexen Rennen · {', '.join(p.players)} · {p.to_move} to move", size=16, anchor="start",
             fill=PALETTE["ink"], font_weight="bold")
    shown = _wrap(status, int((lay.width - 24) / 6.6))  # a long chain: a second line, above the track
    for k, line in enumerate([shown[0], " ".join(shown[1:])] if len(shown) > 1 else shown):
        svg.text(12, 44 + 13 * k, line, size=12, anchor="start", fill=PALETTE["ink"])

    # -- track ------------------------------------------------------------------------------------
    occ = {f: c for c, ps in p.witches for f in ps if 1 <= f <= L}
    for s in range(ed.stages):
        sy = TOP + s * ROW
        svg.text(10, sy + 11, f"stage {s + 1}", size=11, anchor="start", fill=PALETTE["label"], font_weight="bold")
        if s:
            # the broomstick between two stages
            svg.line(LEFT - 8, sy - 14, lay.width - 12, sy - 14, stroke="#8b5a2b", stroke_width=2,
                     stroke_dasharray="14 4", stroke_opacity="0.6")
    for f in range(1, L + 1):
        x, y, w, h = lay.tile_box(f)
        svg.text(x + w / 2, y - 4, f, size=9.5, fill=PALETTE["label"])
        _draw_tile(svg, ed, lay, f, p.track[f - 1])

    # the start box and the finish board
    x, y, w, h = lay.tile_box(0)
    svg.rect(x, y, w, h, rx=4, fill="#ffffff", stroke=PALETTE["grid"], stroke_width=1.5)
    svg.text(x + w / 2, y + h + 11, "start (0)", size=9.5, fill=PALETTE["label"])
    fx0 = lay.tile_box(L + 1)[0]
    svg.text(fx0, lay.finish_y + 14, "finish board (land exactly)",
             size=10, anchor="start", fill=PALETTE["label"], font_weight="bold")
    for k, pts in enumerate(ed.finish_points):
        f = L + 1 + k
        x, y, w, h = lay.tile_box(f)
        svg.rect(x, y, w, h, rx=5, fill="#f3ead2", stroke="#8b5a2b", stroke_width=2)
        svg.text(x + 4, y + 11, f"{f}", size=9.5, anchor="start", fill=PALETTE["label"])
        svg.text(x + w - 4, y + 12, f"{pts} pt", size=11, anchor="end", fill="#8b5a2b", font_weight="bold")

    # fills of the answer marks under the pieces
    last = ed.last_field
    move_f = _fields(marks.move, last)
    bad_f = _fields(marks.illegal, last)
    for f in move_f:
        x, y, w, h = lay.tile_box(f)
        svg.rect(x, y, w, h, rx=4, fill=PALETTE["move-fill"])
    for f in bad_f:
        x, y, w, h = lay.tile_box(f)
        svg.rect(x, y, w, h, rx=4, fill=PALETTE["illegal-fill"])
    if at is not None:
        x, y, w, h = lay.tile_box(at)
        svg.rect(x - 3, y - 3, w + 6, h + 6, rx=6, fill="none", stroke=PALETTE["highlight"], stroke_width=4)

    # witches
    r = lay.t * 0.22
    for f, c in sorted(occ.items()):
        x, y, w, h = lay.tile_box(f)
        _witch(svg, ed, c, x + w / 2, y + h * 0.72, r)
    for f in [0, *range(L + 1, last + 1)]:
        x, y, w, h = lay.tile_box(f)
        groups = _counts(p, ed, f)
        per_row = 2 if f == 0 else max(1, int(w // 34))
        for k, (c, n) in enumerate(groups):
            row, col = divmod(k, per_row)
            wx = x + col * (w / per_row) + 10
            wy = y + (11 if f == 0 else 26) + row * (20 if f == 0 else 18)
            _witch(svg, ed, c, wx, wy, 7.5)
            svg.text(wx + 9, wy + 4, f"×{n}", size=9.5, anchor="start", fill=PALETTE["ink"])

    # the turn so far (a dashed grey route) and the answer marks over the pieces
    pend = pos.pending
    if pend is not None:
        for a, b in zip(pend.chain, pend.chain[1:], strict=False):
            _arc(svg, lay, a, b, "#8a8170", 2, None, dash="5 3")
    for f in move_f:
        x, y, w, h = lay.tile_box(f)
        svg.rect(x - 1, y - 1, w + 2, h + 2, rx=5, fill="none", stroke=PALETTE["move"], stroke_width=3.5)
    for f in bad_f:
        x, y, w, h = lay.tile_box(f)
        svg.rect(x - 1, y - 1, w + 2, h + 2, rx=5, fill="none", stroke=PALETTE["illegal"], stroke_width=3.5,
                 stroke_dasharray="6 3")
        svg.line(x + 3, y + 3, x + 13, y + 13, stroke=PALETTE["illegal"], stroke_width=2.5)
        svg.line(x + 13, y + 3, x + 3, y + 13, stroke=PALETTE["illegal"], stroke_width=2.5)
    for route in marks.routes:
        fs = _fields(route, last)
        for k, (a, b) in enumerate(zip(fs, fs[1:], strict=False)):
            _arc(svg, lay, a, b, PALETTE["path"], 3, str(k + 1) if len(fs) > 2 else None)
    for cell, text in marks.labels.items():
        for f in _fields([cell], last):
            x, y, w, h = lay.tile_box(f)
            svg.text(x + w / 2, y + h + 10, text, size=9, fill=PALETTE["ink"], font_weight="bold")

    # -- turn and hands ---------------------------------------------------------------------------
    hy = lay.finish_y + 22
    svg.text(12, hy + 4, "hands (neutral: draw pile, top first)", size=10, anchor="start", fill=PALETTE["label"],
             font_weight="bold")
    hy += 12
    for c in ed.clan_ids:
        playing = c in p.players
        cards = p.hand(c)
        if not playing and not cards:
            continue
        turn = c == p.to_move and pos.phase != "over"
        if turn:
            svg.rect(8, hy - 1, fx0 - 22, 20, rx=4, fill=PALETTE["highlight"], fill_opacity="0.25")
        _witch(svg, ed, c, 20, hy + 9, 7)
        words = c + (" ▶ to move" if turn else "") + ("" if playing else " (neutral)")
        svg.text(32, hy + 13, words, size=11, anchor="start", fill=PALETTE["ink"], font_weight="bold" if turn else None)
        if playing:
            svg.text(164, hy + 13, f"{p.score(c, ed)} pt", size=10, anchor="start", fill=PALETTE["label"])
        cx = 196
        for v in cards:
            if cx > fx0 - 34:
                svg.text(cx, hy + 13, "…", size=11, anchor="start", fill=PALETTE["ink"])
                break
            svg.rect(cx, hy, 17, 18, rx=2, fill="#ffffff", stroke=clan_colour(ed, c), stroke_width=1.5)
            svg.text(cx + 8.5, hy + 13, "★" if v == SYMBOL else card_name(v), size=9.5, fill=PALETTE["ink"],
                     font_weight="bold")
            cx += 19
        if not cards:
            svg.text(cx, hy + 13, "no cards", size=10, anchor="start", fill=PALETTE["label"])
        hy += 21

    ly = max(hy, lay.finish_y + 86) + 14
    legend = ("tile: clan letter + value, ★ = the clan's symbol; dark = face down (small grey: the tile the "
              "position holds) · witches: " + ", ".join(
                  f"{c} {_SHAPE_NAMES[min(ed.clan_index(c), len(_SHAPE_NAMES) - 1)]}" for c in ed.clan_ids)
              + " · green outline: move · red dashes: broken rule · blue arcs: a chain's hops (forward above, "
              "back below) · grey dashes: the turn so far · yellow ring: where a clan decides")
    legend_lines = _wrap(legend, int((lay.width - 24) / 5.3))
    for k, line in enumerate(legend_lines):
        svg.text(12, ly + 13 * k, line, size=9.5, anchor="start", fill=PALETTE["label"])
    cy = ly + 13 * len(legend_lines) + 10
    for k, line in enumerate(caption_lines):
        svg.text(12, cy + 16 * k, line, size=12, anchor="start", fill=PALETTE["ink"])
    svg.height = cy + 16 * len(caption_lines) + (4 if caption_lines else -6)
    return str(svg)


_SHAPE_NAMES = ("triangle", "circle", "diamond", "square", "pentagon", "hexagon", "polygon")


# -------------------------------------------------------------------------------------------------
# Moves and answers


def move_cells(pos: HexenPosition, move: Any) -> tuple[int, ...]:
    """The fields a move occupies: a witch's field and where the die takes it; a decision's tile and
    where the card sends the witch (just the tile when it stops or cannot); nothing for a roll or a pass."""
    from gnomekit.models.hexen_rennen.game import Play, Witch

    if isinstance(move, Witch) and move.field is not None:
        if pos.phase != "witch" or pos.roll is None or move.field not in pos.base.witches_of(pos.base.to_move):
            return (move.field,)
        target, _ = Turn(pos.base, pos.edition, move.field, pos.rules).die_violations(pos.roll)
        return (move.field,) if target is None else (move.field, target)
    if isinstance(move, Play) and pos.pending is not None:
        at = pos.pending.state.at
        opt = next((o for o in pos.pending.node.options if o.code == move.code), None)
        return (at,) if opt is None or opt.step.to is None else (at, opt.step.to)
    return ()


def chain_of(pos: HexenPosition, moves: Sequence[Any]) -> tuple[int, ...]:
    """The fields a turn visits (the witch's field first) when ``moves`` (a roll if ``pos`` is before
    it, the witch, the decisions; as a solver's witness) are played from ``pos``; () when no witch moves."""
    from gnomekit.models.hexen_rennen.game import Play, Roll, Witch

    roll = pos.roll
    witch = pos.witch
    plays: list[Play] = list(pos.plays)
    for m in moves:
        if isinstance(m, Roll):
            roll = m.face
        elif isinstance(m, Witch):
            witch = m.field
        elif isinstance(m, Play):
            plays.append(m)
    if roll is None or witch is None:
        return ()
    plan = TurnPlan(witch, tuple(Decision(p.clan, p.code) for p in plays))
    return tuple(replay(pos.base, pos.edition, roll, plan, pos.rules).chain)


def move_marks(pos: HexenPosition, move: Any, caption: str | None = None) -> Marks:
    """Marks for one move in ``pos``: its fields (``move_cells``), the hop it makes as a route, every
    broken rule's fields, and the check's words as caption (or ``caption``)."""
    mv = pos.parse_move(move) if isinstance(move, str) else move
    report = pos.check(mv)
    cells = move_cells(pos, mv)
    m = Marks.of_report(report, cells)
    routes = (cells,) if len(cells) == 2 and not report.violations else ()
    return Marks(move=m.move, illegal=m.illegal, routes=routes, caption=m.caption if caption is None else caption)


def move_svg(pos: HexenPosition, move: Any, caption: str | None = None) -> str:
    """The position with one move drawn: its fields and hop, or every broken rule's fields."""
    return position_svg(pos, move_marks(pos, move, caption))


def moves_svg(pos: HexenPosition) -> str:
    """The position with every legal move's fields marked (each witch's die hop, each card's hop)."""
    cells: list[int] = []
    routes: list[tuple[int, ...]] = []
    moves = pos.legal_moves()
    for m in moves:
        mc = move_cells(pos, m)
        for c in mc:
            if c not in cells:
                cells.append(c)
        if len(mc) == 2:
            routes.append(mc)
    words = f"{len(moves)} legal move(s): " + ", ".join(str(m) for m in moves)
    return position_svg(pos, Marks(move=tuple(cells), routes=tuple(routes), caption=words))


def turn_svg(pos: HexenPosition, moves: Sequence[Any], caption: str = "") -> str:
    """The position with a whole turn drawn: the witch's field and the chain's hops (numbered)."""
    chain = chain_of(pos, moves)
    return position_svg(pos, Marks(move=chain[:1], routes=(chain,) if len(chain) > 1 else (), caption=caption))


def result_svg(pos: HexenPosition, result: object, caption: str | None = None) -> str:
    """The position with a solver answer drawn (``gnomekit.solve`` / ``hint`` Result): a witness of
    moves as its chain, a single move (a decision, a witch) as its fields; a per-roll witness
    (``expect``) marks the best witch of each roll, labelled with the roll."""
    status = getattr(result, "status", None)
    value = getattr(result, "value", None)
    witness = getattr(result, "witness", None)
    words = f"{getattr(status, 'name', status)}".lower() + ("" if value is None else f", value {value}")
    if isinstance(witness, dict):
        labels: dict[Hashable, str] = {}
        for roll, w in sorted(witness.items()):
            f = getattr(w, "field", None)
            if f is not None:
                labels[f] = (labels[f] + "," if f in labels else "roll ") + str(roll)
        return position_svg(pos, Marks(move=tuple(labels), labels=labels,
                                       caption=caption or words + ": best witch by roll"))
    if isinstance(witness, list | tuple):
        text = " ".join(str(m) for m in witness)
        return turn_svg(pos, witness, caption if caption is not None else f"{words}: {text}")
    if witness is None:
        return position_svg(pos, Marks(caption=caption if caption is not None else words))
    m = move_marks(pos, witness)
    return position_svg(pos, replace(m, caption=caption if caption is not None else f"{words}: {witness}"))
