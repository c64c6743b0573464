"""Maze running: hand-built positions for every movement rule and FAQ answer, notation, solver."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.enchantments import parse_condition
from gnomekit.models.hedge_mage.running import RunPosition, execute_plan, run_position_from_garden, running_score
from gnomekit.models.hedge_mage.running_notation import (
    action_to_text,
    parse_action,
    parse_plan,
    read_run,
    run_to_json,
    run_to_text,
)
from gnomekit.models.hedge_mage.scoring import final_score, winners
from gnomekit.models.hedge_mage.setup import random_garden
from gnomekit.solver.hedge_mage.run_bound import RunBound
from gnomekit.solver.hedge_mage.run_engine import Engine
from gnomekit.solver.hedge_mage.running import bfs_plain, solve_run

from tests.marks import by_default

ED = default_edition()


def pos(grid: str, points: int = 3, tokens: int = 0, shrooms: int = 0, hedges: str = "a=I3",
        enchantments: str = "planter-enchanter morel-evate pump-kin", extra: str = "") -> RunPosition:
    rows = [r for r in grid.strip("\n").split("\n")]
    ncols = len(rows[0].split())
    head = "   " + "  ".join(str(c) for c in range(ncols))
    body = "\n".join(f"{i}  {r}" for i, r in enumerate(rows))
    text = (f"hedge-mage run\nsize: {len(rows)}x{ncols}\nenchantments: {enchantments}\npoints: {points}\n"
            f"tokens: {tokens}\nspringshroom-tokens: {shrooms}\nhedges: {hedges}\n{extra}\n{head}\n{body}\n")
    return read_run(text, "test", ED)


def run(p: RunPosition, plan: str):  # type: ignore[no-untyped-def]
    return execute_plan(p, ED, parse_plan(plan, ED))


def rules(rep) -> set[str]:  # type: ignore[no-untyped-def]
    return {r for r, _ in rep.reasons}


# --- data --------------------------------------------------------------------------------------


def test_nine_cards_with_conditions_and_tunnels() -> None:
    assert len(ED.enchantments) == 9
    kinds = [e.kind for e in ED.enchantments]
    assert all(kinds.count(k) == 3 for k in ("flower", "mushroom", "pumpkin"))
    for e in ED.enchantments:
        assert e.id in ED.running.conditions
        if e.kind in ("mushroom", "pumpkin"):
            assert e.tunnel is not None and 1 <= e.tunnel <= 6
    for k in ("flower", "mushroom", "pumpkin"):
        assert len(ED.running.tracks[k]) >= ED.gnomes_per_kind
    assert len(ED.running.favourites) == 6


def test_condition_errors_are_reported() -> None:
    c, probs = parse_condition({"count": "hedgehog"}, ("flower",))
    assert c is None and "count must be one of" in probs[0]
    c, probs = parse_condition({"on": "roof"}, ("flower",))
    assert c is None and probs
    c, probs = parse_condition({"all": [{"on": "hedge"}, {"count": "gnome", "kind": "nope"}]}, ("flower",))
    assert c is None and "kind" in probs[0]


# --- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_round_trip_text_and_json(seed: int) -> None:
    g, _ = random_garden(ED, seed, seed % 7)
    p = run_position_from_garden(g, ED, ED.first_game, 3)
    assert read_run(run_to_text(p, ED), "t", ED) == p
    assert read_run(json.dumps(run_to_json(p, ED)), "j", ED) == p


def test_round_trip_after_a_plan_with_carrying_and_moved_gnome() -> None:
    p = pos("""
+1 .  .  .
.  .P .P .
.  .  .  +2
""", points=4, hedges="-")
    rep = run(p, "M1>1,0 M1+1,1 p1,2>1,3")
    assert rep.legal, rep.reasons
    q = rep.final
    assert q.carried(0) is not None
    assert read_run(run_to_text(q, ED), "t", ED) == q
    assert read_run(json.dumps(run_to_json(q, ED)), "j", ED) == q


@pytest.mark.parametrize("s", ["M1>3,5>3,6", "M2+0,1", "M1-2,2~2,3~1,3", "p4,3>4,4", "T", "^3,4~3,5", "f1,1>1,2"])
def test_action_notation_round_trip(s: str) -> None:
    assert action_to_text(parse_action(s, ED), ED) == s
    assert action_to_text(parse_action(s.upper() if s[0] == "f" else s, ED), ED) == s  # gnome letters: any case


def test_bad_action_and_position_are_located() -> None:
    with pytest.raises(NotationError) as e:
        parse_plan("M1>1,1 M1>>2", ED)
    assert e.value.column == 8
    with pytest.raises(NotationError):
        read_run("hedge-mage run\nsize: 2x2\n\n   0  1\n0  .  .\n1  .  .\n", "x", ED)  # no points


# --- movement rules ------------------------------------------------------------------------------

BRIDGE = """
+1 .  .  .  .
a  A  .2 b  B
.  .  .  .  .
"""


def test_ladder_gnome_climbs_onto_mage_then_hedge() -> None:
    p = pos("""
+1 .  .  .
.  a  A  a
.  .M .2 .
""", points=2, hedges="a=I3m")
    # the mushroom is awake (upper case); from the ground it cannot climb the hedge directly
    bad = run(p, "m2,1>1,1")
    assert not bad.legal and "low-to-high" in rules(bad)
    good = run(p, "m2,1>2,2>1,2")
    assert good.legal, good.reasons
    assert any(g.at == (1, 2) and g.carried_by is None for g in good.final.gnomes)


def test_bridge_mage_between_two_hedges() -> None:
    p = pos(BRIDGE.replace("A  .2", "AM .2"), points=2, hedges="a=D2 b=D2")
    rep = run(p, "m1,1>1,2>1,3")
    assert rep.legal, rep.reasons
    q = pos(BRIDGE.replace("A  .2", "AM .").replace("+1", "+1").replace(".  .  .  .  .\n", ".  .2 .  .  .\n", 1),
            points=2, hedges="a=D2 b=D2")
    rep2 = run(q, "m1,1>1,2>1,3")  # no mage on 1,2: down is fine, back up is not
    assert not rep2.legal and rep2.failed == 0 and "low-to-high" in rules(rep2)


def test_too_far_down_for_pick_up_and_drop() -> None:
    p = pos("""
+  .  .  .
a  A1 .f .2
.  .  .  .
""", points=3, hedges="a=D2")
    rep = run(p, "M1+1,2")
    assert not rep.legal and "too-far-down" in rules(rep)
    # from the ground a mage may pick up from a hedge
    q = pos("""
+  .  .  .
a  Af .1 .2
.  .  .  .
""", points=3, hedges="a=D2")
    rep = run(q, "M1+1,1")
    assert rep.legal and rep.final.mage_used[0] == 1


def test_carried_gnome_wakes_and_is_rescued_when_carried_through_the_tunnel() -> None:
    p = pos("""
.  .  .  .  .  .
.p .1 +  .  .  .p
.  .  .  .  .  .2
""", points=4, hedges="-")
    # carry the sleeping pumpkin through the tunnel (nothing happens), next to the other pumpkin: both wake
    rep = run(p, "M1+1,0 M1>1,2>1,3>1,4")
    assert rep.legal, rep.reasons
    assert rep.final.total_rescued() == 0
    assert sum(e.what == "wake" for s in rep.steps for e in s.events) == 2
    # back through the tunnel with the awake gnome: rescued while only passing through
    rep = run(replace(p, points=7), "M1+1,0 M1>1,2>1,3>1,4>1,3>1,2>1,1")
    assert rep.legal, rep.reasons
    assert rep.final.rescued_count("pumpkin") == 1 and rep.final.carried(0) is None


def test_carried_gnome_wakes_next_to_pumpkin_then_tunnel_rescue() -> None:
    p = pos("""
.  .  .  .
.p .1 .p +
.  .  .  .2
""", points=3, hedges="-")
    rep = run(p, "M1+1,0")  # carried to 1,1, next to the pumpkin on 1,2: both wake
    assert rep.legal and sum(e.what == "wake" for s in rep.steps for e in s.events) == 2
    rep = run(p, "M1+1,0 p1,2>1,3")
    assert rep.legal and rep.final.rescued_count("pumpkin") == 1
    # the pumpkin that moved itself was rescued: the kind's move is still used this round
    rep = run(p, "M1+1,0 p1,2>1,3 p1,1>2,1")
    assert not rep.legal and "second-gnome" in rules(rep)


def test_springshroom_beneath_a_character_bounces_it_onto_a_hedge() -> None:
    p = pos("""
+1 .  .  .
.  a  A  a
.  .2 .  .
""", points=2, shrooms=1, hedges="a=I3m")
    rep = run(p, "^2,1~1,1 M2>1,2>1,3")
    assert rep.legal, rep.reasons
    assert rep.final.mages[1] == (1, 3) and (2, 1) in rep.final.springshrooms
    # the bounce must be written when there is a choice
    rep = run(p, "^2,1")
    assert not rep.legal and "bounce" in rules(rep)
    # no token: cannot place
    rep = run(replace(p, springshroom_tokens=0), "^2,1~1,1")
    assert not rep.legal and "no-springshroom" in rules(rep)


def test_bounce_chain_never_revisits_and_sleeping_gnome_not_into_tunnel() -> None:
    p = pos("""
.  .  .  .
.1 .^ .^ .
.  .  .  .2
""", points=1, hedges="-")
    rep = run(p, "M1>1,1~1,2~0,2")
    assert rep.legal, rep.reasons
    rep = run(p, "M1>1,1~1,2~1,1")
    assert not rep.legal and "bounce" in rules(rep)


def test_token_spent_after_moving() -> None:
    p = pos("""
+1 .  .  .  .
.  .  .  .  .
.  .  .  .  .2
""", points=2, tokens=1, hedges="-")
    assert not run(p, "M1>0,1>0,2>0,3").legal
    rep = run(p, "M1>0,1>0,2 T M1>0,3")
    assert rep.legal and rep.final.tokens == 0 and rep.final.spent == 1
    # the token also counts for the other mage
    assert run(p, "M1>0,1>0,2 T M1>0,3 M2>2,3>2,2>2,1").legal


def test_second_gnome_of_a_kind_and_mage_transport_does_not_count() -> None:
    p = pos("""
.  .P .P .  .
.  .  .1 .  .
+  .  .  .  .2
""", points=3, hedges="-")
    rep = run(p, "p0,1>0,0 p0,2>0,3")
    assert not rep.legal and "second-gnome" in rules(rep)
    rep = run(p, "M1+0,2 M1>1,3 p0,1>0,0")
    assert rep.legal, rep.reasons


def test_carrying_two_and_occupied_end_space() -> None:
    p = pos("""
.  .P .P .  .
.  .  .1 .  .
+  .  .  .  .2
""", points=3, hedges="-")
    rep = run(p, "M1+0,2 M1>1,1 M1+0,1")
    assert not rep.legal and "carrying-two" in rules(rep)
    rep = run(p, "M1>0,2")  # ends on the gnome: must pick it up or move on
    assert not rep.legal and "occupied-end" in rules(rep)
    rep = run(p, "M1>0,2 M1+0,2")  # free pick-up on its own space
    assert rep.legal and rep.final.mage_used[0] == 1
    # the second action breaks the transit: it is the one blamed (regression: the first was blamed)
    rep = run(p, "M1>0,2 M2>2,3")
    assert not rep.legal and rep.failed == 1 and "occupied-end" in rules(rep)
    rep = run(replace(p, tokens=1), "M1>0,2 T M2>2,3 M2>2,2")
    assert not rep.legal and rep.failed == 2 and "occupied-end" in rules(rep)


def test_gnome_on_a_mage_in_the_garden_is_carried_regression() -> None:
    """`to-run` rejected a gnome on a mage's space; standing on a mage = carried (rulings)."""
    from gnomekit.models.hedge_mage.notation import read_garden

    g = read_garden("hedge-mage garden\nsize: 3x4\nhedges: -\n\n   0  1  2  3\n0  +W .  .  .\n"
                    "1  .  .  .  .Wp\n2  .  .  .  +\n", "g", ED)
    p = run_position_from_garden(g, ED, ED.first_game, 2)
    assert p.problems(ED) == []
    assert p.carried(1) is not None and p.gnomes[p.carried(1)].at == (1, 3)
    rep = run(p, "M2>2,3")  # the carried (sleeping) pumpkin goes along
    assert rep.legal and rep.final.gnomes[0].at == (2, 3)


def test_transit_broken_by_another_character_blames_that_action_regression() -> None:
    """`check --plan 'M1>0,1>0,2 M2>1,3'` blamed the first action; the second breaks the transit."""
    p = pos("""
+1 .  .p .
.  .  .  .2
.  .  .  .
""", points=2, hedges="-")
    rep = run(p, "M1>0,1>0,2 M2>2,3")
    assert not rep.legal and rep.failed == 1 and rules(rep) == {"occupied-end"}
    rep = run(p, "M1>0,1>0,2 M2>1,3")  # also what is wrong with the action itself
    assert not rep.legal and rep.failed == 1 and rules(rep) == {"occupied-end", "not-orthogonal"}
    rep = run(p, "M1>0,1>0,2")  # nothing follows: the action itself ends on the gnome
    assert not rep.legal and rep.failed == 0


def test_springshroom_placed_while_a_gnome_passes_through_rescues_another_regression() -> None:
    """A placement while the pumpkin passes through the mushroom on 2,0 wakes the carried mushroom on the
    tunnel (Shiitake Shake), which is rescued: the rules engine lost track of the passing gnome (a
    traceback in `check`; found by the generated crowded positions of test_run_inert.py)."""
    p = pos("""
.m .  +  .2
.1 .  .  A
.m .  .P a
""", points=3, shrooms=1, hedges="a=D2", enchantments="daisy-chain shiitake-shake gourd-ian")
    rep = run(p, "M1>0,0 M1+0,0 M1-0,1 M2>0,2 M2+0,1 p2,2>2,1>2,0 ^0,1 p2,0>1,0")
    assert rep.legal, rep.reasons
    assert rep.final.rescued_count("mushroom") == 1 and rep.final.transit is None
    assert ("pumpkin", (1, 0)) in {(g.kind, g.at) for g in rep.final.gnomes}


def test_pick_up_while_passing_through_only_on_the_own_space() -> None:
    p = pos("""
+1 .2 .  .
.  .f .  .
.  .  .  .
""", points=2, hedges="-")
    rep = run(p, "M1>0,1 M1+1,1")  # mage 1 is on mage 2's space: it must move on (or pick up there)
    assert not rep.legal and rep.failed == 1 and "occupied-end" in rules(rep)


def test_awake_gnome_dropped_or_bounced_into_an_occupied_tunnel_is_rescued() -> None:
    """Rulings: a character standing on the tunnel does not block a rescue (dropping and bouncing too)."""
    p = pos("""
.  .M .  .
.  .1 +2 .
.  .  .  .
""", points=2, shrooms=1, hedges="-")
    rep = run(p, "M1+0,1 M1-1,2")
    assert rep.legal, rep.reasons
    assert rep.final.rescued_count("mushroom") == 1
    q = pos("""
.  .  .  .
.  .M +2 .
.  .  .1 .
""", points=1, shrooms=1, hedges="-")
    rep = run(q, "^1,1~1,2")
    assert rep.legal, rep.reasons
    assert rep.final.rescued_count("mushroom") == 1
    # a sleeping gnome still may not be dropped into a tunnel
    rep = run(replace(p, gnomes=tuple(replace(g, awake=False) for g in p.gnomes)), "M1+0,1 M1-1,2")
    assert not rep.legal and "sleeping-tunnel" in rules(rep)


def test_every_reason_is_reported() -> None:
    p = pos("""
+1 .  .
.  A  a
.  .  .2
""", points=0, hedges="a=D2")
    rep = run(p, "M1>0,1>1,1")
    assert not rep.legal
    assert rules(rep) == {"allowance"}
    p2 = replace(p, points=1)
    rep = run(p2, "M1>0,1>1,1")
    assert rules(rep) == {"allowance", "low-to-high"}


def test_rescue_bonus_from_the_track_and_sleeping_drop_into_tunnel() -> None:
    p = pos("""
.  .  .  .
.M .1 +  .
.  .  .  .2
""", points=3, tokens=6, hedges="-")
    rep = run(p, "M1+1,0 M1-1,2")
    assert rep.legal and rep.final.rescued_count("mushroom") == 1
    assert rep.final.springshroom_tokens == 1  # mushroom space 1: springshroom
    q = pos("""
.  .  .  .
.m .1 +  .
.  .  .  .2
""", points=3, hedges="-")
    rep = run(q, "M1+1,0 M1-1,2")
    assert not rep.legal and "sleeping-tunnel" in rules(rep)


def test_scoring_and_tie_break() -> None:
    r = ED.running
    s = final_score(r, {"flower": 2, "mushroom": 0, "pumpkin": 1}, ["flower"] * 4 + ["pumpkin"], 3,
                    favourite="flower-keeper")
    assert s.total == r.track_points("flower", 2) + r.track_points("pumpkin", 1) + 2 * 5 + 5 + 3
    assert winners({"a": 5, "b": 5}, {"a": 1, "b": 2}) == (["b"], "tie on points, most movement tokens")
    assert winners({"a": 5, "b": 5}, {"a": 2, "b": 2})[0] == ["a", "b"]


# --- solver --------------------------------------------------------------------------------------


def test_solver_hand_built_value_and_replay() -> None:
    p = pos("""
.  .  .  .
.M .1 +  .
.  .  .  .2
""", points=2, hedges="-")
    res = solve_run(p, ED)
    v = res.value
    assert (v.rescued, v.tokens, v.springshrooms) == (1, 0, 0)
    rep = execute_plan(p, ED, res.witness)
    assert rep.legal
    assert rep.final.total_rescued() - p.total_rescued() == v.rescued
    # the awake mushroom scored 1 in the rival's garden before; rescued it scores its track space
    assert running_score(rep.final, ED) - running_score(p, ED) == v.points == ED.running.track_points("mushroom", 1) - 1


CARDS = ["planter-enchanter morel-evate pump-kin", "daisy-chain shiitake-shake gourd-ian",
         "rose-above toadstool-row gourd-vibes"]


def small_garden(rng: random.Random, rows: int, cols: int, vertical: bool = True
                  ) -> tuple[list[list[str]], list[tuple[int, int]]]:
    """The common part of the random small positions: a D2 hedge (cells ``A a``), a tunnel and two mages.

    Returns the grid (cells as notation text) and the free cells in random order: ``free[0]`` is the
    tunnel, ``free[1:3]`` the mages, the rest free for gnomes.  ``vertical``: the hedge may also stand
    upright.
    """
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    hedge_opts = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    if vertical:
        hedge_opts += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    h = rng.choice(hedge_opts)
    free = [c for c in cells if c not in h]
    rng.shuffle(free)
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    grid[h[0][0]][h[0][1]] = "A"
    grid[h[1][0]][h[1][1]] = "a"
    grid[free[0][0]][free[0][1]] = "+"
    for i, m in enumerate(free[1:3]):
        grid[m[0]][m[1]] += str(i + 1)
    return grid, free


def random_small(seed: int, tokens_allowed: bool = False) -> RunPosition:
    """A small random running position: 3x4 garden, a D2 hedge, 2 mages, 1 tunnel, 2-3 gnomes."""
    rng = random.Random(f"run-small/{seed}")
    grid, free = small_garden(rng, 3, 4)
    gcells = free[3:3 + rng.choice((2, 3))]
    kinds = ["flower", "mushroom", "pumpkin"]
    for gc in gcells:
        letter = ED.gnome_kinds[rng.choice(kinds)]
        grid[gc[0]][gc[1]] += letter.upper() if rng.random() < 0.5 else letter
    text = "\n".join("  ".join(row) for row in grid)
    points = 1
    tokens = 1 if tokens_allowed and rng.random() < 0.2 else 0
    shrooms = 1 if rng.random() < 0.3 and not tokens else 0
    return pos(text, points=points, tokens=tokens, shrooms=shrooms, hedges="a=D2")


def _check_against_plain(seed: int, tokens_allowed: bool = False) -> None:
    p = random_small(seed, tokens_allowed)
    res = solve_run(p, ED)
    # second method: the same rules, springshroom placements tried everywhere (no reduction) ...
    wide = solve_run(p, ED, relevant_only=False)
    assert res.value.key() == wide.value.key(), (seed, run_to_text(p, ED))
    # ... and, where small enough, plain enumeration without memoisation
    if p.points + p.tokens <= 1 and p.springshroom_tokens == 0:
        plain, _count = bfs_plain(p, ED)
        assert plain is not None
        expect = (plain[0] - p.total_rescued(), plain[1] - running_score(p, ED), plain[2])
        assert res.value.key() == expect, (seed, run_to_text(p, ED))
    rep = execute_plan(p, ED, res.witness)
    assert rep.legal, (seed, rep.reasons)
    assert rep.final.total_rescued() - p.total_rescued() == res.value.rescued
    assert running_score(rep.final, ED) - running_score(p, ED) == res.value.points


def random_tiny(seed: int) -> RunPosition:
    """A tiny random running position for cross-checks: 3x4, a D2 hedge, 2 mages, 1 tunnel, 2 gnomes, 1 point.

    Mostly awake gnomes (so that something can be rescued), random cards (all nine conditions
    occur), no movement tokens held, sometimes one springshroom token.
    """
    rng = random.Random(f"run-tiny/{seed}")
    grid, free = small_garden(rng, 3, 4)
    for gc in free[3:5]:
        letter = ED.gnome_kinds[rng.choice(["flower", "mushroom", "pumpkin"])]
        grid[gc[0]][gc[1]] += letter.upper() if rng.random() < 0.6 else letter
    cards = rng.choice(CARDS)
    return pos("\n".join("  ".join(row) for row in grid), points=1, tokens=0,
               shrooms=1 if rng.random() < 0.25 else 0, hedges="a=D2", enchantments=cards)


def _check_fast_against_reference(p: RunPosition) -> None:
    """The fast search (engine copy, dominance, symmetry, bounds) vs the unpruned reference search."""
    ref = solve_run(p, ED, relevant_only=False)
    fast = solve_run(p, ED)
    assert fast.value.key() == ref.value.key(), run_to_text(p, ED)
    assert solve_run(p, ED, bounds=False).value.key() == ref.value.key(), run_to_text(p, ED)
    rep = execute_plan(p, ED, fast.witness)
    assert rep.legal, (rep.reasons, run_to_text(p, ED))
    assert rep.final.total_rescued() - p.total_rescued() == fast.value.rescued
    assert running_score(rep.final, ED) - running_score(p, ED) == fast.value.points
    assert rep.final.spent - p.spent == fast.value.tokens
    # the bound used for pruning is admissible at the root
    eng = Engine(p, ED)
    r, pts = RunBound(eng, ED, p).value(eng.state(p))
    assert r >= ref.value.rescued + p.total_rescued()
    if r == ref.value.rescued + p.total_rescued():
        assert pts >= ref.value.points + running_score(p, ED)


def random_tokens(seed: int) -> RunPosition:
    """A tiny position where movement tokens decide: 3x4, 2-3 gnomes mostly awake, 0 points and 2 tokens or 1 and 1.

    Exercises the dominance between positions that spent different numbers of tokens (``_canon``).
    """
    rng = random.Random(f"run-tokens/{seed}")
    grid, free = small_garden(rng, 3, 4)
    for gc in free[3:3 + rng.choice((2, 3))]:
        letter = ED.gnome_kinds[rng.choice(["flower", "mushroom", "pumpkin"])]
        grid[gc[0]][gc[1]] += letter.upper() if rng.random() < 0.7 else letter
    points = rng.choice((0, 1))
    return pos("\n".join("  ".join(row) for row in grid), points=points, tokens=2 - points,
               hedges="a=D2", enchantments=rng.choice(CARDS))


@pytest.mark.parametrize("seed", by_default([0, 1, 3, 4], [1, 3]))
def test_fast_search_equals_reference_with_tokens(seed: int) -> None:
    _check_fast_against_reference(random_tokens(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, *range(5, 40)])
def test_fast_search_equals_reference_with_tokens_full(seed: int) -> None:
    _check_fast_against_reference(random_tokens(seed))


# default sample: quick tiny positions; the slow set runs 240 of them
@pytest.mark.parametrize("seed", [0, 2, 6, 7, 9, 12])
def test_fast_search_equals_reference_tiny(seed: int) -> None:
    _check_fast_against_reference(random_tiny(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(240))
def test_fast_search_equals_reference_tiny_full(seed: int) -> None:
    _check_fast_against_reference(random_tiny(seed))


@pytest.mark.parametrize("seed", range(30))
def test_engine_successors_equal_rules_engine(seed: int) -> None:
    """The compact engine and apply_action give the same next positions (random walks, every placement)."""
    from gnomekit.solver.hedge_mage.running import successors

    rng = random.Random(seed)
    p = random_small(seed, tokens_allowed=True) if seed % 2 else random_tiny(seed)
    p = replace(p, points=rng.choice([1, 2, 3]), springshroom_tokens=rng.choice([0, 1, 2]),
                tokens=rng.choice([0, 1]))
    eng = Engine(p, ED)
    cur = p
    for _ in range(8):
        s = eng.state(cur)
        assert eng.position(s, p).key() == cur.key()
        old = list(successors(cur, ED, relevant_only=False))
        assert {n.key() for _a, n, _t, _s in old} == \
            {eng.position(n, p).key() for _a, n, _t, _s in eng.successors(s, everywhere=True)}
        if not old:
            break
        cur = rng.choice(old)[1]


@pytest.mark.parametrize("seed", [2, 4, 5, 6, 7, 8, 9])  # 0, 1, 3, 10, 11 take 10-200 s: in the slow set
def test_search_equals_plain_enumeration_small(seed: int) -> None:
    _check_against_plain(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 3, 10, 11, *range(12, 210)])
def test_search_equals_plain_enumeration_full(seed: int) -> None:
    _check_against_plain(seed, tokens_allowed=True)


# --- anytime answers on a state budget -----------------------------------------------------------


def _check_anytime(p: RunPosition, res, optimum) -> None:  # type: ignore[no-untyped-def]
    """An UNKNOWN answer carries a legal plan whose replayed value is its stated value, <= optimum <= bound."""
    from gnomekit.solver.core.result import Status

    assert res.status == Status.UNKNOWN and res.value is not None and res.witness is not None
    rep = execute_plan(p, ED, res.witness)
    assert rep.legal, rep.reasons
    v = res.value
    assert rep.final.total_rescued() - p.total_rescued() == v.rescued
    assert running_score(rep.final, ED) - running_score(p, ED) == v.points
    assert rep.final.spent - p.spent == v.tokens
    assert sum(1 for a in res.witness if a.kind == "shroom") == v.springshrooms
    assert v.key() <= optimum.key()
    ub = res.stats["upper_bound"]
    assert optimum.rescued <= ub["rescued"] and optimum.points <= ub["points"]


@pytest.mark.parametrize("seed", [2, 4, 5, 6])
def test_budget_gives_best_plan_so_far_and_bound(seed: int) -> None:
    """Tiny budgets: status UNKNOWN with the best plan found (from the first plan, the search or
    standing still), never better than the optimum, and the start bound at least the optimum."""
    from gnomekit.solver.core.result import Status

    p = random_small(seed)
    p = replace(p, points=2)
    opt = solve_run(p, ED)
    assert opt.status == Status.OPTIMAL
    for bounds in (True, False):
        for budget in (1, 3, 10, 30):
            res = solve_run(p, ED, max_states=budget, bounds=bounds)
            if res.status == Status.OPTIMAL:  # finished within the budget: the same optimum
                assert res.stats["states"] <= budget and res.value.key() == opt.value.key()
                continue
            _check_anytime(p, res, opt.value)
            assert res.stats["best_from"] in ("first plan", "search", "standing still")


def test_budget_plan_from_the_search_itself() -> None:
    """Without the first plan (bounds off) the best plan comes from the breadth-first search's nodes."""
    from gnomekit.solver.core.result import Status

    p = pos("""
.M .1 .  .  +
.  .  .  .  .2
""", points=4, hedges="-")
    opt = solve_run(p, ED)
    assert opt.status == Status.OPTIMAL and opt.value.rescued == 1
    res = solve_run(p, ED, max_states=400, bounds=False)
    _check_anytime(p, res, opt.value)
    assert res.stats["best_from"] == "search" and res.value.rescued == 1


def test_cli_solve_budget_prints_best_plan_and_bound(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`solve --phase run --max-states 1`: exit 1, status unknown, a plan that check --plan replays, the bound."""
    from gnomekit.cli import main

    p = pos("""
.  .  .  .
.M .1 +  .
.  .  .  .2
""", points=2, hedges="-")
    f = tmp_path / "run.txt"
    f.write_text(run_to_text(p, ED))
    code = main(["hedge-mage", "solve", str(f), "--phase", "run", "--max-states", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["status"] == "unknown"
    assert set(data["upper_bound"]) == {"rescued", "points"}
    assert data["rescued"] <= data["upper_bound"]["rescued"] and data["plan"]
    code = main(["hedge-mage", "check", str(f), "--plan", " ".join(data["plan"]), "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert code == 0 and rep["legal"] is True
    assert (rep["rescued"], rep["points"]) == (data["rescued"], data["points"])
    code = main(["hedge-mage", "solve", str(f), "--phase", "run", "--max-states", "1"])
    text = capsys.readouterr().out
    assert code == 1 and "NOT proven optimal" in text and "upper bound" in text


@pytest.mark.parametrize("plan", ["", "[]"])
def test_cli_check_accepts_the_empty_plan(capsys: pytest.CaptureFixture[str], plan: str) -> None:
    """`solve` may answer with no actions; `check --plan ''` (or '[]') replays that: legal, nothing gained."""
    from gnomekit.cli import main

    tiny = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "tiny-run.txt")
    code = main(["hedge-mage", "check", tiny, "--plan", plan, "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert code == 0 and rep["legal"] is True and (rep["rescued"], rep["points"]) == (0, 0)
    code = main(["hedge-mage", "check", tiny, "--json"])
    assert code == 2


@pytest.mark.parametrize(("old", "new", "line", "what"), [
    ("used: 0 0", "used: 0 " + "9" * 5000, 12, "points used by each mage"),  # past Python's 4300-digit int()
    ("0  .1 .", "0  .\u00b2 .", 17, "expected a marker"),  # '²'.isdigit() is true, int('²') fails
])
def test_running_text_with_huge_or_unicode_numbers_is_a_located_error(old: str, new: str, line: int,
                                                                       what: str) -> None:
    """Found by the slow fuzz test (tests/fuzz): these were tracebacks (ValueError from int()) instead of a
    NotationError at the line."""
    from gnomekit.models.core.errors import NotationError
    from gnomekit.models.hedge_mage.running_notation import run_from_text

    text = (Path(__file__).parents[2] / "docs" / "examples" / "tiny-run.txt").read_text(encoding="utf-8")
    assert text.count(old) == 1
    with pytest.raises(NotationError) as err:
        run_from_text(text.replace(old, new), "tiny-run.txt", default_edition())
    assert err.value.line == line and what in err.value.message
