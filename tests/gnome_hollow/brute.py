"""Exhaustive best turn for small positions: every legal sequence, no pruning, no collapsing.

The second exact method for ``solve`` (best turn): it lays every legal placement (one orientation
per distinct look) of every available tile in every order, keeps every prefix as a candidate turn
(unused offered tiles are fillers), and scores each with the same exhaustive resolve step.
"""

from __future__ import annotations

from dataclasses import replace

from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.networks import Networks
from gnomekit.models.gnome_hollow.placement import legal_placements
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.solver.gnome_hollow.best import RingGain, Weights, pending_rings, resolve_value, ring_gain


def brute_best(pos: Position, ed: GnomeHollowEdition, w: Weights | None = None,
               permits: tuple[str, ...] = ()) -> float:
    w = w or Weights()
    nets0 = pos.networks(ed)
    pending = pending_rings(pos, ed, nets0)
    standing = [(g.player, g.at) for g in pos.gnomes if isinstance(g.at, tuple) and not g.down]
    best = [float("-inf")]

    def rec(nets: Networks, seq: list, rings: list[RingGain], off_used: int) -> None:
        v = resolve_value(pos, ed, pending + rings, w)[0]
        best[0] = max(best[0], v)
        used = {p.tile for p in seq}
        avail = [t for t in pos.offered if t not in used and off_used < 2] + \
            [t for t in pos.mover.storage if t not in used]
        cur = replace(pos, tiles=pos.tiles + tuple(p.as_placed() for p in seq))
        for tid in avail:
            for p in legal_placements(cur, ed, tid, permits=permits):
                nxt = nets.copy()
                closed = nxt.place(ed.tile(tid), p.cell, p.orientation)
                new = []
                for c in closed:
                    if not c.ring:
                        continue
                    who = sorted({pl for pl, at in standing if at in nxt.path_elem and nxt.root_of(at) == c.root})
                    new.append(ring_gain(pos, ed, c, who))
                rec(nxt, seq + [p], rings + new, off_used + (tid in pos.offered))

    rec(nets0, [], [], 0)
    return best[0]
