"""The game protocol every gnomekit game speaks, after OpenSpiel's state and python-chess's Board.

A :class:`Game` names the game and its edition and makes positions (new, random, read from text
or JSON).  A :class:`Position` is an immutable, hashable value: it lists its legal moves, checks a
move (every broken rule as one shared :class:`~gnomekit.models.core.violation.Violation`),
applies one (returning a new position, never changing itself), says whether the game is over and
what the scores are, and writes itself back as text and JSON.

Moves are small hashable values whose ``str()`` is their notation; ``Game.parse_move`` (or
``Position.parse_move``) reads that notation back, so ``parse_move(str(m)) == m``.

Chance is explicit, as OpenSpiel models it: a position where the die is rolled, a hidden tile
is turned or a tile is drawn is a *chance node* (``current_player() == CHANCE``); its
``chance_outcomes()`` lists ``(outcome move, probability)`` pairs and ``apply(outcome)`` takes
one.  A multi-step turn (several placements, a running plan, a chain of decisions) is a sequence
of protocol moves; each game documents where its turns begin and end.

The protocol is what every game has; games keep their extra verbs (scoring tracks, audits,
plans) on their own modules.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Self

from gnomekit.models.core.errors import IllegalMoveError
from gnomekit.models.core.violation import Violation

#: ``current_player()`` of a chance node (a die roll, a hidden flip, a draw).
CHANCE = -1
#: ``current_player()`` of a finished game.
TERMINAL = -4

Move = Hashable
"""A game's move value: hashable, with ``str(move)`` its notation."""


@dataclass(frozen=True)
class Report:
    """What ``Position.check(move)`` answers: legal or not, and every broken rule.

    ``detail`` is the game's own, richer report (scores a placement earns, a chain's steps);
    ``notes`` are remarks that do not make the move illegal (what was assumed, what it scores).
    """

    move: str
    violations: tuple[Violation, ...] = ()
    notes: tuple[str, ...] = ()
    detail: Any = field(default=None, compare=False, repr=False)

    @property
    def legal(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "legal": self.legal,
            "violations": [v.to_json() for v in self.violations],
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        if self.legal:
            return f"{self.move}: legal"
        return f"{self.move}: illegal\n" + "\n".join(f"  {v}" for v in self.violations)


class Position(ABC):
    """One immutable, hashable game position.

    Subclasses hold the game's own position value and implement the abstract methods; equality
    and hashing go through :meth:`key`.
    """

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game (with its edition) this position belongs to."""

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable value that identifies the position (equality and hashing use it)."""

    # -- moves ---------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every legal move here, in a fixed order (the outcomes, at a chance node)."""

    @abstractmethod
    def check(self, move: Any) -> Report:
        """Whether ``move`` (a move value or its notation) is legal here, and every broken rule."""

    @abstractmethod
    def _apply(self, move: Any) -> Self:
        """The position after a legal ``move`` (already checked)."""

    def apply(self, move: Any) -> Self:
        """The position after ``move``; raises :class:`IllegalMoveError` naming every broken rule.

        The position itself never changes.
        """
        mv = self.parse_move(move) if isinstance(move, str) else move
        report = self.check(mv)
        if not report.legal:
            words = "; ".join(f"[{v.rule}] {v.message}" for v in report.violations)
            raise IllegalMoveError(f"illegal move {report.move}: {words}", violations=report.violations)
        return self._apply(mv)

    def parse_move(self, text: str, source: str = "<move>") -> Any:
        """Read a move's notation (a :class:`NotationError` with the column when malformed)."""
        return self.game.parse_move(text, source)

    def move_text(self, move: Any) -> str:
        """A move's notation: ``parse_move(move_text(m)) == m``."""
        return str(move)

    # -- turn structure and chance --------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Index of the player to move, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """``(outcome, probability)`` pairs at a chance node (probabilities sum to 1)."""
        raise ValueError("not a chance node")

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game (or the phase this position models) is over."""

    @abstractmethod
    def scores(self) -> dict[str, float]:
        """Each player's score now (final when terminal), by player name."""

    def result(self) -> str | None:
        """At a terminal position, who won in words (``None`` before the end)."""
        if not self.is_terminal():
            return None
        s = self.scores()
        if not s:
            return "over"
        best = max(s.values())
        winners = [p for p, v in s.items() if v == best]
        return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"

    # -- notation -------------------------------------------------------------------------
    @abstractmethod
    def to_text(self) -> str:
        """The position in the game's text notation (reads back through ``Game.read``)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The position as a JSON object (reads back through ``Game.read``)."""

    # -- pictures -------------------------------------------------------------------------
    def svg(self, marks: Any = None) -> str:
        """The position as an SVG picture, with an answer drawn on it (``models.core.svg.Marks``)."""
        raise NotImplementedError(f"{self.game.name} positions cannot be drawn yet")

    def move_cells(self, move: Any) -> tuple[Hashable, ...]:
        """The board cells a move occupies or passes (what a picture marks for it)."""
        return ()

    def _repr_svg_(self) -> str:
        """Jupyter shows a position as its picture."""
        return self.svg()

    def draw(self, answer: Any = None) -> Picture:
        """A picture of this position with ``answer`` drawn on it: a :class:`Report` (the move and
        every broken rule's cells), a move, a list of moves (a plan, a line), or a solver result
        (its witness); Jupyter shows it (``_repr_svg_``), ``str()`` is the SVG text."""
        from gnomekit.models.core.svg import Marks

        if answer is None:
            return Picture(self.svg())
        if isinstance(answer, Report):
            try:
                cells = self.move_cells(self.parse_move(answer.move))
            except ValueError:
                cells = ()
            return Picture(self.svg(Marks.of_report(answer, cells)))
        witness = getattr(answer, "witness", answer)  # a Result: draw what it found
        moves = witness if isinstance(witness, list) else [witness]
        groups = []
        for m in moves:
            try:
                mv = self.parse_move(m) if isinstance(m, str) else m
                groups.append(tuple(self.move_cells(mv)))
            except (ValueError, TypeError):
                continue
        cells = tuple(dict.fromkeys(c for g in groups for c in g))
        routes = tuple(g for g in groups if len(g) > 1) if len(groups) > 1 else ()
        return Picture(self.svg(Marks(move=cells, routes=routes, caption=str(getattr(answer, "status", "")))))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key() == other.key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key()))

    def __repr__(self) -> str:
        return f"<{self.game.name} position\n{self.to_text().rstrip()}\n>"


@dataclass(frozen=True)
class Picture:
    """An SVG picture (of a position, with an answer drawn on it); a notebook shows it."""

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        """Write the picture to an ``.svg`` file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


class Game(ABC):
    """One game with one edition: its name, players, and the positions it makes and reads."""

    #: The CLI name, e.g. ``"hedge-mage"``.
    name: str = ""
    #: The game's title, e.g. ``"Hedge Mage"``.
    title: str = ""
    #: How many players a position may have (inclusive).
    min_players: int = 1
    max_players: int = 1
    #: True when the game has chance nodes (die, hidden tiles, a bag).
    has_chance: bool = False

    @property
    @abstractmethod
    def edition(self) -> Any:
        """The component data in use (loaded from the game's edition TOML)."""

    @abstractmethod
    def new(self, **options: Any) -> Position:
        """A game's starting position (options as the game documents, e.g. ``players``, ``seed``)."""

    @abstractmethod
    def random(self, seed: int = 0, **options: Any) -> Position:
        """A reproducible random legal position (same seed, same position)."""

    @abstractmethod
    def read(self, text: str, source: str = "<input>") -> Position:
        """A position from its text or JSON notation; :class:`NotationError` with line and column."""

    @abstractmethod
    def parse_move(self, text: str, source: str = "<move>") -> Any:
        """A move from its notation; :class:`NotationError` with the column when malformed."""

    def write(self, position: Position, fmt: str = "text") -> str:
        """``position`` as ``"text"`` or ``"json"`` (JSON as an indented string)."""
        if fmt == "text":
            return position.to_text()
        if fmt == "json":
            import json

            return json.dumps(position.to_json(), indent=2) + "\n"
        raise ValueError(f"unknown format {fmt!r}: expected 'text' or 'json'")

    def __repr__(self) -> str:
        return f"gnomekit.game({self.name!r})"


def playout(position: Position, choose: Any, max_moves: int = 10_000) -> Sequence[Position]:
    """The positions of a playout: ``choose(position, moves)`` picks each move (chance included)."""
    out = [position]
    pos = position
    for _ in range(max_moves):
        if pos.is_terminal():
            break
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.apply(choose(pos, moves))
        out.append(pos)
    return out
