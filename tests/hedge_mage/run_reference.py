"""An independent, plain reference for Hedge Mage maze running (QA for issue #6).

Written from the rules text only (rules/hedge-mage.txt, rulings.md, docs/rules/hedge-mage-running.md,
docs/formats-hedge-mage-running.md), without looking at the engine: it reads a running position in the
documented JSON form (``"phase": "run"``), applies plans in the documented action notation, and finds the
optimal plan by exhaustive memoised search over unit actions (no pruning besides the memo). Slow and simple on
purpose; meant for small allowances and small gardens. Readings of the docs that another implementation could
take differently are marked ``READING:``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

Cell = tuple[int, int]
KINDS = ("flower", "mushroom", "pumpkin")
LETTER_KIND = {"f": "flower", "m": "mushroom", "p": "pumpkin"}
EDITION_FILE = Path(__file__).resolve().parents[2] / "models" / "hedge_mage" / "data" / "default.toml"


class Gnome(NamedTuple):
    """A gnome still in the rival's garden; a carried gnome's ``at`` is its mage's space."""

    kind: str
    at: Cell
    awake: bool
    carrier: int | None = None  # 0 or 1 (mage 1 or 2)
    moved: int | None = None  # points used moving itself this round (it is its kind's mover)


class State(NamedTuple):
    """Everything that changes during a running phase (hashable: the memo key)."""

    mages: tuple[Cell, ...]
    used: tuple[int, ...]
    gnomes: tuple[Gnome, ...]
    springshrooms: frozenset[Cell]
    spent: int
    tokens: int
    shroom_tokens: int
    sigil_tokens: int
    rescued: tuple[int, int, int]
    moved_rescued: frozenset[str]
    # the character that shares a space and must act next: ("mage", i, dropped_here) or ("gnome", index, False)
    transit: tuple[str, int, bool] | None = None


@dataclass(frozen=True)
class Rules:
    """The fixed part: the garden's geometry, the round's points, cards and tracks."""

    rows: int
    cols: int
    hedges: frozenset[Cell]
    tunnels: frozenset[Cell]
    points: int
    conditions: dict[str, Any]  # kind -> condition (or None: never wakes)
    tracks: dict[str, list[tuple[int, str]]]
    token_cap: int


class Illegal(Exception):
    """An action that breaks a rule; ``reason`` is the docs' rule id."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"[{reason}] {detail}")
        self.reason = reason


# ---------------------------------------------------------------- loading


def load_edition(path: Path = EDITION_FILE) -> dict[str, Any]:
    """The edition TOML as a dict."""
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def load(pos: dict[str, Any], edition: dict[str, Any] | None = None) -> tuple[Rules, State]:
    """Rules and state from a running position in the documented JSON form."""
    ed = edition or load_edition()
    cards = {c["id"]: c for c in ed["enchantments"]}
    conditions: dict[str, Any] = {k: None for k in KINDS}
    for cid in pos["enchantments"]:
        card = cards[cid]
        conditions[card["kind"]] = card.get("condition", ed.get("conditions", {}).get(cid))
    tracks = {k: [(s["points"], s["bonus"]) for s in ed["rescue"][k]] for k in KINDS}
    hedges = frozenset(tuple(c) for h in pos["hedges"] for c in h["cells"])
    rules = Rules(pos["rows"], pos["cols"], hedges, frozenset(tuple(c) for c in pos["tunnels"]), pos["points"],
                  conditions, tracks, ed["players"]["movement_token_cap"])
    gnomes = []
    for g in pos["gnomes"]:
        carrier = g.get("carried_by")
        gnomes.append(Gnome(g["kind"], tuple(g["at"]), bool(g.get("awake", False)),
                            None if carrier is None else carrier - 1, g.get("moved")))
    state = State(
        mages=tuple(tuple(m["at"]) for m in pos["mages"]),
        used=tuple(m.get("used", 0) for m in pos["mages"]),
        gnomes=tuple(gnomes),
        springshrooms=frozenset(tuple(c) for c in pos["springshrooms"]),
        spent=pos.get("spent", 0), tokens=pos.get("tokens", 0),
        shroom_tokens=pos.get("springshroom_tokens", 0), sigil_tokens=pos.get("sigil_tokens", 0),
        rescued=tuple(pos.get("rescued", {}).get(k, 0) for k in KINDS),  # type: ignore[arg-type]
        moved_rescued=frozenset(pos.get("moved_rescued", [])),
    )
    return rules, state


def summary(rules: Rules, s: State) -> dict[str, Any]:
    """A comparable digest of a state (same shape as :func:`engine_summary`)."""
    return {
        "mages": [[list(m), u] for m, u in zip(s.mages, s.used, strict=True)],
        "gnomes": sorted([g.kind, list(g.at), g.awake, None if g.carrier is None else g.carrier + 1, g.moved]
                         for g in s.gnomes),
        "springshrooms": sorted(list(c) for c in s.springshrooms),
        "spent": s.spent, "tokens": s.tokens, "springshroom_tokens": s.shroom_tokens,
        "sigil_tokens": s.sigil_tokens,
        "rescued": {k: n for k, n in zip(KINDS, s.rescued, strict=True) if n},
        "moved_rescued": sorted(s.moved_rescued),
    }


def engine_summary(pos: dict[str, Any]) -> dict[str, Any]:
    """The same digest of a position printed by the engine (``position`` in ``check --json``)."""
    return {
        "mages": [[list(m["at"]), m.get("used", 0)] for m in pos["mages"]],
        "gnomes": sorted([g["kind"], list(g["at"]), bool(g.get("awake", False)), g.get("carried_by"),
                          g.get("moved")] for g in pos["gnomes"]),
        "springshrooms": sorted(list(c) for c in pos["springshrooms"]),
        "spent": pos.get("spent", 0), "tokens": pos.get("tokens", 0),
        "springshroom_tokens": pos.get("springshroom_tokens", 0), "sigil_tokens": pos.get("sigil_tokens", 0),
        "rescued": {k: n for k, n in pos.get("rescued", {}).items() if n},
        "moved_rescued": sorted(pos.get("moved_rescued", [])),
    }


# ---------------------------------------------------------------- geometry and conditions


def neighbours(rules: Rules, c: Cell) -> list[Cell]:
    """Orthogonal neighbours inside the garden."""
    r, k = c
    out = [(r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)]
    return [x for x in out if 0 <= x[0] < rules.rows and 0 <= x[1] < rules.cols]


def adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def scope_cells(rules: Rules, c: Cell, scope: str) -> list[Cell]:
    """Cells of a count scope. READING: row/column/line include the gnome's own space (only gnome pieces
    exclude the gnome itself); no default card depends on this."""
    if scope == "adjacent":
        return neighbours(rules, c)
    if scope == "same":
        return [c]
    row = [(c[0], k) for k in range(rules.cols)]
    col = [(r, c[1]) for r in range(rules.rows)]
    if scope == "row":
        return row
    if scope == "column":
        return col
    if scope == "line":
        return row + [x for x in col if x != c]
    raise ValueError(f"unknown scope {scope}")


def holds(rules: Rules, s: State, gi: int, cond: dict[str, Any]) -> bool:
    """Does condition ``cond`` hold for gnome ``gi``? (the documented vocabulary)"""
    g = s.gnomes[gi]
    if "all" in cond:
        return all(holds(rules, s, gi, c) for c in cond["all"])
    if "any" in cond:
        return any(holds(rules, s, gi, c) for c in cond["any"])
    if "not" in cond:
        return not holds(rules, s, gi, cond["not"])
    if "on" in cond:
        return (g.at in rules.hedges) == (cond["on"] == "hedge")
    if "carried" in cond:
        return (g.carrier is not None) == cond["carried"]
    if "edge" in cond:
        r, k = g.at
        on_edge = r in (0, rules.rows - 1) or k in (0, rules.cols - 1)
        return on_edge == cond["edge"]
    if "count" in cond:
        cells = scope_cells(rules, g.at, cond["scope"])
        what = cond["count"]
        if what == "hedge":
            n = sum(c in rules.hedges for c in cells)
        elif what == "ground":
            n = sum(c not in rules.hedges for c in cells)
        elif what == "tunnel":
            n = sum(c in rules.tunnels for c in cells)
        elif what == "springshroom":
            n = sum(c in s.springshrooms for c in cells)
        elif what == "mage":
            n = sum(m in cells for m in s.mages)
        elif what == "gnome":
            kinds = cond.get("kind")
            if isinstance(kinds, str):
                kinds = [kinds]
            n = 0
            for j, o in enumerate(s.gnomes):
                if j == gi or o.at not in cells:
                    continue
                if kinds is not None and o.kind not in kinds:
                    continue
                if "awake" in cond and o.awake != cond["awake"]:
                    continue
                n += 1
        else:
            raise ValueError(f"unknown count {what}")
        lo = cond.get("at_least", 1 if "at_most" not in cond else 0)
        hi = cond.get("at_most")
        return n >= lo and (hi is None or n <= hi)
    raise ValueError(f"unknown condition {cond}")


def settle(rules: Rules, s: State) -> State:
    """Wake every sleeping gnome whose card holds (until nothing changes), then rescue awake gnomes on tunnels."""
    changed = True
    while changed:
        changed = False
        gnomes = list(s.gnomes)
        for i, g in enumerate(gnomes):
            cond = rules.conditions[g.kind]
            if not g.awake and cond is not None and holds(rules, s, i, cond):
                gnomes[i] = g._replace(awake=True)
                changed = True
        s = s._replace(gnomes=tuple(gnomes))
    keep: list[Gnome] = []
    rescued = list(s.rescued)
    tokens, shrooms, sigils = s.tokens, s.shroom_tokens, s.sigil_tokens
    moved_rescued = set(s.moved_rescued)
    transit = s.transit
    for i, g in enumerate(s.gnomes):
        if g.awake and g.at in rules.tunnels:
            ki = KINDS.index(g.kind)
            track = rules.tracks[g.kind]
            bonus = track[rescued[ki]][1] if rescued[ki] < len(track) else "none"
            rescued[ki] += 1
            if bonus == "movement":
                tokens = min(rules.token_cap, tokens + 1)
            elif bonus == "springshroom":
                shrooms += 1
            elif bonus == "sigil":
                sigils += 1
            if g.moved is not None:
                moved_rescued.add(g.kind)
            if transit is not None and transit[0] == "gnome" and transit[1] == i:
                transit = None
        else:
            keep.append(g)
    if len(keep) != len(s.gnomes) and transit is not None and transit[0] == "gnome":
        # re-index the gnome in transit after removals
        old = s.gnomes[transit[1]]
        transit = ("gnome", keep.index(old), False) if old in keep else None
    return s._replace(gnomes=tuple(keep), rescued=(rescued[0], rescued[1], rescued[2]), tokens=tokens,
                   shroom_tokens=shrooms, sigil_tokens=sigils, moved_rescued=frozenset(moved_rescued),
                   transit=transit)


def score(rules: Rules, s: State) -> int:
    """The running player's score terms that running changes: track points + awake gnomes in the rival garden."""
    pts = sum(rules.tracks[k][n - 1][0] for k, n in zip(KINDS, s.rescued, strict=True) if n)
    return pts + sum(g.awake for g in s.gnomes)


# ---------------------------------------------------------------- occupancy and bounces


def lone_gnome_at(s: State, c: Cell) -> list[int]:
    return [i for i, g in enumerate(s.gnomes) if g.carrier is None and g.at == c]


def characters_at(s: State, c: Cell) -> int:
    """Characters on a space: mages (with what they carry) and gnomes not carried."""
    return sum(m == c for m in s.mages) + len(lone_gnome_at(s, c))


def carried_by(s: State, mi: int) -> int | None:
    for i, g in enumerate(s.gnomes):
        if g.carrier == mi:
            return i
    return None


def bounce_chains(rules: Rules, s: State, start: Cell, lone_sleeping: bool,
                  lone_awake: bool = False) -> list[tuple[Cell, ...]]:
    """Every landing sequence for a character that entered the springshroom on ``start``.

    A landing is an adjacent space (hedges included) with no character; a lone sleeping gnome may not land in a
    tunnel; a lone awake gnome may land in a tunnel even with a character on it (rulings: it is rescued, a
    character on a tunnel does not block a rescue); a landing on another springshroom bounces again, never to a
    space of the same chain; with no landing possible the character stays (the chain ends there). The empty tuple
    means: no bounce possible at all.
    """
    out: list[tuple[Cell, ...]] = []

    def go(at: Cell, chain: tuple[Cell, ...], seen: frozenset[Cell]) -> None:
        options = [n for n in neighbours(rules, at)
                   if n not in seen and not (lone_sleeping and n in rules.tunnels)
                   and (characters_at(s, n) == 0 or (lone_awake and n in rules.tunnels))]
        if not options:
            out.append(chain)
            return
        for n in options:
            if n in s.springshrooms:
                go(n, chain + (n,), seen | {n})
            else:
                out.append(chain + (n,))

    go(start, (), frozenset({start}))
    return out


def _move_mage(s: State, mi: int, to: Cell) -> State:
    mages = list(s.mages)
    mages[mi] = to
    gi = carried_by(s, mi)
    gnomes = list(s.gnomes)
    if gi is not None:
        gnomes[gi] = gnomes[gi]._replace(at=to)
    return s._replace(mages=tuple(mages), gnomes=tuple(gnomes))


def _move_gnome(s: State, gi: int, to: Cell, carrier: int | None) -> State:
    gnomes = list(s.gnomes)
    gnomes[gi] = gnomes[gi]._replace(at=to, carrier=carrier)
    return s._replace(gnomes=tuple(gnomes))


def _bounce(rules: Rules, s: State, who: tuple[str, int], at: Cell, landings: tuple[Cell, ...] | None) -> State:
    """Apply the bounce of ``who`` standing on springshroom ``at`` with the given landings (checked)."""
    if who[0] == "mage":
        lone_sleeping = lone_awake = False
    else:
        lone_sleeping = not s.gnomes[who[1]].awake
        lone_awake = not lone_sleeping
    # the bouncing character itself is not an obstacle
    probe = s
    if who[0] == "mage":
        probe = _move_mage(s, who[1], (-9, -9))
    else:
        probe = _move_gnome(s, who[1], (-9, -9), None)
    chains = bounce_chains(rules, probe, at, lone_sleeping, lone_awake)
    given = landings or ()
    if given not in chains:
        raise Illegal("bounce", f"landings {given} not one of {chains}")
    if not given:
        return s
    end = given[-1]
    return _move_mage(s, who[1], end) if who[0] == "mage" else _move_gnome(s, who[1], end, None)


def _after_character_action(rules: Rules, s: State, who: tuple[str, int], dropped: bool = False) -> State:
    """Settle, then mark the acting character in transit if it shares its space."""
    s = settle(rules, s._replace(transit=None))
    if who[0] == "mage":
        at = s.mages[who[1]]
        if characters_at(s, at) > 1:
            return s._replace(transit=("mage", who[1], dropped))
    return s


# ---------------------------------------------------------------- actions


CELL = r"(\d+),(\d+)"
RE_MAGE_STEP = re.compile(rf"^M([12])((?:>{CELL})+)((?:~{CELL})*)$")
RE_MAGE_PICK = re.compile(rf"^M([12])\+{CELL}$")
RE_MAGE_DROP = re.compile(rf"^M([12])-{CELL}((?:~{CELL})*)$")
RE_GNOME = re.compile(rf"^([fmpFMP]){CELL}((?:>{CELL})+)((?:~{CELL})*)$")
RE_SHROOM = re.compile(rf"^\^{CELL}((?:~{CELL})*)$")


def _cells(text: str) -> tuple[Cell, ...]:
    return tuple((int(a), int(b)) for a, b in re.findall(CELL, text))


def _allowance(rules: Rules, s: State) -> int:
    return rules.points + s.spent


def _check_transit(s: State, actor: tuple[str, int], kind: str) -> None:
    """A character in transit must act next: a step, or (a mage that did not just drop) the free pick-up."""
    if s.transit is None:
        return
    tk, ti, dropped = s.transit
    if (tk, ti) != actor:
        raise Illegal("occupied-end", f"{tk} {ti} is in transit and must move on first")
    if kind == "pick" and dropped:
        raise Illegal("occupied-end", "a mage that dropped on its own space must step on")
    if kind == "drop":
        raise Illegal("occupied-end", "a character in transit must move on")


def mage_step(rules: Rules, s: State, mi: int, to: Cell) -> State:
    """One step of mage ``mi`` (no bounce yet)."""
    _check_transit(s, ("mage", mi), "step")
    at = s.mages[mi]
    if not adjacent(at, to) or not (0 <= to[0] < rules.rows and 0 <= to[1] < rules.cols):
        raise Illegal("not-orthogonal", f"{at} -> {to}")
    if s.used[mi] + 1 > _allowance(rules, s):
        raise Illegal("allowance")
    if at not in rules.hedges and to in rules.hedges:
        raise Illegal("low-to-high")
    s = _move_mage(s, mi, to)
    used = list(s.used)
    used[mi] += 1
    return s._replace(used=tuple(used))


def gnome_step(rules: Rules, s: State, gi: int, to: Cell) -> State:
    """One step of gnome ``gi`` on its own allowance (no bounce yet)."""
    _check_transit(s, ("gnome", gi), "step")
    g = s.gnomes[gi]
    if not g.awake:
        raise Illegal("asleep")
    if g.kind in s.moved_rescued or any(o.kind == g.kind and o.moved is not None and j != gi
                                        for j, o in enumerate(s.gnomes)):
        raise Illegal("second-gnome")
    if not adjacent(g.at, to) or not (0 <= to[0] < rules.rows and 0 <= to[1] < rules.cols):
        raise Illegal("not-orthogonal")
    if (g.moved or 0) + 1 > _allowance(rules, s):
        raise Illegal("allowance")
    onto = [mi for mi, m in enumerate(s.mages) if m == to and carried_by(s, mi) is None]
    # READING: a gnome steps onto a mage that carries nothing from any adjacent space (ladder), whatever the mage's
    # own height; otherwise low (ground, not on a mage) to high (hedge) is not allowed.
    if not onto and to in rules.hedges and g.at not in rules.hedges and g.carrier is None:
        raise Illegal("low-to-high")
    s = _move_gnome(s, gi, to, onto[0] if onto else None)
    gnomes = list(s.gnomes)
    gnomes[gi] = gnomes[gi]._replace(moved=(g.moved or 0) + 1)
    return s._replace(gnomes=tuple(gnomes))


def apply_action(rules: Rules, s: State, text: str) -> State:
    """Apply one action in the documented notation; raise :class:`Illegal` with a rule id."""
    text = text.strip()
    if text == "T":
        if s.tokens <= 0:
            raise Illegal("no-token")
        return s._replace(tokens=s.tokens - 1, spent=s.spent + 1)
    m = RE_SHROOM.match(text)
    if m:
        c = (int(m.group(1)), int(m.group(2)))
        landings = _cells(m.group(3))
        if s.shroom_tokens <= 0:
            raise Illegal("no-springshroom")
        if not (0 <= c[0] < rules.rows and 0 <= c[1] < rules.cols):
            raise Illegal("not-ground")
        if c in rules.hedges:
            raise Illegal("not-ground")
        if c in rules.tunnels:
            raise Illegal("tunnel")
        if c in s.springshrooms:
            raise Illegal("springshroom", "already a springshroom there")
        who: tuple[str, int] | None = None
        here_mages = [i for i, mm in enumerate(s.mages) if mm == c]
        here_gnomes = lone_gnome_at(s, c)
        if here_mages or here_gnomes:
            if s.transit is not None:
                raise Illegal("occupied-end", "a springshroom beneath a character while one is in transit")
            who = ("mage", here_mages[0]) if here_mages else ("gnome", here_gnomes[0])
        s = s._replace(shroom_tokens=s.shroom_tokens - 1, springshrooms=s.springshrooms | {c})
        if who is not None:
            s = _bounce(rules, s, who, c, landings)
        elif landings:
            raise Illegal("bounce", "nobody to bounce")
        return settle(rules, s)
    m = RE_MAGE_STEP.match(text)
    if m:
        mi = int(m.group(1)) - 1
        path = _cells(m.group(2))
        landings = _cells(text.split("~", 1)[1]) if "~" in text else ()
        for n, step in enumerate(path):
            s = mage_step(rules, s, mi, step)
            if step in s.springshrooms:
                probe = _move_mage(s, mi, (-9, -9))
                can = bounce_chains(rules, probe, step, False) != [()]
                if can:
                    if n != len(path) - 1:
                        raise Illegal("bounce", "a path that enters a springshroom ends there")
                    s = _bounce(rules, s, ("mage", mi), step, landings)
                    landings = ()
            s = _after_character_action(rules, s, ("mage", mi))
        if landings:
            raise Illegal("bounce", "landings without a bounce")
        return s
    m = RE_GNOME.match(text)
    if m:
        kind = LETTER_KIND[m.group(1).lower()]
        start = (int(m.group(2)), int(m.group(3)))
        path = _cells(m.group(4))
        landings = _cells(text.split("~", 1)[1]) if "~" in text else ()
        cands = [i for i, g in enumerate(s.gnomes) if g.at == start and g.kind == kind]
        # READING: two gnomes of one kind on one space (one passing the other) - the notation names the space;
        # only the gnome in transit may act, so that is the one meant
        if s.transit is not None and s.transit[0] == "gnome" and s.transit[1] in cands:
            cands = [s.transit[1]]
        if not cands:
            raise Illegal("no-gnome", f"no {kind} gnome on {start}")
        moving: int | None = cands[0]
        for n, step in enumerate(path):
            if moving is None:
                raise Illegal("rescued", "the gnome was rescued before the end of its path")
            gi = moving
            s = gnome_step(rules, s, gi, step)
            g = s.gnomes[gi]
            if g.carrier is None and step in s.springshrooms:
                probe = _move_gnome(s, gi, (-9, -9), None)
                can = bounce_chains(rules, probe, step, not g.awake, g.awake) != [()]
                if can:
                    if n != len(path) - 1:
                        raise Illegal("bounce", "a path that enters a springshroom ends there")
                    s = _bounce(rules, s, ("gnome", gi), step, landings)
                    landings = ()
            before = s.gnomes
            s = settle(rules, s._replace(transit=None))
            moving = _reindex(before, s.gnomes, gi)
            if moving is not None and s.gnomes[moving].carrier is None and characters_at(s, s.gnomes[moving].at) > 1:
                s = s._replace(transit=("gnome", moving, False))
        if landings:
            raise Illegal("bounce", "landings without a bounce")
        return s
    m = RE_MAGE_PICK.match(text)
    if m:
        mi = int(m.group(1)) - 1
        c = (int(m.group(2)), int(m.group(3)))
        _check_transit(s, ("mage", mi), "pick")
        at = s.mages[mi]
        if s.transit is not None and c != at:
            raise Illegal("occupied-end", "a mage in transit may only pick up the gnome on its own space")
        if c != at and not adjacent(at, c):
            raise Illegal("not-adjacent")
        if carried_by(s, mi) is not None:
            raise Illegal("carrying-two")
        here = lone_gnome_at(s, c)
        if not here:
            raise Illegal("no-gnome", f"no gnome on {c} to pick up")
        cost = 0 if c == at else 1
        if s.used[mi] + cost > _allowance(rules, s):
            raise Illegal("allowance")
        if at in rules.hedges and c not in rules.hedges:
            raise Illegal("too-far-down")
        s = _move_gnome(s, here[0], at, mi)
        used = list(s.used)
        used[mi] += cost
        s = s._replace(used=tuple(used))
        return _after_character_action(rules, s, ("mage", mi))
    m = RE_MAGE_DROP.match(text)
    if m:
        mi = int(m.group(1)) - 1
        c = (int(m.group(2)), int(m.group(3)))
        landings = _cells(text.split("~", 1)[1]) if "~" in text else ()
        _check_transit(s, ("mage", mi), "drop")
        at = s.mages[mi]
        held = carried_by(s, mi)
        if held is None:
            raise Illegal("not-carrying")
        gi = held
        if c != at and not adjacent(at, c):
            raise Illegal("not-adjacent")
        cost = 0 if c == at else 1
        if s.used[mi] + cost > _allowance(rules, s):
            raise Illegal("allowance")
        if at in rules.hedges and c not in rules.hedges:
            raise Illegal("too-far-down")
        # the landing space must hold no character besides the dropping mage, except that an awake gnome may be
        # dropped into a tunnel with a character on it (rulings: rescued; a character on a tunnel does not block)
        g = s.gnomes[gi]
        if c != at and characters_at(s, c) > 0 and not (g.awake and c in rules.tunnels):
            raise Illegal("occupied-end")
        if not g.awake and c in rules.tunnels:
            raise Illegal("sleeping-tunnel")
        s = _move_gnome(s, gi, c, None)
        if c in s.springshrooms:
            probe = _move_gnome(s, gi, (-9, -9), None)
            if bounce_chains(rules, probe, c, not g.awake, g.awake) != [()]:
                s = _bounce(rules, s, ("gnome", gi), c, landings)
                landings = ()
        if landings:
            raise Illegal("bounce", "landings without a bounce")
        used = list(s.used)
        used[mi] += cost
        s = s._replace(used=tuple(used))
        return _after_character_action(rules, s, ("mage", mi), dropped=(c == at))
    raise Illegal("notation", f"cannot read action {text!r}")


def _reindex(before: tuple[Gnome, ...], after: tuple[Gnome, ...], gi: int) -> int | None:
    """Index of gnome ``gi`` of ``before`` in ``after`` (None when rescued): settle only removes or wakes."""
    j = 0
    for i, g in enumerate(before):
        if j < len(after) and after[j].kind == g.kind and after[j].at == g.at and after[j].carrier == g.carrier:
            if i == gi:
                return j
            j += 1
        elif i == gi:
            return None
    return None


@dataclass
class Outcome:
    """What a plan did: legality, the first failing action (1-based) and its reason, the end state."""

    legal: bool
    state: State
    failed_index: int | None = None
    reason: str | None = None
    rescued: int = 0
    points: int = 0
    tokens_spent: int = 0
    springshrooms_spent: int = 0


def shared_kind_space(rules: Rules, s0: State, actions: list[str]) -> bool:
    """Does the plan name a gnome by a space holding two gnomes of that kind (see :func:`apply_action`)?"""
    s = s0
    for a in actions:
        m = RE_GNOME.match(a)
        if m:
            kind = LETTER_KIND[m.group(1).lower()]
            start = (int(m.group(2)), int(m.group(3)))
            if sum(g.at == start and g.kind == kind for g in s.gnomes) > 1:
                return True
        try:
            s = apply_action(rules, s, a)
        except Illegal:
            return False
    return False


def split_plan(plan: str) -> list[str]:
    """Actions of a plan written with spaces, ``;`` or newlines."""
    lines = [ln.split("#", 1)[0] for ln in plan.splitlines()]
    return [a for a in re.split(r"[\s;]+", " ".join(lines)) if a]


def run_plan(rules: Rules, s0: State, actions: list[str]) -> Outcome:
    """Execute a plan; a plan may not end with a character in transit (READING: blamed on the last character
    action, the one that left it there - the docs do not say which action is illegal then)."""
    s = s0
    last_character_action = 0
    for n, a in enumerate(actions, 1):
        try:
            s = apply_action(rules, s, a)
        except Illegal as exc:
            return Outcome(False, s, n, exc.reason)
        if a != "T" and not a.startswith("^"):
            last_character_action = n
    if s.transit is not None:
        return Outcome(False, s, last_character_action, "occupied-end")
    return Outcome(True, s, None, None, sum(s.rescued) - sum(s0.rescued), score(rules, s) - score(rules, s0),
                   s.spent - s0.spent, len(s.springshrooms) - len(s0.springshrooms))


# ---------------------------------------------------------------- exhaustive search


def _fmt(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


def _with_landings(rules: Rules, s: State, base: str, who: tuple[str, int], at: Cell,
                   lone_sleeping: bool) -> Iterator[str]:
    """The action text ``base`` with each possible landing sequence if ``at`` is a springshroom."""
    if at not in s.springshrooms:
        yield base
        return
    probe = _move_mage(s, who[1], (-9, -9)) if who[0] == "mage" else _move_gnome(s, who[1], (-9, -9), None)
    lone_awake = who[0] == "gnome" and not lone_sleeping
    for chain in bounce_chains(rules, probe, at, lone_sleeping, lone_awake):
        yield base + "".join("~" + _fmt(c) for c in chain)


def candidate_actions(rules: Rules, s: State) -> Iterator[str]:
    """Every unit action worth trying (illegal ones are filtered by :func:`apply_action`)."""
    if s.tokens > 0:
        yield "T"
    if s.shroom_tokens > 0:
        for r in range(rules.rows):
            for k in range(rules.cols):
                c = (r, k)
                if c in rules.hedges or c in rules.tunnels or c in s.springshrooms:
                    continue
                mages = [i for i, m in enumerate(s.mages) if m == c]
                gn = lone_gnome_at(s, c)
                if not mages and not gn:
                    yield "^" + _fmt(c)
                    continue
                s2 = s._replace(springshrooms=s.springshrooms | {c})
                if mages:
                    yield from _with_landings(rules, s2, "^" + _fmt(c), ("mage", mages[0]), c, False)
                else:
                    yield from _with_landings(rules, s2, "^" + _fmt(c), ("gnome", gn[0]), c,
                                              not s.gnomes[gn[0]].awake)
    for mi, at in enumerate(s.mages):
        for n in neighbours(rules, at):
            yield from _with_landings(rules, s, f"M{mi + 1}>{_fmt(n)}", ("mage", mi), n, False)
        carrying = carried_by(s, mi)
        for c in [at, *neighbours(rules, at)]:
            if carrying is None:
                if lone_gnome_at(s, c):
                    yield f"M{mi + 1}+{_fmt(c)}"
            else:
                g = s.gnomes[carrying]
                probe = _move_gnome(s, carrying, c, None)
                yield from _with_landings(rules, probe, f"M{mi + 1}-{_fmt(c)}", ("gnome", carrying), c, not g.awake)
    letters = {v: k for k, v in LETTER_KIND.items()}
    for gi, g in enumerate(s.gnomes):
        if not g.awake:
            continue
        for n in neighbours(rules, g.at):
            onto = any(m == n and carried_by(s, mi) is None for mi, m in enumerate(s.mages))
            base = f"{letters[g.kind]}{_fmt(g.at)}>{_fmt(n)}"
            if onto:
                yield base
            else:
                yield from _with_landings(rules, s, base, ("gnome", gi), n, False)


Value = tuple[int, int, int]


def value_of(rules: Rules, s0: State, s: State) -> Value:
    """Lexicographic plan value to maximise: rescued, points, -(tokens + springshrooms spent)."""
    return (sum(s.rescued) - sum(s0.rescued), score(rules, s) - score(rules, s0),
            -((s.spent - s0.spent) + (len(s.springshrooms) - len(s0.springshrooms))))


@dataclass
class SearchResult:
    """Optimum of the exhaustive search, a plan that reaches it, and the number of states visited."""

    value: Value
    plan: list[str]
    states: int


def optimal_plan(rules: Rules, s0: State, max_states: int | None = None) -> SearchResult:
    """Exhaustive memoised DFS over unit actions; every state without a character in transit may end the plan."""
    # memo: state -> ((value, -actions left), best action, next state); the action count only picks short plans
    memo: dict[State, tuple[tuple[Value, int], str | None, State | None]] = {}
    on_stack: set[State] = set()

    def best(s: State) -> tuple[Value, int]:
        if s in memo:
            return memo[s][0]
        if s in on_stack:
            raise RuntimeError("cycle in the reference's state graph")
        if max_states is not None and len(memo) >= max_states:
            raise TimeoutError("state budget exhausted")
        on_stack.add(s)
        top: tuple[Value, int] | None = (value_of(rules, s0, s), 0) if s.transit is None else None
        choice: tuple[str | None, State | None] = (None, None)
        for a in candidate_actions(rules, s):
            try:
                nxt = apply_action(rules, s, a)
            except Illegal:
                continue
            v, n = best(nxt)
            if top is None or (v, n - 1) > top:
                top, choice = (v, n - 1), (a, nxt)
        on_stack.discard(s)
        if top is None:
            top = ((-1, -10**9, -10**9), 0)  # a dead end: a character in transit that cannot move on
        memo[s] = (top, choice[0], choice[1])
        return top

    v = best(s0)[0]
    plan: list[str] = []
    s: State | None = s0
    while s is not None and memo[s][1] is not None:
        plan.append(memo[s][1])  # type: ignore[arg-type]
        s = memo[s][2]
    return SearchResult(v, plan, len(memo))
