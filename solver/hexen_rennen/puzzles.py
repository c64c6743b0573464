"""Hexen Rennen puzzles for ``gnomekit tour``: optimal chains with verified answers.

A puzzle file (TOML) holds ``[puzzle]`` (name, title, roll, options, the position
in text notation) and ``[answer]`` (value, witch, chain, turn, cooperative).
:func:`run_puzzle` solves from scratch, compares with the stored answer and runs three
cross-checks, reported in ``checks_applied`` / ``checks_ran`` (all three apply to every puzzle):

* ``replay``: the stored turn replays with the rules engine to the stored value;
* ``protocol``: the same turn played move by move through the game protocol
  (:mod:`gnomekit.models.hexen_rennen.game`) ends in the same position;
* ``z3``: every witch choice's minimax and cooperative values proved by the z3 encoding.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path
from typing import Any

from gnomekit.models.core.errors import GnomekitError
from gnomekit.models.hexen_rennen.edition import default_edition
from gnomekit.models.hexen_rennen.game import Play, Roll, Witch, make_game
from gnomekit.models.hexen_rennen.notation import parse_turn, position_from_text, turn_to_text
from gnomekit.models.hexen_rennen.turn import Rules, TurnReport, replay, turn_plan_of
from gnomekit.solver.core.puzzles import PuzzleOutcome, bundled_puzzle_files
from gnomekit.solver.hexen_rennen.chain import solve_chain
from gnomekit.solver.hexen_rennen.smt import verify_turn

GAME = "hexen-rennen"
CHECKS = ("replay", "protocol", "z3")


def puzzle_files() -> list[Path]:
    return bundled_puzzle_files("hexen-rennen")


def rules_of(options: list[str]) -> Rules:
    unknown = [o for o in options if o != "strict-symbol-target"]
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}")
    return Rules(strict_symbol_target="strict-symbol-target" in options)


def run_puzzle(path: Path) -> PuzzleOutcome:
    """Solve one puzzle and compare with its stored, verified answer."""
    t0 = time.perf_counter()
    ed = default_edition()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        pz, ans = data["puzzle"], data["answer"]
        pos = position_from_text(pz["position"], str(path), ed)
        roll = int(pz["roll"])
        rules = rules_of(list(pz.get("options", [])))
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError, GnomekitError) as exc:
        return PuzzleOutcome(GAME, path.stem, "optimal chain", False, False, time.perf_counter() - t0,
                             detail=f"cannot read puzzle: {exc}")
    question = f"{pz.get('title', path.stem)}: optimal chain for {pos.to_move}, roll {roll}" + (
        f" ({', '.join(rules.names())})" if rules.names() else "")
    sol = solve_chain(pos, ed, roll, rules)
    found: dict[str, Any] = {
        "value": sol.value, "witch": sol.witch, "chain": sol.line.chain if sol.line else [],
        "turn": turn_to_text(sol.line.plan) if sol.line else "pass",
        "cooperative": sol.coop.value if sol.coop else None,
    }
    problems = [f"{k}: stored {ans.get(k)!r}, found {v!r}" for k, v in found.items() if ans.get(k) != v]
    ran: list[str] = []
    rep = replay(pos, ed, roll, parse_turn(str(ans.get("turn", "pass")), ed), rules)
    if not rep.legal or (rep.state is not None and rep.state.at != ans.get("value")):
        problems.append(f"the stored turn does not replay to the stored value ({rep.error_at}: {rep.reasons})")
    ran.append("replay")
    why = protocol_check(pos, roll, rules, rep)
    if why:
        problems.append("the protocol disagrees: " + why)
    ran.append("protocol")
    ver = verify_turn(pos, ed, roll, rules)
    if not ver.agrees:
        problems.append("z3 disagrees: " + ver.summary)
    ran.append("z3")
    answer = (f"witch {found['witch']} -> {found['value']} via {' -> '.join(map(str, found['chain']))} "
              f"(turn '{found['turn']}'; cooperative {found['cooperative']})")
    detail = "\n".join(problems) if problems else f"z3: {ver.summary}"
    return PuzzleOutcome(GAME, path.stem, question, True, not problems, time.perf_counter() - t0,
                         position_text=pz["position"], answer_text=answer, detail=detail, data=found,
                         checks_applied=CHECKS, checks_ran=tuple(ran))


def protocol_check(pos: Any, roll: int, rules: Rules, rep: TurnReport) -> str:
    """Play the replayed turn through the protocol (roll, witch, each decision); "" when it agrees."""
    if not rep.legal or rep.final is None:
        return "the stored turn is not legal, nothing to play"
    game = make_game(default_edition(), rules)
    p = game.position(pos)
    moves: list[Any] = [Roll(roll), Witch(rep.witch)]
    moves += [Play(d.clan, d.code) for d in turn_plan_of(rep.steps)]
    for m in moves:
        r = p.check(m)
        if not r.legal:
            return f"{m}: {r}"
        p = p.apply(m)
    if p.phase != "roll" and p.phase != "over":
        return f"the turn has not ended after {' '.join(map(str, moves))}: {p.status()}"
    if p.base != rep.final:
        return "the position after the turn differs from the rules engine's"
    return ""
