"""``gnomekit gnome-hollow ...``: what is Gnome Hollow's own in the common verbs (gnomekit.verbs): a turn's
placements checked together, placements per tile, rings and networks, the best turn, close, market."""

from __future__ import annotations

import argparse
import math
import re
from typing import Any

from gnomekit.common import NO, OK, Answer
from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.hexgrid import hex_name
from gnomekit.models.core.protocol import Game, Position
from gnomekit.models.core.violation import Violation
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.game import GnomeHollowGame, GnomeHollowPosition
from gnomekit.models.gnome_hollow.networks import ClosedNetwork
from gnomekit.models.gnome_hollow.notation import (
    parse_placements,
    placement_to_text,
    position_to_json,
    position_to_text,
)
from gnomekit.models.gnome_hollow.placement import SequenceReport, check_sequence, legal_placements
from gnomekit.models.gnome_hollow.position import Position as Table
from gnomekit.models.gnome_hollow.scoring import final_scores
from gnomekit.models.gnome_hollow.setup import variant_options
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnome_hollow.hint import hint
from gnomekit.verbs import GameCLI, seed_option, turns_option

VARIANT_HELP = "play with a variant board: advanced-board, trade-board (repeatable)"
METHOD_HELP = {"show": "how rings and networks are found (default union-find)",
               "check": "how the networks the placements close are found (default union-find)"}


class HollowCLI(GameCLI):
    """The common verbs in Gnome Hollow's words: a turn's placements, rings, the market."""

    name = "gnome-hollow"
    help = "Gnome Hollow: hex tiles, mushroom rings, market"
    description = "Gnome Hollow: positions, tile placements, rings, solvers."
    verb_help = {
        "new": "the table at setup",
        "random": "the table after K random legal turns",
        "show": "read a position (text or JSON), print it with its rings and open networks",
        "check": "are these placements legal? every broken rule, rings closed, who collects",
        "moves": "every legal placement of the offered and stored tiles (or --tile)",
        "solve": "the best turn; or --close NETWORK; or --market",
        "hint": "what to place and why",
    }

    def options(self, verb: str, p: argparse.ArgumentParser) -> None:
        if verb == "new":
            p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
            seed_option(p, "shuffles the bag (default 0)")
        elif verb == "random":
            turns_option(p, 6)
            p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
        if verb in ("new", "random"):
            p.add_argument("--variant", action="append", metavar="NAME", help=VARIANT_HELP)
            from gnomekit.models.gnome_hollow.setup import rule_option

            def rule(text: str) -> str:  # checked here so that a mistake names --rule
                try:
                    rule_option(text, source="--rule")
                except UsageError as exc:
                    raise argparse.ArgumentTypeError(exc.message) from None
                return text

            p.add_argument("--rule", action="append", dest="variant", metavar="NAME=VALUE", type=rule,
                           help="a reading of an open rule, e.g. claim=path (repeatable; docs/rules/gnome-hollow.md)")
        elif verb == "show":
            p.add_argument("--method", choices=["union-find", "networkx"], default="union-find", help=METHOD_HELP[verb])
        elif verb == "check":
            p.add_argument("--place", nargs="+", metavar="PLACEMENT",
                           help="1-4 placements in order: TILE@Q,R[:r0-r5|m0-m5] or JSON objects")
            p.add_argument("--permit", action="append", metavar="PLAYER",
                           help="a player who gives permission to extend their claimed network (repeatable)")
            p.add_argument("--any-tile", action="store_true", help="do not check that tiles are offered or stored")
            p.add_argument("--method", choices=["union-find", "networkx"], default="union-find", help=METHOD_HELP[verb])
        elif verb == "moves":
            p.add_argument("--tile", metavar="T", help="a tile id or a comma list")
            p.add_argument("--permit", action="append", metavar="PLAYER")
            p.add_argument("--all-orientations", action="store_true",
                           help="list every orientation, not one per distinct look")
            p.add_argument("--count", action="store_true", help="print only the counts")
        elif verb == "solve":
            p.add_argument("--close", metavar="Q,R.K", help="can the network of this path be closed this turn?")
            p.add_argument("--market", action="store_true", help="the best market visit")
            p.add_argument("--method", choices=["search", "sat", "networkx"], default="search",
                           help="for --close (default search)")
            p.add_argument("--weights", metavar="W", help="ring=1,flower=1,treasure=1,mushroom=0 (best turn)")
            p.add_argument("--time-limit", type=float, metavar="S", help="seconds; best found so far is 'unknown'")
            p.add_argument("--permit", action="append", metavar="PLAYER")
        elif verb == "hint":
            p.add_argument("--weights", metavar="W")
            p.add_argument("--time-limit", type=float, metavar="S")
            p.add_argument("--permit", action="append", metavar="PLAYER")

    def more_verbs(self, verbs: Any) -> None:
        """``play``: whole games with a replayable record (gnomekit/gnome_hollow_play_cli.py)."""
        from gnomekit import gnome_hollow_play_cli

        gnome_hollow_play_cli.register(verbs)
        from gnomekit import gnome_hollow_audit_cli  # ``audit``: simulated whole games
        gnome_hollow_audit_cli.register(verbs)

    # -- positions -------------------------------------------------------------------------------
    def position_answer(self, pos: Position, args: argparse.Namespace, note: str = "") -> Answer:
        assert isinstance(pos, GnomeHollowPosition)
        text, data = _text(pos), _json(pos)
        return Answer(data, text + (note + "\n" if note else ""))

    def new_options(self, game: Game, args: argparse.Namespace) -> dict[str, Any]:
        return {"players": _players(game, args), "variants": _variants(game, args)}

    def random_options(self, game: Game, args: argparse.Namespace) -> dict[str, Any]:
        if not 0 <= args.turns <= MAX_TURNS:  # a game has far fewer turns; more would only loop
            raise UsageError(f"expected 0 to {MAX_TURNS} turns", source="--turns", text=str(args.turns))
        return {"turns": args.turns, "players": _players(game, args), "variants": _variants(game, args)}

    def start(self, pos: Position, args: argparse.Namespace) -> tuple[Table, GnomeHollowEdition]:
        """The table at the start of the turn, for the verbs that take a whole turn (placements, best turn)."""
        assert isinstance(pos, GnomeHollowPosition)
        if pos.moves:
            raise UsageError(f"{args.verb} takes a table at the start of a turn, not during a turn in progress "
                             f"({pos.phase})", source=args.position)
        if pos.start.phase == "over" and args.verb != "check":
            raise UsageError(f"{args.verb}: the game is over (show prints the final scores and the winner)",
                             source=args.position)
        return pos.start, pos.game.edition

    # -- the verbs -------------------------------------------------------------------------------
    def show_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, GnomeHollowPosition)
        return _show(pos, args)

    def check_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        return _check(*self.start(pos, args), args)

    def picture_svg(self, pos: Position, verb: str, answer: Answer, args: argparse.Namespace) -> str:
        """One checked placement and the legal moves are drawn by the Gnome Hollow renderer."""
        from gnomekit.models.gnome_hollow import render

        assert isinstance(pos, GnomeHollowPosition)
        if verb == "check" and len(getattr(args, "place", None) or []) == 1:
            return render.check_svg(pos, args.place[0])
        if verb == "moves":
            return render.moves_svg(pos)
        placed = [pl.get("notation") for pl in answer.data.get("placements") or [] if isinstance(pl, dict)]
        if verb in ("solve", "hint") and placed:
            plan = render.witness_placements([pos.parse_move(t) for t in placed if isinstance(t, str)])
            return render.plan_svg(pos, plan, caption=f"{verb}: " + " ".join(str(t) for t in placed))
        return super().picture_svg(pos, verb, answer, args)

    def moves_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        assert isinstance(pos, GnomeHollowPosition)
        if pos.moves or pos.start.final_actions is not None:
            return super().moves_answer(pos, args)  # inside a turn or the final gnome actions: the protocol's
        return _moves(pos.start, pos.game.edition, args)

    def solve_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        return _solve(*self.start(pos, args), args)

    def hint_answer(self, pos: Position, args: argparse.Namespace) -> Answer:
        start, ed = self.start(pos, args)
        permits = _permits(args, start)
        # the solver's own hint, not gnomekit.hint: the command line also hints during the final round
        h = hint(start, ed, _weights(args), permits, _time_limit(args))
        data = _best_json(h.result, ed) | {"hint": h.lines, "sets_up": h.sets_up, "leaves_open": h.leaves_open}
        return Answer(data, "\n".join(h.lines), NO if h.result.status == Status.UNKNOWN else OK)


#: The most turns ``random`` plays (a game of the default edition lasts about 50).
MAX_TURNS = 1000


def _players(game: Game, args: argparse.Namespace) -> int:
    """The --players count, checked here so that a mistake is located in the option."""
    assert isinstance(game, GnomeHollowGame)
    ed = game.edition
    if not ed.players_min <= args.players <= ed.players_max:
        raise UsageError(f"expected {ed.players_min} to {ed.players_max} players", source="--players",
                         text=str(args.players))
    return int(args.players)


def _time_limit(args: argparse.Namespace) -> float | None:
    """--time-limit: a finite number of seconds, 0 or more (None: no limit)."""
    t = args.time_limit
    if t is not None and not (math.isfinite(t) and t >= 0):
        raise UsageError("expected a finite number of seconds, 0 or more", source="--time-limit", text=str(t))
    return t  # type: ignore[no-any-return]


def _variants(game: Game, args: argparse.Namespace) -> list[str]:
    """The --variant names, checked here so that a mistake is located in the option."""
    assert isinstance(game, GnomeHollowGame)
    names = args.variant or []
    variant_options(game.edition, names, source="--variant")
    return names


def _at_turn_start(pos: GnomeHollowPosition) -> bool:
    """True when ``pos`` is a table at the start of a turn (written with no ``turn:``)."""
    return not pos.moves


def _text(pos: GnomeHollowPosition) -> str:
    """The position's text: the table's notation at the start of a turn (as ever), else the protocol's."""
    return position_to_text(pos.start, pos.game.edition) if _at_turn_start(pos) else pos.to_text()


def _json(pos: GnomeHollowPosition) -> dict[str, Any]:
    return position_to_json(pos.start, pos.game.edition) if _at_turn_start(pos) else pos.to_json()


def _garden_networks(pos: Table, ed: GnomeHollowEdition, method: str
                     ) -> tuple[list[ClosedNetwork], list[tuple[ClosedNetwork, int]]]:
    """Completed rings (in order of completion) and open networks with their open ends, by the
    union-find engine or the networkx graph; open networks in the order the garden grew."""
    if method == "networkx":
        from gnomekit.models.gnome_hollow.graph import position_graph

        gg = position_graph(pos, ed)  # under the position's options (ring_check: its turns)
        rings = list(gg.completed)
        opens = [(d, gg.open_ends(d.paths[0])) for d in gg.open_networks()]
    else:
        rings = pos.completed(ed)
        nets = pos.networks(ed)
        opens = [(nets.describe(r), nets.open_ends(r)) for r in nets.open_networks()]
    order = {t.cell: i for i, t in enumerate(pos.tiles)}
    opens.sort(key=lambda o: min((order[c], k) for c, k in o[0].paths))
    return rings, opens


def _show(gp: GnomeHollowPosition, args: argparse.Namespace) -> Answer:
    """``show``: the position, then its rings and open networks as comment lines (so it reads back)."""
    pos, ed = gp.start, gp.game.edition
    warnings = pos.warnings(ed)
    found, open_nets = _garden_networks(pos, ed, args.method)
    rings: list[dict[str, Any]] = [{"size": r.size, "tiles": [list(c) for c in r.tiles],
              "mushrooms": {c: r.mushrooms.get(c, 0) for c in ed.colours}} for r in found]
    opens: list[dict[str, Any]] = []
    claims = {g.at: g.player for g in pos.gnomes if isinstance(g.at, tuple) and not _on_ring(g.at, found)}
    for d, n_open in open_nets:
        opens.append({"paths": [{"cell": list(c), "path": k} for c, k in d.paths], "open_ends": n_open,
                      "size": d.size, "mushrooms": {c: d.mushrooms.get(c, 0) for c in ed.colours},
                      "claimed_by": sorted({who for at, who in claims.items() if at in d.paths})})
    extra = {"warnings": warnings}
    # the report after the position is written as comment lines, so that show's output reads back
    note_lines = [f"# completed rings: {len(rings)}"]
    for i, r in enumerate(rings, 1):
        note_lines.append(f"#   ring {i}: {r['size']} tiles, mushrooms " + _mush(r["mushrooms"]))
    note_lines.append(f"# open networks: {len(opens)}")
    for o in opens:
        ref = o["paths"][0]
        who = ", ".join(o["claimed_by"]) or "unclaimed"
        note_lines.append(f"#   {hex_name(tuple(ref['cell']))}.{ref['path']}: {len(o['paths'])} path(s) on "
                          f"{o['size']} tile(s), {o['open_ends']} open end(s), {who}")
    if warnings:
        note_lines.append("# warnings (no legal play reaches this):")
        note_lines += [f"#   - {w}" for w in warnings]
    scores = final_scores(pos, ed)
    winners = [r["player"] for r in scores if r["rank"] == 1] if pos.phase == "over" else []
    note_lines += score_lines(pos, scores)
    if args.json:
        return Answer({**_json(gp), **extra, "rings": rings, "open_networks": opens, "scores": scores,
                       **({"winners": winners} if pos.phase == "over" else {})}, "")
    from gnomekit.models.gnome_hollow.render import ascii_map

    # the table drawn as a hex map, as comment lines too (at most 80 columns with the "# ")
    note_lines.append("# the table:")
    note_lines += [f"# {x}".rstrip() for x in ascii_map(gp, width=78).rstrip("\n").splitlines()]
    return Answer({}, _text(gp) + "\n".join(note_lines))


def score_lines(pos: Table, scores: list[dict[str, Any]]) -> list[str]:
    """The phase and each player's score by category as comment lines; at the end, the winner."""
    over = pos.phase == "over"
    n = len(pos.players)
    phase = {"play": "play", "end-triggered": "end-triggered (the round is being finished; then one final gnome "
             "action each)", "final-actions": f"final-actions ({pos.final_actions} of {n} final gnome actions "
             "taken)", "over": "over"}[pos.phase]
    out = [f"# phase: {phase}", "# final scores:" if over else "# scores now:"]
    for r in scores:
        out.append(f"#   {r['player']}: flowers {r['flowers']} + rings {r['rings']} + treasure {r['treasure']} = "
                   f"{r['total']} ({r['unsold_mushrooms']} unsold mushroom(s))"
                   + (f", rank {r['rank']}" if over else ""))
    if over:
        best = [r for r in scores if r["rank"] == 1]
        tied = sum(1 for r in scores if r["total"] == best[0]["total"]) > 1
        names = " and ".join(r["player"] for r in best)
        why = " (tie on points broken by the most unsold mushrooms)" if tied and len(best) == 1 else \
            (" (tied on points and unsold mushrooms)" if len(best) > 1 else "")
        out.append(f"# winner: {names}{why}")
    return out


def _on_ring(at: Any, rings: list[ClosedNetwork]) -> bool:
    return any(at in r.paths for r in rings)


def _mush(m: dict[str, int]) -> str:
    return " ".join(f"{c}={n}" for c, n in m.items() if n) or "none"


def report_text(rep: SequenceReport, ed: GnomeHollowEdition) -> str:
    lines = [("legal" if rep.legal else "illegal") + f" ({rep.mover} to move)"]
    for i, t in enumerate(rep.tiles, 1):
        head = f"tile {i}: {placement_to_text(t.placement, ed)}"
        if t.source:
            head += f" (from {t.source})"
        if t.legal:
            lines.append(head + ": ok")
        else:
            lines.append(head + ":")
            lines += [f"  - [{v.rule}] {v.message}" for v in t.violations]
    rings = rep.rings
    if not rep.legal and rings:
        lines.append("if placed anyway (not legal):")
    for r in rings:
        n = r.network
        lines.append(f"ring {r.index} (closed by tile {r.by_tile}): {n.size} tiles, {len(n.paths)} paths, mushrooms "
                     + _mush(n.mushrooms))
        if r.when == "now":
            lines.append(f"  {r.collector} collects the mushrooms now and moves a ring marker")
        elif r.when == "pot":
            lines.append(f"  unclaimed: the mushrooms wait in the ring; {r.marker} moves a ring marker")
        else:
            lines.append(f"  claimed by {r.claimed_by}: scored by {r.claimed_by} at the start of their next turn")
    for i, n in rep.trees:
        lines.append(f"closed by tile {i} without a loop (not a ring): {n.size} tiles")
    if not rings and not rep.trees:
        lines.append("closes no network")
    return "\n".join(lines)


def _permits(args: argparse.Namespace, pos: Table) -> tuple[str, ...]:
    """The --permit players (repeatable or comma-separated); each must be a player of the position."""
    permits = tuple(p for item in (args.permit or []) for p in item.split(",") if p)
    names = [pl.name for pl in pos.players]
    for p in permits:
        if p not in names:
            raise UsageError(f"expected the name of a player: {', '.join(names)}", source="--permit",
                             text=p)
    return permits


def _unknown_tile(tile: str, texts: list[str], ed: GnomeHollowEdition) -> UsageError:
    """A located error for a placement naming a tile the edition does not have (or the Stump)."""
    line = column = None
    for t in texts:
        hits = [m.start() + len(m.group(1)) for m in re.finditer(rf'(^|[\s"]){re.escape(tile)}[@"]', t)]
        if hits:
            line, column = 1, hits[0] + 1
            break
    garden = [i for i, t in ed.all_tiles.items() if i != "S" and not t.wildflower]
    wild = [i for i, t in ed.all_tiles.items() if t.wildflower]
    kinds = [f"{k} {ids[0]}..{ids[-1]}" for k, ids in (("garden tile", garden), ("wildflower tile", wild)) if ids]
    what = "the Stump is never placed; " if tile == "S" else ""
    return UsageError(f"unknown tile: {what}expected a {' or a '.join(kinds)}",
                      source="--place", line=line, column=column, text=tile)


def _check(pos: Table, ed: GnomeHollowEdition, args: argparse.Namespace) -> Answer:
    """``check --place``: up to four placements of one turn, in order, checked together."""
    if not args.place:
        raise UsageError("check needs --place PLACEMENT ... (e.g. --place G12@1,-1:r3 G40@0,-1:m2)")
    placements = parse_placements(args.place, "--place")
    if not placements:
        raise UsageError("expected 1-4 placements, found none", source="--place", text=" ".join(args.place))
    if len(placements) > 4:
        raise UsageError(f"a turn places at most 4 tiles (2 offered + 2 stored); got {len(placements)}",
                         source="--place", line=1, column=1)
    for p in placements:
        if p.tile not in ed.all_tiles or p.tile == "S":
            raise _unknown_tile(p.tile, args.place, ed)
    permits = _permits(args, pos)
    rep = check_sequence(pos, ed, placements, permits, check_supply=not args.any_tile, method=args.method)
    if pos.final_actions is not None:  # after the last round no tile is placed
        why = "the game is over" if pos.phase == "over" else \
            "tile placement has ended: after the last round each player takes only a final gnome action"
        for t in rep.tiles:
            t.violations.insert(0, Violation("game-end", why, (t.placement.cell,)))
    text = "" if args.json else report_text(rep, ed)
    return Answer(rep.to_json(ed), text, OK if rep.legal else NO)


def _moves(pos: Table, ed: GnomeHollowEdition, args: argparse.Namespace) -> Answer:
    """``moves``: every legal placement of each offered and stored tile (or ``--tile``)."""
    if args.tile:
        tiles = [t for t in args.tile.split(",") if t]
    else:
        tiles = list(dict.fromkeys([*pos.offered, *pos.mover.storage]))
    for t in tiles:
        if t not in ed.all_tiles or t == "S":
            raise UsageError(f"unknown tile {t!r}")
        if any(x.tile == t for x in pos.tiles):
            raise UsageError(f"tile {t} is already in the garden")
    nets = pos.networks(ed)
    permits = _permits(args, pos)
    per: dict[str, list[Any]] = {}
    for t in tiles:
        per[t] = legal_placements(pos, ed, t, nets, permits, distinct=not args.all_orientations)
    total = sum(len(v) for v in per.values())
    data: dict[str, Any] = {"tiles": tiles, "count": total, "per_tile": {t: len(v) for t, v in per.items()},
                            "distinct_orientations_only": not args.all_orientations}
    if not args.count:
        data["placements"] = [{**p.to_json(), "notation": placement_to_text(p, ed)} for v in per.values() for p in v]
    if args.count:
        text = "\n".join([f"{t}: {len(v)}" for t, v in per.items()] + [f"total: {total}"])
    else:
        lines = []
        for t, v in per.items():
            lines.append(f"{t}: {len(v)} legal placement(s)")
            lines += ["  " + placement_to_text(p, ed) for p in v]
        lines.append(f"total: {total}")
        text = "\n".join(lines)
    return Answer(data, text, OK if total else NO)


def _parse_ref(text: str) -> tuple[tuple[int, int], int]:
    import re

    m = re.match(r"^(-?\d{1,18}),(-?\d{1,18})\.(\d{1,18})$", text.strip())
    if not m:
        raise UsageError("expected a network as a path Q,R.K (path K of the tile at Q,R)", source="--close",
                         text=text)
    return ((int(m.group(1)), int(m.group(2))), int(m.group(3)))


def _weights(args: argparse.Namespace) -> Any:
    from gnomekit.solver.gnome_hollow.best import Weights

    if args.weights is not None and not args.weights.strip():
        raise UsageError("expected ring=N,flower=N,treasure=N,mushroom=N, not an empty value", source="--weights",
                         text=args.weights)
    try:
        w = Weights.parse(args.weights)
        if not all(math.isfinite(v) for v in (w.ring, w.flower, w.treasure, w.mushroom)):
            raise ValueError("not finite")
        return w
    except ValueError:
        raise UsageError("--weights takes ring=N,flower=N,treasure=N,mushroom=N", source="--weights",
                         text=args.weights) from None


def _solve(pos: Table, ed: GnomeHollowEdition, args: argparse.Namespace) -> Answer:
    """``solve``: the best turn, ``--close NETWORK`` or ``--market``."""
    permits = _permits(args, pos)
    time_limit = _time_limit(args)
    if args.close is not None and not args.close.strip():
        raise UsageError("expected a network as a path Q,R.K, not an empty value", source="--close", text=args.close)
    modes = [args.close is not None, bool(args.market)]
    if sum(modes) > 1:
        raise UsageError("choose one of --close NETWORK or --market")
    if args.market:
        from gnomekit.solver.gnome_hollow.market import solve_market

        res = solve_market(pos, ed)
        sets = res.witness["sets"]
        data = {"question": "market", "status": str(res.status), "points": res.value,
                "sets": [s.to_json() for s in sets], "treasure": res.witness["treasure"], "stats": res.stats}
        text = (f"best sale for {pos.mover.name}: {res.value} points" + ("" if sets else " (nothing to sell)") +
                "".join(f"\n  {s.mushrooms} {s.colour} -> {s.points}" + (" (blocks the space)" if s.blocks else "")
                        for s in sets))
        return Answer(data, text, OK if sets else NO)
    if args.close:
        from gnomekit.solver.gnome_hollow.close import close_by_networkx, close_by_sat, close_by_search

        ref = _parse_ref(args.close)
        fn = {"sat": close_by_sat, "networkx": close_by_networkx}.get(args.method, close_by_search)
        try:
            res = fn(pos, ed, ref, permits, time_limit=time_limit)
        except UsageError as exc:  # a path not in the garden: the option is where the mistake is
            raise exc.located(source="--close") from None
        place = [p.to_json() | {"notation": placement_to_text(p, ed)} for p in (res.witness or [])]
        data = {"question": "close", "network": {"cell": list(ref[0]), "path": ref[1]}, "method": args.method,
                "status": str(res.status), "closable": res.value, "placements": place, "stats": res.stats}
        if res.found:
            text = "yes: " + " ".join(p["notation"] for p in place)
        elif res.value is False and pos.final_actions is not None:
            text = "no: tile placement has ended (the final gnome actions)"
        elif res.value is False:
            text = "no: the offered and stored tiles cannot close this network this turn"
        else:
            text = "unknown (time limit)"
        return Answer(data, text, OK if res.found else NO)
    from gnomekit.solver.gnome_hollow.best import best_turn

    res = best_turn(pos, ed, _weights(args), permits, time_limit)
    data = _best_json(res, ed)
    return Answer(data, _best_text(data), NO if res.status == Status.UNKNOWN else OK)


def _best_json(res: Any, ed: GnomeHollowEdition) -> dict[str, Any]:
    turn = res.witness["turn"]
    plan = res.witness["plan"]
    a = turn.action
    return {
        "question": "best-turn", "status": str(res.status), "value": plan.value, "detail": plan.detail,
        "placements": [p.to_json() | {"notation": placement_to_text(p, ed)} for p in turn.placements],
        "markers": [{"row": m.row, "signpost": m.signpost, "flower": m.flower, "mushrooms": list(m.mushrooms),
                     "wildflower": m.wildflower, "trade": m.trade} for m in turn.markers],
        "action": None if a is None else {"gnome": a.gnome, "kind": a.kind, "flower": a.flower,
                                          "at": None if a.at is None else {"cell": list(a.at[0]), "path": a.at[1]},
                                          "sales": [list(s) for s in a.sales], "trade": a.trade},
        "applied": res.witness["applied"], "verified": bool(res.stats.get("verified")),
        "stats": {k: v for k, v in res.stats.items() if k != "verified"}, "seconds": round(res.seconds, 3),
    }


def _best_text(d: dict[str, Any]) -> str:
    lines = [f"best turn ({d['status']}): value {d['value']:g}  (rings {d['detail'].get('ring', 0):g}, flowers "
             f"{d['detail'].get('flower', 0):g}, treasure {d['detail'].get('treasure', 0):g})"]
    lines.append("place: " + (" ".join(p["notation"] for p in d["placements"]) or "-"))
    a = d["action"]
    if a is None:
        lines.append("gnome: no action")
    elif a["kind"] == "market":
        lines.append("gnome: sell " + " and ".join(f"{n} {c}" for c, n in a["sales"]))
    else:
        lines.append(f"gnome: {a['kind']}" + (f" {a['flower']}" if a["flower"] else "") +
                     (f" at {a['at']['cell'][0]},{a['at']['cell'][1]}.{a['at']['path']}" if a["at"] else "") +
                     (f", then trade {a['trade']}" if a.get("trade") else ""))
    for i, m in enumerate(d["markers"], 1):
        if not m["trade"]:  # shown only when the trade board variant is used
            continue
        extra = [f"signpost {m['signpost']}" if m["signpost"] else "", f"flower {m['flower']}" if m["flower"] else "",
                 ("extra " + " ".join(m["mushrooms"])) if m["mushrooms"] else "",
                 f"trade {m['trade']}" if m["trade"] else ""]
        lines.append(f"ring marker {i}: row {m['row']}" + "".join(f", {x}" for x in extra if x))
    lines.append(f"replayed with the rules: {'matches' if d['verified'] else 'MISMATCH'}; nodes {d['stats']['nodes']}")
    return "\n".join(lines)


register = HollowCLI().register
