"""Gnome Hollow through the game protocol (:mod:`gnomekit.models.core.protocol`).

A turn is a sequence of protocol moves, in the rulebook's order (docs/rules/gnome-hollow.md,
"The game protocol"):

1. ``marker SIZE.ROW ...`` for each ring scored at the start of the turn (the mover's gnome lies on
   a ring a rival completed) that has a free space;
2. placements ``TILE@Q,R:ORIENT``, one tile at a time (2 offered tiles, up to 2 stored ones, in any
   order), then ``end``;
3. the refill: a chance node per tile drawn, ``draw TILE`` (each tile left in the bag equally
   likely, probability ``1/len(bag)`` as an exact ``Fraction``);
4. ``marker SIZE.ROW [signpost=ID|use:ID] [store=T] [flower=F] [mushrooms=C,C] [wildflower=W]
   [discard=T] [trade=N]`` for each ring closed this turn that moves a ring marker (a choice exists);
5. the gnome action, which ends the turn: ``gnome N flowers F``, ``gnome N market [C=K ...]``,
   ``gnome N claim Q,R.K``, ``gnome N signpost Q,R.K [trade=N]``, or ``pass``.

The position carries the turn in progress (the moves made since the turn began), and the engine
(``scoring.apply_turn``) replays it, so every answer is the rules engine's.  When the end of the game
is triggered the round is finished, then every player takes one final gnome action (the table's
phase is ``final-actions`` and ``final-actions`` counts them); after the last one the phase is
``over``, the position is terminal and ``scores()`` are the final scores.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations, product
from pathlib import Path
from typing import Any, TypeAlias

from gnomekit.models.core.errors import GnomekitError, IllegalMoveError, NotationError
from gnomekit.models.core.hexgrid import Hex
from gnomekit.models.core.protocol import CHANCE, TERMINAL, Game, Report
from gnomekit.models.core.protocol import Position as ProtocolPosition
from gnomekit.models.core.text import is_count
from gnomekit.models.core.violation import Violation
from gnomekit.models.gnome_hollow import notation
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, RingColumn, default_edition, load_edition
from gnomekit.models.gnome_hollow.market import open_sales
from gnomekit.models.gnome_hollow.networks import ClosedNetwork, PathKey
from gnomekit.models.gnome_hollow.placement import Placement, check_sequence, legal_placements, legal_placements_of
from gnomekit.models.gnome_hollow.position import FLOWERS, MARKET, Position
from gnomekit.models.gnome_hollow.scoring import GnomeAction, MarkerChoice, Turn, _Table, apply_turn, final_scores
from gnomekit.models.gnome_hollow.setup import new_position, random_position, variant_options

# ---------------------------------------------------------------------------------------------
# moves


@dataclass(frozen=True)
class EndPlacing:
    """``end``: the mover places no more tiles this turn."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Draw:
    """``draw TILE``: a chance outcome, the tile drawn from the bag to refill the garden tile board."""

    tile: str

    def __str__(self) -> str:
        return f"draw {self.tile}"


@dataclass(frozen=True)
class RingMarker:
    """``marker SIZE.ROW key=value ...``: where a ring marker goes and how its bonuses are taken."""

    size: int
    row: int
    signpost: str | None = None  # a new signpost id, or "use:ID" for one already in the garden
    store: str | None = None
    flower: str | None = None
    mushrooms: tuple[str, ...] = ()
    wildflower: str | None = None
    discard: str | None = None
    trade: int | None = None

    def choice(self) -> MarkerChoice:
        return MarkerChoice(self.row, self.signpost, self.store, self.flower, self.mushrooms, self.wildflower,
                            self.discard, self.trade)

    def __str__(self) -> str:
        out = [f"marker {self.size}.{self.row}"]
        for k in ("signpost", "store", "flower", "wildflower", "discard", "trade"):
            v = getattr(self, k)
            if v is not None:
                out.append(f"{k}={v}")
        if self.mushrooms:
            out.append("mushrooms=" + ",".join(self.mushrooms))
        return " ".join(out)


@dataclass(frozen=True)
class Act:
    """``gnome N KIND ...``: move gnome N (0-based, in the position's order) to act; ends the turn."""

    gnome: int
    kind: str  # "flowers", "market", "claim", "signpost"
    at: PathKey | None = None
    flower: str | None = None
    sales: tuple[tuple[str, int], ...] = ()
    trade: int | None = None

    def action(self) -> GnomeAction:
        return GnomeAction(self.gnome, self.kind, self.at, self.flower, self.sales, self.trade)

    def __str__(self) -> str:
        out = [f"gnome {self.gnome} {self.kind}"]
        if self.at is not None:
            out.append(f"{self.at[0][0]},{self.at[0][1]}.{self.at[1]}")
        if self.flower is not None:
            out.append(self.flower)
        out += [f"{c}={n}" for c, n in self.sales]
        if self.trade is not None:
            out.append(f"trade={self.trade}")
        return " ".join(out)


@dataclass(frozen=True)
class Pass:
    """``pass``: no gnome action; ends the turn."""

    def __str__(self) -> str:
        return "pass"


Move: TypeAlias = "Placement | EndPlacing | Draw | RingMarker | Act | Pass"
ACTION_KINDS = ("flowers", "market", "claim", "signpost")


def _bad(text: str, source: str, expected: str, column: int = 1, found: str | None = None) -> NotationError:
    return NotationError(f"expected {expected}", source=source, line=1, column=column,
                         text=found if found is not None else text)


def _int(tok: str, text: str, source: str, col: int, what: str) -> int:
    if not is_count(tok):
        raise _bad(text, source, what, col, tok)
    return int(tok)


def _ref(tok: str, text: str, source: str, col: int) -> PathKey:
    cell, dot, k = tok.partition(".")
    q, comma, r = cell.partition(",")
    try:
        if not dot or not comma:
            raise ValueError(tok)
        return ((int(q), int(r)), int(k))
    except ValueError:
        raise _bad(text, source, "a path Q,R.K", col, tok) from None


def parse_move(text: str, source: str = "<move>") -> Move:
    """A Gnome Hollow protocol move from its notation (module docstring)."""
    toks = text.split()
    if not toks:
        raise _bad(text, source, "a move: a placement TILE@Q,R:ORIENT, end, draw TILE, marker SIZE.ROW ..., "
                   "gnome N KIND ... or pass")
    cols = []
    at = 0
    for t in toks:
        at = text.index(t, at)
        cols.append(at + 1)
        at += len(t)
    head = toks[0]
    if head in ("end", "pass") and len(toks) == 1:
        return EndPlacing() if head == "end" else Pass()
    if head == "draw":
        if len(toks) != 2:
            raise _bad(text, source, "draw TILE", 1)
        return Draw(toks[1])
    if head == "marker":
        if len(toks) < 2:
            raise _bad(text, source, "marker SIZE.ROW", 1)
        size, dot, row = toks[1].partition(".")
        if not dot or not is_count(size) or not is_count(row):
            raise _bad(text, source, "a ring board space SIZE.ROW", cols[1], toks[1])
        fields: dict[str, Any] = {}
        for tok, col in zip(toks[2:], cols[2:], strict=True):
            k, eq, v = tok.partition("=")
            known = ("signpost", "store", "flower", "mushrooms", "wildflower", "discard", "trade")
            if not eq or k not in known or not v or k in fields:
                raise _bad(text, source, "KEY=VALUE once each, KEY one of " + ", ".join(known), col, tok)
            fields[k] = (tuple(v.split(",")) if k == "mushrooms" else
                         _int(v, text, source, col, "trade=N") if k == "trade" else v)
        return RingMarker(int(size), int(row), **fields)
    if head == "gnome":
        if len(toks) < 3 or not is_count(toks[1]) or toks[2] not in ACTION_KINDS:
            raise _bad(text, source, "gnome N KIND with KIND one of " + ", ".join(ACTION_KINDS), 1)
        gi, kind = int(toks[1]), toks[2]
        rest = list(zip(toks[3:], cols[3:], strict=True))
        if kind == "flowers":
            if len(rest) > 1:
                raise _bad(text, source, "gnome N flowers [FLOWER]", rest[1][1], rest[1][0])
            return Act(gi, kind, flower=rest[0][0] if rest else None)
        if kind == "market":
            sales = []
            for tok, col in rest:
                c, eq, n = tok.partition("=")
                if not eq or not c or not is_count(n):
                    raise _bad(text, source, "a set COLOUR=MUSHROOMS", col, tok)
                sales.append((c, int(n)))
            return Act(gi, kind, sales=tuple(sales))
        if not rest:
            raise _bad(text, source, f"gnome N {kind} Q,R.K", len(text) + 1, "end of move")
        ref = _ref(rest[0][0], text, source, rest[0][1])
        trade = None
        for tok, col in rest[1:]:
            k, eq, v = tok.partition("=")
            if kind != "signpost" or k != "trade" or trade is not None:
                raise _bad(text, source, "nothing more" if kind == "claim" else "trade=N", col, tok)
            trade = _int(v, text, source, col, "trade=N")
        return Act(gi, kind, at=ref, trade=trade)
    if len(toks) == 1:
        return notation.parse_placement_token(head, source, 1, 1)
    raise _bad(text, source, "a move: a placement TILE@Q,R:ORIENT, end, draw TILE, marker SIZE.ROW ..., "
               "gnome N KIND ... or pass", cols[1], toks[1])


# ---------------------------------------------------------------------------------------------
# replaying the turn in progress through the engine


class _NeedMarker(Exception):
    """The engine reached a ring marker move with a choice that the turn has not made yet."""

    def __init__(self, table: _Table, who: str, ring: ClosedNetwork, col: RingColumn, free: list[int],
                 moved: int) -> None:
        super().__init__("a ring marker choice is due")
        self.table, self.who, self.ring, self.col, self.free, self.moved = table, who, ring, col, free, moved


class _NeedDraw(Exception):
    """The engine refills the garden tile board and the turn has not drawn the next tile yet."""

    def __init__(self, bag: list[str]) -> None:
        super().__init__("a draw is due")
        self.bag = sorted(bag)


class _Recorded:
    """The engine's chooser: the turn's ring marker moves in order, then "a choice is due"."""

    def __init__(self, markers: list[RingMarker]) -> None:
        self.markers = markers
        self.i = 0

    def __call__(self, t: _Table, who: str, ring: ClosedNetwork, col: RingColumn, free: list[int],
                 moved: int) -> MarkerChoice:
        if self.i >= len(self.markers):
            raise _NeedMarker(t, who, ring, col, free, moved)
        m = self.markers[self.i]
        self.i += 1
        if m.size != col.size:
            msg = f"this ring of {ring.size} tiles goes to the {col.size} column, not {m.size}"
            raise IllegalMoveError(msg, violations=(Violation("ring-space", msg, ring.tiles),))
        return m.choice()


class _Draws(random.Random):
    """The engine's random generator for the refill: the turn's draws in order, then "a draw is due"."""

    def __init__(self, bag: tuple[str, ...], draws: list[str]) -> None:
        super().__init__(0)
        self.left = list(bag)  # mirrors the engine's bag list (sorted, popped by index)
        self.draws = list(draws)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if not self.draws:
            raise _NeedDraw(self.left)
        tile = self.draws.pop(0)
        if tile not in self.left:
            msg = f"{tile} is not in the bag"
            raise IllegalMoveError(msg, violations=(Violation("draw", msg),))
        i = self.left.index(tile)
        self.left.pop(i)
        return i


def _violations(exc: IllegalMoveError, rule: str) -> tuple[Violation, ...]:
    return tuple(exc.violations) or (Violation(rule, exc.message),)


# ---------------------------------------------------------------------------------------------
# the position


class GnomeHollowPosition(ProtocolPosition):
    """A Gnome Hollow table at some point of a turn: the engine position at the start of the turn,
    the moves made since, and (after the end is triggered and the round is over) the final gnome
    actions taken."""

    def __init__(self, game: GnomeHollowGame, start: Position, moves: tuple[Move, ...] = ()) -> None:
        self._game = game
        self.start = start
        self.moves = moves

    @property
    def final(self) -> int | None:
        """Final gnome actions taken (None before the last round is over): the table's own count."""
        return self.start.final_actions

    @property
    def game_phase(self) -> str:
        """The phase of the game (``play``, ``end-triggered``, ``final-actions``, ``over``); ``phase`` is
        where the turn is."""
        return self.start.phase

    @property
    def game(self) -> GnomeHollowGame:
        return self._game

    @property
    def ed(self) -> GnomeHollowEdition:
        return self._game.edition

    @cached_property
    def _key(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    def key(self) -> str:
        return self._key

    # -- the turn in progress ------------------------------------------------------------------
    @property
    def placements(self) -> list[Placement]:
        return [m for m in self.moves if isinstance(m, Placement)]

    @property
    def ended(self) -> bool:
        return any(isinstance(m, EndPlacing) for m in self.moves)

    def _markers(self) -> list[RingMarker]:
        return [m for m in self.moves if isinstance(m, RingMarker)]

    def _draws(self) -> list[str]:
        return [m.tile for m in self.moves if isinstance(m, Draw)]

    def _run(self, markers: list[RingMarker], action: GnomeAction | None = None,
             draws: list[str] | None = None) -> Position:
        """Replay the turn through the engine (raises _NeedMarker / _NeedDraw at a missing choice)."""
        chooser = _Recorded(markers)
        if self.final is not None:
            nxt, _, _ = apply_turn(self.start, self.ed, Turn((), action=action), None, chooser=chooser, strict=True)
        elif not self.ended:
            nxt, _, _ = apply_turn(self.start, self.ed, Turn(()), None, chooser=chooser, strict=True)
        else:
            rng = _Draws(self.start.bag, self._draws() if draws is None else draws)
            nxt, _, _ = apply_turn(self.start, self.ed, Turn(tuple(self.placements), action=action), rng,
                                   chooser=chooser, strict=True)
        return nxt

    @cached_property
    def _state(self) -> tuple[str, Any]:
        """("terminal"|"marker"|"place"|"chance"|"action", detail)."""
        if self.start.phase == "over":
            return ("terminal", None)
        try:
            after = self._run(self._markers())
        except _NeedMarker as need:
            return ("marker", need)
        except _NeedDraw as need:
            return ("chance", need)
        if self.final is None and not self.ended:
            return ("place", None)
        return ("action", after)

    @property
    def phase(self) -> str:
        """Where the turn is: ``marker``, ``place``, ``chance``, ``action`` or ``terminal``."""
        return self._state[0]

    # -- protocol --------------------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self._state[0]
        if phase == "terminal":
            return TERMINAL
        if phase == "chance":
            return CHANCE
        return self.start.to_move

    def is_terminal(self) -> bool:
        return self._state[0] == "terminal"

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        phase, need = self._state
        if phase != "chance":
            raise ValueError("not a chance node")
        return [(Draw(t), Fraction(1, len(need.bag))) for t in need.bag]

    def scores(self) -> dict[str, float]:
        """Flower + ring + treasure points of each player at the start of this turn (final at the end)."""
        return {r["player"]: float(r["total"]) for r in final_scores(self.start, self.ed)}

    def result(self) -> str | None:
        if not self.is_terminal():
            return None
        winners = [r["player"] for r in final_scores(self.start, self.ed) if r["rank"] == 1]
        return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"

    def parse_move(self, text: str, source: str = "<move>") -> Any:
        return parse_move(text, source)

    def move_text(self, move: Any) -> str:
        if isinstance(move, Placement):
            return notation.placement_to_text(move, self.ed)
        return str(move)

    def legal_moves(self) -> list[Any]:
        phase, detail = self._state
        if phase == "terminal":
            return []
        if phase == "chance":
            return [m for m, _ in self.chance_outcomes()]
        if phase == "marker":
            return [m for m in self._marker_candidates(detail) if self._marker_ok(m) is None]
        if phase == "place":
            out: list[Any] = list(self._placement_moves())
            if self._end_problem() is None:
                out.append(EndPlacing())
            return out
        return [Pass(), *self._action_moves(detail)]

    def check(self, move: Any) -> Report:
        m = self.parse_move(move) if isinstance(move, str) else move
        text = self.move_text(m)
        vs = self._violations(m)
        return Report(text, vs)

    def _violations(self, m: Any) -> tuple[Violation, ...]:
        phase, detail = self._state
        if phase == "terminal":
            return (Violation("game-over", "the game is over"),)
        expected = {"chance": "the refill: draw TILE", "marker": "a ring marker move: marker SIZE.ROW ...",
                    "place": "a placement or end", "action": "the gnome action (gnome N KIND ...) or pass"}[phase]
        wrong = Violation("turn-order", f"{self.move_text(m)} is not a move now: the turn expects {expected}",
                          (m.cell,) if isinstance(m, Placement) else ())
        if phase == "chance":
            if not isinstance(m, Draw):
                return (wrong,)
            if m.tile not in detail.bag:
                return (Violation("draw", f"{m.tile} is not in the bag"),)
            return ()
        if phase == "marker":
            if not isinstance(m, RingMarker):
                return (wrong,)
            return self._marker_ok(m) or ()
        if phase == "place":
            if isinstance(m, EndPlacing):
                problem = self._end_problem()
                return () if problem is None else (problem,)
            if not isinstance(m, Placement):
                return (wrong,)
            rep = check_sequence(self.start, self.ed, [*self.placements, m])
            return tuple(rep.tiles[-1].violations)
        if isinstance(m, Pass):
            return ()
        if not isinstance(m, Act):
            return (wrong,)
        try:
            self._run(self._markers(), m.action())
        except IllegalMoveError as exc:
            return _violations(exc, "gnome-action")
        return ()

    def _apply(self, move: Any) -> GnomeHollowPosition:
        phase = self._state[0]
        if phase == "action":  # the engine counts the final gnome actions and ends the game
            return GnomeHollowPosition(self._game, self._run(self._markers(), move.action()
                                                             if isinstance(move, Act) else None))
        return GnomeHollowPosition(self._game, self.start, (*self.moves, move))

    # -- placements ----------------------------------------------------------------------------
    def _trial(self) -> Position:
        return self.start.lay(self.placements)

    def _tiles_left(self) -> tuple[list[str], list[str]]:
        placed = {p.tile for p in self.placements}
        used = sum(1 for p in self.placements if p.tile in self.start.offered)
        offered = [t for t in self.start.offered if t not in placed] if used < 2 else []
        stored = [t for t in self.start.mover.storage if t not in placed]
        return offered, stored

    def _placement_moves(self) -> list[Placement]:
        trial = self._trial()
        nets = trial.networks(self.ed, settled=False)
        offered, stored = self._tiles_left()
        return legal_placements_of(trial, self.ed, dict.fromkeys([*offered, *stored]), nets)

    def _end_problem(self) -> Violation | None:
        used = sum(1 for p in self.placements if p.tile in self.start.offered)
        if used >= 2:
            return None
        offered, _ = self._tiles_left()
        trial = self._trial()
        nets = trial.networks(self.ed, settled=False)
        for tid in offered:
            opts = legal_placements(trial, self.ed, tid, nets)
            if opts:
                return Violation("two-tiles", f"a turn places 2 tiles from the garden tile board; {used} placed "
                                 f"and {tid} can still be placed (e.g. {notation.placement_to_text(opts[0], self.ed)})",
                                 (opts[0].cell,))
        return None

    # -- ring markers ------------------------------------------------------------------------------
    def _marker_ok(self, m: RingMarker) -> tuple[Violation, ...] | None:
        """None when the engine accepts this ring marker move now, else its violations."""
        try:
            self._run([*self._markers(), m])
        except (_NeedMarker, _NeedDraw):
            return None
        except IllegalMoveError as exc:
            return _violations(exc, "resolve")
        return None

    def _marker_candidates(self, need: _NeedMarker) -> list[RingMarker]:
        """Every way to take this ring marker move (spaces x bonus parameters); filtered by the engine."""
        ed, t = self.ed, need.table
        pl = t.players[need.who]
        out: list[RingMarker] = []
        for row in need.free:
            bonuses = need.col.rows[row - 1]
            kinds = {b.partition(":")[0]: b.partition(":")[2] for b in bonuses}
            after = need.moved + min(2 if "second-marker" in kinds else 1, ed.markers - need.moved)
            wild = any(need.moved < s <= after for s in ed.wildflower_at)
            signs: list[str | None] = [None]
            if "signpost" in kinds:
                placed = list(dict.fromkeys(s for s, _ in t.placed_signposts))
                signs = [*(s for s in ed.signposts if s in t.signposts), *("use:" + s for s in placed)] or [None]
            flowers: list[str | None] = [None]
            if "flower" in kinds:
                flowers = [f for f in ed.flowers if t.flower_market.get(f, 0) > 0 and f not in pl["flowers"]] or [None]
            extras: list[tuple[str, ...]] = [()]
            if "mushrooms" in kinds:
                pool = [c for c in ed.colours for _ in range(need.ring.mushrooms.get(c, 0))]
                extras = sorted(set(combinations(pool, min(int(kinds["mushrooms"]), len(pool))))) or [()]
            wilds: list[str | None] = [None]
            if wild:
                wilds = [w for w in ed.wildflowers if w in t.wild] or [None]
            for sign, flower, extra, wf in product(signs, flowers, extras, wilds):
                sid = sign[4:] if sign and sign.startswith("use:") else sign
                gives_tile = "store" in kinds or (sid is not None and "tile" in ed.signposts[sid])
                stores: list[str | None] = list(dict.fromkeys(t.offered)) if gives_tile and t.offered else [None]
                trades: list[int | None] = [None]
                if sid is not None and t.pos.option("trade_board") == "on":
                    trades += list(range(1, len(ed.trades.get(sid, ())) + 1))
                adds = (1 if gives_tile and t.offered else 0) + (1 if wf is not None else 0)
                st = list(pl["storage"])
                discards: list[str | None] = [None]
                if adds and (len(st) + adds > ed.storage or (wf is not None and any(x in ed.wildflowers for x in st))):
                    discards += list(dict.fromkeys([*st, *(s for s in stores if s), *([wf] if wf else [])]))
                for store, trade, discard in product(stores, trades, discards):
                    out.append(RingMarker(need.col.size, row, sign, store, flower, extra, wf, discard, trade))
        return list(dict.fromkeys(out))

    # -- the gnome action ----------------------------------------------------------------------------
    def _action_moves(self, after: Position) -> list[Act]:
        """Every gnome action the engine accepts after the resolve step (``after``: the table then)."""
        ed = self.ed
        who = self.start.mover.name
        mine = [g.at for g in self.start.gnomes if g.player == who]
        me = after.player(who)
        nets = after.networks(ed)
        cands: list[Act] = []
        flowers = [f for f in ed.flowers if after.flower_market.get(f, 0) > 0 and f not in me.flowers]
        sales: list[tuple[tuple[str, int], ...]] = [()]
        singles = [(c, s.mushrooms) for c in ed.colours
                   for s in open_sales(ed, c, me.mushroom(c), after.market.get(c, ()), after.market_tokens.get(c, 0),
                                       after.option("pair_sets"))]
        singles = list(dict.fromkeys(singles))
        sales += [(a,) for a in singles] + [(a, b) for a, b in combinations(singles, 2) if a[0] != b[0]]
        pot_roots = {nets.root_of(k) for k, _ in after.pots if k in nets.path_elem}
        sign_roots = {nets.root_of(k) for _, k in after.placed_signposts if k in nets.path_elem}
        holders: dict[int, list[int]] = {}  # root -> indices (in after.gnomes) of gnomes on it
        for i, g in enumerate(self.start.gnomes):
            if isinstance(g.at, tuple) and g.at in nets.path_elem:
                holders.setdefault(nets.root_of(g.at), []).append(i)
        my_index = [i for i, g in enumerate(self.start.gnomes) if g.player == who]
        for gi, at in enumerate(mine):
            if at != FLOWERS:
                cands += [Act(gi, "flowers", flower=f) for f in flowers] or [Act(gi, "flowers")]
            if at != MARKET:
                cands += [Act(gi, "market", sales=s) for s in sales]
            for k in sorted(nets.path_elem):
                if k == at:
                    continue
                r = nets.root_of(k)
                if nets.is_ring(r):
                    if r in pot_roots:
                        cands.append(Act(gi, "claim", at=k))
                    if r in sign_roots:
                        cands.append(Act(gi, "signpost", at=k))
                        if after.option("trade_board") == "on":
                            sid = next(s for s, ref in after.placed_signposts
                                       if ref in nets.path_elem and nets.root_of(ref) == r)
                            n_trades = len(ed.trades.get(sid, ()))
                            cands += [Act(gi, "signpost", at=k, trade=n) for n in range(1, n_trades + 1)]
                elif after.option("claim") == "path":  # any path no other gnome stands on
                    if not [i for i in holders.get(r, []) if i != my_index[gi] and self.start.gnomes[i].at == k]:
                        cands.append(Act(gi, "claim", at=k))
                elif not [i for i in holders.get(r, []) if i != my_index[gi]]:
                    cands.append(Act(gi, "claim", at=k))
        out = []
        for a in cands:
            if a.kind in ("claim",) or (a.kind == "signpost" and a.trade is None):
                out.append(a)  # decided above exactly as the engine decides (no mushrooms involved)
                continue
            try:
                self._run(self._markers(), a.action())
            except IllegalMoveError:
                continue
            out.append(a)
        return out

    # -- pictures ----------------------------------------------------------------------------------
    def svg(self, marks: Any = None) -> str:
        """The table as an SVG picture (models/gnome_hollow/render.py), with ``marks`` drawn on it."""
        from gnomekit.models.gnome_hollow.render import position_svg

        return position_svg(self, marks)

    def move_cells(self, move: Any) -> tuple[Hex, ...]:
        """The hexes a move touches: a placement's hex, the hex of the path a gnome goes to, the
        Stump for the market, the ring's tiles for a ring marker move; none for the rest."""
        m = self.parse_move(move) if isinstance(move, str) else move
        if isinstance(m, Placement):
            return (m.cell,)
        if isinstance(m, Act):
            if m.at is not None:
                return (m.at[0],)
            return ((0, 0),) if m.kind == "market" else ()
        if isinstance(m, RingMarker) and self._state[0] == "marker":
            return tuple(self._state[1].ring.tiles)
        return ()

    # -- notation ----------------------------------------------------------------------------------
    def to_text(self) -> str:
        lines = notation.position_to_text(self.start, self.ed).splitlines()
        extra = []
        if self.moves:
            extra.append("turn: " + "; ".join(self.move_text(m) for m in self.moves))
        i = next(n for n, line in enumerate(lines) if line.startswith("to-move:")) + 1
        return "\n".join(lines[:i] + extra + lines[i:]) + "\n"

    def to_json(self) -> dict[str, Any]:
        d = notation.position_to_json(self.start, self.ed)
        if self.moves:
            d["turn"] = [self.move_text(m) for m in self.moves]
        return d


# ---------------------------------------------------------------------------------------------
# the game


class GnomeHollowGame(Game):
    """Gnome Hollow with one edition (2-4 players, the bag as chance)."""

    name = "gnome-hollow"
    title = "Gnome Hollow"
    has_chance = True

    def __init__(self, edition: GnomeHollowEdition) -> None:
        self._edition = edition
        self.min_players = edition.players_min
        self.max_players = edition.players_max

    @property
    def edition(self) -> GnomeHollowEdition:
        return self._edition

    def position(self, start: Position, moves: tuple[Move, ...] = ()) -> GnomeHollowPosition:
        """The protocol position of an engine position at the start of a turn (then ``moves``)."""
        pos = GnomeHollowPosition(self, start, ())
        for m in moves:
            pos = pos.apply(m)
        return pos

    def new(self, players: int = 2, seed: int = 0, variants: tuple[str, ...] | list[str] = (),
            **options: Any) -> GnomeHollowPosition:
        """The table at setup, as ``gnomekit gnome-hollow new`` (``variants``: ``advanced-board``,
        ``trade-board``; other keyword options are position options, e.g. ``pair_sets="many"``)."""
        opts = {**variant_options(self._edition, list(variants)), **{k: str(v) for k, v in options.items()}}
        return self.position(new_position(self._edition, players, seed, options=opts))

    def random(self, seed: int = 0, turns: int = 6, players: int = 2, variants: tuple[str, ...] | list[str] = (),
               **options: Any) -> GnomeHollowPosition:
        """The table after ``turns`` random legal turns, as ``gnomekit gnome-hollow random``."""
        opts = {**variant_options(self._edition, list(variants)), **{k: str(v) for k, v in options.items()}}
        return self.position(random_position(self._edition, seed, turns, players, opts))

    def read(self, text: str, source: str = "<input>") -> GnomeHollowPosition:
        """A position from text or JSON (as ``show`` prints it; its ``#`` lines are comments), with
        the turn in progress (``turn:``) replayed move by move."""
        extra: dict[str, Any] = {}
        start = notation.read_position(text, source, self._edition, extra)
        moves: list[tuple[str, int | None, int | None]] = []
        if "turn" in extra:
            value, line, col = extra["turn"]
            if isinstance(value, list):
                if not all(isinstance(v, str) for v in value):
                    raise NotationError("expected a list of move texts", source=source, line=line, column=col)
                moves = [(v, line, col) for v in value]
            else:
                moves = [(v.strip(), line, col) for v in str(value).split(";") if v.strip()]
        pos = GnomeHollowPosition(self, start, ())
        for text_move, line, col in moves:
            try:
                pos = pos.apply(parse_move(text_move, source))
            except GnomekitError as exc:
                raise NotationError(f"turn: {text_move}: {exc.message}", source=source, line=line,
                                    column=col) from None
        return pos

    def parse_move(self, text: str, source: str = "<move>") -> Any:
        return parse_move(text, source)


def make_game(edition: str | Path | GnomeHollowEdition | None = None) -> GnomeHollowGame:
    """Gnome Hollow with the bundled edition (None), an edition TOML file, or an edition object."""
    if edition is None:
        return GnomeHollowGame(default_edition())
    if isinstance(edition, str | Path):
        return GnomeHollowGame(load_edition(edition))
    if not isinstance(edition, GnomeHollowEdition):
        raise TypeError(f"expected a Gnome Hollow edition, a TOML path or None, not {type(edition).__name__}")
    return GnomeHollowGame(edition)


__all__ = ["Act", "Draw", "EndPlacing", "GnomeHollowGame", "GnomeHollowPosition", "Hex", "Pass", "RingMarker",
           "make_game", "parse_move"]
