"""Hypothesis properties of hedge placement, checked against an independent reference.

A placement is legal iff its cells are free ground inside the garden, no 2x2
window is all hedge afterwards and the ground stays connected (networkx, in
hm_reference).  Movement points equal an inclusion-exclusion count over the row
and column sums of a sigil grid.  ``check`` reports are consistent: legal iff no
violations, the rules named are exactly the rules broken, listed cut-off cells
really are cut off and listed 2x2 windows really are all hedge.  Gardens come
from random legal play and from arbitrary layouts (bushes, split ground, ...).
"""

from __future__ import annotations

import networkx as nx
import pytest
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.placement import (
    Board,
    Placement,
    apply_placement,
    candidates,
    check_placement,
    is_legal_slow,
    legal_placements,
    movement_points,
    with_held_tokens,
)
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.setup import random_garden
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hedge_mage.hm_reference import Reference, default_pictures, placements_in_bounds, shapes
from tests.hedge_mage.hm_strategies import gardens, played_gardens

ED = default_edition()
PICS = default_pictures()
PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULE_OF = {"out-of-bounds": "bounds", "covers": "covers", "2x2": "2x2", "cut-off": "cut-off"}


def ground_graph_after(g: Garden, cells: set[tuple[int, int]]) -> nx.Graph:
    graph = nx.grid_2d_graph(g.rows, g.cols)
    graph.remove_nodes_from({c for h in g.hedges for c in h.cells} | cells)
    return graph


def check_one(g: Garden, ref: Reference, placement: Placement) -> None:
    """Everything the engine says about one placement agrees with the reference."""
    inside = {c for c in placement.cells if g.in_bounds(c)}
    expected = ref.violations(placement.cells)
    rep = check_placement(g, ED, placement, check_tile_choice=False)
    rules = {RULE_OF[v.rule] for v in rep.violations}
    assert rules == expected, (placement, rep.violations)
    assert rep.legal == (not expected) == (not rep.violations)
    if inside == set(placement.cells):
        assert is_legal_slow(g, placement) == rep.legal
    hedge_after = {c for h in g.hedges for c in h.cells} | inside
    after = ground_graph_after(g, inside)
    windows = set()
    for v in rep.violations:
        if v.rule == "covers":
            assert set(v.cells) == inside & ref.blocked
        elif v.rule == "out-of-bounds":
            assert set(v.cells) == set(placement.cells) - inside
        elif v.rule == "2x2":
            assert len(v.cells) == 4 and set(v.cells) <= hedge_after
            (r0, c0) = min(v.cells)
            assert set(v.cells) == {(r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1)}
            windows.add(tuple(sorted(v.cells)))
        elif v.rule == "cut-off":
            cut = set(v.cells)
            main = set(after.nodes) - cut
            assert cut and main and set(after.nodes) == cut | main
            assert nx.is_connected(after.subgraph(main)), "what is not listed is one region"
            assert not any(nx.has_path(after, a, next(iter(main))) for a in cut), "listed cells are cut off"
            assert len(main) >= max(len(comp) for comp in nx.connected_components(after.subgraph(cut)))
    all_bushes = {
        ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
        for r in range(g.rows - 1) for c in range(g.cols - 1)
        if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= hedge_after
    }
    assert windows == all_bushes, "every all-hedge window is reported, once"
    if rep.legal:
        pts = ref.points(placement.cells, placement.sigil, len(placement.tokens))
        assert rep.movement_points == pts
        assert movement_points(g, placement)[0] == pts
        assert sorted(rep.sigils_counted) == rep.sigils_counted
        assert rep.token_points == len(placement.tokens)


def check_garden(g: Garden, tiles: list[str], explain: int = 30) -> None:
    """Enumeration = reference for every candidate; full reports for about ``explain`` per tile."""
    ref = Reference(g)
    board = Board(g)
    for name in tiles:
        tile = ED.tiles[name]
        en = legal_placements(g, tile, board)
        ref_keys = ref.legal_keys(name, PICS[name])
        assert sorted(p.key for p in en.placements) == ref_keys
        for p, pts in zip(en.placements, en.points, strict=True):
            assert pts == ref.points(p.cells, p.sigil), p
        cands = candidates(g, tile)
        assert sorted(c.placement.key for c in cands) == placements_in_bounds(g.rows, g.cols, name, PICS[name])
        legal = [c for c in cands if c.placement.key in set(ref_keys)]
        other = [c for c in cands if c.placement.key not in set(ref_keys)]
        for part in (legal, other):  # both kinds, spread over the garden
            step = max(1, (2 * len(part)) // max(1, explain))
            for cand in part[::step]:
                check_one(g, ref, cand.placement)


@PROPS
@given(played_gardens(), st.lists(st.sampled_from(list(PICS)), min_size=1, max_size=3, unique=True))
def test_played_gardens_agree_with_reference(g: Garden, tiles: list[str]) -> None:
    assert g.problems(ED) == [] and g.warnings() == [], "legal play keeps the garden sound"
    check_garden(g, tiles)


@PROPS
@given(gardens(max_rows=7, max_cols=7), st.lists(st.sampled_from(list(PICS)), min_size=1, max_size=3, unique=True))
def test_arbitrary_layouts_agree_with_reference(g: Garden, tiles: list[str]) -> None:
    assert g.problems(ED) == []
    check_garden(g, tiles)


@PROPS
@given(gardens(max_rows=6, max_cols=6), st.sampled_from(list(PICS)), st.data())
def test_placements_reaching_outside_report_every_rule(g: Garden, name: str, data: st.DataObject) -> None:
    """Anchors on and beyond the border: out-of-bounds is reported along with the other rules."""
    offs = data.draw(st.sampled_from(sorted(shapes(PICS[name]))))
    sr = data.draw(st.integers(-2, g.rows + 1))
    sc = data.draw(st.integers(-2, g.cols + 1))
    cells = tuple(sorted((sr + dr, sc + dc) for dr, dc in offs))
    check_one(g, Reference(g), Placement(name, cells, (sr, sc)))


@PROPS
@given(played_gardens(), st.sampled_from(list(PICS)), st.integers(0, 3), st.data())
def test_bonus_tokens_add_one_point_each(g: Garden, name: str, held: int, data: st.DataObject) -> None:
    from dataclasses import replace

    g = replace(g, held_bonus_sigils=held)
    ref = Reference(g)
    keys = ref.legal_keys(name, PICS[name])
    if not keys:
        return
    _, cells, sigil = data.draw(st.sampled_from(keys))
    p = with_held_tokens(g, Placement(name, cells, sigil))
    assert len(p.tokens) == min(held, len(cells) - 1) and sigil not in p.tokens
    rep = check_placement(g, ED, p, check_tile_choice=False)
    assert rep.legal and rep.movement_points == ref.points(cells, sigil) + len(p.tokens)
    # more tokens than held, or a token off the tile or on its sigil: reported, never counted
    for bad in ((sigil,), ((-1, -1),), tuple(c for c in cells if c != sigil) * 2):
        if not bad:
            continue
        rep = check_placement(g, ED, Placement(name, cells, sigil, bad), check_tile_choice=False)
        wrong = (sigil in bad or (-1, -1) in bad or len(set(bad)) < len(bad) or len(bad) > held)
        assert rep.legal == (not wrong)
        assert {v.rule for v in rep.violations} <= {"bonus-token"}


@PROPS
@given(played_gardens(max_rounds=5), st.sampled_from(list(PICS)), st.data())
def test_applying_a_legal_placement_keeps_the_invariants(g: Garden, name: str, data: st.DataObject) -> None:
    en = legal_placements(g, ED.tiles[name])
    if not en.placements:
        return
    p = data.draw(st.sampled_from(en.placements))
    after = apply_placement(g, ED, p)
    assert after.problems(ED) == [] and after.warnings() == []
    assert after.hedges[-1].cells == p.cells and after.hedges[-1].sigil == p.sigil


@pytest.mark.parametrize("seed", range(2))
def test_random_full_size_games_agree_with_reference(seed: int) -> None:
    g, _ = random_garden(ED, seed, 4 + 4 * seed)
    check_garden(g, ["D2", "L3", "T4", "N5"] if seed % 2 else ["I3m", "L4m", "S4", "T4e"], explain=16)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(11))
def test_random_full_size_games_agree_with_reference_all_tiles(seed: int) -> None:
    g, _ = random_garden(ED, 100 + seed, seed)
    check_garden(g, list(PICS), explain=100)
