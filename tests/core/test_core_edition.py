"""gnomekit.models.core.edition: TOML loading with located, collected problems (via the Hedge Mage edition)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from gnomekit.models.core.edition import parse_toml, read_toml_file
from gnomekit.models.core.errors import EditionError
from gnomekit.models.hedge_mage.edition import default_edition, edition_from_toml, load_edition


def test_toml_syntax_error_is_located() -> None:
    text = '[garden]\nrows = 10\ncols = = 3\n'
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    with pytest.raises(EditionError) as exc:
        parse_toml(text, "ed.toml")
    e = exc.value
    assert (e.source, e.line, e.column) == ("ed.toml", 3, 8)
    assert str(e).startswith("ed.toml:3:8: not valid TOML") and "(at line" not in str(e)


def test_missing_edition_file(tmp_path: Path) -> None:
    with pytest.raises(EditionError) as exc:
        read_toml_file(tmp_path / "none.toml")
    assert exc.value.source == str(tmp_path / "none.toml") and "cannot read" in exc.value.message


def test_locate_and_collect_every_problem() -> None:
    src = parse_toml('[garden]\nrows = 3\ncols = 4\n[tiles]\nD2 = ["@#"]\n', "x.toml")
    assert src.locate("cols") == (3, 1)
    assert src.locate("D2", "@#") == (5, 1)
    assert src.locate("nowhere") == (None, None)
    src.problem("first", "cols")
    src.problem("second, unlocated")
    src.problem("third", "D2")
    src.problem("tiles.D2: a fourth, at its table's header")
    with pytest.raises(EditionError) as exc:
        src.raise_if_problems()
    e = exc.value
    assert (e.line, e.column) == (3, 1)
    # a problem whose key is nowhere in the file: at the end of the file, where it would be added
    assert e.message.splitlines() == ["4 problem(s) in edition:", "  x.toml:3:1: first",
                                      "  x.toml:6:1: second, unlocated (at the end of the file)",
                                      "  x.toml:5:1: third", "  x.toml:4:1: tiles.D2: a fourth, at its table's header"]


BAD = """\
[edition]
game = "hedge-mage"

[garden]
rows = 6
cols = 6
numbered = [[0, 2], [0, 7], "x"]
shaded = [[1, 1], [1, 1]]

[tiles]
D2 = ["@#"]
X3 = ["@.#"]
Y2 = ["##"]
Z2 = ["@%"]

[deck]
cards = ["D2", "Q"]
removed = 5
substitute = "W9"
"""


def test_hedge_mage_edition_reports_every_problem_with_its_line() -> None:
    with pytest.raises(EditionError) as exc:
        edition_from_toml(parse_toml(BAD, "bad.toml"))
    lines = exc.value.message.splitlines()[1:]
    expect = [
        ("bad.toml:7:", "numbered[1]: cell [0, 7] is outside the 6x6 garden"),
        ("bad.toml:7:", "numbered[2]: expected a cell [row, col], got 'x'"),
        ("bad.toml:8:", "shaded space [1, 1] is listed twice"),
        ("bad.toml:12:", "tile X3: shape is not edge-connected"),
        ("bad.toml:13:", "tile Y2: needs exactly one sigil '@', has 0"),
        ("bad.toml:14:", "tile Z2: unknown character(s) ['%']"),
        ("bad.toml:17:", "deck: unknown tile name 'Q'"),
        ("bad.toml:18:", "deck: removes 5 cards but has only 2"),
        ("bad.toml:19:", "deck: unknown substitute tile 'W9'"),
    ]
    assert len(lines) == len(expect), lines
    for line, (where, what) in zip(lines, expect, strict=True):
        assert line.strip().startswith(where) and what in line, line
    assert exc.value.line == 7


def test_default_edition_loads_and_round_trips_through_a_file(tmp_path: Path) -> None:
    ed = default_edition()
    assert (ed.rows, ed.cols, len(ed.tiles), ed.substitute) == (10, 10, 12, "D2")
    from importlib import resources

    text = resources.files("gnomekit.models.hedge_mage.data").joinpath("default.toml").read_text("utf-8")
    p = tmp_path / "copy.toml"
    p.write_text(text)
    assert load_edition(p).tiles == ed.tiles


def _default_text() -> str:
    from importlib import resources

    return resources.files("gnomekit.models.hedge_mage.data").joinpath("default.toml").read_text("utf-8")


TOML_VALUES = ['3', '-1', 'true', '"x"', '[]', '[1, "a"]', '[[0, 0], [99, 99]]', '{ a = 1 }', '{ f = ["x"] }',
               '[{ id = "e" }]', '[{ id = "e", kind = ["k"] }]', '1.5']


@pytest.mark.parametrize("value", TOML_VALUES)
@pytest.mark.parametrize("key", [
    "game", "rows", "numbered", "shaded", "D2", "cards", "removed", "substitute", "movement_token_cap",
    "kinds", "per_kind", "kind", "tunnel", "first_game",
])
def test_wrong_shapes_in_an_edition_raise_edition_error(key: str, value: str) -> None:
    """Replace one value of the default edition with something of another shape: never a crash."""
    import re

    text = _default_text()
    new, n = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", text, count=1)
    assert n == 1
    try:
        ed = edition_from_toml(parse_toml(new, "e.toml"))
    except EditionError as e:
        assert e.source == "e.toml"
        return
    assert ed.tiles  # accepted: still a usable edition


@pytest.mark.parametrize("table", ["edition", "garden", "tiles", "deck", "players", "gnomes", "setup",
                                   "enchantments"])
def test_a_table_replaced_by_a_value_raises_edition_error(table: str) -> None:
    import re

    text = _default_text()
    if table == "enchantments":
        new = re.sub(r"(?ms)^\[\[enchantments\]\]\n.*?(?=^\[|\Z)", "", text)
    else:
        new = re.sub(rf"(?ms)^\[{table}\]\n.*?(?=^\[|\Z)", "", text)
    new = f"{table} = 3\n" + new
    with pytest.raises(EditionError) as exc:
        edition_from_toml(parse_toml(new, "e.toml"))
    assert exc.value.line == 1, str(exc.value)


@pytest.mark.parametrize(("text", "line", "column"), [("a = [1, 2", 1, 10), ('x = "abc', 1, 9), ("[t]\nk =", 2, 4)])
def test_toml_errors_at_the_end_of_the_file_are_located(text: str, line: int, column: int) -> None:
    """tomllib says "(at end of document)" without a line; the error points at the file's end."""
    with pytest.raises(EditionError) as exc:
        parse_toml(text, "e.toml")
    assert (exc.value.source, exc.value.line, exc.value.column) == ("e.toml", line, column)
    assert "end of document" not in str(exc.value) and "at the end of the file" in str(exc.value)


@pytest.mark.parametrize("game", ["hedge-mage", "gnome-hollow", "gnomes-at-midnight", "hexen-rennen"])
def test_an_empty_edition_file_is_located_on_every_line(game: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the slow fuzz run: an empty Hexen edition named no line ("missing [[clans]] entries")."""
    from gnomekit.cli import main

    empty = tmp_path / "empty.toml"
    empty.write_text("")
    assert main([game, "new", "--edition", str(empty)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err and all(f"{empty}:1:1: " in line for line in err), err
