"""Hand-built positions for every rule of the turn engine (rulings: Hexen Rennen)."""

from __future__ import annotations

from gnomekit.models.hexen_rennen.notation import parse_turn
from gnomekit.models.hexen_rennen.turn import Rules, Turn, movable_witches, replay
from gnomekit.solver.hexen_rennen.chain import solve_chain

from tests.hexen_rennen.hexen_build import ED, make


def check(pos, roll, text, rules=None):
    return replay(pos, ED, roll, parse_turn(text, ED), rules)


# The rulebook's worked example: blue=weather, yellow=fog, green=ice.
# Witch on 10, roll 3 -> 13 (face-down weather 10) -> 23 (weather 4) -> 27 (fog symbol),
# fog plays 7 -> 20 (ice symbol, forced), ice plays 5 -> 15 (another clan's number): net +5.
EXAMPLE = make({13: "w10", 23: "W4", 27: "FS", 20: "IS", 15: "F6"},
               {"weather": [10, 0, 0], "fog": [0, 0, 0], "ice": [0, 0, 0]},
               {"weather": [], "fog": [7], "ice": [5, 9]}, players=("weather", "fog", "ice"))


def test_worked_example_replays_to_plus_five() -> None:
    rep = check(EXAMPLE, 3, "10 fog:7 ice:5")
    assert rep.legal, rep.reasons
    assert rep.chain == [10, 13, 23, 27, 20, 15]
    assert rep.final is not None
    assert 15 in rep.final.witches_of("weather") and 10 not in rep.final.witches_of("weather")
    assert rep.final.hand("fog") == () and rep.final.hand("ice") == (9,)
    assert rep.final.track[12].face_up  # tile 13 was turned over
    assert rep.final.to_move == "fog"


def test_worked_example_forced_play_cannot_be_declined() -> None:
    rep = check(EXAMPLE, 3, "10 fog:7 ice:stop")
    assert not rep.legal and rep.error_at == "decision 2"
    assert any("forced play" in r for r in rep.reasons)
    rep = check(EXAMPLE, 3, "10 fog:7")
    assert not rep.legal and "forced play" in rep.reasons[0]
    # 9 would send the witch from 20 to 11: legal too (ice chooses), landing on a forest 2
    rep = check(EXAMPLE, 3, "10 fog:7 ice:9")
    assert rep.legal and rep.chain[-1] == 11


def test_worked_example_optimal_chain() -> None:
    sol = solve_chain(EXAMPLE, ED, 3)
    # fog could also stop (27); 7 leads to 20 where ice must play: 5 -> 15 or 9 -> 11; ice picks 11
    ws = {w.origin: w for w in sol.witches}
    assert ws[10].value == 11 and ws[10].coop == 27
    # the start witch: roll 3 counts empty tiles 1,2,3 -> forest 2 on 3 -> stop
    assert ws[0].value == 3
    assert sol.witch == 10 and sol.value == 11
    assert sol.line is not None and sol.line.chain == [10, 13, 23, 27, 20, 11]


def test_illegal_card_names_every_reason() -> None:
    pos = make({13: "w10", 23: "W4", 27: "FS", 20: "IS", 15: "F6", 18: "R3"},
               {"weather": [10], "fog": [0], "ice": [0], "forest": [18]},
               {"weather": [], "fog": [9], "ice": [5]})
    rep = check(pos, 3, "10 fog:9")  # 27-9 = 18 is occupied by forest
    assert not rep.legal and rep.error_at == "decision 1"
    assert any("occupied by forest" in r for r in rep.reasons)
    rep = check(pos, 3, "10 fog:8")
    assert not rep.legal
    assert any("holds no 8" in r for r in rep.reasons)
    rep = check(pos, 3, "10 fog:S")
    assert len(rep.reasons) == 2  # no symbol card, and no face-up fog symbol behind


def test_start_counts_only_empty_tiles() -> None:
    pos = make({}, {"weather": [0], "fog": [1, 2, 4]}, {})
    (o, t, _), = movable_witches(pos, ED, 3)
    assert (o, t) == (0, 6)  # empty tiles 3, 5, 6
    pos = make({}, {"weather": [0, 3], "fog": [1, 2, 4]}, {})
    res = {o: t for o, t, _ in movable_witches(pos, ED, 3)}
    assert res[0] == 7 and res[3] == 6  # from a tile occupied tiles count; 6 is empty


def test_occupied_target_blocks_a_track_witch() -> None:
    pos = make({}, {"weather": [5], "fog": [8]}, {})
    (o, t, why), = movable_witches(pos, ED, 3)
    assert t is None and "occupied by fog" in why[0]
    rep = check(pos, 3, "5")
    assert not rep.legal and rep.error_at == "witch"
    rep = check(pos, 3, "pass")
    assert rep.legal


def test_finish_fields_need_exact_count() -> None:
    pos = make({}, {"weather": [46, 49]}, {})
    res = {o: t for o, t, _ in movable_witches(pos, ED, 5)}
    assert res == {46: 51, 49: None}  # 46+5 = 51 exactly; a finished witch never moves
    res = {o: t for o, t, _ in movable_witches(pos, ED, 6)}
    assert res[46] is None  # 52 is past the 4-point field
    # finish fields hold any number of witches
    pos = make({}, {"weather": [47], "fog": [50]}, {})
    assert {o: t for o, t, _ in movable_witches(pos, ED, 3)} == {47: 50}


def test_own_number_tile_forward_and_blocked() -> None:
    pos = make({12: "W5", 17: "W9", 26: "F3"}, {"weather": [10]}, {})
    rep = check(pos, 2, "10")
    assert rep.chain == [10, 12, 17, 26]
    blocked = make({12: "W5", 17: "W9"}, {"weather": [10], "fog": [26]}, {})
    rep = check(blocked, 2, "10")
    assert rep.legal and rep.chain == [10, 12, 17]  # 26 occupied: stays on 17
    past = make({47: "W5"}, {"weather": [44]}, {})
    rep = check(past, 3, "44")
    assert rep.chain == [44, 47]  # 47+5 = 52 is past 51: stays
    fin = make({47: "W4"}, {"weather": [44]}, {})
    assert check(fin, 3, "44").chain == [44, 47, 51]


def test_own_symbol_number_and_symbol_cards() -> None:
    pos = make({12: "WS", 20: "WS", 30: "wS", 19: "F4"}, {"weather": [10]}, {"weather": [7, "S"]})
    assert check(pos, 2, "10 stop").chain == [10, 12]
    assert check(pos, 2, "10 weather:7").chain == [10, 12, 19]
    # the symbol card goes to the next face-up empty own symbol (30 is face down) and ends the turn
    assert check(pos, 2, "10 S").chain == [10, 12, 20]
    # 20 is also a weather symbol, but a symbol card ends the turn: no more decisions
    rep = check(pos, 2, "10 S 7")
    assert not rep.legal and "nothing to decide" in rep.reasons[0]


def test_symbol_card_targets_both_readings() -> None:
    pos = make({12: "WS", 20: "WS", 30: "WS"}, {"weather": [10], "fog": [20]}, {"weather": ["S"]})
    assert check(pos, 2, "10 S").chain == [10, 12, 30]  # default: skip the occupied 20
    rep = check(pos, 2, "10 S", Rules(strict_symbol_target=True))
    assert not rep.legal and "strict-symbol-target" in rep.reasons[0]
    # and backwards, against another clan's witch
    back = make({5: "FS", 9: "FS", 14: "FS"}, {"weather": [10], "ice": [9]}, {"fog": ["S"]})
    assert check(back, 4, "10 fog:S").chain == [10, 14, 5]
    assert not check(back, 4, "10 fog:S", Rules(strict_symbol_target=True)).legal


def test_number_card_back_may_not_pass_tile_one() -> None:
    pos = make({6: "FS"}, {"weather": [3]}, {"fog": [5, 6]})
    assert check(pos, 3, "3 fog:5").chain == [3, 6, 1]
    rep = check(pos, 3, "3 fog:6")
    assert not rep.legal and "before tile 1" in rep.reasons[0]


def test_forced_play_for_own_witch() -> None:
    # fog sends weather back onto a weather symbol: weather must play for its witch
    pos = make({12: "FS", 5: "WS", 9: "F2"}, {"weather": [10]}, {"fog": [7], "weather": [4]})
    rep = check(pos, 2, "10 fog:7 weather:stop")
    assert not rep.legal and "forced play" in rep.reasons[0]
    rep = check(pos, 2, "10 fog:7 weather:4")
    assert rep.legal and rep.chain == [10, 12, 5, 9]
    # if no card play is legal the witch just stays
    pos2 = make({12: "FS", 5: "WS", 9: "F2"}, {"weather": [10], "ice": [9]}, {"fog": [7], "weather": [4]})
    rep = check(pos2, 2, "10 fog:7")
    assert rep.legal and rep.chain == [10, 12, 5]


def test_forced_play_against_others_and_not_after_forward_moves() -> None:
    # a number tile or a forward card onto another clan's symbol is NOT forced
    pos = make({12: "IS"}, {"weather": [10]}, {"ice": [3]})
    assert check(pos, 2, "10").legal
    # a symbol card back onto a symbol is not forced either (the turn ends)
    pos = make({12: "FS", 7: "FS", 3: "IS"}, {"weather": [10]}, {"fog": ["S"], "ice": [2]})
    rep = check(pos, 2, "10 fog:S")
    assert rep.legal and rep.chain == [10, 12, 7]


def test_neutral_symbol_draws_from_the_deck() -> None:
    players = ("weather", "fog")
    pos = make({12: "IS", 8: "RS", 4: "F3"}, {"weather": [10]}, {"ice": [4, 9], "forest": [6]}, players=players)
    rep = check(pos, 2, "10")
    # ice draws 4: 12 -> 8 (forest symbol, neutral, forced anyway): forest draws 6 -> 2 (forest 2 filler)
    assert rep.legal and rep.chain == [10, 12, 8, 2]
    assert rep.final is not None and rep.final.hand("ice") == (9,) and rep.final.hand("forest") == ()
    # an unplayable card is discarded and the witch stops
    pos = make({12: "IS"}, {"weather": [10], "fog": [8]}, {"ice": [4, 9]}, players=players)
    rep = check(pos, 2, "10")
    assert rep.chain == [10, 12] and rep.final is not None and rep.final.hand("ice") == (9,)
    # an empty deck: nothing happens
    pos = make({12: "IS"}, {"weather": [10]}, {}, players=players)
    assert check(pos, 2, "10").chain == [10, 12]


def test_other_clan_number_stops_and_reveals() -> None:
    pos = make({12: "i7"}, {"weather": [10]}, {})
    rep = check(pos, 2, "10")
    assert rep.chain == [10, 12] and rep.final is not None and rep.final.track[11].face_up


def test_chain_engine_first_step_is_die_target() -> None:
    pos = make({}, {"weather": [0, 0, 7]}, {})
    t = Turn(pos, ED, 7)
    assert t.die_target(6) == (13, [])
