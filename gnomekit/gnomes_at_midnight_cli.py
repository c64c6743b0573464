"""``gnomekit gnomes-at-midnight ...``: what is Gnomes at Midnight's own in the common verbs (gnomekit.verbs):
its options, the moon option, and its answers in its words."""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from typing import Any

from gnomekit import api
from gnomekit.batch_cli import (
    add_batch_options,
    add_compare_option,
    audit_answer,
    backend_of,
    bar,
)
from gnomekit.common import NO, OK, Answer, add_common, budget
from gnomekit.gnomes_at_midnight_opening_cli import add_opening_options, run_opening
from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.protocol import Game, Position, Report
from gnomekit.models.gnomes_at_midnight.edition import COLOURS, TERRAINS, MidnightEdition
from gnomekit.models.gnomes_at_midnight.game import MidnightGame, MidnightPosition
from gnomekit.models.gnomes_at_midnight.moves import Afterstate, after_move
from gnomekit.models.gnomes_at_midnight.notation import assumed_decks, grid_lines, read_position
from gnomekit.models.gnomes_at_midnight.position import Position as State
from gnomekit.models.gnomes_at_midnight.setup import random_position
from gnomekit.solver.core.batch import BatchError
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.core.result import Status
from gnomekit.verbs import GameCLI, SubParsers, seed_option, turns_option


class MidnightCLI(GameCLI):
    """The common verbs in Gnomes at Midnight's words, and its solving options."""

    name = "gnomes-at-midnight"
    help = "Gnomes at Midnight: moves, forced wins, tablebase"
    description = ("Gnomes at Midnight: positions, legal moves, forced wins. "
                   "--edition takes a TOML file or a bundled name (default, mini).")
    verb_help = {
        "new": "the position at setup (decks shuffled by the seed, known order)",
        "random": "a position after K random non-winning turns",
        "show": "read a position (text or JSON) and print it",
        "check": "is a move legal? every broken rule, or what it does",
        "moves": "every legal move of the side to move",
        "solve": "forced win for the side to move within N of its turns",
        "hint": "the best move and why",
    }
    position_help = "position file (text or JSON), or - for stdin"
    check_needs = "check needs --move MOVE (e.g. --move 2,0-2,1, 0,0=1,1, +2,0 or pass)"

    def options(self, verb: str, p: argparse.ArgumentParser) -> None:
        if verb == "new":
            seed_option(p, "shuffles the decks and draws the dance card")
            p.add_argument("--dance", metavar="NAME", help="the face-up dance card (default: drawn by the seed)")
        elif verb == "random":
            turns_option(p, 6, "turns to play (default 6)")
        elif verb == "check":
            p.add_argument("--move", metavar="MOVE", help="r,c-r,c step, r,c=r,c pair step, +r,c add, pass, or JSON")
        elif verb == "moves":
            p.add_argument("--count", action="store_true", help="print only the number of moves")
        elif verb == "solve":
            solve_options(p)
        elif verb == "hint":
            p.add_argument("--depth", type=int, default=3, metavar="N", help="own turns searched (default 3)")
            p.add_argument("--decks", choices=["open", "hidden"], default=None, help=DECKS_HELP)
            budget_options(p)

    def late_options(self, verb: str, p: argparse.ArgumentParser) -> None:
        p.add_argument("--moon-restricts-adding", action="store_true",
                       help="the face-up moonlight card also forbids adding onto its terrain (option)")

    def more_verbs(self, verbs: SubParsers) -> None:
        p = verbs.add_parser("audit", help="simulated games: who wins, by which condition, how long, what never "
                             "happens; or --opening: does the first player force a win?",
                             description="Play K games for every policy and dance card of the edition "
                             "(one task a game on --jobs workers or Ray) and report wins by side and condition, "
                             "game lengths, passes, repeated positions, dance cards never completed, with "
                             "witness positions that show, solve and hint open. With --opening, settle the "
                             "opening by search instead: for every dance card and deck mode, a forced win "
                             "for the first player (with a checked proof tree), none within N turns, or unknown.")
        audit_options(p)
        p.set_defaults(func=cmd_audit)
        p = verbs.add_parser("proof", help="replay a forced-win proof tree file with the independent checker",
                             description="Check a proof tree of a forced win (as audit --opening --opening-proofs "
                             "writes them; .json or .json.gz) against the reference rules: every move legal, "
                             "every flip and every reply of the defender covered, every branch won within the "
                             "claimed turns. Exit 0 when the proof holds, 1 when it does not, 2 when the file "
                             "cannot be read as a proof.")
        p.add_argument("file", metavar="FILE", help="proof file (.json or .json.gz), or - for stdin (JSON)")
        p.add_argument("--max-nodes", type=int, default=5_000_000, metavar="N",
                       help="give up past N distinct positions (default 5000000)")
        add_common(p, edition=False)
        p.set_defaults(func=cmd_proof)

    # -- the game and the position -----------------------------------------------------------------
    def make_game(self, args: argparse.Namespace) -> Game:
        g = super().make_game(args)
        if args.moon_restricts_adding:
            assert isinstance(g, MidnightGame)
            return MidnightGame(g.edition.with_options(True))
        return g

    def read(self, game: Game, text: str, source: str, args: argparse.Namespace) -> MidnightPosition:
        """The position; without --edition, under the bundled edition it names (e.g. from ``new --edition
        mini``: its full decks and missing keys come from it); the moon option applies to it."""
        pos = super().read(api.game(self.name, args.edition), text, source, args)
        assert isinstance(pos, MidnightPosition)
        args.assumed = assumed_decks(text, pos.state)
        if getattr(args, "decks", "") is None:  # solve/hint without --decks: open when the orders are known
            args.decks = "hidden" if args.assumed else "open"
            if args.assumed:
                args.assumed.append(HIDDEN_BY_DEFAULT)
        for a in args.assumed:  # stated, not silent: a warning line (stderr keeps the output readable back)
            sys.stderr.write(f"gnomekit: warning: {source}: {a}\n")
        if pos.afterstate:  # the command line answers between turns: the rules layer's reader says why not
            read_position(text, source, pos.game.edition)
            raise AssertionError("read_position accepted an afterstate")  # pragma: no cover
        if args.moon_restricts_adding:
            g = MidnightGame(pos.game.edition.with_options(True))
            pos = g.read(text, source)
            if not pos.state.moon_restricts_adding:
                pos = g.position(replace(pos.state, moon_restricts_adding=True), pos.afterstate)
        return pos

    def position_answer(self, pos: Position, args: argparse.Namespace, note: str = "") -> Answer:
        return Answer(pos.to_json(), pos.to_text() + note)

    # -- the verbs -------------------------------------------------------------------------------
    def new_options(self, game: Game, args: argparse.Namespace) -> dict[str, Any]:
        return {"dance": args.dance, "moon_restricts_adding": args.moon_restricts_adding}

    def random_answer(self, game: Game, args: argparse.Namespace) -> Answer:
        assert isinstance(game, MidnightGame)
        state, played = random_position(game.edition, args.seed, args.turns)
        note = f"\nstopped after {played} turn(s): every legal turn would win\n" if played < args.turns else ""
        return self.position_answer(game.position(state), args, note)

    def show_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, MidnightPosition)
        warnings = pos.warnings()
        text = pos.to_text()
        if warnings:
            text += "\nwarnings:\n" + "\n".join(f"  - {w}" for w in warnings)
        return Answer(_assumed({**pos.to_json(), "warnings": warnings}, args), text)

    def report_answer(self, pos: Position, report: Report, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, MidnightPosition)
        state = pos.state
        move = pos.parse_move(args.move, "--move")
        me = COLOURS[state.to_move]
        data: dict[str, Any] = {"move": move.to_json(), "to_move": me, "legal": report.legal,
                                "violations": [v.to_json() for v in report.violations]}
        if not report.legal:
            lines = [f"illegal for {me}: {report.move}"] + [f"  - [{v.rule}] {v.message}" for v in report.violations]
            return Answer(_assumed(data, args), "\n".join(lines), NO)
        a = report.detail
        assert isinstance(a, Afterstate)
        data.update({"bumped": a.bumped, "wins": list(a.wins), "reshuffle": a.reshuffle,
                     "flip": [{"terrain": TERRAINS[t], "weight": w} for t, w in a.flips]})
        lines = [f"legal for {me}: {report.move}"]
        if a.bumped:
            lines.append(f"bumps {a.bumped} {COLOURS[1 - state.to_move]} gnome(s) off the board")
        if a.wins:
            lines.append(f"{me} wins: {', '.join(a.wins)}")
        lines.append(f"moonlight: {_flip_text(a)}")
        lines.append("")
        lines += grid_lines(a.pos)
        return Answer(_assumed(data, args), "\n".join(lines), OK)

    def moves_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, MidnightPosition)
        state = pos.state
        moves = pos.legal_moves()
        data: dict[str, Any] = {"to_move": COLOURS[state.to_move], "count": len(moves)}
        if args.count:
            return Answer(_assumed(data, args), str(len(moves)))
        rows = []
        jm = []
        for m in moves:
            a = after_move(state, m)
            d = m.to_json()
            d["bumps"] = a.bumped
            d["wins"] = list(a.wins)
            jm.append(d)
            notes = []
            if a.bumped:
                notes.append(f"bumps {a.bumped}")
            if a.wins:
                notes.append("wins: " + ", ".join(a.wins))
            rows.append(f"  {m.text():<10} {'; '.join(notes)}".rstrip())
        data["moves"] = jm
        text = f"{COLOURS[state.to_move]} to move: {len(moves)} legal move(s)\n" + "\n".join(rows)
        return Answer(_assumed(data, args), text)

    def solve_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, MidnightPosition)
        return _solve(pos, args)

    def hint_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, MidnightPosition)
        _depth(args)
        h = api.hint(pos, _budget(args), depth=args.depth, decks=args.decks)
        lines = [f"{COLOURS[pos.state.to_move]}: {h.move or '(no move)'} [{h.kind}]"] + [f"  - {r}" for r in h.reasons]
        if "line" in h.data:
            lines += ["main line:"] + _line_text(h.data["line"])
        return Answer(_assumed(h.to_json(), args), "\n".join(lines), OK if h.move and not h.data.get("unknown") else NO)


def _assumed(data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """``data`` with ``"assumed"``: what the reader assumed for the position (only when it assumed something)."""
    assumed = getattr(args, "assumed", [])
    return {**data, "assumed": assumed} if assumed else data


def _flip_text(a: Afterstate) -> str:
    if not a.flips:
        return "no moonlight card is turned" if not a.wins else "the game is over"
    if len(a.flips) == 1 and not a.reshuffle:
        return f"turns {TERRAINS[a.flips[0][0]]}"
    total = sum(w for _, w in a.flips)
    what = ", ".join(f"{TERRAINS[t]} {w}/{total}" for t, w in a.flips)
    return ("deck runs out and is reshuffled; " if a.reshuffle else "") + f"chance: {what}"


def _depth(args: argparse.Namespace) -> int:
    """``--depth N``: own turns, at least 1 (the option's words; the solvers say ``depth``)."""
    if args.depth < 1:
        raise UsageError("--depth must be 1 or more")
    return int(args.depth)


def _budget(args: argparse.Namespace) -> Budget | None:
    """``--max-nodes`` and ``--time-limit`` as one Budget (None: no limit); bad values name the option."""
    nodes = budget(args.max_nodes, "--max-nodes")
    seconds = args.time_limit
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise UsageError("expected a finite number of seconds > 0", source="--time-limit", text=str(seconds))
    if nodes is None and seconds is None:
        return None
    return Budget(nodes, seconds)


def budget_options(p: argparse.ArgumentParser) -> None:
    """``--max-nodes`` and ``--time-limit``: a search cut short answers unknown (exit 1)."""
    p.add_argument("--max-nodes", type=int, metavar="N",
                   help="stop after N search nodes (the answer is then unknown, with the depths proven)")
    p.add_argument("--time-limit", type=float, metavar="S",
                   help="stop after S seconds (the answer is then unknown, with the depths proven)")


def _line_text(line: list[dict[str, Any]]) -> list[str]:
    out = []
    turn = 0
    for st in line:
        if st["side"] == line[0]["side"]:
            turn += 1
            prefix = f"  {turn}. "
        else:
            prefix = " " * (len(str(turn)) + 4)
        extra = ""
        if "flip" in st:
            extra = f" (flips {st['flip']}{', by chance' if st.get('chance') else ''})"
        if "wins" in st:
            extra = f"  wins: {', '.join(st['wins'])}"
        out.append(f"{prefix}{st['side']} {st['move']}{extra}")
    return out


def _solve(p: MidnightPosition, args: argparse.Namespace) -> Answer:
    """``solve``: the forced-win search (with ``--probability`` from the same search), or the tablebase."""
    from gnomekit.solver.gnomes_at_midnight.search import SearchOptions, solve

    pos = p.state
    limit = _budget(args)
    if args.tablebase:
        if limit is not None:
            raise UsageError("--max-nodes and --time-limit limit the search, not the tablebase",
                             source="--tablebase")
        return _tablebase_answer(pos, p.game.edition, args)
    depth = _depth(args)
    res = solve(pos, depth, args.decks, args.probability,
                options=SearchOptions(meter=limit.meter()) if limit is not None else None)
    me = COLOURS[pos.to_move]
    if res.status is Status.UNKNOWN:
        return _unknown_answer(res.stats, me, args)
    data: dict[str, Any] = {
        "result": "win" if res.value is not None else "no-win",
        "turns": res.value,
        "move": res.witness,
        "to_move": me,
        "depth": args.depth,
        "decks": args.decks,
        "line": res.stats.get("line", []),
        "nodes": res.stats["nodes"],
        "seconds": round(res.seconds, 4),
    }
    if args.probability:
        data["probability"] = res.stats["probability"]
    if res.value is not None:
        lines = [f"{me} to move: forced win in {res.value} turn(s) ({args.decks} decks, depth {args.depth})",
                 f"first move: {res.witness}", "main line:"] + _line_text(data["line"])
    else:
        lines = [f"{me} to move: no forced win within {args.depth} turn(s) ({args.decks} decks); "
                 "this is not a loss"]
    if args.probability:
        lines.append(f"win probability within {args.depth} turn(s) (uniform flips, opponent minimising): "
                     f"{res.stats['probability']:.4f}")
    lines.append(f"nodes: {res.stats['nodes']}, {res.seconds:.2f}s")
    return Answer(_assumed(data, args), "\n".join(lines), OK if res.value is not None else NO)


def _unknown_answer(stats: dict[str, Any], me: str, args: argparse.Namespace) -> Answer:
    """A search cut short by ``--max-nodes``/``--time-limit``: unknown, with the depths it did prove."""
    proven = stats["no_win_within"]
    data: dict[str, Any] = {
        "result": "unknown", "turns": None, "move": None, "to_move": me, "depth": args.depth,
        "decks": args.decks, "bound": {"no_win_within": proven}, "exhausted": stats["exhausted"],
        "nodes": stats["nodes"],
    }
    lines = [f"{me} to move: unknown: the budget ({stats['exhausted']}) ran out before depth {args.depth} "
             f"was searched ({args.decks} decks)",
             f"proven: no forced win within {proven} turn(s)" if proven else "proven: nothing (not even depth 1)",
             f"nodes: {stats['nodes']}"]
    return Answer(_assumed(data, args), "\n".join(lines), NO)


def _cycle_arg(text: str | None, what: str) -> tuple[int, ...] | None:
    from gnomekit.models.gnomes_at_midnight.edition import terrain_index

    if not text:
        return None
    out = []
    for w in text.split(","):
        t = terrain_index(w.strip()) if len(w.strip()) > 1 else None
        if t is None:
            raise UsageError(f"{what}: expected terrains separated by commas (grass,tulips,cobblestone)",
                             text=w)
        out.append(t)
    return tuple(out)


def _progress() -> Any:
    import sys

    state = {"last": ""}

    def show(stage: str, fraction: float) -> None:
        bar = "#" * int(fraction * 30)
        line = f"\rtablebase {stage:<15} [{bar:<30}] {fraction * 100:5.1f}%"
        if line != state["last"]:
            sys.stderr.write(line)
            sys.stderr.flush()
            state["last"] = line
        if stage == "done":
            sys.stderr.write("\n")

    return show


def _tablebase_answer(pos: State, ed: MidnightEdition, args: argparse.Namespace) -> Answer:
    from gnomekit.solver.gnomes_at_midnight.tablebase import default_cycles, describe, load_or_build

    cycles = []
    for s, flag in ((0, args.cycle_green), (1, args.cycle_blue)):
        c = _cycle_arg(flag, f"--cycle-{COLOURS[s]}")
        cycles.append(default_cycles(pos, ed)[s] if c is None else c)
    try:
        tb, built = load_or_build(ed, pos.dance, (cycles[0], cycles[1]), _progress())
    except UsageError as exc:
        if "placements a side" not in exc.message:
            raise
        raise UsageError(f"{exc.message} (use --edition mini)") from None  # the library does not name options
    value, turns = tb.lookup(pos)
    from dataclasses import replace as _replace

    from gnomekit.models.gnomes_at_midnight.setup import new_position

    start = _replace(new_position(ed, 0), known=(cycles[0], cycles[1]), dance=pos.dance)
    sv, st = tb.lookup(start)
    info = describe(tb)
    me = COLOURS[pos.to_move]
    data: dict[str, Any] = {
        "result": "win" if value == "win" else "no-win",
        "value": value, "turns": turns if value == "win" else None, "loss_in": turns if value == "loss" else None,
        "move": None, "to_move": me, "tablebase": {**info, "built_now": built,
                                                    "cycles": {COLOURS[s]: [TERRAINS[t] for t in cycles[s]]
                                                               for s in (0, 1)},
                                                    "start": {"value": sv, "turns": st}},
    }
    if value == "win":
        from gnomekit.solver.gnomes_at_midnight.search import solve as _solve

        res = _solve(pos, turns or 1)
        data["move"] = res.witness
    words = {"win": f"{me} wins in {turns} turn(s)", "loss": f"{me} loses: the opponent wins in {turns} turn(s)",
             "draw": "draw: no side can force a win (repetition has no rule)"}
    c = info["counts"]
    lines = [f"tablebase ({ed.name}, deck cycles green {'/'.join(TERRAINS[t] for t in cycles[0])}, blue "
             f"{'/'.join(TERRAINS[t] for t in cycles[1])}): {words[value]}"]
    if data["move"]:
        lines.append(f"first move: {data['move']}")
    lines.append(f"starting position: {sv}" + (f" in {st}" if st else ""))
    lines.append(f"positions: {info['positions']}  win {c['win']}  loss {c['loss']}  draw {c['draw']}"
                 f"  ({'built' if built else 'loaded'}, build {info['build_seconds']}s)")
    return Answer(_assumed(data, args), "\n".join(lines), OK if value == "win" else NO)


DECKS_HELP = ("open: the deck orders are known; hidden: every flip is chance (default: open when the "
              "position gives both deck lines, else hidden)")
HIDDEN_BY_DEFAULT = ("the deck orders are not all given, so the search treats every flip as chance "
                     "(hidden decks); --decks open searches with the assumed orders instead")


def solve_options(p: argparse.ArgumentParser) -> None:
    """The options of ``solve``: the search's depth and decks, or the tablebase and its deck cycles."""
    p.add_argument("--depth", type=int, default=3, metavar="N", help="own turns (default 3)")
    p.add_argument("--decks", choices=["open", "hidden"], default=None, help=DECKS_HELP)
    budget_options(p)
    p.add_argument("--probability", action="store_true",
                   help="also the win probability within N turns (uniform flips, opponent minimising)")
    p.add_argument("--tablebase", action="store_true",
                   help="answer from the retrograde tablebase (built once and cached; meant for --edition mini)")
    p.add_argument("--cycle-green", metavar="T,T,T", help="tablebase mode: green's repeating deck order")
    p.add_argument("--cycle-blue", metavar="T,T,T", help="tablebase mode: blue's repeating deck order")


# -- audit -------------------------------------------------------------------------------------


def audit_options(p: argparse.ArgumentParser) -> None:
    """The options of ``audit`` (all in one place: another mode adds its own here)."""
    p.add_argument("--games", type=int, default=20, metavar="K", help="games per policy and dance card (default 20)")
    p.add_argument("--seed", type=int, default=0, help="game i deals with seed SEED+i (default 0)")
    p.add_argument("--policies", metavar="P1,P2", help="random, greedy (default both)")
    p.add_argument("--dance", metavar="C1,C2", help="only these dance cards (default every card of the edition)")
    p.add_argument("--max-turns", type=int, default=300, metavar="N",
                   help="a game not won after N turns counts as unfinished (default 300)")
    p.add_argument("--witness-dir", metavar="DIR", help="write each witness position as DIR/NAME.json")
    add_compare_option(p)
    add_batch_options(p)
    add_common(p)
    p.add_argument("--moon-restricts-adding", action="store_true",
                   help="the face-up moonlight card also forbids adding onto its terrain (option)")
    add_opening_options(p)


def _audit_run(args: argparse.Namespace, edition: str | None) -> tuple[dict[str, Any], str, BatchError | None]:
    from gnomekit.solver.gnomes_at_midnight.audit import POLICIES, audit, text

    game = api.game("gnomes-at-midnight", edition)
    assert isinstance(game, MidnightGame)
    ed = game.edition.with_options(True) if args.moon_restricts_adding else game.edition
    if not 1 <= args.games <= 100_000:
        raise UsageError("expected 1 to 100000 games", source="--games", text=str(args.games))
    if not 1 <= args.max_turns <= 100_000:
        raise UsageError("expected 1 to 100000 turns", source="--max-turns", text=str(args.max_turns))
    policies = [x.strip() for x in (args.policies or ",".join(POLICIES)).split(",") if x.strip()]
    for pol in policies:
        if pol not in POLICIES:
            raise UsageError(f"unknown policy; choose from {', '.join(POLICIES)}", source="--policies", text=pol)
    dances = [x.strip() for x in args.dance.split(",") if x.strip()] if args.dance else None
    for card in dances or ():
        if ed.dance_card(card) is None:
            raise UsageError("unknown dance card; the edition has: " + ", ".join(d.name for d in ed.dance),
                             source="--dance", text=card)
    try:
        with bar("audit games", args, "game") as show:
            a = audit(ed, args.games, args.seed, policies, args.max_turns, dances, backend_of(args), show)
        return a.to_json(), text(a), None
    except BatchError as err:
        return err.partial.to_json(), text(err.partial), err


def cmd_audit(args: argparse.Namespace) -> Answer:
    """``audit``: the simulated audit (or, with ``--compare``, the same audit on two editions; with
    ``--opening``, the opening settled by search)."""
    if args.opening:
        if args.compare:
            raise UsageError("--opening and --compare do not go together")
        game = api.game("gnomes-at-midnight", args.edition)
        assert isinstance(game, MidnightGame)
        ed = game.edition.with_options(True) if args.moon_restricts_adding else game.edition
        return run_opening(args, ed)
    return audit_answer(_audit_run, args, _write_witnesses)


def cmd_proof(args: argparse.Namespace) -> Answer:
    """``proof FILE``: the independent checker's verdict on a proof tree file."""
    from gnomekit.solver.gnomes_at_midnight.proof import check_proof, load_proof

    if args.max_nodes < 1:
        raise UsageError("expected a node limit >= 1", source="--max-nodes", text=str(args.max_nodes))
    if args.file == "-":
        data, source = load_proof(sys.stdin.buffer.read(), "<stdin>")
    else:
        data, source = load_proof(None, args.file)
    chk = check_proof(data, max_nodes=args.max_nodes)
    out = {"file": source, "attacker": data.get("attacker"), "decks": data.get("decks"),
           "edition": data.get("edition"), **chk.to_json()}
    if chk.ok:
        text = (f"{source}: the proof holds: {data.get('attacker')} wins within {chk.turns} turn(s) "
                f"({data.get('decks')} decks; claimed {chk.claimed}), {chk.nodes:,} positions and "
                f"{chk.leaves:,} winning moves replayed with the reference rules")
        return Answer(out, text)
    text = f"{source}: the proof does not hold:\n" + "\n".join(f"  - {p}" for p in chk.problems)
    return Answer(out, text, NO)


def _write_witnesses(found: dict[str, Any], folder: str) -> str:
    import json
    from pathlib import Path

    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for key, w in found.items():
            (out / f"{key}.json").write_text(json.dumps(w["position"], indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the witnesses: {exc.strerror}", source="--witness-dir", text=folder) from None
    return f"witness positions written to {out}/: " + ", ".join(f"{k}.json" for k in found)


register = MidnightCLI().register
