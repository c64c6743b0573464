"""Gnome Hollow notations: positions as text and JSON, placements as text and JSON.

Placement text: ``TILE@Q,R:ORIENT`` where ORIENT is ``r0``-``r5`` (turned clockwise by that many
sixths), ``m0``-``m5`` (the mirrored back, then turned) or a number 0-11 (``m`` k = 6 + k);
``:ORIENT`` may be left out (``r0``).  Wildflower tiles are written ``W3@Q,R``.

Text position (documented in docs/formats-gnome-hollow.md)::

    gnome-hollow position
    format: 1
    edition: default
    to-move: red
    tiles: S@0,0:r0 G12@1,-1:r3 W3@0,1
    offered: G01 G02 G05 G07 G10 G11 G20 G33
    bag: G03 G04 ...
    ...
    player: red
      mushrooms: red=1 teal=2
      gnomes: 1,-1.0 market

Every line of the text is required (``-`` for an empty value) except ``format``, ``edition`` and
``options``; a line left out is a located error, never read as empty (:data:`REQUIRED_LINES`).  JSON
keys left out take the defaults docs/formats-gnome-hollow.md gives.

``gnomes:`` lists one token per gnome; a gnome not yet in the garden is ``-`` (``- flowers``) or
``unplaced``.  A lone ``-`` is the empty value, as on every line: a player without gnomes.  So a
player whose only gnome is not yet in the garden (an edition of one gnome each) is written
``gnomes: unplaced``, never ``gnomes: -``, which would read back as no gnome at all.

Both notations round-trip exactly: ``parse(print(p)) == p``.
"""

from __future__ import annotations

import re
from typing import Any

from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.hexgrid import Hex
from gnomekit.models.core.jsonpos import JsonReader, loads_with_positions
from gnomekit.models.core.text import FORMAT_LINE, FORMAT_VERSION, format_problem, is_count
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.placement import Placement
from gnomekit.models.gnome_hollow.position import (
    FLOWERS,
    MARKET,
    PHASES,
    Gnome,
    GnomeAt,
    Placed,
    PlayerState,
    Position,
)

HEADER = "gnome-hollow position"
#: The ``gnomes:`` token of a gnome not yet in the garden that cannot be the empty value ``-``.
UNPLACED = "unplaced"
_PLACE = re.compile(r"^([^\s@:,#=]+)@(-?\d+),(-?\d+)(?::(r[0-5]|m[0-5]|\d{1,18}))?$")
_PATHREF = re.compile(r"^(-?\d+),(-?\d+)\.(\d+)$")
#: The largest |q| or |r| a cell may have: far beyond any garden (a garden of every tile of an edition
#: reaches no further than its tile count from the Stump), and small enough that drawing a garden never
#: allocates without bound (a coordinate of 10**30 made ``show`` run out of memory).
MAX_COORD = 200
_COORD_PROBLEM = f"a cell Q,R with Q and R from -{MAX_COORD} to {MAX_COORD}"


def _coord(digits: str) -> int:
    """A coordinate's digits as a number; one of more than 9 digits (too far in any case) as a value out of
    range, without converting it (Python refuses to convert more than 4300 digits)."""
    return int(digits) if len(digits.lstrip("-")) <= 9 else MAX_COORD + 1


def _bounded(q: int, r: int) -> bool:
    return abs(q) <= MAX_COORD and abs(r) <= MAX_COORD


# ---------------------------------------------------------------------------------------------
# placements


def orientation_text(o: int) -> str:
    return f"m{o - 6}" if o >= 6 else f"r{o}"


def placement_to_text(p: Placement | Placed, edition: GnomeHollowEdition | None = None) -> str:
    if edition is not None and p.tile in edition.wildflowers:
        return f"{p.tile}@{p.cell[0]},{p.cell[1]}"
    return f"{p.tile}@{p.cell[0]},{p.cell[1]}:{orientation_text(p.orientation)}"


def _parse_orientation(s: str | None) -> int | None:
    if s is None:
        return 0
    if s[0] in "rm":
        return int(s[1:]) + (6 if s[0] == "m" else 0)
    v = int(s)
    return v if 0 <= v < 12 else None


def parse_placement_token(tok: str, source: str = "<placement>", line: int | None = None,
                          column: int | None = None) -> Placement:
    """``G12@1,-1:r3`` -> Placement (NotationError, located, when malformed)."""
    m = _PLACE.match(tok)
    o = _parse_orientation(m.group(4)) if m else None
    if not m or o is None:
        raise NotationError("expected a placement TILE@Q,R[:ORIENT] (ORIENT r0-r5, m0-m5 or 0-11), e.g. G12@1,-1:r3",
                            source=source, line=line, column=column, text=tok)
    q, r = _coord(m.group(2)), _coord(m.group(3))
    if not _bounded(q, r):
        raise NotationError(f"expected {_COORD_PROBLEM}", source=source, line=line, column=column, text=tok)
    return Placement(m.group(1), (q, r), o)


def _garden_tile(tok: str, source: str, line: int, column: int) -> Placed:
    """A token of the ``tiles:`` line: a placement, ``+`` first when laid in the same turn as the tile
    before it (option ring_check=turn)."""
    same = tok.startswith("+")
    p = parse_placement_token(tok[1:] if same else tok, source, line, column + same)
    return Placed(p.tile, p.cell, p.orientation, same)


def parse_placement(text: str, source: str = "<placement>") -> Placement:
    """A placement from the command line: the text token or a JSON object."""
    t = text.strip()
    if t.startswith("{"):
        data, positions = loads_with_positions(t, source)
        rd = _Reader(positions, source)
        return rd.placement(data, ())
    return parse_placement_token(t, source, 1, 1)


def parse_placements(texts: list[str], source: str = "<placements>") -> list[Placement]:
    """Each argument may hold several placements separated by spaces or commas-free tokens."""
    out: list[Placement] = []
    for t in texts:
        if t.strip().startswith("{") or t.strip().startswith("["):
            if t.strip().startswith("["):
                data, positions = loads_with_positions(t, source)
                rd = _Reader(positions, source)
                for i, x in enumerate(rd.list_(data, ())):
                    out.append(rd.placement(x, (i,)))
            else:
                out.append(parse_placement(t, source))
            continue
        col = 1
        for tok in t.split():
            out.append(parse_placement_token(tok, source, 1, t.index(tok, col - 1) + 1))
            col = t.index(tok, col - 1) + len(tok) + 1
    return out


# ---------------------------------------------------------------------------------------------
# JSON


def _pathref_json(k: tuple[Hex, int]) -> dict[str, Any]:
    return {"cell": [k[0][0], k[0][1]], "path": k[1]}


def _gnome_at_json(at: GnomeAt) -> Any:
    if at is None or isinstance(at, str):
        return at
    return _pathref_json(at)


def position_to_json(pos: Position, edition: GnomeHollowEdition) -> dict[str, Any]:
    """The position as a JSON-ready dict (documented keys, stable order)."""
    cols = edition.colours
    return {
        "game": "gnome-hollow",
        "format": FORMAT_VERSION,
        "edition": pos.edition,
        "options": dict(pos.options),
        "to_move": pos.mover.name if pos.players else None,
        "tiles": [{"tile": t.tile, "cell": list(t.cell), "orientation": t.orientation,
                   **({"same_turn": True} if t.same_turn else {})} for t in pos.tiles],
        "offered": list(pos.offered),
        "bag": list(pos.bag),
        "sunset": list(pos.sunset),
        "phase": pos.phase,
        **({"final_actions": pos.final_actions} if pos.phase == "final-actions" else {}),
        "market": {c: list(pos.market.get(c, ())) for c in cols},
        "market_tokens": {c: pos.market_tokens.get(c, 0) for c in cols},
        "flower_market": dict(pos.flower_market),
        "wildflower_supply": dict(pos.wildflower_supply),
        "signposts": list(pos.signposts),
        "placed_signposts": [{"signpost": s, "ring": _pathref_json(k)} for s, k in pos.placed_signposts],
        "pots": [{"ring": _pathref_json(k), "mushrooms": {c: m.get(c, 0) for c in cols}} for k, m in pos.pots],
        "players": [
            {
                "name": p.name,
                "mushrooms": {c: p.mushrooms.get(c, 0) for c in cols},
                "treasures": {k: p.treasures.get(k, 0) for k in edition.treasures},
                "flowers": list(p.flowers),
                "rings": [[s, r] for s, r in p.rings],
                "storage": list(p.storage),
                "gnomes": [{"at": _gnome_at_json(g.at), "down": g.down} for g in pos.gnomes if g.player == p.name],
            }
            for p in pos.players
        ],
    }


POSITION_KEYS = {"game", "format", "edition", "options", "to_move", "tiles", "offered", "bag", "sunset", "phase",
                 "final_actions", "end_triggered", "market", "market_tokens", "flower_market", "wildflower_supply",
                 "signposts", "placed_signposts", "pots", "players"}
# Keys ``show --json`` adds (derived from the position: its garden and its scores); read back and ignored.
SHOW_KEYS = {"warnings", "rings", "open_networks", "scores", "winners"}
# Keys the game protocol adds for a turn in progress (models/gnome_hollow/game.py).
PROTOCOL_JSON_KEYS = ("turn",)
PROTOCOL_TEXT_KEYS = ("turn",)


class PhaseError(ValueError):
    """The phase fields of a position disagree; ``field`` names the one to point at."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message, self.field = message, field


def resolve_phase(phase: str | None, end_triggered: bool | None, final: int | None, players: int,
                  to_move: int) -> tuple[bool, int | None]:
    """``(end_triggered, final_actions)`` from what a file says: ``phase`` (None: not given),
    the older ``end-triggered`` flag (None: not given) and the ``final-actions`` count (None: not
    given).  Files written before positions carried their phase have no ``phase``: an end
    triggered with the first player to move is then the final gnome actions (none taken yet)."""
    if phase is not None and phase not in PHASES:
        raise PhaseError(f"a phase: {', '.join(PHASES)}", "phase")
    if phase is None:
        end = bool(end_triggered)
        if final is None and end and to_move == 0:
            final = 0
        if final is not None and not end:
            raise PhaseError("no final-actions before the end of the game is triggered (end-triggered: yes)",
                             "final")
        return end, final
    end = phase != "play"
    if end_triggered is not None and end_triggered != end:
        raise PhaseError(f"end-triggered {'yes' if end else 'no'} with phase {phase} (or leave it out)", "end")
    if phase == "over":
        if final is not None and final != players:
            raise PhaseError(f"final-actions {players} when the game is over (or leave it out)", "final")
        return True, players
    if phase == "final-actions":
        if final is not None and final >= players:
            raise PhaseError(f"final-actions 0-{players - 1} in phase final-actions ({players}: phase over)",
                             "final")
        return True, 0 if final is None else final
    if final is not None:
        raise PhaseError(f"no final-actions in phase {phase}", "final")
    return end, None
PLAYER_KEYS = {"name", "mushrooms", "treasures", "flowers", "rings", "storage", "gnomes"}


class _Reader(JsonReader):
    """Typed JSON access for this notation (errors located by :class:`JsonReader`)."""

    def int_(self, v: Any, path: tuple[Any, ...], low: int | None = None) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or (low is not None and v < low):
            raise self.err(path, "a whole number" + (f" >= {low}" if low is not None else ""), v)
        return v

    def str_(self, v: Any, path: tuple[Any, ...], what: str = "a string") -> str:
        if not isinstance(v, str) or not v:
            raise self.err(path, what, v)
        return v

    def list_(self, v: Any, path: tuple[Any, ...]) -> list[Any]:
        if not isinstance(v, list):
            raise self.err(path, "a list", v)
        return v

    def obj(self, v: Any, path: tuple[Any, ...], keys: set[str] | None = None,
            what: str = "an object") -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.err(path, what, v)
        if keys is not None:
            extra = sorted(set(v) - keys)
            if extra:
                raise self.err(path + (extra[0],), "one of the keys " + ", ".join(sorted(keys)), extra[0])
        return v

    def cell(self, v: Any, path: tuple[Any, ...]) -> Hex:
        if not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise self.err(path, "a cell [q, r]", v)
        if not _bounded(v[0], v[1]):
            raise self.err(path, _COORD_PROBLEM.replace("Q,R", "[q, r]").replace("Q and R", "q and r"), v)
        return (v[0], v[1])

    def pathref(self, v: Any, path: tuple[Any, ...]) -> tuple[Hex, int]:
        o = self.obj(v, path, {"cell", "path"}, 'a path reference {"cell": [q, r], "path": k}')
        if "cell" not in o or "path" not in o:
            raise self.err(path, 'keys "cell" and "path"')
        return (self.cell(o["cell"], path + ("cell",)), self.int_(o["path"], path + ("path",), 0))

    def counts(self, v: Any, path: tuple[Any, ...]) -> dict[str, int]:
        o = self.obj(v, path, None, "an object name -> count")
        return {k: self.int_(x, path + (k,), 0) for k, x in o.items()}

    def strs(self, v: Any, path: tuple[Any, ...]) -> tuple[str, ...]:
        return tuple(self.str_(x, path + (i,), "a name") for i, x in enumerate(self.list_(v, path)))

    def garden_tile(self, v: Any, path: tuple[Any, ...]) -> Placed:
        """A tile of the garden: a placement object, with ``"same_turn": true`` for a tile laid in the
        same turn as the tile before it (option ring_check=turn)."""
        o = self.obj(v, path, {"tile", "cell", "orientation", "same_turn"},
                     'a tile {"tile", "cell", "orientation", "same_turn"}')
        same = o.get("same_turn", False)
        if not isinstance(same, bool):
            raise self.err(path + ("same_turn",), "true or false", same)
        p = self.placement({k: x for k, x in o.items() if k != "same_turn"}, path)
        return Placed(p.tile, p.cell, p.orientation, same)

    def placement(self, v: Any, path: tuple[Any, ...]) -> Placement:
        o = self.obj(v, path, {"tile", "cell", "orientation"}, 'a placement {"tile", "cell", "orientation"}')
        if "tile" not in o or "cell" not in o:
            raise self.err(path, 'keys "tile" and "cell" in the placement object')
        orient = self.int_(o.get("orientation", 0), path + ("orientation",), 0)
        if orient > 11:
            raise self.err(path + ("orientation",), "an orientation 0-11", orient)
        return Placement(self.str_(o["tile"], path + ("tile",), "a tile id"), self.cell(o["cell"], path + ("cell",)),
                         orient)

    def gnome_at(self, v: Any, path: tuple[Any, ...]) -> GnomeAt:
        if v is None or v in (MARKET, FLOWERS):
            return v  # type: ignore[no-any-return]
        if isinstance(v, str):
            raise self.err(path, f'null, "{MARKET}", "{FLOWERS}" or a path reference', v)
        return self.pathref(v, path)


def position_from_json(text: str, source: str, edition: GnomeHollowEdition,
                       protocol: dict[str, Any] | None = None) -> Position:
    """A position from JSON.  ``protocol``, when given, receives the game protocol's keys (a turn in
    progress: ``turn``, ``final_actions``) with their locations; without it those keys are an error."""
    data, positions = loads_with_positions(text, source)
    rd = _Reader(positions, source)
    d = rd.obj(data, (), None, "a position object")
    if d.get("game", "gnome-hollow") != "gnome-hollow":
        raise rd.err(("game",), "'gnome-hollow' (this is a Gnome Hollow command)", d.get("game"))
    problem = format_problem(d["format"], in_json=True) if "format" in d else None
    if problem:
        raise rd.err(("format",), problem, d["format"])
    for k in PROTOCOL_JSON_KEYS:
        if k in d:
            line, col = positions.get((k,), (None, None))
            if protocol is None:
                raise NotationError(f"a turn in progress ({k!r}) is read by the Python API "
                                    "(gnomekit.game('gnome-hollow').read), not here", source=source, line=line,
                                    column=col)
            protocol[k] = (d[k], line, col)
    extra = sorted(set(d) - POSITION_KEYS - SHOW_KEYS - set(PROTOCOL_JSON_KEYS))
    if extra:
        raise rd.err((extra[0],), "one of the position keys: " + ", ".join(sorted(POSITION_KEYS)), extra[0])
    players: list[PlayerState] = []
    gnomes: list[Gnome] = []
    for i, x in enumerate(rd.list_(d.get("players", []), ("players",))):
        p = ("players", i)
        po = rd.obj(x, p, PLAYER_KEYS, "a player object")
        name = rd.str_(po.get("name"), p + ("name",), "a player name")
        if any(ch.isspace() for ch in name):
            raise rd.err(p + ("name",), "a player name without spaces", name)
        rings = []
        for j, r in enumerate(rd.list_(po.get("rings", []), p + ("rings",))):
            if not isinstance(r, list) or len(r) != 2:
                raise rd.err(p + ("rings", j), "a ring board space [size, row]", r)
            rings.append((rd.int_(r[0], p + ("rings", j, 0), 1), rd.int_(r[1], p + ("rings", j, 1), 1)))
        for j, g in enumerate(rd.list_(po.get("gnomes", []), p + ("gnomes",))):
            go = rd.obj(g, p + ("gnomes", j), {"at", "down"}, 'a gnome {"at": ..., "down": false}')
            down = go.get("down", False)
            if not isinstance(down, bool):
                raise rd.err(p + ("gnomes", j, "down"), "true or false", down)
            gnomes.append(Gnome(name, rd.gnome_at(go.get("at"), p + ("gnomes", j, "at")), down))
        players.append(PlayerState(
            name=name,
            mushrooms=rd.counts(po.get("mushrooms", {}), p + ("mushrooms",)),
            treasures=rd.counts(po.get("treasures", {}), p + ("treasures",)),
            flowers=rd.strs(po.get("flowers", []), p + ("flowers",)),
            rings=tuple(rings),
            storage=rd.strs(po.get("storage", []), p + ("storage",)),
        ))
    to_move = 0
    if d.get("to_move") is not None:
        tm = rd.str_(d["to_move"], ("to_move",), "a player name")
        names = [p.name for p in players]
        if tm not in names:
            raise rd.err(("to_move",), "the name of a player: " + ", ".join(names), tm)
        to_move = names.index(tm)
    tiles = tuple(
        rd.garden_tile(x, ("tiles", i)) for i, x in enumerate(rd.list_(d.get("tiles", [
            {"tile": "S", "cell": [0, 0], "orientation": 0}]), ("tiles",))))
    market = {c: tuple(rd.int_(n, ("market", c, j), 1) for j, n in enumerate(rd.list_(v, ("market", c))))
              for c, v in rd.obj(d.get("market", {}), ("market",)).items()}
    options = rd.obj(d.get("options", {}), ("options",))
    for k, v in options.items():
        rd.str_(v, ("options", k), "an option value")
    legacy_end = d.get("end_triggered")
    if legacy_end is not None and not isinstance(legacy_end, bool):
        raise rd.err(("end_triggered",), "true or false", legacy_end)
    phase = d.get("phase")
    if phase is not None:
        phase = rd.str_(phase, ("phase",), "a phase: " + ", ".join(PHASES))
    final = rd.int_(d["final_actions"], ("final_actions",), 0) if d.get("final_actions") is not None else None
    try:
        end, final = resolve_phase(phase, legacy_end, final, len(players), to_move)
    except PhaseError as exc:
        pkey = {"phase": "phase", "end": "end_triggered", "final": "final_actions"}[exc.field]
        raise rd.err((pkey,), exc.message, d.get(pkey)) from None
    placed_sp = []
    for i, x in enumerate(rd.list_(d.get("placed_signposts", []), ("placed_signposts",))):
        o = rd.obj(x, ("placed_signposts", i), {"signpost", "ring"}, '{"signpost": id, "ring": path reference}')
        placed_sp.append((rd.str_(o.get("signpost"), ("placed_signposts", i, "signpost"), "a signpost id"),
                          rd.pathref(o.get("ring"), ("placed_signposts", i, "ring"))))
    pots = []
    for i, x in enumerate(rd.list_(d.get("pots", []), ("pots",))):
        o = rd.obj(x, ("pots", i), {"ring", "mushrooms"}, '{"ring": path reference, "mushrooms": {...}}')
        pots.append((rd.pathref(o.get("ring"), ("pots", i, "ring")),
                     {k: v for k, v in rd.counts(o.get("mushrooms", {}), ("pots", i, "mushrooms")).items() if v}))
    edname = d.get("edition", edition.name)
    pos = Position(
        players=tuple(players),
        tiles=tiles,
        to_move=to_move,
        gnomes=tuple(gnomes),
        offered=rd.strs(d.get("offered", []), ("offered",)),
        bag=rd.strs(d.get("bag", []), ("bag",)),
        sunset=rd.strs(d.get("sunset", []), ("sunset",)),
        end_triggered=end,
        final_actions=final,
        market=market,
        market_tokens=rd.counts(d.get("market_tokens", {}), ("market_tokens",)),
        flower_market=rd.counts(d.get("flower_market", {}), ("flower_market",)),
        wildflower_supply=rd.counts(d.get("wildflower_supply", {}), ("wildflower_supply",)),
        signposts=rd.strs(d.get("signposts", []), ("signposts",)),
        placed_signposts=tuple(placed_sp),
        pots=tuple(pots),
        options={k: str(v) for k, v in options.items()},
        edition=rd.str_(edname, ("edition",), "an edition name"),
    )
    probs = pos.problems(edition)
    if probs:
        key = _guess_key(probs[0])
        line, col = positions.get((key,), positions.get((), (None, None))) if key else positions.get((), (1, 1))
        raise NotationError("the position is not well formed: " + "; ".join(probs), source=source, line=line,
                            column=col)
    return pos


def _guess_key(problem: str) -> str | None:
    for word, key in (("final gnome action", "phase"), ("final-actions", "phase"), ("phase", "phase"),
                      ("tile", "tiles"), ("gnome", "players"), ("player", "players"), ("market", "market"),
                      ("signpost", "placed_signposts"), ("pot", "pots"), ("option", "options"),
                      ("wildflower supply", "wildflower_supply"), ("flower market", "flower_market")):
        if word in problem:
            return key
    return None


# ---------------------------------------------------------------------------------------------
# Text


def _pathref_text(k: tuple[Hex, int]) -> str:
    return f"{k[0][0]},{k[0][1]}.{k[1]}"


def _gnome_text(g: Gnome) -> str:
    at = g.at
    s = "-" if at is None else (at if isinstance(at, str) else _pathref_text(at))
    return s + ("!" if g.down else "")


def _gnomes_text(gnomes: list[Gnome]) -> str:
    """A player's ``gnomes:`` value: ``-`` for none; a lone gnome not in the garden as ``unplaced``
    (a lone ``-`` is the empty value)."""
    words = [_gnome_text(g) for g in gnomes]
    return UNPLACED if words == ["-"] else _words(words)


def _kv(d: dict[str, int], order: tuple[str, ...] | list[str] | None = None) -> str:
    keys = list(order) if order is not None else list(d)
    keys += [k for k in d if k not in keys]
    return " ".join(f"{k}={d.get(k, 0)}" for k in keys) or "-"


def _words(xs: tuple[str, ...] | list[str]) -> str:
    return " ".join(xs) if xs else "-"


def position_to_text(pos: Position, edition: GnomeHollowEdition) -> str:
    """The position as the documented text (parse it back with position_from_text)."""
    cols = edition.colours
    lines = [HEADER, FORMAT_LINE, f"edition: {pos.edition}"]
    lines.append("options: " + (" ".join(f"{k}={v}" for k, v in pos.options.items()) or "-"))
    lines.append(f"to-move: {pos.mover.name if pos.players else '-'}")
    lines.append("tiles: " + " ".join(("+" if t.same_turn else "") + placement_to_text(t, edition) for t in pos.tiles))
    lines.append("offered: " + _words(pos.offered))
    lines.append("bag: " + _words(pos.bag))
    lines.append("sunset: " + _words(pos.sunset))
    lines.append(f"phase: {pos.phase}")
    if pos.phase == "final-actions":
        lines.append(f"final-actions: {pos.final_actions}")
    lines.append("market: " + " ".join(
        f"{c}=" + (",".join(map(str, pos.market.get(c, ()))) or "-") for c in cols))
    lines.append("market-tokens: " + _kv(pos.market_tokens, cols))
    lines.append("flower-market: " + (_kv(pos.flower_market) if pos.flower_market else "-"))
    lines.append("wildflower-supply: " + (_kv(pos.wildflower_supply) if pos.wildflower_supply else "-"))
    lines.append("signposts: " + _words(pos.signposts))
    lines.append("placed-signposts: " + _words([f"{s}@{_pathref_text(k)}" for s, k in pos.placed_signposts]))
    lines.append("pots: " + _words([f"{_pathref_text(k)}=" + (",".join(f"{c}:{n}" for c, n in m.items() if n) or "0")
                                    for k, m in pos.pots]))
    for p in pos.players:
        lines.append(f"player: {p.name}")
        lines.append("  mushrooms: " + _kv(p.mushrooms, cols))
        lines.append("  treasures: " + _kv(p.treasures, list(edition.treasures)))
        lines.append("  flowers: " + _words(p.flowers))
        lines.append("  rings: " + _words([f"{s}.{r}" for s, r in p.rings]))
        lines.append("  storage: " + _words(p.storage))
        lines.append("  gnomes: " + _gnomes_text([g for g in pos.gnomes if g.player == p.name]))
    return "\n".join(lines) + "\n"


TOP_KEYS = ("format", "edition", "options", "to-move", "tiles", "offered", "bag", "sunset", "phase", "final-actions",
            "end-triggered", "market", "market-tokens", "flower-market", "wildflower-supply", "signposts",
            "placed-signposts", "pots", "player")
PLAYER_TEXT_KEYS = ("mushrooms", "treasures", "flowers", "rings", "storage", "gnomes")
#: The lines a text position must give, in the order ``position_to_text`` writes them, with what each
#: holds.  A line left out is an error, not an empty value: a forgotten ``bag:`` read as an empty bag
#: would end the game at the next draw.  Only ``format`` (1), ``edition`` (the edition read with) and
#: ``options`` (none: the rulebook's rules) may be left out; ``phase`` may be given as the older
#: ``end-triggered`` instead.  ``-`` is the empty value.
REQUIRED_LINES = {
    "to-move": "the player to move",
    "tiles": "the garden in placement order, the Stump first (tiles: S@0,0:r0 for the Stump alone)",
    "offered": "the tiles on the garden tile board, - for none",
    "bag": "the tiles in the bag, - for none",
    "sunset": "the tiles under the Sunset tile, - for none",
    "phase": "play, end-triggered, final-actions or over",
    "market": "the blocked market spaces of each colour, e.g. red=3,5 yellow=-",
    "market-tokens": "the market tokens of each colour still beside the market, e.g. red=3 yellow=4",
    "flower-market": "the flower tokens in the flower market (FLOWER=N), - for none",
    "wildflower-supply": "the wildflower tiles still available (TILE=N flower tokens), - for none",
    "signposts": "the signposts not yet placed, - for none",
    "placed-signposts": "the placed signposts (ID@Q,R.K), - for none",
    "pots": "the completed unclaimed rings holding mushrooms (Q,R.K=COLOUR:N,...), - for none",
}
REQUIRED_PLAYER_LINES = {
    "mushrooms": "the player's mushrooms (COLOUR=N ...), - for none",
    "treasures": "the player's treasures (KIND=N ...), - for none",
    "flowers": "the player's flower tokens in collection order, - for none",
    "rings": "the player's occupied ring board spaces (SIZE.ROW), - for none",
    "storage": "the player's stored tiles, - for none",
    "gnomes": "one token per gnome of the player: - or unplaced (not yet in the garden), market, flowers or "
              "Q,R.K; - alone for none",
}
_WRITE_ORDER = ("format", "edition", "options", "to-move", "tiles", "offered", "bag", "sunset", "phase",
                "final-actions", "market", "market-tokens", "flower-market", "wildflower-supply", "signposts",
                "placed-signposts", "pots")


class _TextReader:
    def __init__(self, source: str) -> None:
        self.source = source

    def err(self, line: int, col: int, expected: str, found: str | None = None) -> NotationError:
        return NotationError(f"expected {expected}", source=self.source, line=line, column=col, text=found)

    def tokens(self, value: str, line: int, vcol: int) -> list[tuple[str, int]]:
        out = []
        pos = 0
        for tok in value.split():
            pos = value.index(tok, pos)
            out.append((tok, vcol + pos))
            pos += len(tok)
        if len(out) == 1 and out[0][0] == "-":
            return []
        return out

    def counts(self, value: str, line: int, vcol: int) -> dict[str, int]:
        out: dict[str, int] = {}
        for tok, col in self.tokens(value, line, vcol):
            k, eq, v = tok.partition("=")
            if not eq or not k or not is_count(v):
                raise self.err(line, col, "NAME=COUNT", tok)
            if k in out:
                raise self.err(line, col, f"{k} only once", tok)
            out[k] = int(v)
        return out

    def pathref(self, tok: str, line: int, col: int) -> tuple[Hex, int]:
        m = _PATHREF.match(tok)
        if not m:
            raise self.err(line, col, "a path reference Q,R.K (path K of the tile at Q,R)", tok)
        if not _bounded(_coord(m.group(1)), _coord(m.group(2))) or len(m.group(3)) > 2:
            raise self.err(line, col, f"a path reference Q,R.K with {_COORD_PROBLEM} and a path number K", tok)
        return ((int(m.group(1)), int(m.group(2))), int(m.group(3)))


def position_from_text(text: str, source: str, edition: GnomeHollowEdition,
                       protocol: dict[str, Any] | None = None) -> Position:
    """A position from the text notation.  ``protocol``, when given, receives the game protocol's
    lines (``turn:``, ``final-actions:``) as (value, line, column); without it they are an error."""
    rd = _TextReader(source)
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or lines[i].strip() != HEADER:
        raise rd.err(i + 1 if i < len(lines) else 1, 1, f"the header line {HEADER!r}",
                     lines[i].strip() if i < len(lines) else "end of input")
    top: dict[str, tuple[str, int, int]] = {}
    players: list[tuple[str, int, dict[str, tuple[str, int, int]]]] = []
    for n in range(i + 1, len(lines)):
        raw = lines[n]
        ln = n + 1
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        key, colon, value = raw.strip().partition(":")
        if not colon:
            raise rd.err(ln, indent + 1, "KEY: VALUE", raw.strip())
        vcol = indent + len(key) + 2 + (len(value) - len(value.lstrip()))
        value = value.strip()
        if indent:
            if not players:
                raise rd.err(ln, 1, "'player: NAME' before indented player lines", raw.strip())
            if key not in PLAYER_TEXT_KEYS:
                raise rd.err(ln, indent + 1, "a player key: " + ", ".join(PLAYER_TEXT_KEYS), key)
            if key in players[-1][2]:
                raise rd.err(ln, indent + 1, f"{key} only once per player", key)
            players[-1][2][key] = (value, ln, vcol)
            continue
        if key in PROTOCOL_TEXT_KEYS:
            if protocol is None:
                raise NotationError(f"a turn in progress ({key}:) is read by the Python API "
                                    "(gnomekit.game('gnome-hollow').read), not here", source=source, line=ln,
                                    column=indent + 1)
            if key in protocol:
                raise rd.err(ln, 1, f"{key} only once", key)
            protocol[key] = (value, ln, vcol)
            continue
        if key not in TOP_KEYS:
            raise rd.err(ln, 1, "a key: " + ", ".join(TOP_KEYS), key)
        if key == "player":
            if not value or " " in value:
                raise rd.err(ln, vcol, "a player name without spaces", value)
            if any(p[0] == value for p in players):
                raise rd.err(ln, vcol, "a new player name", value)
            players.append((value, ln, {}))
            continue
        if key in top:
            raise rd.err(ln, 1, f"{key} only once", key)
        top[key] = (value, ln, vcol)

    _require_lines(rd, lines, i + 1, top, players)

    def get(key: str, default: str = "-") -> tuple[str, int, int]:
        return top.get(key, (default, 1, 1))

    pstates: list[PlayerState] = []
    gnomes: list[Gnome] = []
    for name, _ln, keys in players:
        def pk(k: str, keys: dict[str, tuple[str, int, int]] = keys, ln0: int = _ln) -> tuple[str, int, int]:
            return keys.get(k, ("-", ln0, 1))
        rings = []
        v, ln, c = pk("rings")
        for tok, col in rd.tokens(v, ln, c):
            m = re.match(r"^(\d{1,18})\.(\d{1,18})$", tok)
            if not m:
                raise rd.err(ln, col, "a ring board space SIZE.ROW", tok)
            rings.append((int(m.group(1)), int(m.group(2))))
        v, ln, c = pk("gnomes")
        for tok, col in rd.tokens(v, ln, c):
            down = tok.endswith("!")
            t = tok[:-1] if down else tok
            at: GnomeAt
            if t in ("-", UNPLACED):
                at = None
            elif t in (MARKET, FLOWERS):
                at = t
            else:
                at = rd.pathref(t, ln, col)
            gnomes.append(Gnome(name, at, down))
        pstates.append(PlayerState(
            name=name,
            mushrooms=rd.counts(*pk("mushrooms")),
            treasures=rd.counts(*pk("treasures")),
            flowers=tuple(t for t, _ in rd.tokens(*pk("flowers"))),
            rings=tuple(rings),
            storage=tuple(t for t, _ in rd.tokens(*pk("storage"))),
        ))
    to_move = 0
    v, ln, c = get("to-move")
    names = [p.name for p in pstates]
    if v != "-":
        if v not in names:
            raise rd.err(ln, c, "the name of a player: " + ", ".join(names), v)
        to_move = names.index(v)
    v, ln, c = get("tiles", "S@0,0:r0")
    tiles = tuple(_garden_tile(tok, source, ln, col) for tok, col in rd.tokens(v, ln, c))
    market: dict[str, tuple[int, ...]] = {}
    v, ln, c = get("market")
    for tok, col in rd.tokens(v, ln, c):
        k, eq, rest = tok.partition("=")
        if not eq or not k:
            raise rd.err(ln, col, "COLOUR=N,N,... or COLOUR=- (blocked spaces by mushrooms)", tok)
        if rest != "-":
            parts = rest.split(",")
            if not all(is_count(x) for x in parts):
                raise rd.err(ln, col, "COLOUR=N,N,... (blocked spaces by mushrooms)", tok)
            market[k] = tuple(int(x) for x in parts)
    options: dict[str, str] = {}
    v, ln, c = get("options")
    for tok, col in rd.tokens(v, ln, c):
        k, eq, val = tok.partition("=")
        if not eq or not val:
            raise rd.err(ln, col, "NAME=VALUE", tok)
        options[k] = val
    if "format" in top:
        v, ln, c = top["format"]
        problem = format_problem(v)
        if problem is not None:
            raise rd.err(ln, c, problem, v)
    legacy_end: bool | None = None
    if "end-triggered" in top:
        v, ln, c = top["end-triggered"]
        if v not in ("yes", "no"):
            raise rd.err(ln, c, "yes or no", v)
        legacy_end = v == "yes"
    phase: str | None = None
    if "phase" in top:
        phase = top["phase"][0]
    final: int | None = None
    if "final-actions" in top:
        v, ln, c = top["final-actions"]
        if not is_count(v):
            raise rd.err(ln, c, f"a count of final gnome actions 0-{len(pstates)}", v)
        final = int(v)
    try:
        end, final = resolve_phase(phase, legacy_end, final, len(pstates), to_move)
    except PhaseError as exc:
        key = {"phase": "phase", "end": "end-triggered", "final": "final-actions"}[exc.field]
        v, ln, c = top.get(key, top.get("phase", ("", 1, 1)))
        raise rd.err(ln, c, exc.message, v) from None
    placed_sp = []
    v, ln, c = get("placed-signposts")
    for tok, col in rd.tokens(v, ln, c):
        s, at, ref = tok.partition("@")
        if not at or not s:
            raise rd.err(ln, col, "SIGNPOST@Q,R.K", tok)
        placed_sp.append((s, rd.pathref(ref, ln, col + len(s) + 1)))
    pots = []
    v, ln, c = get("pots")
    for tok, col in rd.tokens(v, ln, c):
        ref, eq, rest = tok.partition("=")
        if not eq:
            raise rd.err(ln, col, "Q,R.K=COLOUR:N,...", tok)
        pot: dict[str, int] = {}
        if rest != "0":
            for part in rest.split(","):
                colour, colon, num = part.partition(":")
                if not colon or not is_count(num):
                    raise rd.err(ln, col, "Q,R.K=COLOUR:N,...", tok)
                pot[colour] = int(num)
        pots.append((rd.pathref(ref, ln, col), {k: n for k, n in pot.items() if n}))
    ed_name, _, _ = get("edition", edition.name)
    pos = Position(
        players=tuple(pstates),
        tiles=tiles,
        to_move=to_move,
        gnomes=tuple(gnomes),
        offered=tuple(t for t, _ in rd.tokens(*get("offered"))),
        bag=tuple(t for t, _ in rd.tokens(*get("bag"))),
        sunset=tuple(t for t, _ in rd.tokens(*get("sunset"))),
        end_triggered=end,
        final_actions=final,
        market=market,
        market_tokens=rd.counts(*get("market-tokens")),
        flower_market=rd.counts(*get("flower-market")),
        wildflower_supply=rd.counts(*get("wildflower-supply")),
        signposts=tuple(t for t, _ in rd.tokens(*get("signposts"))),
        placed_signposts=tuple(placed_sp),
        pots=tuple(pots),
        options=options,
        edition=ed_name,
    )
    probs = pos.problems(edition)
    if probs:
        pline, pcol = _locate_problem(probs[0], lines)
        if pline is None and probs[0] == "no players":  # where the player blocks belong: after the last line
            pline, pcol = max(1, len(lines)), 1
        raise NotationError("the position is not well formed: " + "; ".join(probs), source=source, line=pline,
                            column=pcol)
    return pos


def _require_lines(rd: _TextReader, lines: list[str], header: int, top: dict[str, tuple[str, int, int]],
                   players: list[tuple[str, int, dict[str, tuple[str, int, int]]]]) -> None:
    """Refuse a text position that leaves out a line (see :data:`REQUIRED_LINES`), located where the
    first missing line belongs (after the line before it in the written order), naming every one missing.
    Without any player block the position's first problem is that it has no players (said after reading)."""
    if not players:
        return
    given = set(top) | ({"phase"} if "end-triggered" in top else set())
    if top.get("phase", ("",))[0] == "final-actions" and "final-actions" not in top:
        ln = top["phase"][1]
        raise rd.err(ln + 1, 1, "a line 'final-actions: K' after 'phase: final-actions' (the final gnome "
                     "actions taken so far, 0 when none)", _line_at(lines, ln + 1))
    missing = [k for k in REQUIRED_LINES if k not in given]
    if missing:
        before = [k for k in _WRITE_ORDER[:_WRITE_ORDER.index(missing[0])] if k in top]
        where = max((top[k][1] for k in before), default=header) + 1
        line, holds, more = f"{missing[0]}: ...", REQUIRED_LINES[missing[0]], missing[1:]
    else:
        for name, ln0, keys in players:
            more = [k for k in REQUIRED_PLAYER_LINES if k not in keys]
            if more:
                k0 = PLAYER_TEXT_KEYS.index(more[0])
                where = max((keys[k][1] for k in PLAYER_TEXT_KEYS[:k0] if k in keys), default=ln0) + 1
                line, holds, more = f"  {more[0]}: ...", f"{REQUIRED_PLAYER_LINES[more[0]]}; player {name}", more[1:]
                break
        else:
            return
    also = f"; also missing: {', '.join(more)}" if more else ""
    raise rd.err(where, 1, f"a line '{line}' here ({holds}){also}; a position writes out every line (- for an "
                 "empty value), only format, edition and options may be left out", _line_at(lines, where))


def _line_at(lines: list[str], ln: int) -> str:
    """Line ``ln`` (1-based) as found, or "end of input" past the last one."""
    return lines[ln - 1].strip() if ln <= len(lines) else "end of input"


def _locate_problem(problem: str, lines: list[str]) -> tuple[int | None, int | None]:
    """The first line holding a token the problem quotes (a tile id, a cell, a name)."""
    cands = re.findall(r"'([^']+)'", problem) + re.findall(r"(-?\d+,-?\d+)", problem) + problem.split()
    for cand in cands:
        if len(cand) < 2:
            continue
        for n, line in enumerate(lines, start=1):
            j = line.find(cand)
            if j >= 0 and ":" in line:
                return n, j + 1
    return None, None


def read_position(text: str, source: str, edition: GnomeHollowEdition,
                  protocol: dict[str, Any] | None = None) -> Position:
    """Text or JSON (detected by a leading ``{``); ``protocol`` as for :func:`position_from_text`."""
    if text.lstrip().startswith("{"):
        return position_from_json(text, source, edition, protocol)
    return position_from_text(text, source, edition, protocol)

