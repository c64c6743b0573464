"""``hint``: the best move and why.

With a forced win within the depth: the first move of the shortest win, the win
condition that ends it, and how many opponent replies there are (none of which
stops it).  Without one: the *safe* move (no opponent reply wins at once, under
any flip) that keeps the most options: the most legal moves on the mover's next
turn, counted under the worst flip; ties keep generation order.  When a budget
(``SearchOptions.meter``) stops the forced-win search first, the hint is the safe move and
says so (a win may still exist).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnomes_at_midnight.kernel import K_PASS, Kernel, KMove, State
from gnomekit.solver.gnomes_at_midnight.search import SearchOptions, prepare, solve


@dataclass
class Hint:
    move: str | None
    kind: str  # "forced-win", "keeps-options", "no-safe-move"
    turns: int | None = None
    reasons: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "kind": self.kind, "turns": self.turns, "reasons": self.reasons, **self.data}


def _opponent_wins_at_once(k: Kernel, s: State) -> int:
    """How many replies of the mover of ``s`` win immediately."""
    me = s[2]
    pre = k.covers_dance(s[0], me)
    n = 0
    for r in k.moves(s):
        cells, off, _b = k.apply(s, r)
        if k.wins(cells, off, me, r, pre):
            n += 1
    return n


def hint(pos: Position, depth: int = 3, decks: str = "open", options: SearchOptions | None = None) -> Hint:
    """The hint for the side to move (see the module docstring)."""
    res = solve(pos, depth, decks, options=options)
    if res.value is not None:
        line = res.stats["line"]
        last = line[-1] if line else {}
        p = prepare(pos, decks)
        k = Kernel(p)
        s = k.state(p)
        reasons = []
        if res.value == 1:
            reasons.append(f"wins at once: {', '.join(last.get('wins', []))}")
        else:
            first = k.from_move(_parse(res.witness))
            cells, off, _b = k.apply(s, first)
            kids = k.children(s, first, cells, off)
            replies = len(k.moves(kids[0][2]))
            reasons.append(f"forces a win in {res.value} turns, ending with {', '.join(last.get('wins', []))}")
            reasons.append(f"the opponent has {replies} replies and none of them stops it"
                           + (f" (under all {len(kids)} possible flips)" if len(kids) > 1 else ""))
        return Hint(res.witness, "forced-win", res.value, reasons, {"line": line})
    p = prepare(pos, decks)
    k = Kernel(p)
    s = k.state(p)
    best: tuple[int, KMove] | None = None
    unsafe = 0
    for m in k.moves(s):
        cells, off, _b = k.apply(s, m)
        kids = k.children(s, m, cells, off)
        if any(_opponent_wins_at_once(k, c) for _t, _w, c in kids):
            unsafe += 1
            continue
        left = min(_options_after(k, c) for _t, _w, c in kids)
        if best is None or left > best[0]:
            best = (left, m)
    searched = (f"no forced win within {depth} turns" if res.status is not Status.UNKNOWN else
                f"the budget ran out before the search finished (no forced win within "
                f"{res.bound['no_win_within']} turns; one within {depth} may exist)")
    if best is None:
        return Hint(None, "no-safe-move", None,
                    [(f"no forced win within {depth}" if res.status is not Status.UNKNOWN else searched)
                     + "; every move lets the opponent win at once"],
                    {"unknown": True, "bound": res.bound} if res.status is Status.UNKNOWN else {})
    return Hint(k.to_move(best[1]).text(), "keeps-options", None,
                [searched,
                 f"the opponent cannot win at once after it ({unsafe} other move(s) would allow that)",
                 f"keeps {best[0]} moves for the next turn (worst flip)"],
                {"options": best[0], **({"unknown": True, "bound": res.bound} if res.status is Status.UNKNOWN
                                        else {})})


def _options_after(k: Kernel, s: State) -> int:
    """The mover-before-``s``'s number of moves if the opponent (to move in ``s``) passed."""
    back = (s[0], s[1], 1 - s[2], s[3], s[4], s[5])
    ms = k.moves(back)
    return 0 if ms[0][0] == K_PASS else len(ms)


def _parse(text: str | None) -> Any:
    from gnomekit.models.gnomes_at_midnight.notation import parse_move

    assert text is not None
    return parse_move(text)
