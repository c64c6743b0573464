"""Every position format carries ``format: 1`` (text) or ``"format": 1`` (JSON): written right after
the header line / the ``game`` key, optional when read (missing = format 1), any other version refused
with a located error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gnomekit.models.core.errors import NotationError
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running_notation import read_run, run_to_json, run_to_text

import gnomekit

GAMES = ["hedge-mage", "gnome-hollow", "gnomes-at-midnight", "hexen-rennen"]
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _positions(name: str) -> list[gnomekit.Position]:
    g = gnomekit.game(name)
    return [g.new(), g.random(seed=3)]


@pytest.mark.parametrize("name", GAMES)
def test_text_and_json_carry_the_version_and_read_back_without_it(name: str) -> None:
    g = gnomekit.game(name)
    for pos in _positions(name):
        lines = pos.to_text().splitlines()
        assert lines[1] == "format: 1"
        data = pos.to_json()
        assert list(data)[:2] == ["game", "format"] and data["format"] == 1
        without = "\n".join(lines[:1] + lines[2:]) + "\n"
        assert g.read(without).key() == pos.key()
        assert g.read(json.dumps({k: v for k, v in data.items() if k != "format"})).key() == pos.key()
        assert g.read(pos.to_text()).key() == pos.key()
        assert g.read(json.dumps(data)).key() == pos.key()


@pytest.mark.parametrize("name", GAMES)
def test_another_version_is_refused_where_it_stands(name: str) -> None:
    g = gnomekit.game(name)
    pos = g.new()
    lines = pos.to_text().splitlines()
    for bad in ("2", "0", "1.0", "one"):
        text = "\n".join([lines[0], f"format: {bad}", *lines[2:]]) + "\n"
        with pytest.raises(NotationError) as ei:
            g.read(text, "p.txt")
        assert (ei.value.source, ei.value.line, ei.value.column) == ("p.txt", 2, 9)
        assert "format 1" in str(ei.value)
    data = pos.to_json()
    for bad_value in (2, "1", True, None, [1]):
        data["format"] = bad_value
        with pytest.raises(NotationError) as ej:
            g.read(json.dumps(data, indent=2), "p.json")
        assert ej.value.source == "p.json" and ej.value.line == 3 and "format 1" in str(ej.value)


def test_hedge_mage_running_positions_carry_it_too() -> None:
    ed = default_edition()
    pos = read_run((EXAMPLES / "tiny-run.txt").read_text(encoding="utf-8"), "tiny-run.txt", ed)
    text = run_to_text(pos, ed)
    assert text.splitlines()[1] == "format: 1"
    assert read_run(text, "t", ed) == pos
    data = run_to_json(pos, ed)
    assert list(data)[:2] == ["game", "format"]
    assert read_run(json.dumps(data), "t", ed) == pos
    with pytest.raises(NotationError) as ei:
        read_run(text.replace("format: 1", "format: 7"), "t.txt", ed)
    assert ei.value.line == 2
    data["format"] = 7
    with pytest.raises(NotationError) as ej:
        read_run(json.dumps(data, indent=1), "t.json", ed)
    assert ej.value.line == 3
