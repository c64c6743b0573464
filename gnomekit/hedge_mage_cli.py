"""``gnomekit hedge-mage ...``: what is Hedge Mage's own in the common verbs (:mod:`gnomekit.verbs`).

A position file is a garden (the building phase) or a running position (header ``hedge-mage run``
or JSON ``"phase": "run"``); ``show``, ``check``, ``solve`` and ``hint`` answer for either, in
their own words: ``check --place`` a placement, ``check --plan`` a running plan, ``solve --goal``
/ ``--plan`` / ``--phase run|round``.  The renderers live in hedge_mage_solve_cli.py (a garden's
best placement and hint), hedge_mage_run_cli.py (running) and hedge_mage_round_cli.py (a whole
round, a running hint); the extra verbs are ``audit``, ``to-run`` and ``play``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gnomekit import hedge_mage_audit_cli as audit_cli
from gnomekit import hedge_mage_level_cli as level_cli
from gnomekit import hedge_mage_play_cli as play_cli
from gnomekit import hedge_mage_round_cli as round_cli
from gnomekit import hedge_mage_run_cli as run_cli
from gnomekit import hedge_mage_solve_cli as solve_cli
from gnomekit.common import NO, OK, Answer, read_source
from gnomekit.hedge_mage_solve_cli import about_position
from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.protocol import Game, Position
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.game import GardenPosition, HedgeMageGame, RunningPosition
from gnomekit.models.hedge_mage.notation import draw_marked, parse_placement, placement_to_text, read_garden
from gnomekit.models.hedge_mage.placement import Placement, PlacementReport, check_placement, with_held_tokens
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.running import settle_position
from gnomekit.models.hedge_mage.running_notation import MAX_COUNT, is_run_text, read_run
from gnomekit.models.hedge_mage.setup import random_garden
from gnomekit.solver.hedge_mage.best import TIE_BREAK
from gnomekit.verbs import GameCLI, SubParsers, seed_option

#: The common verbs that answer for a running position as well as for a garden.
RUN_VERBS = ("show", "check", "solve", "hint")


def first_game_at(edition: str | None) -> tuple[str, int | None, int | None]:
    """Where an edition file names its first-game cards (``first_game``, else its first ``[[enchantments]]``,
    whose first three are the default): errors about those cards at setup point there."""
    if edition is None:
        return "the default edition", None, None
    try:
        lines = Path(edition).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):  # it was read a moment ago; say the file at least
        return edition, None, None
    for needle in ("first_game", "[[enchantments]]"):
        for n, line in enumerate(lines, 1):
            col = line.find(needle)
            if col >= 0 and "#" not in line[:col]:
                return edition, n, col + 1
    return edition, None, None


def placement_marks(g: Garden, ed: HedgeMageEdition, p: Placement) -> tuple[dict[tuple[int, int], str], list[str]]:
    """The marks drawing a placement over the garden, and what each ``!`` hides.

    ``#`` a tile cell, ``@`` its sigil cell, ``!`` a tile cell (sigil or not) over a hedge or an occupant
    (tunnel, springshroom, mage, gnome: what the ``covers`` rule names), so that the conflict stays
    visible; each such cell is listed as "ROW,COL TOKEN (what, ...)" with the cell's own token.
    """
    from gnomekit.models.hedge_mage.notation import cell_token

    marks: dict[tuple[int, int], str] = {}
    under: list[str] = []
    for c in p.cells:
        if not g.in_bounds(c):
            continue
        things = ([f"hedge {g.hedges[g.hedge_at[c]].tile}"] if c in g.hedge_at else []) + g.occupants.get(c, [])
        if things:
            marks[c] = "!"
            sigil = ", under the tile's sigil" if c == p.sigil else ""
            under.append(f"{c[0]},{c[1]} {cell_token(g, ed, c)} ({', '.join(things)}{sigil})")
        else:
            marks[c] = "@" if c == p.sigil else "#"
    return marks, under


def report_text(g: Garden, ed: HedgeMageEdition, rep: PlacementReport) -> str:
    """``check --place`` in words: legal with its points, or every broken rule; the placement drawn."""
    p = rep.placement
    try:
        name = placement_to_text(p, ed)
    except (ValueError, KeyError):
        name = f"{p.tile} on " + " ".join(f"{r},{c}" for r, c in p.cells)
    marks, under = placement_marks(g, ed, p)
    lines = []
    if rep.legal:
        lines.append(f"legal: {name}  cells {' '.join(f'{r},{c}' for r, c in p.cells)}")
        sig = " ".join(f"{r},{c}" for r, c in rep.sigils_counted)
        lines.append(f"movement points: {rep.movement_points} (sigils counted: {sig})")
        for n in rep.notes:
            lines.append(f"note: {n}")
    else:
        lines.append(f"illegal: {name}")
        for v in rep.violations:
            lines.append(f"  - [{v.rule}] {v.message}")
    lines.append("")
    lines.append(draw_marked(g, ed, marks))
    if under:
        lines.append("(# new hedge cell, @ its sigil, ! a tile cell over something already there)")
        lines.append("under !: " + "; ".join(under))
    else:
        lines.append("(# new hedge cell, @ its sigil)")
    return "\n".join(lines)


def check_placement_answer(pos: GardenPosition, args: argparse.Namespace) -> Answer:
    """``check GARDEN --place PLACEMENT``: exit 0 legal (with its points), 1 illegal (every broken rule)."""
    g, ed = pos.garden, pos.game.edition
    if not args.place:
        raise UsageError("check needs --place PLACEMENT (e.g. --place L4:R90@3,4)")
    p = with_held_tokens(g, parse_placement(args.place, ed, "--place"))
    if args.method == "networkx":  # the cut-off rule decided on the networkx ground graph
        from gnomekit.solver.hedge_mage.graph import check_placement_networkx

        rep = check_placement_networkx(g, ed, p, check_tile_choice=not args.any_tile)
    else:
        rep = check_placement(g, ed, p, check_tile_choice=not args.any_tile)
    text = "" if args.json else report_text(g, ed, rep)
    return Answer(rep.to_json(), text, OK if rep.legal else NO)


def moves_answer(pos: GardenPosition, args: argparse.Namespace) -> Answer:
    """``moves GARDEN``: every legal placement of the tile to place (or ``--tile``), with its points."""
    from gnomekit.solver.hedge_mage.placements import enumerate_all, tiles_for

    g, ed = pos.garden, pos.game.edition
    try:
        tiles = list(dict.fromkeys(tiles_for(g, ed, args.tile, source="--tile")))  # a tile named twice: once
    except UsageError as exc:
        if args.tile is None:  # no tile named and none revealed: that is about the position file
            raise about_position(UsageError(f"{exc.message}; name one with --tile T (or all)"), args) from None
        raise
    kept_note = ""
    if args.tile is None:  # the tile to place this round: the kept tile when the card names the given-away one
        from gnomekit.solver.hedge_mage.best import tile_options

        regular = tile_options(g, ed, substitution=False)[0]
        tiles, kept_note = [regular.tile], regular.note
    if args.method == "sat":
        from gnomekit.solver.hedge_mage.sat import sat_all

        groups = sat_all(g, ed, tiles)
    elif args.method == "networkx":
        from gnomekit.solver.hedge_mage.graph import enumerate_all_networkx

        groups = enumerate_all_networkx(g, ed, tiles)
    else:
        groups = enumerate_all(g, ed, tiles)
    total = sum(len(x.placements) for x in groups)
    placements = []
    for grp in groups:
        for p, pts in zip(grp.placements, grp.points, strict=True):
            d = p.to_json()
            d["movement_points"] = pts
            placements.append(d)
    per_tile = {grp.tile: len(grp.placements) for grp in groups}
    data: dict[str, Any] = {"method": args.method, "tiles": tiles, "count": total,
                            "per_tile": per_tile}
    if not args.count:
        data["placements"] = placements
    if g.held_bonus_sigils:
        data["note"] = (f"movement points exclude the {g.held_bonus_sigils} held bonus sigil "
                        "token(s), each of which adds 1 when placed on the tile")
    if kept_note:
        data["note"] = kept_note + (f"; {data['note']}" if "note" in data else "")
    if args.count:
        text = str(total) if len(groups) == 1 else "\n".join(
            [f"{t}: {n}" for t, n in per_tile.items()] + [f"total: {total}"])
    else:
        lines = []
        for grp in groups:
            lines.append(f"{grp.tile}: {len(grp.placements)} legal placement(s)")
            for p, pts in zip(grp.placements, grp.points, strict=True):
                cells = " ".join(f"{r},{c}" for r, c in p.cells)
                lines.append(f"  {placement_to_text(p, ed):<16} {pts} pt  cells {cells}")
        if len(groups) > 1:
            lines.append(f"total: {total}")
        if "note" in data:
            lines.append(f"note: {data['note']}")
        text = "\n".join(lines)
    return Answer(data, text, OK if total else NO)


class HedgeMageCLI(GameCLI):
    """The common verbs in Hedge Mage's words: gardens and running positions, placements and plans."""

    name = "hedge-mage"
    help = "Hedge Mage: maze building and running"
    description = "Hedge Mage: gardens, hedge placements, solvers."
    verb_help = {
        "new": "a garden at setup (round 1, first card revealed)",
        "random": "a garden after K random legal building rounds",
        "show": "read a garden (text or JSON) and print it",
        "check": "is a placement legal? every broken rule, or its points",
        "moves": "every legal placement of the revealed tile (or --tile)",
        "solve": "the best placement this round (--goal points|block) or a plan (--plan T1,T2,...)",
        "hint": "the recommended placement and why, with the alternatives it beat",
    }
    verb_description = {
        "solve": "The best legal placement of the revealed tile (and of the 2x1 substitute while it is "
                 "unused). " + TIE_BREAK + ".",
        "hint": "Recommends the largest movement points + W x block (W = --block-weight, default 1). "
                + TIE_BREAK + ".",
    }
    position_help = "garden file, or - for stdin"

    # -- the parser --------------------------------------------------------------------------------
    def options(self, verb: str, p: argparse.ArgumentParser) -> None:
        if verb == "new":
            seed_option(p, "shuffles gnomes and the deck (default 0)")
            p.add_argument("--enchantments", metavar="A,B,C",
                           help="enchantment card ids (default: the first-game three)")
        elif verb == "random":
            p.add_argument("--round", type=int, default=3, metavar="K", help="rounds to play (default 3)")
        elif verb == "check":
            p.add_argument("--place", metavar="PLACEMENT",
                           help="TILE:ORIENTATION@ROW,COL (sigil cell) or a JSON placement object")
            p.add_argument("--any-tile", action="store_true",
                           help="do not check that the tile is the revealed one (geometry only)")
            p.add_argument("--method", choices=["flood", "networkx"], default="flood",
                           help="how ground connectivity (the cut-off rule) is decided: flood fill (default) or "
                           "the networkx ground graph (same answers, slower)")
        elif verb == "moves":
            p.add_argument("--tile", metavar="T", help="a tile name, a comma list, or 'all'")
            p.add_argument("--method", choices=["enumerate", "sat", "networkx"], default="enumerate",
                           help="enumerate (bitboards, default), sat, or networkx (ground connectivity on the "
                           "networkx ground graph); all give the same placements")
            p.add_argument("--count", action="store_true", help="print only the number of placements")
        elif verb == "solve":
            solve_cli.solve_options(p)
        elif verb == "hint":
            solve_cli.hint_options(p)

    def late_options(self, verb: str, p: argparse.ArgumentParser) -> None:
        """The running-position options (listed after ``--json``/``--edition``, as they always were)."""
        if verb == "check":
            run_cli.check_options(p)
        elif verb == "solve":
            run_cli.solve_options(p)
            round_cli.solve_options(p)
        elif verb == "hint":
            round_cli.hint_options(p)

    def more_verbs(self, verbs: SubParsers) -> None:
        audit_cli.register(verbs)
        level_cli.register(verbs)
        run_cli.to_run_parser(verbs).set_defaults(func=self.cmd_to_run)
        play_cli.register(verbs)

    # -- the game and the position -----------------------------------------------------------------
    def make_game(self, args: argparse.Namespace) -> HedgeMageGame:
        g = super().make_game(args)
        assert isinstance(g, HedgeMageGame)
        return g

    @staticmethod
    def runs(text: str, args: argparse.Namespace) -> bool:
        """Whether the verb answers for a running position: the file is one, or ``solve --phase run``."""
        return args.verb in RUN_VERBS and (is_run_text(text) or getattr(args, "phase", None) == "run")

    def position(self, args: argparse.Namespace) -> Position:
        """The garden or running position of FILE; options that do not fit its kind are refused first."""
        if args.verb == "moves":  # moves has always loaded the edition before reading the garden
            game = self.make_game(args)
            text, source = read_source(args.position)
            return self.read(game, text, source, args)
        text, source = read_source(args.position)
        phase = getattr(args, "phase", None)
        if self.runs(text, args):
            if phase not in (None, "run"):
                raise UsageError(f"--phase {phase} does not go with a running position")
            if getattr(args, "method", "flood") != "flood" and args.verb == "check":
                raise UsageError(f"--method {args.method} decides ground connectivity of a garden's placement; "
                                 "a running position has none to decide")
        elif getattr(args, "run_plan", None) is not None:
            raise UsageError("--plan needs a running position (header 'hedge-mage run' or JSON \"phase\": \"run\")")
        return self.read(self.make_game(args), text, source, args)

    def read(self, game: Game, text: str, source: str, args: argparse.Namespace) -> Position:
        """A garden, or a running position settled (who woke at the start kept as ``args.woke``)."""
        assert isinstance(game, HedgeMageGame)
        ed = game.edition
        if self.runs(text, args):
            raw = read_run(text, source, ed)
            if args.verb == "hint":
                probs = raw.problems(ed)
                if probs:
                    raise UsageError("the running position is not well formed: " + "; ".join(probs), source=source)
            settled, args.woke = settle_position(raw, ed)
            return RunningPosition(game, settled)
        if getattr(args, "phase", None) == "round" and not getattr(args, "rival", None):
            raise UsageError("--phase round needs --rival FILE: the rival's garden where your mages run (a running "
                             "position from `to-run`, or a garden)", source="--phase round")
        args.position_text = text  # to locate later complaints about the garden as a whole
        return GardenPosition(game, read_garden(text, source, ed))

    def position_answer(self, pos: Position, args: argparse.Namespace, note: str = "") -> Answer:
        """A garden as JSON, or drawn (with a note); under ``--json`` the drawing is not made."""
        if args.json:  # the text is not printed; gardens the text cannot carry still print as JSON
            return Answer(pos.to_json(), "")
        text = pos.to_text()
        return Answer(pos.to_json(), text + "\n" + note if note else text)  # the note after a blank line

    # -- the verbs ---------------------------------------------------------------------------------
    def new_answer(self, game: Game, args: argparse.Namespace) -> Answer:
        enchs = tuple(e.strip() for e in args.enchantments.split(",")) if args.enchantments else None
        try:
            pos = game.new(seed=args.seed, enchantments=enchs)
        except UsageError as exc:  # the cards named, or the edition's first-game cards, do not fit together
            if enchs:
                raise exc.located(source="--enchantments") from None
            raise exc.located(*first_game_at(args.edition)) from None
        return self.position_answer(pos, args)

    def random_answer(self, game: Game, args: argparse.Namespace) -> Answer:
        """``random``: ``--round K`` random legal rounds, and which of them could place nothing."""
        assert isinstance(game, HedgeMageGame)
        cards = len(game.edition.deck) - game.edition.removed  # the dealt deck: one card a round
        if args.round < 0:
            raise UsageError("expected a number of rounds >= 0", source="--round", text=str(args.round))
        if args.round > cards:
            raise UsageError(f"expected at most {cards} rounds (the deck has {cards} cards)", source="--round",
                             text=str(args.round))
        try:
            g, counts = random_garden(game.edition, args.seed, args.round)
        except UsageError as exc:  # the edition's first-game cards do not fit together
            raise exc.located(*first_game_at(args.edition)) from None
        skipped = [i + 1 for i, c in enumerate(counts) if c == 0]
        note = ""
        if skipped:
            note = "rounds with no legal placement (nothing placed): " + ", ".join(map(str, skipped))
        return self.position_answer(game.garden(g), args, note)

    def show_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """A garden with its warnings as comment lines (so that it reads back), or a running position."""
        if isinstance(pos, RunningPosition):
            return run_cli.show_answer(pos, args.woke, args.json)
        assert isinstance(pos, GardenPosition)
        warnings = pos.warnings()
        if args.json:
            return Answer({**pos.to_json(), "warnings": warnings}, "")
        text = pos.to_text()
        if warnings:
            text += "\n# warnings (no legal play reaches this):\n" + "\n".join(f"#   - {w}" for w in warnings)
        return Answer({"garden": pos.to_json(), "warnings": warnings}, text)

    def check_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """``--place`` on a garden, ``--plan`` on a running position."""
        if isinstance(pos, RunningPosition):
            return run_cli.check_answer(pos, args.woke, args)
        assert isinstance(pos, GardenPosition)
        return check_placement_answer(pos, args)

    def moves_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, GardenPosition)
        return moves_answer(pos, args)

    def solve_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """The best placement or a plan of tiles (a garden), the best running plan, or a whole round."""
        if isinstance(pos, RunningPosition):
            return run_cli.solve_answer(pos, args.woke, args)
        assert isinstance(pos, GardenPosition)
        if args.phase == "round":
            return round_cli.solve_answer(pos, args)
        return solve_cli.solve_answer(pos, args)

    def hint_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        if isinstance(pos, RunningPosition):
            return round_cli.hint_answer(pos, args.woke, args)
        assert isinstance(pos, GardenPosition)
        return solve_cli.hint_answer(pos, args)

    def picture_svg(self, pos: Position, verb: str, answer: Answer, args: argparse.Namespace) -> str:
        """Hedge Mage draws a checked placement or plan, and every legal move, its own way."""
        from gnomekit.models.hedge_mage import render

        if verb == "check":
            plan = getattr(args, "run_plan", None)
            text = run_cli.plan_text(plan)[0] if isinstance(pos, RunningPosition) and plan else args.place
            if text:
                return render.check_svg(pos, text)
        if verb == "moves":
            return render.moves_svg(pos)
        return super().picture_svg(pos, verb, answer, args)

    def cmd_to_run(self, args: argparse.Namespace) -> Answer:
        """``to-run GARDEN --points N``: the running phase in this garden (``GardenPosition.to_run``)."""
        game = self.make_game(args)
        text, name = read_source(args.position)
        garden = GardenPosition(game, read_garden(text, name, game.edition))
        enchs = tuple(args.enchantments.split(",")) if args.enchantments else None
        for option, value in (("--points", args.points), ("--tokens", args.tokens),
                              ("--springshroom-tokens", args.springshroom_tokens)):
            if value is not None and not 0 <= value <= MAX_COUNT:  # what a running position can hold
                raise UsageError(f"expected a number 0..{MAX_COUNT}", source=option, text=str(value))
        cap = game.edition.movement_token_cap
        if args.tokens is not None and args.tokens > cap:
            raise UsageError(f"expected at most {cap} movement tokens (the edition's cap)", source="--tokens",
                             text=str(args.tokens))
        try:
            run = garden.to_run(args.points, enchantments=enchs, tokens=args.tokens,
                                springshroom_tokens=args.springshroom_tokens)
        except UsageError as exc:  # what is left is about the cards named, or else the garden
            raise exc.located(source="--enchantments" if enchs and "enchantment" in exc.message
                              else name) from None
        return Answer(run.to_json(), "" if args.json else run.to_text())


register = HedgeMageCLI().register
