"""gnomekit.models.core.grid (square lattice, symmetries, windows) and models.core.errors (located errors)."""

from __future__ import annotations

import pytest
from gnomekit.models.core.errors import EditionError, GnomekitError, IllegalMoveError, NotationError, UsageError
from gnomekit.models.core.grid import (
    all_cells,
    cell_name,
    in_bounds,
    is_edge_connected,
    normalise,
    orthogonal_neighbours,
    transform,
    windows_2x2,
    windows_containing,
)

L4 = ((0, 0), (0, 1), (0, 2), (1, 0))  # @## over #..


def test_transform_meaning() -> None:
    # index 1 is a quarter turn clockwise: right -> down -> left -> up
    assert [transform((0, 1), i) for i in range(4)] == [(0, 1), (1, 0), (0, -1), (-1, 0)]
    # index 4 mirrors left-right first, then rotates like index - 4
    assert transform((0, 1), 4) == (0, -1) and transform((1, 0), 4) == (1, 0)
    assert transform((0, 1), 5) == (-1, 0)


def test_eight_symmetries_form_the_dihedral_group() -> None:
    shapes = {normalise(transform(c, i) for c in L4) for i in range(8)}
    assert len(shapes) == 8  # L4 has no symmetry
    square = ((0, 0), (0, 1), (1, 0), (1, 1))
    assert len({normalise(transform(c, i) for c in square) for i in range(8)}) == 1
    for i in range(8):
        for cell in ((2, 3), (-1, 4)):
            assert transform(transform(cell, i), 0) == transform(cell, i)
            if i >= 4:  # reflections are involutions
                assert transform(transform(cell, i), i) == cell


def test_windows_and_neighbours_count() -> None:
    for rows, cols in ((1, 1), (1, 5), (2, 2), (3, 7), (6, 4)):
        ws = list(windows_2x2(rows, cols))
        assert len(ws) == max(0, rows - 1) * max(0, cols - 1) and len(set(ws)) == len(ws)
        for cell in all_cells(rows, cols):
            containing = list(windows_containing(cell, rows, cols))
            assert sorted(containing) == sorted(w for w in ws if cell in w)
            ns = list(orthogonal_neighbours(cell, rows, cols))
            assert all(in_bounds(n, rows, cols) and abs(n[0] - cell[0]) + abs(n[1] - cell[1]) == 1 for n in ns)
            r, c = cell
            assert len(ns) == (r > 0) + (r < rows - 1) + (c > 0) + (c < cols - 1)
    assert list(windows_2x2(2, 3)) == [((0, 0), (0, 1), (1, 0), (1, 1)), ((0, 1), (0, 2), (1, 1), (1, 2))]


def test_shapes_helpers() -> None:
    assert normalise([(5, 7), (4, 9), (5, 8)]) == ((0, 2), (1, 0), (1, 1))  # translated, sorted
    assert is_edge_connected(L4) and is_edge_connected([(3, 3)])
    assert not is_edge_connected([(0, 0), (1, 1)]) and not is_edge_connected([])
    assert cell_name((3, 12)) == "3,12"
    assert not in_bounds((-1, 0), 3, 3) and not in_bounds((0, 3), 3, 3) and in_bounds((2, 2), 3, 3)


@pytest.mark.parametrize("cls", [NotationError, EditionError, IllegalMoveError, UsageError])
def test_errors_are_value_errors_with_locations(cls: type[GnomekitError]) -> None:
    e = cls("expected a tile", source="g.txt", line=3, column=7, text="Q9")
    assert isinstance(e, ValueError) and isinstance(e, GnomekitError)
    assert str(e) == "g.txt:3:7: expected a tile (found 'Q9')"
    assert e.to_json() == {"error": cls.__name__, "message": "expected a tile", "source": "g.txt", "line": 3,
                           "column": 7, "text": "Q9"}
    with pytest.raises(ValueError, match="expected a tile"):
        raise e


def test_error_where_and_located() -> None:
    assert str(NotationError("bad")) == "<input>: bad"
    assert NotationError("bad", source="f", line=2).where() == "f:2"
    assert NotationError("bad", source="f", column=4).where() == "f"  # a column needs a line
    e = NotationError("bad", line=5)
    assert e.located("x.json", 9, 2) is e and (e.source, e.line, e.column) == ("x.json", 5, 2)


def test_an_option_error_names_the_option_not_an_input() -> None:
    assert str(UsageError("--turns must be 0 or more")) == "--turns must be 0 or more"
    assert str(UsageError("--turns must be 0 or more", source="g.txt")) == "g.txt: --turns must be 0 or more"
    assert str(UsageError("no placements")) == "<input>: no placements"
