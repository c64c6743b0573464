"""One small error hierarchy for every game.

All errors are ``ValueError`` subclasses so callers can catch bad input in one
place.  Each carries where it happened (source name, line, column) and the
offending text, so the CLI can print a precise message and exit with status 2.
"""

from __future__ import annotations

from typing import Any

QUOTED = 80  # the most characters of an input an error message quotes


class GnomekitError(ValueError):
    """Base class: a problem with something the user gave us."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.text = text

    def located(
        self, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> GnomekitError:
        """Fill in location details that were not known where the error was raised."""
        if self.source is None:
            self.source = source
        if self.line is None:
            self.line = line
        if self.column is None:
            self.column = column
        return self

    def where(self) -> str:
        """``file:line:column`` as far as it is known."""
        parts = [self.source or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        if self.source is None and self.line is None and self.message.startswith("--"):
            msg = self.message  # about an option, which the message names: no "<input>" to point at
        else:
            msg = f"{self.where()}: {self.message}"
        if self.text is not None:
            msg += f" (found {self.shown_text()!r})"
        return msg

    def shown_text(self) -> str | None:
        """The offending text as quoted: whole up to 80 characters, else its start and its length (a
        300 KB line is not printed back)."""
        if self.text is None or len(self.text) <= QUOTED:
            return self.text
        return f"{self.text[:QUOTED - 20]}... ({len(self.text):,} characters)"

    def to_json(self) -> dict[str, object]:
        return {
            "error": type(self).__name__,
            "message": self.message,
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "text": self.shown_text(),
        }


class NotationError(GnomekitError):
    """Malformed position, placement or move notation (text or JSON)."""


class EditionError(GnomekitError):
    """An edition file that is malformed or describes impossible components."""


class IllegalMoveError(GnomekitError):
    """A well-formed move or placement that the rules forbid; ``violations`` lists every broken rule."""

    def __init__(self, message: str, *, violations: tuple[Any, ...] = (), **where: Any) -> None:
        super().__init__(message, **where)
        self.violations = tuple(violations)

    def to_json(self) -> dict[str, object]:
        out = super().to_json()
        if self.violations:
            out["violations"] = [v.to_json() for v in self.violations]
        return out


class UsageError(GnomekitError):
    """A command-line request that does not make sense (bad option combination)."""
