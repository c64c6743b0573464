"""The best-turn search and the engine's turn scoring against the independent scorer (score_reference.py).

Positions are generated with everything the resolve step reads: the mover's ring board (standard or
advanced), flowers, mushrooms, the markets, wildflower tiles, signposts (unplaced and placed), pots,
lying gnomes, a stored tile, rival claims (with and without permission), the trade board and
``pair_sets`` options, and several measures.  For each: the search's value equals the reference's
exhaustive value, and the engine's points for the search's turn and for a random turn (random resolve
choices, some left to the documented defaults) equal the reference's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from gnomekit.models.core.errors import IllegalMoveError
from gnomekit.models.gnome_hollow.edition import default_edition
from gnomekit.models.gnome_hollow.networks import Networks
from gnomekit.models.gnome_hollow.placement import legal_placements
from gnomekit.models.gnome_hollow.position import FLOWERS, MARKET, Gnome, PlayerState, Position, markers_moved
from gnomekit.models.gnome_hollow.scoring import GnomeAction, MarkerChoice, Turn, apply_turn
from gnomekit.solver.core.result import Status
from gnomekit.solver.gnome_hollow.best import Weights, best_turn

from tests.gnome_hollow.reference import random_garden, two_players
from tests.gnome_hollow.score_reference import Rules, best_value, turn_value

ED = default_edition()
RULES = Rules()
MEASURES = (Weights(), Weights(mushroom=0.5), Weights(ring=2, flower=1, treasure=0.5, mushroom=0.25))


def _closes_ring(pos: Position, tid: str) -> bool:
    nets = pos.networks(ED)
    for p in legal_placements(pos, ED, tid, nets):
        trial = nets.copy()
        if any(c.ring for c in trial.place(ED.tile(p.tile), p.cell, p.orientation)):
            return True
    return False


def generated(seed: int, storage: bool = True) -> tuple[Position, Weights, tuple[str, ...]] | None:
    """A small garden and a randomised table around it (None when the draw is not well formed).

    ``storage``: the mover may hold a stored tile (three-tile turns: slow for the reference)."""
    rng = random.Random(f"score-reference/{seed}")
    seq = random_garden(ED, seed, rng.randint(2, 11), wild=0.15)
    garden = seq[1:]
    base = two_players(garden)
    nets: Networks = base.networks(ED)
    in_garden = {t for t, _c, _o in seq}
    bag = [t for t in ED.tiles if t not in in_garden]
    rng.shuffle(bag)
    closing = [t for t in bag[:14] if _closes_ring(base, t)]
    offered = [closing[0]] if closing and rng.random() < 0.8 else []
    offered += [t for t in bag if t not in offered][: 2 - len(offered)]
    rng.shuffle(offered)
    options: dict[str, str] = {}
    if rng.random() < 0.35:
        options["board"] = "advanced"
    if rng.random() < 0.35:
        options["trade_board"] = "on"
    if rng.random() < 0.2:
        options["pair_sets"] = "many"
    board = options.get("board", "standard")
    # the mover's board spaces (at most 7 markers moved)
    spaces = [(c.size, r) for c in ED.board(board) for r in range(1, len(c.rows) + 1)]
    rings: list[tuple[int, int]] = []
    for sp in rng.sample(spaces, rng.randint(0, min(5, len(spaces)))):
        trial = PlayerState("red", rings=tuple(rings + [sp]))
        if markers_moved(ED, trial, board) <= 7:
            rings.append(sp)
    wild_in_garden = {t for t in in_garden if t in ED.wildflowers}
    wild_free = [w for w in ED.wildflowers if w not in wild_in_garden]
    stored: list[str] = []
    if rng.random() < 0.15 and storage and len(garden) <= 5:  # three-tile turns: small gardens only
        stored.append(rng.choice(wild_free) if wild_free and rng.random() < 0.4 else bag[5])
    flowers = rng.sample(list(ED.flowers), rng.randint(0, 4))
    supply = {w: rng.randint(1, 2) for w in wild_free if w not in stored and rng.random() < 0.5}
    supply_flowers = {ED.tile(w).flower for w in supply}
    fmarket = {f: rng.randint(1, 2) for f in ED.flowers if f not in supply_flowers and rng.random() < 0.4}
    red = PlayerState("red", mushrooms={c: rng.randint(0, 5) for c in ED.colours}, flowers=tuple(flowers),
                      rings=tuple(rings), storage=tuple(stored))
    blocked = {c: tuple(n for n, _p in ED.market[c].spaces if rng.random() < 0.3) for c in ED.colours}
    tokens = {c: rng.randint(0, ED.market_tokens[c]) for c in ED.colours}
    done = [c for c in base.completed(ED)]
    open_keys = [k for k in sorted(nets.path_elem) if not nets.is_ring(nets.root_of(k))]
    ring_keys = [c.paths[0] for c in done]
    # gnomes: at most one per open network; red may lie on a completed ring (scored at the start of the turn)
    gnomes: list[Gnome] = []
    used_roots: set[int] = set()
    lying = False
    for player in ("red", "red", "blue", "blue"):
        r = rng.random()
        free = [k for k in open_keys if nets.root_of(k) not in used_roots]
        if r < 0.45 and free:
            k = rng.choice(free)
            used_roots.add(nets.root_of(k))
            gnomes.append(Gnome(player, k))
        elif r < 0.6 and player == "red" and ring_keys and not lying:
            gnomes.append(Gnome(player, ring_keys[0], down=True))
            lying = True
        else:
            gnomes.append(Gnome(player, rng.choice([None, FLOWERS, MARKET])))
    signs = list(ED.signposts)
    rng.shuffle(signs)
    placed: list[tuple[str, Any]] = []
    pots: list[tuple[Any, dict[str, int]]] = []
    for c in done:
        if rng.random() < 0.5:
            placed.append((signs.pop(), c.paths[0]))
        claimed = any(isinstance(g.at, tuple) and g.at in c.paths for g in gnomes)
        if not claimed and rng.random() < 0.5:
            pots.append((c.paths[0], {k: v for k, v in c.mushrooms.items() if v}))
    unplaced = tuple(signs[: rng.randint(0, len(signs))])
    pos = replace(base, players=(red, PlayerState("blue")), gnomes=tuple(gnomes), offered=tuple(offered),
                  bag=tuple(bag[6:20]), market=blocked, market_tokens=tokens, flower_market=fmarket,
                  wildflower_supply=supply, signposts=unplaced, placed_signposts=tuple(placed), pots=tuple(pots),
                  options=options)
    if pos.problems(ED) or pos.warnings(ED):
        return None
    permits = ("blue",) if rng.random() < 0.5 else ()
    return pos, MEASURES[seed % len(MEASURES)], permits


def _engine_points(pos: Position, turn: Turn) -> dict[str, float] | None:
    try:
        _nxt, g, _r = apply_turn(pos, ED, turn)
    except IllegalMoveError:
        return None
    sold = sum(n for _c, n in turn.action.sales) if turn.action is not None and turn.action.kind == "market" else 0
    return {"ring": g.ring_points, "flower": g.flower_points, "treasure": g.treasure_points,
            "mushrooms": sum(g.mushrooms.values()) - sold}


def random_turn(pos: Position, rng: random.Random, permits: tuple[str, ...]) -> Turn:
    """Random placements, random resolve choices (some left to the defaults) and a random gnome action."""
    seq = []
    cur = pos
    for tid in [*pos.offered, *pos.mover.storage]:
        opts = legal_placements(cur, ED, tid, permits=permits)
        if opts and rng.random() < 0.85:
            seq.append(rng.choice(opts))
            cur = replace(cur, tiles=cur.tiles + (seq[-1].as_placed(),))
    markers = []
    for _ in range(4):
        markers.append(MarkerChoice(
            row=rng.choice([None, 1, 2, 3, 4]),
            signpost=rng.choice([None, *pos.signposts, *("use:" + s for s, _k in pos.placed_signposts)]),
            flower=rng.choice([None, *(f for f in ED.flowers if pos.flower_market.get(f, 0) > 0)]),
            mushrooms=tuple(rng.choice(ED.colours) for _ in range(rng.randint(0, 3))),
            trade=rng.choice([None, None, 1, 2]) if pos.option("trade_board") == "on" else None))
    r = rng.random()
    action: GnomeAction | None = None
    if r < 0.25:
        have = pos.mover.mushrooms
        sales = [(c, rng.choice([2, 3, 4, 5])) for c in rng.sample(list(ED.colours), 2) if have.get(c, 0) >= 2]
        action = GnomeAction(rng.randrange(2), "market", sales=tuple(sales[: rng.randint(1, 2)]))
    elif r < 0.45:
        action = GnomeAction(rng.randrange(2), "flowers")
    elif r < 0.65 and pos.pots:
        action = GnomeAction(rng.randrange(2), "claim", at=pos.pots[0][0])
    elif r < 0.85 and pos.placed_signposts:
        trade = rng.choice([None, 1, 2]) if pos.option("trade_board") == "on" else None
        action = GnomeAction(rng.randrange(2), "signpost", at=pos.placed_signposts[0][1], trade=trade)
    return Turn(tuple(seq), tuple(markers), action, permits)


def _cross(seeds: range, storage: bool = True) -> tuple[int, int]:
    n_best = n_turns = 0
    for seed in seeds:
        got = generated(seed, storage)
        if got is None:
            continue
        pos, w, permits = got
        res = best_turn(pos, ED, w, permits)
        assert res.status == Status.OPTIMAL and res.stats["verified"] == 1, seed
        ref = best_value(pos, RULES, w, permits)
        assert res.value == pytest.approx(ref), f"seed {seed}: search {res.value}, reference {ref}"
        n_best += 1
        rng = random.Random(seed)
        for turn in (res.witness["turn"], random_turn(pos, rng, permits), random_turn(pos, rng, permits)):
            eng = _engine_points(pos, turn)
            if eng is None:
                continue
            assert eng == turn_value(pos, RULES, w, turn), f"seed {seed}: {turn}"
            n_turns += 1
    return n_best, n_turns


def test_search_and_engine_agree_with_the_independent_scorer() -> None:
    n_best, n_turns = _cross(range(12), storage=False)
    assert n_best >= 10 and n_turns >= 15


@pytest.mark.slow
def test_search_and_engine_agree_with_the_independent_scorer_full() -> None:
    n_best, n_turns = _cross(range(1000, 1240))
    assert n_best >= 200 and n_turns >= 300
