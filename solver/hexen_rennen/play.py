"""Whole games: policies for every decision, a replayable record, final scores.

Policies (every clan uses the same one):
* ``random``: a uniformly random movable witch and uniformly random decisions;
* ``greedy``: the witch whose die target is furthest ahead; at a decision the mover
  takes the option that puts its witch furthest ahead right now, the others the one
  that puts it furthest back (one step of look-ahead, no knowledge of hidden tiles);
* ``solver``: expectimax over the hidden tiles (as ``solve --expect``): the witch
  with the best expectation, and at every decision the option with the best
  expectation for the decider (the mover maximises, the others minimise).  Each
  expectimax has a node budget (``SOLVER_BUDGET``); when a search exceeds it (early
  game: full hands over face-down stages) that choice falls back to ``greedy`` and
  the record counts the fallback.

The record holds the seed, the setup and every turn (roll and turn notation), so
:func:`replay_record` can check the whole game with the rules engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gnomekit.models.hexen_rennen.edition import HexenEdition
from gnomekit.models.hexen_rennen.notation import parse_turn, position_to_json, turn_to_text
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.setup import new_position
from gnomekit.models.hexen_rennen.turn import (
    ChainState,
    Node,
    Option,
    Played,
    Rules,
    Turn,
    drive,
    movable_witches,
    replay,
)
from gnomekit.solver.core.batch import Backend, BatchError, Progress, run_batch
from gnomekit.solver.hexen_rennen.expect import BudgetExceeded, ExpectSearch

SOLVER_BUDGET = 20000


def choose(policy: str, pos: Position, edition: HexenEdition, roll: int, rng: random.Random,
           rules: Rules, fallbacks: list[int] | None = None) -> Played:
    """One turn under ``policy`` (``fallbacks[0]`` counts solver choices that fell back to greedy)."""
    moves = [(o, t) for o, t, _ in movable_witches(pos, edition, roll, rules) if t is not None]
    fb = fallbacks if fallbacks is not None else [0]

    def decide(turn: Turn, st: ChainState, node: Node) -> Option:
        if policy == "random":
            return node.options[rng.randrange(len(node.options))]
        mover = node.chooser == turn.mover
        key: list[Any] = [o.state.at for o in node.options]
        if policy == "solver":
            try:
                es = ExpectSearch(turn, up=st.up | (1 << st.at), max_nodes=SOLVER_BUDGET)
                key = [es.value(o.state) for o in node.options]
            except BudgetExceeded:
                fb[0] += 1
        best = max(key) if mover else min(key)
        return node.options[key.index(best)]

    if not moves:
        return drive(pos, edition, roll, None, decide, rules)
    witch = max(moves, key=lambda m: (m[1], -m[0]))[0]
    if policy == "random":
        witch = rng.choice(moves)[0]
    elif policy == "solver":
        try:
            best_v: Any = None
            for o, t in moves:
                turn = Turn(pos, edition, o, rules)
                v = ExpectSearch(turn, max_nodes=SOLVER_BUDGET).value(turn.start(t))
                if best_v is None or v > best_v:
                    best_v, witch = v, o
        except BudgetExceeded:
            fb[0] += 1
            witch = max(moves, key=lambda m: (m[1], -m[0]))[0]
    return drive(pos, edition, roll, witch, decide, rules)


@dataclass
class GameRecord:
    edition: HexenEdition
    players: int
    seed: int
    policy: str
    rules: Rules
    start: Position
    turns: list[tuple[str, Played]] = field(default_factory=list)  # (clan, turn)
    final: Position | None = None
    finished: bool = False
    fallbacks: int = 0  # solver policy: choices that exceeded the expectimax budget (played greedy)

    def scores(self) -> dict[str, int]:
        assert self.final is not None
        return {c: self.final.score(c, self.edition) for c in self.final.players}

    def to_json(self) -> dict[str, Any]:
        assert self.final is not None
        sc = self.scores()
        top = max(sc.values()) if sc else 0
        return {
            "players": self.players, "seed": self.seed, "policy": self.policy, "rules": self.rules.names(),
            "finished": self.finished, "turns_played": len(self.turns), "solver_fallbacks": self.fallbacks,
            "scores": sc, "winners": [c for c, v in sc.items() if v == top],
            "start": position_to_json(self.start, self.edition),
            "record": [{"n": i + 1, "clan": c, "roll": p.roll, "turn": turn_to_text(p.plan), "chain": p.chain}
                       for i, (c, p) in enumerate(self.turns)],
            "final": position_to_json(self.final, self.edition),
        }

    def text(self) -> str:
        lines = [f"{self.players} players, seed {self.seed}, policy {self.policy}"]
        for i, (c, p) in enumerate(self.turns, start=1):
            lines.append(f"{i:>4}. {c:<8} rolls {p.roll}: {turn_to_text(p.plan):<24} "
                         + (" -> ".join(map(str, p.chain)) if p.chain else "(no witch can move)"))
        sc = self.scores()
        lines.append(("game over" if self.finished else "stopped (turn limit)") + ": "
                     + ", ".join(f"{c} {v}" for c, v in sc.items()))
        return "\n".join(lines)


def play_game(edition: HexenEdition, players: int, seed: int, policy: str = "greedy", rules: Rules | None = None,
              max_turns: int = 1000) -> GameRecord:
    """Play from ``new --players N --seed S`` until a clan has every witch home (or ``max_turns``)."""
    rules = rules or Rules()
    pos = new_position(edition, players, seed)
    rec = GameRecord(edition, players, seed, policy, rules, pos)
    rng = random.Random(f"hexen-rennen/play/{seed}/{policy}")
    while len(rec.turns) < max_turns:
        if pos.finished_clans(edition):
            rec.finished = True
            break
        roll = rng.choice(edition.die)
        fb = [0]
        p = choose(policy, pos, edition, roll, rng, rules, fb)
        rec.fallbacks += fb[0]
        rec.turns.append((pos.to_move, p))
        pos = p.final
    else:
        rec.finished = bool(pos.finished_clans(edition))
    rec.final = pos
    return rec


def _summary_task(edition: HexenEdition, players: int, policy: str, rules: Rules | None, max_turns: int,
                  seed: int) -> dict[str, Any]:
    """One game of ``play_games``: its JSON without the start and final positions (a worker's task)."""
    data = play_game(edition, players, seed, policy, rules, max_turns).to_json()
    return {k: v for k, v in data.items() if k not in ("start", "final")}


def play_games(edition: HexenEdition, players: int, seeds: Iterable[int], policy: str = "greedy",
               rules: Rules | None = None, max_turns: int = 1000, backend: Backend | None = None,
               progress: Callable[[Progress], None] | None = None) -> list[dict[str, Any]]:
    """Many games, one task each on ``backend``: each game's JSON (``GameRecord.to_json`` less its
    start and final positions, which ``new --seed`` and the record give back), in the seeds' order.

    BatchError when a game raised or the run was interrupted (its ``partial``: those that finished).
    """
    batch = run_batch(partial(_summary_task, edition, players, policy, rules, max_turns), seeds, backend, progress)
    done = [r for _i, r in batch.items()]
    if not batch.complete:
        raise BatchError(batch, done)
    return done


def replay_record(rec: GameRecord) -> Position:
    """Check every turn of a record with the rules engine (from its text notation); the final position."""
    pos = rec.start
    for i, (_, p) in enumerate(rec.turns, start=1):
        rep = replay(pos, rec.edition, p.roll, parse_turn(turn_to_text(p.plan), rec.edition), rec.rules)
        if not rep.legal or rep.final is None:
            raise AssertionError(f"turn {i} does not replay: {rep.error_at}: {rep.reasons}")
        pos = rep.final
    return pos
