"""Whole Gnome Hollow games between policies, with a replayable record, final scores and the winner.

``play_game`` plays a game from setup to the end through the game protocol
(:mod:`gnomekit.models.gnome_hollow.game`): every move a player makes is one of the position's
legal moves, every refill of the garden tile board is a chance node drawn with the game's own
random generator, and the end of the game is the rules engine's (end conditions, the round
finished, one final gnome action each, final scoring with the tie-break).  The record lists every
turn's protocol moves in their notation (docs/formats-gnome-hollow.md, "Game records");
``replay`` plays a record again through the protocol, checking every move with every rule, and
re-derives the scores, so a record is a proof of a legal game.

Policies (one per seat):

* ``random`` - a random legal move at every decision (placements, ``end``, ring marker moves,
  the gnome action or ``pass``);
* ``greedy`` - the best turn of the solver (:func:`~gnomekit.solver.gnome_hollow.best.best_turn`:
  the most points this turn), within a budget of ``max_states`` placements tried per turn (the
  best found when it runs out), played move by move;
* ``hint`` - the turn :func:`~gnomekit.solver.gnome_hollow.hint.hint` explains (it is the
  solver's best turn, so it plays as ``greedy`` does; the policy exercises the hint's own path).

A solver's move the protocol does not accept (it never happened in the tests, but the record must
hold only legal moves) is replaced by the first legal move and counted in ``fallbacks``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.core.errors import GnomekitError, UsageError
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.game import (
    Act,
    EndPlacing,
    GnomeHollowGame,
    GnomeHollowPosition,
    Pass,
    RingMarker,
)
from gnomekit.models.gnome_hollow.position import Position, markers_moved
from gnomekit.models.gnome_hollow.scoring import MarkerChoice, Turn, final_scores

POLICIES = ("random", "greedy", "hint")
RECORD_VERSION = 1
#: Placements the solver policies try per turn (deterministic, unlike a time limit).
DEFAULT_MAX_STATES = 3000


class RecordError(GnomekitError):
    """A record that is not well formed (``rules`` False) or whose play breaks a rule or disagrees
    with itself (``rules`` True), at a JSON path of the record."""

    def __init__(self, path: tuple[Any, ...], message: str, rules: bool = False) -> None:
        super().__init__(message)
        self.path = path
        self.rules = rules


@dataclass
class GameResult:
    """A finished game: its record, the final table, scores, winners and how it ended."""

    record: dict[str, Any]
    final: GnomeHollowPosition
    scores: list[dict[str, Any]]
    winners: list[str]
    end: str
    turns: int
    fallbacks: int = 0
    notes: list[str] = field(default_factory=list)


def policies_for(players: int, policies: str | list[str] | tuple[str, ...]) -> list[str]:
    """One policy per seat: a single name for everyone, or one per player (a comma list)."""
    names = [p.strip() for p in policies.split(",")] if isinstance(policies, str) else list(policies)
    for p in names:
        if p not in POLICIES:
            raise UsageError(f"unknown policy {p!r} (known: {', '.join(POLICIES)})", text=p)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(f"give one policy for every player or one for all: {players} players, {len(names)} "
                         "policies", text=",".join(names))
    return names


def end_reason(before: Position, after: Position, ed: GnomeHollowEdition) -> str:
    """Why the end of the game was triggered in the turn from ``before`` to ``after``."""
    why = []
    board = after.option("board")
    for p in after.players:
        if len(p.flowers) >= ed.end_flowers:
            why.append(f"{p.name} gathered their {ed.end_flowers}th flower token")
        if markers_moved(ed, p, board) >= ed.end_markers:
            why.append(f"{p.name} moved their {ed.end_markers}th ring marker")
    if not why:
        why.append("the bag ran out of tiles")
    return "; ".join(why) + f" (turn of {before.mover.name})"


class _Planner:
    """The solver policies: the best turn at the start of a turn, then its moves one by one."""

    def __init__(self, game: GnomeHollowGame, policy: str, max_states: int | None) -> None:
        self.game, self.policy, self.max_states = game, policy, max_states
        self.turn: Turn | None = None
        self.placed = 0
        self.markers: list[MarkerChoice] = []

    def start(self, pos: GnomeHollowPosition) -> None:
        ed = self.game.edition
        if self.policy == "hint":
            from gnomekit.solver.gnome_hollow.hint import hint

            res = hint(pos.start, ed, max_nodes=self.max_states).result
        else:
            from gnomekit.solver.gnome_hollow.best import best_turn

            res = best_turn(pos.start, ed, max_nodes=self.max_states)
        self.turn = res.witness["turn"]
        self.placed = 0
        self.markers = list(self.turn.markers)

    def wanted(self, pos: GnomeHollowPosition) -> Any:
        """The planned move for this decision (None: nothing planned, the caller falls back)."""
        if not pos.moves and pos.phase in ("place", "marker", "action"):
            self.start(pos)
        assert self.turn is not None
        if pos.phase == "marker":
            need = pos._state[1]
            c = self.markers.pop(0) if self.markers else MarkerChoice()
            row = c.row if c.row is not None and c.row in need.free else need.free[0]
            return RingMarker(need.col.size, row, c.signpost, c.store, c.flower, c.mushrooms, c.wildflower,
                              c.discard, c.trade)
        if pos.phase == "place":
            if self.placed < len(self.turn.placements):
                self.placed += 1
                return self.turn.placements[self.placed - 1]
            return EndPlacing()
        if pos.phase == "action":
            a = self.turn.action
            return Pass() if a is None else Act(a.gnome, a.kind, a.at, a.flower, a.sales, a.trade)
        return None


def play_game(game: GnomeHollowGame, players: int = 2, seed: int = 0,
              policies: str | list[str] | tuple[str, ...] = "random", variants: tuple[str, ...] = (),
              max_states: int | None = DEFAULT_MAX_STATES, max_moves: int = 20_000) -> GameResult:
    """Play one game from setup (``game.new(players, seed, variants)``) to the end; see the module
    docstring.  The same arguments give the same game."""
    seats = policies_for(players, policies)
    pos = game.new(players=players, seed=seed, variants=tuple(variants))
    rng = random.Random(f"gnome-hollow/play/{seed}")
    planners = {i: _Planner(game, p, max_states) for i, p in enumerate(seats) if p != "random"}
    turns: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    fallbacks = 0
    end = ""
    for _ in range(max_moves):
        if pos.is_terminal():
            break
        if not pos.moves:
            who = pos.start.mover.name
            current = {"turn": len(turns) + 1, "player": who, "moves": []}
            if pos.start.final_actions is not None:
                current["final"] = True
            turns.append(current)
            before = pos.start
        assert current is not None
        if pos.current_player() < 0:  # the refill: a chance node
            outcomes = pos.chance_outcomes()
            move: Any = outcomes[rng.randrange(len(outcomes))][0]
        elif seats[pos.current_player()] == "random":
            move = rng.choice(pos.legal_moves())
        else:
            move = planners[pos.current_player()].wanted(pos)
            if move is None or not pos.check(move).legal:
                fallbacks += 1
                move = pos.legal_moves()[0]
        current["moves"].append(pos.move_text(move))
        nxt = pos.apply(move)
        if not nxt.moves and not end and nxt.start.end_triggered and not before.end_triggered:
            end = end_reason(before, nxt.start, game.edition)
        pos = nxt
    else:
        raise GnomekitError(f"the game did not end within {max_moves} moves")
    scores = final_scores(pos.start, game.edition)
    winners = [r["player"] for r in scores if r["rank"] == 1]
    record = {
        "game": "gnome-hollow", "record": RECORD_VERSION, "edition": game.edition.name, "players": players,
        "seed": seed, "variants": list(variants), "policies": seats, "turns": turns,
        "result": {"end": end, "scores": scores, "winners": winners},
    }
    return GameResult(record, pos, scores, winners, end, len(turns), fallbacks)


# ---------------------------------------------------------------------------------------------
# replay

RECORD_KEYS = {"game", "record", "edition", "players", "seed", "variants", "policies", "turns", "result"}


def replay(record: Any, game: GnomeHollowGame) -> GameResult:
    """Play a record again through the protocol: every move parsed and checked with every rule, the
    turns in order, the game to its end, the result re-derived and compared; the first problem is a
    :class:`RecordError` at its JSON path."""
    if not isinstance(record, dict):
        raise RecordError((), "a game record object")
    extra = sorted(set(record) - RECORD_KEYS)
    if extra:
        raise RecordError((extra[0],), f"unknown key {extra[0]!r} (known: {', '.join(sorted(RECORD_KEYS))})")
    if record.get("game") != "gnome-hollow":
        raise RecordError(("game",), "a Gnome Hollow record (\"game\": \"gnome-hollow\")")
    if record.get("record") != RECORD_VERSION:
        raise RecordError(("record",), f"record version {RECORD_VERSION}")
    if record.get("edition", game.edition.name) != game.edition.name:
        raise RecordError(("edition",), f"a record of edition {record.get('edition')!r}, read with edition "
                          f"{game.edition.name!r}")
    players, seed = record.get("players"), record.get("seed")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError(("players",), "players: a whole number")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(("seed",), "seed: a whole number")
    variants = record.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise RecordError(("variants",), "variants: a list of variant names")
    try:
        pos = game.new(players=players, seed=seed, variants=tuple(variants))
    except GnomekitError as exc:
        raise RecordError(("players",) if "players" in exc.message else ("variants",), exc.message) from None
    turns = record.get("turns")
    if not isinstance(turns, list):
        raise RecordError(("turns",), "turns: a list of turns")
    end = ""
    for i, t in enumerate(turns):
        at = ("turns", i)
        if not isinstance(t, dict) or not isinstance(t.get("moves"), list):
            raise RecordError(at, 'a turn {"player": NAME, "moves": [...]}')
        if pos.is_terminal():
            raise RecordError(at, "the game is over before this turn", rules=True)
        who = pos.start.mover.name
        if t.get("player") != who:
            raise RecordError(at + ("player",), f"{who} is to move, not {t.get('player')!r}", rules=True)
        if bool(t.get("final", False)) != (pos.start.final_actions is not None):
            what = "a final gnome action" if pos.start.final_actions is not None else "a turn with tile placement"
            raise RecordError(at + ("final",), f"this turn is {what}", rules=True)
        before = pos.start
        if not t["moves"]:
            raise RecordError(at + ("moves",), "a turn has at least one move (the gnome action or pass)", rules=True)
        for j, text in enumerate(t["moves"]):
            mat = at + ("moves", j)
            if not isinstance(text, str):
                raise RecordError(mat, "a move in its notation")
            try:
                move = pos.parse_move(text, "<record>")
            except GnomekitError as exc:
                raise RecordError(mat, f"{text!r}: {exc.message}") from None
            rep = pos.check(move)
            if not rep.legal:
                words = "; ".join(f"[{v.rule}] {v.message}" for v in rep.violations)
                raise RecordError(mat, f"illegal move {rep.move}: {words}", rules=True)
            pos = pos.apply(move)
            if not pos.moves and j + 1 < len(t["moves"]):
                raise RecordError(at + ("moves", j + 1), f"{who}'s turn ended with {text}; this move belongs to "
                                  "the next turn", rules=True)
        if pos.moves:
            raise RecordError(at + ("moves",), f"{who}'s turn is not finished (the turn expects a move of phase "
                              f"{pos.phase})", rules=True)
        if not end and pos.start.end_triggered and not before.end_triggered:
            end = end_reason(before, pos.start, game.edition)
    if not pos.is_terminal():
        raise RecordError(("turns",), f"the record ends before the game is over (phase {pos.start.phase})",
                          rules=True)
    scores = final_scores(pos.start, game.edition)
    winners = [r["player"] for r in scores if r["rank"] == 1]
    result = record.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise RecordError(("result",), "result: an object")
        if "scores" in result and result["scores"] != scores:
            raise RecordError(("result", "scores"), "the recorded scores are not the scores of this game: "
                              + "; ".join(f"{r['player']} {r['total']}" for r in scores), rules=True)
        if "winners" in result and result["winners"] != winners:
            raise RecordError(("result", "winners"), f"the winner of this game is {' and '.join(winners)}",
                              rules=True)
    seats = record.get("policies", [])
    done = dict(record, result={"end": end, "scores": scores, "winners": winners}, policies=seats)
    return GameResult(done, pos, scores, winners, end, len(turns))


__all__ = ["DEFAULT_MAX_STATES", "POLICIES", "GameResult", "RecordError", "play_game", "policies_for", "replay"]
