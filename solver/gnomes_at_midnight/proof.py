"""Proof trees of forced wins: export from the fast search, and an independent checker.

A proof file (JSON; gzip when the name ends in ``.gz``) is a DAG of the attacker's decisions::

    {"format": "gnomekit-midnight-proof", "version": 1, "edition": "default", "decks": "hidden",
     "attacker": "green", "turns": 4, "position": "<the root in the text notation>", "root": 0,
     "nodes": [{"move": "0,0-1,1", "then": {FLIP: {REPLY: {FLIP: NODE_ID}}}}, {"move": ..., "wins": [...]}]}

``then`` lists, for every flip of the attacker's card (a terrain name, ``-`` when nothing is
turned), every legal reply of the defender (move notation) and every flip of the defender's card,
the node that continues the win.  A node whose move wins at once has ``wins`` (the conditions met).

:func:`check_proof` trusts nothing in the file but the root position: it replays every node with
the reference rules (``models.gnomes_at_midnight.moves``: legality, bumps, wins, the moon, deck
draws and reshuffles), enumerates the flips and replies itself, requires an entry for each, and
counts the attacker's turns to the win along every branch (at most ``turns``).  It imports
nothing from the solvers.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gnomekit.models.core.errors import GnomekitError, NotationError
from gnomekit.models.core.text import undecodable
from gnomekit.models.gnomes_at_midnight.edition import BUNDLED, COLOURS, TERRAINS, bundled_edition
from gnomekit.models.gnomes_at_midnight.moves import after_move, check_move, legal_moves, next_position
from gnomekit.models.gnomes_at_midnight.notation import parse_move, position_from_text, position_to_text
from gnomekit.models.gnomes_at_midnight.position import Position

FORMAT = "gnomekit-midnight-proof"
VERSION = 1
NO_FLIP = "-"


class ProofTooLarge(Exception):
    """The proof tree has more nodes than the export allows."""


def _flip_name(t: int | None) -> str:
    return NO_FLIP if t is None or t < 0 else TERRAINS[t]


# -------------------------------------------------------------------------------------------------
# Export (uses the fast search)


def export_proof(pos: Position, decks: str, turns: int, max_nodes: int = 500_000) -> dict[str, Any]:
    """The proof tree of a forced win within ``turns`` for the side to move of ``pos``.

    The fast alpha-beta (``fast.FastSearcher``) answers "wins within n" / "loses within n" for
    each concrete position met (its tables make repeated questions cheap); at every attacker node
    the first move in move order that wins is taken, and each continuation uses the fewest turns
    that still win.  Raises ``ValueError`` when there is no such win, :class:`ProofTooLarge` past
    ``max_nodes`` nodes.
    """
    from gnomekit.solver.gnomes_at_midnight.fast import FastEngine, FastSearcher, FState
    from gnomekit.solver.gnomes_at_midnight.pns import prepare

    p = prepare(pos, decks)
    e = FastEngine(p)
    sr = FastSearcher(e)
    root = e.state(p)
    if not sr.win(root, turns):
        raise ValueError(f"no forced win within {turns} turn(s) to export")
    nodes: list[dict[str, Any]] = []
    memo: dict[tuple[FState, int], int] = {}

    def node(s: FState, n: int) -> int:
        got = memo.get((s, n))
        if got is not None:
            return got
        if len(nodes) >= max_nodes:
            raise ProofTooLarge(f"the proof has more than {max_nodes:,} nodes")
        moves = e.moves(s)
        i = len(nodes)
        w = e.first_win(s, moves)
        if w is not None:
            nodes.append({"move": e.move_text(w), "wins": e.win_names(s, w)})
            memo[(s, n)] = i
            return i
        chosen = None
        for m in moves:
            if all(sr.loses(c, n - 1) for _t, _w, c in e.children(s, m)):
                chosen = m
                break
        if chosen is None:
            raise AssertionError("a proven node has no proven move (search tables disagree)")
        entry: dict[str, Any] = {"move": e.move_text(chosen), "then": {}}
        nodes.append(entry)
        memo[(s, n)] = i
        for t, _w, c in e.children(s, chosen):
            per_reply: dict[str, dict[str, int]] = {}
            for r in e.moves(c):
                per_flip: dict[str, int] = {}
                for t2, _w2, c2 in e.children(c, r):
                    need = sr.shortest(c2, n - 1)
                    assert need is not None
                    per_flip[_flip_name(t2)] = node(c2, need)
                per_reply[e.move_text(r)] = per_flip
            entry["then"][_flip_name(t)] = per_reply
        return i

    rid = node(root, turns)
    return {"format": FORMAT, "version": VERSION, "edition": pos.edition, "decks": decks,
            "attacker": COLOURS[pos.to_move], "turns": turns, "position": position_to_text(pos),
            "root": rid, "nodes": nodes}


def write_proof(data: dict[str, Any], path: Path) -> None:
    text = json.dumps(data, separators=(",", ":"))
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


def read_proof(path: Path) -> dict[str, Any]:
    """The proof object of a file (gzip when the name ends in ``.gz``); errors as :func:`load_proof`."""
    return load_proof(None, str(path))[0]


def load_proof(raw: bytes | None, source: str) -> tuple[dict[str, Any], str]:
    """Read a proof file (``raw`` None: read the file ``source``), gzip or not (told by its first bytes).

    Raises :class:`NotationError` located at the file (and line and column for bad JSON) when the
    bytes are not a proof object of this format and version; what is inside is left to :func:`check_proof`.
    """
    if raw is None:
        try:
            raw = Path(source).read_bytes()
        except FileNotFoundError:
            raise NotationError(f"no such file: {source}", source=source) from None
        except IsADirectoryError:
            raise NotationError(f"is a directory, expected a proof file: {source}", source=source) from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise NotationError(f"expected a gzip-compressed proof: {exc}", source=source) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        message, line, column = undecodable(exc)
        raise NotationError(message, source=source, line=line, column=column) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"expected JSON: {exc.msg}", source=source, line=exc.lineno,
                            column=exc.colno) from None
    if not isinstance(data, dict):
        raise NotationError("expected a JSON object (a proof tree)", source=source, line=1, column=1)
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise NotationError(f"expected a {FORMAT} file of version {VERSION} (keys \"format\" and \"version\")",
                            source=source, line=1, column=1)
    return data, source


# -------------------------------------------------------------------------------------------------
# The independent checker (reference rules only)


@dataclass
class ProofCheck:
    """What the checker found: ``ok`` when every branch wins within the claimed turns."""

    ok: bool
    turns: int | None  # the most attacker turns any branch needs (None when the check failed early)
    claimed: int | None
    nodes: int = 0  # distinct (node, position) pairs replayed
    leaves: int = 0  # winning moves replayed
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "turns": self.turns, "claimed": self.claimed, "nodes": self.nodes,
                "leaves": self.leaves, "problems": self.problems}


class _Bad(Exception):
    pass


def root_position(data: dict[str, Any]) -> Position:
    """The proof's root position as the reference engine reads it (decks forgotten when hidden)."""
    name = str(data.get("edition", "default"))
    ed = bundled_edition(name if name in BUNDLED else "default")
    pos = position_from_text(str(data["position"]), "<proof>", ed)
    if data.get("decks") == "hidden":
        pos = pos.hidden()
    elif data.get("decks") != "open":
        raise ValueError(f"decks must be 'open' or 'hidden', not {data.get('decks')!r}")
    return pos


def check_proof(data: dict[str, Any], max_nodes: int = 5_000_000) -> ProofCheck:
    """Replay a proof against the reference rules; every flip and every reply must be covered."""
    claimed = data.get("turns")
    out = ProofCheck(False, None, claimed if isinstance(claimed, int) else None)
    try:
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise _Bad(f"not a {FORMAT} version {VERSION} file")
        nodes = data["nodes"]
        if not isinstance(nodes, list):
            raise _Bad("nodes must be a list")
        root = root_position(data)
        if data.get("attacker") != COLOURS[root.to_move]:
            raise _Bad(f"the attacker is {data.get('attacker')!r} but {COLOURS[root.to_move]} is to move")
        done: dict[tuple[int, Position], int] = {}
        active: set[tuple[int, Position]] = set()

        def need(nid: Any, pos: Position, where: str) -> int:
            """Attacker turns (this one included) the node needs to win from ``pos``."""
            if not isinstance(nid, int) or not 0 <= nid < len(nodes):
                raise _Bad(f"{where}: no node {nid!r}")
            key = (nid, replace(pos, turn=1))
            if key in done:
                return done[key]
            if key in active:
                raise _Bad(f"{where}: node {nid} repeats on its own line (a cycle is no win)")
            if len(done) >= max_nodes:
                raise _Bad(f"more than {max_nodes:,} positions to check")
            active.add(key)
            nd = nodes[nid]
            where = f"node {nid}"
            mv = parse_move(str(nd.get("move")), where)
            bad = check_move(pos, mv)
            if bad:
                raise _Bad(f"{where}: {mv.text()} is illegal: " + "; ".join(v.message for v in bad))
            a = after_move(pos, mv)
            if a.wins:
                out.leaves += 1
                res = 1
            else:
                then = nd.get("then")
                if not isinstance(then, dict):
                    raise _Bad(f"{where}: {mv.text()} does not win at once and the node has no continuation")
                res = 0
                for t, _w in a.flips or ((None, 1),):
                    fl = _flip_name(t)
                    replies = then.get(fl)
                    if not isinstance(replies, dict):
                        raise _Bad(f"{where}: the flip {fl} after {mv.text()} is not covered")
                    p1 = next_position(a, t)
                    for r in legal_moves(p1):
                        rt = r.text()
                        a2 = after_move(p1, r)
                        if a2.wins:
                            raise _Bad(f"{where}: after {mv.text()} (flip {fl}) the defender wins with {rt}")
                        flips2 = replies.get(rt)
                        if not isinstance(flips2, dict):
                            raise _Bad(f"{where}: the reply {rt} (after {mv.text()}, flip {fl}) is not covered")
                        for t2, _w2 in a2.flips or ((None, 1),):
                            f2 = _flip_name(t2)
                            if f2 not in flips2:
                                raise _Bad(f"{where}: the defender's flip {f2} after {rt} is not covered")
                            res = max(res, 1 + need(flips2[f2], next_position(a2, t2),
                                                    f"{where} / {fl} / {rt} / {f2}"))
            active.discard(key)
            done[key] = res
            return res

        got = need(data.get("root"), root, "root")
        out.nodes = len(done)
        out.turns = got
        if isinstance(claimed, int) and got > claimed:
            raise _Bad(f"a branch needs {got} turns, the proof claims {claimed}")
        out.ok = True
    except _Bad as exc:
        out.problems.append(str(exc))
    except (GnomekitError, KeyError, TypeError, ValueError, AttributeError) as exc:
        out.problems.append(f"malformed proof: {exc}")
    return out
