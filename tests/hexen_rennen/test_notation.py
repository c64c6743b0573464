"""Edition validation, position notations (text and JSON) and turn notation."""

from __future__ import annotations

import json

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.core.errors import EditionError, NotationError
from gnomekit.models.hexen_rennen.edition import edition_from_toml
from gnomekit.models.hexen_rennen.notation import (
    parse_turn,
    position_from_text,
    position_to_json,
    position_to_text,
    read_position,
    turn_to_json,
    turn_to_text,
)
from gnomekit.models.hexen_rennen.setup import new_position, random_position
from gnomekit.models.hexen_rennen.turn import TurnPlan
from gnomekit.solver.hexen_rennen.generate import rich_position

from tests.hexen_rennen.hexen_build import ED


def test_default_edition_numbers() -> None:
    assert ED.clan_ids == ("weather", "fog", "ice", "forest")
    assert ED.track_length == 48 and ED.last_field == 51 and ED.stage_length == 16
    assert [ED.points(f) for f in (48, 49, 50, 51)] == [0, 2, 3, 4]
    assert len(ED.full_set()) == 12 and ED.die == (1, 2, 3, 4, 5, 6)


def test_edition_errors_are_collected_and_located() -> None:
    text = """[edition]
game = "hexen-rennen"
[components]
numbers = [2, 3, 3]
symbols = 2
[track]
stages = 3
tiles_per_stage = 4
symbols_per_stage = 1
[[clans]]
id = "Weather"
[[clans]]
id = "fog"
letter = "S"
"""
    with pytest.raises(EditionError) as ei:
        edition_from_toml(parse_toml(text, "bad.toml"))
    msg = str(ei.value)
    assert "numbers" in msg and "symbols_per_stage" in msg and "lower-case" in msg and "letter" in msg
    assert ei.value.line is not None


def test_new_position_follows_setup() -> None:
    p = new_position(ED, 3, seed=5)
    assert p.players == ("weather", "fog", "ice") and p.neutral(ED) == ("forest",)
    assert p.warnings(ED) == []
    for s in range(3):
        stage = p.track[s * 16:(s + 1) * 16]
        for c in ED.clan_ids:
            mine = [t for t in stage if t.clan == c]
            assert len(mine) == 4 and sum(t.is_symbol for t in mine) == 1
    assert not any(t.face_up for t in p.track)
    assert p.witches_of("weather") == (0, 0, 0) and p.witches_of("forest") == ()
    assert sorted(p.hand("forest")) == sorted(ED.full_set())


def test_round_trips_text_and_json() -> None:
    for seed in range(25):
        for p in (random_position(ED, seed, 2 + seed % 3, turns=seed)[0], rich_position(ED, seed)):
            assert position_from_text(position_to_text(p, ED), "t", ED) == p
            assert read_position(json.dumps(position_to_json(p, ED)), "j", ED) == p
            # printing is a fixed point
            assert position_to_text(position_from_text(position_to_text(p, ED), "t", ED), ED) == \
                position_to_text(p, ED)


def test_json_keys_of_the_issue_and_replaced_keys() -> None:
    p = new_position(ED, 4, seed=1)
    d = position_to_json(p, ED)
    assert len(d["track"]) == 48 and set(d["track"][0]) == {"clan", "value", "face_up"}
    assert set(d) >= {"track", "witches", "hands", "to_move", "players"}
    # replace keys like the checker does: a 2-player game with hands given for players only
    d["players"] = ["ice", "fog"]
    d["to_move"] = "fog"
    d["witches"] = {"ice": [0, 12, 50], "fog": [3, 0, 0]}
    d["hands"] = {"ice": [2, "symbol"], "fog": []}
    d["track"][11]["face_up"] = True
    d["track"][2]["face_up"] = True
    q = read_position(json.dumps(d), "j", ED)
    assert q.players == ("ice", "fog") and q.neutral(ED) == ("weather", "forest")
    assert q.hand("weather") == () and q.hand("ice") == (0, 2)


@pytest.mark.parametrize("edit,where", [
    (lambda d: d["track"].pop(), "track"),
    (lambda d: d["track"][5].update(value=11), "value"),
    (lambda d: d["track"][5].update(clan="wind"), "clan"),
    (lambda d: d.update(to_move="forest", players=["weather"]), "to_move"),
    (lambda d: d["witches"].update(fog=[7], weather=[7]), "two witches"),
    (lambda d: d["witches"].update(fog=[52]), "0..51"),
    (lambda d: d["hands"].update(fog=["sym"]), "symbol"),
    (lambda d: d.update(colour=1), "position keys"),
])
def test_json_errors_are_located(edit, where) -> None:
    d = position_to_json(new_position(ED, 4, seed=1), ED)
    edit(d)
    text = json.dumps(d, indent=1)
    with pytest.raises(NotationError) as ei:
        read_position(text, "pos.json", ED)
    assert where in str(ei.value)
    assert ei.value.line is not None


def test_text_errors_are_located() -> None:
    t = position_to_text(new_position(ED, 3, seed=2), ED)
    bad = t.replace("stage 2: ", "stage 2: X9 ", 1)
    with pytest.raises(NotationError) as ei:
        position_from_text(bad, "p.txt", ED)
    assert ei.value.line == t.splitlines().index([x for x in t.splitlines() if x.startswith("stage 2")][0]) + 1
    with pytest.raises(NotationError):
        position_from_text(t.replace("to-move: weather", "to-move: forest"), "p.txt", ED)
    with pytest.raises(NotationError):
        position_from_text("hello", "p.txt", ED)


def test_turn_notation_round_trip_and_errors() -> None:
    for s in ("10 fog:7 ice:5", "start", "pass", "23 weather:S stop", "7 fog:stop ice:10"):
        plan = parse_turn(s, ED)
        assert parse_turn(turn_to_text(plan), ED) == plan
        assert parse_turn(json.dumps(turn_to_json(plan)), ED) == plan
    assert parse_turn("0", ED) == TurnPlan(0)
    for bad in ("", "x", "10 fog:11", "10 wind:5", "60"):
        with pytest.raises(NotationError):
            parse_turn(bad, ED)
