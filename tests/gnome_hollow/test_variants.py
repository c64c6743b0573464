"""Variant boards (rulebook p. 17, reconstructed): the advanced player board and the Mushroom Trade Board."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.errors import IllegalMoveError, UsageError
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.position import Gnome, PlayerState, Position
from gnomekit.models.gnome_hollow.scoring import GnomeAction, MarkerChoice, Turn, apply_turn
from gnomekit.models.gnome_hollow.setup import new_position, random_position, variant_options
from gnomekit.models.gnome_hollow.shapes import canonical
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnome_hollow.best import Weights, best_turn

from gnomekit.cli import main
from tests.gnome_hollow.brute import brute_best
from tests.gnome_hollow.reference import two_players

ED = default_edition()
ADVANCED = {"board": "advanced"}
TRADING = {"trade_board": "on"}
W_CELL = (0, -1)  # a wildflower beside the Stump links each test ring to the garden


def _tile_for(edges: tuple[int, int], used: set[str]) -> tuple[str, int]:
    """An unused one-path garden tile with a mushroom and an orientation putting its path on ``edges``."""
    for tid, t in ED.tiles.items():
        if tid in used or len(t.paths) != 1 or t.paths[0].mushroom is None:
            continue
        for o in range(12):
            if set(t.oriented_ends(o, 0)) == set(edges):
                used.add(tid)
                return tid, o
    raise AssertionError(edges)


def _ring(cells: list[tuple[int, int]]) -> list[tuple[str, tuple[int, int], int]]:
    """Tiles laying one path around the closed cycle ``cells`` (consecutive cells adjacent)."""
    from gnomekit.models.core.hexgrid import edge_towards

    used: set[str] = set()
    out = []
    for i, c in enumerate(cells):
        a = edge_towards(c, cells[i - 1])
        b = edge_towards(c, cells[(i + 1) % len(cells)])
        assert a is not None and b is not None
        tid, o = _tile_for((a, b), used)
        out.append((tid, c, o))
    return out


# hexagon around (0,-3); triangle and parallelogram with a corner on (0,-2); each touches the wildflower
HEXAGON = [(0, -2), (1, -3), (1, -4), (0, -4), (-1, -3), (-1, -2)]
TRIANGLE = [(0, -2), (1, -3), (2, -4), (1, -4), (0, -4), (0, -3)]
PARALLELOGRAM = [(0, -2), (1, -3), (2, -4), (2, -5), (1, -4), (0, -3)]


def _ring_position(cells: list[tuple[int, int]], options: dict[str, str], rings: tuple[tuple[int, int], ...] = ()
                   ) -> tuple[Position, Placement]:
    tiles = _ring(cells)
    last = tiles[-1]
    garden = [("W1", W_CELL, 0), *tiles[:-1]]
    pos = two_players(garden, offered=(last[0],), gnomes=(Gnome("red", (cells[0], 0)), Gnome("red")),
                      market_tokens=dict(ED.market_tokens), signposts=tuple(ED.signposts),
                      flower_market={"rose": 1, "daisy": 1}, options=options)
    pos = replace(pos, players=(PlayerState("red", rings=rings), PlayerState("blue")))
    assert pos.problems(ED) == [] and pos.warnings(ED) == []
    return pos, Placement(*last)


def test_the_reconstructed_shapes() -> None:
    assert ED.shape_of(HEXAGON) == "hexagon"
    assert ED.shape_of(TRIANGLE) == "triangle"
    assert ED.shape_of(PARALLELOGRAM) == "parallelogram"
    # matched up to shift, turn and mirror; a different set of cells is no shape
    assert ED.shape_of([(q + 5, r - 2) for q, r in TRIANGLE]) == "triangle"
    assert ED.shape_of([(-q, q + r) for q, r in TRIANGLE]) == "triangle"
    assert ED.shape_of([(0, 0), (1, 0), (2, 0), (3, 0), (1, 1), (2, 1)]) is None
    assert len({canonical(c) for c in ED.shapes.values()}) == 3
    # every column but 6 has a single space, for a ring of any shape
    assert [len(c.rows) for c in ED.advanced_columns] == [1, 1, 1, 4, 1]


@pytest.mark.parametrize("cells, shape_row", [(HEXAGON, 2), (TRIANGLE, 3), (PARALLELOGRAM, 4)])
def test_a_shaped_space_takes_only_its_shape(cells: list[tuple[int, int]], shape_row: int) -> None:
    pos, last = _ring_position(cells, ADVANCED)
    nxt, gains, rings = apply_turn(pos, ED, Turn((last,), markers=(MarkerChoice(row=shape_row),)))
    assert rings[0]["size"] == 6
    assert nxt.player("red").rings == ((6, shape_row),)
    for other in {2, 3, 4} - {shape_row}:  # another shape's space is not free for this ring: first free row
        nxt, _g, _r = apply_turn(pos, ED, Turn((last,), markers=(MarkerChoice(row=other),)))
        assert nxt.player("red").rings == ((6, 1),)
    # the standard board has no shapes: the same ring takes any row
    std = replace(pos, options={})
    nxt, _g, _r = apply_turn(std, ED, Turn((last,), markers=(MarkerChoice(row=shape_row),)))
    assert nxt.player("red").rings == ((6, shape_row),)


def test_a_full_any_space_leaves_only_the_shaped_ones() -> None:
    # the "any shape" 6 space is taken: a hexagon still scores (and moves two markers), a triangle too,
    # but with every 6 space taken a ring scores its mushrooms and moves no marker
    pos, last = _ring_position(HEXAGON, ADVANCED, rings=((6, 1),))
    nxt, gains, _ = apply_turn(pos, ED, Turn((last,)))
    assert nxt.player("red").rings == ((6, 1), (6, 2)) and gains.markers == 2
    pos, last = _ring_position(HEXAGON, ADVANCED, rings=((6, 1), (6, 2)))
    nxt, gains, _ = apply_turn(pos, ED, Turn((last,)))
    assert gains.markers == 0 and sum(gains.mushrooms.values()) == 6


@pytest.mark.parametrize("cells", [HEXAGON, TRIANGLE, PARALLELOGRAM])
def test_best_turn_on_the_advanced_board_matches_brute_force(cells: list[tuple[int, int]]) -> None:
    for rings in ((), ((6, 1),), ((6, 1), (3, 1), (4, 1))):
        pos, _last = _ring_position(cells, ADVANCED, rings=rings)
        res = best_turn(pos, ED)
        assert res.status == Status.OPTIMAL and res.stats["verified"] == 1
        assert res.value == pytest.approx(brute_best(pos, ED))
    # the hexagon's space moves two markers: worth more than the any-shape space
    pos, _ = _ring_position(HEXAGON, ADVANCED)
    assert best_turn(pos, ED).witness["turn"].markers[0].row == 2


def _signpost_position(options: dict[str, str], red: dict[str, int]) -> Position:
    pos = two_players([("G01", (0, -1), 2), ("G04", (1, -1), 4)], placed_signposts=(("teal2", ((0, -1), 0)),),
                      gnomes=(Gnome("red"), Gnome("blue")), market_tokens=dict(ED.market_tokens), options=options)
    return replace(pos, players=(PlayerState("red", mushrooms=red), PlayerState("blue")))


def test_trade_after_a_signpost_visit() -> None:
    pos = _signpost_position(TRADING, {})
    visit = GnomeAction(0, "signpost", at=((1, -1), 0), trade=1)  # the rulebook's 1 teal -> 1 purple
    nxt, gains, _ = apply_turn(pos, ED, Turn((), action=visit))
    assert nxt.player("red").mushrooms == {"teal": 1, "purple": 1}
    nxt, gains, _ = apply_turn(pos, ED, Turn((), action=replace(visit, trade=2)))
    assert nxt.player("red").mushrooms == {"teal": 1, "yellow": 2}
    with pytest.raises(IllegalMoveError, match="trade"):
        apply_turn(pos, ED, Turn((), action=replace(visit, trade=3)))
    with pytest.raises(IllegalMoveError, match="trade_board=on"):
        apply_turn(_signpost_position({}, {}), ED, Turn((), action=visit))
    # valuing mushrooms kept, the search visits the signpost and takes the 1 teal -> 2 yellow trade
    res = best_turn(pos, ED, Weights(mushroom=1.0))
    act = res.witness["turn"].action
    assert res.stats["verified"] == 1 and act is not None and (act.kind, act.trade) == ("signpost", 2)
    assert res.value == pytest.approx(3) == brute_best(pos, ED, Weights(mushroom=1.0))
    from gnomekit.solver.gnome_hollow.hint import hint

    assert "and trade 1 teal -> 2 yellow" in hint(pos, ED, Weights(mushroom=1.0)).lines


def test_best_turn_trades_before_selling() -> None:
    # a 5-ring whose bonus places the +2 teal signpost; trading a teal for a purple then completes a
    # purple set at the market - worth more than the teal sale
    from tests.gnome_hollow.test_rings import FIVE

    for options in (TRADING, {}):
        pos = two_players(FIVE, gnomes=(Gnome("red", ((1, -3), 0)), Gnome("red")), offered=("G10",),
                          signposts=("teal2",), market_tokens=dict(ED.market_tokens), options=options)
        pos = replace(pos, players=(PlayerState("red", rings=((5, 2), (5, 3), (5, 4)), mushrooms={"purple": 2}),
                                    PlayerState("blue")))
        res = best_turn(pos, ED)
        assert res.stats["verified"] == 1
        assert res.value == pytest.approx(brute_best(pos, ED))
        if options:
            trading = res.value
            assert res.witness["turn"].markers[0].trade == 1
        else:
            plain = res.value
    assert trading > plain


def test_new_with_variants_is_playable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    opts = variant_options(ED, ["advanced-board", "trade-board"])
    assert opts == {"board": "advanced", "trade_board": "on"}
    with pytest.raises(UsageError, match="unknown variant"):
        variant_options(ED, ["mushroom-board"])
    pos = new_position(ED, 3, 4, options=opts)
    assert pos.problems(ED) == []
    pos = random_position(ED, 5, 6, 2, opts)
    assert pos.problems(ED) == [] and pos.option("board") == "advanced"
    assert main(["hollow", "new", "--variant", "advanced-board", "--variant", "trade-board", "--seed", "3"]) == 0
    f = tmp_path / "v.txt"
    f.write_text(capsys.readouterr().out)
    assert "board=advanced" in f.read_text() and "trade_board=on" in f.read_text()
    assert main(["hollow", "solve", str(f), "--json"]) == 0
    best = json.loads(capsys.readouterr().out)
    assert best["status"] == "optimal" and best["verified"]
    place = [p["notation"] for p in best["placements"]]
    assert main(["hollow", "check", str(f), "--place", *place]) == 0
    assert main(["hollow", "hint", str(f)]) == 0
    assert main(["hollow", "new", "--variant", "nope"]) == 2
