"""gnomekit: rules verification and solvers for four tabletop games.

>>> import gnomekit
>>> g = gnomekit.game("gnomes-at-midnight")
>>> pos = g.new()
>>> move = pos.legal_moves()[0]
>>> pos.check(move).legal
True

See docs/api.md for every call, with examples for all four games.
"""

from gnomekit.api import GAMES, game, games, goals, hint, solve
from gnomekit.models.core.errors import EditionError, GnomekitError, IllegalMoveError, NotationError, UsageError
from gnomekit.models.core.protocol import CHANCE, TERMINAL, Game, Picture, Position, Report
from gnomekit.models.core.violation import Violation
from gnomekit.solver.core.budget import Budget, BudgetExhausted
from gnomekit.solver.core.result import Result, Status

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "Budget",
    "BudgetExhausted",
    "EditionError",
    "Game",
    "GnomekitError",
    "IllegalMoveError",
    "NotationError",
    "Picture",
    "Position",
    "Report",
    "Result",
    "Status",
    "UsageError",
    "Violation",
    "__version__",
    "game",
    "games",
    "goals",
    "hint",
    "solve",
]
