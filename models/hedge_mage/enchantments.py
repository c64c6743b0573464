"""Enchantment conditions: a small predicate vocabulary over a running position.

An enchantment card says when a sleeping gnome of its kind wakes.  Editions
write the condition as data (TOML inline tables), built from these forms:

``{ all = [C, ...] }``, ``{ any = [C, ...] }``, ``{ not = C }``
    combinators.
``{ on = "ground" | "hedge" }``
    the height of the gnome's space (a carried gnome is at its mage's space).
``{ carried = true | false }``
    whether a mage carries the gnome.
``{ edge = true | false }``
    whether the gnome's space is on the outer edge of the garden.
``{ count = WHAT, scope = SCOPE, at_least = N, at_most = N, kind = K | [K, ...], awake = B }``
    counts things around the gnome.  WHAT is one of ``hedge``, ``ground``, ``tunnel``,
    ``springshroom``, ``mage``, ``gnome``; SCOPE is ``adjacent`` (the up to 4 orthogonal
    neighbours), ``row``, ``column``, ``line`` (row and column) - the gnome's own space
    excluded - or ``same`` (the gnome's own space only).  ``kind`` and ``awake`` filter
    gnomes; the gnome itself is never counted.  Without bounds, ``at_least = 1``.

Evaluation works on a :class:`View`, a read-only picture of the board (hedge
cells, tunnels, springshrooms, mages, where every gnome stands), so the rules
engine and the solvers share one meaning of every card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from gnomekit.models.core.grid import Cell

WHATS = ("hedge", "ground", "tunnel", "springshroom", "mage", "gnome")
SCOPES = ("adjacent", "row", "column", "line", "same")


class View(Protocol):
    """What a condition may look at."""

    rows: int
    cols: int

    def is_hedge(self, cell: Cell) -> bool: ...
    def is_tunnel(self, cell: Cell) -> bool: ...
    def has_springshroom(self, cell: Cell) -> bool: ...
    def mage_count(self, cell: Cell) -> int: ...
    def gnomes_at(self, cell: Cell) -> Iterable[tuple[int, str, bool]]: ...  # (id, kind, awake)


@dataclass(frozen=True)
class Cond:
    """A parsed condition (a tree of nodes)."""

    op: str  # all any not on carried edge count
    args: tuple[Cond, ...] = ()
    value: Any = None  # on: "ground"/"hedge"; carried/edge: bool
    what: str = ""
    scope: str = ""
    at_least: int | None = None
    at_most: int | None = None
    kinds: tuple[str, ...] | None = None
    awake: bool | None = None

    def mentions(self, what: str) -> bool:
        """Whether a ``count`` of ``what`` occurs anywhere in the condition."""
        if self.op == "count":
            return self.what == what
        return any(a.mentions(what) for a in self.args)

    def to_data(self) -> dict[str, Any]:
        """The condition as data (the same shape as the edition's TOML)."""
        if self.op in ("all", "any"):
            return {self.op: [a.to_data() for a in self.args]}
        if self.op == "not":
            return {"not": self.args[0].to_data()}
        if self.op in ("on", "carried", "edge"):
            return {self.op: self.value}
        d: dict[str, Any] = {"count": self.what, "scope": self.scope}
        if self.at_least is not None:
            d["at_least"] = self.at_least
        if self.at_most is not None:
            d["at_most"] = self.at_most
        if self.kinds is not None:
            d["kind"] = list(self.kinds) if len(self.kinds) != 1 else self.kinds[0]
        if self.awake is not None:
            d["awake"] = self.awake
        return d


def parse_condition(data: Any, kinds: Iterable[str], where: str = "condition") -> tuple[Cond | None, list[str]]:
    """Parse condition data; returns the condition (None on error) and every problem found."""
    problems: list[str] = []
    known = tuple(kinds)

    def go(d: Any, path: str) -> Cond | None:
        if not isinstance(d, dict) or not d:
            problems.append(f"{path}: expected a table like {{ on = \"hedge\" }}, got {d!r}")
            return None
        ops = [k for k in ("all", "any", "not", "on", "carried", "edge", "count") if k in d]
        if len(ops) != 1:
            problems.append(f"{path}: expected exactly one of all/any/not/on/carried/edge/count, got {sorted(d)}")
            return None
        op = ops[0]
        if op in ("all", "any"):
            if set(d) != {op} or not isinstance(d[op], list) or not d[op]:
                problems.append(f"{path}: '{op}' needs a non-empty list of conditions and nothing else")
                return None
            parts = [go(x, f"{path}.{op}[{i}]") for i, x in enumerate(d[op])]
            if any(p is None for p in parts):
                return None
            return Cond(op, tuple(p for p in parts if p is not None))
        if op == "not":
            inner = go(d["not"], f"{path}.not") if set(d) == {"not"} else None
            if set(d) != {"not"}:
                problems.append(f"{path}: 'not' takes one condition and nothing else")
            return Cond("not", (inner,)) if inner is not None else None
        if op == "on":
            if set(d) != {"on"} or d["on"] not in ("ground", "hedge"):
                problems.append(f"{path}: 'on' must be \"ground\" or \"hedge\", got {d.get('on')!r}")
                return None
            return Cond("on", value=d["on"])
        if op in ("carried", "edge"):
            if set(d) != {op} or not isinstance(d[op], bool):
                problems.append(f"{path}: '{op}' must be true or false, got {d.get(op)!r}")
                return None
            return Cond(op, value=d[op])
        extra = set(d) - {"count", "scope", "at_least", "at_most", "kind", "awake"}
        if extra:
            problems.append(f"{path}: unknown key(s) {sorted(extra)} in a count")
            return None
        what, scope = d["count"], d.get("scope", "adjacent")
        if what not in WHATS:
            problems.append(f"{path}: count must be one of {', '.join(WHATS)}, got {what!r}")
            return None
        if scope not in SCOPES:
            problems.append(f"{path}: scope must be one of {', '.join(SCOPES)}, got {scope!r}")
            return None
        bounds: dict[str, int | None] = {}
        for k in ("at_least", "at_most"):
            v = d.get(k)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                problems.append(f"{path}: {k} must be a whole number >= 0, got {v!r}")
                return None
            bounds[k] = v
        if bounds["at_least"] is None and bounds["at_most"] is None:
            bounds["at_least"] = 1
        ks = d.get("kind")
        kinds_t: tuple[str, ...] | None = None
        if ks is not None:
            lst = [ks] if isinstance(ks, str) else ks
            if not isinstance(lst, list) or not lst or any(k not in known for k in lst):
                problems.append(f"{path}: kind must be a gnome kind or a list of them ({', '.join(known)}), "
                                f"got {ks!r}")
                return None
            if what != "gnome":
                problems.append(f"{path}: kind only filters gnomes")
                return None
            kinds_t = tuple(lst)
        aw = d.get("awake")
        if aw is not None and (not isinstance(aw, bool) or what != "gnome"):
            problems.append(f"{path}: awake must be true or false and only filters gnomes")
            return None
        return Cond("count", what=what, scope=scope, at_least=bounds["at_least"], at_most=bounds["at_most"],
                    kinds=kinds_t, awake=aw)

    c = go(data, where)
    return (c if not problems else None), problems


def scope_cells(scope: str, cell: Cell, rows: int, cols: int) -> list[Cell]:
    """The spaces a ``count`` in ``scope`` looks at from ``cell`` (the cell itself only for ``same``)."""
    r, c = cell
    if scope == "same":
        return [cell]
    if scope == "adjacent":
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols]
    out: list[Cell] = []
    if scope in ("row", "line"):
        out += [(r, x) for x in range(cols) if x != c]
    if scope in ("column", "line"):
        out += [(y, c) for y in range(rows) if y != r]
    return out


def scope_indices(scope: str, i: int, rows: int, cols: int) -> list[int]:
    """:func:`scope_cells` on cell indices ``row * cols + col`` (the solvers' compact boards)."""
    return [r * cols + c for r, c in scope_cells(scope, divmod(i, cols), rows, cols)]


def holds(cond: Cond, view: View, gnome: int, cell: Cell, carried: bool) -> bool:
    """Whether ``cond`` holds for gnome number ``gnome`` standing at ``cell``."""
    op = cond.op
    if op == "all":
        return all(holds(a, view, gnome, cell, carried) for a in cond.args)
    if op == "any":
        return any(holds(a, view, gnome, cell, carried) for a in cond.args)
    if op == "not":
        return not holds(cond.args[0], view, gnome, cell, carried)
    if op == "on":
        return view.is_hedge(cell) == (cond.value == "hedge")
    if op == "carried":
        return carried == cond.value
    if op == "edge":
        on_edge = cell[0] in (0, view.rows - 1) or cell[1] in (0, view.cols - 1)
        return on_edge == cond.value
    n = 0
    for x in scope_cells(cond.scope, cell, view.rows, view.cols):
        w = cond.what
        if w == "hedge":
            n += view.is_hedge(x)
        elif w == "ground":
            n += not view.is_hedge(x)
        elif w == "tunnel":
            n += view.is_tunnel(x)
        elif w == "springshroom":
            n += view.has_springshroom(x)
        elif w == "mage":
            n += view.mage_count(x)
        else:
            for gid, kind, awake in view.gnomes_at(x):
                if gid == gnome:
                    continue
                if cond.kinds is not None and kind not in cond.kinds:
                    continue
                if cond.awake is not None and awake != cond.awake:
                    continue
                n += 1
    if cond.at_least is not None and n < cond.at_least:
        return False
    return not (cond.at_most is not None and n > cond.at_most)


def describe(cond: Cond) -> str:
    """The condition in words (for hints and documentation)."""
    op = cond.op
    if op == "all":
        return " and ".join(describe(a) for a in cond.args)
    if op == "any":
        return "(" + " or ".join(describe(a) for a in cond.args) + ")"
    if op == "not":
        return "not " + describe(cond.args[0])
    if op == "on":
        return f"on a {cond.value} space"
    if op == "carried":
        return "carried by a mage" if cond.value else "not carried"
    if op == "edge":
        return "on the garden's edge" if cond.value else "not on the garden's edge"
    bound = []
    if cond.at_least is not None:
        bound.append(f"at least {cond.at_least}")
    if cond.at_most is not None:
        bound.append(f"at most {cond.at_most}")
    thing = cond.what
    if cond.what == "gnome":
        thing = ("awake " if cond.awake else "sleeping " if cond.awake is False else "") + \
            ("/".join(cond.kinds) + " " if cond.kinds else "") + "gnome"
    where = {"adjacent": "orthogonally adjacent", "row": "in its row", "column": "in its column",
             "line": "in its row or column", "same": "on its space"}[cond.scope]
    return f"{' and '.join(bound)} {thing} space(s)/piece(s) {where}"
