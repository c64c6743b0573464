"""Hedge Mage notations: round trips, fuzzing, and located error messages.

Garden text <-> Garden, JSON <-> Garden, text -> JSON -> text; placements as
``TILE:ORIENT@r,c`` and as JSON objects, for every tile, orientation and many
anchors.  Hypothesis feeds the readers garbage and mutated gardens (only
NotationError may come out) and generates valid gardens that must round-trip.
Hand-written broken inputs must be reported at an exact line and column.
"""

from __future__ import annotations

import json
import string
from typing import Any

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.jsonpos import loads_with_positions
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition
from gnomekit.models.hedge_mage.notation import (
    garden_from_text,
    garden_to_json,
    garden_to_text,
    parse_placement,
    placement_to_text,
    read_garden,
)
from gnomekit.models.hedge_mage.placement import ORIENTATION_NAMES, Placement
from gnomekit.models.hedge_mage.position import Garden, Gnome, Hedge, Mage
from gnomekit.models.hedge_mage.setup import new_garden, random_garden
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hedge_mage.hm_reference import PERFT_DIR, default_pictures, shapes
from tests.hedge_mage.hm_strategies import gardens

ED = default_edition()
PICS = default_pictures()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def both_ways(g: Garden, ed: HedgeMageEdition = ED) -> None:
    """g survives text and JSON, and text -> JSON -> text gives the same text."""
    text = garden_to_text(g, ed)
    assert garden_from_text(text, "t", ed) == g
    assert read_garden(text, "t", ed) == g
    js = json.dumps(garden_to_json(g))
    assert read_garden(js, "j", ed) == g
    assert garden_to_text(read_garden(js, "j", ed), ed) == text
    assert garden_to_json(garden_from_text(text, "t", ed)) == json.loads(js)
    # indentation and key order do not matter to the JSON reader
    shuffled = dict(reversed(list(garden_to_json(g).items())))
    assert read_garden(json.dumps(shuffled, indent=3), "j", ed) == g


# ---------------------------------------------------------------------------------------------
# Round trips of whole gardens


@pytest.mark.parametrize("seed", range(12))
def test_round_trip_random_play(seed: int) -> None:
    g, _ = random_garden(ED, seed, seed % 11)
    both_ways(g)


def test_round_trip_new_gardens() -> None:
    for seed in range(5):
        g, deck = new_garden(ED, seed)
        both_ways(g)
        assert g.tile == deck[0]


@pytest.mark.parametrize("path", sorted((PERFT_DIR / "positions").iterdir()), ids=lambda p: p.name)
def test_round_trip_perft_positions(path: Any) -> None:
    both_ways(read_garden(path.read_text("utf-8"), path.name, ED))


def test_text_is_a_fixed_point_and_comments_are_ignored() -> None:
    g, _ = random_garden(ED, 5, 6)
    text = garden_to_text(g, ED)
    assert garden_to_text(garden_from_text(text, "t", ED), ED) == text
    noisy = "# a comment\n\n" + text.replace("\n", "   # trailing comment\n", 3).replace("\n", "\r\n")
    assert garden_from_text(noisy, "t", ED) == g


def test_text_with_every_marker() -> None:
    text = """hedge-mage garden
size: 3x4
tile: -
remaining: -
substitution: used, kept L4
held-bonus-sigils: 2
hedges: a=L3 b=D2
mage-owners: ann - bob

   0     1     2    3
0  A     a*f   .^   +W
1  a     .MW   B    b*P
2  .p    .W    .    .
"""
    g = garden_from_text(text, "t", ED)
    assert g.hedges == (Hedge("L3", ((0, 0), (0, 1), (1, 0)), (0, 0)), Hedge("D2", ((1, 2), (1, 3)), (1, 2)))
    assert g.bonus_sigils == ((0, 1), (1, 3))
    assert g.springshrooms == ((0, 2),) and g.tunnels == ((0, 3),)
    assert g.gnomes == (Gnome("flower", (0, 1)), Gnome("mushroom", (1, 1), True), Gnome("pumpkin", (1, 3), True),
                        Gnome("pumpkin", (2, 0)))
    assert g.mages == (Mage((0, 3), "ann"), Mage((1, 1), None), Mage((2, 1), "bob"))
    assert (g.tile, g.remaining_tiles, g.substitution_used, g.kept_tile) == (None, (), True, "L4")
    assert g.held_bonus_sigils == 2
    both_ways(g)


def test_gardens_the_text_cannot_carry_raise_notation_error() -> None:
    hedges = tuple(Hedge("D2", ((r, c), (r, c + 1)), (r, c)) for r in range(0, 9, 2) for c in range(0, 10, 2))
    g = Garden(rows=10, cols=10, hedges=hedges + (Hedge("D2", ((9, 0), (9, 1)), (9, 0)),) * 0)
    assert len(g.hedges) == 25
    both_ways(g)  # 25 hedges still have letters
    g27 = Garden(rows=12, cols=10, hedges=hedges + (Hedge("D2", ((10, 0), (10, 1)), (10, 0)),
                                                    Hedge("D2", ((10, 3), (10, 4)), (10, 3))))
    with pytest.raises(NotationError, match="at most 26 hedges"):
        garden_to_text(g27, ED)
    assert read_garden(json.dumps(garden_to_json(g27)), "j", ED) == g27
    for bad in (Garden(3, 3, mages=(Mage((0, 0), "two words"),)), Garden(3, 3, mages=(Mage((0, 0), "-"),)),
                Garden(3, 3, edition="a#b")):
        with pytest.raises(NotationError, match="cannot be written in the text notation"):
            garden_to_text(bad, ED)
        assert read_garden(json.dumps(garden_to_json(bad)), "j", ED) == bad


# ---------------------------------------------------------------------------------------------
# `new --json` with keys replaced (the way of building positions)


def normalised(d: dict[str, Any]) -> dict[str, Any]:
    """Garden JSON with every list in canonical order (the reader sorts; hedges keep order)."""
    out = dict(d)
    for k in ("bonus_sigils", "tunnels", "springshrooms"):
        out[k] = sorted(out[k])
    out["gnomes"] = sorted(({"awake": False, **x} for x in out["gnomes"]),
                           key=lambda x: (x["at"], x["kind"], x["awake"]))
    out["mages"] = sorted(out["mages"], key=lambda m: (m["at"], m.get("owner") or ""))
    out["hedges"] = [{**h, "cells": sorted(h["cells"])} for h in out["hedges"]]
    return out


EDITS: list[dict[str, Any]] = [
    {"rows": 6, "cols": 8, "tile": None,
     "hedges": [{"tile": "N5", "cells": [[5, 5], [4, 2], [4, 3], [5, 3], [5, 4]], "sigil": [4, 2]},
                {"tile": "I4", "cells": [[0, 1], [0, 2], [0, 3], [0, 4]], "sigil": [0, 1]},
                {"tile": "S4", "cells": [[2, 6], [2, 7], [3, 5], [3, 6]], "sigil": [2, 6]},
                {"tile": "T4", "cells": [[3, 0], [4, 0], [5, 0], [4, 1]], "sigil": [4, 0]}],
     "bonus_sigils": [[0, 4], [5, 5]], "tunnels": [[5, 7], [1, 0]],
     "gnomes": [{"kind": "pumpkin", "at": [2, 2], "awake": True}, {"kind": "flower", "at": [0, 2]}],
     "mages": [{"at": [5, 7]}, {"at": [1, 0], "owner": "p2"}], "springshrooms": [[3, 3], [1, 1]]},
    {"rows": 2, "cols": 3, "hedges": [], "bonus_sigils": [], "tunnels": [], "gnomes": [], "mages": [],
     "springshrooms": [], "tile": "D2"},
    {"rows": 12, "cols": 5, "tile": "N5", "tunnels": [[11, 4]], "gnomes": [], "mages": [{"at": [11, 4]}]},
    {"hedges": [{"tile": "L4m", "cells": [[3, 3], [3, 4], [3, 5], [4, 3]], "sigil": [3, 4]}],
     "bonus_sigils": [[3, 5]], "tile": None},
]


@pytest.mark.parametrize("edit", EDITS, ids=[f"edit{i}" for i in range(len(EDITS))])
def test_new_json_with_keys_replaced(edit: dict[str, Any]) -> None:
    base, _ = new_garden(ED, 4)
    d = {**garden_to_json(base), **edit}
    g = read_garden(json.dumps(d, indent=2), "edited.json", ED)
    assert normalised(garden_to_json(g)) == normalised(d)
    assert (g.rows, g.cols) == (d["rows"], d["cols"])
    assert g.tile == d["tile"] and g.round == base.round and g.remaining_tiles == base.remaining_tiles
    both_ways(g)


def test_missing_keys_take_the_defaults() -> None:
    g = read_garden('{"rows": 4, "cols": 5}', "j", ED)
    assert g == Garden(rows=4, cols=5, remaining_tiles=tuple(ED.tiles), edition=ED.name)


# ---------------------------------------------------------------------------------------------
# Placements


def offsets(p: Placement) -> tuple[tuple[int, int], ...]:
    sr, sc = p.sigil
    return tuple(sorted((r - sr, c - sc) for r, c in p.cells))


SOME_ANCHORS = (-1, 0, 4, 9, 10)  # outside, edge, middle, edge, outside of a 10x10 garden


@pytest.mark.parametrize("tile", list(ED.tiles))
def test_placement_text_every_tile_orientation_some_anchors(tile: str) -> None:
    placement_text_sweep(tile, SOME_ANCHORS)


@pytest.mark.slow
@pytest.mark.parametrize("tile", list(ED.tiles))
def test_placement_text_every_tile_orientation_every_anchor(tile: str) -> None:
    placement_text_sweep(tile, tuple(range(-2, 12)))


def placement_text_sweep(tile: str, anchors: tuple[int, ...]) -> None:
    ref = shapes(PICS[tile])
    for r in anchors:
        for c in anchors:
            seen = set()
            for i, name in enumerate(ORIENTATION_NAMES):
                spellings = (f"{tile}:{name}@{r},{c}", f"{tile}:{i}@{r},{c}", f" {tile} : {name.lower()} @ {r} , {c} ")
                for spelled in spellings:
                    p = parse_placement(spelled, ED)
                    assert p.tile == tile and p.sigil == (r, c) and offsets(p) in ref
                    text = placement_to_text(p, ED)
                    q = parse_placement(text, ED)
                    assert q.key == p.key and placement_to_text(q, ED) == text
                    back = parse_placement(json.dumps(p.to_json()), ED)
                    assert back.key == p.key
                seen.add(offsets(p))
            assert seen == ref, "the eight orientations give exactly the tile's distinct shapes"


def test_orientation_names_mean_what_they_say() -> None:
    # L4 is  @##   R90 turns it a quarter clockwise:  #@   F0 mirrors it left-right:  ##@
    #        #..                                      .#                              ..#
    #                                                 .#
    assert parse_placement("L4:R0@5,5", ED).cells == ((5, 5), (5, 6), (5, 7), (6, 5))
    assert parse_placement("L4:R90@5,5", ED).cells == ((5, 4), (5, 5), (6, 5), (7, 5))
    assert parse_placement("L4:R180@5,5", ED).cells == ((4, 5), (5, 3), (5, 4), (5, 5))
    assert parse_placement("L4:F0@5,5", ED).cells == ((5, 3), (5, 4), (5, 5), (6, 5))
    assert parse_placement("L4:F90@5,5", ED) == parse_placement("L4:5@5,5", ED)
    # symmetric tiles: I3m has only two distinct orientations; names print canonically
    names = {placement_to_text(parse_placement(f"I3m:{n}@1,1", ED), ED) for n in ORIENTATION_NAMES}
    assert names == {"I3m:R0@1,1", "I3m:R90@1,1"}


def test_placement_json_objects() -> None:
    p = parse_placement("T4e:R270@4,4", ED)
    d = p.to_json()
    assert set(d) == {"tile", "cells", "sigil"}
    with_tokens = Placement(p.tile, p.cells, p.sigil, ((p.cells[0]),))
    q = parse_placement(json.dumps(with_tokens.to_json()), ED)
    assert q.key == p.key and q.tokens == (p.cells[0],)
    # what `moves --json` prints is accepted (movement_points is ignored), cells in any order
    moved = {"tile": "T4e", "cells": [list(c) for c in reversed(p.cells)], "sigil": list(p.sigil),
             "movement_points": 3}
    assert parse_placement(json.dumps(moved), ED).key == p.key


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("L4R90@3,4", 1, "expected a placement"),
        ("Q9:R0@1,1", 1, "tile of the edition"),
        ("  L4:R45@1,1", 6, "orientation"),
        ("L4:R0@1;1", 1, "expected a placement"),
        ("", 1, "expected a placement"),
    ],
)
def test_placement_text_errors(text: str, column: int, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment) as exc:
        parse_placement(text, ED, "--place")
    assert (exc.value.source, exc.value.line, exc.value.column) == ("--place", 1, column)
    with pytest.raises(NotationError, match=fragment) as exc:  # the library's own default names no option
        parse_placement(text, ED)
    assert (exc.value.source, exc.value.line, exc.value.column) == ("<placement>", 1, column)


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ('{"tile": "L4", "cells": [[0, 0]]}', 1, 1, 'key "sigil"'),
        ('{"tile": "Q9", "cells": [], "sigil": [0, 0]}', 1, 10, "tile of the edition"),
        ('{"tile": "D2",\n "cells": [[0, 0], [0, 0]],\n "sigil": [0, 0]}', 2, 11, "distinct cells"),
        ('{"tile": "D2", "cells": [[0, 0], [0, 1]], "sigil": [0, 0],\n "colour": 1}', 2, 12, "only the keys"),
        ('{"tile": "D2", "cells": [[0, 0], [0, "1"]], "sigil": [0, 0]}', 1, 34, "a cell"),
        ('{"tile": "D2", "cells": [[0, 0], [0, 1]] "sigil": [0, 0]}', 1, 42, "',' or '}'"),
    ],
)
def test_placement_json_errors(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment) as exc:
        parse_placement(text, ED)
    assert (exc.value.line, exc.value.column) == (line, column), str(exc.value)


# ---------------------------------------------------------------------------------------------
# Located errors in hand-written broken gardens

TEXT = """\
hedge-mage garden
size: 3x4
tile: D2
hedges: a=D2

   0  1  2  3
0  A  a  .  .
1  .  .f .  +W
2  .  .  .^ .
"""


def edit_text(line: int, new: str | None) -> str:
    lines = TEXT.split("\n")
    if new is None:
        del lines[line - 1]
    else:
        lines[line - 1] = new
    return "\n".join(lines)


TEXT_ERRORS = [
    # (line to change, its new content (None: delete it), expected line, column, message fragment)
    (1, "hedge-mage gardn", 1, 1, "header line"),
    (2, "size: 3by4", 2, 7, "ROWSxCOLS"),
    (2, None, 2, 1, "missing line 'size"),
    (3, "tile: Q9", 3, 7, "tile name of the edition"),
    (3, "colour: red", 3, 1, "unknown key"),
    (3, "hedges: a=D2", 4, 1, "given twice"),
    (4, "hedges: a=Q9", 4, 9, "unknown tile 'Q9'"),
    (4, "hedges: a=D2 b=L3", 4, 14, "hedge b is named but has no cells"),
    (4, "hedges: a=I3", 7, 4, "do not match tile I3"),
    (4, "hedges: a=D2 bb", 4, 14, "LETTER=TILE"),
    (4, "hedges: -", 7, 4, "not named in the 'hedges:' line"),
    (7, "0  a  a  .  .", 7, 4, "no sigil cell"),
    (7, "0  A  A  .  .", 7, 7, "two sigil cells"),
    (7, "0  .  .  B  .", 7, 10, "letters must be used in order"),
    (7, "0  A* a  .  .", 7, 4, "tile's sigil cell"),
    (8, "1  .  .f ?  +W", 8, 10, "expected a cell"),
    (8, "1  .  .x .  +W", 8, 8, "expected a marker"),
    (8, "1  .  .ff .  +W", 8, 7, "two gnomes on 1,1"),
    (8, "1  .  .f .WW +W", 8, 10, "two mages on 1,2"),
    (8, "1  .  .f .^^ +W", 8, 10, "two springshrooms"),
    (8, None, 8, 1, "expected 3 garden rows"),
    (9, "3  .  .  .^ .", 9, 1, "row number 2"),
    (9, "2  .  .  .^", 9, 12, "expected 4 cells in row 2"),
    (9, "2  .* .  .^ .", 9, 4, "bonus sigil at 2,0 is not on a hedge"),
]


@pytest.mark.parametrize(("at", "new", "line", "column", "fragment"), TEXT_ERRORS)
def test_text_errors_are_located(at: int, new: str | None, line: int, column: int, fragment: str) -> None:
    text = edit_text(at, new)
    with pytest.raises(NotationError, match=fragment) as exc:
        read_garden(text, "broken.txt", ED)
    e = exc.value
    assert (e.source, e.line, e.column) == ("broken.txt", line, column), str(e)
    assert str(e).startswith(f"broken.txt:{line}:{column}: ")


def test_base_text_is_fine() -> None:
    g = read_garden(TEXT, "ok.txt", ED)
    assert g.hedges == (Hedge("D2", ((0, 0), (0, 1)), (0, 0)),) and g.tile == "D2"


JSON_BASE = """\
{
 "rows": 3, "cols": 4,
 "hedges": [{"tile": "D2", "cells": [[0, 0], [0, 1]], "sigil": [0, 0]}],
 "bonus_sigils": [],
 "tunnels": [[1, 3]],
 "gnomes": [{"kind": "flower", "at": [1, 1]}],
 "mages": [{"at": [1, 3]}],
 "springshrooms": [[2, 2]],
 "tile": "D2"
}
"""

JSON_ERRORS = [
    # (old fragment, new fragment, expected line, column, message fragment)
    ('"tile": "D2"\n}', '"tile": "D2",\n}', 10, 1, "a key in double quotes"),
    ('"tile": "D2"\n}', '"tile": "D2"\n', 11, 1, "',' or '}'"),
    ('"rows": 3,', '"rows": "3",', 2, 10, "rows: expected a whole number >= 1"),
    ('"cols": 4', '"cols": 0', 2, 21, "cols: expected a whole number >= 1"),
    ('[[0, 0], [0, 1]]', '[[0, 0], [0, 9]]', 3, 46, "cell 0,9 is outside the garden"),
    ('"sigil": [0, 0]', '"sigil": [1, 0]', 3, 64, "sigil 1,0 is not one of its cells"),
    ('"tile": "D2", "cells"', '"tile": "I3", "cells"', 3, 64, "do not match tile I3"),
    ('"tile": "D2", "cells"', '"tile": "Q9", "cells"', 3, 22, "unknown tile 'Q9'"),
    ('"bonus_sigils": []', '"bonus_sigils": [[0, 1], [2, 0]]', 4, 27, "bonus sigil at 2,0 is not on a hedge"),
    ('"tunnels": [[1, 3]]', '"tunnels": [[1, 3], [1, 3]]', 5, 22, "two tunnels on the same cell"),
    ('"tunnels": [[1, 3]]', '"tunnels": [[0, 1]]', 5, 14, "tunnel at 0,1 is under a hedge"),
    ('"kind": "flower"', '"kind": "tulip"', 6, 22, "gnome kind"),
    ('"kind": "flower"', '"kind": ["flower"]', 6, 22, "gnome kind"),
    ('"at": [1, 1]}]', '"at": [1, 1]}, {"kind": "pumpkin", "at": [1, 1]}]', 6, 73, "two gnomes on 1,1"),
    ('"mages": [{"at": [1, 3]}]', '"mages": [{"at": [1, 3]}, {"at": [3, 3]}]', 7, 35, "mage at 3,3 is outside"),
    ('"mages": [{"at": [1, 3]}]', '"mages": [{"where": [1, 3]}]', 7, 12, 'key "at"'),
    ('"springshrooms": [[2, 2]]', '"springshrooms": [[2, 2, 2]]', 8, 20, "a cell"),
    ('"tile": "D2"\n', '"tile": "Q9"\n', 9, 10, "revealed tile 'Q9'"),
    ('"tile": "D2"\n', '"tile": "D2", "colour": "red"\n', 9, 26, "one of the garden keys"),
    ('"tile": "D2"\n', '"tile": "D2", "game": "gnome-hollow"\n', 9, 24, "'hedge-mage'"),
    ('"tile": "D2"\n', '"tile": "D2", "rows": 4\n', 9, 16, "no duplicate key"),
    ('"rows": 3,', '"rows": 3e400,', 2, 10, "whole number"),
]


@pytest.mark.parametrize(("old", "new", "line", "column", "fragment"), JSON_ERRORS)
def test_json_errors_are_located(old: str, new: str, line: int, column: int, fragment: str) -> None:
    assert old in JSON_BASE
    text = JSON_BASE.replace(old, new, 1)
    with pytest.raises(NotationError, match=fragment) as exc:
        read_garden(text, "broken.json", ED)
    e = exc.value
    assert (e.source, e.line, e.column) == ("broken.json", line, column), str(e)
    assert str(e).startswith(f"broken.json:{line}:{column}: ")


def test_base_json_is_fine() -> None:
    g = read_garden(JSON_BASE, "ok.json", ED)
    assert g.tunnels == ((1, 3),) and g.gnomes == (Gnome("flower", (1, 1)),)


def test_json_reader_limits_raise_notation_error() -> None:
    for text in ("[" * 20000 + "]" * 20000, '{"rows": ' + "9" * 6000 + "}", '{"rows": 1e999}', "{} {}",
                 '{"rows": tru}', '"just a string"', "\ufeff{}"):
        with pytest.raises(NotationError):
            read_garden(text.lstrip("\ufeff") if text.startswith("[") else text, "x.json", ED)
    with pytest.raises(NotationError) as exc:
        loads_with_positions('{\n  "a": [1, 2,\n  ]\n}', "x.json")
    assert (exc.value.line, exc.value.column) == (3, 3)


# ---------------------------------------------------------------------------------------------
# Fuzzing

VALID_TEXTS = [garden_to_text(random_garden(ED, s, r)[0], ED) for s, r in ((1, 0), (2, 4), (3, 9))] + [TEXT]
VALID_JSONS = [json.dumps(garden_to_json(random_garden(ED, 4, 5)[0]), indent=1), JSON_BASE]


def read_or_notation_error(text: str) -> Garden | None:
    """Only a Garden or a NotationError may come out; a parsed garden must round-trip."""
    try:
        g = read_garden(text, "fuzz", ED)
    except NotationError as e:
        assert e.source == "fuzz" and e.line is not None and e.line >= 1, str(e)
        assert e.column is not None and e.column >= 1
        return None
    assert g.problems(ED) == []
    if len(g.hedges) <= 26:
        try:
            text2 = garden_to_text(g, ED)
        except NotationError:
            return g  # e.g. an edition name the text cannot carry
        assert garden_from_text(text2, "t", ED) == g
    assert read_garden(json.dumps(garden_to_json(g)), "j", ED) == g
    return g


@FUZZ
@given(st.text())
def test_fuzz_garbage_text(text: str) -> None:
    read_or_notation_error(text)
    read_or_notation_error("hedge-mage garden\n" + text)
    read_or_notation_error("{" + text)


@st.composite
def mutated(draw: st.DrawFn, sources: list[str]) -> str:
    text = draw(st.sampled_from(sources))
    alphabet = st.sampled_from(list(string.printable + "AaBbWw*^+.#-:=@,[]{}\"0123456789\u00e9\u212a\u0130"))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        op = draw(st.sampled_from(["delete", "insert", "replace", "dupline", "dropline", "swap", "cut"]))
        i = draw(st.integers(0, len(text) - 1))
        if op == "delete":
            text = text[:i] + text[i + 1:]
        elif op == "insert":
            text = text[:i] + draw(alphabet) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(alphabet) + text[i + 1:]
        elif op == "cut":
            text = text[:i]
        else:
            lines = text.split("\n")
            j = draw(st.integers(0, len(lines) - 1))
            k = draw(st.integers(0, len(lines) - 1))
            if op == "dupline":
                lines.insert(j, lines[k])
            elif op == "dropline":
                del lines[j]
            else:
                lines[j], lines[k] = lines[k], lines[j]
            text = "\n".join(lines)
    return text


@FUZZ
@given(mutated(VALID_TEXTS))
def test_fuzz_mutated_text_gardens(text: str) -> None:
    read_or_notation_error(text)


@FUZZ
@given(mutated(VALID_JSONS))
def test_fuzz_mutated_json_gardens(text: str) -> None:
    read_or_notation_error(text)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=5) | st.sampled_from(list(ED.tiles)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["tile", "cells", "sigil", "kind", "at", "awake", "owner", "x"]), inner, max_size=4),
    max_leaves=12,
)


SHAPE_BASE = garden_to_json(random_garden(ED, 2, 3)[0])


@FUZZ
@given(st.sampled_from(sorted(SHAPE_BASE)), JSON_VALUES)
def test_fuzz_json_values_of_the_wrong_shape(key: str, value: Any) -> None:
    d = json.loads(json.dumps(SHAPE_BASE))
    d[key] = value
    read_or_notation_error(json.dumps(d))


@FUZZ
@given(st.text(max_size=40))
def test_fuzz_placement_text(text: str) -> None:
    for s in (text, "L4:" + text, "{" + text):
        try:
            p = parse_placement(s, ED)
        except NotationError as e:
            assert e.line is not None and e.column is not None
            continue
        assert isinstance(p, Placement)


# ---------------------------------------------------------------------------------------------
# Valid gardens generated by hypothesis round-trip

@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gardens())
def test_generated_gardens_round_trip(g: Garden) -> None:
    assert g.problems(ED) == []
    both_ways(g)
