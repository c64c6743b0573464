"""The networkx method answers exactly what the union-find engine answers (rings, networks, --close)."""

from __future__ import annotations

import json

import pytest
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.graph import garden_graph
from gnomekit.models.gnome_hollow.networks import ClosedNetwork, replay
from gnomekit.models.gnome_hollow.notation import position_from_json
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence
from gnomekit.models.gnome_hollow.setup import random_position
from gnomekit.solver.gnome_hollow.close import close_by_networkx, close_by_search

from tests.gnome_hollow import independent as ind
from tests.gnome_hollow.reference import random_garden
from tests.gnome_hollow.test_close import generated

ED = default_edition()
TILES = ind.load_tiles()
WILD = {t for t in TILES if t.startswith("W")}


def _shape(c: ClosedNetwork) -> tuple[object, ...]:
    return (c.ring, c.tiles, c.paths, tuple(c.mushrooms.items()))


def _same_garden(seq: list[tuple[str, tuple[int, int], int]], rule: str) -> int:
    nets, closed = replay(ED, seq, rule)
    gg = garden_graph(ED, seq, rule)
    assert [_shape(c) for c in gg.closed] == [_shape(c) for c in closed]
    uf_open = sorted((nets.describe(r).paths, nets.open_ends(r)) for r in nets.open_networks())
    nx_open = sorted((d.paths, gg.open_ends(d.paths[0])) for d in gg.open_networks())
    assert nx_open == uf_open
    for key in nets.path_elem:
        assert gg.is_ring(key) == nets.is_ring(nets.root_of(key))
    return sum(1 for c in closed if c.ring)


@pytest.mark.parametrize("rule", ["fresh", "dead-end"])
def test_graph_replay_equals_union_find(rule: str) -> None:
    rings = sum(_same_garden(random_garden(ED, seed, 30, wild=0.25), rule) for seed in range(25))
    assert rings >= 5  # the generator does close rings


@pytest.mark.slow
def test_graph_replay_equals_union_find_many() -> None:
    for seed in range(300):
        _same_garden(random_garden(ED, 5000 + seed, 45, wild=0.2), "fresh" if seed % 2 else "dead-end")


def _check_cross_check(seeds: range) -> int:
    """check_sequence by both methods on generated cases (gnomes, permits, illegal tiles, many rings)."""
    rings = 0
    for seed in seeds:
        case = ind.generate(seed, TILES, WILD)
        pos = position_from_json(json.dumps(ind.position_json(case)), "<case>", ED)
        seq = [Placement(t, c, o) for t, c, o in case["seq"]]
        a = check_sequence(pos, ED, seq, case["permits"], check_supply=False)
        b = check_sequence(pos, ED, seq, case["permits"], check_supply=False, method="networkx")
        assert a.to_json(ED) == b.to_json(ED), seed
        rings += len(a.rings)
    return rings


def test_check_with_networkx_equals_union_find() -> None:
    assert _check_cross_check(range(60)) >= 10


@pytest.mark.slow
def test_check_with_networkx_equals_union_find_many() -> None:
    assert _check_cross_check(range(2000, 2600)) >= 100


def test_show_networks_equal_on_random_tables() -> None:
    for seed in range(8):
        pos = random_position(ED, seed, 10)
        seq = [(t.tile, t.cell, t.orientation) for t in pos.tiles]
        _same_garden(seq, pos.option("wildflower_after_ring"))


def _close_cross_check(seeds: range) -> tuple[int, int]:
    n = yes = 0
    for seed in seeds:
        g = generated(seed)
        if g is None:
            continue
        pos, ref, permits = g
        a = close_by_search(pos, ED, ref, permits)
        b = close_by_networkx(pos, ED, ref, permits)
        assert (a.status, a.witness) == (b.status, b.witness), seed
        n += 1
        yes += a.found
    return n, yes


def test_close_by_networkx_equals_search() -> None:
    n, yes = _close_cross_check(range(20))
    assert n >= 15 and 0 < yes < n


@pytest.mark.slow
def test_close_by_networkx_equals_search_many() -> None:
    n, yes = _close_cross_check(range(1000, 1200))
    assert n >= 150 and 0 < yes < n
