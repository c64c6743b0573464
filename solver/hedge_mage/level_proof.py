"""One level of a blocking number, proven in pieces: "no garden of at most k placements blocks tile T".

``BlockingSearch.run`` proves a level in one call, which cannot be stopped and taken up
again in another process.  Some levels take hours (L4 "not with 5" on the default
edition: 179 split questions of half a minute to twenty minutes each), so here the same questions (the
count-form model's splits of k, ``blocking._splits``, in the same order) are asked one
by one, each answer handed to the caller as a :class:`SplitAnswer`, and a run can skip
the splits an earlier run has settled.  The log (:func:`log_line`, :func:`read_log`) is
the record: a line per split proven UNSAT, so the proof is complete exactly when every
split of the level has an UNSAT line.  A split cut by the deadline is not settled and is
asked again by the next run.  A split that finds a blocking garden ends the level: the
tile's value is at most k, and the garden is replayed and checked before it is reported.
:func:`prove_level_batch` asks the same splits as batch tasks (worker processes, Ray), a model
each; :func:`read_levels` and :func:`with_levels` let the audit use the levels a set of logs proves.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from gnomekit.models.core.errors import NotationError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.notation import garden_to_text
from gnomekit.models.hedge_mage.placement import Placement, legal_placements
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.solver.core.batch import Backend, BatchError, run_batch
from gnomekit.solver.core.sat import SatTimeout
from gnomekit.solver.hedge_mage.audit import TileAudit, max_before, order_for_replay, replay, twins
from gnomekit.solver.hedge_mage.blocking import BlockingSearch, _splits

#: The log's header line: which question the log answers (checked on resume).
HEADER = "# level-proof tile={tile} k={k} edition={edition} splits={n}"
_HEADER = re.compile(r"^# level-proof tile=(\S+) k=(\d+) edition=(\S+) splits=(\d+)(?: question=([0-9a-f]+))?\s*$")
_LINE = re.compile(r"split (\d+) (\[[\d, ]*\]): UNSAT in ([\d.]+)s")


@dataclass
class SplitAnswer:
    """One split question: ``status`` "unsat" (no blocking garden under these counts), "blocks"
    (``placements`` block the tile, in a replayable order), "timeout" (the deadline came while it was
    asked) or "unasked" (a batch task that started after the run's end)."""

    index: int
    counts: list[int]
    status: str
    seconds: float
    placements: list[Placement] = field(default_factory=list)


@dataclass
class LevelProof:
    """Where a level stands: its splits, those settled UNSAT (by index), a blocking garden if one was found."""

    tile: str
    k: int
    splits: list[list[int]]
    unsat: set[int]
    blocking: list[Placement] | None = None
    question_seconds: float = 0.0  # this run's

    @property
    def status(self) -> str:
        """"proven" (every split UNSAT: the value is above k), "blocks" (value at most k) or "unknown"."""
        if self.blocking is not None:
            return "blocks"
        return "proven" if len(self.unsat) == len(self.splits) else "unknown"

    @property
    def left(self) -> list[int]:
        return [i for i in range(len(self.splits)) if i not in self.unsat]


def _level_checked(edition: HedgeMageEdition, k: int) -> int:
    """The placements before the last round, after checking that ``k`` is a level (1 to that)."""
    kmax = max_before(edition)
    if not 1 <= k <= kmax:
        raise ValueError(f"the level k must be from 1 to {kmax} (the placements before the last round), not {k}")
    return kmax


def _split_seconds_checked(split_seconds: float | None) -> None:
    if split_seconds is not None and not split_seconds > 0:
        raise ValueError(f"split_seconds must be positive, not {split_seconds}")


def _ask(search: BlockingSearch, k: int, counts: list[int], deadline: float) -> Collection[Placement] | None:
    """One split question: a blocking set within ``k`` placements shared as ``counts``, or None (UNSAT)."""
    return search._question(search.model.at_most(k) + search.model.shape_limits(counts), deadline)


def level_splits(base: Garden, edition: HedgeMageEdition, tile: str, k: int) -> list[list[int]]:
    """The split questions of level ``k`` for ``tile``, in the order the search asks them."""
    search = BlockingSearch(base, edition, tile, max_before(edition), lower=k, ring="count")
    try:
        return _splits(search.caps, k)
    finally:
        search.close()


def prove_level(base: Garden, edition: HedgeMageEdition, tile: str, k: int, deadline: float,
                settled: Collection[int] = (), on_answer: Callable[[SplitAnswer, LevelProof], None] | None = None,
                only: Collection[int] | None = None, split_seconds: float | None = None) -> LevelProof:
    """Ask the splits of level ``k`` not in ``settled`` (or only those in ``only``) until ``deadline``
    (time.monotonic), one by one on one incremental solver; ``on_answer`` hears each answer as it comes
    (a log line to write, a progress bar to move).  Stops at the first blocking garden.

    ``split_seconds``: a split not answered within that many seconds is left ("timeout", asked again by a
    later run) and the run goes on with the next, so that a sweep settles the quick splits (or finds a
    blocking garden in one) before it spends hours on a hard one; None: the run waits on each split until
    ``deadline``, where it stops."""
    kmax = _level_checked(edition, k)
    _split_seconds_checked(split_seconds)
    search = BlockingSearch(base, edition, tile, kmax, lower=k, ring="count")
    splits = _splits(search.caps, k)
    proof = LevelProof(tile, k, splits, {i for i in settled if 0 <= i < len(splits)})
    try:
        for i, counts in enumerate(splits):
            if i in proof.unsat or (only is not None and i not in only):
                continue
            t0 = time.monotonic()
            if t0 >= deadline:
                break
            until = deadline if split_seconds is None else min(deadline, t0 + split_seconds)
            try:
                found = _ask(search, k, counts, until)
            except SatTimeout:
                secs = time.monotonic() - t0
                proof.question_seconds += secs
                if on_answer is not None:
                    on_answer(SplitAnswer(i, counts, "timeout", secs), proof)
                if until < deadline:
                    continue  # only this split's time is up
                break
            secs = time.monotonic() - t0
            proof.question_seconds += secs
            if found is None:
                proof.unsat.add(i)
                if on_answer is not None:
                    on_answer(SplitAnswer(i, counts, "unsat", secs), proof)
                continue
            seq = _checked(base, edition, tile, found)
            proof.blocking = seq
            if on_answer is not None:
                on_answer(SplitAnswer(i, counts, "blocks", secs, seq), proof)
            break
    finally:
        search.close()
    return proof


def _checked(base: Garden, edition: HedgeMageEdition, tile: str, found: Collection[Placement]) -> list[Placement]:
    """A split's blocking set in a legal order, replayed from ``base`` and checked to leave ``tile`` no placement."""
    seq = order_for_replay(base, list(found))
    if seq is None:
        raise RuntimeError(f"the split search's garden for {tile} has no legal placement order")
    garden = replay(base, edition, seq)  # raises if the solver's set is not a legal sequence
    if legal_placements(garden, edition.tiles[tile]).placements:
        raise RuntimeError(f"the split search's garden for {tile} does not block it")
    return seq


@dataclass(frozen=True)
class SplitJob:
    """One split question as a batch task: its number and counts, the run's end (``time.time``, which
    worker processes and machines share, unlike ``time.monotonic``) and the most seconds it may take
    (``split_seconds`` of :func:`prove_level_batch`; None: until the end)."""

    index: int
    counts: tuple[int, ...]
    end: float
    limit: float | None = None


def ask_split(base: Garden, edition: HedgeMageEdition, tile: str, k: int, job: SplitJob) -> SplitAnswer:
    """One split of level ``k`` on a model of its own (a batch task: a worker process, a Ray worker): the
    same question :func:`prove_level` asks on its shared solver, without the clauses learnt on the others."""
    left = job.end - time.time()
    if left <= 0:
        return SplitAnswer(job.index, list(job.counts), "unasked", 0.0)
    if job.limit is not None:
        left = min(left, job.limit)
    search = BlockingSearch(base, edition, tile, max_before(edition), lower=k, ring="count")
    t0 = time.monotonic()
    try:
        found = _ask(search, k, list(job.counts), t0 + left)
    except SatTimeout:
        return SplitAnswer(job.index, list(job.counts), "timeout", time.monotonic() - t0)
    finally:
        search.close()
    secs = time.monotonic() - t0
    if found is None:
        return SplitAnswer(job.index, list(job.counts), "unsat", secs)
    return SplitAnswer(job.index, list(job.counts), "blocks", secs, _checked(base, edition, tile, found))


def prove_level_batch(base: Garden, edition: HedgeMageEdition, tile: str, k: int, seconds: float,
                      settled: Collection[int] = (), on_answer: Callable[[SplitAnswer, LevelProof], None] | None = None,
                      only: Collection[int] | None = None, backend: Backend | None = None,
                      split_seconds: float | None = None) -> LevelProof:
    """:func:`prove_level` with one task a split on ``backend`` (worker processes, Ray), ``seconds`` of wall
    clock for the run: each split is asked on a model of its own (:func:`ask_split`), ``on_answer`` hears the
    answers as they come back (in finishing order), and a split whose task runs past the end or past
    ``split_seconds`` ("timeout") or starts after the end ("unasked") is asked again by a later run.  Every
    split left is asked, also after one finds a blocking garden (a task cannot be stopped once sent); the
    proof keeps the first garden heard."""
    _level_checked(edition, k)
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, not {seconds}")
    _split_seconds_checked(split_seconds)
    splits = level_splits(base, edition, tile, k)
    proof = LevelProof(tile, k, splits, {i for i in settled if 0 <= i < len(splits)})
    end = time.time() + seconds
    jobs = [SplitJob(i, tuple(c), end, split_seconds) for i, c in enumerate(splits)
            if i not in proof.unsat and (only is None or i in only)]

    def heard(_n: int, ans: SplitAnswer) -> None:
        proof.question_seconds += ans.seconds
        if ans.status == "unsat":
            proof.unsat.add(ans.index)
        elif ans.status == "blocks" and proof.blocking is None:
            proof.blocking = ans.placements
        if on_answer is not None:
            on_answer(ans, proof)

    batch = run_batch(partial(ask_split, base, edition, tile, k), jobs, backend, on_result=heard)
    if batch.errors or batch.interrupted:
        raise BatchError(batch, proof)
    return proof


def question_key(base: Garden, edition: HedgeMageEdition, tile: str, k: int) -> str:
    """A digest of the question a level asks: the setup garden, every tile's cells, the placements allowed
    before the last round, the tile and k.  A log carries it so that an edited edition that kept its name
    cannot borrow another edition's proof."""
    tiles = sorted((n, list(t.cells), list(t.sigil)) for n, t in edition.tiles.items())
    blob = json.dumps([garden_to_text(base, edition), edition.rows, edition.cols, list(edition.numbered),
                       list(edition.shaded), tiles, max_before(edition), tile, k, 1])
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def header(tile: str, k: int, edition: str, n: int, question: str = "") -> str:
    """The log's first line; ``question``: :func:`question_key` (checked by readers when present)."""
    return HEADER.format(tile=tile, k=k, edition=edition, n=n) + (f" question={question}" if question else "")


def log_line(ans: SplitAnswer, proof: LevelProof, elapsed: float) -> str:
    """The log's line for an UNSAT split (the only kind :func:`read_log` counts as settled)."""
    return (f"{elapsed:7.1f}s split {ans.index} {ans.counts}: UNSAT in {ans.seconds:.1f}s "
            f"({len(proof.unsat)} UNSAT of {len(proof.splits)})")


def read_log(text: str, source: str, tile: str, k: int, splits: list[list[int]], question: str = "") -> set[int]:
    """The splits a log settles (its UNSAT lines), checked against the question asked: a header naming
    another tile or level, or a line whose counts are not that split's, is a NotationError at its line."""
    settled: set[int] = set()
    for no, line in enumerate(text.splitlines(), 1):
        head = _HEADER.match(line)
        if head is not None:
            if head.group(1) != tile or int(head.group(2)) != k:
                raise NotationError(f"this log is for tile {head.group(1)} at k = {head.group(2)}, "
                                    f"not {tile} at k = {k}", source=source, line=no, column=1)
            if question and head.group(5) and head.group(5) != question:
                raise NotationError(f"this log's question ({head.group(5)}) is not this edition's ({question}): "
                                    "the setup garden or the tiles differ", source=source, line=no,
                                    column=head.start(5) + 1)
            continue
        m = _LINE.search(line)
        if m is None:
            continue
        i, counts = int(m.group(1)), m.group(2)
        if i >= len(splits) or str(splits[i]) != counts:
            want = str(splits[i]) if i < len(splits) else f"an index below {len(splits)}"
            raise NotationError(f"split {i} of {tile} at k = {k} is {want}, the log says {counts}",
                                source=source, line=no, column=m.start(2) + 1)
        settled.add(i)
    return settled


@dataclass(frozen=True)
class LevelRecord:
    """What a set of logs says about one level: its tile and k, the logs, the splits they settle (UNSAT
    lines, read by :func:`read_log`) out of all the level's splits."""

    tile: str
    k: int
    sources: tuple[str, ...]
    settled: frozenset[int]
    splits: int

    @property
    def complete(self) -> bool:
        """Every split UNSAT: no garden of at most ``k`` earlier placements blocks ``tile``."""
        return len(self.settled) == self.splits


def read_levels(logs: Sequence[tuple[str, str]], base: Garden, edition: HedgeMageEdition) -> list[LevelRecord]:
    """The levels that ``logs`` ((text, source) pairs, as ``audit-level --log`` writes them) are about,
    the logs of one level read together (the parts of ``--part I/N``), in the order first named.

    Each log must start its question with a header line for a tile of ``edition`` (by name) and a level
    from 1 to the placements before the last round; a log without one, for another edition or tile, or
    whose UNSAT line does not fit its split, is a NotationError at its line.  ``base`` is the setup garden
    the logs were proven from (``audit-level`` proves from the first-game setup)."""
    kmax = max_before(edition)
    found: dict[tuple[str, int], tuple[list[str], set[int], int]] = {}
    cache: dict[tuple[str, int], list[list[int]]] = {}
    for text, source in logs:
        head = next(((no, m) for no, line in enumerate(text.splitlines(), 1)
                     if (m := _HEADER.match(line)) is not None), None)
        if head is None:
            raise NotationError("expected a level-proof log (a header line '# level-proof tile=T k=K "
                                "edition=E splits=N', as the level proofs write)", source=source, line=1,
                                column=1)
        no, m = head
        tile, k, ed_name = m.group(1), int(m.group(2)), m.group(3)
        if ed_name != edition.name:
            raise NotationError(f"this log is for edition {ed_name}, not {edition.name}", source=source,
                                line=no, column=m.start(3) + 1)
        if tile not in edition.tiles:
            raise NotationError(f"unknown tile {tile!r}; the edition has: {' '.join(edition.tiles)}",
                                source=source, line=no, column=m.start(1) + 1)
        if not 1 <= k <= kmax:
            raise NotationError(f"expected a level from 1 to {kmax}", source=source, line=no,
                                column=m.start(2) + 1)
        if (tile, k) not in cache:
            cache[tile, k] = level_splits(base, edition, tile, k)
        splits = cache[tile, k]
        if int(m.group(4)) != len(splits):
            raise NotationError(f"the level has {len(splits)} splits, the log says {m.group(4)}", source=source,
                                line=no, column=m.start(4) + 1)
        settled = read_log(text, source, tile, k, splits, question_key(base, edition, tile, k))
        names, union, _n = found.setdefault((tile, k), ([], set(), len(splits)))
        names.append(source)
        union |= settled
    return [LevelRecord(tile, k, tuple(names), frozenset(union), n) for (tile, k), (names, union, n) in found.items()]


def _deepest(records: Sequence[LevelRecord], base: Garden, edition: HedgeMageEdition) -> dict[str, LevelRecord]:
    """Each tile's complete record of the highest level, about it or its twin (``audit.twins``: the same
    question); tiles no complete record is about are left out."""
    rep = twins(base, edition)
    out: dict[str, LevelRecord] = {}
    for r in records:
        if r.complete:
            for tile in edition.tiles:
                if rep[tile] == rep[r.tile] and (tile not in out or r.k > out[tile].k):
                    out[tile] = r
    return out


def lower_bounds(records: Sequence[LevelRecord], base: Garden, edition: HedgeMageEdition) -> dict[str, int]:
    """The lower bound each tile has from the complete ``records`` (level k proven: k + 1), for it and for its
    twins, to start the audit's searches there (``audit_tiles(lower=)``); tiles no complete record is about
    are left out."""
    return {tile: r.k + 1 for tile, r in _deepest(records, base, edition).items()}


def with_levels(answers: Sequence[TileAudit], records: Sequence[LevelRecord], base: Garden,
                edition: HedgeMageEdition) -> list[TileAudit]:
    """``answers`` with the lower bounds the complete level records prove (for the tile or its twin,
    ``audit.twins``: the same question): level k raises ``lower`` to k + 1, and a tile whose best witness
    has k + 1 placements is then proven; an answer whose search started at k + 1 (``audit_tile(lower=)``,
    from :func:`lower_bounds`) names the record too.  The record is named in the answer's ``level_logs``; its UNSAT
    lines are taken as recorded, not asked again.  A record that says no garden of k placements blocks a
    tile for which the answer holds a witness of at most k (replayed and checked) is a NotationError at
    its first log: that log is wrong, or for another setup."""
    deepest = _deepest(records, base, edition)
    out: list[TileAudit] = []
    for a in answers:
        best = deepest.get(a.tile)
        if best is not None and a.upper is not None and a.upper <= best.k:
            raise NotationError(f"this log says no garden of at most {best.k} earlier placements blocks "
                                f"{best.tile}, but the audit's witness for {a.tile} (replayed and checked) "
                                f"has {a.upper}", source=best.sources[0])
        given = best is not None and a.stats.get("lower_given") == best.k + 1  # the audit started there
        if best is None or (best.k < a.lower and not given):
            out.append(a)
            continue
        lower = best.k + 1
        proven = a.upper == lower or (a.upper is None and lower > a.max_before)
        out.append(replace(a, lower=lower, status="proven" if proven else a.status,
                           stats={**a.stats, "unsat_at": best.k},
                           level_logs=[*best.sources]))
    return out
