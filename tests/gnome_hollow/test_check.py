"""``check``: permission, gnome joins, supply, and who collects a ring; the CLI contract."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.notation import position_to_json, position_to_text
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence
from gnomekit.models.gnome_hollow.position import Gnome, Position
from gnomekit.models.gnome_hollow.setup import new_position

from gnomekit.cli import main
from tests.gnome_hollow.reference import two_players

ED = default_edition()
COLOURS = {"red", "yellow", "pink", "teal", "purple"}


def claimed(to_move: int = 1, **kw: Any) -> Position:
    """Red's gnome on the Stump's north path (0,0).0; blue's on its south-east path (0,0).1."""
    gnomes = (Gnome("red", ((0, 0), 0)), Gnome("blue", ((0, 0), 1)))
    return two_players([], gnomes=gnomes, to_move=to_move, offered=("G01", "G04", "G07"), **kw)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["gnome-hollow", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def write(tmp_path: Path, pos: Position, as_json: bool = False) -> str:
    p = tmp_path / ("pos.json" if as_json else "pos.txt")
    p.write_text(json.dumps(position_to_json(pos, ED)) if as_json else position_to_text(pos, ED))
    return str(p)


def test_extending_a_rivals_claim_needs_permission() -> None:
    pos = claimed()
    seq = [Placement("G01", (0, -1), 2), Placement("G04", (1, -1), 4)]
    rep = check_sequence(pos, ED, seq)
    assert not rep.legal
    assert rep.needs_permission == ["red"]
    assert any("needs permission from red" in r for r in rep.reasons)
    js = rep.to_json(ED)
    assert js["rings"] == [] and js["rings_if_placed"][0]["size"] == 3
    rep = check_sequence(pos, ED, seq, permits=("red",))
    assert rep.legal
    ring = rep.rings[0]
    assert ring.claimed_by == "red" and ring.when == "next-turn" and ring.collector == "red"


def test_own_claim_collects_now_and_unclaimed_goes_to_a_pot() -> None:
    pos = claimed(to_move=0)
    rep = check_sequence(pos, ED, [Placement("G01", (0, -1), 2), Placement("G04", (1, -1), 4)])
    assert rep.legal and rep.rings[0].when == "now" and rep.rings[0].collector == "red"
    pos = two_players([], offered=("G01", "G04"))
    rep = check_sequence(pos, ED, [Placement("G01", (0, -1), 2), Placement("G04", (1, -1), 4)])
    assert rep.legal and rep.rings[0].when == "pot" and rep.rings[0].marker == "red"


def test_wildflower_needs_no_permission_but_cannot_join_two_claims() -> None:
    pos = claimed(to_move=1)
    pos = Position(**{**pos.__dict__, "players": pos.players})  # same position
    pl = pos.players[1]
    from dataclasses import replace

    pos = replace(pos, players=(pos.players[0], replace(pl, storage=("W1",))))
    rep = check_sequence(pos, ED, [Placement("W1", (1, -1), 0)])
    assert rep.legal, rep.reasons  # touches only red's path: no permission needed
    # (1,0) touches the Stump's edge 2 (blue's path) and edge 1 of (1,-1)... place W at (1,0) after a red tile
    rep = check_sequence(pos, ED, [Placement("G01", (1, -1), 3), Placement("W1", (1, 0), 0)], permits=("red",))
    assert [v.rule for v in rep.tiles[1].violations] == ["two-gnomes"]


def test_joining_two_claimed_networks_is_illegal() -> None:
    pos = claimed(to_move=0)
    rep = check_sequence(pos, ED, [Placement("G01", (1, -1), 3), Placement("G04", (1, 0), 5)])
    assert rep.tiles[0].legal
    rules = [v.rule for v in rep.tiles[1].violations]
    assert "two-gnomes" in rules and "permission" in rules  # also extends blue's claim


def test_supply_rules() -> None:
    pos = two_players([], offered=("G01", "G04", "G07"))
    rep = check_sequence(pos, ED, [Placement("G01", (0, -1), 2), Placement("G04", (1, -1), 4),
                                   Placement("G07", (-1, 0), 0), Placement("G10", (0, 1), 5)])
    third = rep.tiles[2].violations
    assert third[0].rule == "supply" and "only 2 tiles" in third[0].message
    assert [v.rule for v in third[1:]] == ["edges", "edges"]  # grass vs the Stump (edge 2), path vs grass (edge 1)
    assert rep.tiles[3].violations[0].message == "G10 is neither offered nor in red's storage"
    rep = check_sequence(pos, ED, [Placement("G01", (0, -1), 2), Placement("G01", (1, -1), 4)])
    assert rep.tiles[1].violations[0].message == "G01 is placed earlier in this sequence"


def test_every_broken_rule_of_one_tile_is_listed() -> None:
    pos = two_players([], offered=())
    rep = check_sequence(pos, ED, [Placement("G02", (0, -1), 0)])
    assert [v.rule for v in rep.tiles[0].violations] == ["supply", "edges"]
    assert "edge 3 (S) of G02 at 0,-1 is grass but S at 0,0 has a path on its edge 0 (N)" in rep.reasons[1]
    rep = check_sequence(pos, ED, [Placement("G02", (3, 3), 1), Placement("G05", (0, 0), 0)], check_supply=False)
    assert [v.rule for v in rep.tiles[0].violations] == ["not-adjacent"]
    assert [v.rule for v in rep.tiles[1].violations] == ["occupied"]


def test_cli_check_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, claimed())
    code, out, _ = run(capsys, "check", f, "--place", "G01@0,-1:r2", "G04@1,-1:r4", "--json")
    data = json.loads(out)
    assert code == 1 and data["legal"] is False and data["rings"] == []
    assert isinstance(data["reasons"], list) and all(isinstance(r, str) for r in data["reasons"])
    assert any("permission from red" in r for r in data["reasons"])
    code, out, _ = run(capsys, "check", f, "--place", "G01@0,-1:r2", "G04@1,-1:r4", "--permit", "red", "--json")
    data = json.loads(out)
    assert code == 0 and data["legal"] is True and data["reasons"] == []
    assert len(data["rings"]) == 1
    ring = data["rings"][0]
    assert ring["size"] == 3 and set(ring["mushrooms"]) == COLOURS
    code, out, _ = run(capsys, "check", f, "--place", "G01@0,-1:r2", "G04@1,-1:r4", "--permit", "red")
    assert code == 0 and "ring 1" in out and "red" in out


def test_cli_verbs_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "--seed", "4", "--json")
    assert code == 0 and json.loads(out)["game"] == "gnome-hollow"
    f = tmp_path / "a.json"
    f.write_text(out)
    code, out2, _ = run(capsys, "show", str(f), "--json")
    assert code == 0 and json.loads(out2)["offered"] == json.loads(out)["offered"]
    code, out, _ = run(capsys, "moves", str(f), "--count", "--json")
    data = json.loads(out)
    assert code == 0 and data["count"] == sum(data["per_tile"].values()) > 0
    code, out, err = run(capsys, "check", str(f), "--place", "G01@0,-1:q9")
    assert code == 2 and "--place:1:" in err
    bad = tmp_path / "bad.txt"
    bad.write_text(position_to_text(new_position(ED, 2, 0), ED).replace("  gnomes: - -", "  gnomes: 9,9.0 -", 1))
    code, out, err = run(capsys, "show", str(bad))
    assert code == 2 and "bad.txt" in err and "no such path" in err
    code, out, err = run(capsys, "show", str(tmp_path / "missing.txt"))
    assert code == 2
    code, out, err = run(capsys, "random", "--seed", "2", "--turns", "3")
    assert code == 0 and out.startswith("gnome-hollow position")


def test_moves_match_check(tmp_path: Path) -> None:
    pos = new_position(ED, 2, 5)
    from gnomekit.models.gnome_hollow.placement import legal_placements

    tile = pos.offered[0]
    legal = {(p.cell, p.orientation) for p in legal_placements(pos, ED, tile, distinct=False)}
    cells = {(q, r) for q in range(-2, 3) for r in range(-2, 3)}
    for c in cells:
        for o in range(12):
            rep = check_sequence(pos, ED, [Placement(tile, c, o)])
            assert rep.legal == ((c, o) in legal)


def test_cli_solve_close_market_and_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.gnome_hollow.test_rings import FIVE

    pos = two_players(FIVE, offered=("G10", "G02"),
                      gnomes=(Gnome("red", ((1, -3), 0)), Gnome("red")))
    f = write(tmp_path, pos, as_json=True)
    code, out, _ = run(capsys, "solve", f, "--close", "1,-3.0", "--json")
    data = json.loads(out)
    assert code == 0 and data["closable"] is True and data["placements"][0]["notation"] == "G10@2,-4:r4"
    code, out, _ = run(capsys, "solve", f, "--close", "1,-3.0", "--method", "sat")
    assert code == 0 and out.startswith("yes: G10@2,-4:r4")
    code, out, err = run(capsys, "solve", f, "--close", "1,-3")
    assert code == 2 and "Q,R.K" in err
    code, out, _ = run(capsys, "solve", f, "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal" and data["verified"] is True
    assert data["placements"][0]["notation"] == "G10@2,-4:r4" and data["value"] >= 1
    code, out, _ = run(capsys, "solve", f, "--market", "--json")
    assert code == 1 and json.loads(out)["points"] == 0  # nothing to sell
    code, out, _ = run(capsys, "hint", f)
    assert code == 0 and "closes a ring of 5 tiles" in out
    code, out, err = run(capsys, "solve", f, "--weights", "rings=2")
    assert code == 2
