"""Hypothesis strategies for Hedge Mage gardens (tests only).

``gardens()``: arbitrary well-formed layouts (hedges of real tile shapes anywhere, tokens and
characters anywhere they may lie): reaches odd states such as 2x2 bushes and split ground.
``played_gardens()``: small gardens grown by random legal play, where legality is decided by the
independent reference in hm_reference (not by the engine under test).
"""

from __future__ import annotations

import string
from dataclasses import replace

from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.position import Garden, Gnome, Hedge, Mage
from hypothesis import strategies as st

from tests.hedge_mage.hm_reference import Reference, default_pictures, placements_in_bounds, shapes

ED = default_edition()
PICS = default_pictures()
TILES = list(PICS)
TOKEN = st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=6).filter(
    lambda s: s != "-")


@st.composite
def gardens(draw: st.DrawFn, max_rows: int = 9, max_cols: int = 9, max_hedges: int = 8) -> Garden:
    """Any well-formed garden (not necessarily reachable by legal play)."""
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    hedges: list[Hedge] = []
    used: set[tuple[int, int]] = set()
    for _ in range(draw(st.integers(0, max_hedges))):
        name = draw(st.sampled_from(TILES))
        offs = draw(st.sampled_from(sorted(shapes(PICS[name]))))
        sr, sc = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        cells = tuple(sorted((sr + dr, sc + dc) for dr, dc in offs))
        if all(0 <= r < rows and 0 <= c < cols and (r, c) not in used for r, c in cells):
            hedges.append(Hedge(name, cells, (sr, sc)))
            used |= set(cells)
    sigils = {h.sigil for h in hedges}
    plain = sorted(used - sigils)
    bonus = draw(st.lists(st.sampled_from(plain), unique=True, max_size=3)) if plain else []
    every = [(r, c) for r in range(rows) for c in range(cols)]
    ground = [c for c in every if c not in used]
    tunnels = draw(st.lists(st.sampled_from(ground), unique=True, max_size=3)) if ground else []
    shrooms = draw(st.lists(st.sampled_from(ground), unique=True, max_size=3)) if ground else []
    gn_cells = draw(st.lists(st.sampled_from(every), unique=True, max_size=5))
    gnomes = [Gnome(draw(st.sampled_from(list(ED.gnome_kinds))), c, draw(st.booleans())) for c in gn_cells]
    mg_cells = draw(st.lists(st.sampled_from(every), unique=True, max_size=3))
    owners = draw(st.sampled_from(["none", "all", "some"]))
    mages = [Mage(c, None if owners == "none" or (owners == "some" and i % 2) else draw(TOKEN))
             for i, c in enumerate(mg_cells)]
    sub = draw(st.booleans())
    return Garden(
        rows=rows, cols=cols, hedges=tuple(hedges), bonus_sigils=tuple(bonus), tunnels=tuple(tunnels),
        gnomes=tuple(gnomes), mages=tuple(mages), springshrooms=tuple(shrooms),
        tile=draw(st.none() | st.sampled_from(TILES)),
        remaining_tiles=tuple(draw(st.lists(st.sampled_from(TILES), max_size=12))),
        substitution_used=sub, kept_tile=draw(st.none() | st.sampled_from(TILES)) if sub else None,
        held_bonus_sigils=draw(st.integers(0, 4)), round=draw(st.integers(1, 12)),
        edition=draw(st.sampled_from(["default", "my box", "ed-2"])),
    )


@st.composite
def played_gardens(draw: st.DrawFn, max_rows: int = 7, max_cols: int = 7, max_rounds: int = 8) -> Garden:
    """A small garden with a few tokens, then rounds of random legal placements (reference legality)."""
    rows = draw(st.integers(2, max_rows))
    cols = draw(st.integers(2, max_cols))
    every = [(r, c) for r in range(rows) for c in range(cols)]
    tunnels = draw(st.lists(st.sampled_from(every), unique=True, max_size=2))
    rest = [c for c in every if c not in tunnels]
    gnome_cells = draw(st.lists(st.sampled_from(rest), unique=True, max_size=min(4, len(rest))))
    g = Garden(rows=rows, cols=cols, tunnels=tuple(tunnels), mages=tuple(Mage(t) for t in tunnels),
               gnomes=tuple(Gnome(draw(st.sampled_from(list(ED.gnome_kinds))), c) for c in gnome_cells))
    for _ in range(draw(st.integers(0, max_rounds))):
        name = draw(st.sampled_from(TILES))
        keys = placements_in_bounds(rows, cols, name, PICS[name])
        ref = Reference(g)
        tries = [draw(st.sampled_from(keys)) for _ in range(8)] if keys else []
        legal = [k for k in tries if ref.legal(k[1])]
        if not legal:
            continue
        _, cells, sigil = legal[0]
        plain = [c for c in cells if c != sigil]
        tokens = draw(st.lists(st.sampled_from(plain), unique=True, max_size=2)) if plain else []
        g = g.with_hedge(Hedge(name, cells, sigil), tokens)
    if draw(st.booleans()):  # springshrooms arrive during maze running, on free ground
        free = [c for c in every if c not in Reference(g).blocked]
        if free:
            g = replace(g, springshrooms=(draw(st.sampled_from(free)),))
    return g
