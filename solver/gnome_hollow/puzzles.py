"""Gnome Hollow puzzles: load a puzzle file, solve its question from scratch, compare.

A puzzle file (TOML) holds a position in the text notation, a question and the answer computed when
the puzzle was written by an independent method (``answer.verified_by``; the tests re-run those
methods).  :func:`run_puzzle` never reads the stored answer to find the solution: it solves with
the main methods, checks that two methods agree where there are two (search and SAT for
``close``), re-checks every witness with the rules (``check_sequence``, ``apply_turn``), and only
then compares with the stored answer.

Question kinds: ``rings`` (check a placement sequence: legal, and each ring's size and mushrooms),
``close`` (can the network of path ``network`` be closed this turn), ``best-turn`` (the value of
the best turn, which must be proven optimal), ``market`` (the best sale's points).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from gnomekit.models.core.edition import parse_toml
from gnomekit.models.core.errors import GnomekitError
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.notation import (
    parse_placements,
    placement_to_text,
    position_from_text,
    position_to_text,
)
from gnomekit.models.gnome_hollow.placement import check_sequence
from gnomekit.solver.core.puzzles import PuzzleOutcome, bundled_puzzle_files
from gnomekit.solver.core.result import Status

GAME = "gnome-hollow"
KINDS = ("rings", "close", "best-turn", "market")


def puzzle_files() -> list[Path]:
    return bundled_puzzle_files("gnome-hollow")


def _ref(text: str) -> tuple[tuple[int, int], int]:
    cell, _, k = text.partition(".")
    q, r = cell.split(",")
    return ((int(q), int(r)), int(k))


#: The cross-checks each question kind applies (``PuzzleOutcome.checks_applied``): ``networkx`` - the
#: rings (or the closure) recomputed on the garden's networkx graph; ``sat`` - the SAT model of
#: ``close``; ``replay`` - the best turn's witness replayed with the rules' ``apply_turn``.
CHECKS: dict[str, tuple[str, ...]] = {
    "rings": ("networkx",),
    "close": ("sat", "networkx"),
    "best-turn": ("replay", "networkx"),
    "market": (),
}


def _ring_shapes(rep: Any, ed: Any) -> list[tuple[Any, ...]]:
    return [(r.by_tile, r.network.ring, r.network.tiles, r.network.paths, tuple(r.network.mushrooms.items()),
             r.claimed_by, r.when) for r in rep.rings] + [(i, n.tiles, n.paths) for i, n in rep.trees]


def solve_question(pos: Any, q: dict[str, Any]) -> tuple[dict[str, Any], bool, str, tuple[str, ...]]:
    """(answer, solved, detail, cross-checks that ran and agreed) for one question, from scratch."""
    ed = default_edition()
    kind = q.get("kind")
    permits = tuple(q.get("permit", []))
    ran: list[str] = []
    if kind == "rings":
        seq = parse_placements([" ".join(q["place"])], "question.place")
        rep = check_sequence(pos, ed, seq, permits)
        by_graph = check_sequence(pos, ed, seq, permits, method="networkx")
        if _ring_shapes(by_graph, ed) == _ring_shapes(rep, ed) and by_graph.legal == rep.legal:
            ran.append("networkx")
        rings = [{"size": r.network.size, "mushrooms": {c: r.network.mushrooms.get(c, 0) for c in ed.colours}}
                 for r in rep.rings]
        ans = {"legal": rep.legal, "rings": rings if rep.legal else []}
        detail = "\n".join(rep.reasons) or ", ".join(f"ring of {r['size']}" for r in rings) or "no ring"
        if "networkx" not in ran:
            detail += "; THE NETWORKX GRAPH FINDS OTHER RINGS"
        return ans, "networkx" in ran, detail, tuple(ran)
    if kind == "close":
        from gnomekit.solver.gnome_hollow.close import close_by_networkx, close_by_sat, close_by_search, closes

        ref = _ref(q["network"])
        a = close_by_search(pos, ed, ref, permits)
        b = close_by_sat(pos, ed, ref, permits)
        c = close_by_networkx(pos, ed, ref, permits)
        ok = a.status in (Status.SATISFIED, Status.UNSATISFIABLE)
        for res in (a, b, c):
            if res.found:
                ok = ok and check_sequence(pos, ed, res.witness, permits).legal and closes(pos, ed, ref, res.witness)
        if ok and b.status == a.status:
            ran.append("sat")
        if ok and (c.status, c.witness) == (a.status, a.witness):
            ran.append("networkx")
        ok = ok and ran == ["sat", "networkx"]
        agree = {"sat": "SAT", "networkx": "networkx"}
        detail = ("search, " + " and ".join(agree[x] for x in ran) + " agree" if len(ran) == 2 else
                  "SEARCH, SAT AND NETWORKX DISAGREE (agreeing: " + (", ".join(ran) or "none") + ")") + (
            ": " + " ".join(placement_to_text(p, ed) for p in a.witness) if a.found else "")
        return {"closable": a.found}, ok, detail, tuple(ran)
    if kind == "best-turn":
        from gnomekit.solver.gnome_hollow.best import Weights, best_turn

        res = best_turn(pos, ed, Weights.parse(q.get("weights")), permits)
        turn = res.witness["turn"]
        if res.stats.get("verified"):
            ran.append("replay")
        if turn.placements:
            seq = list(turn.placements)
            if _ring_shapes(check_sequence(pos, ed, seq, permits, method="networkx"), ed) == \
                    _ring_shapes(check_sequence(pos, ed, seq, permits), ed):
                ran.append("networkx")
        else:
            ran.append("networkx")  # no placement: nothing closes by either method (compared trivially)
        ok = res.status == Status.OPTIMAL and ran == ["replay", "networkx"]
        detail = "place " + (" ".join(placement_to_text(p, ed) for p in turn.placements) or "-")
        if turn.action is not None:
            detail += f"; gnome {turn.action.kind}"
        return {"value": res.value}, ok, detail, tuple(ran)
    if kind == "market":
        from gnomekit.solver.gnome_hollow.market import solve_market

        res = solve_market(pos, ed)
        sets = res.witness["sets"]
        return {"points": res.value}, True, " + ".join(f"{s.mushrooms} {s.colour}" for s in sets) or "nothing", ()
    raise GnomekitError(f"unknown question kind {kind!r} (known: {', '.join(KINDS)})")


def _same(found: dict[str, Any], stored: dict[str, Any]) -> bool:
    for k, v in found.items():
        if k not in stored:
            return False
        if isinstance(v, float) or isinstance(stored[k], float):
            if abs(float(v) - float(stored[k])) > 1e-9:
                return False
        elif v != stored[k]:
            return False
    return True


def run_puzzle(path: Path) -> PuzzleOutcome:
    started = time.perf_counter()
    text = Path(path).read_text(encoding="utf-8")
    src = parse_toml(text, str(path))
    d = src.data
    ed = default_edition()
    pos = position_from_text(d["position"], f"{path}:position", ed)
    q = d.get("question", {})
    stored = {k: v for k, v in d.get("answer", {}).items() if k != "verified_by"}
    ran: tuple[str, ...] = ()
    try:
        found, solved, detail, ran = solve_question(pos, q)
    except GnomekitError as exc:
        found, solved, detail = {}, False, str(exc)
    verified = solved and _same(found, stored)
    question = _question_text(q)
    return PuzzleOutcome(
        game=GAME, name=str(d.get("name", Path(path).stem)), question=question, solved=solved, verified=verified,
        seconds=time.perf_counter() - started, position_text=position_to_text(pos, ed),
        answer_text=", ".join(f"{k} = {v}" for k, v in found.items()), detail=detail,
        data={"title": d.get("title", ""), "about": d.get("about", "")},
        checks_applied=CHECKS.get(str(q.get("kind")), ()), checks_ran=ran,
    )


def _question_text(q: dict[str, Any]) -> str:
    kind = q.get("kind")
    if kind == "rings":
        return "is " + " ".join(q.get("place", [])) + " legal, and which rings does it close?" + (
            f" (permission from {', '.join(q['permit'])})" if q.get("permit") else "")
    if kind == "close":
        return f"can the network of path {q.get('network')} be closed this turn?"
    if kind == "best-turn":
        return "what is the best turn worth?"
    if kind == "market":
        return "what is the best market visit worth?"
    return str(kind)
