"""``hint``: which witch to move and which cards to play for a roll, and why (from the optimal chain)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gnomekit.models.hexen_rennen.edition import HexenEdition
from gnomekit.models.hexen_rennen.notation import turn_to_text
from gnomekit.models.hexen_rennen.position import Position
from gnomekit.models.hexen_rennen.turn import Rules, Turn, choice_name
from gnomekit.solver.hexen_rennen.chain import ChainSearch, solve_chain


@dataclass
class Hint:
    data: dict[str, Any]
    text: str


def hint(pos: Position, edition: HexenEdition, roll: int, rules: Rules | None = None) -> Hint:
    """The optimal witch, the mover's planned decisions with the value of every alternative."""
    sol = solve_chain(pos, edition, roll, rules)
    if sol.line is None or sol.witch is None:
        why = "; ".join(f"witch on {w.origin}: {' '.join(w.reasons)}" for w in sol.witches)
        return Hint({"witch": None, "value": None, "reasons": why},
                    f"no witch can move with a {roll}: the turn passes ({why})")
    lines = [f"Move the witch on {sol.witch}: against best replies it ends on {sol.value}."]
    others = [w for w in sol.witches if w.origin != sol.witch]
    for w in others:
        if w.value is None:
            lines.append(f"  The witch on {w.origin} cannot move: {'; '.join(w.reasons)}.")
        else:
            lines.append(f"  The witch on {w.origin} would end on {w.value} (cooperative {w.coop}).")
    turn = Turn(pos, edition, sol.witch, rules)
    search = ChainSearch(turn)
    st = turn.start(sol.line.chain[1])
    decisions = []
    while True:
        node = turn.expand(st)
        if node.kind == "end":
            break
        best = search.best(st)
        assert best is not None
        if node.kind == "choice":
            who = edition.clan_ids[node.chooser or 0]
            alts = {choice_name(o.code): search.value(o.state) for o in node.options}
            mine = node.chooser == turn.mover
            decisions.append({"at": st.at, "clan": who, "play": choice_name(best.code), "values": alts,
                              "forced": node.forced, "mover": mine})
            alt = ", ".join(f"{k} -> {v}" for k, v in alts.items())
            if mine:
                lines.append(f"  On tile {st.at} play {choice_name(best.code)}"
                             + (" (forced: you must play a card)" if node.forced else "")
                             + f": the outcomes are {alt}.")
            else:
                lines.append(f"  On tile {st.at} expect {who} to play {choice_name(best.code)}"
                             + (" (forced)" if node.forced else "") + f" (outcomes {alt}; {who} picks the lowest).")
        st = best.state
    lines.append(f"Turn: {turn_to_text(sol.line.plan)}   chain: {' -> '.join(map(str, sol.line.chain))}")
    if sol.coop is not None and sol.coop.value > (sol.value or 0):
        lines.append(f"If the others helped, the best would be {sol.coop.value} (witch {sol.coop.witch}).")
    data = {"witch": sol.witch, "value": sol.value, "chain": sol.line.chain, "turn": turn_to_text(sol.line.plan),
            "decisions": decisions,
            "alternatives": [{"field": w.origin, "value": w.value, "cooperative": w.coop} for w in sol.witches]}
    return Hint(data, "\n".join(lines))
