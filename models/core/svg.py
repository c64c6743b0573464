"""Plain SVG text for board pictures: a tiny element builder, a palette and answer marks.

Like python-chess's ``chess/svg.py`` this writes SVG as text with no drawing library: pictures
are small, deterministic (golden-file tests compare them byte for byte) and need nothing
installed.  Each game's ``models/<game>/render.py`` draws its board with these pieces; an
answer (a move, an illegal move's broken rules, a plan) is drawn from :class:`Marks`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr

#: Colours shared by every game's pictures (answers look the same in every game).
PALETTE = {
    "background": "#fbf8ef",
    "grid": "#8a8170",
    "ink": "#2b2620",
    "label": "#6b6254",
    "move": "#2e8b57",  # the cells of a move or placement being shown
    "move-fill": "#2e8b5744",
    "illegal": "#c0392b",  # cells a broken rule names
    "illegal-fill": "#c0392b44",
    "path": "#1f5fbf",  # a plan's or a chain's route
    "highlight": "#f1c40f",
}

FONT = "font-family=\"DejaVu Sans, Verdana, sans-serif\""


def esc(text: object) -> str:
    """Text escaped for an SVG text node."""
    return _escape(str(text))


def _num(v: float) -> str:
    """Coordinates with at most two decimals and no trailing zeros (stable golden files)."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _attrs(attrs: dict[str, object]) -> str:
    out = []
    for k, v in attrs.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        val = _num(v) if isinstance(v, float) else str(v)
        out.append(f"{name}={quoteattr(val)}")
    return (" " + " ".join(out)) if out else ""


class Svg:
    """One SVG document built element by element; ``str(svg)`` is the document."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []

    def add(self, raw: str) -> None:
        self.parts.append(raw)

    def element(self, tag: str, attrs: dict[str, object], body: str | None = None) -> None:
        """``<tag attrs/>``, or ``<tag attrs>body</tag>`` with the body escaped."""
        if body is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{esc(body)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.element("rect", {"x": float(x), "y": float(y), "width": float(w), "height": float(h), **attrs})

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> None:
        self.element("circle", {"cx": float(cx), "cy": float(cy), "r": float(r), **attrs})

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        self.element("line", {"x1": float(x1), "y1": float(y1), "x2": float(x2), "y2": float(y2), **attrs})

    def polygon(self, points: Iterable[tuple[float, float]], **attrs: object) -> None:
        self.element("polygon", {"points": " ".join(f"{_num(x)},{_num(y)}" for x, y in points), **attrs})

    def polyline(self, points: Iterable[tuple[float, float]], **attrs: object) -> None:
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self.element("polyline", {"points": pts, "fill": "none", **attrs})

    def path(self, d: str, **attrs: object) -> None:
        self.element("path", {"d": d, **attrs})

    def text(self, x: float, y: float, text: object, size: float = 12, anchor: str = "middle", **attrs: object) -> None:
        a = _attrs({"x": float(x), "y": float(y), "font_size": float(size), "text_anchor": anchor, **attrs})
        self.parts.append(f"<text{a} {FONT}>{esc(text)}</text>")

    def open_group(self, **attrs: object) -> None:
        self.parts.append(f"<g{_attrs(attrs)}>")

    def close_group(self) -> None:
        self.parts.append("</g>")

    def __str__(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(self.width)}" '
                f'height="{_num(self.height)}" viewBox="0 0 {_num(self.width)} {_num(self.height)}">')
        title = f"<title>{esc(self.title)}</title>" if self.title else ""
        w, h = _num(self.width), _num(self.height)
        bg = f'<rect x="0" y="0" width="{w}" height="{h}" fill="{PALETTE["background"]}"/>'
        return "\n".join([head, *([title] if title else []), bg, *self.parts, "</svg>"]) + "\n"


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` cut into lines of at most ``width`` characters at spaces (a longer word stays whole)."""
    out: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        out.append(line)
    return out


@dataclass(frozen=True)
class Marks:
    """An answer drawn on a board: cells of a move, cells a broken rule names, routes, a caption.

    Cells are in the game's own addresses (squares, hexes, track fields); each renderer knows
    how to draw them.  ``routes`` are sequences of cells drawn as arrows (a running plan's path,
    a chain's hops); ``caption`` is a line of words under the board.
    """

    move: tuple[Hashable, ...] = ()
    illegal: tuple[Hashable, ...] = ()
    routes: tuple[tuple[Hashable, ...], ...] = ()
    caption: str = ""
    labels: dict[Hashable, str] = field(default_factory=dict)

    @staticmethod
    def of_report(report: object, move_cells: Iterable[Hashable] = ()) -> Marks:
        """Marks for a protocol Report: the move's cells, and every violation's cells when illegal."""
        violations = getattr(report, "violations", ())
        bad: list[Hashable] = []
        for v in violations:
            for c in v.cells:
                if c not in bad:
                    bad.append(c)
        words = "legal" if not violations else "; ".join(f"[{v.rule}] {v.message}" for v in violations)
        return Marks(move=tuple(move_cells), illegal=tuple(bad), caption=f"{getattr(report, 'move', '')}: {words}")
