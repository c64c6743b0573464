"""The bundled running puzzles (puzzles/hedge-mage/2N-*.toml, 3N-*.toml): each verifies in the tour, and
every stored answer equals what an independent plain breadth-first search finds.

The reference here shares only the rules engine (``apply_action``/``execute_plan``) with the solver: it
generates every candidate unit action itself (every step, pick-up, drop, token, springshroom placement on
any cell, every bounce chain), keeps no pruning and no lazy token spending, walks the whole reachable
state space breadth first, and takes the best state by the objective (most rescued, most points, fewest
tokens + springshrooms spent).  Tokens spent and springshrooms spent are read off the state (spent
tokens; springshrooms on the board), so the value needs no path.  It also checks that the optimum's
split between tokens and springshrooms is unique, so the stored split is well defined.

A second check uses tests/hedge_mage/run_reference.py (QA's implementation from the docs alone) when it
is there.

To (re)compute the answer of a file::

    python -m tests.hedge_mage.test_run_puzzles puzzles/hedge-mage/21-two-with-three.toml
"""

from __future__ import annotations

import sys
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.running import Action, Illegal, RunPosition, apply_action, execute_plan, running_score
from gnomekit.models.hedge_mage.running_notation import action_to_text, parse_plan
from gnomekit.solver.hedge_mage.puzzles import RUN_KIND, load_puzzle, puzzle_files, run_puzzle, solve_puzzle

ORTH = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _nbrs(pos: RunPosition, c: Cell) -> list[Cell]:
    out = []
    for dr, dc in ORTH:
        d = (c[0] + dr, c[1] + dc)
        if 0 <= d[0] < pos.rows and 0 <= d[1] < pos.cols:
            out.append(d)
    return out


def _with_chains(pos: RunPosition, ed: HedgeMageEdition, a: Action) -> list[tuple[Action, RunPosition]]:
    """The action applied with every bounce chain the engine accepts (no chain first)."""
    out: list[tuple[Action, RunPosition]] = []
    try:
        nxt, _ = apply_action(pos, ed, a, continues=True)
        return [(a, nxt)]
    except Illegal as exc:
        if not any(r == "bounce" for r, _ in exc.reasons):
            return []
    # every chain of landings, each orthogonal to the previous cell; the engine decides which are legal
    start = a.path[-1]
    limit = len(pos.springshrooms) + 2
    stack: list[tuple[Cell, ...]] = [(d,) for d in _nbrs(pos, start)]
    while stack:
        ch = stack.pop()
        b = Action(a.kind, a.who, at=a.at, path=a.path, bounces=ch)
        try:
            nxt, _ = apply_action(pos, ed, b, continues=True)
            out.append((b, nxt))
        except Illegal:
            pass
        if len(ch) < limit:
            stack.extend(ch + (d,) for d in _nbrs(pos, ch[-1]) if d not in ch and d != start)
    return out


def candidates(pos: RunPosition) -> list[Action]:
    """Every unit action that could be legal (only what needs no rule: a token to spend, a gnome to drop)."""
    acts = [Action("token")] if pos.tokens else []
    if pos.springshroom_tokens:
        for r in range(pos.rows):
            for c in range(pos.cols):
                acts.append(Action("shroom", path=((r, c),)))
    for m, mc in enumerate(pos.mages):
        who = f"M{m + 1}"
        carrying = any(g.carried_by == m for g in pos.gnomes)
        for d in _nbrs(pos, mc):
            acts.append(Action("step", who, path=(d,)))
        for t in [mc, *_nbrs(pos, mc)]:
            acts.append(Action("drop" if carrying else "pickup", who, path=(t,)))
    for g in pos.gnomes:
        if g.awake:
            for d in _nbrs(pos, g.at):
                acts.append(Action("step", g.kind, at=g.at, path=(d,)))
    return acts


def reference_answer(pos: RunPosition, ed: HedgeMageEdition, max_states: int = 200_000) -> dict[str, Any]:
    """The optimal value of the round by plain BFS over every reachable state, and a witness plan."""
    start_score = running_score(pos, ed)
    start_rescued = pos.total_rescued()
    start_shrooms = len(pos.springshrooms)
    parent: dict[tuple[object, ...], tuple[tuple[object, ...], Action] | None] = {pos.key(): None}
    queue = deque([pos])
    best: tuple[int, int, int] | None = None
    best_keys: list[tuple[object, ...]] = []
    splits: set[tuple[int, int]] = set()
    while queue:
        cur = queue.popleft()
        if cur.transit is None:
            tokens = cur.spent - pos.spent
            shrooms = len(cur.springshrooms) - start_shrooms
            v = (cur.total_rescued() - start_rescued, running_score(cur, ed) - start_score, -(tokens + shrooms))
            if best is None or v > best:
                best, best_keys, splits = v, [cur.key()], {(tokens, shrooms)}
            elif v == best:
                best_keys.append(cur.key())
                splits.add((tokens, shrooms))
        for a in candidates(cur):
            for b, nxt in _with_chains(cur, ed, a):
                k = nxt.key()
                if k not in parent:
                    if len(parent) >= max_states:
                        raise RuntimeError(f"reference BFS: more than {max_states} states")
                    parent[k] = (cur.key(), b)
                    queue.append(nxt)
    assert best is not None
    # the witness: the path to the first best state (fewest unit actions, as BFS finds it first)
    plan: list[Action] = []
    k = best_keys[0]
    while parent[k] is not None:
        pk, a = parent[k]  # type: ignore[misc]
        plan.append(a)
        k = pk
    plan.reverse()
    rescued, points, _ = best
    return {"rescued": rescued, "points": points, "splits": sorted(splits), "states": len(parent),
            "plan": [action_to_text(a, ed) for a in plan]}


def replay(pos: RunPosition, ed: HedgeMageEdition, plan: list[str]) -> dict[str, int] | None:
    """A plan's value as `check --plan` computes it (None: illegal)."""
    actions = parse_plan("\n".join(plan), ed, "plan")
    rep = execute_plan(pos, ed, actions)
    if not rep.legal:
        return None
    return {"rescued": rep.final.total_rescued() - pos.total_rescued(),
            "points": running_score(rep.final, ed) - running_score(pos, ed),
            "tokens": rep.final.spent - pos.spent,
            "springshrooms": len(rep.final.springshrooms) - len(pos.springshrooms)}


# ---------------------------------------------------------------------------------------------

FILES = [p for p in puzzle_files() if load_puzzle(p).kind == RUN_KIND]
# the reference BFS takes longer than a few seconds on these (run with --runslow)
SLOW_REFERENCE: set[str] = set()


def test_at_least_ten_running_puzzles() -> None:
    assert len(FILES) >= 10
    assert all(p.name[:1] in "23" for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_running_puzzle_verifies_in_the_tour(path: Path) -> None:
    out = run_puzzle(path)
    assert out.solved and out.verified, out.detail
    assert out.position_text.startswith("hedge-mage run")
    assert out.data["found"]["plan"]  # every puzzle asks for at least one action


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.stem.split("-", 1)[1] in SLOW_REFERENCE else p for p in FILES],
    ids=[p.stem for p in FILES],
)
def test_stored_answer_equals_the_reference_bfs(path: Path) -> None:
    pz = load_puzzle(path)
    assert pz.run is not None
    ref = reference_answer(pz.run, pz.edition)
    assert len(ref["splits"]) == 1, f"the optimum's tokens/springshrooms split is ambiguous: {ref['splits']}"
    tokens, shrooms = ref["splits"][0]
    assert {"rescued": ref["rescued"], "points": ref["points"], "tokens": tokens, "springshrooms": shrooms} == {
        k: pz.answer[k] for k in ("rescued", "points", "tokens", "springshrooms")}
    # the reference's own witness and the stored witness both replay to the optimum
    assert replay(pz.run, pz.edition, ref["plan"]) == {k: pz.answer[k] for k in
                                                       ("rescued", "points", "tokens", "springshrooms")}
    assert replay(pz.run, pz.edition, pz.answer["plan"]) == {k: pz.answer[k] for k in
                                                             ("rescued", "points", "tokens", "springshrooms")}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_stored_answer_equals_the_docs_only_reference(path: Path) -> None:
    """A second, fully independent check: tests/hedge_mage/run_reference.py (written by QA from the docs
    alone, sharing no code with the engine) finds the same optimum and accepts the stored plan."""
    rr = pytest.importorskip("tests.hedge_mage.run_reference")
    from gnomekit.models.hedge_mage.running_notation import run_to_json

    pz = load_puzzle(path)
    assert pz.run is not None
    rules, s0 = rr.load(run_to_json(pz.run, pz.edition))
    a = pz.answer
    assert tuple(rr.optimal_plan(rules, s0, max_states=100_000).value) == (
        a["rescued"], a["points"], -(a["tokens"] + a["springshrooms"]))
    out = rr.run_plan(rules, s0, list(a["plan"]))
    assert out.legal, (out.failed_index, out.reason)
    assert (out.rescued, out.points, out.tokens_spent, out.springshrooms_spent) == (
        a["rescued"], a["points"], a["tokens"], a["springshrooms"])


def test_running_puzzles_never_read_the_stored_answer() -> None:
    from dataclasses import replace

    for path in FILES[:3]:
        pz = load_puzzle(path)
        assert solve_puzzle(replace(pz, answer={})).answer == solve_puzzle(pz).answer


TAMPER = [
    ("rescued = ", 1),
    ("points = ", -1),
]


@pytest.mark.parametrize("path", FILES[:2], ids=[p.stem for p in FILES[:2]])
@pytest.mark.parametrize(("key", "delta"), TAMPER, ids=["rescued", "points"])
def test_tampered_running_answer_is_not_verified(tmp_path: Path, path: Path, key: str, delta: int) -> None:
    import re

    text = path.read_text(encoding="utf-8")
    m = re.search(rf"^{key}(-?\d+)$", text, re.M)
    assert m
    bad = tmp_path / path.name
    bad.write_text(text.replace(m.group(0), f"{key}{int(m.group(1)) + delta}"), encoding="utf-8")
    out = run_puzzle(bad)
    assert not out.verified and "DIFFERS from the puzzle file" in out.detail


def test_an_illegal_stored_plan_is_caught(tmp_path: Path) -> None:
    import re

    path = FILES[0]
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^plan = \[.*\]$", text, re.M)
    assert m
    bad = tmp_path / path.name
    bad.write_text(text.replace(m.group(0), 'plan = ["M1>0,0>0,0"]'), encoding="utf-8")
    out = run_puzzle(bad)
    assert not out.verified and "stored plan" in out.detail


BAD_FILES = [
    # (what is replaced, by what, the message part, the line holding the error: a text in it)
    ("0  A  a1 a  .2", "0  A  a1 a  .9", "", "0  A  a1 a  .9"),
    ('kind = "run"', 'kind = "count"', "running position goes with", "kind = "),
    ('plan = ["M1>1,1", "M1+1,1", "M1>1,0"]', 'plan = ["M1>1,1", "M1*1,1"]', "plan action", "plan = "),
    ("rescued = 1", 'rescued = "one"', "whole number", "rescued = "),
    ("springshrooms = 0\n", "", "needs 'springshrooms'", "[answer]"),
    ("points: 2\n", "", "points", None),
]


@pytest.mark.parametrize(("old", "new", "message", "where"), BAD_FILES, ids=[b[1][:20] or b[0][:20] for b in BAD_FILES])
def test_malformed_running_puzzle_gives_a_located_error(tmp_path: Path, old: str, new: str, message: str,
                                                        where: str | None) -> None:
    from gnomekit.models.core.errors import NotationError

    src = next(p for p in FILES if p.stem.endswith("too-far-down"))
    text = src.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    bad = tmp_path / src.name
    bad.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(NotationError) as e:
        load_puzzle(bad)
    assert message in e.value.message
    assert e.value.source == str(bad) and e.value.line is not None
    if where is not None:
        lines = bad.read_text(encoding="utf-8").splitlines()
        assert where in lines[e.value.line - 1], (e.value.line, str(e.value))
    out = run_puzzle(bad)  # the tour shows it as a puzzle neither solved nor verified
    assert not out.solved and not out.verified


def main(argv: list[str]) -> int:
    """Print the reference answer of each puzzle file given (TOML lines to paste)."""
    for f in argv:
        pz = load_puzzle(f)
        assert pz.run is not None
        ref = reference_answer(pz.run, pz.edition)
        print(f"# {f}: {ref['states']} states, splits {ref['splits']}")
        tokens, shrooms = ref["splits"][0]
        print(f"rescued = {ref['rescued']}\npoints = {ref['points']}\ntokens = {tokens}\nspringshrooms = {shrooms}")
        print("plan = [" + ", ".join(f'"{a}"' for a in ref["plan"]) + "]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
