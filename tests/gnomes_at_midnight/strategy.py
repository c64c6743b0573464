"""Checking a forced win with the independent reference rules: the search proposes the winner's moves,
the reference generates every reply and flip and applies every move (a strategy-tree check).

A True answer means: by the reference's rules, playing the proposed moves wins within k turns against
every reply and flip.  This checks long wins (4-5 turns), where the z3 loop is too slow.
"""

from __future__ import annotations

from typing import Any

from gnomekit.models.gnomes_at_midnight.edition import TERRAINS
from gnomekit.models.gnomes_at_midnight.notation import position_to_json
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.solver.gnomes_at_midnight.kernel import Kernel
from gnomekit.solver.gnomes_at_midnight.search import Searcher

from tests.gnomes_at_midnight.make_perft import PerSide

NAMES = list(TERRAINS)


def _kernel_state(st: tuple, cols: int, size: int) -> tuple:
    g, b, off, me, moon, known, unk = st
    cells = [0] * size
    for (r, c), n in g.items():
        cells[r * cols + c] += n
    for (r, c), n in b.items():
        cells[r * cols + c] -= n
    side = {"green": 0, "blue": 1}

    def counts(lst: list[str]) -> tuple[int, int, int]:
        return (lst.count("grass"), lst.count("tulips"), lst.count("cobblestone"))

    return (tuple(cells), (off["green"], off["blue"]), side[me],
            tuple(-1 if moon[c] is None else NAMES.index(moon[c]) for c in ("green", "blue")),
            tuple(tuple(NAMES.index(t) for t in known[c]) for c in ("green", "blue")),
            tuple(counts(unk[c]) for c in ("green", "blue")))


def verify_forced_win(pos: Position, k: int) -> tuple[bool, int]:
    """(the reference confirms a win within k with the search's moves, strategy-tree leaves checked)."""
    d: dict[str, Any] = position_to_json(pos)
    full = {c: [NAMES[t] for t in pos.full_decks[i]] for i, c in enumerate(("green", "blue"))}
    ref = PerSide(d, full)
    kern = Kernel(pos)
    sr = Searcher(kern)
    cols, size = pos.board.cols, pos.board.size
    leaves = [0]

    def win(st: tuple, n: int) -> bool:
        s = _kernel_state(st, cols, size)
        moves = sr.winning_moves(s, n)
        if not moves:
            return False
        m = kern.to_move(moves[0])
        mv = _ref_move(m, st, ref)
        won, kids = ref.play(st, mv)
        if won:
            leaves[0] += 1
            return True
        if n == 1:
            return False
        for kid in kids:
            for r in ref.moves(kid):
                w2, kids2 = ref.play(kid, r)
                if w2:
                    return False
                if not all(win(k2, n - 1) for k2 in kids2):
                    return False
        return True

    return win(ref.start(d), k), leaves[0]


def _ref_move(m: Any, st: tuple, ref: PerSide) -> tuple:
    if m.kind == "pass":
        return ("pass", None, None, 0)
    if m.kind == "add":
        return ("add", None, m.dst, 1)
    return ("move", m.src, m.dst, 2 if m.kind == "pair" else 1)
