"""Property tests on random positions: every chain ends (the documented potential), replay agrees."""

from __future__ import annotations

from gnomekit.models.hexen_rennen.notation import parse_turn, turn_to_text
from gnomekit.models.hexen_rennen.turn import (
    ChainState,
    Rules,
    Turn,
    TurnPlan,
    game_over_violation,
    movable_witches,
    replay,
)
from gnomekit.solver.hexen_rennen.generate import rich_position
from gnomekit.solver.hexen_rennen.moves import all_turns
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.hexen_rennen.hexen_build import ED


def cards(s: ChainState) -> int:
    return sum(len(h) for h in s.hands)


def check_tree(turn: Turn, s0: ChainState) -> int:
    """Walk every transition; the pair (cards, last - at) must drop at each non-final step."""
    bound = (cards(s0) + 1) * (turn.last + 1)
    seen: dict[ChainState, int] = {}

    def walk(s: ChainState) -> int:
        if s in seen:
            return seen[s]
        node = turn.expand(s)
        if node.kind == "end":
            seen[s] = 0
            return 0
        depth = 0
        for o in node.options:
            n = o.state
            if not n.done:
                assert (cards(n), turn.last - n.at) < (cards(s), turn.last - s.at), (s, n)
                # a step that keeps every card moves the witch strictly forward
                if cards(n) == cards(s):
                    assert n.at > s.at
            depth = max(depth, 1 + walk(n))
        seen[s] = depth
        return depth

    d = walk(s0)
    assert d <= bound
    return d


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), roll=st.integers(1, 6), strict=st.booleans(),
       face_up=st.floats(0.2, 1.0), keep=st.floats(0.2, 1.0))
def test_every_chain_ends_and_the_potential_drops(seed, roll, strict, face_up, keep) -> None:
    pos = rich_position(ED, seed, face_up=face_up, keep_cards=keep)
    rules = Rules(strict_symbol_target=strict)
    for origin, target, _ in movable_witches(pos, ED, roll, rules):
        if target is None:
            continue
        turn = Turn(pos, ED, origin, rules)
        check_tree(turn, turn.start(target))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), roll=st.integers(1, 6))
@example(seed=511857, roll=1)  # a finished race (weather has every witch on the finish board)
def test_every_listed_turn_replays_to_its_chain(seed, roll) -> None:
    pos = rich_position(ED, seed)
    turns = all_turns(pos, ED, roll, limit=200)
    over = game_over_violation(pos, ED)
    if over is not None:
        # a finished race lists no turn (not even a pass), and replay refuses every turn, saying why:
        # a pass and each witch of the mover that the die could move (with no decisions written)
        assert (turns.count, turns.turns, turns.complete) == (0, [], True)
        plans = [TurnPlan(None)] + [TurnPlan(o) for o, t, _ in movable_witches(pos, ED, roll) if t is not None]
        for plan in plans:
            rep = replay(pos, ED, roll, plan)
            assert not rep.legal and rep.error_at == "roll" and rep.reasons == [over.message], plan
        return
    assert turns.count >= len(turns.turns) >= 1
    if turns.complete:
        assert turns.count == len(turns.turns)
    for t in turns.turns:
        rep = replay(pos, ED, roll, parse_turn(turn_to_text(t.plan), ED))
        assert rep.legal, (turn_to_text(t.plan), rep.reasons)
        assert rep.chain == t.chain
        assert rep.final is not None and rep.final.to_move == pos.next_player()
        # the final position is consistent: no two witches on one tile, hands only shrink
        assert rep.final.problems(ED) == []
        for c in ED.clan_ids:
            assert len(rep.final.hand(c)) <= len(pos.hand(c))
