"""The seven verbs every game has (new, random, show, check, moves, solve, hint), written once.

A game's CLI module subclasses :class:`GameCLI` and keeps only what is its own: the options it
adds to a verb (:meth:`GameCLI.options`), its extra verbs (:meth:`GameCLI.more_verbs`) and hooks
that put an answer in its own words.  Everything else is here: the verb parsers and their shared
arguments (the position FILE or ``-``, ``--json``, ``--edition``, ``--seed``, ``--turns``), making
the game through :func:`gnomekit.game`, reading the position through the protocol
(``game.read(text, source)``), the default answers over the protocol (``Game.new``/``random``,
``Position.check`` as a :class:`~gnomekit.models.core.protocol.Report`, ``legal_moves()``,
:func:`gnomekit.solve`/:func:`gnomekit.hint`), printing and exit codes (:mod:`gnomekit.common`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gnomekit import api, edition_cli
from gnomekit.common import NO, OK, Answer, add_common, read_source
from gnomekit.models.core.errors import GnomekitError, UsageError
from gnomekit.models.core.protocol import Game, Position, Report
from gnomekit.models.core.svg import Marks

#: The verbs every game has, in the order ``gnomekit GAME --help`` lists them.
COMMON_VERBS = ("new", "random", "show", "check", "moves", "solve", "hint")
#: The verbs that read a position (the positional FILE, ``-`` for stdin).
POSITION_VERBS = ("show", "check", "moves", "solve", "hint")

SubParsers = argparse._SubParsersAction  # type: ignore[type-arg]


def seed_option(p: argparse.ArgumentParser, help: str) -> None:  # noqa: A002 - argparse's word
    """``--seed N`` of ``new`` (default 0); ``random``'s required ``--seed`` is added by the verb itself."""
    p.add_argument("--seed", type=int, default=0, help=help)


def turns_option(p: argparse.ArgumentParser, default: int, help: str | None = None,  # noqa: A002
                 metavar: str | None = "K") -> None:
    """``random``'s ``--turns K``: how many random legal turns to play (checked to be 0 or more)."""
    p.add_argument("--turns", type=int, default=default, metavar=metavar, help=help)


class GameCLI:
    """One game's command group: the common verbs over the protocol, plus the game's own hooks.

    Subclasses set :attr:`name` (the registry name, see :data:`gnomekit.api.GAMES`), the help
    texts, and override the hooks below where their answers are worded their own way.
    """

    #: The registry name (``gnomekit.game(name)``) and the command name.
    name: str = ""
    #: One line in ``gnomekit --help``, and the group's description.
    help: str = ""
    description: str = ""
    #: Each verb's one-line help (``gnomekit GAME --help``).
    verb_help: dict[str, str] = {}
    #: A verb's longer description (``gnomekit GAME VERB --help``); none where a verb has none here.
    verb_description: dict[str, str] = {}
    #: The help of the positional position argument (``None``: none shown).
    position_help: str | None = "position file, or - for stdin"
    #: What ``check`` says when its move option is missing.
    check_needs: str = "check needs --move MOVE"

    # -- the parser --------------------------------------------------------------------------------
    def register(self, sub: SubParsers, name: str, aliases: list[str]) -> None:
        """Add ``gnomekit NAME VERB ...`` with the common verbs and the game's own."""
        grp = sub.add_parser(name, aliases=aliases, help=self.help, description=self.description)
        grp.set_defaults(group_parser=grp, func=None)
        verbs = grp.add_subparsers(dest="verb", metavar="VERB")
        for verb in COMMON_VERBS:
            p = verbs.add_parser(verb, help=self.verb_help[verb], description=self.verb_description.get(verb))
            if verb in POSITION_VERBS:
                p.add_argument("position", help=self.position_help_of(verb))
            if verb == "random":
                p.add_argument("--seed", type=int, required=True)
            self.options(verb, p)
            add_common(p)
            self.late_options(verb, p)
            if verb in POSITION_VERBS:
                p.add_argument("--svg", metavar="FILE",
                               help="also write the position as an SVG picture, with the answer drawn on it")
            p.set_defaults(func=getattr(self, f"cmd_{verb}"))
        self.more_verbs(verbs)
        p = verbs.add_parser("render", help="draw position files as SVG pictures (one FILE.svg each)",
                             description="Draw each position file as an SVG picture, written to DIR/NAME.svg "
                                         "(NAME: the file's name without its extension).")
        p.add_argument("positions", nargs="+", metavar="FILE", help="position files (text or JSON)")
        p.add_argument("--out", metavar="DIR", default=".", help="the folder to write into (default: .)")
        self.options("show", p)  # a position is read as show reads it (rules options included)
        add_common(p)
        self.late_options("show", p)
        p.set_defaults(func=self.cmd_render)
        p = verbs.add_parser("edition", help="check the edition, or --dump its TOML to copy and change")
        edition_cli.add_options(p)
        add_common(p)
        p.set_defaults(func=lambda args: edition_cli.edition_answer(self.name, args))

    def position_help_of(self, verb: str) -> str | None:
        """The help of a verb's position argument."""
        return self.position_help

    def options(self, verb: str, p: argparse.ArgumentParser) -> None:
        """The game's own options of a common verb (listed before ``--json`` and ``--edition``)."""

    def late_options(self, verb: str, p: argparse.ArgumentParser) -> None:
        """Options the game lists after ``--json`` and ``--edition`` (rules options, say)."""

    def more_verbs(self, verbs: SubParsers) -> None:
        """The game's extra verbs (play, audit, to-run, ...)."""

    # -- the game and the position -----------------------------------------------------------------
    def make_game(self, args: argparse.Namespace) -> Game:
        """The game with the ``--edition`` given (the bundled one without it)."""
        return api.game(self.name, getattr(args, "edition", None))

    def read(self, game: Game, text: str, source: str, args: argparse.Namespace) -> Position:
        """The position in ``text`` (text or JSON), through the protocol reader."""
        return game.read(text, source)

    def position(self, args: argparse.Namespace) -> Position:
        """The position of the FILE argument (``-``: standard input)."""
        text, source = read_source(args.position)
        return self.read(self.make_game(args), text, source, args)

    def position_answer(self, pos: Position, args: argparse.Namespace, note: str = "") -> Answer:
        """A position as the game writes it (text, or its JSON object), with a note after the text."""
        text = pos.to_text()
        if note:
            text = text.rstrip("\n") + "\n" + note
        return Answer(pos.to_json(), text)

    # -- pictures ----------------------------------------------------------------------------------
    def picture(self, pos: Position, answer: Answer, args: argparse.Namespace) -> Answer:
        """With ``--svg FILE``: write the position with the answer drawn on it (the answer is unchanged)."""
        path = getattr(args, "svg", None)
        if path:
            svg = self.picture_svg(pos, args.verb, answer, args)
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(svg)
            except OSError as exc:
                raise UsageError(f"cannot write the picture: {exc.strerror}", source="--svg", text=path) from None
        return answer

    def picture_svg(self, pos: Position, verb: str, answer: Answer, args: argparse.Namespace) -> str:
        """The picture of ``verb``'s answer: the position with the answer's marks (a game may draw more)."""
        marks = answer.marks if answer.marks is not None else marks_of(pos, answer.data)
        return pos.svg(marks)

    def cmd_render(self, args: argparse.Namespace) -> Answer:
        """``render FILE... --out DIR``: every position drawn, DIR/NAME.svg each (all read before any is written)."""
        game = self.make_game(args)
        out = Path(args.out)
        if not out.is_dir():
            raise UsageError("not a folder", source="--out", text=args.out)
        pictures = []
        for f in args.positions:
            text, source = read_source(f)
            pos = self.read(game, text, source, args)
            name = "stdin" if f == "-" else Path(f).stem
            pictures.append((out / f"{name}.svg", pos.svg()))
        names = [str(p) for p, _ in pictures]
        if len(set(names)) != len(names):
            raise UsageError("two files would be drawn to the same picture name", source="render", text=" ".join(names))
        for path, svg in pictures:
            try:
                path.write_text(svg, encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"cannot write the picture: {exc.strerror}", source="--out", text=str(path)) from None
        return Answer({"written": names}, "\n".join(f"wrote {n}" for n in names))

    # -- the verbs ---------------------------------------------------------------------------------
    def cmd_new(self, args: argparse.Namespace) -> Answer:
        return self.new_answer(self.make_game(args), args)

    def new_answer(self, game: Game, args: argparse.Namespace) -> Answer:
        """``new``: ``Game.new`` with the seed and the game's options."""
        return self.position_answer(game.new(seed=args.seed, **self.new_options(game, args)), args)

    def new_options(self, game: Game, args: argparse.Namespace) -> dict[str, Any]:
        """The keyword options ``Game.new`` takes from the game's ``new`` options."""
        return {}

    def cmd_random(self, args: argparse.Namespace) -> Answer:
        if getattr(args, "turns", 0) < 0:
            raise UsageError("--turns must be 0 or more")
        return self.random_answer(self.make_game(args), args)

    def random_answer(self, game: Game, args: argparse.Namespace) -> Answer:
        """``random``: ``Game.random`` with the seed and the game's options."""
        return self.position_answer(game.random(args.seed, **self.random_options(game, args)), args)

    def random_options(self, game: Game, args: argparse.Namespace) -> dict[str, Any]:
        """The keyword options ``Game.random`` takes (``turns`` when the verb has ``--turns``)."""
        return {"turns": args.turns} if hasattr(args, "turns") else {}

    def cmd_show(self, args: argparse.Namespace) -> Answer:
        pos = self.position(args)
        return self.picture(pos, self.show_answer(pos, args), args)

    def show_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """``show``: the position as read (it reads back as the same position)."""
        return self.position_answer(pos, args)

    def cmd_check(self, args: argparse.Namespace) -> Answer:
        pos = self.position(args)
        return self.picture(pos, self.check_answer(pos, args), args)

    def check_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """``check``: one protocol move (``--move``) through ``Position.check``: exit 0 legal, 1 illegal."""
        text = getattr(args, "move", None)
        if not text:
            raise UsageError(self.check_needs)
        move = pos.parse_move(text, "--move")
        report = pos.check(move)
        answer = self.report_answer(pos, report, args)
        if answer.marks is None:
            answer.marks = Marks.of_report(report, pos.move_cells(move))
        return answer

    def report_answer(self, pos: Position, report: Report, args: argparse.Namespace) -> Answer:
        """A :class:`Report` in words: the move, legal or not, every broken rule and the notes."""
        text = str(report) + "".join(f"\n  {n}" for n in report.notes)
        return Answer(report.to_json(), text, OK if report.legal else NO)

    def cmd_moves(self, args: argparse.Namespace) -> Answer:
        pos = self.position(args)
        return self.picture(pos, self.moves_answer(pos, args), args)

    def moves_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """``moves``: ``legal_moves()`` in their notation (``--count``: only how many)."""
        moves = [pos.move_text(m) for m in pos.legal_moves()]
        data: dict[str, Any] = {"count": len(moves)}
        if getattr(args, "count", False):
            return Answer(data, str(len(moves)), OK if moves else NO)
        data["moves"] = moves
        return Answer(data, "\n".join([*moves, f"{len(moves)} legal move(s)"]), OK if moves else NO)

    def cmd_solve(self, args: argparse.Namespace) -> Answer:
        pos = self.position(args)
        try:
            answer = self.solve_answer(pos, args)
        except UsageError as exc:
            raise _in_position(exc, args) from None
        return self.picture(pos, answer, args)

    def solve_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """``solve``: :func:`gnomekit.solve` with the game's default goal for this position."""
        r = api.solve(pos)
        data = {"status": str(r.status), "value": plain(r.value), "witness": plain(r.witness)}
        text = f"{r.status}: {words(r.value)}"
        if r.witness is not None:
            text += f"\nwitness: {words(r.witness)}"
        return Answer(data, text, OK if r.found else NO)

    def cmd_hint(self, args: argparse.Namespace) -> Answer:
        pos = self.position(args)
        try:
            answer = self.hint_answer(pos, args)
        except UsageError as exc:
            raise _in_position(exc, args) from None
        return self.picture(pos, answer, args)

    def hint_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """``hint``: :func:`gnomekit.hint` in its own words."""
        h = api.hint(pos)
        move = getattr(h, "move", None)
        return Answer({"move": plain(move), "hint": str(h)}, str(h), OK if move is not None else NO)


def _in_position(exc: UsageError, args: argparse.Namespace) -> UsageError:
    """A solver's refusal that names no place is about the position it was given: name its file."""
    if exc.source is None and not exc.message.startswith("--"):
        exc.located("<stdin>" if args.position == "-" else str(args.position))
    return exc


def plain(value: Any) -> Any:
    """A solver value or witness as JSON: numbers and text as they are, moves in their notation."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list) or type(value) is tuple:  # a move may itself be a (named) tuple
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return str(value)


def words(value: Any) -> str:
    """A solver value or witness for people: a list of moves as their notations, one space apart."""
    if isinstance(value, list) or type(value) is tuple:  # a move may itself be a (named) tuple
        return " ".join(words(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {words(v)}" for k, v in value.items())
    return str(value)


def _cells(value: Any) -> list[Any]:
    return [tuple(c) if isinstance(c, list) else c for c in value] if isinstance(value, list) else []


def _violations(data: Any) -> list[dict[str, Any]]:
    """Every violation object anywhere in an answer's JSON (they all have rule, message, cells)."""
    out: list[dict[str, Any]] = []
    if isinstance(data, dict):
        if {"rule", "message", "cells"} <= set(data):
            out.append(data)
        for v in data.values():
            out += _violations(v)
    elif isinstance(data, list):
        for v in data:
            out += _violations(v)
    return out


def marks_of(pos: Position, data: dict[str, Any]) -> Marks:
    """What to draw for an answer given as JSON: every broken rule's cells, and the answer's move.

    The move is the first of ``move``, ``witness``, ``best``, ``placement``, ``placements``,
    ``plan`` that reads as moves of the position (a notation, or an object with a ``notation``,
    ``text`` or ``cells``); several moves (a plan, a turn's placements) and a ``chain`` of fields
    are also drawn as a route.
    """
    bad: list[Any] = []
    for v in _violations(data):
        for c in _cells(v.get("cells")):
            if c not in bad:
                bad.append(c)
    groups: list[tuple[Any, ...]] = []
    for key in ("move", "witness", "best", "placement", "placements", "plan"):
        value = data.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and isinstance(item.get("cells"), list):
                groups.append(tuple(_cells(item["cells"])))
                continue
            if isinstance(item, dict):
                item = item.get("notation", item.get("text", item.get("move")))
            if not isinstance(item, str):
                continue
            try:
                groups.append(tuple(pos.move_cells(pos.parse_move(item))))
            except (GnomekitError, ValueError):
                continue
        if groups:
            break
    chain = data.get("chain")
    if isinstance(chain, list) and chain and all(isinstance(c, int) for c in chain):
        groups.append(tuple(chain))
    cells: list[Any] = []
    for g in groups:
        cells += [c for c in g if c not in cells]
    routes = tuple(g for g in groups if len(g) > 1) if len(groups) > 1 or "chain" in data else ()
    words = "; ".join(f"[{v['rule']}] {v['message']}" for v in _violations(data)) if bad else ""
    return Marks(move=tuple(cells), illegal=tuple(bad), routes=routes, caption=words)
