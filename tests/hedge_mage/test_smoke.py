"""First checks of the Hedge Mage engine: setup, round trips, fast vs slow legality."""

from __future__ import annotations

import json

from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.notation import garden_from_text, garden_to_json, garden_to_text, read_garden
from gnomekit.models.hedge_mage.placement import candidates, check_placement, is_legal_slow, legal_placements
from gnomekit.models.hedge_mage.setup import new_garden, random_garden


def test_new_garden_matches_setup() -> None:
    ed = default_edition()
    g, deck = new_garden(ed, seed=0)
    assert set(g.tunnels) == {ed.numbered[1], ed.numbered[3]}
    assert len(g.gnomes) == 12 and all(not x.awake for x in g.gnomes)
    assert {m.at for m in g.mages} == set(g.tunnels)
    assert len(deck) == 10 and g.tile == deck[0]


def test_round_trips_on_random_gardens() -> None:
    ed = default_edition()
    for seed in range(20):
        g, _ = random_garden(ed, seed, seed % 10)
        assert garden_from_text(garden_to_text(g, ed), "t", ed) == g
        assert read_garden(json.dumps(garden_to_json(g)), "j", ed) == g


def test_fast_legality_matches_words_of_the_ruling() -> None:
    ed = default_edition()
    for seed in (2, 5):
        g, _ = random_garden(ed, seed, 2 + seed)
        for tile in ed.tiles.values():
            fast = {p.key for p in legal_placements(g, tile).placements}
            for cand in candidates(g, tile):
                slow = is_legal_slow(g, cand.placement)
                assert (cand.placement.key in fast) == slow
                rep = check_placement(g, ed, cand.placement, check_tile_choice=False)
                assert rep.legal == slow


def test_moves_default_is_the_kept_tile_when_the_card_names_the_substituted_tile() -> None:
    from dataclasses import replace

    from gnomekit.solver.hedge_mage.placements import tiles_for

    ed = default_edition()
    g, _ = new_garden(ed, seed=0)
    g = replace(g, tile="D2", remaining_tiles=("I3", "L4"), substitution_used=True, kept_tile="L4")
    assert tiles_for(g, ed, None) == ["L4"]
    assert tiles_for(replace(g, tile="I3"), ed, None) == ["I3"]
    assert tiles_for(g, ed, "D2") == ["D2"]
