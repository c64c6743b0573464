"""The ``gnomes:`` line reads back whatever gnomes a player has, a lone gnome not yet in the garden too.

A lone ``-`` is the empty value (no gnomes), as on every line of the text notation; a gnome not yet
in the garden is ``-`` among other tokens or ``unplaced``, which the writer uses when it is the
player's only gnome (an edition of one gnome each starts that way).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition, default_edition, edition_from_toml
from gnomekit.models.gnome_hollow.notation import position_from_text, position_to_text
from gnomekit.models.gnome_hollow.position import FLOWERS, MARKET, Gnome, GnomeAt, Position
from gnomekit.models.gnome_hollow.setup import new_position, random_position

from gnomekit.cli import main

ED = default_edition()
TOML = Path(__file__).resolve().parents[2] / "models" / "gnome_hollow" / "data" / "default.toml"


def one_gnome_toml() -> str:
    text = TOML.read_text(encoding="utf-8")
    assert text.count("\ngnomes = 2\n") == 1
    return text.replace("\ngnomes = 2\n", "\ngnomes = 1\n")


ED1 = edition_from_toml(parse_toml(one_gnome_toml(), "one.toml"))


def test_the_one_gnome_edition() -> None:
    assert ED1.gnomes == 1 and ED.gnomes == 2


def test_a_lone_dash_is_no_gnome_and_unplaced_is_one() -> None:
    text = position_to_text(new_position(ED, 2, 0), ED)
    assert text.count("  gnomes: - -\n") == 2
    none = position_from_text(text.replace("  gnomes: - -\n", "  gnomes: -\n", 1), "t", ED)
    one = position_from_text(text.replace("  gnomes: - -\n", "  gnomes: unplaced\n", 1), "t", ED)
    assert [g.player for g in none.gnomes] == ["blue", "blue"]
    assert [g.player for g in one.gnomes] == ["blue", "blue", "red"] and one.gnomes[2].at is None
    both = position_from_text(text.replace("  gnomes: - -\n", "  gnomes: unplaced -\n", 1), "t", ED)
    assert both == position_from_text(text, "t", ED)  # the two spellings of a gnome not in the garden


# every kind of gnome token a player may write: not placed, market, flowers, on a path (a gnome lies down
# only on a completed ring, which this garden has not got)
BASE = random_position(ED, 3, 6, 2)
PATH = (BASE.tiles[1].cell, 0)
KINDS: tuple[tuple[GnomeAt, bool], ...] = ((None, False), (MARKET, False), (FLOWERS, False), (PATH, False))


def hands(edition: GnomeHollowEdition) -> list[tuple[tuple[GnomeAt, bool], ...]]:
    """Every multiset of at most ``edition.gnomes`` gnome kinds (the gnomes one player may have)."""
    return [c for n in range(edition.gnomes + 1) for c in itertools.combinations_with_replacement(KINDS, n)]


@pytest.mark.parametrize("edition", [ED1, ED], ids=["one-gnome", "two-gnomes"])
def test_every_set_of_gnomes_round_trips(edition: GnomeHollowEdition) -> None:
    """Exhaustive over two players' gnomes (0..edition.gnomes each, of every kind): text reads back."""
    count = 0
    for red, blue in itertools.product(hands(edition), repeat=2):
        gnomes = tuple(Gnome("red", at, down) for at, down in red) + tuple(Gnome("blue", at, down) for at, down in blue)
        pos = replace(BASE, gnomes=gnomes)
        text = position_to_text(pos, edition)
        back = position_from_text(text, "t", edition)
        assert back == pos, text
        assert position_to_text(back, edition) == text
        count += 1
    assert count == len(hands(edition)) ** 2


def test_show_reads_back_a_new_game_of_one_gnome_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    toml = tmp_path / "one.toml"
    toml.write_text(one_gnome_toml(), encoding="utf-8")
    assert main(["gnome-hollow", "new", "--edition", str(toml), "--seed", "0", "--json"]) == 0
    new = json.loads(capsys.readouterr().out)
    assert all(len(p["gnomes"]) == 1 and p["gnomes"][0]["at"] is None for p in new["players"])
    assert main(["gnome-hollow", "new", "--edition", str(toml), "--seed", "0"]) == 0
    text = capsys.readouterr().out
    assert text.count("  gnomes: unplaced\n") == 2
    f = tmp_path / "one.txt"
    f.write_text(text, encoding="utf-8")
    assert main(["gnome-hollow", "show", str(f), "--edition", str(toml)]) == 0
    shown = capsys.readouterr().out
    want: Position = new_position(ED1, 2, 0)
    assert position_from_text(shown, "show", ED1) == want == position_from_text(text, "new", ED1)
