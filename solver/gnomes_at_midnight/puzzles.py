"""Gnomes at Midnight puzzles for ``gnomekit tour``: forced wins in 1 to 5 turns.

A puzzle file (TOML) holds ``name``, ``edition``, ``depth``, ``decks``, the
position (``position``, the text notation) and the answer table
(``result``, ``turns``, ``moves`` = every first move that wins in ``turns``,
``verified_by`` = the methods that agreed when the file was written).
Running a puzzle solves it from scratch with the search, compares result and
shortest length, re-derives the set of winning first moves, and cross-checks the
answer (``PuzzleOutcome.checks_applied`` / ``checks_ran``):

* ``rules-replay`` (a win): the main line replays through the rules layer, the last move winning;
* ``z3`` (open decks with enough known cards, see ``z3_plan``): for a win in n <= 3 turns the z3
  method finds a win within n (its first move one of the winning first moves) and none within
  n - 1; for 4 and 5 turns (slow for z3 to prove wins) none within n - 1; for "no win" none
  within the depth when that is 3 or less;
* ``protocol``: alpha-beta over the game protocol (``solver.core.search``) finds the same
  shortest win (first move among the winning ones) or none within the depth.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path
from typing import Any

from gnomekit.models.gnomes_at_midnight.edition import COLOURS, bundled_edition
from gnomekit.models.gnomes_at_midnight.moves import after_move, check_move, next_position
from gnomekit.models.gnomes_at_midnight.notation import parse_move, position_from_text, position_to_text
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.solver.core.puzzles import PuzzleOutcome, bundled_puzzle_files
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.search import Searcher, prepare, solve

GAME = "gnomes-at-midnight"


def puzzle_files() -> list[Path]:
    return bundled_puzzle_files(GAME)


def load_puzzle(path: Path) -> tuple[dict[str, Any], Position]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    ed = bundled_edition(data.get("edition", "default"))
    pos = position_from_text(data["position"], str(path), ed)
    return data, pos


def winning_first_moves(pos: Position, turns: int, decks: str = "open") -> list[str]:
    """Every first move that forces a win within ``turns`` (text, generation order)."""
    p = prepare(pos, decks)
    k = Kernel(p)
    sr = Searcher(k)
    return [k.to_move(m).text() for m in sr.winning_moves(k.state(p), turns)]


def replay_line(pos: Position, line: list[dict[str, Any]], decks: str) -> bool:
    """Replay a main line through the rules layer: every move legal, flips possible, last move wins."""
    p = prepare(pos, decks)
    for i, st in enumerate(line):
        m = parse_move(st["move"])
        if check_move(p, m):
            return False
        a = after_move(p, m)
        if i == len(line) - 1:
            return bool(a.wins)
        if a.wins:
            return False
        flip = None
        if a.flips:
            names = {"grass": 0, "tulips": 1, "cobblestone": 2}
            flip = names.get(st.get("flip", ""), -1)
            if flip not in [t for t, _ in a.flips]:
                return False
        p = next_position(a, flip)
    return False


Z3_MAX_WIN = 3  # z3 is asked to find wins up to this many turns (slow beyond)


def z3_plan(pos: Position, decks: str, turns: int | None, depth: int) -> list[tuple[int, bool]]:
    """The z3 questions that check an answer: (k, expected "wins within k"), empty when z3 does not
    apply (hidden decks, or fewer than k - 1 known cards a side for a question)."""
    if decks != "open":
        return []
    if turns is None:
        plan = [(depth, False)] if depth <= Z3_MAX_WIN else []
    else:
        plan = ([(turns, True)] if turns <= Z3_MAX_WIN else []) + ([(turns - 1, False)] if turns > 1 else [])
    if not plan or any(len(pos.known[s]) < k - 1 for k, _ in plan for s in (0, 1)):
        return []
    return plan


def _z3_agrees(pos: Position, plan: list[tuple[int, bool]], firsts: list[str]) -> str | None:
    """None when every z3 answer of the plan is the expected one, else what differs."""
    from gnomekit.solver.gnomes_at_midnight.smt import smt_wins_within

    for k, want in plan:
        r = smt_wins_within(pos, k)
        if r.status is Status.UNKNOWN or bool(r.value) != want:
            return f"z3: wins within {k} = {r.value} ({r.status}), expected {want}"
        if want and r.witness not in firsts:
            return f"z3: first move {r.witness} is not among the winning first moves"
    return None


def _protocol_agrees(pos: Position, decks: str, depth: int, turns: int | None, firsts: list[str]) -> str | None:
    """None when alpha-beta over the protocol finds the same shortest win (or none), else what differs."""
    from gnomekit.models.gnomes_at_midnight.game import make_game
    from gnomekit.solver.gnomes_at_midnight.api import solve as api_solve

    r = api_solve(make_game().position(pos), "win", depth=depth, decks=decks, method="protocol")
    if r.value != turns:
        return f"protocol: shortest win {r.value} ({r.status}), expected {turns}"
    if turns is not None and r.witness not in firsts:
        return f"protocol: first move {r.witness} is not among the winning first moves"
    return None


def run_puzzle(path: Path) -> PuzzleOutcome:
    t0 = time.perf_counter()
    data, pos = load_puzzle(path)
    depth = int(data["depth"])
    decks = str(data.get("decks", "open"))
    ans = data["answer"]
    res = solve(pos, depth, decks)
    got_result = "win" if res.value is not None else "no-win"
    detail = []
    ok = got_result == ans["result"] and res.value == ans.get("turns")
    plan = z3_plan(pos, decks, res.value, depth)
    applied = (("rules-replay",) if res.value is not None else ()) + (("z3",) if plan else ()) + ("protocol",)
    ran: list[str] = []
    firsts: list[str] = []
    if res.value is not None:
        firsts = winning_first_moves(pos, res.value, decks)
        if sorted(firsts) != sorted(ans.get("moves", [])):
            ok = False
            detail.append(f"winning first moves differ: {firsts} vs stored {ans.get('moves')}")
        if replay_line(pos, res.stats["line"], decks):
            ran.append("rules-replay")
        else:
            ok = False
            detail.append("the main line does not replay through the rules")
        detail.append("main line: " + "  ".join(f"{s['side'][0]}:{s['move']}" for s in res.stats["line"]))
    for name, differs in (("z3", _z3_agrees(pos, plan, firsts) if plan else None),
                          ("protocol", _protocol_agrees(pos, decks, depth, res.value, firsts))):
        if name not in applied:
            continue
        if differs is None:
            ran.append(name)
        else:
            ok = False
            detail.append(differs)
    question = f"{COLOURS[pos.to_move]} to move: forced win within {depth} turn(s), {decks} decks?"
    answer = (f"win in {res.value}: {res.witness} (all winning first moves: {', '.join(ans.get('moves', []))})"
              if res.value is not None else f"no forced win within {depth}")
    return PuzzleOutcome(
        game=GAME, name=str(data.get("name", path.stem)), question=question, solved=True, verified=ok,
        seconds=time.perf_counter() - t0, position_text=position_to_text(pos), answer_text=answer,
        detail="\n".join(detail), data={"turns": res.value, "nodes": res.stats["nodes"],
                                        "verified_by": ans.get("verified_by", [])},
        checks_applied=applied, checks_ran=tuple(ran),
    )
