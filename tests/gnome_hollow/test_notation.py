"""Position notations round-trip; errors are located; editions are validated with located problems."""

from __future__ import annotations

import json

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.core.errors import EditionError, NotationError
from gnomekit.models.core.hexgrid import DIRECTIONS, mirror_edge, neighbour, opposite, orient_edge, rotate_edge
from gnomekit.models.gnome_hollow.edition import default_edition, edition_from_toml, path_kind
from gnomekit.models.gnome_hollow.notation import (
    parse_placements,
    position_from_json,
    position_from_text,
    position_to_json,
    position_to_text,
    read_position,
)
from gnomekit.models.gnome_hollow.setup import new_position, random_position
from hypothesis import given, settings
from hypothesis import strategies as st

ED = default_edition()


def test_hex_convention() -> None:
    assert neighbour((0, 0), 0) == (0, -1) and neighbour((0, 0), 3) == (0, 1)
    for e in range(6):
        assert neighbour(neighbour((2, -1), e), opposite(e)) == (2, -1)
        assert mirror_edge(mirror_edge(e)) == e
        assert orient_edge(e, 6) == mirror_edge(e)
        assert orient_edge(e, 1) == rotate_edge(e, 1) == (e + 1) % 6
    assert sum(d[0] for d in DIRECTIONS) == 0 and sum(d[1] for d in DIRECTIONS) == 0
    assert [mirror_edge(e) for e in range(6)] == [0, 5, 4, 3, 2, 1]


def test_default_edition_counts() -> None:
    assert len(ED.tiles) == 92 and len(ED.wildflowers) == 8
    assert sorted(len(t.paths) for t in ED.tiles.values()).count(1) == 84
    counts: dict[str, int] = {}
    for t in ED.tiles.values():
        for p in t.paths:
            assert p.mushroom is not None
            counts[p.mushroom] = counts.get(p.mushroom, 0) + 1
    assert counts == {"red": 25, "yellow": 25, "teal": 18, "pink": 18, "purple": 14}
    assert ED.ring_points(5) == 14 and ED.flower_points(3) == 6
    assert ED.treasures["bottlecap"][0] == 1 and ED.treasures["feather"][0] == 3 and ED.treasures["crystal"][0] == 5
    assert ED.market_tokens == {"red": 5, "yellow": 5, "teal": 4, "pink": 4, "purple": 3}
    assert [p.a for p in ED.stump.paths] == [0, 2, 4] and [p.b for p in ED.stump.paths] == [1, 3, 5]
    # 3 red + 5 pink pay 9 (the rulebook's market example)
    red3 = dict(ED.market["red"].spaces)[3]
    pink5 = dict(ED.market["pink"].spaces)[5]
    assert red3 + pink5 == 9


def test_path_kinds_and_orientations() -> None:
    assert path_kind(0, 1) == "sharp" and path_kind(5, 0) == "sharp"
    assert path_kind(0, 2) == "wide" and path_kind(1, 5) == "wide" and path_kind(2, 5) == "straight"
    assert len(ED.tile("G01").distinct_orientations) == 6  # a mirrored sharp path is a turned one
    assert len(ED.tile("G03").distinct_shapes) == 3
    assert len(ED.tile("G92").distinct_orientations) == 6  # (0,1)+(2,5) is symmetric under e -> 1 - e
    assert len(ED.tile("G85").distinct_shapes) == 6  # (0,1)+(2,3) too, but its two mushrooms differ:
    assert len(ED.tile("G85").distinct_orientations) == 12


def test_edition_errors_are_collected_and_located() -> None:
    text = """[edition]
game = "gnome-hollow"
[mushrooms]
colours = ["red", "blue"]
supply = { red = 3, blue = 2 }
[stump]
paths = [[0, 1]]
[wildflowers]
W1 = "rose"
[flowers]
track = [0, 1]
[rings]
markers = 2
track = [0, 1, 3]
[[rings.columns]]
size = 3
plus = true
rows = [["bogus"]]
[treasures]
cap = { value = 1 }
[market]
tokens = { red = 1, blue = 1 }
red = { pair = 1, spaces = [[3, 2]] }
blue = { pair = 1, spaces = [[3, 2]] }
[signposts]
s1 = { red = 1 }
[players]
[tiles]
A1 = [[0, 6, "red"]]
A2 = [[0, 1, "green"]]
A3 = [[0, 1, "red"], [1, 2, "red"]]
"""
    with pytest.raises(EditionError) as exc:
        edition_from_toml(parse_toml(text, "mine.toml"))
    msg = str(exc.value)
    assert "4 problem(s)" in msg
    assert "mine.toml:18" in msg and "bogus" in msg
    assert "A1: path 1 edge out of range" in msg and "mine.toml:29" in msg
    assert "unknown mushroom 'green'" in msg
    assert "A3: path 2 reuses edge 1" in msg
    assert exc.value.line == 29  # the first problem found


def test_new_position_text_and_json_round_trip() -> None:
    for players in (2, 3, 4):
        pos = new_position(ED, players, seed=players)
        assert pos.problems(ED) == []
        assert position_from_text(position_to_text(pos, ED), "t", ED) == pos
        assert position_from_json(json.dumps(position_to_json(pos, ED)), "j", ED) == pos
        assert len(pos.offered) == 8 and len(pos.sunset) == 2 * players
        assert len(pos.bag) == 92 - 8 - 2 * players


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 12), st.integers(2, 4))
def test_random_positions_round_trip(seed: int, turns: int, players: int) -> None:
    pos = random_position(ED, seed, turns, players)
    assert pos.problems(ED) == []
    text = position_to_text(pos, ED)
    assert position_from_text(text, "t", ED) == pos
    assert position_to_text(position_from_text(text, "t", ED), ED) == text
    js = json.dumps(position_to_json(pos, ED))
    assert read_position(js, "j", ED) == pos


def test_text_errors_are_located() -> None:
    good = position_to_text(new_position(ED, 2, 0), ED).splitlines()
    assert good[1] == "format: 1" and good[5].startswith("tiles: ")  # the format line comes second (issue 17)
    bad = list(good)
    bad[5] = "tiles: S@0,0:r0 G01@1,x"
    with pytest.raises(NotationError) as exc:
        position_from_text("\n".join(bad), "p.txt", ED)
    assert exc.value.line == 6 and exc.value.column == 17 and exc.value.text == "G01@1,x"
    bad = list(good)
    bad[5] = "tiles: S@0,0:r0 ZZ9@0,1:r0"
    with pytest.raises(NotationError) as exc:
        position_from_text("\n".join(bad), "p.txt", ED)
    assert "unknown tile 'ZZ9'" in str(exc.value) and exc.value.line == 6
    with pytest.raises(NotationError) as exc:
        position_from_text("hello\n", "p.txt", ED)
    assert exc.value.line == 1


def test_json_errors_are_located() -> None:
    data = position_to_json(new_position(ED, 2, 0), ED)
    data["tiles"].append({"tile": "G01", "cell": [0, "a"], "orientation": 0})
    text = json.dumps(data, indent=1)
    with pytest.raises(NotationError) as exc:
        position_from_json(text, "p.json", ED)
    assert "tiles[1].cell" in str(exc.value) and exc.value.line is not None
    assert text.splitlines()[exc.value.line - 1].strip().startswith('"cell"')


def test_placement_notations() -> None:
    ps = parse_placements(["G12@1,-1:r3 G40@0,-2:m2", '{"tile": "W1", "cell": [2, 2]}', "G01@0,1:7"])
    assert [(p.tile, p.cell, p.orientation) for p in ps] == [
        ("G12", (1, -1), 3), ("G40", (0, -2), 8), ("W1", (2, 2), 0), ("G01", (0, 1), 7)]
    with pytest.raises(NotationError) as exc:
        parse_placements(["G12@1,-1:r3 G40@0,-2:q2"])
    assert exc.value.column == 13


def test_the_documented_examples_parse_to_the_same_position() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "formats-gnome-hollow.md").read_text()
    text = doc.split("## Text position\n\n```\n", 1)[1].split("```", 1)[0]
    js = doc.split("## JSON position\n\n```json\n", 1)[1].split("```", 1)[0]
    a = position_from_text(text, "doc", ED)
    b = position_from_json(js, "doc", ED)
    assert a == b
    assert a.completed(ED)[0].size == 3
