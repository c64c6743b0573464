"""Gnomes at Midnight notations: positions as text and JSON, moves as text and JSON.

See docs/formats-gnomes-at-midnight.md.  Both position notations round-trip:
``read(write(p)) == p``.  Text position::

    gnomes-at-midnight position
    edition: default
    size: 5x7
    to-move: green
    turn: 1
    off-board: green 0, blue 0
    moon: green -, blue -
    deck-green: grass tulips cobblestone grass tulips cobblestone
    deck-blue: tulips grass / cobblestone grass
    dance: 0,0 0,1 0,2
    bump-limit: 3
    moon-restricts-adding: no

         0     1     2     3     4     5     6
      0  G<gg  T     C     G*    C     T     G>bb
      ...

A square is one token: its terrain letter (``G`` grass, ``T`` tulips, ``C``
cobblestone), then ``*`` for a toadstool, ``<`` a green flower, ``>`` a blue
flower, then one ``g`` per green gnome or one ``b`` per blue gnome.  A deck line
lists the known order (next card first); cards after ``/`` are in the deck in
an unknown order.  ``-`` is an empty list or no card.

The game protocol (``game.py``) also writes the position right *after* a move, before the
moonlight flip: the key ``after-move: yes`` (JSON ``"after_move": true``), written only then.
The readers used by the command line (``read_position``, ``position_from_text``,
``position_from_json_data``) refuse such a position; ``read_any_position`` takes both.
"""

from __future__ import annotations

import re
from typing import Any

from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.grid import Cell, normalise
from gnomekit.models.core.jsonpos import JsonReader, loads_with_positions
from gnomekit.models.core.text import FORMAT_LINE, FORMAT_VERSION, format_problem, header_index
from gnomekit.models.gnomes_at_midnight.edition import (
    COLOURS,
    MAX_SIDE,
    TERRAIN_LETTERS,
    TERRAINS,
    MidnightEdition,
    terrain_index,
)
from gnomekit.models.gnomes_at_midnight.moves import ADD, PAIR, PASS, STEP, Flip, Move
from gnomekit.models.gnomes_at_midnight.position import NO_CARD, Board, Position, counts_of
from gnomekit.models.gnomes_at_midnight.setup import new_position

HEADER = "gnomes-at-midnight position"
GAME = "gnomes-at-midnight"


# -------------------------------------------------------------------------------------------------
# JSON


def _unknown_list(counts: tuple[int, int, int]) -> list[str]:
    return [TERRAINS[t] for t in range(3) for _ in range(counts[t])]


def position_to_json(p: Position, after_move: bool = False) -> dict[str, Any]:
    """The position as a JSON-ready dict (the documented keys, in a stable order).

    ``after_move``: the mover (``to_move``) has just moved and its flip is still to come (the key
    ``after_move`` is written only then).
    """
    b = p.board
    out: dict[str, Any] = {
        "game": GAME,
        "format": FORMAT_VERSION,
        "edition": p.edition,
        "rows": b.rows,
        "cols": b.cols,
        "terrain": list(b.terrain),
        "flowers": {COLOURS[s]: [list(c) for c in b.flowers[s]] for s in (0, 1)},
        "toadstools": [list(c) for c in b.toadstools],
        "gnomes": {COLOURS[s]: [list(c) for c in p.gnome_cells(s)] for s in (0, 1)},
        "off_board": {COLOURS[s]: p.off[s] for s in (0, 1)},
        "to_move": COLOURS[p.to_move],
        "moon": {COLOURS[s]: (TERRAINS[p.moon[s]] if p.moon[s] != NO_CARD else None) for s in (0, 1)},
        "decks": {COLOURS[s]: [TERRAINS[t] for t in p.known[s]] for s in (0, 1)},
        "decks_unknown": {COLOURS[s]: _unknown_list(p.unknown[s]) for s in (0, 1)},
        "dance": [list(c) for c in p.dance],
        "turn": p.turn,
        "bump_limit": p.bump_limit,
        "moon_restricts_adding": p.moon_restricts_adding,
    }
    if after_move:
        out[AFTER_KEY] = True
    return out


POSITION_KEYS = (
    "game", "format", "edition", "rows", "cols", "terrain", "flowers", "toadstools", "gnomes", "off_board", "to_move",
    "moon", "decks", "decks_unknown", "dance", "turn", "bump_limit", "moon_restricts_adding",
)


OUTPUT_ONLY_KEYS = ("warnings", "assumed")  # written by `show --json`, ignored when read back
AFTER_KEY = "after_move"  # the game protocol's afterstate (see the module docstring)
MID_TURN = ("this position is in the middle of a turn (the mover has moved, the moonlight card is not "
            "turned yet); expected a position between turns")


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."


class _Reader(JsonReader):
    """Typed access to parsed JSON with errors that point at the value's line and column."""

    def int_(self, v: Any, path: tuple[Any, ...], low: int, high: int | None = None) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or v < low or (high is not None and v > high):
            raise self.err(path, f"a whole number >= {low}" + (f" and <= {high}" if high is not None else ""), v)
        return v

    def cell(self, v: Any, path: tuple[Any, ...]) -> Cell:
        if not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                             for x in v):
            raise self.err(path, "a square [row, col]", v)
        return (v[0], v[1])

    def cells(self, v: Any, path: tuple[Any, ...], rows: int | None = None, cols: int | None = None
              ) -> list[Cell]:
        if not isinstance(v, list):
            raise self.err(path, "a list of squares [[row, col], ...]", v)
        out = []
        for i, x in enumerate(v):
            c = self.cell(x, path + (i,))
            if rows is not None and cols is not None and not (0 <= c[0] < rows and 0 <= c[1] < cols):
                raise self.err(path + (i,), f"a square inside the {rows}x{cols} board", x)
            out.append(c)
        return out

    def per_colour(self, v: Any, path: tuple[Any, ...], what: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.err(path, f'an object {{"green": {what}, "blue": {what}}}', v)
        for k in v:
            if k not in COLOURS:
                raise self.err(path + (k,), '"green" or "blue"', k)
        for k in COLOURS:
            if k not in v:
                raise self.err(path, f'key "{k}"')
        return v

    def terrain(self, v: Any, path: tuple[Any, ...], allow_none: bool) -> int:
        if v is None and allow_none:
            return NO_CARD
        t = terrain_index(v) if isinstance(v, str) and len(v) > 1 else None
        if t is None:
            raise self.err(path, '"grass", "tulips" or "cobblestone"' + (" or null" if allow_none else ""), v)
        return t


def position_from_json_data(data: Any, positions: dict[Any, tuple[int, int]], source: str,
                            edition: MidnightEdition) -> Position:
    """Build a position from parsed JSON; every missing key takes `new`'s value (seed 0).

    A position right after a move (``"after_move": true``) is refused.
    """
    pos, after = _from_json_data(data, positions, source, edition)
    if after:
        line, col = positions.get((AFTER_KEY,), (1, 1))
        raise NotationError(MID_TURN, source=source, line=line, column=col, text=AFTER_KEY)
    return pos


def _from_json_data(data: Any, positions: dict[Any, tuple[int, int]], source: str,
                    edition: MidnightEdition) -> tuple[Position, bool]:
    """The position and whether it is right after a move (``after_move``)."""
    rd = _Reader(positions, source)
    if not isinstance(data, dict):
        raise rd.err((), "an object with the position keys (rows, cols, terrain, gnomes, ...)", data)
    d = data
    game = d.get("game", GAME)
    if game != GAME:
        raise rd.err(("game",), f"'{GAME}' (this is a Gnomes at Midnight command)", game)
    for k in d:
        if k not in POSITION_KEYS and k not in OUTPUT_ONLY_KEYS and k != AFTER_KEY:
            raise rd.err((k,), "one of the position keys: " + ", ".join(POSITION_KEYS), k)
    problem = format_problem(d["format"], in_json=True) if "format" in d else None
    if problem:
        raise rd.err(("format",), problem, d["format"])
    after = d.get(AFTER_KEY, False)
    if not isinstance(after, bool):
        raise rd.err((AFTER_KEY,), "true or false", after)
    base = position_to_json(new_position(edition, 0))
    g = {k: d.get(k, base[k]) for k in POSITION_KEYS}
    rows = rd.int_(g["rows"], ("rows",), 1, MAX_SIDE)
    cols = rd.int_(g["cols"], ("cols",), 1, MAX_SIDE)
    terrain = g["terrain"]
    if not isinstance(terrain, list) or len(terrain) != rows:
        raise rd.err(("terrain",), f"a list of {rows} row strings", terrain)
    for i, row in enumerate(terrain):
        if not isinstance(row, str) or len(row) != cols or any(ch not in TERRAIN_LETTERS for ch in row):
            raise rd.err(("terrain", i), f"a string of {cols} letters G, T or C", row)
    flo = rd.per_colour(g["flowers"], ("flowers",), "[[row, col], ...]")
    flowers = tuple(tuple(rd.cells(flo[c], ("flowers", c), rows, cols)) for c in COLOURS)
    toads = tuple(rd.cells(g["toadstools"], ("toadstools",), rows, cols))
    for key, cs in ((("flowers", "green"), flowers[0]), (("flowers", "blue"), flowers[1]), (("toadstools",), toads)):
        for k, sq in enumerate(cs):
            if sq in cs[:k]:
                raise rd.err(key + (k,), "distinct squares (this one is listed twice)", list(sq))
    for k, sq in enumerate(flowers[1]):
        if sq in flowers[0]:
            raise rd.err(("flowers", "blue", k), "a square that is not also a green flower", list(sq))
    gn = rd.per_colour(g["gnomes"], ("gnomes",), "[[row, col], ...]")
    cells = [0] * (rows * cols)
    for s, c in enumerate(COLOURS):
        for k, cell in enumerate(rd.cells(gn[c], ("gnomes", c), rows, cols)):
            i = cell[0] * cols + cell[1]
            if cells[i] * (1 if s == 0 else -1) < 0:
                raise rd.err(("gnomes", c, k), "a square without gnomes of the other colour", list(cell))
            if abs(cells[i]) >= 2:
                raise rd.err(("gnomes", c, k), "at most two gnomes on a square (listed at most twice)",
                             list(cell))
            cells[i] += 1 if s == 0 else -1
    offd = rd.per_colour(g["off_board"], ("off_board",), "n")
    off = (rd.int_(offd["green"], ("off_board", "green"), 0), rd.int_(offd["blue"], ("off_board", "blue"), 0))
    if g["to_move"] not in COLOURS:
        raise rd.err(("to_move",), '"green" or "blue"', g["to_move"])
    to_move = COLOURS.index(g["to_move"])
    md = rd.per_colour(g["moon"], ("moon",), "terrain or null")
    moon = tuple(rd.terrain(md[c], ("moon", c), True) for c in COLOURS)
    dd = rd.per_colour(g["decks"], ("decks",), "[terrain, ...]")
    known = []
    for c in COLOURS:
        if not isinstance(dd[c], list):
            raise rd.err(("decks", c), "a list of terrains, next card first", dd[c])
        known.append(tuple(rd.terrain(x, ("decks", c, i), False) for i, x in enumerate(dd[c])))
    unknown = []
    if "decks_unknown" in d or "decks" not in d:
        ud = rd.per_colour(g["decks_unknown"], ("decks_unknown",), "[terrain, ...]")
        for c in COLOURS:
            if not isinstance(ud[c], list):
                raise rd.err(("decks_unknown", c), "a list of terrains", ud[c])
            unknown.append(counts_of(tuple(rd.terrain(x, ("decks_unknown", c, i), False)
                                           for i, x in enumerate(ud[c]))))
    else:
        unknown = [(0, 0, 0), (0, 0, 0)]
    dance = rd.cells(g["dance"], ("dance",))
    if not dance:
        raise rd.err(("dance",), "at least one square [row, col]", g["dance"])
    if len(set(dance)) != len(dance):
        raise rd.err(("dance",), "distinct squares", g["dance"])
    turn = rd.int_(g["turn"], ("turn",), 1)
    bump = rd.int_(g["bump_limit"], ("bump_limit",), 1)
    if not isinstance(g["moon_restricts_adding"], bool):
        raise rd.err(("moon_restricts_adding",), "true or false", g["moon_restricts_adding"])
    ed_name = g["edition"]
    if not isinstance(ed_name, str):
        raise rd.err(("edition",), "an edition name", ed_name)
    pos = Position(
        board=Board(rows, cols, tuple(terrain), (flowers[0], flowers[1]), toads),
        cells=tuple(cells), off=off, to_move=to_move, moon=(moon[0], moon[1]),
        known=(known[0], known[1]), unknown=(unknown[0], unknown[1]), dance=normalise(dance), turn=turn,
        bump_limit=bump, full_decks=edition.decks, moon_restricts_adding=g["moon_restricts_adding"],
        edition=ed_name,
    )
    probs = pos.problems()
    if probs:
        raise NotationError("the position is not well formed: " + "; ".join(probs), source=source, line=1,
                            column=1)
    return pos, after


# -------------------------------------------------------------------------------------------------
# Text


def cell_token(p: Position, index: int) -> str:
    b = p.board
    cell = b.cell(index)
    out = b.terrain[cell[0]][cell[1]]
    if cell in b.toadstools:
        out += "*"
    if cell in b.flowers[0]:
        out += "<"
    if cell in b.flowers[1]:
        out += ">"
    v = p.cells[index]
    out += ("g" * v) if v > 0 else ("b" * -v)
    return out


def grid_lines(p: Position, marks: dict[int, str] | None = None) -> list[str]:
    """The board picture: a header of column numbers, then one line per row."""
    b = p.board
    toks = [[(marks or {}).get(b.index((r, c))) or cell_token(p, b.index((r, c))) for c in range(b.cols)]
            for r in range(b.rows)]
    width = max(4, max(len(t) for row in toks for t in row) + 1)
    rw = len(str(b.rows - 1)) + 2
    lines = [" " * (rw + 1) + "".join(str(c).ljust(width) for c in range(b.cols)).rstrip()]
    for r, row in enumerate(toks):
        lines.append(str(r).rjust(rw - 1) + "  " + "".join(t.ljust(width) for t in row).rstrip())
    return lines


def _deck_text(p: Position, s: int) -> str:
    known = " ".join(TERRAINS[t] for t in p.known[s]) or "-"
    unk = _unknown_list(p.unknown[s])
    return known + (" / " + " ".join(unk) if unk else "")


def position_to_text(p: Position, after_move: bool = False) -> str:
    """The position in the documented text notation (read it back with ``position_from_text``).

    ``after_move``: the mover has just moved and its flip is still to come (line ``after-move: yes``,
    written only then; read it back with ``read_any_position``).
    """
    def moon(s: int) -> str:
        return TERRAINS[p.moon[s]] if p.moon[s] != NO_CARD else "-"

    lines = [
        HEADER,
        FORMAT_LINE,
        f"edition: {p.edition}",
        f"size: {p.board.rows}x{p.board.cols}",
        f"to-move: {COLOURS[p.to_move]}",
        f"turn: {p.turn}",
        *(["after-move: yes"] if after_move else []),
        f"off-board: green {p.off[0]}, blue {p.off[1]}",
        f"moon: green {moon(0)}, blue {moon(1)}",
        f"deck-green: {_deck_text(p, 0)}",
        f"deck-blue: {_deck_text(p, 1)}",
        "dance: " + " ".join(f"{r},{c}" for r, c in p.dance),
        f"bump-limit: {p.bump_limit}",
        f"moon-restricts-adding: {'yes' if p.moon_restricts_adding else 'no'}",
        "",
    ]
    lines += grid_lines(p)
    return "\n".join(lines) + "\n"


_KEYS = ("format", "edition", "size", "to-move", "turn", "after-move", "off-board", "moon", "deck-green", "deck-blue",
         "dance", "bump-limit", "moon-restricts-adding")
_TOKEN = re.compile(r"^([GTC])(\*?)(<?)(>?)(g{0,2}|b{0,2})$")


def position_from_text(text: str, source: str, edition: MidnightEdition) -> Position:
    """Parse the text notation; errors name the line and column and what was expected.

    Keys that are left out take `new`'s value (seed 0); the board picture is required.  A position
    right after a move (``after-move: yes``) is refused.
    """
    pos, after, where = _from_text(text, source, edition)
    if after:
        raise NotationError(MID_TURN, source=source, line=where[0], column=where[1], text="after-move: yes")
    return pos


def _from_text(text: str, source: str, edition: MidnightEdition) -> tuple[Position, bool, tuple[int, int]]:
    """The position, whether it is right after a move, and where ``after-move`` stands."""
    lines = text.splitlines()

    def err(msg: str, line: int, col: int, found: str | None = None) -> NotationError:
        return NotationError(msg, source=source, line=line, column=col, text=found)

    i = header_index(lines, HEADER, source)
    meta: dict[str, tuple[str, int, int]] = {}
    grid: list[tuple[int, str]] = []
    header_seen = False
    for ln in range(i + 1, len(lines)):
        raw = lines[ln]
        if raw.lstrip().startswith("#"):
            continue
        s = raw.split("#", 1)[0].rstrip()
        if not s.strip():
            continue
        m = re.match(r"^\s*([a-z-]+)\s*:\s*(.*)$", s)
        if m and not header_seen:
            key = m.group(1)
            if key not in _KEYS:
                raise err("unknown key; expected one of " + ", ".join(_KEYS), ln + 1, s.index(key) + 1, key)
            if key in meta:
                raise err(f"key '{key}' given twice", ln + 1, s.index(key) + 1, key)
            meta[key] = (m.group(2).strip(), ln + 1, (s.index(m.group(2)) + 1) if m.group(2) else len(s) + 1)
            continue
        if header_seen and s.strip() == "warnings:":
            break  # `show` appends its warnings after the board; they are output only
        if not header_seen:
            if not re.fullmatch(r"\s*0(\s+\d+)*\s*", s):
                raise err("expected 'key: value' or the column-number line '0 1 2 ...'", ln + 1,
                          len(s) - len(s.lstrip()) + 1, s.strip())
            header_seen = True
            continue
        grid.append((ln, s))
    if "format" in meta:
        v, li, co = meta["format"]
        problem = format_problem(v)
        if problem:
            raise err(f"expected {problem}", li, co, v)
    base = new_position(edition, 0)
    rows, cols = base.board.rows, base.board.cols
    if "size" in meta:
        v, li, co = meta["size"]
        m2 = re.fullmatch(r"(\d+)x(\d+)", v)
        if not m2 or not all(1 <= len(g.lstrip("0")) <= 3 and 1 <= int(g) <= MAX_SIDE for g in m2.groups()):
            raise err(f"expected ROWSxCOLS, each 1 to {MAX_SIDE}, e.g. 5x7", li, co, v)
        rows, cols = int(m2.group(1)), int(m2.group(2))
    if not header_seen:
        raise err("expected the column-number line and the board rows", len(lines) or 1, 1)
    if len(grid) != rows:
        raise err(f"expected {rows} board rows (size {rows}x{cols}), found {len(grid)}",
                  (grid[-1][0] + 1) if grid else len(lines), 1)

    def side(word: str, li: int, co: int) -> int:
        if word not in COLOURS:
            raise err("expected green or blue", li, co, word)
        return COLOURS.index(word)

    to_move = base.to_move
    if "to-move" in meta:
        v, li, co = meta["to-move"]
        to_move = side(v, li, co)

    def whole(key: str, default: int, low: int) -> int:
        if key not in meta:
            return default
        v, li, co = meta[key]
        if not re.fullmatch(r"\d{1,18}", v) or int(v) < low:
            raise err(f"expected a whole number >= {low} for '{key}'", li, co, v)
        return int(v)

    turn = whole("turn", base.turn, 1)
    bump = whole("bump-limit", base.bump_limit, 1)

    def pair(key: str, default: tuple[int, int], parse: Any) -> tuple[int, int]:
        if key not in meta:
            return default
        v, li, co = meta[key]
        m3 = re.fullmatch(r"green\s+(\S+)\s*,\s*blue\s+(\S+)", v)
        if not m3:
            raise err(f"expected 'green X, blue Y' for '{key}'", li, co, v)
        return (parse(m3.group(1), li, co + m3.start(1)), parse(m3.group(2), li, co + m3.start(2)))

    def count(w: str, li: int, co: int) -> int:
        if not re.fullmatch(r"\d{1,18}", w):
            raise err("expected a whole number", li, co, w)
        return int(w)

    def terr(w: str, li: int, co: int, allow_none: bool = True) -> int:
        if w == "-" and allow_none:
            return NO_CARD
        t = terrain_index(w) if len(w) > 1 else None
        if t is None:
            raise err("expected grass, tulips or cobblestone" + (" or -" if allow_none else ""), li, co, w)
        return t

    off = pair("off-board", base.off, count)
    moon = pair("moon", base.moon, terr)
    known = list(base.known)
    unknown = list(base.unknown)
    for side_i, key in ((0, "deck-green"), (1, "deck-blue")):
        if key not in meta:
            continue
        v, li, co = meta[key]
        head, _, tail = v.partition("/")
        ks: list[int] = []
        for mt in re.finditer(r"\S+", head):
            if mt.group(0) == "-" and head.strip() == "-":
                break
            ks.append(terr(mt.group(0), li, co + mt.start(), False))
        us: list[int] = []
        for mt in re.finditer(r"\S+", tail):
            us.append(terr(mt.group(0), li, co + len(head) + 1 + mt.start(), False))
        known[side_i] = tuple(ks)
        unknown[side_i] = counts_of(tuple(us))
    dance = base.dance
    if "dance" in meta:
        v, li, co = meta["dance"]
        cs: list[Cell] = []
        for mt in re.finditer(r"\S+", v):
            m4 = re.fullmatch(r"(-?\d{1,18}),(-?\d{1,18})", mt.group(0))
            if not m4:
                raise err("expected squares ROW,COL separated by spaces", li, co + mt.start(), mt.group(0))
            cs.append((int(m4.group(1)), int(m4.group(2))))
        if not cs or len(set(cs)) != len(cs):
            raise err("expected at least one square, each once", li, co, v)
        dance = normalise(cs)
    after = False
    where = (0, 0)
    if "after-move" in meta:
        v, li, co = meta["after-move"]
        if v not in ("yes", "no"):
            raise err("expected yes or no", li, co, v)
        after = v == "yes"
        where = (li, co)
    restrict = base.moon_restricts_adding
    if "moon-restricts-adding" in meta:
        v, li, co = meta["moon-restricts-adding"]
        if v not in ("yes", "no"):
            raise err("expected yes or no", li, co, v)
        restrict = v == "yes"
    terrain: list[str] = []
    flowers: tuple[list[Cell], list[Cell]] = ([], [])
    toads: list[Cell] = []
    cells = [0] * (rows * cols)
    for r, (ln, raw) in enumerate(grid):
        toks = list(re.finditer(r"\S+", raw))
        if not toks or toks[0].group(0) != str(r):
            raise err(f"expected row number {r} at the start of the row", ln + 1,
                      toks[0].start() + 1 if toks else 1, toks[0].group(0) if toks else None)
        sq = toks[1:]
        if len(sq) != cols:
            raise err(f"expected {cols} squares in row {r}, found {len(sq)}", ln + 1,
                      (sq[-1].end() + 1) if sq else len(raw) + 1)
        row = ""
        for c, mt in enumerate(sq):
            m5 = _TOKEN.match(mt.group(0))
            if not m5:
                raise err("expected a square: terrain G/T/C, then * (toadstool), < (green flower), "
                          "> (blue flower), then g, gg, b or bb", ln + 1, mt.start() + 1, mt.group(0))
            row += m5.group(1)
            if m5.group(2):
                toads.append((r, c))
            if m5.group(3):
                flowers[0].append((r, c))
            if m5.group(4):
                flowers[1].append((r, c))
            gs = m5.group(5)
            cells[r * cols + c] = len(gs) if gs.startswith("g") else -len(gs)
        terrain.append(row)
    pos = Position(
        board=Board(rows, cols, tuple(terrain), (tuple(flowers[0]), tuple(flowers[1])), tuple(toads)),
        cells=tuple(cells), off=off, to_move=to_move, moon=moon, known=(known[0], known[1]),
        unknown=(unknown[0], unknown[1]), dance=dance, turn=turn, bump_limit=bump, full_decks=edition.decks,
        moon_restricts_adding=restrict, edition=meta.get("edition", (edition.name, 0, 0))[0],
    )
    probs = pos.problems()
    if probs:
        raise err("the position is not well formed: " + "; ".join(probs), grid[0][0] + 1, 1)
    return pos, after, where


def read_position(text: str, source: str, edition: MidnightEdition) -> Position:
    """Read a position between turns in either notation (JSON when the first character is '{')."""
    if text.lstrip().startswith("{"):
        data, positions = loads_with_positions(text, source)
        return position_from_json_data(data, positions, source, edition)
    return position_from_text(text, source, edition)


ASSUMED_DECKS = ("no deck order for {colour} in the position: assumed the deck of `new` with seed 0 "
                 "({cards}); the answer depends on it (give the deck lines, or search with hidden decks)")


def assumed_decks(text: str, pos: Position) -> list[str]:
    """What the reader assumed for ``text``: one sentence per side whose deck is not given (it takes the
    deck order of ``new`` with seed 0, which nobody at the table knows).  ``text`` was read as ``pos``."""
    if text.lstrip().startswith("{"):
        data, _positions = loads_with_positions(text, "<position>")
        given = set(COLOURS) if isinstance(data, dict) and "decks" in data else set()
    else:
        given = {m.group(1) for m in re.finditer(r"(?m)^\s*deck-(green|blue)\s*:", text)}
    return [ASSUMED_DECKS.format(colour=c, cards=_deck_text(pos, s)) for s, c in enumerate(COLOURS)
            if c not in given]


def read_any_position(text: str, source: str, edition: MidnightEdition) -> tuple[Position, bool]:
    """Read a position in either notation, and whether it is right after a move (``after-move``)."""
    if text.lstrip().startswith("{"):
        data, positions = loads_with_positions(text, source)
        return _from_json_data(data, positions, source, edition)
    pos, after, _where = _from_text(text, source, edition)
    return pos, after


# -------------------------------------------------------------------------------------------------
# Moves

_N = r"(-?\d{1,18})"  # a square's coordinate: bounded, so int() never meets a huge digit string
_MOVE = re.compile(rf"^\s*(?:(pass)|\+\s*{_N}\s*,\s*{_N}"
                   rf"|{_N}\s*,\s*{_N}\s*([-=>])\s*{_N}\s*,\s*{_N})\s*$")


def parse_move(s: str, source: str = "<move>") -> Move:
    """Parse ``r,c-r,c`` (step), ``r,c=r,c`` (pair), ``+r,c`` (add), ``pass``, or a JSON move object."""
    if s.lstrip().startswith("{"):
        data, positions = loads_with_positions(s, source)
        rd = _Reader(positions, source)
        if not isinstance(data, dict) or "kind" not in data:
            raise rd.err((), 'an object {"kind": "step"|"pair"|"add"|"pass", "from": [r,c], "to": [r,c]}', data)
        kind = data["kind"]
        if kind not in (STEP, PAIR, ADD, PASS):
            raise rd.err(("kind",), '"step", "pair", "add" or "pass"', kind)
        for k in data:
            if k not in ("kind", "from", "to", "text", "bumps", "wins"):  # the last three: output, ignored
                raise rd.err((k,), 'only the keys "kind", "from", "to" (and "text", "bumps", "wins" as '
                             "a list of legal moves in JSON writes them, ignored)", k)
        for k in (("from", "to") if kind == PASS else ("from",) if kind == ADD else ()):
            if k in data:
                raise rd.err((k,), f'no key "{k}" in a{"n" if kind == ADD else ""} {kind} (it has no such square)', k)
        if kind == PASS:
            return Move(PASS)
        if "to" not in data:
            raise rd.err((), 'key "to"')
        dst = rd.cell(data["to"], ("to",))
        if kind == ADD:
            return Move(ADD, None, dst)
        if "from" not in data:
            raise rd.err((), 'key "from"')
        return Move(kind, rd.cell(data["from"], ("from",)), dst)
    m = _MOVE.match(s)
    if not m:
        raise NotationError("expected a move: r,c-r,c (step), r,c=r,c (pair step), +r,c (add) or pass",
                            source=source, line=1, column=1, text=s)
    if m.group(1):
        return Move(PASS)
    if m.group(2) is not None:
        return Move(ADD, None, (int(m.group(2)), int(m.group(3))))
    kind = PAIR if m.group(6) == "=" else STEP
    return Move(kind, (int(m.group(4)), int(m.group(5))), (int(m.group(7)), int(m.group(8))))


_FLIP = re.compile(r"^\s*flip\s+(\S+)\s*$")


def parse_flip(s: str, source: str = "<move>") -> Flip | None:
    """A chance outcome ``flip grass`` (or JSON ``{"kind": "flip", "terrain": "grass"}``); None when
    ``s`` is not written as a flip at all (then it may be a turn's move)."""
    if s.lstrip().startswith("{"):
        data, positions = loads_with_positions(s, source)
        if not isinstance(data, dict) or data.get("kind") != "flip":
            return None
        rd = _Reader(positions, source)
        for k in data:
            if k not in ("kind", "terrain", "text"):
                raise rd.err((k,), 'only the keys "kind", "terrain" (and "text", ignored) in a flip', k)
        if "terrain" not in data:
            raise rd.err((), 'key "terrain"')
        return Flip(rd.terrain(data["terrain"], ("terrain",), False))
    if not s.lstrip().startswith("flip"):
        return None
    m = _FLIP.match(s)
    t = terrain_index(m.group(1)) if m and len(m.group(1)) > 1 else None
    if t is None:
        raise NotationError("expected a flip: flip grass, flip tulips or flip cobblestone", source=source,
                            line=1, column=1, text=s)
    return Flip(t)
