"""Expectimax over the die and face-down tiles, against brute force where decisions cannot matter."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.turn import Turn
from gnomekit.solver.hexen_rennen.chain import ChainSearch
from gnomekit.solver.hexen_rennen.expect import expect_turn, expect_witch
from gnomekit.solver.hexen_rennen.generate import rich_position

from tests.hexen_rennen.hexen_build import ED, make


def test_all_face_up_equals_minimax() -> None:
    for seed in range(15):
        pos = rich_position(ED, seed)
        pos = replace(pos, track=tuple(replace(t, face_up=True) for t in pos.track))
        for o in sorted(set(pos.witches_of(pos.to_move))):
            for r in ED.die:
                v, _ = expect_witch(pos, ED, o, r, exact=True)
                turn = Turn(pos, ED, o)
                t, _ = turn.die_target(r)
                if t is None:
                    assert v is None
                else:
                    assert v == ChainSearch(turn).value(turn.start(t))


def brute_force(pos: Position, origin: int, roll: int) -> Fraction:
    """Average the (decision-free) chain over every arrangement of each stage's face-down tiles."""
    stages: dict[int, list[int]] = {}
    for t in range(1, 49):
        if not pos.track[t - 1].face_up:
            stages.setdefault((t - 1) // 16, []).append(t)
    per_stage = []
    for tiles in stages.values():
        idents = [pos.track[t - 1] for t in tiles]
        per_stage.append([(tiles, perm) for perm in set(itertools.permutations(idents))])
    total, n = Fraction(0), 0
    for combo in itertools.product(*per_stage):
        track = list(pos.track)
        for tiles, perm in combo:
            for t, tile in zip(tiles, perm, strict=True):
                track[t - 1] = tile
        p = replace(pos, track=tuple(track))
        turn = Turn(p, ED, origin)
        tgt, _ = turn.die_target(roll)
        assert tgt is not None
        total += ChainSearch(turn).value(turn.start(tgt))
        n += 1
    return total / n


def test_decision_free_positions_match_brute_force() -> None:
    # nobody holds a card: no decisions, so the expectation is the average over arrangements
    base = make({12: "W5", 17: "wS", 21: "w3", 22: "i4", 24: "W4", 28: "f9", 30: "w6"},
                {"weather": [10, 0], "fog": [26]}, {}, players=("weather", "fog"))
    for roll in range(1, 7):
        for origin in (0, 10):
            v, _ = expect_witch(base, ED, origin, roll, exact=True)
            assert v == brute_force(base, origin, roll), (origin, roll)


def test_expect_turn_table() -> None:
    pos = rich_position(ED, 3)
    res = expect_turn(pos, ED)
    assert res.rolls == [1, 2, 3, 4, 5, 6]
    for r, (v, w) in res.best_by_roll.items():
        vals = [x.by_roll[r] for x in res.witches if x.by_roll[r] is not None]
        assert (v is None) == (not vals)
        if vals:
            assert v == max(vals) and w is not None
    assert res.to_json()["value"] == res.overall
