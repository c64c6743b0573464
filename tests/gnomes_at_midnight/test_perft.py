"""Perft: the engine's game-tree leaf counts against the stored counts of the independent reference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves, next_position, perft
from gnomekit.models.gnomes_at_midnight.notation import read_position

from tests.gnomes_at_midnight.make_perft import _perft

PERFT = Path(__file__).with_name("perft.txt")


def records() -> list[tuple[str, str, dict[str, Any], dict[int, int]]]:
    out = []
    cur: dict[str, Any] = {}
    for line in PERFT.read_text().splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                out.append((cur["id"], cur["edition"], cur["position"], cur["depths"]))
                cur = {}
            continue
        key, _, val = line.partition(": ")
        if key == "position":
            cur["position"] = json.loads(val)
        elif key.startswith("depth "):
            cur.setdefault("depths", {})[int(key.split()[1])] = int(val)
        else:
            cur[key] = val
    return out


RECORDS = records()


def _divide(pos, depth):  # type: ignore[no-untyped-def]
    out = {}
    for m in legal_moves(pos):
        a = after_move(pos, m)
        if a.wins:
            out[m.text()] = 1 if depth == 1 else 0
        elif not a.flips:
            out[m.text()] = perft(next_position(a, None), depth - 1)
        else:
            out[m.text()] = sum(perft(next_position(a, t), depth - 1) for t, _ in a.flips)
    return out


@pytest.mark.parametrize("ident,edition,data,depths", RECORDS, ids=[r[0] for r in RECORDS])
def test_engine_perft_matches_file(ident: str, edition: str, data: dict[str, Any], depths: dict[int, int]) -> None:
    pos = read_position(json.dumps(data), ident, bundled_edition(edition))
    for d, n in sorted(depths.items()):
        if d >= 4 and n > 5000:
            continue  # the largest counts are checked in the slow run
        got = perft(pos, d)
        assert got == n, f"{ident} depth {d}: {got} != {n}; per move: {_divide(pos, d)}"


@pytest.mark.slow
@pytest.mark.parametrize("ident,edition,data,depths", RECORDS, ids=[r[0] for r in RECORDS])
def test_full_perft_and_reference(ident: str, edition: str, data: dict[str, Any], depths: dict[int, int]) -> None:
    pos = read_position(json.dumps(data), ident, bundled_edition(edition))
    for d, n in sorted(depths.items()):
        assert perft(pos, d) == n
        assert _perft(data, edition, d) == n


def test_reference_agrees_on_shallow_depths() -> None:
    for ident, edition, data, depths in RECORDS:
        for d in (1, 2):
            assert _perft(data, edition, d) == depths[d], ident


def test_file_covers_the_required_depths() -> None:
    assert len(RECORDS) >= 6
    assert any(max(r[3]) >= 4 for r in RECORDS)
    assert all(min(r[3]) == 1 for r in RECORDS)
