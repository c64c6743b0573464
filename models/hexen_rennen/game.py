"""Hexen Rennen through the game protocol (models/core/protocol.py).

A turn is a sequence of protocol moves, as OpenSpiel models it:

1. the die: a chance node (``current_player() == CHANCE``) whose outcomes are :class:`Roll`
   moves (``roll 4``) with the probabilities of the edition's die;
2. the mover's choice of witch: :class:`Witch` (``witch 12``, ``witch start``), or ``pass`` when
   no witch can move the roll;
3. one :class:`Play` per decision point of the chain (``fog:7``, ``weather:S``,
   ``ice:stop``), decided by the clan whose symbol the witch is on (``current_player()`` is
   that clan's player index, which need not be the mover's).

Tile actions, neutral draws and symbol tiles where the decider has no legal card are not
moves: the chain goes on by itself until the next decision point or its end.  When the chain
ends, the position is the next clan's chance node.  Face-down tiles keep the identities the
position holds (the puzzle view the rules engine, ``random`` and ``play`` use); ``solve``'s
``expect`` goal is where they are drawn from their stage instead.

A position in the middle of a turn is the position before the roll plus the roll and the turn
so far; its text and JSON add ``roll`` and ``turn`` to the position notation
(docs/formats-hexen-rennen.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from gnomekit.models.core.errors import GnomekitError, NotationError, UsageError
from gnomekit.models.core.jsonpos import JsonReader, loads_with_positions
from gnomekit.models.core.protocol import CHANCE, TERMINAL, Game, Position, Report
from gnomekit.models.core.text import is_count
from gnomekit.models.core.violation import Violation
from gnomekit.models.hexen_rennen.board import board_from_text, board_text, is_board
from gnomekit.models.hexen_rennen.edition import (
    STOP,
    SYMBOL,
    HexenEdition,
    default_edition,
    load_edition,
    small_int,
)
from gnomekit.models.hexen_rennen.notation import (
    parse_turn,
    position_from_json_data,
    position_from_text,
    position_to_json,
    position_to_text,
    turn_to_json,
    turn_to_text,
)
from gnomekit.models.hexen_rennen.position import Position as RacePosition
from gnomekit.models.hexen_rennen.setup import Split, new_position, parse_split, random_position
from gnomekit.models.hexen_rennen.turn import (
    ChainState,
    Decision,
    Node,
    Rules,
    Turn,
    TurnPlan,
    choice_name,
    decision_violations,
    game_over_violation,
    movable_witches,
    pass_violation,
    witch_violation,
)

NAME = "hexen-rennen"


# -------------------------------------------------------------------------------------------------
# Moves


@dataclass(frozen=True, repr=False)
class Roll:
    """The die shows ``face`` (a chance outcome)."""

    face: int

    def __str__(self) -> str:
        return f"roll {self.face}"

    def __repr__(self) -> str:
        return f"<{self}>"


@dataclass(frozen=True, repr=False)
class Witch:
    """The mover moves its witch on ``field`` (0: the start) the roll; ``None``: the turn passes."""

    field: int | None

    def __str__(self) -> str:
        if self.field is None:
            return "pass"
        return "witch start" if self.field == 0 else f"witch {self.field}"

    def __repr__(self) -> str:
        return f"<{self}>"


PASS = Witch(None)


@dataclass(frozen=True, repr=False)
class Play:
    """At a decision point ``clan`` plays ``code``: a number card, ``SYMBOL`` or ``STOP`` (no card).

    ``clan`` None (only from notation without the clan) means whoever decides there.
    """

    clan: str | None
    code: int

    def __str__(self) -> str:
        return (f"{self.clan}:" if self.clan else "") + choice_name(self.code)

    def __repr__(self) -> str:
        return f"<{self}>"


Move = Roll | Witch | Play

_ROLL = re.compile(r"roll\s+(\d{1,18})")
_WITCH = re.compile(r"witch\s+(start|\d{1,18})")
_PLAY = re.compile(r"(?:([a-z][a-z0-9_-]*):)?(\S+)")


def parse_move(text: str, edition: HexenEdition, source: str = "<move>") -> Move:
    """``roll 4``, ``witch 12`` / ``witch start`` / ``pass``, ``[CLAN:]N`` / ``[CLAN:]S`` / ``[CLAN:]stop``."""
    s = text.strip()
    lead = len(text) - len(text.lstrip())

    def bad(msg: str, col: int, found: str) -> NotationError:
        return NotationError(msg, source=source, line=1, column=lead + col, text=found)

    low = s.lower()
    if m := _ROLL.fullmatch(low):
        return Roll(int(m.group(1)))
    if low == "pass":
        return PASS
    if m := _WITCH.fullmatch(low):
        f = 0 if m.group(1) == "start" else int(m.group(1))
        if f > edition.last_field:
            raise bad(f"expected the witch's field before the roll (start, 0 .. {edition.last_field})",
                      m.start(1) + 1, m.group(1))
        return Witch(f)
    m = _PLAY.fullmatch(s)
    if not s or m is None:
        raise bad("expected a move: 'roll N', 'witch FIELD' (or 'witch start'), 'pass', or a decision "
                  "'[CLAN:]N', '[CLAN:]S', '[CLAN:]stop'", 1, s)
    clan, body = m.group(1), m.group(2)
    if clan is not None and clan not in edition.clan_ids:
        raise bad("expected CLAN:DECISION with a clan of " + ", ".join(edition.clan_ids), 1, s)
    b = body.lower()
    if b == "stop":
        code = STOP
    elif b in ("s", "symbol"):
        code = SYMBOL
    elif is_count(b) and int(b) in edition.numbers:
        code = int(b)
    else:
        raise bad("expected a move: 'roll N', 'witch FIELD', 'pass', or a decision: stop, S (symbol card) or "
                  f"a number card {edition.numbers[0]}..{edition.numbers[-1]}", m.start(2) + 1, body)
    return Play(clan, code)


# -------------------------------------------------------------------------------------------------
# The turn in progress


@dataclass(frozen=True)
class Pending:
    """Where a turn in progress stands: the chain so far and the decision point it waits at."""

    turn: Turn
    state: ChainState
    node: Node  # kind "choice"
    chain: tuple[int, ...]  # fields visited, the witch's field first

    @property
    def chooser(self) -> str:
        assert self.node.chooser is not None
        return self.turn.clans[self.node.chooser]


def walk(base: RacePosition, edition: HexenEdition, rules: Rules, roll: int, witch: int,
         plays: Sequence[Play]) -> tuple[Pending | None, ChainState, list[Violation]]:
    """Follow the chain of ``witch`` for ``roll``, one play per decision point.

    Returns the decision point after the last play (None when the chain has ended there), the
    chain state reached, and the violations of the first play that is not legal (empty if all are).
    """
    turn = Turn(base, edition, witch, rules)
    target, why = turn.die_violations(roll)
    if target is None:
        raise ValueError(f"witch {witch} cannot move {roll}: {'; '.join(v.message for v in why)}")
    st = turn.start(target)
    chain = [witch, target]
    queue = list(plays)
    while True:
        node = turn.expand(st)
        if node.kind == "end":
            if queue:
                return None, st, [Violation("nothing-to-decide", f"the chain has ended on field {st.at}; "
                                            f"{queue[0]} has nothing to decide", [st.at])]
            return None, st, []
        if node.kind == "auto":
            opt = node.options[0]
        else:
            pend = Pending(turn, st, node, tuple(chain))
            if not queue:
                return pend, st, []
            play = queue.pop(0)
            vs = play_violations(pend, play)
            if vs:
                return pend, st, vs
            opt = next(o for o in node.options if o.code == play.code)
        st = opt.state
        if opt.step.to is not None:
            chain.append(opt.step.to)


def play_violations(pend: Pending, play: Play) -> list[Violation]:
    """Every rule ``play`` breaks at the decision point ``pend`` (empty: legal)."""
    who = pend.chooser
    at = pend.state.at
    if play.clan is not None and play.clan != who:
        return [Violation("decider", f"the witch is on {who}'s symbol on tile {at}: {who} decides there, "
                          f"not {play.clan}", [at])]
    if any(o.code == play.code for o in pend.node.options):
        return []
    return decision_violations(pend.turn, pend.state, pend.node, play.code, who)


# -------------------------------------------------------------------------------------------------
# Positions


class HexenPosition(Position):
    """A Hexen Rennen position: before the roll (a chance node), after it, or inside a chain.

    ``base`` is the race position before the roll (:class:`~gnomekit.models.hexen_rennen.position.
    Position`); ``roll``, ``witch`` and ``plays`` the turn so far.  Positions are built by the
    game (``new``, ``random``, ``read``) and by ``apply``, never changed.
    """

    __slots__ = ("_game", "base", "roll", "witch", "plays", "_pending")

    def __init__(self, game: HexenGame, base: RacePosition, roll: int | None = None, witch: int | None = None,
                 plays: tuple[Play, ...] = (), pending: Pending | None = None) -> None:
        self._game = game
        self.base = base
        self.roll = roll
        self.witch = witch
        self.plays = plays
        self._pending = pending

    # -- identity -------------------------------------------------------------------------
    @property
    def game(self) -> HexenGame:
        return self._game

    def key(self) -> Hashable:
        """The race position, the turn so far, and the game's reading of the rules."""
        return self.base, self.roll, self.witch, self.plays, self._game.rules

    @property
    def edition(self) -> HexenEdition:
        return self._game.edition

    @property
    def rules(self) -> Rules:
        return self._game.rules

    @property
    def pending(self) -> Pending | None:
        """The decision point the turn waits at (None before the witch is chosen)."""
        return self._pending

    @property
    def phase(self) -> str:
        """``over``, ``roll`` (the die is next), ``witch`` (the mover picks a witch) or ``decide``."""
        if self.roll is None:
            return "over" if self.base.finished_clans(self.edition) else "roll"
        return "witch" if self._pending is None else "decide"

    def plan(self) -> TurnPlan:
        """The turn so far in turn notation's terms (every decision written with its clan)."""
        return TurnPlan(self.witch, tuple(Decision(p.clan, p.code) for p in self.plays))

    # -- turn structure ---------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == "over":
            return TERMINAL
        if ph == "roll":
            return CHANCE
        who = self.base.to_move if self._pending is None else self._pending.chooser
        return self.base.players.index(who)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        if self.phase != "roll":
            raise ValueError("not a chance node: the die is rolled at the start of a turn")
        faces = self.edition.die
        return [(Roll(f), Fraction(faces.count(f), len(faces))) for f in sorted(set(faces))]

    def scores(self) -> dict[str, float]:
        """Each playing clan's points: the finish fields its witches stand on (before this turn's move)."""
        return {c: self.base.score(c, self.edition) for c in self.base.players}

    # -- moves ------------------------------------------------------------------------------
    def parse_move(self, text: str, source: str = "<move>") -> Any:
        """A move's notation; a decision without its clan is the current decider's."""
        mv = self._game.parse_move(text, source)
        if isinstance(mv, Play) and mv.clan is None and self._pending is not None:
            return Play(self._pending.chooser, mv.code)
        return mv

    def legal_moves(self) -> list[Any]:
        ph = self.phase
        if ph == "over":
            return []
        if ph == "roll":
            return [m for m, _ in self.chance_outcomes()]
        if ph == "witch":
            assert self.roll is not None
            can = [Witch(o) for o, t, _ in movable_witches(self.base, self.edition, self.roll, self.rules)
                   if t is not None]
            return can or [PASS]
        assert self._pending is not None
        return [Play(self._pending.chooser, o.code) for o in self._pending.node.options]

    def check(self, move: Any) -> Report:
        mv = self.parse_move(move) if isinstance(move, str) else move
        if not isinstance(mv, Roll | Witch | Play):
            raise TypeError(f"not a Hexen Rennen move: {mv!r}")
        text = str(mv)
        vs, notes = self._check(mv)
        return Report(text, tuple(vs), tuple(notes))

    def _check(self, mv: Move) -> tuple[list[Violation], list[str]]:
        ed, ph = self.edition, self.phase
        if ph == "over":
            over = game_over_violation(self.base, ed)
            assert over is not None
            return [over], []
        if ph == "roll":
            if not isinstance(mv, Roll):
                return [Violation("turn-phase", f"{self.base.to_move} rolls the die first (a roll move, e.g. "
                                  f"'roll {ed.die[0]}')")], []
            if mv.face not in ed.die:
                return [Violation("die-face", f"the die has no face {mv.face} (faces {list(ed.die)})")], []
            p = dict(self.chance_outcomes())[mv]
            return [], [f"probability {p}"]
        if isinstance(mv, Roll):
            return [Violation("turn-phase", f"the die already shows {self.roll}")], []
        if ph == "witch":
            assert self.roll is not None
            if not isinstance(mv, Witch):
                return [Violation("turn-phase", f"{self.base.to_move} first chooses the witch to move "
                                  f"{self.roll} (or passes)")], []
            wits = movable_witches(self.base, ed, self.roll, self.rules)
            can = [o for o, t, _ in wits if t is not None]
            if mv.field is None:
                return ([pass_violation(can)] if can else []), ([] if can else ["no witch can move: the turn passes"])
            if mv.field not in self.base.witches_of(self.base.to_move):
                return [witch_violation(self.base, mv.field)], []
            target, why = Turn(self.base, ed, mv.field, self.rules).die_violations(self.roll)
            if target is None:
                return why, []
            return [], [f"the die takes the witch from {mv.field} to {target}"]
        pend = self._pending
        assert pend is not None
        if not isinstance(mv, Play):
            return [Violation("turn-phase", f"the chain waits for {pend.chooser}'s decision on tile "
                              f"{pend.state.at}")], []
        vs = play_violations(pend, mv)
        if vs:
            return vs, []
        opt = next(o for o in pend.node.options if o.code == mv.code)
        if opt.step.to is None:
            return [], [f"the witch stays on {pend.state.at}: the chain ends"]
        return [], [f"the witch goes to {opt.step.to}"]

    def _apply(self, move: Any) -> HexenPosition:
        g = self._game
        if isinstance(move, Roll):
            return HexenPosition(g, self.base, move.face)
        assert self.roll is not None
        if isinstance(move, Witch):
            if move.field is None:
                return HexenPosition(g, replace(self.base, to_move=self.base.next_player()))
            return g.settle(self.base, self.roll, move.field, ())
        assert isinstance(move, Play) and self.witch is not None and self._pending is not None
        play = Play(self._pending.chooser, move.code)
        return g.settle(self.base, self.roll, self.witch, (*self.plays, play))

    # -- notation ---------------------------------------------------------------------------
    def _extra_lines(self) -> list[str]:
        out = []
        if self.roll is not None:
            out.append(f"roll: {self.roll}")
        if self.witch is not None:
            out.append(f"turn: {turn_to_text(self.plan())}")
        return out

    def to_text(self) -> str:
        extra = self._extra_lines()
        return position_to_text(self.base, self.edition) + "".join(x + "\n" for x in extra)

    def to_json(self) -> dict[str, Any]:
        data = position_to_json(self.base, self.edition)
        if self.roll is not None:
            data["roll"] = self.roll
        if self.witch is not None:
            data["turn"] = turn_to_json(self.plan())
        return data

    def status(self) -> str:
        """Where the turn stands, in words: the one sentence ``show``, ``repr``, the CLI's messages and the
        picture (``render.position_svg``) all say; in a chain, the roll, the witch, the chain so far and
        the cards played (the picture has no ``roll:``/``turn:`` lines to say them)."""
        ph, to_move = self.phase, self.base.to_move
        if ph == "over":
            return f"the race is over: {self.result()}"
        if ph == "roll":
            return f"{to_move} rolls the die"
        if ph == "witch":
            return f"{to_move} rolled {self.roll} and chooses a witch"
        pend = self._pending
        assert pend is not None
        plays = ", played " + " ".join(str(p) for p in self.plays) if self.plays else ""
        return (f"{to_move} rolled {self.roll}, witch from {'start' if self.witch == 0 else self.witch}: "
                f"chain {' -> '.join(map(str, pend.chain))}{plays}; {pend.chooser} decides on tile {pend.state.at}"
                + (" (must play a card)" if pend.node.forced else ""))

    # -- pictures ---------------------------------------------------------------------------
    def svg(self, marks: Any = None) -> str:
        """The position as an SVG picture (``render.position_svg``), ``marks`` (an answer) drawn on it."""
        from gnomekit.models.hexen_rennen.render import position_svg

        return position_svg(self, marks)

    def move_cells(self, move: Any) -> tuple[Hashable, ...]:
        """A witch's field and the die's target; a decision's tile and the card's target (fields)."""
        from gnomekit.models.hexen_rennen.render import move_cells

        return move_cells(self, self.parse_move(move) if isinstance(move, str) else move)

    def board(self) -> str:
        """The board drawing ``show`` prints, the turn so far, and where it stands (reads back with ``read``)."""
        return board_text(self.base, self.edition) + "".join("\n" + x for x in self._extra_lines()) + \
            f"\n# {self.status()}"

    def __repr__(self) -> str:
        return f"<{NAME} position\n{self.board()}\n>"


# -------------------------------------------------------------------------------------------------
# The game


_EXTRA = re.compile(r"^(\s*)(roll|turn)\s*:\s*(.*?)\s*$")


class HexenGame(Game):
    """Hexen Rennen with one edition and one reading of the rules (``rules``)."""

    name = NAME
    title = "Hexen Rennen"
    has_chance = True

    def __init__(self, edition: HexenEdition, rules: Rules | None = None) -> None:
        self._edition = edition
        self.rules = rules or Rules()
        self.min_players = edition.min_players
        self.max_players = edition.max_players

    @property
    def edition(self) -> HexenEdition:
        return self._edition

    def position(self, base: RacePosition) -> HexenPosition:
        """The protocol position of a race position before the roll (a chance node, or the end)."""
        return HexenPosition(self, base)

    def settle(self, base: RacePosition, roll: int, witch: int, plays: tuple[Play, ...]) -> HexenPosition:
        """The position after ``plays`` on ``witch``'s chain: waiting at a decision point, or the next turn."""
        pend, st, vs = walk(base, self._edition, self.rules, roll, witch, plays)
        if vs:
            raise ValueError("; ".join(v.message for v in vs))
        if pend is None:
            turn = Turn(base, self._edition, witch, self.rules)
            return HexenPosition(self, turn.final_position(st))
        return HexenPosition(self, base, roll, witch, plays, pend)

    # -- making positions -------------------------------------------------------------------
    def new(self, **options: Any) -> HexenPosition:
        """A game at setup: ``players`` (2-4 or the clans in turn order; default 4), ``seed``, ``split``.

        ``split`` maps a clan to its secret choice of stage tiles (``CLAN=S,2,3,4/S,5,6,7/S,8,9,10``
        strings are read too).
        """
        players = self._players(options.pop("players", self._edition.max_players))
        seed = int(options.pop("seed", 0))
        raw = options.pop("split", None) or {}
        self._no_more(options, "new")
        splits: dict[str, Split] = {}
        items = raw.items() if isinstance(raw, dict) else [parse_split(s, self._edition, "split") for s in raw]
        for c, sp in items:
            splits[c] = sp
        return self.position(new_position(self._edition, players, seed, splits))

    def random(self, seed: int = 0, **options: Any) -> HexenPosition:
        """The position after ``turns`` (default 12) random legal turns from ``new`` with ``players`` (default 4)."""
        players = self._players(options.pop("players", self._edition.max_players))
        turns = int(options.pop("turns", 12))
        self._no_more(options, "random")
        pos, _ = random_position(self._edition, seed, players, turns, self.rules)
        return self.position(pos)

    def _players(self, players: Any) -> int | tuple[str, ...]:
        ed = self._edition
        if isinstance(players, int) and not isinstance(players, bool):
            return players
        if isinstance(players, str):
            players = players.split(",")
        clans = tuple(players)
        for c in clans:
            if c not in ed.clan_ids:
                raise UsageError(f"unknown clan {c!r} among the players (clans: {', '.join(ed.clan_ids)})")
        if len(set(clans)) != len(clans) or not ed.min_players <= len(clans) <= ed.max_players:
            raise UsageError(f"players: {ed.min_players}..{ed.max_players} distinct clans, got {list(clans)}")
        return clans

    @staticmethod
    def _no_more(options: dict[str, Any], verb: str) -> None:
        if options:
            raise UsageError(f"{verb}: unknown option(s) {', '.join(sorted(options))}")

    # -- notation ---------------------------------------------------------------------------
    def parse_move(self, text: str, source: str = "<move>") -> Move:
        return parse_move(text, self._edition, source)

    def read(self, text: str, source: str = "<input>") -> HexenPosition:
        """A position from its text notation, its JSON, or the board drawing ``show`` prints.

        ``roll`` and ``turn`` (a line each, or JSON keys) give a turn in progress.
        """
        ed = self._edition
        if text.lstrip().startswith("{"):
            data, where = loads_with_positions(text, source)
            rd = JsonReader(where, source)
            roll_v: Any = None
            turn_v: Any = None
            if isinstance(data, dict):
                data = dict(data)
                roll_v = data.pop("roll", None)
                turn_v = data.pop("turn", None)
            base = position_from_json_data(data, where, source, ed)
            if roll_v is not None and (not isinstance(roll_v, int) or isinstance(roll_v, bool)):
                raise rd.err(("roll",), "a face of the die", roll_v)
            turn_txt = None if turn_v is None else json.dumps(turn_v)

            def err_at(key: str, msg: str, found: Any) -> NotationError:
                line, col = where.get((key,), (None, None))
                return NotationError(f"{key}: {msg}", source=source, line=line, column=col,
                                     text=None if found is None else str(found))

            return self._in_progress(base, roll_v, turn_txt, err_at)
        lines = text.splitlines()
        found: dict[str, tuple[str, int, int]] = {}
        kept = []
        for i, ln in enumerate(lines, start=1):
            m = _EXTRA.match(ln.split("#", 1)[0])
            if m:
                if m.group(2) in found:
                    raise NotationError(f"'{m.group(2)}' is given twice", source=source, line=i, column=1)
                found[m.group(2)] = (m.group(3), i, m.start(3) + 1)
                kept.append("")
            else:
                kept.append(ln)
        rest = "\n".join(kept) + "\n"
        base = board_from_text(rest, source, ed) if is_board(rest) else position_from_text(rest, source, ed)
        roll_t = found.get("roll")
        roll: int | None = None
        if roll_t is not None:
            roll = small_int(roll_t[0])
            if roll is None:
                raise NotationError("expected the die roll: a whole number", source=source, line=roll_t[1],
                                    column=roll_t[2], text=roll_t[0])
        turn_t = found.get("turn")

        def err_line(key: str, msg: str, found_text: Any) -> NotationError:
            at = found.get(key)
            return NotationError(msg, source=source, line=at[1] if at else None, column=at[2] if at else None,
                                 text=None if found_text is None else str(found_text))

        return self._in_progress(base, roll, None if turn_t is None else turn_t[0], err_line)

    def _in_progress(self, base: RacePosition, roll: Any, turn: str | None, err: Any) -> HexenPosition:
        """``base`` with the turn so far (``roll``, the ``turn`` text), every part checked by the rules."""
        ed = self._edition
        if roll is None:
            if turn is not None:
                raise err("turn", "a turn in progress needs the roll ('roll: R') first", turn)
            return self.position(base)
        if base.finished_clans(ed):
            raise err("roll", "the race is over: no more rolls", roll)
        if roll not in ed.die:
            raise err("roll", f"expected a face of the die ({', '.join(map(str, sorted(set(ed.die))))})", roll)
        if turn is None:
            return HexenPosition(self, base, roll)
        try:
            plan = parse_turn(turn, ed, "turn")
        except NotationError as exc:
            raise err("turn", f"expected the turn so far: {exc.message}", turn) from None
        if plan.witch is None:
            raise err("turn", "a pass ends the turn: give the position after it", turn)
        if plan.witch not in base.witches_of(base.to_move):
            raise err("turn", witch_violation(base, plan.witch).message, turn)
        target, why = Turn(base, ed, plan.witch, self.rules).die_violations(roll)
        if target is None:
            raise err("turn", "; ".join(v.message for v in why), turn)
        plays = tuple(Play(d.clan, d.code) for d in plan.decisions)
        pend, _, vs = walk(base, ed, self.rules, roll, plan.witch, plays)
        if vs:
            raise err("turn", "the turn so far is not legal: " + "; ".join(v.message for v in vs), turn)
        if pend is None:
            raise err("turn", "the turn so far has ended its chain: give the position after it", turn)
        # every decision names its clan (a decision written without one is the decider's)
        named: list[Play] = []
        for p in plays:
            pe, _, _ = walk(base, ed, self.rules, roll, plan.witch, tuple(named))
            assert pe is not None
            named.append(Play(pe.chooser, p.code))
        return HexenPosition(self, base, roll, plan.witch, tuple(named), pend)


def make_game(edition: HexenEdition | str | Path | None = None, rules: Rules | None = None) -> HexenGame:
    """Hexen Rennen with the default edition (None), an edition TOML file, or an edition object.

    ``rules`` picks readings of the rulebook (``Rules(strict_symbol_target=True)``).
    """
    if edition is None:
        ed = default_edition()
    elif isinstance(edition, HexenEdition):
        ed = edition
    elif isinstance(edition, str | Path):
        ed = load_edition(edition)
    else:
        raise GnomekitError(f"an edition is a TOML path or a Hexen Rennen edition, not {type(edition).__name__}")
    return HexenGame(ed, rules)
