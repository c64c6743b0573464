"""The planning encoding (z3) against the search: the same optimum on generated running positions.

Two exact methods for ``solve --phase run``: solver/hedge_mage/running.py (memoised search over the
rules engine's actions) and solver/hedge_mage/run_encoding.py (a time-step encoding written from the
rules).  Every plan of the encoding is replayed with the rules engine inside ``solve_run_encoding``
(status OPTIMAL only when the replay is legal and achieves the claimed value); here it is replayed
once more and the value compared with the search's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running import RunPosition, execute_plan, running_score, settle_position
from gnomekit.models.hedge_mage.running_notation import read_run, run_to_text
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.run_encoding import horizon, merge_units, nonmonotone_reason, solve_run_encoding
from gnomekit.solver.hedge_mage.running import solve_run

from tests.marks import first_by_default

ED = default_edition()
CARDS = {k: [e.id for e in ED.enchantments if e.kind == k] for k in ("flower", "mushroom", "pumpkin")}


def tiny(seed: int, big: bool = False) -> RunPosition:
    """A small random running position (seeded): 2x3..3x4 garden, a D2 hedge or none, 1 tunnel, 2 mages,
    1-2 gnomes (``big``: 3x4 gardens too, up to 3 gnomes; awake or asleep, sometimes carried), a random
    enchantment per kind, 1 movement point,
    sometimes a movement token, a springshroom token or a springshroom on the board."""
    rng = random.Random(f"run-encoding/{seed}")
    rows, cols = rng.choice([(2, 3), (3, 3), (2, 4)] + ([(3, 4)] if big else []))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    hedges = "-"
    if rng.random() < 0.7:
        opts = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)] + \
            [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
        h = rng.choice(opts)
        grid[h[0][0]][h[0][1]], grid[h[1][0]][h[1][1]] = "A", "a"
        hedges = "a=D2"
        free = [c for c in cells if c not in h]
    else:
        free = list(cells)
    rng.shuffle(free)
    t, m1, m2, *rest = free
    grid[t[0]][t[1]] = "+"
    grid[m1[0]][m1[1]] += "1"
    grid[m2[0]][m2[1]] += "2"
    ngnomes = rng.choice((1, 2, 2, 3) if big else (1, 2, 2))
    kinds = ["flower", "mushroom", "pumpkin"]
    placed = 0
    if rng.random() < 0.25:  # a gnome carried by mage 1
        letter = ED.gnome_kinds[rng.choice(kinds)]
        grid[m1[0]][m1[1]] += letter.upper() if rng.random() < 0.5 else letter
        placed = 1
    for gc in rest[:ngnomes - placed]:
        letter = ED.gnome_kinds[rng.choice(kinds)]
        grid[gc[0]][gc[1]] += letter.upper() if rng.random() < 0.4 else letter
    spare = rest[ngnomes - placed:]
    if spare and rng.random() < 0.2 and grid[spare[0][0]][spare[0][1]] == ".":
        grid[spare[0][0]][spare[0][1]] = ".^"
    ench = " ".join(rng.choice(CARDS[k]) for k in kinds)
    tokens = 1 if rng.random() < 0.2 else 0
    shrooms = 1 if rng.random() < 0.25 else 0
    points = 1
    head = "   " + "  ".join(str(c) for c in range(cols))
    body = "\n".join(f"{i}  " + "  ".join(row) for i, row in enumerate(grid))
    text = (f"hedge-mage run\nsize: {rows}x{cols}\nenchantments: {ench}\npoints: {points}\ntokens: {tokens}\n"
            f"springshroom-tokens: {shrooms}\nhedges: {hedges}\n\n{head}\n{body}\n")
    pos = read_run(text, f"tiny/{seed}", ED)
    settled, _ = settle_position(pos, ED)
    return settled


def check_same_optimum(pos: RunPosition, label: str) -> None:
    enc = solve_run_encoding(pos, ED, time_limit=600)
    assert enc.status is Status.OPTIMAL, (label, enc.stats, run_to_text(pos, ED))
    ref = solve_run(pos, ED)
    assert ref.status is Status.OPTIMAL
    assert enc.value.key() == ref.value.key(), (label, enc.value, ref.value, run_to_text(pos, ED))
    rep = execute_plan(pos, ED, enc.witness)
    assert rep.legal, (label, rep.reasons)
    assert rep.final.total_rescued() - pos.total_rescued() == enc.value.rescued
    assert running_score(rep.final, ED) - running_score(pos, ED) == enc.value.points
    assert sum(a.kind == "token" for a in enc.witness) == enc.value.tokens
    assert sum(a.kind == "shroom" for a in enc.witness) == enc.value.springshrooms


# the default sample: the first seeds whose horizon is short (a few seconds each); the rest behind --runslow
SAMPLE = [s for s in range(80) if horizon(tiny(s), ED) <= 14][:20]


@pytest.mark.parametrize("seed", first_by_default(SAMPLE, 8))
def test_encoding_equals_search_sample(seed: int) -> None:
    check_same_optimum(tiny(seed), f"tiny/{seed}")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [s for s in range(240) if s not in SAMPLE])
def test_encoding_equals_search_many(seed: int) -> None:
    check_same_optimum(tiny(seed, big=seed % 5 == 0), f"tiny/{seed}")


# --- hand-built positions: each rule the encoding states on its own -----------------------------------


def pos(grid: str, points: int = 1, tokens: int = 0, shrooms: int = 0, hedges: str = "a=D2",
        enchantments: str = "planter-enchanter morel-evate pump-kin") -> RunPosition:
    rows = grid.strip("\n").split("\n")
    ncols = len(rows[0].split())
    head = "   " + "  ".join(str(c) for c in range(ncols))
    body = "\n".join(f"{i}  {r}" for i, r in enumerate(rows))
    text = (f"hedge-mage run\nsize: {len(rows)}x{ncols}\nenchantments: {enchantments}\npoints: {points}\n"
            f"tokens: {tokens}\nspringshroom-tokens: {shrooms}\nhedges: {hedges}\n\n{head}\n{body}\n")
    return read_run(text, "test", ED)


def test_carry_an_awake_gnome_into_the_tunnel() -> None:
    p = pos("""
.M .1 +
.  .  .2
""", hedges="-")
    res = solve_run_encoding(p, ED)
    assert res.status is Status.OPTIMAL
    # pick up the adjacent awake mushroom (1 point) ... and no point left to step: the mushroom walks onto
    # the mage (ladder) and the mage steps into the tunnel
    assert (res.value.rescued, res.value.tokens, res.value.springshrooms) == (1, 0, 0)
    assert res.value.points == ED.running.track_points("mushroom", 1) - 1


def test_springshroom_bounce_onto_a_hedge_wakes_a_mushroom() -> None:
    # Morel-evate: a mushroom on a hedge wakes.  The sleeping mushroom cannot climb; a springshroom
    # placed beneath it bounces it up onto the hedge, where it wakes: +1 point, one springshroom spent.
    p = pos("""
.m A  .1
.  a  .2
""", points=1, shrooms=1, hedges="a=D2")
    res = solve_run_encoding(p, ED)
    assert res.status is Status.OPTIMAL
    assert (res.value.rescued, res.value.points, res.value.springshrooms) == (0, 1, 1)


def test_nonmonotone_condition_is_refused() -> None:
    from gnomekit.models.hedge_mage.enchantments import parse_condition

    c, _ = parse_condition({"count": "gnome", "scope": "adjacent", "at_most": 0}, ("flower",))
    assert c is not None and nonmonotone_reason(c) is not None
    c, _ = parse_condition({"not": {"count": "gnome", "scope": "adjacent", "at_least": 1}}, ("flower",))
    assert c is not None and nonmonotone_reason(c) is not None
    c, _ = parse_condition({"all": [{"on": "ground"}, {"count": "hedge", "scope": "row", "at_least": 4}]},
                           ("flower",))
    assert c is not None and nonmonotone_reason(c) is None


def test_horizon_counts_free_pickups_and_drops() -> None:
    p = pos("""
.M .1 +
.  .  .2
""", points=2, hedges="-")
    # no springshroom possible: 3 unit actions per paid point for each mage, 2 for the awake mushroom
    # (the mushroom track's first space gives a springshroom: then 4 P + 2 per mage and 1 placement)
    assert horizon(p, ED) == 2 * (4 * 2 + 2) + 2 + 1


def test_merge_units_joins_steps_and_hoists_tokens() -> None:
    from gnomekit.models.hedge_mage.running import Action

    units = [Action("step", "M1", path=((0, 1),)), Action("token"), Action("step", "M1", path=((0, 2),)),
             Action("pickup", "M1", path=((0, 2),))]
    merged = merge_units(units)
    assert [a.kind for a in merged] == ["token", "step", "pickup"]
    assert merged[1].path == ((0, 1), (0, 2))


def test_cli_run_method_encoding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from gnomekit.cli import main

    f = tmp_path / "run.txt"
    f.write_text(run_to_text(pos("""
.M .1 +
.  .  .2
""", hedges="-"), ED))
    code = main(["hedge-mage", "solve", str(f), "--run-method", "encoding", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["method"] == "encoding" and data["status"] == "optimal"
    code = main(["hedge-mage", "solve", str(f), "--json"])
    ref = json.loads(capsys.readouterr().out)
    assert code == 0 and ref["method"] == "search"
    assert (data["rescued"], data["points"]) == (ref["rescued"], ref["points"]) == (1, 1)
    # the plan is replayed by check: legal, the same value
    code = main(["hedge-mage", "check", str(f), "--plan", " ".join(data["plan"]), "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["legal"] is True


PASS_OVER = """hedge-mage run
size: 1x4
enchantments: planter-enchanter morel-evate gourd-ian
points: 3
tokens: 0
springshroom-tokens: 0
hedges: -

   0  1  2  3
0  .P .p .  +
"""


def test_gnome_passes_over_a_sleeping_gnome_of_its_kind() -> None:
    # the awake pumpkin walks through the sleeping pumpkin's space into the tunnel (legal: `check` accepts
    # p0,0>0,1>0,2>0,3); the encoding finds it
    p = read_run(PASS_OVER, "pass-over", ED)
    res = solve_run_encoding(p, ED)
    assert res.status is Status.OPTIMAL and res.value.rescued == 1
    assert execute_plan(p, ED, res.witness).legal


def test_search_agrees_on_passing_over() -> None:
    p = read_run(PASS_OVER, "pass-over", ED)
    assert solve_run(p, ED).value.rescued == 1


def test_token_spent_early_so_a_bonus_is_not_lost_at_the_cap() -> None:
    # 6 tokens held (the cap).  The flower's rescue gives a movement token: spent lazily it is lost, but a
    # token spent before the rescue makes room for it, and the mushroom needs all 7 to reach the far tunnel
    p = pos("+  .F A  a  .M .  .  .  .  .  .  .  +", points=1, tokens=6)
    res = solve_run_encoding(p, ED)
    assert res.status is Status.OPTIMAL
    assert (res.value.rescued, res.value.tokens) == (2, 7)
    assert res.value.key() == solve_run(p, ED).value.key()


# --- full size: the default 10x10 garden at 1-3 points ----------------------------------------------


def full_size(spec: tuple[str, int, int, int, int]) -> RunPosition:
    """A 10x10 running position: ("setup", seed, 0, points, tokens) from ``new --seed``, ("mid", seed,
    round, points, tokens) from ``random --seed --round``, or ("awake", seed, 0, points, tokens): the setup
    garden with the gnome nearest to a mage awake (so that something can be rescued); no springshroom
    tokens (see docs/solving.md, "The planning encoding": they are out of reach on 10x10)."""
    from dataclasses import replace

    from gnomekit.models.hedge_mage.running import run_position_from_garden
    from gnomekit.models.hedge_mage.setup import new_garden, random_garden

    kind, seed, rnd, points, tokens = spec
    g = random_garden(ED, seed, rnd)[0] if kind == "mid" else new_garden(ED, seed)[0]
    p = run_position_from_garden(g, ED, ED.first_game, points, tokens=tokens, springshroom_tokens=0)
    if kind == "awake":
        def near(i: int) -> int:
            at = p.gnomes[i].at
            return min(abs(at[0] - m[0]) + abs(at[1] - m[1]) for m in p.mages)
        i = min(range(len(p.gnomes)), key=near)
        gnomes = list(p.gnomes)
        gnomes[i] = replace(gnomes[i], awake=True)
        p = settle_position(replace(p, gnomes=tuple(gnomes)), ED)[0]
    return p


FULL = [("setup", 0, 0, 1, 0), ("setup", 0, 0, 2, 0), ("setup", 1, 0, 1, 1), ("setup", 1, 0, 2, 0),
        ("setup", 2, 0, 1, 1), ("setup", 2, 0, 2, 0), ("setup", 3, 0, 1, 0), ("setup", 3, 0, 2, 0),
        ("setup", 3, 0, 1, 1), ("setup", 3, 0, 3, 0), ("setup", 4, 0, 2, 1), ("setup", 5, 0, 1, 0),
        ("setup", 6, 0, 2, 0), ("setup", 7, 0, 1, 1),
        ("mid", 1, 5, 1, 0), ("mid", 1, 5, 2, 0), ("mid", 1, 3, 2, 0), ("mid", 2, 6, 1, 0), ("mid", 2, 4, 1, 1),
        ("mid", 3, 5, 1, 0),
        ("awake", 0, 0, 2, 0), ("awake", 1, 0, 2, 0), ("awake", 2, 0, 2, 0), ("awake", 1, 0, 1, 0),
        ("awake", 5, 0, 1, 1)]
FULL_SAMPLE = [("setup", 3, 0, 1, 0), ("mid", 1, 5, 1, 0), ("awake", 1, 0, 1, 0)]


@pytest.mark.parametrize("spec", FULL_SAMPLE, ids=lambda s: "-".join(map(str, s)))
def test_full_size_encoding_equals_search_sample(spec: tuple[str, int, int, int, int]) -> None:
    check_same_optimum(full_size(spec), f"full/{spec}")


@pytest.mark.slow
@pytest.mark.parametrize("spec", [s for s in FULL if s not in FULL_SAMPLE], ids=lambda s: "-".join(map(str, s)))
def test_full_size_encoding_equals_search(spec: tuple[str, int, int, int, int]) -> None:
    check_same_optimum(full_size(spec), f"full/{spec}")


def test_reach_is_tight_on_a_setup_garden() -> None:
    # seed 3, 1 point, no tokens: nothing can be rescued (no tunnel within the work of any gnome), so no
    # token is winnable: the allowance stays 1, no gnome can step and the horizon is 2 mages x 3
    from gnomekit.solver.hedge_mage.run_encoding import reach

    p = full_size(("setup", 3, 0, 1, 0))
    r = reach(p, ED)
    assert r.amax == 1 and r.place == 0 and not any(r.rescuable)
    assert horizon(p, ED) <= 10
