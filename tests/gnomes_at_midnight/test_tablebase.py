"""The retrograde tablebase against the search, exhaustively sampled on a tiny edition; caching."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from gnomekit.models.core.edition import read_toml_file
from gnomekit.models.gnomes_at_midnight.edition import MidnightEdition, edition_from_toml
from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves, next_position
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.gnomes_at_midnight.search import solve
from gnomekit.solver.gnomes_at_midnight.tablebase import build, load_or_build, position_of

TINY = Path(__file__).parent / "data" / "tiny.toml"


def tiny() -> MidnightEdition:
    return edition_from_toml(read_toml_file(TINY))


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    return build(tiny())


def test_counts_add_up(table) -> None:  # type: ignore[no-untyped-def]
    c = table.counts()
    assert sum(c.values()) == table.size == 2 * 16 * table.values.shape[3]
    assert c["win"] and c["loss"] and c["draw"]


def test_wins_and_losses_match_the_search(table) -> None:  # type: ignore[no-untyped-def]
    like = new_position(tiny(), 0)
    rng = random.Random(7)
    checked_loss = 0
    for _ in range(250):
        s, dg, db = rng.randrange(2), rng.randrange(4), rng.randrange(4)
        c = rng.randrange(table.values.shape[3])
        pos = position_of(table, s, dg, db, c, like)
        v = int(table.values[s, dg, db, c])
        want = v if 1 <= v <= 3 else None
        assert solve(pos, 3).value == want, (s, dg, db, c, v)
        if 129 <= v <= 130:
            # a loss in n: after every move the opponent wins within n, and after some move it needs n
            n = v - 128
            needs = []
            for m in legal_moves(pos):
                a = after_move(pos, m)
                assert not a.wins
                flips = [t for t, _ in a.flips] or [None]
                assert len(flips) == 1
                r = solve(next_position(a, flips[0]), n)
                assert r.value is not None
                needs.append(r.value)
            assert max(needs) == n
            checked_loss += 1
    assert checked_loss > 5


def test_cache_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GNOMEKIT_CACHE", str(tmp_path))
    tb1, built = load_or_build(tiny())
    assert built and list(tmp_path.iterdir())
    tb2, built2 = load_or_build(tiny())
    assert not built2 and np.array_equal(tb1.values, tb2.values) and np.array_equal(tb1.keys, tb2.keys)
    start = new_position(tiny(), 0)
    from dataclasses import replace

    start = replace(start, known=(tiny().decks[0], tiny().decks[1]))
    assert tb2.lookup(start)[0] in ("win", "loss", "draw")


def test_cli_tablebase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from gnomekit.cli import main

    monkeypatch.setenv("GNOMEKIT_CACHE", str(tmp_path))
    assert main(["midnight", "new", "--edition", str(TINY), "--json"]) == 0
    pos = tmp_path / "start.json"
    pos.write_text(capsys.readouterr().out)
    code = main(["midnight", "solve", str(pos), "--edition", str(TINY), "--tablebase", "--json"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert "tablebase" in err and "100.0%" in err  # the progress bar
    assert data["value"] in ("win", "loss", "draw") and code == (0 if data["value"] == "win" else 1)
    counts = data["tablebase"]["counts"]
    assert sum(counts.values()) == data["tablebase"]["positions"]
    assert data["tablebase"]["built_now"] is True
    if data["value"] == "win":
        assert data["move"] and data["turns"] == solve_turns(pos)
    code2 = main(["midnight", "solve", str(pos), "--edition", str(TINY), "--tablebase", "--json"])
    again = json.loads(capsys.readouterr().out)
    assert again["tablebase"]["built_now"] is False and again["value"] == data["value"] and code2 == code


def solve_turns(path: Path) -> int | None:
    from gnomekit.models.gnomes_at_midnight.notation import read_position

    pos = read_position(path.read_text(), "p", tiny())
    return solve(pos, 5).value


@pytest.mark.slow
def test_mini_tablebase_matches_search() -> None:
    """The full mini table (built once, cached under $GNOMEKIT_CACHE): sampled wins against the search."""
    from gnomekit.models.gnomes_at_midnight.edition import bundled_edition

    ed = bundled_edition("mini")
    tb, _built = load_or_build(ed)
    c = tb.counts()
    assert sum(c.values()) == tb.size and tb.values.shape[3] == 2_090_651
    like = new_position(ed, 0)
    rng = random.Random(11)
    for _ in range(150):
        s, dg, db = rng.randrange(2), rng.randrange(4), rng.randrange(4)
        cfg = rng.randrange(tb.values.shape[3])
        pos = position_of(tb, s, dg, db, cfg, like)
        v = int(tb.values[s, dg, db, cfg])
        assert solve(pos, 2).value == (v if 1 <= v <= 2 else None)
