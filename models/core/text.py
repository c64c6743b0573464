"""Helpers shared by the games' text notations."""

from __future__ import annotations

from gnomekit.models.core.errors import NotationError


def header_index(lines: list[str], header: str, source: str) -> int:
    """Index of the header line, after blank and ``#`` comment lines; a located error if it is missing."""
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    if i >= len(lines) or lines[i].strip() != header:
        raise NotationError(f"expected the header line '{header}' (or a JSON object)", source=source,
                            line=i + 1, column=1, text=lines[i].strip() if i < len(lines) else "end of input")
    return i


FORMAT_VERSION = 1
"""The version of the position formats this gnomekit writes and reads.

Every position file (text and JSON) may carry it: a ``format: 1`` line right after the
header line, or ``"format": 1`` in the JSON object. A file without it is read as format 1
(files written before formats carried a version); any other version is refused, so a file
from a newer gnomekit is never misread.
"""

FORMAT_LINE = f"format: {FORMAT_VERSION}"


def format_problem(value: object, *, in_json: bool = False) -> str | None:
    """None if ``value`` names format 1 (a text line's value; with ``in_json`` a JSON value), else what was expected."""
    if not in_json and isinstance(value, str) and value.strip() == str(FORMAT_VERSION):
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value == FORMAT_VERSION:
        return None
    kind = " (a whole number)" if in_json else ""
    return (f"format {FORMAT_VERSION}{kind}, the only position format this gnomekit reads "
            "(a file of a newer format needs a newer gnomekit)")


def undecodable(exc: UnicodeDecodeError) -> tuple[str, int, int]:
    """What to say of a file that is not UTF-8, and the line and column of its first bad byte."""
    data = exc.object if isinstance(exc.object, bytes | bytearray) else b""
    head = data[: exc.start]
    line = head.count(b"\n") + 1
    column = exc.start - (head.rfind(b"\n") + 1) + 1
    found = f"byte 0x{data[exc.start]:02x}" if exc.start < len(data) else "a cut-short character"
    return f"expected UTF-8 text, found {found}", line, column


def is_count(s: str) -> bool:
    """Whether ``s`` is a whole number the readers take: ASCII digits only (``'²'.isdigit()`` is true, but
    ``int('²')`` fails) and at most 18 of them (Python will not convert more than 4300)."""
    return s.isascii() and s.isdigit() and len(s) <= 18
