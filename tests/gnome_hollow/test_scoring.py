"""Resolve step, gnome actions, market sales with blocking, final scoring."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gnomekit.models.core.errors import IllegalMoveError
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.market import best_sale, make_change
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.position import Gnome, PlayerState, Position
from gnomekit.models.gnome_hollow.scoring import GnomeAction, MarkerChoice, Turn, apply_turn, final_scores

from tests.gnome_hollow.reference import two_players
from tests.gnome_hollow.test_rings import FIVE, mush

ED = default_edition()
RING3 = (Placement("G01", (0, -1), 2), Placement("G04", (1, -1), 4))
TOKENS = dict(ED.market_tokens)


def table(**kw: object) -> Position:
    base = two_players([], offered=("G01", "G04", "G07", "G10"), market_tokens=TOKENS,
                       signposts=tuple(ED.signposts), wildflower_supply={w: 2 for w in ED.wildflowers})
    return replace(base, **kw)  # type: ignore[arg-type]


def test_own_ring_collects_and_moves_a_marker() -> None:
    pos = table(gnomes=(Gnome("red", ((0, 0), 0)),))
    nxt, gains, rings = apply_turn(pos, ED, Turn(RING3))
    red = nxt.player("red")
    assert red.mushrooms == {k: v for k, v in mush("G01", "G04").items() if v}
    assert red.rings == ((3, 1),) and gains.ring_points == ED.ring_points(1) - ED.ring_points(0)
    assert nxt.to_move == 1 and nxt.pots == ()
    assert "G01" not in nxt.offered and len(nxt.offered) == 2  # no refill without a generator


def test_unclaimed_ring_makes_a_pot_that_a_gnome_collects() -> None:
    pos = table(gnomes=(Gnome("red"), Gnome("blue")))
    nxt, gains, _ = apply_turn(pos, ED, Turn(RING3))
    assert nxt.player("red").mushrooms == {} and nxt.player("red").rings == ((3, 1),)
    assert len(nxt.pots) == 1
    blue_turn = Turn((), action=GnomeAction(0, "claim", at=((0, -1), 0)))
    after, g2, _ = apply_turn(nxt, ED, blue_turn)
    assert after.pots == () and after.player("blue").mushrooms == nxt.pots[0][1]
    assert after.player("blue").rings == ()  # collecting a pot moves no marker


def test_rival_claimed_ring_is_scored_at_the_start_of_their_turn() -> None:
    pos = table(gnomes=(Gnome("blue", ((0, 0), 0)),))
    with pytest.raises(IllegalMoveError, match="needs permission from blue"):
        apply_turn(pos, ED, Turn(RING3))
    nxt, gains, _ = apply_turn(pos, ED, Turn(RING3, permits=("blue",)))
    assert gains.markers == 0 and nxt.player("red").rings == ()
    assert nxt.gnomes[0].down
    after, g2, _ = apply_turn(nxt, ED, Turn(()))
    assert after.player("blue").rings == ((3, 1),) and not after.gnomes[0].down
    assert sum(after.player("blue").mushrooms.values()) == 2


def test_five_ring_bonus_signpost_and_extra_mushrooms() -> None:
    before = FIVE
    pos = replace(two_players(before, gnomes=(Gnome("red", ((1, -3), 0)),), offered=("G10",),
                              signposts=tuple(ED.signposts), market_tokens=TOKENS))
    last = (Placement("G10", (2, -4), 4),)
    nxt, gains, rings = apply_turn(pos, ED, Turn(last, markers=(MarkerChoice(row=1, signpost="red3"),)))
    assert rings[0]["size"] == 5 and nxt.player("red").rings == ((5, 1),)
    assert ("red3", ((1, -3), 0)) in [(s, k) for s, k in nxt.placed_signposts] or nxt.placed_signposts
    ring_m = mush("G01", "G92", "G04", "G07", "G10")
    assert nxt.player("red").mushroom("red") == ring_m["red"] + 3
    # row 4 doubles two mushrooms of the ring, never a colour it lacks
    nxt, gains, _ = apply_turn(pos, ED, Turn(last, markers=(MarkerChoice(row=4, mushrooms=("teal", "purple", "red",
                                                                                           "red", "yellow")),)))
    got = nxt.player("red").mushrooms
    extra = {c: got.get(c, 0) - ring_m[c] for c in ring_m}
    assert sum(extra.values()) == 2 and all(extra[c] <= ring_m[c] for c in extra)


def test_second_marker_earns_a_wildflower_tile() -> None:
    pos = table(gnomes=(Gnome("red", ((0, 0), 0)),), players=(
        PlayerState("red", rings=((4, 1),), flowers=()), PlayerState("blue")))
    nxt, gains, _ = apply_turn(pos, ED, Turn(RING3))
    red = nxt.player("red")
    assert red.rings == ((4, 1), (3, 1))
    assert len(red.storage) == 1 and red.storage[0] in ED.wildflowers
    flower = ED.tile(red.storage[0]).flower
    assert red.flowers == (flower,) and nxt.flower_market.get(flower or "") == 1
    assert red.storage[0] not in nxt.wildflower_supply
    assert gains.flower_points == ED.flower_points(1)


def test_market_sales_block_spaces_and_pay_treasure() -> None:
    pos = table(players=(PlayerState("red", mushrooms={"red": 3, "pink": 5, "yellow": 4}), PlayerState("blue")),
                gnomes=(Gnome("red"),))
    nxt, gains, _ = apply_turn(pos, ED, Turn((), action=GnomeAction(0, "market", sales=(("red", 3), ("pink", 5)))))
    assert gains.treasure_points == 9
    assert nxt.player("red").treasures == {"crystal": 1, "feather": 1, "bottlecap": 1}
    assert nxt.market == {"red": (3,), "pink": (5,)}
    assert nxt.market_tokens["red"] == TOKENS["red"] - 1
    with pytest.raises(IllegalMoveError):
        apply_turn(pos, ED, Turn((), action=GnomeAction(0, "market", sales=(("red", 2), ("red", 3)))))
    blocked = replace(pos, market={"red": (3,)})
    with pytest.raises(IllegalMoveError, match="no open red sale for 3"):
        apply_turn(blocked, ED, Turn((), action=GnomeAction(0, "market", sales=(("red", 3),))))
    # pairs are never blocked, even with no tokens left
    empty = replace(pos, market_tokens={})
    nxt, gains, _ = apply_turn(empty, ED, Turn((), action=GnomeAction(0, "market", sales=(("red", 2),))))
    assert gains.treasure_points == ED.market["red"].pair and nxt.market == {}


def _brute_best(mushrooms: dict[str, int], blocked: dict[str, tuple[int, ...]], tokens: dict[str, int]) -> int:
    import itertools

    singles: list[tuple[str, int]] = [("", 0)]
    for c in ED.colours:
        have = mushrooms.get(c, 0)
        if have >= 2:
            singles.append((c, ED.market[c].pair))
        if tokens.get(c, 0) > 0:
            singles += [(c, p) for n, p in ED.market[c].spaces if n <= have and n not in blocked.get(c, ())]
    best = 0
    for a, b in itertools.combinations(singles, 2):
        if a[0] != b[0] or a[0] == "":
            best = max(best, a[1] + b[1])
    return best


def test_best_sale_against_brute_force() -> None:
    import random

    rng = random.Random(5)
    for _ in range(300):
        m = {c: rng.randrange(0, 8) for c in ED.colours}
        blocked = {c: tuple(n for n, _ in ED.market[c].spaces if rng.random() < 0.3) for c in ED.colours}
        tokens = {c: rng.randrange(0, 3) for c in ED.colours}
        pts, sets, _ = best_sale(ED, m, blocked, tokens)
        assert pts == _brute_best(m, blocked, tokens)
        assert len({s.colour for s in sets}) == len(sets) <= 2
        assert all(m[s.colour] >= s.mushrooms for s in sets)


def test_final_scoring_and_tie_break() -> None:
    assert make_change(ED, 9) == {"crystal": 1, "feather": 1, "bottlecap": 1}
    pos = two_players([], players=(
        PlayerState("red", rings=((3, 1), (3, 2), (4, 1), (4, 2), (5, 1)), flowers=("rose", "lily", "daisy")),
        PlayerState("blue", treasures={"key": 1}, mushrooms={"red": 1}),
        PlayerState("green", treasures={"key": 1}, mushrooms={"red": 2})))
    rows = {r["player"]: r for r in final_scores(pos, ED)}
    assert rows["red"]["rings"] == 14 and rows["red"]["flowers"] == 6 and rows["red"]["total"] == 20
    assert rows["red"]["rank"] == 1 and rows["green"]["rank"] == 2 and rows["blue"]["rank"] == 3


def test_tie_on_points_goes_to_most_unsold_mushrooms() -> None:
    pos = two_players([], players=(PlayerState("red", treasures={"key": 2}),
                                   PlayerState("blue", treasures={"key": 2}, mushrooms={"teal": 1})))
    rows = {r["player"]: r for r in final_scores(pos, ED)}
    assert rows["red"]["total"] == rows["blue"]["total"] == 20
    assert rows["blue"]["rank"] == 1 and rows["red"]["rank"] == 2


def test_eighth_marker_triggers_the_end_and_the_sunset_tiles_return() -> None:
    seven = ((3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3), (5, 1))
    pos = table(gnomes=(Gnome("red", ((0, 0), 0)),), sunset=("G40", "G41"), bag=("G50",),
                players=(PlayerState("red", rings=seven), PlayerState("blue")))
    nxt, gains, _ = apply_turn(pos, ED, Turn(RING3))
    assert gains.markers == 1 and nxt.end_triggered
    assert nxt.sunset == () and set(nxt.bag) == {"G40", "G41", "G50"}


def test_signpost_visit_and_claim_rules() -> None:
    from tests.gnome_hollow.reference import two_players as tp

    pos = tp([("G01", (0, -1), 2), ("G04", (1, -1), 4)], placed_signposts=(("red3", ((0, -1), 0)),),
             gnomes=(Gnome("red"), Gnome("blue", ((0, 0), 1))), market_tokens=TOKENS)
    nxt, gains, _ = apply_turn(pos, ED, Turn((), action=GnomeAction(0, "signpost", at=((1, -1), 0))))
    assert nxt.player("red").mushrooms == {"red": 3}
    with pytest.raises(IllegalMoveError, match="already holds a gnome"):
        apply_turn(pos, ED, Turn((), action=GnomeAction(0, "claim", at=((0, 0), 1))))
    with pytest.raises(IllegalMoveError, match="no signpost"):
        apply_turn(pos, ED, Turn((), action=GnomeAction(0, "signpost", at=((0, 0), 2))))


def test_best_turn_under_a_zero_time_limit_is_unknown() -> None:
    from gnomekit.models.gnome_hollow.setup import random_position
    from gnomekit.solver.core.result import Status
    from gnomekit.solver.gnome_hollow.best import best_turn

    pos = random_position(ED, 3, 6)
    res = best_turn(pos, ED, time_limit=0.0)
    assert res.status == Status.UNKNOWN
    assert best_turn(pos, ED).status == Status.OPTIMAL


def test_rings_of_seven_or_more_share_the_last_column() -> None:
    from tests.gnome_hollow.test_rings import TEN

    pos = two_players(TEN, offered=("G17",), gnomes=(Gnome("red", ((0, -1), 0)),), market_tokens=TOKENS,
                      signposts=tuple(ED.signposts))
    nxt, gains, rings = apply_turn(pos, ED, Turn((Placement("G17", (0, 1), 4),), markers=(MarkerChoice(row=3),)))
    assert rings[0]["size"] == 10 and nxt.player("red").rings == ((7, 3),)
    assert ED.column_for(7) == ED.column_for(10) == len(ED.columns) - 1
    # the top rows of the 7+ column move two markers
    nxt, gains, _ = apply_turn(pos, ED, Turn((Placement("G17", (0, 1), 4),), markers=(MarkerChoice(row=1),)))
    assert gains.markers == 2 and gains.ring_points == ED.ring_points(2)
    assert len(nxt.placed_signposts) == 1
