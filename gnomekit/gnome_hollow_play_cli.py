"""``gnomekit gnome-hollow play``: whole games with a replayable record, final scores and the winner;
``play --replay FILE`` re-checks a record (thin layer; the game loop is solver/gnome_hollow/play.py,
the record format docs/formats-gnome-hollow.md)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gnomekit import api
from gnomekit.common import NO, OK, Answer, add_common, budget, read_source
from gnomekit.models.core.errors import NotationError, UsageError
from gnomekit.models.core.jsonpos import loads_with_positions, path_str
from gnomekit.models.gnome_hollow.game import GnomeHollowGame
from gnomekit.models.gnome_hollow.setup import variant_options
from gnomekit.solver.gnome_hollow.play import (
    DEFAULT_MAX_STATES,
    POLICIES,
    GameResult,
    RecordError,
    play_game,
    policies_for,
    replay,
)

#: The most games one ``play`` runs.
MAX_GAMES = 10_000


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = verbs.add_parser(
        "play", help="play whole games (2-4 players) with a replayable record, or replay a record",
        description="Play whole games by the rules, from setup to the final scores and the winner; every "
        "move is a legal protocol move and the record lists them all.  --replay FILE re-checks a record "
        "with every rule and reports the first illegal step.")
    p.add_argument("--players", type=int, default=2, metavar="N", help="number of players, 2-4 (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the setup, the draws and the random policy "
                   "(default 0; game K of --games uses seed+K-1)")
    p.add_argument("--policy", default="random", metavar="P[,P...]",
                   help=f"policy of every player, or one per player: {', '.join(POLICIES)} (default random)")
    p.add_argument("--games", type=int, default=1, metavar="K", help="play K games (default 1)")
    p.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, metavar="N",
                   help=f"greedy and hint: placements the solver tries per turn (default {DEFAULT_MAX_STATES})")
    p.add_argument("--variant", action="append", metavar="NAME",
                   help="play with a variant board: advanced-board, trade-board (repeatable)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE (one game)")
    p.add_argument("--replay", metavar="FILE", help="replay a game record: check every move, re-derive the scores")
    add_common(p)
    p.set_defaults(func=cmd_play)


def _game(args: argparse.Namespace) -> GnomeHollowGame:
    g = api.game("gnome-hollow", args.edition)
    assert isinstance(g, GnomeHollowGame)
    return g


def cmd_play(args: argparse.Namespace) -> Answer:
    game = _game(args)
    if args.replay:
        return _replay(args, game)
    ed = game.edition
    if not ed.players_min <= args.players <= ed.players_max:
        raise UsageError(f"expected {ed.players_min} to {ed.players_max} players", source="--players",
                         text=str(args.players))
    try:
        seats = policies_for(args.players, args.policy)
    except UsageError as exc:
        raise exc.located(source="--policy") from None
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"expected 1 to {MAX_GAMES} games", source="--games", text=str(args.games))
    if args.record and args.games != 1:
        raise UsageError("a record holds one game: use --games 1", source="--record", text=args.record)
    max_states = budget(args.max_states, "--max-states")
    variants = tuple(args.variant or ())
    variant_options(ed, variants, source="--variant")
    results = [play_game(game, args.players, args.seed + k, seats, variants, max_states) for k in range(args.games)]
    if args.games == 1:
        res = results[0]
        if args.record:
            try:
                Path(args.record).write_text(json.dumps(res.record, indent=1) + "\n", encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"cannot write the record: {exc.strerror}", source="--record",
                                 text=args.record) from None
        text = _game_text(res)
        if args.record:
            text += f"\nrecord written to {args.record}"
        return Answer({**_result_json(res), "record": res.record}, text, OK)
    wins = {i: 0.0 for i in range(args.players)}
    for r in results:
        names = [s["player"] for s in r.scores]
        for w in r.winners:
            wins[names.index(w)] += 1 / len(r.winners)
    lines = [f"{args.games} games, {args.players} players ({_seats(results[0])}), seeds {args.seed}.."
             f"{args.seed + args.games - 1}"]
    for k, r in enumerate(results):
        lines.append(f"  seed {args.seed + k}: {r.turns} turns, " + ", ".join(
            f"{s['player']} {s['total']}" for s in r.scores) + f"; winner {' and '.join(r.winners)}")
    names = [s["player"] for s in results[0].scores]
    lines.append("wins (a shared win counts a share): " + ", ".join(f"{names[i]} {w:g}" for i, w in wins.items()))
    data = {"games": [_result_json(r) for r in results], "wins": {names[i]: w for i, w in wins.items()}}
    return Answer(data, "\n".join(lines), OK)


def _seats(res: GameResult) -> str:
    return ", ".join(f"{s['player']} {p}" for s, p in zip(res.scores, res.record["policies"], strict=True))


def _score_lines(res: GameResult) -> list[str]:
    out = ["final scores (flowers + rings + treasure; ties: most unsold mushrooms):"]
    for s in res.scores:
        out.append(f"  {s['player']}: {s['flowers']} + {s['rings']} + {s['treasure']} = {s['total']} "
                   f"({s['unsold_mushrooms']} unsold mushroom(s)), rank {s['rank']}")
    verb = "win (shared)" if len(res.winners) > 1 else "wins"
    out.append(f"{' and '.join(res.winners)} {verb}")
    return out


def _game_text(res: GameResult) -> str:
    rec = res.record
    finals = sum(1 for t in rec["turns"] if t.get("final"))
    lines = [f"Gnome Hollow game: {rec['players']} players ({_seats(res)}), seed {rec['seed']}, edition "
             f"{rec['edition']}" + (f", variants {' '.join(rec['variants'])}" if rec["variants"] else ""),
             f"{res.turns} turns ({res.turns - finals} with tile placement, {finals} final gnome actions); "
             f"the end: {res.end}"]
    lines += _score_lines(res)
    if res.fallbacks:
        lines.append(f"(a solver move was not legal {res.fallbacks} time(s): the first legal move was played)")
    return "\n".join(lines)


def _result_json(res: GameResult) -> dict[str, Any]:
    return {"players": res.record["players"], "seed": res.record["seed"], "policies": res.record["policies"],
            "turns": res.turns, "end": res.end, "scores": res.scores, "winners": res.winners,
            "fallbacks": res.fallbacks}


def _replay(args: argparse.Namespace, game: GnomeHollowGame) -> Answer:
    text, name = read_source(args.replay)
    data, positions = loads_with_positions(text, name)
    try:
        res = replay(data, game)
    except RecordError as exc:
        p = exc.path
        while p and p not in positions:
            p = p[:-1]
        line, col = positions.get(p, (None, None))
        where = path_str(exc.path) or "the record"
        if not exc.rules:
            raise NotationError(f"{where}: {exc.message}", source=name, line=line, column=col) from None
        loc = f"{name}:{line}:{col}" if line is not None else name
        out = {"legal": False, "error": {"path": where, "line": line, "column": col, "message": exc.message}}
        return Answer(out, f"bad record: {loc}: {where}: {exc.message}", NO)
    lines = [f"record OK: {res.turns} turns replayed, every move legal; the end: {res.end}", *_score_lines(res)]
    return Answer({"legal": True, **_result_json(res)}, "\n".join(lines), OK)
