"""Hexen Rennen notations: positions as text and JSON, turns as text and JSON.

Text position (for people; see docs/formats-hexen-rennen.md)::

    hexen-rennen position
    edition: default
    players: weather fog ice
    to-move: weather
    witches: weather=0,0,12 fog=5,49,0 ice=0,0,0
    hand weather: 2 3 4 5 6 7 8 9 10 S S S
    hand fog: 2 5 S
    hand ice: -
    deck forest: 7 S 3 2 10 S 4 5 6 8 9 S
    stage 1: W7 f3 ...   (16 tiles)
    stage 2: ...
    stage 3: ...

A tile is the clan letter and its value (``S`` for the symbol); the letter is
upper case when the tile is face up, lower case when face down.  ``deck`` lines
hold a neutral clan's draw pile, top card first.  Both notations round-trip:
parse(print(p)) == p.

Turn: ``WITCH DECISION...`` where WITCH is the field of the witch before the
roll (``start`` = 0) or ``pass``, and each DECISION is ``[CLAN:]stop``,
``[CLAN:]S`` or ``[CLAN:]N``, in chain order; see the docs for defaults.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.jsonpos import JsonReader, loads_with_positions
from gnomekit.models.core.text import FORMAT_LINE, FORMAT_VERSION, format_problem, header_index
from gnomekit.models.hexen_rennen.edition import STOP, SYMBOL, HexenEdition, small_int
from gnomekit.models.hexen_rennen.position import Position, Tile, card_json, card_name
from gnomekit.models.hexen_rennen.turn import Decision, TurnPlan, choice_name

HEADER = "hexen-rennen position"
POSITION_KEYS = ("game", "format", "edition", "players", "to_move", "track", "witches", "hands")
INFO_KEYS = ("warnings", "neutral", "scores", "legend", "result", "winners")


# ---------------------------------------------------------------------------------------------
# JSON


def position_to_json(p: Position, edition: HexenEdition) -> dict[str, Any]:
    """The position as a JSON-ready dict with the documented keys."""
    order = {c: i for i, c in enumerate(edition.clan_ids)}
    return {
        "game": "hexen-rennen",
        "format": FORMAT_VERSION,
        "edition": p.edition,
        "players": list(p.players),
        "to_move": p.to_move,
        "track": [{"clan": t.clan, "value": card_json(t.value), "face_up": t.face_up} for t in p.track],
        "witches": {c: list(ps) for c, ps in sorted(p.witches, key=lambda x: order.get(x[0], 99))},
        "hands": {c: [card_json(v) for v in h] for c, h in sorted(p.hands, key=lambda x: order.get(x[0], 99))},
    }


class _Reader(JsonReader):
    """Typed JSON access for this notation (errors located by :class:`JsonReader`)."""

    def int_(self, v: Any, path: tuple[Any, ...]) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.err(path, "a whole number", v)
        return v

    def card(self, v: Any, path: tuple[Any, ...], edition: HexenEdition) -> int:
        if isinstance(v, str) and v.lower() == "symbol":
            return SYMBOL
        if isinstance(v, int) and not isinstance(v, bool) and v in edition.numbers:
            return v
        raise self.err(path, f"a number {edition.numbers[0]}..{edition.numbers[-1]} or \"symbol\"", v)

    def clan(self, v: Any, path: tuple[Any, ...], edition: HexenEdition) -> str:
        if not isinstance(v, str) or v not in edition.clan_ids:
            raise self.err(path, "a clan: " + ", ".join(f'"{c}"' for c in edition.clan_ids), v)
        return v


def _short(v: Any) -> str:
    s = json.dumps(v) if not isinstance(v, str) else v
    return s if len(s) <= 40 else s[:37] + "..."


def position_from_json_data(data: Any, positions: dict[Any, tuple[int, int]], source: str,
                            edition: HexenEdition) -> Position:
    """Build a position from parsed JSON; a missing key takes the value of ``new --seed 0``."""
    from gnomekit.models.hexen_rennen.setup import new_position

    rd = _Reader(positions, source)
    if not isinstance(data, dict):
        raise rd.err((), "an object with the position keys (" + ", ".join(POSITION_KEYS) + ")", data)
    if data.get("game", "hexen-rennen") != "hexen-rennen":
        raise rd.err(("game",), '"hexen-rennen" (this is a Hexen Rennen command)', data.get("game"))
    problem = format_problem(data["format"], in_json=True) if "format" in data else None
    if problem:
        raise rd.err(("format",), problem, data["format"])
    unknown = sorted(set(data) - set(POSITION_KEYS) - set(INFO_KEYS))
    if unknown:
        raise rd.err((unknown[0],), "one of the position keys: " + ", ".join(POSITION_KEYS), unknown[0])
    players: tuple[str, ...]
    if "players" in data:
        if not isinstance(data["players"], list) or not data["players"]:
            raise rd.err(("players",), "a non-empty list of clans in turn order", data["players"])
        players = tuple(rd.clan(c, ("players", i), edition) for i, c in enumerate(data["players"]))
        if len(set(players)) != len(players):
            raise rd.err(("players",), "each clan at most once", data["players"])
    else:
        players = edition.clan_ids
    base = new_position(edition, players=players, seed=0)
    to_move = rd.clan(data["to_move"], ("to_move",), edition) if "to_move" in data else players[0]
    if to_move not in players:
        raise rd.err(("to_move",), "one of the players: " + ", ".join(players), to_move)
    track = base.track
    if "track" in data:
        raw = data["track"]
        if not isinstance(raw, list) or len(raw) != edition.track_length:
            n = len(raw) if isinstance(raw, list) else None
            raise rd.err(("track",), f"a list of {edition.track_length} tiles (tile 1 first)"
                         + (f", got {n}" if n is not None else ""), None if n is not None else raw)
        tiles = []
        for i, t in enumerate(raw):
            p = ("track", i)
            if not isinstance(t, dict) or "clan" not in t or "value" not in t:
                raise rd.err(p, 'a tile {"clan", "value", "face_up"}', t)
            extra = sorted(set(t) - {"clan", "value", "face_up"})
            if extra:
                raise rd.err(p + (extra[0],), 'only the keys "clan", "value", "face_up"', extra[0])
            up = t.get("face_up", False)
            if not isinstance(up, bool):
                raise rd.err(p + ("face_up",), "true or false", up)
            tiles.append(Tile(rd.clan(t["clan"], p + ("clan",), edition), rd.card(t["value"], p + ("value",), edition),
                              up))
        track = tuple(tiles)
    witches = base.witches
    if "witches" in data:
        raw = data["witches"]
        if not isinstance(raw, dict):
            raise rd.err(("witches",), "an object {clan: [fields]}", raw)
        ws = []
        for c, ps in raw.items():
            rd.clan(c, ("witches", c), edition)
            if not isinstance(ps, list):
                raise rd.err(("witches", c), "a list of fields (0 start, 1-48 track, 49-51 finish)", ps)
            vals = []
            for i, x in enumerate(ps):
                v = rd.int_(x, ("witches", c, i))
                if not 0 <= v <= edition.last_field:
                    raise rd.err(("witches", c, i), f"a field 0..{edition.last_field}", v)
                vals.append(v)
            ws.append((c, tuple(vals)))
        witches = tuple(ws)
    hands = base.hands
    if "hands" in data:
        raw = data["hands"]
        if not isinstance(raw, dict):
            raise rd.err(("hands",), "an object {clan: [cards]}", raw)
        hs = []
        for c, cards in raw.items():
            rd.clan(c, ("hands", c), edition)
            if not isinstance(cards, list):
                raise rd.err(("hands", c), "a list of cards (numbers or \"symbol\")", cards)
            hs.append((c, tuple(rd.card(x, ("hands", c, i), edition) for i, x in enumerate(cards))))
        hands = tuple(hs)
    ed_name = data.get("edition", base.edition)
    if not isinstance(ed_name, str):
        raise rd.err(("edition",), "an edition name", ed_name)
    pos = Position(track=track, players=players, to_move=to_move, witches=witches, hands=hands, edition=ed_name)
    probs = pos.problems(edition)
    if probs:
        path, _ = probs[0]
        e = rd.err(path, "a well-formed position")
        e.message = "the position is not well formed: " + "; ".join(m for _, m in probs)
        raise e
    return pos


# ---------------------------------------------------------------------------------------------
# Text


def tile_token(t: Tile, edition: HexenEdition) -> str:
    letter = edition.letter(t.clan)
    return (letter if t.face_up else letter.lower()) + card_name(t.value)


def position_to_text(p: Position, edition: HexenEdition) -> str:
    """The position in the documented text notation (parse it back with position_from_text)."""
    lines = [HEADER, FORMAT_LINE, f"edition: {p.edition}", "players: " + " ".join(p.players), f"to-move: {p.to_move}"]
    order = {c: i for i, c in enumerate(edition.clan_ids)}
    wl = [f"{c}=" + ",".join(map(str, ps)) for c, ps in sorted(p.witches, key=lambda x: order[x[0]])]
    lines.append("witches: " + (" ".join(wl) if wl else "-"))
    for c in edition.clan_ids:
        h = p.hand(c)
        word = "hand" if c in p.players else "deck"
        if c in p.players or h:
            lines.append(f"{word} {c}: " + (" ".join(card_name(v) for v in h) if h else "-"))
    n = edition.stage_length
    for s in range(edition.stages):
        toks = [tile_token(t, edition) for t in p.track[s * n:(s + 1) * n]]
        lines.append(f"stage {s + 1}: " + " ".join(toks))
    return "\n".join(lines) + "\n"


_LINE = re.compile(r"^\s*(format|edition|players|to-move|witches|hand|deck|stage)(?:\s+([a-z0-9_-]+))?\s*:\s*(.*?)\s*$")


def position_from_text(text: str, source: str, edition: HexenEdition) -> Position:
    """Parse the text notation; errors give the line and column and what was expected."""
    lines = text.splitlines()

    def err(msg: str, line: int, col: int, found: str | None = None) -> NotationError:
        return NotationError(msg, source=source, line=line, column=col, text=found)

    i = header_index(lines, HEADER, source)
    meta: dict[str, tuple[str, int, int]] = {}
    hands: dict[str, tuple[tuple[int, ...], int, str]] = {}
    stages: dict[int, tuple[str, int, int]] = {}
    for ln in range(i + 1, len(lines)):
        raw = lines[ln].split("#", 1)[0]
        if not raw.strip():
            continue
        m = _LINE.match(raw)
        if not m:
            raise err("expected 'KEY: ...' with KEY one of format, edition, players, to-move, witches, hand CLAN, "
                      "deck CLAN, stage N", ln + 1, len(raw) - len(raw.lstrip()) + 1, raw.strip())
        key, arg, val = m.group(1), m.group(2), m.group(3)
        vcol = m.start(3) + 1
        if key in ("hand", "deck"):
            if arg is None or arg not in edition.clan_ids:
                raise err(f"expected '{key} CLAN:' with a clan of " + ", ".join(edition.clan_ids), ln + 1,
                          m.start(1) + 1, arg)
            if arg in hands:
                raise err(f"the cards of {arg} are given twice", ln + 1, m.start(1) + 1, arg)
            cards = []
            if val != "-":
                for t in re.finditer(r"\S+", val):
                    cards.append(_card_token(t.group(0), edition, err, ln + 1, vcol + t.start()))
            hands[arg] = (tuple(cards), ln + 1, key)
        elif key == "stage":
            if arg is None or not 1 <= (small_int(arg) or 0) <= edition.stages:
                raise err(f"expected 'stage N:' with N from 1 to {edition.stages}", ln + 1, m.start(1) + 1, arg)
            if (small_int(arg) or 0) in stages:
                raise err(f"stage {arg} is given twice", ln + 1, m.start(1) + 1)
            stages[small_int(arg) or 0] = (val, ln + 1, vcol)
        else:
            if arg is not None:
                raise err(f"'{key}' takes no argument", ln + 1, m.start(2) + 1, arg)
            if key in meta:
                raise err(f"'{key}' is given twice", ln + 1, m.start(1) + 1, key)
            meta[key] = (val, ln + 1, vcol)

    def need(key: str) -> tuple[str, int, int]:
        if key not in meta:
            raise err(f"missing line '{key}: ...'", len(lines) or 1, 1)
        return meta[key]

    if "format" in meta:
        fv, fl, fc = meta["format"]
        problem = format_problem(fv)
        if problem:
            raise err(f"expected {problem}", fl, fc, fv)
    pv, pl, pc = need("players")
    players = []
    for t in re.finditer(r"\S+", pv):
        if t.group(0) not in edition.clan_ids:
            raise err("expected clans: " + ", ".join(edition.clan_ids), pl, pc + t.start(), t.group(0))
        if t.group(0) in players:
            raise err("a clan plays twice", pl, pc + t.start(), t.group(0))
        players.append(t.group(0))
    if not players:
        raise err("expected at least one clan", pl, pc)
    tv, tl, tc = meta.get("to-move", (players[0], 0, 0))
    if tv not in players:
        raise err("expected one of the players: " + " ".join(players), tl, tc, tv)
    witches: list[tuple[str, tuple[int, ...]]] = []
    if "witches" in meta:
        wv, wl, wc = meta["witches"]
        if wv != "-":
            for t in re.finditer(r"\S+", wv):
                mm = re.fullmatch(r"([a-z0-9_-]+)=((?:\d{1,18}|start)(?:,(?:\d{1,18}|start))*)?", t.group(0))
                if not mm or mm.group(1) not in edition.clan_ids:
                    raise err("expected CLAN=F,F,... (fields 0 start .. " f"{edition.last_field})", wl, wc + t.start(),
                              t.group(0))
                fs = tuple(_field(x, edition) for x in (mm.group(2) or "").split(",") if x)
                for f in fs:
                    if f > edition.last_field:
                        raise err(f"expected fields 0..{edition.last_field}", wl, wc + t.start(), t.group(0))
                witches.append((mm.group(1), fs))
    n = edition.stage_length
    track: list[Tile] = []
    for s in range(1, edition.stages + 1):
        if s not in stages:
            raise err(f"missing line 'stage {s}: ...' ({n} tiles)", len(lines) or 1, 1)
        sv, sl, sc = stages[s]
        toks = list(re.finditer(r"\S+", sv))
        if len(toks) != n:
            raise err(f"expected {n} tiles in stage {s}, found {len(toks)}", sl, sc + (toks[-1].end() if toks else 0))
        for t in toks:
            tok = t.group(0)
            clan = edition.clan_by_letter(tok[0]) if tok[:1].isalpha() else None
            if clan is None:
                raise err("expected a tile: clan letter (" + " ".join(c.letter for c in edition.clans)
                          + "; lower case = face down) then a number or S", sl, sc + t.start(), tok)
            value = _card_token(tok[1:], edition, err, sl, sc + t.start() + 1)
            track.append(Tile(clan, value, tok[0].isupper()))
    pos = Position(track=tuple(track), players=tuple(players), to_move=tv,
                   witches=tuple(witches), hands=tuple((c, h) for c, (h, _, _) in hands.items()),
                   edition=meta.get("edition", (edition.name, 0, 0))[0])
    probs = pos.problems(edition)
    if probs:
        path, _ = probs[0]
        line = 1
        if path and path[0] == "witches" and "witches" in meta:
            line = meta["witches"][1]
        elif path and path[0] == "hands" and len(path) > 1 and path[1] in hands:
            line = hands[str(path[1])][1]
        elif path and path[0] == "track" and len(path) > 1 and isinstance(path[1], int):
            line = stages[path[1] // n + 1][1]
        raise err("the position is not well formed: " + "; ".join(m for _, m in probs), line, 1)
    return pos


def _field(tok: str, edition: HexenEdition) -> int:
    """A witch's field token (``start`` or digits); one past the last field when out of range."""
    n = 0 if tok == "start" else small_int(tok)
    return edition.last_field + 1 if n is None else n


def _card_token(tok: str, edition: HexenEdition, err: Any, line: int, col: int) -> int:
    if tok.upper() == "S":
        return SYMBOL
    n = small_int(tok)
    if n is not None and n in edition.numbers:
        return n
    raise err(f"expected a card: a number {edition.numbers[0]}..{edition.numbers[-1]} or S", line, col, tok)


def read_position(text: str, source: str, edition: HexenEdition) -> Position:
    """Read a position in either notation (JSON when the first character is '{')."""
    if text.lstrip().startswith("{"):
        data, positions = loads_with_positions(text, source)
        return position_from_json_data(data, positions, source, edition)
    return position_from_text(text, source, edition)


# ---------------------------------------------------------------------------------------------
# Turns


def turn_to_text(plan: TurnPlan) -> str:
    """``12 fog:7 ice:5`` (the witch's field, then each decision with its clan)."""
    if plan.witch is None:
        return "pass"
    parts = ["start" if plan.witch == 0 else str(plan.witch)]
    parts += [(f"{d.clan}:" if d.clan else "") + choice_name(d.code) for d in plan.decisions]
    return " ".join(parts)


def turn_to_json(plan: TurnPlan) -> dict[str, Any]:
    return {"witch": plan.witch,
            "decisions": [{"clan": d.clan, "play": "stop" if d.code == STOP else card_json(d.code)}
                          for d in plan.decisions]}


def parse_turn(s: str, edition: HexenEdition, source: str = "<turn>") -> TurnPlan:
    """Parse a turn in text (``12 fog:7 ice:S``) or JSON (``{"witch": 12, "decisions": [...]}``)."""
    if s.lstrip().startswith("{"):
        data, positions = loads_with_positions(s, source)
        rd = _Reader(positions, source)
        if not isinstance(data, dict) or "witch" not in data:
            raise rd.err((), 'an object {"witch": FIELD or null, "decisions": [...]}', data)
        w = data["witch"]
        if w is not None:
            w = rd.int_(w, ("witch",))
        decs = []
        raw = data.get("decisions", [])
        if not isinstance(raw, list):
            raise rd.err(("decisions",), "a list of {\"clan\", \"play\"}", raw)
        for i, d in enumerate(raw):
            if not isinstance(d, dict) or "play" not in d:
                raise rd.err(("decisions", i), '{"clan": CLAN or null, "play": "stop", "symbol" or N}', d)
            clan = d.get("clan")
            if clan is not None:
                clan = rd.clan(clan, ("decisions", i, "clan"), edition)
            play = d["play"]
            code = STOP if play == "stop" else rd.card(play, ("decisions", i, "play"), edition)
            decs.append(Decision(clan, code, 0))
        return TurnPlan(w, tuple(decs))
    toks = list(re.finditer(r"[^\s,]+", s))
    if not toks:
        raise NotationError("expected a turn: WITCH-FIELD [CLAN:]DECISION ... (e.g. '12 fog:7 ice:S') or 'pass'",
                            source=source, line=1, column=1, text=s)
    first = toks[0].group(0).lower()
    if first == "pass":
        witch = None
    elif first == "start":
        witch = 0
    elif (n := small_int(first)) is not None and n <= edition.last_field:
        witch = n
    else:
        raise NotationError(f"expected the witch's field before the roll (0/start .. {edition.last_field}) or 'pass'",
                            source=source, line=1, column=toks[0].start() + 1, text=toks[0].group(0))
    decs = []
    for t in toks[1:]:
        tok = t.group(0)
        clan = None
        body = tok
        if ":" in tok:
            clan, body = tok.split(":", 1)
            if clan not in edition.clan_ids:
                raise NotationError("expected CLAN:DECISION with a clan of " + ", ".join(edition.clan_ids),
                                    source=source, line=1, column=t.start() + 1, text=tok)
        b = body.lower()
        if b == "stop":
            code = STOP
        elif b in ("s", "symbol"):
            code = SYMBOL
        elif (n := small_int(b)) is not None and n in edition.numbers:
            code = n
        else:
            raise NotationError("expected a decision: stop, S (symbol card) or a number card "
                                f"{edition.numbers[0]}..{edition.numbers[-1]}", source=source, line=1,
                                column=t.start() + 1 + (len(tok) - len(body)), text=body)
        decs.append(Decision(clan, code, t.start() + 1))
    return TurnPlan(witch, tuple(decs))
