"""``gnomekit hedge-mage ...``: the Hedge Mage verbs (thin: parse, call, render)."""

from __future__ import annotations

import argparse
from typing import Any

from gnomekit.common import BAD, NO, OK, Answer, add_common, read_source
from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, load_edition
from gnomekit.models.hedge_mage.notation import (
    garden_to_json,
    garden_to_text,
    parse_placement,
    placement_to_text,
    read_garden,
)
from gnomekit.models.hedge_mage.placement import Placement, PlacementReport, check_placement, with_held_tokens
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.setup import new_garden, random_garden

del BAD


def edition_of(args: argparse.Namespace) -> HedgeMageEdition:
    return load_edition(getattr(args, "edition", None))


def position_name(args: argparse.Namespace) -> str:
    """The name read_source gives the position argument (for errors about the garden as a whole)."""
    return "<stdin>" if args.position == "-" else str(args.position)


def load_garden(args: argparse.Namespace) -> tuple[Garden, HedgeMageEdition]:
    ed = edition_of(args)
    text, name = read_source(args.position)
    return read_garden(text, name, ed), ed


def _garden_answer(g: Garden, ed: HedgeMageEdition, extra: dict[str, Any] | None = None,
                   note: str = "", as_json: bool = False) -> Answer:
    data = garden_to_json(g)
    if extra:
        data = {**data, **extra}
    if as_json:  # the text is not printed; gardens the text cannot carry still print as JSON
        return Answer(data, "")
    text = garden_to_text(g, ed)
    if note:
        text += "\n" + note
    return Answer(data, text)


def cmd_new(args: argparse.Namespace) -> Answer:
    ed = edition_of(args)
    enchs = tuple(e.strip() for e in args.enchantments.split(",")) if args.enchantments else None
    try:
        g, _deck = new_garden(ed, args.seed, enchs)
    except UsageError as exc:  # the cards named, or the edition's first-game cards, do not fit together
        raise exc.located(source="--enchantments" if enchs else (args.edition or "the default edition")) from None
    return _garden_answer(g, ed, as_json=args.json)


def cmd_random(args: argparse.Namespace) -> Answer:
    ed = edition_of(args)
    try:
        g, counts = random_garden(ed, args.seed, args.round)
    except UsageError as exc:  # --round out of range, or the edition's first-game cards do not fit together
        raise exc.located(source=args.edition or "the default edition") from None
    skipped = [i + 1 for i, c in enumerate(counts) if c == 0]
    note = ""
    if skipped:
        note = "rounds with no legal placement (nothing placed): " + ", ".join(map(str, skipped))
    return _garden_answer(g, ed, note=note, as_json=args.json)


def cmd_show(args: argparse.Namespace) -> Answer:
    g, ed = load_garden(args)
    warnings = g.warnings()
    if args.json:
        return Answer({**garden_to_json(g), "warnings": warnings}, "")
    text = garden_to_text(g, ed)
    if warnings:
        # comment lines, so that what show prints reads back as the same garden
        text += "\n# warnings (no legal play reaches this):\n" + "\n".join(f"#   - {w}" for w in warnings)
    return Answer({"garden": garden_to_json(g), "warnings": warnings}, text)


def draw_with(g: Garden, ed: HedgeMageEdition, marks: dict[tuple[int, int], str]) -> str:
    """The garden grid with some cells overwritten (for showing a placement)."""
    from gnomekit.models.hedge_mage.notation import cell_token

    tokens = [[marks.get((r, c)) or cell_token(g, ed, (r, c)) for c in range(g.cols)]
              for r in range(g.rows)]
    width = max(3, max(len(t) for row in tokens for t in row) + 1)
    rw = len(str(g.rows - 1)) + 2
    lines = [" " * rw + "".join(str(c).ljust(width) for c in range(g.cols)).rstrip()]
    for r, row in enumerate(tokens):
        lines.append(str(r).rjust(rw - 2) + "  " + "".join(t.ljust(width) for t in row).rstrip())
    return "\n".join(lines)


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
    lines.append(draw_with(g, ed, marks))
    if under:
        lines.append("(# new hedge cell, @ its sigil, ! a tile cell over something already there)")
        lines.append("under !: " + "; ".join(under))
    else:
        lines.append("(# new hedge cell, @ its sigil)")
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> Answer:
    g, ed = load_garden(args)
    if not args.place:
        raise UsageError("check needs --place PLACEMENT (e.g. --place L4:R90@3,4)")
    p = with_held_tokens(g, parse_placement(args.place, ed))
    if args.method == "networkx":  # the cut-off rule decided on the networkx ground graph
        from gnomekit.solver.hedge_mage.graph import check_placement_networkx

        rep = check_placement_networkx(g, ed, p, check_tile_choice=not args.any_tile)
    else:
        rep = check_placement(g, ed, p, check_tile_choice=not args.any_tile)
    text = "" if args.json else report_text(g, ed, rep)
    return Answer(rep.to_json(), text, OK if rep.legal else NO)


def cmd_moves(args: argparse.Namespace) -> Answer:
    from gnomekit.solver.hedge_mage.placements import enumerate_all, tiles_for

    g, ed = load_garden(args)
    try:
        tiles = list(dict.fromkeys(tiles_for(g, ed, args.tile)))  # a tile named twice is listed once
    except UsageError as exc:
        raise exc.located(source=position_name(args)) from None
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


def register(sub: argparse._SubParsersAction, name: str, aliases: list[str]) -> None:  # type: ignore[type-arg]
    grp = sub.add_parser(name, aliases=aliases, help="Hedge Mage: maze building and running",
                         description="Hedge Mage: gardens, hedge placements, solvers.")
    grp.set_defaults(group_parser=grp, func=None)
    verbs = grp.add_subparsers(dest="verb", metavar="VERB")

    p = verbs.add_parser("new", help="a garden at setup (round 1, first card revealed)")
    p.add_argument("--seed", type=int, default=0, help="shuffles gnomes and the deck (default 0)")
    p.add_argument("--enchantments", metavar="A,B,C",
                   help="enchantment card ids (default: the first-game three)")
    add_common(p)
    p.set_defaults(func=cmd_new)

    p = verbs.add_parser("random", help="a garden after K random legal building rounds")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--round", type=int, default=3, metavar="K", help="rounds to play (default 3)")
    add_common(p)
    p.set_defaults(func=cmd_random)

    p = verbs.add_parser("show", help="read a garden (text or JSON) and print it")
    p.add_argument("position", help="garden file, or - for stdin")
    add_common(p)
    p.set_defaults(func=cmd_show)

    p = verbs.add_parser("check", help="is a placement legal? every broken rule, or its points")
    p.add_argument("position", help="garden file, or - for stdin")
    p.add_argument("--place", metavar="PLACEMENT",
                   help="TILE:ORIENTATION@ROW,COL (sigil cell) or a JSON placement object")
    p.add_argument("--any-tile", action="store_true",
                   help="do not check that the tile is the revealed one (geometry only)")
    p.add_argument("--method", choices=["flood", "networkx"], default="flood",
                   help="how ground connectivity (the cut-off rule) is decided: flood fill (default) or "
                   "the networkx ground graph (same answers, slower)")
    add_common(p)
    p.set_defaults(func=cmd_check)

    p = verbs.add_parser("moves", help="every legal placement of the revealed tile (or --tile)")
    p.add_argument("position", help="garden file, or - for stdin")
    p.add_argument("--tile", metavar="T", help="a tile name, a comma list, or 'all'")
    p.add_argument("--method", choices=["enumerate", "sat", "networkx"], default="enumerate",
                   help="enumerate (bitboards, default), sat, or networkx (ground connectivity on the "
                   "networkx ground graph); all give the same placements")
    p.add_argument("--count", action="store_true", help="print only the number of placements")
    add_common(p)
    p.set_defaults(func=cmd_moves)

    _register_more(verbs)


def _register_more(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Verbs implemented in other modules (solve, hint, audit, running, play, round) register here."""
    from gnomekit import (
        hedge_mage_audit_cli,
        hedge_mage_play_cli,
        hedge_mage_round_cli,
        hedge_mage_run_cli,
        hedge_mage_solve_cli,
    )

    # No fallback: a module that fails to import is an error that names it.
    for mod in (hedge_mage_solve_cli, hedge_mage_audit_cli, hedge_mage_run_cli, hedge_mage_play_cli,
                hedge_mage_round_cli):
        mod.register(verbs)
