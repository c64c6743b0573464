"""The Gnomes at Midnight position: an immutable value with everything a turn depends on.

A position carries its own board (rows, cols, terrain, flowers, toadstools), so
any board a JSON position describes can be played, plus the gnomes on each
square (at most two, one colour), the off-board counts, the side to move, each
side's face-up moonlight card and remaining deck, the dance pattern, the turn
number, and the edition rules a turn needs (bump limit, full decks for a
reshuffle, whether the moon restricts adding).

Squares are indexed row-major (``index = row * cols + col``) internally;
``cells[i]`` is ``+k`` for k green gnomes, ``-k`` for k blue gnomes, 0 empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property

from gnomekit.models.core.grid import KING, Cell, normalise, transform
from gnomekit.models.gnomes_at_midnight.edition import COLOURS, TERRAIN_LETTERS, TERRAINS

GREEN, BLUE = 0, 1
NO_CARD = -1
Counts = tuple[int, int, int]  # cards per terrain (grass, tulips, cobblestone)


@dataclass(frozen=True)
class Board:
    """The fixed geometry of a game: size, terrain letters, flowers per colour, toadstools."""

    rows: int
    cols: int
    terrain: tuple[str, ...]
    flowers: tuple[tuple[Cell, ...], tuple[Cell, ...]]
    toadstools: tuple[Cell, ...]

    def __post_init__(self) -> None:
        # canonical order, so that a board equals itself read back from either notation
        object.__setattr__(self, "flowers", (tuple(sorted(self.flowers[0])), tuple(sorted(self.flowers[1]))))
        object.__setattr__(self, "toadstools", tuple(sorted(self.toadstools)))

    def index(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def cell(self, index: int) -> Cell:
        return divmod(index, self.cols)

    def in_bounds(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    @cached_property
    def size(self) -> int:
        return self.rows * self.cols

    @cached_property
    def terr(self) -> tuple[int, ...]:
        """Terrain index of every square (row-major)."""
        return tuple(TERRAIN_LETTERS.index(ch) for row in self.terrain for ch in row)

    @cached_property
    def nbrs(self) -> tuple[tuple[int, ...], ...]:
        """The up to 8 neighbours of every square, in a fixed order (row-major by target)."""
        out = []
        for i in range(self.size):
            r, c = self.cell(i)
            ns = [self.index((r + dr, c + dc)) for dr, dc in KING if self.in_bounds((r + dr, c + dc))]
            out.append(tuple(sorted(ns)))
        return tuple(out)

    @cached_property
    def flower_idx(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (tuple(self.index(c) for c in self.flowers[0]), tuple(self.index(c) for c in self.flowers[1]))

    @cached_property
    def toad_idx(self) -> tuple[int, ...]:
        return tuple(self.index(c) for c in self.toadstools)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Permutations of squares that keep terrain, toadstools and each colour's flowers.

        Only these may be used to identify positions (the dance check looks at
        every orientation, so it is unchanged by any of them).  The identity is first.
        """
        out: list[tuple[int, ...]] = []
        for k in range(8):
            perm: list[int] = []
            ok = True
            for i in range(self.size):
                r, c = self.cell(i)
                tr, tc = _board_map((r, c), k, self.rows, self.cols)
                if not self.in_bounds((tr, tc)):
                    ok = False
                    break
                perm.append(self.index((tr, tc)))
            if not ok or sorted(perm) != list(range(self.size)):
                continue
            if any(self.terr[i] != self.terr[perm[i]] for i in range(self.size)):
                continue
            if {perm[i] for i in self.toad_idx} != set(self.toad_idx):
                continue
            if any({perm[i] for i in fl} != set(fl) for fl in self.flower_idx):
                continue
            t = tuple(perm)
            if t not in out:
                out.append(t)
        return tuple(out)


def _board_map(cell: Cell, k: int, rows: int, cols: int) -> Cell:
    """Symmetry ``k`` of the square applied to a board cell, about the board's centre."""
    # work in doubled coordinates centred on the board
    r2, c2 = 2 * cell[0] - (rows - 1), 2 * cell[1] - (cols - 1)
    tr, tc = transform((r2, c2), k)
    return ((tr + rows - 1) // 2, (tc + cols - 1) // 2) if (tr + rows - 1) % 2 == 0 and (
        tc + cols - 1) % 2 == 0 else (-1, -1)


@cache
def dance_placements(rows: int, cols: int, pattern: tuple[Cell, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to lay the pattern on the board (translations x 8 symmetries), as square indices."""
    shapes: set[tuple[Cell, ...]] = set()
    for k in range(8):
        shapes.add(normalise(transform(c, k) for c in pattern))
    out: set[tuple[int, ...]] = set()
    for shape in shapes:
        h = max(r for r, _ in shape) + 1
        w = max(c for _, c in shape) + 1
        for dr in range(rows - h + 1):
            for dc in range(cols - w + 1):
                out.add(tuple(sorted((r + dr) * cols + (c + dc) for r, c in shape)))
    return tuple(sorted(out))


@cache
def dance_by_anchor(rows: int, cols: int, pattern: tuple[Cell, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Dance placements grouped by their smallest square (each placement appears once)."""
    groups: list[list[tuple[int, ...]]] = [[] for _ in range(rows * cols)]
    for pl in dance_placements(rows, cols, pattern):
        groups[pl[0]].append(pl)
    return tuple(tuple(g) for g in groups)


@dataclass(frozen=True)
class Position:
    """One game state between turns (immutable; build changed copies with ``dataclasses.replace``)."""

    board: Board
    cells: tuple[int, ...]
    off: tuple[int, int]
    to_move: int
    moon: tuple[int, int]  # face-up terrain per side, NO_CARD before its first flip
    known: tuple[tuple[int, ...], tuple[int, ...]]  # known deck order, next card first
    unknown: tuple[Counts, Counts]  # cards below the known ones, order unknown
    dance: tuple[Cell, ...]  # the face-up dance pattern, normalised
    turn: int = 1
    bump_limit: int = 3
    full_decks: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 0, 1, 1, 2, 2), (0, 0, 1, 1, 2, 2))
    moon_restricts_adding: bool = False
    edition: str = field(default="default", compare=False)

    # -- views ------------------------------------------------------------------------------------
    def count(self, index: int, side: int) -> int:
        """Gnomes of ``side`` on square ``index``."""
        v = self.cells[index]
        return v if side == GREEN and v > 0 else (-v if side == BLUE and v < 0 else 0)

    def on_board(self, side: int) -> int:
        return sum(self.count(i, side) for i in range(len(self.cells)))

    def gnome_cells(self, side: int) -> list[Cell]:
        """The squares of ``side``'s gnomes, a stacked square listed twice (row-major)."""
        out: list[Cell] = []
        for i in range(len(self.cells)):
            out += [self.board.cell(i)] * self.count(i, side)
        return out

    @property
    def dance_placements(self) -> tuple[tuple[int, ...], ...]:
        return dance_placements(self.board.rows, self.board.cols, self.dance)

    def deck_cards(self, side: int) -> Counts:
        """How many cards of each terrain are left in ``side``'s deck (known and unknown)."""
        k = self.known[side]
        u = self.unknown[side]
        return (k.count(0) + u[0], k.count(1) + u[1], k.count(2) + u[2])

    def hidden(self) -> Position:
        """The same position with every deck order forgotten (only the contents count)."""
        from dataclasses import replace

        return replace(self, known=((), ()), unknown=(self.deck_cards(0), self.deck_cards(1)))

    def problems(self) -> list[str]:
        """Every reason the position is not well formed (empty when it is)."""
        b = self.board
        out: list[str] = []
        if len(b.terrain) != b.rows or any(len(r) != b.cols for r in b.terrain):
            out.append(f"terrain must be {b.rows} rows of {b.cols} letters")
        for ch in sorted({ch for r in b.terrain for ch in r} - set(TERRAIN_LETTERS)):
            out.append(f"unknown terrain letter {ch!r} (use G T C)")
        for name, cs in (("flowers.green", b.flowers[0]), ("flowers.blue", b.flowers[1]),
                         ("toadstools", b.toadstools), ("dance", self.dance)):
            if len(set(cs)) != len(cs):
                out.append(f"{name}: a square is listed twice")
            if name != "dance":
                for c in cs:
                    if not b.in_bounds(c):
                        out.append(f"{name}: square {c[0]},{c[1]} is outside the {b.rows}x{b.cols} board")
        for c in sorted(set(b.flowers[0]) & set(b.flowers[1])):
            out.append(f"square {c[0]},{c[1]} is a flower of both colours")
        if not self.dance:
            out.append("dance: the pattern needs at least one square")
        if len(self.cells) != b.rows * b.cols:
            out.append("gnome table does not match the board size")
        for i, v in enumerate(self.cells):
            if abs(v) > 2:
                out.append(f"square {b.cell(i)[0]},{b.cell(i)[1]} holds {abs(v)} gnomes (at most 2)")
        for s in (0, 1):
            if self.off[s] < 0:
                out.append(f"off_board.{COLOURS[s]} must not be negative")
            if self.moon[s] not in (NO_CARD, 0, 1, 2):
                out.append(f"moon.{COLOURS[s]}: unknown terrain")
            if not self.full_decks[s]:
                out.append(f"the {COLOURS[s]} moonlight deck is empty")
        if self.to_move not in (0, 1):
            out.append("to_move must be green or blue")
        if self.turn < 1:
            out.append("turn must be 1 or more")
        if self.bump_limit < 1:
            out.append("bump_limit must be 1 or more")
        return out

    def warnings(self, gnomes_per_side: int | None = None) -> list[str]:
        """Things no game reaches, but the rules can still be applied to."""
        from gnomekit.models.gnomes_at_midnight.moves import win_conditions

        out: list[str] = []
        if gnomes_per_side is not None:
            for s in (0, 1):
                total = self.on_board(s) + self.off[s]
                if total != gnomes_per_side:
                    out.append(f"{COLOURS[s]} has {total} gnomes on and off the board, the edition has "
                               f"{gnomes_per_side}")
        other = 1 - self.to_move
        done = win_conditions(self, other)
        if done:
            out.append(f"{COLOURS[other]} (not to move) already meets: {', '.join(done)}; wins are only "
                       "checked after a turn, for the mover")
        return out


def terrain_name(t: int) -> str | None:
    return None if t == NO_CARD else TERRAINS[t]


def counts_of(cards: tuple[int, ...]) -> Counts:
    return (cards.count(0), cards.count(1), cards.count(2))
