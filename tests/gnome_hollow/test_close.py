"""``solve --close``: the SAT model against the exact search on generated positions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.networks import PathKey
from gnomekit.models.gnome_hollow.placement import check_sequence
from gnomekit.models.gnome_hollow.position import Gnome, Position
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnome_hollow.close import close_by_sat, close_by_search, closes

from tests.gnome_hollow.reference import random_garden, two_players

ED = default_edition()


def generated(seed: int) -> tuple[Position, PathKey, tuple[str, ...]] | None:
    """A random garden, 8 offered tiles, 0-2 stored (maybe a wildflower), maybe gnomes, one open network."""
    rng = random.Random(seed)
    seq = random_garden(ED, seed, rng.randrange(3, 22), wild=0.1)
    used = {t for t, _, _ in seq}
    free = [t for t in ED.tiles if t not in used]
    rng.shuffle(free)
    wild = [w for w in ED.wildflowers if w not in used]
    stored = tuple(free[8:8 + rng.randrange(0, 2)]) + ((wild[0],) if wild and rng.random() < 0.3 else ())
    pos = two_players(seq[1:], offered=tuple(free[:8]))
    pos = replace(pos, players=(replace(pos.players[0], storage=stored), pos.players[1]))
    nets = pos.networks(ED)
    opens = nets.open_networks()
    if not opens:
        return None
    refs = [sorted((nets.cell[e], nets.pidx[e]) for e in nets.members(r) if nets.pidx[e] >= 0)[0] for r in opens]
    ref = refs[rng.randrange(len(refs))]
    gnomes = []
    if rng.random() < 0.4:
        for who in ("red", "blue"):
            gnomes.append(Gnome(who, refs[rng.randrange(len(refs))]))
    pos = replace(pos, gnomes=tuple(gnomes))
    if pos.warnings(ED):  # two gnomes on one network: not a position play reaches
        pos = replace(pos, gnomes=())
    permits = ("blue",) if rng.random() < 0.5 else ()
    return pos, ref, permits


def cross_check(seeds: range) -> tuple[int, int]:
    n = yes = 0
    for seed in seeds:
        g = generated(seed)
        if g is None:
            continue
        pos, ref, permits = g
        a = close_by_search(pos, ED, ref, permits)
        b = close_by_sat(pos, ED, ref, permits)
        assert a.status == b.status, (seed, a.status, b.status)
        assert a.status in (Status.SATISFIED, Status.UNSATISFIABLE)
        for res in (a, b):
            if res.found:
                assert check_sequence(pos, ED, res.witness, permits).legal
                assert closes(pos, ED, ref, res.witness)
        n += 1
        yes += a.found
    return n, yes


def test_sat_agrees_with_search_on_generated_positions() -> None:
    n, yes = cross_check(range(20))
    assert n >= 15 and 0 < yes < n


@pytest.mark.slow
def test_sat_agrees_with_search_on_many_generated_positions() -> None:
    n, yes = cross_check(range(1000, 1260))
    assert n >= 200 and 0 < yes < n


def test_close_answers_on_a_hand_built_garden() -> None:
    from tests.gnome_hollow.test_rings import FIVE

    # the 5-tile ring without its last tile: G10 (sharp) closes it, a wide or straight tile cannot
    pos = two_players(FIVE, offered=("G10", "G02"))
    for fn in (close_by_search, close_by_sat):
        res = fn(pos, ED, ((1, -3), 0))
        assert res.found and [p.tile for p in res.witness] == ["G10"]
    pos = two_players(FIVE, offered=("G02", "G03"))
    for fn in (close_by_search, close_by_sat):
        assert fn(pos, ED, ((1, -3), 0)).status == Status.UNSATISFIABLE


# ---------------------------------------------------------------------------------------------
# the order of the tiles (issue 18: a false "no" when the closing depends on the order)

ISSUE_18 = """gnome-hollow position
to-move: red
tiles: S@0,0:r0 G01@1,-1:r3 W2@0,-1
offered: G04 G03
bag: -
sunset: -
phase: play
market: -
market-tokens: -
flower-market: -
wildflower-supply: -
signposts: -
placed-signposts: -
pots: -
player: red
  mushrooms: -
  treasures: -
  flowers: -
  rings: -
  storage: W1
  gnomes: - -
player: blue
  mushrooms: -
  treasures: -
  flowers: -
  rings: -
  storage: -
  gnomes: 1,-1.0 -
"""


def test_closing_that_needs_the_garden_tile_before_the_stored_wildflower() -> None:
    """Laying W1 first merges red's network with blue's (G04 then needs blue's permission); laying
    G04 first is legal, and stored tiles may go before, between or after the garden tiles."""
    from gnomekit.models.gnome_hollow.notation import read_position
    from gnomekit.models.gnome_hollow.placement import Placement
    from gnomekit.solver.gnome_hollow.close import close_by_networkx

    pos = read_position(ISSUE_18, "<issue 18>", ED)
    ref = ((0, 0), 1)
    wild_first = [Placement("W1", (1, 0), 0), Placement("G04", (0, 1), 0)]
    assert [v.rule for t in check_sequence(pos, ED, wild_first).tiles for v in t.violations] == ["permission"]
    for fn in (close_by_search, close_by_networkx, close_by_sat):
        res = fn(pos, ED, ref)
        assert res.found, fn.__name__
        assert [str(p) for p in res.witness] == ["G04@0,1:r0", "W1@1,0:r0"]
        assert check_sequence(pos, ED, res.witness).legal and closes(pos, ED, ref, res.witness)
    # with blue's permission the wildflower may also go first; without the wildflower it cannot close
    assert check_sequence(pos, ED, wild_first, ("blue",)).legal
    bare = replace(pos, players=(replace(pos.players[0], storage=()), pos.players[1]))
    for fn in (close_by_search, close_by_sat):
        assert fn(bare, ED, ref).status == Status.UNSATISFIABLE


def order_generated(seed: int) -> tuple[Position, PathKey, tuple[str, ...]] | None:
    """A position built so that the order of the tiles matters: red stores a wildflower (and maybe a
    garden tile), blue's gnome claims an open network near red's target network, red's gnome maybe
    claims the target, and most offered tiles fit the target's open ends (so that it can often close)."""
    from gnomekit.models.gnome_hollow.placement import fits
    from gnomekit.solver.gnome_hollow.close import open_end_cells

    rng = random.Random(f"order/{seed}")
    seq = random_garden(ED, seed, rng.randrange(2, 16), wild=0.15)
    used = {t for t, _, _ in seq}
    pos = two_players(seq[1:])
    nets = pos.networks(ED)
    opens = nets.open_networks()
    if len(opens) < 2:
        return None
    refs = [sorted((nets.cell[e], nets.pidx[e]) for e in nets.members(r) if nets.pidx[e] >= 0)[0] for r in opens]
    ti = rng.randrange(len(refs))
    target = refs[ti]
    ends = {c for c, grass in open_end_cells(nets, opens[ti]) if not grass}
    if not ends:
        return None
    # blue claims the open network whose open ends come nearest the target's
    def gap(i: int) -> int:
        cs = {c for c, _ in open_end_cells(nets, opens[i])}
        return min((abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1])) // 2
                   for a in cs for b in ends) if cs else 99
    others = sorted((i for i in range(len(refs)) if i != ti), key=lambda i: (gap(i), rng.random()))
    blue = refs[others[0]]
    free = [t for t in ED.tiles if t not in used]
    rng.shuffle(free)
    fitting = [t for t in free if any(fits(nets, ED.tile(t), c, o) for c in ends for o in range(12))]
    offered = list(dict.fromkeys(fitting[:rng.randrange(2, 7)] + free))[:8]
    wild = [w for w in ED.wildflowers if w not in used]
    stored = ((wild[rng.randrange(len(wild))],) if wild and rng.random() < 0.85 else ()) + \
        (tuple(t for t in fitting[8:9] if t not in offered) if rng.random() < 0.4 else ())
    gnomes = [Gnome("blue", blue)] + ([Gnome("red", target)] if rng.random() < 0.4 else [])
    if rng.random() < 0.3 and len(others) > 1:
        gnomes.append(Gnome("blue", refs[others[1]]))
    pos = replace(pos, offered=tuple(offered), gnomes=tuple(gnomes),
                  players=(replace(pos.players[0], storage=stored), pos.players[1]))
    if pos.warnings(ED) or pos.problems(ED):
        return None
    permits = ("blue",) if rng.random() < 0.15 else ()
    return pos, target, permits


def order_cross_check(seeds: range, networkx_every: int = 1) -> dict[str, int]:
    """Search and SAT (and the networkx search on every ``networkx_every``-th seed) on
    ``order_generated`` positions: the same answer, legal witnesses that close the network."""
    import itertools

    from gnomekit.solver.gnome_hollow.close import close_by_networkx

    counts = {"positions": 0, "yes": 0, "order_matters": 0, "stored_wildflower_used": 0, "permission_case": 0}
    for seed in seeds:
        g = order_generated(seed)
        if g is None:
            continue
        pos, ref, permits = g
        a = close_by_search(pos, ED, ref, permits)
        b = close_by_sat(pos, ED, ref, permits)
        c = close_by_networkx(pos, ED, ref, permits)
        assert a.status == b.status, (seed, a.status, b.status, b.witness)
        assert (a.status, a.witness) == (c.status, c.witness), seed
        assert a.status in (Status.SATISFIED, Status.UNSATISFIABLE)
        counts["positions"] += 1
        if not a.found:
            continue
        counts["yes"] += 1
        for res in (a, b):
            assert check_sequence(pos, ED, res.witness, permits).legal, seed
            assert closes(pos, ED, ref, res.witness), seed
        orders = [list(p) for p in itertools.permutations(a.witness)]
        reps = [check_sequence(pos, ED, o, permits) for o in orders]
        if not all(r.legal for r in reps):
            counts["order_matters"] += 1
        if any(p.tile in ED.wildflowers for p in a.witness):
            counts["stored_wildflower_used"] += 1
        if any(v.rule == "permission" for r in reps for t in r.tiles for v in t.violations):
            counts["permission_case"] += 1
    return counts


def test_search_and_sat_agree_when_the_order_matters() -> None:
    counts = order_cross_check(range(40), networkx_every=5)
    assert counts["positions"] >= 40, counts
    assert 0 < counts["yes"] < counts["positions"] and counts["order_matters"] > 0, counts


@pytest.mark.slow
def test_search_and_sat_agree_when_the_order_matters_many() -> None:
    counts = order_cross_check(range(1000, 1500))
    assert counts["positions"] >= 300, counts
    assert counts["order_matters"] >= 10 and counts["stored_wildflower_used"] >= 30, counts
