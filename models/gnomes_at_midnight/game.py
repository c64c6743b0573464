"""Gnomes at Midnight through the game protocol (``gnomekit.models.core.protocol``).

A protocol position wraps the rules layer's :class:`~gnomekit.models.gnomes_at_midnight.position.
Position` (``pos.state``).  The turn structure:

* Between turns the side to move (``current_player()``: 0 green, 1 blue) picks a
  :class:`~gnomekit.models.gnomes_at_midnight.moves.Move` (step ``2,0-2,1``, pair step ``0,0=1,1``,
  add ``+4,0``, ``pass``): ``legal_moves()`` is the list ``gnomekit gnomes-at-midnight moves``
  prints, in its order.
* A move that wins ends the game before any flip: the position after it is the *afterstate*
  (gnomes moved, the mover still to move, no card turned) and is terminal.
* Otherwise the mover turns its next moonlight card.  When only one terrain can come (the next
  card is known, or only one kind is left), it is turned at once and the position is the next one
  between turns.  When several can (cards in unknown order, a reshuffled deck), the position is the
  afterstate as a *chance node* (``current_player() == CHANCE``): ``chance_outcomes()`` are
  :class:`~gnomekit.models.gnomes_at_midnight.moves.Flip` outcomes (``flip grass``) with exact
  ``Fraction`` probabilities (cards of that terrain / cards that can come), and applying one gives
  the next position.  A pass turns nothing.

Afterstates are written with the key ``after-move: yes`` (JSON ``"after_move": true``; see
docs/formats-gnomes-at-midnight.md).  Scores are 1 for the winner and -1 for the loser at the end
(zero-sum, as OpenSpiel's returns), 0 for both before; the game has no other end (repetition has
no rule).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any

from gnomekit.models.core.protocol import CHANCE, TERMINAL, Game, Position, Report
from gnomekit.models.core.violation import Violation
from gnomekit.models.gnomes_at_midnight.edition import (
    BUNDLED,
    COLOURS,
    TERRAINS,
    MidnightEdition,
    bundled_edition,
    default_edition,
    load_edition,
)
from gnomekit.models.gnomes_at_midnight.moves import (
    Flip,
    Move,
    after_move,
    check_move,
    end_turn,
    flip_outcomes,
    legal_moves,
    next_position,
    win_conditions,
)
from gnomekit.models.gnomes_at_midnight.notation import (
    parse_flip,
    parse_move,
    position_to_json,
    position_to_text,
    read_any_position,
)
from gnomekit.models.gnomes_at_midnight.position import Position as State
from gnomekit.models.gnomes_at_midnight.setup import new_position, random_position

GAME = "gnomes-at-midnight"


def make_game(edition: str | Path | MidnightEdition | None = None) -> MidnightGame:
    """The game with the default edition (None), a bundled edition name (``"mini"``), a TOML file,
    or an edition object.

    Without an edition, ``read`` plays a position under the bundled edition it names (as the command
    line does without ``--edition``).
    """
    if edition is None:
        return MidnightGame(default_edition(), follow=True)
    if isinstance(edition, MidnightEdition):
        return MidnightGame(edition)
    return MidnightGame(load_edition(edition))


def _no_options(options: dict[str, Any]) -> None:
    if options:
        raise TypeError(f"unknown option(s) for {GAME}: {', '.join(sorted(options))}")


class MidnightGame(Game):
    """Gnomes at Midnight with one edition: two players (green 0, blue 1), hidden flips as chance."""

    name = GAME
    title = "Gnomes at Midnight"
    min_players = 2
    max_players = 2
    has_chance = True
    #: Player names by index (``scores()`` uses them).
    players = COLOURS

    def __init__(self, edition: MidnightEdition, follow: bool = False) -> None:
        self._edition = edition
        self._follow = follow

    @property
    def edition(self) -> MidnightEdition:
        return self._edition

    def _with(self, moon_restricts_adding: bool) -> MidnightGame:
        ed = self._edition.with_options(True if moon_restricts_adding else None)
        return self if ed is self._edition else MidnightGame(ed, self._follow)

    def position(self, state: State, after_move: bool = False) -> MidnightPosition:
        """Wrap a rules-layer position (``after_move``: right after the mover's move, before the flip)."""
        return MidnightPosition(self, state, after_move)

    def new(self, seed: int = 0, dance: str | None = None, moon_restricts_adding: bool = False,
            **options: Any) -> MidnightPosition:
        """The position at setup: decks shuffled by ``seed`` (known order), the dance card drawn by it
        or named (``dance``); ``moon_restricts_adding`` turns the edition option on."""
        _no_options(options)
        g = self._with(moon_restricts_adding)
        return g.position(new_position(g.edition, seed, dance))

    def random(self, seed: int = 0, turns: int = 6, moon_restricts_adding: bool = False,
               **options: Any) -> MidnightPosition:
        """The position after ``turns`` random non-winning turns from ``new(seed)`` (fewer when every
        turn would win)."""
        _no_options(options)
        g = self._with(moon_restricts_adding)
        return g.position(random_position(g.edition, seed, turns)[0])

    def read(self, text: str, source: str = "<input>") -> MidnightPosition:
        """A position from its text or JSON notation (an afterstate too); NotationError with line and
        column."""
        state, after = read_any_position(text, source, self._edition)
        if self._follow and state.edition != self._edition.name and state.edition in BUNDLED:
            g = MidnightGame(bundled_edition(state.edition), follow=True)
            state, after = read_any_position(text, source, g.edition)
            return g.position(state, after)
        return self.position(state, after)

    def parse_move(self, text: str, source: str = "<move>") -> Move | Flip:
        """``r,c-r,c``, ``r,c=r,c``, ``+r,c``, ``pass``, a flip ``flip grass``, or their JSON objects."""
        flip = parse_flip(text, source)
        return flip if flip is not None else parse_move(text, source)


class MidnightPosition(Position):
    """One protocol position: a rules-layer position, and whether it is the afterstate of a move."""

    def __init__(self, game: MidnightGame, state: State, after_move: bool = False) -> None:
        self._game = game
        self._state = state
        self._after = after_move
        me = state.to_move
        self._wins: tuple[str, ...] = tuple(win_conditions(state, me)) if after_move else ()
        self._flips: tuple[tuple[int, int], ...] = ()
        self._reshuffle = False
        if after_move and not self._wins:
            self._flips, self._reshuffle = flip_outcomes(state, me)
        self._hash: int | None = None

    # -- views ----------------------------------------------------------------------------------
    @property
    def game(self) -> MidnightGame:
        return self._game

    @property
    def state(self) -> State:
        """The rules layer's position (what the Midnight solvers take)."""
        return self._state

    @property
    def afterstate(self) -> bool:
        """True right after a move: the game is over (``wins``) or the flip is to come (chance)."""
        return self._after

    @property
    def wins(self) -> tuple[str, ...]:
        """The win conditions the winner met (empty before the end)."""
        return self._wins

    def winner(self) -> int | None:
        """The index of the side that won, None before the end."""
        return self._state.to_move if self._wins else None

    def hidden(self) -> MidnightPosition:
        """The same position with every deck order forgotten (each flip from a deck is then chance)."""
        return MidnightPosition(self._game, self._state.hidden(), self._after)

    def warnings(self) -> list[str]:
        """What no game reaches but the rules still apply to (as ``show`` lists them)."""
        return self._state.warnings(self._game.edition.gnomes)

    def key(self) -> Hashable:
        return (self._state, self._after)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((type(self).__name__, self.key()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MidnightPosition) and self.key() == other.key()

    # -- moves ----------------------------------------------------------------------------------
    def legal_moves(self) -> list[Any]:
        if self._wins:
            return []
        if self._after:
            return [Flip(t) for t, _w in self._flips]
        return list(legal_moves(self._state))

    def check(self, move: Any) -> Report:
        mv = self.parse_move(move) if isinstance(move, str) else move
        me = COLOURS[self._state.to_move]
        if not isinstance(mv, (Move, Flip)):
            return Report(repr(mv), (Violation("not-a-move", f"{mv!r} is not a {GAME} move or flip"),))
        text = mv.text()
        if self._wins:
            return Report(text, (Violation("game-over", f"the game is over: {self.result()}"),))
        if self._after:
            if isinstance(mv, Move):
                return Report(text, (Violation(
                    "flip-pending", f"{me} has moved and turns a moonlight card next: "
                    + ", ".join(Flip(t).text() for t, _w in self._flips)),))
            p = dict(self.chance_outcomes()).get(mv)
            if p is None:
                return Report(text, (Violation(
                    "flip-impossible", f"{me}'s deck has no {TERRAINS[mv.terrain]} card that can come"),))
            return Report(text, notes=(f"{me} turns {TERRAINS[mv.terrain]} (probability {p})",))
        if isinstance(mv, Flip):
            return Report(text, (Violation("no-flip-pending", f"no moonlight card is being turned: {me} is to move"),))
        viol = check_move(self._state, mv)
        if viol:
            return Report(text, tuple(viol))
        a = after_move(self._state, mv)
        notes = []
        if a.bumped:
            notes.append(f"bumps {a.bumped} {COLOURS[1 - self._state.to_move]} gnome(s) off the board")
        if a.wins:
            notes.append(f"{me} wins: {', '.join(a.wins)}")
        elif not a.flips:
            notes.append("no moonlight card is turned")
        elif len(a.flips) == 1:
            notes.append(f"{me} turns {TERRAINS[a.flips[0][0]]}")
        else:
            total = sum(w for _t, w in a.flips)
            notes.append(("the deck runs out and is reshuffled; " if a.reshuffle else "")
                         + "chance: " + ", ".join(f"{TERRAINS[t]} {w}/{total}" for t, w in a.flips))
        return Report(text, notes=tuple(notes), detail=a)

    def _apply(self, move: Any) -> MidnightPosition:
        g = self._game
        if self._after:
            return MidnightPosition(g, end_turn(self._state, self._flips, self._reshuffle, move.terrain))
        a = after_move(self._state, move)
        if a.wins or len(a.flips) > 1:
            return MidnightPosition(g, a.pos, True)
        return MidnightPosition(g, next_position(a, a.flips[0][0] if a.flips else None))

    # -- turn structure -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._wins:
            return TERMINAL
        return CHANCE if self._after else self._state.to_move

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        if not self._after or self._wins:
            raise ValueError("not a chance node")
        total = sum(w for _t, w in self._flips)
        return [(Flip(t), Fraction(w, total)) for t, w in self._flips]

    def is_terminal(self) -> bool:
        return bool(self._wins)

    def scores(self) -> dict[str, float]:
        w = self.winner()
        if w is None:
            return {c: 0.0 for c in COLOURS}
        return {c: (1.0 if s == w else -1.0) for s, c in enumerate(COLOURS)}

    def result(self) -> str | None:
        w = self.winner()
        return None if w is None else f"{COLOURS[w]} wins ({', '.join(self._wins)})"

    # -- pictures -------------------------------------------------------------------------------
    def svg(self, marks: Any = None) -> str:
        """The position as an SVG picture (``render.position_svg``), ``marks`` (an answer) drawn on it."""
        from gnomekit.models.gnomes_at_midnight.render import position_svg

        return position_svg(self, marks)

    def move_cells(self, move: Any) -> tuple[Hashable, ...]:
        """A step's or pair step's source then target square, an add's flower; nothing for pass/flip."""
        from gnomekit.models.gnomes_at_midnight.render import move_cells

        return move_cells(self.parse_move(move) if isinstance(move, str) else move)

    # -- notation -------------------------------------------------------------------------------
    def to_text(self) -> str:
        return position_to_text(self._state, self._after)

    def to_json(self) -> dict[str, Any]:
        return position_to_json(self._state, self._after)
