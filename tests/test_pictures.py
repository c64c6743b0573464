"""``--svg FILE`` on the position verbs of every game: the answer is unchanged, the picture is
well-formed SVG with the answer drawn on it (an illegal move's cells in the illegal colour)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from gnomekit.models.core.svg import PALETTE

from gnomekit.cli import main
from gnomekit.verbs import marks_of
from tests import svgdom  # minidom's calls on ElementTree (a tenth of the time)

EX = Path(__file__).resolve().parent.parent / "docs" / "examples"

# (arguments, expected exit status); each is run with and without --svg
CASES = [
    (["hedge-mage", "show", "start.txt"], 0),
    (["hedge-mage", "check", "start.txt", "--place", "T4:R0@0,5"], 0),
    (["hedge-mage", "check", "small.txt", "--place", "T4:R0@0,0"], 1),
    (["hedge-mage", "moves", "start.txt", "--count"], 0),
    (["hedge-mage", "hint", "start.txt"], 0),
    (["hedge-mage", "check", "tiny-run.txt", "--plan", "M1>0,1"], 0),
    (["gnome-hollow", "show", "hollow-mid.txt"], 0),
    (["gnome-hollow", "check", "hollow-mid.txt", "--place", "G01@1,0:r0"], 1),
    (["gnome-hollow", "solve", "hollow-mid.txt"], 0),
    (["gnomes-at-midnight", "show", "midnight-mid.txt"], 0),
    (["gnomes-at-midnight", "moves", "midnight-mid.txt"], 0),
    (["gnomes-at-midnight", "solve", "midnight-mid.txt", "--depth", "2"], 0),
    (["hexen-rennen", "show", "hexen-mid.txt"], 0),
    (["hexen-rennen", "solve", "hexen-mid.txt", "--roll", "3"], 0),
]


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(EX)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    return code, out.getvalue()


def _untimed(text: str) -> str:
    """The output without its measured times, which differ from run to run."""
    return re.sub(r"\b\d+(\.\d+)?\s?(s|ms)\b", "T", text)


@pytest.mark.parametrize(("argv", "status"), CASES, ids=[" ".join(a[:2]) + f" {i}" for i, (a, _) in enumerate(CASES)])
def test_svg_keeps_the_answer_and_draws_it(argv: list[str], status: int, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    code, text = _run(argv, monkeypatch)
    assert code == status
    pic = tmp_path / "pic.svg"
    code2, text2 = _run([*argv, "--svg", str(pic)], monkeypatch)
    assert (code2, _untimed(text2)) == (code, _untimed(text))
    svg = pic.read_text(encoding="utf-8")
    doc = svgdom.parseString(svg)
    assert doc.documentElement.tagName == "svg"
    if status == 1 and "check" in argv:
        assert PALETTE["illegal"] in svg


def test_an_unwritable_picture_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, _ = _run(["hedge-mage", "show", "start.txt", "--svg", str(tmp_path / "no" / "such" / "dir.svg")],
                   monkeypatch)
    assert code == 2


def test_marks_of_reads_violations_moves_and_chains() -> None:
    class Pos:
        def parse_move(self, text: str, source: str = "<move>") -> str:
            if text == "bad":
                raise ValueError(text)
            return text

        def move_cells(self, move: str) -> tuple[tuple[int, int], ...]:
            return ((0, len(move)),)

    data = {"violations": [{"rule": "r", "message": "m", "cells": [[1, 2], [3, 4]]}], "move": "abc"}
    m = marks_of(Pos(), data)  # type: ignore[arg-type]
    assert m.illegal == ((1, 2), (3, 4)) and m.move == ((0, 3),) and "[r] m" in m.caption
    m = marks_of(Pos(), {"placements": [{"notation": "ab"}, {"notation": "bad"}, {"cells": [[5, 5]]}]})  # type: ignore[arg-type]
    assert m.move == ((0, 2), (5, 5)) and not m.illegal
    m = marks_of(Pos(), {"chain": [0, 5, 11]})  # type: ignore[arg-type]
    assert m.move == (0, 5, 11) and m.routes == ((0, 5, 11),)


def test_the_docs_pictures_are_up_to_date(tmp_path: Path) -> None:
    """docs/pictures/ is what docs/make_pictures.py draws now (run it after a change of drawing)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_pictures", EX.parent / "make_pictures.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for path in mod.draw(tmp_path):
        committed = EX.parent / "pictures" / path.name
        assert committed.exists(), f"docs/pictures/{path.name} is missing: run python docs/make_pictures.py"
        assert committed.read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), (
            f"docs/pictures/{path.name} is stale: run python docs/make_pictures.py")
    names = {p.name for p in mod.draw(tmp_path)}
    assert names == {p.name for p in (EX.parent / "pictures").glob("*.svg")}
    text = (EX.parent / "pictures.md").read_text(encoding="utf-8")
    assert all(f"pictures/{n}" in text for n in names)
