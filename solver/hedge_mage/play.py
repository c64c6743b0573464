"""Whole Hedge Mage games: setup, rounds of building and running, end of game, final scoring.

``play_game`` plays a game for 2-4 players with a policy (``random``, ``greedy``,
``solver``) and returns a replayable record (docs/formats-hedge-mage-game.md);
``replay`` re-plays a record through the same rules engine, checking every
placement (models/hedge_mage/placement.py) and every running plan
(models/hedge_mage/running.py ``execute_plan``), and re-derives the scores.

Decisions where the rulebook is silent (docs/rules/hedge-mage-running.md, "Whole games"):

* Seats: players 1..N; the rival of player p (the garden p runs in, "the board on
  your right") is player p+1, and player N's rival is player 1.  So the invader
  of garden p is player p-1.
* Simultaneous phases: every player builds only in their own garden and runs only
  in their rival's, each garden has exactly one invader, and each player's tokens
  are their own - so the phases commute.  The engine resolves them in seat order
  (all players build, then all players run), which gives the same game as any
  other order.
* Setup: one shared hedge deck (every player places the tile of the revealed
  card), one random enchantment card per gnome kind unless chosen, gnomes shuffled
  onto each garden's shaded spaces, one favourite card per player.
* A sleeping gnome whose condition comes to hold through building (a hedge placed
  next to it) wakes when the invader's running phase starts; an awake gnome then
  carried onto a tunnel is rescued for the invader.
* Between rounds a mage keeps the gnome it carries; awake gnomes stay awake.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.enchantments import Cond, scope_cells
from gnomekit.models.hedge_mage.notation import parse_placement, placement_to_text
from gnomekit.models.hedge_mage.placement import (
    Board,
    Placement,
    apply_placement,
    check_placement,
    legal_placements,
    movement_points,
    with_held_tokens,
)
from gnomekit.models.hedge_mage.position import Garden, Gnome, Mage
from gnomekit.models.hedge_mage.running import (
    ORTH,
    Action,
    Event,
    Illegal,
    PlanReport,
    RGnome,
    RunPosition,
    apply_action,
    board_of,
    execute_plan,
    running_score,
    settle_position,
)
from gnomekit.models.hedge_mage.running_notation import action_to_text, parse_action
from gnomekit.models.hedge_mage.scoring import ScoreBreakdown, final_score, winners
from gnomekit.models.hedge_mage.setup import deal_deck, tunnels_for
from gnomekit.solver.core.batch import Backend, BatchError, Progress, run_batch
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.best import best_points, hint, tile_options
from gnomekit.solver.hedge_mage.running import merge_plan, solve_run, successors

POLICIES = ("random", "greedy", "solver")
RECORD_VERSION = 1
DEFAULT_MAX_STATES = 500


# ---------------------------------------------------------------------------------------------
# Setup


@dataclass(frozen=True)
class GameSetup:
    """Everything chance decides at setup: the cards, the deck, the gnomes of each garden."""

    players: int
    enchantments: tuple[str, ...]
    deck: tuple[str, ...]  # the dealt hedge cards, top first
    favourites: tuple[str | None, ...]  # per player
    gardens: tuple[tuple[Gnome, ...], ...]  # per player: the gnomes of their own garden


def check_players(players: int) -> None:
    if not 2 <= players <= 4:
        raise UsageError("expected 2 to 4 players", text=str(players))


def random_enchantments(ed: HedgeMageEdition, rng: random.Random) -> tuple[str, ...]:
    """One random card per gnome kind (setup step 2), in the edition's kind order."""
    out = []
    for kind in ed.gnome_kinds:
        cards = [e.id for e in ed.enchantments if e.kind == kind]
        if cards:
            out.append(cards[rng.randrange(len(cards))])
    return tuple(out)


def setup_game(ed: HedgeMageEdition, players: int, seed: int,
               enchantments: tuple[str, ...] | None = None) -> GameSetup:
    """Deal a game: cards, deck, gnomes per garden and favourites, all from ``seed``."""
    check_players(players)
    rng = random.Random(f"hedge-mage/play/{seed}")
    enchs = enchantments if enchantments is not None else random_enchantments(ed, rng)
    tunnels = tunnels_for(ed, enchs)
    spaces = [c for c in ed.numbered + ed.shaded if c not in tunnels]
    deck = tuple(deal_deck(ed, rng))
    gardens = []
    for _ in range(players):
        kinds = [k for k in ed.gnome_kinds for _ in range(ed.gnomes_per_kind)]
        rng.shuffle(kinds)
        gardens.append(tuple(Gnome(k, c) for k, c in zip(kinds, spaces, strict=False)))
    favs: list[str | None] = [f.id for f in ed.running.favourites]
    rng.shuffle(favs)
    favs += [None] * max(0, players - len(favs))
    return GameSetup(players, tuple(enchs), deck, tuple(favs[:players]), tuple(gardens))


# ---------------------------------------------------------------------------------------------
# The game engine


@dataclass
class PlayerState:
    tokens: int
    springshroom_tokens: int
    rescued: dict[str, int] = field(default_factory=dict)


@dataclass
class Gap:
    """A rules gap met during a game (what the audit counts)."""

    what: str  # no-legal-placement, dead-round, boxed-in, no-allowance, never-wakes
    round: int
    player: int  # 0-based: the builder, the runner, or (never-wakes) the garden's owner
    detail: str

    def to_json(self) -> dict[str, object]:
        return {"gap": self.what, "round": self.round, "player": self.player + 1, "detail": self.detail}


class RecordError(Exception):
    """A record that breaks the rules or disagrees with itself, at a JSON path."""

    def __init__(self, path: tuple[Any, ...], message: str, rules: bool = False) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.rules = rules  # True: a well-formed record whose play breaks a rule or disagrees with itself


class Game:
    """The state of a whole game; ``build`` and ``run`` check and apply one player's phase."""

    def __init__(self, ed: HedgeMageEdition, setup: GameSetup) -> None:
        self.ed = ed
        self.setup = setup
        self.n = setup.players
        tunnels = tunnels_for(ed, setup.enchantments)
        self.gardens: list[Garden] = []
        self.runs: list[RunPosition] = []
        for gn in setup.gardens:
            g = Garden(rows=ed.rows, cols=ed.cols, tunnels=tunnels, gnomes=gn,
                       mages=tuple(Mage(t) for t in tunnels[: ed.mages]), remaining_tiles=tuple(ed.tiles),
                       edition=ed.name)
            self.gardens.append(g)
            self.runs.append(RunPosition(board=board_of(g), enchantments=setup.enchantments,
                                         mages=tuple(m.at for m in g.mages),
                                         gnomes=tuple(RGnome(x.at, x.kind) for x in gn), points=0))
        self.players = [PlayerState(ed.start_movement_tokens, ed.start_springshrooms) for _ in range(self.n)]
        self.start_gnomes = [len(gn) for gn in setup.gardens]
        self.round = 0
        self.gaps: list[Gap] = []
        self.points: list[int] = [0] * self.n

    def rival(self, p: int) -> int:
        """The garden player ``p`` runs in (the player on their right)."""
        return (p + 1) % self.n

    # -- building ------------------------------------------------------------------------------
    def garden_now(self, p: int) -> Garden:
        """Player p's garden with the characters as they stand and this round's card revealed."""
        pos = self.runs[p]
        card = self.setup.deck[self.round - 1]
        return replace(self.gardens[p], gnomes=tuple(Gnome(g.kind, g.at, g.awake) for g in pos.gnomes),
                       mages=tuple(Mage(m) for m in pos.mages), springshrooms=pos.springshrooms,
                       tile=card, round=self.round)

    def options(self, p: int) -> list[tuple[str, bool, list[Placement]]]:
        """The tiles p may place (regular first, then the substitute) with their legal placements."""
        g = self.garden_now(p)
        board = Board(g)
        return [(o.tile, o.substitution, legal_placements(g, self.ed.tiles[o.tile], board).placements)
                for o in tile_options(g, self.ed)]

    def begin_round(self) -> None:
        self.round += 1
        self.points = [0] * self.n

    def build(self, p: int, placement: Placement | None) -> tuple[int, bool]:
        """Place (or, when nothing fits, skip) player p's tile; returns (movement points, substitution?)."""
        g = self.garden_now(p)
        opts = self.options(p)
        if not opts[0][2]:
            saved = any(sub and ps for _t, sub, ps in opts[1:])
            self.gaps.append(Gap("no-legal-placement", self.round, p,
                                 f"{opts[0][0]} has no legal placement" +
                                 (" (the 2x1 substitution could be placed)" if saved else "")))
        if placement is None:
            fits = [t for t, _s, ps in opts if ps]
            if fits:
                raise RecordError(("placement",), f"no tile placed, but {' and '.join(fits)} has a legal placement",
                                  True)
            self.gaps.append(Gap("dead-round", self.round, p, "nothing placed: no legal placement, 0 movement "
                                                              "points from building"))
            self.gardens[p] = replace(self.gardens[p], round=self.round)
            return 0, False
        rep = check_placement(g, self.ed, placement)
        if not rep.legal:
            raise RecordError(("placement",), "illegal placement: " + "; ".join(
                f"[{v.rule}] {v.message}" for v in rep.violations), True)
        need = min(g.held_bonus_sigils, self.ed.tiles[placement.tile].size - 1)
        if len(placement.tokens) != need:
            raise RecordError(("tokens",), f"{need} held bonus sigil token(s) must go on the tile, "
                                           f"{len(placement.tokens)} placed", True)
        pts, _ = movement_points(g, placement)
        self.gardens[p] = apply_placement(g, self.ed, placement)
        pos = self.runs[p]
        self.runs[p] = replace(pos, board=board_of(self.gardens[p]))
        self.points[p] = pts
        return pts, rep.substitution

    # -- running -------------------------------------------------------------------------------
    def run_start(self, p: int) -> tuple[RunPosition, list[Event]]:
        """The settled running position of player p in the rival's garden at the start of the phase."""
        r = self.rival(p)
        st = self.players[p]
        pos = self.runs[r]
        pos = replace(pos, board=board_of(self.gardens[r]), points=self.points[p], spent=0, tokens=st.tokens,
                      springshroom_tokens=st.springshroom_tokens, sigil_tokens=0,
                      mage_used=(0,) * len(pos.mages), gnomes=tuple(replace(g, moved=None) for g in pos.gnomes),
                      rescued=tuple(st.rescued.items()), round=self.round, transit=None, rescued_movers=())
        return settle_position(pos, self.ed)

    def run(self, p: int, start: RunPosition, plan: list[Action]) -> PlanReport:
        """Execute p's plan from ``start`` (see run_start); commit when legal."""
        rep = execute_plan(start, self.ed, plan)
        if rep.legal:
            fin = rep.final
            st = self.players[p]
            st.tokens, st.springshroom_tokens = fin.tokens, fin.springshroom_tokens
            st.rescued = dict(fin.rescued)
            self.gardens[p] = replace(self.gardens[p],
                                      held_bonus_sigils=self.gardens[p].held_bonus_sigils + fin.sigil_tokens)
            self.runs[self.rival(p)] = replace(fin, spent=0, mage_used=(0,) * len(fin.mages), transit=None)
        return rep

    def note_run_gaps(self, p: int, pos: RunPosition) -> None:
        """Characters of the runner that cannot step at all (boxed in) or not this round (no allowance)."""
        big = replace(pos, points=pos.points + 99)
        moved = {g.kind for g in pos.gnomes if g.moved is not None}
        chars: list[tuple[str, Cell | None, Cell]] = [(f"M{i + 1}", None, m) for i, m in enumerate(pos.mages)]
        chars += [(g.kind, g.at, g.at) for g in pos.gnomes
                  if g.awake and g.carried_by is None and g.kind not in moved]
        for who, at, cell in chars:
            name = f"mage {who[1:]}" if at is None else f"awake {who} gnome"
            if not _can_step(big, self.ed, who, at, cell):
                self.gaps.append(Gap("boxed-in", self.round, p, f"{name} at {cell[0]},{cell[1]} has no legal step "
                                                                "even with unlimited movement points"))
            elif pos.allowance + pos.tokens == 0:
                self.gaps.append(Gap("no-allowance", self.round, p, f"{name} at {cell[0]},{cell[1]} cannot move: "
                                                                    "0 movement points and no movement token"))

    def unwakeable(self, garden: int, runner: int) -> list[str]:
        """Kinds with sleeping gnomes in ``garden`` whose card can hold on no space this round (see can_wake)."""
        pos = self.runs[garden]
        st = self.players[runner]
        kinds = sorted({g.kind for g in pos.gnomes if not g.awake})
        out = []
        for k in kinds:
            e = next((e for e in self.setup.enchantments if self.ed.enchantment(e).kind == k), None)
            cond = self.ed.running.conditions.get(e) if e else None
            if cond is None or not can_wake(cond, pos, self.ed, k, st):
                out.append(k)
        return out

    # -- end -----------------------------------------------------------------------------------
    def over(self) -> str | None:
        """Why the game ends after this round (None: it goes on)."""
        for p in range(self.n):
            if sum(self.players[p].rescued.values()) >= self.start_gnomes[self.rival(p)] > 0 \
                    and self.ed.running.end_when_all_rescued:
                return f"player {p + 1} rescued every gnome from their rival's garden"
        limit = self.ed.running.max_rounds or len(self.setup.deck)
        if self.round >= min(limit, len(self.setup.deck)):
            return "all hedge cards were revealed"
        return None

    def scores(self) -> list[ScoreBreakdown]:
        out = []
        for p in range(self.n):
            own = [g.kind for g in self.runs[p].gnomes]
            awake = sum(1 for g in self.runs[self.rival(p)].gnomes if g.awake)
            out.append(final_score(self.ed.running, self.players[p].rescued, own, awake, self.setup.favourites[p],
                                   self.ed.gnomes_per_kind))
        return out


def _can_step(pos: RunPosition, ed: HedgeMageEdition, who: str, at: Cell | None, cell: Cell) -> bool:
    for dr, dc in ORTH:
        to = (cell[0] + dr, cell[1] + dc)
        if not (0 <= to[0] < pos.rows and 0 <= to[1] < pos.cols):
            continue
        try:
            apply_action(pos, ed, Action("step", who, at=at, path=(to,)), continues=True)
            return True
        except Illegal as exc:
            if {r for r, _ in exc.reasons} == {"bounce"}:
                return True  # a springshroom there: legal with its bounce written
    return False


# ---------------------------------------------------------------------------------------------
# Can a gnome kind wake at all?  Interval evaluation of a card, optimistic about everything movable.


def can_wake(cond: Cond, pos: RunPosition, ed: HedgeMageEdition, kind: str, runner: PlayerState) -> bool:
    """Whether some space (carried or not) could satisfy ``cond`` this round, by a sound over-approximation.

    Hedges, ground and tunnels are as on the board; mages (up to 2), other gnomes
    (any of them, awake or not) and springshrooms (those on the board plus as many
    as the runner holds or can still gain from the tracks) are assumed to stand
    wherever they help.  False means: no placement of the movable things makes the
    card hold anywhere, so no gnome of this kind can wake this round.
    """
    others = list(pos.gnomes)
    spare = runner.springshroom_tokens + sum(
        1 for k, spaces in ed.running.tracks.items() for i, s in enumerate(spaces)
        if s.bonus == "springshroom" and i >= runner.rescued.get(k, 0))
    for r in range(pos.rows):
        for c in range(pos.cols):
            for carried in (False, True):
                lo_hi = _eval(cond, pos, (r, c), carried, others, kind, spare)
                if lo_hi[0]:
                    return True
    return False


def _eval(cond: Cond, pos: RunPosition, cell: Cell, carried: bool, others: list[RGnome], kind: str,
          spare: int) -> tuple[bool, bool]:
    """(possible, necessary) of ``cond`` for a gnome on ``cell``."""
    op = cond.op
    if op in ("all", "any"):
        parts = [_eval(a, pos, cell, carried, others, kind, spare) for a in cond.args]
        if op == "all":
            return all(p for p, _ in parts), all(n for _, n in parts)
        return any(p for p, _ in parts), any(n for _, n in parts)
    if op == "not":
        poss, nec = _eval(cond.args[0], pos, cell, carried, others, kind, spare)
        return not nec, not poss
    if op == "on":
        v = (cell in pos.hedge) == (cond.value == "hedge")
        return v, v
    if op == "carried":
        v = carried == cond.value
        return v, v
    if op == "edge":
        v = (cell[0] in (0, pos.rows - 1) or cell[1] in (0, pos.cols - 1)) == cond.value
        return v, v
    scope = scope_cells(cond.scope, cell, pos.rows, pos.cols)
    w = cond.what
    if w in ("hedge", "ground", "tunnel"):
        n = sum(1 for x in scope if (x in pos.hedge if w == "hedge" else x not in pos.hedge if w == "ground"
                                     else x in pos.tunnel_set))
        lo = hi = n
    elif w == "springshroom":
        shrooms = set(pos.springshrooms)
        lo = sum(1 for x in scope if x in shrooms)
        free = sum(1 for x in scope if x not in shrooms and x not in pos.hedge and x not in pos.tunnel_set)
        hi = lo + min(free, spare)
    elif w == "mage":
        lo = 1 if carried and cond.scope == "same" else 0
        hi = min(len(pos.mages) - (1 if carried and cond.scope != "same" else 0), len(scope))
    else:
        match = [g for g in others if cond.kinds is None or g.kind in cond.kinds]
        lo, hi = 0, min(max(0, len(match) - (1 if kind in (cond.kinds or (kind,)) else 0)), len(scope))
    least = cond.at_least if cond.at_least is not None else 0
    most = cond.at_most if cond.at_most is not None else 10**9
    possible = hi >= least and lo <= most
    necessary = lo >= least and hi <= most
    return possible, necessary


# ---------------------------------------------------------------------------------------------
# Policies


def choose_placement(game: Game, p: int, policy: str, rng: random.Random) -> Placement | None:
    """The placement player p makes under ``policy`` (None: nothing fits)."""
    g = game.garden_now(p)
    if policy == "random":
        for _tile, _sub, ps in game.options(p):  # the regular tile; the substitute only to save a dead round
            if ps:
                return with_held_tokens(g, ps[rng.randrange(len(ps))])
        return None
    res = best_points(g, game.ed, method="enumerate") if policy == "greedy" else hint(g, game.ed)
    if res.status != Status.OPTIMAL:
        return None
    pl = res.witness.placement
    return with_held_tokens(g, pl) if pl is not None else None


def _progress(pos: RunPosition) -> int:
    """Greedy's tie-break: minus the Manhattan distances still to cover (to gnomes, or to a tunnel)."""
    tunnels = pos.board.tunnels

    def dist(a: Cell, cells: list[Cell] | tuple[Cell, ...]) -> int:
        return min((abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in cells), default=0)

    total = 0
    loose = [g.at for g in pos.gnomes if g.carried_by is None]
    for i, m in enumerate(pos.mages):
        c = pos.carried(i)
        if c is not None:
            total += dist(m, tunnels) if pos.gnomes[c].awake else 0
        else:
            total += dist(m, loose)
    total += sum(dist(g.at, tunnels) for g in pos.gnomes if g.awake and g.carried_by is None)
    return -total


def _walk(pos: RunPosition, ed: HedgeMageEdition, pick: Callable[[RunPosition, list[Any]], Any]) -> list[Action]:
    """Apply chosen successors until ``pick`` returns None; never stop with a character passing through."""
    cur = pos
    acts: list[Action] = []
    safe = (0, cur)
    while True:
        opts = list(successors(cur, ed))
        choice = pick(cur, opts) if opts else None
        if choice is None:
            if cur.transit is None:
                return acts
            return acts[: safe[0]]  # stuck while passing through: back to the last settled position
        a, nxt = choice[0], choice[1]
        acts += a
        cur = nxt
        if cur.transit is None:
            safe = (len(acts), cur)


def random_plan(pos: RunPosition, ed: HedgeMageEdition, rng: random.Random) -> list[Action]:
    """A random legal plan: at each point a uniform choice among the legal moves and stopping."""

    def pick(cur: RunPosition, opts: list[Any]) -> Any:
        k = rng.randrange(len(opts) + (1 if cur.transit is None else 0))
        return opts[k] if k < len(opts) else None

    return _walk(pos, ed, pick)


def greedy_plan(pos: RunPosition, ed: HedgeMageEdition) -> list[Action]:
    """One-step best: take the move that most improves (rescued, points, -tokens, progress) until none does."""

    def value(p: RunPosition, cost: int) -> tuple[int, int, int, int]:
        return (p.total_rescued(), running_score(p, ed), -cost, _progress(p))

    def pick(cur: RunPosition, opts: list[Any]) -> Any:
        best = max(opts, key=lambda o: value(o[1], o[2] + o[3]))
        if cur.transit is not None or value(best[1], best[2] + best[3]) > value(cur, 0):
            return best
        return None

    return _walk(pos, ed, pick)


@dataclass
class RunChoice:
    plan: list[Action]
    method: str  # random, greedy, solver, solver-restricted, solver-anytime, greedy-fallback
    note: str = ""


def choose_plan(pos: RunPosition, ed: HedgeMageEdition, policy: str, rng: random.Random,
                max_states: int) -> RunChoice:
    """Player's running plan under ``policy``; the solver falls back (said in ``method``/``note``)."""
    if policy == "random":
        return RunChoice(_merged(pos, ed, random_plan(pos, ed, rng)), "random")
    if policy == "greedy":
        return RunChoice(_merged(pos, ed, greedy_plan(pos, ed)), "greedy")
    res = solve_run(pos, ed, max_states=max_states)
    if res.status == Status.OPTIMAL:
        return _or_positioning(pos, ed, list(res.witness), "solver", f"optimal, {res.stats.get('states')} states")
    bare = replace(pos, tokens=0, springshroom_tokens=0)
    res2 = solve_run(bare, ed, max_states=max_states)
    if res2.status == Status.OPTIMAL and execute_plan(pos, ed, res2.witness).legal:
        return _or_positioning(pos, ed, list(res2.witness), "solver-restricted",
                               f"over {max_states} states: optimal without spending tokens or springshrooms")
    greedy = _merged(pos, ed, greedy_plan(pos, ed))
    # the searches' anytime answers (best plan found when the budget ran out), if better than greedy's
    best, best_gain = greedy, _gain(pos, ed, greedy)
    for r in (res, res2):
        got = _gain(pos, ed, list(r.witness)) if r.witness is not None else None
        if got is not None and (best_gain is None or _key(got) > _key(best_gain)):
            best, best_gain = list(r.witness), got
    if best is not greedy:
        return RunChoice(best, "solver-anytime", f"over {max_states} states: best plan found, not proven optimal")
    return RunChoice(greedy, "greedy-fallback", f"over {max_states} states: greedy plan")


def _key(gain: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """The solver's objective on a :func:`_gain`: rescued, points, fewest tokens + springshrooms."""
    return (gain[0], gain[1], -(gain[2] + gain[3]))


def _gain(pos: RunPosition, ed: HedgeMageEdition, plan: list[Action]) -> tuple[int, int, int, int] | None:
    rep = execute_plan(pos, ed, plan)
    if not rep.legal:
        return None
    f = rep.final
    return (f.total_rescued() - pos.total_rescued(), running_score(f, ed) - running_score(pos, ed),
            sum(1 for a in plan if a.kind == "token"),
            sum(1 for a in plan if a.kind == "shroom"))


def _or_positioning(pos: RunPosition, ed: HedgeMageEdition, plan: list[Action], method: str, note: str
                    ) -> RunChoice:
    """An optimal plan that gains nothing this round is replaced by greedy's approach moves of equal value.

    (The round's objective cannot see that walking towards the gnomes pays next round; greedy's plan
    spends no token or springshroom when it gains nothing, so it is optimal too.)
    """
    if _gain(pos, ed, plan) != (0, 0, 0, 0):
        return RunChoice(plan, method, note)
    g = _merged(pos, ed, greedy_plan(pos, ed))
    if g and _gain(pos, ed, g) == (0, 0, 0, 0):
        return RunChoice(g, method, note + "; nothing to gain this round: greedy's approach moves (same value)")
    return RunChoice(plan, method, note)


def _merged(pos: RunPosition, ed: HedgeMageEdition, units: list[Action]) -> list[Action]:
    """Consecutive steps of one character joined into path actions (the unit plan if that would change it)."""
    merged = merge_plan(units)
    rep = execute_plan(pos, ed, merged)
    return merged if rep.legal and rep.final.key() == execute_plan(pos, ed, units).final.key() else units


# ---------------------------------------------------------------------------------------------
# Playing and recording


@dataclass
class GameResult:
    """A finished game: its record (JSON-ready), the final scores and the gaps met."""

    record: dict[str, Any]
    scores: list[ScoreBreakdown]
    winners: list[int]  # 0-based
    decided: str
    end: str
    gaps: list[Gap]
    tokens: list[int]


def _setup_json(setup: GameSetup, ed: HedgeMageEdition) -> dict[str, Any]:
    return {
        "enchantments": list(setup.enchantments),
        "deck": list(setup.deck),
        "favourites": list(setup.favourites),
        "gardens": [{"player": i + 1, "gnomes": [{"kind": g.kind, "at": list(g.at)} for g in gn]}
                    for i, gn in enumerate(setup.gardens)],
    }


def _finish(game: Game, record: dict[str, Any], end: str) -> GameResult:
    sc = game.scores()
    totals = {str(p): s.total for p, s in enumerate(sc)}
    toks = {str(p): game.players[p].tokens for p in range(game.n)}
    win, decided = winners(totals, toks)
    record["result"] = {
        "end": end,
        "rounds": game.round,
        "scores": [{"player": p + 1, **s.to_json(), "movement_tokens": game.players[p].tokens,
                    "rescued": dict(sorted(game.players[p].rescued.items()))} for p, s in enumerate(sc)],
        "winners": [int(w) + 1 for w in win],
        "decided": decided,
        "final_gardens": [{"player": g + 1, "gnomes": [g2.to_json() for g2 in game.runs[g].gnomes]}
                          for g in range(game.n)],
    }
    return GameResult(record, sc, [int(w) for w in win], decided, end, game.gaps,
                      [game.players[p].tokens for p in range(game.n)])


def _round_gaps(game: Game) -> None:
    for g in range(game.n):
        runner = (g - 1) % game.n
        for k in game.unwakeable(g, runner):
            game.gaps.append(Gap("cannot-wake", game.round, g, f"no {k} gnome can wake in player {g + 1}'s "
                                                               "garden this round (no space can meet its card)"))


def play_game(ed: HedgeMageEdition, players: int, seed: int, policy: str = "random",
              enchantments: tuple[str, ...] | None = None, max_states: int = DEFAULT_MAX_STATES) -> GameResult:
    """Play one whole game under ``policy`` for every player."""
    if policy not in POLICIES:
        raise UsageError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}", text=policy)
    setup = setup_game(ed, players, seed, enchantments)
    game = Game(ed, setup)
    rng_build = random.Random(f"hedge-mage/play/{seed}/{policy}/build")  # two streams: a change in the running
    rng_run = random.Random(f"hedge-mage/play/{seed}/{policy}/run")  # engine leaves the placements alone
    record: dict[str, Any] = {"game": "hedge-mage", "phase": "game", "version": RECORD_VERSION,
                              "edition": ed.name, "players": players, "seed": seed, "policy": policy,
                              **_setup_json(setup, ed), "rounds": []}
    while True:
        game.begin_round()
        rnd: dict[str, Any] = {"round": game.round, "card": setup.deck[game.round - 1], "build": [], "run": []}
        for p in range(players):
            pl = choose_placement(game, p, policy, rng_build)
            pts, sub = game.build(p, pl)
            b: dict[str, Any] = {"player": p + 1, "placement": None if pl is None else placement_to_text(pl, ed)}
            if pl is not None and pl.tokens:
                b["tokens"] = [list(c) for c in pl.tokens]
            b["points"] = pts
            if sub:
                b["substitution"] = True
            rnd["build"].append(b)
        _round_gaps(game)
        for p in range(players):
            start, _ev = game.run_start(p)
            game.note_run_gaps(p, start)
            ch = choose_plan(start, ed, policy, rng_run, max_states)
            rep = game.run(p, start, ch.plan)
            if not rep.legal:  # a policy bug, not bad input
                raise RuntimeError(f"policy {ch.method} made an illegal plan in round {game.round}: {rep.reasons}")
            rescued = [e.kind for s in rep.steps for e in s.events if e.what == "rescue"]
            rescued = [e.kind for e in _ev if e.what == "rescue"] + rescued
            r: dict[str, Any] = {"player": p + 1, "garden": game.rival(p) + 1,
                                 "plan": [action_to_text(a, ed) for a in ch.plan], "method": ch.method,
                                 "rescued": rescued}
            if ch.note:
                r["note"] = ch.note
            rnd["run"].append(r)
        record["rounds"].append(rnd)
        end = game.over()
        if end:
            return _finish(game, record, end)


def _game_task(ed: HedgeMageEdition, players: int, policy: str, enchantments: tuple[str, ...] | None,
               max_states: int, seed: int) -> GameResult:
    """One game of ``play_games`` (top level, so a worker process or Ray can run it)."""
    return play_game(ed, players, seed, policy, enchantments, max_states)


def play_games(ed: HedgeMageEdition, players: int, seeds: Sequence[int], policy: str = "random",
               enchantments: tuple[str, ...] | None = None, max_states: int = DEFAULT_MAX_STATES,
               backend: Backend | None = None, progress: Callable[[Progress], None] | None = None
               ) -> list[GameResult]:
    """``play_game`` for each seed, one task a game on ``backend``; the results in the seeds' order.

    Each game depends only on its seed, so the results do not depend on the backend.
    BatchError when a game raised or the run was interrupted (its ``partial``: the games
    that finished, in order).
    """
    if policy not in POLICIES:
        raise UsageError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}", text=policy)
    if seeds:
        setup_game(ed, players, seeds[0], enchantments)  # bad players or cards: a usage error here, not in a task
    batch = run_batch(partial(_game_task, ed, players, policy, enchantments, max_states), seeds, backend, progress)
    done = [r for _i, r in batch.items()]
    if not batch.complete:
        raise BatchError(batch, done)
    return done


# ---------------------------------------------------------------------------------------------
# Replay


def _need(d: Any, path: tuple[Any, ...], key: str, typ: type | tuple[type, ...], what: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise RecordError(path, f'missing key "{key}" ({what})')
    v = d[key]
    if not isinstance(v, typ) or (isinstance(v, bool) and typ is int):
        raise RecordError(path + (key,), f"expected {what}, found {v!r}")
    return v


def _cell(v: Any, path: tuple[Any, ...]) -> Cell:
    if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise RecordError(path, f"expected a cell [row, col], found {v!r}")
    return (v[0], v[1])


def setup_from_record(data: Any, ed: HedgeMageEdition) -> GameSetup:
    """The setup a record describes, checked against the edition (RecordError at the offending key)."""
    if not isinstance(data, dict):
        raise RecordError((), "expected a JSON object (a game record)")
    if data.get("game") != "hedge-mage" or data.get("phase") != "game":
        raise RecordError((), 'expected "game": "hedge-mage" and "phase": "game" (a game record)')
    if data.get("version") != RECORD_VERSION:
        raise RecordError(("version",), f"expected version {RECORD_VERSION}")
    if data.get("edition", ed.name) != ed.name:
        raise RecordError(("edition",), f"the record is for edition {data.get('edition')!r}, not {ed.name!r}")
    n = _need(data, (), "players", int, "a number of players 2-4")
    if not 2 <= n <= 4:
        raise RecordError(("players",), f"expected 2 to 4 players, found {n}")
    enchs = _need(data, (), "enchantments", list, "a list of enchantment card ids")
    ids = {e.id for e in ed.enchantments}
    for i, e in enumerate(enchs):
        if not isinstance(e, str) or e not in ids:
            raise RecordError(("enchantments", i), f"unknown enchantment {e!r}")
    try:
        tunnels = tunnels_for(ed, tuple(enchs))
    except UsageError as exc:
        raise RecordError(("enchantments",), exc.message) from None
    if sorted(ed.enchantment(e).kind for e in enchs) != sorted(ed.gnome_kinds):
        raise RecordError(("enchantments",), "expected one card per gnome kind")
    deck = _need(data, (), "deck", list, "the dealt hedge cards")
    left = list(ed.deck)
    for i, c in enumerate(deck):
        if not isinstance(c, str) or c not in left:
            raise RecordError(("deck", i), f"{c!r} is not a hedge card of the edition (or is dealt twice)")
        left.remove(c)
    if len(deck) != len(ed.deck) - ed.removed:
        raise RecordError(("deck",), f"expected {len(ed.deck) - ed.removed} cards ({ed.removed} removed unseen), "
                                     f"found {len(deck)}")
    favs = _need(data, (), "favourites", list, "one favourite card id (or null) per player")
    fav_ids = {f.id for f in ed.running.favourites}
    if len(favs) != n:
        raise RecordError(("favourites",), f"expected {n} entries, found {len(favs)}")
    for i, f in enumerate(favs):
        if f is not None and (not isinstance(f, str) or f not in fav_ids):
            raise RecordError(("favourites", i), f"unknown favourite card {f!r}")
    if len([f for f in favs if f is not None]) != len({f for f in favs if f is not None}):
        raise RecordError(("favourites",), "a favourite card is dealt twice")
    gardens = _need(data, (), "gardens", list, "one garden per player")
    if len(gardens) != n:
        raise RecordError(("gardens",), f"expected {n} gardens, found {len(gardens)}")
    spaces = sorted(c for c in ed.numbered + ed.shaded if c not in tunnels)
    out = []
    for i, gd in enumerate(gardens):
        gl = _need(gd, ("gardens", i), "gnomes", list, "the garden's gnomes")
        gnomes = []
        for j, x in enumerate(gl):
            kind = _need(x, ("gardens", i, "gnomes", j), "kind", str, "a gnome kind")
            if kind not in ed.gnome_kinds:
                raise RecordError(("gardens", i, "gnomes", j, "kind"), f"unknown gnome kind {kind!r}")
            gnomes.append(Gnome(kind, _cell(x.get("at"), ("gardens", i, "gnomes", j, "at"))))
        if sorted(g.at for g in gnomes) != spaces[: len(gnomes)] or len(gnomes) != min(
                len(spaces), ed.gnomes_per_kind * len(ed.gnome_kinds)):
            raise RecordError(("gardens", i, "gnomes"), "expected one gnome on each shaded space that is not a "
                                                        "tunnel: " + " ".join(f"{r},{c}" for r, c in spaces))
        for k in ed.gnome_kinds:
            if sum(1 for g in gnomes if g.kind == k) != ed.gnomes_per_kind:
                raise RecordError(("gardens", i, "gnomes"), f"expected {ed.gnomes_per_kind} {k} gnomes")
        out.append(tuple(gnomes))
    return GameSetup(n, tuple(enchs), tuple(deck), tuple(favs), tuple(out))


def replay(data: Any, ed: HedgeMageEdition) -> GameResult:
    """Re-play a record: every placement and plan checked, scores re-derived and compared.

    Raises RecordError (with the JSON path of the offending value) at the first problem.
    """
    setup = setup_from_record(data, ed)
    game = Game(ed, setup)
    rounds = _need(data, (), "rounds", list, "the rounds played")
    end: str | None = None
    for k, rnd in enumerate(rounds):
        rp = ("rounds", k)
        if end is not None:
            raise RecordError(rp, f"the game was over before this round ({end})", True)
        if k >= len(setup.deck):
            raise RecordError(rp, "more rounds than hedge cards")
        game.begin_round()
        if not isinstance(rnd, dict):
            raise RecordError(rp, "expected a round object")
        if rnd.get("card", setup.deck[k]) != setup.deck[k]:
            raise RecordError(rp + ("card",), f"expected the card {setup.deck[k]} (deck position {k + 1})", True)
        builds = _need(rnd, rp, "build", list, "one build entry per player")
        runs = _need(rnd, rp, "run", list, "one run entry per player")
        for name, lst in (("build", builds), ("run", runs)):
            if [x.get("player") if isinstance(x, dict) else None for x in lst] != list(range(1, game.n + 1)):
                raise RecordError(rp + (name,), f"expected one entry per player, players 1..{game.n} in seat order")
        for p, b in enumerate(builds):
            bp = rp + ("build", p)
            raw = b.get("placement")
            pl: Placement | None = None
            if raw is not None:
                if not isinstance(raw, str):
                    raise RecordError(bp + ("placement",), f"expected a placement TILE:ORIENTATION@R,C, found {raw!r}")
                try:
                    pl = parse_placement(raw, ed)
                except ValueError as exc:
                    raise RecordError(bp + ("placement",), str(getattr(exc, "message", exc))) from None
                raw_toks = b.get("tokens", [])
                if not isinstance(raw_toks, list):
                    raise RecordError(bp + ("tokens",), f"expected a list of cells, found {raw_toks!r}")
                toks = tuple(_cell(t, bp + ("tokens", i)) for i, t in enumerate(raw_toks))
                pl = Placement(pl.tile, pl.cells, pl.sigil, toks)
            try:
                pts, sub = game.build(p, pl)
            except RecordError as exc:
                raise RecordError(bp + exc.path, exc.message, exc.rules) from None
            if "points" in b and b["points"] != pts:
                raise RecordError(bp + ("points",), f"the placement earns {pts} movement points, not "
                                  f"{b['points']}", True)
        _round_gaps(game)
        for p, r in enumerate(runs):
            xp = rp + ("run", p)
            if r.get("garden", game.rival(p) + 1) != game.rival(p) + 1:
                raise RecordError(xp + ("garden",), f"player {p + 1} runs in player {game.rival(p) + 1}'s garden", True)
            plan_raw = _need(r, xp, "plan", list, "a list of actions")
            plan = []
            for i, s in enumerate(plan_raw):
                if not isinstance(s, str):
                    raise RecordError(xp + ("plan", i), f"expected an action string, found {s!r}")
                try:
                    plan.append(parse_action(s.strip(), ed))
                except ValueError as exc:
                    raise RecordError(xp + ("plan", i), str(getattr(exc, "message", exc))) from None
            start, ev = game.run_start(p)
            game.note_run_gaps(p, start)
            rep = game.run(p, start, plan)
            if not rep.legal:
                assert rep.failed is not None
                where = xp + ("plan", min(rep.failed, len(plan) - 1)) if plan else xp + ("plan",)
                what = ("the plan ends illegally" if rep.failed >= len(plan)
                        else f"illegal action {plan_raw[rep.failed]!r}")
                raise RecordError(where, what + ": " + "; ".join(f"[{rid}] {m}" for rid, m in rep.reasons), True)
            rescued = [e.kind for e in ev if e.what == "rescue"] + [
                e.kind for s in rep.steps for e in s.events if e.what == "rescue"]
            if "rescued" in r and r["rescued"] != rescued:
                raise RecordError(xp + ("rescued",), f"the plan rescues {rescued}, not {r['rescued']}", True)
        end = game.over()
    if end is None:
        raise RecordError(("rounds",), f"the game is not over after {game.round} round(s)", True)
    res = _finish(game, {}, end)
    claimed = data.get("result")
    if claimed is not None:
        if not isinstance(claimed, dict):
            raise RecordError(("result",), "expected an object")
        scores = claimed.get("scores", [])
        if not isinstance(scores, list):
            raise RecordError(("result", "scores"), "expected a list of scores")
        for i, s in enumerate(scores):
            if i < len(res.scores) and isinstance(s, dict) and s.get("total") != res.scores[i].total:
                raise RecordError(("result", "scores", i, "total"),
                                  f"player {i + 1} scores {res.scores[i].total}, not {s.get('total')}", True)
        want = [w + 1 for w in res.winners]
        if "winners" in claimed and claimed["winners"] != want:
            raise RecordError(("result", "winners"), f"the winners are {want}, not {claimed['winners']}", True)
    res.record = {**data, "result": res.record["result"]}
    return res
