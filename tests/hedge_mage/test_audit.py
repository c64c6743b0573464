"""``hedge-mage audit``: SAT answers against brute force on tiny editions, witnesses, simulation."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition, edition_from_toml
from gnomekit.models.hedge_mage.placement import legal_placements
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.setup import deal_deck, random_garden
from gnomekit.solver.hedge_mage.audit import (
    _Sim,
    audit_tile,
    brute_force_fewest,
    brute_force_max_points,
    game_rngs,
    max_before,
    max_points,
    order_for_replay,
    replay,
    setup_garden,
    simulate,
)

from gnomekit.cli import main

SHAPES = {
    "D2": ["@#"],
    "I3": ["@##"],
    "I3m": ["#@#"],
    "L3": ["@#", "#."],
    "T4": ["#@#", ".#."],
    "S4": [".@#", "##."],
    "L4": ["@##", "#.."],
    "I4": ["@###"],
}


def tiny_toml(rows: int, cols: int, tunnels: list[list[int]], shaded: list[list[int]],
              tiles: dict[str, list[str]], removed: int = 0) -> str:
    """A small edition: two tunnel spaces (opened by the first-game cards) and gnome spaces."""
    pics = "\n".join(f"{k} = {json.dumps(v)}" for k, v in tiles.items())
    cards = ", ".join(json.dumps(k) for k in tiles)
    return f"""
[edition]
game = "hedge-mage"
name = "tiny"
[garden]
rows = {rows}
cols = {cols}
numbered = {json.dumps(tunnels)}
shaded = {json.dumps(shaded)}
[tiles]
{pics}
[deck]
cards = [{cards}]
removed = {removed}
substitute = {json.dumps(next(iter(tiles)))}
[gnomes]
kinds = {{ flower = "f", mushroom = "m", pumpkin = "p" }}
per_kind = 2
[[enchantments]]
id = "fl"
kind = "flower"
[[enchantments]]
id = "mu"
kind = "mushroom"
tunnel = 1
[[enchantments]]
id = "pu"
kind = "pumpkin"
tunnel = 2
[setup]
first_game = ["fl", "mu", "pu"]
"""


def tiny(rows: int, cols: int, tunnels: list[list[int]], shaded: list[list[int]],
         tiles: dict[str, list[str]], removed: int = 0) -> HedgeMageEdition:
    return edition_from_toml(parse_toml(tiny_toml(rows, cols, tunnels, shaded, tiles, removed), "tiny"))


def generated(seed: int, ntiles: int = 4, big: int = 5) -> HedgeMageEdition:
    """A random tiny edition: 3-``big`` rows, 4-``big`` cols, 2 tunnels, 0-3 gnome spaces, a few tiles."""
    rng = random.Random(seed)
    rows, cols = rng.randint(3, big), rng.randint(4, big)
    cells = [[r, c] for r in range(rows) for c in range(cols)]
    picked = rng.sample(cells, 2 + rng.randint(0, 3))
    names = rng.sample(sorted(SHAPES), ntiles)
    removed = rng.choice([0, 0, 1, 2]) if ntiles > 3 else 0  # fewer rounds: "never" answers too
    return tiny(rows, cols, picked[:2], picked[2:], {n: SHAPES[n] for n in names}, removed)


def check_witness(base: Garden, ed: HedgeMageEdition, tile: str, seq: list, garden: Garden | None) -> None:
    """The witness replays legally from setup and leaves ``tile`` no legal placement."""
    assert garden is not None
    g = replay(base, ed, seq)
    assert g.hedge_cells == garden.hedge_cells
    assert len({p.tile for p in seq}) == len(seq) and tile not in {p.tile for p in seq}
    assert not legal_placements(g, ed.tiles[tile]).placements


def test_hand_example_needs_two_placements() -> None:
    # 4x5 garden: D2 cannot be stopped by one tile, but two tiles can (found by hand and brute force).
    ed = tiny(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"], "T4": SHAPES["T4"],
               "S4": SHAPES["S4"]})
    base = setup_garden(ed)
    a = audit_tile(base, ed, "D2", 30)
    assert a.status == "proven" and a.value == 2 and a.lower == a.upper == 2
    check_witness(base, ed, "D2", a.sequence, a.garden)
    assert brute_force_fewest(base, ed, "D2", max_before(ed)) == 2


@pytest.mark.parametrize("seed", range(14))
def test_sat_fewest_matches_brute_force(seed: int) -> None:
    ed = generated(seed)
    base = setup_garden(ed)
    kmax = max_before(ed)
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, kmax)
        a = audit_tile(base, ed, tile, 30)
        assert a.status == "proven", (seed, tile)
        if bf is None:
            assert a.never and a.lower == kmax + 1 and a.upper is None
        else:
            assert a.value == bf, (seed, tile, a.to_json())
            if bf > 0:
                check_witness(base, ed, tile, a.sequence, a.garden)


@pytest.mark.parametrize("seed", range(6))
def test_sat_max_points_matches_brute_force(seed: int) -> None:
    ed = generated(100 + seed, ntiles=3)
    base = setup_garden(ed)
    pa = max_points(base, ed, 30)
    assert pa.status == "proven"
    assert pa.best == brute_force_max_points(base, ed, max_before(ed))
    before = replay(base, ed, pa.sequence[:-1])
    assert pa.garden is not None and before.hedge_cells == pa.garden.hedge_cells
    en = legal_placements(before, ed.tiles[pa.sequence[-1].tile])
    assert pa.sequence[-1].key in en.keys
    assert en.points[[p.key for p in en.placements].index(pa.sequence[-1].key)] == pa.best


def test_time_budget_gives_unknown_with_sound_bounds() -> None:
    ed = default_edition()
    a = audit_tile(setup_garden(ed), ed, "N5", 0.5)
    assert a.status == "unknown" and a.value is None
    assert 1 <= a.lower and (a.upper is None or a.upper >= a.lower)


def test_order_for_replay_on_shuffled_reachable_gardens() -> None:
    ed = default_edition()
    base = setup_garden(ed)
    for seed in range(8):
        g, _ = random_garden(ed, seed, 9)
        from gnomekit.models.hedge_mage.placement import Placement

        ps = [Placement(h.tile, h.cells, h.sigil) for h in g.hedges]
        random.Random(seed).shuffle(ps)
        seq = order_for_replay(base, ps)
        assert seq is not None and sorted(seq) == sorted(ps)
        assert replay(base, ed, seq).hedge_cells == g.hedge_cells


def test_simulation_legality_matches_enumeration() -> None:
    ed = default_edition()
    base = setup_garden(ed)
    sim = _Sim(base, ed)
    for game in range(4):
        deck_rng, pol_rng = game_rngs(7, game)
        deck = deal_deck(ed, deck_rng)
        _dead, laid, _ = sim.play(deck, "random", pol_rng)
        g = base
        hedge = sim.hedge0
        for p in laid:
            for name, tile in ed.tiles.items():
                fast = {sim.cands[name][i].key for i in sim.legal(name, hedge)}
                assert fast == legal_placements(g, tile).keys
            if p is not None:
                g = replay(g, ed, [p])
                hedge |= sim.bits.mask(p.cells)


def test_simulation_is_deterministic_and_consistent() -> None:
    ed = default_edition()
    base = setup_garden(ed)
    a = [s.to_json() for s in simulate(base, ed, 25, seed=3)]
    b = [s.to_json() for s in simulate(base, ed, 25, seed=3)]
    for x, y in zip(a, b, strict=True):
        x.pop("seconds")
        y.pop("seconds")
    assert a == b
    for st in a:
        assert st["games"] == 25
        assert sum(st["first_dead_round"].values()) == st["games_with_dead_round"]
        w = st["witness"]
        if st["games_with_dead_round"]:
            assert w is not None
            deck_rng, _ = game_rngs(3, w["game"])
            assert deal_deck(ed, deck_rng) == w["deck"]
            g = json.dumps(w["garden"])
            from gnomekit.models.hedge_mage.notation import read_garden

            garden = read_garden(g, "w", ed)
            tile = w["deck"][w["round"] - 1]
            assert not legal_placements(garden, ed.tiles[tile]).placements or st["policy"] == "planning"


def test_random_policy_hits_dead_rounds_on_the_default_edition() -> None:
    ed = default_edition()
    st = simulate(setup_garden(ed), ed, 60, seed=0, policies=["random"])[0]
    assert st.games_with_dead_round > 0  # orientation: about a quarter to a third of games
    assert st.witness is not None and st.witness["round"] >= 2


def run_cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue()


def test_cli_json_keys(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(tiny_toml(4, 5, [[0, 0], [3, 4]], [[1, 2], [2, 0]],
                              {"D2": SHAPES["D2"], "I3": SHAPES["I3"], "L3": SHAPES["L3"]}))
    code, out = run_cli(["hedge-mage", "audit", "--edition", str(path), "--time-per-tile", "5",
                         "--games", "5", "--time-points", "5", "--json"])
    assert code == 0
    data = json.loads(out)
    assert {"per_tile", "simulation", "max_points", "seconds", "max_before"} <= set(data)
    assert [t["tile"] for t in data["per_tile"]["tiles"]] == ["D2", "I3", "L3"]
    for t in data["per_tile"]["tiles"]:
        assert t["status"] in ("proven", "unknown") and "seconds" in t and "witness" in t
    assert set(data["simulation"]["policies"]) == {"random", "planning"}
    assert data["max_points"]["status"] in ("proven", "unknown")
    code, out = run_cli(["hedge-mage", "audit", "--edition", str(path), "--parts", "a",
                         "--tiles", "I3", "--time-per-tile", "5"])
    assert code == 0 and "(a)" in out and "(b)" not in out


def test_cli_bad_input_exits_2() -> None:
    code, _ = run_cli(["hedge-mage", "audit", "--tiles", "Q9", "--parts", "a"])
    assert code == 2
    code, _ = run_cli(["hedge-mage", "audit", "--parts", "z"])
    assert code == 2
    code, _ = run_cli(["hedge-mage", "audit", "--enchantments", "nope", "--parts", "b", "--games", "1"])
    assert code == 2


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "ntiles", "big"), [(s, 5, 5) for s in range(200, 212)]
                         + [(300, 6, 6), (302, 6, 6), (303, 6, 6)])
def test_sat_fewest_matches_brute_force_more_tiles(seed: int, ntiles: int, big: int) -> None:
    ed = generated(seed, ntiles=ntiles, big=big)
    base = setup_garden(ed)
    kmax = max_before(ed)
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, kmax)
        a = audit_tile(base, ed, tile, 120)
        assert a.status == "proven", (seed, tile)
        assert a.value == bf or (bf is None and a.never), (seed, tile, bf, a.to_json())
        if bf:
            check_witness(base, ed, tile, a.sequence, a.garden)
