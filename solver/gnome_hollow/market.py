"""``solve --market``: the best Pinwheel Market visit for the player to move (exact, exhaustive)."""

from __future__ import annotations

import itertools
import time

from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.market import (
    Sale,
    best_sale,
    make_change,
    open_sales,
    paid_points,
    treasure_supply,
)
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.solver.core.result import Result, Status


def solve_market(pos: Position, ed: GnomeHollowEdition) -> Result:
    """At most 2 sets of different colours, given blocked spaces and tokens left; witness = the sets."""
    started = time.perf_counter()
    me = pos.mover
    pts, sets, compared = best_sale(ed, dict(me.mushrooms), dict(pos.market), dict(pos.market_tokens),
                                    pos.option("pair_sets"))
    supply = treasure_supply(ed, pos)
    if supply is not None:  # option treasure_supply=box: compare what each visit is paid from the supply
        by_colour = {(c, s.mushrooms): s for c in ed.colours
                     for s in open_sales(ed, c, me.mushroom(c), pos.market.get(c, ()), pos.market_tokens.get(c, 0),
                                         pos.option("pair_sets"))}
        choices: list[list[Sale]] = [[], *([s] for s in by_colour.values()),
                                     *([a, b] for a, b in itertools.combinations(by_colour.values(), 2)
                                       if a.colour != b.colour)]
        visits = [(paid_points(ed, sum(s.points for s in v), supply), v) for v in choices]
        compared = len(visits)
        pts, sets = max(visits, key=lambda v: (v[0], -sum(s.mushrooms for s in v[1])))
        treasure = make_change(ed, sum(s.points for s in sets), supply)
    else:
        treasure = make_change(ed, pts)
    return Result(Status.OPTIMAL, value=pts, witness={"sets": sets, "treasure": treasure},
                  stats={"visits_compared": compared}, seconds=time.perf_counter() - started)
