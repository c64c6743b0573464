"""One CLI verb run on a posted position, with the answer ``--json`` would print and the ``--svg`` picture.

The web page never computes an answer of its own: each request becomes the argument list of
``gnomekit GAME VERB FILE --json --svg PICTURE`` (the position written to a temporary file), parsed
by :func:`gnomekit.cli.build_parser` and run by the verb function, so the page and the command line
cannot disagree.  This module needs no web framework; :mod:`gnomekit.web.app` calls it.

A run gives an :class:`Outcome`: the exit status the CLI would have (0 yes, 1 no, 2 bad input), the
JSON object ``--json`` prints (for status 2: the located error object), the text the CLI prints
without ``--json``, and the picture.  ``solve`` and ``hint`` can run long: :mod:`gnomekit.web.worker`
runs them in a child process that the server stops when the budget is spent.
"""

from __future__ import annotations

import argparse
import shlex
import tempfile
import tomllib
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from gnomekit import api
from gnomekit.common import BAD, NO, Answer
from gnomekit.models.core.errors import GnomekitError, UsageError

#: The verbs the API runs, and those that read a posted position.
VERBS = ("new", "random", "show", "check", "moves", "solve", "hint")
POSITION_VERBS = ("show", "check", "moves", "solve", "hint")
#: Verbs that may search for long: run in a child process under a time budget.
SLOW_VERBS = ("solve", "hint")
#: What a position file is called in answers (the temporary file's path is replaced by it).
SOURCE = "<position>"

#: Options the API sets itself (a posted option of these names is refused).
RESERVED = ("--json", "--svg", "--help")
#: The option by which a slow verb takes a time limit of its own.  The web API passes the request's
#: budget through it, so a search cut short answers as the CLI does: unknown, with the best found and
#: a bound (never "no", never a bare timeout).
TIME_OPTION = "--time-limit"
#: The smallest time limit passed on (seconds; every game's ``--time-limit`` takes it).
MIN_TIME_LIMIT = 0.01


@dataclass(frozen=True)
class GameInfo:
    """What the page needs to know of a game beyond the protocol: how ``check`` names the move."""

    move_option: str  # the option of ``check`` that takes the move
    move_example: str  # a well-formed move of the position ``new`` gives (shown as a placeholder)
    options: dict[str, str] = field(default_factory=dict)  # verb -> suggested extra options


GAME_INFO: dict[str, GameInfo] = {
    "hedge-mage": GameInfo("--place", "T4:R0@0,5"),
    "gnome-hollow": GameInfo("--place", "G07@0,-1:r2"),
    "gnomes-at-midnight": GameInfo("--move", "0,0-0,1", {"solve": "--depth 2", "hint": "--depth 2"}),
    "hexen-rennen": GameInfo("--turn", "start weather:4",
                             {v: "--roll 4" for v in ("check", "moves", "solve", "hint")}),
}


@dataclass
class Outcome:
    """A verb's answer as the CLI gives it: exit status, ``--json`` object, text, and the picture."""

    status: int
    data: dict[str, Any]
    text: str
    svg: str | None = None
    argv: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "answer": self.data, "text": self.text, "svg": self.svg,
                "command": shlex.join(["gnomekit", *self.argv])}


def _raise(message: str) -> None:
    """argparse's complaint about an option, as a located usage error instead of ``exit(2)``."""
    raise UsageError(message, source="options")


def _quiet(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` and every subparser raise on bad options instead of printing and exiting."""
    parser.error = _raise  # type: ignore[method-assign,assignment]
    parser.allow_abbrev = False  # an abbreviation could stand for an option the API sets itself
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _quiet(sub)


def game_name(name: str) -> str:
    """The registry name of a game (an alias is accepted); an unknown name is a usage error."""
    try:
        return api.entry(name).name
    except GnomekitError as exc:
        raise UsageError(exc.message, source="game", text=name) from None


_SHAPES: list[argparse.ArgumentParser] = []  # the CLI's parser, read by verb_parser only (never run, never quieted)


def verb_parser(game: str, verb: str) -> argparse.ArgumentParser:
    """The argparse parser of ``gnomekit GAME VERB`` (to read its options' shapes; the whole parser is
    built once a process for this, about 25 ms a build, twice a request before)."""
    if not _SHAPES:
        from gnomekit.cli import build_parser

        _SHAPES.append(build_parser())
    top = _SHAPES[0]
    groups = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    grp = groups.choices[game]
    verbs = next(a for a in grp._actions if isinstance(a, argparse._SubParsersAction))
    parser: argparse.ArgumentParser = verbs.choices[verb]
    return parser


def _action(parser: argparse.ArgumentParser, option: str) -> argparse.Action:
    for a in parser._actions:
        if option in a.option_strings:
            return a
    raise UsageError(f"{parser.prog} has no option {option}", source="options", text=option)


def option_args(game: str, verb: str, options: dict[str, Any] | None, args: str | list[str] | None,
                move: str | None = None) -> list[str]:
    """The command-line options of a request: ``options`` (name -> value), raw ``args``, and the move.

    A name may be given with or without its dashes; ``True`` is a flag, a list is one value per item
    (repeated for a repeatable option), anything else is one value.  The move goes to the option that
    takes the game's move in ``check`` (split into words where that option takes several).
    """
    parser = verb_parser(game, verb)
    out: list[str] = []
    if isinstance(args, str):
        try:
            out += shlex.split(args)
        except ValueError as exc:
            raise UsageError(f"cannot split the options: {exc}", source="options", text=args) from None
    elif args is not None:
        if not all(isinstance(a, str) for a in args):
            raise UsageError("args: expected a string or a list of strings", source="args")
        out += list(args)
    for name, value in (options or {}).items():
        option = name if name.startswith("-") else "--" + name.replace("_", "-")
        action = _action(parser, option)
        if value is None or value is False:
            continue
        if value is True:
            out.append(option)
        elif isinstance(value, list):
            if action.nargs in ("+", "*"):
                out += [option, *map(str, value)]
            else:
                for v in value:
                    out += [option, str(v)]
        else:
            out += [option, str(value)]
    if move is not None:
        option = GAME_INFO[game].move_option
        action = _action(parser, option)
        out += [option, *shlex.split(move)] if action.nargs in ("+", "*") else [option, move]
    for a in out:
        word = a.split("=", 1)[0]
        if word in RESERVED or word == "-h":
            raise UsageError(f"{word} is set by the web API itself", source="options", text=a)
    return out


def _replace(value: Any, old: str, new: str) -> Any:
    """``value`` (a JSON value) with every occurrence of ``old`` in its strings replaced by ``new``."""
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, old, new) for k, v in value.items()}
    return value


def run_once(game: str, verb: str, position: str | None, options: list[str], as_json: bool) -> Outcome:
    """Run ``gnomekit GAME VERB [FILE] OPTIONS`` in this process, with ``--json --svg PICTURE`` or without.

    ``position`` (text or JSON) is written to a temporary file named in answers as ``<position>``.
    A user error gives status 2 and the CLI's located error object; anything else propagates.
    """
    game = game_name(game)
    if verb not in VERBS:
        raise UsageError(f"unknown verb {verb!r}; expected one of {', '.join(VERBS)}", source="verb", text=verb)
    if verb in POSITION_VERBS and position is None:
        raise UsageError(f"{verb} needs a position", source="position")
    from gnomekit.cli import build_parser

    with tempfile.TemporaryDirectory(prefix="gnomekit-web-") as tmp:
        file = Path(tmp) / "position"
        picture = Path(tmp) / "picture.svg"
        argv = [game, verb]
        if verb in POSITION_VERBS:
            file.write_text(position or "", encoding="utf-8")
            argv.append(str(file))
        argv += list(options)
        shown = [SOURCE if a == str(file) else a for a in argv] + (["--json"] if as_json else [])
        if as_json:
            argv += ["--json"] + (["--svg", str(picture)] if verb in POSITION_VERBS else [])
        try:
            parser = build_parser()
            _quiet(parser)
            ns = parser.parse_args(argv)
            if not getattr(ns, "func", None):
                raise UsageError(f"{game} {verb}: nothing to run", source="verb")
            answer: Answer = ns.func(ns)
        except SystemExit:  # argparse exits only for --help and --version, refused above
            raise UsageError("the options asked argparse to exit", source="options") from None
        except GnomekitError as exc:
            data = _replace(exc.to_json(), str(file), SOURCE)
            return Outcome(BAD, data, _replace(f"gnomekit: error: {exc}", str(file), SOURCE), None, shown)
        svg = picture.read_text(encoding="utf-8") if picture.exists() else None
        data = _replace(answer.data, str(file), SOURCE)
        return Outcome(answer.status, data, _replace(answer.text, str(file), SOURCE), svg, shown)


def with_time_limit(game: str, verb: str, options: list[str], seconds: float) -> list[str] | None:
    """``options`` with ``--time-limit SECONDS`` added, when the verb has that option and ``options`` do
    not set it already (None otherwise: the verb's own limits, or the caller's, apply)."""
    if not any(TIME_OPTION in a.option_strings for a in verb_parser(game, verb)._actions):
        return None
    if any(o == TIME_OPTION or o.startswith(TIME_OPTION + "=") for o in options):
        return None
    return [*options, TIME_OPTION, f"{max(seconds, MIN_TIME_LIMIT):.3f}"]


def refuses_time_limit(out: Outcome) -> bool:
    """Whether ``out`` is the CLI refusing ``--time-limit`` in this mode (e.g. Hedge Mage ``solve``
    without ``--plan``, which has no time budget): then the verb runs without it."""
    return out.status == BAD and TIME_OPTION in f"{out.data.get('source')} {out.data.get('message')}"


def is_unknown(answer: dict[str, Any]) -> bool:
    """Whether a ``--json`` answer is "unknown" (a budget ran out), as each game's CLI says it:
    ``"status": "unknown"``, ``"result": "unknown"`` or ``"unknown": true``."""
    return answer.get("status") == "unknown" or answer.get("result") == "unknown" or answer.get("unknown") is True


def unknown_outcome(game: str, verb: str, options: list[str], budget: float) -> Outcome:
    """The answer when the search was stopped at the budget before it answered at all (it has no time
    limit of its own, or overran it): unknown, exit status 1, with nothing found and nothing proven,
    in the keys of a solver's result (``status``, ``value``, ``witness``, ``bound``)."""
    reason = (f"the budget of {budget:g} s ran out before {game} {verb} answered, so the search was stopped: "
              "nothing was found and nothing proven (give a larger budget, or the solver's own limit as an option)")
    data = {"status": "unknown", "value": None, "witness": None, "bound": None, "exhausted": f"{budget:g} s",
            "reason": reason}
    return Outcome(NO, data, f"unknown: {reason}", None, [game, verb, SOURCE, *options, "--json"])


def run(game: str, verb: str, position: str | None = None, options: list[str] | None = None) -> Outcome:
    """A verb's whole answer: the ``--json`` object and the picture, and the text printed without ``--json``.

    The CLI words some answers differently under ``--json`` (a garden is drawn only without it), so
    the verb runs twice: once as ``--json --svg`` (the object, the status, the picture) and, unless
    that was an error, once as plain text.
    """
    out = run_once(game, verb, position, options or [], as_json=True)
    if out.status != BAD:
        out.text = run_once(game, verb, position, options or [], as_json=False).text
    return out


def position_outcome(game: str, verb: str, options: list[str], position: str | None = None) -> Outcome:
    """``new``/``random`` (or ``show`` of ``position``) with the picture of the position they give.

    ``new`` and ``random`` have no ``--svg``: their text output (what ``new > FILE`` writes) is read
    back with ``show --svg``; an ``--edition`` given to them is passed on to ``show``.
    """
    if verb == "show":
        return run(game, "show", position, options)
    out = run(game, verb, None, options)
    if out.status == BAD:
        return out
    edition: list[str] = []
    for i, a in enumerate(options):
        if a.startswith("--edition="):
            edition = [a]
        elif a == "--edition" and i + 1 < len(options):
            edition = [a, options[i + 1]]
    shown = run(game, "show", out.text, edition)
    out.svg = shown.svg
    return out


def puzzles(game: str) -> list[dict[str, Any]]:
    """The bundled puzzles of a game: name, title, question kind and the position text of each.

    A puzzle's roll (Hexen Rennen) and depth (Gnomes at Midnight) are given too: the page passes them
    on as options.
    """
    entry = api.entry(game_name(game))
    module = import_module(f"gnomekit.solver.{entry.package}.puzzles")
    out = []
    for path in module.puzzle_files():
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        body = data.get("puzzle", data) if isinstance(data.get("puzzle"), dict) else data
        question = body.get("question", data.get("question"))
        item: dict[str, Any] = {
            "file": Path(path).name,
            "name": str(body.get("name", Path(path).stem)),
            "title": str(body.get("title", "")),
            "question": question.get("kind") if isinstance(question, dict) else None,
            "position": body.get("position", ""),
        }
        for key in ("roll", "depth", "decks", "edition"):
            if key in body and isinstance(body[key], int | str):
                item[key] = body[key]
        out.append(item)
    return out


def puzzle(game: str, name: str) -> dict[str, Any]:
    """One bundled puzzle by its name or file name (a usage error names the known ones)."""
    found = puzzles(game)
    for p in found:
        if name in (p["name"], p["file"], p["file"].removesuffix(".toml")):
            return p
    raise UsageError(f"no puzzle {name!r}; known: {', '.join(p['name'] for p in found)}", source="puzzle",
                     text=name)


def games() -> list[dict[str, Any]]:
    """The four games: name, title, aliases, how ``check`` takes a move, suggested options per verb."""
    out = []
    for e in api.GAMES:
        info = GAME_INFO[e.name]
        out.append({"name": e.name, "title": e.title, "aliases": list(e.aliases), "verbs": list(VERBS),
                    "move_option": info.move_option, "move_example": info.move_example,
                    "options": info.options})
    return out


def apply_move(game: str, position: str, move: str) -> tuple[int, dict[str, Any]]:
    """The position after ``move`` through the game protocol (``read``, ``check``, ``apply``).

    Answers ``(http, body)``.  A legal move: status 0 and the new position as ``read`` answers it
    (``show``'s JSON, text and picture).  The CLI reads only positions between turns; a chance node
    the protocol stops at in the middle of a turn (a Gnomes at Midnight moonlight flip still to come)
    is answered by the protocol itself (``to_json``, ``to_text``, ``svg``) and ``note`` says so.  An
    illegal move: status 1, ``legal: false``, every violation, and the unchanged position drawn with
    the broken rules' cells.  Malformed position or move: status 2 (HTTP 400), the located error.
    """
    from gnomekit.models.core.svg import Marks

    game = game_name(game)
    g = api.game(game)
    try:
        pos = g.read(position, source=SOURCE)
        mv = pos.parse_move(move, source="<move>")
    except GnomekitError as exc:
        return 400, {"status": BAD, "answer": exc.to_json(), "text": f"gnomekit: error: {exc}", "svg": None,
                     "position": None, "command": None}
    report = pos.check(mv)
    verdict: dict[str, Any] = {"move": report.move, "legal": report.legal,
                               "violations": [v.to_json() for v in report.violations], "notes": list(report.notes)}
    if not report.legal:
        svg = pos.svg(Marks.of_report(report, pos.move_cells(mv)))
        words = "\n".join(f"  - [{v.rule}] {v.message}" for v in report.violations)
        return 200, {"status": 1, "answer": verdict, **verdict, "text": f"illegal: {report.move}\n{words}",
                     "svg": svg, "position": position, "command": None}
    new = pos.apply(mv)
    body: dict[str, Any] = {"status": 0, **verdict, "command": None}
    chance = new.is_chance_node()
    body["to_move"] = "chance" if chance else ("over" if new.is_terminal() else new.current_player())
    body["chance"] = [{"move": new.move_text(m), "probability": str(p)} for m, p in new.chance_outcomes()] \
        if chance else []
    body["result"] = new.result()
    shown = run(game, "show", new.to_text(), [])
    if shown.status != BAD:
        return 200, {**body, "answer": shown.data, "text": shown.text, "svg": shown.svg, "position": shown.text}
    if not chance:  # the protocol wrote a position its own CLI cannot read: a bug, said as one
        raise RuntimeError(f"{game}: the position after {report.move} does not read back: {shown.text}")
    return 200, {**body, "answer": new.to_json(), "text": new.to_text(), "svg": new.svg(), "position": new.to_text(),
                 "note": f"the command line reads positions between turns only: {shown.data.get('message', '')}"}
