"""The Python examples in the docs run: every ```pycon block is a doctest.

Blocks of one Markdown file share one namespace, in order, and run with the working directory
docs/examples (so ``open("small.txt")`` reads docs/examples/small.txt).  Output is compared as
doctest does, with NORMALIZE_WHITESPACE and ELLIPSIS.  ``python tests/test_api_docs.py FILE.md``
runs one file's blocks and prints the failures.
"""

from __future__ import annotations

import doctest
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def pycon_blocks(path: Path) -> list[tuple[int, str]]:
    """(line of the opening fence, text) of every ```pycon block."""
    out: list[tuple[int, str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if re.match(r"^```pycon\b", lines[i]):
            start = i + 1
            body: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((start, "\n".join(body) + "\n"))
        i += 1
    return out


def run_file(path: Path) -> tuple[int, int, str]:
    """Run every pycon block of ``path``; (failed, attempted, report)."""
    parser = doctest.DocTestParser()
    globs: dict[str, object] = {"__name__": "__docs__"}
    failed = attempted = 0
    report: list[str] = []
    old = os.getcwd()
    os.chdir(EXAMPLES)
    try:
        for line, text in pycon_blocks(path):
            test = parser.get_doctest(text, globs, f"{path.name}:{line}", str(path), line)
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            runner.run(test, out=report.append, clear_globs=False)
            globs = test.globs
            failed += runner.failures
            attempted += runner.tries
    finally:
        os.chdir(old)
    return failed, attempted, "".join(report)


FILES = sorted(p for p in DOCS.rglob("*.md") if pycon_blocks(p))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(DOCS)) for p in FILES])
def test_pycon_examples_run(path: Path) -> None:
    failed, attempted, report = run_file(path)
    assert attempted > 0
    assert failed == 0, report


def test_api_doc_covers_every_game() -> None:
    import gnomekit

    text = (DOCS / "api.md").read_text(encoding="utf-8")
    for name in gnomekit.games():
        assert f'gnomekit.game("{name}")' in text, f"docs/api.md has no example for {name}"


if __name__ == "__main__":  # pragma: no cover
    total = 0
    for arg in sys.argv[1:]:
        f, a, rep = run_file(Path(arg).resolve())
        print(rep, end="")
        print(f"{arg}: {a - f} passed, {f} failed")
        total += f
    sys.exit(1 if total else 0)
