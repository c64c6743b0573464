"""Write puzzles/gnome-hollow/*.toml with answers from independent methods.

Run: ``python3 -m tests.gnome_hollow.make_puzzles``.  Answers: ``rings`` from the networkx
reference, ``close`` from the exact search (the SAT model must agree), ``best-turn`` from the
exhaustive brute force (tests/gnome_hollow/brute.py), ``market`` from a brute force over all pairs.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.notation import parse_placements, position_to_text
from gnomekit.models.gnome_hollow.position import Gnome, PlayerState, Position
from gnomekit.solver.gnome_hollow.close import close_by_sat, close_by_search

from tests.gnome_hollow.brute import brute_best
from tests.gnome_hollow.reference import reference_legal, reference_rings, two_players
from tests.gnome_hollow.test_close import generated
from tests.gnome_hollow.test_rings import FIVE, SIX, TEN
from tests.gnome_hollow.test_scoring import _brute_best

ED = default_edition()
OUT = Path(__file__).resolve().parents[2] / "puzzles" / "gnome-hollow"


def table(tiles: list[tuple[str, tuple[int, int], int]], **kw: Any) -> Position:
    used = {t for t, _, _ in tiles}
    base = two_players(tiles, signposts=tuple(ED.signposts), market_tokens=dict(ED.market_tokens),
                       wildflower_supply={w: 2 for w in ED.wildflowers if w not in used},
                       flower_market={"rose": 1, "daisy": 1})
    return replace(base, **kw)


def toml_str(s: str) -> str:
    return '"""\n' + s + '"""'


def write(name: str, title: str, about: str, pos: Position, question: dict[str, Any], answer: dict[str, Any],
          verified_by: str) -> None:
    assert pos.problems(ED) == [] and pos.warnings(ED) == [], (name, pos.problems(ED), pos.warnings(ED))
    lines = [f"# Gnome Hollow puzzle: {title}", f'name = "{name}"', f'title = "{title}"',
             f"about = {toml_str(about.strip() + chr(10))}", f"position = {toml_str(position_to_text(pos, ED))}", "",
             "[question]"]
    for k, v in question.items():
        lines.append(f"{k} = {_toml(v)}")
    lines += ["", "[answer]", f"verified_by = {_toml(verified_by)}"]
    for k, v in answer.items():
        lines.append(f"{k} = {_toml(v)}")
    (OUT / f"{name}.toml").write_text("\n".join(lines) + "\n")


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def rings_answer(pos: Position, place: list[str], claims_ok: bool = True) -> dict[str, Any]:
    """Rings by the networkx reference; legality by the geometry reference and, for claims, the rulebook."""
    seq = [(p.tile, p.cell, p.orientation) for p in parse_placements([" ".join(place)])]
    before = [(t.tile, t.cell, t.orientation) for t in pos.tiles]
    legal = reference_legal(ED, before, seq) and claims_ok
    ref = [r for r in reference_rings(ED, before + seq) if r.step >= len(before)]
    rings = [{"size": len(r.tiles), "mushrooms": {c: dict(r.mushrooms).get(c, 0) for c in ED.colours}} for r in ref]
    return {"legal": legal, "rings": rings if legal else []}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    nx = "tests/gnome_hollow/reference.py: networkx path graph rebuilt after every placement, rings by cycle_basis"
    # --- rings -----------------------------------------------------------------------------
    pos = table([], offered=("G01", "G04", "G30", "G31", "G32", "G33", "G34", "G35"))
    place = ["G01@0,-1:r2", "G04@1,-1:r4"]
    write("01-three-tile-ring", "The most basic ring", """
Two sharp tiles beside the Stump's north-east path close the smallest ring: the Stump and two tiles.
""", pos, {"kind": "rings", "place": place}, rings_answer(pos, place), nx)
    pos = table(FIVE[:-1], offered=("G07", "G10", "G30", "G31", "G32", "G33", "G34", "G35"))
    place = ["G07@1,-4:r2", "G10@2,-4:r4"]
    write("02-five-tiles-six-paths", "Five tiles, six paths", """
G92 carries a straight and a sharp path; the ring runs through it twice. Five tiles, six mushrooms.
""", pos, {"kind": "rings", "place": place}, rings_answer(pos, place), nx)
    pos = table(SIX[:-1], offered=("G14", "G30", "G31", "G32", "G33", "G34", "G35", "G36"))
    pos = replace(pos, players=(replace(pos.players[0], storage=("W1",)), pos.players[1]),
                  wildflower_supply={w: 2 for w in ED.wildflowers if w != "W1"})
    place = ["G14@1,-3:r1", "W1@2,-4"]
    write("03-wildflower-closes-six", "A wildflower completes a six-tile ring", """
Five wide tiles curve around an empty hex; the stored wildflower tile fills the gap and counts as a
tile of the ring.
""", pos, {"kind": "rings", "place": place}, rings_answer(pos, place), nx)
    pos = table(TEN[:-1], offered=("G14", "G17", "G30", "G31", "G32", "G33", "G34", "G35"))
    place = ["G14@-1,2:r5", "G17@0,1:r4"]
    write("04-ten-through-the-stump", "Ten tiles, the Stump once", """
The ring leaves the Stump by its north-east path and comes back through its south-east path: it
passes the Stump twice but the Stump is one tile of the ring.
""", pos, {"kind": "rings", "place": place}, rings_answer(pos, place), nx)
    pos = table([("W1", (1, -1), 0)], offered=("G30", "G31", "G32", "G33", "G34", "G35", "G36", "G37"))
    pos = replace(pos, players=(replace(pos.players[0], storage=("W2",)), pos.players[1]),
                  wildflower_supply={w: 2 for w in ED.wildflowers if w not in ("W1", "W2")})
    place = ["W2@0,-1"]
    write("05-not-a-ring", "Between two flowers is not a ring", """
The Stump's north-east path already ends on a wildflower tile; red lays a second wildflower on its
north end. Every end of that path is closed - but is there a loop?
""", pos, {"kind": "rings", "place": place}, rings_answer(pos, place), nx)
    pos = table([], offered=("G01", "G04", "G30", "G31", "G32", "G33", "G34", "G35"),
                gnomes=(Gnome("red", ((0, 0), 0)), Gnome("blue", ((0, 0), 1))), to_move=1)
    place = ["G01@0,-1:r2", "G04@1,-1:r4"]
    write("06-ask-first", "Somebody else's ring", """
Red's gnome claims the Stump's north-east path. Blue would close the ring there - without asking.
""", pos, {"kind": "rings", "place": place}, rings_answer(pos, place, claims_ok=False), nx)
    # --- close -------------------------------------------------------------------------------
    closers = []
    pos = table(FIVE[:-1] + [("G07", (1, -4), 2)], offered=("G02", "G05", "G10", "G30", "G31", "G32", "G33", "G34"))
    closers.append(("07-close-one-gap", "One gap, eight tiles", "Which of the eight offered tiles closes the ring "
                    "of G92? The search and the SAT model must agree.", pos, "1,-3.0"))
    pos = table(FIVE[:-1] + [("G07", (1, -4), 2)], offered=("G02", "G05", "G06", "G08", "G09", "G11", "G12", "G14"))
    closers.append(("08-close-wrong-shapes", "Only wide and straight", "The last gap needs a sharp path.", pos,
                    "1,-3.0"))
    picks = []
    for seed in range(2000, 2400):
        g = generated(seed)
        if g is None or g[2] or len(g[0].mover.storage) == 0:
            continue
        gpos, ref, _ = g
        if gpos.gnomes:
            continue
        a = close_by_search(gpos, ED, ref)
        if len(picks) < 2 and a.found and len(a.witness) >= 2 and not any(p[2] for p in picks):
            picks.append((gpos, ref, True))
        elif len(picks) == 1 and not a.found and len(gpos.mover.storage) >= 1:
            picks.append((gpos, ref, False))
        if len(picks) == 2:
            break
    for i, (gpos, ref, _) in enumerate(picks):
        closers.append((f"{9 + i:02d}-close-generated-{'ab'[i]}", f"A generated garden ({'ab'[i]})",
                        "A random garden with a stored tile: can this network be closed this turn?", gpos,
                        f"{ref[0][0]},{ref[0][1]}.{ref[1]}"))
    for name, title, about, cpos, network in closers:
        from gnomekit.solver.gnome_hollow.puzzles import _ref

        a = close_by_search(cpos, ED, _ref(network))
        b = close_by_sat(cpos, ED, _ref(network))
        assert a.status == b.status
        write(name, title, about, cpos, {"kind": "close", "network": network}, {"closable": a.found},
              "exact search (solver/gnome_hollow/close.py), confirmed by the SAT model")
    # --- market ------------------------------------------------------------------------------
    pos = table([], offered=("G30", "G31"), market={"red": (3,), "yellow": (7,)},
                players=(PlayerState("red", mushrooms={"red": 4, "yellow": 7, "pink": 5, "purple": 2}),
                         PlayerState("blue")))
    pts = _brute_best(dict(pos.mover.mushrooms), dict(pos.market), dict(pos.market_tokens))
    write("11-market-day", "Two sets, two colours", """
Red space 3 and yellow space 7 are already blocked. Two sets of different colours: which pay most?
""", pos, {"kind": "market"}, {"points": pts}, "brute force over every pair of single sales (tests)")
    # --- best turn ---------------------------------------------------------------------------
    best = []
    pos = table(FIVE[:-1] + [("G07", (1, -4), 2)], offered=("G10", "G02"),
                gnomes=(Gnome("red", ((1, -3), 0)), Gnome("red")),
                players=(PlayerState("red", mushrooms={"teal": 1}), PlayerState("blue")))
    best.append(("12-best-five-ring", "Close, choose a bonus, sell", """
Red's gnome sits on the ring of G92. Close it, pick the best space in the 5 column and use the
gnome well.
""", pos))
    pos = table(TEN[:-1], offered=("G17", "G20"), gnomes=(Gnome("red", ((0, -1), 0)), Gnome("red", "market")),
                players=(PlayerState("red", mushrooms={"yellow": 2}, rings=((3, 1), (4, 1), (5, 1))),
                         PlayerState("blue")))
    best.append(("13-best-big-ring", "A big ring and a wildflower", """
Red has moved three ring markers; a 10-tile ring lands in the 7+ column, and the fourth marker
brings a wildflower tile.
""", pos))
    pos = table(SIX[:-1], offered=("G14", "G20"), gnomes=(Gnome("blue", ((1, -2), 0)),))
    pos = replace(pos, players=(replace(pos.players[0], storage=("W1",), mushrooms={"red": 3}), pos.players[1]),
                  wildflower_supply={w: 2 for w in ED.wildflowers if w != "W1"})
    best.append(("14-best-blue-claim", "Blue's claim", """
Blue's gnome claims the half-built ring; red holds a wildflower tile and three red mushrooms.
Without blue's permission, what is red's best turn worth?
""", pos))
    for name, title, about, bpos in best:
        v = brute_best(bpos, ED)
        write(name, title, about, bpos, {"kind": "best-turn"}, {"value": v},
              "exhaustive brute force over every legal sequence (tests/gnome_hollow/brute.py)")


if __name__ == "__main__":
    main()
