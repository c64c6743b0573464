"""SVG pictures of Hexen Rennen positions and answers (models/hexen_rennen/render.py).

Every picture must parse as XML and show each witch; a move's fields, an illegal decision's
broken-rule fields and a chain's hops must appear; a few fixed positions are compared byte for
byte with ``tests/hexen_rennen/golden/*.svg``.  After an intended change of drawing, regenerate
them with ``GNOMEKIT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/hexen_rennen/test_render.py``
(the test then rewrites the files and passes) and review the new pictures.
"""

from __future__ import annotations

import os
import random
import tomllib
from pathlib import Path

import pytest
from gnomekit.models.core.svg import Marks
from gnomekit.models.hexen_rennen import render
from gnomekit.models.hexen_rennen.game import HexenPosition, Play, Witch

import gnomekit
from tests import svgdom  # minidom's calls on ElementTree (a tenth of the time)

GOLDEN = Path(__file__).parent / "golden"
PUZZLES = Path(__file__).parents[2] / "puzzles" / "hexen-rennen"
GAME = gnomekit.game("hexen-rennen")
LAYOUT = render.Layout(GAME.edition)


def _parse(svg: str) -> svgdom.Document:
    doc = svgdom.parseString(svg)
    assert doc.documentElement.tagName == "svg"
    return doc


def _outlined(svg: str, colour: str) -> set[tuple[float, float]]:
    """The top-left corners of the rectangles outlined in ``colour``."""
    return {(float(el.getAttribute("x")), float(el.getAttribute("y")))
            for el in _parse(svg).getElementsByTagName("rect") if el.getAttribute("stroke") == colour}


def _corner(f: int) -> tuple[float, float]:
    """Where render.py draws the outline of field ``f`` (its box grown by 1 px)."""
    x, y, _w, _h = LAYOUT.tile_box(f)
    return (round(x - 1, 2), round(y - 1, 2))


def _example() -> HexenPosition:
    """The rulebook's worked example (puzzle 01) before the roll."""
    text = tomllib.loads((PUZZLES / "01-worked-example.toml").read_text(encoding="utf-8"))["puzzle"]["position"]
    return GAME.read(text)


def _deciding() -> HexenPosition:
    """The worked example inside its chain: roll 3, witch 10, fog played 7; ice must answer on tile 20."""
    text = tomllib.loads((PUZZLES / "01-worked-example.toml").read_text(encoding="utf-8"))["puzzle"]["position"]
    return GAME.read(text + "roll: 3\nturn: 10 fog:7\n")


def _positions() -> list[HexenPosition]:
    """New games of 2-4 players, random positions, every phase of random turns, the examples."""
    out: list[HexenPosition] = [GAME.new(), GAME.new(players=2, seed=1), GAME.new(players=3, seed=2),
                                _example(), _deciding()]
    rng = random.Random(7)
    for seed in (1, 4):
        p = GAME.random(seed=seed, turns=10 + 8 * seed)
        for _ in range(40):
            out.append(p)
            if p.is_terminal():
                break
            p = p.apply(rng.choice(p.legal_moves()))
    return out


def test_every_position_draws_well_formed_svg() -> None:
    positions = _positions()
    assert {p.phase for p in positions} >= {"roll", "witch", "decide"}
    ed = GAME.edition
    for p in positions:
        svg = p.svg()
        doc = _parse(svg)
        assert p.svg() == svg  # deterministic
        # a witch per track witch and one per clan on each start / finish field, in the clan's colour
        base, _ = render._drawn_state(p)
        want = {c: 0 for c in ed.clan_ids}
        for c, fields in base.witches:
            on_track = sum(1 for f in fields if 1 <= f <= ed.track_length)
            want[c] += on_track + len({f for f in fields if not 1 <= f <= ed.track_length})
        for c in ed.clan_ids:
            col = render.clan_colour(ed, c)
            shapes = [el for tag in ("polygon", "circle") for el in doc.getElementsByTagName(tag)
                      if el.getAttribute("fill") == col and el.getAttribute("stroke-width") == "1.5"]
            in_hands = 1 if c in base.players or base.hand(c) else 0
            assert len(shapes) == want[c] + in_hands, (c, p.board())
        # every field number is drawn, face-down tiles as backs
        down = sum(1 for t in base.track if not t.face_up)
        assert svg.count(f'fill="{render.BACK}"') == down
        if p.phase == "decide":
            assert p.pending is not None and f"decides on tile {p.pending.state.at}" in svg


def test_decision_move_and_its_hop() -> None:
    p = _deciding()
    assert p.move_cells("ice:5") == (20, 15)
    assert p.move_cells(Play("ice", 9)) == (20, 11)
    svg = render.move_svg(p, "ice:9")
    assert {_corner(20), _corner(11)} <= _outlined(svg, "#2e8b57")
    assert "ice:9: legal" in svg
    # the hop 20 -> 11 is one blue arc (from stage 2 up to stage 1)
    arcs = [el for el in _parse(svg).getElementsByTagName("path") if el.getAttribute("stroke") == "#1f5fbf"]
    assert len(arcs) == 1
    # the chain so far (10 -> 13 -> 23 -> 27 -> 20) is drawn dashed, 4 hops
    grey = [el for el in _parse(svg).getElementsByTagName("path") if el.getAttribute("stroke-dasharray") == "5 3"]
    assert len(grey) == 4


def test_illegal_decision_marks_every_broken_rules_fields() -> None:
    p = _deciding()
    report = p.check("ice:stop")
    assert [v.rule for v in report.violations] == ["forced-play"]
    svg = p.svg(Marks.of_report(report, p.move_cells("ice:stop")))
    assert _corner(20) in _outlined(svg, "#c0392b")
    assert "[forced-play]" in svg
    # a pass while witches can move: every movable witch's field is marked
    q = GAME.read(_example().to_text() + "roll: 3\n")
    rep = q.check("pass")
    assert rep.violations and rep.violations[0].rule == "must-move"
    svg = render.move_svg(q, "pass")
    assert {_corner(f) for f in rep.violations[0].cells} <= _outlined(svg, "#c0392b")  # type: ignore[arg-type]


def test_witch_move_cells_and_all_moves() -> None:
    q = GAME.read(_example().to_text() + "roll: 3\n")
    assert q.move_cells(Witch(10)) == (10, 13)
    assert q.move_cells(Witch(0))[0] == 0
    svg = render.moves_svg(q)
    for m in q.legal_moves():
        assert {_corner(f) for f in q.move_cells(m)} <= _outlined(svg, "#2e8b57")


def test_solved_chain_is_drawn_hop_by_hop() -> None:
    p = _example()
    r = gnomekit.solve(p, goal="chain", roll=3)
    assert r.value == 11
    assert render.chain_of(p, r.witness) == (10, 13, 23, 27, 20, 11)
    svg = render.result_svg(p, r)
    arcs = [el for el in _parse(svg).getElementsByTagName("path") if el.getAttribute("stroke") == "#1f5fbf"]
    assert len(arcs) == 5
    assert _corner(10) in _outlined(svg, "#2e8b57")
    assert "optimal, value 11: roll 3 witch 10 fog:7 ice:9" in svg


def _golden_cases() -> dict[str, str]:
    p = _example()
    return {
        "new": GAME.new().svg(),
        "chain": render.result_svg(p, gnomekit.solve(p, goal="chain", roll=3)),
        "illegal": render.move_svg(_deciding(), "ice:stop"),
    }


@pytest.mark.parametrize("name", ["new", "chain", "illegal"])
def test_golden(name: str) -> None:
    svg = _golden_cases()[name]
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("GNOMEKIT_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with GNOMEKIT_UPDATE_GOLDEN=1"
    assert svg == path.read_text(encoding="utf-8"), \
        f"{name}.svg changed; if intended, regenerate with GNOMEKIT_UPDATE_GOLDEN=1"


def _status_lines(svg: str) -> list[str]:
    """The drawn lines of the status sentence (12-point ink text between the heading and the track)."""
    return [el.firstChild.data for el in _parse(svg).getElementsByTagName("text")
            if el.getAttribute("font-size") == "12" and 40 <= float(el.getAttribute("y")) < render.TOP]


def test_the_picture_says_the_status_sentence_of_the_position() -> None:
    """One sentence of where the turn stands, built once (``HexenPosition.status``): the picture draws
    it once, and names it in its title; in a chain it carries the roll and the cards played, which the
    picture shows nowhere else."""
    done = GAME.random(seed=0, turns=500)
    positions = [*_positions(), done]
    assert {p.phase for p in positions} == {"roll", "witch", "decide", "over"}
    for p in positions:
        svg = p.svg()
        assert " ".join(_status_lines(svg)) == p.status(), p.status()
        title = _parse(svg).getElementsByTagName("title")[0].firstChild.data
        assert title.endswith(" · " + p.status())
    d = _deciding()
    assert d.status() == ("weather rolled 3, witch from 10: chain 10 -> 13 -> 23 -> 27 -> 20, played fog:7; "
                          "ice decides on tile 20 (must play a card)")
    assert GAME.new().status() == "weather rolls the die" and done.status().startswith("the race is over: ")


def test_a_long_status_is_drawn_on_two_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    long = "weather rolled 6, witch from start: chain " + " -> ".join(str(f) for f in range(0, 48, 2)) + \
        "; fog decides on tile 46 (must play a card)"
    monkeypatch.setattr(HexenPosition, "status", lambda self: long)
    lines = _status_lines(GAME.new().svg())
    assert len(lines) == 2 and " ".join(lines) == long
    assert all(len(line) * 6.6 <= LAYOUT.width - 24 for line in lines)
