"""Gnomes at Midnight component data: board, flowers, toadstools, decks, dance cards.

Nothing in the rules engine hard-codes a board size or a card: everything is
read from an edition file (TOML) and validated here, every problem reported
at once with the line where it stands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from gnomekit.models.core.edition import (
    TomlSource,
    edition_meta,
    is_int,
    read_bundled_toml,
    read_toml_file,
    whole_number,
)
from gnomekit.models.core.grid import Cell, normalise

TERRAINS: tuple[str, ...] = ("grass", "tulips", "cobblestone")
TERRAIN_LETTERS = "GTC"  # index i: letter of TERRAINS[i]
COLOURS: tuple[str, ...] = ("green", "blue")
BUNDLED = ("default", "mini")
MAX_SIDE = 100  # the most rows or columns a board may have (editions and positions): a bound on memory
MAX_GNOMES = 100  # the most gnomes a side may have in an edition


def capped(src: TomlSource, key: str, value: int, cap: int) -> int:
    """``value`` when it is at most ``cap``; else a problem at the key, and ``cap`` so checking goes on."""
    if value > cap:
        src.problem(f"'{key}' must be at most {cap}, got {value}", key)
        return cap
    return value


def terrain_index(name: str) -> int | None:
    """Index of a terrain given by name (``grass``) or letter (``G``), else None."""
    if name in TERRAINS:
        return TERRAINS.index(name)
    if len(name) == 1 and name.upper() in TERRAIN_LETTERS:
        return TERRAIN_LETTERS.index(name.upper())
    return None


@dataclass(frozen=True)
class DanceCard:
    """A dance pattern: its name and its squares (translated to start at 0,0)."""

    name: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class MidnightEdition:
    """A validated Gnomes at Midnight edition."""

    name: str
    source: str
    reconstructed: bool
    rows: int
    cols: int
    terrain: tuple[str, ...]  # one string of letters G/T/C per row
    toadstools: tuple[Cell, ...]
    flowers: tuple[tuple[Cell, ...], tuple[Cell, ...]]  # green, blue
    gnomes: int  # per side
    bump_limit: int
    first: int  # 0 green, 1 blue
    setup: tuple[tuple[Cell, ...], tuple[Cell, ...]]
    decks: tuple[tuple[int, ...], tuple[int, ...]]  # full moonlight deck per side (terrain indices)
    dance: tuple[DanceCard, ...]
    moon_restricts_adding: bool = False

    def with_options(self, moon_restricts_adding: bool | None = None) -> MidnightEdition:
        """The same edition with rule options changed (None keeps the edition's value)."""
        if moon_restricts_adding is None:
            return self
        return replace(self, moon_restricts_adding=moon_restricts_adding)

    def dance_card(self, name: str) -> DanceCard | None:
        for d in self.dance:
            if d.name == name:
                return d
        return None


def _where(src: TomlSource, *choices: tuple[str, ...]) -> tuple[str, ...]:
    """The first needles that locate a line (the last choice, else line 1, when none does)."""
    for needles in choices:
        if src.locate(*needles)[0] is not None:
            return needles
    return ("",)  # the empty needle is on line 1: what is missing has no line of its own


def _locate_rest(src: TomlSource) -> None:
    """Give every problem recorded without a line (its key is missing or spelt otherwise) the line of
    its table's header, e.g. ``[board]`` for ``board.toadstools: ...``, else line 1."""
    prefix = src.name + ": "
    for i, p in enumerate(src.problems):
        if not p.startswith(prefix):
            continue
        message = p[len(prefix):]
        m = re.match(r"(?:missing table \[)?\[?([a-z_]+)", message)
        table = m.group(1) if m else ""
        line, col = src.locate(f"[{table}]") if table else (None, None)
        if line is None:
            line, col = src.locate(f"[[{table}]]") if table else (None, None)
        src.problems[i] = f"{src.name}:{line or 1}:{col or 1}: {message}"


def _cells(src: TomlSource, value: Any, what: str, needle: str, rows: int, cols: int) -> list[Cell]:
    """A list of in-board cells; every bad entry is recorded as a problem."""
    out: list[Cell] = []
    if not isinstance(value, list):
        src.problem(f"{what}: expected a list of cells [[row, col], ...], got {value!r}", *_where(src, (needle,)))
        return out
    for i, v in enumerate(value):
        if not isinstance(v, list) or len(v) != 2 or not all(is_int(x) for x in v):
            src.problem(f"{what}[{i}]: expected a cell [row, col], got {v!r}", *_where(src, (needle,)))
            continue
        r, c = v
        if not (0 <= r < rows and 0 <= c < cols):
            src.problem(f"{what}[{i}]: cell [{r}, {c}] is outside the {rows}x{cols} board",
                        *_where(src, (needle, f"[{r}, {c}]"), (f"[{r}, {c}]",), (f"{r}, {c}",), (needle,)))
            continue
        out.append((r, c))
    return out


def _table(src: TomlSource, d: dict[str, Any], key: str, what: str) -> dict[str, Any]:
    t = d.get(key)
    if not isinstance(t, dict):
        src.problem(f"missing table [{key}] ({what})", *_where(src, (f"[{key}",), (key,)))
        return {}
    return t


def edition_from_toml(src: TomlSource) -> MidnightEdition:
    """Validate a parsed TOML document as a Gnomes at Midnight edition (all problems at once)."""
    d = src.data
    meta = edition_meta(src, "gnomes-at-midnight")
    board = _table(src, d, "board", "rows, cols, terrain, toadstools")
    rows = capped(src, "rows", whole_number(src, board, "rows", None, 1), MAX_SIDE) if board else 1
    cols = capped(src, "cols", whole_number(src, board, "cols", None, 1), MAX_SIDE) if board else 1
    terrain_raw = board.get("terrain")
    terrain: list[str] = []
    if not isinstance(terrain_raw, list) or not all(isinstance(x, str) for x in terrain_raw):
        if board:
            src.problem("board.terrain: expected a list of row strings of G, T, C",
                        *_where(src, ("terrain =",), ("terrain=",), ("[board]",)))
        terrain = ["G" * cols] * rows
    else:
        if len(terrain_raw) != rows:
            src.problem(f"board.terrain: expected {rows} rows, found {len(terrain_raw)}", "terrain")
        for i, row in enumerate(terrain_raw):
            bad = sorted(set(row) - set(TERRAIN_LETTERS))
            if bad:
                src.problem(f"board.terrain row {i}: unknown terrain letter(s) {bad} (use G T C)", row)
            if len(row) != cols:
                src.problem(f"board.terrain row {i}: expected {cols} letters, found {len(row)}", row)
        terrain = [(row + "G" * cols)[:cols] for row in terrain_raw][:rows]
        terrain += ["G" * cols] * (rows - len(terrain))
    toads = _cells(src, board.get("toadstools", []), "board.toadstools", "toadstools", rows, cols)
    if len(set(toads)) != len(toads):
        src.problem("board.toadstools: a square is listed twice", "toadstools")
    if board and not toads:
        src.problem("board.toadstools: at least one toadstool is needed", "toadstools")

    fl = _table(src, d, "flowers", "green = [cells], blue = [cells]")
    flowers: list[list[Cell]] = []
    for colour in COLOURS:
        cs = _cells(src, fl.get(colour, []), f"flowers.{colour}", colour, rows, cols) if fl else []
        if fl and not cs:
            src.problem(f"flowers.{colour}: at least one flower is needed", "[flowers]")
        if len(set(cs)) != len(cs):
            src.problem(f"flowers.{colour}: a square is listed twice", colour)
        flowers.append(cs)
    for c in sorted(set(flowers[0]) & set(flowers[1])):
        src.problem(f"flowers: square [{c[0]}, {c[1]}] is a flower of both colours", "[flowers]")

    players = d.get("players", {})
    if not isinstance(players, dict):
        src.problem("[players] must be a table", "players")
        players = {}
    gnomes = capped(src, "gnomes", whole_number(src, players, "gnomes", 5, 1), MAX_GNOMES)
    bump_limit = whole_number(src, players, "bump_limit", None, 1)
    if bump_limit > gnomes:
        src.problem(f"players.bump_limit {bump_limit} is more than the {gnomes} gnomes a side",
                    "bump_limit")
    first_s = players.get("first", "green")
    if first_s not in COLOURS:
        src.problem(f"players.first must be 'green' or 'blue', got {first_s!r}", "first")
        first_s = "green"

    st = _table(src, d, "setup", "green = [cells], blue = [cells]")
    setup: list[list[Cell]] = []
    for k, colour in enumerate(COLOURS):
        cs = _cells(src, st.get(colour, []), f"setup.{colour}", colour, rows, cols) if st else []
        if len(cs) > gnomes:
            src.problem(f"setup.{colour}: {len(cs)} gnomes but a side has {gnomes}", colour)
        for c in sorted(set(cs)):
            if cs.count(c) > 2:
                src.problem(f"setup.{colour}: {cs.count(c)} gnomes on [{c[0]}, {c[1]}] (at most 2)",
                            colour)
        other = set(setup[0]) if k == 1 else set()
        for c in sorted(set(cs) & other):
            src.problem(f"setup: square [{c[0]}, {c[1]}] holds gnomes of both colours", colour)
        setup.append(cs)

    ml = _table(src, d, "moonlight", "green = [terrains], blue = [terrains]")
    decks: list[tuple[int, ...]] = []
    for colour in COLOURS:
        raw = ml.get(colour, []) if ml else []
        cards: list[int] = []
        if not isinstance(raw, list) or not raw:
            if ml:
                src.problem(f"moonlight.{colour}: expected a non-empty list of terrains", colour)
        else:
            for x in raw:
                t = terrain_index(x) if isinstance(x, str) and len(x) > 1 else None
                if t is None:
                    src.problem(f"moonlight.{colour}: unknown terrain {x!r} (grass, tulips, cobblestone)",
                                colour)
                else:
                    cards.append(t)
        decks.append(tuple(cards))

    opts = d.get("options", {})
    if not isinstance(opts, dict):
        src.problem("[options] must be a table", "options")
        opts = {}
    for key in opts:
        if key not in ("moon_restricts_adding",):
            src.problem(f"options: unknown option {key!r} (known: moon_restricts_adding)", key)
    mra = opts.get("moon_restricts_adding", False)
    if not isinstance(mra, bool):
        src.problem("options.moon_restricts_adding must be true or false", "moon_restricts_adding")
        mra = False

    dances: list[DanceCard] = []
    raw_dance = d.get("dance", [])
    if not isinstance(raw_dance, list) or not raw_dance:
        src.problem("at least one [[dance]] card (name, cells) is needed", *_where(src, ("dance",)))
        raw_dance = []
    names: set[str] = set()
    for i, dc in enumerate(raw_dance):
        if not isinstance(dc, dict) or "cells" not in dc:
            src.problem(f"dance[{i}]: needs name and cells", "[[dance]]")
            continue
        name = str(dc.get("name", f"dance-{i + 1}"))
        if name in names:
            src.problem(f"dance[{i}]: name {name!r} used twice", name)
        names.add(name)
        cells = _cells(src, dc["cells"], f"dance[{i}] ({name})", name, 10**6, 10**6)
        if not cells:
            src.problem(f"dance[{i}] ({name}): needs at least one cell", name)
            continue
        if len(set(cells)) != len(cells):
            src.problem(f"dance[{i}] ({name}): a cell is listed twice", name)
            continue
        dances.append(DanceCard(name, normalise(cells)))
    _locate_rest(src)
    src.raise_if_problems()
    return MidnightEdition(
        name=str(meta.get("name", Path(src.name).stem)),
        source=src.name,
        reconstructed=bool(meta.get("reconstructed", False)),
        rows=rows,
        cols=cols,
        terrain=tuple(terrain),
        toadstools=tuple(toads),
        flowers=(tuple(flowers[0]), tuple(flowers[1])),
        gnomes=gnomes,
        bump_limit=bump_limit,
        first=COLOURS.index(first_s),
        setup=(tuple(setup[0]), tuple(setup[1])),
        decks=(decks[0], decks[1]),
        dance=tuple(dances),
        moon_restricts_adding=mra,
    )


@cache
def bundled_edition(name: str) -> MidnightEdition:
    """A bundled edition by name (``default`` or ``mini``)."""
    return edition_from_toml(read_bundled_toml("gnomekit.models.gnomes_at_midnight.data", f"{name}.toml"))


def default_edition() -> MidnightEdition:
    """The bundled, reconstructed default edition."""
    return bundled_edition("default")


def load_edition(path: str | Path | None) -> MidnightEdition:
    """Load an edition: None for the default, a bundled name (``mini``), or a TOML file."""
    if path is None:
        return default_edition()
    if str(path) in BUNDLED:
        return bundled_edition(str(path))
    return edition_from_toml(read_toml_file(path))
