"""QA of issue 2 as a checker would do it: gardens built from `new --json` with keys replaced, bad input.

The cross-check below uses its own small reading of the rulings (tile pictures from
shared/rulings.md, legality by flood fill, movement points by a set of sigils, d(g)
by breadth-first search), written apart from models/ and solver/, and compares it
with `moves --json`, `check --json` and `solve --goal block --json` on gardens of odd
sizes with gnomes and mages on hedges, springshrooms, awake gnomes and no revealed
tile.  The regression tests pin the bugs this QA found.
"""

from __future__ import annotations

import io
import itertools
import json
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from gnomekit.cli import main
from tests.marks import by_default

HM = ["hedge-mage"]
Cell = tuple[int, int]

# The default edition's tiles as the rulings draw them ('@' sigil, '#' hedge).
PICTURES = {
    "D2": ["@#"], "I3": ["@##"], "I3m": ["#@#"], "L3": ["@#", "#."], "L3e": ["#@", "#."],
    "I4": ["@###"], "L4": ["@##", "#.."], "L4m": ["#@#", "#.."], "T4": ["#@#", ".#."],
    "T4e": ["@##", ".#."], "S4": [".@#", "##."], "N5": ["@#..", ".###"],
}


def run(capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main([*HM, *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# ---------------------------------------------------------------------------------------------
# An independent reading of the rulings


def orientations(name: str) -> list[tuple[Cell, ...]]:
    """Offsets from the sigil cell, for the 8 rotations and reflections (distinct ones)."""
    cells = [(r, c) for r, row in enumerate(PICTURES[name]) for c, ch in enumerate(row) if ch in "@#"]
    sr, sc = next((r, c) for r, row in enumerate(PICTURES[name]) for c, ch in enumerate(row) if ch == "@")
    out = set()
    for flip in (False, True):
        for turns in range(4):
            pts = []
            for r, c in cells:
                dr, dc = r - sr, (sc - c) if flip else (c - sc)
                for _ in range(turns):
                    dr, dc = dc, -dr
                pts.append((dr, dc))
            out.add(tuple(sorted(pts)))
    return sorted(out)


class Ref:
    """The building rules straight from shared/rulings.md, on a garden's JSON."""

    def __init__(self, d: dict[str, Any]) -> None:
        self.rows, self.cols = d["rows"], d["cols"]
        self.hedge = {tuple(c) for h in d["hedges"] for c in h["cells"]}
        self.sigils = {tuple(h["sigil"]) for h in d["hedges"]} | {tuple(c) for c in d["bonus_sigils"]}
        self.occupied = ({tuple(c) for c in d["tunnels"]} | {tuple(c) for c in d["springshrooms"]}
                         | {tuple(g["at"]) for g in d["gnomes"]} | {tuple(m["at"]) for m in d["mages"]})
        self.sleeping = [tuple(g["at"]) for g in d["gnomes"] if not g["awake"]]
        self.mages = [tuple(m["at"]) for m in d["mages"]]
        self._around = {c: self._neighbours(c) for c in itertools.product(range(self.rows), range(self.cols))}

    def _neighbours(self, c: Cell) -> list[Cell]:
        r, k = c
        return [(a, b) for a, b in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
                if 0 <= a < self.rows and 0 <= b < self.cols]

    def neighbours(self, c: Cell) -> list[Cell]:
        """The in-bounds orthogonal neighbours (of a garden cell: listed once per garden)."""
        around = self._around.get(c)
        return self._neighbours(c) if around is None else around

    def broken(self, cells: tuple[Cell, ...]) -> set[str]:
        out = set()
        inside = [c for c in cells if 0 <= c[0] < self.rows and 0 <= c[1] < self.cols]
        if len(inside) < len(cells):
            out.add("out-of-bounds")
        if any(c in self.hedge or c in self.occupied for c in inside):
            out.add("covers")
        after = self.hedge | set(inside)
        if any(all(x in after for x in ((r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)))
               for r in range(self.rows - 1) for c in range(self.cols - 1)):
            out.add("2x2")
        ground = [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in after]
        if ground:
            seen = {ground[0]}
            todo = [ground[0]]
            while todo:
                for n in self.neighbours(todo.pop()):
                    if n not in after and n not in seen:
                        seen.add(n)
                        todo.append(n)
            if len(seen) < len(ground):
                out.add("cut-off")
        return out

    def points(self, cells: tuple[Cell, ...], sigil: Cell) -> int:
        rows, cols = {r for r, _ in cells}, {c for _, c in cells}
        return len({s for s in self.sigils if s[0] in rows or s[1] in cols} | {sigil})

    def legal(self, tile: str) -> dict[tuple[str, tuple[Cell, ...], Cell], int]:
        out = {}
        for offs in orientations(tile):
            for r in range(self.rows):
                for c in range(self.cols):
                    cells = tuple(sorted((r + a, c + b) for a, b in offs))
                    if not self.broken(cells):
                        out[(tile, cells, (r, c))] = self.points(cells, (r, c))
        return out

    def d_sum(self, hedge: set[Cell]) -> int:
        dist: dict[Cell, int] = {m: 0 for m in self.mages if m not in hedge}
        todo = deque(dist)
        while todo:
            cur = todo.popleft()
            for n in self.neighbours(cur):
                if n not in hedge and n not in dist:
                    dist[n] = dist[cur] + 1
                    todo.append(n)
        total = 0
        for g in self.sleeping:
            near = [dist[n] for n in self.neighbours(g) if n not in hedge and n in dist]
            total += min(near) if near else self.rows * self.cols
        return total

    def block(self, cells: tuple[Cell, ...]) -> int:
        return self.d_sum(self.hedge | set(cells)) - self.d_sum(self.hedge)


# ---------------------------------------------------------------------------------------------
# Gardens the way a checker writes them


@pytest.fixture(scope="module")
def new_json() -> dict[str, Any]:
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert main([*HM, "new", "--json"]) == 0
    return dict(json.loads(out.getvalue()))


def checker_garden(base: dict[str, Any], seed: int) -> dict[str, Any]:
    """`new --json` with rows, cols, hedges, tokens, characters and tile replaced at random."""
    rng = random.Random(f"qa/{seed}")
    d = json.loads(json.dumps(base))
    rows, cols = rng.choice([(3, 3), (7, 12), (4, 6), (10, 10), (5, 9), (12, 7), (6, 6)])
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    hedge: set[Cell] = set()
    hedges = []
    for _ in range(rng.randint(0, rows * cols // 7)):
        tile = rng.choice(list(PICTURES))
        offs = rng.choice(orientations(tile))
        r, c = rng.choice(cells)
        placed = tuple(sorted((r + a, c + b) for a, b in offs))
        if any(not (0 <= x < rows and 0 <= y < cols) or (x, y) in hedge for x, y in placed):
            continue
        if rng.random() < 0.85:  # mostly legal layouts; some bushes and split ground too
            ref = Ref({"rows": rows, "cols": cols, "hedges": hedges, "bonus_sigils": [], "tunnels": [],
                       "springshrooms": [], "gnomes": [], "mages": []})
            if ref.broken(placed):
                continue
        hedge |= set(placed)
        hedges.append({"tile": tile, "cells": [list(x) for x in placed], "sigil": [r, c]})
    plain = sorted(hedge - {tuple(h["sigil"]) for h in hedges})
    ground = [c for c in cells if c not in hedge]
    rng.shuffle(ground)
    tunnels, shrooms = ground[:2], ground[2:2 + rng.randint(0, 2)]
    spots = list(cells)
    rng.shuffle(spots)
    spots = [c for c in spots if c not in tunnels and c not in shrooms]  # on ground or on hedges
    gnomes, mages = spots[:rng.randint(0, 6)], spots[6:6 + rng.randint(0, 3)]
    d.update(rows=rows, cols=cols, hedges=hedges,
             bonus_sigils=[list(c) for c in rng.sample(plain, min(len(plain), rng.randint(0, 2)))],
             tunnels=[list(c) for c in tunnels], springshrooms=[list(c) for c in shrooms],
             gnomes=[{"kind": rng.choice(["flower", "mushroom", "pumpkin"]), "at": list(c),
                      "awake": rng.random() < 0.2} for c in gnomes],
             mages=[{"at": list(c)} for c in mages],
             tile=rng.choice([*PICTURES, None]))
    return d


def key(p: dict[str, Any]) -> tuple[str, tuple[Cell, ...], Cell]:
    return (p["tile"], tuple(tuple(c) for c in p["cells"]), tuple(p["sigil"]))


@pytest.mark.parametrize("seed", by_default(range(12), [1, 2, 5, 6]))
def test_checker_style_gardens_agree_with_independent_reading(
        seed: int, new_json: dict[str, Any], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    d = checker_garden(new_json, seed)
    text = json.dumps(d)
    ref = Ref(d)
    want: dict[tuple[str, tuple[Cell, ...], Cell], int] = {}
    for tile in PICTURES:
        want.update(ref.legal(tile))
    code, out, _ = run(capsys, "moves", "-", "--tile", "all", "--json", stdin=text, monkeypatch=monkeypatch)
    assert code == (0 if want else 1)
    listed = json.loads(out)["placements"]
    assert all(p["cells"] == sorted(p["cells"]) for p in listed)
    assert {key(p): p["movement_points"] for p in listed} == want
    if seed % 3 == 0:
        code, out, _ = run(capsys, "moves", "-", "--tile", "all", "--json", "--method", "sat", stdin=text,
                           monkeypatch=monkeypatch)
        assert {key(p): p["movement_points"] for p in json.loads(out)["placements"]} == want

    rng = random.Random(seed)
    for _ in range(4):  # check: legal iff nothing broken, the rules named are the rules broken
        tile = rng.choice(list(PICTURES))
        offs = rng.choice(orientations(tile))
        r, c = rng.randint(-1, d["rows"]), rng.randint(-1, d["cols"])
        cells = tuple(sorted((r + a, c + b) for a, b in offs))
        obj = {"tile": tile, "cells": [list(x) for x in cells], "sigil": [r, c]}
        code, out, _ = run(capsys, "check", "-", "--any-tile", "--json", "--place", json.dumps(obj), stdin=text,
                           monkeypatch=monkeypatch)
        rep = json.loads(out)
        broken = ref.broken(cells)
        assert {v["rule"] for v in rep["violations"]} == broken
        assert code == (1 if broken else 0)
        if not broken:
            assert rep["movement_points"] == ref.points(cells, (r, c))

    code, out, err = run(capsys, "solve", "-", "--goal", "block", "--no-substitution", "--json", stdin=text,
                         monkeypatch=monkeypatch)
    if d["tile"] is None:
        assert code == 2 and "no revealed tile" in err
        return
    options = {k: (ref.block(k[1]), pts) for k, pts in want.items() if k[0] == d["tile"]}
    if not options:
        assert code == 1 and json.loads(out)["placement"] is None
        return
    best = max(options.values())
    res = json.loads(out)
    assert code == 0
    assert options[key(res["placement"])] == best
    assert (res["block"], res["movement_points"]) == best


# ---------------------------------------------------------------------------------------------
# Regressions found by this QA


def test_empty_or_repeated_tile_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = tmp_path / "g.txt"
    assert main([*HM, "random", "--seed", "3", "--round", "6"]) == 0
    g.write_text(capsys.readouterr().out)
    for bad in ("", " , ", "D2,,I3"):
        code, _, err = run(capsys, "moves", str(g), "--tile", bad)
        assert code == 2 and "--tile:1:" in err and "expected a tile name" in err
    code, _, err = run(capsys, "moves", str(g), "--tile", "D2, XX")
    assert code == 2 and "--tile:1:5:" in err and "'XX'" in err
    # A tile named twice is listed once: the count is the count of D2.
    code, one, _ = run(capsys, "moves", str(g), "--tile", "D2", "--count")
    code2, twice, _ = run(capsys, "moves", str(g), "--tile", "D2,D2", "--count")
    assert code == code2 == 0 and one == twice
    for bad in ("", ",", "all"):
        code, out, err = run(capsys, "solve", str(g), "--plan", bad)
        assert code == 2 and "--plan:1:" in err and not out
    code, out, _ = run(capsys, "solve", str(g), "--plan", "L3,L3", "--json")
    notes = json.loads(out)["notes"]
    assert any("L3 appears 2 times" in n for n in notes)


def test_no_revealed_tile_names_the_position(tmp_path: Path, new_json: dict[str, Any],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "null.json"
    p.write_text(json.dumps({**new_json, "tile": None}, indent=2))
    line, column = next((i, ln.index("null") + 1) for i, ln in enumerate(p.read_text().splitlines(), 1)
                        if '"tile": null' in ln)
    for verb in (["moves"], ["solve"], ["solve", "--goal", "block"], ["hint"]):
        code, _, err = run(capsys, verb[0], str(p), *verb[1:])
        assert code == 2 and err.startswith(f"gnomekit: error: {p}:") and "no revealed tile" in err
        assert f"{p}:{line}:{column}: " in err  # the "tile" value of the JSON file
    code, out, _ = run(capsys, "moves", str(p), "--tile", "D2", "--count")
    assert code == 0 and int(out) > 0


def test_binary_edition_file_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = tmp_path / "bad.toml"
    e.write_bytes(b'[edition]\ngame = "hedge-mage"\nname = "caf\xe9"\n')
    code, _, err = run(capsys, "new", "--edition", str(e))
    assert code == 2 and f"{e}:3:12:" in err and "UTF-8" in err


def test_moves_follows_the_kept_tile_rule(tmp_path: Path, new_json: dict[str, Any],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # The card names D2, given away by the substitution: the tile to place is the kept one (rulings).
    p = tmp_path / "kept.json"
    p.write_text(json.dumps({**new_json, "tile": "D2", "substitution_used": True, "kept_tile": "N5",
                             "remaining_tiles": ["I3", "N5", "L3"]}))
    code, out, _ = run(capsys, "moves", str(p), "--json")
    data = json.loads(out)
    assert code == 0 and data["tiles"] == ["N5"] and "kept tile N5" in data["note"]
    assert {x["tile"] for x in data["placements"]} == {"N5"}
    code, n5, _ = run(capsys, "moves", str(p), "--tile", "N5", "--count")
    code2, default, _ = run(capsys, "moves", str(p), "--count")
    assert code == code2 == 0 and n5 == default
    code, out, _ = run(capsys, "solve", str(p), "--json")
    assert json.loads(out)["placement"]["tile"] == "N5"


def test_option_errors_name_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, where in ((["random", "--seed", "1", "--round", "11"], "--round: expected at most 10 rounds"),
                        (["random", "--seed", "1", "--round", "-1"], "--round: expected a number of rounds"),
                        (["new", "--enchantments", "nope"], "--enchantments: unknown enchantment 'nope'"),
                        (["audit", "--parts", "c", "--time-points", "0"], "--time-points: expected a time budget"),
                        (["audit", "--parts", "a", "--time-per-tile", "-1"], "--time-per-tile: expected"),
                        (["audit", "--parts", "a", "--time-total", "0"], "--time-total: expected a time budget"),
                        (["audit", "--parts", "a", "--time-total", "9", "--time-per-tile", "3"],
                         "--time-total: give --time-per-tile or --time-total, not both")):
        code, out, err = run(capsys, *args)
        assert code == 2 and not out and f"gnomekit: error: {where}" in err, (args, err)
    # An edition whose first-game cards open the same tunnel: the error names the edition file.
    src = Path(__file__).resolve().parents[2] / "models" / "hedge_mage" / "data" / "default.toml"
    text = src.read_text(encoding="utf-8")
    assert "tunnel = 4" in text
    e = tmp_path / "clash.toml"
    e.write_text(text.replace("tunnel = 4", "tunnel = 2", 1), encoding="utf-8")
    for verb in (["new"], ["random", "--seed", "1"]):
        code, _, err = run(capsys, *verb, "--edition", str(e))
        assert code == 2 and f"gnomekit: error: {e}" in err and "same tunnel" in err


def test_candidates_are_shared_but_callers_get_their_own_list() -> None:
    # candidates() is cached per (rows, cols, tile) for speed: a caller changing its list must not change the cache.
    from gnomekit.models.hedge_mage.edition import default_edition
    from gnomekit.models.hedge_mage.placement import candidates
    from gnomekit.models.hedge_mage.position import Garden

    ed = default_edition()
    g = Garden(rows=4, cols=5)
    first = candidates(g, ed.tiles["L3"])
    n = len(first)
    assert n == 4 * 3 * 4  # 4 orientations of the 2x2 bounding box, 3 x 4 positions
    first.clear()
    again = candidates(Garden(rows=4, cols=5, gnomes=()), ed.tiles["L3"])
    assert len(again) == n
    assert len(candidates(Garden(rows=5, cols=4), ed.tiles["L3"])) == n  # a different size is its own entry
    assert len(candidates(Garden(rows=4, cols=5), ed.tiles["I3"])) == 2 * (4 * 3) + 2 * (2 * 5)  # 4 orientations
