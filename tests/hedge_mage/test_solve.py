"""`solve` and `hint`: block measure vs networkx, best points by two methods, substitution, CLI."""

from __future__ import annotations

import importlib.util
import json
import random
from dataclasses import replace

import networkx as nx
import pytest
from gnomekit.models.core.grid import Cell, orthogonal_neighbours
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.notation import garden_to_json, garden_to_text
from gnomekit.models.hedge_mage.placement import candidates, is_legal_slow, movement_points
from gnomekit.models.hedge_mage.position import Garden, Gnome, Hedge, Mage
from gnomekit.models.hedge_mage.setup import new_garden, random_garden
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.best import (
    BlockMeter,
    best_block,
    best_points,
    hint,
    options_for,
    plan,
    tile_options,
    token_count,
    with_tokens,
)

from gnomekit.cli import main

ED = default_edition()
HAS_SAT = importlib.util.find_spec("gnomekit.solver.hedge_mage.sat") is not None
needs_sat = pytest.mark.skipif(not HAS_SAT, reason="gnomekit.solver.hedge_mage.sat not there yet")


# ---------------------------------------------------------------------------------------------
# Reference: the block measure straight from the words, with networkx shortest paths


def reference_distances(g: Garden) -> list[int]:
    """d(g) for each sleeping gnome in garden order, by networkx multi-source shortest paths."""
    hedge = g.hedge_cells
    graph = nx.Graph()
    ground = [(r, c) for r in range(g.rows) for c in range(g.cols) if (r, c) not in hedge]
    graph.add_nodes_from(ground)
    for cell in ground:
        for n in orthogonal_neighbours(cell, g.rows, g.cols):
            if n not in hedge:
                graph.add_edge(cell, n)
    sources = {m.at for m in g.mages if m.at not in hedge}
    lengths = nx.multi_source_dijkstra_path_length(graph, sources) if sources else {}
    out = []
    for gn in g.gnomes:
        if gn.awake:
            continue
        near = [lengths[n] for n in orthogonal_neighbours(gn.at, g.rows, g.cols) if n not in hedge and n in lengths]
        out.append(min(near) if near else g.rows * g.cols)
    return out


def reference_block(g: Garden, cells: tuple[Cell, ...], before: int | None = None) -> int:
    """The block measure of a hedge on ``cells``: sum d(after) - sum d(g) (``before``: sum d(g), if known)."""
    after = g.with_hedge(Hedge("D2", cells, cells[0]))
    return sum(reference_distances(after)) - (sum(reference_distances(g)) if before is None else before)


def messy_garden(seed: int) -> Garden:
    """A random garden, then disturbed: mages moved (also onto hedges), springshrooms, hedges walling
    gnomes in, gnomes on hedges, awake gnomes.  Not necessarily reachable by play: the measure must
    still follow its definition."""
    rng = random.Random(f"messy/{seed}")
    g, _ = random_garden(ED, seed, rng.randrange(0, 10))
    cells = [(r, c) for r in range(g.rows) for c in range(g.cols)]
    hedges = list(g.hedges)
    taken = set(g.hedge_cells)
    gnomes = list(g.gnomes)
    # wall in a few gnomes (sometimes completely: unreachable)
    for gn in rng.sample(gnomes, k=min(len(gnomes), rng.randrange(0, 4))):
        for n in orthogonal_neighbours(gn.at, g.rows, g.cols):
            if n not in taken and rng.random() < 0.7:
                hedges.append(Hedge("D2", (n,), n))
                taken.add(n)
    # put a few gnomes on hedges
    hedge_cells = sorted(taken)
    for i in range(len(gnomes)):
        if hedge_cells and rng.random() < 0.15:
            gnomes[i] = Gnome(gnomes[i].kind, rng.choice(hedge_cells), gnomes[i].awake)
        if rng.random() < 0.15:
            gnomes[i] = replace(gnomes[i], awake=True)
    mages = list(g.mages)
    for i in range(len(mages)):
        if rng.random() < 0.6:
            mages[i] = Mage(rng.choice(cells))
    if rng.random() < 0.3:
        mages.append(Mage(rng.choice(cells)))
    if rng.random() < 0.05:
        mages = []
    free = [c for c in cells if c not in taken]
    shrooms = tuple(rng.sample(free, k=min(len(free), rng.randrange(0, 4))))
    return replace(g, hedges=tuple(hedges), gnomes=tuple(gnomes), mages=tuple(mages), springshrooms=shrooms)


def check_block_measure(seed: int, per_garden: int) -> None:
    g = messy_garden(seed)
    rng = random.Random(f"messy-cands/{seed}")
    meter = BlockMeter(g)
    before = reference_distances(g)
    assert list(meter.before) == before
    tile = ED.tiles[rng.choice(list(ED.tiles))]
    cands = candidates(g, tile)
    for cand in rng.sample(cands, k=min(per_garden, len(cands))):
        cells = cand.placement.cells
        after = reference_distances(g.with_hedge(Hedge(tile.name, cells, cand.placement.sigil)))
        assert list(meter.distances(meter.mask(cells))) == after, (seed, cells)
        assert meter.block(meter.mask(cells)) == sum(after) - sum(before)  # reference_block, walks not repeated


def test_block_measure_matches_networkx() -> None:
    for seed in range(120):
        check_block_measure(seed, 8)


@pytest.mark.slow
def test_block_measure_matches_networkx_many() -> None:
    for seed in range(120, 520):
        check_block_measure(seed, 30)


def test_block_measure_hand_cases() -> None:
    # 3x4 garden, one mage at 0,0, a sleeping gnome at 2,3.
    g = Garden(rows=3, cols=4, mages=(Mage((0, 0)),), gnomes=(Gnome("flower", (2, 3)),))
    m = BlockMeter(g)
    assert m.before == (4,)  # to 1,3 or 2,2: 4 steps
    assert m.distances(m.mask([(1, 3), (2, 2)])) == (12,)  # both neighbours covered: unreachable
    assert m.distances(m.mask([(1, 1), (1, 2)])) == (4,)
    # mage adjacent to the gnome's neighbour... standing on a neighbour: 0
    g2 = replace(g, mages=(Mage((1, 3)),))
    assert BlockMeter(g2).before == (0,)
    # a mage on a hedge is no source; an awake gnome does not count
    g3 = replace(g, hedges=(Hedge("D2", ((0, 0), (0, 1)), (0, 0)),),
                 gnomes=(Gnome("flower", (2, 3)), Gnome("pumpkin", (2, 0), awake=True)))
    assert BlockMeter(g3).before == (12,)
    # a gnome on a hedge counts through its ground neighbours
    g4 = replace(g, hedges=(Hedge("D2", ((2, 2), (2, 3)), (2, 2)),))
    assert BlockMeter(g4).before == (4,)  # 0,0 -> 1,3 is 4 steps; 1,2 is a neighbour of 2,2 not 2,3


# ---------------------------------------------------------------------------------------------
# Best points: enumeration vs a slow reference (and vs SAT when it exists)


def slow_best_points(g: Garden) -> tuple[int, str, tuple[str, tuple[Cell, ...], Cell]] | None:
    """Most points by the words: every candidate, legality from the ruling's words, points counted."""
    best = None
    for i, opt in enumerate(tile_options(g, ED)):
        for cand in candidates(g, ED.tiles[opt.tile]):
            p = cand.placement
            if not is_legal_slow(g, p):
                continue
            pts, _ = movement_points(g, with_tokens(g, p))
            key = (-pts, i, p.key)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    return (-best[0], best[2][0], best[2])


def garden_for(seed: int) -> Garden:
    rng = random.Random(f"best/{seed}")
    g, _ = random_garden(ED, seed, rng.randrange(1, 10))
    if g.tile is None:
        g = replace(g, tile=rng.choice(list(ED.tiles)))
    if rng.random() < 0.3:
        g = replace(g, held_bonus_sigils=rng.randrange(1, 4))
    if rng.random() < 0.2:
        g = replace(g, substitution_used=True)
    return g


def test_best_points_enumeration_matches_slow_reference() -> None:
    for seed in range(12):
        g = garden_for(seed)
        res = best_points(g, ED, method="enumerate")
        ref = slow_best_points(g)
        if ref is None:
            assert res.status == Status.UNSATISFIABLE
            continue
        assert res.status == Status.OPTIMAL
        best = res.witness.best
        assert (res.value, best.placement.tile, best.placement.key) == ref
        pts, _ = movement_points(g, best.placement)
        assert pts == res.value


def check_sat_agrees(seed: int) -> None:
    g = garden_for(seed)
    a = best_points(g, ED, method="enumerate")
    b = best_points(g, ED, method="sat")
    assert a.status == b.status
    if a.status == Status.OPTIMAL:
        assert a.value == b.value
        assert a.witness.best.placement.key == b.witness.best.placement.key
        assert a.witness.best.substitution == b.witness.best.substitution


@needs_sat
def test_best_points_sat_matches_enumeration() -> None:
    for seed in range(15):
        check_sat_agrees(seed)


@needs_sat
@pytest.mark.slow
def test_best_points_sat_matches_enumeration_many() -> None:
    for seed in range(15, 200):
        check_sat_agrees(seed)


def reference_scores(g: Garden) -> list[tuple[int, int, int, tuple[str, tuple[Cell, ...], Cell]]]:
    """(points, block, option index, key) of every legal placement, from the words and networkx."""
    out = []
    before = sum(reference_distances(g))  # the same for every placement
    for i, opt in enumerate(tile_options(g, ED)):
        for cand in candidates(g, ED.tiles[opt.tile]):
            p = cand.placement
            if is_legal_slow(g, p):
                pts, _ = movement_points(g, with_tokens(g, p))
                out.append((pts, reference_block(g, p.cells, before), i, p.key))
    return out


def check_block_and_hint(seed: int) -> None:
    g = garden_for(seed)
    ref = reference_scores(g)
    res, h = best_block(g, ED), hint(g, ED)
    if not ref:
        assert res.status == h.status == Status.UNSATISFIABLE
        return
    assert res.status == h.status == Status.OPTIMAL
    pts, blk, _i, key = min(ref, key=lambda x: (-x[1], -x[0], x[2], x[3]))
    assert (res.value, res.witness.best.points, res.witness.best.placement.key) == (blk, pts, key)
    ranked = sorted(ref, key=lambda x: (-(x[0] + x[1]), -x[0], x[2], x[3]))
    got = [h.witness.best] + [s for s, _ in h.witness.alternatives]
    assert [(s.points, s.block, s.placement.key) for s in got] == [(x[0], x[1], x[3]) for x in ranked[:4]]
    assert h.value == ranked[0][0] + ranked[0][1]


def test_best_block_and_hint_match_reference() -> None:
    for seed in range(8):
        check_block_and_hint(seed)


@pytest.mark.slow
def test_best_block_and_hint_match_reference_many() -> None:
    for seed in range(8, 48):
        check_block_and_hint(seed)


# ---------------------------------------------------------------------------------------------
# Substitution and tile options


def test_substitution_only_when_strictly_better() -> None:
    seen_better = seen_tie = 0
    for seed in range(40):
        g = replace(garden_for(seed), substitution_used=False, remaining_tiles=tuple(ED.tiles))
        if g.tile == ED.substitute:
            continue
        res = best_points(g, ED, method="enumerate")
        per = res.witness.per_tile
        regular, sub = per[g.tile]["best_points"], per[ED.substitute]["best_points"]
        if res.status != Status.OPTIMAL:
            continue
        if sub is not None and (regular is None or sub > regular):
            seen_better += 1
            assert res.witness.best.substitution and res.witness.best.placement.tile == ED.substitute
        else:
            seen_tie += sub == regular
            assert not res.witness.best.substitution and res.witness.best.placement.tile == g.tile
    assert seen_better and seen_tie  # both cases were exercised


def test_tie_prefers_revealed_tile_on_empty_garden() -> None:
    g, _ = new_garden(ED, 0)
    g = replace(g, tile="I3")
    res = best_points(g, ED, method="enumerate")
    assert res.value == 1 and res.witness.best.placement.tile == "I3"
    assert not res.witness.best.substitution
    assert res.witness.per_tile["D2"]["best_points"] == 1


def test_substitution_chosen_when_revealed_tile_cannot_be_placed() -> None:
    # 2x3 garden: I4 does not fit, D2 does.
    g = Garden(rows=2, cols=3, tile="I4", remaining_tiles=tuple(ED.tiles))
    res = best_points(g, ED, method="enumerate")
    assert res.status == Status.OPTIMAL and res.witness.best.substitution
    g2 = replace(g, substitution_used=True, kept_tile="N5")
    assert best_points(g2, ED, method="enumerate").status == Status.UNSATISFIABLE
    assert best_points(g, ED, method="enumerate", substitution=False).status == Status.UNSATISFIABLE


def test_tile_options_kept_tile_rule() -> None:
    g = Garden(rows=10, cols=10, tile="L4", remaining_tiles=("I3", "N5"), substitution_used=True, kept_tile="I3")
    opts = tile_options(g, ED)
    assert [(o.tile, o.substitution) for o in opts] == [("I3", False)]
    g2 = Garden(rows=10, cols=10, tile="L4", remaining_tiles=("D2", "L4"))
    assert [(o.tile, o.substitution) for o in tile_options(g2, ED)] == [("L4", False), ("D2", True)]
    g3 = replace(g2, remaining_tiles=("L4",))  # D2 no longer held
    assert [o.tile for o in tile_options(g3, ED)] == ["L4"]
    g4 = replace(g2, tile="D2")  # D2 revealed: no substitution to consider
    assert [(o.tile, o.substitution) for o in tile_options(g4, ED)] == [("D2", False)]
    # named tiles keep their order, except that the substitution goes last
    assert [(o.tile, o.substitution) for o in options_for(g2, ED, ["D2", "I3", "L4"])] == [
        ("I3", False), ("L4", False), ("D2", True)]
    assert [o.tile for o in options_for(g4, ED, ["D2", "I3"])] == ["D2", "I3"]


def test_held_tokens_add_per_tile_constant() -> None:
    g, _ = new_garden(ED, 0)
    g = replace(g, tile="I3", held_bonus_sigils=2)
    assert token_count(g, ED, "I3") == 2 and token_count(g, ED, "D2") == 1
    res = best_points(g, ED, method="enumerate")
    assert res.value == 3 and len(res.witness.best.placement.tokens) == 2
    assert any("held bonus sigil" in n for n in res.witness.notes)


# ---------------------------------------------------------------------------------------------
# Hint


def test_hint_explains_and_lists_alternatives() -> None:
    for seed in range(6):
        g = garden_for(seed)
        res = hint(g, ED)
        if res.status != Status.OPTIMAL:
            continue
        h = res.witness
        assert len(h.alternatives) == min(3, res.stats["candidates_scored"] - 1)
        scores = [h.score] + [s for _, s in h.alternatives]
        assert scores == sorted(scores, reverse=True)
        assert "movement point" in h.reasons[0] and "invader" in h.reasons[1]
        weighted = hint(g, ED, block_weight=0).witness.best
        assert weighted.points == best_points(g, ED, method="enumerate").value


def test_hint_names_the_gnomes_made_farther() -> None:
    g = Garden(rows=3, cols=5, mages=(Mage((0, 0)),), gnomes=(Gnome("flower", (0, 4)),), tile="D2",
               remaining_tiles=tuple(ED.tiles))
    res = hint(g, ED)
    assert res.status == Status.OPTIMAL
    h = res.witness
    assert h.best.block and h.best.block > 0
    assert h.best.block == 4  # a wall in column 2 (rows 0-1) sends the mage round by row 2: 3 -> 7 steps
    assert any("flower gnome at 0,4 goes from 3 to 7 steps" in r for r in h.reasons)


# ---------------------------------------------------------------------------------------------
# Plans


def test_plan_search_finds_and_refutes() -> None:
    g = Garden(rows=2, cols=3)
    ok = plan(g, ED, ["I3"], method="enumerate")
    assert ok.status == Status.SATISFIED and len(ok.witness) == 1
    bad = plan(g, ED, ["I3", "I3"], method="enumerate")
    assert bad.status == Status.UNSATISFIABLE and bad.stats["explanation"]
    g2, _ = random_garden(ED, 1, 3)
    res = plan(g2, ED, ["L4", "T4", "N5"], method="enumerate")
    assert res.status == Status.SATISFIED
    assert [s.placement.tile for s in res.witness] == ["L4", "T4", "N5"]


@needs_sat
def test_plan_sat_agrees_with_search() -> None:
    for seed in range(6):
        g, deck = random_garden(ED, seed, 5)
        rng = random.Random(seed)
        tiles = rng.sample(list(ED.tiles), 4)
        a = plan(g, ED, tiles, method="enumerate")
        b = plan(g, ED, tiles, method="sat")
        assert a.status == b.status, (seed, tiles)


# ---------------------------------------------------------------------------------------------
# CLI


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def write(tmp_path: object, g: Garden, name: str = "g.txt") -> str:
    from pathlib import Path

    p = Path(str(tmp_path)) / name
    p.write_text(garden_to_text(g, ED))
    return str(p)


KEYS = {"goal", "status", "placement", "movement_points", "block", "substitution", "method"}


def test_cli_solve_points_and_block(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    g, _ = random_garden(ED, 3, 4)
    path = write(tmp_path, g)
    code, out = run(capsys, ["hedge-mage", "solve", path, "--method", "enumerate", "--json"])
    d = json.loads(out)
    assert code == 0 and KEYS <= set(d) and d["status"] == "optimal" and d["goal"] == "points"
    assert set(d["placement"]) >= {"tile", "cells", "sigil"}
    code, out = run(capsys, ["hedge-mage", "solve", path, "--goal", "block", "--json"])
    d2 = json.loads(out)
    assert code == 0 and KEYS <= set(d2) and d2["goal"] == "block" and d2["block"] >= 0
    code, out = run(capsys, ["hedge-mage", "solve", path, "--method", "enumerate"])
    assert code == 0 and "movement points:" in out and "runner-up:" in out and "substitution:" in out


def test_cli_no_legal_placement(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    g = Garden(rows=2, cols=3, tile="I4", remaining_tiles=tuple(ED.tiles), substitution_used=True)
    path = tmp_path.__fspath__() + "/g.json"  # type: ignore[attr-defined]
    with open(path, "w") as f:
        json.dump(garden_to_json(g), f)
    code, out = run(capsys, ["hedge-mage", "solve", path, "--method", "enumerate", "--json"])
    d = json.loads(out)
    assert code == 1 and d["status"] == "unsatisfiable" and d["placement"] is None and d["movement_points"] == 0
    code, out = run(capsys, ["hedge-mage", "solve", path, "--method", "enumerate"])
    assert code == 1 and "no legal placement" in out
    code, out = run(capsys, ["hedge-mage", "hint", path])
    assert code == 1 and "no legal placement" in out


def test_cli_plan_and_bad_input(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, Garden(rows=2, cols=3, tile="I3"))
    code, out = run(capsys, ["hedge-mage", "solve", path, "--plan", "I3", "--method", "enumerate", "--json"])
    d = json.loads(out)
    assert code == 0 and d["status"] == "satisfied" and len(d["steps"]) == 1
    code, out = run(capsys, ["hedge-mage", "solve", path, "--plan", "I3,I3", "--method", "enumerate"])
    assert code == 1 and "impossible" in out
    code, out = run(capsys, ["hedge-mage", "solve", path, "--plan", "I3,XX", "--method", "enumerate"])
    assert code == 2
    code, out = run(capsys, ["hedge-mage", "solve", write(tmp_path, Garden(rows=2, cols=3), "n.txt")])
    assert code == 2  # no revealed tile


def test_cli_hint(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    g, _ = random_garden(ED, 5, 5)
    path = write(tmp_path, g)
    code, out = run(capsys, ["hedge-mage", "hint", path, "--json"])
    d = json.loads(out)
    assert code == 0 and d["status"] == "optimal" and len(d["alternatives"]) == 3 and d["reasons"]
    code, out = run(capsys, ["hedge-mage", "hint", path])
    assert code == 0 and "why:" in out and "alternatives it beat" in out


@needs_sat
def test_cli_default_method_is_sat(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    g = replace(random_garden(ED, 7, 6)[0], held_bonus_sigils=1)
    path = write(tmp_path, g)
    code, out = run(capsys, ["hedge-mage", "solve", path, "--json"])
    sat = json.loads(out)
    code2, out = run(capsys, ["hedge-mage", "solve", path, "--json", "--method", "enumerate"])
    enum = json.loads(out)
    assert sat["method"] == "sat" and enum["method"] == "enumerate" and code == code2
    for k in ("status", "placement", "movement_points", "block", "substitution"):
        assert sat[k] == enum[k]
    code, out = run(capsys, ["hedge-mage", "solve", path, "--plan", "L4,T4", "--json"])
    d = json.loads(out)
    assert d["method"] == "sat" and d["status"] in ("satisfied", "unsatisfiable")
    assert code == (0 if d["status"] == "satisfied" else 1)
