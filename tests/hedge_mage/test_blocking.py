"""The exact blocking method (``solver/hedge_mage/blocking.py``) against exhaustive search on small editions."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence

import pytest
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition
from gnomekit.models.hedge_mage.placement import legal_placements
from gnomekit.solver.core.sat import SatTimeout
from gnomekit.solver.hedge_mage.audit import (
    _local_witness,
    _PoolJob,
    _Sim,
    audit_tile,
    audit_tiles,
    brute_force_fewest,
    from_twin,
    max_before,
    order_for_replay,
    pool_order,
    replay,
    setup_garden,
    twins,
)
from gnomekit.solver.hedge_mage.blocking import (
    BlockingSearch,
    _BlockModel,
    _splits,
    fewest_blocking,
    maxsat_blocking,
)

from tests.hedge_mage.test_audit import SHAPES, check_witness, tiny
from tests.marks import by_default, first_by_default

MORE = {**SHAPES, "I3m": ["#@#"], "L3e": ["#@", "#."], "T4e": ["@##", ".#."]}


def edition_of(seed: int, size: tuple[int, int] = (5, 7), ntiles: tuple[int, int] = (3, 4),
               symmetric: bool = False) -> HedgeMageEdition:
    """A random small edition: a 5x5-7x7 garden, 2 tunnels and up to 4 gnome spaces, a few tiles.

    ``symmetric``: the pieces are placed in half-turn pairs (so the symmetry breaking applies).
    """
    rng = random.Random(seed)
    rows, cols = rng.randint(*size), rng.randint(*size)
    cells = [[r, c] for r in range(rows) for c in range(cols)]
    if symmetric:
        a = rng.choice([c for c in cells if (c[0], c[1]) < (rows - 1 - c[0], cols - 1 - c[1])])
        pieces = [a, [rows - 1 - a[0], cols - 1 - a[1]]]
        for _ in range(rng.randint(0, 2)):
            b = rng.choice(cells)
            pieces += [b, [rows - 1 - b[0], cols - 1 - b[1]]]
        pieces = [list(p) for p in dict.fromkeys(tuple(p) for p in pieces)]
    else:
        pieces = rng.sample(cells, 2 + rng.randint(0, 4))
    names = rng.sample(sorted(MORE), rng.randint(*ntiles))
    return tiny(rows, cols, pieces[:2], pieces[2:], {n: MORE[n] for n in names}, rng.choice([0, 0, 1]))


def exact(ed: HedgeMageEdition, tile: str, **options: object) -> int | None:
    """fewest_blocking's proven value (0 when the tile has no placement at setup), witness checked."""
    base = setup_garden(ed)
    if not legal_placements(base, ed.tiles[tile]).placements:
        return 0
    ans = fewest_blocking(base, ed, tile, max_before(ed), time.monotonic() + 60, **options)  # type: ignore[arg-type]
    assert ans.status == "proven", (tile, ans)
    if ans.upper is None:
        assert ans.lower == max_before(ed) + 1
        return None
    assert ans.lower == ans.upper == len(ans.placements)
    seq = order_for_replay(base, ans.placements)
    assert seq is not None
    check_witness(base, ed, tile, seq, replay(base, ed, seq))
    return ans.upper


@pytest.mark.parametrize("seed", by_default(range(8), [1, 3, 4]))
def test_exact_matches_brute_force(seed: int) -> None:
    ed = edition_of(seed)
    base = setup_garden(ed)
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        assert exact(ed, tile) == bf, (seed, tile)
        assert exact(ed, tile, ring="count") == bf, (seed, tile)


@pytest.mark.parametrize("seed", by_default(range(6), [2, 4]))
def test_maxsat_matches_brute_force(seed: int) -> None:
    # RC2 on the same model with the same lazy cuts: its optima are lower bounds, its answer the value
    ed = edition_of(seed + 10 * (seed % 2), symmetric=seed % 3 == 0)
    base = setup_garden(ed)
    for tile in ed.tiles:
        if not legal_placements(base, ed.tiles[tile]).placements:
            continue
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        for ring in ("count", "labels"):
            ans = maxsat_blocking(base, ed, tile, max_before(ed), time.monotonic() + 60, ring=ring)
            assert ans.status == "proven", (seed, tile, ring)
            assert ans.upper == bf, (seed, tile, ring)
            if bf is None:
                assert ans.lower == max_before(ed) + 1
            else:
                assert ans.lower == bf
                seq = order_for_replay(base, ans.placements)
                assert seq is not None
                check_witness(base, ed, tile, seq, replay(base, ed, seq))


def test_ring_cut_by_the_board_edge_needs_no_hedge() -> None:
    # S4 laid in the top-left corner cuts off (0, 0) with no hedge in its ring: the implied
    # "a split needs a hedge in the ring" holds only for a connected ring.  With it for every
    # ring, a lone I3 at (3, 2)-(3, 4) (or a T4) was ruled out and S4 came out as 2, not 1.
    ed = tiny(6, 5, [[0, 3], [5, 4]], [[1, 2], [3, 1]], {n: MORE[n] for n in ("I3", "I3m", "T4", "S4")})
    base = setup_garden(ed)
    assert brute_force_fewest(base, ed, "S4", max_before(ed)) == 1
    assert exact(ed, "S4") == exact(ed, "S4", ring="count") == 1
    assert exact(ed, "S4", symmetry=False, split=False, exact=True) == 1
    a = audit_tile(base, ed, "S4", 10)
    assert a.value == 1 and a.stats["unsat_at"] == 0
    check_witness(base, ed, "S4", a.sequence, a.garden)


@pytest.mark.parametrize("seed", first_by_default(range(4), 1))
def test_symmetry_and_counts_do_not_change_answers(seed: int) -> None:
    ed = edition_of(50 + seed, symmetric=True)
    base = setup_garden(ed)
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        assert exact(ed, tile) == bf
        assert exact(ed, tile, symmetry=False, split=False) == bf
        assert exact(ed, tile, exact=True) == bf
        assert exact(ed, tile, ring="count", exact=True) == bf
        assert exact(ed, tile, ring="count", symmetry=False, split=False) == bf


@pytest.mark.parametrize(("seed", "pause"), by_default([(0, "every third SAT call"), (0, "deadline"),
                                             (1, "every third SAT call"), (2, "every third SAT call")],
                                             [(1, "every third SAT call")], unpack=True))
def test_search_paused_and_resumed_gives_the_same_answers(seed: int, pause: str) -> None:
    # the audit runs the exact search first, stops it at a deadline and resumes it later.
    # "every third SAT call": the deadline passes at a fixed point (a timeout is raised on every
    # third SAT call, as the solver does when the deadline passes), so the pauses do not depend on
    # the machine's speed; "deadline": real deadlines, slices of a few milliseconds (doubling, so
    # it ends), which on a fast machine may not pause at all
    ed = edition_of(20 + seed, symmetric=seed == 1)
    base = setup_garden(ed)
    paused = 0
    for tile in ed.tiles:
        if not legal_placements(base, ed.tiles[tile]).placements:
            continue
        s = BlockingSearch(base, ed, tile, max_before(ed))
        if pause != "deadline":
            solve, calls = s.model.sat.solve, [0]

            def every_third(assumptions: Sequence[int] = (), deadline: float | None = None,
                            solve: Callable[..., bool] = solve, calls: list[int] = calls) -> bool:
                calls[0] += 1
                if calls[0] % 3 == 0:
                    raise SatTimeout()
                return solve(assumptions, deadline)

            s.model.sat.solve = every_third  # type: ignore[method-assign]
        try:
            slice_ = 0.001
            while not s.done:
                s.run(time.monotonic() + (slice_ if pause == "deadline" else 60.0))
                slice_ *= 2
                paused += 1
        finally:
            s.close()
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        assert s.ans.upper == bf and (bf is None or s.ans.lower == bf), (seed, tile)
        if bf is None:
            assert s.ans.lower == max_before(ed) + 1
        else:
            seq = order_for_replay(base, s.ans.placements)
            assert seq is not None
            check_witness(base, ed, tile, seq, replay(base, ed, seq))
    if pause != "deadline":
        assert paused > len(ed.tiles) + 2, paused  # searches were paused and resumed, several times


def test_symmetry_is_detected_only_for_symmetric_pieces() -> None:
    ed = default_edition()
    assert _BlockModel(setup_garden(ed), ed, "I4", 9).stats["symmetry"] == 1
    lop = tiny(5, 6, [[0, 0], [4, 5]], [[1, 3]], {"D2": SHAPES["D2"], "I3": SHAPES["I3"]})
    assert _BlockModel(setup_garden(lop), lop, "D2", 1).stats["symmetry"] == 0


def test_shapes_merge_interchangeable_tiles() -> None:
    ed = default_edition()
    m = _BlockModel(setup_garden(ed), ed, "D2", 9)
    groups = sorted(sorted(sh.tiles) for sh in m.shapes)
    assert ["I3", "I3m"] in groups and ["L3", "L3e"] in groups and ["T4", "T4e"] in groups
    assert ["L4", "L4m"] in groups and ["N5"] in groups and all("D2" not in g for g in groups)


@pytest.mark.parametrize(("caps", "k"), [([1, 2, 2, 1], 3), ([2, 1], 5), ([1, 1, 1], 0), ([2, 2, 1], 4)])
def test_splits_cover_every_count_vector(caps: list[int], k: int) -> None:
    splits = _splits(caps, k)
    assert all(sum(s) == min(k, sum(caps)) and all(0 <= m <= c for m, c in zip(s, caps, strict=True))
               for s in splits)
    for vec in itertools.product(*(range(c + 1) for c in caps)):
        if sum(vec) <= k:
            assert any(all(v <= m for v, m in zip(vec, s, strict=True)) for s in splits), vec


def test_audit_tile_exact_and_cegar_agree() -> None:
    ed = edition_of(7)
    base = setup_garden(ed)
    for tile in ed.tiles:
        a = audit_tile(base, ed, tile, 30)
        b = audit_tile(base, ed, tile, 30, method="cegar")
        assert a.status == b.status == "proven"
        assert (a.value, a.never) == (b.value, b.never)
        if a.value:
            assert a.stats["unsat_at"] == a.value - 1
            check_witness(base, ed, tile, a.sequence, a.garden)


@pytest.mark.parametrize("seed", range(3))
def test_twins_share_answers_with_replayed_witnesses(seed: int) -> None:
    # I3 and I3m cover the same cells: the same question, the answer of one serves the other
    rng = random.Random(300 + seed)
    names = ["I3", "I3m"] + rng.sample(["D2", "L3", "L3e", "T4", "S4"], 2)
    rows, cols = rng.randint(5, 6), rng.randint(5, 6)
    cells = [[r, c] for r in range(rows) for c in range(cols)]
    pieces = rng.sample(cells, 2 + rng.randint(0, 3))
    ed = tiny(rows, cols, pieces[:2], pieces[2:], {n: MORE[n] for n in names})
    base = setup_garden(ed)
    rep = twins(base, ed)
    assert rep["I3m"] == rep["I3"] == "I3"
    for n in names[2:]:
        assert rep[n] == ("L3" if n == "L3e" and "L3" in names else n)
    a = audit_tile(base, ed, "I3", 30, method="exact-count")
    b = from_twin(base, ed, "I3m", a)
    bf = brute_force_fewest(base, ed, "I3m", max_before(ed))
    assert a.status == b.status == "proven" and b.value == bf and b.never == (bf is None)
    if b.value:
        check_witness(base, ed, "I3m", b.sequence, b.garden)
    shared = audit_tiles(base, ed, None, 15, share_twins=True)
    assert [x.tile for x in shared] == names
    assert [x.value for x in shared] == [brute_force_fewest(base, ed, n, max_before(ed)) for n in names]
    assert shared[1].stats.get("from_twin") == 1


def test_twins_on_the_default_garden() -> None:
    ed = default_edition()
    rep = twins(setup_garden(ed), ed)
    assert {n: r for n, r in rep.items() if n != r} == {"I3m": "I3", "L3e": "L3", "L4m": "L4", "T4e": "T4"}
    with pytest.raises(ValueError):
        from_twin(setup_garden(ed), ed, "D2", audit_tile(setup_garden(ed), ed, "N5", 0.5))


def test_cut_short_answers_unknown_with_sound_bounds() -> None:
    ed = default_edition()
    ans = fewest_blocking(setup_garden(ed), ed, "D2", max_before(ed), time.monotonic() + 1.0)
    assert ans.status == "unknown" and ans.lower >= 1 and ans.upper is None


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 106))
def test_exact_matches_brute_force_larger(seed: int) -> None:
    ed = edition_of(seed, size=(6, 6), ntiles=(4, 5))
    base = setup_garden(ed)
    for tile in ed.tiles:
        assert exact(ed, tile) == brute_force_fewest(base, ed, tile, max_before(ed)), (seed, tile)


# small editions (edition_of(seed, symmetric=seed % 2 == 0)) whose tiles can be blocked, with values 1-3
BLOCKABLE = (21, 22, 23, 25, 28, 29, 32, 36)


@pytest.mark.parametrize("seed", first_by_default(BLOCKABLE, 3))
def test_probe_finds_a_blocking_set_exactly_when_one_exists(seed: int) -> None:
    """``BlockingSearch.probe(k)`` with time to finish every split: True exactly when k >= the
    brute-force value, and its set replays legal and blocks the tile with at most k placements."""
    ed = edition_of(seed, symmetric=seed % 2 == 0)
    base = setup_garden(ed)
    for tile in ed.tiles:
        if not legal_placements(base, ed.tiles[tile]).placements:
            continue
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        near = {max_before(ed)} if bf is None else {bf - 1, bf, bf + 1}  # either side of the value
        for k in sorted(x for x in near if 1 <= x <= max_before(ed)):
            bs = BlockingSearch(base, ed, tile, max_before(ed), ring="count")
            try:
                found = bs.probe(k, time.monotonic() + 60, 60)
                assert found == (bf is not None and k >= bf), (seed, tile, k, bf)
                if found:
                    assert bs.ans.upper is not None and bs.ans.upper <= k
                    seq = order_for_replay(base, bs.ans.placements)
                    assert seq is not None
                    check_witness(base, ed, tile, seq, replay(base, ed, seq))
                    # the splits it found UNSAT are skipped by the exact search, which still agrees
                    assert bs.run(time.monotonic() + 60).upper == bf
            finally:
                bs.close()


def test_cancel_stops_a_search_from_another_thread() -> None:
    import threading

    ed = default_edition()
    bs = BlockingSearch(setup_garden(ed), ed, "D2", max_before(ed), lower=5, ring="count")
    try:
        threading.Timer(0.5, bs.cancel).start()
        t0 = time.monotonic()
        ans = bs.run(time.monotonic() + 60)
        assert time.monotonic() - t0 < 10 and ans.status == "unknown" and ans.lower == 5
    finally:
        bs.close()


@pytest.mark.parametrize("seed", first_by_default((21, 23, 24, 25, 29), 2))
def test_audit_tile_portfolio_matches_brute_force(seed: int) -> None:
    """audit_tile's MaxSAT thread beside the split search and probes: the brute-force value, with a
    replayed witness, in both exact forms (seed 24: nothing blocks its tiles)."""
    ed = edition_of(seed, symmetric=seed % 2 == 0)
    base = setup_garden(ed)
    for tile in ed.tiles:
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        for method in ("exact", "exact-count"):
            a = audit_tile(base, ed, tile, 60, method=method)
            assert a.status == "proven", (seed, tile, method, a)
            if bf is None:
                assert a.never
            else:
                assert a.value == bf, (seed, tile, method, a.lower, a.upper, bf)
                if bf:
                    check_witness(base, ed, tile, a.sequence, a.garden)


@pytest.mark.parametrize("seed", first_by_default(BLOCKABLE, 3))
def test_local_search_finds_the_value_and_never_less(seed: int) -> None:
    """``audit._local_witness``: at the brute-force value k a blocking set of k placements, replayed
    legal; at k - 1 none (the search cannot prove that, but it must never claim a set)."""
    ed = edition_of(seed, symmetric=seed % 2 == 0)
    base = setup_garden(ed)
    sim = _Sim(base, ed)
    for tile in ed.tiles:
        if not legal_placements(base, ed.tiles[tile]).placements:
            continue
        bf = brute_force_fewest(base, ed, tile, max_before(ed))
        if bf is None:
            continue
        found = _local_witness(sim, tile, bf, random.Random(seed), time.monotonic() + 60, steps=20_000)
        assert found is not None and len(found) == bf, (seed, tile, bf)
        seq = order_for_replay(base, found)
        assert seq is not None
        check_witness(base, ed, tile, seq, replay(base, ed, seq))
        if bf > 1:
            assert _local_witness(sim, tile, bf - 1, random.Random(seed), time.monotonic() + 60,
                                  steps=1_500) is None, (seed, tile, bf)


def test_local_search_on_the_default_garden() -> None:
    """The local search's L4 blocking set of 6 (the split probes' best), replayed from setup."""
    ed = default_edition()
    base = setup_garden(ed)
    found = _local_witness(_Sim(base, ed), "L4", 6, random.Random(1), time.monotonic() + 60, steps=50_000)
    assert found is not None and len(found) == 6
    seq = order_for_replay(base, found)
    assert seq is not None
    check_witness(base, ed, "L4", seq, replay(base, ed, seq))


@pytest.mark.parametrize("seed", (29,))
def test_pooled_audit_matches_brute_force(seed: int) -> None:
    """``audit_tiles(..., total=)``: one budget for the run, twins shared, the groups in ``pool_order``
    with their quick witnesses handed on as ``known``: the brute-force values, witnesses replayed."""
    ed = edition_of(seed, symmetric=seed % 2 == 0)
    base = setup_garden(ed)
    res = audit_tiles(base, ed, total=60.0)
    assert [a.tile for a in res] == list(ed.tiles)
    for a in res:
        bf = brute_force_fewest(base, ed, a.tile, max_before(ed))
        assert a.status == "proven" and a.value == bf, (seed, a.tile, a.lower, a.upper, bf)
        if bf:
            check_witness(base, ed, a.tile, a.sequence, a.garden)
    order = [t for t, _seq in pool_order(base, ed, list(ed.tiles))]
    assert sorted(order) == sorted(ed.tiles)


def test_pool_job_keeps_time_for_the_groups_after_it() -> None:
    now = time.time()
    job = _PoolJob("D2", now + 100, after=3, least=10.0, jobs=2, known=())
    assert 79 < job.seconds() <= 80  # 100 s left, 2 groups' least kept (3 groups after it on 2 workers)
    assert _PoolJob("D2", now + 5, after=3, least=10.0, jobs=2, known=()).seconds() == 10.0  # never below least


def test_audit_tile_starts_from_a_known_witness() -> None:
    """``known``: a blocking set found before is the first best witness (replayed; a wrong one raises)."""
    ed = edition_of(29, symmetric=False)
    base = setup_garden(ed)
    tile = next(t for t in ed.tiles if brute_force_fewest(base, ed, t, max_before(ed)) == 3)
    first = audit_tile(base, ed, tile, 60)
    again = audit_tile(base, ed, tile, 60, known=list(reversed(first.sequence)))
    assert again.value == first.value == 3
    check_witness(base, ed, tile, again.sequence, again.garden)
    with pytest.raises(ValueError, match="leaves it a legal placement"):
        audit_tile(base, ed, tile, 60, known=first.sequence[:1])


@pytest.mark.parametrize(("name", "proven"), [
    ("hedge-mage-a-2026-12-04.json.gz", ["I4", "N5", "S4", "T4", "T4e"]),
    ("hedge-mage-a-2026-12-07-level-logs.json.gz", ["I3", "I3m", "I4", "L3", "L3e", "L4", "L4m", "N5", "S4", "T4",
                                                    "T4e"]),
])
def test_committed_ten_minute_audit_witnesses_replay(name: str, proven: list[str]) -> None:
    """docs/audit/hedge-mage-a-*.json.gz (``audit --parts a --time-total 600 --jobs 2``, the second with the
    five committed level logs; the figures in docs/rules/hedge-mage.md): the tiles proven, every witness legal
    from setup and blocking, and each tile proven beyond its own search by the log its answer names."""
    import gzip
    import json
    from pathlib import Path

    from gnomekit.models.hedge_mage.placement import Placement

    path = Path(__file__).parents[2] / "docs/audit" / name
    doc = json.loads(gzip.decompress(path.read_bytes()))
    ed = default_edition()
    base = setup_garden(ed)
    tiles = doc["per_tile"]["tiles"]
    assert doc["per_tile"]["time_total"] == 600 and [t["tile"] for t in tiles] == list(ed.tiles)
    assert sorted(t["tile"] for t in tiles if t["status"] == "proven") == proven
    rep = twins(base, ed)
    logs = {rep[r["tile"]]: r for r in doc["per_tile"].get("level_logs", [])}
    for t in tiles:
        if t.get("level_logs"):
            rec = logs[rep[t["tile"]]]
            assert rec["complete"] and t["lower_bound"] == rec["k"] + 1 and t["level_logs"] == rec["logs"]
    for t in tiles:
        seq = [Placement(p["tile"], tuple(tuple(c) for c in p["cells"]), tuple(p["sigil"]))
               for p in t["witness"]["placements"]]
        assert len(seq) == t["upper_bound"]
        g = replay(base, ed, seq)
        assert not legal_placements(g, ed.tiles[t["tile"]]).placements, t["tile"]
        assert len({p.tile for p in seq}) == len(seq) and t["tile"] not in {p.tile for p in seq}


@pytest.mark.parametrize(("tile", "n"), [("I3", 179), ("L3", 179), ("D2", 131)])
def test_the_offline_proof_log_answers_every_split(tile: str, n: int) -> None:
    """docs/audit/hedge-mage-<tile>-not-with-5.txt: every split of k = 5 that the tile's model asks (``_splits``
    over its shapes' caps, in order) has an UNSAT line with those counts, so the proof skipped none (read as
    ``audit-level --log`` reads a log, which refuses a line whose counts are not its split's)."""
    from pathlib import Path

    from gnomekit.solver.hedge_mage.level_proof import level_splits, read_log

    path = Path(__file__).parents[2] / f"docs/audit/hedge-mage-{tile}-not-with-5.txt"
    ed = default_edition()
    splits = level_splits(setup_garden(ed), ed, tile, 5)
    model = _BlockModel(setup_garden(ed), ed, tile, max_before(ed), ring="count")
    try:
        assert splits == _splits([len(sh.tiles) for sh in model.shapes], 5)
    finally:
        model.close()
    assert len(splits) == n
    assert read_log(path.read_text(), str(path), tile, 5, splits) == set(range(n))
