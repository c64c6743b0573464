"""The best turn for the player to move: which tiles, where, in which order, resolve choices and gnome action.

Measure (documented in docs/rules/gnome-hollow.md): points gained this turn = ring-track points +
flower-track points + treasure points, plus ``mushroom`` weight x mushrooms kept (default 0); every
part has a weight (``Weights``).

Exact search with two reductions, both safe:

* **Only rings change the value of a placement.**  Placing a tile scores nothing unless it closes a
  ring, so the search lays only *useful* tiles: a tile that joins something already in the garden
  (a path end or a wildflower) or, when at least two more tiles may follow, a detached tile that
  could start a ring of new tiles.  A useful tile that leaves every network it touches with more
  open-end cells than tiles left, and closes nothing, is pruned (nothing below it can score).  The
  offered tiles the plan does not use are laid as fillers where they close nothing.
* **Equivalent choices are collapsed.**  Tiles with the same look (paths and mushrooms, up to
  orientation) from the same source are one choice; orientations with the same look are one; a set
  of placements already evaluated in another order is not evaluated again.

At each leaf the resolve choices (ring-board rows, bonus parameters) and the gnome action are
maximised exactly by enumeration (:func:`resolve_value`).  Under a time limit the best turn found
so far is returned with status "unknown"; otherwise "optimal".  The witness is replayed with the
rules' own ``apply_turn`` and its points compared with the search's value.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field, replace
from typing import Any

from gnomekit.models.core.errors import GnomekitError, IllegalMoveError
from gnomekit.models.core.hexgrid import frontier, neighbour, opposite
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, row_shape
from gnomekit.models.gnome_hollow.market import best_sale, paid_points, treasure_supply
from gnomekit.models.gnome_hollow.networks import ClosedNetwork, Networks, PathKey
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence, fits, legal_placements
from gnomekit.models.gnome_hollow.position import FLOWERS, MARKET, Position, markers_moved
from gnomekit.models.gnome_hollow.scoring import GnomeAction, MarkerChoice, Turn, apply_turn
from gnomekit.solver.core.result import Result, Status
from gnomekit.solver.gnome_hollow.close import _claims_ok, look, open_end_cells, refuse_ring_check_turn


@dataclass(frozen=True)
class Weights:
    ring: float = 1.0
    flower: float = 1.0
    treasure: float = 1.0
    mushroom: float = 0.0

    @staticmethod
    def parse(text: str | None) -> Weights:
        if not text:
            return Weights()
        vals: dict[str, float] = {}
        for part in text.split(","):
            k, _, v = part.partition("=")
            if k not in ("ring", "flower", "treasure", "mushroom"):
                raise ValueError(k)
            vals[k] = float(v)
        return Weights(**vals)


@dataclass(frozen=True)
class RingGain:
    """A ring the mover scores (or pots) this turn, as the resolve step sees it."""

    size: int
    mushrooms: tuple[tuple[str, int], ...]
    collect: bool  # the mover takes the mushrooms now
    marker: bool  # the mover moves a ring marker
    ref: PathKey | None = None  # a path of the ring (where a pot or a new signpost sits)
    shape: str | None = None  # the edition shape its tiles form (advanced player board), if any


@dataclass
class Plan:
    value: float
    placements: list[Placement]
    markers: list[MarkerChoice]
    action: GnomeAction | None
    rings: list[RingGain] = field(default_factory=list)
    detail: dict[str, float] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# resolve + action (exact enumeration)


def resolve_value(pos: Position, ed: GnomeHollowEdition, rings: list[RingGain], w: Weights
                  ) -> tuple[float, list[MarkerChoice], GnomeAction | None, dict[str, float]]:
    """Best value of resolving ``rings`` in order and then one gnome action (exhaustive).

    The gnome action is chosen among every action legal after the placements: the flower market,
    the Pinwheel Market, collecting a pot (one already in the garden or one made this turn: a
    ring nobody claims, given with its ``ref``) and visiting a signpost (already placed, or placed
    this turn by a ring bonus).  Claiming an open path gains nothing this turn.
    """
    new_pots = [(r.ref, dict(r.mushrooms)) for r in rings if r.marker and not r.collect and r.ref is not None]
    board = pos.option("board")
    trading = pos.option("trade_board") == "on"
    supply = treasure_supply(ed, pos)
    me = pos.mover
    flowers_have = set(me.flowers)
    flower_market = {f: n for f, n in pos.flower_market.items() if n > 0}
    wild = {t: n for t, n in pos.wildflower_supply.items()}
    best: list[Any] = [None]

    def flower_avail(have: frozenset[str], fm: dict[str, int]) -> list[str]:
        return [f for f in ed.flowers if fm.get(f, 0) > 0 and f not in have]

    def rec(i: int, spaces: frozenset[tuple[int, int]], moved: int, mush: tuple[int, ...], have: frozenset[str],
            fm: tuple[tuple[str, int], ...], wl: tuple[str, ...], signs: tuple[str, ...], placed_signs: tuple[str, ...],
            ring_pts: int, choices: tuple[MarkerChoice, ...], new_signs: tuple[tuple[str, PathKey], ...]) -> None:
        fmd = dict(fm)
        if i == len(rings):
            _finish(mush, have, fmd, ring_pts, choices, new_signs)
            return
        r = rings[i]
        mush_l = list(mush)
        if r.collect:
            for c, n in r.mushrooms:
                mush_l[ed.colours.index(c)] += n
        ci = ed.column_for(r.size, board)
        if not r.marker:  # a rival's ring: no marker choice is consumed
            rec(i + 1, spaces, moved, tuple(mush_l), have, fm, wl, signs, placed_signs, ring_pts, choices, new_signs)
            return
        if ci is None or moved >= ed.markers:
            rec(i + 1, spaces, moved, tuple(mush_l), have, fm, wl, signs, placed_signs, ring_pts,
                choices + (MarkerChoice(),), new_signs)
            return
        col = ed.board(board)[ci]
        free = [row for row in range(1, len(col.rows) + 1)
                if (col.size, row) not in spaces and row_shape(col.rows[row - 1]) in (None, r.shape)]
        if not free:
            rec(i + 1, spaces, moved, tuple(mush_l), have, fm, wl, signs, placed_signs, ring_pts,
                choices + (MarkerChoice(),), new_signs)
            return
        seen_b: set[tuple[str, ...]] = set()
        for row in free:
            bonuses = col.rows[row - 1]
            if bonuses in seen_b:
                continue
            seen_b.add(bonuses)
            n_new = min(2 if "second-marker" in bonuses else 1, ed.markers - moved)
            after = moved + n_new
            pts = ring_pts + ed.ring_points(after) - ed.ring_points(moved)
            for variant in _bonus_variants(ed, bonuses, r, signs, placed_signs, have, fmd):
                m2 = list(mush_l)
                for c, n in variant["mushrooms"]:
                    m2[ed.colours.index(c)] += n
                have2 = set(have)
                fm2 = dict(fmd)
                wl2 = list(wl)
                if variant["flower"] is not None:
                    have2.add(variant["flower"])
                    fm2[variant["flower"]] -= 1
                wf_pick = None
                for slot in ed.wildflower_at:
                    if moved < slot <= after:
                        fresh = [t for t in wl2 if ed.tile(t).flower not in have2]
                        pick = fresh[0] if fresh else (wl2[0] if wl2 else None)
                        if pick is None:
                            av = flower_avail(frozenset(have2), fm2)
                            if av:
                                have2.add(av[0])
                                fm2[av[0]] -= 1
                        else:
                            wl2.remove(pick)
                            fl = ed.tile(pick).flower or ""
                            tokens = wild.get(pick, 0)
                            if fl not in have2 and tokens > 0:
                                have2.add(fl)
                                tokens -= 1
                            if tokens:
                                fm2[fl] = fm2.get(fl, 0) + tokens
                            wf_pick = wf_pick or pick
                signs2 = tuple(s for s in signs if s != variant["signpost"])
                fresh_sign = variant["signpost"] in signs
                placed2 = placed_signs + ((variant["signpost"],) if fresh_sign else ())
                new2 = new_signs + ((variant["signpost"], r.ref),) if fresh_sign and r.ref is not None else new_signs
                sid = variant["signpost"]
                trade_opts: list[tuple[int | None, list[int]]] = [(None, m2)]
                if sid and trading:
                    held = list(mush_l)
                    for c, n in variant["at_sign"]:
                        held[ed.colours.index(c)] += n
                    trade_opts = [(tr, [a + (b - h) for a, b, h in zip(m2, after_tr, held, strict=True)])
                                  for tr, after_tr in _trades(ed, sid[4:] if sid.startswith("use:") else sid, held)]
                for trade, m3 in trade_opts:
                    mc = MarkerChoice(row=row, signpost=variant["signpost"], flower=variant["flower"],
                                      mushrooms=variant["extra"], wildflower=wf_pick, trade=trade)
                    rec(i + 1, spaces | {(col.size, row)}, after, tuple(m3), frozenset(have2),
                        tuple(sorted(fm2.items())), tuple(wl2), signs2, placed2, pts, choices + (mc,), new2)

    def _finish(mush: tuple[int, ...], have: frozenset[str], fm: dict[str, int], ring_pts: int,
                choices: tuple[MarkerChoice, ...], new_signs: tuple[tuple[str, PathKey], ...]) -> None:
        base_fl = ed.flower_points(len(have)) - ed.flower_points(len(flowers_have))
        kept0 = sum(mush) - sum(me.mushrooms.values())
        options: list[tuple[float, GnomeAction | None, dict[str, float]]] = []

        def val(ring: float, flower: float, treasure: float, kept: float) -> float:
            return w.ring * ring + w.flower * flower + w.treasure * treasure + w.mushroom * kept

        options.append((val(ring_pts, base_fl, 0, kept0), None,
                        {"ring": ring_pts, "flower": base_fl, "treasure": 0, "mushrooms": kept0}))
        mine = [g for g in pos.gnomes if g.player == me.name]
        movable = list(range(len(mine)))  # lying gnomes stand up when their ring is scored

        def gnome_for(target: object) -> int | None:
            for gi in movable:
                if mine[gi].at != target:
                    return gi
            return None

        gi = gnome_for(FLOWERS)
        av = flower_avail(have, fm)
        if gi is not None and av:
            fl = ed.flower_points(len(have) + 1) - ed.flower_points(len(flowers_have))
            options.append((val(ring_pts, fl, 0, kept0), GnomeAction(gi, "flowers", flower=av[0]),
                            {"ring": ring_pts, "flower": fl, "treasure": 0, "mushrooms": kept0}))
        gi = gnome_for(MARKET)
        if gi is not None:
            have_m = dict(zip(ed.colours, mush, strict=True))
            pts, sets, _ = best_sale(ed, have_m, dict(pos.market), dict(pos.market_tokens), pos.option("pair_sets"))
            if supply is not None:  # option treasure_supply=box: a sale pays what the supply can make
                visits = [(paid_points(ed, p, supply), ps) for p, ps in _all_visits(ed, pos, have_m)]
                pts, sale = max(visits, key=lambda v: (w.treasure * v[0] - w.mushroom * sum(n for _, n in v[1]),
                                                      -sum(n for _, n in v[1])))
            elif w.mushroom != 0:  # selling changes the mushrooms kept: compare every visit
                pts_sets = _all_visits(ed, pos, have_m)
                cand = max(pts_sets, key=lambda ps: w.treasure * ps[0] - w.mushroom * sum(s[1] for s in ps[1]))
                pts, sale = cand
            else:
                sale = [(s.colour, s.mushrooms) for s in sets]
            if sale:
                spent = sum(n for _, n in sale)
                options.append((val(ring_pts, base_fl, pts, kept0 - spent),
                                GnomeAction(gi, "market", sales=tuple(sale)),
                                {"ring": ring_pts, "flower": base_fl, "treasure": pts, "mushrooms": kept0 - spent}))
        if w.mushroom != 0:  # pots and signposts give mushrooms only
            for k, m in [*pos.pots, *new_pots]:
                gi = gnome_for(k)
                if gi is not None:
                    n = sum(m.values())
                    options.append((val(ring_pts, base_fl, 0, kept0 + n), GnomeAction(gi, "claim", at=k),
                                    {"ring": ring_pts, "flower": base_fl, "treasure": 0, "mushrooms": kept0 + n}))
            for s, k in [*pos.placed_signposts, *new_signs]:
                gi = gnome_for(k)
                if gi is None:
                    continue
                m_after = list(mush)
                for c, amount in ed.signposts[s].items():
                    if c != "tile":
                        m_after[ed.colours.index(c)] += amount
                for trade, m3 in (_trades(ed, s, m_after) if trading else [(None, m_after)]):
                    n = sum(m3) - sum(mush)
                    visit = GnomeAction(gi, "signpost", at=k, trade=trade)
                    options.append((val(ring_pts, base_fl, 0, kept0 + n), visit,
                                    {"ring": ring_pts, "flower": base_fl, "treasure": 0, "mushrooms": kept0 + n}))
        for v, act, det in options:
            if best[0] is None or v > best[0][0] + 1e-9:
                best[0] = (v, list(choices), act, det)

    rec(0, frozenset(me.rings), markers_moved(ed, me, board), tuple(me.mushroom(c) for c in ed.colours),
        frozenset(flowers_have), tuple(sorted(flower_market.items())), tuple(t for t in ed.wildflowers if t in wild),
        tuple(s for s in sorted(pos.signposts)), tuple(s for s, _ in pos.placed_signposts), 0, (), ())
    v, ch, act, det = best[0]
    return v, ch, act, det


def _trades(ed: GnomeHollowEdition, signpost: str, mush: list[int]) -> list[tuple[int | None, list[int]]]:
    """No trade, then every trade of the trade board under ``signpost`` the mushrooms ``mush`` allow."""
    out: list[tuple[int | None, list[int]]] = [(None, list(mush))]
    for i, tr in enumerate(ed.trades.get(signpost, ()), 1):
        m = list(mush)
        for c, n in tr.give:
            m[ed.colours.index(c)] -= n
        if min(m) < 0:
            continue
        for c, n in tr.get:
            m[ed.colours.index(c)] += n
        out.append((i, m))
    return out


def _all_visits(ed: GnomeHollowEdition, pos: Position, have: dict[str, int]) -> list[tuple[int, list[tuple[str, int]]]]:
    from gnomekit.models.gnome_hollow.market import open_sales

    singles = [(c, s) for c in ed.colours for s in open_sales(ed, c, have.get(c, 0), pos.market.get(c, ()),
                                                                pos.market_tokens.get(c, 0), pos.option("pair_sets"))]
    out: list[tuple[int, list[tuple[str, int]]]] = [(0, [])]
    for a in singles:
        out.append((a[1].points, [(a[0], a[1].mushrooms)]))
    for a, b in itertools.combinations(singles, 2):
        if a[0] != b[0]:
            out.append((a[1].points + b[1].points, [(a[0], a[1].mushrooms), (b[0], b[1].mushrooms)]))
    return out


def _bonus_variants(ed: GnomeHollowEdition, bonuses: tuple[str, ...], r: RingGain, signs: tuple[str, ...],
                    placed_signs: tuple[str, ...], have: frozenset[str], fm: dict[str, int]) -> list[dict[str, Any]]:
    """Every distinct way to take a space's bonuses (signpost reward, flower, extra mushrooms)."""
    variants: list[dict[str, Any]] = [{"mushrooms": [], "signpost": None, "flower": None, "extra": ()}]
    for b in bonuses:
        kind, _, num = b.partition(":")
        nxt: list[dict[str, Any]] = []
        for v in variants:
            if kind == "signpost":
                opts: dict[tuple[tuple[tuple[str, int], ...], object], str] = {}
                for s in signs:  # signposts with the same reward (and trades) are one choice
                    key = tuple(sorted((c, n) for c, n in ed.signposts[s].items() if c != "tile"))
                    opts.setdefault((key, ed.trades.get(s, ())), s)
                for s in placed_signs:
                    key = tuple(sorted((c, n) for c, n in ed.signposts[s].items() if c != "tile"))
                    opts.setdefault((key, ed.trades.get(s, ())), "use:" + s)
                if not opts:
                    nxt.append(v)
                for (key, _trades_of), s in opts.items():
                    # at_sign: what the player holds when the trade board offers its trade (bonuses listed
                    # later, such as extra mushrooms, are not taken yet)
                    nxt.append({**v, "mushrooms": v["mushrooms"] + list(key), "signpost": s,
                                "at_sign": v["mushrooms"] + list(key)})
            elif kind == "flower":
                av = [f for f in ed.flowers if fm.get(f, 0) > 0 and f not in have]
                nxt.append({**v, "flower": av[0] if av else None})
            elif kind == "mushrooms":
                pool = [c for c, n in r.mushrooms for _ in range(n)]
                combos = set(itertools.combinations(pool, min(int(num), len(pool))))
                for combo in sorted(combos):
                    nxt.append({**v, "mushrooms": v["mushrooms"] + [(c, 1) for c in combo], "extra": combo})
            else:
                nxt.append(v)
        variants = nxt
    return variants


# ---------------------------------------------------------------------------------------------
# search


def ring_gain(pos: Position, ed: GnomeHollowEdition, c: ClosedNetwork, claimants: list[str]) -> RingGain:
    """How a ring closed this turn resolves for the mover (claimants: players whose gnome stands on it)."""
    m = tuple((k, v) for k, v in c.mushrooms.items() if v)
    shape = ed.shape_of(c.tiles) if pos.option("board") == "advanced" else None
    if not claimants:
        return RingGain(c.size, m, False, True, c.paths[0], shape)
    if pos.mover.name in claimants:
        return RingGain(c.size, m, True, True, c.paths[0], shape)
    return RingGain(c.size, m, False, False, c.paths[0], shape)


def pending_rings(pos: Position, ed: GnomeHollowEdition, nets: Networks) -> list[RingGain]:
    """Rings scored at the start of the mover's turn: the mover's gnomes lying on completed rings."""
    out = []
    for g in pos.gnomes:
        if g.player == pos.mover.name and g.down and isinstance(g.at, tuple):
            d = nets.describe(nets.root_of(g.at))
            shape = ed.shape_of(d.tiles) if pos.option("board") == "advanced" else None
            out.append(RingGain(d.size, tuple((k, v) for k, v in d.mushrooms.items() if v), True, True, g.at, shape))
    return out


def _claimants(pos: Position, nets: Networks, root: int) -> list[str]:
    return sorted({g.player for g in pos.gnomes if isinstance(g.at, tuple) and not g.down
                   and g.at in nets.path_elem and nets.root_of(g.at) == root})


def best_turn(pos: Position, ed: GnomeHollowEdition, weights: Weights | None = None, permits: tuple[str, ...] = (),
              time_limit: float | None = None, max_nodes: int | None = None) -> Result:
    """The best turn (exact unless the time limit or ``max_nodes`` placements tried strike: then the
    best found, status unknown, ``bound`` = (that value, None): the best turn is worth at least it).

    In the final gnome actions (tile placement has ended) the turn is the gnome action alone; when
    the game is over there is no turn (an error)."""
    if pos.phase == "over":
        raise GnomekitError("the game is over: there is no turn to play")
    if pos.final_actions is None:
        refuse_ring_check_turn(pos, "the best-turn search")
    else:  # no tiles: the offered and stored ones cannot be placed any more
        pos = replace(pos, offered=(), players=tuple(replace(p, storage=()) if i == pos.to_move else p
                                                     for i, p in enumerate(pos.players)))
    w = weights or Weights()
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    # rings scored at the start of the turn (our lying gnomes)
    nets0 = pos.networks(ed)
    pending = pending_rings(pos, ed, nets0)
    stats = {"nodes": 0, "leaves": 0, "pruned": 0}
    best: list[Plan | None] = [None]
    seen_sets: set[frozenset[Placement]] = set()
    timed_out = [False]

    def leaf(seq: list[Placement], rings: list[RingGain]) -> None:
        stats["leaves"] += 1
        v, ch, act, det = resolve_value(pos, ed, pending + rings, w)
        b = best[0]
        if b is None or v > b.value + 1e-9 or (abs(v - b.value) <= 1e-9 and len(seq) < len(b.placements)):
            best[0] = Plan(v, list(seq), ch, act, pending + rings, det)

    offered = list(pos.offered)
    stored = list(pos.mover.storage)

    def rec(nets: Networks, seq: list[Placement], rings: list[RingGain], off_left: list[str], st_left: list[str],
            off_used: int) -> None:
        key = frozenset(seq)
        if key in seen_sets:
            return
        seen_sets.add(key)
        leaf(seq, rings)
        if (deadline is not None and time.perf_counter() > deadline) or \
                (max_nodes is not None and stats["nodes"] >= max_nodes):
            timed_out[0] = True
            return
        remaining_off = [t for t in off_left] if off_used < 2 else []
        choices = [(t, True) for t in remaining_off] + [(t, False) for t in st_left]
        if not choices:
            return
        seen_look: set[tuple[object, ...]] = set()
        left_after = min(len(remaining_off), 2 - off_used) + len(st_left) - 1
        cells_useful = _useful_cells(nets)
        frontier_cells = sorted(frontier(nets.grid), key=lambda c: (c[1], c[0])) if left_after >= 2 else []
        for tid, from_off in choices:
            tile = ed.tile(tid)
            lk = (look(tile), from_off)
            if lk in seen_look:
                continue
            seen_look.add(lk)
            cells = cells_useful if left_after < 2 else frontier_cells
            for cell in cells:
                if timed_out[0]:
                    return
                for o in ((0,) if tile.wildflower else tile.distinct_orientations):
                    if timed_out[0]:
                        return
                    if not fits(nets, tile, cell, o):
                        continue
                    p = Placement(tid, cell, o)
                    joins = _joins(nets, tile, cell, o)
                    if joins == 0 and left_after < 2:
                        continue
                    if not _claims_ok(pos, ed, nets, p, permits):
                        continue
                    stats["nodes"] += 1
                    nxt = nets.copy()
                    closed = nxt.place(tile, cell, o)
                    new_rings = [ring_gain(pos, ed, c, _claimants(pos, nxt, c.root)) for c in closed if c.ring]
                    if not new_rings and not _can_still_close(nxt, p, tile, max(0, left_after)):
                        stats["pruned"] += 1
                        continue
                    rec(nxt, seq + [p], rings + new_rings, [t for t in off_left if t != tid],
                        [t for t in st_left if t != tid], off_used + from_off)

    rec(nets0.copy(), [], [], offered, stored, 0)
    plan = best[0]
    assert plan is not None
    turn, verified, applied = _witness(pos, ed, plan, permits, w)
    stats["verified"] = int(verified)
    status = Status.UNKNOWN if timed_out[0] else Status.OPTIMAL
    return Result(status, value=plan.value, witness={"plan": plan, "turn": turn, "applied": applied},
                  stats=stats, seconds=time.perf_counter() - started,
                  bound=(plan.value, None) if timed_out[0] else None)


def _useful_cells(nets: Networks) -> list[tuple[int, int]]:
    """Empty cells some open path end faces, or next to a wildflower that can still join."""
    cells: set[tuple[int, int]] = set()
    for cell, (tile, o) in nets.grid.items():
        for e in range(6):
            n = neighbour(cell, e)
            if n in nets.grid:
                continue
            if tile.wildflower:
                if nets.current_hub(cell) is not None:
                    cells.add(n)
            elif tile.edge_path[o][e] >= 0:
                cells.add(n)
    return sorted(cells, key=lambda c: (c[1], c[0]))


def _joins(nets: Networks, tile: Any, cell: tuple[int, int], o: int) -> int:
    n_j = 0
    for e in range(6):
        got = nets.grid.get(neighbour(cell, e))
        if got is None:
            continue
        u, uo = got
        if tile.wildflower:
            if not u.wildflower and u.edge_path[uo][opposite(e)] >= 0:
                n_j += 1
        elif tile.edge_path[o][e] >= 0:
            if u.wildflower:
                n_j += nets.current_hub(neighbour(cell, e)) is not None
            else:
                n_j += 1
    return n_j


def _can_still_close(nets: Networks, p: Placement, tile: Any, left: int) -> bool:
    """Could some network holding the new tile still close with ``left`` more tiles?"""
    roots = set()
    if tile.wildflower:
        roots.add(nets.find(nets.hub[p.cell]))
    else:
        for i in range(len(tile.paths)):
            roots.add(nets.root_of((p.cell, i)))
    for r in roots:
        if nets.is_ring(r) or nets.pidx[r] < 0 and nets.joins[r] == 0:
            continue
        ends = open_end_cells(nets, r)
        if any(g for _, g in ends):
            continue
        if len({c for c, _ in ends}) <= left:
            return True
    return False


def _witness(pos: Position, ed: GnomeHollowEdition, plan: Plan, permits: tuple[str, ...], w: Weights
             ) -> tuple[Turn, bool, dict[str, Any]]:
    """The plan as a full turn (fillers added) replayed with apply_turn; does its value match?"""
    seq = list(plan.placements)
    base = check_sequence(pos, ed, seq, permits) if seq else None
    n_rings = len(base.rings) if base else 0
    n_trees = len(base.trees) if base else 0
    used_off = sum(1 for p in seq if p.tile in pos.offered)
    for tid in pos.offered:
        if used_off >= 2:
            break
        if any(p.tile == tid for p in seq):
            continue
        trial = _with_tiles(pos, seq)
        for q in legal_placements(trial, ed, tid, permits=permits):
            rep = check_sequence(pos, ed, seq + [q], permits)
            if rep.legal and len(rep.rings) == n_rings and len(rep.trees) == n_trees:
                seq.append(q)  # a filler: closes nothing
                used_off += 1
                break
    markers = list(plan.markers)
    action = plan.action
    turn = Turn(tuple(seq), tuple(markers), action, permits)
    try:
        _nxt, gains, _rings = apply_turn(pos, ed, turn)
    except IllegalMoveError as exc:
        return turn, False, {"error": str(exc)}
    kept = sum(gains.mushrooms.values()) - _spent(turn)
    value = w.ring * gains.ring_points + w.flower * gains.flower_points + w.treasure * gains.treasure_points + \
        w.mushroom * kept
    return turn, abs(value - plan.value) < 1e-9, gains.to_json()


def _spent(turn: Turn) -> int:
    a = turn.action
    return sum(n for _, n in a.sales) if a is not None and a.kind == "market" else 0


def _with_tiles(pos: Position, seq: list[Placement]) -> Position:
    return pos.lay(seq)
