"""``solve --phase round``: our placement and our running plan together.

The round solver uses the one coupling (movement points -> allowance) and the
monotonicity of the running value in the allowance to solve few running
positions; here every legal placement's running position is solved (a joint
brute force) and the winner picked by the documented objective.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from gnomekit.models.core.errors import UsageError
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.notation import read_garden
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.running import RunPosition, execute_plan, start_round
from gnomekit.models.hedge_mage.running_notation import parse_plan, read_run
from gnomekit.solver.hedge_mage.best import best_block, options_for, score_all
from gnomekit.solver.hedge_mage.round import rank_key, running_position, solve_round
from gnomekit.solver.hedge_mage.running import solve_run

from gnomekit.cli import main

ED = default_edition()


def garden(grid: str, tile: str = "D2", hedges: str = "a=D2", extra: str = "") -> Garden:
    rows = grid.strip("\n").split("\n")
    ncols = len(rows[0].split())
    head = "   " + "  ".join(str(c) for c in range(ncols))
    body = "\n".join(f"{i}  {r}" for i, r in enumerate(rows))
    text = (f"hedge-mage garden\nsize: {len(rows)}x{ncols}\nround: 2\ntile: {tile}\nhedges: {hedges}\n{extra}\n"
            f"{head}\n{body}\n")
    return read_garden(text, "test", ED)


def rival(grid: str, hedges: str = "a=D2", tokens: int = 0) -> RunPosition:
    rows = grid.strip("\n").split("\n")
    ncols = len(rows[0].split())
    head = "   " + "  ".join(str(c) for c in range(ncols))
    body = "\n".join(f"{i}  {r}" for i, r in enumerate(rows))
    text = (f"hedge-mage run\nsize: {len(rows)}x{ncols}\nround: 2\npoints: 0\ntokens: {tokens}\n"
            f"springshroom-tokens: 0\nhedges: {hedges}\n\n{head}\n{body}\n")
    return read_run(text, "test", ED)


OURS = [
    garden("""
A  a  .  .  +W
.  .  .p .  .
.  .  .  .f .
+  .m .  .  .W
"""),
    garden("""
.  .  .  .  +W
.  .p A  a  .
.  .  .  .f .
+W .m .  .  .
""", extra="held-bonus-sigils: 1"),
    garden("""
B  .  .  +W
b  .p a  A
.  .  .  .
+W .m .  .
""", tile="I3", hedges="a=D2 b=D2"),
]
RIVALS = [
    rival("""
+1 .  .  .
.  a  A  a
.m .2 .  .
""", hedges="a=I3m"),
    rival("""
.1 .  .P +
.  A  a  .
.m .  .  +2
"""),
    rival("""
.  .  .  .
.p .1 .p +
.  .  .  .2
""", hedges="-"),
    rival("""
+1 .  .  .  .
.  .  .  .  .m
.  .  .  .  +2
""", hedges="-", tokens=1),
]


def brute(g: Garden, r: RunPosition, priority: str) -> tuple[Any, ...]:
    """Solve the running position of every legal placement; the best by the objective, then the order."""
    scored, _ = score_all(g, ED, options_for(g, ED), with_block=True)
    solved: dict[tuple[object, ...], Any] = {}
    rows = []
    for s in scored:
        p = running_position(r, g, s.points, len(s.placement.tokens))
        k = (p.points, p.key())  # key() leaves out the round's constants, the points among them
        if k not in solved:
            solved[k] = solve_run(p, ED)
        v = solved[k].value
        rows.append((rank_key(priority, s, v), s, v))
    top = max(x[0] for x in rows)
    best = min((x for x in rows if x[0] == top), key=lambda x: x[1].order_key)
    return best[1].placement.key, best[1].points, best[1].block, best[2].key()


# garden 1 reaches 3 movement points; with rivals 1 and 2 that is slow (tens of seconds): --runslow
PAIRS = [pytest.param(gi, ri, id=f"ours{gi}-rival{ri}",
                      marks=[pytest.mark.slow] if (gi, ri) in ((1, 1), (1, 2)) else [])
         for gi in range(len(OURS)) for ri in range(len(RIVALS))]


@pytest.mark.parametrize("priority", ["run", "block"])
@pytest.mark.parametrize(("gi", "ri"), PAIRS)
def test_round_equals_joint_brute_force(gi: int, ri: int, priority: str) -> None:
    g, r = OURS[gi], RIVALS[ri]
    res = solve_round(g, r, ED, priority=priority)
    assert res.status == "optimal"
    ch = res.witness
    assert ch.build is not None
    got = (ch.build.placement.key, ch.movement_points, ch.build.block, ch.value.key())
    assert got == brute(g, r, priority)
    # the running part is the separately solved running position with the placement's movement points
    sep = solve_run(start_round(r, ch.movement_points), ED)
    assert sep.value.key() == ch.value.key()
    rep = execute_plan(ch.position, ED, ch.run.witness)
    assert rep.legal and rep.final.total_rescued() - ch.position.total_rescued() == ch.value.rescued
    assert ch.position.points == ch.movement_points and ch.position.sigil_tokens == \
        g.held_bonus_sigils - len(ch.build.placement.tokens)
    if priority == "block":  # the building part is best_block's answer (its ties: more points, then the order)
        bb = best_block(g, ED).witness.best
        assert bb.placement.key == ch.build.placement.key


@pytest.mark.parametrize("top", [2, pytest.param(3, marks=pytest.mark.slow)])
@pytest.mark.parametrize("ri", range(len(RIVALS)))
def test_running_value_is_monotone_in_the_allowance(ri: int, top: int) -> None:
    vals = [solve_run(start_round(RIVALS[ri], p), ED).value.key() for p in range(top + 1)]
    assert vals == sorted(vals)


def test_no_legal_placement_runs_with_tokens_only() -> None:
    g = garden("""
.  .  +W
.  .p .
+W .  .
""", tile="I4", hedges="-", extra="substitution: used")
    r = RIVALS[3]  # one movement token
    res = solve_round(g, r, ED)
    ch = res.witness
    assert res.status == "optimal" and ch.build is None and ch.movement_points == 0 and ch.legal_placements == 0
    assert ch.value.key() == solve_run(start_round(r, 0), ED).value.key()
    assert any("no legal placement" in n for n in ch.notes)


def test_mid_round_rival_is_refused() -> None:
    r = start_round(RIVALS[0], 2)
    moved = execute_plan(r, ED, parse_plan("M1>0,1", ED)).final
    with pytest.raises(UsageError, match="middle of a running phase"):
        solve_round(OURS[0], moved, ED)


def test_budget_gives_unknown() -> None:
    res = solve_round(OURS[0], RIVALS[0], ED, max_states=2)
    assert res.status == "unknown" and "stopped" in res.stats["reason"]


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


EX = "docs/examples/"


def test_cli_round_json_keys_and_exit_codes() -> None:
    code, out = _cli("hedge-mage", "solve", EX + "round-ours.txt", "--phase", "round", "--rival",
                     EX + "round-rival.txt", "--json")
    assert code == 0
    d = json.loads(out)
    for k in ("phase", "status", "priority", "objective", "coupling", "build", "run", "values_by_points", "notes"):
        assert k in d, k
    for k in ("placement", "notation", "movement_points", "block", "substitution", "legal_placements"):
        assert k in d["build"], k
    for k in ("rescued", "points", "tokens_spent", "springshrooms_spent", "plan", "start", "position"):
        assert k in d["run"], k
    assert d["phase"] == "round" and d["status"] == "optimal" and d["build"]["movement_points"] == 2
    assert d["run"]["rescued"] == 1
    # the plan replays with check on the start position
    start = json.dumps(d["run"]["start"])
    p = read_run(start, "start", ED)
    assert execute_plan(p, ED, parse_plan(" ".join(d["run"]["plan"]), ED)).legal
    code, out = _cli("hedge-mage", "solve", EX + "round-ours.txt", "--phase", "round", "--rival",
                     EX + "round-rival.txt", "--priority", "block", "--json")
    assert code == 0 and json.loads(out)["run"]["rescued"] == 0
    # usage errors: no --rival, a running position as our garden, a missing file
    assert _cli("hedge-mage", "solve", EX + "round-ours.txt", "--phase", "round")[0] == 2
    assert _cli("hedge-mage", "solve", EX + "round-rival.txt", "--phase", "round", "--rival",
                EX + "round-rival.txt")[0] == 2
    assert _cli("hedge-mage", "solve", EX + "round-ours.txt", "--phase", "round", "--rival", "nope.txt")[0] == 2
    # a state budget too small: status unknown, exit 1
    code, out = _cli("hedge-mage", "solve", EX + "round-ours.txt", "--phase", "round", "--rival",
                     EX + "round-rival.txt", "--max-states", "2", "--json")
    assert code == 1 and json.loads(out)["status"] == "unknown"
