"""gnomekit.models.core.edition value readers shared by the games' edition loaders: exact, located problem texts."""

from __future__ import annotations

import pytest
from gnomekit.models.core.edition import (
    check_game,
    edition_meta,
    is_int,
    parse_toml,
    unknown_keys,
    whole_number,
)


def test_is_int_rejects_booleans_and_floats() -> None:
    assert is_int(0) and is_int(-3)
    assert not is_int(True) and not is_int(2.0) and not is_int("2") and not is_int(None)


def test_whole_number_reads_defaults_and_reports_located_problems() -> None:
    src = parse_toml('[t]\nn = 5\nlow = 0\nflag = true\n', "x.toml")
    t = src.data["t"]
    assert whole_number(src, t, "n", None, 1) == 5
    assert whole_number(src, t, "absent", 7, 1) == 7
    assert src.problems == []
    assert whole_number(src, t, "low", None, 1) == 1
    assert whole_number(src, t, "flag", 3, 0) == 0
    assert whole_number(src, t, "gone", None, 2) == 2
    assert src.problems == [
        "x.toml:3:1: 'low' must be a whole number >= 1, got 0",
        "x.toml:4:1: 'flag' must be a whole number >= 0, got True",
        "x.toml:1:1: missing key 'gone'",
    ]


def test_unknown_keys_sorted_and_located_with_optional_needles() -> None:
    src = parse_toml('[t]\nrows = 1\n# colz mentioned here\ncolz = 2\n', "x.toml")
    unknown_keys(src, "t", src.data["t"], {"rows", "cols"})
    unknown_keys(src, "t", src.data["t"], {"rows", "cols"}, "=")
    msg = "[t]: unknown key 'colz'; expected one of cols, rows"
    assert src.problems == [f"x.toml:3:3: {msg}", f"x.toml:4:1: {msg}"]


@pytest.mark.parametrize(("text", "problems", "meta"), [
    ('', [], {}),
    ('[edition]\ngame = "g"\nname = "N"\n', [], {"game": "g", "name": "N"}),
    ('[edition]\ngame = "other"\n', ["x.toml:2:1: this edition is for 'other', not 'g'"], {"game": "other"}),
    ('edition = 3\n', ["x.toml:1:1: [edition] must be a table"], {}),
])
def test_edition_meta(text: str, problems: list[str], meta: dict[str, str]) -> None:
    src = parse_toml(text, "x.toml")
    assert edition_meta(src, "g") == meta
    assert src.problems == problems


def test_check_game_alone_accepts_a_missing_game() -> None:
    src = parse_toml('[edition]\nname = "N"\n', "x.toml")
    check_game(src, src.data["edition"], "g")
    assert src.problems == []
