"""SVG pictures of Hedge Mage positions and answers (models/hedge_mage/render.py).

Every picture is well-formed XML (many generated gardens and running positions, before, during
and after moves; Hedge Mage has no chance nodes); the cells of a move, of a broken rule and of a
plan's routes appear in the picture; a few fixed pictures are compared byte for byte with the
golden files in ``tests/hedge_mage/golden/``.  After an intended change of drawing, regenerate
them with ``GNOMEKIT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/hedge_mage/test_render.py``
(the test then rewrites the files and passes) and look at the new pictures before committing.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from gnomekit.models.core.svg import Marks
from gnomekit.models.hedge_mage import render
from gnomekit.models.hedge_mage.game import GardenPosition, RunningPosition
from gnomekit.models.hedge_mage.running import Action, apply_action

import gnomekit
from tests import svgdom  # minidom's calls on ElementTree (a tenth of the time)

G = gnomekit.game("hedge-mage")
ED = G.edition
GOLDEN = Path(__file__).parent / "golden"

SMALL = """\
hedge-mage garden
size: 5x6
round: 3
tile: L3
remaining: D2 I3m L3 L3e I4 L4 L4m T4 T4e S4 N5
substitution: unused
held-bonus-sigils: 1
hedges: a=I3 b=L3e
mage-owners: Ann -

     0   1   2   3   4   5
  0  +W  .   .   .   .   .
  1  .   A   a*  aF  .   .f
  2  .   .   .^  b   B   .
  3  .   .WP .   b   .m  .
  4  .p  .   .   .   .   +
"""

TINY_RUN = """\
hedge-mage run
edition: default
size: 3x4
round: 1
enchantments: planter-enchanter morel-evate pump-kin
points: 2
spent: 0
tokens: 1
springshroom-tokens: 0
sigil-tokens: 0
rescued: -
used: 0 1
moved: -
hedges: a=D2

   0  1  2  3
0  .1 .  .P +
1  .  A  a  .
2  .m .  .  +2
"""


def _parse(svg: str) -> svgdom.Document:
    return svgdom.parseString(svg)


def _cells_with(svg: str, cls: str) -> set[tuple[int, int]]:
    """The ``data-cell`` of every element of class ``cls``."""
    out = set()
    for el in _parse(svg).getElementsByTagName("*"):
        if cls in el.getAttribute("class").split() and el.getAttribute("data-cell"):
            r, c = el.getAttribute("data-cell").split(",")
            out.add((int(r), int(c)))
    return out


def _on_board(svg: str, cls: str) -> int:
    """How many elements inside the board (not the legend) have every class word of ``cls``."""
    want = set(cls.split())
    board = next(g for g in _parse(svg).getElementsByTagName("g") if g.getAttribute("class") == "board")
    return sum(1 for el in board.getElementsByTagName("*") if want <= set(el.getAttribute("class").split()))


def _golden(name: str, svg: str) -> None:
    path = GOLDEN / name
    if os.environ.get("GNOMEKIT_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}: run with GNOMEKIT_UPDATE_GOLDEN=1"
    assert svg == path.read_text(encoding="utf-8"), f"{name} changed: look at it, then regenerate the golden file"


# -- well-formed pictures of many positions ------------------------------------------------------------


def _positions() -> list[object]:
    rng = random.Random(7)
    out: list[object] = [G.new(seed=0), G.new(seed=3), G.read(SMALL), G.read(TINY_RUN)]
    for seed in range(4):
        out.append(G.random(seed=seed, rounds=1 + seed * 2))
        out.append(G.random(seed=seed, rounds=2 + seed, points=3 + seed))
    more: list[object] = []
    for pos in out:
        cur = pos
        for _ in range(3):  # positions during and after moves
            moves = cur.legal_moves()  # type: ignore[attr-defined]
            if not moves:
                break
            cur = cur.apply(rng.choice(moves))  # type: ignore[attr-defined]
            more.append(cur)
    return out + more


def test_every_picture_is_well_formed_and_titled() -> None:
    for pos in _positions():
        svg = pos.svg()  # type: ignore[attr-defined]
        doc = _parse(svg)
        root = doc.documentElement
        assert root.tagName == "svg"
        assert 400 <= float(root.getAttribute("width")) <= 900
        kind = "garden" if isinstance(pos, GardenPosition) else "maze running"
        assert f"Hedge Mage: {kind}" in svg
        assert pos._repr_svg_() == svg  # type: ignore[attr-defined]


def test_a_character_passing_through_is_drawn() -> None:
    pos = G.read(TINY_RUN)
    assert isinstance(pos, RunningPosition)
    mid, _ = apply_action(pos.run, ED, Action("step", "M1", path=((0, 1), (0, 2))), continues=True)
    assert mid.transit is not None
    svg = RunningPosition(G, mid).svg()
    _parse(svg)
    assert "mage 1 is passing through" in svg


def test_the_board_shows_what_stands_on_it() -> None:
    pos = G.read(SMALL)
    svg = pos.svg()
    assert _cells_with(svg, "hedge") == set(pos.garden.hedge_cells)  # type: ignore[attr-defined]
    assert _cells_with(svg, "shaded") == set()  # a 5x6 garden is not the edition's board: no shading
    assert _on_board(svg, "gnome flower awake") == 1 and _on_board(svg, "gnome flower asleep") == 1
    assert _on_board(svg, "gnome mushroom asleep") == 1 and _on_board(svg, "gnome pumpkin") == 2
    assert _on_board(svg, "mage") == 2
    assert _on_board(svg, "tunnel") == 2
    assert _on_board(svg, "springshroom") == 1
    assert _on_board(svg, "bonus-sigil") == 1
    assert _on_board(svg, "sigil") == 2 and _on_board(svg, "tile-name") == 2
    assert ">Ann</text>" in svg  # the mage's owner
    assert ">Revealed tile: L3</text>" in svg
    new = G.new(seed=0)
    shaded = _cells_with(new.svg(), "shaded")
    assert shaded == set(ED.numbered) | set(ED.shaded)  # tunnels lie on numbered shaded spaces


def test_running_picture_shows_movement_left() -> None:
    svg = G.read(TINY_RUN).svg()
    assert "mage 1 at 0,0: 2 of 2" in svg and "mage 2 at 2,3: 1 of 2" in svg
    assert re.findall(r'class="movement-left"/>\s*<text[^>]*>(\d+)</text>', svg)[:2] == ["2", "1"]


# -- answers drawn -------------------------------------------------------------------------------------


def test_illegal_placement_marks_every_broken_rule_cell() -> None:
    pos = G.read(SMALL)
    rep = pos.check("L3:R0@1,0")
    assert rep.violations
    bad = {c for v in rep.violations for c in v.cells}
    svg = render.check_svg(pos, "L3:R0@1,0")
    assert bad and _cells_with(svg, "illegal") == bad
    assert _cells_with(svg, "move") == set(pos.move_cells("L3:R0@1,0")) == {(1, 0), (1, 1), (2, 0)}
    assert "[covers]" in svg


def test_random_illegal_placements_mark_their_cells() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        pos = G.random(seed=seed, rounds=3)
        assert isinstance(pos, GardenPosition)
        tile = pos.garden.tile
        if tile is None:
            continue
        for _ in range(12):
            r, c = rng.randrange(pos.garden.rows), rng.randrange(pos.garden.cols)
            mv = pos.parse_move(f"{tile}:{rng.randrange(8)}@{r},{c}")
            rep = pos.check(mv)
            bad = {cell for v in rep.violations for cell in v.cells
                   if 0 <= cell[0] < pos.garden.rows and 0 <= cell[1] < pos.garden.cols}  # type: ignore[index]
            svg = pos.svg(Marks.of_report(rep, pos.move_cells(mv)))
            assert _cells_with(svg, "illegal") == bad
            checked += bool(bad)
    assert checked > 5


def test_plan_routes_follow_the_characters() -> None:
    pos = G.read(TINY_RUN)
    marks = render.plan_marks(pos, "M1>0,1 M2>1,3 p0,2>0,3 T M1>0,0>1,0")
    assert marks.routes == (((0, 0), (0, 1)), ((2, 3), (1, 3)), ((0, 2), (0, 3)), ((0, 1), (0, 0), (1, 0)))
    assert marks.caption.endswith(": legal") and not marks.illegal
    svg = pos.svg(marks)
    assert svg.count('class="route"') == 4 and svg.count('class="route-number"') == 4
    # one character's consecutive steps are one route (a token spent in between does not cut it)
    assert render.plan_marks(pos, "M1>0,1 T M1>0,0").routes == (((0, 0), (0, 1), (0, 0)),)
    assert pos.move_cells("M1>0,1>0,2 M1+0,2") == ((0, 0), (0, 1), (0, 2))


def test_illegal_running_action_marks_its_cells() -> None:
    pos = G.read(TINY_RUN)
    rep = pos.check("M1>0,1>1,1")
    assert [v.rule for v in rep.violations] == ["low-to-high"]
    svg = render.check_svg(pos, "M1>0,1>1,1")
    assert _cells_with(svg, "illegal") == {(0, 0), (0, 1), (1, 1)}
    assert "[low-to-high]" in svg


def test_moves_and_answers() -> None:
    pos = G.read(SMALL)
    moves = pos.legal_moves()
    marks = render.moves_marks(pos)
    count: dict[object, int] = {}
    for m in moves:
        for c in m.cells:
            count[c] = count.get(c, 0) + 1
    assert marks.labels == {c: str(n) for c, n in count.items()}
    _parse(render.moves_svg(pos))
    best = gnomekit.solve(pos)
    svg = render.answer_svg(pos, best.witness)
    assert _cells_with(svg, "move") == set(best.witness.cells)
    hint = gnomekit.hint(pos)
    assert "hint:" in render.answer_svg(pos, hint)
    run = G.read(TINY_RUN)
    res = gnomekit.solve(run)
    marks = render.answer_marks(run, res.witness)
    assert marks.routes and all(len(r) > 1 for r in marks.routes)
    assert render.moves_marks(run).routes


# -- golden files ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["small.svg", "small-check-illegal.svg", "tiny-run-plan.svg", "new-seed0.svg"])
def test_golden(name: str) -> None:
    if name == "small.svg":
        svg = G.read(SMALL).svg()
    elif name == "small-check-illegal.svg":
        svg = render.check_svg(G.read(SMALL), "L3:R0@1,0")
    elif name == "tiny-run-plan.svg":
        svg = render.check_svg(G.read(TINY_RUN), "M1>0,1 M2>1,3 p0,2>0,3 T M1>0,0>1,0")
    else:
        svg = G.new(seed=0).svg()
    _golden(name, svg)
