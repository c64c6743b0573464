"""A simulated audit of a Gnome Hollow edition: what whole games do, and what they never do.

``audit`` plays K whole games for every (policy, player count) pair, one task a game on the batch
runner (solver/core/batch.py), and reports turns with no legal placement, tiles never placed
(and whether they could be placed in the gardens the games left), ring board spaces never taken
and claimed rings never closed, market and supply exhaustion, the score spread between players,
and which end condition ended the game on which turn.

Every game is :func:`~gnomekit.solver.gnome_hollow.play.play_game` with the same arguments as
``gnome-hollow play --players N --seed S --policy P`` (game i of a group uses seed ``SEED + i``,
the same seeds for every policy and player count), so its record is the one ``play`` writes and
``play --replay`` re-checks.  The audit then walks the record through the protocol to observe it
(a walk, not a second game: the record's moves are applied in order).  Each finding's witness is
the first game (in the audit's order) that shows it: its record, and where a moment matters the
position then, in the JSON that ``show``, ``moves`` and ``hint`` open.

The figures are combined in a fixed order, so they do not depend on the backend or on how many
workers ran the games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.game import EndPlacing, GnomeHollowGame, GnomeHollowPosition
from gnomekit.models.gnome_hollow.notation import placement_to_text
from gnomekit.models.gnome_hollow.placement import Placement, legal_placements
from gnomekit.models.gnome_hollow.position import Position
from gnomekit.solver.core.batch import Backend, BatchError, Progress, run_batch
from gnomekit.solver.gnome_hollow.play import DEFAULT_MAX_STATES, POLICIES, play_game

DEFAULT_POLICIES = ("random", "greedy")
END_KINDS = ("flowers", "markers", "bag")
#: Final gardens a never-placed tile is tried in (the first games of the audit's order).
PLACEABLE_TRIES = 50


@dataclass(frozen=True)
class GameSpec:
    """One simulated game: its seed, its player count and the policy every seat plays."""

    seed: int
    policy: str
    players: int


@dataclass
class GameOutcome:
    """What one game showed: scores, the end, and the turn of each thing the audit looks for."""

    spec: GameSpec
    record: dict[str, Any]
    totals: list[int]
    winners: list[int]  # seats of rank 1
    turns: int  # turns with tile placement
    finals: int  # final gnome actions
    end: str  # the end reason, as play reports it
    end_kinds: tuple[str, ...]  # which conditions (END_KINDS) triggered the end
    end_turn: int  # the turn in which the end was triggered
    final: Position  # the table when the game is over
    no_placement: list[int] = field(default_factory=list)  # turns where no tile at all could be placed
    no_offered: list[int] = field(default_factory=list)  # turns where no offered tile could be placed
    one_offered: list[int] = field(default_factory=list)  # turns that could place only one offered tile
    placed: set[str] = field(default_factory=set)  # tiles in the final garden
    rings: list[int] = field(default_factory=list)  # sizes of the rings completed, in order
    spaces: set[tuple[int, int]] = field(default_factory=set)  # ring board spaces taken (any player)
    open_claims: int = 0  # unfinished networks a gnome still claims at the end
    exhausted: dict[str, int] = field(default_factory=dict)  # what ran out -> first turn it was seen
    peak_mushrooms: dict[str, int] = field(default_factory=dict)  # most in play (players + pots), per colour
    positions: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # event -> (turn, JSON)
    fallbacks: int = 0


def _kinds(end: str) -> tuple[str, ...]:
    out = []
    if "flower token" in end:
        out.append("flowers")
    if "ring marker" in end:
        out.append("markers")
    if "bag ran out" in end:
        out.append("bag")
    return tuple(out)


def _supply_events(start: Position, ed: GnomeHollowEdition) -> list[str]:
    """What has run out at the start of a turn (names used in the audit's figures)."""
    out = [f"market-tokens-{c}" for c in ed.colours if ed.market_tokens.get(c, 0) and not start.market_tokens.get(c)]
    if not start.flower_market and not start.wildflower_supply:
        out.append("flower-tokens")
    if ed.wildflowers and not start.wildflower_supply:
        out.append("wildflower-tiles")
    if ed.signposts and not start.signposts:
        out.append("signposts")
    if not start.bag:
        out.append("bag")
    if len(start.offered) < ed.offered and start.final_actions is None:
        out.append("garden-tile-board")
    return out


def play_and_observe(game: GnomeHollowGame, spec: GameSpec, max_states: int | None = DEFAULT_MAX_STATES
                     ) -> GameOutcome:
    """Play one game (as ``play`` does) and walk its record to observe it."""
    ed = game.edition
    res = play_game(game, spec.players, spec.seed, spec.policy, (), max_states)
    totals = [int(s["total"]) for s in res.scores]
    winners = [i for i, s in enumerate(res.scores) if s["rank"] == 1]
    out = GameOutcome(spec, res.record, totals, winners, 0, 0, res.end, _kinds(res.end), 0, res.final.start,
                      fallbacks=res.fallbacks)
    pos: GnomeHollowPosition = game.new(players=spec.players, seed=spec.seed)
    peak: Counter[str] = Counter()
    for n, turn in enumerate(res.record["turns"], start=1):
        start = pos.start
        if start.end_triggered and not out.end_turn:
            out.end_turn = n - 1
        if turn.get("final"):
            out.finals += 1
        else:
            out.turns += 1
        for ev in _supply_events(start, ed):
            if ev not in out.exhausted:
                out.exhausted[ev] = n
                out.positions[ev] = (n, pos.to_json())
        held: Counter[str] = Counter()
        for p in start.players:
            held.update(p.mushrooms)
        for _k, m in start.pots:
            held.update(m)
        for c in ed.colours:
            peak[c] = max(peak[c], held[c])
        offered_placed = 0
        first_place = True
        for text in turn["moves"]:
            move = pos.parse_move(text, "<record>")
            if pos.phase == "place" and not turn.get("final"):
                if isinstance(move, Placement):
                    first_place = False
                    offered_placed += move.tile in start.offered
                elif isinstance(move, EndPlacing) and offered_placed < 2:
                    # ``end`` before two offered tiles is legal only when no offered tile fits now
                    if first_place and not any(isinstance(m, Placement) for m in pos.legal_moves()):
                        out.no_placement.append(n)
                        out.positions.setdefault("no-legal-placement", (n, pos.to_json()))
                    if offered_placed == 0:
                        out.no_offered.append(n)
                        out.positions.setdefault("no-offered-placement", (n, pos.to_json()))
                    else:
                        out.one_offered.append(n)
                        out.positions.setdefault("one-offered-placement", (n, pos.to_json()))
            pos = pos.apply(move)
    if not out.end_turn and pos.start.end_triggered:
        out.end_turn = len(res.record["turns"]) - out.finals
    final = pos.start
    out.final = final
    out.peak_mushrooms = {c: peak[c] for c in ed.colours}
    out.placed = {t.tile for t in final.tiles[1:]}
    out.rings = [c.size for c in final.completed(ed)]
    for p in final.players:
        out.spaces.update(p.rings)
    out.open_claims = sum(len(g) for g in final.claims(ed).values())
    if out.open_claims:
        out.positions["claimed-ring-never-closed"] = (len(res.record["turns"]), pos.to_json())
    for ev in _supply_events(final, ed):
        if ev not in out.exhausted and ev != "garden-tile-board":
            out.exhausted[ev] = len(res.record["turns"]) + 1
            out.positions[ev] = (len(res.record["turns"]) + 1, pos.to_json())
    final.__dict__.pop("_replay_cache", None)  # rebuilt on demand: not worth sending back to the parent
    return out


def _task(game: GnomeHollowGame, max_states: int | None, spec: GameSpec) -> GameOutcome:
    """One game (a task of the batch runner)."""
    return play_and_observe(game, spec, max_states)


def specs(games: int, seed: int, policies: Sequence[str], players: Sequence[int]) -> list[GameSpec]:
    """The games of an audit, in the order their figures are combined."""
    return [GameSpec(seed + i, pol, n) for pol in policies for n in players for i in range(games)]


def _stats(xs: Sequence[float]) -> dict[str, Any]:
    t = sorted(xs)
    if not t:
        return {"mean": None, "min": None, "median": None, "max": None}
    return {"mean": round(sum(t) / len(t), 2), "min": t[0], "median": t[len(t) // 2], "max": t[-1]}


@dataclass
class Group:
    """Figures over the games of one policy and player count."""

    policy: str
    players: int
    games: int = 0
    turns: list[int] = field(default_factory=list)
    no_placement: int = 0
    no_offered: int = 0
    one_offered: int = 0
    games_with_no_placement: int = 0
    end_kinds: dict[str, int] = field(default_factory=lambda: {k: 0 for k in END_KINDS})
    end_turn: list[int] = field(default_factory=list)
    end_round: list[int] = field(default_factory=list)
    spread: list[int] = field(default_factory=list)
    winner_total: list[int] = field(default_factory=list)
    wins_by_seat: list[float] = field(default_factory=list)
    shared_wins: int = 0
    rings: list[int] = field(default_factory=list)
    open_claims: int = 0
    exhausted: dict[str, int] = field(default_factory=dict)  # games in which it ran out
    exhausted_turn: dict[str, list[int]] = field(default_factory=dict)
    peak_mushrooms: dict[str, int] = field(default_factory=dict)
    fallbacks: int = 0

    def add(self, o: GameOutcome) -> None:
        self.games += 1
        if not self.wins_by_seat:
            self.wins_by_seat = [0.0] * self.players
        self.turns.append(o.turns)
        self.no_placement += len(o.no_placement)
        self.no_offered += len(o.no_offered)
        self.one_offered += len(o.one_offered)
        self.games_with_no_placement += bool(o.no_placement)
        for k in o.end_kinds:
            self.end_kinds[k] += 1
        self.end_turn.append(o.end_turn)
        self.end_round.append((o.end_turn - 1) // self.players + 1)
        self.spread.append(max(o.totals) - min(o.totals))
        self.winner_total.append(max(o.totals))
        for w in o.winners:
            self.wins_by_seat[w] += 1 / len(o.winners)
        self.shared_wins += len(o.winners) > 1
        self.rings.append(len(o.rings))
        self.open_claims += o.open_claims
        for ev, at in o.exhausted.items():
            self.exhausted[ev] = self.exhausted.get(ev, 0) + 1
            self.exhausted_turn.setdefault(ev, []).append(at)
        for c, n in o.peak_mushrooms.items():
            self.peak_mushrooms[c] = max(self.peak_mushrooms.get(c, 0), n)
        self.fallbacks += o.fallbacks

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "players": self.players, "games": self.games,
                "turns": _stats(self.turns),
                "turns_with_no_legal_placement": self.no_placement,
                "games_with_a_turn_with_no_legal_placement": self.games_with_no_placement,
                "turns_with_no_offered_tile_placeable": self.no_offered,
                "turns_with_one_offered_tile_placeable": self.one_offered,
                "end": {"conditions": dict(self.end_kinds), "turn": _stats(self.end_turn),
                        "round": _stats(self.end_round)},
                "scores": {"spread": _stats(self.spread), "winner": _stats(self.winner_total),
                           "wins_by_seat": [round(w, 3) for w in self.wins_by_seat], "shared_wins": self.shared_wins},
                "rings_completed": _stats(self.rings), "claimed_rings_never_closed": self.open_claims,
                "ran_out": {ev: {"games": n, "first_turn": _stats(self.exhausted_turn[ev])}
                            for ev, n in sorted(self.exhausted.items())},
                "most_mushrooms_in_play": dict(self.peak_mushrooms),
                "solver_fallbacks": self.fallbacks}


@dataclass
class Audit:
    """The audit's answer: figures per policy and player count, edition-wide findings, witnesses."""

    edition: str
    games: int  # per policy and player count
    seed: int
    policies: list[str]
    players: list[int]
    max_states: int | None
    groups: list[Group] = field(default_factory=list)
    never_placed: dict[str, dict[str, Any]] = field(default_factory=dict)  # tile -> placeable? witness
    spaces_never_taken: list[str] = field(default_factory=list)  # "SIZE.ROW"
    ring_sizes: dict[str, int] = field(default_factory=dict)
    mushroom_supply: dict[str, dict[str, int]] = field(default_factory=dict)  # colour -> supply, most in play
    witnesses: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "games_per_group": self.games, "seed": self.seed,
                "policies": self.policies, "players": self.players, "max_states": self.max_states,
                "groups": [g.to_json() for g in self.groups],
                "tiles_never_placed": self.never_placed,
                "ring_board_spaces_never_taken": self.spaces_never_taken,
                "ring_sizes": self.ring_sizes, "mushroom_supply": self.mushroom_supply,
                "witnesses": self.witnesses}


def audit(game: GnomeHollowGame, games: int = 5, seed: int = 0, policies: Sequence[str] = DEFAULT_POLICIES,
          players: Sequence[int] = (2, 3, 4), max_states: int | None = DEFAULT_MAX_STATES,
          backend: Backend | None = None, progress: Callable[[Progress], None] | None = None) -> Audit:
    """Play ``games`` games for each policy and player count (one task each) and collect the figures.

    BatchError when a game raised or the run was interrupted (its ``partial``: the Audit of the
    games that finished).
    """
    ed = game.edition
    for pol in policies:
        if pol not in POLICIES:
            raise UsageError(f"unknown policy {pol!r}; choose from {', '.join(POLICIES)}", text=pol)
    for n in players:
        if not ed.players_min <= n <= ed.players_max:
            raise UsageError(f"expected {ed.players_min} to {ed.players_max} players", text=str(n))
    if games < 0:
        raise UsageError("games must be 0 or more", text=str(games))
    jobs = specs(games, seed, policies, players)
    batch = run_batch(partial(_task, game, max_states), jobs, backend, progress)
    res = Audit(ed.name, games, seed, list(policies), list(players), max_states)
    groups = {(pol, n): Group(pol, n) for pol in policies for n in players}
    res.groups = list(groups.values())
    outcomes = [o for _i, o in batch.items()]
    for o in outcomes:
        groups[(o.spec.policy, o.spec.players)].add(o)
        _note_witnesses(o, res.witnesses)
    _edition_findings(ed, outcomes, res)
    if not batch.complete:
        raise BatchError(batch, res)
    return res


def _witness(o: GameOutcome, what: str, at: tuple[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """A finding's witness: the game (players, seed, policy and its record) and maybe a position."""
    w: dict[str, Any] = {"players": o.spec.players, "seed": o.spec.seed, "policy": o.spec.policy, "what": what,
                         "record": o.record}
    if at is not None:
        w["turn"], w["position"] = at
    return w


def _note_witnesses(o: GameOutcome, found: dict[str, dict[str, Any]]) -> None:
    """The first game (in the audit's order) of each finding becomes its witness."""
    what = {"no-legal-placement": "no tile (offered or stored) can be placed at the start of turn {t}",
            "no-offered-placement": "no offered tile can be placed on turn {t}",
            "one-offered-placement": "only one offered tile could be placed on turn {t}",
            "claimed-ring-never-closed": "the game ends with a gnome on a ring that never closed"}
    for event, (turn, pos) in o.positions.items():
        key = event if event in what else f"ran-out-{event}"
        if key not in found:
            words = what[event].format(t=turn) if event in what else f"{event} ran out: first seen at the start " \
                f"of turn {turn}"
            found[key] = _witness(o, words, (turn, pos))
    for k in o.end_kinds:
        key = f"end-{k}"
        if key not in found:
            found[key] = _witness(o, f"the end triggered by {k} on turn {o.end_turn}: {o.end}")
    spread = max(o.totals) - min(o.totals)
    if "widest-spread" not in found or spread > found["widest-spread"]["spread"]:
        found["widest-spread"] = {**_witness(o, f"scores {', '.join(map(str, o.totals))}: a spread of {spread}"),
                                  "spread": spread}
    if "earliest-end" not in found or o.end_turn < found["earliest-end"]["end_turn"]:
        found["earliest-end"] = {**_witness(o, f"the end triggered on turn {o.end_turn}: {o.end}"),
                                 "end_turn": o.end_turn}


def _edition_findings(ed: GnomeHollowEdition, outcomes: list[GameOutcome], res: Audit) -> None:
    """Tiles never placed (and whether some final garden takes them), spaces never taken, ring sizes."""
    placed: set[str] = set()
    spaces: set[tuple[int, int]] = set()
    sizes: Counter[int] = Counter()
    peak: Counter[str] = Counter()
    for o in outcomes:
        placed |= o.placed
        spaces |= o.spaces
        sizes.update(o.rings)
        for c, n in o.peak_mushrooms.items():
            peak[c] = max(peak[c], n)
    for tid in ed.all_tiles:
        if tid in placed or tid == ed.stump.id or not outcomes:
            continue
        kind = "wildflower" if tid in ed.wildflowers else "garden"
        entry: dict[str, Any] = {"kind": kind, "placeable": None, "gardens_tried": 0}
        for o in outcomes[:PLACEABLE_TRIES]:
            entry["gardens_tried"] += 1
            opts = legal_placements(o.final, ed, tid)
            if opts:
                entry = {"kind": kind, "placeable": True, "gardens_tried": entry["gardens_tried"],
                         "placement": placement_to_text(opts[0], ed), "players": o.spec.players,
                         "seed": o.spec.seed, "policy": o.spec.policy}
                break
        if entry["placeable"] is None:
            entry["placeable"] = False  # in none of the gardens tried (not a proof for every garden)
        res.never_placed[tid] = entry
    boards = {o.final.option("board") for o in outcomes} or {"standard"}
    for board in sorted(boards):
        for col in ed.board(board):
            for row in range(1, len(col.rows) + 1):
                if (col.size, row) not in spaces:
                    res.spaces_never_taken.append(f"{col.size}.{row}")
    res.ring_sizes = {str(k): sizes[k] for k in sorted(sizes)}
    res.mushroom_supply = {c: {"supply": ed.supply.get(c, 0), "most_in_play": peak[c]} for c in ed.colours}


def text(a: Audit) -> str:
    """The audit for people."""
    lines = [f"Gnome Hollow audit, edition {a.edition}: {a.games} game(s) per policy and player count "
             f"(seeds {a.seed}..{a.seed + a.games - 1}), policies {', '.join(a.policies)}, "
             f"players {', '.join(map(str, a.players))}"]
    for g in a.groups:
        j = g.to_json()
        if not g.games:
            continue
        e, s = j["end"], j["scores"]
        lines.append(f"{g.policy}, {g.players} players: {g.games} games, turns mean {j['turns']['mean']} "
                     f"(max {j['turns']['max']}); rings a game mean {j['rings_completed']['mean']}")
        lines.append(f"  turns with no legal placement {g.no_placement} (in {g.games_with_no_placement} game(s)); "
                     f"no offered tile placeable {g.no_offered}; only one {g.one_offered}")
        lines.append("  end by " + ", ".join(f"{k} {n}" for k, n in e["conditions"].items())
                     + f"; triggered on turn mean {e['turn']['mean']} (min {e['turn']['min']}, max {e['turn']['max']}),"
                       f" round mean {e['round']['mean']}")
        lines.append(f"  score spread mean {s['spread']['mean']} (max {s['spread']['max']}), winner's score mean "
                     f"{s['winner']['mean']}; wins by seat " + ", ".join(f"{w:g}" for w in s["wins_by_seat"])
                     + f"; shared wins {s['shared_wins']}")
        ran = ", ".join(f"{ev} in {v['games']} (turn mean {v['first_turn']['mean']})" for ev, v in j["ran_out"].items())
        lines.append("  ran out: " + (ran or "nothing") + f"; claimed rings never closed {g.open_claims}")
    never = a.never_placed
    if never:
        lines.append("tiles never placed: " + ", ".join(
            f"{t} ({v['kind']}; " + (f"placeable, e.g. {v['placement']}" if v["placeable"] else
                                     f"placeable in none of {v['gardens_tried']} final gardens") + ")"
            for t, v in never.items()))
    else:
        lines.append("tiles never placed: none")
    lines.append("ring board spaces never taken: " + (", ".join(a.spaces_never_taken) or "none"))
    lines.append("rings completed by size: " + (", ".join(f"{k} tiles {n}" for k, n in a.ring_sizes.items()) or "none"))
    over = [f"{c} (supply {v['supply']}, {v['most_in_play']} in play)" for c, v in a.mushroom_supply.items()
            if v["most_in_play"] > v["supply"]]
    lines.append("mushroom supply exceeded: " + (", ".join(over) or "never"))
    for key, w in a.witnesses.items():
        where = f" (position at turn {w['turn']})" if "position" in w else ""
        lines.append(f"witness {key}: {w['players']} players, seed {w['seed']}, {w['policy']}: {w['what']}{where}")
    return "\n".join(lines)
