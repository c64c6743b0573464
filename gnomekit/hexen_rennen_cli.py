"""``gnomekit hexen-rennen ...``: what is Hexen Rennen's own in the common verbs (gnomekit.verbs): a turn
checked, listed and solved for a roll (``--roll``, ``--turn``), the rules option, play and audit."""

from __future__ import annotations

import argparse
from typing import Any

from gnomekit import api
from gnomekit.batch_cli import (
    add_batch_options,
    add_compare_option,
    backend_of,
    bar,
    batch_answer,
    compare_editions,
    incomplete,
)
from gnomekit.common import NO, OK, Answer, add_common, budget, table
from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.protocol import Game, Position
from gnomekit.models.hexen_rennen.board import board_text
from gnomekit.models.hexen_rennen.edition import STOP, HexenEdition, load_edition
from gnomekit.models.hexen_rennen.game import HexenGame, HexenPosition
from gnomekit.models.hexen_rennen.notation import (
    parse_turn,
    position_to_json,
    position_to_text,
    turn_to_json,
    turn_to_text,
)
from gnomekit.models.hexen_rennen.position import Position as RacePosition
from gnomekit.models.hexen_rennen.position import card_name
from gnomekit.models.hexen_rennen.setup import parse_split, random_position
from gnomekit.models.hexen_rennen.turn import Rules, Step, TurnReport, choice_name, game_over_violation, replay
from gnomekit.solver.core.batch import BatchError
from gnomekit.verbs import GameCLI, SubParsers, seed_option, turns_option


def rules_of(args: argparse.Namespace) -> Rules:
    return Rules(strict_symbol_target=bool(getattr(args, "strict_symbol_target", False)))


def need_roll(args: argparse.Namespace, ed: HexenEdition) -> int:
    if args.roll is None:
        raise UsageError(f"--roll R needed: {args.verb} answers for one die roll")
    if args.roll not in ed.die:
        raise UsageError(f"--roll {args.roll}: the die has faces {', '.join(map(str, ed.die))}")
    return int(args.roll)


def check_players(ed: HexenEdition, n: int) -> int:
    """``--players N`` within the edition's range (the library's own check words it without the option)."""
    if not ed.min_players <= n <= ed.max_players:
        raise UsageError(f"--players must be {ed.min_players}..{ed.max_players}, got {n}")
    return n


MAX_TURNS = 100_000  # play --max-turns: a game ends long before (the default is 1000)
MAX_GAMES = 100_000  # audit --games


def in_range(value: int, option: str, low: int, high: int | None = None) -> int:
    """An integer option checked to lie in ``low..high`` (a negative count or limit means nothing)."""
    if value < low or (high is not None and value > high):
        raise UsageError(f"{option} must be {low}..{high}, got {value}" if high is not None
                         else f"{option} must be {low} or more, got {value}")
    return value


def source_name(args: argparse.Namespace) -> str:
    """The position's name in messages, as the reader names it (``-``: ``<stdin>``)."""
    return "<stdin>" if args.position == "-" else str(args.position)


def over_reason(pos: HexenPosition) -> str | None:
    """At a finished race, why nothing more is played: the rule, who won and the scores (None: not over)."""
    v = game_over_violation(pos.base, pos.edition)
    if v is None:
        return None
    scores = ", ".join(f"{c} {n}" for c, n in pos.scores().items())
    return f"{v.message} ({pos.result()}: {scores})"


def nothing_to_decide(pos: HexenPosition, args: argparse.Namespace) -> None:
    """``solve``/``hint`` on a finished race: a usage error (exit 2) naming the file, as the other games
    answer a game that is over; nothing at all while the race goes on."""
    why = over_reason(pos)
    if why is not None:
        raise UsageError(f"{why}; there is nothing to decide", source=source_name(args))


def _rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strict-symbol-target", action="store_true",
                   help="a symbol card is unplayable when the nearest face-up symbol tile is occupied")


class HexenCLI(GameCLI):
    """The common verbs in Hexen Rennen's words: a turn is checked, listed and solved for a roll."""

    name = "hexen-rennen"
    help = "Hexen Rennen: chain-reaction witch race"
    description = "Hexen Rennen: positions, turns, optimal chains, games."
    verb_help = {
        "new": "a game at setup (stages laid face down, witches at the start)",
        "random": "a mid-game position reached by random legal turns",
        "show": "read a position (text or JSON) and draw it",
        "check": "replay a turn: the first illegal decision with every reason, or the chain",
        "moves": "every legal turn for a roll (witch and decisions) and its chain",
        "solve": "the optimal chain for a roll (--roll R), or expectations (--expect)",
        "hint": "which witch and which cards to play for a roll, and why",
    }
    position_help = None

    def position_help_of(self, verb: str) -> str | None:
        return "position file, or - for stdin" if verb == "show" else None

    def options(self, verb: str, p: argparse.ArgumentParser) -> None:
        if verb == "new":
            p.add_argument("--players", type=int, default=4, help="2-4 (the other clans are neutral; default 4)")
            p.add_argument("--clans", metavar="A,B,..", help="which clans play, in turn order (default the first N)")
            seed_option(p, "shuffles the splits, stages and neutral decks")
            p.add_argument("--split", action="append", metavar="CLAN=T,T,T,T/T,T,T,T/T,T,T,T",
                           help="a clan's secret stage split, e.g. weather=S,2,3,4/S,5,6,7/S,8,9,10 (repeatable)")
            return
        if verb == "random":
            p.add_argument("--players", type=int, default=4)
            turns_option(p, 12, "random turns to play (default 12)", metavar=None)
        elif verb in ("check", "moves", "solve", "hint"):
            p.add_argument("--roll", type=int)
        if verb == "check":
            p.add_argument("--turn", metavar="T", help="'WITCH [CLAN:]DECISION ...', e.g. '12 fog:7 ice:5', or JSON")
        elif verb == "moves":
            p.add_argument("--count", action="store_true", help="print only the number of legal turns")
            p.add_argument("--limit", type=int, default=10000, help="list at most this many (default 10000)")
        elif verb == "solve":
            p.add_argument("--expect", action="store_true",
                           help="before rolling: exact expected final field of each witch per roll (expectimax over "
                                "the die and the face-down tiles; with --roll R only that roll)")
            p.add_argument("--verify", action="store_true", help="also verify the values with the z3 encoding")
            p.add_argument("--max-nodes", type=int, default=MAX_NODES,
                           help="--expect: at most this many states (all witches and rolls together, shared "
                                "equally, what a witch leaves going to the next); intervals [lower, upper] are "
                                "narrowed until they close (exact) or the states run out (then exit 1, status "
                                f"unknown; default {MAX_NODES})")
        if verb != "show":
            _rules_option(p)

    def more_verbs(self, verbs: SubParsers) -> None:
        p = verbs.add_parser("play", help="play whole games with a replayable record and final scores")
        p.add_argument("--players", type=int, default=4)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--policy", choices=["random", "greedy", "solver"], default="greedy")
        p.add_argument("--max-turns", type=int, default=1000, help="stop an endless game after this many turns")
        p.add_argument("--games", type=int, default=1, metavar="K",
                       help="play K games (seeds SEED..SEED+K-1): the winners and scores of each (default 1)")
        add_batch_options(p)
        _rules_option(p)
        add_common(p)
        p.set_defaults(func=cmd_play)

        p = verbs.add_parser("audit", help="play K games; longest chain, forced plays, players who could never move")
        p.add_argument("--games", type=int, default=20)
        p.add_argument("--players", type=int, default=4)
        p.add_argument("--seed", type=int, default=0, help="first game seed (games use seed, seed+1, ...)")
        p.add_argument("--policy", choices=["random", "greedy", "solver"], default="random")
        add_compare_option(p)
        add_batch_options(p)
        _rules_option(p)
        add_common(p)
        p.set_defaults(func=cmd_audit)

    # -- the game and the position -----------------------------------------------------------------
    def make_game(self, args: argparse.Namespace) -> HexenGame:
        """The game with its edition and the rules options (``--strict-symbol-target``)."""
        g = super().make_game(args)
        assert isinstance(g, HexenGame)
        rules = rules_of(args)
        return g if rules == g.rules else HexenGame(g.edition, rules)

    def turn_start(self, args: argparse.Namespace) -> tuple[RacePosition, HexenGame]:
        """The race position before the roll, for the verbs that take a whole turn (``--roll``).

        A position in the middle of a turn (``roll:``/``turn:`` lines) is answered by the protocol
        verbs instead; these raise a usage error naming why.
        """
        gp = self.position(args)
        assert isinstance(gp, HexenPosition)
        if gp.roll is not None:
            raise UsageError(f"{args.verb} takes a position before the roll (--roll R gives the roll); "
                             f"this one is in the middle of a turn: {gp.status()}", source=args.position)
        return gp.base, gp.game

    def position_answer(self, pos: Position, args: argparse.Namespace, note: str = "") -> Answer:
        assert isinstance(pos, HexenPosition)
        return _pos_answer(pos.base, pos.game.edition, note)

    # -- the verbs -------------------------------------------------------------------------------
    def new_options(self, game: Game, args: argparse.Namespace) -> dict[str, Any]:
        assert isinstance(game, HexenGame)
        ed = game.edition
        splits = dict(parse_split(s, ed, "--split") for s in (args.split or []))
        players: int | tuple[str, ...] = args.players
        if args.clans:
            players = tuple(args.clans.split(","))
            for c in players:
                if c not in ed.clan_ids:
                    raise UsageError(f"--clans: unknown clan {c!r} (clans: {', '.join(ed.clan_ids)})")
            if len(players) != args.players and args.players != 4:
                raise UsageError("--clans and --players disagree")
            if len(set(players)) != len(players) or not ed.min_players <= len(players) <= ed.max_players:
                raise UsageError(f"--clans: {ed.min_players}..{ed.max_players} distinct clans")
        else:
            check_players(ed, args.players)
        return {"players": players, "split": splits}

    def random_answer(self, game: Game, args: argparse.Namespace) -> Answer:
        assert isinstance(game, HexenGame)
        ed = game.edition
        check_players(ed, args.players)
        p, played = random_position(ed, args.seed, args.players, args.turns, game.rules)
        note = f"# after {len(played)} random legal turn(s): " + "; ".join(
            f"{pl.roll}:{turn_to_text(pl.plan)}" for pl in played)
        return _pos_answer(p, ed, note)

    def show_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        """Draw a position; also one in the middle of a turn, or a drawing ``show`` printed."""
        assert isinstance(pos, HexenPosition)
        p, ed = pos.base, pos.game.edition
        data = position_to_json(p, ed)
        data["neutral"] = list(p.neutral(ed))
        data["scores"] = {c: p.score(c, ed) for c in p.players}
        data["warnings"] = p.warnings(ed)
        if pos.roll is not None:
            data.update({k: v for k, v in pos.to_json().items() if k in ("roll", "turn")})
            return Answer(data, pos.board())
        over = over_reason(pos)
        if over is not None:  # said in a comment line, so the drawing still reads back
            best = max(data["scores"].values())
            data["result"] = pos.result()
            data["winners"] = [c for c, n in data["scores"].items() if n == best]
            return Answer(data, board_text(p, ed) + f"\n# {over}")
        return Answer(data, board_text(p, ed))

    def check_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        return _check(*self.turn_start(args), args)

    def moves_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, HexenPosition)
        if pos.roll is not None:
            return super().moves_answer(pos, args)  # inside a turn: the protocol's next moves
        over = over_reason(pos)
        if over is not None:
            return _no_moves(pos, args, over)
        return _moves(pos.base, pos.game, args)

    def solve_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, HexenPosition)
        if pos.roll is not None:
            return super().solve_answer(pos, args)  # inside a turn: gnomekit.solve from there
        nothing_to_decide(pos, args)
        if args.expect:
            return _solve_expect(args, pos.base, pos.game)
        return _solve_chain(args, pos.base, pos.game)

    def hint_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, HexenPosition)
        if pos.roll is not None:
            return super().hint_answer(pos, args)
        nothing_to_decide(pos, args)
        h = api.hint(pos, roll=need_roll(args, pos.game.edition))
        return Answer(h.data, h.text, OK if h.data.get("witch") is not None else NO)


def _pos_answer(p: RacePosition, ed: HexenEdition, note: str = "", extra: dict[str, Any] | None = None) -> Answer:
    data = position_to_json(p, ed)
    if extra:
        data.update(extra)
    text = position_to_text(p, ed)
    if note:
        text += "\n" + note
    return Answer(data, text)


def step_text(s: Step) -> str:
    """One landing, for people."""
    if s.tile is None:
        return f"{s.at:>2}  finish field: the chain ends"
    tile = f"{s.tile.clan} {card_name(s.tile.value)}" + (" (turned over)" if s.revealed else "")
    forced = " [forced]" if s.forced and s.kind in ("own-symbol", "other-symbol") else ""
    if s.kind == "own-number":
        what = f"forward {s.tile.value} to {s.to}" if s.to is not None else f"stays ({s.note})"
    elif s.kind == "other-number":
        what = "another clan's number: stops"
    elif s.kind == "neutral-symbol":
        what = f"neutral {s.tile.clan}: {s.note}" + (f" -> {s.to}" if s.to is not None else "")
    elif s.chooser is not None and s.choice is None:
        what = f"{s.chooser} to decide: {s.note}"
    elif s.chooser is None:
        what = f"{s.note}: stays"
    elif s.choice == STOP:
        what = f"{s.chooser} plays no card: stops"
    else:
        direction = "forward" if s.kind == "own-symbol" else "back"
        what = f"{s.chooser} plays {choice_name(s.choice or 0)}: {direction} to {s.to}"
    return f"{s.at:>2}  {tile}{forced}: {what}"


def report_text(rep: TurnReport) -> str:
    lines = []
    if rep.legal:
        if rep.witch is None:
            lines.append(f"legal: no witch can move with a {rep.roll}; the turn passes")
        else:
            lines.append(f"legal: roll {rep.roll}, witch from {rep.witch}; chain "
                         + " -> ".join(map(str, rep.chain)))
    else:
        lines.append(f"illegal at {rep.error_at}:")
        lines += [f"  - {r}" for r in rep.reasons]
        if rep.chain:
            lines.append("chain so far: " + " -> ".join(map(str, rep.chain)))
    for s in rep.steps:
        lines.append("  " + step_text(s))
    if rep.rules.names():
        lines.append("options: " + ", ".join(rep.rules.names()))
    return "\n".join(lines)


def _check(p: RacePosition, game: HexenGame, args: argparse.Namespace) -> Answer:
    """``check --roll R --turn T``: replay a whole turn (the rules engine's report)."""
    ed = game.edition
    roll = need_roll(args, ed)
    if args.turn is None:
        raise UsageError("--turn T needed: the turn to check (e.g. --turn '12 fog:7 ice:5', or 'pass')")
    plan = parse_turn(args.turn, ed, "--turn")
    rep = replay(p, ed, roll, plan, game.rules)
    data: dict[str, Any] = {
        "legal": rep.legal, "roll": roll, "turn": turn_to_json(plan), "witch": rep.witch,
        "chain": rep.chain, "steps": [s.to_json() for s in rep.steps], "error_at": rep.error_at,
        "reasons": rep.reasons, "rules": rep.rules.names(),
        "value": rep.state.at if rep.legal and rep.state is not None else None,
        "position": position_to_json(rep.final, ed) if rep.final is not None else None,
    }
    text = report_text(rep)
    if rep.final is not None:
        text += "\n\nposition after the turn:\n" + position_to_text(rep.final, ed)
    return Answer(data, text, OK if rep.legal else NO)


def _moves(p: RacePosition, game: HexenGame, args: argparse.Namespace) -> Answer:
    """``moves --roll R``: every legal whole turn for the roll, with its chain."""
    from gnomekit.solver.hexen_rennen.moves import all_turns

    ed = game.edition
    roll = need_roll(args, ed)
    turns = all_turns(p, ed, roll, game.rules, limit=in_range(args.limit, "--limit", 0))
    rows = [[turn_to_text(t.plan), " -> ".join(map(str, t.chain)), str(t.chain[-1] if t.chain else "-")]
            for t in turns.turns]
    data = {"roll": roll, "count": turns.count, "complete": turns.complete,
            "turns": [] if args.count else [{"turn": turn_to_text(t.plan), "plan": turn_to_json(t.plan),
                                            "chain": t.chain, "value": t.chain[-1] if t.chain else None}
                                           for t in turns.turns]}
    if args.count:
        text = str(turns.count)
    else:
        text = table(rows, ["turn", "chain", "ends"]) + f"\n{turns.count} legal turn(s)"
        if not turns.complete:
            text += f" (listing stopped at --limit {args.limit})"
    return Answer(data, text, OK if turns.count else NO)


def _no_moves(pos: HexenPosition, args: argparse.Namespace, over: str) -> Answer:
    """``moves`` on a finished race: no turn, and why (exit 1, as any position without a legal turn).

    ``--roll`` may be left out (no roll changes the answer); one given is still checked."""
    roll = need_roll(args, pos.edition) if args.roll is not None else None
    in_range(args.limit, "--limit", 0)
    data: dict[str, Any] = {"roll": roll, "count": 0, "complete": True, "turns": [], "reason": over}
    text = "0" if args.count else f"no legal turn: {over}\n0 legal turn(s)"
    return Answer(data, text, NO)


def line_json(ln: Any) -> dict[str, Any] | None:
    if ln is None:
        return None
    return {"value": ln.value, "witch": ln.witch, "chain": ln.chain, "turn": turn_to_text(ln.plan),
            "plan": turn_to_json(ln.plan), "steps": [s.to_json() for s in ln.steps]}


def _solve_chain(args: argparse.Namespace, p: RacePosition, game: HexenGame) -> Answer:
    """``solve --roll R``: the optimal chain (optionally verified by z3), every witch's value."""
    from gnomekit.solver.hexen_rennen.chain import solve_chain

    ed = game.edition
    roll = need_roll(args, ed)
    sol = solve_chain(p, ed, roll, game.rules)
    data: dict[str, Any] = {
        "roll": roll, "to_move": p.to_move, "value": sol.value, "witch": sol.witch,
        "chain": sol.line.chain if sol.line else [],
        "turn": turn_to_text(sol.line.plan) if sol.line else "pass",
        "steps": [s.to_json() for s in sol.line.steps] if sol.line else [],
        "cooperative": line_json(sol.coop),
        "witches": [{"field": w.origin, "target": w.target, "value": w.value, "cooperative": w.coop,
                     "reasons": w.reasons} for w in sol.witches],
        "measure": "final field", "rules": sol.rules.names(),
        "stats": {"nodes": sol.nodes, "seconds": round(sol.seconds, 4)},
    }
    if args.verify:
        from gnomekit.solver.hexen_rennen.smt import verify_solution

        v = verify_solution(p, ed, roll, sol, game.rules)
        data["verified"] = v.to_json()
    lines = [f"{p.to_move} rolls {roll}"]
    if sol.line is None or sol.value is None:
        lines.append("no witch can move: the turn passes")
        for w in sol.witches:
            lines.append(f"  witch on {w.origin}: " + "; ".join(w.reasons))
    else:
        lines.append(f"optimal chain: witch from {sol.witch} ends on {sol.value}"
                     + (f" ({ed.points(sol.value)} points)" if ed.is_finish(sol.value) else ""))
        lines.append("  chain: " + " -> ".join(map(str, sol.line.chain)) + f"   turn: {turn_to_text(sol.line.plan)}")
        for s in sol.line.steps:
            lines.append("    " + step_text(s))
        if sol.coop is not None:
            lines.append(f"cooperative chain (every clan helps): witch from {sol.coop.witch} ends on {sol.coop.value}")
            lines.append("  chain: " + " -> ".join(map(str, sol.coop.chain))
                         + f"   turn: {turn_to_text(sol.coop.plan)}")
        rows = [[str(w.origin), str(w.target) if w.target is not None else "-",
                 str(w.value) if w.value is not None else "-", str(w.coop) if w.coop is not None else "-",
                 "; ".join(w.reasons)] for w in sol.witches]
        lines.append("witch choices:")
        lines.append(table(rows, ["witch", "die to", "optimal", "cooperative", "why not"]))
        lines.append("(tie rule: equal values -> the witch with the lowest field before the roll)")
    if "verified" in data:
        lines.append("z3: " + data["verified"]["summary"])
    if sol.rules.names():
        lines.append("options: " + ", ".join(sol.rules.names()))
    lines.append(f"searched {sol.nodes} states in {sol.seconds:.3f}s")
    return Answer(data, "\n".join(lines), OK if sol.line is not None else NO)


MAX_NODES = 150000  # --expect default: states, all witches together; 10-35 s CPU at a game start (benchmarks/README.md)


def _solve_expect(args: argparse.Namespace, p: RacePosition, game: HexenGame) -> Answer:
    """``solve --expect``: the exact expectation before rolling (intervals when the states run out)."""
    from gnomekit.solver.core.result import Status
    from gnomekit.solver.hexen_rennen.expect import expect_result

    ed = game.edition
    rolls = [need_roll(args, ed)] if args.roll is not None else None
    result = expect_result(p, ed, game.rules, rolls=rolls, max_nodes=budget(args.max_nodes, "--max-nodes"))
    res = result.stats["expect"]
    data = res.to_json()
    if result.status is Status.UNKNOWN:
        return _expect_bounds(args, p, res, data)
    rows = []
    for w in res.witches:
        rows.append([str(w.origin)] + [("-" if w.by_roll.get(r) is None else f"{w.by_roll[r]:.3f}")
                                        for r in res.rolls] + [f"{w.overall:.3f}"])
    lines = [f"{p.to_move} before rolling: expected final field of each witch (face-down tiles drawn from "
             "their stage's remaining tiles; a witch that cannot move stays)"]
    lines.append(table(rows, ["witch"] + [f"roll {r}" for r in res.rolls] + ["overall"]))
    best = "  ".join(f"{r}: {('-' if b is None else f'{v:.3f} (witch {b})')}"
                     for r, (v, b) in res.best_by_roll.items())
    lines.append("best per roll: " + best)
    lines.append(f"expected value with the best witch for each roll: {res.overall:.3f} (exactly {res.exact_overall})"
                 + (f" (over rolls where some witch moves; P(no move) = {res.p_no_move:.3f})" if res.p_no_move else ""))
    lines.append(f"searched {res.nodes} states in {res.seconds:.3f}s")
    data["status"] = result.status.value
    return Answer(data, "\n".join(lines))


def _expect_bounds(args: argparse.Namespace, p: RacePosition, res: Any, data: dict[str, Any]) -> Answer:
    """Over the state budget: status unknown (exit 1), with the proven interval of every value."""
    from fractions import Fraction

    def iv(b: tuple[Fraction, Fraction] | None) -> str:
        if b is None:
            return "-"
        return f"{float(b[0]):.3f}" if b[0] == b[1] else f"[{float(b[0]):.3f}, {float(b[1]):.3f}]"

    data["status"] = "unknown"
    data["max_nodes"] = args.max_nodes
    data["reason"] = (f"the search spent its {args.max_nodes} states before every interval closed; "
                      "lower/upper are proven bounds (equal: exact)")
    rows = [[str(w.origin)] + [iv(w.bounds_by_roll.get(r)) for r in res.rolls] + [iv(w.bounds_overall)]
            for w in res.witches]
    lines = [f"unknown: the search spent its --max-nodes {args.max_nodes} states before every "
             "interval closed; proven intervals [lower, upper] (a single number: exact)",
             f"{p.to_move} before rolling: expected final field of each witch (face-down tiles drawn from "
             "their stage's remaining tiles; a witch that cannot move stays)",
             table(rows, ["witch"] + [f"roll {r}" for r in res.rolls] + ["overall"])]
    best = "  ".join(f"{r}: " + ("-" if (b := res.bounds_best_by_roll.get(r)) is None else iv(b)
                                 + ("" if res.best_by_roll[r][1] is None else f" (witch {res.best_by_roll[r][1]})"))
                     for r in res.rolls)
    lines.append("best per roll: " + best)
    lines.append(f"expected value with the best witch for each roll: {iv(res.bounds_overall)}"
                 + (f" (over rolls where some witch moves; P(no move) = {res.p_no_move:.3f})" if res.p_no_move else ""))
    lines.append(f"searched {res.nodes} states in {res.seconds:.3f}s; raise --max-nodes to narrow the intervals")
    return Answer(data, "\n".join(lines), NO)


def cmd_play(args: argparse.Namespace) -> Answer:
    from gnomekit.solver.hexen_rennen.play import play_game

    ed = load_edition(args.edition)
    check_players(ed, args.players)
    max_turns = in_range(args.max_turns, "--max-turns", 1, MAX_TURNS)
    if args.games != 1:
        return _play_many(args, ed, in_range(args.games, "--games", 1, MAX_GAMES), max_turns)
    g = play_game(ed, args.players, args.seed, args.policy, rules_of(args), max_turns=max_turns)
    return Answer(g.to_json(), g.text())


def _play_many(args: argparse.Namespace, ed: HexenEdition, games: int, max_turns: int) -> Answer:
    """``play --games K``: K games (one task a game) with each game's winners and scores, and the wins."""
    from gnomekit.solver.hexen_rennen.play import play_games

    backend = backend_of(args)
    stop: BatchError | None = None
    try:
        with bar("play games", args, "game") as show:
            results = play_games(ed, args.players, range(args.seed, args.seed + games), args.policy,
                                 rules_of(args), max_turns, backend, show)
    except BatchError as err:
        results, stop = err.partial, err
    wins: dict[str, int] = {}
    rows, per_game = [], []
    for r in results:
        wins.update({c: wins.get(c, 0) + (c in r["winners"]) for c in r["scores"]})
        per_game.append(r)
        rows.append([str(r["seed"]), str(r["turns_played"]), "yes" if r["finished"] else "no",
                     " ".join(r["winners"]), ", ".join(f"{c} {v}" for c, v in r["scores"].items())])
    data: dict[str, Any] = {"games": games, "players": args.players, "seed": args.seed, "policy": args.policy,
                            "wins": wins, "results": per_game}
    lines = [f"Hexen Rennen: {len(results)} game(s), {args.players} players, policy {args.policy}, seeds "
             f"{args.seed}..{args.seed + games - 1}",
             "wins (a shared win counts for each winner): " + ", ".join(f"{c} {n}" for c, n in wins.items()), "",
             table(rows, ["seed", "turns", "finished", "winners", "scores"])]
    return batch_answer(data, "\n".join(lines), stop)


def cmd_audit(args: argparse.Namespace) -> Answer:
    """``audit``, or with ``--compare A B`` the same audit on two editions and the figures that differ
    (the shared per-policy figures repeat the top-level ones: compared once)."""
    return compare_editions(_audit, args)


def _audit(args: argparse.Namespace) -> Answer:
    from gnomekit.solver.hexen_rennen.audit import audit

    ed = load_edition(args.edition)
    check_players(ed, args.players)
    games = in_range(args.games, "--games", 1, MAX_GAMES)
    backend = backend_of(args)
    try:
        with bar("audit games", args, "game") as show:
            a = audit(ed, games, args.players, args.seed, args.policy, rules_of(args), backend=backend,
                      progress=show)
    except BatchError as err:
        a = err.partial
        data = {**a.to_json(), "incomplete": incomplete(err)}
        return Answer(data, a.text() + "\n" + err.batch.summary(), 130 if err.interrupted else NO)
    return Answer(a.to_json(), a.text())


register = HexenCLI().register
