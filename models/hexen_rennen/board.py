"""The Hexen Rennen board drawing (what ``show`` prints and ``repr`` shows), both ways.

The drawing is the track by stage (field number, tile token, ``@x`` for a witch of clan x),
the start and the finish board, the players, hands and decks, and the scores.  It holds the
whole position except the edition's name, so :func:`board_from_text` reads it back (the
edition is the reader's): what ``show`` prints can be given to ``read`` again.
"""

from __future__ import annotations

import re

from gnomekit.models.core.errors import NotationError
from gnomekit.models.hexen_rennen.edition import CAPS, SYMBOL, HexenEdition, small_int
from gnomekit.models.hexen_rennen.position import Position, Tile, card_name


def draw_track(p: Position, ed: HexenEdition, mark: dict[int, str] | None = None) -> str:
    """The track as rows of one stage: field number, tile token, witch letters (lower case)."""
    from gnomekit.models.hexen_rennen.notation import tile_token

    mark = mark or {}
    occ = {f: c for c, ps in p.witches for f in ps}
    lines = []
    n = ed.stage_length
    for s in range(ed.stages):
        cells = []
        for f in range(s * n + 1, (s + 1) * n + 1):
            tok = tile_token(p.track[f - 1], ed)
            who = ed.letter(occ[f]).lower() if f in occ else ""
            cells.append(f"{f:>2}:{tok}{'@' + who if who else ''}{mark.get(f, '')}")
        lines.append(f"stage {s + 1}  " + " ".join(c.ljust(9) for c in cells).rstrip())
    start = [f"{ed.letter(c).lower()}x{ps.count(0)}" for c, ps in p.witches if 0 in ps]
    fin = []
    for f in range(ed.track_length + 1, ed.last_field + 1):
        here = [ed.letter(c).lower() for c, ps in p.witches for x in ps if x == f]
        fin.append(f"{f} ({ed.points(f)} pt): {''.join(here) or '-'}")
    lines.append("start: " + (" ".join(start) or "-") + "    finish: " + "   ".join(fin))
    return "\n".join(lines)


def board_text(p: Position, ed: HexenEdition) -> str:
    """The whole drawing ``show`` prints: track, players, hands and decks, scores, legend, warnings."""
    neutral = list(p.neutral(ed))
    warnings = p.warnings(ed)
    text = draw_track(p, ed)
    text += "\nplayers: " + " ".join(p.players) + f"   to move: {p.to_move}"
    if neutral:
        text += "   neutral: " + " ".join(neutral)
    for c in ed.clan_ids:
        h = p.hand(c)
        if c in p.players:
            text += f"\n  hand {c}: " + (" ".join(card_name(v) for v in h) or "-")
        elif h:
            text += f"\n  deck {c} (top first): " + " ".join(card_name(v) for v in h)
    text += "\nscores: " + " ".join(f"{c} {p.score(c, ed)}" for c in p.players)
    text += "\n(tile: clan letter + value, S symbol, lower case = face down; @x = a witch of clan x)"
    if warnings:
        text += "\nwarnings (no legal play reaches this):\n" + "\n".join(f"  - {w}" for w in warnings)
    return text


_STAGE = re.compile(r"^stage\s+(\d+)\s{2,}(\d+:.*)$")
_CELL = re.compile(r"(\d+):([A-Za-z])(S|\d+)(?:@([a-z]))?")
_PLAYERS = re.compile(r"^players:\s*(.*?)\s+to move:\s*(\S+)(?:\s+neutral:.*)?$")
_CARDS = re.compile(r"^(hand|deck)\s+([a-z0-9_-]+)(?:\s+\(top first\))?:\s*(.*)$")
_FINISH = re.compile(r"(\d+) \(\d+ pt\): (\S+)")


def is_board(text: str) -> bool:
    """True when ``text`` is a board drawing (its track rows read ``stage N  F:TILE ...``)."""
    return any(_STAGE.match(ln.strip()) for ln in text.splitlines())


def board_from_text(text: str, source: str, ed: HexenEdition) -> Position:
    """Read a board drawing back into the position it shows (errors give line and column)."""

    def err(msg: str, line: int, col: int = 1, found: str | None = None) -> NotationError:
        return NotationError(msg, source=source, line=line, column=col, text=found)

    track: dict[int, Tile] = {}
    witches: dict[str, list[int]] = {}
    hands: dict[str, tuple[int, ...]] = {}
    players: tuple[str, ...] | None = None
    to_move = ""
    last = 0

    def clan_of(letter: str, line: int, col: int) -> str:
        c = ed.clan_by_letter(letter)
        if c is None:
            raise err("expected a clan letter: " + " ".join(x.letter for x in ed.clans), line, col, letter)
        return c

    def card(tok: str, line: int, col: int) -> int:
        if tok.upper() == "S":
            return SYMBOL
        n = small_int(tok)
        if n is not None and n in ed.numbers:
            return n
        raise err(f"expected a card: a number {ed.numbers[0]}..{ed.numbers[-1]} or S", line, col, tok)

    for ln, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0]
        s = body.strip()
        if not s:
            continue
        last = ln
        indent = len(body) - len(body.lstrip())
        m = _STAGE.match(s)
        if m:
            off = indent + m.start(2)
            for c in _CELL.finditer(m.group(2)):
                f = small_int(c.group(1)) or 0
                if not 1 <= f <= ed.track_length or f in track:
                    raise err(f"expected each track field 1..{ed.track_length} once", ln, off + c.start() + 1,
                              c.group(0))
                clan = clan_of(c.group(2), ln, off + c.start(2) + 1)
                track[f] = Tile(clan, card(c.group(3), ln, off + c.start(3) + 1), c.group(2).isupper())
                if c.group(4):
                    witches.setdefault(clan_of(c.group(4), ln, off + c.start(4) + 1), []).append(f)
            continue
        if s.startswith("start:"):
            head, _, fin = s.partition("finish:")
            for t in re.finditer(r"([a-z])x(\d+)", head):
                if (small_int(t.group(2)) or 0) > CAPS["witches"] or small_int(t.group(2)) is None:
                    raise err(f"expected at most {CAPS['witches']} witches of a clan at the start", ln,
                              indent + t.start() + 1, t.group(0))
                witches.setdefault(clan_of(t.group(1), ln, indent + t.start() + 1), []).extend(
                    [0] * int(t.group(2)))
            for t in _FINISH.finditer(fin):
                f = small_int(t.group(1)) or ed.last_field + 1
                if t.group(2) != "-":
                    for letter in t.group(2):
                        witches.setdefault(clan_of(letter, ln, 1), []).append(f)
            continue
        m = _PLAYERS.match(s)
        if m:
            players = tuple(m.group(1).split())
            to_move = m.group(2)
            for i, clan in enumerate(players):
                if clan not in ed.clan_ids:
                    raise err("expected clans: " + ", ".join(ed.clan_ids), ln, indent + 10, clan)
                if clan in players[:i]:
                    raise err("a clan plays twice", ln, indent + 10, clan)
            if to_move not in players:
                raise err("expected one of the players: " + " ".join(players), ln, indent + m.start(2) + 1, to_move)
            continue
        m = _CARDS.match(s)
        if m:
            clan = m.group(2)
            if clan not in ed.clan_ids:
                raise err("expected a clan of " + ", ".join(ed.clan_ids), ln, indent + m.start(2) + 1, clan)
            vals = m.group(3)
            hands[clan] = () if vals.strip() == "-" else tuple(
                card(t.group(0), ln, indent + m.start(3) + t.start() + 1) for t in re.finditer(r"\S+", vals))
            continue
        # scores, the legend and warnings are derived from the rest: nothing to read
    missing = [f for f in range(1, ed.track_length + 1) if f not in track]
    if missing:
        raise err(f"the drawing shows {len(track)} of the {ed.track_length} track fields (first missing: "
                  f"{missing[0]})", last or 1)
    if players is None:
        raise err("missing the line 'players: ... to move: ...'", last or 1)
    pos = Position(track=tuple(track[f] for f in range(1, ed.track_length + 1)), players=players, to_move=to_move,
                   witches=tuple((c, tuple(ps)) for c, ps in witches.items()), hands=tuple(hands.items()),
                   edition=ed.name)
    probs = pos.problems(ed)
    if probs:
        raise err("the position is not well formed: " + "; ".join(m for _, m in probs), 1)
    return pos
