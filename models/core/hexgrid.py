"""Axial hex lattice: cells, edges, neighbours, rotations and the mirror.

Convention (documented in docs/formats-gnome-hollow.md, used by every hex game here):

* A cell is an axial pair ``(q, r)`` of integers; the third cube coordinate is ``s = -q - r``.
* Hexes are *flat-topped*.  ``q`` grows to the east (columns), ``r`` grows to the south-south-west
  along a column, so ``(0, 1)`` is straight south of ``(0, 0)``.
* The six edges of a hex are numbered 0-5 **clockwise starting at north**: 0 north, 1 north-east,
  2 south-east, 3 south, 4 south-west, 5 north-west.  Edge ``e`` of a cell faces the neighbour
  ``cell + DIRECTIONS[e]`` and touches that neighbour's edge ``opposite(e) = (e + 3) % 6``.
* Rotation ``k`` (0-5) turns a tile clockwise by ``k`` sixths of a turn: a feature on edge ``e``
  moves to edge ``(e + k) % 6``.
* The mirror (the back of a tile) reflects across the north-south axis through edges 0 and 3:
  edge ``e`` becomes ``(6 - e) % 6`` (0 and 3 stay, 1<->5, 2<->4).
* An orientation index ``o`` in 0-11 means: mirror first if ``o >= 6``, then rotate by ``o % 6``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Hex = tuple[int, int]

EDGE_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
ORIENTATIONS = 12


def neighbour(cell: Hex, edge: int) -> Hex:
    """The cell that edge ``edge`` of ``cell`` faces."""
    dq, dr = DIRECTIONS[edge]
    return (cell[0] + dq, cell[1] + dr)


def neighbours(cell: Hex) -> Iterator[Hex]:
    """The six neighbours of ``cell``, in edge order 0-5."""
    q, r = cell
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def opposite(edge: int) -> int:
    """The edge of the neighbour that edge ``edge`` touches."""
    return (edge + 3) % 6


def edge_towards(cell: Hex, other: Hex) -> int | None:
    """Which edge of ``cell`` faces ``other`` (None when they are not neighbours)."""
    d = (other[0] - cell[0], other[1] - cell[1])
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        return None


def are_adjacent(a: Hex, b: Hex) -> bool:
    return edge_towards(a, b) is not None


def rotate_edge(edge: int, k: int) -> int:
    """Edge ``edge`` after turning the tile clockwise by ``k`` sixths."""
    return (edge + k) % 6


def mirror_edge(edge: int) -> int:
    """Edge ``edge`` after flipping the tile over (north-south mirror axis)."""
    return (6 - edge) % 6


def orient_edge(edge: int, orientation: int) -> int:
    """Edge ``edge`` under orientation ``orientation`` (0-11: mirror if >= 6, then rotate)."""
    if not 0 <= orientation < ORIENTATIONS:
        raise ValueError(f"orientation must be 0-11, got {orientation}")
    e = mirror_edge(edge) if orientation >= 6 else edge
    return rotate_edge(e, orientation % 6)


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring_of(center: Hex, radius: int) -> list[Hex]:
    """The cells at exactly ``radius`` steps from ``center`` (clockwise from the north)."""
    if radius == 0:
        return [center]
    out: list[Hex] = []
    q, r = center[0] + DIRECTIONS[0][0] * radius, center[1] + DIRECTIONS[0][1] * radius
    for side in range(6):
        dq, dr = DIRECTIONS[(side + 2) % 6]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def frontier(cells: Iterable[Hex]) -> set[Hex]:
    """Empty cells adjacent to at least one of ``cells``."""
    occupied = set(cells)
    return {n for c in occupied for n in neighbours(c) if n not in occupied}


def hex_name(cell: Hex) -> str:
    """How cells are written for people: ``q,r``."""
    return f"{cell[0]},{cell[1]}"
