"""``hint`` on a running position: the best plan equals solve's, the runner-up is really second best.

The runner-up is checked against an exhaustive enumeration written here from the
rules engine alone (every unit action tried with ``apply_action``, no reductions),
with the best plan's first move forbidden everywhere in the plan.
"""

from __future__ import annotations

import contextlib
import io
import json
from functools import cache

import pytest
from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import default_edition
from gnomekit.models.hedge_mage.running import Action, Illegal, RunPosition, apply_action, execute_plan, running_score
from gnomekit.models.hedge_mage.running_notation import read_run
from gnomekit.solver.hedge_mage.run_hint import best_without, run_hint
from gnomekit.solver.hedge_mage.running import solve_run

from gnomekit.cli import main
from tests.marks import first_by_default

ED = default_edition()
EX = "docs/examples/tiny-run.txt"


def pos(grid: str, points: int = 2, tokens: int = 0, shrooms: int = 0, hedges: str = "a=D2") -> RunPosition:
    rows = grid.strip("\n").split("\n")
    ncols = len(rows[0].split())
    head = "   " + "  ".join(str(c) for c in range(ncols))
    body = "\n".join(f"{i}  {r}" for i, r in enumerate(rows))
    text = (f"hedge-mage run\nsize: {len(rows)}x{ncols}\npoints: {points}\ntokens: {tokens}\n"
            f"springshroom-tokens: {shrooms}\nhedges: {hedges}\n\n{head}\n{body}\n")
    return read_run(text, "test", ED)


TINY = """
.1 .  .P +
.  A  a  .
.m .  .  +2
"""
CARRY = """
.  .  .  .
.p .1 .p +
.  .  .  .2
"""
HEDGE = """
+1 .  .  .
.  a  A  a
.m .2 .  .
"""
FAR = """
+1 .  .  .  .
.  .  .  .  .m
.  .  .  .  +2
"""
CASES = [
    pytest.param(pos(TINY), id="tiny"),
    pytest.param(pos(TINY, points=1, tokens=1), id="tiny-token"),
    pytest.param(pos(CARRY, points=1, hedges="-"), id="carry"),
    pytest.param(pos(CARRY, points=2, hedges="-"), id="carry-2", marks=pytest.mark.slow),
    pytest.param(pos(HEDGE, points=2, hedges="a=I3m"), id="hedge"),
    pytest.param(pos(HEDGE, points=1, shrooms=1, hedges="a=I3m"), id="hedge-shroom"),
    pytest.param(pos(FAR, points=1, hedges="-"), id="stand-still"),
]

# --- an independent exhaustive enumeration ---------------------------------------------------------

ORTH = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _adj(p: RunPosition, c: Cell) -> list[Cell]:
    return [(c[0] + dr, c[1] + dc) for dr, dc in ORTH if 0 <= c[0] + dr < p.rows and 0 <= c[1] + dc < p.cols]


def _chains(p: RunPosition, x: Cell, placing: bool = True) -> list[tuple[Cell, ...]]:
    """(), and every simple path of landings from x (apply_action decides which are the real bounces);
    only () when nothing can bounce on x (no springshroom there and none being placed)."""
    if not placing and x not in p.springshrooms:
        return [()]
    limit = len(p.springshrooms) + p.springshroom_tokens + 1
    out: list[tuple[Cell, ...]] = [()]

    def go(cur: Cell, chain: tuple[Cell, ...]) -> None:
        if len(chain) >= limit:
            return
        for d in _adj(p, cur):
            if d != x and d not in chain:
                out.append(chain + (d,))
                go(d, chain + (d,))

    go(x, ())
    return out


def _all_units(p: RunPosition) -> list[Action]:
    """Every unit action that could be legal (only actions that are illegal whatever happens are left out:
    spending a token without one, placing a springshroom without one, bounces away from a springshroom)."""
    acts = [Action("token")] if p.tokens else []
    cells = [(r, c) for r in range(p.rows) for c in range(p.cols)]
    if p.springshroom_tokens:
        acts += [Action("shroom", path=(x,), bounces=ch) for x in cells for ch in _chains(p, x)]
    for m, mc in enumerate(p.mages):
        who = f"M{m + 1}"
        acts += [Action("step", who, path=(t,), bounces=ch) for t in _adj(p, mc) for ch in _chains(p, t, False)]
        for t in [mc, *_adj(p, mc)]:
            acts.append(Action("pickup", who, path=(t,)))
            acts += [Action("drop", who, path=(t,), bounces=ch) for ch in _chains(p, t, False)]
    for g in p.gnomes:
        if g.awake:
            acts += [Action("step", g.kind, at=g.at, path=(t,), bounces=ch) for t in _adj(p, g.at)
                     for ch in _chains(p, t, False)]
    return acts


def _banned_here(p: RunPosition, a: Action, banned: tuple[object, ...] | None) -> bool:
    """Whether ``a`` in ``p`` is the forbidden move (same kind, character, start space, target, bounces)."""
    if banned is None or a.kind == "token":
        return False
    if a.kind == "shroom":
        here = a.path[0] in p.mages or any(g.at == a.path[0] and g.carried_by is None for g in p.gnomes)
        return here and banned == ("shroom", "", a.path[0], a.path, a.bounces)
    origin = p.mages[a.mage] if a.mage is not None else a.at
    return banned == (a.kind, a.who, origin, a.path, a.bounces)


def exhaustive(p0: RunPosition, banned: tuple[object, ...] | None) -> tuple[int, int, int]:
    """The best (rescued, points, -spent) over every plan that never makes ``banned``."""

    @cache
    def best(key: tuple[object, ...]) -> tuple[int, int, int]:
        p = states[key]
        v = (p.total_rescued(), running_score(p, ED), 0) if p.transit is None else (-1, -(10**9), -(10**9))
        for a in _all_units(p):
            if _banned_here(p, a, banned):
                continue
            try:
                q, _ = apply_action(p, ED, a, continues=True)
            except Illegal:
                continue
            states.setdefault(q.key(), q)
            r, s, c = best(q.key())
            cost = 1 if a.kind in ("token", "shroom") else 0
            v = max(v, (r, s, c - cost))
        return v

    states = {p0.key(): p0}
    r, s, c = best(p0.key())
    return r - p0.total_rescued(), s - running_score(p0, ED), c


# --- tests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", first_by_default(CASES, 2))
def test_hint_best_is_solve_optimum_and_runner_up_is_second_best(p: RunPosition) -> None:
    res = run_hint(p, ED)
    assert res.status == "optimal"
    h = res.witness
    opt = solve_run(p, ED)
    assert h.value.key() == opt.value.key()
    # our forbidden-move search with nothing forbidden is a second method for the optimum
    free, _ = best_without(p, ED, None)
    assert free is not None and free.value.key() == opt.value.key()
    assert exhaustive(p, None) == tuple(opt.value.key())
    if h.first is None:
        assert h.plan == [] and h.runner_up is None
        return
    banned = h.first_id
    ru = h.runner_up
    assert ru is not None
    assert tuple(ru.value.key()) == exhaustive(p, banned)
    assert ru.value.key() <= h.value.key()
    # the runner-up replays legally to its value and never makes the forbidden move
    rep = execute_plan(p, ED, list(ru.plan))
    assert rep.legal, rep.reasons
    assert rep.final.total_rescued() - p.total_rescued() == ru.value.rescued
    assert running_score(rep.final, ED) - running_score(p, ED) == ru.value.points
    cur = p
    for a in ru.plan:
        if a.kind == "step" and len(a.path) > 1:  # check every unit step of a path
            for k, c in enumerate(a.path):
                u = Action("step", a.who, at=a.at if a.mage is not None or k == 0 else a.path[k - 1], path=(c,),
                           bounces=a.bounces if k == len(a.path) - 1 else ())
                assert not _banned_here(cur, u, banned)
                cur, _ = apply_action(cur, ED, u, continues=True)
            continue
        assert not _banned_here(cur, a, banned)
        cur, _ = apply_action(cur, ED, a, continues=True)


def test_hint_words_say_who_wakes_how_and_what_it_scores() -> None:
    h = run_hint(pos(HEDGE, points=2, hedges="a=I3m"), ED).witness
    text = " ".join(h.reasons + [w for s in h.steps for w in [s.words, *s.event_words]])
    assert "wakes (Morel-evate" in text or "rescued" in text
    assert h.runner_up_reasons and "without" in h.runner_up_reasons[0]


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def test_cli_hint_on_a_running_position_json_keys_and_exit_codes() -> None:
    code, out = _cli("hedge-mage", "hint", EX, "--json")
    assert code == 0
    d = json.loads(out)
    for k in ("phase", "goal", "status", "rescued", "points", "tokens_spent", "springshrooms_spent", "plan",
              "first_move", "steps", "reasons", "runner_up", "runner_up_status", "runner_up_reasons", "position"):
        assert k in d, k
    assert d["phase"] == "run" and d["goal"] == "hint" and d["status"] == "optimal"
    assert d["plan"] == ["p0,2>0,3"] and d["first_move"] == "p0,2>0,3"
    assert d["runner_up"]["rescued"] == 1 and d["runner_up_status"] == "optimal"
    code, out = _cli("hedge-mage", "hint", EX)
    assert code == 0 and out.startswith("hint: start with p0,2>0,3") and "runner-up" in out
    code, _ = _cli("hedge-mage", "hint", "no-such-file.txt")
    assert code == 2
    # a garden still gets the building hint
    code, out = _cli("hedge-mage", "hint", "docs/examples/round6.txt", "--json")
    assert code == 0 and json.loads(out)["goal"] == "hint" and "phase" not in json.loads(out)


def test_cli_hint_runner_up_budget() -> None:
    code, out = _cli("hedge-mage", "hint", EX, "--json", "--max-states", "3")
    d = json.loads(out)
    assert code in (0, 1)
    if d["status"] == "optimal":  # the best plan fitted the budget, the runner-up did not
        assert d["runner_up"] is None and d["runner_up_status"] == "unknown" and code == 0
    else:
        assert d["plan"] is None and code == 1
