"""Every legal turn for a roll: each witch choice and each sequence of decisions along the chain."""

from __future__ import annotations

from dataclasses import dataclass, field

from gnomekit.models.hexen_rennen.edition import HexenEdition
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.turn import (
    ChainState,
    Decision,
    Rules,
    Turn,
    TurnPlan,
    game_over_violation,
    movable_witches,
)


@dataclass
class LegalTurn:
    plan: TurnPlan
    chain: list[int]


@dataclass
class TurnList:
    count: int  # every legal turn (counted exactly, even past the listing limit)
    turns: list[LegalTurn] = field(default_factory=list)
    complete: bool = True


def count_paths(turn: Turn, st: ChainState, memo: dict[ChainState, int]) -> int:
    """The number of distinct decision sequences from ``st`` to the end of the chain."""
    if st in memo:
        return memo[st]
    node = turn.expand(st)
    if node.kind == "end":
        n = 1
    elif node.kind == "auto":
        n = count_paths(turn, node.options[0].state, memo)
    else:
        n = sum(count_paths(turn, o.state, memo) for o in node.options)
    memo[st] = n
    return n


def all_turns(pos: Position, edition: HexenEdition, roll: int, rules: Rules | None = None,
              limit: int = 10000) -> TurnList:
    """All legal turns (witch + decisions), listed up to ``limit``; a pass when no witch can move.

    A finished race (``game_over_violation``: a playing clan has every witch on the finish board) has
    none, whatever the roll: not a chain, not a pass (``replay`` refuses every turn there, and the
    protocol position is terminal).
    """
    out = TurnList(0)
    if game_over_violation(pos, edition) is not None:
        return out
    any_move = False
    for origin, target, _ in movable_witches(pos, edition, roll, rules):
        if target is None:
            continue
        any_move = True
        turn = Turn(pos, edition, origin, rules)
        st0 = turn.start(target)
        out.count += count_paths(turn, st0, {})
        stack: list[tuple[ChainState, tuple[Decision, ...], list[int]]] = [(st0, (), [origin, target])]
        while stack:
            st, decs, chain = stack.pop()
            node = turn.expand(st)
            if node.kind == "end":
                if len(out.turns) < limit:
                    out.turns.append(LegalTurn(TurnPlan(origin, decs), chain))
                else:
                    out.complete = False
                continue
            opts = node.options
            for o in reversed(opts):
                d = decs if node.kind == "auto" else decs + (Decision(edition.clan_ids[node.chooser or 0], o.code),)
                stack.append((o.state, d, chain + ([o.step.to] if o.step.to is not None else [])))
    if not any_move:
        out.count = 1
        out.turns.append(LegalTurn(TurnPlan(None), []))
    return out
