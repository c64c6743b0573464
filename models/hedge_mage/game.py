"""Hedge Mage through the game protocol (models/core/protocol.py): gardens and running positions.

Hedge Mage has two kinds of positions, both protocol positions of one :class:`HedgeMageGame`:

* :class:`GardenPosition`, one player's garden in the *building phase* (wraps
  :class:`~gnomekit.models.hedge_mage.position.Garden`).  It models one building round: the
  owner (player 0, the only player) places the revealed tile.  A move is a placement
  (:class:`PlacementMove`, notation ``TILE:ORIENTATION@ROW,COL`` with the sigil cell as anchor,
  e.g. ``T4:R0@0,5``, or a JSON placement object).  ``legal_moves()`` lists what
  ``gnomekit hedge-mage moves`` lists for the tiles the owner may place now: the revealed (or
  kept) tile, then the 2x1 substitute while the substitution is still open.  Held bonus sigil
  tokens go on the first non-sigil cells of the tile, as ``check`` places them (a JSON placement
  with ``"tokens"`` places them elsewhere).  After the placement the card is used up: the garden
  has no revealed tile (``tile: -``) and is terminal, as is a garden whose revealed tile has no
  legal placement (the round then places nothing) or that has no revealed tile at all.  The next
  card, the other gardens and the running phase lie outside this position.  ``scores()`` is
  ``{"owner": P}``, P the points the gnomes still in this garden are worth to its owner at the
  final scoring (the secret favourite card not counted).

* :class:`RunPosition`-backed :class:`RunningPosition`, the rival's garden during the running
  player's *maze running phase* of one round (player 0, the running player).  A move is one
  running action in the action notation (``M1>3,5``, ``M1+3,4``, ``M1-3,5``, ``p4,3>4,4``,
  ``T``, ``^3,4``, with ``~R,C`` bounce landings), or several separated by spaces when a
  character passes through another one's space (it may not stop there: the move goes on until
  nobody shares a space).  A running plan is a sequence of these moves.  ``legal_moves()`` lists
  the unit actions (one step, a pick-up, a drop, a springshroom placed, a token spent) and the
  pass-through chains that end with nobody sharing a space; ``check`` and ``apply`` take any
  action, also a path of several steps.  The position is terminal when no action is legal any
  more (the player may stop earlier: a plan is any sequence of moves).  ``scores()`` is
  ``{"runner": S}``, S the running player's final-scoring terms this round changes (track points
  plus awake gnomes in the rival's garden).

``Game.read`` takes either kind, text or JSON (a running position has the header
``hedge-mage run`` or ``"phase": "run"``); a running position is settled when read (gnomes whose
enchantment holds wake, awake gnomes on tunnels are rescued), as every command sees it.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gnomekit.models.core.errors import NotationError
from gnomekit.models.core.protocol import TERMINAL, Game, Position, Report
from gnomekit.models.core.violation import Violation
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, load_edition
from gnomekit.models.hedge_mage.notation import (
    garden_to_json,
    garden_to_text,
    parse_placement,
    placement_to_text,
    read_garden,
)
from gnomekit.models.hedge_mage.placement import (
    Placement,
    PlacementReport,
    apply_placement,
    check_placement,
    legal_placements,
    tile_options,
    with_held_tokens,
)
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.run_actions import unit_actions
from gnomekit.models.hedge_mage.running import (
    Action,
    Illegal,
    PlanReport,
    RunPosition,
    apply_action,
    execute_plan,
    run_position_from_garden,
    running_score,
    settle_position,
)
from gnomekit.models.hedge_mage.running_notation import (
    action_to_text,
    is_run_text,
    parse_plan,
    read_run,
    run_to_json,
    run_to_text,
)
from gnomekit.models.hedge_mage.setup import new_garden, random_garden

NAME = "hedge-mage"
TITLE = "Hedge Mage"


# ---------------------------------------------------------------------------------------------
# Moves


@dataclass(frozen=True, order=True)
class PlacementMove:
    """A hedge placement as a protocol move: tile, sorted cells, sigil cell, bonus tokens placed.

    ``str()`` is its notation (``T4:R0@0,5``; a JSON object when it names where bonus sigil
    tokens go).  ``tokens`` empty means: the held tokens go where ``check`` puts them.
    """

    tile: str
    cells: tuple[tuple[int, int], ...]
    sigil: tuple[int, int]
    tokens: tuple[tuple[int, int], ...] = ()
    text: str = field(default="", compare=False, hash=False)

    @property
    def placement(self) -> Placement:
        """The models value (``Placement``) this move places."""
        return Placement(self.tile, self.cells, self.sigil, self.tokens)

    @classmethod
    def of(cls, p: Placement, edition: HedgeMageEdition) -> PlacementMove:
        """The move placing ``p`` (its notation from the edition's orientations)."""
        if p.tokens:
            text = json.dumps(p.to_json(), separators=(",", ":"))
        else:
            try:
                text = placement_to_text(p, edition)
            except (KeyError, ValueError):  # not a shape of the tile: only JSON can say it
                text = json.dumps(p.to_json(), separators=(",", ":"))
        return cls(p.tile, p.cells, p.sigil, tuple(p.tokens), text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"PlacementMove({self.text!r})"


@dataclass(frozen=True)
class RunMove:
    """One running action, or a pass-through chain of actions, as a protocol move.

    ``str()`` is the action notation, actions separated by spaces (``M1>0,2 M1+0,2``).
    """

    actions: tuple[Action, ...]
    text: str = field(default="", compare=False, hash=False)

    @classmethod
    def of(cls, actions: Sequence[Action], edition: HedgeMageEdition) -> RunMove:
        return cls(tuple(actions), " ".join(action_to_text(a, edition) for a in actions))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"RunMove({self.text!r})"


def parse_placement_move(text: str, edition: HedgeMageEdition, source: str = "<move>") -> PlacementMove:
    """A placement move from ``TILE:ORIENTATION@ROW,COL`` or a JSON placement object."""
    return PlacementMove.of(parse_placement(text, edition, source), edition)


def parse_run_move(text: str, edition: HedgeMageEdition, source: str = "<move>") -> RunMove:
    """A running move: one action, or several separated by spaces (a JSON list of actions too)."""
    actions = parse_plan(text, edition, source)
    if not actions:
        raise NotationError("expected a running action (e.g. M1>3,5, M1+3,4, T, ^3,4)", source=source, line=1,
                            column=1, text=text)
    return RunMove.of(actions, edition)


def _is_placement_text(text: str) -> bool:
    s = text.strip()
    return s.startswith("{") or ":" in s


# ---------------------------------------------------------------------------------------------
# The game


class HedgeMageGame(Game):
    """Hedge Mage with one edition: makes and reads gardens and running positions."""

    name = NAME
    title = TITLE
    min_players = 1
    max_players = 1
    has_chance = False

    def __init__(self, edition: HedgeMageEdition) -> None:
        self._edition = edition

    @property
    def edition(self) -> HedgeMageEdition:
        return self._edition

    # -- making positions -------------------------------------------------------------------
    def garden(self, garden: Garden) -> GardenPosition:
        """The protocol position of a models ``Garden``."""
        return GardenPosition(self, garden)

    def running(self, pos: RunPosition) -> RunningPosition:
        """The protocol position of a models ``RunPosition`` (settled first)."""
        settled, _woke = settle_position(pos, self._edition)
        return RunningPosition(self, settled)

    def new(self, seed: int = 0, enchantments: Sequence[str] | None = None, **options: Any) -> Position:
        """A garden at setup (round 1, first card revealed), as ``gnomekit hedge-mage new``.

        ``seed`` shuffles the gnomes and the deck; ``enchantments`` names the three cards (default:
        the edition's first-game cards).  With ``points=N`` the answer is the running position
        of that garden instead (``to_run``; also ``tokens``, ``springshroom_tokens``).
        """
        enchs = tuple(enchantments) if enchantments is not None else None
        g, _deck = new_garden(self._edition, seed, enchs)
        return self._maybe_run(self.garden(g), enchs, options)

    def random(self, seed: int = 0, rounds: int = 3, **options: Any) -> Position:
        """A garden after ``rounds`` random legal building rounds (default 3), as ``gnomekit hedge-mage random``.

        With ``points=N`` the answer is that garden's running position (see :meth:`new`).
        """
        g, _counts = random_garden(self._edition, seed, rounds)
        return self._maybe_run(self.garden(g), None, options)

    def _maybe_run(self, pos: GardenPosition, enchs: tuple[str, ...] | None, options: dict[str, Any]) -> Position:
        unknown = sorted(set(options) - {"points", "tokens", "springshroom_tokens"})
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r}: expected seed, enchantments (new), rounds (random), "
                            "points, tokens, springshroom_tokens")
        if "points" not in options:
            if len(options):
                raise TypeError("tokens and springshroom_tokens go with points (a running position)")
            return pos
        return pos.to_run(options["points"], enchantments=enchs, tokens=options.get("tokens"),
                          springshroom_tokens=options.get("springshroom_tokens"))

    # -- reading and moves ------------------------------------------------------------------
    def read(self, text: str, source: str = "<input>") -> Position:
        """A garden or a running position from its text or JSON notation."""
        if is_run_text(text):
            return self.running(read_run(text, source, self._edition))
        return self.garden(read_garden(text, source, self._edition))

    def parse_move(self, text: str, source: str = "<move>") -> Any:
        """A placement (``T4:R0@0,5``, JSON object) or a running move (``M1>3,5``), told apart by notation."""
        if _is_placement_text(text):
            return parse_placement_move(text, self._edition, source)
        return parse_run_move(text, self._edition, source)


def make_game(edition: str | Path | HedgeMageEdition | None = None) -> HedgeMageGame:
    """Hedge Mage with the default edition (None), an edition TOML file, or an edition object."""
    if edition is None or isinstance(edition, str | Path):
        return HedgeMageGame(load_edition(edition))
    if not isinstance(edition, HedgeMageEdition):
        raise TypeError(f"expected a Hedge Mage edition, a TOML path or None, not {type(edition).__name__}")
    return HedgeMageGame(edition)


# ---------------------------------------------------------------------------------------------
# The building phase


class GardenPosition(Position):
    """One garden in the building phase: the owner (player 0) places the revealed tile."""

    def __init__(self, game: HedgeMageGame, garden: Garden) -> None:
        self._game = game
        self._garden = garden
        self._moves: list[PlacementMove] | None = None

    @property
    def game(self) -> HedgeMageGame:
        return self._game

    @property
    def garden(self) -> Garden:
        """The models value of this garden."""
        return self._garden

    def key(self) -> Hashable:
        return self._garden

    # -- moves ------------------------------------------------------------------------------
    def tiles(self) -> list[str]:
        """The tiles the owner may place now: the revealed (or kept) tile, then the open substitution."""
        if self._garden.tile is None:
            return []
        return [o.tile for o in tile_options(self._garden, self._game.edition)]

    def legal_moves(self) -> list[PlacementMove]:
        """Every legal placement of :meth:`tiles`, each tile's sorted by ``Placement.key``."""
        if self._moves is None:
            ed = self._game.edition
            out: list[PlacementMove] = []
            for t in self.tiles():
                en = legal_placements(self._garden, ed.tiles[t])
                out += [PlacementMove.of(p, ed) for p in sorted(en.placements, key=lambda p: p.key)]
            self._moves = out
        return list(self._moves)

    def move_of(self, placement: Placement) -> PlacementMove:
        """The move placing ``placement``; held tokens where ``check`` puts them are left implicit."""
        bare = Placement(placement.tile, placement.cells, placement.sigil)
        if placement.tokens and tuple(placement.tokens) == with_held_tokens(self._garden, bare).tokens:
            placement = bare
        return PlacementMove.of(placement, self._game.edition)

    def _move(self, move: Any) -> PlacementMove:
        if isinstance(move, str):
            return self.parse_move(move)
        if isinstance(move, Placement):
            return self.move_of(move)
        if not isinstance(move, PlacementMove):
            raise TypeError(f"a garden's move is a placement, not {type(move).__name__}")
        return move

    def placement_report(self, move: Any) -> PlacementReport:
        """``check_placement``'s full report on ``move`` (held tokens placed as ``check`` places them)."""
        mv = self._move(move)
        return check_placement(self._garden, self._game.edition, with_held_tokens(self._garden, mv.placement))

    def check(self, move: Any) -> Report:
        """Whether the placement is legal now; every broken rule (``detail``: the ``PlacementReport``)."""
        mv = self._move(move)
        rep = self.placement_report(mv)
        violations = list(rep.violations)
        if self._garden.tile is None:
            violations.insert(0, Violation("no-tile", "the garden has no revealed tile: nothing is placed now"))
        notes = list(rep.notes)
        if not violations:
            notes.append(f"{rep.movement_points} movement point{'s' if rep.movement_points != 1 else ''}")
        return Report(str(mv), tuple(violations), tuple(notes), rep)

    def _apply(self, move: Any) -> GardenPosition:
        mv = self._move(move)
        g = apply_placement(self._garden, self._game.edition, with_held_tokens(self._garden, mv.placement))
        return GardenPosition(self._game, replace(g, tile=None))

    def parse_move(self, text: str, source: str = "<move>") -> PlacementMove:
        return parse_placement_move(text, self._game.edition, source)

    # -- turn structure -----------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def is_terminal(self) -> bool:
        """No tile to place now (none revealed, or the revealed tile has no legal placement)."""
        return not self.legal_moves()

    def scores(self) -> dict[str, float]:
        """``{"owner": points the gnomes still in this garden score for its owner}``."""
        per = self._game.edition.running.garden_gnome_points
        return {"owner": float(per * len(self._garden.gnomes))}

    def result(self) -> str | None:
        if not self.is_terminal():
            return None
        why = "the tile is placed" if self._garden.tile is None else f"{self._garden.tile} has no legal placement"
        return f"building over: {why}"

    # -- notation -----------------------------------------------------------------------------
    def to_text(self) -> str:
        return garden_to_text(self._garden, self._game.edition)

    def to_json(self) -> dict[str, Any]:
        return garden_to_json(self._garden)

    # -- pictures -----------------------------------------------------------------------------
    def svg(self, marks: Any = None) -> str:
        """The garden as an SVG picture (models/hedge_mage/render.py), ``marks`` drawn on it."""
        from gnomekit.models.hedge_mage.render import position_svg

        return position_svg(self, marks)

    def move_cells(self, move: Any) -> tuple[Hashable, ...]:
        """The cells the placement covers, as ``(row, col)``."""
        return tuple(self._move(move).cells)

    # -- extras -------------------------------------------------------------------------------
    def warnings(self) -> list[str]:
        """Rule states no legal play reaches (a 2x2 hedge, split ground)."""
        return self._garden.warnings()

    def to_run(self, points: int, enchantments: Sequence[str] | None = None, tokens: int | None = None,
               springshroom_tokens: int | None = None) -> RunningPosition:
        """The running phase in this garden, as ``gnomekit hedge-mage to-run``: its mages run with ``points``.

        ``enchantments`` default to the edition's first-game cards; ``tokens`` and
        ``springshroom_tokens`` to the edition's start.
        """
        ed = self._game.edition
        enchs = tuple(enchantments) if enchantments is not None else ed.first_game
        pos = run_position_from_garden(self._garden, ed, enchs, points, tokens=tokens,
                                       springshroom_tokens=springshroom_tokens)
        probs = pos.problems(ed)
        if probs:
            from gnomekit.models.core.errors import UsageError

            raise UsageError("the running position is not well formed: " + "; ".join(probs))
        return RunningPosition(self._game, pos)


# ---------------------------------------------------------------------------------------------
# The running phase


class RunningPosition(Position):
    """The rival's garden during the running player's (player 0's) maze running phase."""

    def __init__(self, game: HedgeMageGame, pos: RunPosition) -> None:
        self._game = game
        self._pos = pos
        self._moves: list[RunMove] | None = None

    @property
    def game(self) -> HedgeMageGame:
        return self._game

    @property
    def run(self) -> RunPosition:
        """The models value of this running position."""
        return self._pos

    def key(self) -> Hashable:
        return self._pos

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> list[RunMove]:
        """The legal unit actions and pass-through chains, in the rules' generator order.

        A token spend (``T``) comes first when a token is held; a unit action that needs one is
        listed after it (spend, then act); inside a pass-through chain a token is spent just
        before the action that needs it.  Springshroom placements are tried on every cell.
        """
        if self._moves is None:
            ed = self._game.edition
            out: list[RunMove] = []
            if self._pos.tokens > 0:
                out.append(RunMove.of([Action("token")], ed))
            for a in unit_actions(self._pos, ed, relevant_only=False):
                try:
                    nxt, _ = apply_action(self._pos, ed, a, continues=True)
                except Illegal:
                    continue
                if nxt.transit is None:
                    out.append(RunMove.of([a], ed))
                else:
                    out += [RunMove.of([a, *chain], ed) for chain in _finish_transit(nxt, ed)]
            self._moves = out
        return list(self._moves)

    def _move(self, move: Any) -> RunMove:
        if isinstance(move, str):
            return self.parse_move(move)
        if isinstance(move, Action):
            return RunMove.of([move], self._game.edition)
        if not isinstance(move, RunMove):
            raise TypeError(f"a running position's move is a running action, not {type(move).__name__}")
        return move

    def plan_report(self, move: Any) -> PlanReport:
        """``execute_plan``'s report on the move's actions (events, the position after each)."""
        return execute_plan(self._pos, self._game.edition, self._move(move).actions)

    def check(self, move: Any) -> Report:
        """Whether the action (or chain) is legal here; every broken rule (``detail``: the ``PlanReport``)."""
        mv = self._move(move)
        rep = self.plan_report(mv)
        ed = self._game.edition
        violations: tuple[Violation, ...] = ()
        notes: list[str] = []
        if not rep.legal:
            assert rep.failed is not None
            where = ""
            if len(mv.actions) > 1:
                where = ("the end of the move: " if rep.failed >= len(mv.actions)
                         else f"action {rep.failed + 1} {action_to_text(mv.actions[rep.failed], ed)}: ")
            violations = tuple(Violation(rule, where + msg) for rule, msg in rep.reasons)
        else:
            notes = [e.text() for s in rep.steps for e in s.events if e.what in ("wake", "rescue")]
        return Report(str(mv), violations, tuple(notes), rep)

    def _apply(self, move: Any) -> RunningPosition:
        return RunningPosition(self._game, self.plan_report(move).final)

    def parse_move(self, text: str, source: str = "<move>") -> RunMove:
        return parse_run_move(text, self._game.edition, source)

    # -- turn structure -----------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def is_terminal(self) -> bool:
        """No running action is legal any more (every allowance used, nothing free left)."""
        return not self.legal_moves()

    def scores(self) -> dict[str, float]:
        """``{"runner": track points + awake gnomes in the rival's garden}`` (the terms running changes)."""
        return {"runner": float(running_score(self._pos, self._game.edition))}

    def result(self) -> str | None:
        if not self.is_terminal():
            return None
        return (f"running over: {self._pos.total_rescued()} gnome(s) rescued, "
                f"{running_score(self._pos, self._game.edition)} point(s)")

    # -- notation -----------------------------------------------------------------------------
    def to_text(self) -> str:
        return run_to_text(self._pos, self._game.edition)

    def to_json(self) -> dict[str, Any]:
        return run_to_json(self._pos, self._game.edition)

    # -- pictures -----------------------------------------------------------------------------
    def svg(self, marks: Any = None) -> str:
        """The running position as an SVG picture (models/hedge_mage/render.py), ``marks`` drawn on it."""
        from gnomekit.models.hedge_mage.render import position_svg

        return position_svg(self, marks)

    def move_cells(self, move: Any) -> tuple[Hashable, ...]:
        """The cells the move's characters walk through and its pick-up, drop and springshroom cells."""
        from gnomekit.models.hedge_mage.render import move_cells

        return move_cells(self, move)


def _finish_transit(pos: RunPosition, ed: HedgeMageEdition, depth: int = 0) -> list[list[Action]]:
    """The action chains that take the character passing through another one on to a free space.

    Only that character's own steps (and, for a mage, a free pick-up there) are tried, with a
    token spent just before a step that needs one; chains that cannot finish are dropped.
    """
    out: list[list[Action]] = []
    for a in unit_actions(pos, ed, relevant_only=False):
        if a.kind == "shroom":
            continue
        seq = [a]
        try:
            nxt, _ = apply_action(pos, ed, a, continues=True)
        except Illegal as exc:
            if pos.tokens <= 0 or not all(r == "allowance" for r, _ in exc.reasons):
                continue
            tok, _ = apply_action(pos, ed, Action("token"))
            try:
                nxt, _ = apply_action(tok, ed, a, continues=True)
            except Illegal:
                continue
            seq = [Action("token"), a]
        if nxt.transit is None:
            out.append(seq)
        elif depth < 64:
            out += [seq + rest for rest in _finish_transit(nxt, ed, depth + 1)]
    return out
