"""Playing a whole turn: place, resolve (rings, markers, bonuses, wildflowers), move a gnome; scoring.

``apply_turn`` returns the next position and a report of what the mover gained.  Resolve choices
(which row of the ring board, which signpost/tile/flower/mushrooms a bonus takes, which wildflower
tile) come in :class:`MarkerChoice` values, one per ring marker move in order; a missing choice
takes the documented default (first free row, first item in edition order).

Reading of the rules (docs/rules/gnome-hollow.md): a ring the mover claims or nobody claims moves
the mover's marker; a ring claimed by another player lays that gnome down and is scored (mushrooms
and marker) at the start of that player's next turn; an unclaimed ring's mushrooms wait in it (a
"pot") until a gnome claims it.  The garden tile board is refilled only when a random generator is
given (the solver never counts on unknown draws).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from gnomekit.models.core.errors import IllegalMoveError
from gnomekit.models.core.violation import Violation
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, RingColumn, row_shape
from gnomekit.models.gnome_hollow.market import make_change, open_sales, supply_left, treasure_points
from gnomekit.models.gnome_hollow.networks import ClosedNetwork, PathKey
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence, legal_placements
from gnomekit.models.gnome_hollow.position import FLOWERS, MARKET, Gnome, PlayerState, Position, markers_moved


@dataclass(frozen=True)
class MarkerChoice:
    """How the mover uses one ring marker move (None / empty: the default)."""

    row: int | None = None  # 1-based row of the column
    signpost: str | None = None  # a new signpost id, or "use:ID" for one already in the garden
    store: str | None = None  # offered tile to store
    flower: str | None = None  # flower token to take
    mushrooms: tuple[str, ...] = ()  # colours of the extra mushrooms
    wildflower: str | None = None  # wildflower tile taken if this move reaches a wildflower slot
    discard: str | None = None  # stored tile to discard when storage is full
    trade: int | None = None  # trade board variant: 1-based trade under the signpost taken (None: no trade)


@dataclass(frozen=True)
class GnomeAction:
    """The optional gnome move: claim a path / pot ring, flower market, signpost, or market."""

    gnome: int  # index among the mover's gnomes (position order)
    kind: str  # "claim", "flowers", "signpost", "market"
    at: PathKey | None = None
    flower: str | None = None
    sales: tuple[tuple[str, int], ...] = ()  # (colour, mushrooms)
    trade: int | None = None  # trade board variant: 1-based trade under the signpost visited


@dataclass(frozen=True)
class Turn:
    placements: tuple[Placement, ...]
    markers: tuple[MarkerChoice, ...] = ()
    action: GnomeAction | None = None
    permits: tuple[str, ...] = ()


@dataclass
class Gains:
    """What one player gained in a turn (points are score-track differences)."""

    mushrooms: dict[str, int] = field(default_factory=dict)
    ring_points: int = 0
    flower_points: int = 0
    treasure_points: int = 0
    markers: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def points(self) -> int:
        return self.ring_points + self.flower_points + self.treasure_points

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "ring_points": self.ring_points, "flower_points": self.flower_points,
                "treasure_points": self.treasure_points, "markers": self.markers, "mushrooms": dict(self.mushrooms),
                "notes": list(self.notes)}


#: ``chooser(table, player, ring, column, free_rows, markers_moved)``: the choice for one ring marker
#: move, asked only where there is a choice (a free space); see :func:`apply_turn`.
Chooser = Callable[["_Table", str, ClosedNetwork, RingColumn, list[int], int], MarkerChoice]


class _Table:
    """Mutable working copy of a position during one turn."""

    def __init__(self, pos: Position, ed: GnomeHollowEdition, chooser: Chooser | None = None,
                 strict: bool = False) -> None:
        self.pos = pos
        self.ed = ed
        self.chooser = chooser
        self.strict = strict
        self.used: set[str] = set()  # MarkerChoice fields consumed by the marker move being resolved
        self.players = {p.name: _mplayer(p) for p in pos.players}
        self.gnomes: list[list[Any]] = [[g.player, g.at, g.down] for g in pos.gnomes]
        self.offered = list(pos.offered)
        self.bag = list(pos.bag)
        self.sunset = list(pos.sunset)
        self.market = {c: list(v) for c, v in pos.market.items()}
        self.tokens = dict(pos.market_tokens)
        self.flower_market = dict(pos.flower_market)
        self.wild = dict(pos.wildflower_supply)
        self.signposts = list(pos.signposts)
        self.placed_signposts = list(pos.placed_signposts)
        self.pots = [(k, dict(m)) for k, m in pos.pots]
        self.tiles = list(pos.tiles)

    def freeze(self) -> Position:
        return replace(
            self.pos,
            players=tuple(PlayerState(n, d["mushrooms"], d["treasures"], tuple(d["flowers"]), tuple(d["rings"]),
                                      tuple(d["storage"])) for n, d in self.players.items()),
            gnomes=tuple(Gnome(p, at, down) for p, at, down in self.gnomes),
            tiles=tuple(self.tiles), offered=tuple(self.offered), bag=tuple(self.bag), sunset=tuple(self.sunset),
            market={c: tuple(v) for c, v in self.market.items()}, market_tokens=dict(self.tokens),
            flower_market=dict(self.flower_market), wildflower_supply=dict(self.wild),
            signposts=tuple(self.signposts), placed_signposts=tuple(self.placed_signposts),
            pots=tuple(self.pots),
        )


def _refuse(t: _Table, rule: str, message: str, cells: tuple[Any, ...] = ()) -> None:
    """In strict mode, a choice that cannot be honoured is an error (else the default is taken)."""
    if t.strict:
        raise IllegalMoveError(message, violations=(Violation(rule, message, cells),))


def _mplayer(p: PlayerState) -> dict[str, Any]:
    return {"mushrooms": dict(p.mushrooms), "treasures": dict(p.treasures), "flowers": list(p.flowers),
            "rings": list(p.rings), "storage": list(p.storage)}


def _add(d: dict[str, int], k: str, n: int) -> None:
    d[k] = d.get(k, 0) + n


def _take_flower(t: _Table, who: str, flower: str | None, g: Gains, source: str = "market") -> None:
    pl = t.players[who]
    have = set(pl["flowers"])
    avail = [f for f in t.ed.flowers if t.flower_market.get(f, 0) > 0 and f not in have]
    if flower is None:
        flower = avail[0] if avail else None
    elif flower not in avail:
        _refuse(t, "flower", f"no {flower} flower token is available to {who}")
    else:
        t.used.add("flower")
    if flower is None or flower not in avail:
        g.notes.append(f"no flower token {flower or ''} available to {who}".replace("  ", " "))
        return
    before = t.ed.flower_points(len(pl["flowers"]))
    t.flower_market[flower] -= 1
    pl["flowers"].append(flower)
    g.flower_points += t.ed.flower_points(len(pl["flowers"])) - before
    g.notes.append(f"{who} takes the {flower} flower ({source})")


def _store(t: _Table, who: str, tile: str, discard: str | None, g: Gains) -> None:
    """Put ``tile`` in storage; when storage overflows, discard ``discard`` (or the default)."""
    pl = t.players[who]
    st = pl["storage"]
    st.append(tile)
    is_w = [x in t.ed.wildflowers for x in st]
    while len(st) > t.ed.storage or sum(is_w) > t.ed.storage_wildflowers:
        if discard in st and (len(st) > t.ed.storage or discard in t.ed.wildflowers):
            st.remove(discard)
            t.used.add("discard")
            g.notes.append(f"{who} discards {discard}")
        else:
            victim = next(x for x in st if (x in t.ed.wildflowers) == (sum(is_w) > t.ed.storage_wildflowers)) \
                if sum(is_w) > t.ed.storage_wildflowers else st[0]
            st.remove(victim)
            g.notes.append(f"{who} discards {victim}")
        is_w = [x in t.ed.wildflowers for x in st]
        discard = None


def _trade(t: _Table, who: str, signpost: str, trade: int | None, g: Gains) -> None:
    """Trade board variant: after a signpost's reward, at most one of the trades under it."""
    if trade is None:
        return
    t.used.add("trade")
    if t.pos.option("trade_board") != "on":
        raise IllegalMoveError("no Mushroom Trade Board in this game (option trade_board=on)")
    trades = t.ed.trades.get(signpost, ())
    if not 1 <= trade <= len(trades):
        raise IllegalMoveError(f"signpost {signpost} has {len(trades)} trade(s), not a trade {trade}")
    tr = trades[trade - 1]
    have = t.players[who]["mushrooms"]
    for c, n in tr.give:
        if have.get(c, 0) < n:
            raise IllegalMoveError(f"trade {tr.text()} needs {n} {c}, {who} has {have.get(c, 0)}")
    for c, n in tr.give:
        _add(have, c, -n)
        _add(g.mushrooms, c, -n)
    for c, n in tr.get:
        _add(have, c, n)
        _add(g.mushrooms, c, n)
    g.notes.append(f"{who} trades {tr.text()}")


def _reward(t: _Table, who: str, reward: dict[str, int], choice: MarkerChoice, g: Gains) -> None:
    for k, n in reward.items():
        if k == "tile":
            for _ in range(n):
                if choice.store is not None and choice.store not in t.offered:
                    _refuse(t, "store", f"{choice.store} is not on the garden tile board")
                elif choice.store is not None:
                    t.used.add("store")
                tile = choice.store if choice.store in t.offered else (t.offered[0] if t.offered else None)
                if tile is None:
                    g.notes.append("no garden tile left to take")
                    continue
                t.offered.remove(tile)
                _store(t, who, tile, choice.discard, g)
                g.notes.append(f"{who} stores {tile}")
        else:
            _add(t.players[who]["mushrooms"], k, n)
            _add(g.mushrooms, k, n)


def _move_marker(t: _Table, who: str, ring: ClosedNetwork, ref: PathKey, choice: MarkerChoice, g: Gains) -> None:
    ed = t.ed
    board = t.pos.option("board")
    ci = ed.column_for(ring.size, board)
    pl = t.players[who]
    if ci is None:
        g.notes.append(f"a ring of {ring.size} tiles has no column on the board")
        return
    col = ed.board(board)[ci]
    used = {r for s, r in pl["rings"] if s == col.size}
    shape = ed.shape_of(ring.tiles) if board == "advanced" else None
    free = [r for r in range(1, len(col.rows) + 1) if r not in used and row_shape(col.rows[r - 1]) in (None, shape)]
    moved = markers_moved(ed, _frozen(pl, who), board)
    if not free or moved >= ed.markers:
        g.notes.append(f"{who} has no free space in the {col.size}{'+' if col.plus else ''} column"
                       + (f" for a ring of this shape ({shape or 'no listed shape'})" if board == "advanced" else "")
                       + ": no marker")
        return
    if t.chooser is not None:
        choice = t.chooser(t, who, ring, col, free, moved)
    if choice.row is not None and choice.row not in free:
        _refuse(t, "ring-space", f"space {col.size}.{choice.row} is not free for this ring", ring.tiles)
    t.used = set()
    row = choice.row if choice.row in free else free[0]
    bonuses = col.rows[row - 1]
    before_pts = ed.ring_points(moved)
    pl["rings"].append((col.size, row))
    n_new = 2 if "second-marker" in bonuses else 1
    n_new = min(n_new, ed.markers - moved)
    after = moved + n_new
    g.markers += n_new
    g.ring_points += ed.ring_points(after) - before_pts
    g.notes.append(f"{who} moves {n_new} ring marker(s) to {col.size}{'+' if col.plus else ''}.{row}")
    for b in bonuses:
        kind, _, num = b.partition(":")
        if kind == "signpost":
            sp = choice.signpost
            if sp is not None:
                t.used.add("signpost")
            if sp is not None and sp.startswith("use:"):
                sid = sp[4:]
                if not any(s == sid for s, _ in t.placed_signposts):
                    _refuse(t, "signpost", f"signpost {sid} is not in the garden")
                if any(s == sid for s, _ in t.placed_signposts):
                    _reward(t, who, ed.signposts[sid], choice, g)
                    g.notes.append(f"{who} uses signpost {sid}")
                    _trade(t, who, sid, choice.trade, g)
                continue
            # default: the first unused signpost in edition order (docs/rules/gnome-hollow.md)
            if sp is not None and sp not in t.signposts:
                _refuse(t, "signpost", f"signpost {sp} is not available")
            new_sid: str | None = sp if sp in t.signposts else next((x for x in ed.signposts if x in t.signposts), None)
            if new_sid is None:
                g.notes.append("no signpost left to place")
                continue
            t.signposts.remove(new_sid)
            t.placed_signposts.append((new_sid, ref))
            _reward(t, who, ed.signposts[new_sid], choice, g)
            g.notes.append(f"{who} places signpost {new_sid}")
            _trade(t, who, new_sid, choice.trade, g)
        elif kind == "store":
            _reward(t, who, {"tile": 1}, choice, g)
        elif kind == "flower":
            _take_flower(t, who, choice.flower, g, "ring bonus")
        elif kind == "mushrooms":
            left = dict(ring.mushrooms)
            want = list(choice.mushrooms) or [c for c in ed.colours for _ in range(left.get(c, 0))]
            took = 0
            if choice.mushrooms:
                t.used.add("mushrooms")
                pool = dict(left)
                ok = len(choice.mushrooms) == min(int(num), sum(pool.values()))
                for c in choice.mushrooms:
                    ok = ok and pool.get(c, 0) > 0
                    pool[c] = pool.get(c, 0) - 1
                if not ok:
                    _refuse(t, "mushrooms", f"extra mushrooms {','.join(choice.mushrooms)}: the bonus takes "
                            f"{min(int(num), sum(left.values()))} of the ring's mushrooms, each at most once")
            for c in want:
                if took >= int(num):
                    break
                if left.get(c, 0) > 0:
                    left[c] -= 1
                    _add(pl["mushrooms"], c, 1)
                    _add(g.mushrooms, c, 1)
                    took += 1
    for slot in ed.wildflower_at:
        if moved < slot <= after:
            _wildflower(t, who, choice, g)
    if t.strict:
        for name in ("signpost", "store", "flower", "mushrooms", "wildflower", "discard", "trade"):
            value = getattr(choice, name)
            if value not in (None, ()) and name not in t.used:
                _refuse(t, "bonus", f"space {col.size}.{row} gives no use for {name} {value}")


def _wildflower(t: _Table, who: str, choice: MarkerChoice, g: Gains) -> None:
    pl = t.players[who]
    have = set(pl["flowers"])
    avail = [w for w in t.ed.wildflowers if w in t.wild]
    pick = choice.wildflower if choice.wildflower in avail else None
    if choice.wildflower is not None:
        t.used.add("wildflower")
        if pick is None:
            _refuse(t, "wildflower", f"wildflower tile {choice.wildflower} is not available")
    if pick is None:
        fresh = [w for w in avail if t.ed.tile(w).flower not in have]
        pick = fresh[0] if fresh else (avail[0] if avail else None)
    if pick is None:
        # the choice's flower may already have gone to this marker's flower bonus: then the default
        _take_flower(t, who, None if choice.flower in pl["flowers"] else choice.flower, g, "no wildflower tile left")
        return
    flower = t.ed.tile(pick).flower or ""
    tokens = t.wild.pop(pick)
    if flower not in have and tokens > 0:
        before = t.ed.flower_points(len(pl["flowers"]))
        pl["flowers"].append(flower)
        g.flower_points += t.ed.flower_points(len(pl["flowers"])) - before
        tokens -= 1
    if tokens:
        _add(t.flower_market, flower, tokens)
    _store(t, who, pick, choice.discard, g)
    g.notes.append(f"{who} receives wildflower tile {pick} ({flower})")


def _frozen(pl: dict[str, Any], name: str) -> PlayerState:
    return PlayerState(name, rings=tuple(pl["rings"]))


def sell(t: _Table, who: str, sales: tuple[tuple[str, int], ...], g: Gains) -> None:
    """Sell up to two sets of different colours (IllegalMoveError when a set is not open)."""
    if len(sales) > 2 or len({c for c, _ in sales}) != len(sales):
        raise IllegalMoveError("a market visit sells at most 2 sets, of different colours")
    pl = t.players[who]
    pair_sets = t.pos.option("pair_sets")
    total = 0
    for c, n in sales:
        if c not in t.ed.colours:
            raise IllegalMoveError(f"unknown mushroom colour {c!r}")
        opts = open_sales(t.ed, c, pl["mushrooms"].get(c, 0), tuple(t.market.get(c, ())), t.tokens.get(c, 0),
                          pair_sets)
        match = [s for s in opts if s.mushrooms == n]
        if not match:
            raise IllegalMoveError(f"no open {c} sale for {n} mushrooms (have {pl['mushrooms'].get(c, 0)})")
        s = max(match, key=lambda s: s.points) if n != 2 else match[0]
        pl["mushrooms"][c] -= n
        if s.blocks:
            t.market.setdefault(c, []).append(n)
            t.tokens[c] -= 1
        total += s.points
        g.notes.append(f"{who} sells {n} {c} for {s.points}")
    if t.pos.option("treasure_supply") == "box":  # option: only the tokens left in the box's supply
        held: dict[str, int] = {}
        for d in t.players.values():
            for k, n in d["treasures"].items():
                held[k] = held.get(k, 0) + n
        change = make_change(t.ed, total, supply_left(t.ed, held))
        paid = treasure_points(t.ed, change)
        if paid < total:
            g.notes.append(f"the treasure supply pays only {paid} of {total}")
        total = paid
    else:
        change = make_change(t.ed, total)
    for k, n in change.items():
        _add(pl["treasures"], k, n)
    g.treasure_points += total


def _ring_of(t: _Table, ref: PathKey) -> ClosedNetwork | None:
    pos = replace(t.pos, tiles=tuple(t.tiles))
    nets = pos.networks(t.ed)
    if ref not in nets.path_elem:
        return None
    r = nets.root_of(ref)
    return nets.describe(r) if nets.is_ring(r) else None


def apply_turn(pos: Position, ed: GnomeHollowEdition, turn: Turn, rng: random.Random | None = None,
               check_supply: bool = True, chooser: Chooser | None = None,
               strict: bool = False) -> tuple[Position, Gains, list[dict[str, Any]]]:
    """Play one turn for the player to move; IllegalMoveError when the turn breaks a rule.

    ``chooser`` (the game protocol uses it) is asked for each ring marker move that has a choice,
    instead of ``turn.markers``; ``strict`` makes a choice that cannot be honoured (a space that is
    not free, a signpost, tile, flower or wildflower that is not available, a bonus parameter for a
    bonus the space does not give) an IllegalMoveError instead of taking the default.
    """
    if pos.phase == "over":
        raise IllegalMoveError("the game is over", violations=(Violation("game-over", "the game is over"),))
    if pos.final_actions is not None and turn.placements:
        msg = ("tile placement has ended: after the last round each player takes only a final gnome action "
               f"({turn.placements[0].tile} cannot be placed)")
        raise IllegalMoveError(msg, violations=(Violation("game-end", msg, (turn.placements[0].cell,)),))
    t = _Table(pos, ed, chooser, strict)
    who = pos.mover.name
    g = Gains()
    choices = list(turn.markers)

    def next_choice() -> MarkerChoice:
        return choices.pop(0) if choices else MarkerChoice()

    # start of turn: rings completed by others on our lying gnomes
    for gn in t.gnomes:
        if gn[0] == who and gn[2] and isinstance(gn[1], tuple):
            ring = _ring_of(t, gn[1])
            gn[2] = False
            if ring is None:
                continue
            for c, n in ring.mushrooms.items():
                if n:
                    _add(t.players[who]["mushrooms"], c, n)
                    _add(g.mushrooms, c, n)
            _move_marker(t, who, ring, gn[1], next_choice(), g)
    if turn.placements:
        rep = check_sequence(pos, ed, list(turn.placements), turn.permits, check_supply)
        if not rep.legal:
            raise IllegalMoveError("illegal placement: " + "; ".join(rep.reasons))
        t.tiles = list(pos.lay(turn.placements).tiles)  # marked as one turn under option ring_check=turn
        for p in turn.placements:
            if p.tile in t.offered:
                t.offered.remove(p.tile)
            elif p.tile in t.players[who]["storage"]:
                t.players[who]["storage"].remove(p.tile)
        stuck = _stuck(pos, ed, turn, t)
        if rng is not None:
            while len(t.offered) < ed.offered and t.bag:
                t.offered.append(t.bag.pop(rng.randrange(len(t.bag))))
        rings_json = [r.to_json(ed) for r in rep.rings]
        for r in rep.rings:
            ring = r.network
            ref = ring.paths[0]
            if r.when == "now":
                for c, n in ring.mushrooms.items():
                    if n:
                        _add(t.players[who]["mushrooms"], c, n)
                        _add(g.mushrooms, c, n)
                _move_marker(t, who, ring, ref, next_choice(), g)
            elif r.when == "pot":
                t.pots.append((ref, {c: n for c, n in ring.mushrooms.items() if n}))
                _move_marker(t, who, ring, ref, next_choice(), g)
            else:
                for gn in t.gnomes:
                    if gn[0] == r.claimed_by and isinstance(gn[1], tuple) and gn[1] in ring.paths:
                        gn[2] = True
                g.notes.append(f"{r.claimed_by} will score the ring of {ring.size} at the start of their turn")
    else:
        rings_json = []
        stuck = _stuck(pos, ed, turn, t)
    if turn.action is not None:
        _act(t, who, turn.action, g)
    nxt_player = (pos.to_move + 1) % len(pos.players)
    if pos.final_actions is not None:  # one more final gnome action taken
        return replace(t.freeze(), to_move=nxt_player, final_actions=pos.final_actions + 1), g, rings_json
    # end of the game?
    for pname, d in t.players.items():
        if len(d["flowers"]) >= ed.end_flowers or \
                markers_moved(ed, _frozen(d, pname), pos.option("board")) >= ed.end_markers:
            t.pos = replace(t.pos, end_triggered=True)
    if not t.bag and rng is not None:
        t.pos = replace(t.pos, end_triggered=True)
    if stuck:  # option stuck_tiles=end-game: the board offered fewer than two tiles that fit
        t.pos = replace(t.pos, end_triggered=True)
    if t.pos.end_triggered and t.sunset:
        t.bag += t.sunset
        t.sunset = []
    nxt = replace(t.freeze(), to_move=nxt_player)
    if nxt.end_triggered and nxt_player == 0:  # the round is finished: tile placement ends
        nxt = replace(nxt, final_actions=0)
    return nxt, g, rings_json


def _stuck(pos: Position, ed: GnomeHollowEdition, turn: Turn, t: _Table) -> bool:
    """Option ``stuck_tiles = "end-game"``: True when this turn (in phase ``play``) placed fewer than
    two offered tiles because none of the offered tiles left has a legal placement (called after the
    placements are laid in ``t`` and before the board is refilled)."""
    if pos.option("stuck_tiles") != "end-game" or pos.end_triggered:
        return False
    used = sum(1 for p in turn.placements if p.tile in pos.offered)
    if used >= 2:
        return False
    garden = replace(pos, tiles=tuple(t.tiles))
    nets = garden.networks(ed, settled=False)  # the turn's tiles are still being placed
    return not any(legal_placements(garden, ed, tid, nets, turn.permits) for tid in dict.fromkeys(t.offered))


def _act(t: _Table, who: str, a: GnomeAction, g: Gains) -> None:
    mine = [gn for gn in t.gnomes if gn[0] == who]
    if not 0 <= a.gnome < len(mine):
        raise IllegalMoveError(f"{who} has no gnome {a.gnome}")
    gn = mine[a.gnome]
    if gn[2]:
        raise IllegalMoveError("a gnome lying on a ring to score cannot move")
    target: Any
    if a.kind == "market":
        target = MARKET
    elif a.kind == "flowers":
        target = FLOWERS
    elif a.kind in ("claim", "signpost"):
        if a.at is None:
            raise IllegalMoveError(f"{a.kind} needs a path Q,R.K")
        target = a.at
    else:
        raise IllegalMoveError(f"unknown gnome action {a.kind!r}")
    if gn[1] == target:
        raise IllegalMoveError("a gnome must move to a different place to act")
    if t.strict and a.trade is not None and a.kind != "signpost":
        raise IllegalMoveError("a trade follows a signpost visit only")
    if t.strict and a.kind == "flowers" and a.flower is None and any(
            t.flower_market.get(f, 0) > 0 and f not in t.players[who]["flowers"] for f in t.ed.flowers):
        raise IllegalMoveError("name the flower to take at the flower market")
    if a.kind == "market":
        sell(t, who, a.sales, g)
    elif a.kind == "flowers":
        _take_flower(t, who, a.flower, g)
    else:
        pos = replace(t.pos, tiles=tuple(t.tiles))
        nets = pos.networks(t.ed)
        if a.at not in nets.path_elem:
            raise IllegalMoveError(f"no path {a.at}")
        root = nets.root_of(a.at)
        others = [x for x in t.gnomes if x is not gn and isinstance(x[1], tuple) and x[1] in nets.path_elem
                  and nets.root_of(x[1]) == root]
        if a.kind == "signpost":
            sps = [s for s, k in t.placed_signposts if k in nets.path_elem and nets.root_of(k) == root]
            if not nets.is_ring(root) or not sps:
                raise IllegalMoveError("no signpost in that ring")
            _reward(t, who, t.ed.signposts[sps[0]], MarkerChoice(), g)
            g.notes.append(f"{who} visits signpost {sps[0]}")
            _trade(t, who, sps[0], a.trade, g)
        elif nets.is_ring(root):
            pots = [i for i, (k, _) in enumerate(t.pots) if k in nets.path_elem and nets.root_of(k) == root]
            if not pots:
                raise IllegalMoveError("that completed ring holds no mushrooms to collect")
            _k, m = t.pots.pop(pots[0])
            for c, n in m.items():
                _add(t.players[who]["mushrooms"], c, n)
                _add(g.mushrooms, c, n)
            g.notes.append(f"{who} collects a ring's mushrooms")
        else:
            if t.pos.option("claim") == "path":  # option claim=path: any unoccupied path
                if any(x[1] == a.at for x in others):
                    raise IllegalMoveError("another gnome stands on that path")
            elif others:
                raise IllegalMoveError("that network already holds a gnome")
            g.notes.append(f"{who} claims the network of {target[0][0]},{target[0][1]}.{target[1]}")
    gn[1] = target


def final_scores(pos: Position, ed: GnomeHollowEdition) -> list[dict[str, Any]]:
    """Each player's flower, ring and treasure score, total, and rank (ties: most unsold mushrooms)."""
    rows: list[dict[str, Any]] = []
    for p in pos.players:
        fl = ed.flower_points(len(p.flowers))
        rg = ed.ring_points(markers_moved(ed, p, pos.option("board")))
        tr = treasure_points(ed, p.treasures)
        rows.append({"player": p.name, "flowers": fl, "rings": rg, "treasure": tr, "total": fl + rg + tr,
                     "unsold_mushrooms": sum(p.mushrooms.values())})
    order = sorted(rows, key=lambda r: (-r["total"], -r["unsold_mushrooms"]))
    for r in rows:
        key = (r["total"], r["unsold_mushrooms"])
        r["rank"] = 1 + sum(1 for o in order if (o["total"], o["unsold_mushrooms"]) > key)
    return rows


def random_turn(pos: Position, ed: GnomeHollowEdition, rng: random.Random) -> Position:
    """A random legal turn: two offered tiles (sometimes a stored one) at random legal spots, default
    resolve choices, and a random gnome action (claim an unclaimed open network, sell, flowers, none)."""
    placements: list[Placement] = []
    pool = list(pos.offered) if pos.final_actions is None else []
    rng.shuffle(pool)
    stored = list(pos.mover.storage) if pos.final_actions is None else []
    extra = [stored[0]] if stored and rng.random() < 0.5 else []
    taken = 0
    for tid in pool + extra:
        if tid in pos.offered and taken >= 2:
            continue
        trial = pos.lay(placements)
        opts = legal_placements(trial, ed, tid, trial.networks(ed, settled=False))
        if opts:
            placements.append(rng.choice(opts))
            taken += tid in pos.offered
    action = None
    r = rng.random()
    after = pos.lay(placements)
    mine = [i for i, gn in enumerate(g for g in pos.gnomes if g.player == pos.mover.name)]
    if mine:
        gi = rng.choice(mine)
        if r < 0.5:
            an = after.networks(ed)
            claimed = set(after.claims(ed, an))
            free = [k for k in sorted(an.path_elem) if not an.is_ring(an.root_of(k)) and an.root_of(k) not in claimed]
            if free:
                action = GnomeAction(gi, "claim", at=rng.choice(free))
        elif r < 0.7:
            action = GnomeAction(gi, "flowers")
    turn = Turn(tuple(placements), action=action)
    try:
        nxt, _g, _r = apply_turn(pos, ed, turn, rng)
    except IllegalMoveError:
        nxt, _g, _r = apply_turn(pos, ed, Turn(tuple(placements)), rng)
    return nxt
