"""An independent Gnome Hollow turn scorer and best-turn value, written from the rules and the docs only.

It does not import the engine's resolve step (models/gnome_hollow/scoring.py), the best-turn search
(solver/gnome_hollow/best.py) or the engine's networks: rings come from the doc-only garden of
``tests/gnome_hollow/independent.py``, and every number (tracks, ring board, market, signposts,
trades, shapes) is read straight from the edition TOML.  The engine's ``Position`` and ``Placement``
values are only read as data.  What it implements (docs/rules/gnome-hollow.md):

* Start of turn: each of the mover's lying gnomes - the mover collects that ring's mushrooms and
  moves a ring marker.
* Each ring the placements close, in order: the mover's ring - collect now, move a marker; nobody's -
  its mushrooms wait in it (a pot), move a marker; a rival's - nothing for the mover.
* A marker goes to a free space of the column for the ring's size (last column: that size or more;
  advanced board: a space naming a shape only for a ring of that shape); none free, or 8 moved: no
  marker, no bonus.  A "second-marker" space moves two.  Bonuses: signpost (place an unused one in
  the ring or use a placed one; take its reward; trade board: then at most one of its trades),
  store (no points), flower (one the player lacks from the flower market), N extra mushrooms (copies
  of the ring's mushrooms, each at most once).  Reaching the 2nd/4th/6th marker: a wildflower tile
  (its flower if the player lacks it, the other tokens to the flower market), or with none left a
  flower token from the market.
* Gnome action (optional, a gnome moves to a different place): flower market, Pinwheel Market (at
  most 2 sets of different colours; pair column never blocked, ``pair_sets``; other spaces need a
  token and are then blocked), collect a pot, visit a signpost (reward, trade board trade).
* Value = ring weight x ring-track points gained + flower weight x flower-track points gained +
  treasure weight x points sold + mushroom weight x (mushrooms after - before).
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.gnome_hollow.independent import DEFAULT_TOML, Garden, load_tiles, nb, orient_edge

Cell = tuple[int, int]
Key = tuple[Cell, int]


class Rules:
    """The edition's numbers, read from the TOML file."""

    def __init__(self, path: Path = DEFAULT_TOML) -> None:
        with open(path, "rb") as f:
            d = tomllib.load(f)
        self.colours: list[str] = list(d["mushrooms"]["colours"])
        self.tiles = load_tiles(path)
        self.wild_flower: dict[str, str] = dict(d["wildflowers"])  # tile id -> flower
        self.flowers = list(self.wild_flower.values())
        self.flower_track: list[int] = list(d["flowers"]["track"])
        self.ring_track: list[int] = list(d["rings"]["track"])
        self.markers: int = d["rings"].get("markers", 8)
        self.wild_at: list[int] = list(d["rings"]["wildflower_at"])
        self.boards = {"standard": [(c["size"], c.get("plus", False), [list(r) for r in c["rows"]])
                                    for c in d["rings"]["columns"]],
                       "advanced": [(c["size"], c.get("plus", False), [list(r) for r in c["rows"]])
                                    for c in d.get("advanced_board", {}).get("columns", [])]}
        self.market = {c: (d["market"][c]["pair"], [tuple(s) for s in d["market"][c]["spaces"]]) for c in self.colours}
        self.signposts: dict[str, dict[str, int]] = {k: dict(v) for k, v in d["signposts"].items()}
        self.trades: dict[str, list[tuple[dict[str, int], dict[str, int]]]] = {
            k: [(dict(t["give"]), dict(t["get"])) for t in v] for k, v in d.get("trade_board", {}).items()}
        self.shapes: dict[str, list[Cell]] = {k: [tuple(c) for c in v] for k, v in d.get("shapes", {}).items()}

    def ring_pts(self, moved: int) -> int:
        return self.ring_track[min(moved, len(self.ring_track) - 1)]

    def flower_pts(self, n: int) -> int:
        return self.flower_track[min(n, len(self.flower_track) - 1)]

    def shape_of(self, cells: set[Cell]) -> str | None:
        """Written separately from models/gnome_hollow/shapes.py: compare against every image of each shape."""
        def norm(cs: list[Cell]) -> frozenset[Cell]:
            q0, r0 = min(q for q, _ in cs), min(r for _, r in cs)
            return frozenset((q - q0, r - r0) for q, r in cs)

        target = norm(list(cells))
        for name, cs in self.shapes.items():
            img = list(cs)
            for flip in range(2):
                cur = [(-q, q + r) for q, r in img] if flip else list(img)  # mirror: NE <-> NW
                for _ in range(6):
                    if norm(cur) == target:
                        return name
                    cur = [(-r, q + r) for q, r in cur]  # a sixth of a turn clockwise
        return None


@dataclass(frozen=True)
class Ring:
    """A ring as the mover's resolve step sees it."""

    size: int
    mushrooms: tuple[tuple[str, int], ...]
    cells: frozenset[Cell]
    ref: Key
    who: str  # "mine" (collect now), "pot" (unclaimed), "rival", "pending" (a lying gnome, start of turn)


def _ring_of(g: Garden, root: Any, rules: Rules, who: str) -> Ring:
    members = [x for x in g.parent if g.find(x) == root]
    paths = sorted((x[1], x[2]) for x in members if x[0] == "p")
    cells = frozenset(x[1] for x in members)
    mush: dict[str, int] = {}
    for c, k in paths:
        m = rules.tiles[g.cells[c][0]][k][2]
        if m:
            mush[m] = mush.get(m, 0) + 1
    return Ring(len(cells), tuple(sorted(mush.items())), cells, paths[0], who)


def garden_of(pos: Any, rules: Rules) -> Garden:
    g = Garden(rules.tiles, set(rules.wild_flower))
    for t in pos.tiles[1:]:
        g.lay(t.tile, t.cell, t.orientation)
    g.gnomes = {g_.at: g_.player for g_ in pos.gnomes if isinstance(g_.at, tuple)}
    return g


def lay(g: Garden, tid: str, cell: Cell, o: int, rules: Rules, mover: str) -> list[Ring]:
    """Lay a tile on the doc-only garden; the rings it closes, each with who gets it."""
    before = set(g.final)
    n_before = len(g.parent)
    g.lay(tid, cell, o)
    new_nodes = list(g.parent)[n_before:]
    out = []
    for r in dict.fromkeys(g.find(x) for x in new_nodes):
        if r in g.final and r not in before:
            owner = g.owner(r)
            who = "pot" if owner is None else "mine" if owner == mover else "rival"
            out.append(_ring_of(g, r, rules, who))
    return out


# ------------------------------------------------------------------------------------------------
# resolve and gnome action


@dataclass
class State:
    spaces: frozenset[tuple[int, int]]
    moved: int
    mush: dict[str, int]
    flowers: frozenset[str]
    fmarket: dict[str, int]
    wild: dict[str, int]
    signs: tuple[str, ...]  # not yet placed
    placed: tuple[tuple[str, Key], ...]
    pots: tuple[tuple[Key, tuple[tuple[str, int], ...]], ...]


def _start(pos: Any) -> State:
    me = pos.mover
    return State(frozenset(me.rings), -1, dict(me.mushrooms), frozenset(me.flowers), dict(pos.flower_market),
                 dict(pos.wildflower_supply), tuple(pos.signposts), tuple(pos.placed_signposts),
                 tuple((k, tuple(sorted(m.items()))) for k, m in pos.pots))


def _moved(rules: Rules, board: str, spaces: frozenset[tuple[int, int]]) -> int:
    n = 0
    for size, row in spaces:
        rows = next(c[2] for c in rules.boards[board] if c[0] == size)
        n += 2 if "second-marker" in rows[row - 1] else 1
    return n


def _add(m: dict[str, int], items: Any, sign: int = 1) -> dict[str, int]:
    out = dict(m)
    for c, n in items:
        out[c] = out.get(c, 0) + sign * n
    return out


def _trade_options(rules: Rules, pos: Any, sid: str, mush: dict[str, int]) -> list[dict[str, int]]:
    out = [mush]
    if pos.options.get("trade_board", "off") != "on":
        return out
    for give, get in rules.trades.get(sid, []):
        if all(mush.get(c, 0) >= n for c, n in give.items()):
            out.append(_add(_add(mush, give.items(), -1), get.items()))
    return out


def _flower_choices(rules: Rules, st: State) -> list[str | None]:
    av = [f for f in rules.flowers if st.fmarket.get(f, 0) > 0 and f not in st.flowers]
    return av or [None]


def _take(st: State, f: str | None) -> State:
    if f is None:
        return st
    fm = dict(st.fmarket)
    fm[f] -= 1
    return State(st.spaces, st.moved, st.mush, st.flowers | {f}, fm, st.wild, st.signs, st.placed, st.pots)


def _resolve(rules: Rules, pos: Any, board: str, ring: Ring, st: State) -> list[State]:
    """Every state the mover can reach by resolving one ring."""
    if ring.who in ("mine", "pending"):
        st = State(st.spaces, st.moved, _add(st.mush, ring.mushrooms), st.flowers, st.fmarket, st.wild, st.signs,
                   st.placed, st.pots)
    elif ring.who == "pot":
        st = State(st.spaces, st.moved, st.mush, st.flowers, st.fmarket, st.wild, st.signs, st.placed,
                   st.pots + ((ring.ref, ring.mushrooms),))
    else:
        return [st]
    col = next((c for c in rules.boards[board] if ring.size == c[0] or (c[1] and ring.size >= c[0])), None)
    if col is None or st.moved >= rules.markers:
        return [st]
    size, _plus, rows = col
    shape = rules.shape_of(set(ring.cells)) if board == "advanced" else None
    out: list[State] = []
    for row, bonuses in enumerate(rows, 1):
        if (size, row) in st.spaces:
            continue
        need = [b[6:] for b in bonuses if b.startswith("shape:")]
        if need and need[0] != shape:
            continue
        n_new = min(2 if "second-marker" in bonuses else 1, rules.markers - st.moved)
        states = [State(st.spaces | {(size, row)}, st.moved + n_new, st.mush, st.flowers, st.fmarket, st.wild,
                        st.signs, st.placed, st.pots)]
        for b in bonuses:
            kind, _, num = b.partition(":")
            nxt: list[State] = []
            for s in states:
                if kind == "signpost":
                    opts = [(sid, True) for sid in s.signs] + [(sid, False) for sid, _ in s.placed]
                    if not opts:
                        nxt.append(s)
                    for sid, fresh in opts:
                        m = _add(s.mush, ((c, n) for c, n in rules.signposts[sid].items() if c != "tile"))
                        signs = tuple(x for x in s.signs if x != sid) if fresh else s.signs
                        placed = s.placed + ((sid, ring.ref),) if fresh else s.placed
                        for m2 in _trade_options(rules, pos, sid, m):
                            nxt.append(State(s.spaces, s.moved, m2, s.flowers, s.fmarket, s.wild, signs, placed,
                                             s.pots))
                elif kind == "flower":
                    nxt += [_take(s, f) for f in _flower_choices(rules, s)]
                elif kind == "mushrooms":
                    pool = [c for c, n in ring.mushrooms for _ in range(n)]
                    for combo in set(itertools.combinations(pool, min(int(num), len(pool)))):
                        nxt.append(State(s.spaces, s.moved, _add(s.mush, ((c, 1) for c in combo)), s.flowers,
                                         s.fmarket, s.wild, s.signs, s.placed, s.pots))
                else:  # store, second-marker, shape: no points
                    nxt.append(s)
            states = nxt
        for slot in rules.wild_at:
            if st.moved < slot <= st.moved + n_new:
                nxt = []
                for s in states:
                    if not s.wild:
                        nxt += [_take(s, f) for f in _flower_choices(rules, s)]
                        continue
                    for tile, tokens in s.wild.items():
                        f = rules.wild_flower[tile]
                        wild = {k: v for k, v in s.wild.items() if k != tile}
                        have = s.flowers
                        if f not in have and tokens > 0:
                            have, tokens = have | {f}, tokens - 1
                        fm = dict(s.fmarket)
                        if tokens:
                            fm[f] = fm.get(f, 0) + tokens
                        nxt.append(State(s.spaces, s.moved, s.mush, have, fm, wild, s.signs, s.placed, s.pots))
                states = nxt
        out += states
    return out or [st]


def _sales(rules: Rules, pos: Any, mush: dict[str, int]) -> list[tuple[int, dict[str, int]]]:
    """(points, mushrooms left) for every market visit: nothing, one set, or two sets of different colours."""
    many = pos.options.get("pair_sets", "one") == "many"
    singles: list[tuple[str, int, int]] = []
    for c in rules.colours:
        have = mush.get(c, 0)
        pair, spaces = rules.market[c]
        for k in range(1, (have // 2 if many else min(1, have // 2)) + 1):
            singles.append((c, 2 * k, pair * k))
        if pos.market_tokens.get(c, 0) > 0:
            singles += [(c, n, p) for n, p in spaces if n <= have and n not in pos.market.get(c, ())]
    out = [(0, mush)]
    for a in singles:
        out.append((a[2], _add(mush, [(a[0], a[1])], -1)))
    for a, b in itertools.combinations(singles, 2):
        if a[0] != b[0]:
            out.append((a[2] + b[2], _add(mush, [(a[0], a[1]), (b[0], b[1])], -1)))
    return out


def _value(rules: Rules, pos: Any, w: Any, st: State, moved0: int, treasure: int, mush: dict[str, int]) -> float:
    me = pos.mover
    ring = rules.ring_pts(st.moved) - rules.ring_pts(moved0)
    flower = rules.flower_pts(len(st.flowers)) - rules.flower_pts(len(me.flowers))
    kept = sum(mush.values()) - sum(me.mushrooms.values())
    return w.ring * ring + w.flower * flower + w.treasure * treasure + w.mushroom * kept


def best_after(rules: Rules, pos: Any, w: Any, rings: list[Ring]) -> float:
    """The best value of resolving ``rings`` (in order) and then one gnome action."""
    board = pos.options.get("board", "standard")
    st0 = _start(pos)
    moved0 = _moved(rules, board, st0.spaces)
    st0 = State(st0.spaces, moved0, st0.mush, st0.flowers, st0.fmarket, st0.wild, st0.signs, st0.placed, st0.pots)
    states = [st0]
    for r in rings:
        states = [s2 for s in states for s2 in _resolve(rules, pos, board, r, s)]
    mine = [g for g in pos.gnomes if g.player == pos.mover.name]

    def can_go(target: object) -> bool:
        return any(g.at != target for g in mine)

    best = float("-inf")
    for s in states:
        best = max(best, _value(rules, pos, w, s, moved0, 0, s.mush))
        if can_go("flowers"):
            for f in _flower_choices(rules, s):
                best = max(best, _value(rules, pos, w, _take(s, f), moved0, 0, s.mush))
        if can_go("market"):
            for pts, left in _sales(rules, pos, s.mush):
                best = max(best, _value(rules, pos, w, s, moved0, pts, left))
        for k, m in s.pots:
            if can_go(k):
                best = max(best, _value(rules, pos, w, s, moved0, 0, _add(s.mush, m)))
        for sid, k in s.placed:
            if can_go(k):
                m = _add(s.mush, ((c, n) for c, n in rules.signposts[sid].items() if c != "tile"))
                for m2 in _trade_options(rules, pos, sid, m):
                    best = max(best, _value(rules, pos, w, s, moved0, 0, m2))
    return best


def pending(pos: Any, g: Garden, rules: Rules) -> list[Ring]:
    out = []
    for gn in pos.gnomes:
        if gn.player == pos.mover.name and gn.down and isinstance(gn.at, tuple):
            cell, k = gn.at
            out.append(_ring_of(g, g.find(("p", cell, k)), rules, "pending"))
    return out


# ------------------------------------------------------------------------------------------------
# the best turn by plain enumeration


_LOOKS: dict[str, list[int]] = {}
_ENDS: dict[tuple[str, int], frozenset[int]] = {}


def looks(rules: Rules, tid: str) -> list[int]:
    """One orientation per distinct look of a tile (paths with their mushrooms on the same edges)."""
    if tid in rules.wild_flower:
        return [0]
    if tid not in _LOOKS:
        seen: dict[frozenset[tuple[int, int, str | None]], int] = {}
        for o in range(12):
            look = frozenset((min(orient_edge(a, o), orient_edge(b, o)), max(orient_edge(a, o), orient_edge(b, o)), m)
                             for a, b, m in rules.tiles[tid])
            seen.setdefault(look, o)
        _LOOKS[tid] = sorted(seen.values())
    return _LOOKS[tid]


def _ends(rules: Rules, tid: str, o: int) -> frozenset[int]:
    if (tid, o) not in _ENDS:
        _ENDS[(tid, o)] = frozenset(orient_edge(e, o) for a, b, _m in rules.tiles[tid] for e in (a, b))
    return _ENDS[(tid, o)]


def _edges_match(g: Garden, rules: Rules, tid: str, cell: Cell, o: int) -> bool:
    """A quick necessary condition (path meets path, grass meets grass); ``Garden.reasons`` decides."""
    if tid in rules.wild_flower:
        return True
    mine = _ends(rules, tid, o)
    for e in range(6):
        t = g.cells.get(nb(cell, e))
        if t is not None and t[0] not in rules.wild_flower and (e in mine) != ((e + 3) % 6 in _ends(rules, *t)):
            return False
    return True


def frontier(g: Garden) -> list[Cell]:
    return sorted({nb(c, e) for c in g.cells for e in range(6)} - set(g.cells))


def best_value(pos: Any, rules: Rules, w: Any, permits: tuple[str, ...] = ()) -> float:
    """The best turn's value: every legal sequence of the offered (at most 2) and stored tiles, in every
    order, each prefix a candidate (unused offered tiles are laid where they close nothing).  A garden
    reached again by another order with the same rings (in the same order) is not expanded twice."""
    mover = pos.mover.name
    g0 = garden_of(pos, rules)
    start = pending(pos, g0, rules)
    memo: dict[tuple[Ring, ...], float] = {}
    seen: set[tuple[frozenset[tuple[str, Cell, int]], tuple[Ring, ...]]] = set()
    best = [float("-inf")]

    def rec(g: Garden, rings: list[Ring], placed: list[tuple[str, Cell, int]], off_used: int) -> None:
        key = (frozenset(placed), tuple(rings))
        if key in seen:
            return
        seen.add(key)
        if key[1] not in memo:
            memo[key[1]] = best_after(rules, pos, w, start + rings)
        best[0] = max(best[0], memo[key[1]])
        used = {t for t, _c, _o in placed}
        avail = [t for t in pos.offered if t not in used and off_used < 2] + \
            [t for t in pos.mover.storage if t not in used]
        for tid in dict.fromkeys(avail):
            for cell in frontier(g):
                for o in looks(rules, tid):
                    if not _edges_match(g, rules, tid, cell, o) or g.reasons(tid, cell, o, mover, permits):
                        continue
                    g2 = g.clone()
                    new = lay(g2, tid, cell, o, rules, mover)
                    rec(g2, rings + new, placed + [(tid, cell, o)], off_used + (tid in pos.offered))

    rec(g0, [], [], 0)
    return best[0]


def turn_value(pos: Any, rules: Rules, w: Any, turn: Any) -> dict[str, float]:
    """Ring, flower and treasure points and mushrooms gained by one concrete turn (the engine's ``Turn``
    value read as data), with the documented defaults for choices left out: first free space that
    takes the ring, first item in edition order."""
    board = pos.options.get("board", "standard")
    mover = pos.mover.name
    g = garden_of(pos, rules)
    rings = pending(pos, g, rules)
    for p in turn.placements:
        rings += lay(g, p.tile, p.cell, p.orientation, rules, mover)
    st = _start(pos)
    moved0 = _moved(rules, board, st.spaces)
    st = State(st.spaces, moved0, st.mush, st.flowers, st.fmarket, st.wild, st.signs, st.placed, st.pots)
    choices = list(turn.markers)
    edition_signs = list(rules.signposts)
    for r in rings:
        if r.who == "rival":
            continue
        ch = choices.pop(0) if choices else None
        # all reachable states for this ring, then keep the one the choice names
        cands = _resolve_one(rules, pos, board, r, st, ch, edition_signs)
        st = cands
    treasure = 0
    mush = st.mush
    a = turn.action
    if a is not None:
        if a.kind == "flowers":
            f = a.flower if a.flower is not None else next(iter(_flower_choices(rules, st)), None)
            if f is not None and f in _flower_choices(rules, st):
                st = _take(st, f)
        elif a.kind == "market":
            for c, n in a.sales:
                pair, spaces = rules.market[c]
                pts = [p for m, p in spaces if m == n and n not in pos.market.get(c, ())
                       and pos.market_tokens.get(c, 0) > 0]
                many = pos.options.get("pair_sets", "one") == "many"
                if n == 2:  # the pair column
                    treasure += pair
                else:
                    treasure += max(pts + ([pair * (n // 2)] if many and n % 2 == 0 else []))
                mush = _add(mush, [(c, n)], -1)
        elif a.kind == "claim":
            for k, m in st.pots:
                if _same_ring(g, k, a.at):
                    mush = _add(mush, m)
                    break
        elif a.kind == "signpost":
            sid = next(s for s, k in st.placed if _same_ring(g, k, a.at))
            mush = _add(mush, ((c, n) for c, n in rules.signposts[sid].items() if c != "tile"))
            if a.trade is not None:
                give, get = rules.trades[sid][a.trade - 1]
                mush = _add(_add(mush, give.items(), -1), get.items())
    me = pos.mover
    return {"ring": rules.ring_pts(st.moved) - rules.ring_pts(moved0),
            "flower": rules.flower_pts(len(st.flowers)) - rules.flower_pts(len(me.flowers)),
            "treasure": treasure, "mushrooms": sum(mush.values()) - sum(me.mushrooms.values())}


def _same_ring(g: Garden, a: Key, b: Key | None) -> bool:
    return b is not None and g.find(("p", a[0], a[1])) == g.find(("p", b[0], b[1]))


def _resolve_one(rules: Rules, pos: Any, board: str, ring: Ring, st: State, ch: Any, edition_signs: list[str]
                 ) -> State:
    """Resolve one ring with the choice ``ch`` (a MarkerChoice read as data; None: defaults)."""
    if ring.who in ("mine", "pending"):
        st = State(st.spaces, st.moved, _add(st.mush, ring.mushrooms), st.flowers, st.fmarket, st.wild, st.signs,
                   st.placed, st.pots)
    else:
        st = State(st.spaces, st.moved, st.mush, st.flowers, st.fmarket, st.wild, st.signs, st.placed,
                   st.pots + ((ring.ref, ring.mushrooms),))
    col = next((c for c in rules.boards[board] if ring.size == c[0] or (c[1] and ring.size >= c[0])), None)
    if col is None or st.moved >= rules.markers:
        return st
    size, _plus, rows = col
    shape = rules.shape_of(set(ring.cells)) if board == "advanced" else None
    free = [r for r, b in enumerate(rows, 1) if (size, r) not in st.spaces
            and all(x[6:] == shape for x in b if x.startswith("shape:"))]
    if not free:
        return st
    row = ch.row if ch is not None and ch.row in free else free[0]
    bonuses = rows[row - 1]
    n_new = min(2 if "second-marker" in bonuses else 1, rules.markers - st.moved)
    s = State(st.spaces | {(size, row)}, st.moved + n_new, st.mush, st.flowers, st.fmarket, st.wild, st.signs,
              st.placed, st.pots)
    for b in bonuses:
        kind, _, num = b.partition(":")
        if kind == "signpost":
            want = ch.signpost if ch is not None else None
            if want is not None and want.startswith("use:"):
                sid, fresh = want[4:], False
            else:
                unplaced = [x for x in edition_signs if x in s.signs]
                sid = want if want in s.signs else (unplaced[0] if unplaced else None)
                fresh = True
            if sid is None:
                continue
            m = _add(s.mush, ((c, n) for c, n in rules.signposts[sid].items() if c != "tile"))
            if ch is not None and ch.trade is not None:
                give, get = rules.trades[sid][ch.trade - 1]
                m = _add(_add(m, give.items(), -1), get.items())
            signs = tuple(x for x in s.signs if x != sid) if fresh else s.signs
            placed = s.placed + ((sid, ring.ref),) if fresh else s.placed
            s = State(s.spaces, s.moved, m, s.flowers, s.fmarket, s.wild, signs, placed, s.pots)
        elif kind == "flower":
            av = _flower_choices(rules, s)
            s = _take(s, ch.flower if ch is not None and ch.flower in av else av[0])
        elif kind == "mushrooms":
            left = dict(ring.mushrooms)
            want_m = list(ch.mushrooms) if ch is not None and ch.mushrooms else \
                [c for c in rules.colours for _ in range(left.get(c, 0))]
            took: list[tuple[str, int]] = []
            for c in want_m:
                if len(took) >= int(num):
                    break
                if left.get(c, 0) > 0:
                    left[c] -= 1
                    took.append((c, 1))
            s = State(s.spaces, s.moved, _add(s.mush, took), s.flowers, s.fmarket, s.wild, s.signs, s.placed, s.pots)
    for slot in rules.wild_at:
        if st.moved < slot <= st.moved + n_new:
            if not s.wild:
                av = _flower_choices(rules, s)
                s = _take(s, ch.flower if ch is not None and ch.flower in av else av[0])
                continue
            fresh_t = [t for t in rules.wild_flower if t in s.wild and rules.wild_flower[t] not in s.flowers]
            tile = ch.wildflower if ch is not None and ch.wildflower in s.wild else \
                (fresh_t[0] if fresh_t else next(t for t in rules.wild_flower if t in s.wild))
            f, tokens = rules.wild_flower[tile], s.wild[tile]
            have = s.flowers
            if f not in have and tokens > 0:
                have, tokens = have | {f}, tokens - 1
            fm = dict(s.fmarket)
            if tokens:
                fm[f] = fm.get(f, 0) + tokens
            s = State(s.spaces, s.moved, s.mush, have, fm, {k: v for k, v in s.wild.items() if k != tile},
                      s.signs, s.placed, s.pots)
    return s
