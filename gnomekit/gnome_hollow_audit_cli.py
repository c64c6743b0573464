"""``gnomekit gnome-hollow audit``: simulated whole games and what they show (thin layer; the audit is
solver/gnome_hollow/audit.py, the batch runner solver/core/batch.py)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gnomekit import api
from gnomekit.batch_cli import (
    add_batch_options,
    add_compare_option,
    audit_answer,
    backend_of,
    bar,
)
from gnomekit.common import Answer, add_common, budget
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnome_hollow.game import GnomeHollowGame
from gnomekit.solver.core.batch import BatchError
from gnomekit.solver.gnome_hollow.audit import DEFAULT_POLICIES
from gnomekit.solver.gnome_hollow.play import DEFAULT_MAX_STATES, POLICIES

#: Games per policy and player count by default: the default run (random and greedy, 2-4 players)
#: is about 70 CPU-seconds, some 40 s on two idle cores here (2.5 minutes with 8 jobs sharing them).
DEFAULT_GAMES = 5
MAX_GAMES = 100_000


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = verbs.add_parser(
        "audit", help="simulated whole games: placement dead ends, tiles never placed, rings never closed, "
        "supplies that run out, score spread, when the end comes",
        description="Play K whole games for every policy and player count (one task a game on --jobs workers "
        "or Ray) and report turns with no legal placement, tiles never placed (and whether a final garden "
        "takes them), ring board spaces never taken and claimed rings never closed, market and supply "
        "exhaustion, the score spread between players and which end condition came on which turn; each "
        "finding with a witness game record (play --replay opens it) and, where a moment matters, the "
        "position then (show opens it).")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="K",
                   help=f"games per policy and player count (default {DEFAULT_GAMES})")
    p.add_argument("--seed", type=int, default=0, help="game i of each group uses seed SEED+i (default 0)")
    p.add_argument("--players", default="2-4", metavar="N[,N|-N]",
                   help="player counts: 3, 2,4 or 2-4 (default 2-4)")
    p.add_argument("--policies", metavar="P1,P2",
                   help=f"every seat plays the policy: {', '.join(POLICIES)} (default {','.join(DEFAULT_POLICIES)})")
    p.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, metavar="N",
                   help=f"greedy and hint: placements the solver tries per turn (default {DEFAULT_MAX_STATES})")
    p.add_argument("--witness-dir", metavar="DIR",
                   help="write each witness as DIR/NAME.record.json (and DIR/NAME.position.json)")
    add_compare_option(p)
    add_batch_options(p)
    add_common(p)
    p.set_defaults(func=cmd_audit)


def _players(text: str, game: GnomeHollowGame) -> list[int]:
    ed = game.edition
    out: list[int] = []
    for part in (x.strip() for x in text.split(",")):
        lo, dash, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if dash else a
            if a > b:
                raise ValueError(part)
        except ValueError:
            raise UsageError("expected a player count, a list (2,4) or a range (2-4)", source="--players",
                             text=part) from None
        for n in range(a, b + 1):
            if not ed.players_min <= n <= ed.players_max:
                raise UsageError(f"expected {ed.players_min} to {ed.players_max} players", source="--players",
                                 text=part)
            if n not in out:
                out.append(n)
    return out


def _run(args: argparse.Namespace, edition: str | None) -> tuple[dict[str, Any], str, BatchError | None]:
    from gnomekit.solver.gnome_hollow.audit import audit, text

    game = api.game("gnome-hollow", edition)
    assert isinstance(game, GnomeHollowGame)
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"expected 1 to {MAX_GAMES} games", source="--games", text=str(args.games))
    players = _players(args.players, game)
    policies = [x.strip() for x in (args.policies or ",".join(DEFAULT_POLICIES)).split(",") if x.strip()]
    for pol in policies or [""]:
        if pol not in POLICIES:
            raise UsageError(f"unknown policy; choose from {', '.join(POLICIES)}", source="--policies", text=pol)
    max_states = budget(args.max_states, "--max-states")
    try:
        with bar("audit games", args, "game") as show:
            a = audit(game, args.games, args.seed, policies, players, max_states, backend_of(args), show)
        return a.to_json(), text(a), None
    except BatchError as err:
        return err.partial.to_json(), text(err.partial), err


def cmd_audit(args: argparse.Namespace) -> Answer:
    """``audit``: the simulated audit, or with ``--compare`` the same audit on two editions."""
    return audit_answer(_run, args, write_witnesses)


def write_witnesses(found: dict[str, Any], folder: str) -> str:
    """Each witness's game record (``play --replay`` opens it) and position (``show`` opens it)."""
    out = Path(folder)
    names: list[str] = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for key, w in found.items():
            (out / f"{key}.record.json").write_text(json.dumps(w["record"], indent=1) + "\n", encoding="utf-8")
            names.append(f"{key}.record.json")
            if "position" in w:
                (out / f"{key}.position.json").write_text(json.dumps(w["position"], indent=1) + "\n",
                                                          encoding="utf-8")
                names.append(f"{key}.position.json")
    except OSError as exc:
        raise UsageError(f"cannot write the witnesses: {exc.strerror}", source="--witness-dir", text=folder) from None
    return f"witnesses written to {out}/: " + ", ".join(names)
