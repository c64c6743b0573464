"""The Gnome Hollow position: an immutable value for the whole table between turns.

A position holds the garden (tiles in the order they were placed, the Stump first at the origin),
gnomes and what they stand on, completed unclaimed rings holding mushrooms ("pots"), signposts,
the offered tiles, the bag and the Sunset stack as known multisets, the markets, and each player's
mushrooms, treasures, flowers, ring markers and stored tiles.  The garden's networks are rebuilt
by replaying the placements (order matters only for wildflowers touching a completed ring).
``problems()`` lists every way the position is not well formed; ``warnings()`` lists what no
legal play reaches (mismatched edges, a tile not adjacent, two gnomes on one open network).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, TypeAlias

from gnomekit.models.core.hexgrid import Hex, are_adjacent, hex_name, neighbour, opposite
from gnomekit.models.gnome_hollow.edition import STUMP_ID, GnomeHollowEdition
from gnomekit.models.gnome_hollow.networks import ClosedNetwork, Networks, PathKey, replay

MARKET = "market"  # the Stump: the Pinwheel Market
FLOWERS = "flowers"  # the Flower Market
GnomeAt: TypeAlias = "str | PathKey | None"  # None: not in the garden yet


@dataclass(frozen=True)
class Placed:
    """A tile in the garden: id, cell, orientation (0-11, mirrored when >= 6) and whether it was laid in
    the same turn as the tile before it (kept only under option ``ring_check = "turn"``, where rings are
    checked after the turn's tiles, so replaying the garden needs the turns)."""

    tile: str
    cell: Hex
    orientation: int = 0
    same_turn: bool = False


@dataclass(frozen=True)
class Gnome:
    """One gnome: its player, where it stands and whether it lies down (a ring to score)."""

    player: str
    at: GnomeAt = None
    down: bool = False


@dataclass(frozen=True)
class PlayerState:
    """What one player holds."""

    name: str
    mushrooms: dict[str, int] = field(default_factory=dict)
    treasures: dict[str, int] = field(default_factory=dict)
    flowers: tuple[str, ...] = ()
    rings: tuple[tuple[int, int], ...] = ()  # occupied board spaces (column size, row 1-based)
    storage: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "mushrooms", {k: v for k, v in self.mushrooms.items() if v})
        object.__setattr__(self, "treasures", {k: v for k, v in self.treasures.items() if v})

    def mushroom(self, colour: str) -> int:
        return self.mushrooms.get(colour, 0)


@dataclass(frozen=True)
class Position:
    """The whole table (immutable; use ``dataclasses.replace``)."""

    players: tuple[PlayerState, ...]
    tiles: tuple[Placed, ...] = (Placed(STUMP_ID, (0, 0), 0),)
    to_move: int = 0
    gnomes: tuple[Gnome, ...] = ()
    offered: tuple[str, ...] = ()
    bag: tuple[str, ...] = ()
    sunset: tuple[str, ...] = ()
    end_triggered: bool = False
    final_actions: int | None = None  # after the last round: final gnome actions taken (None: before)
    market: dict[str, tuple[int, ...]] = field(default_factory=dict)  # colour -> blocked spaces (sizes)
    market_tokens: dict[str, int] = field(default_factory=dict)  # colour -> tokens left beside the market
    flower_market: dict[str, int] = field(default_factory=dict)  # flower -> tokens in the flower market
    wildflower_supply: dict[str, int] = field(default_factory=dict)  # wildflower tile id -> tokens on it
    signposts: tuple[str, ...] = ()  # not yet placed
    placed_signposts: tuple[tuple[str, PathKey], ...] = ()  # (signpost, a path of its ring)
    pots: tuple[tuple[PathKey, dict[str, int]], ...] = ()  # unclaimed completed rings' mushrooms
    options: dict[str, str] = field(default_factory=dict)
    edition: str = "default"

    def __post_init__(self) -> None:
        object.__setattr__(self, "bag", tuple(sorted(self.bag)))
        object.__setattr__(self, "sunset", tuple(sorted(self.sunset)))
        object.__setattr__(self, "signposts", tuple(sorted(self.signposts)))
        object.__setattr__(self, "market", {k: tuple(sorted(v)) for k, v in self.market.items() if v})
        object.__setattr__(self, "market_tokens", {k: v for k, v in self.market_tokens.items() if v})
        object.__setattr__(self, "flower_market", {k: v for k, v in self.flower_market.items() if v})
        object.__setattr__(self, "gnomes", tuple(sorted(self.gnomes, key=_gnome_key)))

    # -- views -----------------------------------------------------------------------------------
    @property
    def mover(self) -> PlayerState:
        return self.players[self.to_move]

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def player_index(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)

    @cached_property
    def at(self) -> dict[Hex, Placed]:
        return {t.cell: t for t in self.tiles}

    def option(self, name: str) -> str:
        return self.options.get(name, DEFAULT_OPTIONS[name])

    @property
    def phase(self) -> str:
        """Where the game is (:data:`PHASES`): ``play``; ``end-triggered`` (an end condition is met,
        the round is being finished); ``final-actions`` (tile placement has ended, each player takes
        one final gnome action in turn order); ``over`` (final scoring)."""
        if self.final_actions is not None:
            return "over" if self.final_actions >= len(self.players) else "final-actions"
        return "end-triggered" if self.end_triggered else "play"

    def networks(self, edition: GnomeHollowEdition, settled: bool = True) -> Networks:
        """The garden's networks (rebuilt by replaying the placements; a fresh copy each call).

        ``settled=False`` leaves the last turn's tiles unchecked for rings under option
        ``ring_check = "turn"`` (a turn in progress: :meth:`lay`); it changes nothing otherwise."""
        return self._replayed(edition, settled)[0].copy()

    def lay(self, placements: Iterable[Placed | Any]) -> Position:
        """This position with ``placements`` (Placement or Placed) added to the garden as one turn's tiles
        (marked ``same_turn`` after the first under option ``ring_check = "turn"``)."""
        mark = self.option("ring_check") == "turn"
        laid = [Placed(p.tile, p.cell, p.orientation, mark and i > 0) for i, p in enumerate(placements)]
        return replace(self, tiles=self.tiles + tuple(laid))

    def completed(self, edition: GnomeHollowEdition) -> list[ClosedNetwork]:
        """Every ring completed in this garden, in the order of completion."""
        return [c for c in self._replayed(edition)[1] if c.ring]

    def _replayed(self, edition: GnomeHollowEdition, settled: bool = True) -> tuple[Networks, list[ClosedNetwork]]:
        cache = self.__dict__.setdefault("_replay_cache", {})
        deferred = self.option("ring_check") == "turn"
        key = (id(edition), settled or not deferred)
        if key not in cache:
            laid = [t for t in self.tiles if t.tile in edition.all_tiles]
            cache[key] = replay(edition, [(t.tile, t.cell, t.orientation) for t in laid],
                                self.option("wildflower_after_ring"), self.option("wildflowers_join") == "yes",
                                [t.same_turn for t in laid] if deferred else None, settled)
        return cache[key]  # type: ignore[no-any-return]

    def claims(self, edition: GnomeHollowEdition, nets: Networks | None = None) -> dict[int, list[Gnome]]:
        """Standing gnomes on each unfinished network (root -> gnomes)."""
        nets = nets or self.networks(edition)
        out: dict[int, list[Gnome]] = {}
        for g in self.gnomes:
            if isinstance(g.at, tuple) and g.at in nets.path_elem:
                r = nets.root_of(g.at)
                if not nets.is_ring(r):
                    out.setdefault(r, []).append(g)
        return out

    def used_tile_ids(self) -> Counter[str]:
        """How often each tile id appears anywhere (garden, offered, bag, Sunset stack, storage)."""
        c: Counter[str] = Counter(t.tile for t in self.tiles)
        c.update(self.offered)
        c.update(self.bag)
        c.update(self.sunset)
        for p in self.players:
            c.update(p.storage)
        return c

    # -- well-formedness ---------------------------------------------------------------------------
    def problems(self, edition: GnomeHollowEdition) -> list[str]:
        """Every way this position is not well formed (empty when fine)."""
        out: list[str] = []
        ed = edition
        names = [p.name for p in self.players]
        if not names:
            out.append("no players")
        if len(set(names)) != len(names):
            out.append("two players share a name")
        if not 0 <= self.to_move < max(1, len(self.players)):
            out.append(f"to_move {self.to_move} is not a player index")
        for k in self.options:
            if k not in DEFAULT_OPTIONS:
                out.append(f"unknown option {k!r} (known: {', '.join(DEFAULT_OPTIONS)})")
            elif self.options[k] not in OPTION_VALUES[k]:
                out.append(f"option {k} must be one of {', '.join(OPTION_VALUES[k])}, not {self.options[k]!r}")
        if self.final_actions is not None:
            n = len(self.players)
            if not self.end_triggered:
                out.append("final gnome actions before the end of the game is triggered")
            elif not 0 <= self.final_actions <= n:
                out.append(f"final-actions {self.final_actions} is not 0-{n} (one final gnome action per player)")
            elif n and self.to_move != self.final_actions % n and 0 <= self.to_move < n:
                out.append(f"after {self.final_actions} final gnome action(s) player "
                           f"{self.players[self.final_actions % n].name} is to move, not {self.mover.name} "
                           "(the final actions go in turn order from the first player)")
        elif self.end_triggered and self.players and self.to_move == 0:
            out.append(f"phase end-triggered with the first player ({self.players[0].name}) to move: the round is "
                       "finished, so the phase is final-actions")
        if not self.tiles or self.tiles[0] != Placed(STUMP_ID, (0, 0), 0):
            out.append("the first tile must be the Stump at 0,0 in orientation 0 (S@0,0)")
        cells: set[Hex] = set()
        if any(t.same_turn for t in self.tiles) and self.options.get("ring_check", "each-tile") != "turn":
            out.append("tiles marked as laid in the same turn (+) need option ring_check=turn")
        for t in self.tiles:
            if t.tile not in ed.all_tiles:
                out.append(f"unknown tile {t.tile!r} at {hex_name(t.cell)}")
            if t.cell in cells:
                out.append(f"two tiles on {hex_name(t.cell)}")
            cells.add(t.cell)
            if not 0 <= t.orientation < 12:
                out.append(f"tile {t.tile} at {hex_name(t.cell)}: orientation {t.orientation} is not 0-11")
        for ident in (*self.offered, *self.bag, *self.sunset, *(s for p in self.players for s in p.storage)):
            if ident not in ed.all_tiles or ident == STUMP_ID:
                out.append(f"unknown tile {ident!r}")
        for ident, n in sorted(self.used_tile_ids().items()):
            if n > 1:
                out.append(f"tile {ident} appears {n} times (garden, offered, bag, Sunset stack and storage)")
        for ident in (*self.offered, *self.bag, *self.sunset):
            if ident in ed.wildflowers:
                out.append(f"wildflower tile {ident} cannot be offered or in the bag")
        if len(self.offered) > ed.offered:
            out.append(f"{len(self.offered)} offered tiles; the board has {ed.offered} spaces")
        for p in self.players:
            for c in p.mushrooms:
                if c not in ed.colours or p.mushrooms[c] < 0:
                    out.append(f"player {p.name}: bad mushrooms {c}={p.mushrooms[c]} (expected a colour "
                               f"{', '.join(ed.colours)} with a count >= 0)")
            for k in p.treasures:
                if k not in ed.treasures or p.treasures[k] < 0:
                    out.append(f"player {p.name}: bad treasure {k}={p.treasures[k]} (expected a kind "
                               f"{', '.join(ed.treasures)} with a count >= 0)")
            for f in p.flowers:
                if f not in ed.flowers:
                    out.append(f"player {p.name}: unknown flower {f!r}")
            if len(set(p.flowers)) != len(p.flowers):
                out.append(f"player {p.name}: a flower is collected twice")
            if len(p.storage) > ed.storage:
                out.append(f"player {p.name}: {len(p.storage)} stored tiles, at most {ed.storage}")
            if sum(1 for s in p.storage if s in ed.wildflowers) > ed.storage_wildflowers:
                out.append(f"player {p.name}: at most {ed.storage_wildflowers} stored wildflower tile(s)")
            seen_spaces: set[tuple[int, int]] = set()
            board = self.option("board") if self.options.get("board", "standard") in OPTION_VALUES["board"] \
                else "standard"
            if board == "advanced" and not ed.advanced_columns:
                out.append(f"edition {ed.name} has no advanced player board (option board=advanced)")
            for size, row in p.rings:
                col = next((c for c in ed.board(board) if c.size == size), None)
                if col is None or not 1 <= row <= len(col.rows):
                    out.append(f"player {p.name}: no ring board space {size}.{row}")
                if (size, row) in seen_spaces:
                    out.append(f"player {p.name}: ring board space {size}.{row} listed twice")
                seen_spaces.add((size, row))
            if markers_moved(ed, p, board) > ed.markers:
                out.append(f"player {p.name}: more than {ed.markers} ring markers moved")
        per_player = Counter(g.player for g in self.gnomes)
        for name, n in per_player.items():
            if name not in names:
                out.append(f"gnome of unknown player {name!r}")
            elif n > ed.gnomes:
                out.append(f"player {name} has {n} gnomes, at most {ed.gnomes}")
        for g in self.gnomes:
            if isinstance(g.at, tuple):
                gcell, gk = g.at
                gt = self.at.get(gcell)
                if gt is None or gt.tile not in ed.all_tiles or not 0 <= gk < len(ed.tile(gt.tile).paths):
                    out.append(f"gnome of {g.player} on {hex_name(gcell)}.{gk}: no such path")
            elif g.at not in (None, MARKET, FLOWERS):
                out.append(f"gnome of {g.player}: unknown place {g.at!r}")
            if g.down and not isinstance(g.at, tuple):
                out.append(f"gnome of {g.player}: only a gnome on a ring can lie down")
        for c, blocked in self.market.items():
            if c not in ed.colours:
                out.append(f"market: unknown colour {c!r}")
                continue
            sizes = [n for n, _ in ed.market[c].spaces] if c in ed.market else []
            for b in blocked:
                if b not in sizes:
                    out.append(f"market: {c} has no blockable space for {b} mushrooms")
            if len(set(blocked)) != len(blocked):
                out.append(f"market: a {c} space is blocked twice")
        for s in (*self.signposts, *(s for s, _ in self.placed_signposts)):
            if s not in ed.signposts:
                out.append(f"unknown signpost {s!r}")
        for f in self.flower_market:
            if f not in ed.flowers:
                out.append(f"flower market: unknown flower {f!r}")
        for w in self.wildflower_supply:
            if w not in ed.wildflowers:
                out.append(f"wildflower supply: unknown wildflower tile {w!r}")
        if out:
            return out
        nets = self.networks(ed)
        rings = {c.root for c in self.completed(ed)}
        for what, key in [*(("signpost " + s, k) for s, k in self.placed_signposts),
                          *(("pot", k) for k, _ in self.pots)]:
            if key not in nets.path_elem or nets.root_of(key) not in rings:
                out.append(f"{what} at {hex_name(key[0])}.{key[1]} is not on a completed ring")
        for g in self.gnomes:
            if g.down and isinstance(g.at, tuple) and nets.root_of(g.at) not in rings:
                out.append(f"gnome of {g.player} lies down on {hex_name(g.at[0])}.{g.at[1]}, not a completed ring")
        return out

    def warnings(self, edition: GnomeHollowEdition) -> list[str]:
        """Rule breaches no legal play reaches (the position is still usable)."""
        out: list[str] = []
        placed: set[Hex] = set()
        for t in self.tiles:
            if placed and not any(are_adjacent(t.cell, c) for c in placed):
                out.append(f"tile {t.tile} at {hex_name(t.cell)} touches no tile placed before it")
            placed.add(t.cell)
            for m in edge_mismatches(edition, self.at, t):
                if m[2] > hex_index(t.cell):  # report each shared edge once
                    out.append(m[3])
        for r, gs in self.claims(edition).items():
            del r
            if len(gs) > 1 and self.option("claim") == "network":  # option claim=path allows it
                out.append("one unfinished network holds " + str(len(gs)) + " gnomes ("
                           + ", ".join(g.player for g in gs) + ")")
        return out


def hex_index(cell: Hex) -> tuple[int, int]:
    return (cell[1], cell[0])


def edge_mismatches(edition: GnomeHollowEdition, grid: dict[Hex, Placed], t: Placed
                    ) -> list[tuple[int, Hex, tuple[int, int], str]]:
    """Edges of ``t`` where path meets grass across a shared edge: (edge, neighbour, key, message)."""
    tile = edition.tile(t.tile)
    if tile.wildflower:
        return []
    out = []
    for e in range(6):
        n = neighbour(t.cell, e)
        u = grid.get(n)
        if u is None or u.tile not in edition.all_tiles:
            continue
        ut = edition.tile(u.tile)
        if ut.wildflower:
            continue
        mine = tile.edge_path[t.orientation][e] >= 0
        theirs = ut.edge_path[u.orientation][opposite(e)] >= 0
        if mine != theirs:
            from gnomekit.models.core.hexgrid import EDGE_NAMES

            what = ("has a path" if mine else "is grass")
            other = ("grass" if mine else "a path")
            msg = (f"edge {e} ({EDGE_NAMES[e]}) of {t.tile} at {hex_name(t.cell)} {what} but {u.tile} at "
                   f"{hex_name(n)} has {other} on its edge {opposite(e)} ({EDGE_NAMES[opposite(e)]})")
            out.append((e, n, hex_index(n), msg))
    return out


def markers_moved(edition: GnomeHollowEdition, p: PlayerState, board: str = "standard") -> int:
    """Ring markers a player has moved (a space with a second-marker bonus holds two)."""
    n = 0
    for size, row in p.rings:
        col = next((c for c in edition.board(board) if c.size == size), None)
        n += 2 if col is not None and 1 <= row <= len(col.rows) and "second-marker" in col.rows[row - 1] else 1
    return n


def _gnome_key(g: Gnome) -> tuple[str, int, str, bool]:
    at = g.at
    if at is None:
        return (g.player, 0, "", g.down)
    if isinstance(at, str):
        return (g.player, 1, at, g.down)
    return (g.player, 2, f"{at[0][1]:+06d}{at[0][0]:+06d}{at[1]:02d}", g.down)


#: The phases of a game (``Position.phase``), in order.
PHASES = ("play", "end-triggered", "final-actions", "over")

DEFAULT_OPTIONS: dict[str, str] = {
    "wildflower_after_ring": "fresh",
    "pair_sets": "one",
    "board": "standard",  # variant: "advanced" (the back of the player board, ring shapes)
    "trade_board": "off",  # variant: "on" (the Mushroom Trade Board, a trade at each signpost)
    # open readings of the rulebook (docs/rules/gnome-hollow.md, "Rule options")
    "claim": "network",  # "path": a gnome may claim any unoccupied path, even on a network holding a gnome
    "wildflowers_join": "no",  # "yes": two adjacent wildflower tiles join their networks
    "treasure_supply": "unlimited",  # "box": only the box's treasure tokens (edition counts) can be paid
    "stuck_tiles": "place-fewer",  # "end-game": fewer than two offered tiles fit -> the end is triggered
    "ring_check": "each-tile",  # "turn": rings are checked after the turn's tiles, not after each tile
}
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "wildflower_after_ring": ("fresh", "dead-end"),
    "pair_sets": ("one", "many"),
    "board": ("standard", "advanced"),
    "trade_board": ("off", "on"),
    "claim": ("network", "path"),
    "wildflowers_join": ("no", "yes"),
    "treasure_supply": ("unlimited", "box"),
    "stuck_tiles": ("place-fewer", "end-game"),
    "ring_check": ("each-tile", "turn"),
}
#: The options that are readings of the rulebook's open questions (``new --rule NAME=VALUE``).
RULE_OPTIONS = ("claim", "wildflowers_join", "stuck_tiles", "treasure_supply", "wildflower_after_ring", "pair_sets",
                "ring_check")
# ``new --variant NAME`` -> the option it sets
VARIANTS: dict[str, tuple[str, str]] = {
    "advanced-board": ("board", "advanced"),
    "trade-board": ("trade_board", "on"),
}


def with_players(pos: Position, players: list[PlayerState]) -> Position:
    return replace(pos, players=tuple(players))
