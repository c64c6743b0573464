"""Hedge Mage notations: the garden as text and JSON, placements as text and JSON.

Text garden (for people; see docs/formats.md)::

    hedge-mage garden
    edition: default
    round: 3
    tile: L4
    remaining: D2 I3 L3 L3e I4 L4 L4m T4 T4e S4
    substitution: unused
    held-bonus-sigils: 0
    hedges: a=I3m b=N5

         0   1   2   3   4   5   6   7   8   9
      0  .   .   f   .   .   .   .   +W  .   .
      1  .   a   A*  a   .   .   .   .   .   .
      ...

Each cell is one token: a base character then markers.  Base: ``.`` ground,
``+`` tunnel, a lower-case letter a hedge cell of that hedge, the upper-case
letter its sigil cell.  Markers: ``*`` bonus sigil token, ``^`` springshroom,
``W`` a mage, a gnome letter (lower case asleep, upper case awake).
Both notations round-trip exactly: parse(print(g)) == g.
"""

from __future__ import annotations

import re
import string
from typing import Any

from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.grid import Cell
from gnomekit.models.core.jsonpos import JsonReader, loads_with_positions
from gnomekit.models.core.text import FORMAT_LINE, FORMAT_VERSION, format_problem, is_count
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.placement import ORIENTATION_NAMES, Placement, placement_at
from gnomekit.models.hedge_mage.position import Garden, Gnome, Hedge, Mage, Problem

HEADER = "hedge-mage garden"
HEDGE_LETTERS = string.ascii_lowercase
# Larger gardens are surely typing mistakes, and would make enumeration crawl.
MAX_SIDE = 64


# ---------------------------------------------------------------------------------------------
# JSON


def garden_to_json(g: Garden) -> dict[str, Any]:
    """The garden as a JSON-ready dict (the documented keys, in a stable order)."""
    return {
        "game": "hedge-mage",
        "format": FORMAT_VERSION,
        "edition": g.edition,
        "rows": g.rows,
        "cols": g.cols,
        "round": g.round,
        "tile": g.tile,
        "remaining_tiles": list(g.remaining_tiles),
        "substitution_used": g.substitution_used,
        "kept_tile": g.kept_tile,
        "held_bonus_sigils": g.held_bonus_sigils,
        "hedges": [h.to_json() for h in g.hedges],
        "bonus_sigils": [list(c) for c in g.bonus_sigils],
        "tunnels": [list(c) for c in g.tunnels],
        "gnomes": [x.to_json() for x in g.gnomes],
        "mages": [m.to_json() for m in g.mages],
        "springshrooms": [list(c) for c in g.springshrooms],
    }


class _JsonReader(JsonReader):
    """Typed JSON access for this notation (errors located by :class:`JsonReader`)."""

    def int_(self, v: Any, path: tuple[Any, ...], low: int | None = None) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or (low is not None and v < low):
            raise self.err(path, "a whole number" + (f" >= {low}" if low is not None else ""), v)
        return v

    def bool_(self, v: Any, path: tuple[Any, ...]) -> bool:
        if not isinstance(v, bool):
            raise self.err(path, "true or false", v)
        return v

    def str_or_none(self, v: Any, path: tuple[Any, ...]) -> str | None:
        if v is not None and not isinstance(v, str):
            raise self.err(path, "a tile name or null", v)
        return v

    def cell(self, v: Any, path: tuple[Any, ...]) -> Cell:
        if (
            not isinstance(v, list)
            or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        ):
            raise self.err(path, "a cell [row, col]", v)
        return (v[0], v[1])

    def cells(self, v: Any, path: tuple[Any, ...]) -> tuple[Cell, ...]:
        if not isinstance(v, list):
            raise self.err(path, "a list of cells [[row, col], ...]", v)
        return tuple(self.cell(x, path + (i,)) for i, x in enumerate(v))

    def list_(self, v: Any, path: tuple[Any, ...]) -> list[Any]:
        if not isinstance(v, list):
            raise self.err(path, "a list", v)
        return v

    def obj(self, v: Any, path: tuple[Any, ...], keys: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.err(path, f"an object with {keys}", v)
        return v


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."


GARDEN_KEYS = {
    "game", "format", "edition", "rows", "cols", "round", "tile", "remaining_tiles", "substitution_used",
    "kept_tile", "held_bonus_sigils", "hedges", "bonus_sigils", "tunnels", "gnomes", "mages",
    "springshrooms",
}


def garden_from_json_data(
    data: Any, positions: dict[Any, tuple[int, int]], source: str, edition: HedgeMageEdition
) -> Garden:
    """Build a garden from parsed JSON; every missing key takes the `new` default."""
    rd = _JsonReader(positions, source)
    d = rd.obj(data, (), "the garden keys (rows, cols, hedges, ...)")
    game = d.get("game", "hedge-mage")
    if game != "hedge-mage":
        raise rd.err(("game",), "'hedge-mage' (this is a Hedge Mage command)", game)
    problem = format_problem(d["format"], in_json=True) if "format" in d else None
    if problem:
        raise rd.err(("format",), problem, d["format"])
    warnings = d.get("warnings", [])  # `show --json` adds this list: reading it back is fine
    if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
        raise rd.err(("warnings",), "a list of strings (the garden's warnings)", warnings)
    unknown = sorted(set(d) - GARDEN_KEYS - {"warnings"})
    if unknown:
        raise rd.err((unknown[0],), "one of the garden keys: " + ", ".join(sorted(GARDEN_KEYS)),
                     unknown[0])
    rows = rd.int_(d.get("rows", edition.rows), ("rows",), 1)
    cols = rd.int_(d.get("cols", edition.cols), ("cols",), 1)
    for key, v in (("rows", rows), ("cols", cols)):
        if v > MAX_SIDE:
            raise rd.err((key,), f"a garden side of at most {MAX_SIDE}", v)
    hedges = []
    for i, h in enumerate(rd.list_(d.get("hedges", []), ("hedges",))):
        p = ("hedges", i)
        ho = rd.obj(h, p, '"tile", "cells", "sigil"')
        for k in ("tile", "cells", "sigil"):
            if k not in ho:
                raise rd.err(p, f'key "{k}" in the hedge object')
        if not isinstance(ho["tile"], str):
            raise rd.err(p + ("tile",), "a tile name", ho["tile"])
        cells = rd.cells(ho["cells"], p + ("cells",))
        hedges.append(Hedge(ho["tile"], tuple(sorted(cells)), rd.cell(ho["sigil"], p + ("sigil",))))
    gnomes = []
    for i, x in enumerate(rd.list_(d.get("gnomes", []), ("gnomes",))):
        p = ("gnomes", i)
        go = rd.obj(x, p, '"kind", "at", "awake"')
        if "kind" not in go or "at" not in go:
            raise rd.err(p, 'keys "kind" and "at" in the gnome object')
        if not isinstance(go["kind"], str) or go["kind"] not in edition.gnome_kinds:
            raise rd.err(p + ("kind",), "a gnome kind: " + ", ".join(edition.gnome_kinds),
                         go["kind"])
        gnomes.append(
            Gnome(go["kind"], rd.cell(go["at"], p + ("at",)),
                  rd.bool_(go.get("awake", False), p + ("awake",)))
        )
    mages = []
    for i, x in enumerate(rd.list_(d.get("mages", []), ("mages",))):
        p = ("mages", i)
        mo = rd.obj(x, p, '"at"')
        if "at" not in mo:
            raise rd.err(p, 'key "at" in the mage object')
        owner = mo.get("owner")
        if owner is not None and not isinstance(owner, str):
            raise rd.err(p + ("owner",), "a player name or null", owner)
        mages.append(Mage(rd.cell(mo["at"], p + ("at",)), owner))
    remaining = rd.list_(d.get("remaining_tiles", list(edition.tiles)), ("remaining_tiles",))
    for i, t in enumerate(remaining):
        if not isinstance(t, str):
            raise rd.err(("remaining_tiles", i), "a tile name", t)
    edition_name = d.get("edition", edition.name)
    if not isinstance(edition_name, str):
        raise rd.err(("edition",), "an edition name", edition_name)
    g = Garden(
        rows=rows,
        cols=cols,
        hedges=tuple(hedges),
        bonus_sigils=rd.cells(d.get("bonus_sigils", []), ("bonus_sigils",)),
        tunnels=rd.cells(d.get("tunnels", []), ("tunnels",)),
        gnomes=tuple(gnomes),
        mages=tuple(mages),
        springshrooms=rd.cells(d.get("springshrooms", []), ("springshrooms",)),
        tile=rd.str_or_none(d.get("tile"), ("tile",)),
        remaining_tiles=tuple(remaining),
        substitution_used=rd.bool_(d.get("substitution_used", False), ("substitution_used",)),
        kept_tile=rd.str_or_none(d.get("kept_tile"), ("kept_tile",)),
        held_bonus_sigils=rd.int_(d.get("held_bonus_sigils", 0), ("held_bonus_sigils",), 0),
        round=rd.int_(d.get("round", 1), ("round",), 1),
        edition=edition_name,
    )
    _raise_problems(g, edition, source, positions, d)
    return g


def _json_path(prob: Problem, data: dict[str, Any]) -> tuple[Any, ...]:
    """The JSON path a well-formedness problem is about (as precise as the input allows)."""
    field_ = prob.field
    items = data.get(field_)
    if field_ == "hedges" and prob.index is not None and isinstance(items, list):
        base: tuple[Any, ...] = (field_, prob.index)
        if prob.key == "cells" and prob.cell is not None:
            try:
                cells = items[prob.index]["cells"]
                return base + ("cells", cells.index(list(prob.cell)))
            except (LookupError, TypeError, ValueError):
                return base + ("cells",)
        return base + ((prob.key,) if prob.key else ())
    if isinstance(items, list) and prob.cell is not None:
        for j, v in enumerate(items):
            at = v.get(prob.key) if isinstance(v, dict) and prob.key else v
            if at == list(prob.cell):
                # duplicates: point at the second occurrence, the one that clashes
                later = [k for k, w in enumerate(items) if k > j and
                         (w.get(prob.key) if isinstance(w, dict) and prob.key else w) == list(prob.cell)]
                k = later[0] if later and prob.message.startswith("two ") else j
                return (field_, k) + ((prob.key,) if prob.key else ())
    if isinstance(items, list) and prob.index is not None and prob.index < len(items):
        return (field_, prob.index)
    return (field_,)


def _raise_problems(
    g: Garden, edition: HedgeMageEdition, source: str, positions: dict[Any, tuple[int, int]],
    data: dict[str, Any],
) -> None:
    probs = g.problem_list(edition)
    if not probs:
        return
    path = _json_path(probs[0], data)
    while path and path not in positions:
        path = path[:-1]
    line, col = positions.get(path, (None, None))
    raise NotationError(
        "the garden is not well formed: " + "; ".join(p.message for p in probs), source=source, line=line,
        column=col,
    )


# ---------------------------------------------------------------------------------------------
# Text


def _hedge_letter(i: int) -> str:
    if i >= len(HEDGE_LETTERS):
        raise NotationError(f"the text notation names at most {len(HEDGE_LETTERS)} hedges; use the JSON notation")
    return HEDGE_LETTERS[i]


def _text_safe(value: str, what: str, token: bool = False) -> str:
    """A header value the text notation can carry unchanged (else NotationError: use JSON)."""
    breaks = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    bad = "#" in value or value != value.strip() or any(ch in value for ch in breaks)
    if token and (not value or value == "-" or any(ch.isspace() for ch in value)):
        bad = True
    if bad:
        raise NotationError(f"{what} {value!r} cannot be written in the text notation; use the JSON notation")
    return value


def cell_token(g: Garden, edition: HedgeMageEdition, cell: Cell) -> str:
    """The text token of one cell (base character and markers)."""
    if cell in g.hedge_at:
        i = g.hedge_at[cell]
        letter = _hedge_letter(i)
        base = letter.upper() if g.hedges[i].sigil == cell else letter
    elif cell in g.tunnels:
        base = "+"
    else:
        base = "."
    out = base
    if cell in g.bonus_sigils:
        out += "*"
    if cell in g.springshrooms:
        out += "^"
    out += "W" * sum(1 for m in g.mages if m.at == cell)
    for x in g.gnomes:
        if x.at == cell:
            letter = edition.gnome_kinds.get(x.kind, "?")
            out += letter.upper() if x.awake else letter
    return out


def garden_to_text(g: Garden, edition: HedgeMageEdition) -> str:
    """The garden as the documented ASCII picture (parse it back with garden_from_text)."""
    lines = [HEADER, FORMAT_LINE, f"edition: {_text_safe(g.edition, 'the edition name')}"]
    lines.append(f"size: {g.rows}x{g.cols}")
    lines.append(f"round: {g.round}")
    lines.append(f"tile: {g.tile if g.tile is not None else '-'}")
    lines.append("remaining: " + (" ".join(g.remaining_tiles) if g.remaining_tiles else "-"))
    if g.substitution_used:
        lines.append("substitution: used" + (f", kept {g.kept_tile}" if g.kept_tile else ""))
    else:
        lines.append("substitution: unused")
    lines.append(f"held-bonus-sigils: {g.held_bonus_sigils}")
    lines.append(
        "hedges: "
        + (" ".join(f"{_hedge_letter(i)}={h.tile}" for i, h in enumerate(g.hedges)) or "-")
    )
    mage_owners = [m.owner for m in g.mages if m.owner is not None]
    if mage_owners:
        lines.append("mage-owners: " + " ".join(
            "-" if m.owner is None else _text_safe(m.owner, "the mage owner", token=True) for m in g.mages))
    lines.append("")
    tokens = [[cell_token(g, edition, (r, c)) for c in range(g.cols)] for r in range(g.rows)]
    width = max(3, max(len(t) for row in tokens for t in row) + 1)
    rw = len(str(g.rows - 1)) + 2
    lines.append(" " * rw + "".join(str(c).ljust(width) for c in range(g.cols)).rstrip())
    for r, row in enumerate(tokens):
        lines.append(str(r).rjust(rw - 2) + "  " + "".join(t.ljust(width) for t in row).rstrip())
    off = [x for x in g.gnomes if not g.in_bounds(x.at)]
    if off:  # pragma: no cover - problems() forbids it
        raise ValueError("gnome outside the garden")
    return "\n".join(lines) + "\n"


_KEYS = ("format", "edition", "size", "round", "tile", "remaining", "substitution", "held-bonus-sigils",
         "hedges", "mage-owners")


def garden_from_text(text: str, source: str, edition: HedgeMageEdition) -> Garden:
    """Parse the text notation; errors name the line and column and what was expected."""
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    meta: dict[str, tuple[str, int, int]] = {}
    grid: list[tuple[int, str]] = []
    i = 0
    # skip comments and blank lines before the header
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    if i >= len(lines) or lines[i].split("#", 1)[0].strip() != HEADER:
        found = lines[i].strip() if i < len(lines) else "end of input"
        raise NotationError(f"expected the header line '{HEADER}' (or a JSON object)",
                            source=source, line=i + 1, column=1, text=found)
    header_line = i + 1
    i += 1
    header_row: int | None = None
    for ln in range(i, len(lines)):
        raw = lines[ln]
        s = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not s.strip():
            continue
        m = re.match(r"^\s*([a-z-]+)\s*:\s*(.*)$", s)
        if m and header_row is None:
            key = m.group(1)
            if key not in _KEYS:
                raise NotationError("unknown key; expected one of " + ", ".join(_KEYS),
                                    source=source, line=ln + 1, column=s.index(key) + 1, text=key)
            if key in meta:
                raise NotationError(f"key '{key}' given twice", source=source, line=ln + 1,
                                    column=s.index(key) + 1, text=key)
            meta[key] = (m.group(2).strip(), ln + 1, s.index(m.group(2)) + 1 if m.group(2) else
                         len(s) + 1)
            continue
        if header_row is None:
            header_row = ln
            continue
        grid.append((ln, raw))

    def need(key: str) -> tuple[str, int, int]:
        if key not in meta:  # located where it belongs: right after the header line
            raise NotationError(f"missing line '{key}: ...' after the header", source=source,
                                line=header_line + 1, column=1)
        return meta[key]

    def err(msg: str, line: int, col: int, text: str | None = None) -> NotationError:
        return NotationError(msg, source=source, line=line, column=col, text=text)

    if "format" in meta:
        v, li, co = meta["format"]
        problem = format_problem(v)
        if problem:
            raise err(f"expected {problem}", li, co, v)
    size, sl, sc = need("size")
    m = re.fullmatch(r"(\d{1,18})\s*x\s*(\d{1,18})", size)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise err("expected size as ROWSxCOLS, e.g. 10x10", sl, sc, size)
    rows, cols = int(m.group(1)), int(m.group(2))
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise err(f"expected a garden side of at most {MAX_SIDE}", sl, sc, size)

    def intval(key: str, default: int, low: int) -> int:
        if key not in meta:
            return default
        v, li, co = meta[key]
        if not re.fullmatch(r"\d{1,18}", v) or int(v) < low:
            raise err(f"expected a whole number >= {low} for '{key}'", li, co, v)
        return int(v)

    rnd = intval("round", 1, 1)
    held = intval("held-bonus-sigils", 0, 0)
    tile_s = meta.get("tile", ("-", 0, 0))[0]
    tile = None if tile_s == "-" else tile_s
    if tile is not None and tile not in edition.tiles:
        _, li, co = meta["tile"]
        raise err("expected a tile name of the edition (" + " ".join(edition.tiles) + ") or -",
                  li, co, tile)
    remaining: tuple[str, ...] = tuple(edition.tiles)
    if "remaining" in meta:
        v, li, co = meta["remaining"]
        remaining = () if v == "-" else tuple(v.split())
        for t in remaining:
            if t not in edition.tiles:
                raise err("expected tile names of the edition", li, co + v.index(t), t)
    sub_used, kept = False, None
    if "substitution" in meta:
        v, li, co = meta["substitution"]
        m2 = re.fullmatch(r"unused|used(?:\s*,\s*kept\s+(\S+))?", v)
        if not m2:
            raise err("expected 'unused', 'used' or 'used, kept TILE'", li, co, v)
        sub_used = v != "unused"
        kept = m2.group(1)
        if kept is not None and kept not in edition.tiles:
            raise err("expected a tile name of the edition", li, co + v.index(kept), kept)
    hedge_tiles: dict[str, str] = {}
    hedge_entry: dict[str, tuple[int, int]] = {}
    if "hedges" in meta:
        v, li, co = meta["hedges"]
        if v != "-":
            for part in v.split():
                m3 = re.fullmatch(r"([a-z])=(\S+)", part)
                if not m3:
                    raise err("expected LETTER=TILE entries like a=L4", li, co + v.index(part), part)
                if m3.group(1) in hedge_tiles:
                    raise err(f"hedge letter {m3.group(1)} named twice", li, co + v.index(part))
                hedge_tiles[m3.group(1)] = m3.group(2)
                hedge_entry[m3.group(1)] = (li, co + v.index(part))
    owners: list[str | None] = []
    if "mage-owners" in meta:
        owners = [None if o == "-" else o for o in meta["mage-owners"][0].split()]

    if header_row is None:
        raise err("expected the column-number line and the garden rows", len(lines) or 1, 1)
    if len(grid) != rows:
        ln = grid[-1][0] + 2 if grid else header_row + 2
        raise err(f"expected {rows} garden rows (size {rows}x{cols}), found {len(grid)}",
                  min(ln, len(lines)), 1)
    letters_of = {ch: kind for kind, ch in edition.gnome_kinds.items()}
    hedge_cells: dict[str, list[Cell]] = {}
    hedge_sigil: dict[str, Cell] = {}
    bonus: list[Cell] = []
    tunnels: list[Cell] = []
    shrooms: list[Cell] = []
    gnomes: list[Gnome] = []
    mage_cells: list[Cell] = []
    cell_at: dict[Cell, tuple[int, int]] = {}
    for r, (ln, raw) in enumerate(grid):
        toks = list(re.finditer(r"\S+", raw.split("#", 1)[0]))
        if not toks or toks[0].group(0) != str(r):
            col0 = toks[0].start() + 1 if toks else 1
            raise err(f"expected row number {r} at the start of the row", ln + 1, col0,
                      toks[0].group(0) if toks else None)
        cells = toks[1:]
        if len(cells) != cols:
            raise err(f"expected {cols} cells in row {r}, found {len(cells)}", ln + 1,
                      (cells[-1].end() + 1) if cells else len(raw) + 1)
        for c, mt in enumerate(cells):
            tok = mt.group(0)
            col = mt.start() + 1
            cell_at[(r, c)] = (ln + 1, col)
            base, marks = tok[0], tok[1:]
            if base == ".":
                pass
            elif base == "+":
                tunnels.append((r, c))
            elif base in string.ascii_letters:
                hl = base.lower()
                hedge_cells.setdefault(hl, []).append((r, c))
                if base.isupper():
                    if hl in hedge_sigil:
                        raise err(f"hedge {hl} has two sigil cells (upper case)", ln + 1, col, tok)
                    hedge_sigil[hl] = (r, c)
            else:
                raise err("expected a cell: '.' ground, '+' tunnel, or a hedge letter", ln + 1,
                          col, tok)
            for k, ch in enumerate(marks):
                if ch == "*":
                    bonus.append((r, c))
                elif ch == "^":
                    shrooms.append((r, c))
                elif ch == "W":
                    mage_cells.append((r, c))
                elif ch in letters_of or (ch.isupper() and ch == ch.lower().upper() and ch.lower() in letters_of):
                    gnomes.append(Gnome(letters_of[ch.lower()], (r, c), ch.isupper()))
                else:
                    expected = "* ^ W or a gnome letter (" + " ".join(sorted(letters_of)) + ")"
                    raise err(f"expected a marker: {expected}", ln + 1, col + 1 + k, ch)
    order = sorted(hedge_cells, key=lambda x: HEDGE_LETTERS.index(x))
    hedges = []
    for k, hl in enumerate(order):
        if HEDGE_LETTERS[k] != hl:
            raise err(f"hedge letters must be used in order a, b, c, ...; {HEDGE_LETTERS[k]} is "
                      "missing", *cell_at[hedge_cells[hl][0]], hl)
        if hl not in hedge_tiles:
            raise err(f"hedge {hl} is drawn but not named in the 'hedges:' line",
                      *cell_at[hedge_cells[hl][0]], hl)
        if hl not in hedge_sigil:
            li, co = cell_at[hedge_cells[hl][0]]
            raise err(f"hedge {hl} has no sigil cell (write its letter in upper case)", li, co, hl)
        hedges.append(Hedge(hedge_tiles[hl], tuple(sorted(hedge_cells[hl])), hedge_sigil[hl]))
    for hl in hedge_tiles:
        if hl not in hedge_cells:
            raise err(f"hedge {hl} is named but has no cells in the picture", *hedge_entry[hl], hl)
    if owners and len(owners) != len(mage_cells):
        raise err(f"mage-owners lists {len(owners)} names for {len(mage_cells)} mages",
                  meta["mage-owners"][1], meta["mage-owners"][2])
    mages = tuple(
        Mage(c, owners[i] if owners else None) for i, c in enumerate(mage_cells)
    )
    g = Garden(
        rows=rows,
        cols=cols,
        hedges=tuple(hedges),
        bonus_sigils=tuple(bonus),
        tunnels=tuple(tunnels),
        gnomes=tuple(gnomes),
        mages=mages,
        springshrooms=tuple(shrooms),
        tile=tile,
        remaining_tiles=remaining,
        substitution_used=sub_used,
        kept_tile=kept,
        held_bonus_sigils=held,
        round=rnd,
        edition=meta.get("edition", (edition.name, 0, 0))[0],
    )
    probs = g.problem_list(edition)
    if probs:
        p = probs[0]
        where = (grid[0][0] + 1, 1)
        if p.field == "hedges" and p.index is not None:
            letter = HEDGE_LETTERS[p.index]
            if p.key == "tile" and letter in hedge_entry:
                where = hedge_entry[letter]
            elif p.cell in cell_at:
                where = cell_at[p.cell]
        elif p.cell is not None and p.cell in cell_at:
            where = cell_at[p.cell]
        raise NotationError("the garden is not well formed: " + "; ".join(x.message for x in probs),
                            source=source, line=where[0], column=where[1])
    return g


def read_garden(text: str, source: str, edition: HedgeMageEdition) -> Garden:
    """Read a garden in either notation (JSON when the first character is '{')."""
    if text.lstrip().startswith("{"):
        data, positions = loads_with_positions(text, source)
        return garden_from_json_data(data, positions, source, edition)
    return garden_from_text(text, source, edition)


# ---------------------------------------------------------------------------------------------
# Placements

_PLACE = re.compile(r"^\s*([A-Za-z0-9_]+)\s*:\s*([A-Za-z0-9]+)\s*@\s*(-?\d{1,18})\s*,\s*(-?\d{1,18})\s*$")


def placement_to_text(p: Placement, edition: HedgeMageEdition) -> str:
    """``TILE:ORIENTATION@ROW,COL`` with the sigil cell as anchor, e.g. ``L4:R90@3,4``."""
    tile = edition.tiles[p.tile]
    sr, sc = p.sigil
    offs = tuple(sorted((r - sr, c - sc) for r, c in p.cells))
    for o in tile.orientations:
        if o.offsets == offs:
            return f"{p.tile}:{ORIENTATION_NAMES[o.index]}@{sr},{sc}"
    raise ValueError(f"placement cells do not match tile {p.tile}")


def parse_placement(s: str, edition: HedgeMageEdition, source: str = "<placement>") -> Placement:
    """Parse ``TILE:ORIENTATION@ROW,COL`` or a JSON placement object."""
    if s.lstrip().startswith("{"):
        data, positions = loads_with_positions(s, source)
        rd = _JsonReader(positions, source)
        d = rd.obj(data, (), '"tile", "cells", "sigil"')
        for k in ("tile", "cells", "sigil"):
            if k not in d:
                raise rd.err((), f'key "{k}" (a placement is {{"tile", "cells", "sigil"}})')
        extra = sorted(set(d) - {"tile", "cells", "sigil", "tokens", "movement_points"})
        if extra:
            raise rd.err((extra[0],), 'only the keys "tile", "cells", "sigil" (and "tokens")',
                         extra[0])
        if not isinstance(d["tile"], str):
            raise rd.err(("tile",), "a tile name", d["tile"])
        if d["tile"] not in edition.tiles:
            raise rd.err(("tile",), "a tile of the edition: " + " ".join(edition.tiles), d["tile"])
        cells = tuple(sorted(rd.cells(d["cells"], ("cells",))))
        if len(set(cells)) != len(cells):
            raise rd.err(("cells",), "distinct cells", d["cells"])
        sigil = rd.cell(d["sigil"], ("sigil",))
        tokens = rd.cells(d.get("tokens", []), ("tokens",))
        return Placement(d["tile"], cells, sigil, tokens)
    m = _PLACE.match(s)
    if not m:
        raise NotationError(
            "expected a placement TILE:ORIENTATION@ROW,COL (e.g. L4:R90@3,4) or a JSON object",
            source=source, line=1, column=1, text=s,
        )
    name, orient, r, c = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
    if name not in edition.tiles:
        raise NotationError("expected a tile of the edition: " + " ".join(edition.tiles),
                            source=source, line=1, column=m.start(1) + 1, text=name)
    o = orient.upper()
    if is_count(o) and int(o) < 8:
        index = int(o)
    elif o in ORIENTATION_NAMES:
        index = ORIENTATION_NAMES.index(o)
    else:
        raise NotationError("expected an orientation R0 R90 R180 R270 F0 F90 F180 F270 (or 0-7)",
                            source=source, line=1, column=m.start(2) + 1, text=orient)
    tile = edition.tiles[name]
    return placement_at(tile, tile.orientation(index), (r, c))


def draw_marked(garden: Garden, ed: HedgeMageEdition, marks: dict[Cell, str]) -> str:
    """The garden grid with some cells overwritten (to show a placement or an answer)."""
    tokens = [[marks.get((r, c)) or cell_token(garden, ed, (r, c)) for c in range(garden.cols)]
              for r in range(garden.rows)]
    width = max(3, max(len(t) for row in tokens for t in row) + 1)
    rw = len(str(garden.rows - 1)) + 2
    lines = [" " * rw + "".join(str(c).ljust(width) for c in range(garden.cols)).rstrip()]
    for r, row in enumerate(tokens):
        lines.append(str(r).rjust(rw - 2) + "  " + "".join(t.ljust(width) for t in row).rstrip())
    return "\n".join(lines)
