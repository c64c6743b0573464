"""gnomekit.models.core.jsonpos: a strict JSON reader that remembers where every value stands.

Cross-checked against the standard library: same values for valid documents, an
error whenever ``json.loads`` rejects a document, and the same line and column on
hand-written broken documents.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.jsonpos import loads_with_positions, path_str
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


def walk(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    out = [(path, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            out += walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += walk(v, path + (i,))
    return out


def char_at(text: str, line: int, col: int) -> str:
    return text.split("\n")[line - 1][col - 1]


@FUZZ
@given(VALUES, st.sampled_from([None, 0, 1, 2, "\t"]), st.booleans())
def test_same_values_as_json_and_positions_point_at_values(value: Any, indent: Any, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    got, positions = loads_with_positions(text, "v.json")
    assert got == json.loads(text)
    for path, v in walk(got):
        ch = char_at(text, *positions[path])
        expected = {dict: "{", list: "[", str: '"', bool: "tf", type(None): "n"}.get(type(v), "-0123456789")
        assert ch in expected, (path, v, ch)


@FUZZ
@given(st.text(alphabet='{}[]":,0123456789.eE+-truefalsn \n\t\\x', max_size=30))
def test_rejects_whatever_json_rejects(text: str) -> None:
    try:
        expected = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        with pytest.raises(NotationError) as exc:
            loads_with_positions(text, "f.json")
        assert exc.value.line is not None and exc.value.column is not None and exc.value.source == "f.json"
        return
    try:
        got, _ = loads_with_positions(text, "f.json")
    except NotationError as e:  # stricter than the stdlib only for duplicate keys
        assert "duplicate key" in e.message, (text, e)
        return
    assert got == expected


@pytest.mark.parametrize("text", [
    '{"a": 1,}', '[1, 2', '{"a" 1}', '{"a": tru}', '[1] x', '{\n  "a": [1,\n  2,]\n}', '"abc', '\n\n  ]',
    '{"a": 01}', '[-]', '{"a": "\x01"}', '', '   ', '[1,\n\n   ,2]', '{"a":1 "b":2}',
])
def test_error_position_matches_the_standard_library(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as std:
        json.loads(text)
    with pytest.raises(NotationError) as ours:
        loads_with_positions(text, "f.json")
    assert (ours.value.line, ours.value.column) == (std.value.lineno, std.value.colno), (ours.value, std.value)


def test_stricter_than_the_standard_library() -> None:
    for text in ('{"a": 1, "a": 2}', "NaN", "[Infinity]", "[-Infinity]"):
        json.loads(text)  # the stdlib accepts these
        with pytest.raises(NotationError):
            loads_with_positions(text, "f.json")
    with pytest.raises(NotationError, match="nested too deeply"):
        loads_with_positions("[" * 50000 + "]" * 50000, "deep.json")
    with pytest.raises(NotationError, match="reasonable size") as exc:
        loads_with_positions('{"n":\n ' + "7" * 5000 + "}", "big.json")
    assert (exc.value.line, exc.value.column) == (2, 2)


def test_positions_of_a_small_document() -> None:
    text = '{\n  "rows": 3,\n  "hedges": [{"tile": "D2", "cells": [[0, 0], [0, 1]]}]\n}'
    _, pos = loads_with_positions(text, "p.json")
    assert pos[()] == (1, 1)
    assert pos[("rows",)] == (2, 11)
    assert pos[("hedges",)] == (3, 13)
    assert pos[("hedges", 0)] == (3, 14)
    assert pos[("hedges", 0, "tile")] == (3, 23)
    assert pos[("hedges", 0, "cells", 1)] == (3, 47)
    assert pos[("hedges", 0, "cells", 1, 1)] == (3, 51)


def test_path_str() -> None:
    assert path_str(()) == "(top level)"
    assert path_str(("hedges", 2, "cells", 1)) == "hedges[2].cells[1]"
    assert path_str((0, "a")) == "[0].a"
