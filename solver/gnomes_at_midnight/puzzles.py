"""Gnomes at Midnight puzzles for ``gnomekit tour``: forced wins in 1 to 5 turns.

A puzzle file (TOML) holds ``name``, ``edition``, ``depth``, ``decks``, the
position (``position``, the text notation) and the answer table
(``result``, ``turns``, ``moves`` = every first move that wins in ``turns``,
``verified_by`` = the methods that agreed when the file was written).
Running a puzzle solves it from scratch with the search, compares result and
shortest length, re-derives the set of winning first moves, and re-checks the
main line by replaying it through the rules layer.
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
    if res.value is not None:
        firsts = winning_first_moves(pos, res.value, decks)
        if sorted(firsts) != sorted(ans.get("moves", [])):
            ok = False
            detail.append(f"winning first moves differ: {firsts} vs stored {ans.get('moves')}")
        if not replay_line(pos, res.stats["line"], decks):
            ok = False
            detail.append("the main line does not replay through the rules")
        detail.append("main line: " + "  ".join(f"{s['side'][0]}:{s['move']}" for s in res.stats["line"]))
    question = f"{COLOURS[pos.to_move]} to move: forced win within {depth} turn(s), {decks} decks?"
    answer = (f"win in {res.value}: {res.witness} (all winning first moves: {', '.join(ans.get('moves', []))})"
              if res.value is not None else f"no forced win within {depth}")
    return PuzzleOutcome(
        game=GAME, name=str(data.get("name", path.stem)), question=question, solved=True, verified=ok,
        seconds=time.perf_counter() - t0, position_text=position_to_text(pos), answer_text=answer,
        detail="\n".join(detail), data={"turns": res.value, "nodes": res.stats["nodes"],
                                        "verified_by": ans.get("verified_by", [])},
    )
