"""``gnomekit hedge-mage audit``: rules verification over the edition (thin: parse, call, render).

Three parts: (a) per tile, the fewest earlier placements after which the tile has
no legal placement (SAT, proven or bounds with status "unknown"); (b) simulated
games, how often a round has no legal placement; (c) the most movement points of
one placement without bonus sigils.  Parts (a), (b) and (d) run one task a tile or a game on
the batch runner (``--jobs``, ``--ray``); the progress display goes to stderr on a terminal.
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from typing import Any

from gnomekit import hedge_mage_play_cli as games
from gnomekit.batch_cli import (
    add_batch_options,
    add_compare_option,
    backend_of,
    bar,
    compare_editions,
    incomplete,
)
from gnomekit.common import NO, OK, Answer, add_common, read_source
from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, load_edition
from gnomekit.models.hedge_mage.notation import garden_to_text, placement_to_text
from gnomekit.models.hedge_mage.placement import Placement
from gnomekit.solver.core.batch import BatchError, run_batch
from gnomekit.solver.hedge_mage.audit import (
    POLICIES,
    PointsAudit,
    PolicyStats,
    TileAudit,
    audit_tiles,
    max_before,
    max_points,
    setup_garden,
    simulate,
    twins,
)
from gnomekit.solver.hedge_mage.level_proof import LevelRecord, lower_bounds, read_levels, with_levels

PARTS = ("a", "b", "c")
GAME_PART = "d"  # whole games: gnomekit/hedge_mage_play_cli.py


def _list(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [x.strip() for x in value.split(",") if x.strip()]


def _seq_text(seq: list[Placement], ed: HedgeMageEdition) -> str:
    return " ".join(placement_to_text(p, ed) for p in seq) or "(none)"


def _tile_line(a: TileAudit) -> str:
    if a.value is not None:
        what = f"{a.value} (proven)"
    elif a.never:
        what = f"never within {a.max_before} placements (proven)"
    else:
        up = "none found" if a.upper is None else str(a.upper)
        what = f"unknown: proven >= {a.lower}, best witness {up}"
    took = f"same cell sets as {a.answered_with}, answered by its search" if a.answered_with else f"{a.seconds:.1f} s"
    if a.level_logs:
        took += (f"; not with {a.lower - 1} by the level log {' + '.join(a.level_logs)} (its UNSAT splits "
                 f"as recorded, not asked again)")
    return f"{a.tile:<5} {what}  [{took}]"


def _text_tiles(res: list[TileAudit], ed: HedgeMageEdition, secs: float, budget: float,
                total: float | None = None, levels: list[tuple[LevelRecord, list[str]]] | None = None) -> str:
    """Part (a)'s text; ``levels``: each level record with the audited tiles it is about (it and its twins)."""
    how = (f"budget {total:g} s for all tiles, the tiles with the shortest quick witness first, unused time "
           f"handed on; tiles with the same cell sets searched once" if total is not None else
           f"budget {budget:g} s a tile, tiles with the same cell sets searched once with their budgets added")
    levels = levels or []
    lines = [f"(a) fewest earlier placements leaving a tile no legal placement ({how}; took {secs:.1f} s)"]
    lines += ["  " + _tile_line(a) for a in res]
    for r, about in levels:
        used = [a.tile for a in res if a.level_logs and set(a.level_logs) == set(r.sources)]
        if r.complete:
            what = (f"no garden of at most {r.k} earlier placements blocks {r.tile} (all {r.splits} splits "
                    f"UNSAT); " + (f"used for {' '.join(used)}" if used else
                                   "not needed, the audit proved as much" if about else
                                   "not used: neither it nor a twin was audited (--tiles)"))
        else:
            what = f"{r.tile} at k = {r.k}, {len(r.settled)} of {r.splits} splits UNSAT: not complete, not used"
        lines.append(f"  level log {' + '.join(r.sources)}: {what}")
    open_tiles = [a for a in res if a.value is None and not a.never and not a.answered_with]
    if open_tiles:
        lines.append("  to go on with an unknown tile one level at a time, resumable across runs (a level begun "
                     "in a --level-log goes on in its logs):")
    for a in open_tiles:
        begun = next((r for r, about in levels if not r.complete and r.k == a.lower and a.tile in about), None)
        logs = " ".join(f"--log {x}" for x in begun.sources) if begun is not None else "--log FILE"
        tile = begun.tile if begun is not None else a.tile
        lines.append(f"    gnomekit hedge-mage audit-level --tile {tile} --k {a.lower} {logs}")
    for a in res:
        if a.garden is not None and a.upper:
            lines.append("")
            lines.append(f"  witness for {a.tile} ({a.upper} placements): {_seq_text(a.sequence, ed)}")
            lines.append(garden_to_text(a.garden, ed))
    return "\n".join(lines)


def _text_sim(stats: list[PolicyStats], games: int, seed: int, secs: float) -> str:
    lines = [f"(b) {games} simulated games per policy, seed {seed} (took {secs:.1f} s)"]
    for st in stats:
        frac = st.games_with_dead_round / st.games if st.games else 0.0
        rounds = ", ".join(f"r{r}: {n}" for r, n in sorted(st.dead_rounds.items())) or "-"
        lines.append(f"  {st.policy:<9} games with a round without legal placement: "
                     f"{st.games_with_dead_round}/{st.games} ({100 * frac:.1f}%)  [{st.seconds:.1f} s]")
        lines.append(f"            dead rounds by round: {rounds}")
        if st.policy == "planning":
            lines.append(f"            2x1 substitution used to avoid a dead round in {st.substitutions} game(s)")
        if st.witness:
            w = st.witness
            lines.append(f"            first such game: seed {w['seed']} game {w['game']} round {w['round']} "
                         f"(deck {' '.join(w['deck'])})")
    return "\n".join(lines)


def _text_points(pa: PointsAudit, ed: HedgeMageEdition) -> str:
    head = (f"(c) most movement points of one placement, no bonus sigils (took {pa.seconds:.1f} s): ")
    if pa.status == "proven":
        head += f"{pa.best} (proven; trivial bound {pa.trivial_upper})"
    else:
        best = "none found" if pa.best is None else str(pa.best)
        head += f"unknown: best found {best}, proven <= {pa.upper}"
    lines = [head]
    if pa.garden is not None and pa.sequence:
        lines.append(f"  witness: {_seq_text(pa.sequence[:-1], ed)} then {placement_to_text(pa.sequence[-1], ed)}")
        lines.append(garden_to_text(pa.garden, ed))
    return "\n".join(lines)


#: Default budgets (each default run finishes within about 3 minutes on 2 cores) and ``--thorough``'s.
DEFAULTS = {"time_per_tile": 15.0, "time_points": 30.0, "games_b": 1000, "games_d": 10}
THOROUGH = {"time_per_tile": 60.0, "time_points": 120.0, "games_b": 10000, "games_d": 100}


def _budgets(args: argparse.Namespace) -> None:
    """Fill the budgets not given from the defaults (or ``--thorough``'s); check them."""
    base = THOROUGH if args.thorough else DEFAULTS
    if args.time_total is not None:
        if args.time_per_tile is not None:
            raise UsageError("give --time-per-tile or --time-total, not both", source="--time-total")
        if args.time_total <= 0:
            raise UsageError("expected a time budget in seconds > 0", source="--time-total",
                             text=str(args.time_total))
    args.time_per_tile = base["time_per_tile"] if args.time_per_tile is None else args.time_per_tile
    args.time_points = base["time_points"] if args.time_points is None else args.time_points
    for opt, v in (("--time-per-tile", args.time_per_tile), ("--time-points", args.time_points)):
        if v <= 0:
            raise UsageError("expected a time budget in seconds > 0", source=opt, text=str(v))
    if args.games is not None and args.games < 0:
        raise UsageError("--games must be 0 or more", source="--games")


def cmd_audit(args: argparse.Namespace) -> Answer:
    """``audit``, or with ``--compare A B`` the same audit on two editions and the figures that differ
    (the shared per-policy figures repeat part (b)'s: compared once)."""
    return compare_editions(_audit, args)


def shared_figures(data: dict[str, Any], seed: int) -> dict[str, Any]:
    """The keys every audit's JSON has (docs/batch.md), from the parts' answers in ``data``.

    ``seed``; ``policies``: part (b)'s figures per policy (no timings, no witness);
    ``witnesses``: every part's findings by name, each with ``what`` (a sentence) and the
    part's own witness fields (placements and garden, or the game's seed and policy)."""
    policies: dict[str, Any] = {}
    found: dict[str, dict[str, Any]] = {}
    for t in (data["per_tile"] or {}).get("tiles", []):
        w = t["witness"]
        if w is not None:
            best = "the fewest" if t["status"] == "proven" else "the fewest found"
            found[f"tile-{t['tile']}"] = {
                "what": f"tile {t['tile']} has no legal placement after {len(w['placements'])} placements ({best})",
                "part": "a", "tile": t["tile"], "status": t["status"], **w}
    for pol, st in ((data["simulation"] or {}).get("policies") or {}).items():
        policies[pol] = {k: v for k, v in st.items() if k not in ("policy", "seconds", "witness")}
        w = st["witness"]
        if w is not None:
            found[f"dead-round-{pol}"] = {
                "what": f"game {w['game']} (policy {pol}): nothing can be placed in round {w['round']}",
                "part": "b", "policy": pol, **w}
    mp = data["max_points"]
    if mp is not None and mp["witness"] is not None:
        found["max-points"] = {"what": f"{mp['best_found']} movement points in one placement without bonus sigils "
                                       f"({'proven' if mp['status'] == 'proven' else 'the most found'})",
                               "part": "c", **mp["witness"]}
    d = data["games"]
    if d is not None:
        for w in d["witnesses"]:
            key = f"game-{w['gap']}"
            if key not in found:  # the first game (in seed order) with this gap
                found[key] = {"what": w["detail"], "part": "d", "policy": d["policy"], "players": d["players"], **w}
    return {"seed": seed, "policies": policies, "witnesses": found}


def _level_logs(args: argparse.Namespace, ed: HedgeMageEdition, parts: list[str],
                enchs: tuple[str, ...] | None) -> list[LevelRecord]:
    """``--level-log``'s records, read and checked before any search (a bad log costs no audit time)."""
    if not args.level_log:
        return []
    if "a" not in parts:
        raise UsageError("--level-log is for part (a); add a to --parts", source="--level-log")
    if args.compare:
        raise UsageError("--level-log names one edition's logs; it cannot be used with --compare",
                         source="--level-log")
    if enchs is not None and list(enchs) != list(ed.first_game):
        raise UsageError("the level logs are proven from the first-game setup (audit-level has no "
                         "--enchantments); leave out --enchantments to use them", source="--level-log")
    return read_levels([read_source(path) for path in args.level_log], setup_garden(ed), ed)


def _audit(args: argparse.Namespace) -> Answer:
    ed = load_edition(args.edition)
    parts = _list(args.parts) or ([GAME_PART] if games.wants_games(args) else list(PARTS))
    for p in parts:
        if p not in PARTS + (GAME_PART,):
            raise UsageError(f"unknown part {p!r}; choose from a, b, c, d", source="--parts", text=p)
    enchs = tuple(_list(args.enchantments) or ()) or None
    tiles = _list(args.tiles)
    if tiles is not None:
        for t in tiles:
            if t not in ed.tiles:
                raise UsageError(f"unknown tile {t!r}; the edition has: {' '.join(ed.tiles)}",
                                 source="--tiles", text=t)
    policies = _list(args.policies) or list(POLICIES)
    for pol in policies:
        if pol not in POLICIES:
            raise UsageError(f"unknown policy {pol!r}; choose from {', '.join(POLICIES)}",
                             source="--policies", text=pol)
    _budgets(args)
    backend = backend_of(args)
    if GAME_PART in parts and args.games is None:
        args.games = int((THOROUGH if args.thorough else DEFAULTS)["games_d"])
    try:
        base = setup_garden(ed, enchs)
    except UsageError as exc:  # an unknown or clashing card id
        raise exc.located(source="--enchantments") from None
    t_all = time.monotonic()
    data: dict[str, Any] = {
        "edition": ed.name,
        "enchantments": list(enchs or ed.first_game),
        "max_before": max_before(ed),
        "per_tile": None,
        "simulation": None,
        "max_points": None,
        "games": None,  # part (d)
    }
    texts = [f"Hedge Mage audit, edition {ed.name}; reachable = setup plus at most "
             f"{max_before(ed)} placements of distinct tiles before the tile in question"]
    stop: BatchError | None = None
    levels = _level_logs(args, ed, parts, enchs)
    if "a" in parts:
        t0 = time.monotonic()
        try:
            with bar("audit (a) tiles", args, "tile") as show:
                res = audit_tiles(base, ed, tiles, args.time_per_tile, progress=show, backend=backend,
                                  share_twins=True, total=args.time_total, lower=lower_bounds(levels, base, ed))
        except BatchError as err:
            res, stop = err.partial, err
        res = with_levels(res, levels, base, ed)
        secs = time.monotonic() - t0
        data["per_tile"] = {"seconds": round(secs, 3),
                            "time_per_tile": None if args.time_total is not None else args.time_per_tile,
                            "time_total": args.time_total, "tiles": [a.to_json() for a in res],
                            "level_logs": [{"tile": r.tile, "k": r.k, "logs": list(r.sources), "splits": r.splits,
                                            "unsat": len(r.settled), "complete": r.complete} for r in levels]}
        rep = twins(base, ed)
        about = [(r, [a.tile for a in res if rep[a.tile] == rep[r.tile]]) for r in levels]
        texts.append(_text_tiles(res, ed, secs, args.time_per_tile, args.time_total, about))
    if "b" in parts and stop is None:
        t0 = time.monotonic()
        games_b = int((THOROUGH if args.thorough else DEFAULTS)["games_b"]) if args.games is None else args.games
        try:
            with bar("audit (b) games", args, "game") as show:
                stats = simulate(base, ed, games_b, args.seed, policies, progress=show, backend=backend)
        except BatchError as err:
            stats, stop = err.partial, err
        secs = time.monotonic() - t0
        data["simulation"] = {"seconds": round(secs, 3), "games": games_b, "seed": args.seed,
                              "policies": {st.policy: st.to_json() for st in stats}}
        texts.append(_text_sim(stats, games_b, args.seed, secs))
    if "c" in parts and stop is None:
        try:
            with bar(f"audit (c) max points, budget {args.time_points:g} s", args) as show:
                pa = run_batch(partial(max_points, base, ed), [args.time_points], progress=show).values()[0]
            data["max_points"] = pa.to_json()
            texts.append(_text_points(pa, ed))
        except BatchError as err:
            stop = err
    if GAME_PART in parts and stop is None:
        try:
            data["games"], text_d = games.game_audit(args, ed, backend)
            texts.append(text_d)
        except BatchError as err:
            stop = err
            data["games"], text_d = err.partial
            texts.append(text_d)
    data.update(shared_figures(data, args.seed))
    data["seconds"] = round(time.monotonic() - t_all, 3)
    status = OK
    if stop is not None:
        data["incomplete"] = incomplete(stop)
        texts.append(stop.batch.summary() + " (the figures above count only what finished)")
        status = 130 if stop.interrupted else NO
    texts.append(f"total {data['seconds']:.1f} s")
    return Answer(data, "\n\n".join(texts), status)


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = verbs.add_parser(
        "audit", help="rules verification: where a tile can have no legal placement",
        description="(a) per tile, the fewest earlier placements after which it has no legal "
        "placement (SAT); (b) simulated games: how often a round has no legal placement; "
        "(c) the most movement points of one placement without bonus sigils.")
    p.add_argument("--parts", metavar="a,b,c,d",
                   help="which parts to run (default a,b,c; d alone when only --games or part (d) options are given)")
    p.add_argument("--tiles", metavar="T1,T2", help="part (a): only these tiles (default all)")
    p.add_argument("--time-per-tile", type=float, default=None, metavar="S",
                   help="part (a): time budget per tile in seconds (default 15; 60 with --thorough)")
    p.add_argument("--time-total", type=float, default=None, metavar="S",
                   help="part (a): one budget in seconds for all the tiles instead of --time-per-tile (wall "
                   "clock with --jobs): tiles with a short quick witness first, a tile's unused time going to "
                   "the later ones")
    p.add_argument("--level-log", metavar="FILE", action="append",
                   help="part (a): a log of hedge-mage audit-level --log (repeat for more); a level it proves "
                   "complete (every split UNSAT) raises the tile's lower bound, as recorded, not asked again")
    p.add_argument("--games", type=int, default=None, metavar="K",
                   help="part (b): games per policy (default 1000; 10000 with --thorough); part (d): whole games "
                   "(default 10; 100 with --thorough)")
    p.add_argument("--seed", type=int, default=0, help="parts (b) and (d): seed (default 0)")
    p.add_argument("--policies", metavar="P1,P2",
                   help=f"part (b): policies (default {','.join(POLICIES)})")
    p.add_argument("--time-points", type=float, default=None, metavar="S",
                   help="part (c): time budget in seconds (default 30; 120 with --thorough)")
    p.add_argument("--thorough", action="store_true",
                   help="the longer budgets: 60 s a tile, 10000 games a policy, 120 s for part (c), 100 whole games")
    p.add_argument("--enchantments", metavar="A,B,C",
                   help="enchantment card ids, which open the tunnels (default: the first-game three; "
                   "part (d): random cards per game)")
    games.add_game_audit_options(p)
    add_compare_option(p)
    add_batch_options(p)
    add_common(p)
    p.set_defaults(func=cmd_audit)
