"""The best-turn search considers every gnome action legal after the placements (issue 5, gap 4)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.position import Gnome, PlayerState
from gnomekit.models.gnome_hollow.scoring import MarkerChoice, Turn, apply_turn
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnome_hollow.best import Weights, best_turn

from tests.gnome_hollow.brute import brute_best
from tests.gnome_hollow.test_rings import mush
from tests.gnome_hollow.test_scoring import ED, table

MUSH = Weights(mushroom=1.0)


def test_a_pot_made_this_turn_is_a_gnome_action_target() -> None:
    # nobody claims the 3-ring G01+G04 closes: its mushrooms wait in it, and a gnome may collect them
    pos = table(offered=("G01", "G04"), gnomes=(Gnome("red"), Gnome("red"), Gnome("blue")))
    in_ring = sum(mush("G01", "G04").values())
    assert in_ring > 0
    res = best_turn(pos, ED, MUSH)
    assert res.status == Status.OPTIMAL and res.stats["verified"] == 1
    assert res.value == pytest.approx(ED.ring_points(1) + in_ring)
    act = res.witness["turn"].action
    assert act is not None and act.kind == "claim"
    assert res.value == pytest.approx(brute_best(pos, ED, MUSH))
    # without a mushroom weight the pot is worth nothing this turn
    assert best_turn(pos, ED).value == pytest.approx(ED.ring_points(1))


def test_a_signpost_placed_this_turn_can_be_visited() -> None:
    # closing the 5-ring on a red gnome; the only free space of the 5 column places a signpost, which
    # the other red gnome may then visit for a second reward
    from tests.gnome_hollow.reference import two_players
    from tests.gnome_hollow.test_rings import FIVE

    pos = two_players(FIVE, gnomes=(Gnome("red", ((1, -3), 0)), Gnome("red")), offered=("G10",),
                      signposts=("red3",), market_tokens=dict(ED.market_tokens))
    pos = replace(pos, players=(PlayerState("red", rings=((5, 2), (5, 3), (5, 4))), PlayerState("blue")))
    turn = Turn((Placement("G10", (2, -4), 4),), markers=(MarkerChoice(row=1, signpost="red3"),))
    _nxt, gains, rings = apply_turn(pos, ED, turn)
    assert rings and rings[0]["size"] == 5 and gains.mushrooms.get("red", 0) >= 3
    res = best_turn(pos, ED, MUSH)
    assert res.stats["verified"] == 1
    act = res.witness["turn"].action
    assert act is not None and act.kind == "signpost"
    assert res.value == pytest.approx(gains.points + sum(gains.mushrooms.values()) + 3)
    assert res.value == pytest.approx(brute_best(pos, ED, MUSH))


def test_wildflower_slot_without_tiles_takes_another_flower_than_the_bonus() -> None:
    # regression: the 7+ space "second marker + flower" reaches the 2nd-marker wildflower slot with no
    # wildflower tile left; the slot's flower token must not be the one the bonus just took
    from tests.gnome_hollow.reference import two_players
    from tests.gnome_hollow.test_rings import TEN

    pos = two_players(TEN, offered=("G17",), gnomes=(Gnome("red", ((0, -1), 0)),), market_tokens=dict(ED.market_tokens),
                      signposts=tuple(ED.signposts), flower_market={"rose": 1, "daisy": 1})
    pos = replace(pos, players=(PlayerState("red", rings=((3, 1),)), PlayerState("blue")))
    turn = Turn((Placement("G17", (0, 1), 4),), markers=(MarkerChoice(row=2, flower="rose"),))
    nxt, gains, _ = apply_turn(pos, ED, turn)
    assert set(nxt.player("red").flowers) == {"rose", "daisy"}
    assert gains.flower_points == ED.flower_points(2)
    res = best_turn(pos, ED)
    assert res.stats["verified"] == 1 and res.value == pytest.approx(brute_best(pos, ED))


def test_default_signpost_is_the_first_in_edition_order() -> None:
    # regression (found writing the independent scorer from the docs): with no signpost named, the
    # ring bonus places the first unused signpost in edition order (red3), not in alphabetical order
    from tests.gnome_hollow.reference import two_players
    from tests.gnome_hollow.test_rings import FIVE

    pos = two_players(FIVE, gnomes=(Gnome("red", ((1, -3), 0)),), offered=("G10",),
                      signposts=tuple(ED.signposts), market_tokens=dict(ED.market_tokens))
    nxt, gains, _ = apply_turn(pos, ED, Turn((Placement("G10", (2, -4), 4),), markers=(MarkerChoice(row=1),)))
    assert list(ED.signposts)[0] == "red3" and sorted(ED.signposts)[0] != "red3"
    assert [s for s, _k in nxt.placed_signposts] == ["red3"]
