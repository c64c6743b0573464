"""The Python API: ``gnomekit.game(name)``, ``gnomekit.solve(position)``, ``gnomekit.hint(position)``.

Each game registers two modules: ``gnomekit.models.<game>.game`` (the protocol: ``make_game``)
and ``gnomekit.solver.<game>.api`` (``GOALS``, ``solve``, ``hint``).  Nothing here knows a game's
rules; it only finds the game a name or a position belongs to.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from gnomekit.models.core.errors import GnomekitError
from gnomekit.models.core.protocol import Game, Position
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Result


@dataclass(frozen=True)
class GameEntry:
    """One registered game: its name, title, aliases and the two modules behind it."""

    name: str
    title: str
    aliases: tuple[str, ...]
    package: str  # the subpackage name under gnomekit.models / gnomekit.solver

    @property
    def model_module(self) -> str:
        return f"gnomekit.models.{self.package}.game"

    @property
    def solver_module(self) -> str:
        return f"gnomekit.solver.{self.package}.api"


GAMES: tuple[GameEntry, ...] = (
    GameEntry("hedge-mage", "Hedge Mage", ("hedge",), "hedge_mage"),
    GameEntry("gnome-hollow", "Gnome Hollow", ("hollow",), "gnome_hollow"),
    GameEntry("gnomes-at-midnight", "Gnomes at Midnight", ("midnight",), "gnomes_at_midnight"),
    GameEntry("hexen-rennen", "Hexen Rennen", ("hexen",), "hexen_rennen"),
)


def games() -> list[str]:
    """The names of the four games, as ``game()`` and the CLI take them."""
    return [g.name for g in GAMES]


def entry(name: str) -> GameEntry:
    """The registered game called ``name`` (or one of its aliases)."""
    for g in GAMES:
        if name == g.name or name in g.aliases:
            return g
    known = ", ".join(f"{g.name} ({'/'.join(g.aliases)})" for g in GAMES)
    raise GnomekitError(f"unknown game {name!r}; expected one of {known}", text=name)


def _module(path: str) -> ModuleType:
    # No fallback: a module that fails to import is an error that names it.
    return importlib.import_module(path)


def game(name: str, edition: str | Path | Any | None = None) -> Game:
    """The game called ``name`` with its default edition, or ``edition`` (a TOML path or an edition).

    >>> import gnomekit
    >>> gnomekit.game("hedge-mage").title
    'Hedge Mage'
    """
    e = entry(name)
    g: Game = _module(e.model_module).make_game(edition)
    return g


def _solver_for(position: Position) -> ModuleType:
    return _module(entry(position.game.name).solver_module)


def goals(name: str) -> dict[str, str]:
    """The goals ``solve`` takes for a game, each with what it answers."""
    return dict(_module(entry(name).solver_module).GOALS)


def _budget(budget: Budget | int | float | None) -> Budget | None:
    if budget is None or isinstance(budget, Budget):
        return budget
    if isinstance(budget, bool):
        raise TypeError("a budget is a Budget, a state count (int) or seconds (float)")
    if isinstance(budget, int):
        return Budget(states=budget)
    return Budget(seconds=float(budget))


def solve(position: Position, goal: str | None = None, budget: Budget | int | float | None = None,
          method: str | None = None, **options: Any) -> Result:
    """Answer ``goal`` for ``position`` (each game's default goal when ``None``).

    ``budget`` is a :class:`Budget`, a state count or seconds; a budget that runs out gives
    ``Status.UNKNOWN`` with the best found and a bound, never "no".  ``method`` picks an exact
    method where a game has several (``goals(game)`` and docs/api.md list them).
    """
    r: Result = _solver_for(position).solve(position, goal=goal, budget=_budget(budget), method=method, **options)
    return r


def hint(position: Position, budget: Budget | int | float | None = None, **options: Any) -> Any:
    """A strategy hint for the player to move: the best move found, why, and the runner-up."""
    return _solver_for(position).hint(position, budget=_budget(budget), **options)
