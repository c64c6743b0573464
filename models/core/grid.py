"""Square lattice helpers: cells as ``(row, col)`` tuples, rows from the top."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
KING: tuple[Cell, ...] = ORTHOGONAL + ((-1, -1), (-1, 1), (1, 1), (1, -1))


def in_bounds(cell: Cell, rows: int, cols: int) -> bool:
    r, c = cell
    return 0 <= r < rows and 0 <= c < cols


def orthogonal_neighbours(cell: Cell, rows: int, cols: int) -> Iterator[Cell]:
    """The up to four orthogonal neighbours of ``cell`` inside the board."""
    r, c = cell
    for dr, dc in ORTHOGONAL:
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            yield (nr, nc)


def all_cells(rows: int, cols: int) -> Iterator[Cell]:
    for r in range(rows):
        for c in range(cols):
            yield (r, c)


def windows_2x2(rows: int, cols: int) -> Iterator[tuple[Cell, Cell, Cell, Cell]]:
    """Every 2x2 window, as its four cells (top-left first, row-major)."""
    for r in range(rows - 1):
        for c in range(cols - 1):
            yield ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))


def windows_containing(cell: Cell, rows: int, cols: int) -> Iterator[tuple[Cell, Cell, Cell, Cell]]:
    """The up to four 2x2 windows that contain ``cell``."""
    r, c = cell
    for tr in (r - 1, r):
        for tc in (c - 1, c):
            if 0 <= tr < rows - 1 and 0 <= tc < cols - 1:
                yield ((tr, tc), (tr, tc + 1), (tr + 1, tc), (tr + 1, tc + 1))


# The eight symmetries of the square, as functions on (row, col) offsets.
# Index = rotation (quarter turns clockwise) + 4 * flipped (mirror left-right first).
def transform(cell: Cell, index: int) -> Cell:
    """Apply symmetry ``index`` (0-7) to an offset: mirror if index >= 4, then rotate."""
    r, c = cell
    if index >= 4:
        c = -c
    for _ in range(index % 4):
        r, c = c, -r
    return (r, c)


def normalise(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Translate cells so the minimum row and column are 0; sorted."""
    cs = list(cells)
    mr = min(r for r, _ in cs)
    mc = min(c for _, c in cs)
    return tuple(sorted((r - mr, c - mc) for r, c in cs))


def is_edge_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one orthogonally connected polyomino."""
    cs = set(cells)
    if not cs:
        return False
    start = next(iter(cs))
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in ORTHOGONAL:
            n = (r + dr, c + dc)
            if n in cs and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cs)


def cell_name(cell: Cell) -> str:
    """How cells are written for people: ``r,c`` (0-based, row first)."""
    return f"{cell[0]},{cell[1]}"
