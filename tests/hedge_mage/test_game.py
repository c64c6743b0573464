"""Hedge Mage through the game protocol: gardens and running positions (models/hedge_mage/game.py).

Round trips of both kinds, the garden's moves against ``gnomekit hedge-mage moves``, ``check``
against ``check_placement``, running moves against the rules engine, the API's goals against
the solvers they wrap, and the networkx ground graph against the fast engines.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.errors import IllegalMoveError, NotationError
from gnomekit.models.core.protocol import TERMINAL
from gnomekit.models.hedge_mage.game import GardenPosition, PlacementMove, RunMove, RunningPosition
from gnomekit.models.hedge_mage.notation import placement_to_text
from gnomekit.models.hedge_mage.placement import check_placement, with_held_tokens
from gnomekit.models.hedge_mage.position import ground_components
from gnomekit.models.hedge_mage.running import execute_plan
from gnomekit.models.hedge_mage.running_notation import parse_plan
from gnomekit.models.hedge_mage.setup import random_garden
from gnomekit.solver.hedge_mage.graph import (
    GroundGraph,
    check_placement_networkx,
    enumerate_all_networkx,
    ground_components_networkx,
)
from gnomekit.solver.hedge_mage.placements import enumerate_all

import gnomekit
from gnomekit.cli import main

G = gnomekit.game("hedge-mage")
ED = G.edition
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["hedge-mage", *args])
    return code, out.getvalue()


def _garden(seed: int, rounds: int) -> GardenPosition:
    pos = G.random(seed, rounds=rounds)
    assert isinstance(pos, GardenPosition)
    return pos


def _run(seed: int, points: int = 3, rounds: int = 4) -> RunningPosition:
    pos = G.random(seed, rounds=rounds, points=points)
    assert isinstance(pos, RunningPosition)
    return pos


# ---------------------------------------------------------------------------------------------
# gardens


def test_game_names_and_editions(tmp_path: Path) -> None:
    assert (G.name, G.title) == ("hedge-mage", "Hedge Mage")
    assert gnomekit.game("hedge", G.edition).edition is G.edition
    box = gnomekit.game("hedge-mage", EXAMPLES / "mybox.toml")
    assert box.edition.name != ED.name and box.new().game is box
    with pytest.raises(TypeError):
        gnomekit.game("hedge-mage", 42)


@pytest.mark.parametrize("seed,rounds", [(0, 0), (1, 3), (2, 6), (5, 9)])
def test_garden_round_trips(seed: int, rounds: int) -> None:
    pos = _garden(seed, rounds)
    assert G.read(pos.to_text()) == pos
    assert G.read(json.dumps(pos.to_json())) == pos
    assert hash(G.read(pos.to_text())) == hash(pos)
    assert pos.garden.round == rounds + 1
    assert repr(pos).splitlines()[1] == "hedge-mage garden"


def test_new_mirrors_the_cli(tmp_path: Path) -> None:
    code, out = _cli("new", "--seed", "4")
    assert code == 0 and G.read(out) == G.new(seed=4)
    code, out = _cli("random", "--seed", "4", "--round", "5")
    assert code == 0 and G.read(out) == G.random(4, rounds=5)
    ench = "planter-enchanter,morel-evate,pump-kin"
    code, out = _cli("new", "--seed", "2", "--enchantments", ench)
    assert G.read(out) == G.new(seed=2, enchantments=ench.split(","))


@pytest.mark.parametrize("seed,rounds", [(0, 0), (3, 2), (7, 5), (11, 8)])
def test_legal_moves_are_what_moves_lists(seed: int, rounds: int, tmp_path: Path) -> None:
    """``legal_moves`` = ``moves --tile REGULAR,SUBSTITUTE`` (the tiles the owner may place now), in order."""
    pos = _garden(seed, rounds)
    f = tmp_path / "g.txt"
    f.write_text(pos.to_text())
    tiles = pos.tiles()
    assert tiles and tiles[0] == pos.garden.tile
    code, out = _cli("moves", str(f), "--tile", ",".join(tiles), "--json")
    listed = [m["cells"] for m in json.loads(out)["placements"]]
    moves = pos.legal_moves()
    assert [[list(c) for c in m.cells] for m in moves] == listed
    code, out = _cli("moves", str(f), "--json")  # the regular tile alone: the first part of the list
    regular = json.loads(out)["placements"]
    assert [(m.tile, [list(c) for c in m.cells], list(m.sigil)) for m in moves[:len(regular)]] == [
        (p["tile"], p["cells"], p["sigil"]) for p in regular]
    assert all(str(m) == placement_to_text(m.placement, ED) for m in moves)


@pytest.mark.parametrize("seed", range(6))
def test_check_is_check_placement(seed: int) -> None:
    """Report = check_placement (held tokens placed as the CLI's check places them), listed or not."""
    pos = _garden(seed, 3 + seed)
    rng = random.Random(seed)
    legal = set(pos.legal_moves())
    tried = 0
    for tile in ED.tiles:
        for o in ED.tiles[tile].orientations:
            r, c = rng.randrange(-1, pos.garden.rows + 1), rng.randrange(pos.garden.cols)
            text = f"{tile}:{['R0', 'R90', 'R180', 'R270', 'F0', 'F90', 'F180', 'F270'][o.index]}@{r},{c}"
            mv = pos.parse_move(text)
            rep = pos.check(text)
            want = check_placement(pos.garden, ED, with_held_tokens(pos.garden, mv.placement))
            assert rep.violations == tuple(want.violations)
            assert rep.detail.movement_points == want.movement_points
            assert rep.legal == (mv in legal)
            tried += 1
    assert tried > 20


def test_apply_places_the_tile_and_ends_the_round() -> None:
    pos = _garden(2, 2)
    mv = pos.legal_moves()[-1]
    after = pos.apply(mv)
    assert isinstance(after, GardenPosition)
    assert len(after.garden.hedges) == len(pos.garden.hedges) + 1
    assert after.garden.tile is None and after.is_terminal()
    assert after.current_player() == TERMINAL and after.result() == "building over: the tile is placed"
    assert pos.current_player() == 0 and pos.result() is None
    assert not after.check(mv).legal and after.check(mv).violations[0].rule == "no-tile"
    assert after.scores() == {"owner": float(ED.running.garden_gnome_points * len(after.garden.gnomes))}
    with pytest.raises(IllegalMoveError) as exc:
        after.apply(mv)
    assert exc.value.violations == after.check(mv).violations


def test_substitution_and_held_tokens() -> None:
    pos = G.read((EXAMPLES / "small.txt").read_text())
    assert isinstance(pos, GardenPosition)
    assert pos.tiles() == [pos.garden.tile, ED.substitute]
    d2 = [m for m in pos.legal_moves() if m.tile == ED.substitute]
    assert d2, "the substitution is listed"
    after = pos.apply(d2[0])
    assert isinstance(after, GardenPosition) and after.garden.substitution_used
    if pos.garden.held_bonus_sigils:
        assert len(after.garden.bonus_sigils) > len(pos.garden.bonus_sigils)
    # a JSON placement naming where the tokens go reads back as itself
    mv = d2[0]
    other = PlacementMove.of(replace(mv.placement, tokens=(mv.cells[-1],)) if mv.cells[-1] != mv.sigil
                             else replace(mv.placement, tokens=(mv.cells[0],)), ED)
    assert pos.parse_move(str(other)) == other


def test_move_notation_errors_are_located() -> None:
    pos = G.new()
    with pytest.raises(NotationError):
        pos.parse_move("T9:R0@0,5")
    with pytest.raises(NotationError):
        G.parse_move("M1>")
    assert isinstance(G.parse_move("T4:R0@0,5"), PlacementMove)
    assert isinstance(G.parse_move("M1>0,1"), RunMove)


def test_show_prints_what_reads_back(tmp_path: Path) -> None:
    """Also with warnings (now comment lines) and for a running position."""
    for name in ("square.txt", "small.txt", "tiny-run.txt"):
        code, out = _cli("show", str(EXAMPLES / name))
        assert code == 0
        assert G.read(out) == G.read((EXAMPLES / name).read_text())
    code, out = _cli("show", str(EXAMPLES / "square.txt"))
    assert "# warnings" in out


# ---------------------------------------------------------------------------------------------
# running positions


def test_running_round_trips_and_mirrors_to_run(tmp_path: Path) -> None:
    g = _garden(3, 4)
    f = tmp_path / "g.txt"
    f.write_text(g.to_text())
    code, out = _cli("to-run", str(f), "--points", "3")
    run = G.read(out)
    assert isinstance(run, RunningPosition) and run == g.to_run(3) == _run(3)
    assert G.read(run.to_text()) == run and G.read(json.dumps(run.to_json())) == run
    assert repr(run).splitlines()[1] == "hedge-mage run"
    assert run.current_player() == 0 and run.scores()["runner"] >= 0


@pytest.mark.parametrize("seed", range(4))
def test_running_moves_are_legal_and_match_the_engine(seed: int) -> None:
    """Every listed running move passes check; apply = the rules engine's plan execution; notation round-trips."""
    run = _run(seed, points=2)
    rng = random.Random(seed)
    for _ in range(5):
        moves = run.legal_moves()
        if not moves:
            assert run.is_terminal() and run.current_player() == TERMINAL and run.result()
            break
        assert len(set(moves)) == len(moves)
        for m in rng.sample(moves, min(15, len(moves))):
            assert run.parse_move(str(m)) == m
            assert run.check(m).legal, run.check(m)
        m = rng.choice(moves)
        rep = execute_plan(run.run, ED, parse_plan(str(m), ED))
        nxt = run.apply(m)
        assert isinstance(nxt, RunningPosition) and nxt.run == rep.final and nxt.run.transit is None
        assert G.read(nxt.to_text()) == nxt
        run = nxt


def test_pass_through_is_one_move() -> None:
    """A mage stepping onto a gnome's space must go on: the chain (step, free pick-up) is one move."""
    run = G.read((EXAMPLES / "tiny-run.txt").read_text())
    assert isinstance(run, RunningPosition)
    rep = run.check("M1>0,1>0,2")
    assert not rep.legal and rep.violations[0].rule == "occupied-end"
    chain = run.check("M1>0,1>0,2 M1+0,2")
    assert chain.legal
    after = run.apply("M1>0,1>0,2 M1+0,2")
    assert isinstance(after, RunningPosition) and after.run.carried(0) is not None
    assert not run.check("M1>9,9").legal
    with pytest.raises(IllegalMoveError):
        run.apply("M1>9,9")


def test_solve_run_plan_replays_as_moves() -> None:
    run = G.read((EXAMPLES / "tiny-run.txt").read_text())
    res = gnomekit.solve(run)
    assert res.status == gnomekit.Status.OPTIMAL
    pos = run
    for m in res.witness:
        pos = pos.apply(m)
    assert isinstance(pos, RunningPosition)
    assert pos.run.total_rescued() - run.run.total_rescued() == res.value.rescued
    assert gnomekit.hint(run).move == res.witness[0]


def test_running_budget_gives_unknown_with_a_bound() -> None:
    run = _run(3, points=4)
    res = gnomekit.solve(run, budget=50)
    assert res.status == gnomekit.Status.UNKNOWN and res.bound is not None and res.witness is not None
    pos = run
    for m in res.witness:
        pos = pos.apply(m)


# ---------------------------------------------------------------------------------------------
# the API's goals


def test_goals_and_garden_answers() -> None:
    goals = gnomekit.goals("hedge-mage")
    assert {"placements", "points", "block", "plan", "connected", "run"} <= set(goals)
    pos = G.read((EXAMPLES / "small.txt").read_text())
    assert isinstance(pos, GardenPosition)
    for method in ("enumerate", "sat", "networkx"):
        res = gnomekit.solve(pos, "placements", method=method)
        assert res.witness == pos.legal_moves() and res.value == len(pos.legal_moves())
    pts = gnomekit.solve(pos)  # default goal: points
    assert pts.status == gnomekit.Status.OPTIMAL and pos.check(pts.witness).legal
    assert pts.value == pts.stats["choice"].best.points
    assert gnomekit.solve(pos, "points", method="enumerate").value == pts.value
    blk = gnomekit.solve(pos, "block")
    assert pos.check(blk.witness).legal
    assert gnomekit.solve(pos, "connected", method="networkx").value is True
    plan = gnomekit.solve(pos, "plan", tiles=[pos.garden.tile])
    assert plan.status == gnomekit.Status.SATISFIED and pos.check(plan.witness[0]).legal
    h = gnomekit.hint(pos)
    assert h.move is not None and pos.check(h.move).legal and h.why
    with pytest.raises(gnomekit.GnomekitError, match="no method"):
        gnomekit.solve(pos, "points", method="networkx")
    with pytest.raises(gnomekit.GnomekitError, match="needs tiles"):
        gnomekit.solve(pos, "plan")
    with pytest.raises(gnomekit.GnomekitError) as exc:
        gnomekit.hint(pos, alternatives=-1)
    assert "--" not in str(exc.value)


# ---------------------------------------------------------------------------------------------
# networkx: the same answers as the fast engines


def _gardens(n: int) -> list[tuple[int, int]]:
    return [(seed, seed % 10) for seed in range(n)]


@pytest.mark.parametrize("seed,rounds", _gardens(12))
def test_networkx_moves_equal_enumeration(seed: int, rounds: int) -> None:
    g, _ = random_garden(ED, seed, rounds)
    tiles = [g.tile] if g.tile is not None else ["N5"]
    fast = enumerate_all(g, ED, tiles + ["D2"])
    graph = enumerate_all_networkx(g, ED, tiles + ["D2"])
    assert [(x.tile, [p.key for p in x.placements], x.points) for x in fast] == \
        [(x.tile, [p.key for p in x.placements], x.points) for x in graph]


@pytest.mark.slow
@pytest.mark.parametrize("seed,rounds", _gardens(120))
def test_networkx_moves_equal_enumeration_every_tile(seed: int, rounds: int) -> None:
    g, _ = random_garden(ED, seed, rounds)
    fast = enumerate_all(g, ED, list(ED.tiles))
    graph = enumerate_all_networkx(g, ED, list(ED.tiles))
    assert [(x.tile, [p.key for p in x.placements], x.points) for x in fast] == \
        [(x.tile, [p.key for p in x.placements], x.points) for x in graph]


@pytest.mark.parametrize("seed", range(10))
def test_networkx_components_and_check_equal_the_flood_fill(seed: int) -> None:
    """Components of the ground with random extra hedge cells, and check's cut-off reports, agree."""
    g, _ = random_garden(ED, seed, 6)
    rng = random.Random(seed)
    free = sorted(g.ground_cells())
    for _ in range(15):
        extra = set(rng.sample(free, rng.randrange(0, 30)))
        hedge = set(g.hedge_cells) | extra
        assert ground_components_networkx(g.rows, g.cols, hedge) == ground_components(g.rows, g.cols, hedge)
        assert GroundGraph(g).connected_components(extra) == ground_components(g.rows, g.cols, hedge)
        assert GroundGraph(g).is_connected(extra) == (len(ground_components(g.rows, g.cols, hedge)) <= 1)
    pos = G.garden(g)
    for tile in ("N5", "I4", "T4"):
        for o in ED.tiles[tile].orientations:
            r, c = rng.randrange(g.rows), rng.randrange(g.cols)
            p = pos.parse_move(f"{tile}:{o.index}@{r},{c}").placement
            assert check_placement_networkx(g, ED, p).violations == check_placement(g, ED, p).violations


def test_cli_method_networkx_answers_as_the_default(tmp_path: Path) -> None:
    for seed in range(3):
        f = tmp_path / f"g{seed}.txt"
        f.write_text(_garden(seed, 4 + seed).to_text())
        base = json.loads(_cli("moves", str(f), "--json")[1])
        graph = json.loads(_cli("moves", str(f), "--json", "--method", "networkx")[1])
        assert graph.pop("method") == "networkx" and base.pop("method") == "enumerate"
        assert graph == base
        for place in ("N5:R0@0,0", "T4:R90@5,5", "I4:R0@4,3"):
            a = _cli("check", str(f), "--place", place, "--any-tile", "--json")
            b = _cli("check", str(f), "--place", place, "--any-tile", "--json", "--method", "networkx")
            assert a == b
