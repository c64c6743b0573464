"""The rulebook's ring examples, hand-built, with expected ring size and mushrooms.

Cells are axial (q, r); edges 0-5 clockwise from north (see docs/formats-gnome-hollow.md).
Sharp tiles G01, G04, ... have one path on edges (0, 1); wide G02, G05, ... on (0, 2);
straight G03, G06, ... on (0, 3); G92 has paths (0, 1) and (2, 5).
"""

from __future__ import annotations

from collections import Counter

import pytest
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence

from tests.gnome_hollow.reference import reference_rings, two_players

ED = default_edition()
COLOURS = ("red", "yellow", "pink", "teal", "purple")


def mush(*tiles: str) -> dict[str, int]:
    c: Counter[str] = Counter()
    for t in tiles:
        for p in ED.tile(t).paths:
            if p.mushroom:
                c[p.mushroom] += 1
    return {k: c.get(k, 0) for k in COLOURS}


def close(before: list[tuple[str, tuple[int, int], int]], last: list[tuple[str, tuple[int, int], int]]):  # type: ignore[no-untyped-def]
    pos = two_players(before)
    rep = check_sequence(pos, ED, [Placement(t, c, o) for t, c, o in last], check_supply=False)
    assert rep.legal, rep.reasons
    ref = reference_rings(ED, [("S", (0, 0), 0), *before, *last])
    return rep, rep.to_json(ED), ref


def test_three_tile_ring_with_the_stump() -> None:
    rep, js, ref = close([("G01", (0, -1), 2)], [("G04", (1, -1), 4)])
    assert len(js["rings"]) == 1
    ring = js["rings"][0]
    assert ring["size"] == 3 and len(ring["paths"]) == 3
    assert ring["mushrooms"] == mush("G01", "G04")
    assert set(ring["mushrooms"]) == set(COLOURS)
    assert [r.tiles for r in ref] == [frozenset({(0, 0), (0, -1), (1, -1)})]


FIVE = [("G03", (0, -1), 0), ("G01", (1, -2), 0), ("G92", (1, -3), 1), ("G04", (2, -3), 4), ("G07", (1, -4), 2)]


def test_five_tile_ring_with_six_paths() -> None:
    rep, js, ref = close(FIVE, [("G10", (2, -4), 4)])
    ring = js["rings"][0]
    assert len(js["rings"]) == 1
    assert ring["size"] == 5
    assert len(ring["paths"]) == 6  # G92 lends two paths
    assert ring["mushrooms"] == mush("G01", "G92", "G04", "G07", "G10")
    assert sum(ring["mushrooms"].values()) == 6
    assert len(ref) == 1 and len(ref[0].tiles) == 5 and ref[0].paths == 6


SIX = [("G03", (0, -1), 0), ("G02", (1, -2), 0), ("G05", (2, -2), 5), ("G08", (3, -3), 4), ("G11", (3, -4), 3),
       ("G14", (1, -3), 1)]


def test_six_tile_ring_completed_by_a_wildflower() -> None:
    rep, js, ref = close(SIX, [("W1", (2, -4), 0)])
    ring = js["rings"][0]
    assert ring["size"] == 6  # the wildflower tile counts
    assert [2, -4] in ring["tiles"]
    assert ring["mushrooms"] == mush("G02", "G05", "G08", "G11", "G14")
    assert len(ref) == 1 and len(ref[0].tiles) == 6


def test_the_same_ring_one_tile_short_is_open() -> None:
    rep, js, _ = close(SIX[:-1], [("G14", (1, -3), 1)])
    assert js["rings"] == [] and js["legal"]


TEN = [("G01", (1, -1), 3), ("G04", (1, 0), 5), ("G02", (0, -1), 3), ("G05", (-1, -1), 2), ("G08", (-2, 0), 1),
       ("G03", (-2, 1), 0), ("G11", (-2, 2), 0), ("G14", (-1, 2), 5)]


def test_ten_tile_ring_through_the_stump_twice_counts_it_once() -> None:
    rep, js, ref = close(TEN, [("G17", (0, 1), 4)])
    ring = js["rings"][0]
    assert ring["size"] == 10
    assert len(ring["paths"]) == 11  # two of them on the Stump
    assert sum(1 for p in ring["paths"] if p["cell"] == [0, 0]) == 2
    assert ring["mushrooms"] == mush(*(t for t, _, _ in TEN), "G17")
    assert len(ref) == 1 and len(ref[0].tiles) == 10


def test_path_between_two_wildflowers_is_not_a_ring() -> None:
    rep, js, ref = close([("W1", (1, -1), 0)], [("W2", (0, -1), 0)])
    assert js["legal"] and js["rings"] == []
    assert len(js["closed_not_rings"]) == 1 and js["closed_not_rings"][0]["size"] == 3
    assert ref == []


def test_a_path_cannot_run_into_grass() -> None:
    # the Stump's north edge holds a path; a sharp tile turned so its south edge is grass
    pos = two_players()
    rep = check_sequence(pos, ED, [Placement("G01", (0, -1), 0)], check_supply=False)
    assert not rep.legal
    assert [v.rule for v in rep.tiles[0].violations] == ["edges"]
    assert "edge 3 (S)" in rep.tiles[0].violations[0].message


def test_completed_ring_is_final_wildflower_gets_a_fresh_hub() -> None:
    seq = [*SIX, ("W1", (2, -4), 0)]
    pos = two_players(seq)
    assert len(pos.completed(ED)) == 1
    # a straight tile north of the wildflower, its south end touching it
    rep = check_sequence(pos, ED, [Placement("G06", (2, -5), 0)], check_supply=False)
    assert rep.legal and rep.rings == []
    nets = pos.networks(ED)
    nets.place(ED.tile("G06"), (2, -5), 0)
    r = nets.root_of(((2, -5), 0))
    assert not nets.is_ring(r) and nets.open_ends(r) == 1  # north end open, south joined the fresh hub
    assert nets.describe(r).size == 2  # the wildflower is in this new network too
    ring_root = nets.root_of(((1, -2), 0))
    assert nets.is_ring(ring_root) and nets.describe(ring_root).size == 6


def test_dead_end_option_caps_the_path() -> None:
    seq = [*SIX, ("W1", (2, -4), 0)]
    pos = two_players(seq, options={"wildflower_after_ring": "dead-end"})
    nets = pos.networks(ED)
    nets.place(ED.tile("G06"), (2, -5), 0)
    r = nets.root_of(((2, -5), 0))
    assert nets.open_ends(r) == 1 and nets.describe(r).size == 1
    ref = reference_rings(ED, [("S", (0, 0), 0), *seq, ("G06", (2, -5), 0)], dead_end=True)
    assert len(ref) == 1


@pytest.mark.parametrize("mirror", [False, True])
def test_three_tile_ring_with_mirrored_tiles(mirror: bool) -> None:
    # sharp (0,1) mirrored is (0,5); turned by 3 it is (3,2): the same edges as r2
    o1 = 9 if mirror else 2
    o2 = 11 if mirror else 4  # (0,5) turned by 5 is (5,4)
    rep, js, _ = close([("G01", (0, -1), o1)], [("G04", (1, -1), o2)])
    assert js["rings"][0]["size"] == 3


@pytest.mark.parametrize("seq", [FIVE + [("G10", (2, -4), 4)], SIX + [("W1", (2, -4), 0)],
                                 TEN + [("G17", (0, 1), 4)], [("G01", (0, -1), 2), ("G04", (1, -1), 4)]])
def test_hand_built_gardens_are_reached_by_legal_placements(seq: list[tuple[str, tuple[int, int], int]]) -> None:
    for i in range(len(seq)):
        pos = two_players(seq[:i])
        rep = check_sequence(pos, ED, [Placement(*seq[i])], check_supply=False)
        assert rep.legal, (i, rep.reasons)
    assert two_players(seq).warnings(ED) == []
