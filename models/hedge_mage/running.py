"""Maze running: the running position, actions, legality with every reason, and apply.

The running player's two mages and the awake gnomes move in the rival's garden
(rulebook "Maze Running Phase", rulings "Maze running").  A plan is a sequence
of actions; each action is made of unit changes (one step, a pick-up, a drop,
a springshroom placed) and after every unit change the springshroom bounce is
resolved, then every sleeping gnome whose enchantment holds wakes, then every
awake gnome on a tunnel space is rescued (repeated until nothing changes).

Decisions where the rulings are silent (docs/rules/hedge-mage-running.md):

* *End of a move.*  A character may pass through occupied spaces.  After an
  action that leaves it sharing a space (other than a gnome on the mage that
  carries it), it is *in transit*: the next character action must be its own
  (a further step; for a mage also a free pick-up of the gnome on its space),
  and a plan may not end with a character in transit.  Spending a token or
  placing a springshroom (not beneath anyone) may come in between.
* A mage that drops its gnome on its own space must step on next.
* A bounce lands only on a space with no character; a dropped gnome lands only
  on a space with no character (no hand-over between mages by dropping).
* An awake gnome on a tunnel space is rescued whenever the checks run (also
  when it wakes there while carried by a mage standing on the tunnel).
* Springshrooms may not be placed on a tunnel space.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property

from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.enchantments import Cond, holds
from gnomekit.models.hedge_mage.position import Garden

ORTH = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def cname(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


def gnome_order(g: RGnome) -> tuple[Cell, str, bool, int, int]:
    """The canonical order of gnomes in a position."""
    return (g.at, g.kind, g.awake, -1 if g.carried_by is None else g.carried_by, -1 if g.moved is None else g.moved)


@dataclass(frozen=True)
class RGnome:
    """A gnome in the rival's garden during running (a carried gnome stands at its mage's space)."""

    at: Cell
    kind: str
    awake: bool = False
    carried_by: int | None = None  # mage number 0 or 1
    moved: int | None = None  # its own movement points used this round; None: has not moved itself

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind, "at": list(self.at), "awake": self.awake}
        if self.carried_by is not None:
            d["carried_by"] = self.carried_by + 1
        if self.moved is not None:
            d["moved"] = self.moved
        return d


@dataclass(frozen=True)
class RunPosition:
    """The rival's garden during the running player's maze running phase (immutable).

    ``board`` gives the hedges, bonus sigils and tunnels (its gnomes, mages and
    springshrooms are unused); the characters and springshrooms are here.
    """

    board: Garden
    enchantments: tuple[str, ...]
    mages: tuple[Cell, ...]
    gnomes: tuple[RGnome, ...]
    points: int  # the round's movement points (from building)
    springshrooms: tuple[Cell, ...] = ()
    spent: int = 0  # movement tokens spent this round (each adds 1 to every allowance)
    tokens: int = 0  # movement tokens held
    springshroom_tokens: int = 0  # springshroom tokens held
    sigil_tokens: int = 0  # bonus sigil tokens held
    mage_used: tuple[int, ...] = ()  # movement points each mage has used this round
    rescued: tuple[tuple[str, int], ...] = ()  # gnomes rescued so far per kind (track spaces filled)
    round: int = 1
    transit: tuple[str, int] | None = None  # ("mage"|"mage-step"|"gnome", index) that must move next
    rescued_movers: tuple[str, ...] = ()  # kinds whose self-moved gnome was rescued this round (limit still used)

    def __post_init__(self) -> None:
        object.__setattr__(self, "gnomes", tuple(sorted(self.gnomes, key=gnome_order)))
        object.__setattr__(self, "springshrooms", tuple(sorted(set(self.springshrooms))))
        if len(self.mage_used) != len(self.mages):
            pad = (0,) * (len(self.mages) - len(self.mage_used))
            object.__setattr__(self, "mage_used", tuple(self.mage_used) + pad)
        object.__setattr__(self, "rescued", tuple(sorted((k, n) for k, n in self.rescued if n)))
        object.__setattr__(self, "rescued_movers", tuple(sorted(set(self.rescued_movers))))

    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def cols(self) -> int:
        return self.board.cols

    @property
    def allowance(self) -> int:
        return self.points + self.spent

    def key(self) -> tuple[object, ...]:
        """Everything that changes during a round (for transposition tables)."""
        return (self.mages, self.gnomes, self.springshrooms, self.spent, self.tokens, self.springshroom_tokens,
                self.sigil_tokens, self.mage_used, self.rescued, self.transit, self.rescued_movers)

    @cached_property
    def hedge(self) -> frozenset[Cell]:
        return self.board.hedge_cells

    @cached_property
    def tunnel_set(self) -> frozenset[Cell]:
        return frozenset(self.board.tunnels)

    def rescued_count(self, kind: str) -> int:
        return dict(self.rescued).get(kind, 0)

    def total_rescued(self) -> int:
        return sum(n for _, n in self.rescued)

    def carried(self, mage: int) -> int | None:
        """Index (in ``gnomes``) of the gnome mage ``mage`` carries."""
        for i, g in enumerate(self.gnomes):
            if g.carried_by == mage:
                return i
        return None

    def problems(self, edition: HedgeMageEdition) -> list[str]:
        """Every way the position is not well formed (empty when fine)."""
        out = self.board.problems(edition)
        ids = {e.id for e in edition.enchantments}
        kinds_seen: dict[str, str] = {}
        for e in self.enchantments:
            if e not in ids:
                out.append(f"unknown enchantment {e!r}")
                continue
            k = edition.enchantment(e).kind
            if k in kinds_seen:
                out.append(f"enchantments {kinds_seen[k]!r} and {e!r} are both for {k} gnomes")
            kinds_seen[k] = e
            if e not in edition.running.conditions:
                out.append(f"enchantment {e!r} has no condition in the edition")
        inside = self.board.in_bounds
        for i, m in enumerate(self.mages):
            if not inside(m):
                out.append(f"mage {i + 1} at {cname(m)} is outside the garden")
        if len(set(self.mages)) != len(self.mages):
            out.append("two mages on the same space")
        for s in self.springshrooms:
            if not inside(s) or s in self.hedge or s in self.tunnel_set:
                out.append(f"springshroom at {cname(s)} is not on a ground space without a tunnel")
        carriers: dict[int, int] = {}
        cells: dict[Cell, int] = {}
        moved_kinds: dict[str, int] = {}
        for g in self.gnomes:
            if g.kind not in edition.gnome_kinds:
                out.append(f"gnome at {cname(g.at)}: unknown kind {g.kind!r}")
            if not inside(g.at):
                out.append(f"{g.kind} gnome at {cname(g.at)} is outside the garden")
            if g.carried_by is not None:
                if g.carried_by >= len(self.mages) or self.mages[g.carried_by] != g.at:
                    out.append(f"{g.kind} gnome at {cname(g.at)} is carried by a mage that is not there")
                carriers[g.carried_by] = carriers.get(g.carried_by, 0) + 1
            else:
                cells[g.at] = cells.get(g.at, 0) + 1
                if g.at in self.mages and self.transit is None:
                    out.append(f"{g.kind} gnome at {cname(g.at)} shares a space with a mage without being carried")
                if g.at in self.tunnel_set and g.awake:
                    out.append(f"awake {g.kind} gnome at {cname(g.at)} stands on a tunnel (it would be rescued)")
            if g.moved is not None:
                if not g.awake:
                    out.append(f"sleeping {g.kind} gnome at {cname(g.at)} is marked as moved")
                moved_kinds[g.kind] = moved_kinds.get(g.kind, 0) + 1
                if g.moved > self.allowance:
                    out.append(f"{g.kind} gnome at {cname(g.at)} used {g.moved} points of an allowance of "
                               f"{self.allowance}")
        for mi, n in carriers.items():
            if n > 1:
                out.append(f"mage {mi + 1} carries {n} gnomes")
        for c, n in cells.items():
            if n > 1 and self.transit is None:
                out.append(f"{n} gnomes on {cname(c)}")
        for k in self.rescued_movers:
            moved_kinds[k] = moved_kinds.get(k, 0) + 1
        for k, n in moved_kinds.items():
            if n > 1:
                out.append(f"{n} {k} gnomes marked as moved (one per kind per round)")
        for i, u in enumerate(self.mage_used):
            if u > self.allowance:
                out.append(f"mage {i + 1} used {u} points of an allowance of {self.allowance}")
        if self.tokens > edition.movement_token_cap:
            out.append(f"{self.tokens} movement tokens held; at most {edition.movement_token_cap}")
        for k, n in self.rescued:
            if k not in edition.gnome_kinds:
                out.append(f"rescued: unknown gnome kind {k!r}")
            elif k in edition.running.tracks and n > len(edition.running.tracks[k]):
                out.append(f"rescued {n} {k} gnomes but the track has {len(edition.running.tracks[k])} spaces")
        if self.points < 0 or self.spent < 0 or self.tokens < 0 or self.springshroom_tokens < 0 \
                or self.sigil_tokens < 0 or any(u < 0 for u in self.mage_used):
            out.append("counts cannot be negative")
        return out


# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True)
class Action:
    """One action of a plan (notation in models/hedge_mage/running_notation.py).

    ``kind``: ``step`` (a path of unit steps by ``who``), ``pickup``, ``drop``, ``token``,
    ``shroom``.  ``who`` is ``M1``/``M2`` for a mage or a gnome kind for a gnome (then
    ``at`` is the gnome's space when the action starts).  ``path`` holds the cells
    stepped to, or the one target cell; ``bounces`` the springshroom bounce landings.
    """

    kind: str
    who: str = ""
    at: Cell | None = None
    path: tuple[Cell, ...] = ()
    bounces: tuple[Cell, ...] = ()

    @property
    def mage(self) -> int | None:
        return int(self.who[1:]) - 1 if self.who.startswith("M") else None


@dataclass(frozen=True)
class Event:
    """Something that happened while applying an action (wake, rescue, bounce, bonus)."""

    what: str  # "wake", "rescue", "bounce", "bonus", "token"
    kind: str = ""
    cell: Cell | None = None
    detail: str = ""

    def text(self) -> str:
        where = f" at {cname(self.cell)}" if self.cell is not None else ""
        if self.what == "wake":
            return f"{self.kind} gnome wakes{where}"
        if self.what == "rescue":
            return f"{self.kind} gnome rescued{where} ({self.detail})"
        if self.what == "bounce":
            return f"bounce to {cname(self.cell)}" if self.cell else "bounce"
        return self.detail or self.what

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"event": self.what}
        if self.kind:
            d["kind"] = self.kind
        if self.cell is not None:
            d["cell"] = list(self.cell)
        if self.detail:
            d["detail"] = self.detail
        return d


class Illegal(Exception):
    """Raised inside apply: every reason the action breaks a rule."""

    def __init__(self, reasons: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(m for _, m in reasons))
        self.reasons = reasons  # (rule id, message)


@dataclass
class _W:
    """A mutable working copy of a position while one action is applied."""

    pos: RunPosition
    ed: HedgeMageEdition
    mages: list[Cell]
    gnomes: list[dict[str, object]]
    shrooms: set[Cell]
    spent: int
    tokens: int
    stok: int
    sig: int
    used: list[int]
    rescued: dict[str, int]
    movers_gone: set[str]
    events: list[Event] = field(default_factory=list)
    conds: dict[str, Cond] = field(default_factory=dict)
    index: dict[Cell, list[tuple[int, str, bool]]] | None = None  # gnomes by cell, rebuilt on demand

    # -- view protocol for the enchantment conditions -----------------------------------------
    @property
    def rows(self) -> int:
        return self.pos.rows

    @property
    def cols(self) -> int:
        return self.pos.cols

    def is_hedge(self, cell: Cell) -> bool:
        return cell in self.pos.hedge

    def is_tunnel(self, cell: Cell) -> bool:
        return cell in self.pos.tunnel_set

    def has_springshroom(self, cell: Cell) -> bool:
        return cell in self.shrooms

    def mage_count(self, cell: Cell) -> int:
        return sum(1 for m in self.mages if m == cell)

    def gnomes_at(self, cell: Cell) -> list[tuple[int, str, bool]]:
        if self.index is None:
            self.index = {}
            for i, g in enumerate(self.gnomes):
                self.index.setdefault(g["at"], []).append((i, str(g["kind"]), bool(g["awake"])))  # type: ignore[arg-type]
        return self.index.get(cell, [])

    # -- helpers ------------------------------------------------------------------------------
    def carried_by(self, m: int) -> int | None:
        for i, g in enumerate(self.gnomes):
            if g["carried_by"] == m:
                return i
        return None

    def chars_at(self, cell: Cell, skip_mage: int | None = None, skip_gnome: int | None = None) -> list[str]:
        out = [f"mage {i + 1}" for i, m in enumerate(self.mages) if m == cell and i != skip_mage]
        for i, g in enumerate(self.gnomes):
            if g["at"] == cell and i != skip_gnome and not (skip_mage is not None and g["carried_by"] == skip_mage):
                out.append(f"{g['kind']} gnome")
        return out

    def freeze(self, transit: tuple[str, int] | None) -> RunPosition:
        gl = [RGnome(g["at"], str(g["kind"]), bool(g["awake"]), g["carried_by"], g["moved"])  # type: ignore[arg-type]
              for g in self.gnomes]
        if transit is not None and transit[0] == "gnome":
            target = gl[transit[1]]
            gl_sorted = sorted(gl, key=gnome_order)
            transit = ("gnome", gl_sorted.index(target))
        return replace(self.pos, mages=tuple(self.mages), gnomes=tuple(gl), springshrooms=tuple(self.shrooms),
                       spent=self.spent, tokens=self.tokens, springshroom_tokens=self.stok, sigil_tokens=self.sig,
                       mage_used=tuple(self.used), rescued=tuple(self.rescued.items()), transit=transit,
                       rescued_movers=tuple(self.movers_gone))


def _work(pos: RunPosition, ed: HedgeMageEdition) -> _W:
    conds = {}
    for e in pos.enchantments:
        c = ed.running.conditions.get(e)
        if c is not None:
            conds[ed.enchantment(e).kind] = c
    return _W(pos, ed, list(pos.mages),
              [{"at": g.at, "kind": g.kind, "awake": g.awake, "carried_by": g.carried_by, "moved": g.moved}
               for g in pos.gnomes],
              set(pos.springshrooms), pos.spent, pos.tokens, pos.springshroom_tokens, pos.sigil_tokens,
              list(pos.mage_used), dict(pos.rescued), set(pos.rescued_movers), conds=conds)


def settle(w: _W) -> None:
    """Wake every gnome whose enchantment holds, rescue awake gnomes on tunnels; until nothing changes."""
    changed = True
    while changed:
        changed = False
        w.index = None
        for i, g in enumerate(w.gnomes):
            if g["awake"]:
                continue
            cond = w.conds.get(str(g["kind"]))
            if cond is not None and holds(cond, w, i, g["at"], g["carried_by"] is not None):  # type: ignore[arg-type]
                g["awake"] = True
                w.index = None
                w.events.append(Event("wake", str(g["kind"]), g["at"]))  # type: ignore[arg-type]
                changed = True
        for i, g in enumerate(w.gnomes):
            if g["awake"] and g["at"] in w.pos.tunnel_set:
                _rescue(w, i)
                changed = True
                break


def _rescue(w: _W, i: int) -> None:
    g = w.gnomes.pop(i)
    kind = str(g["kind"])
    if g["moved"] is not None:
        w.movers_gone.add(kind)
    n = w.rescued.get(kind, 0)
    bonus = w.ed.running.bonus(kind, n)
    w.rescued[kind] = n + 1
    detail = f"track space {n + 1}, bonus: {bonus}"
    if bonus == "movement":
        if w.tokens < w.ed.movement_token_cap:
            w.tokens += 1
        else:
            detail += f" (lost: already {w.ed.movement_token_cap} tokens)"
    elif bonus == "springshroom":
        w.stok += 1
    elif bonus == "sigil":
        w.sig += 1
    w.events.append(Event("rescue", kind, g["at"], detail))  # type: ignore[arg-type]


def bounce_options(w: _W, start: Cell, mage: int | None, gnome: int | None) -> list[tuple[Cell, ...]]:
    """Every complete bounce chain for the character(s) on springshroom ``start`` (() when none is possible)."""
    sleeping_alone = gnome is not None and mage is None and not w.gnomes[gnome]["awake"]
    awake_alone = gnome is not None and mage is None and bool(w.gnomes[gnome]["awake"])
    out: list[tuple[Cell, ...]] = []

    def landings(cur: Cell, seen: set[Cell]) -> list[Cell]:
        res = []
        for dr, dc in ORTH:
            d = (cur[0] + dr, cur[1] + dc)
            if not (0 <= d[0] < w.rows and 0 <= d[1] < w.cols) or d in seen:
                continue
            if w.chars_at(d, skip_mage=mage, skip_gnome=gnome) and not (awake_alone and d in w.pos.tunnel_set):
                continue  # a character there (an awake gnome is rescued on an occupied tunnel: rulings)
            if sleeping_alone and d in w.pos.tunnel_set:
                continue
            res.append(d)
        return res

    def go(cur: Cell, seen: set[Cell], chain: tuple[Cell, ...]) -> None:
        opts = landings(cur, seen)
        if not opts:
            out.append(chain)
            return
        for d in opts:
            if d in w.shrooms:
                go(d, seen | {d}, chain + (d,))
            else:
                out.append(chain + (d,))

    go(start, {start}, ())
    return out


def _bounce(w: _W, cell: Cell, mage: int | None, gnome: int | None, chain: tuple[Cell, ...]) -> Cell:
    """Validate and perform a bounce chain from springshroom ``cell``; returns the final cell."""
    opts = bounce_options(w, cell, mage, gnome)
    if chain not in opts:
        if opts == [()]:
            msg = f"no bounce is possible from the springshroom at {cname(cell)} (the character stays)"
        else:
            shown = " or ".join("~" + "~".join(cname(c) for c in o) for o in opts[:6])
            msg = (f"the springshroom at {cname(cell)} bounces the character: write its landing(s), one of {shown}"
                   + (" ..." if len(opts) > 6 else ""))
        raise Illegal([("bounce", msg)])
    end = chain[-1] if chain else cell
    if mage is not None:
        w.mages[mage] = end
        c = w.carried_by(mage)
        if c is not None:
            w.gnomes[c]["at"] = end
    elif gnome is not None:
        w.gnomes[gnome]["at"] = end
    for step in chain:
        w.events.append(Event("bounce", cell=step))
    return end


def _charge(w: _W, what: str, used: int, cost: int, reasons: list[tuple[str, str]]) -> None:
    allowance = w.pos.points + w.spent
    if used + cost > allowance:
        reasons.append(("allowance", f"cost exceeds allowance: {what} has used {used} of {allowance} point(s) and "
                        f"this costs {cost}" + (" (spend a movement token first: T)" if w.tokens else "")))


def _transit_of(w: _W, mage: int | None, gnome: int | None) -> bool:
    if mage is not None:
        return bool(w.chars_at(w.mages[mage], skip_mage=mage))
    assert gnome is not None
    g = w.gnomes[gnome]
    return g["carried_by"] is None and bool(w.chars_at(g["at"], skip_gnome=gnome))  # type: ignore[arg-type]


def find_gnome(w: _W, kind: str, at: Cell, transit: tuple[str, int] | None = None) -> int | None:
    """The gnome an action names by kind and space; of two there, the one passing through (only it may act)."""
    cands = [i for i, g in enumerate(w.gnomes) if g["kind"] == kind and g["at"] == at]
    if transit is not None and transit[0] == "gnome" and transit[1] in cands:
        return transit[1]
    return cands[0] if cands else None


def apply_action(pos: RunPosition, ed: HedgeMageEdition, a: Action, continues: bool = False
                 ) -> tuple[RunPosition, list[Event]]:
    """Apply one action; raise :class:`Illegal` with every reason when it breaks a rule.

    ``continues``: the next character action of the plan is by the same character (so this
    action may end on an occupied space: the character is passing through).
    """
    w = _work(pos, ed)
    reasons: list[tuple[str, str]] = []
    tr = pos.transit
    transit: tuple[str, int] | None = None
    if a.kind == "token":
        if w.tokens <= 0:
            raise Illegal([("no-token", "no movement token to spend")])
        w.tokens -= 1
        w.spent += 1
        w.events.append(Event("token", detail=f"token spent: every allowance is now {pos.points + w.spent}"))
        return w.freeze(tr), w.events
    if a.kind == "shroom":
        (t,) = a.path
        if w.stok <= 0:
            reasons.append(("no-springshroom", "no springshroom token held"))
        if not (0 <= t[0] < w.rows and 0 <= t[1] < w.cols):
            raise Illegal(reasons + [("outside", f"{cname(t)} is outside the garden")])
        if t in pos.hedge:
            reasons.append(("not-ground", f"{cname(t)} is a hedge space, not ground"))
        if t in pos.tunnel_set:
            reasons.append(("tunnel", f"{cname(t)} is a tunnel space"))
        if t in w.shrooms:
            reasons.append(("springshroom-there", f"a springshroom already lies on {cname(t)}"))
        here_m = [i for i, m in enumerate(w.mages) if m == t]
        here_g = [i for i, g in enumerate(w.gnomes) if g["at"] == t and g["carried_by"] is None]
        if tr is not None and (here_m or here_g):
            reasons.append(("in-transit", "a character is passing through and must move on first"))
        if reasons:
            raise Illegal(reasons)
        w.stok -= 1
        w.shrooms.add(t)
        # a gnome passing through keeps passing through, though a rescue may renumber the gnomes
        passing = w.gnomes[tr[1]] if tr is not None and tr[0] == "gnome" else None
        if here_m:
            _bounce(w, t, here_m[0], None, a.bounces)
        elif here_g:
            _bounce(w, t, None, here_g[0], a.bounces)
        elif a.bounces:
            raise Illegal([("bounce", f"nobody stands on {cname(t)}: nothing bounces")])
        settle(w)
        if passing is not None:
            idx = next((i for i, g in enumerate(w.gnomes) if g is passing), None)
            return w.freeze(None if idx is None else ("gnome", idx)), w.events
        return w.freeze(tr), w.events
    # character actions
    m = a.mage
    if tr is not None:
        ok = False
        if tr[0] in ("mage", "mage-step") and m == tr[1]:
            ok = a.kind == "step" or (a.kind == "pickup" and tr[0] == "mage" and bool(a.path)
                                      and a.path[0] == pos.mages[m])
        elif tr[0] == "gnome" and m is None and a.kind == "step":
            g = pos.gnomes[tr[1]]
            ok = a.at == g.at and a.who == g.kind
        if not ok:
            who = f"mage {tr[1] + 1}" if tr[0] != "gnome" else f"the {pos.gnomes[tr[1]].kind} gnome"
            where = pos.mages[tr[1]] if tr[0] != "gnome" else pos.gnomes[tr[1]].at
            need = "step on" if tr[0] != "mage" else "step on or pick up the gnome there"
            first = [("occupied-end", f"occupied end space: {who} is on {cname(where)} with another "
                      f"character and must {need} first")]
            try:  # every reason: also what is wrong with the action itself
                apply_action(replace(pos, transit=None), ed, a, continues=True)
            except Illegal as exc:
                first += [r for r in exc.reasons if r[0] != "occupied-end" or "would end" not in r[1]]
            raise Illegal(first)
    if m is not None:
        if m >= len(w.mages) or m < 0:
            raise Illegal([("no-such-mage", f"there is no mage {a.who}")])
        if a.kind == "step":
            _mage_path(w, m, a, reasons)
            transit = ("mage", m) if _transit_of(w, m, None) else None
        elif a.kind == "pickup":
            _pickup(w, m, a.path[0], reasons, tr)
            transit = ("mage", m) if _transit_of(w, m, None) else None
        elif a.kind == "drop":
            transit = _drop(w, m, a.path[0], a.bounces, reasons)
        else:  # pragma: no cover - the parser only makes the kinds above
            raise Illegal([("unknown", f"unknown action {a.kind}")])
    else:
        if a.at is None:
            raise Illegal([("no-gnome", "a gnome action needs the gnome's space")])
        gi = find_gnome(w, a.who, a.at, tr)
        if gi is None:
            raise Illegal([("no-gnome", f"no {a.who} gnome on {cname(a.at)}")])
        gi = _gnome_path(w, gi, a, reasons)
        if gi is not None and _transit_of(w, None, gi):
            transit = ("gnome", gi)
    if transit is not None and not continues:
        if transit[0] == "gnome":
            where = w.gnomes[transit[1]]["at"]  # type: ignore[assignment]
            who = f"the {w.gnomes[transit[1]]['kind']} gnome"
        else:
            where, who = w.mages[transit[1]], f"mage {transit[1] + 1}"
        others = w.chars_at(where, skip_mage=transit[1] if transit[0] != "gnome" else None,  # type: ignore[arg-type]
                            skip_gnome=transit[1] if transit[0] == "gnome" else None)
        raise Illegal([("occupied-end", f"occupied end space: {who} would end on {cname(where)} "  # type: ignore[arg-type]
                        f"with {', '.join(others)}")])
    if transit is not None and transit[0] == "mage" and a.kind == "drop":
        transit = ("mage-step", m)  # type: ignore[assignment]
    return w.freeze(transit), w.events


def _mage_path(w: _W, m: int, a: Action, reasons: list[tuple[str, str]]) -> None:
    for k, to in enumerate(a.path):
        frm = w.mages[m]
        rs: list[tuple[str, str]] = []
        if not (0 <= to[0] < w.rows and 0 <= to[1] < w.cols):
            raise Illegal([("outside", f"{cname(to)} is outside the garden")])
        if not _adjacent(frm, to):
            rs.append(("not-orthogonal", f"{cname(frm)} to {cname(to)} is not one orthogonal step"))
        if frm not in w.pos.hedge and to in w.pos.hedge:
            rs.append(("low-to-high", f"low to high: mage {m + 1} cannot climb from the ground at {cname(frm)} "
                       f"onto the hedge at {cname(to)}"))
        _charge(w, f"mage {m + 1}", w.used[m], 1, rs)
        if rs:
            raise Illegal(rs)
        if k > 0 and w.mages[m] in w.shrooms:
            pass
        w.used[m] += 1
        w.mages[m] = to
        c = w.carried_by(m)
        if c is not None:
            w.gnomes[c]["at"] = to
        if to in w.shrooms:
            if k != len(a.path) - 1 and bounce_options(w, to, m, None) != [()]:
                raise Illegal([("bounce", f"the path enters the springshroom at {cname(to)}: the mage bounces "
                                "there, so the path must end at it (write the landing with ~)")])
            _bounce(w, to, m, None, a.bounces if k == len(a.path) - 1 else ())
        elif k == len(a.path) - 1 and a.bounces:
            raise Illegal([("bounce", f"no springshroom on {cname(to)}: nothing bounces")])
        settle(w)


def _gnome_path(w: _W, gi: int, a: Action, reasons: list[tuple[str, str]]) -> int | None:
    """Move a gnome along a path with its own points; returns its index afterwards (None: rescued)."""
    g = w.gnomes[gi]
    kind = str(g["kind"])
    if not g["awake"]:
        raise Illegal([("asleep", f"the {kind} gnome on {cname(g['at'])} is asleep and cannot move")])  # type: ignore[arg-type]
    if kind in w.movers_gone:
        raise Illegal([("second-gnome", f"second gnome of a kind: a {kind} gnome already moved itself this round "
                        "(and was rescued)")])
    for j, other in enumerate(w.gnomes):
        if j != gi and other["kind"] == kind and other["moved"] is not None:
            raise Illegal([("second-gnome", f"second gnome of a kind: a {kind} gnome (now on "
                            f"{cname(other['at'])}) already moved itself this round")])  # type: ignore[arg-type]
    for k, to in enumerate(a.path):
        g = w.gnomes[gi]
        frm: Cell = g["at"]  # type: ignore[assignment]
        rs: list[tuple[str, str]] = []
        if not (0 <= to[0] < w.rows and 0 <= to[1] < w.cols):
            raise Illegal([("outside", f"{cname(to)} is outside the garden")])
        if not _adjacent(frm, to):
            rs.append(("not-orthogonal", f"{cname(frm)} to {cname(to)} is not one orthogonal step"))
        onto = [i for i, mc in enumerate(w.mages) if mc == to and w.carried_by(i) is None]
        carrier = g["carried_by"]
        if not onto and carrier is None and frm not in w.pos.hedge and to in w.pos.hedge:
            rs.append(("low-to-high", f"low to high: the {kind} gnome cannot climb from the ground at {cname(frm)} "
                       f"onto the hedge at {cname(to)}"))
        _charge(w, f"the {kind} gnome", int(g["moved"] or 0), 1, rs)  # type: ignore[call-overload]
        if rs:
            raise Illegal(rs)
        g["moved"] = int(g["moved"] or 0) + 1  # type: ignore[call-overload]
        g["at"] = to
        g["carried_by"] = onto[0] if onto else None
        ident = g
        if to in w.shrooms and not onto:
            if k != len(a.path) - 1 and bounce_options(w, to, None, gi) != [()]:
                raise Illegal([("bounce", f"the path enters the springshroom at {cname(to)}: the gnome bounces "
                                "there, so the path must end at it (write the landing with ~)")])
            _bounce(w, to, None, gi, a.bounces if k == len(a.path) - 1 else ())
        elif k == len(a.path) - 1 and a.bounces:
            raise Illegal([("bounce", f"no springshroom on {cname(to)}: nothing bounces")])
        settle(w)
        idx = next((i for i, x in enumerate(w.gnomes) if x is ident), None)
        if idx is None:
            if k != len(a.path) - 1:
                raise Illegal([("rescued", f"the {kind} gnome was rescued at {cname(to)}; the path goes on")])
            return None
        gi = idx
    return gi


def _pickup(w: _W, m: int, t: Cell, reasons: list[tuple[str, str]], tr: tuple[str, int] | None) -> None:
    mc = w.mages[m]
    rs: list[tuple[str, str]] = []
    if w.carried_by(m) is not None:
        rs.append(("carrying-two", f"carrying two: mage {m + 1} already carries a gnome"))
    cands = [i for i, g in enumerate(w.gnomes) if g["at"] == t and g["carried_by"] is None]
    other = [i for i, g in enumerate(w.gnomes) if g["at"] == t and g["carried_by"] is not None
             and g["carried_by"] != m]
    cost = 0 if t == mc else 1
    if not cands:
        if other:
            rs.append(("carried", f"the gnome on {cname(t)} is carried by the other mage"))
        else:
            rs.append(("no-gnome", f"no gnome to pick up on {cname(t)}"))
    if t != mc and not _adjacent(t, mc):
        rs.append(("not-adjacent", f"{cname(t)} is neither mage {m + 1}'s space nor adjacent to it"))
    elif t != mc and mc in w.pos.hedge and t not in w.pos.hedge:
        rs.append(("too-far-down", f"too far down: mage {m + 1} on the hedge at {cname(mc)} cannot reach the "
                   f"ground at {cname(t)}"))
    _charge(w, f"mage {m + 1}", w.used[m], cost, rs)
    if rs:
        raise Illegal(rs)
    gi = cands[0]
    w.used[m] += cost
    w.gnomes[gi]["carried_by"] = m
    w.gnomes[gi]["at"] = mc
    settle(w)


def _drop(w: _W, m: int, t: Cell, bounces: tuple[Cell, ...], reasons: list[tuple[str, str]]
          ) -> tuple[str, int] | None:
    mc = w.mages[m]
    rs: list[tuple[str, str]] = []
    gi = w.carried_by(m)
    cost = 0 if t == mc else 1
    if gi is None:
        rs.append(("not-carrying", f"mage {m + 1} carries no gnome"))
    if not (0 <= t[0] < w.rows and 0 <= t[1] < w.cols):
        raise Illegal(rs + [("outside", f"{cname(t)} is outside the garden")])
    if t != mc and not _adjacent(t, mc):
        rs.append(("not-adjacent", f"{cname(t)} is neither mage {m + 1}'s space nor adjacent to it"))
    elif t != mc and mc in w.pos.hedge and t not in w.pos.hedge:
        rs.append(("too-far-down", f"too far down: mage {m + 1} on the hedge at {cname(mc)} cannot drop onto the "
                   f"ground at {cname(t)}"))
    awake_into_tunnel = gi is not None and bool(w.gnomes[gi]["awake"]) and t in w.pos.tunnel_set
    if t != mc and not awake_into_tunnel:  # a character on a tunnel does not block a rescue (rulings)
        occ = w.chars_at(t, skip_mage=m)
        if occ:
            rs.append(("occupied-end", f"occupied end space: {', '.join(occ)} on {cname(t)}"))
    if gi is not None and not w.gnomes[gi]["awake"] and t in w.pos.tunnel_set:
        rs.append(("sleeping-tunnel", f"a sleeping gnome cannot be dropped into the tunnel at {cname(t)}"))
    _charge(w, f"mage {m + 1}", w.used[m], cost, rs)
    if rs:
        raise Illegal(rs)
    assert gi is not None
    w.used[m] += cost
    g = w.gnomes[gi]
    g["carried_by"] = None
    g["at"] = t
    if t in w.shrooms:
        _bounce(w, t, None, gi, bounces)
    elif bounces:
        raise Illegal([("bounce", f"no springshroom on {cname(t)}: nothing bounces")])
    settle(w)
    if t == mc and any(x is g for x in w.gnomes) and g["at"] == mc:
        return ("mage", m)
    return None


# ---------------------------------------------------------------------------------------------
# Plans


@dataclass
class StepReport:
    """One executed action: what it was and what happened."""

    index: int
    action: Action
    events: list[Event]
    position: RunPosition


@dataclass
class PlanReport:
    """The result of executing a plan: legal up to ``failed`` (None: all legal)."""

    start: RunPosition
    steps: list[StepReport]
    final: RunPosition
    failed: int | None = None  # index of the first illegal action (len(plan): the plan's end)
    reasons: list[tuple[str, str]] = field(default_factory=list)
    failed_action: str = ""  # the illegal action as written (filled in by the caller)

    @property
    def legal(self) -> bool:
        return self.failed is None


def is_character_action(a: Action) -> bool:
    return a.kind in ("step", "pickup", "drop")


def execute_plan(pos: RunPosition, ed: HedgeMageEdition, plan: Iterable[Action]) -> PlanReport:
    """Run a plan from ``pos``; stop at the first illegal action with every reason."""
    actions = list(plan)
    cur = pos
    steps: list[StepReport] = []
    for i, a in enumerate(actions):
        # a character may end an action on an occupied space when another character action follows:
        # if that one is not its own, the later action is the illegal one (it breaks the transit)
        nxt = next((b for b in actions[i + 1:] if is_character_action(b)), None)
        cont = nxt is not None
        try:
            cur2, events = apply_action(cur, ed, a, continues=cont)
        except Illegal as exc:
            return PlanReport(pos, steps, cur, i, exc.reasons)
        cur = cur2
        steps.append(StepReport(i, a, events, cur))
    if cur.transit is not None:
        kind, i = cur.transit
        who = f"mage {i + 1}" if kind != "gnome" else f"the {cur.gnomes[i].kind} gnome"
        return PlanReport(pos, steps, cur, len(actions),
                          [("occupied-end", f"occupied end space: the plan ends with {who} sharing a space")])
    return PlanReport(pos, steps, cur)


def running_score(pos: RunPosition, ed: HedgeMageEdition) -> int:
    """The running player's final-scoring terms this round can change: tracks + awake rival gnomes."""
    rules = ed.running
    tracks = sum(rules.track_points(k, n) for k, n in pos.rescued)
    return tracks + rules.awake_rival_points * sum(1 for g in pos.gnomes if g.awake)


def start_round(pos: RunPosition, points: int) -> RunPosition:
    """The position at the start of a round's running phase: new points, nothing used or moved."""
    gnomes = tuple(replace(g, moved=None) for g in pos.gnomes)
    return replace(pos, points=points, spent=0, mage_used=(0,) * len(pos.mages), gnomes=gnomes, transit=None,
                   rescued_movers=())


def board_of(g: Garden) -> Garden:
    """The static part of a garden for running: hedges, bonus sigils, tunnels (no building state)."""
    return replace(g, gnomes=(), mages=(), springshrooms=(), tile=None, remaining_tiles=(), substitution_used=False,
                   kept_tile=None, held_bonus_sigils=0)


def run_position_from_garden(g: Garden, ed: HedgeMageEdition, enchantments: tuple[str, ...], points: int,
                             tokens: int | None = None, springshroom_tokens: int | None = None) -> RunPosition:
    """A running position from a building-phase garden (the rival's): its characters, settled."""
    board = board_of(g)
    mages = tuple(m.at for m in g.mages)
    # a gnome on a mage's space stands on that mage: it is carried (rulings); the first one per mage
    gnome_list: list[RGnome] = []
    carrying: set[int] = set()
    for x in sorted(g.gnomes, key=lambda x: (x.at, x.kind, x.awake)):
        carrier = next((i for i, mc in enumerate(mages) if mc == x.at and i not in carrying), None)
        if carrier is not None:
            carrying.add(carrier)
        gnome_list.append(RGnome(x.at, x.kind, x.awake, carrier))
    gnomes = tuple(gnome_list)
    pos = RunPosition(board=board, enchantments=enchantments, mages=mages, gnomes=gnomes, points=points,
                      springshrooms=g.springshrooms,
                      tokens=ed.start_movement_tokens if tokens is None else tokens,
                      springshroom_tokens=ed.start_springshrooms if springshroom_tokens is None
                      else springshroom_tokens, round=g.round)
    w = _work(pos, ed)
    settle(w)
    return w.freeze(None)


def settle_position(pos: RunPosition, ed: HedgeMageEdition) -> tuple[RunPosition, list[Event]]:
    """Wake (and rescue) whatever the rules say should already have happened in ``pos``."""
    w = _work(pos, ed)
    settle(w)
    return w.freeze(pos.transit), w.events
