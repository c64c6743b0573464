"""The library speaks in library terms: no message in models/ or solver/ names a command-line option.

A string literal there (a message, a default ``source=``) that contains one of the option strings of
``gnomekit.cli.build_parser()`` (``--tile``, ``--place``, ``--turns`` ...) fails this test; the CLI
passes its option names as the ``source`` or words the option itself.  Docstrings and comments may
say which verb uses a function: they are not scanned.
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

from gnomekit.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent


def option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every long option of the parser and of all its subcommands, at any depth."""
    out: set[str] = set()
    for action in parser._actions:
        out |= {o for o in action.option_strings if o.startswith("--") and o != "--help"}
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out |= option_strings(sub)
    return out


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the string constants that stand alone as statements (docstrings, string comments)."""
    return {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}


def offending_literals(source: str, options: set[str]) -> list[tuple[int, str, str]]:
    """(line, option, literal) for each string literal of ``source`` that names one of ``options``."""
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(o) for o in sorted(options, key=len, reverse=True))
                         + r")(?![\w-])")
    tree = ast.parse(source)
    skip = _docstring_nodes(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            m = pattern.search(node.value)
            if m:
                out.append((node.lineno, m.group(1), node.value))
    return out


def test_the_parser_has_options_to_look_for() -> None:
    opts = option_strings(build_parser())
    assert {"--json", "--edition", "--place", "--turns", "--move", "--turn"} <= opts


def test_the_scan_finds_an_option_in_a_message_but_not_in_a_docstring() -> None:
    src = ('def f(source="--place"):\n    """Used by ``check --place``."""\n'
           '    raise ValueError(f"--turns must be {0} or more")\n')
    found = offending_literals(src, {"--place", "--turns"})
    assert [(line, opt) for line, opt, _ in found] == [(1, "--place"), (3, "--turns")]
    assert offending_literals('x = "the placement; --placement-ish and a-b--place"\n', {"--place"}) == []


#: Strings not yet reworded: (file, option) -> how many literals (none left; the list may only shrink).
NOT_YET: dict[tuple[str, str], int] = {}


def test_no_library_message_names_a_cli_option() -> None:
    opts = option_strings(build_parser())
    bad = []
    seen: dict[tuple[str, str], int] = {}
    for folder in ("models", "solver"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, opt, text in offending_literals(path.read_text(encoding="utf-8"), opts):
                seen[(rel, opt)] = seen.get((rel, opt), 0) + 1
                if (rel, opt) not in NOT_YET:
                    bad.append(f"{rel}:{line}: {opt} in {text!r}")
    assert not bad, "library strings name CLI options (say it in library terms):\n" + "\n".join(bad)
    grown = {k: n for k, n in seen.items() if k in NOT_YET and n > NOT_YET[k]}
    assert not grown, f"more library strings name these options than before: {grown}"
    gone = sorted(k for k, n in NOT_YET.items() if seen.get(k, 0) < n)
    assert not gone, f"reworded (take them off NOT_YET): {gone}"
