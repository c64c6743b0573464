"""``gnomekit hedge-mage play`` (whole games, replay) and the whole-game part of ``audit`` (thin layer).

Library: solver/hedge_mage/play.py.  Record format: docs/formats-hedge-mage-game.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from gnomekit.batch_cli import (
    add_batch_options,
    backend_of,
    bar,
    batch_answer,
)
from gnomekit.common import BAD, NO, OK, Answer, add_common, budget, read_source, table
from gnomekit.models.core.errors import NotationError, UsageError
from gnomekit.models.core.jsonpos import loads_with_positions, path_str
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, load_edition
from gnomekit.solver.core.batch import Backend, BatchError
from gnomekit.solver.hedge_mage.play import (
    DEFAULT_MAX_STATES,
    POLICIES,
    GameResult,
    RecordError,
    play_game,
    play_games,
    replay,
)

del BAD


def _enchantments(value: str | None) -> tuple[str, ...] | None:
    if not value:
        return None
    return tuple(x.strip() for x in value.split(",") if x.strip())


def _check_common(args: argparse.Namespace) -> None:
    if not 2 <= args.players <= 4:
        raise UsageError("expected 2 to 4 players", source="--players", text=str(args.players))
    if args.policy not in POLICIES:
        raise UsageError(f"unknown policy {args.policy!r}; choose from {', '.join(POLICIES)}", source="--policy",
                         text=args.policy)
    budget(args.max_states, "--max-states")


def _play(ed: HedgeMageEdition, args: argparse.Namespace, seed: int) -> GameResult:
    try:
        return play_game(ed, args.players, seed, args.policy, _enchantments(args.enchantments), args.max_states)
    except UsageError as exc:  # an unknown or clashing card id
        raise exc.located(source="--enchantments") from None


def _score_text(res: GameResult) -> str:
    rows = []
    for p, s in enumerate(res.scores):
        tracks = sum(s.tracks.values())
        rows.append([f"player {p + 1}", str(tracks), str(s.garden), str(s.favourite), str(s.awake_rival),
                     str(res.tokens[p]), str(s.total)])
    t = table(rows, ["", "tracks", "garden", "favourite", "awake", "tokens", "total"])
    who = " and ".join(f"player {w + 1}" for w in res.winners)
    verb = "win (shared)" if len(res.winners) > 1 else "wins"
    return f"{t}\n{who} {verb} ({res.decided})"


def _game_text(res: GameResult, ed: HedgeMageEdition) -> str:
    rec = res.record
    lines = [f"Hedge Mage game: {rec['players']} players, seed {rec.get('seed')}, policy {rec.get('policy')}, "
             f"edition {ed.name}",
             f"enchantments: {' '.join(rec['enchantments'])}; deck: {' '.join(rec['deck'])}"]
    for rnd in rec["rounds"]:
        builds = ", ".join(f"P{b['player']} {b['placement'] or 'nothing'} {b['points']} pt"
                           + (" (2x1 substitution)" if b.get("substitution") else "") for b in rnd["build"])
        runs = ", ".join(f"P{r['player']} {len(r['plan'])} action(s)"
                         + (f" rescued {'+'.join(r['rescued'])}" if r["rescued"] else "")
                         + (f" [{r['method']}]" if r["method"] not in ("random", "greedy", "solver") else "")
                         for r in rnd["run"])
        lines.append(f"round {rnd['round']} ({rnd['card']}): build {builds}; run {runs}")
    lines.append(f"game over after round {len(rec['rounds'])}: {res.end}")
    lines.append(_score_text(res))
    if res.gaps:
        kinds: dict[str, int] = {}
        for g in res.gaps:
            kinds[g.what] = kinds.get(g.what, 0) + 1
        lines.append("rules gaps met: " + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items())))
    return "\n".join(lines)


def _result_json(res: GameResult) -> dict[str, Any]:
    return {
        "rounds": len(res.record["rounds"]),
        "end": res.end,
        "scores": res.record["result"]["scores"],
        "winners": [w + 1 for w in res.winners],
        "decided": res.decided,
        "gaps": [g.to_json() for g in res.gaps],
    }


def cmd_play(args: argparse.Namespace) -> Answer:
    ed = load_edition(args.edition)
    if args.replay:
        return _replay(args, ed)
    _check_common(args)
    if args.games != 1:
        return _many(args, ed)
    res = _play(ed, args, args.seed)
    if args.record:
        Path(args.record).write_text(json.dumps(res.record, indent=1) + "\n", encoding="utf-8")
    data = {"players": args.players, "seed": args.seed, "policy": args.policy, **_result_json(res),
            "record": res.record}
    text = _game_text(res, ed)
    if args.record:
        text += f"\nrecord written to {args.record}"
    return Answer(data, text, OK)


MAX_GAMES = 100_000


def _many(args: argparse.Namespace, ed: HedgeMageEdition) -> Answer:
    """``play --games K``: K games (one task a game), each game's winners and scores, and the totals."""
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"expected 1 to {MAX_GAMES} games", source="--games", text=str(args.games))
    if args.record:
        raise UsageError("a record holds one game (write many with audit --witness-dir)", source="--record")
    backend = backend_of(args)
    seeds = [args.seed + i for i in range(args.games)]
    t0 = time.monotonic()
    stop: BatchError | None = None
    try:
        with bar("play games", args, "game") as show:
            results = _play_many(ed, args, seeds, backend, show)
    except BatchError as err:
        results, stop = err.partial, err
    secs = time.monotonic() - t0
    wins = [0] * args.players
    shared = 0
    rows = []
    per_game = []
    for res in results:
        seed = res.record["seed"]
        if len(res.winners) > 1:
            shared += 1
        for w in res.winners:
            wins[w] += 1
        per_game.append({"seed": seed, **_result_json(res)})
        rows.append([str(seed), str(len(res.record["rounds"])), " ".join(str(w + 1) for w in res.winners),
                     " ".join(str(s.total) for s in res.scores)])
    n = len(results)
    mean = [round(sum(r.scores[p].total for r in results) / n, 3) if n else 0.0 for p in range(args.players)]
    data: dict[str, Any] = {"games": args.games, "players": args.players, "seed": args.seed, "policy": args.policy,
                            "wins": {str(p + 1): wins[p] for p in range(args.players)}, "shared_wins": shared,
                            "mean_scores": {str(p + 1): mean[p] for p in range(args.players)},
                            "results": per_game, "seconds": round(secs, 3)}
    lines = [f"Hedge Mage: {n} game(s), {args.players} players, policy {args.policy}, seeds "
             f"{args.seed}..{args.seed + args.games - 1}, edition {ed.name} (took {secs:.1f} s)",
             "wins (a shared win counts for each winner): "
             + ", ".join(f"player {p + 1} {wins[p]}" for p in range(args.players)) + f"; shared {shared}",
             "mean score: " + ", ".join(f"player {p + 1} {mean[p]:.2f}" for p in range(args.players)),
             "", table(rows, ["seed", "rounds", "winners", "scores"])]
    return batch_answer(data, "\n".join(lines), stop)


def _replay(args: argparse.Namespace, ed: HedgeMageEdition) -> Answer:
    text, name = read_source(args.replay)
    data, positions = loads_with_positions(text, name)
    try:
        res = replay(data, ed)
    except RecordError as exc:
        p = exc.path
        while p and p not in positions:
            p = p[:-1]
        line, col = positions.get(p, (None, None))
        where = path_str(exc.path)
        if tuple(exc.path) == ("edition",):  # a record of another edition: the option that loads it
            exc.message += " (pass --edition)"
        if not exc.rules:
            raise NotationError(f"{where}: {exc.message}", source=name, line=line, column=col) from None
        loc = f"{name}:{line}:{col}" if line is not None else name
        out = {"legal": False, "error": {"path": where, "line": line, "column": col, "message": exc.message}}
        return Answer(out, f"bad record: {loc}: {where}: {exc.message}", NO)
    out = {"legal": True, **_result_json(res)}
    lines = [f"record OK: {len(res.record['rounds'])} round(s) replayed, every placement and plan legal; "
             f"{res.end}", _score_text(res)]
    return Answer(out, "\n".join(lines), OK)


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = verbs.add_parser(
        "play", help="play whole games (2-4 players) or replay a game record",
        description="Play a whole game by the rules: setup, rounds of building and running, end of game, final "
        "scoring with tie-breaks.  Every player uses the same policy.  --replay FILE re-plays a record instead "
        "and re-derives the scores.")
    p.add_argument("--players", type=int, default=2, metavar="N", help="number of players, 2-4 (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed for setup and the random policy (default 0)")
    add_policy_options(p)
    p.add_argument("--enchantments", metavar="A,B,C",
                   help="enchantment card ids, one per gnome kind (default: random cards, setup step 2)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    p.add_argument("--replay", metavar="FILE", help="replay a game record: check it and re-derive the scores")
    p.add_argument("--games", type=int, default=1, metavar="K",
                   help="play K games (seeds SEED..SEED+K-1) and print the wins and scores of each (default 1)")
    add_batch_options(p)
    add_common(p)
    p.set_defaults(func=cmd_play)


def add_policy_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--policy", default="random", metavar="P",
                   help=f"policy of every player: {', '.join(POLICIES)} (default random)")
    p.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, metavar="N",
                   help=f"solver policy: state budget per running phase before it falls back (default "
                   f"{DEFAULT_MAX_STATES})")


# ---------------------------------------------------------------------------------------------
# audit --parts d: whole games (hooked into gnomekit/hedge_mage_audit_cli.py)

GAP_TITLES = {
    "no-legal-placement": "a round whose tile has no legal placement",
    "dead-round": "  of which nothing could be placed (2x1 substitution used or unavailable)",
    "boxed-in": "a character that can never move (no legal step even with unlimited points)",
    "no-allowance": "a character that cannot move this round (0 points, no token)",
    "never-wakes": "a gnome kind that can never wake in a garden under the chosen enchantments",
    "cannot-wake": "a round in which a gnome kind cannot wake anywhere in a garden",
}


def add_game_audit_options(p: argparse.ArgumentParser) -> None:
    """The options part d adds to ``audit`` (``--games`` and ``--seed`` are shared with part b)."""
    p.add_argument("--players", type=int, metavar="N", help="part (d): players per game, 2-4 (default 2)")
    p.add_argument("--policy", metavar="P", help=f"part (d): policy, {', '.join(POLICIES)} (default random)")
    p.add_argument("--max-states", type=int, default=None, metavar="N",
                   help=f"part (d), solver policy: state budget per running phase (default {DEFAULT_MAX_STATES})")
    p.add_argument("--witness-dir", metavar="DIR", help="part (d): write a witness game record per hit to DIR")


def wants_games(args: argparse.Namespace) -> bool:
    """Without ``--parts``: ``--games``, ``--players``, ``--policy``, ``--max-states`` or ``--witness-dir``, and no
    option of parts a-c (``--tiles``, ``--time-per-tile``, ``--time-total``, ``--policies``, ``--time-points``), ask
    for part d only."""
    abc = (args.tiles, args.time_per_tile, args.time_total, args.policies, args.time_points)
    d = (args.games, args.players, args.policy, args.max_states, args.witness_dir)
    return args.parts is None and all(x is None for x in abc) and any(x is not None for x in d)


def _never_wakes(res: GameResult) -> list[tuple[int, str]]:
    rounds = len(res.record["rounds"])
    seen: dict[tuple[int, str], set[int]] = {}
    for g in res.gaps:
        if g.what == "cannot-wake":
            kind = g.detail.split()[1]
            seen.setdefault((g.player, kind), set()).add(g.round)
    return sorted(k for k, v in seen.items() if len(v) == rounds)


def game_audit(args: argparse.Namespace, ed: HedgeMageEdition, backend: Backend | None = None
               ) -> tuple[dict[str, Any], str]:
    """Play ``--games`` games from ``--seed`` on (one task a game) and count the rules gaps; witnesses per hit.

    BatchError when a game raised or Ctrl-C stopped the run: its ``partial`` is (data, text) over
    the games that finished.
    """
    args.players = 2 if args.players is None else args.players
    args.policy = args.policy or "random"
    args.max_states = DEFAULT_MAX_STATES if args.max_states is None else args.max_states
    _check_common(args)
    if args.games < 0:
        raise UsageError("--games must be 0 or more", source="--games")
    wdir = Path(args.witness_dir) if args.witness_dir else None
    if wdir is not None:
        wdir.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    seeds = [args.seed + i for i in range(args.games)]
    try:
        with bar("audit (d) games", args, "game") as show:
            results = _play_many(ed, args, seeds, backend, show)
    except BatchError as err:
        raise BatchError(err.batch, _gap_figures(args, err.partial, time.monotonic() - t0, wdir)) from None
    return _gap_figures(args, results, time.monotonic() - t0, wdir)


def _play_many(ed: HedgeMageEdition, args: argparse.Namespace, seeds: list[int], backend: Backend | None,
               show: Any) -> list[GameResult]:
    try:
        return play_games(ed, args.players, seeds, args.policy, _enchantments(args.enchantments), args.max_states,
                          backend, show)
    except UsageError as exc:  # an unknown or clashing card id
        raise exc.located(source="--enchantments") from None


def _gap_figures(args: argparse.Namespace, results: list[GameResult], secs: float, wdir: Path | None
                 ) -> tuple[dict[str, Any], str]:
    """Part (d)'s figures and text over the games played (in seed order)."""
    games_hit: dict[str, int] = {k: 0 for k in GAP_TITLES}
    hits: dict[str, int] = {k: 0 for k in GAP_TITLES}
    witnesses: list[dict[str, Any]] = []
    first_record: dict[str, Any] = {}
    fallbacks = 0
    for res in results:
        seed = res.record["seed"]
        fallbacks += sum(1 for r in res.record["rounds"] for x in r["run"] if x["method"] != args.policy)
        found: dict[str, list[dict[str, Any]]] = {}
        for g in res.gaps:
            found.setdefault(g.what, []).append(g.to_json())
        for player, kind in _never_wakes(res):
            found.setdefault("never-wakes", []).append(
                {"gap": "never-wakes", "round": None, "player": player + 1,
                 "detail": f"no {kind} gnome could wake in player {player + 1}'s garden in any round"})
        for what, lst in found.items():
            games_hit[what] += 1
            hits[what] += len(lst)
            w = {"seed": seed, **lst[0], "hits": len(lst)}
            if wdir is not None:
                fname = wdir / f"{what}-seed{seed}.json"
                fname.write_text(json.dumps(res.record, indent=1) + "\n", encoding="utf-8")
                w["record_file"] = str(fname)
            if what not in first_record:
                first_record[what] = res.record
            witnesses.append(w)
    data = {"games": args.games, "seed": args.seed, "players": args.players, "policy": args.policy,
            "seconds": round(secs, 3), "solver_fallbacks": fallbacks,
            "gaps": {k: {"games": games_hit[k], "hits": hits[k]} for k in GAP_TITLES},
            "witnesses": witnesses, "first_witness_records": first_record}
    lines = [f"(d) {args.games} whole games, {args.players} players, policy {args.policy}, seeds {args.seed}.."
             f"{args.seed + args.games - 1} (took {secs:.1f} s)"]
    for k, title in GAP_TITLES.items():
        frac = 100 * games_hit[k] / args.games if args.games else 0.0
        first = next((w for w in witnesses if w["gap"] == k), None)
        where = ""
        if first is not None:
            rnd = f" round {first['round']}" if first["round"] is not None else ""
            where = f"  first: seed {first['seed']}{rnd} player {first['player']}: {first['detail']}"
        lines.append(f"  {title}: {games_hit[k]}/{args.games} games ({frac:.1f}%), {hits[k]} hit(s)")
        if where:
            lines.append("   " + where)
    if args.policy == "solver":
        lines.append(f"  solver fell back (restricted solve or greedy) in {fallbacks} running phase(s)")
    lines.append("  replay a witness: gnomekit hedge-mage play --players N --seed S --policy P --record FILE"
                 + ("" if wdir is None else f"; records written to {wdir}"))
    return data, "\n".join(lines)
