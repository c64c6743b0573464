"""SVG pictures of Gnomes at Midnight positions and answers (models/gnomes_at_midnight/render.py).

Every picture must parse as XML; a move's squares, an illegal move's broken-rule squares and a
solver's first move must appear; a few fixed positions are compared byte for byte with
``tests/gnomes_at_midnight/golden/*.svg``.  After an intended change of drawing, regenerate them
with ``GNOMEKIT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/gnomes_at_midnight/test_render.py``
(the test then rewrites the files and passes) and review the new pictures.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from gnomekit.models.core.svg import Marks
from gnomekit.models.gnomes_at_midnight import render
from gnomekit.models.gnomes_at_midnight.game import MidnightPosition
from gnomekit.models.gnomes_at_midnight.moves import Move
from gnomekit.solver.core.result import Result, Status

import gnomekit
from tests import svgdom  # minidom's calls on ElementTree (a tenth of the time)

GOLDEN = Path(__file__).parent / "golden"
GAME = gnomekit.game("gnomes-at-midnight")


def _parse(svg: str) -> svgdom.Document:
    doc = svgdom.parseString(svg)
    assert doc.documentElement.tagName == "svg"
    return doc


def _rects_with_stroke(svg: str, colour: str) -> set[tuple[float, float]]:
    """The top-left corners of the rectangles outlined in ``colour``."""
    out = set()
    for el in _parse(svg).getElementsByTagName("rect"):
        if el.getAttribute("stroke") == colour:
            out.add((float(el.getAttribute("x")), float(el.getAttribute("y"))))
    return out


def _square_corner(r: int, c: int) -> tuple[float, float]:
    """Where render.py draws the (inset by 2) outline of square r,c."""
    return (render.MARGIN + c * render.CELL + 2, render.TOP + render.MARGIN + r * render.CELL + 2)


def _positions() -> list[MidnightPosition]:
    """New, random, mini-edition, mid-playout, chance-node and finished positions."""
    out: list[MidnightPosition] = [GAME.new(), GAME.new(seed=4), gnomekit.game("gnomes-at-midnight", "mini").new()]
    out += [GAME.random(seed=s, turns=t) for s, t in ((1, 3), (2, 9), (7, 15))]
    rng = random.Random(5)
    p = GAME.new(seed=3).hidden()
    for _ in range(80):
        out.append(p)
        if p.is_terminal():
            break
        p = p.apply(rng.choice(p.legal_moves()))
    return out


def test_every_position_draws_well_formed_svg() -> None:
    positions = _positions()
    assert any(p.is_chance_node() for p in positions)
    for p in positions:
        svg = p.svg()
        doc = _parse(svg)
        title = doc.getElementsByTagName("title")[0].firstChild
        assert title is not None and "Gnomes at Midnight" in title.nodeValue
        # a gnome shape per gnome (green triangles, blue circles): on the board, one by each side's
        # name in the panel, one per gnome off the board
        s = p.state
        green = [el for el in doc.getElementsByTagName("polygon") if el.getAttribute("fill") == render.SIDE_FILL[0]]
        blue = [el for el in doc.getElementsByTagName("circle") if el.getAttribute("fill") == render.SIDE_FILL[1]
                and el.getAttribute("stroke-width") == "2"]
        assert len(green) == s.on_board(0) + 1 + min(s.off[0], 6)
        assert len(blue) == s.on_board(1) + 1 + min(s.off[1], 6)
        assert p.svg() == svg  # deterministic
        if p.is_chance_node():
            assert "flip pending" in svg and "chance:" in svg


def test_chance_node_says_the_flip_is_pending() -> None:
    p = GAME.new().hidden()
    after = p.apply(p.legal_moves()[0])
    assert after.is_chance_node()
    svg = after.svg()
    assert "green has moved, moonlight flip pending" in svg
    assert "grass 1/3, tulips 1/3, cobblestone 1/3" in svg


def test_move_is_drawn_with_its_squares_and_an_arrow() -> None:
    p = GAME.new()
    mv = Move("step", (2, 0), (2, 1))
    assert p.move_cells(mv) == ((2, 0), (2, 1))
    assert p.move_cells("2,0-2,1") == ((2, 0), (2, 1))
    assert p.move_cells("+0,0") == ((0, 0),)
    assert p.move_cells("pass") == ()
    svg = render.move_svg(p, mv)
    outlined = _rects_with_stroke(svg, "#2e8b57")
    assert {_square_corner(2, 0), _square_corner(2, 1)} <= outlined
    assert "2,0-2,1: legal" in svg
    # the arrow: a line in the path colour from the source towards the target, on row 2
    lines = [el for el in _parse(svg).getElementsByTagName("line") if el.getAttribute("stroke") == "#1f5fbf"]
    assert len(lines) == 1
    y = render.TOP + render.MARGIN + 2 * render.CELL + render.CELL / 2
    assert float(lines[0].getAttribute("y1")) == y == float(lines[0].getAttribute("y2"))
    assert float(lines[0].getAttribute("x1")) < float(lines[0].getAttribute("x2"))


def test_illegal_move_marks_every_broken_rules_squares() -> None:
    p = GAME.random(seed=3, turns=7)  # blue to move, moon grass
    report = p.check("0,0-2,2")
    cells = {c for v in report.violations for c in v.cells}
    assert {v.rule for v in report.violations} >= {"not-adjacent", "no-own-gnome"}
    svg = p.svg(Marks.of_report(report, p.move_cells("0,0-2,2")))
    red = _rects_with_stroke(svg, "#c0392b")
    assert {_square_corner(*c) for c in cells} <= red  # type: ignore[misc]
    assert "[not-adjacent]" in svg
    # squares outside the board are not drawn (the caption names them)
    svg2 = render.move_svg(p, "4,6-5,6")
    _parse(svg2)
    assert "outside-board" in svg2


def test_moves_picture_marks_every_target() -> None:
    p = GAME.new()
    svg = render.moves_svg(p)
    targets = {m.dst for m in p.legal_moves() if isinstance(m, Move) and m.dst is not None}
    assert {_square_corner(*t) for t in targets} <= _rects_with_stroke(svg, "#2e8b57")
    assert f"{len(p.legal_moves())} legal move(s)" in svg


def test_forced_win_first_move_is_drawn() -> None:
    p = GAME.random(seed=5, turns=8)
    r = gnomekit.solve(p, depth=2)
    assert r.status is Status.OPTIMAL and r.witness is not None
    svg = render.result_svg(p, r)
    cells = p.move_cells(r.witness)
    assert {_square_corner(*c) for c in cells} <= _rects_with_stroke(svg, "#2e8b57")  # type: ignore[misc]
    assert f"first move {r.witness}" in svg
    none = render.result_svg(p, Result(Status.UNSATISFIABLE, None, None, {}, 0.0))
    assert "unsatisfiable" in none and not _rects_with_stroke(none, "#2e8b57")


def _golden_cases() -> dict[str, str]:
    p = GAME.random(seed=3, turns=7)
    h = GAME.new().hidden()
    return {
        "new": GAME.new().svg(),
        "illegal": render.move_svg(p, "0,0-2,2"),
        "chance": h.apply(h.legal_moves()[0]).svg(),
    }


@pytest.mark.parametrize("name", ["new", "illegal", "chance"])
def test_golden(name: str) -> None:
    svg = _golden_cases()[name]
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("GNOMEKIT_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with GNOMEKIT_UPDATE_GOLDEN=1"
    want = path.read_text(encoding="utf-8")
    assert svg == want, f"{name}.svg changed; if intended, regenerate with GNOMEKIT_UPDATE_GOLDEN=1"
    assert re.search(r"<svg [^>]*width=\"(\d+)\"", svg)
