"""An independent, deliberately simple Gnomes at Midnight rules engine for tests.

It works on the JSON dict of a position (the documented keys) with plain lists
and counters, and shares no code with models/ or solver/: it establishes the
perft counts and the forced-win answers the real engine is compared with.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

TERR = {"G": "grass", "T": "tulips", "C": "cobblestone"}
NAMES = ["grass", "tulips", "cobblestone"]


class Ref:
    def __init__(self, d: dict[str, Any], full_deck: list[str]) -> None:
        self.rows, self.cols = d["rows"], d["cols"]
        self.terrain = {(r, c): TERR[d["terrain"][r][c]] for r in range(self.rows) for c in range(self.cols)}
        self.flowers = {k: [tuple(x) for x in v] for k, v in d["flowers"].items()}
        self.toads = [tuple(x) for x in d["toadstools"]]
        self.limit = d["bump_limit"]
        self.restrict = d["moon_restricts_adding"]
        self.full = list(full_deck)
        pat = [tuple(x) for x in d["dance"]]
        shapes = set()
        for mirror in (False, True):
            cur = [(r, -c) if mirror else (r, c) for r, c in pat]
            for _ in range(4):
                cur = [(c, -r) for r, c in cur]
                mr = min(r for r, _ in cur)
                mc = min(c for _, c in cur)
                shapes.add(frozenset((r - mr, c - mc) for r, c in cur))
        self.shapes = shapes

    def start(self, d: dict[str, Any]) -> tuple:
        g = Counter(tuple(x) for x in d["gnomes"]["green"])
        b = Counter(tuple(x) for x in d["gnomes"]["blue"])
        return (g, b, dict(d["off_board"]), d["to_move"], dict(d["moon"]),
                {k: list(v) for k, v in d["decks"].items()},
                {k: list(v) for k, v in d.get("decks_unknown", {"green": [], "blue": []}).items()})

    def moves(self, st: tuple) -> list[tuple]:
        g, b, off, me, moon, _k, _u = st
        own, opp = (g, b) if me == "green" else (b, g)
        mt = moon[me]
        out = []
        for (r, c), n in sorted(own.items()):
            if n == 0 or self.terrain[(r, c)] == mt:
                continue
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    t = (r + dr, c + dc)
                    if (dr, dc) == (0, 0) or t not in self.terrain or self.terrain[t] == mt:
                        continue
                    for k in (1, 2):
                        if k <= n and own[t] + k <= 2:
                            out.append(("move", (r, c), t, k))
        if off[me] > 0:
            for f in self.flowers[me]:
                if own[f] < 2 and opp[f] == 0 and not (self.restrict and self.terrain[f] == mt):
                    out.append(("add", None, f, 1))
        return out or [("pass", None, None, 0)]

    def won(self, own: Counter, opp_off: int) -> bool:
        if all(own[t] > 0 for t in self.toads):
            return True
        if opp_off >= self.limit:
            return True
        occupied = {c for c, n in own.items() if n > 0}
        for shape in self.shapes:
            for dr in range(self.rows):
                for dc in range(self.cols):
                    if all((r + dr, c + dc) in occupied for r, c in shape):
                        return True
        return False

    def play(self, st: tuple, mv: tuple) -> tuple[bool, list[tuple]]:
        """(mover won, successor states one per flip outcome)."""
        g, b, off, me, moon, known, unk = st
        g, b, off = Counter(g), Counter(b), dict(off)
        other = "blue" if me == "green" else "green"
        own, opp = (g, b) if me == "green" else (b, g)
        kind, src, dst, k = mv
        if kind == "move":
            own[src] -= k
            if opp[dst]:
                off[other] += opp[dst]
                opp[dst] = 0
            own[dst] += k
        elif kind == "add":
            own[dst] += 1
            off[me] -= 1
        if self.won(own, off[other]):
            return True, []
        if kind == "pass":
            return False, [(g, b, off, other, moon, known, unk)]
        outs = []
        if known[me]:
            draws = [(known[me][0], known[me][1:], unk[me])]
        else:
            pool = list(unk[me]) or list(self.full)
            draws = []
            for t in NAMES:
                if t in pool:
                    rest = list(pool)
                    rest.remove(t)
                    draws.append((t, [], sorted(rest, key=NAMES.index)))
        for t, kn, un in draws:
            outs.append((g, b, off, other, {**moon, me: t}, {**known, me: kn}, {**unk, me: un}))
        return False, outs

    def perft(self, st: tuple, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for mv in self.moves(st):
            won, kids = self.play(st, mv)
            if won:
                total += 1 if depth == 1 else 0
            else:
                total += sum(self.perft(s, depth - 1) for s in kids)
        return total

    def wins_within(self, st: tuple, n: int) -> bool:
        """Plain minimax: can the mover force a win within n own turns (every flip worst case)?"""
        for mv in self.moves(st):
            won, kids = self.play(st, mv)
            if won:
                return True
            if n > 1 and all(self._all_lose(s, n - 1) for s in kids):
                return True
        return False

    def _all_lose(self, st: tuple, n: int) -> bool:
        for mv in self.moves(st):
            won, kids = self.play(st, mv)
            if won or not all(self.wins_within(s, n) for s in kids):
                return False
        return True
