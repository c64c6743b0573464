"""Hexen Rennen component data: clans, tiles and cards, the track, the finish board, the die.

Nothing in the rules engine hard-codes a track length or a card: everything is
read from an edition file and validated here, every problem reported at once.

Field numbering follows from the edition: 0 is the start, 1..L the track tiles
(L = stages x clans x tiles_per_stage), L+1..L+F the finish fields.

Every count and value has a cap (:data:`CAPS`), far above any real box, so that no edition
file can make setup allocate without bound: e.g. ``witches = 99999999999`` is a located problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gnomekit.models.core.edition import (
    TomlSource,
    edition_meta,
    is_int,
    read_bundled_toml,
    read_toml_file,
    unknown_keys,
)

SYMBOL = 0  # the value of a symbol tile or card (number values are >= 1)
STOP = -1  # a decision to play no card


def small_int(s: str) -> int | None:
    """``s`` as a whole number when it is 1..9 ASCII digits, else None.

    ``str.isdigit`` accepts superscripts that ``int`` rejects, and ``int`` refuses strings over
    4,300 digits: a number token in a notation goes through here, never through ``int`` directly.
    """
    return int(s) if 0 < len(s) <= 9 and s.isascii() and s.isdigit() else None


@dataclass(frozen=True)
class Clan:
    id: str
    name: str
    letter: str


@dataclass(frozen=True)
class HexenEdition:
    """A validated Hexen Rennen edition."""

    name: str
    source: str
    reconstructed: bool
    clans: tuple[Clan, ...]
    numbers: tuple[int, ...]
    symbols: int
    witches: int
    stages: int
    tiles_per_stage: int
    symbols_per_stage: int
    finish_points: tuple[int, ...]
    die: tuple[int, ...]
    min_players: int
    max_players: int

    @property
    def clan_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.clans)

    @property
    def stage_length(self) -> int:
        return len(self.clans) * self.tiles_per_stage

    @property
    def track_length(self) -> int:
        """L: the number of track tiles (48 in the default edition)."""
        return self.stages * self.stage_length

    @property
    def last_field(self) -> int:
        """The highest field number (the last finish field, 51 by default)."""
        return self.track_length + len(self.finish_points)

    def is_finish(self, field: int) -> bool:
        return field > self.track_length

    def points(self, field: int) -> int:
        """Victory points of a field (0 unless it is a finish field)."""
        if self.is_finish(field):
            return self.finish_points[field - self.track_length - 1]
        return 0

    def stage_of(self, tile: int) -> int:
        """The stage (0-based) of track tile 1..L."""
        return (tile - 1) // self.stage_length

    def clan_index(self, clan: str) -> int:
        return self.clan_ids.index(clan)

    def clan_by_letter(self, letter: str) -> str | None:
        for c in self.clans:
            if c.letter == letter.upper():
                return c.id
        return None

    def letter(self, clan: str) -> str:
        return self.clans[self.clan_index(clan)].letter

    def full_set(self) -> tuple[int, ...]:
        """One clan's tiles (or cards): every number once and the symbols, sorted."""
        return tuple(sorted((SYMBOL,) * self.symbols + self.numbers))


# The caps of the edition format (see the module docstring): the highest count or value of each key.
CAPS: dict[str, int] = {
    "numbers": 1000, "symbols": 100, "witches": 100, "stages": 20, "tiles_per_stage": 100,
    "symbols_per_stage": 100, "finish_points": 100_000, "faces": 1000, "min": 25, "max": 25,
}
MAX_LIST = 100  # at most this many entries in numbers, finish_points and faces


def _shown(v: Any) -> str:
    """A value for a message, cut short (a 300 KB list is not quoted whole)."""
    s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _int_list(src: TomlSource, table: dict[str, Any], key: str, default: list[int] | None,
              low: int) -> tuple[int, ...]:
    v = table.get(key, default)
    high = CAPS[key]
    if v is None:
        src.problem(f"missing key '{key}'", "[")
        return ()
    if (not isinstance(v, list) or not v or len(v) > MAX_LIST
            or not all(is_int(x) and low <= x <= high for x in v)):
        src.problem(f"'{key}' must be a non-empty list of at most {MAX_LIST} whole numbers {low}..{high}, "
                    f"got {_shown(v)}", key, "=")
        return ()
    return tuple(v)


def _int(src: TomlSource, table: dict[str, Any], key: str, default: int, low: int) -> int:
    v = table.get(key, default)
    high = CAPS[key]
    if not is_int(v) or not low <= v <= high:
        src.problem(f"'{key}' must be a whole number {low}..{high}, got {_shown(v)}", key, "=")
        return max(low, default)
    return int(v)


KNOWN_KEYS: dict[str, set[str]] = {
    "edition": {"game", "name", "reconstructed", "description"},
    "components": {"numbers", "symbols", "witches"},
    "track": {"stages", "tiles_per_stage", "symbols_per_stage", "finish_points"},
    "die": {"faces"},
    "players": {"min", "max"},
}


def _unknown_keys(src: TomlSource, d: dict[str, Any]) -> None:
    """A misspelt key would silently fall back to its default: report it instead."""
    for key in d:
        if key not in KNOWN_KEYS and key != "clans":
            src.problem(f"unknown table or key {key!r}; expected one of "
                        f"{', '.join(sorted([*KNOWN_KEYS, 'clans']))}", key)
    for table, known in KNOWN_KEYS.items():
        t = d.get(table)
        if isinstance(t, dict):
            unknown_keys(src, table, t, known, "=")
    clans = d.get("clans")
    if isinstance(clans, list):
        for i, c in enumerate(clans):
            if isinstance(c, dict):
                for key in c:
                    if key not in ("id", "name", "letter"):
                        src.problem(f"clans[{i}]: unknown key {key!r}; expected id, name, letter", key, "=")


def edition_from_toml(src: TomlSource) -> HexenEdition:
    """Validate a parsed TOML document as a Hexen Rennen edition (all problems at once)."""
    d = src.data
    _unknown_keys(src, d)
    meta = edition_meta(src, "hexen-rennen")
    tables: dict[str, dict[str, Any]] = {}
    for name in ("components", "track", "die", "players"):
        t = d.get(name, {})
        if not isinstance(t, dict):
            src.problem(f"[{name}] must be a table", name)
            t = {}
        tables[name] = t
    comp, track, die_t, pl = tables["components"], tables["track"], tables["die"], tables["players"]
    numbers = _int_list(src, comp, "numbers", list(range(2, 11)), 1)
    if len(set(numbers)) != len(numbers):
        src.problem(f"'numbers' lists a value twice: {list(numbers)}", "numbers")
    numbers = tuple(sorted(set(numbers)))
    symbols = _int(src, comp, "symbols", 3, 0)
    witches = _int(src, comp, "witches", 3, 1)
    stages = _int(src, track, "stages", 3, 1)
    per_stage = _int(src, track, "tiles_per_stage", 4, 1)
    sym_stage = _int(src, track, "symbols_per_stage", 1, 0)
    finish = _int_list(src, track, "finish_points", [2, 3, 4], 0)
    faces = _int_list(src, die_t, "faces", [1, 2, 3, 4, 5, 6], 1)
    min_p = _int(src, pl, "min", 2, 1)
    max_p = _int(src, pl, "max", 4, 1)
    per_clan = len(numbers) + symbols
    if numbers and per_clan != stages * per_stage:
        src.problem(f"each clan has {per_clan} tiles ({len(numbers)} numbers + {symbols} symbols) but "
                    f"{stages} stages x tiles_per_stage {per_stage} = {stages * per_stage}", "tiles_per_stage")
    if symbols != stages * sym_stage:
        src.problem(f"each clan has {symbols} symbol tiles but {stages} stages x symbols_per_stage "
                    f"{sym_stage} = {stages * sym_stage}", "symbols_per_stage")
    if sym_stage > per_stage:
        src.problem("symbols_per_stage exceeds tiles_per_stage", "symbols_per_stage")
    clans: list[Clan] = []
    raw = d.get("clans")
    if not isinstance(raw, list) or not raw:
        src.problem("missing [[clans]] entries (id, name, letter)", "[[clans]]" if "[[clans]]" in src.text else "")
        raw = []
    for i, c in enumerate(raw):
        if not isinstance(c, dict) or "id" not in c:
            src.problem(f"clans[{i}]: needs at least id (and letter)", "[[clans]]")
            continue
        cid = c["id"]
        letter = c.get("letter", str(cid)[:1].upper())
        if not isinstance(cid, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", cid):
            src.problem(f"clans[{i}]: id must be a lower-case word, got {cid!r}", str(cid))
            continue
        if cid in {x.id for x in clans}:
            src.problem(f"clan {cid!r} is listed twice", cid)
            continue
        if not isinstance(letter, str) or not re.fullmatch(r"[A-Z]", letter) or letter == "S":
            src.problem(f"clan {cid}: letter must be one upper-case letter other than S, got {letter!r}", cid)
            continue
        if letter in {x.letter for x in clans}:
            src.problem(f"clan {cid}: letter {letter!r} is used twice", cid)
            continue
        clans.append(Clan(cid, str(c.get("name", cid.title())), letter))
    if clans and not (1 <= min_p <= max_p <= len(clans)):
        src.problem(f"players: need 1 <= min <= max <= {len(clans)} clans, got min {min_p} max {max_p}", "max")
    src.raise_if_problems()
    return HexenEdition(
        name=str(meta.get("name", Path(src.name).stem)),
        source=src.name,
        reconstructed=bool(meta.get("reconstructed", False)),
        clans=tuple(clans),
        numbers=numbers,
        symbols=symbols,
        witches=witches,
        stages=stages,
        tiles_per_stage=per_stage,
        symbols_per_stage=sym_stage,
        finish_points=finish,
        die=faces,
        min_players=min_p,
        max_players=max_p,
    )


@cache
def default_edition() -> HexenEdition:
    """The bundled, reconstructed default edition."""
    return edition_from_toml(read_bundled_toml("gnomekit.models.hexen_rennen.data", "default.toml"))


def load_edition(path: str | Path | None) -> HexenEdition:
    """Load an edition file, or the default one when ``path`` is None."""
    if path is None:
        return default_edition()
    return edition_from_toml(read_toml_file(path))
