"""What every game's CLI shares: reading input, printing text or JSON, exit codes.

Exit status: 0 ok / legal / yes; 1 illegal or a negative answer (the whole
answer is still printed); 2 bad input or usage (a located message, never a
traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gnomekit.models.core.errors import GnomekitError, UsageError
from gnomekit.models.core.text import undecodable

OK, NO, BAD = 0, 1, 2


class Answer:
    """What a verb returns: a JSON object, the text for people, and the exit status."""

    def __init__(self, data: dict[str, Any], text: str, status: int = OK, marks: Any = None) -> None:
        self.data = data
        self.text = text
        self.status = status
        #: What ``--svg`` draws on the position (``models.core.svg.Marks``); None: found from ``data``.
        self.marks = marks


def budget(value: int | None, option: str) -> int | None:
    """A state budget from the command line: None (no limit) or at least 1, else a usage error."""
    if value is not None and value < 1:
        raise UsageError("expected a state budget >= 1", source=option, text=str(value))
    return value


def read_source(path: str) -> tuple[str, str]:
    """The text of a file path or ``-`` (stdin), and the name to use in messages."""
    if path == "-":
        return sys.stdin.read().removeprefix("\ufeff"), "<stdin>"
    p = Path(path)
    try:  # utf-8-sig: a byte order mark (as some Windows editors write) is not part of the text
        return p.read_text(encoding="utf-8-sig"), path
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}", source=path) from None
    except IsADirectoryError:
        raise UsageError(f"is a directory, expected a position file: {path}", source=path) from None
    except UnicodeDecodeError as exc:
        message, line, column = undecodable(exc)
        raise UsageError(message, source=path, line=line, column=column) from None
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", source=path) from None


def emit(answer: Answer, as_json: bool) -> int:
    """Print an answer and return its exit status."""
    if as_json:
        sys.stdout.write(json.dumps(answer.data, indent=2) + "\n")
    else:
        text = answer.text
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()
    return answer.status


def run_verb(fn: Callable[[argparse.Namespace], Answer], args: argparse.Namespace) -> int:
    """Run one verb: errors from user input become exit 2 with a located message."""
    as_json = bool(getattr(args, "json", False))
    try:
        answer = fn(args)
    except GnomekitError as exc:
        if as_json:
            sys.stdout.write(json.dumps(exc.to_json(), indent=2) + "\n")
        sys.stderr.write(f"gnomekit: error: {exc}\n")
        return BAD
    except KeyboardInterrupt:
        sys.stderr.write("gnomekit: interrupted\n")
        return 130
    except BrokenPipeError:
        return OK
    return emit(answer, as_json)


def add_common(p: argparse.ArgumentParser, edition: bool = True) -> None:
    """Options every verb takes."""
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    if edition:
        p.add_argument("--edition", metavar="FILE", help="edition TOML file (default: bundled)")


def table(rows: list[list[str]], header: list[str]) -> str:
    """A plain aligned text table."""
    widths = [len(h) for h in header]
    for r in rows:
        for i, cell in enumerate(r):
            widths[i] = max(widths[i], len(cell))
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()
    out = [line, "  ".join("-" * w for w in widths)]
    for r in rows:
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(out)
