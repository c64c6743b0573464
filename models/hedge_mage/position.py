"""The Hedge Mage garden: an immutable value describing one player's garden.

A garden holds the hedges placed so far (which tile, which cells, its sigil),
bonus sigil tokens lying on hedges, tunnels, gnomes, the invading mages,
springshrooms, and the owner's building state (revealed tile, remaining tiles,
2x1 substitution, held bonus sigil tokens, round).  ``problems()`` says whether
the garden is well formed and returns every problem at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from gnomekit.models.core.grid import Cell, all_cells, orthogonal_neighbours, windows_2x2
from gnomekit.models.hedge_mage.edition import HedgeMageEdition


@dataclass(frozen=True, order=True)
class Hedge:
    """A placed hedge tile: tile name, its sorted cells and its sigil cell."""

    tile: str
    cells: tuple[Cell, ...]
    sigil: Cell

    def to_json(self) -> dict[str, object]:
        return {"tile": self.tile, "cells": [list(c) for c in self.cells], "sigil": list(self.sigil)}


@dataclass(frozen=True, order=True)
class Gnome:
    kind: str
    at: Cell
    awake: bool = False

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "at": list(self.at), "awake": self.awake}


@dataclass(frozen=True, order=True)
class Mage:
    at: Cell
    owner: str | None = None

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"at": list(self.at)}
        if self.owner is not None:
            d["owner"] = self.owner
        return d


@dataclass(frozen=True)
class Problem:
    """One way a garden is not well formed, with what it is about (for located messages).

    ``field`` is the JSON key (``hedges``, ``bonus_sigils``, ``gnomes``, ...), ``index`` the
    position in that list where it is meaningful (hedges keep their input order), ``key`` the
    key inside a list entry (``cells``, ``sigil``, ``tile``, ``at``, ``kind``) and ``cell`` the
    cell involved.
    """

    message: str
    field: str
    index: int | None = None
    key: str | None = None
    cell: Cell | None = None


@dataclass(frozen=True)
class Garden:
    """One garden in the building phase (immutable; use ``with_`` helpers to change)."""

    rows: int
    cols: int
    hedges: tuple[Hedge, ...] = ()
    bonus_sigils: tuple[Cell, ...] = ()
    tunnels: tuple[Cell, ...] = ()
    gnomes: tuple[Gnome, ...] = ()
    mages: tuple[Mage, ...] = ()
    springshrooms: tuple[Cell, ...] = ()
    tile: str | None = None
    remaining_tiles: tuple[str, ...] = ()
    substitution_used: bool = False
    kept_tile: str | None = None
    held_bonus_sigils: int = 0
    round: int = 1
    edition: str = "default"

    def __post_init__(self) -> None:
        # Canonical order for everything but hedges (whose order names them a, b, c, ...),
        # so that a garden equals itself read back from either notation.
        object.__setattr__(self, "bonus_sigils", tuple(sorted(self.bonus_sigils)))
        object.__setattr__(self, "tunnels", tuple(sorted(self.tunnels)))
        object.__setattr__(self, "springshrooms", tuple(sorted(self.springshrooms)))
        object.__setattr__(self, "gnomes", tuple(sorted(self.gnomes, key=lambda g: (g.at, g.kind, g.awake))))
        object.__setattr__(self, "mages", tuple(sorted(self.mages, key=lambda m: (m.at, m.owner or ""))))

    # -- derived views ------------------------------------------------------------------------
    @cached_property
    def hedge_at(self) -> dict[Cell, int]:
        """Map from hedge cell to the index of its hedge in ``hedges``."""
        out: dict[Cell, int] = {}
        for i, h in enumerate(self.hedges):
            for c in h.cells:
                out.setdefault(c, i)
        return out

    @cached_property
    def hedge_cells(self) -> frozenset[Cell]:
        return frozenset(self.hedge_at)

    @cached_property
    def sigils(self) -> tuple[Cell, ...]:
        """Every sigil on the board: tile sigils and bonus sigil tokens (distinct cells)."""
        seen: dict[Cell, None] = {}
        for h in self.hedges:
            seen.setdefault(h.sigil)
        for b in self.bonus_sigils:
            seen.setdefault(b)
        return tuple(seen)

    @cached_property
    def occupants(self) -> dict[Cell, list[str]]:
        """What lies on each cell besides hedges: tunnel, gnome, mage, springshroom."""
        out: dict[Cell, list[str]] = {}
        for t in self.tunnels:
            out.setdefault(t, []).append("tunnel")
        for s in self.springshrooms:
            out.setdefault(s, []).append("springshroom")
        for m in self.mages:
            out.setdefault(m.at, []).append("mage")
        for g in self.gnomes:
            out.setdefault(g.at, []).append(f"{g.kind} gnome")
        return out

    def ground_cells(self) -> set[Cell]:
        """Every cell that is not hedge."""
        return {c for c in all_cells(self.rows, self.cols) if c not in self.hedge_at}

    def in_bounds(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    # -- well-formedness ------------------------------------------------------------------------
    def problems(self, edition: HedgeMageEdition | None = None) -> list[str]:
        """Every way this garden is not well formed (empty list when it is fine)."""
        return [p.message for p in self.problem_list(edition)]

    def problem_list(self, edition: HedgeMageEdition | None = None) -> list[Problem]:
        """Like :meth:`problems`, each with the field and cell involved (so readers can locate it)."""
        out: list[Problem] = []
        if self.rows < 1 or self.cols < 1:
            return [Problem(f"garden size {self.rows}x{self.cols} is not positive", "rows")]

        def bad(cell: Cell) -> bool:
            return not self.in_bounds(cell)

        seen: dict[Cell, int] = {}
        for i, h in enumerate(self.hedges):
            if edition is not None and h.tile not in edition.tiles:
                out.append(Problem(f"hedges[{i}]: unknown tile {h.tile!r}", "hedges", i, "tile"))
            for c in h.cells:
                if bad(c):
                    out.append(Problem(f"hedges[{i}] ({h.tile}): cell {c[0]},{c[1]} is outside the garden",
                                       "hedges", i, "cells", c))
                if c in seen:
                    out.append(Problem(
                        f"hedges[{i}] ({h.tile}): cell {c[0]},{c[1]} is also in hedges[{seen[c]}]",
                        "hedges", i, "cells", c))
                seen.setdefault(c, i)
            if h.sigil not in h.cells:
                out.append(Problem(
                    f"hedges[{i}] ({h.tile}): sigil {h.sigil[0]},{h.sigil[1]} is not one of its cells",
                    "hedges", i, "sigil", h.sigil))
            elif edition is not None and h.tile in edition.tiles:
                tile = edition.tiles[h.tile]
                sr, sc = h.sigil
                offs = tuple(sorted((r - sr, c - sc) for r, c in h.cells))
                if all(o.offsets != offs for o in tile.orientations):
                    out.append(Problem(
                        f"hedges[{i}]: cells and sigil do not match tile {h.tile} in any orientation",
                        "hedges", i, "sigil", h.sigil))
        sig_cells = {h.sigil for h in self.hedges}
        for b in self.bonus_sigils:
            if b not in self.hedge_at:
                out.append(Problem(f"bonus sigil at {b[0]},{b[1]} is not on a hedge", "bonus_sigils", cell=b))
            elif b in sig_cells:
                out.append(Problem(f"bonus sigil at {b[0]},{b[1]} lies on a tile's sigil cell", "bonus_sigils",
                                   cell=b))
        for name, field_, cells in (("bonus sigil", "bonus_sigils", self.bonus_sigils),
                                    ("tunnel", "tunnels", self.tunnels),
                                    ("springshroom", "springshrooms", self.springshrooms)):
            if field_ != "bonus_sigils":
                for c in cells:
                    if bad(c):
                        out.append(Problem(f"{name} at {c[0]},{c[1]} is outside the garden", field_, cell=c))
                    elif c in self.hedge_at:
                        out.append(Problem(f"{name} at {c[0]},{c[1]} is under a hedge", field_, cell=c))
            for c in sorted({c for c in cells if cells.count(c) > 1}):
                out.append(Problem(f"two {name}s on the same cell {c[0]},{c[1]}", field_, cell=c))
        for g in self.gnomes:
            if bad(g.at):
                out.append(Problem(f"{g.kind} gnome at {g.at[0]},{g.at[1]} is outside the garden", "gnomes",
                                   key="at", cell=g.at))
            if edition is not None and g.kind not in edition.gnome_kinds:
                out.append(Problem(f"gnome at {g.at[0]},{g.at[1]}: unknown kind {g.kind!r}", "gnomes",
                                   key="kind", cell=g.at))
        for m in self.mages:
            if bad(m.at):
                out.append(Problem(f"mage at {m.at[0]},{m.at[1]} is outside the garden", "mages", key="at",
                                   cell=m.at))
        for what, items in (("gnomes", [g.at for g in self.gnomes]), ("mages", [m.at for m in self.mages])):
            for c in sorted({c for c in items if items.count(c) > 1}):
                out.append(Problem(f"two {what} on {c[0]},{c[1]}", what, key="at", cell=c))
        if edition is not None:
            if self.tile is not None and self.tile not in edition.tiles:
                out.append(Problem(f"revealed tile {self.tile!r} is not in the edition", "tile"))
            for i, t in enumerate(self.remaining_tiles):
                if t not in edition.tiles:
                    out.append(Problem(f"remaining tile {t!r} is not in the edition", "remaining_tiles", i))
            if self.kept_tile is not None and self.kept_tile not in edition.tiles:
                out.append(Problem(f"kept tile {self.kept_tile!r} is not in the edition", "kept_tile"))
        if self.kept_tile is not None and not self.substitution_used:
            out.append(Problem(f"kept tile {self.kept_tile!r} is given but the substitution is unused",
                               "kept_tile"))
        if self.held_bonus_sigils < 0:
            out.append(Problem("held bonus sigil tokens cannot be negative", "held_bonus_sigils"))
        return out

    def warnings(self) -> list[str]:
        """Rule states that no legal play reaches (not parse errors): 2x2 hedge, cut-off ground."""
        out: list[str] = []
        hc = self.hedge_cells
        for w in windows_2x2(self.rows, self.cols):
            if all(c in hc for c in w):
                out.append(f"2x2 window at {w[0][0]},{w[0][1]} is all hedge")
        comps = ground_components(self.rows, self.cols, hc)
        if len(comps) > 1:
            out.append(f"the ground is split into {len(comps)} regions")
        return out

    # -- changes --------------------------------------------------------------------------------
    def with_hedge(self, hedge: Hedge, tokens: Iterable[Cell] = ()) -> Garden:
        """This garden with one more hedge (no legality check; see placement.py)."""
        return replace(
            self,
            hedges=self.hedges + (hedge,),
            bonus_sigils=self.bonus_sigils + tuple(tokens),
        )


def ground_components(rows: int, cols: int, hedge: frozenset[Cell] | set[Cell]) -> list[list[Cell]]:
    """Orthogonally connected regions of non-hedge cells, largest first (ties: earliest cell)."""
    seen: set[Cell] = set()
    comps: list[list[Cell]] = []
    for start in all_cells(rows, cols):
        if start in hedge or start in seen:
            continue
        comp = [start]
        seen.add(start)
        stack = [start]
        while stack:
            cur = stack.pop()
            for n in orthogonal_neighbours(cur, rows, cols):
                if n not in hedge and n not in seen:
                    seen.add(n)
                    comp.append(n)
                    stack.append(n)
        comps.append(sorted(comp))
    comps.sort(key=lambda c: (-len(c), c[0]))
    return comps
