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
