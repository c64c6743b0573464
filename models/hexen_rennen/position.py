"""The Hexen Rennen position: an immutable value (track, witches, hands, players, clan to move).

Field numbers: 0 start, 1..L track tiles, L+1.. finish fields (49-51 by default).
Every track tile carries its identity (clan and value) and whether it is face up.
Face-down identities are the puzzle view; the game view (``--expect``) draws them
from the stage's remaining multiset, which is exactly the face-down identities of
that stage, so one value describes both.

Hands: for a playing clan, its hand (kept sorted); for a neutral clan (one not in
``players``), its draw pile in order, the top card first.  Values are the number
or ``SYMBOL`` (0).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from gnomekit.models.hexen_rennen.edition import CAPS, SYMBOL, HexenEdition


@dataclass(frozen=True)
class Tile:
    """A track tile: its clan, its value (a number or SYMBOL) and whether it is face up."""

    clan: str
    value: int
    face_up: bool = False

    @property
    def is_symbol(self) -> bool:
        return self.value == SYMBOL


def card_name(value: int) -> str:
    return "S" if value == SYMBOL else str(value)


def card_json(value: int) -> int | str:
    return "symbol" if value == SYMBOL else value


@dataclass(frozen=True)
class Position:
    """One moment of a game, before the clan ``to_move`` rolls."""

    track: tuple[Tile, ...]
    players: tuple[str, ...]
    to_move: str
    witches: tuple[tuple[str, tuple[int, ...]], ...] = ()
    hands: tuple[tuple[str, tuple[int, ...]], ...] = ()
    edition: str = "default"

    def __post_init__(self) -> None:
        # Canonical form: clans sorted by id, empty entries dropped, witch fields sorted,
        # playing clans' hands sorted (a neutral deck keeps its order: it is a draw pile).
        w = tuple(sorted((c, tuple(sorted(p))) for c, p in self.witches if p))
        h = tuple(sorted((c, tuple(v) if c not in self.players else tuple(sorted(v)))
                         for c, v in self.hands if v))
        object.__setattr__(self, "witches", w)
        object.__setattr__(self, "hands", h)
        object.__setattr__(self, "players", tuple(self.players))

    # --- access -----------------------------------------------------------------------------

    def witches_of(self, clan: str) -> tuple[int, ...]:
        for c, p in self.witches:
            if c == clan:
                return p
        return ()

    def hand(self, clan: str) -> tuple[int, ...]:
        for c, v in self.hands:
            if c == clan:
                return v
        return ()

    def neutral(self, edition: HexenEdition) -> tuple[str, ...]:
        """The clans of the edition that nobody plays (their symbols draw from their deck)."""
        return tuple(c for c in edition.clan_ids if c not in self.players)

    def occupant(self, fld: int, edition: HexenEdition) -> str | None:
        """The clan of the witch on track tile ``fld`` (None if empty, start or finish)."""
        if not 1 <= fld <= edition.track_length:
            return None
        for c, ps in self.witches:
            if fld in ps:
                return c
        return None

    def occupied(self, edition: HexenEdition) -> frozenset[int]:
        return frozenset(p for _, ps in self.witches for p in ps if 1 <= p <= edition.track_length)

    def score(self, clan: str, edition: HexenEdition) -> int:
        return sum(edition.points(p) for p in self.witches_of(clan))

    def finished_clans(self, edition: HexenEdition) -> tuple[str, ...]:
        """Clans with all of their witches on the finish board (the game is over)."""
        out = []
        for c in self.players:
            ps = self.witches_of(c)
            if ps and all(edition.is_finish(p) for p in ps) and len(ps) >= edition.witches:
                out.append(c)
        return tuple(out)

    def next_player(self) -> str:
        i = self.players.index(self.to_move)
        return self.players[(i + 1) % len(self.players)]

    # --- well-formedness ---------------------------------------------------------------------

    def problems(self, edition: HexenEdition) -> list[tuple[tuple[str | int, ...], str]]:
        """Every structural problem as (JSON path, message); empty when the position is usable."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        clans = set(edition.clan_ids)
        L = edition.track_length
        if len(self.track) != L:
            out.append((("track",), f"the track has {len(self.track)} tiles, the edition needs {L}"))
        for i, t in enumerate(self.track):
            if t.clan not in clans:
                out.append((("track", i, "clan"), f"tile {i + 1}: unknown clan {t.clan!r}"))
            if t.value != SYMBOL and t.value not in edition.numbers:
                out.append((("track", i, "value"), f"tile {i + 1}: value {t.value} is not a number of the "
                            f"edition ({', '.join(map(str, edition.numbers))}) or a symbol"))
        if not self.players:
            out.append((("players",), "no players"))
        seen: set[str] = set()
        for i, c in enumerate(self.players):
            if c not in clans:
                out.append((("players", i), f"unknown clan {c!r}"))
            if c in seen:
                out.append((("players", i), f"clan {c!r} plays twice"))
            seen.add(c)
        if self.to_move not in self.players:
            out.append((("to_move",), f"the clan to move, {self.to_move!r}, is not among the players"))
        where: dict[int, str] = {}
        for c, ps in self.witches:
            if c not in clans:
                out.append((("witches", c), f"unknown clan {c!r}"))
            if len(ps) > CAPS["witches"]:  # more than the edition gives is a warning; beyond any edition, wrong
                out.append((("witches", c), f"{c} has {len(ps)} witches; no edition has more than {CAPS['witches']}"))
                continue
            for p in ps:
                if not 0 <= p <= edition.last_field:
                    out.append((("witches", c), f"{c} witch at {p}: fields run from 0 (start) to "
                                f"{edition.last_field}"))
                elif 1 <= p <= L:
                    if p in where:
                        out.append((("witches", c), f"tile {p} holds two witches ({where[p]} and {c})"))
                    where[p] = c
        for c, v in self.hands:
            if c not in clans:
                out.append((("hands", c), f"unknown clan {c!r}"))
            for x in v:
                if x != SYMBOL and x not in edition.numbers:
                    out.append((("hands", c), f"{c} card {x} is not a number of the edition or a symbol"))
        return out

    def warnings(self, edition: HexenEdition) -> list[str]:
        """Things no legal play reaches (the engine still works with them)."""
        out: list[str] = []
        full = Counter(edition.full_set())
        if len(self.track) == edition.track_length:
            for c in edition.clan_ids:
                tiles = Counter(t.value for t in self.track if t.clan == c)
                if tiles != full:
                    out.append(f"the track does not hold exactly the tiles of {c} (one of each number and "
                               f"{edition.symbols} symbols)")
        for c, ps in self.witches:
            if len(ps) > edition.witches:
                out.append(f"{c} has {len(ps)} witches, the edition gives {edition.witches}")
            if c not in self.players:
                out.append(f"{c} is neutral but has witches on the board")
            for p in ps:
                if 1 <= p <= len(self.track) and not self.track[p - 1].face_up:
                    out.append(f"a {c} witch stands on face-down tile {p}")
        for c, v in self.hands:
            extra = Counter(v) - full
            if extra:
                out.append(f"{c} holds cards the clan does not have: {sorted(extra.elements())}")
        if not edition.min_players <= len(self.players) <= edition.max_players:
            out.append(f"{len(self.players)} player(s): the edition is for {edition.min_players} to "
                       f"{edition.max_players}")
        for c in self.players:
            if not self.witches_of(c):
                out.append(f"{c} plays but has no witches")
        return out

    # --- changes ------------------------------------------------------------------------------

    def with_witch_moved(self, clan: str, frm: int, to: int) -> Position:
        ps = list(self.witches_of(clan))
        ps.remove(frm)
        ps.append(to)
        w = [(c, p) for c, p in self.witches if c != clan] + [(clan, tuple(ps))]
        return replace(self, witches=tuple(w))

    def with_hands(self, hands: dict[str, tuple[int, ...]]) -> Position:
        return replace(self, hands=tuple(hands.items()))
