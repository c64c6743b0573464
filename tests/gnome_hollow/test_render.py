"""Gnome Hollow pictures (models/gnome_hollow/render.py): SVG of positions and answers, the ASCII map.

The golden files in tests/gnome_hollow/golden/ are compared byte for byte, so a change of drawing
shows up in review; after a deliberate change regenerate them with ``GNOMEKIT_UPDATE_GOLDEN=1``
(the test then rewrites the file and still passes).  The inputs are golden/table.txt (two rings, a
pot, a signpost, a lying gnome, a wildflower, claims, stored tiles) and golden/close.txt (the
puzzle "One gap, eight tiles").
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from gnomekit.models.core.svg import PALETTE, Marks
from gnomekit.models.gnome_hollow.game import GnomeHollowPosition
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.render import (
    ascii_map,
    check_svg,
    drawn_table,
    moves_svg,
    plan_svg,
    position_svg,
    witness_placements,
)
from gnomekit.solver.core.budget import Budget

import gnomekit
from tests import svgdom  # minidom's calls on ElementTree (a tenth of the time)

G = gnomekit.game("gnome-hollow")
GOLDEN = Path(__file__).parent / "golden"


def _read(name: str) -> GnomeHollowPosition:
    pos = G.read((GOLDEN / name).read_text(), source=name)
    assert isinstance(pos, GnomeHollowPosition)
    return pos


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("GNOMEKIT_UPDATE_GOLDEN") == "1":
        path.write_text(text)
    assert path.exists(), f"{path} missing: run with GNOMEKIT_UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"{name} changed: look at it, then regenerate with GNOMEKIT_UPDATE_GOLDEN=1"


def _elements(svg: str, cls: str) -> list[svgdom.Element]:
    doc = svgdom.parseString(svg)
    return [e for tag in ("polygon", "circle", "g") for e in doc.getElementsByTagName(tag)
            if e.getAttribute("class") == cls]


def _cells(svg: str, cls: str) -> set[tuple[int, int]]:
    out = set()
    for e in _elements(svg, cls):
        q, r = e.getAttribute("data-cell").split(",")
        out.add((int(q), int(r)))
    return out


def test_pictures_are_well_formed_through_every_phase() -> None:
    """New tables, random ones, and positions met in playouts (placing, refill, ring markers, gnome
    actions) all draw as XML with every tile of the table in it."""
    positions = [G.new(players=n, seed=n) for n in (2, 3, 4)] + [G.random(seed=s, turns=4 + s) for s in range(3)]
    table = _read("table.txt")
    phases = set()
    for seed in range(2):
        rng = random.Random(seed)
        pos = table
        for _ in range(18):
            positions.append(pos)
            phases.add(pos.phase)
            pos = pos.apply(rng.choice(pos.legal_moves()))
    positions.append(G.read((GOLDEN / "table.txt").read_text().replace("to-move: red", "to-move: blue")))
    phases.add(positions[-1].phase)
    assert {"place", "chance", "action", "marker"} <= phases
    for pos in positions:
        svg = pos.svg()
        svgdom.parseString(svg)
        tiles = drawn_table(pos).tiles
        assert _cells(svg, "tile") == {t.cell for t in tiles}
        assert f"{pos.start.mover.name} (to move)" in svg  # the protocol's mover, in every phase
        assert pos._repr_svg_() == svg


def test_a_finished_game_is_drawn_with_its_result() -> None:
    text = (GOLDEN / "table.txt").read_text().replace("end-triggered: no", "end-triggered: yes")
    pos = G.read(text.replace("to-move: red", "to-move: red\nfinal-actions: 2"))
    assert pos.is_terminal()
    svg = pos.svg()
    svgdom.parseString(svg)
    assert f"game over: {pos.result()}" in svg


def test_the_table_shows_rings_pots_signposts_gnomes_and_the_side_panel() -> None:
    pos = _read("table.txt")
    svg = pos.svg()
    assert [e.getAttribute("data-ring") for e in _elements(svg, "ring")] == ["a", "b"]
    assert "yellow3" in svg  # the signpost
    lying = [(e.getAttribute("data-player"), e.getAttribute("data-path")) for e in _elements(svg, "gnome-lying")]
    standing = {(e.getAttribute("data-player"), e.getAttribute("data-path")) for e in _elements(svg, "gnome")}
    assert lying == [("blue", "-1,0.0")]
    assert standing == {("red", "market"), ("red", "0,-2.0"), ("blue", "0,-3.0")}
    assert "red (to move)" in svg and "score 10: flowers 3, rings 3, treasure 4" in svg
    offered = {e.getAttribute("data-tile") for e in _elements(svg, "small-tile")}
    assert set(pos.start.offered) | {"W2", "G01", "G04"} <= offered  # offered and stored tiles drawn
    assert "0,-4" in svg and "-1,0" in svg  # coordinates of empty and placed hexes


def test_an_illegal_placement_marks_every_broken_rules_hexes() -> None:
    pos = _read("table.txt")
    move = "G18@1,-2:r0"
    report = pos.check(move)
    assert not report.legal
    svg = check_svg(pos, move)
    bad = {c for v in report.violations for c in v.cells}
    assert _cells(svg, "illegal") == bad == {(1, -2), (0, -1)}
    assert _cells(svg, "move") == set(pos.move_cells(pos.parse_move(move))) == {(1, -2)}
    assert "[edges]" in svg and PALETTE["illegal"] in svg
    # the same marks through the protocol hook
    marks = Marks.of_report(report, pos.move_cells(pos.parse_move(move)))
    assert _cells(pos.svg(marks), "illegal") == bad
    _golden("table-check.svg", svg)


def test_moves_marks_every_hex_a_legal_placement_uses() -> None:
    pos = _read("table.txt")
    svg = moves_svg(pos)
    want = {m.cell for m in pos.legal_moves() if isinstance(m, Placement)}
    assert _cells(svg, "move") == want


def test_a_closing_sequence_is_drawn_with_the_ring_it_closes() -> None:
    pos = _read("close.txt")
    res = gnomekit.solve(pos, goal="close", network="1,-3.0", budget=Budget(seconds=10))
    plan = witness_placements(res.witness)
    assert plan
    svg = plan_svg(pos, plan)
    assert _cells(svg, "move") == {p.cell for p in plan}
    assert len(_elements(svg, "ring-planned")) == 1 and "closes a ring of" in svg
    _golden("close-plan.svg", plan_svg(pos, [Placement("G10", (2, -4), 4)]))


def test_move_cells_of_each_kind_of_move() -> None:
    pos = _read("table.txt")
    assert pos.move_cells("G18@1,-2:r0") == ((1, -2),)
    assert pos.move_cells("end") == ()
    marker = G.read((GOLDEN / "table.txt").read_text().replace("to-move: red", "to-move: blue"))
    m = marker.legal_moves()[0]
    assert set(marker.move_cells(m)) == {(-1, 0), (-1, 1), (0, 0)}  # the ring being scored
    action = pos
    rng = random.Random(3)
    while action.phase != "action":
        action = action.apply(rng.choice(action.legal_moves()))
    kinds = {str(m).split()[2]: action.move_cells(m) for m in action.legal_moves() if str(m) != "pass"}
    assert kinds["market"] == ((0, 0),) and kinds["flowers"] == ()
    assert len(kinds["claim"]) == 1


def test_golden_table() -> None:
    _golden("table.svg", position_svg(_read("table.txt")))


def test_ascii_map_golden_and_fits_80_columns() -> None:
    pos = _read("table.txt")
    text = ascii_map(pos)
    _golden("table-map.txt", text)
    assert max(len(line) for line in text.splitlines()) <= 80
    for t in pos.start.tiles:
        assert (t.tile if t.tile != "S" else "Stump") in text
    assert "ring a: 3 tiles" in text and "B!" in text and "R$" in text


def test_ascii_map_of_a_wide_garden_is_cut_into_bands() -> None:
    """A garden of 61 tiles spread over 19 hex columns: every tile and q,r is printed, no map line
    is wider than 80 columns."""
    pos = G.random(seed=1, turns=30, players=4)
    text = ascii_map(pos)
    assert "-- columns q =" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    for t in pos.start.tiles:
        assert f"{t.cell[0]},{t.cell[1]}" in text
        assert (t.tile if t.tile != "S" else "Stump") in text


@pytest.mark.parametrize("width", [40, 60])
def test_ascii_map_bands_follow_the_width(width: int) -> None:
    pos = G.random(seed=2, turns=10)
    text = ascii_map(pos, width=width)
    body = [line for line in text.splitlines() if line.startswith((" ", "/", "\\"))]
    assert body and max(len(line) for line in body) <= width
