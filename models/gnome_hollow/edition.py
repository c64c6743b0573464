"""Gnome Hollow component data: tiles as paths between hex edges, tracks, market, signposts.

Nothing in the rules engine hard-codes a tile, a price or a track: everything is read from an
edition file (TOML) and validated here, with every problem reported at once and located.
Hex convention: see :mod:`models.core.hexgrid` (edges 0-5 clockwise from north).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path as FsPath
from typing import Any

from gnomekit.models.core.edition import TomlSource, check_game, is_int, read_bundled_toml, read_toml_file
from gnomekit.models.core.hexgrid import DIRECTIONS, ORIENTATIONS, opposite, orient_edge
from gnomekit.models.core.text import is_count
from gnomekit.models.gnome_hollow.shapes import canonical

STUMP_ID = "S"
PATH_KINDS = ("sharp", "wide", "straight")
BONUS_KINDS = ("signpost", "store", "flower", "mushrooms", "second-marker")
BOARDS = ("standard", "advanced")  # the two sides of the player board (position option ``board``)


def path_kind(a: int, b: int) -> str:
    """Sharp (adjacent edges), wide (one edge between) or straight (opposite edges)."""
    d = (b - a) % 6
    d = min(d, 6 - d)
    return PATH_KINDS[d - 1]


@dataclass(frozen=True)
class TilePath:
    """One path of a tile: the two edges it joins (orientation 0) and its mushroom (or None)."""

    a: int
    b: int
    mushroom: str | None = None

    @property
    def kind(self) -> str:
        return path_kind(self.a, self.b)


@dataclass(frozen=True)
class Tile:
    """A physical tile: a garden tile, the Stump or a wildflower tile.

    ``edge_path[o][e]`` is the index of the path that ends on edge ``e`` when the tile lies in
    orientation ``o`` (or -1 for grass); a wildflower tile has no paths and matches anything.
    """

    id: str
    paths: tuple[TilePath, ...]
    flower: str | None = None  # wildflower tiles: the flower colour
    stump: bool = False
    edge_path: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    path_ends: tuple[tuple[tuple[int, int], ...], ...] = field(default=(), compare=False, repr=False)
    # per orientation, per path end: (dq, dr, edge of the neighbour it touches, path index), so the
    # union-find's hot loop does no hex arithmetic
    end_steps: tuple[tuple[tuple[int, int, int, int], ...], ...] = field(default=(), compare=False, repr=False)

    @property
    def wildflower(self) -> bool:
        return self.flower is not None

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.paths)

    def oriented_ends(self, orientation: int, path: int) -> tuple[int, int]:
        """The two edges path ``path`` ends on in ``orientation``."""
        p = self.paths[path]
        return orient_edge(p.a, orientation), orient_edge(p.b, orientation)

    @cached_property
    def distinct_orientations(self) -> tuple[int, ...]:
        """One orientation index per distinct look (paths with mushrooms on the same edges)."""
        seen: dict[frozenset[tuple[int, int, str | None]], int] = {}
        for o in range(ORIENTATIONS):
            look = frozenset(
                (min(x, y), max(x, y), p.mushroom)
                for p, (x, y) in ((p, self.oriented_ends(o, i)) for i, p in enumerate(self.paths))
            )
            seen.setdefault(look, o)
        return tuple(sorted(seen.values()))

    @cached_property
    def distinct_shapes(self) -> tuple[int, ...]:
        """One orientation per distinct set of path edges, mushrooms ignored."""
        seen: dict[frozenset[tuple[int, int]], int] = {}
        for o in range(ORIENTATIONS):
            look = frozenset(
                (min(x, y), max(x, y)) for x, y in (self.oriented_ends(o, i) for i in range(len(self.paths)))
            )
            seen.setdefault(look, o)
        return tuple(sorted(seen.values()))


def make_tile(ident: str, paths: tuple[TilePath, ...], flower: str | None = None, stump: bool = False) -> Tile:
    """Build a tile and precompute which path ends on each edge in each orientation."""
    table = []
    ends = []
    steps = []
    for o in range(ORIENTATIONS):
        row = [-1] * 6
        for i, p in enumerate(paths):
            row[orient_edge(p.a, o)] = i
            row[orient_edge(p.b, o)] = i
        table.append(tuple(row))
        ends.append(tuple((e, i) for e, i in enumerate(row) if i >= 0))
        steps.append(tuple((*DIRECTIONS[e], opposite(e), i) for e, i in enumerate(row) if i >= 0))
    return Tile(ident, paths, flower, stump, tuple(table), tuple(ends), tuple(steps))


@dataclass(frozen=True)
class RingColumn:
    """A column of the player board: ring size (``plus``: that size or more) and its spaces."""

    size: int
    plus: bool
    rows: tuple[tuple[str, ...], ...]  # bonuses of each space, e.g. ("mushrooms:2",)


@dataclass(frozen=True)
class Trade:
    """One trade of the Mushroom Trade Board (variant): give these mushrooms, get those."""

    give: tuple[tuple[str, int], ...]
    get: tuple[tuple[str, int], ...]

    def text(self) -> str:
        def side(x: tuple[tuple[str, int], ...]) -> str:
            return " + ".join(f"{n} {c}" for c, n in x)
        return f"{side(self.give)} -> {side(self.get)}"


def row_shape(bonuses: tuple[str, ...]) -> str | None:
    """The ring shape a board space asks for (``shape:NAME`` in its list), or None: any shape."""
    for b in bonuses:
        if b.startswith("shape:"):
            return b[6:]
    return None


@dataclass(frozen=True)
class MarketRow:
    """One colour of the Pinwheel Market: pair price and blockable spaces (mushrooms, points)."""

    pair: int
    spaces: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class GnomeHollowEdition:
    """A validated Gnome Hollow edition."""

    name: str
    source: str
    reconstructed: bool
    colours: tuple[str, ...]
    supply: dict[str, int]
    stump: Tile
    tiles: dict[str, Tile]  # garden tiles, in edition order
    wildflowers: dict[str, Tile]  # wildflower tiles, in edition order
    flower_track: tuple[int, ...]
    ring_track: tuple[int, ...]
    markers: int
    wildflower_at: tuple[int, ...]
    columns: tuple[RingColumn, ...]
    treasures: dict[str, tuple[int, int]]  # kind -> (value, count)
    market_tokens: dict[str, int]
    market: dict[str, MarketRow]
    signposts: dict[str, dict[str, int]]
    players_min: int
    players_max: int
    gnomes: int
    storage: int
    storage_wildflowers: int
    offered: int
    set_aside_per_player: int
    two_player_remove_flowers: int
    two_player_remove_tokens: dict[str, int]
    end_flowers: int
    end_markers: int
    advanced_columns: tuple[RingColumn, ...] = ()  # the advanced player board (variant)
    shapes: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)  # name -> cells
    trades: dict[str, tuple[Trade, ...]] = field(default_factory=dict)  # signpost -> trades (variant)

    @cached_property
    def all_tiles(self) -> dict[str, Tile]:
        return {STUMP_ID: self.stump, **self.tiles, **self.wildflowers}

    @property
    def flowers(self) -> tuple[str, ...]:
        """The flower colours, in wildflower tile order."""
        return tuple(t.flower or "" for t in self.wildflowers.values())

    def tile(self, ident: str) -> Tile:
        return self.all_tiles[ident]

    def tile_order(self, ident: str) -> int:
        keys = list(self.all_tiles)
        return keys.index(ident) if ident in self.all_tiles else len(keys)

    def board(self, name: str = "standard") -> tuple[RingColumn, ...]:
        """The columns of one side of the player board (``standard`` or ``advanced``)."""
        return self.advanced_columns if name == "advanced" else self.columns

    def column_for(self, size: int, board: str = "standard") -> int | None:
        """Index of the board column a ring of ``size`` tiles goes to (None: too small)."""
        for i, col in enumerate(self.board(board)):
            if size == col.size or (col.plus and size >= col.size):
                return i
        return None

    @cached_property
    def _shape_names(self) -> dict[tuple[tuple[int, int], ...], str]:
        return {canonical(cells): name for name, cells in self.shapes.items()}

    def shape_of(self, cells: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> str | None:
        """The name of the edition's shape these ring cells form (up to shift, turn and mirror), or None."""
        if not self.shapes:
            return None
        return self._shape_names.get(canonical(cells))

    def ring_points(self, moved: int) -> int:
        return self.ring_track[min(moved, len(self.ring_track) - 1)]

    def flower_points(self, count: int) -> int:
        return self.flower_track[min(count, len(self.flower_track) - 1)]

    def wildflower_for(self, flower: str) -> str | None:
        for t in self.wildflowers.values():
            if t.flower == flower:
                return t.id
        return None


def _int(src: TomlSource, table: dict[str, Any], key: str, default: int | None, low: int, where: str) -> int:
    v = table.get(key, default)
    if v is None:
        src.problem(f"{where}: missing key '{key}'", f"[{where}")
        return low
    if not is_int(v) or v < low:
        src.problem(f"{where}.{key} must be a whole number >= {low}, got {v!r}", key)
        return low
    return int(v)


def _problem_at_end(src: TomlSource, message: str) -> None:
    """A problem with what the file lacks: located at its last line, where the missing part would go
    (as models/core/edition.py's parse_toml locates TOML's end-of-document errors)."""
    lines = src.text.split("\n")
    src.problems.append(f"{src.name}:{len(lines)}:{len(lines[-1]) + 1}: {message} (at the end of the file)")


def _table(src: TomlSource, d: dict[str, Any], key: str) -> dict[str, Any]:
    v = d.get(key)
    if v is None:
        _problem_at_end(src, f"missing table [{key}]")
        return {}
    if not isinstance(v, dict):
        src.problem(f"[{key}] must be a table", key)
        return {}
    return v


def _paths(src: TomlSource, ident: str, raw: Any, colours: tuple[str, ...], allow_empty: bool) -> tuple[TilePath, ...]:
    if not isinstance(raw, list) or (not raw and not allow_empty):
        src.problem(f"tile {ident}: expected a list of paths [[edge, edge, mushroom], ...]", ident)
        return ()
    out: list[TilePath] = []
    used: set[int] = set()
    for i, p in enumerate(raw):
        if not isinstance(p, list) or len(p) not in (2, 3) or not all(is_int(x) for x in p[:2]):
            src.problem(f"tile {ident}: path {i + 1} must be [edge, edge] or [edge, edge, mushroom], got {p!r}", ident)
            continue
        a, b = int(p[0]), int(p[1])
        mush = p[2] if len(p) == 3 else None
        if not (0 <= a <= 5 and 0 <= b <= 5):
            src.problem(f"tile {ident}: path {i + 1} edge out of range 0-5 in {p!r}", ident)
            continue
        if a == b:
            src.problem(f"tile {ident}: path {i + 1} joins edge {a} to itself", ident)
            continue
        if a in used or b in used:
            src.problem(f"tile {ident}: path {i + 1} reuses edge {a if a in used else b}", ident)
            continue
        if mush is not None and mush not in colours:
            src.problem(f"tile {ident}: path {i + 1} has unknown mushroom {mush!r} (colours: {', '.join(colours)})",
                        ident)
            continue
        used |= {a, b}
        out.append(TilePath(a, b, mush))
    return tuple(out)


def edition_from_toml(src: TomlSource) -> GnomeHollowEdition:
    """Validate a parsed TOML document as a Gnome Hollow edition (all problems at once)."""
    d = src.data
    meta = d.get("edition", {}) if isinstance(d.get("edition", {}), dict) else {}
    check_game(src, meta, "gnome-hollow")

    mt = _table(src, d, "mushrooms")
    colours_raw = mt.get("colours", [])
    if not isinstance(colours_raw, list) or not colours_raw or not all(isinstance(c, str) for c in colours_raw):
        src.problem("mushrooms.colours must be a non-empty list of names", "colours")
        colours_raw = []
    if len(set(colours_raw)) != len(colours_raw):
        src.problem("mushrooms.colours lists a colour twice", "colours")
    colours = tuple(colours_raw)
    supply_raw = mt.get("supply", {})
    supply: dict[str, int] = {}
    if not isinstance(supply_raw, dict):
        src.problem("mushrooms.supply must be a table colour = count", "supply")
        supply_raw = {}
    for c in colours:
        supply[c] = _int(src, supply_raw, c, 0, 0, "mushrooms.supply")
    for c in supply_raw:
        if c not in colours:
            src.problem(f"mushrooms.supply: unknown colour {c!r}", "supply", c)

    st = _table(src, d, "stump")
    stump = make_tile(STUMP_ID, _paths(src, "stump", st.get("paths", []), colours, True), stump=True)

    flowers_seen: list[str] = []
    wildflowers: dict[str, Tile] = {}
    for ident, flower in _table(src, d, "wildflowers").items():
        if not isinstance(flower, str) or not flower:
            src.problem(f"wildflower {ident}: expected a flower colour name", ident)
            continue
        if flower in flowers_seen:
            src.problem(f"wildflower {ident}: flower {flower!r} appears twice", ident)
            continue
        flowers_seen.append(flower)
        wildflowers[ident] = make_tile(ident, (), flower=flower)

    tiles: dict[str, Tile] = {}
    for ident, raw in _table(src, d, "tiles").items():
        if ident == STUMP_ID or ident in wildflowers:
            src.problem(f"tile id {ident!r} is reserved or already a wildflower tile", ident)
            continue
        if not ident or any(ch.isspace() or ch in "@:,#=" for ch in ident):
            src.problem(f"tile id {ident!r} may not contain spaces or any of @ : , # =", ident)
            continue
        paths = _paths(src, ident, raw, colours, False)
        if paths:
            tiles[ident] = make_tile(ident, paths)

    ft = _table(src, d, "flowers")
    flower_track = _track(src, ft.get("track"), "flowers.track", len(flowers_seen) + 1)
    rt = _table(src, d, "rings")
    markers = _int(src, rt, "markers", 8, 1, "rings")
    ring_track = _track(src, rt.get("track"), "rings.track", markers + 1)
    wf_at_raw = rt.get("wildflower_at", [])
    wf_at: list[int] = []
    if not isinstance(wf_at_raw, list) or not all(is_int(x) and 1 <= x <= markers for x in wf_at_raw):
        src.problem(f"rings.wildflower_at must list marker counts 1..{markers}", "wildflower_at")
    else:
        wf_at = [int(x) for x in wf_at_raw]
    shapes: dict[str, tuple[tuple[int, int], ...]] = {}
    sh_raw = d.get("shapes", {})
    if not isinstance(sh_raw, dict):
        src.problem("[shapes] must be a table name = [[q, r], ...]", "[shapes]")
        sh_raw = {}
    for name, cells in sh_raw.items():
        if not isinstance(cells, list) or not cells or not all(
                isinstance(c, list) and len(c) == 2 and all(is_int(x) for x in c) for c in cells):
            src.problem(f"shape {name}: expected a list of cells [[q, r], ...]", name)
            continue
        cs = tuple((int(c[0]), int(c[1])) for c in cells)
        if len(set(cs)) != len(cs):
            src.problem(f"shape {name}: a cell is listed twice", name)
            continue
        if canonical(cs) in {canonical(x) for x in shapes.values()}:
            src.problem(f"shape {name}: the same shape as another one", name)
            continue
        shapes[name] = cs
    columns = _columns(src, rt.get("columns", []), "rings.columns", shapes, False)
    adv = d.get("advanced_board", {}) if isinstance(d.get("advanced_board", {}), dict) else {}
    advanced = _columns(src, adv.get("columns", []), "advanced_board.columns", shapes, True) if adv else []
    for col in advanced:
        for space in col.rows:
            want = row_shape(space)
            if want is not None and len(shapes.get(want, ())) != col.size and not col.plus:
                src.problem(f"advanced_board.columns: shape {want} has {len(shapes.get(want, ()))} cells, "
                            f"not {col.size}", want)

    tt = _table(src, d, "treasures")
    treasures: dict[str, tuple[int, int]] = {}
    for kind, v in tt.items():
        if not isinstance(v, dict) or not is_int(v.get("value")) or v["value"] < 1:
            src.problem(f"treasures.{kind}: expected {{ value = N, count = N }} with value >= 1", kind)
            continue
        treasures[kind] = (int(v["value"]), int(v.get("count", 0)) if is_int(v.get("count", 0)) else 0)
    if not any(v == 1 for v, _ in treasures.values()):
        src.problem("treasures: some kind must be worth 1 point (to make change)", "[treasures]")

    mk = _table(src, d, "market")
    tokens: dict[str, int] = {}
    market: dict[str, MarketRow] = {}
    tok_raw = mk.get("tokens", {})
    if not isinstance(tok_raw, dict):
        src.problem("market.tokens must be a table colour = count", "tokens")
        tok_raw = {}
    for c in colours:
        tokens[c] = _int(src, tok_raw, c, 0, 0, "market.tokens")
        row = mk.get(c)
        if not isinstance(row, dict) or not is_int(row.get("pair")) or not isinstance(row.get("spaces"), list):
            src.problem(f"market.{c}: expected {{ pair = N, spaces = [[mushrooms, points], ...] }}", "[market")
            continue
        spaces: list[tuple[int, int]] = []
        for s in row["spaces"]:
            if not isinstance(s, list) or len(s) != 2 or not all(is_int(x) and x >= 1 for x in s):
                src.problem(f"market.{c}: each space is [mushrooms, points], got {s!r}", f"{c} =")
                continue
            spaces.append((int(s[0]), int(s[1])))
        if len({n for n, _ in spaces}) != len(spaces):
            src.problem(f"market.{c}: two spaces ask for the same number of mushrooms", f"{c} =")
        market[c] = MarketRow(int(row["pair"]), tuple(spaces))
    for k in mk:
        if k != "tokens" and k not in colours:
            src.problem(f"market: unknown colour {k!r}", f"{k} =")

    signposts: dict[str, dict[str, int]] = {}
    for ident, reward in _table(src, d, "signposts").items():
        if not isinstance(reward, dict) or not reward:
            src.problem(f"signpost {ident}: expected a table of rewards (colour = N or tile = 1)", ident)
            continue
        ok = True
        for k, v in reward.items():
            if (k not in colours and k != "tile") or not is_int(v) or v < 1:
                src.problem(f"signpost {ident}: bad reward {k} = {v!r}", ident)
                ok = False
        if ok:
            signposts[ident] = {k: int(v) for k, v in reward.items()}

    pl = _table(src, d, "players")
    tp = d.get("two_player", {}) if isinstance(d.get("two_player", {}), dict) else {}
    rm_tokens: dict[str, int] = {}
    rm_raw = tp.get("remove_market_tokens", {})
    for c in colours:
        rm_tokens[c] = _int(src, rm_raw if isinstance(rm_raw, dict) else {}, c, 0, 0, "two_player.remove_market_tokens")
    end = d.get("end", {}) if isinstance(d.get("end", {}), dict) else {}
    trades: dict[str, tuple[Trade, ...]] = {}
    tb = d.get("trade_board", {})
    if not isinstance(tb, dict):
        src.problem("[trade_board] must be a table signpost = [{ give = {...}, get = {...} }, ...]", "[trade_board]")
        tb = {}
    for sid, raw in tb.items():
        if sid not in signposts:
            src.problem(f"trade_board: unknown signpost {sid!r}", sid)
            continue
        got: list[Trade] = []
        for tr in raw if isinstance(raw, list) else [None]:
            sides = [tr.get(k) if isinstance(tr, dict) else None for k in ("give", "get")]
            if not all(isinstance(x, dict) and x and all(c in colours and is_int(n) and n >= 1 for c, n in x.items())
                       for x in sides):
                src.problem(f"trade_board.{sid}: each trade is {{ give = {{colour = N}}, get = {{colour = N}} }}", sid)
                continue
            got.append(Trade(*(tuple((c, int(n)) for c, n in x.items()) for x in sides)))  # type: ignore[union-attr]
        trades[sid] = tuple(got)
    ed = GnomeHollowEdition(
        name=str(meta.get("name", FsPath(src.name).stem)),
        source=src.name,
        reconstructed=bool(meta.get("reconstructed", False)),
        colours=colours,
        supply=supply,
        stump=stump,
        tiles=tiles,
        wildflowers=wildflowers,
        flower_track=flower_track,
        ring_track=ring_track,
        markers=markers,
        wildflower_at=tuple(wf_at),
        columns=tuple(columns),
        treasures=dict(sorted(treasures.items(), key=lambda kv: kv[1][0])),
        market_tokens=tokens,
        market=market,
        signposts=signposts,
        players_min=_int(src, pl, "min", 2, 1, "players"),
        players_max=_int(src, pl, "max", 4, 1, "players"),
        gnomes=_int(src, pl, "gnomes", 2, 1, "players"),
        storage=_int(src, pl, "storage", 2, 0, "players"),
        storage_wildflowers=_int(src, pl, "storage_wildflowers", 1, 0, "players"),
        offered=_int(src, pl, "offered", 8, 1, "players"),
        set_aside_per_player=_int(src, pl, "set_aside_per_player", 2, 0, "players"),
        two_player_remove_flowers=_int(src, tp, "remove_flower_colours", 0, 0, "two_player"),
        two_player_remove_tokens=rm_tokens,
        end_flowers=_int(src, end, "flowers", len(flowers_seen), 1, "end"),
        end_markers=_int(src, end, "markers", markers, 1, "end"),
        advanced_columns=tuple(advanced),
        shapes=shapes,
        trades=trades,
    )
    src.raise_if_problems()
    return ed


def _columns(src: TomlSource, raw_cols: Any, where: str, shapes: dict[str, tuple[tuple[int, int], ...]],
             allow_shapes: bool) -> list[RingColumn]:
    """The columns of one side of the player board (sizes increasing, the last one "or more")."""
    columns: list[RingColumn] = []
    if not isinstance(raw_cols, list) or not raw_cols:
        src.problem(f"{where}: expected [[{where}]] tables (size, rows)", f"[{where.split('.')[0]}")
        raw_cols = []
    last = 0
    for i, c in enumerate(raw_cols):
        if not isinstance(c, dict) or not is_int(c.get("size")) or not isinstance(c.get("rows"), list):
            src.problem(f"{where}[{i}]: needs size and rows", f"[[{where}]]")
            continue
        size = int(c["size"])
        if size <= last:
            src.problem(f"{where}[{i}]: sizes must increase (got {size} after {last})", f"size = {size}")
        last = size
        rows: list[tuple[str, ...]] = []
        for row in c["rows"]:
            if not isinstance(row, list) or not all(isinstance(b, str) for b in row):
                src.problem(f"{where}[{i}]: each row is a list of bonus names", f"size = {size}")
                continue
            for b in row:
                kind, _, n = b.partition(":")
                if kind == "shape" and allow_shapes:
                    if n not in shapes:
                        src.problem(f"{where}[{i}]: unknown shape {n!r} (see [shapes])", b)
                    continue
                if kind not in BONUS_KINDS or (kind == "mushrooms") != bool(n) or (n and not is_count(n)):
                    src.problem(f"{where}[{i}]: unknown bonus {b!r} (signpost, store, flower, "
                                "mushrooms:N, second-marker" + (", shape:NAME)" if allow_shapes else ")"), b)
            rows.append(tuple(row))
        columns.append(RingColumn(size, bool(c.get("plus", False)), tuple(rows)))
    if columns and not columns[-1].plus:
        src.problem(f"{where}: the last column must have plus = true (that size or more)", f"[[{where}]]")
    return columns


def _track(src: TomlSource, raw: Any, what: str, length: int) -> tuple[int, ...]:
    if not isinstance(raw, list) or not raw or not all(is_int(x) for x in raw):
        src.problem(f"{what} must be a list of whole numbers", what.split(".")[-1])
        return tuple([0] * length)
    if len(raw) < length:
        src.problem(f"{what} needs {length} entries (0..{length - 1}), has {len(raw)}", what.split(".")[-1])
    if any(b < a for a, b in zip(raw, raw[1:], strict=False)):
        src.problem(f"{what} must not decrease", what.split(".")[-1])
    return tuple(int(x) for x in raw)


@cache
def default_edition() -> GnomeHollowEdition:
    """The bundled, reconstructed default edition."""
    return edition_from_toml(read_bundled_toml("gnomekit.models.gnome_hollow.data", "default.toml"))


def load_edition(path: str | FsPath | None) -> GnomeHollowEdition:
    """Load an edition file, or the default one when ``path`` is None."""
    if path is None:
        return default_edition()
    return edition_from_toml(read_toml_file(path))
