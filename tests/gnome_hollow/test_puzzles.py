"""Bundled puzzles: solved from scratch and verified; stored answers re-derived by independent methods."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.notation import parse_placements, position_from_text
from gnomekit.models.gnome_hollow.position import Gnome
from gnomekit.models.gnome_hollow.setup import random_position
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnome_hollow.best import best_turn
from gnomekit.solver.gnome_hollow.puzzles import puzzle_files, run_puzzle

from tests.gnome_hollow.brute import brute_best
from tests.gnome_hollow.reference import reference_legal, reference_rings
from tests.gnome_hollow.test_scoring import _brute_best

ED = default_edition()
FILES = puzzle_files()


def test_there_are_at_least_ten_puzzles_of_every_kind() -> None:
    kinds = {parse_toml(p.read_text(), str(p)).data["question"]["kind"] for p in FILES}
    assert len(FILES) >= 10 and kinds == {"rings", "close", "best-turn", "market"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_puzzle_is_solved_and_verified(path: Path) -> None:
    out = run_puzzle(path)
    assert out.solved and out.verified, (out.answer_text, out.detail)


def _heavy(path: Path) -> bool:
    """Best-turn puzzles with stored tiles take the brute force ~1 minute: full run only."""
    d = parse_toml(path.read_text(), str(path)).data
    return d["question"]["kind"] == "best-turn" and "storage: -" not in d["position"].split("player: blue")[0]


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if _heavy(p) else p for p in FILES],
                         ids=[p.stem for p in FILES])
def test_stored_answer_from_an_independent_method(path: Path) -> None:
    d = parse_toml(path.read_text(), str(path)).data
    pos = position_from_text(d["position"], str(path), ED)
    q, a = d["question"], d["answer"]
    if q["kind"] == "rings":
        seq = [(p.tile, p.cell, p.orientation) for p in parse_placements([" ".join(q["place"])])]
        before = [(t.tile, t.cell, t.orientation) for t in pos.tiles]
        if a["legal"]:
            assert reference_legal(ED, before, seq)
            ref = [r for r in reference_rings(ED, before + seq) if r.step >= len(before)]
            assert [r["size"] for r in a["rings"]] == [len(r.tiles) for r in ref]
            assert [{k: v for k, v in r["mushrooms"].items() if v} for r in a["rings"]] == \
                [dict(r.mushrooms) for r in ref]
        else:
            assert a["rings"] == []
    elif q["kind"] == "market":
        assert a["points"] == _brute_best(dict(pos.mover.mushrooms), dict(pos.market), dict(pos.market_tokens))
    elif q["kind"] == "best-turn":
        assert a["value"] == brute_best(pos, ED)


def _small(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    pos = random_position(ED, seed, rng.randrange(2, 7))
    pos = replace(pos, offered=pos.offered[:2])
    nets = pos.networks(ED)
    opens = nets.open_networks()
    if opens and rng.random() < 0.6:
        r = opens[rng.randrange(len(opens))]
        k = next((nets.cell[e], nets.pidx[e]) for e in nets.members(r) if nets.pidx[e] >= 0)
        mine = [g for g in pos.gnomes if g.player == pos.mover.name]
        others = [g for g in pos.gnomes if g not in mine]
        if not any(isinstance(g.at, tuple) and g.at in nets.path_elem and nets.root_of(g.at) == r
                   for g in others):
            pos = replace(pos, gnomes=tuple(others) + (Gnome(pos.mover.name, k), *mine[1:]))
    return pos


def _cross(seeds: range) -> int:
    n = 0
    for seed in seeds:
        pos = _small(seed)
        if pos.warnings(ED):
            continue
        res = best_turn(pos, ED)
        assert res.status == Status.OPTIMAL and res.stats["verified"] == 1
        assert res.value == pytest.approx(brute_best(pos, ED)), seed
        n += 1
    return n


def test_best_turn_matches_brute_force_on_small_positions() -> None:
    assert _cross(range(6)) >= 4


@pytest.mark.slow
def test_best_turn_matches_brute_force_on_many_small_positions() -> None:
    assert _cross(range(100, 160)) >= 40
