"""JSON parsing that remembers where every value stands.

``json.loads`` reports syntax errors with a line and column but forgets where
values were once parsed; a position reader needs both, so that "hedges[2].cells
[1] is outside the garden" can point at line 14, column 22.  This is a small
strict JSON parser (RFC 8259) that returns the value and a map from path to
``(line, column)``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gnomekit.models.core.errors import NotationError

Path = tuple[str | int, ...]

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_WS = re.compile(r"[ \t\n\r]*")


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.positions: dict[Path, tuple[int, int]] = {}
        self.line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(i + 1)

    def linecol(self, pos: int) -> tuple[int, int]:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, pos - self.line_starts[lo] + 1

    def fail(self, pos: int, expected: str) -> NotationError:
        line, col = self.linecol(pos)
        found = self.text[pos : pos + 12] if pos < len(self.text) else "end of input"
        return NotationError(
            f"invalid JSON: expected {expected}", source=self.source, line=line, column=col,
            text=found,
        )

    def ws(self, pos: int) -> int:
        m = _WS.match(self.text, pos)
        return m.end() if m else pos

    def value(self, pos: int, path: Path) -> tuple[Any, int]:
        pos = self.ws(pos)
        self.positions[path] = self.linecol(pos)
        if pos >= len(self.text):
            raise self.fail(pos, "a value")
        ch = self.text[pos]
        if ch == "{":
            return self.obj(pos + 1, path)
        if ch == "[":
            return self.arr(pos + 1, path)
        if ch == '"':
            return self.string(pos)
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, pos):
                return val, pos + len(word)
        m = _NUMBER.match(self.text, pos)
        if m:
            s = m.group(0)
            try:
                return (float(s) if any(x in s for x in ".eE") else int(s)), m.end()
            except ValueError:  # more digits than int() converts (sys.set_int_max_str_digits)
                raise self.fail(pos, "a number of reasonable size") from None
        raise self.fail(pos, "a value (object, array, string, number, true, false or null)")

    def string(self, pos: int) -> tuple[str, int]:
        try:
            s, end = json.decoder.scanstring(self.text, pos + 1)  # type: ignore[attr-defined]
        except json.JSONDecodeError as exc:
            raise self.fail(exc.pos, "a properly closed string") from None
        return s, end

    def obj(self, pos: int, path: Path) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        pos = self.ws(pos)
        if pos < len(self.text) and self.text[pos] == "}":
            return out, pos + 1
        while True:
            pos = self.ws(pos)
            if pos >= len(self.text) or self.text[pos] != '"':
                raise self.fail(pos, "a key in double quotes")
            key, pos = self.string(pos)
            if key in out:
                raise self.fail(pos - len(key) - 2, f"no duplicate key {key!r}")
            pos = self.ws(pos)
            if pos >= len(self.text) or self.text[pos] != ":":
                raise self.fail(pos, "':' after the key")
            out[key], pos = self.value(pos + 1, path + (key,))
            pos = self.ws(pos)
            if pos < len(self.text) and self.text[pos] == ",":
                pos += 1
                continue
            if pos < len(self.text) and self.text[pos] == "}":
                return out, pos + 1
            raise self.fail(pos, "',' or '}'")

    def arr(self, pos: int, path: Path) -> tuple[list[Any], int]:
        out: list[Any] = []
        pos = self.ws(pos)
        if pos < len(self.text) and self.text[pos] == "]":
            return out, pos + 1
        while True:
            v, pos = self.value(pos, path + (len(out),))
            out.append(v)
            pos = self.ws(pos)
            if pos < len(self.text) and self.text[pos] == ",":
                pos += 1
                continue
            if pos < len(self.text) and self.text[pos] == "]":
                return out, pos + 1
            raise self.fail(pos, "',' or ']'")


def loads_with_positions(text: str, source: str) -> tuple[Any, dict[Path, tuple[int, int]]]:
    """Parse JSON; return the value and the (line, column) of every value by path."""
    p = _Parser(text, source)
    try:
        value, pos = p.value(0, ())
    except RecursionError:
        raise NotationError("invalid JSON: nested too deeply", source=source, line=1, column=1) from None
    pos = p.ws(pos)
    if pos != len(text):
        raise p.fail(pos, "end of input after the JSON value")
    return value, p.positions


def path_str(path: Path) -> str:
    """``hedges[2].cells[1]`` style rendering of a JSON path."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(top level)"


def short_repr(value: Any) -> str:
    """The offending value as quoted in an error message (at most 40 characters)."""
    s = repr(value)
    return s if len(s) <= 40 else s[:37] + "..."


class JsonReader:
    """Typed access to parsed JSON whose errors point at the offending value's line and column.

    Each game's notation subclasses it with the typed getters it needs (cells, counts, ...).
    """

    def __init__(self, positions: dict[Any, tuple[int, int]], source: str) -> None:
        self.positions = positions
        self.source = source

    def err(self, path: tuple[Any, ...], expected: str, found: Any = None) -> NotationError:
        """A NotationError at ``path`` (or its nearest located ancestor)."""
        p = path
        while p and p not in self.positions:
            p = p[:-1]
        line, col = self.positions.get(p, (None, None))
        return NotationError(
            f"{path_str(path)}: expected {expected}", source=self.source, line=line, column=col,
            text=None if found is None else short_repr(found),
        )
