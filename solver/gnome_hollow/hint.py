"""``hint``: what to place and why - the best turn, the rings it closes or sets up, what it leaves to rivals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.core.hexgrid import hex_name
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.placement import check_sequence
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.gnome_hollow.best import Weights, best_turn
from gnomekit.solver.gnome_hollow.close import open_end_cells


@dataclass
class Hint:
    result: Result
    lines: list[str] = field(default_factory=list)
    sets_up: list[dict[str, Any]] = field(default_factory=list)
    leaves_open: list[dict[str, Any]] = field(default_factory=list)


def hint(pos: Position, ed: GnomeHollowEdition, weights: Weights | None = None, permits: tuple[str, ...] = (),
         time_limit: float | None = None, max_nodes: int | None = None) -> Hint:
    """Explain the best turn in words (see module docstring)."""
    res = best_turn(pos, ed, weights, permits, time_limit, max_nodes)
    turn = res.witness["turn"]
    plan = res.witness["plan"]
    h = Hint(res)
    from gnomekit.models.gnome_hollow.notation import placement_to_text

    seq = list(turn.placements)
    if seq:
        h.lines.append("place " + ", then ".join(placement_to_text(p, ed) for p in seq))
    rep = check_sequence(pos, ed, seq, permits) if seq else None
    if rep is not None:
        for rr in rep.rings:
            n = rr.network
            mush = ", ".join(f"{v} {c}" for c, v in n.mushrooms.items() if v) or "no mushrooms"
            who = {"now": "you collect them now", "pot": "they wait in the ring for any gnome",
                   "next-turn": f"{rr.claimed_by} scores it at the start of their turn"}[rr.when]
            h.lines.append(f"it closes a ring of {n.size} tiles ({mush}): {who}")
        if not rep.rings and res.status == Status.UNKNOWN:  # a search cut short proves no negative
            h.lines.append("the search was cut short: this turn closes no ring, but a turn that does may exist")
        elif not rep.rings:
            h.lines.append("no ring can be closed this turn; the tiles go where they close nothing")
        nets = pos.networks(ed)
        for p in seq:
            nets.place(ed.tile(p.tile), p.cell, p.orientation)
        claims = {r: {g.player for g in gs} for r, gs in pos.claims(ed, nets).items()}
        touched: set[int] = set()
        for p in seq:
            tile = ed.tile(p.tile)
            if tile.wildflower:
                touched.add(nets.find(nets.hub[p.cell]))
            else:
                touched |= {nets.root_of((p.cell, i)) for i in range(len(tile.paths))}
        for r in sorted(touched):
            if nets.is_ring(r) or nets.open_ends(r) == 0:
                continue
            cells = sorted({c for c, _ in open_end_cells(nets, r)}, key=lambda c: (c[1], c[0]))
            if len(cells) > 2:
                continue
            d = nets.describe(r)
            owner = sorted(claims.get(r, set()))
            item = {"network": {"cell": list(d.paths[0][0]), "path": d.paths[0][1]}, "size": d.size,
                    "open_cells": [list(c) for c in cells], "claimed_by": owner}
            where = " and ".join(hex_name(c) for c in cells)
            if pos.mover.name in owner:
                h.sets_up.append(item)
                h.lines.append(f"it sets up your network of {d.size} tiles: {len(cells)} tile(s) on {where} close it")
            else:
                h.leaves_open.append(item)
                h.lines.append(f"careful: it leaves an unclaimed network of {d.size} tiles that a rival closes "
                               f"with {len(cells)} tile(s) on {where}" if not owner else
                               f"it extends {', '.join(owner)}'s network; {len(cells)} tile(s) on {where} close it")
    for m in turn.markers:
        if m.signpost and m.trade:  # trade board variant
            sid = m.signpost[4:] if m.signpost.startswith("use:") else m.signpost
            h.lines.append(f"with the ring bonus take signpost {sid}, then trade {ed.trades[sid][m.trade - 1].text()}")
    a = turn.action
    if a is not None:
        if a.kind == "market":
            h.lines.append("then move a gnome to the Stump and sell " +
                           " and ".join(f"{n} {c}" for c, n in a.sales))
        elif a.kind == "flowers":
            h.lines.append(f"then move a gnome to the flower market for the {a.flower} flower")
        elif a.at is not None:
            h.lines.append(f"then move a gnome to {hex_name(a.at[0])}.{a.at[1]} ({a.kind})")
            if a.kind == "signpost" and a.trade:
                sid = next((s for s, k in pos.placed_signposts if k == a.at), None)
                h.lines.append("and trade " + (ed.trades[sid][a.trade - 1].text() if sid else f"{a.trade}"))
    det = plan.detail
    h.lines.append(f"this turn gains {plan.value:g} (rings {det.get('ring', 0):g}, flowers {det.get('flower', 0):g}, "
                   f"treasure {det.get('treasure', 0):g})")
    return h
