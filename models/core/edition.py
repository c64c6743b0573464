"""Loading edition files (TOML) with precise, collected error messages.

An edition describes a game's components.  Validation collects every problem
it finds and raises one :class:`EditionError` listing them all, each with the
line of the file where the offending key or table stands (found by searching
the source text, since ``tomllib`` does not keep positions).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from gnomekit.models.core.errors import EditionError
from gnomekit.models.core.text import undecodable

_TOML_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


@dataclass
class TomlSource:
    """A parsed TOML document that remembers its text for locating keys."""

    name: str
    text: str
    data: dict[str, Any]
    problems: list[str] = field(default_factory=list)

    def locate(self, *needles: str) -> tuple[int | None, int | None]:
        """Line and column (1-based) of the first line containing all needles in order."""
        for i, line in enumerate(self.text.splitlines(), start=1):
            pos = 0
            ok = True
            first = None
            for n in needles:
                j = line.find(n, pos)
                if j < 0:
                    ok = False
                    break
                if first is None:
                    first = j
                pos = j + len(n)
            if ok:
                return i, (first or 0) + 1
        return None, None

    def problem(self, message: str, *needles: str) -> None:
        """Record a problem, located at the first line holding ``needles``; where nothing in the file
        holds them (a table or key left out), at the end of the file, where it would be added."""
        line, col = self.locate(*needles) if needles else (None, None)
        if line is None:  # the table the message names (``board.toadstools: ...``), if the file has it
            m = re.match(r"(?:missing table \[)?\[?([a-z_]+)[.\]:]", message)
            if m:
                line, col = self.locate(f"[{m.group(1)}]")
                if line is None:
                    line, col = self.locate(f"[[{m.group(1)}]]")
        if line is None:
            lines = self.text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
            if "end of the file" not in message and "end of file" not in message:
                message += " (at the end of the file)"
        self.problems.append(f"{self.name}:{line}:{col}: {message}")

    def raise_if_problems(self) -> None:
        if self.problems:
            first_line, first_col = None, None
            m = re.match(r"^.*?:(\d+):(\d+):", self.problems[0])
            if m:
                first_line, first_col = int(m.group(1)), int(m.group(2))
            msg = f"{len(self.problems)} problem(s) in edition:\n  " + "\n  ".join(self.problems)
            raise EditionError(msg, source=self.name, line=first_line, column=first_col)


def parse_toml(text: str, name: str) -> TomlSource:
    """Parse TOML text, turning syntax errors into located :class:`EditionError`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_POS.search(str(exc))
        line = int(m.group(1)) if m else None
        col = int(m.group(2)) if m else None
        msg = _TOML_POS.sub("", str(exc)).strip()
        if m is None and "(at end of document)" in msg:  # tomllib gives no line there: the last one
            lines = text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
            msg = msg.replace("(at end of document)", "at the end of the file").strip()
        raise EditionError(f"not valid TOML: {msg}", source=name, line=line, column=col) from None
    except ValueError:  # tomllib converts integers itself: Python refuses more than 4300 digits
        m = re.search(r"\d{4301,}", text)
        line, col = (text.count("\n", 0, m.start()) + 1, m.start() - text.rfind("\n", 0, m.start())) if m else (1, 1)
        raise EditionError("expected a number of reasonable size (this one has thousands of digits)", source=name,
                           line=line, column=col) from None
    return TomlSource(name=name, text=text, data=data)


def read_toml_file(path: str | Path) -> TomlSource:
    """Read and parse a TOML file from disk."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise EditionError(f"cannot read edition file: {exc.strerror}", source=str(path)) from None
    except UnicodeDecodeError as exc:  # a binary or non-UTF-8 file: located, never a traceback
        message, line, col = undecodable(exc)
        raise EditionError(message.replace("UTF-8 text", "UTF-8 TOML text"), source=str(path), line=line,
                           column=col) from None
    return parse_toml(text, str(path))


def read_bundled_toml(package: str, filename: str) -> TomlSource:
    """Read a TOML file shipped inside a package (e.g. a default edition)."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return parse_toml(text, f"{package.replace('.', '/')}/{filename}")


# Small value readers shared by the games' edition loaders.  Each records a located problem on the
# source (never raises), so a loader can keep going and report everything at once.


def is_int(value: Any) -> bool:
    """A TOML integer (``bool`` is a subclass of ``int`` in Python, but ``true`` is not a number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(src: TomlSource, table: dict[str, Any], key: str, default: int | None, low: int) -> int:
    """``table[key]`` as a whole number >= ``low``; ``default`` None makes the key required.

    A missing required key or a bad value is a problem; ``low`` is returned then so checking can go on.
    """
    v = table.get(key, default)
    if v is None:
        src.problem(f"missing key '{key}'", "[")
        return low
    if not is_int(v) or v < low:
        src.problem(f"'{key}' must be a whole number >= {low}, got {v!r}", key)
        return low
    return int(v)


def unknown_keys(src: TomlSource, table: str, data: dict[str, Any], known: set[str], *after: str) -> None:
    """Report each key of ``[table]`` not in ``known``: a misspelt key would silently fall back to a default.

    The problem is located at the key (followed by the needles ``after``, e.g. ``"="``, when given).
    """
    for key in data:
        if key not in known:
            src.problem(f"[{table}]: unknown key {key!r}; expected one of {', '.join(sorted(known))}", key, *after)


def check_game(src: TomlSource, meta: dict[str, Any], game: str) -> None:
    """Report an ``[edition]`` table whose ``game`` names another game (a missing ``game`` is fine)."""
    if meta.get("game", game) != game:
        src.problem(f"this edition is for {meta.get('game')!r}, not {game!r}", "game")


def edition_meta(src: TomlSource, game: str) -> dict[str, Any]:
    """The ``[edition]`` table (empty when missing or not a table, the latter a problem), checked for ``game``."""
    meta = src.data.get("edition", {})
    if not isinstance(meta, dict):
        src.problem("[edition] must be a table", "edition")
        meta = {}
    check_game(src, meta, game)
    return meta
