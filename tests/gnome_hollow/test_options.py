"""The open readings of the rulebook as position options (docs/rules/gnome-hollow.md, "Rule options").

Each option is shown to change an answer on a concrete position, with the default as before; the
options round-trip in text and JSON and reach every verb through the position.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.errors import IllegalMoveError, NotationError, UsageError
from gnomekit.models.core.hexgrid import neighbour, opposite
from gnomekit.models.core.protocol import CHANCE
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.graph import garden_graph
from gnomekit.models.gnome_hollow.networks import Networks, replay
from gnomekit.models.gnome_hollow.notation import (
    position_from_json,
    position_from_text,
    position_to_json,
    position_to_text,
)
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence
from gnomekit.models.gnome_hollow.position import Gnome, Placed, PlayerState, Position
from gnomekit.models.gnome_hollow.scoring import GnomeAction, Turn, apply_turn
from gnomekit.models.gnome_hollow.setup import rule_option, variant_options
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnome_hollow.best import best_turn
from gnomekit.solver.gnome_hollow.close import close_by_sat
from gnomekit.solver.gnome_hollow.market import solve_market

import gnomekit
from gnomekit.cli import main
from tests.gnome_hollow.reference import random_garden, two_players

ED = default_edition()
N, NE = neighbour((0, 0), 0), neighbour((0, 0), 1)  # the Stump's path 0 joins its edges 0 and 1


def _one_path_tile(ends: set[int]) -> tuple[str, int]:
    """A one-path garden tile and an orientation putting its path on ``ends``."""
    for tid, t in ED.tiles.items():
        if len(t.paths) == 1:
            for o in range(12):
                if set(t.oriented_ends(o, 0)) == ends:
                    return tid, o
    raise AssertionError(ends)


# -- (1) claim: one gnome per network (default) or any unoccupied path ------------------------------
def _claim_position(options: dict[str, str]) -> Position:
    """Red's gnome on the Stump's path 0; a garden tile north of the Stump continues that network."""
    tid, o = _one_path_tile({opposite(0), 0})  # straight through the north cell, touching the Stump
    return two_players([(tid, N, o)], to_move=1, gnomes=(Gnome("red", ((0, 0), 0)), Gnome("red"), Gnome("blue"),
                                                         Gnome("blue")), options=options)


def test_claim_network_refuses_a_second_gnome_and_claim_path_allows_it() -> None:
    claim = Turn((), action=GnomeAction(0, "claim", at=(N, 0)))
    with pytest.raises(IllegalMoveError, match="already holds a gnome"):
        apply_turn(_claim_position({}), ED, claim)
    after, _, _ = apply_turn(_claim_position({"claim": "path"}), ED, claim)
    assert [g.at for g in after.gnomes if g.player == "blue"] == [None, (N, 0)]
    assert after.warnings(ED) == []  # two gnomes on one network is no breach under claim=path
    # still not a path another gnome stands on
    with pytest.raises(IllegalMoveError, match="another gnome stands on that path"):
        apply_turn(_claim_position({"claim": "path"}), ED, Turn((), action=GnomeAction(0, "claim", at=((0, 0), 0))))


def test_claim_option_changes_the_listed_moves() -> None:
    game = gnomekit.game("gnome-hollow")

    def claims(options: dict[str, str]) -> set[str]:
        pos = game.position(_claim_position(options)).apply("end")  # nothing offered: the gnome action next
        return {pos.move_text(m) for m in pos.legal_moves() if "claim" in pos.move_text(m)}

    default, path = claims({}), claims({"claim": "path"})
    assert "gnome 0 claim 0,-1.0" not in default
    assert "gnome 0 claim 0,-1.0" in path and "gnome 0 claim 0,0.0" not in path
    assert default < path


# -- (2) two adjacent wildflowers: do not join (default) or join --------------------------------
def _wild_position(options: dict[str, str]) -> Position:
    """W1 north of the Stump on one end of the Stump's path 0; W2 (stored) fits north-east, on the other."""
    return two_players([("W1", N, 0)], players=(PlayerState("red", storage=("W2",)), PlayerState("blue")),
                       options=options)


def test_wildflowers_join_makes_a_ring_of_two_wildflowers_and_the_stump() -> None:
    w2 = [Placement("W2", NE, 0)]
    rep = check_sequence(_wild_position({}), ED, w2)
    assert rep.legal and rep.rings == [] and len(rep.trees) == 1  # a closed path, not a ring
    rep = check_sequence(_wild_position({"wildflowers_join": "yes"}), ED, w2)
    assert rep.legal and [r.network.size for r in rep.rings] == [3]
    assert rep.rings[0].network.tiles == tuple(sorted([(0, 0), N, NE]))
    # the networkx method answers the same under the option
    nx_ring = check_sequence(_wild_position({"wildflowers_join": "yes"}), ED, w2, method="networkx").rings[0].network
    uf_ring = rep.rings[0].network
    assert (nx_ring.ring, nx_ring.tiles, nx_ring.paths) == (True, uf_ring.tiles, uf_ring.paths)


@pytest.mark.parametrize("seed", range(6))
def test_wildflowers_join_union_find_agrees_with_networkx(seed: int) -> None:
    seq = random_garden(ED, seed, 40, wild=0.4)[1:]
    pos = two_players(seq, options={"wildflowers_join": "yes"})
    gg = garden_graph(ED, [("S", (0, 0), 0), *seq], wildflowers_join=True)
    assert [c.tiles for c in pos.completed(ED)] == [c.tiles for c in gg.completed]


def test_sat_refuses_wildflowers_join_instead_of_answering_wrongly() -> None:
    with pytest.raises(UsageError, match="wildflowers_join"):
        close_by_sat(_wild_position({"wildflowers_join": "yes"}), ED, ((0, 0), 1))


# -- (3) rings checked after each tile (default) or after the turn's tiles ---------------------------
def _edge_to(a: tuple[int, int], b: tuple[int, int]) -> int:
    return next(e for e in range(6) if neighbour(a, e) == b)


NN = neighbour(N, 0)  # north of W1: touches W1 only
RING_TILE = _one_path_tile({_edge_to(NE, (0, 0)), _edge_to(NE, N)})  # Stump - NE - W1: closes a ring of 3
OPEN_TILE = _one_path_tile({_edge_to(NN, N), opposite(_edge_to(NN, N))})  # from W1 north, left open


def _ring_check_position(options: dict[str, str]) -> Position:
    """W1 north of the Stump on its path 0; offered: a tile north-east closing the ring Stump-tile-W1, and a
    straight tile north of W1 whose far end stays open."""
    assert RING_TILE[0] != OPEN_TILE[0]
    return two_players([("W1", N, 0)], offered=(RING_TILE[0], OPEN_TILE[0]), options=options)


RING_TURN = [Placement(RING_TILE[0], NE, RING_TILE[1]), Placement(OPEN_TILE[0], NN, OPEN_TILE[1])]


def test_ring_check_turn_sees_the_ring_reopened_by_the_second_tile() -> None:
    for method in ("union-find", "networkx"):
        each = check_sequence(_ring_check_position({}), ED, RING_TURN, method=method)
        assert each.legal and [(r.by_tile, r.network.size) for r in each.rings] == [(1, 3)]
        turn = check_sequence(_ring_check_position({"ring_check": "turn"}), ED, RING_TURN, method=method)
        assert turn.legal and turn.rings == [] and turn.trees == []  # W1's network is open again
        # the other order closes nothing under either reading
        for opts in ({}, {"ring_check": "turn"}):
            assert check_sequence(_ring_check_position(opts), ED, RING_TURN[::-1], method=method).rings == []
    # one tile alone closes the ring under both readings (checked after the turn's only tile)
    alone = check_sequence(_ring_check_position({"ring_check": "turn"}), ED, RING_TURN[:1])
    assert [(r.by_tile, r.network.size, r.when) for r in alone.rings] == [(1, 3, "pot")]
    assert alone.to_json(ED) == check_sequence(_ring_check_position({"ring_check": "turn"}), ED, RING_TURN[:1],
                                               method="networkx").to_json(ED)


def test_ring_check_turn_in_apply_turn_and_the_garden_it_leaves() -> None:
    each, _, rings = apply_turn(_ring_check_position({}), ED, Turn(tuple(RING_TURN)))
    assert [r["size"] for r in rings] == [3] and each.player("red").rings == ((3, 1),) and len(each.pots) == 1
    assert [c.size for c in each.completed(ED)] == [3]
    # a turn in progress: the first tile's ring is not checked yet (the protocol's legal moves use this)
    half = _ring_check_position({"ring_check": "turn"}).lay(RING_TURN[:1])
    w1 = half.networks(ED, settled=False)
    assert not w1.is_ring(w1.root_of(((0, 0), 0))) and half.networks(ED).is_ring(w1.root_of(((0, 0), 0)))
    turn, _, rings = apply_turn(_ring_check_position({"ring_check": "turn"}), ED, Turn(tuple(RING_TURN)))
    assert rings == [] and turn.player("red").rings == () and turn.pots == () and turn.completed(ED) == []
    # the garden keeps the turn: the second tile is marked, in text and JSON, and replays the same
    assert [t.same_turn for t in turn.tiles] == [False, False, False, True]
    assert [t.same_turn for t in each.tiles] == [False] * 4
    text = position_to_text(turn, ED)
    assert f"tiles: S@0,0:r0 W1@0,-1 {RING_TURN[0]} +{RING_TURN[1]}" in text
    assert "+" not in position_to_text(each, ED).split("tiles: ")[1].split("\n")[0]
    for back in (position_from_text(text, "<t>", ED), position_from_json(json.dumps(position_to_json(turn, ED)),
                                                                           "<j>", ED)):
        assert back == turn and back.completed(ED) == []
        assert back.networks(ED).open_ends(back.networks(ED).root_of((NN, 0))) == 1  # W1's network: open
    assert position_to_json(turn, ED)["tiles"][3] == {"tile": OPEN_TILE[0], "cell": list(NN),
                                                     "orientation": OPEN_TILE[1], "same_turn": True}
    assert "same_turn" not in json.dumps(position_to_json(each, ED))


def test_show_follows_ring_check_by_both_methods(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rings = {}
    for name, opts in (("each-tile", {}), ("turn", {"ring_check": "turn"})):
        after = apply_turn(_ring_check_position(opts), ED, Turn(tuple(RING_TURN)))[0]
        path = tmp_path / f"{name}.txt"
        path.write_text(position_to_text(after, ED))
        for method in ("union-find", "networkx"):
            assert main(["gnome-hollow", "show", str(path), "--method", method, "--json"]) == 0
            rings[name, method] = json.loads(capsys.readouterr().out)["rings"]
    assert rings["each-tile", "union-find"] == rings["each-tile", "networkx"] != []
    assert rings["turn", "union-find"] == rings["turn", "networkx"] == []


def test_ring_check_in_the_protocol() -> None:
    game = gnomekit.game("gnome-hollow")
    asked = {}
    for name, opts in (("each-tile", {}), ("turn", {"ring_check": "turn"})):
        pos = game.position(_ring_check_position(opts))
        for p in RING_TURN:
            pos = pos.apply(pos.move_text(p))
        asked[name] = [pos.move_text(m) for m in pos.apply("end").legal_moves()]
    assert asked["each-tile"][0] == "marker 3.1"  # the ring's marker, then the gnome action
    assert asked["turn"] == ["pass"]  # no ring: straight to the gnome action (no gnome in the garden)


def test_ring_check_turn_union_find_agrees_with_networkx() -> None:
    """Random gardens cut into turns (a tile that closes a ring shares its turn with the next tile):
    both methods close the same networks, and on some gardens the reading changes the rings."""
    changed = 0
    for s in range(18):
        seq = random_garden(ED, s, 30, wild=1.0)
        nets, same_turn, prev = Networks(ED), [False], False
        for i, (t, c, o) in enumerate(seq):
            ring = any(n.ring for n in nets.place(ED.tile(t), c, o))
            if i:
                same_turn.append(prev and not same_turn[-1])
            prev = ring
        uf, closed = replay(ED, seq, same_turn=same_turn)
        gg = garden_graph(ED, seq, same_turn=same_turn)
        assert [(c.ring, c.tiles, c.paths) for c in gg.closed] == [(c.ring, c.tiles, c.paths) for c in closed]
        for key in uf.path_elem:
            assert gg.is_ring(key) == uf.is_ring(uf.root_of(key))
        # the same garden as a position: its tiles line carries the turns
        pos = two_players([("S", (0, 0), 0)][1:], options={"ring_check": "turn"})
        pos = replace(pos, tiles=tuple(Placed(t, c, o, st) for (t, c, o), st in zip(seq, same_turn, strict=True)))
        assert [x.tiles for x in pos.completed(ED)] == [x.tiles for x in closed if x.ring]
        assert position_from_text(position_to_text(pos, ED), "<t>", ED) == pos
        changed += [x.tiles for x in closed if x.ring] != [x.tiles for x in replay(ED, seq)[1] if x.ring]
    assert changed >= 2  # seeds 12 and 16: a tile laid against a wildflower of the ring just closed


def test_ring_check_marks_need_the_option_and_the_searches_refuse_it() -> None:
    pos = apply_turn(_ring_check_position({"ring_check": "turn"}), ED, Turn(tuple(RING_TURN)))[0]
    assert replace(pos, options={}).problems(ED) == ["tiles marked as laid in the same turn (+) need option "
                                                     "ring_check=turn"]
    bad = position_to_json(pos, ED)
    bad["tiles"][3]["same_turn"] = "yes"
    with pytest.raises(NotationError, match="expected true or false"):
        position_from_json(json.dumps(bad), "<j>", ED)
    assert replace(pos, tiles=(replace(pos.tiles[0], same_turn=True), *pos.tiles[1:])).problems(ED) == [
        "the first tile must be the Stump at 0,0 in orientation 0 (S@0,0)"]  # "+S@0,0": no tile before it
    with pytest.raises(UsageError, match="ring_check=turn"):
        best_turn(_ring_check_position({"ring_check": "turn"}), ED)
    with pytest.raises(UsageError, match="ring_check=turn"):
        close_by_sat(_ring_check_position({"ring_check": "turn"}), ED, ((0, 0), 0))
    with pytest.raises(UsageError, match="ring_check=turn"):
        gnomekit.solve(gnomekit.game("gnome-hollow").position(_ring_check_position({"ring_check": "turn"})),
                       "close", network="0,0.0")


# -- (4) fewer than two offered tiles fit: place fewer (default) or the end is triggered -----------
def _stuck_position(options: dict[str, str]) -> Position:
    """Three players; blue's and green's gnomes claim all three Stump paths, so red (to move) can lay
    no garden tile without permission."""
    players = (PlayerState("red"), PlayerState("blue"), PlayerState("green"))
    gnomes = (Gnome("red"), Gnome("red"), Gnome("blue", ((0, 0), 0)), Gnome("blue", ((0, 0), 1)),
              Gnome("green", ((0, 0), 2)), Gnome("green"))
    return Position(players=players, gnomes=gnomes, offered=("G01", "G02", "G03", "G04", "G05", "G06", "G07", "G08"),
                    bag=("G09", "G10", "G11"), options=options)


def test_stuck_tiles_end_game_triggers_the_end() -> None:
    default, _, _ = apply_turn(_stuck_position({}), ED, Turn(()))
    assert default.phase == "play" and default.to_move == 1
    ended, _, _ = apply_turn(_stuck_position({"stuck_tiles": "end-game"}), ED, Turn(()))
    assert ended.phase == "end-triggered" and ended.to_move == 1
    assert ended.bag == tuple(sorted(("G09", "G10", "G11")))  # no Sunset tiles here to add
    # a turn that could place two is unaffected by the option
    assert apply_turn(two_players(offered=("G01", "G02"), options={"stuck_tiles": "end-game"}), ED,
                      Turn(()))[0].phase == "play"


def test_stuck_tiles_in_the_protocol() -> None:
    game = gnomekit.game("gnome-hollow")
    for options, phase in (({}, "play"), ({"stuck_tiles": "end-game"}, "end-triggered")):
        pos = game.position(_stuck_position(options))
        assert [pos.move_text(m) for m in pos.legal_moves()] == ["end"]  # nothing fits without permission
        pos = pos.apply("end").apply("pass")
        while pos.current_player() == CHANCE:  # the refill draws nothing: nothing was placed
            pos = pos.apply(pos.legal_moves()[0])
        assert pos.start.phase == phase and pos.start.to_move == 1


# -- (5) treasure supply: unlimited (default) or the box's tokens ---------------------------------
def _market_position(options: dict[str, str]) -> Position:
    """Red sells 7 red mushrooms (7 points); blue holds every treasure token of the box but 2 bottle caps."""
    box = {k: count for k, (_v, count) in ED.treasures.items()}
    box["bottlecap"] -= 2
    return two_players(players=(PlayerState("red", mushrooms={"red": 7}), PlayerState("blue", treasures=box)),
                       gnomes=(Gnome("red"), Gnome("red"), Gnome("blue"), Gnome("blue")),
                       market_tokens=dict(ED.market_tokens), options=options)


def test_treasure_supply_box_pays_only_what_is_left() -> None:
    sell = Turn((), action=GnomeAction(0, "market", sales=(("red", 7),)))
    after, gains, _ = apply_turn(_market_position({}), ED, sell)
    assert gains.treasure_points == 7 and after.player("red").treasures == {"crystal": 1, "button": 1}
    after, gains, _ = apply_turn(_market_position({"treasure_supply": "box"}), ED, sell)
    assert gains.treasure_points == 2 and after.player("red").treasures == {"bottlecap": 2}


def test_treasure_supply_reaches_the_solvers() -> None:
    assert solve_market(_market_position({}), ED).value == 7
    box = _market_position({"treasure_supply": "box"})
    res = solve_market(box, ED)
    assert res.value == 2 and res.witness["treasure"] == {"bottlecap": 2}
    # the best turn (two tiles to lay first, then the market) is valued by what the sale pays
    assert best_turn(replace(_market_position({}), offered=("G01", "G02")), ED).value == 7
    best = best_turn(replace(box, offered=("G01", "G02")), ED)
    assert best.status == Status.OPTIMAL and best.value == 2 and best.stats["verified"] == 1  # replayed: same value


# -- carrying the options -------------------------------------------------------------------------
def test_rule_options_round_trip_and_are_checked() -> None:
    opts = {"claim": "path", "wildflowers_join": "yes", "stuck_tiles": "end-game", "treasure_supply": "box"}
    pos = two_players(options=opts)
    assert position_from_text(position_to_text(pos, ED), "<t>", ED).options == opts
    assert position_from_json(json.dumps(position_to_json(pos, ED)), "<j>", ED).options == opts
    assert variant_options(ED, ["claim=path", "trade-board"]) == {"claim": "path", "trade_board": "on"}
    assert rule_option("wildflowers-join=yes") == ("wildflowers_join", "yes")
    with pytest.raises(UsageError, match="must be one of network, path"):
        rule_option("claim=everything")
    with pytest.raises(UsageError, match="unknown rule"):
        rule_option("gnomes=3")
    assert two_players(options={"claim": "all"}).problems(ED) == \
        ["option claim must be one of network, path, not 'all'"]


def test_cli_rule_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gnome-hollow", "new", "--rule", "claim=path", "--rule", "treasure_supply=box"]) == 0
    assert "options: claim=path treasure_supply=box" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["gnome-hollow", "random", "--seed", "1", "--rule", "claim=nope"])
    assert exc.value.code == 2
    assert "argument --rule: rule claim must be one of network, path" in capsys.readouterr().err


def test_show_by_networkx_follows_wildflowers_join(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``show --method networkx`` builds its graph with the position's wildflowers_join option too: with W2
    laid beside W1 the two join into a ring under ``yes``, by both methods, and into none under ``no``."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "hollow-wildflowers-join.txt").read_text()
    text = text.replace("tiles: S@0,0:r0 W1@0,-1", "tiles: S@0,0:r0 W1@0,-1 W2@1,-1").replace(
        "  storage: W2", "  storage: -")  # red's stored W2, laid
    rings = {}
    for join in ("yes", "no"):
        path = tmp_path / f"{join}.txt"
        path.write_text(text.replace("wildflowers_join=yes", f"wildflowers_join={join}"))
        for method in ("union-find", "networkx"):
            assert main(["gnome-hollow", "show", str(path), "--method", method, "--json"]) == 0
            rings[join, method] = json.loads(capsys.readouterr().out)["rings"]
    assert rings["yes", "union-find"] == rings["yes", "networkx"] != []
    assert rings["no", "union-find"] == rings["no", "networkx"] == []
