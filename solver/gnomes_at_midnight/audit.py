"""A simulated audit of a Gnomes at Midnight edition: who wins, how, how long, and what never happens.

``audit`` plays K games for every (policy, dance card) pair of the edition, one task a
game on the batch runner (solver/core/batch.py), and reports how often each side wins and
by which win condition, game lengths, passes, games that repeat a position (the rules have
no repetition rule, so such a game can go on for ever) or reach the turn limit, and the dance
cards no game completed.  Every finding has a witness: the game's seed, policy, dance card and
moves (a record :func:`replay_game` re-plays through the rules engine), and a position in the
documented JSON format that ``show``, ``solve`` and ``hint`` open.

Policies (both sides play the same one):

* ``random``: a uniformly random legal turn;
* ``greedy``: a winning turn if there is one (toadstools, bumps or dance); else a turn after
  which the opponent has no winning reply, the one that bumps the most gnomes (ties at
  random); else a random one.

Game i deals the decks with ``new_position(edition, seed + i, dance)``: the same deal for every
policy and dance card.  A flip drawn from a reshuffled deck is chance: drawn with the game's own
random stream (the record lists it).  Settling the opening by proof is the solver's job
(``solve``); this audit is its simulated companion.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import COLOURS, TERRAINS, MidnightEdition
from gnomekit.models.gnomes_at_midnight.moves import (
    PASS,
    WIN_BUMPS,
    WIN_DANCE,
    WIN_TOADSTOOLS,
    Move,
    after_move,
    legal_moves,
    next_position,
)
from gnomekit.models.gnomes_at_midnight.notation import position_to_json
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.core.batch import Backend, BatchError, Progress, run_batch

POLICIES = ("random", "greedy")
CONDITIONS = (WIN_TOADSTOOLS, WIN_BUMPS, WIN_DANCE)
DEFAULT_MAX_TURNS = 300
MAX_TURNS = 100_000


@dataclass(frozen=True)
class GameSpec:
    """One simulated game: the deal's seed, the policy and the face-up dance card."""

    seed: int
    policy: str
    dance: str


@dataclass
class GameOutcome:
    """What one game gave: the winner (None: turn limit), its win conditions, length, record."""

    spec: GameSpec
    winner: int | None
    wins: tuple[str, ...]
    turns: int
    passes: int
    bumps: tuple[int, int]  # gnomes bumped by green, by blue
    repeat: tuple[int, int] | None  # (first turn, turn it came back) of the first repeated position
    moves: list[str] = field(default_factory=list)  # the turns in notation
    flips: list[str | None] = field(default_factory=list)  # the terrain each turn showed (None: no flip)


def _key(p: Position) -> tuple[Any, ...]:
    return (p.cells, p.off, p.to_move, p.moon, p.known, p.unknown)


def _opponent_can_win(p: Position) -> bool:
    """Has the side to move in ``p`` a winning turn?"""
    return any(after_move(p, m).wins for m in legal_moves(p) if m.kind != PASS)


def choose(p: Position, policy: str, rng: random.Random) -> Move:
    """The turn ``policy`` plays in ``p`` (see the module docstring)."""
    moves = legal_moves(p)
    if policy == "random" or len(moves) == 1:
        return moves[rng.randrange(len(moves))]
    afters = [after_move(p, m) for m in moves]
    winning = [m for m, a in zip(moves, afters, strict=True) if a.wins]
    if winning:
        return winning[rng.randrange(len(winning))]
    safe: list[tuple[int, Move]] = []
    for m, a in zip(moves, afters, strict=True):
        reply = next_position(a, a.flips[0][0]) if a.flips else next_position(a, None)
        if not _opponent_can_win(reply):
            safe.append((a.bumped, m))
    if not safe:
        return moves[rng.randrange(len(moves))]
    most = max(b for b, _m in safe)
    best = [m for b, m in safe if b == most]
    return best[rng.randrange(len(best))]


def _flip(a: Any, rng: random.Random) -> int | None:
    if not a.flips:
        return None
    if len(a.flips) == 1:
        return int(a.flips[0][0])
    return int(rng.choices([t for t, _ in a.flips], [w for _, w in a.flips])[0])


def play_game(ed: MidnightEdition, spec: GameSpec, max_turns: int = DEFAULT_MAX_TURNS) -> GameOutcome:
    """Play one game from setup under ``spec`` until a side wins or ``max_turns`` turns were played."""
    p = new_position(ed, spec.seed, spec.dance)
    rng = random.Random(f"gnomes-at-midnight/audit/{spec.seed}/{spec.policy}/{spec.dance}")
    out = GameOutcome(spec, None, (), 0, 0, (0, 0), None)
    seen: dict[tuple[Any, ...], int] = {_key(p): 0}
    bumps = [0, 0]
    while out.turns < max_turns:
        me = p.to_move
        m = choose(p, spec.policy, rng)
        a = after_move(p, m)
        out.turns += 1
        out.passes += m.kind == PASS
        bumps[me] += a.bumped
        out.moves.append(m.text())
        if a.wins:
            out.winner, out.wins = me, a.wins
            out.flips.append(None)
            break
        flip = _flip(a, rng)
        out.flips.append(None if flip is None else TERRAINS[flip])
        p = next_position(a, flip)
        k = _key(p)
        if out.repeat is None and k in seen:
            out.repeat = (seen[k], out.turns)
        seen.setdefault(k, out.turns)
    out.bumps = (bumps[0], bumps[1])
    return out


def replay_game(ed: MidnightEdition, out: GameOutcome, turns: int | None = None) -> Position:
    """The position after the first ``turns`` turns of a game's record (all of them by default).

    Re-plays the record through the rules engine (each move must be legal): the witness
    positions the audit reports are made this way.
    """
    p = new_position(ed, out.spec.seed, out.spec.dance)
    n = len(out.moves) if turns is None else turns
    for text, flip in zip(out.moves[:n], out.flips[:n], strict=True):
        move = next((m for m in legal_moves(p) if m.text() == text), None)
        if move is None:
            raise RuntimeError(f"record move {text!r} is not legal at turn {p.turn}")  # an engine bug
        a = after_move(p, move)
        if a.wins:
            return a.pos
        p = next_position(a, None if flip is None else TERRAINS.index(flip))
    return p


def _witness(ed: MidnightEdition, out: GameOutcome, at: int, what: str) -> dict[str, Any]:
    """A finding's witness: the game (seed, policy, dance card, moves) and the position after ``at`` turns."""
    return {"seed": out.spec.seed, "policy": out.spec.policy, "dance": out.spec.dance, "turn": at,
            "what": what, "moves": out.moves, "flips": out.flips,
            "position": position_to_json(replay_game(ed, out, at))}


@dataclass
class Figures:
    """Counts over a group of games (one policy, or one policy and dance card)."""

    games: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {c: 0 for c in COLOURS})
    by_condition: dict[str, int] = field(default_factory=lambda: {c: 0 for c in CONDITIONS})
    unfinished: int = 0
    repeated: int = 0
    turns: list[int] = field(default_factory=list)
    passes: int = 0

    def add(self, o: GameOutcome) -> None:
        self.games += 1
        self.turns.append(o.turns)
        self.passes += o.passes
        if o.winner is None:
            self.unfinished += 1
        else:
            self.wins[COLOURS[o.winner]] += 1
            for c in o.wins:
                self.by_condition[c] += 1
        self.repeated += o.repeat is not None

    def to_json(self) -> dict[str, Any]:
        t = sorted(self.turns)
        return {"games": self.games, "wins": dict(self.wins), "win_conditions": dict(self.by_condition),
                "unfinished": self.unfinished, "repeated_a_position": self.repeated, "passes": self.passes,
                "turns": {"mean": round(sum(t) / len(t), 2) if t else None, "min": t[0] if t else None,
                          "median": t[len(t) // 2] if t else None, "max": t[-1] if t else None}}


@dataclass
class Audit:
    """The audit's answer: figures per policy and per dance card, findings with witnesses."""

    edition: str
    games: int  # per policy and dance card
    seed: int
    max_turns: int
    first: str
    policies: dict[str, Figures] = field(default_factory=dict)
    per_dance: dict[str, dict[str, Figures]] = field(default_factory=dict)  # policy -> card -> figures
    never_danced: list[str] = field(default_factory=list)  # cards no game (any policy) completed
    witnesses: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "games_per_dance_card": self.games, "seed": self.seed,
                "max_turns": self.max_turns, "first_player": self.first,
                "policies": {p: f.to_json() for p, f in self.policies.items()},
                "dance_cards": {p: {c: f.to_json() for c, f in d.items()} for p, d in self.per_dance.items()},
                "dance_cards_never_completed": self.never_danced, "witnesses": self.witnesses}


def _task(ed: MidnightEdition, max_turns: int, spec: GameSpec) -> GameOutcome:
    """One game (a task of the batch runner)."""
    return play_game(ed, spec, max_turns)


def specs(ed: MidnightEdition, games: int, seed: int, policies: Sequence[str],
          dances: Sequence[str] | None = None) -> list[GameSpec]:
    """The games of an audit, in the order their figures are combined."""
    cards = list(dances) if dances is not None else [d.name for d in ed.dance]
    return [GameSpec(seed + i, pol, card) for pol in policies for card in cards for i in range(games)]


def audit(ed: MidnightEdition, games: int = 10, seed: int = 0, policies: Sequence[str] = POLICIES,
          max_turns: int = DEFAULT_MAX_TURNS, dances: Sequence[str] | None = None,
          backend: Backend | None = None, progress: Callable[[Progress], None] | None = None) -> Audit:
    """Play ``games`` games for each policy and dance card (one task each) and collect the figures.

    Combined in a fixed order, so the answer does not depend on the backend.  BatchError when
    a game raised or the run was interrupted (its ``partial``: the Audit of the games that
    finished).
    """
    for pol in policies:
        if pol not in POLICIES:
            raise UsageError(f"unknown policy {pol!r}; choose from {', '.join(POLICIES)}", text=pol)
    for card in dances or ():
        if ed.dance_card(card) is None:
            raise UsageError(f"unknown dance card {card!r}; the edition has: "
                             + ", ".join(d.name for d in ed.dance), text=card)
    if games < 0 or max_turns < 1:
        raise UsageError("games must be 0 or more and the turn limit at least 1")
    jobs = specs(ed, games, seed, policies, dances)
    batch = run_batch(partial(_task, ed, max_turns), jobs, backend, progress)
    res = Audit(ed.name, games, seed, max_turns, COLOURS[ed.first])
    cards = list(dances) if dances is not None else [d.name for d in ed.dance]
    for pol in policies:
        res.policies[pol] = Figures()
        res.per_dance[pol] = {c: Figures() for c in cards}
    danced: set[str] = set()
    for _i, o in batch.items():
        res.policies[o.spec.policy].add(o)
        res.per_dance[o.spec.policy][o.spec.dance].add(o)
        if WIN_DANCE in o.wins:
            danced.add(o.spec.dance)
        _note_witnesses(ed, o, res.witnesses)
    res.never_danced = [c for c in cards if c not in danced]
    if not batch.complete:
        raise BatchError(batch, res)
    return res


def _note_witnesses(ed: MidnightEdition, o: GameOutcome, found: dict[str, dict[str, Any]]) -> None:
    """The first game (in the audit's order) of each finding becomes its witness."""
    if o.winner is not None:
        for c in o.wins:
            key = f"win-{c}"
            if key not in found:  # the position before the winning turn: solve --depth 1 finds it
                found[key] = _witness(ed, o, o.turns - 1, f"{COLOURS[o.winner]} wins by {c} on turn {o.turns}")
        if "shortest-win" not in found or o.turns < found["shortest-win"]["turn"] + 1:
            found["shortest-win"] = _witness(ed, o, o.turns - 1, f"{COLOURS[o.winner]} wins on turn {o.turns} "
                                                                 f"({', '.join(o.wins)})")
    if o.repeat is not None and "repeated-position" not in found:
        a, b = o.repeat
        found["repeated-position"] = _witness(ed, o, b, f"the position after turn {a} comes back after turn {b}")
    if o.winner is None and "unfinished" not in found:
        found["unfinished"] = _witness(ed, o, o.turns, f"no side won within {o.turns} turns")
    if o.passes and "pass" not in found:
        found["pass"] = _witness(ed, o, _first_pass(o), "the side to move has no legal turn but pass")


def _first_pass(o: GameOutcome) -> int:
    return next(i for i, m in enumerate(o.moves) if m == "pass")


def text(a: Audit) -> str:
    """The audit for people."""
    lines = [f"Gnomes at Midnight audit, edition {a.edition}: {a.games} game(s) per policy and dance card, "
             f"seeds {a.seed}..{a.seed + a.games - 1}, at most {a.max_turns} turns; {a.first} moves first"]
    for pol, f in a.policies.items():
        j = f.to_json()
        n = f.games or 1
        lines.append(f"{pol}: {f.games} games; wins " + ", ".join(
            f"{c} {w} ({100 * w / n:.1f}%)" for c, w in f.wins.items())
            + f"; unfinished {f.unfinished}")
        lines.append("  by condition: " + ", ".join(f"{c} {k}" for c, k in f.by_condition.items())
                     + f"; turns mean {j['turns']['mean']}, median {j['turns']['median']}, "
                       f"max {j['turns']['max']}; passes {f.passes}; games that repeat a position {f.repeated}")
        lines.append("  dance wins per card: " + ", ".join(
            f"{c} {d.by_condition[WIN_DANCE]}" for c, d in a.per_dance[pol].items()))
    lines.append("dance cards never completed: " + (", ".join(a.never_danced) or "none"))
    for key, w in a.witnesses.items():
        lines.append(f"witness {key}: seed {w['seed']} {w['policy']} dance {w['dance']}: {w['what']} "
                     f"(position after turn {w['turn']} in the JSON)")
    return "\n".join(lines)
