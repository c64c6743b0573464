"""Notations and editions: round trips, the mandatory JSON keys, located errors."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.core.errors import EditionError, NotationError
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition, edition_from_toml
from gnomekit.models.gnomes_at_midnight.moves import legal_moves
from gnomekit.models.gnomes_at_midnight.notation import (
    parse_move,
    position_from_text,
    position_to_json,
    position_to_text,
    read_position,
)
from gnomekit.solver.gnomes_at_midnight.gen import positions

from tests.gnomes_at_midnight.helpers import base_json, make

MANDATORY = ("rows", "cols", "terrain", "flowers", "gnomes", "toadstools", "off_board", "to_move", "moon",
             "decks", "dance")


def test_bundled_editions_follow_the_rulings_and_the_issue() -> None:
    d = bundled_edition("default")
    assert (d.rows, d.cols, d.bump_limit, d.gnomes) == (5, 7, 3, 5)
    assert d.flowers == (((0, 0), (2, 0), (4, 0)), ((0, 6), (2, 6), (4, 6)))
    assert d.toadstools == ((0, 3), (2, 3), (4, 3))
    assert all(row == row[::-1] for row in d.terrain)  # mirror-symmetric left to right
    for letter in "GTC":
        assert sum(row.count(letter) for row in d.terrain) >= 8
    assert all(sorted(deck) == [0, 0, 1, 1, 2, 2] for deck in d.decks)
    assert len(d.dance) >= 8 and all(3 <= len(x.cells) <= 4 for x in d.dance)
    m = bundled_edition("mini")
    assert (m.rows, m.cols, m.bump_limit, m.gnomes) == (4, 5, 2, 3)
    assert len(m.flowers[0]) == len(m.flowers[1]) == 2 and len(m.toadstools) == 2
    assert all(sorted(deck) == [0, 1, 2] for deck in m.decks)
    assert all(row == row[::-1] for row in m.terrain) and m.terrain == m.terrain[::-1]


def test_no_default_dance_card_is_won_quickly_from_setup() -> None:
    from gnomekit.models.gnomes_at_midnight.setup import new_position
    from gnomekit.solver.gnomes_at_midnight.search import forced_win_within

    ed = bundled_edition("default")
    for card in ed.dance:
        for seed in range(8):
            assert not forced_win_within(new_position(ed, seed, card.name), 2), (card.name, seed)


def test_round_trips() -> None:
    ed = bundled_edition("default")
    for pos in positions(20):
        e = bundled_edition(pos.edition)
        assert position_from_text(position_to_text(pos), "t", e) == pos
        assert read_position(json.dumps(position_to_json(pos)), "j", e) == pos
        h = replace(pos.hidden(), moon_restricts_adding=True)
        assert position_from_text(position_to_text(h), "t", e) == h
        assert read_position(json.dumps(position_to_json(h)), "j", e) == h
        for m in legal_moves(pos):
            assert parse_move(m.text()) == m
            assert parse_move(json.dumps(m.to_json())) == m
    del ed


def test_json_has_the_mandatory_keys_and_stacks_twice() -> None:
    d = base_json()
    for k in MANDATORY:
        assert k in d
    assert d["gnomes"]["green"].count([0, 0]) == 2
    assert d["moon"] == {"green": None, "blue": None}
    assert set(d["decks"]["green"]) == {"grass", "tulips", "cobblestone"}


def test_reader_accepts_any_described_position() -> None:
    p = make(rows=3, cols=4, terrain=["GTCG", "TTCC", "GGGG"], flowers={"green": [[0, 0]], "blue": [[2, 3]]},
             toadstools=[[1, 1], [1, 2]], gnomes={"green": [[0, 0], [0, 0], [1, 1]], "blue": [[2, 3]]},
             off_board={"green": 0, "blue": 4}, to_move="blue", moon={"green": "tulips", "blue": None},
             decks={"green": [], "blue": ["grass"]}, dance=[[5, 5], [5, 6]])
    assert p.board.rows == 3 and p.to_move == 1 and p.dance == ((0, 0), (0, 1))
    assert p.cells[0] == 2 and p.cells[11] == -1 and p.off == (0, 4)
    assert any("gnomes on and off the board" in w for w in p.warnings(5))
    texts = {m.text() for m in legal_moves(p)}
    assert "2,3-1,2" in texts and "2,3-2,2" in texts


@pytest.mark.parametrize("key,value,needle", [
    ("terrain", ["GTCGCTG", "TCGTGCT", "CGTXTGC", "TCGTGCT", "GTCGCTG"], "terrain[2]"),
    ("gnomes", {"green": [[0, 0], [0, 0], [0, 0]], "blue": []}, "gnomes.green[2]"),
    ("gnomes", {"green": [[1, 1]], "blue": [[1, 1]]}, "gnomes.blue[0]"),
    ("gnomes", {"green": [[9, 1]], "blue": []}, "gnomes.green[0]"),
    ("moon", {"green": "mud", "blue": None}, "moon.green"),
    ("to_move", "red", "to_move"),
    ("decks", {"green": ["grass"]}, "decks"),
])
def test_json_errors_are_located(key: str, value: object, needle: str) -> None:
    d = base_json()
    d[key] = value
    text = json.dumps(d, indent=2)
    with pytest.raises(NotationError) as ei:
        read_position(text, "p.json", bundled_edition("default"))
    e = ei.value
    assert needle in e.message and e.line is not None and e.line > 1 and e.column is not None


def test_text_errors_are_located() -> None:
    ed = bundled_edition("default")
    text = position_to_text(make())
    lines = text.splitlines()
    bad = [ln.replace("G*", "Q*", 1) if ln.startswith(" 0") else ln for ln in lines]
    with pytest.raises(NotationError) as ei:
        position_from_text("\n".join(bad), "p.txt", ed)
    assert ei.value.line == 16 and ei.value.column == 20 and ei.value.text == "Q*"
    with pytest.raises(NotationError) as ei:
        position_from_text(text.replace("to-move: green", "to-move: purple"), "p.txt", ed)
    assert ei.value.line == 5 and ei.value.text == "purple"
    with pytest.raises(NotationError):
        parse_move("1,1->2,2")


def test_edition_problems_are_all_reported_with_lines() -> None:
    text = """[edition]
game = "gnomes-at-midnight"
[board]
rows = 2
cols = 3
terrain = ["GTX", "GG"]
toadstools = [[0, 1], [5, 5]]
[flowers]
green = [[0, 0]]
blue = [[0, 0]]
[players]
gnomes = 2
bump_limit = 3
[setup]
green = [[0, 0]]
blue = []
[moonlight]
green = ["grass", "mud"]
blue = ["tulips"]
[[dance]]
name = "two"
cells = [[0, 0], [0, 1]]
"""
    with pytest.raises(EditionError) as ei:
        edition_from_toml(parse_toml(text, "e.toml"))
    msg = ei.value.message
    for part in ("unknown terrain letter", "expected 3 letters", "outside the 2x3 board", "flower of both colours",
                 "bump_limit 3 is more than", "unknown terrain 'mud'"):
        assert part in msg
    assert ei.value.line == 6
