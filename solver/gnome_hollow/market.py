"""``solve --market``: the best Pinwheel Market visit for the player to move (exact, exhaustive)."""

from __future__ import annotations

import time

from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.market import best_sale, make_change
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.solver.core.result import Result, Status


def solve_market(pos: Position, ed: GnomeHollowEdition) -> Result:
    """At most 2 sets of different colours, given blocked spaces and tokens left; witness = the sets."""
    started = time.perf_counter()
    me = pos.mover
    pts, sets, compared = best_sale(ed, dict(me.mushrooms), dict(pos.market), dict(pos.market_tokens),
                                    pos.option("pair_sets"))
    return Result(Status.OPTIMAL, value=pts, witness={"sets": sets, "treasure": make_change(ed, pts)},
                  stats={"visits_compared": compared}, seconds=time.perf_counter() - started)
