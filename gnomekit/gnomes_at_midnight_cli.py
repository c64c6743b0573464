"""``gnomekit gnomes-at-midnight ...``: the Gnomes at Midnight verbs (thin: parse, call, render)."""

from __future__ import annotations

import argparse
from typing import Any

from gnomekit.common import NO, OK, Answer, add_common, read_source
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import BUNDLED, COLOURS, TERRAINS, MidnightEdition, load_edition
from gnomekit.models.gnomes_at_midnight.moves import after_move, check_move, legal_moves
from gnomekit.models.gnomes_at_midnight.notation import (
    grid_lines,
    parse_move,
    position_to_json,
    position_to_text,
    read_position,
)
from gnomekit.models.gnomes_at_midnight.position import Position
from gnomekit.models.gnomes_at_midnight.setup import new_position, random_position


def edition_of(args: argparse.Namespace) -> MidnightEdition:
    ed = load_edition(getattr(args, "edition", None))
    return ed.with_options(True if getattr(args, "moon_restricts_adding", False) else None)


def load_position(args: argparse.Namespace) -> tuple[Position, MidnightEdition]:
    ed = edition_of(args)
    text, name = read_source(args.position)
    pos = read_position(text, name, ed)
    if getattr(args, "edition", None) is None and pos.edition != ed.name and pos.edition in BUNDLED:
        # a position naming a bundled edition (e.g. from `new --edition mini`) is read with that edition:
        # its full decks (reshuffles) and missing keys come from it
        args.edition = pos.edition
        ed = edition_of(args)
        pos = read_position(text, name, ed)
    if getattr(args, "moon_restricts_adding", False) and not pos.moon_restricts_adding:
        from dataclasses import replace

        pos = replace(pos, moon_restricts_adding=True)
    return pos, ed


def cmd_new(args: argparse.Namespace) -> Answer:
    ed = edition_of(args)
    pos = new_position(ed, args.seed, args.dance)
    return Answer(position_to_json(pos), position_to_text(pos))


def cmd_random(args: argparse.Namespace) -> Answer:
    ed = edition_of(args)
    pos, played = random_position(ed, args.seed, args.turns)
    text = position_to_text(pos)
    if played < args.turns:
        text += f"\nstopped after {played} turn(s): every legal turn would win\n"
    return Answer(position_to_json(pos), text)


def cmd_show(args: argparse.Namespace) -> Answer:
    pos, ed = load_position(args)
    warnings = pos.warnings(ed.gnomes)
    text = position_to_text(pos)
    if warnings:
        text += "\nwarnings:\n" + "\n".join(f"  - {w}" for w in warnings)
    return Answer({**position_to_json(pos), "warnings": warnings}, text)


def _flip_text(a: Any) -> str:
    if not a.flips:
        return "no moonlight card is turned" if not a.wins else "the game is over"
    if len(a.flips) == 1 and not a.reshuffle:
        return f"turns {TERRAINS[a.flips[0][0]]}"
    total = sum(w for _, w in a.flips)
    what = ", ".join(f"{TERRAINS[t]} {w}/{total}" for t, w in a.flips)
    return ("deck runs out and is reshuffled; " if a.reshuffle else "") + f"chance: {what}"


def cmd_check(args: argparse.Namespace) -> Answer:
    pos, _ed = load_position(args)
    if not args.move:
        raise UsageError("check needs --move MOVE (e.g. --move 2,0-2,1, 0,0=1,1, +2,0 or pass)")
    move = parse_move(args.move)
    viol = check_move(pos, move)
    me = COLOURS[pos.to_move]
    data: dict[str, Any] = {"move": move.to_json(), "to_move": me, "legal": not viol,
                            "violations": [v.to_json() for v in viol]}
    if viol:
        lines = [f"illegal for {me}: {move.text()}"] + [f"  - [{v.rule}] {v.message}" for v in viol]
        return Answer(data, "\n".join(lines), NO)
    a = after_move(pos, move)
    data.update({"bumped": a.bumped, "wins": list(a.wins), "reshuffle": a.reshuffle,
                 "flip": [{"terrain": TERRAINS[t], "weight": w} for t, w in a.flips]})
    lines = [f"legal for {me}: {move.text()}"]
    if a.bumped:
        lines.append(f"bumps {a.bumped} {COLOURS[1 - pos.to_move]} gnome(s) off the board")
    if a.wins:
        lines.append(f"{me} wins: {', '.join(a.wins)}")
    lines.append(f"moonlight: {_flip_text(a)}")
    lines.append("")
    lines += grid_lines(a.pos)
    return Answer(data, "\n".join(lines), OK)


def cmd_moves(args: argparse.Namespace) -> Answer:
    pos, _ed = load_position(args)
    moves = legal_moves(pos)
    data: dict[str, Any] = {"to_move": COLOURS[pos.to_move], "count": len(moves)}
    if args.count:
        return Answer(data, str(len(moves)))
    rows = []
    jm = []
    for m in moves:
        a = after_move(pos, m)
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
    text = f"{COLOURS[pos.to_move]} to move: {len(moves)} legal move(s)\n" + "\n".join(rows)
    return Answer(data, text)


def _position_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", help="position file (text or JSON), or - for stdin")


def _rules_opts(p: argparse.ArgumentParser) -> None:
    add_common(p)
    p.add_argument("--moon-restricts-adding", action="store_true",
                   help="the face-up moonlight card also forbids adding onto its terrain (option)")


def register(sub: argparse._SubParsersAction, name: str, aliases: list[str]) -> None:  # type: ignore[type-arg]
    grp = sub.add_parser(name, aliases=aliases, help="Gnomes at Midnight: moves, forced wins, tablebase",
                         description="Gnomes at Midnight: positions, legal moves, forced wins. "
                         "--edition takes a TOML file or a bundled name (default, mini).")
    grp.set_defaults(group_parser=grp, func=None)
    verbs = grp.add_subparsers(dest="verb", metavar="VERB")

    p = verbs.add_parser("new", help="the position at setup (decks shuffled by the seed, known order)")
    p.add_argument("--seed", type=int, default=0, help="shuffles the decks and draws the dance card")
    p.add_argument("--dance", metavar="NAME", help="the face-up dance card (default: drawn by the seed)")
    _rules_opts(p)
    p.set_defaults(func=cmd_new)

    p = verbs.add_parser("random", help="a position after K random non-winning turns")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--turns", type=int, default=6, metavar="K", help="turns to play (default 6)")
    _rules_opts(p)
    p.set_defaults(func=cmd_random)

    p = verbs.add_parser("show", help="read a position (text or JSON) and print it")
    _position_arg(p)
    _rules_opts(p)
    p.set_defaults(func=cmd_show)

    p = verbs.add_parser("check", help="is a move legal? every broken rule, or what it does")
    _position_arg(p)
    p.add_argument("--move", metavar="MOVE", help="r,c-r,c step, r,c=r,c pair step, +r,c add, pass, or JSON")
    _rules_opts(p)
    p.set_defaults(func=cmd_check)

    p = verbs.add_parser("moves", help="every legal move of the side to move")
    _position_arg(p)
    p.add_argument("--count", action="store_true", help="print only the number of moves")
    _rules_opts(p)
    p.set_defaults(func=cmd_moves)

    register_solving(verbs)


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


def cmd_solve(args: argparse.Namespace) -> Answer:
    from gnomekit.solver.gnomes_at_midnight.search import solve

    pos, ed = load_position(args)
    if args.tablebase:
        return _tablebase_answer(pos, ed, args)
    res = solve(pos, args.depth, args.decks, args.probability)
    me = COLOURS[pos.to_move]
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
    return Answer(data, "\n".join(lines), OK if res.value is not None else NO)


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


def _tablebase_answer(pos: Position, ed: MidnightEdition, args: argparse.Namespace) -> Answer:
    from gnomekit.solver.gnomes_at_midnight.tablebase import default_cycles, describe, load_or_build

    cycles = []
    for s, flag in ((0, args.cycle_green), (1, args.cycle_blue)):
        c = _cycle_arg(flag, f"--cycle-{COLOURS[s]}")
        cycles.append(default_cycles(pos, ed)[s] if c is None else c)
    tb, built = load_or_build(ed, pos.dance, (cycles[0], cycles[1]), _progress())
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
    return Answer(data, "\n".join(lines), OK if value == "win" else NO)


def cmd_hint(args: argparse.Namespace) -> Answer:
    from gnomekit.solver.gnomes_at_midnight.hint import hint

    pos, _ed = load_position(args)
    h = hint(pos, args.depth, args.decks)
    lines = [f"{COLOURS[pos.to_move]}: {h.move or '(no move)'} [{h.kind}]"] + [f"  - {r}" for r in h.reasons]
    if "line" in h.data:
        lines += ["main line:"] + _line_text(h.data["line"])
    return Answer(h.to_json(), "\n".join(lines), OK if h.move else NO)


def register_solving(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The solving verbs: solve and hint."""
    p = verbs.add_parser("solve", help="forced win for the side to move within N of its turns")
    _position_arg(p)
    p.add_argument("--depth", type=int, default=3, metavar="N", help="own turns (default 3)")
    p.add_argument("--decks", choices=["open", "hidden"], default="open",
                   help="open: deck orders known (default); hidden: every flip is chance")
    p.add_argument("--probability", action="store_true",
                   help="also the win probability within N turns (uniform flips, opponent minimising)")
    p.add_argument("--tablebase", action="store_true",
                   help="answer from the retrograde tablebase (built once and cached; meant for --edition mini)")
    p.add_argument("--cycle-green", metavar="T,T,T", help="tablebase mode: green's repeating deck order")
    p.add_argument("--cycle-blue", metavar="T,T,T", help="tablebase mode: blue's repeating deck order")
    _rules_opts(p)
    p.set_defaults(func=cmd_solve)

    p = verbs.add_parser("hint", help="the best move and why")
    _position_arg(p)
    p.add_argument("--depth", type=int, default=3, metavar="N", help="own turns searched (default 3)")
    p.add_argument("--decks", choices=["open", "hidden"], default="open")
    _rules_opts(p)
    p.set_defaults(func=cmd_hint)
