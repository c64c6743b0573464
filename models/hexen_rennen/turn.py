"""The Hexen Rennen turn engine: the die move and the chain reaction it starts.

A turn is: roll, the mover's choice of witch, then one *step* per landing.  Each
step resolves the tile the witch landed on (turning it face up):

* finish field: the chain ends;
* own number N: move N forward if the target is empty (or a finish field within
  the board), else stay and end;
* another clan's number: end;
* own symbol: the mover stops or plays a card (number forward to an empty field,
  then resolve; symbol forward to the next face-up empty own symbol, then end);
* another playing clan's symbol: that clan stops or plays a card against the
  witch (number back to an empty tile not before tile 1, then resolve; symbol back
  to the previous face-up empty tile with its symbol, then end);
* a neutral clan's symbol: the top card of its deck is drawn and applied against
  the witch if legal, else discarded (an empty deck: nothing happens); then end
  unless a number card moved it.

A landing caused by a number card moving the witch *back* is *forced*: if it is
on a symbol tile of a playing clan, that clan must play a card when any card
play is legal.

Every reason a die move or a card play is illegal is a shared
:class:`~gnomekit.models.core.violation.Violation` with a rule id and the fields involved
(:data:`RULES` lists the ids); the plain reason strings are their messages.

The engine works on a small hashable :class:`ChainState` so that solvers can
memoise; :func:`expand` is the single source of truth for what may happen next.
Termination: every step either spends a card (hands and decks are finite and
never refilled) or moves the witch strictly forward along the finite field line
(a tile move), or ends the chain; see docs/rules/hexen-rennen.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from gnomekit.models.core.violation import Violation
from gnomekit.models.hexen_rennen.edition import STOP, SYMBOL, HexenEdition
from gnomekit.models.hexen_rennen.position import Position, Tile, card_name

#: The rule ids of the violations this engine reports, each with what it forbids.
RULES: dict[str, str] = {
    "die-face": "the roll is a face of the die",
    "must-move": "a turn passes only when no witch of the mover can move the roll",
    "own-witch": "the moving witch is one of the mover's witches",
    "finished-witch": "a witch on a finish field never moves again",
    "past-finish": "a move ends on a field, never beyond the last finish field",
    "occupied": "a track tile holds at most one witch (a move may not end on an occupied tile)",
    "before-first-tile": "a number card may not send a witch back before tile 1",
    "card-in-hand": "a clan plays only cards it holds",
    "symbol-target": "a symbol card needs a face-up, empty tile with its symbol in its direction",
    "forced-play": "a clan whose symbol a number card sent the witch back onto must play a legal card",
    "nothing-to-decide": "a decision needs a decision point (a symbol tile where the decider may play)",
    "decider": "the clan whose symbol the witch is on decides there",
    "turn-phase": "a turn is: roll, choose the witch, then the decisions along its chain",
    "game-over": "no move after a clan has all of its witches on the finish board",
}


@dataclass(frozen=True)
class Rules:
    """Readings of the rulebook that reasonable players differ on (see docs/rules/hexen-rennen.md)."""

    strict_symbol_target: bool = False

    def names(self) -> list[str]:
        return ["strict-symbol-target"] if self.strict_symbol_target else []


def choice_name(code: int) -> str:
    """``stop``, ``S`` or the number."""
    return "stop" if code == STOP else card_name(code)


@dataclass(frozen=True)
class ChainState:
    """The moving witch's field and everything a chain can change."""

    at: int
    forced: bool  # arrived here by a number card moving it back
    up: int  # bit t set: tile t is face up
    hands: tuple[tuple[int, ...], ...]  # per clan (edition order); neutral: deck, top first
    done: bool = False


@dataclass(frozen=True)
class Step:
    """What happened on one landing (for printing chains and replays)."""

    at: int
    tile: Tile | None  # None on a finish field
    revealed: bool  # the tile was face down until this landing
    kind: str  # finish, own-number, other-number, own-symbol, other-symbol, neutral-symbol
    chooser: str | None  # who decided (None when nothing was decided)
    choice: int | None  # STOP, SYMBOL or a number; for a neutral clan, the card drawn
    forced: bool  # the landing was forced (number card back onto a symbol)
    to: int | None  # where the witch went (None: it stayed and the chain ended)
    ends: bool
    note: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "at": self.at,
            "tile": None if self.tile is None else {"clan": self.tile.clan,
                                                    "value": "symbol" if self.tile.is_symbol else self.tile.value},
            "revealed": self.revealed,
            "kind": self.kind,
            "chooser": self.chooser,
            "choice": None if self.choice is None else ("stop" if self.choice == STOP else
                                                         ("symbol" if self.choice == SYMBOL else self.choice)),
            "forced": self.forced,
            "to": self.to,
            "ends": self.ends,
            "note": self.note,
        }


@dataclass(frozen=True)
class Option:
    code: int
    state: ChainState
    step: Step


@dataclass(frozen=True)
class Node:
    """The result of :func:`expand` on one state.

    kind ``end``: ``state`` is done.  ``auto``: exactly one way on (``options[0]``).
    ``choice``: ``chooser`` picks one of ``options`` (at least one card play among them).
    """

    kind: str
    chooser: int | None = None
    forced: bool = False
    options: tuple[Option, ...] = ()


class Turn:
    """The static context of one turn: who moves which witch from where, on which board."""

    def __init__(self, pos: Position, edition: HexenEdition, origin: int, rules: Rules | None = None) -> None:
        self.pos = pos
        self.edition = edition
        self.rules = rules or Rules()
        self.origin = origin
        self.L = edition.track_length
        self.last = edition.last_field
        self.clans = edition.clan_ids
        self.mover = self.clans.index(pos.to_move)
        self.playing = tuple(c in pos.players for c in self.clans)
        self.tclan = [-1] + [self.clans.index(t.clan) for t in pos.track]
        self.tval = [0] + [t.value for t in pos.track]
        occ = {p: c for c, ps in pos.witches for p in ps if 1 <= p <= self.L}
        if origin in occ:
            del occ[origin]
        self.occ: dict[int, str] = occ

    # --- states ---------------------------------------------------------------------------------

    def initial_hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.pos.hand(c) for c in self.clans)

    def initial_up(self) -> int:
        up = 0
        for i, t in enumerate(self.pos.track, start=1):
            if t.face_up:
                up |= 1 << i
        return up

    def die_target(self, roll: int) -> tuple[int | None, list[str]]:
        """Where the die moves the witch from ``origin``, or every reason it cannot move."""
        t, vs = self.die_violations(roll)
        return t, [v.message for v in vs]

    def die_violations(self, roll: int) -> tuple[int | None, list[Violation]]:
        """:meth:`die_target` with every reason as a :class:`Violation` (rule id, fields)."""
        o = self.origin
        if self.edition.is_finish(o):
            return None, [Violation("finished-witch", f"the witch on finish field {o} never moves again", [o])]
        if o == 0:
            f, k = 0, 0
            while k < roll:
                f += 1
                if f > self.last:
                    return None, [Violation("past-finish", f"a roll of {roll} from the start passes the last "
                                            f"finish field {self.last}", [o])]
                if f > self.L or f not in self.occ:
                    k += 1
            return f, []
        q = o + roll
        if q > self.last:
            return None, [Violation("past-finish", f"a roll of {roll} from {o} would end on {q}, past the last "
                                    f"finish field {self.last}", [o])]
        if q in self.occ:
            return None, [Violation("occupied", f"a roll of {roll} from {o} ends on tile {q}, occupied by "
                                    f"{self.occ[q]}", [o, q])]
        return q, []

    def start(self, target: int) -> ChainState:
        return ChainState(target, False, self.initial_up(), self.initial_hands())

    # --- cards ------------------------------------------------------------------------------------

    def symbol_target(self, at: int, clan: int, forward: bool, up: int) -> tuple[int | None, str]:
        """The field a symbol card of ``clan`` sends the witch to, or why there is none."""
        t, v = self.symbol_violation(at, clan, forward, up)
        return t, "" if v is None else v.message

    def symbol_violation(self, at: int, clan: int, forward: bool, up: int) -> tuple[int | None, Violation | None]:
        """:meth:`symbol_target` with the reason as a :class:`Violation` (the fields involved)."""
        rng = range(at + 1, self.L + 1) if forward else range(at - 1, 0, -1)
        name = self.clans[clan]
        for t in rng:
            if self.tclan[t] == clan and self.tval[t] == SYMBOL and up >> t & 1:
                if t in self.occ:
                    if self.rules.strict_symbol_target:
                        return None, Violation(
                            "symbol-target", f"the nearest face-up {name} symbol tile "
                            f"{'ahead' if forward else 'behind'}, {t}, is occupied by {self.occ[t]} "
                            "(strict-symbol-target)", [at, t])
                    continue
                return t, None
        return None, Violation("symbol-target", f"no face-up, empty {name} symbol tile "
                               f"{'ahead of' if forward else 'behind'} {at}", [at])

    def card_move(self, st: ChainState, up: int, chooser: int, code: int, forward: bool,
                  check_hand: bool = True) -> tuple[int | None, list[str]]:
        """Target of playing card ``code`` (a number or SYMBOL), or every reason it is illegal."""
        t, vs = self.card_violations(st, up, chooser, code, forward, check_hand)
        return t, [v.message for v in vs]

    def card_violations(self, st: ChainState, up: int, chooser: int, code: int, forward: bool,
                        check_hand: bool = True) -> tuple[int | None, list[Violation]]:
        """:meth:`card_move` with every reason as a :class:`Violation` (rule id, fields)."""
        out: list[Violation] = []
        name = self.clans[chooser]
        at = st.at
        if check_hand and code not in st.hands[chooser]:
            out.append(Violation("card-in-hand", f"{name} holds no {card_name(code)} card", [at]))
        if code == SYMBOL:
            t, why = self.symbol_violation(at, chooser, forward, up)
            if why is not None:
                out.append(why)
            return (t if not out else None), out
        q = at + code if forward else at - code
        if forward and q > self.last:
            out.append(Violation("past-finish", f"{at}+{code} = {q} is past the last finish field {self.last}",
                                 [at]))
        if not forward and q < 1:
            out.append(Violation("before-first-tile", f"{at}-{code} = {q} is before tile 1", [at]))
        if 1 <= q <= self.L and q in self.occ:
            out.append(Violation("occupied", f"tile {q} is occupied by {self.occ[q]}", [at, q]))
        return (q if not out else None), out

    def legal_cards(self, st: ChainState, up: int, chooser: int, forward: bool) -> list[tuple[int, int]]:
        """(card, target) for every distinct card the chooser may legally play here."""
        out = []
        for code in sorted(set(st.hands[chooser])):
            t, _ = self.card_move(st, up, chooser, code, forward)
            if t is not None:
                out.append((code, t))
        return out

    def _without(self, hands: tuple[tuple[int, ...], ...], clan: int, code: int) -> tuple[tuple[int, ...], ...]:
        h = list(hands[clan])
        h.remove(code)
        return hands[:clan] + (tuple(h),) + hands[clan + 1:]

    # --- one step ---------------------------------------------------------------------------------

    def expand(self, st: ChainState) -> Node:
        """What may happen at the landing ``st`` (see the module docstring)."""
        if st.done:
            return Node("end")
        at = st.at
        if at > self.L:
            step = Step(at, None, False, "finish", None, None, False, None, True)
            return Node("auto", options=(Option(STOP, replace(st, done=True), step),))
        revealed = not (st.up >> at & 1)
        up = st.up | (1 << at)
        clan, val = self.tclan[at], self.tval[at]
        tile = Tile(self.clans[clan], val, True)
        here_done = ChainState(at, st.forced, up, st.hands, True)
        if val != SYMBOL:
            if clan != self.mover:
                step = Step(at, tile, revealed, "other-number", None, None, st.forced, None, True)
                return Node("auto", options=(Option(STOP, here_done, step),))
            q = at + val
            if q > self.last or q in self.occ:
                why = (f"{at}+{val} = {q} is past field {self.last}" if q > self.last
                       else f"tile {q} is occupied by {self.occ[q]}")
                step = Step(at, tile, revealed, "own-number", None, None, st.forced, None, True, why + ": stays")
                return Node("auto", options=(Option(STOP, here_done, step),))
            step = Step(at, tile, revealed, "own-number", None, None, st.forced, q, False)
            return Node("auto", options=(Option(STOP, ChainState(q, False, up, st.hands), step),))
        if clan != self.mover and not self.playing[clan]:
            return self._neutral(st, up, clan, tile, revealed)
        own = clan == self.mover
        kind = "own-symbol" if own else "other-symbol"
        name = self.clans[clan]
        opts: list[Option] = []
        for code, t in self.legal_cards(st, up, clan, forward=own):
            hands = self._without(st.hands, clan, code)
            if code == SYMBOL:
                nxt = ChainState(t, False, up, hands, True)
            else:
                nxt = ChainState(t, not own, up, hands)
            opts.append(Option(code, nxt, Step(at, tile, revealed, kind, name, code, st.forced, t, code == SYMBOL)))
        stop = Option(STOP, here_done, Step(at, tile, revealed, kind, name, STOP, st.forced, None, True))
        if not opts:
            note = f"{name} has no legal card play"
            return Node("auto", options=(Option(STOP, here_done, replace(stop.step, chooser=None, choice=None,
                                                                            note=note)),))
        if st.forced:
            return Node("choice", chooser=clan, forced=True, options=tuple(opts))
        return Node("choice", chooser=clan, forced=False, options=(stop, *opts))

    def _neutral(self, st: ChainState, up: int, clan: int, tile: Tile, revealed: bool) -> Node:
        name = self.clans[clan]
        deck = st.hands[clan]
        here_done = ChainState(st.at, st.forced, up, st.hands, True)
        if not deck:
            step = Step(st.at, tile, revealed, "neutral-symbol", None, None, st.forced, None, True,
                        f"the neutral {name} deck is empty")
            return Node("auto", options=(Option(STOP, here_done, step),))
        card = deck[0]
        hands = st.hands[:clan] + (deck[1:],) + st.hands[clan + 1:]
        t, reasons = self.card_move(st, up, clan, card, forward=False, check_hand=False)
        if t is None:
            step = Step(st.at, tile, revealed, "neutral-symbol", name, card, st.forced, None, True,
                        f"drew {card_name(card)}, not playable ({'; '.join(reasons)}): discarded")
            return Node("auto", options=(Option(STOP, replace(here_done, hands=hands), step),))
        step = Step(st.at, tile, revealed, "neutral-symbol", name, card, st.forced, t, card == SYMBOL,
                    f"drew {card_name(card)}")
        nxt = ChainState(t, False, up, hands, True) if card == SYMBOL else ChainState(t, True, up, hands)
        return Node("auto", options=(Option(STOP, nxt, step),))

    # --- the end ----------------------------------------------------------------------------------

    def final_position(self, st: ChainState) -> Position:
        """The position after the turn (witch moved, tiles turned, cards spent, next clan to move)."""
        pos = self.pos
        track = tuple(replace(t, face_up=bool(st.up >> i & 1)) if bool(st.up >> i & 1) != t.face_up else t
                      for i, t in enumerate(pos.track, start=1))
        moved = pos.with_witch_moved(pos.to_move, self.origin, st.at)
        hands = tuple((c, h) for c, h in zip(self.clans, st.hands, strict=True))
        return replace(moved, track=track, hands=hands, to_move=pos.next_player())


# -------------------------------------------------------------------------------------------------
# Whole turns: the choice of witch and the decisions along the chain


@dataclass(frozen=True)
class Decision:
    """One decision on a chain: ``clan`` (None: whoever decides there) plays ``code``."""

    clan: str | None
    code: int
    column: int = field(default=0, compare=False)  # where it stood in the turn text (for messages)


@dataclass(frozen=True)
class TurnPlan:
    """A turn as written: the witch (its field before the roll; None = pass) and the decisions."""

    witch: int | None
    decisions: tuple[Decision, ...] = ()


@dataclass
class TurnReport:
    """What replaying a turn gave: legal or not (first illegal decision and every reason), the chain."""

    legal: bool
    roll: int
    witch: int | None
    chain: list[int] = field(default_factory=list)  # fields visited, the origin first
    steps: list[Step] = field(default_factory=list)
    error_at: str | None = None  # "roll", "witch" or "decision N" (1-based) or "end"
    reasons: list[str] = field(default_factory=list)  # the messages of ``violations``
    violations: list[Violation] = field(default_factory=list)  # every reason, with its rule id and fields
    final: Position | None = None
    state: ChainState | None = None
    rules: Rules = field(default_factory=Rules)


def movable_witches(pos: Position, edition: HexenEdition, roll: int,
                    rules: Rules | None = None) -> list[tuple[int, int | None, list[str]]]:
    """(origin, die target or None, reasons) for each distinct field of the mover's witches."""
    out = []
    for o in sorted(set(pos.witches_of(pos.to_move))):
        t, why = Turn(pos, edition, o, rules).die_target(roll)
        out.append((o, t, why))
    return out


def _fail(rep: TurnReport, where: str, violations: list[Violation]) -> TurnReport:
    """Mark ``rep`` illegal at ``where`` with every violation (the reasons are their messages)."""
    rep.error_at = where
    rep.violations = list(violations)
    rep.reasons = [v.message for v in violations]
    return rep


def replay(pos: Position, edition: HexenEdition, roll: int, plan: TurnPlan,
           rules: Rules | None = None) -> TurnReport:
    """Replay a written turn; stop at the first illegal decision and give every reason."""
    rules = rules or Rules()
    rep = TurnReport(legal=False, roll=roll, witch=plan.witch, rules=rules)
    over = game_over_violation(pos, edition)
    if over is not None:  # a finished race has no more turns, whatever the roll and the turn
        return _fail(rep, "roll", [over])
    if roll not in edition.die:
        return _fail(rep, "roll", [Violation("die-face", f"the die has no face {roll} (faces {list(edition.die)})")])
    wits = movable_witches(pos, edition, roll, rules)
    can = [o for o, t, _ in wits if t is not None]
    if plan.witch is None:
        if can:
            return _fail(rep, "witch", [pass_violation(can)])
        if plan.decisions:
            return _fail(rep, "decision 1", [Violation("nothing-to-decide",
                                                       "no witch moves, so nobody decides anything")])
        rep.legal, rep.final = True, replace(pos, to_move=pos.next_player())
        return rep
    if plan.witch not in pos.witches_of(pos.to_move):
        return _fail(rep, "witch", [witch_violation(pos, plan.witch)])
    turn = Turn(pos, edition, plan.witch, rules)
    target, why_v = turn.die_violations(roll)
    if target is None:
        return _fail(rep, "witch", why_v)
    st = turn.start(target)
    rep.chain = [plan.witch, target]
    queue = list(plan.decisions)
    k = 0
    while True:
        node = turn.expand(st)
        if node.kind == "end":
            break
        if node.kind == "auto":
            opt = node.options[0]
            # a symbol point where the clan has no legal card: an explicit decision for that clan is
            # consumed here ("stop" is fine, a card play is illegal with its reasons)
            if (queue and opt.step.chooser is None and opt.step.kind in ("own-symbol", "other-symbol")
                    and opt.step.tile is not None and queue[0].clan in (None, opt.step.tile.clan)):
                d = queue.pop(0)
                k += 1
                if d.code != STOP:
                    chooser = edition.clan_ids.index(opt.step.tile.clan)
                    up = st.up | (1 << st.at)
                    _, vs = turn.card_violations(st, up, chooser, d.code, forward=chooser == turn.mover)
                    _fail(rep, f"decision {k}", vs or [Violation(
                        "card-in-hand", f"{opt.step.tile.clan} cannot play {choice_name(d.code)} here", [st.at])])
                    rep.steps.append(_pending(opt.step, opt.step.tile.clan))
                    rep.state = st
                    return rep
        else:
            assert node.chooser is not None
            who = edition.clan_ids[node.chooser]
            legal = {o.code: o for o in node.options}
            if queue and (queue[0].clan is None or queue[0].clan == who):
                d = queue.pop(0)
                k += 1
                if d.code in legal:
                    opt = legal[d.code]
                else:
                    _fail(rep, f"decision {k}", decision_violations(turn, st, node, d.code, who))
                    rep.steps.append(_pending(node.options[0].step, who))
                    rep.state = st
                    return rep
            elif STOP in legal:
                opt = legal[STOP]
            else:
                plays = ", ".join(choice_name(o.code) for o in node.options)
                _fail(rep, f"decision {k + 1}", [Violation(
                    "forced-play", f"forced play: a number card sent the witch back onto {who}'s symbol on tile "
                    f"{st.at}, so {who} must play one of: {plays}"
                    + (f" (the next decision names {queue[0].clan})" if queue else ""), [st.at])])
                rep.steps.append(_pending(node.options[0].step, who))
                rep.state = st
                return rep
        rep.steps.append(opt.step)
        st = opt.state
        if opt.step.to is not None:
            rep.chain.append(opt.step.to)
    if queue:
        d = queue[0]
        _fail(rep, f"decision {k + 1}", [Violation(
            "nothing-to-decide", f"the chain has ended on field {st.at}; decision {k + 1} "
            f"({(d.clan + ':') if d.clan else ''}{choice_name(d.code)}) has nothing to decide", [st.at])])
        rep.state = st
        return rep
    rep.legal = True
    rep.state = st
    rep.final = turn.final_position(st)
    return rep


def _pending(step: Step, who: str) -> Step:
    """The landing where an illegal decision was written (the decision itself not taken)."""
    return replace(step, chooser=who, choice=None, to=None, ends=True, note="the written decision is illegal")


def game_over_violation(pos: Position, edition: HexenEdition) -> Violation | None:
    """Why no move is legal once a clan has all of its witches on the finish board (None: the race goes on).

    The one sentence every layer says: the protocol's ``check``, ``replay`` and the CLI's answers.
    """
    won = pos.finished_clans(edition)
    if not won:
        return None
    return Violation("game-over", f"the race is over: {', '.join(won)} has every witch on the finish board")


def pass_violation(can: list[int]) -> Violation:
    """A pass written while the witches on ``can`` may move."""
    return Violation("must-move", f"a witch can move (from {', '.join(map(str, can))}): the turn may not pass", can)


def witch_violation(pos: Position, witch: int) -> Violation:
    """The mover has no witch on field ``witch``."""
    return Violation("own-witch", f"{pos.to_move} has no witch on field {witch} (witches on "
                     f"{', '.join(map(str, pos.witches_of(pos.to_move))) or 'none'})", [witch])


def decision_violations(turn: Turn, st: ChainState, node: Node, code: int, who: str) -> list[Violation]:
    """Every reason playing ``code`` (a card or STOP) is illegal at a choice node."""
    chooser = node.chooser
    assert chooser is not None
    if code == STOP:
        plays = ", ".join(choice_name(o.code) for o in node.options)
        return [Violation("forced-play", f"forced play: a number card sent the witch back onto {who}'s symbol on "
                          f"tile {st.at}, so {who} must play a card while one is legal ({plays})", [st.at])]
    up = st.up | (1 << st.at)
    _, vs = turn.card_violations(st, up, chooser, code, forward=chooser == turn.mover)
    return vs or [Violation("card-in-hand", f"{who} cannot play {choice_name(code)} here", [st.at])]


def turn_plan_of(steps: list[Step]) -> list[Decision]:
    """The decisions of a chain (only the points where someone had a real choice)."""
    return [Decision(s.chooser, s.choice) for s in steps
            if s.chooser is not None and s.choice is not None and s.kind in ("own-symbol", "other-symbol")]


Decide = Callable[[Turn, ChainState, Node], Option]


@dataclass
class Played:
    """A turn driven to its end by a decision function: the plan, the chain and the result."""

    plan: TurnPlan
    roll: int
    chain: list[int]
    steps: list[Step]
    state: ChainState | None
    final: Position


def drive(pos: Position, edition: HexenEdition, roll: int, witch: int | None, decide: Decide,
          rules: Rules | None = None) -> Played:
    """Play one turn: the given witch (None: pass), ``decide`` picks at every choice node."""
    if witch is None:
        return Played(TurnPlan(None), roll, [], [], None, replace(pos, to_move=pos.next_player()))
    turn = Turn(pos, edition, witch, rules)
    target, why = turn.die_target(roll)
    if target is None:
        raise ValueError(f"witch {witch} cannot move {roll}: {why}")
    st = turn.start(target)
    chain = [witch, target]
    steps: list[Step] = []
    while True:
        node = turn.expand(st)
        if node.kind == "end":
            break
        opt = node.options[0] if node.kind == "auto" else decide(turn, st, node)
        steps.append(opt.step)
        st = opt.state
        if opt.step.to is not None:
            chain.append(opt.step.to)
    plan = TurnPlan(witch, tuple(turn_plan_of(steps)))
    return Played(plan, roll, chain, steps, st, turn.final_position(st))
