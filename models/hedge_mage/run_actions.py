"""The candidate running actions of a position: the rules' own move generator.

:func:`unit_actions` lists the unit actions (one step, a pick-up, a drop, a springshroom placed,
each with its bounce choices) that may be legal next; :func:`apply_action` decides.  The exact
running search (solver/hedge_mage/running.py) and the protocol's ``legal_moves``
(models/hedge_mage/game.py) both build on it, so they see the same moves.
"""

from __future__ import annotations

from collections.abc import Iterator

from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.running import ORTH, Action, RunPosition, _work, bounce_options


def _inside(pos: RunPosition, c: Cell) -> bool:
    return 0 <= c[0] < pos.rows and 0 <= c[1] < pos.cols


def _nbrs(pos: RunPosition, c: Cell) -> Iterator[Cell]:
    for dr, dc in ORTH:
        d = (c[0] + dr, c[1] + dc)
        if _inside(pos, d):
            yield d


def _bounces_after(pos: RunPosition, ed: HedgeMageEdition, cell: Cell, mage: int | None, gnome: int | None,
                   move_to: Cell) -> list[tuple[Cell, ...]]:
    """Bounce chains for a character arriving on springshroom ``cell`` (simulated arrival)."""
    w = _work(pos, ed)
    if mage is not None:
        w.mages[mage] = move_to
        c = w.carried_by(mage)
        if c is not None:
            w.gnomes[c]["at"] = move_to
    elif gnome is not None:
        w.gnomes[gnome]["at"] = move_to
        w.gnomes[gnome]["carried_by"] = None
    return bounce_options(w, cell, mage, gnome)


def _general_placements(pos: RunPosition, ed: HedgeMageEdition) -> bool:
    """Whether springshroom placements must be tried everywhere (a card in play counts springshrooms)."""
    return any(ed.running.conditions[e].mentions("springshroom") for e in pos.enchantments
               if e in ed.running.conditions)


def unit_actions(pos: RunPosition, ed: HedgeMageEdition, relevant_only: bool = True) -> Iterator[Action]:
    """Candidate unit actions (not yet checked for legality; apply_action decides).

    Springshroom placements come in three modes: everywhere (``relevant_only`` False or a card
    counts springshrooms); next to characters and springshrooms (two or more tokens held);
    or, with one token, only beneath a character here and as part of an entering move
    (see :func:`successors`).
    """
    tr = pos.transit
    shrooms = set(pos.springshrooms)
    if pos.springshroom_tokens > 0:
        occupied = set(pos.mages) | {g.at for g in pos.gnomes}
        if not relevant_only or _general_placements(pos, ed):
            cands = {(r, c) for r in range(pos.rows) for c in range(pos.cols)}
        elif pos.springshroom_tokens >= 2:
            cands = set(occupied)
            for c in list(occupied) + list(shrooms):
                cands.update(_nbrs(pos, c))
        else:
            cands = set(occupied)
        for t in sorted(cands):
            if t in pos.hedge or t in pos.tunnel_set or t in shrooms:
                continue
            here_m = [i for i, m in enumerate(pos.mages) if m == t]
            here_g = [i for i, g in enumerate(pos.gnomes) if g.at == t and g.carried_by is None]
            if here_m or here_g:
                if tr is not None:
                    continue
                w = _work(pos, ed)
                w.shrooms.add(t)
                chains = bounce_options(w, t, here_m[0] if here_m else None, None if here_m else here_g[0])
            else:
                chains = [()]
            for ch in chains:
                yield Action("shroom", path=(t,), bounces=ch)
    for m, mc in enumerate(pos.mages):
        if tr is not None and not (tr[0] in ("mage", "mage-step") and tr[1] == m):
            continue
        carried = pos.carried(m)
        for to in _nbrs(pos, mc):
            if to in shrooms:
                for ch in _bounces_after(pos, ed, to, m, None, to):
                    yield Action("step", f"M{m + 1}", path=(to,), bounces=ch)
            else:
                yield Action("step", f"M{m + 1}", path=(to,))
        if tr is not None and tr[0] == "mage-step":
            continue
        if carried is None:
            for t in [mc, *_nbrs(pos, mc)]:
                if any(g.at == t and g.carried_by is None for g in pos.gnomes):
                    yield Action("pickup", f"M{m + 1}", path=(t,))
        elif tr is None:
            for t in [mc, *_nbrs(pos, mc)]:
                if t in shrooms:
                    for ch in _bounces_after(pos, ed, t, None, carried, t):
                        yield Action("drop", f"M{m + 1}", path=(t,), bounces=ch)
                else:
                    yield Action("drop", f"M{m + 1}", path=(t,))
    moved_kinds = {g.kind for g in pos.gnomes if g.moved is not None} | set(pos.rescued_movers)
    for i, g in enumerate(pos.gnomes):
        if not g.awake:
            continue
        if tr is not None and not (tr[0] == "gnome" and tr[1] == i):
            continue
        if g.kind in moved_kinds and g.moved is None:
            continue
        for to in _nbrs(pos, g.at):
            onto = any(mc == to and pos.carried(j) is None for j, mc in enumerate(pos.mages))
            if to in shrooms and not onto:
                for ch in _bounces_after(pos, ed, to, None, i, to):
                    yield Action("step", g.kind, at=g.at, path=(to,), bounces=ch)
            else:
                yield Action("step", g.kind, at=g.at, path=(to,))
