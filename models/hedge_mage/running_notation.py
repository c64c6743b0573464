"""Text and JSON notation for the running position, and the action notation.

Running position, text (docs/formats-hedge-mage-running.md)::

    hedge-mage run
    edition: default
    size: 10x10
    round: 3
    enchantments: planter-enchanter morel-evate pump-kin
    points: 3
    spent: 0
    tokens: 4
    springshroom-tokens: 1
    sigil-tokens: 0
    rescued: mushroom=1
    used: 0 0
    moved: -
    hedges: a=I3 b=L4

       0   1   2  ...
    0  .   .   f  ...

Cells as in the garden notation, except that mages are the digits ``1`` and
``2`` (mage 1, mage 2); a gnome letter in the same cell as a mage digit is the
gnome that mage carries.  ``moved: P@3,4=2`` says the pumpkin gnome now on 3,4
moved itself this round using 2 points (one per kind at most).

Actions (one token each, see the docs)::

    M1>3,5>3,6      mage 1 steps along a path        p4,3>4,4   the gnome on 4,3 steps
    M1+3,4          mage 1 picks up the gnome there   M1-3,5     mage 1 drops its gnome there
    T               spend a movement token            ^3,4       place a springshroom
    ...~2,6~1,6     springshroom bounce landings (after a step, a drop or a placement)
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.grid import Cell
from gnomekit.models.core.jsonpos import loads_with_positions
from gnomekit.models.core.text import FORMAT_LINE, FORMAT_VERSION, is_count
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.notation import _hedge_letter, _JsonReader, garden_from_json_data, garden_from_text
from gnomekit.models.hedge_mage.running import Action, RGnome, RunPosition, board_of, cname

#: The largest count a running position may hold (points, tokens, springshrooms, points used, rescued
#: gnomes): far above any round's, and small enough for the solvers' fixed-width arithmetic.
MAX_COUNT = 999

HEADER = "hedge-mage run"
RUN_KEYS = ("enchantments", "points", "spent", "tokens", "springshroom-tokens", "sigil-tokens", "rescued", "used",
            "moved", "moved-rescued")


def is_run_text(text: str) -> bool:
    """Whether a position file holds a running position (text header or JSON ``"phase": "run"``)."""
    s = text.lstrip()
    if s.startswith("{"):
        try:
            d = json.loads(s)
        except (ValueError, RecursionError):  # not JSON, or nested too deeply: the reader says which
            return False
        return isinstance(d, dict) and d.get("phase") == "run"
    for line in text.splitlines():
        t = line.split("#", 1)[0].strip()
        if t:
            return t == HEADER
    return False


# ---------------------------------------------------------------------------------------------
# Text


def _token(pos: RunPosition, ed: HedgeMageEdition, cell: Cell) -> str:
    b = pos.board
    if cell in b.hedge_at:
        i = b.hedge_at[cell]
        letter = _hedge_letter(i)
        out = letter.upper() if b.hedges[i].sigil == cell else letter
    elif cell in b.tunnels:
        out = "+"
    else:
        out = "."
    if cell in b.bonus_sigils:
        out += "*"
    if cell in pos.springshrooms:
        out += "^"
    for i, m in enumerate(pos.mages):
        if m == cell:
            out += str(i + 1)
    for g in pos.gnomes:
        if g.at == cell:
            letter = ed.gnome_kinds[g.kind]
            out += letter.upper() if g.awake else letter
    return out


def run_to_text(pos: RunPosition, ed: HedgeMageEdition) -> str:
    """The running position in the text notation (settled positions only)."""
    if pos.transit is not None:
        raise NotationError("a position with a character passing through another cannot be written")
    if len(pos.mages) > 9:
        raise NotationError("the text notation names at most 9 mages; use the JSON notation")
    b = pos.board
    lines = [HEADER, FORMAT_LINE, f"edition: {b.edition}", f"size: {b.rows}x{b.cols}", f"round: {pos.round}",
             "enchantments: " + (" ".join(pos.enchantments) or "-"),
             f"points: {pos.points}", f"spent: {pos.spent}", f"tokens: {pos.tokens}",
             f"springshroom-tokens: {pos.springshroom_tokens}", f"sigil-tokens: {pos.sigil_tokens}",
             "rescued: " + (" ".join(f"{k}={n}" for k, n in pos.rescued) or "-"),
             "used: " + (" ".join(str(u) for u in pos.mage_used) or "-"),
             "moved: " + (" ".join(f"{ed.gnome_kinds[g.kind].upper()}@{cname(g.at)}={g.moved}"
                                   for g in pos.gnomes if g.moved is not None) or "-"),
             *([f"moved-rescued: {' '.join(pos.rescued_movers)}"] if pos.rescued_movers else []),
             "hedges: " + (" ".join(f"{_hedge_letter(i)}={h.tile}" for i, h in enumerate(b.hedges)) or "-"),
             ""]
    tokens = [[_token(pos, ed, (r, c)) for c in range(b.cols)] for r in range(b.rows)]
    width = max(3, max(len(t) for row in tokens for t in row) + 1)
    rw = len(str(b.rows - 1)) + 2
    lines.append(" " * rw + "".join(str(c).ljust(width) for c in range(b.cols)).rstrip())
    for r, row in enumerate(tokens):
        lines.append(str(r).rjust(rw - 2) + "  " + "".join(t.ljust(width) for t in row).rstrip())
    return "\n".join(lines) + "\n"


def _err(msg: str, source: str, line: int, col: int, text: str | None = None) -> NotationError:
    return NotationError(msg, source=source, line=line, column=col, text=text)


_CELL = r"(\d{1,18}),(\d{1,18})"


def run_from_text(text: str, source: str, ed: HedgeMageEdition) -> RunPosition:
    """Parse the text notation of a running position (errors located by line and column)."""
    lines = text.split("\n")
    meta: dict[str, tuple[str, int, int]] = {}
    out_lines: list[str] = []
    header_seen = False
    grid_started = False
    past_keys = False
    mage_marks: list[tuple[int, Cell, int, int]] = []  # (number, cell, line, col)
    row_index = -1
    for ln, raw in enumerate(lines, start=1):
        s = raw.split("#", 1)[0].rstrip("\r")
        if not header_seen:
            if s.strip() == "":
                out_lines.append(raw)
                continue
            if s.strip() != HEADER:
                raise _err(f"expected the header line '{HEADER}'", source, ln, 1, s.strip())
            header_seen = True
            out_lines.append("hedge-mage garden")
            continue
        m = re.match(r"^\s*([a-z-]+)\s*:\s*(.*)$", s)
        if m and not past_keys:
            key = m.group(1)
            if key in RUN_KEYS:
                if key in meta:
                    raise _err(f"key '{key}' given twice", source, ln, s.index(key) + 1, key)
                val = m.group(2).strip()
                meta[key] = (val, ln, (s.index(val) + 1) if val else len(s) + 1)
                out_lines.append("")
                continue
            out_lines.append(raw)
            continue
        if s.strip() and not past_keys:
            past_keys = True  # the column-number line
            out_lines.append(raw)
            continue
        if past_keys and s.strip():
            grid_started = True
            row_index += 1
            toks = list(re.finditer(r"\S+", s))
            new = list(raw)
            for t in toks[1:]:
                for k, ch in enumerate(t.group(0)):
                    if is_count(ch) and k > 0:
                        mage_marks.append((int(ch), (row_index, toks.index(t) - 1), ln, t.start() + k + 1))
                        new[t.start() + k] = "W"
            out_lines.append("".join(new))
            continue
        out_lines.append(raw)
    if not header_seen:
        raise _err(f"expected the header line '{HEADER}'", source, 1, 1, "end of input")
    del grid_started
    g = garden_from_text("\n".join(out_lines), source, ed)

    def ival(key: str, default: int) -> int:
        if key not in meta:
            return default
        v, li, co = meta[key]
        if not re.fullmatch(r"\d{1,18}", v) or int(v) > MAX_COUNT:
            raise _err(f"expected a whole number 0..{MAX_COUNT} for '{key}'", source, li, co, v)
        return int(v)

    if "points" not in meta:
        raise _err("missing line 'points: N' (the round's movement points)", source, 2, 1)
    enchs: tuple[str, ...] = ed.first_game
    if "enchantments" in meta:
        v, li, co = meta["enchantments"]
        enchs = () if v == "-" else tuple(v.split())
        ids = {e.id for e in ed.enchantments}
        for e in enchs:
            if e not in ids:
                raise _err("expected enchantment ids of the edition: " + " ".join(sorted(ids)), source, li,
                           co + v.index(e), e)
    rescued: list[tuple[str, int]] = []
    if "rescued" in meta and meta["rescued"][0] != "-":
        v, li, co = meta["rescued"]
        for part in v.split():
            m2 = re.fullmatch(r"([a-z]+)=(\d{1,18})", part)
            if not m2 or m2.group(1) not in ed.gnome_kinds or int(m2.group(2)) > MAX_COUNT:
                raise _err("expected KIND=N entries (kinds: " + " ".join(ed.gnome_kinds) + ")", source, li,
                           co + v.index(part), part)
            rescued.append((m2.group(1), int(m2.group(2))))
    nm = len(g.mages)
    marks = sorted(mage_marks)
    numbers = [n for n, *_ in marks]
    if numbers != list(range(1, nm + 1)):
        li, co = (marks[0][2], marks[0][3]) if marks else (2, 1)
        raise _err(f"expected the mages numbered 1..{nm}, once each, found {numbers}", source, li, co)
    mages = tuple(cell for _, cell, _, _ in marks)
    used: tuple[int, ...] = (0,) * nm
    if "used" in meta and meta["used"][0] != "-":
        v, li, co = meta["used"]
        parts = v.split()
        if len(parts) != nm or not all(is_count(p) and int(p) <= MAX_COUNT for p in parts):
            raise _err(f"expected {nm} whole numbers 0..{MAX_COUNT} (points used by each mage)", source, li, co, v)
        used = tuple(int(p) for p in parts)
    gnomes = []
    for x in g.gnomes:
        carrier = mages.index(x.at) if x.at in mages else None
        gnomes.append(RGnome(x.at, x.kind, x.awake, carrier))
    if "moved" in meta and meta["moved"][0] != "-":
        v, li, co = meta["moved"]
        for part in v.split():
            m3 = re.fullmatch(r"([A-Za-z])@" + _CELL + r"=(\d{1,18})", part)
            kind = ed.kind_of_letter(m3.group(1)) if m3 else None
            if not m3 or kind is None or int(m3.group(4)) > MAX_COUNT:
                raise _err(f"expected LETTER@ROW,COL=POINTS entries like P@3,4=2 (POINTS 0..{MAX_COUNT})", source, li,
                           co + v.index(part),
                           part)
            cell = (int(m3.group(2)), int(m3.group(3)))
            idx = [i for i, x in enumerate(gnomes) if x.kind == kind and x.at == cell]
            if not idx:
                raise _err(f"no {kind} gnome on {cname(cell)}", source, li, co + v.index(part), part)
            gnomes[idx[0]] = replace(gnomes[idx[0]], moved=int(m3.group(4)))
    movers: tuple[str, ...] = ()
    if "moved-rescued" in meta and meta["moved-rescued"][0] != "-":
        mv, mli, mco = meta["moved-rescued"]
        movers = tuple(mv.split())
        for kind_name in movers:
            if kind_name not in ed.gnome_kinds:
                raise _err("expected gnome kinds (" + " ".join(ed.gnome_kinds) + ")", source, mli,
                           mco + mv.index(kind_name), kind_name)
    board = board_of(g)
    pos = RunPosition(board=board, enchantments=enchs, rescued_movers=movers, mages=mages, gnomes=tuple(gnomes),
                      points=ival("points", 0),
                      springshrooms=g.springshrooms, spent=ival("spent", 0), tokens=ival("tokens", 0),
                      springshroom_tokens=ival("springshroom-tokens", 0), sigil_tokens=ival("sigil-tokens", 0),
                      mage_used=used, rescued=tuple(rescued), round=g.round)
    probs = pos.problems(ed)
    if probs:
        raise _err("the running position is not well formed: " + "; ".join(probs), source, 1, 1)
    return pos


# ---------------------------------------------------------------------------------------------
# JSON


def run_to_json(pos: RunPosition, ed: HedgeMageEdition) -> dict[str, Any]:
    """The running position as a JSON-ready dict."""
    b = pos.board
    return {
        "game": "hedge-mage",
        "format": FORMAT_VERSION,
        "phase": "run",
        "edition": b.edition,
        "rows": b.rows,
        "cols": b.cols,
        "round": pos.round,
        "enchantments": list(pos.enchantments),
        "points": pos.points,
        "spent": pos.spent,
        "tokens": pos.tokens,
        "springshroom_tokens": pos.springshroom_tokens,
        "sigil_tokens": pos.sigil_tokens,
        "rescued": dict(pos.rescued),
        "moved_rescued": list(pos.rescued_movers),
        "hedges": [h.to_json() for h in b.hedges],
        "bonus_sigils": [list(c) for c in b.bonus_sigils],
        "tunnels": [list(c) for c in b.tunnels],
        "springshrooms": [list(c) for c in pos.springshrooms],
        "mages": [{"at": list(m), "used": u} for m, u in zip(pos.mages, pos.mage_used, strict=True)],
        "gnomes": [g.to_json() for g in pos.gnomes],
    }


RUN_JSON_KEYS = {"game", "format", "phase", "edition", "rows", "cols", "round", "enchantments", "points", "spent",
                 "tokens", "springshroom_tokens", "sigil_tokens", "rescued", "moved_rescued", "hedges", "bonus_sigils",
                 "tunnels", "springshrooms", "mages", "gnomes", "warnings",
                 "woke_at_start"}  # `show --json` adds the wake-ups it settled: reading it back is fine


def run_from_json_data(data: Any, positions: dict[Any, tuple[int, int]], source: str,
                       ed: HedgeMageEdition) -> RunPosition:
    rd = _JsonReader(positions, source)
    d = rd.obj(data, (), "the running position keys")
    if d.get("phase") != "run":
        raise rd.err(("phase",), '"run" (a running position)', d.get("phase"))
    unknown = sorted(set(d) - RUN_JSON_KEYS)
    if unknown:
        raise rd.err((unknown[0],), "one of the keys " + ", ".join(sorted(RUN_JSON_KEYS)), unknown[0])
    garden_part = {k: d[k] for k in ("game", "format", "edition", "rows", "cols", "round", "hedges", "bonus_sigils",
                                     "tunnels", "springshrooms") if k in d}
    g = garden_from_json_data(garden_part, positions, source, ed)
    mages: list[Cell] = []
    used: list[int] = []
    for i, x in enumerate(rd.list_(d.get("mages", []), ("mages",))):
        mo = rd.obj(x, ("mages", i), '"at" and "used"')
        if "at" not in mo:
            raise rd.err(("mages", i), 'key "at" in the mage object')
        mages.append(rd.cell(mo["at"], ("mages", i, "at")))
        used.append(_count(rd, mo.get("used", 0), ("mages", i, "used")))
    gnomes: list[RGnome] = []
    for i, x in enumerate(rd.list_(d.get("gnomes", []), ("gnomes",))):
        p = ("gnomes", i)
        go = rd.obj(x, p, '"kind", "at", "awake"')
        if not isinstance(go.get("kind"), str) or go["kind"] not in ed.gnome_kinds:
            raise rd.err(p + ("kind",), "a gnome kind: " + ", ".join(ed.gnome_kinds), go.get("kind"))
        if "at" not in go:
            raise rd.err(p, 'key "at" in the gnome object')
        at = rd.cell(go["at"], p + ("at",))
        cb = go.get("carried_by")
        if cb is not None:
            cb = rd.int_(cb, p + ("carried_by",), 1)
            if cb > len(mages) or mages[cb - 1] != at:
                raise rd.err(p + ("carried_by",), f"the number of a mage standing on {cname(at)}", cb)
            cb -= 1
        elif at in mages:
            cb = mages.index(at)
        moved = go.get("moved")
        if moved is not None:
            moved = _count(rd, moved, p + ("moved",))
        gnomes.append(RGnome(at, go["kind"], rd.bool_(go.get("awake", False), p + ("awake",)), cb, moved))
    enchs = rd.list_(d.get("enchantments", list(ed.first_game)), ("enchantments",))
    ids = {e.id for e in ed.enchantments}
    for i, e in enumerate(enchs):
        if not isinstance(e, str) or e not in ids:
            raise rd.err(("enchantments", i), "an enchantment id of the edition: " + ", ".join(sorted(ids)), e)
    resc = rd.obj(d.get("rescued", {}), ("rescued",), "kind: count")
    rescued = []
    for k, n in resc.items():
        if k not in ed.gnome_kinds:
            raise rd.err(("rescued", k), "a gnome kind: " + ", ".join(ed.gnome_kinds), k)
        rescued.append((k, _count(rd, n, ("rescued", k))))
    if "points" not in d:
        raise rd.err((), 'key "points" (the round\'s movement points)')
    pos = RunPosition(board=board_of(g), enchantments=tuple(enchs), mages=tuple(mages),
                      gnomes=tuple(gnomes), points=_count(rd, d["points"], ("points",)),
                      springshrooms=g.springshrooms, spent=_count(rd, d.get("spent", 0), ("spent",)),
                      tokens=_count(rd, d.get("tokens", 0), ("tokens",)),
                      springshroom_tokens=_count(rd, d.get("springshroom_tokens", 0), ("springshroom_tokens",)),
                      sigil_tokens=_count(rd, d.get("sigil_tokens", 0), ("sigil_tokens",)),
                      mage_used=tuple(used), rescued=tuple(rescued), round=g.round,
                      rescued_movers=tuple(_kinds(rd, d.get("moved_rescued", []), ed)))
    probs = pos.problems(ed)
    if probs:
        line, col = positions.get((), (1, 1))
        raise NotationError("the running position is not well formed: " + "; ".join(probs), source=source,
                            line=line, column=col)
    return pos


def _count(rd: _JsonReader, v: Any, path: tuple[Any, ...]) -> int:
    """A count of a running position in JSON: a whole number 0..MAX_COUNT."""
    n = rd.int_(v, path, 0)
    if n > MAX_COUNT:
        raise rd.err(path, f"a whole number 0..{MAX_COUNT}", v)
    return n


def _kinds(rd: _JsonReader, v: Any, ed: HedgeMageEdition) -> list[str]:
    lst = rd.list_(v, ("moved_rescued",))
    for i, k in enumerate(lst):
        if not isinstance(k, str) or k not in ed.gnome_kinds:
            raise rd.err(("moved_rescued", i), "a gnome kind: " + ", ".join(ed.gnome_kinds), k)
    return lst


def read_run(text: str, source: str, ed: HedgeMageEdition) -> RunPosition:
    """Read a running position in either notation."""
    if text.lstrip().startswith("{"):
        data, positions = loads_with_positions(text, source)
        return run_from_json_data(data, positions, source, ed)
    return run_from_text(text, source, ed)


# ---------------------------------------------------------------------------------------------
# Actions

_ACTION = re.compile(
    r"^(?:(?P<token>T)"
    r"|\^(?P<shroom>\d{1,18},\d{1,18})(?P<sb>(?:~\d{1,18},\d{1,18})*)"
    r"|M(?P<mage>\d{1,18})(?:(?P<mpath>(?:>\d{1,18},\d{1,18})+)|\+(?P<pick>\d{1,18},\d{1,18})|-(?P<drop>\d{1,18},\d{1,18}))(?P<mb>(?:~\d{1,18},\d{1,18})*)"
    r"|(?P<gk>[A-Za-z])(?P<gat>\d{1,18},\d{1,18})(?P<gpath>(?:>\d{1,18},\d{1,18})+)(?P<gb>(?:~\d{1,18},\d{1,18})*))$")


def _cells(s: str, sep: str) -> tuple[Cell, ...]:
    out = []
    for part in s.split(sep):
        if part:
            r, c = part.split(",")
            out.append((int(r), int(c)))
    return tuple(out)


def parse_action(s: str, ed: HedgeMageEdition, source: str = "<plan>", line: int = 1, column: int = 1) -> Action:
    """Parse one action in the documented notation."""
    m = _ACTION.match(s)
    if not m:
        raise NotationError("expected an action: M1>R,C[>R,C...]  M1+R,C  M1-R,C  gR,C>R,C  T  ^R,C "
                            "(bounces: ~R,C after a step, drop or ^)", source=source, line=line, column=column,
                            text=s)
    if m.group("token"):
        return Action("token")
    if m.group("shroom"):
        return Action("shroom", path=_cells(m.group("shroom"), ">"), bounces=_cells(m.group("sb"), "~"))
    if m.group("mage"):
        who = f"M{int(m.group('mage'))}"
        b = _cells(m.group("mb"), "~")
        if m.group("mpath"):
            return Action("step", who, path=_cells(m.group("mpath"), ">"), bounces=b)
        if m.group("pick"):
            if b:
                raise NotationError("a pick-up has no bounce", source=source, line=line, column=column, text=s)
            return Action("pickup", who, path=_cells(m.group("pick"), ">"))
        return Action("drop", who, path=_cells(m.group("drop"), ">"), bounces=b)
    kind = ed.kind_of_letter(m.group("gk"))
    if kind is None:
        raise NotationError("expected a gnome letter (" + " ".join(ed.gnome_kinds.values()) + ") or M1/M2",
                            source=source, line=line, column=column, text=m.group("gk"))
    at = _cells(m.group("gat"), ">")[0]
    return Action("step", kind, at=at, path=_cells(m.group("gpath"), ">"), bounces=_cells(m.group("gb"), "~"))


def action_to_text(a: Action, ed: HedgeMageEdition) -> str:
    """The action in the documented notation (parse_action reads it back)."""
    b = "".join(f"~{cname(c)}" for c in a.bounces)
    if a.kind == "token":
        return "T"
    if a.kind == "shroom":
        return f"^{cname(a.path[0])}{b}"
    if a.kind == "pickup":
        return f"{a.who}+{cname(a.path[0])}"
    if a.kind == "drop":
        return f"{a.who}-{cname(a.path[0])}{b}"
    path = "".join(f">{cname(c)}" for c in a.path)
    if a.who.startswith("M"):
        return f"{a.who}{path}{b}"
    assert a.at is not None
    return f"{ed.gnome_kinds[a.who]}{cname(a.at)}{path}{b}"


def parse_plan(text: str, ed: HedgeMageEdition, source: str = "<plan>") -> list[Action]:
    """A plan: actions separated by spaces, commas-free separators ';' or newlines; '#' starts a comment.

    A JSON list of action strings is accepted too.
    """
    if text.lstrip().startswith("["):
        data, positions = loads_with_positions(text, source)
        if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
            raise NotationError("expected a JSON list of action strings", source=source, line=1, column=1)
        return [parse_action(x.strip(), ed, source, *positions.get((i,), (1, 1))) for i, x in enumerate(data)]
    out = []
    for ln, raw in enumerate(text.split("\n"), start=1):
        body = raw.split("#", 1)[0]
        for m in re.finditer(r"[^\s;]+", body):
            out.append(parse_action(m.group(0), ed, source, ln, m.start() + 1))
    return out
