"""``audit --games K``: play K games and report what the rules do, with witnesses.

Reported: the longest chain (most landings in one turn), forced plays (a clan made
to play after a number card sent a witch back onto its symbol), turns where no
witch could move, and games where some player could never move at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gnomekit.models.hexen_rennen.edition import HexenEdition
from gnomekit.models.hexen_rennen.notation import position_to_json, turn_to_text
from gnomekit.models.hexen_rennen.turn import Rules
from gnomekit.solver.core.batch import Backend, BatchError, Progress, run_batch
from gnomekit.solver.hexen_rennen.play import play_game


@dataclass
class Audit:
    games: int = 0
    finished: int = 0
    turns: int = 0
    longest: dict[str, Any] | None = None
    forced: int = 0
    forced_witness: dict[str, Any] | None = None
    passes: int = 0
    pass_witness: dict[str, Any] | None = None
    never_moved: list[dict[str, Any]] = field(default_factory=list)
    scores: list[dict[str, int]] = field(default_factory=list)
    # what was audited (the figures format every audit shares, docs/batch.md)
    edition: str = ""
    seed: int = 0
    players: int = 0
    policy: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "finished": self.finished, "turns": self.turns, "longest_chain": self.longest,
                "forced_plays": self.forced, "forced_play_witness": self.forced_witness,
                "turns_without_move": self.passes, "no_move_witness": self.pass_witness,
                "games_where_a_player_never_moved": self.never_moved, "scores": self.scores,
                **self.shared_json()}

    def shared_json(self) -> dict[str, Any]:
        """The keys every audit's JSON has (docs/batch.md): what was audited, the figures per
        policy, and the findings' witnesses by name (each with ``what``, ``seed``, ``policy``)."""
        figures = {"games": self.games, "finished": self.finished, "turns": self.turns,
                   "forced_plays": self.forced, "turns_without_move": self.passes,
                   "games_where_a_player_never_moved": len(self.never_moved),
                   "longest_chain": self.longest["landings"] if self.longest else 0}
        found: dict[str, dict[str, Any]] = {}
        for key, w, what in (
                ("longest-chain", self.longest, "the longest chain, {landings} landings"),
                ("forced-play", self.forced_witness, "a forced play (a witch sent back onto its symbol)"),
                ("no-move", self.pass_witness, "a turn where no witch could move")):
            if w is not None:  # its position is the one before the turn
                found[key] = {"what": what.format(**w) + ": turn {turn_no}, {clan} rolls {roll}, {turn}".format(**w),
                              "policy": self.policy, "players": self.players, **w}
        if self.never_moved:
            g = self.never_moved[0]
            found["player-never-moved"] = {"what": f"{', '.join(g['clans'])} never moved in the whole game",
                                           "policy": self.policy, "players": self.players, **g}
        return {"edition": self.edition, "seed": self.seed, "players": self.players, "policy": self.policy,
                "policies": {self.policy: figures}, "witnesses": found}

    def text(self) -> str:
        lines = [f"{self.games} games ({self.finished} finished), {self.turns} turns"]
        if self.longest:
            lg = self.longest
            lines.append(f"longest chain: {lg['landings']} landings (game seed {lg['seed']}, turn {lg['turn_no']}: "
                         f"{lg['clan']} rolls {lg['roll']}, {lg['turn']}; chain {' -> '.join(map(str, lg['chain']))})")
        lines.append(f"forced plays: {self.forced}" + (
            f" (e.g. seed {self.forced_witness['seed']} turn {self.forced_witness['turn_no']}: "
            f"{self.forced_witness['turn']})" if self.forced_witness else ""))
        lines.append(f"turns where no witch could move: {self.passes}" + (
            f" (e.g. seed {self.pass_witness['seed']} turn {self.pass_witness['turn_no']}, "
            f"{self.pass_witness['clan']} rolled {self.pass_witness['roll']})" if self.pass_witness else ""))
        lines.append(f"games where a player never moved: {len(self.never_moved)}"
                     + "".join(f"\n  seed {g['seed']}: {', '.join(g['clans'])}" for g in self.never_moved))
        return "\n".join(lines)


@dataclass
class _GameFigures:
    """One game's share of the audit (a task's answer): counts and its first witnesses."""

    finished: bool
    turns: int
    scores: dict[str, int]
    longest: dict[str, Any] | None
    forced: int
    forced_witness: dict[str, Any] | None
    passes: int
    pass_witness: dict[str, Any] | None
    never_moved: list[str]


def _game_figures(edition: HexenEdition, players: int, policy: str, rules: Rules | None, max_turns: int,
                  g: int) -> _GameFigures:
    """Play game ``g`` (its seed) and collect its figures (top level: a worker process or Ray runs it)."""
    rec = play_game(edition, players, g, policy, rules, max_turns)
    out = _GameFigures(rec.finished, 0, rec.scores(), None, 0, None, 0, None, [])
    moved: dict[str, bool] = {c: False for c in rec.start.players}
    pos = rec.start
    for i, (clan, p) in enumerate(rec.turns, start=1):
        out.turns += 1
        wit = {"seed": g, "turn_no": i, "clan": clan, "roll": p.roll, "turn": turn_to_text(p.plan),
               "chain": p.chain, "landings": len(p.steps), "position": position_to_json(pos, edition)}
        if p.plan.witch is None:
            out.passes += 1
            out.pass_witness = out.pass_witness or wit
        else:
            moved[clan] = True
        nf = sum(1 for s in p.steps if s.forced and s.chooser is not None and s.choice is not None
                 and s.kind in ("own-symbol", "other-symbol"))
        if nf:
            out.forced += nf
            out.forced_witness = out.forced_witness or wit
        if out.longest is None or len(p.steps) > out.longest["landings"]:
            out.longest = wit
        pos = p.final
    out.never_moved = [c for c, m in moved.items() if not m]
    return out


def audit(edition: HexenEdition, games: int, players: int, seed: int = 0, policy: str = "random",
          rules: Rules | None = None, max_turns: int = 1000, backend: Backend | None = None,
          progress: Callable[[Progress], None] | None = None) -> Audit:
    """Play ``games`` games (seeds seed, seed+1, ...) and collect the statistics above.

    One task a game on ``backend``, combined in seed order (the first witness is the first
    game's), so the answer does not depend on the backend.  BatchError when a game raised
    or the run was interrupted (its ``partial``: the Audit of the games that finished).
    """
    task = partial(_game_figures, edition, players, policy, rules, max_turns)
    batch = run_batch(task, range(seed, seed + games), backend, progress)
    a = Audit(edition=edition.name, seed=seed, players=players, policy=policy)
    for k, f in batch.items():
        a.games += 1
        a.finished += f.finished
        a.scores.append(f.scores)
        a.turns += f.turns
        a.passes += f.passes
        a.pass_witness = a.pass_witness or f.pass_witness
        a.forced += f.forced
        a.forced_witness = a.forced_witness or f.forced_witness
        if f.longest is not None and (a.longest is None or f.longest["landings"] > a.longest["landings"]):
            a.longest = f.longest
        if f.never_moved:
            a.never_moved.append({"seed": seed + k, "clans": f.never_moved})
    if not batch.complete:
        raise BatchError(batch, a)
    return a
