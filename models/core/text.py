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
