"""A text position that leaves out a line is refused, located where the line belongs (never read as
empty): a forgotten ``bag:`` read as an empty bag would end the game at the next draw."""

from __future__ import annotations

from pathlib import Path

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.notation import (
    REQUIRED_LINES,
    REQUIRED_PLAYER_LINES,
    position_from_text,
    position_to_text,
)
from gnomekit.models.gnome_hollow.setup import new_position, random_position

from gnomekit.cli import main

ED = default_edition()
FULL = position_to_text(random_position(ED, 3, 4, 2), ED)


def _without(text: str, key: str, player: int | None = None) -> tuple[str, int]:
    """``text`` without the line of ``key`` (of the ``player``-th player block), and that line's number."""
    lines = text.splitlines()
    seen = -1
    for n, line in enumerate(lines):
        if line.startswith("player: "):
            seen += 1
        if line.strip().partition(":")[0] == key and (player is None) == (not line.startswith(" ")) \
                and (player is None or seen == player):
            return "\n".join(lines[:n] + lines[n + 1:]) + "\n", n + 1
    raise AssertionError(f"no line {key} in the position")


@pytest.mark.parametrize("key", list(REQUIRED_LINES))
def test_each_required_line_left_out_is_an_error_where_it_belongs(key: str) -> None:
    text, n = _without(FULL, key)
    with pytest.raises(NotationError) as exc:
        position_from_text(text, "p.txt", ED)
    e = exc.value
    assert (e.source, e.line, e.column) == ("p.txt", n, 1), str(e)
    assert f"a line '{key}: ...' here" in e.message and "also missing" not in e.message
    assert e.text == (text.splitlines()[n - 1].strip() if n <= len(text.splitlines()) else "end of input")


@pytest.mark.parametrize("key", list(REQUIRED_PLAYER_LINES))
def test_each_player_line_left_out_is_an_error_in_that_players_block(key: str) -> None:
    text, n = _without(FULL, key, player=1)
    with pytest.raises(NotationError) as exc:
        position_from_text(text, "p.txt", ED)
    e = exc.value
    assert (e.line, e.column) == (n, 1), str(e)
    assert f"a line '  {key}: ...' here" in e.message and "player blue" in e.message


def test_every_missing_line_is_named_and_the_first_located() -> None:
    text = "\n".join(line for line in FULL.splitlines()
                     if line.partition(":")[0] not in ("bag", "market", "market-tokens", "flower-market")) + "\n"
    with pytest.raises(NotationError) as exc:
        position_from_text(text, "p.txt", ED)
    assert exc.value.line == FULL.splitlines().index(next(x for x in FULL.splitlines() if x.startswith("bag:"))) + 1
    assert "also missing: market, market-tokens, flower-market" in exc.value.message
    with pytest.raises(NotationError) as exc:
        position_from_text("gnome-hollow position\nplayer: red\n", "p.txt", ED)
    assert (exc.value.line, exc.value.text) == (2, "player: red") and "'to-move: ...'" in exc.value.message
    with pytest.raises(NotationError) as exc:  # no player block at all: that is said first
        position_from_text("gnome-hollow position\n", "p.txt", ED)
    assert "no players" in exc.value.message


def test_optional_lines_and_their_defaults() -> None:
    """format (1), edition (the one read with) and options (none) may be left out; ``end-triggered``
    stands for ``phase``; ``-`` is an empty value, said explicitly."""
    pos = position_from_text(FULL, "p.txt", ED)
    lean = "\n".join(line for line in FULL.splitlines()
                     if line.partition(":")[0] not in ("format", "edition", "options")) + "\n"
    assert position_from_text(lean, "p.txt", ED) == pos
    legacy = FULL.replace("phase: play", "end-triggered: no")
    assert position_from_text(legacy, "p.txt", ED) == pos
    empty_bag = "\n".join("bag: -" if line.startswith("bag:") else line for line in FULL.splitlines())
    assert position_from_text(empty_bag, "p.txt", ED).bag == ()


def test_final_actions_phase_needs_its_count() -> None:
    text = position_to_text(new_position(ED, 2, 0), ED).replace("phase: play", "phase: final-actions")
    with pytest.raises(NotationError) as exc:
        position_from_text(text, "p.txt", ED)
    assert "final-actions: K" in exc.value.message and exc.value.line == 11
    assert position_from_text(text.replace("phase: final-actions", "phase: final-actions\nfinal-actions: 0"),
                              "p.txt", ED).final_actions == 0


def test_the_cli_exits_2_with_the_location(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "nobag.txt"
    text, n = _without(FULL, "bag")
    f.write_text(text)
    assert main(["gnome-hollow", "show", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"nobag.txt:{n}:1: expected a line 'bag: ...' here" in err and "Traceback" not in err
