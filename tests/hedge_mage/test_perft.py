"""Perft for Hedge Mage: legal placement counts per tile on fixed gardens (perft/perft.txt).

The counts in the file were established by two independent methods when it was
written (perft/make_perft.py).  Here the fast enumeration (and the SAT method,
when ``solver.hedge_mage.sat`` exists) must reproduce them, the independent
reference must still agree with the file, and the small gardens must match
counts worked out by hand.  On a mismatch the failure message gives the counts
per tile and the placements that differ.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition
from gnomekit.models.hedge_mage.notation import read_garden
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.solver.hedge_mage.placements import enumerate_all

from tests.hedge_mage.hm_reference import PERFT_DIR, Key, default_pictures, reference_counts

# Positions whose independent (networkx) recount or SAT count takes seconds: run with --runslow.
SLOW = {"setup-seed0"}


@dataclass
class Record:
    id: str
    position: str
    counts: dict[str, tuple[int, int]]  # tile -> (legal placements, sum of movement points)
    total: int
    line: int


def parse_perft(path: Path) -> list[Record]:
    """Read perft.txt; malformed records fail loudly with their line number."""
    records: list[Record] = []
    cur: dict[str, object] = {}
    counts: dict[str, tuple[int, int]] = {}

    def finish(lineno: int) -> None:
        if not cur:
            return
        assert {"id", "position", "total"} <= set(cur), f"{path}:{lineno}: incomplete record {cur}"
        records.append(Record(str(cur["id"]), str(cur["position"]), dict(counts), int(str(cur["total"])),
                              int(str(cur["line"]))))
        cur.clear()
        counts.clear()

    lines = path.read_text("utf-8").splitlines()
    for n, raw in enumerate(lines, start=1):
        s = raw.strip()
        if s.startswith("#"):
            continue
        if not s:
            finish(n)
            continue
        m = re.fullmatch(r"(id|position|total):\s*(\S+)", s)
        if m:
            if m.group(1) == "id":
                cur["line"] = n
            cur[m.group(1)] = m.group(2)
            continue
        m = re.fullmatch(r"(\S+)\s+(\d+)\s+(\d+)", s)
        assert m, f"{path}:{n}: cannot read {raw!r}"
        counts[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    finish(len(lines))
    return records


RECORDS = parse_perft(PERFT_DIR / "perft.txt")
IDS = [r.id for r in RECORDS]

# Counted by hand (reasoning in the comments; see also the position files).
HAND_COUNTS: dict[str, dict[str, int]] = {
    # 3x3: dominoes 12 cells-pairs x 2 sigils, none cuts; I3 only on an edge row/col (4 lines x
    # 2 ends); L3 in one of 4 2x2 boxes minus the box cell that is a board corner (3 each);
    # L3e the same with 2 sigil ends; L4/L4m 8 (bar on an edge row/col); T4 4, T4e 8; S4 always
    # walls off a corner; I4 and N5 do not fit.
    "empty-3x3": {"D2": 24, "I3": 8, "I3m": 4, "L3": 12, "L3e": 24, "I4": 0, "L4": 8, "L4m": 8,
                  "T4": 4, "T4e": 8, "S4": 0, "N5": 0},
    # 2x5: any tile filling a whole middle column cuts the strip; horizontal pieces never do.
    "empty-2x5": {"D2": 20, "I3": 12, "I3m": 6, "L3": 4, "L3e": 8, "I4": 8, "L4": 4, "L4m": 4,
                  "T4": 0, "T4e": 0, "S4": 0, "N5": 0},
    "empty-1x2": {"D2": 2},  # covers the whole garden: no ground left counts as connected
    "split-1x6": {"D2": 4},  # fills one 2-cell piece: the other piece is one region afterwards
    "split-4x4": {t: 0 for t in ("D2", "I3", "L3", "T4", "N5")},
    "bush-4x4": {t: 0 for t in ("D2", "I3", "L3", "T4", "N5")},
    # D2: 0,4-1,4 and 1,4-2,4 plus their half-turn images; I3: column 4 rows 0-2 and its image.
    "corridor-5x5": {"D2": 8, "I3": 4, "I3m": 2, "L3": 0},
    # free pairs 2,1-2,2 / 2,1-3,1 / 3,0-3,1 (0,3-0,4 and 1,2-2,2 make a bush); L3 only 2,1 3,0 3,1.
    "tokens-4x5": {"D2": 6, "L3": 1, "L3e": 2, "I3": 0},
}


@pytest.fixture(scope="module")
def edition() -> HedgeMageEdition:
    return default_edition()


def load(record: Record, edition: HedgeMageEdition) -> Garden:
    path = PERFT_DIR / "positions" / record.position
    return read_garden(path.read_text("utf-8"), record.position, edition)


def mismatch_report(record: Record, got: dict[str, tuple[int, int]], got_keys: dict[str, Iterable[Key]],
                    ref_keys: dict[str, list[Key]] | None) -> str:
    """Counts per tile (file vs method) and, where they differ, the differing placements."""
    lines = [f"perft {record.id} (perft.txt line {record.line}): tile  expected  got"]
    for tile, (n, pts) in record.counts.items():
        g = got.get(tile, (-1, -1))
        flag = "" if g == (n, pts) else "   <-- differs"
        lines.append(f"  {tile:5} {n:5} ({pts} pts)  {g[0]:5} ({g[1]} pts){flag}")
        if flag and ref_keys is not None:
            mine, ref = set(got_keys.get(tile, ())), set(ref_keys[tile])
            for k in sorted(mine - ref)[:10]:
                lines.append(f"      only in method:    cells {k[1]} sigil {k[2]}")
            for k in sorted(ref - mine)[:10]:
                lines.append(f"      only in reference: cells {k[1]} sigil {k[2]}")
    return "\n".join(lines)


def check_groups(record: Record, edition: HedgeMageEdition, groups: list, g: Garden) -> None:  # type: ignore[type-arg]
    got = {grp.tile: (len(grp.placements), sum(grp.points)) for grp in groups}
    keys = {grp.tile: [p.key for p in grp.placements] for grp in groups}
    dupes = {t: len(k) - len(set(k)) for t, k in keys.items() if len(k) != len(set(k))}
    expected = dict(record.counts)
    if got != expected or dupes:
        ref = {t: v[2] for t, v in reference_counts(g, default_pictures()).items()}
        msg = mismatch_report(record, got, keys, ref)
        if dupes:
            msg += f"\n  duplicate placements: {dupes}"
        pytest.fail(msg)
    assert sum(n for n, _ in got.values()) == record.total


def test_file_is_well_formed(edition: HedgeMageEdition) -> None:
    files = sorted(p.name for p in (PERFT_DIR / "positions").iterdir() if p.suffix in (".txt", ".json"))
    assert sorted(r.position for r in RECORDS) == files, "every position file has exactly one record"
    assert len(set(IDS)) == len(IDS)
    for r in RECORDS:
        assert list(r.counts) == list(edition.tiles), f"{r.id}: one line per tile, in edition order"
        assert sum(n for n, _ in r.counts.values()) == r.total, f"{r.id}: total"


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_perft_enumeration(record: Record, edition: HedgeMageEdition) -> None:
    g = load(record, edition)
    check_groups(record, edition, enumerate_all(g, edition, list(edition.tiles)), g)


@pytest.mark.parametrize(
    "record", [pytest.param(r, marks=pytest.mark.slow) if r.id in SLOW else r for r in RECORDS], ids=IDS)
def test_perft_sat(record: Record, edition: HedgeMageEdition) -> None:
    if importlib.util.find_spec("gnomekit.solver.hedge_mage.sat") is None:
        pytest.skip("gnomekit.solver.hedge_mage.sat is not written yet")
    sat = importlib.import_module("gnomekit.solver.hedge_mage.sat")
    g = load(record, edition)
    check_groups(record, edition, sat.sat_all(g, edition, list(edition.tiles)), g)


@pytest.mark.parametrize(
    "record",
    [pytest.param(r, marks=pytest.mark.slow) if r.id in SLOW else r for r in RECORDS],
    ids=IDS,
)
def test_perft_reference_still_agrees(record: Record, edition: HedgeMageEdition) -> None:
    """The file is not a snapshot of the engine: the independent reference recounts it."""
    g = load(record, edition)
    ref = reference_counts(g, default_pictures())
    got = {t: (n, pts) for t, (n, pts, _k) in ref.items()}
    assert got == record.counts, mismatch_report(record, got, {}, None)


@pytest.mark.parametrize("name", sorted(HAND_COUNTS))
def test_hand_counts(name: str) -> None:
    (record,) = [r for r in RECORDS if r.id == name]
    for tile, n in HAND_COUNTS[name].items():
        assert record.counts[tile][0] == n, f"{name} {tile}: file {record.counts[tile][0]}, by hand {n}"
    if name in ("empty-3x3", "empty-2x5", "empty-1x2"):
        # no sigil on the board: every placement earns exactly its own sigil
        assert all(pts == n for n, pts in record.counts.values())


def test_mismatch_report_names_tiles_and_placements(edition: HedgeMageEdition) -> None:
    """The runner itself: a doctored record fails with per-tile counts and the differing placements."""
    (good,) = [r for r in RECORDS if r.id == "tokens-4x5"]
    bad = Record(good.id, good.position, {**good.counts, "D2": (7, 7)}, good.total + 1, good.line)
    g = load(bad, edition)
    groups = enumerate_all(g, edition, list(edition.tiles))
    with pytest.raises(pytest.fail.Exception) as exc:
        check_groups(bad, edition, groups, g)
    msg = str(exc.value)
    assert "D2        7 (7 pts)      6 (6 pts)   <-- differs" in msg and "L3e" in msg
    # a method that misses a placement: the placement is named
    groups[0].placements.pop()
    groups[0].points.pop()
    with pytest.raises(pytest.fail.Exception) as exc:
        check_groups(good, edition, groups, g)
    assert "only in reference: cells ((3, 0), (3, 1)) sigil (3, 1)" in str(exc.value)
