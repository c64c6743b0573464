"""Hedge Mage component data: the garden, the hedge tiles, the deck.

Nothing in the rules engine hard-codes a board size or a tile: everything is
read from an edition file and validated here, with every problem reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gnomekit.models.core.edition import (
    TomlSource,
    check_game,
    is_int,
    read_bundled_toml,
    read_toml_file,
    unknown_keys,
    whole_number,
)
from gnomekit.models.core.grid import Cell, is_edge_connected, transform
from gnomekit.models.hedge_mage.scoring import RunningRules, parse_running_rules

# Gardens larger than this are surely typing mistakes (the notations cap them too).
MAX_SIDE = 64
RESERVED_LETTERS = set("W*^+.")


@dataclass(frozen=True)
class Orientation:
    """One distinct way to lay a tile: cells as offsets from the sigil cell."""

    index: int  # 0-7: rotation quarter turns clockwise + 4 if mirrored first
    offsets: tuple[Cell, ...]  # sorted offsets of every cell from the sigil cell


@dataclass(frozen=True)
class Tile:
    """A hedge tile: its cells (normalised offsets) and its sigil cell."""

    name: str
    cells: tuple[Cell, ...]
    sigil: Cell
    orientations: tuple[Orientation, ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    def orientation(self, index: int) -> Orientation:
        """The orientation with this symmetry index (any of 0-7; duplicates map to one)."""
        offs = _oriented(self.cells, self.sigil, index)
        for o in self.orientations:
            if o.offsets == offs:
                return o
        raise KeyError(index)  # pragma: no cover - every index maps to a stored orientation


def _oriented(cells: tuple[Cell, ...], sigil: Cell, index: int) -> tuple[Cell, ...]:
    sr, sc = sigil
    return tuple(sorted(transform((r - sr, c - sc), index) for r, c in cells))


def make_tile(name: str, rows: list[str]) -> Tile:
    """Build a tile from its picture (``@`` sigil, ``#`` hedge, ``.`` nothing)."""
    cells: list[Cell] = []
    sigil: Cell | None = None
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch in "@#":
                cells.append((r, c))
            if ch == "@":
                sigil = (r, c)
    assert sigil is not None
    seen: dict[tuple[Cell, ...], int] = {}
    for i in range(8):
        offs = _oriented(tuple(cells), sigil, i)
        seen.setdefault(offs, i)
    orients = tuple(Orientation(i, offs) for offs, i in seen.items())
    return Tile(name=name, cells=tuple(sorted(cells)), sigil=sigil, orientations=orients)


@dataclass(frozen=True)
class Enchantment:
    id: str
    name: str
    kind: str
    tunnel: int | None
    text: str


@dataclass(frozen=True)
class HedgeMageEdition:
    """A validated Hedge Mage edition."""

    name: str
    source: str
    reconstructed: bool
    rows: int
    cols: int
    numbered: tuple[Cell, ...]
    shaded: tuple[Cell, ...]
    tiles: dict[str, Tile]
    deck: tuple[str, ...]
    removed: int
    substitute: str | None
    movement_token_cap: int
    start_movement_tokens: int
    start_springshrooms: int
    mages: int
    gnome_kinds: dict[str, str]  # kind -> letter
    gnomes_per_kind: int
    enchantments: tuple[Enchantment, ...]
    first_game: tuple[str, ...]
    # maze running and scoring data (models/hedge_mage/scoring.py); empty when the edition has none
    running: RunningRules = field(default_factory=RunningRules)

    def tile(self, name: str) -> Tile:
        return self.tiles[name]

    def tile_order(self, name: str) -> int:
        """Position of a tile in the edition (deterministic tie-breaks)."""
        return list(self.tiles).index(name) if name in self.tiles else len(self.tiles)

    def kind_of_letter(self, letter: str) -> str | None:
        for kind, ch in self.gnome_kinds.items():
            if ch == letter.lower():
                return kind
        return None

    def enchantment(self, ident: str) -> Enchantment:
        for e in self.enchantments:
            if e.id == ident:
                return e
        raise KeyError(ident)


def _cell(src: TomlSource, value: Any, what: str, rows: int, cols: int) -> Cell | None:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(is_int(v) for v in value)
    ):
        src.problem(f"{what}: expected a cell [row, col], got {value!r}", what.split("[")[0])
        return None
    r, c = value
    if not (0 <= r < rows and 0 <= c < cols):
        src.problem(f"{what}: cell [{r}, {c}] is outside the {rows}x{cols} garden", f"[{r}, {c}]")
        return None
    return (r, c)


def _table(src: TomlSource, d: dict[str, Any], key: str) -> dict[str, Any]:
    """The table ``[key]`` (empty when missing; a problem when it is a plain value)."""
    v = d.get(key, {})
    if not isinstance(v, dict):
        src.problem(f"'{key}' must be a table [{key}], got {v!r}", f"{key} =")
        return {}
    return v


def _list(src: TomlSource, table: dict[str, Any], key: str, default: list[Any], what: str) -> list[Any]:
    """A list value (``default`` when missing; a problem when it is not a list)."""
    v = table.get(key, default)
    if not isinstance(v, list):
        src.problem(f"'{key}' must be a list of {what}, got {v!r}", key)
        return []
    return v


def _names(src: TomlSource, table: dict[str, Any], key: str, default: list[Any]) -> list[str]:
    """A list of names (strings); other entries are problems and dropped."""
    out = []
    for x in _list(src, table, key, default, "names"):
        if isinstance(x, str):
            out.append(x)
        else:
            src.problem(f"'{key}': expected names in quotes, got {x!r}", key)
    return out


def _missing(src: TomlSource, message: str) -> None:
    """A problem about a table that is not there: located at the file's last line, where it would go."""
    last = max(1, len(src.text.splitlines()))
    src.problems.append(f"{src.name}:{last}:1: {message} (end of file)")


def edition_from_toml(src: TomlSource) -> HedgeMageEdition:
    """Validate a parsed TOML document as a Hedge Mage edition (all problems at once)."""
    d = src.data
    meta = _table(src, d, "edition")
    check_game(src, meta, "hedge-mage")
    garden = d.get("garden")
    if "garden" in d and not isinstance(garden, dict):
        garden = _table(src, d, "garden")
    elif not isinstance(garden, dict):
        _missing(src, "missing table [garden] (rows, cols, numbered, shaded)")
        garden = {}
    rows = whole_number(src, garden, "rows", None, 2) if garden else 2
    cols = whole_number(src, garden, "cols", None, 2) if garden else 2
    if rows > MAX_SIDE or cols > MAX_SIDE:
        src.problem(f"garden: a side of at most {MAX_SIDE} is supported, got {rows}x{cols}", "rows")
        rows, cols = min(rows, MAX_SIDE), min(cols, MAX_SIDE)
    unknown_keys(src, "edition", meta, {"game", "name", "reconstructed", "description"})
    unknown_keys(src, "garden", garden, {"rows", "cols", "numbered", "shaded"})
    numbered: list[Cell] = []
    for i, v in enumerate(_list(src, garden, "numbered", [], "cells [row, col]")):
        cell = _cell(src, v, f"numbered[{i}]", rows, cols)
        if cell:
            numbered.append(cell)
    shaded: list[Cell] = []
    for i, v in enumerate(_list(src, garden, "shaded", [], "cells [row, col]")):
        cell = _cell(src, v, f"shaded[{i}]", rows, cols)
        if cell:
            shaded.append(cell)
    allshaded = numbered + shaded
    dups = {c for c in allshaded if allshaded.count(c) > 1}
    for c in sorted(dups):
        src.problem(f"shaded space [{c[0]}, {c[1]}] is listed twice", f"[{c[0]}, {c[1]}]")

    tiles: dict[str, Tile] = {}
    raw_tiles = d.get("tiles")
    if "tiles" in d and not isinstance(raw_tiles, dict):
        raw_tiles = _table(src, d, "tiles")
    elif not isinstance(raw_tiles, dict) or not raw_tiles:
        _missing(src, "missing table [tiles] (name = [picture rows])")
        raw_tiles = {}
    for name, pic in raw_tiles.items():
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            src.problem(f"tile {name!r}: names may use letters, digits and _ only (placement notation)", name)
            continue
        if not isinstance(pic, list) or not pic or not all(isinstance(x, str) for x in pic):
            src.problem(f"tile {name}: expected a list of picture rows like [\"@#\"]", name)
            continue
        chars = "".join(pic)
        bad = sorted(set(chars) - set("@#."))
        if bad:
            src.problem(f"tile {name}: unknown character(s) {bad} (use @ # .)", name)
            continue
        if chars.count("@") != 1:
            src.problem(f"tile {name}: needs exactly one sigil '@', has {chars.count('@')}", name)
            continue
        cells = [(r, c) for r, row in enumerate(pic) for c, ch in enumerate(row) if ch in "@#"]
        if not is_edge_connected(cells):
            src.problem(f"tile {name}: shape is not edge-connected", name)
            continue
        cellset = set(cells)
        if any({(r, c + 1), (r + 1, c), (r + 1, c + 1)} <= cellset for r, c in cells):
            src.problem(f"tile {name}: shape holds a 2x2 block, so the 2x2 rule forbids every placement", name)
            continue
        tiles[name] = make_tile(name, pic)

    deck_t = _table(src, d, "deck")
    cards = _names(src, deck_t, "cards", list(tiles))
    for card in cards:
        if card not in tiles and raw_tiles and card not in raw_tiles:
            src.problem(f"deck: unknown tile name {card!r}", "cards", str(card))
    unknown_keys(src, "deck", deck_t, {"cards", "removed", "substitute"})
    if not cards:
        src.problem("deck: cards is empty; a game needs at least one hedge card", "cards")
    removed = whole_number(src, deck_t, "removed", 0, 0)
    if removed > len(cards):
        src.problem(f"deck: removes {removed} cards but has only {len(cards)}", "removed")
    substitute = deck_t.get("substitute")
    if substitute is not None and not isinstance(substitute, str):
        src.problem(f"deck: substitute must be a tile name in quotes, got {substitute!r}", "substitute")
        substitute = None
    if substitute is not None and substitute not in raw_tiles:
        src.problem(f"deck: unknown substitute tile {substitute!r}", "substitute")

    players = _table(src, d, "players")
    cap = whole_number(src, players, "movement_token_cap", 6, 0)
    start_tokens = whole_number(src, players, "start_movement_tokens", 4, 0)
    start_shrooms = whole_number(src, players, "start_springshrooms", 1, 0)
    mages = whole_number(src, players, "mages", 2, 0)
    if mages > rows * cols:  # a mage stands on a space: more cannot be set up (and would allocate without bound)
        src.problem(f"players: at most {rows * cols} mages fit in the {rows}x{cols} garden, got {mages}", "mages")
        mages = rows * cols

    gn = _table(src, d, "gnomes")
    kinds = gn.get("kinds", {"flower": "f", "mushroom": "m", "pumpkin": "p"})
    gkinds: dict[str, str] = {}
    if not isinstance(kinds, dict):
        src.problem("gnomes.kinds: expected a table kind = letter", "kinds")
        kinds = {}
    for kind, letter in kinds.items():
        if not isinstance(letter, str) or len(letter) != 1 or not letter.isalpha():
            src.problem(f"gnome kind {kind}: letter must be one letter, got {letter!r}", kind)
            continue
        if letter.upper() in RESERVED_LETTERS or letter.lower() in gkinds.values():
            src.problem(f"gnome kind {kind}: letter {letter!r} is reserved or used twice", kind)
            continue
        gkinds[kind] = letter.lower()
    per_kind = whole_number(src, gn, "per_kind", 4, 0)
    if per_kind > rows * cols:  # each gnome starts on its own space: more cannot be set up
        src.problem(f"gnomes: at most {rows * cols} gnomes of a kind fit in the {rows}x{cols} garden, "
                    f"got per_kind = {per_kind}", "per_kind")
        per_kind = rows * cols
    unknown_keys(src, "gnomes", gn, {"kinds", "per_kind"})

    enchs: list[Enchantment] = []
    for i, e in enumerate(_list(src, d, "enchantments", [], "[[enchantments]] tables")):
        if not isinstance(e, dict) or "id" not in e or "kind" not in e:
            src.problem(f"enchantments[{i}]: needs at least id and kind", "[[enchantments]]")
            continue
        if not isinstance(e["kind"], str) or e["kind"] not in gkinds:
            src.problem(f"enchantment {e['id']}: unknown gnome kind {e['kind']!r}", str(e["id"]))
        tunnel = e.get("tunnel")
        if tunnel is not None and not (
            is_int(tunnel) and 1 <= tunnel <= len(numbered)
        ):
            src.problem(
                f"enchantment {e['id']}: tunnel must be a numbered space 1..{len(numbered)}",
                str(e["id"]),
            )
            tunnel = None
        enchs.append(
            Enchantment(str(e["id"]), str(e.get("name", e["id"])), str(e["kind"]), tunnel,
                        str(e.get("text", "")))
        )
    ids = {e.id for e in enchs}
    first_game = _names(src, _table(src, d, "setup"), "first_game", [e.id for e in enchs][:3])
    for ident in first_game:
        if ident not in ids:
            src.problem(f"setup.first_game: unknown enchantment {ident!r}", "first_game")
    running = parse_running_rules(d, tuple(gkinds), per_kind, src.problem)
    src.raise_if_problems()
    return HedgeMageEdition(
        name=str(meta.get("name", Path(src.name).stem)),
        source=src.name,
        reconstructed=bool(meta.get("reconstructed", False)),
        rows=rows,
        cols=cols,
        numbered=tuple(numbered),
        shaded=tuple(shaded),
        tiles=tiles,
        deck=tuple(cards),
        removed=removed,
        substitute=substitute,
        movement_token_cap=cap,
        start_movement_tokens=start_tokens,
        start_springshrooms=start_shrooms,
        mages=mages,
        gnome_kinds=gkinds,
        gnomes_per_kind=per_kind,
        enchantments=tuple(enchs),
        first_game=tuple(first_game),
        running=running,
    )


@cache
def default_edition() -> HedgeMageEdition:
    """The bundled, reconstructed default edition."""
    return edition_from_toml(read_bundled_toml("gnomekit.models.hedge_mage.data", "default.toml"))


def load_edition(path: str | Path | None) -> HedgeMageEdition:
    """Load an edition file, or the default one when ``path`` is None."""
    if path is None:
        return default_edition()
    return edition_from_toml(read_toml_file(path))
