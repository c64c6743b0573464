"""Every movement rule and FAQ answer of the rulebook's Maze Running part, on hand-built positions.

Each case is a tiny running position with (a) the value `solve --phase run` must find - worked out by
hand, written next to the case - and (b) plans played with `check --plan`: legal ones, and illegal ones with
the action that fails (1-based) and every rule id it breaks.  The rulebook sentence (or the ruling, where the
rulebook is silent) each case is about is quoted in the comment above it.  Everything goes through the CLI
(``gnomekit hedge-mage solve/check ... --json``), as a user would run it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gnomekit.cli import main


def position(grid: str, head: str) -> str:
    """A running position in the text notation: header lines, then the grid (column numbers added)."""
    rows = [r for r in grid.strip("\n").split("\n")]
    ncols = len(rows[0].split())
    cols = "   " + "  ".join(str(c) for c in range(ncols))
    body = "\n".join(f"{i}  {r}" for i, r in enumerate(rows))
    return f"hedge-mage run\nsize: {len(rows)}x{ncols}\n{head.strip()}\n\n{cols}\n{body}\n"


@dataclass
class Case:
    """A position, the value `solve` must find, and plans for `check --plan`."""

    text: str
    value: tuple[int, int, int, int]  # rescued, points, tokens spent, springshrooms spent
    legal: list[str] = field(default_factory=list)
    illegal: list[tuple[str, int, set[str]]] = field(default_factory=list)  # plan, failed action, rule ids
    why: str = ""  # the hand derivation of the value


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["hedge-mage", *args, "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, json.loads(out)


def solve(capsys: pytest.CaptureFixture[str], f: Path) -> dict[str, Any]:
    code, data = cli(capsys, "solve", str(f), "--phase", "run")
    assert code == 0 and data["status"] == "optimal", data
    return data


def check(capsys: pytest.CaptureFixture[str], f: Path, plan: str) -> tuple[int, dict[str, Any]]:
    return cli(capsys, "check", str(f), "--plan", plan)


CASES: dict[str, Case] = {}

# "All movement is orthogonal, never diagonal."  Mage 1 (2 points) could carry the flower into the tunnel
# with a pick-up and one diagonal step; orthogonally it needs 3 points, so nothing can be rescued.
CASES["orthogonal"] = Case(position("""
+  .  .
.2 .1 .F
""", "points: 2\nused: 0 2\nmoved: F@1,2=2"), (0, 0, 0, 0),
    legal=["M1+1,2 M1>0,1"],
    illegal=[("M1+1,2 M1>0,0", 2, {"not-orthogonal"})])
# ... and with 3 points: pick up (1), 1,1 -> 1,0 (through mage 2) -> 0,0 (2 more): the flower is rescued;
# its track space scores 1, and it no longer counts as an awake gnome in the rival's garden: +0.
CASES["orthogonal-3"] = Case(position("""
+  .  .
.2 .1 .F
""", "points: 3\nused: 0 3\nmoved: F@1,2=3"), (1, 0, 0, 0),
    legal=["M1+1,2 M1>1,0>0,0"])

# "Characters can't move onto a Hedge Tile space directly from the ground" and "You may use this action to
# drop a Gnome on top of an adjacent Hedge Tile."  Mage 1 picks up the sleeping mushroom (1) and drops it on
# the hedge (1): Morel-evate wakes it; it walks down into the tunnel (2 own points): rescued, track space 1
# scores 2 (it was asleep before: +2).
CASES["low-to-high"] = Case(position("""
.1 A  a  .2
.m .  +  .
""", "points: 2\nused: 0 2\nhedges: a=D2"), (1, 2, 0, 0),
    legal=["M1+1,0 M1-0,1 m0,1>1,1>1,2"],
    illegal=[("M1>0,1", 1, {"low-to-high"}),
             ("M1+1,0 M1-0,1 m0,1>1,1>0,1", 3, {"low-to-high"})])

# "Characters can be moved in any order.", "You can pause movement with one character to move with another
# character, just remember how much movement each character has remaining." and "Each character can move
# the full number of Movement Points generated, you don't divide your points between them."  The flower has
# used its points; either mage can bring it in with its 2 (mage 1: through it, free pick-up, into the
# tunnel; flower track 1 - 1 awake = +0).
CASES["any-order"] = Case(position("""
+  .F .1 .
.2 .  .  +
""", "points: 2\nmoved: F@0,1=2"), (1, 0, 0, 0),
    legal=["M1>0,3 M2>1,1 M1>1,3 M2>1,0", "M2>1,1 M1>0,1 M1+0,1 M2>1,2 M1>0,0"],
    illegal=[("M1>0,3 M2>1,1 M1>1,3 M1>1,2", 4, {"allowance"})])

# "Characters can move through each other's spaces, but cannot end their movement in the same space (see
# "Carrying Gnomes" for an exception)." and "Spend 1 Movement Point to pick up a Gnome from an adjacent
# space, or pick it up for free if in the Mage's current space."  With 2 points the only rescue is: step
# onto the flower's space, pick it up for free, step into the tunnel (flower track 1 - 1 awake = +0).
CASES["pass-through"] = Case(position("""
.1 .F +
.  .  .2
""", "points: 2\nused: 0 2\nmoved: F@0,1=2"), (1, 0, 0, 0),
    legal=["M1>0,1 M1+0,1 M1>0,2", "M1>0,1>0,2"],
    illegal=[("M1>0,1", 1, {"occupied-end"}),
             ("M1+0,1 M1>0,1>0,2", 2, {"allowance"})])

# "Each Mage can only carry one Gnome at a time." and "A Sleeping Gnome can't be rescued (it would just
# block up the tunnel)."  Two sleeping flowers (no hedges: Planter Enchanter cannot hold): nothing to gain.
CASES["carrying-two"] = Case(position("""
.f .1 .f +
.  .  .  .2
""", "points: 2\nused: 0 2"), (0, 0, 0, 0),
    legal=["M1+0,0"],
    illegal=[("M1+0,0 M1+0,2", 2, {"carrying-two"}),
             ("M1>0,2 M1+0,2 M1-0,3", 3, {"sleeping-tunnel"})])

# Movement FAQ: "When a Mage is on a hedge, can it pick up an adjacent Gnome from the ground? No! It's too
# far down to the ground!"  Stepping down onto the flower, picking it up for free and stepping into the
# tunnel costs exactly the 2 points.
CASES["too-far-down"] = Case(position("""
A  a1 a  .2
+  .F .  .
""", "points: 2\nused: 0 2\nmoved: F@1,1=2\nhedges: a=I3"), (1, 0, 0, 0),
    legal=["M1>1,1 M1+1,1 M1>1,0"],
    illegal=[("M1+1,1", 1, {"too-far-down"})])
# ... nor drop one onto the ground: mage 1 on the hedge carries the awake flower (which can still step off
# itself: 0,1 -> 1,1 -> 1,0, two own points, rescued).
CASES["too-far-down-drop"] = Case(position("""
A  a1F a  .2
+  .  .  .
""", "points: 2\nused: 0 2\nhedges: a=I3"), (1, 0, 0, 0),
    legal=["f0,1>1,1>1,0"],
    illegal=[("M1-1,1", 1, {"too-far-down"})])

# Movement FAQ: "Can a gnome use a Mage like a ladder? Yes! A Gnome can move on top of a Mage that isn't
# already carrying a Gnome, and then move onto an adjacent hedge." and "the golden rule is that a character
# moving from one space to another costs 1 Movement Point."  The pumpkin climbs mage 1, crosses the wall and
# walks into the tunnel: 4 steps, 4 points (pumpkin track 1 - 1 awake = +0).
CASES["ladder"] = Case(position("""
.  .  A  .  .
.P .1 a  .  +
.2 .  a  .  .
""", "points: 4\nused: 4 4\nhedges: a=I3"), (1, 0, 0, 0),
    legal=["p1,0>1,1>1,2>1,3>1,4"])
# ... with 3 points the same climb is one step short
CASES["ladder-3"] = Case(position("""
.  .  A  .  .
.P .1 a  .  +
.2 .  a  .  .
""", "points: 3\nused: 3 3\nhedges: a=I3"), (0, 0, 0, 0),
    illegal=[("p1,0>1,1>1,2>1,3>1,4", 1, {"allowance"})])
# ... and a mage that carries a gnome is no ladder: the pumpkin only passes through its space, on the ground
CASES["ladder-carrying"] = Case(position("""
.  .  A  .  .
.P .1m a  .  +
.2 .  a  .  .
""", "points: 4\nused: 4 4\nhedges: a=I3"), (0, 0, 0, 0),
    illegal=[("p1,0>1,1>1,2>1,3>1,4", 1, {"low-to-high"})])

# "Move off of a Mage that is carrying them, into any adjacent space (including on top of a Hedge Tile)"
# The pumpkin carried by mage 1 steps off onto the hedge and walks on to the tunnel (3 own points).
CASES["step-off-onto-hedge"] = Case(position("""
.  .  A  .  .
.  .1P a  .  +
.2 .  a  .  .
""", "points: 3\nused: 3 3\nhedges: a=I3"), (1, 0, 0, 0),
    legal=["p1,1>1,2>1,3>1,4"],
    illegal=[("M1-1,2", 1, {"allowance"})])

# Movement FAQ: "A Mage that isn't carrying a gnome could also act as a bridge between two hedges for a
# moving gnome to pass over. Neither case requires extra Movement Points"  The awake pumpkin crosses mage 1
# onto the far hedge, next to the sleeping pumpkin on the hedge corner (no ground space touches it):
# Pump-kin wakes it, +1 (no tunnel here).
CASES["bridge"] = Case(position("""
AP a  .1 b  Bp
.  .  .  .  b
.  .  .  .  .2
""", "points: 3\nused: 3 3\nhedges: a=D2 b=L3"), (0, 1, 0, 0),
    legal=["p0,0>0,1>0,2>0,3"])
# ... a mage that carries a gnome is no bridge
CASES["bridge-carrying"] = Case(position("""
AP a  .1m b  Bp
.  .  .  .  b
.  .  .  .  .2
""", "points: 3\nused: 3 3\nhedges: a=D2 b=L3"), (0, 0, 0, 0),
    illegal=[("p0,0>0,1>0,2>0,3", 1, {"low-to-high"})])

# Movement FAQ: "Does moving a gnome with your Mage count for the one-gnome-per-color rule? No! If you
# transport an Awake Gnome with only your Mage's Movement Points, you can still move a different Awake Gnome
# of that same color."  Mage 1 carries the near mushroom in (step through, free pick-up, step), the far one
# walks itself: 2 rescued, mushroom track space 2 scores 4 - 2 awake = +2.
CASES["mage-transport"] = Case(position("""
A  a  a  B  b  b2
+  .M .1 .  .M +
.  .  .  .  .  .
""", "points: 2\nused: 0 2\nhedges: a=I3 b=I3"), (2, 2, 0, 0),
    legal=["M1>1,1 M1+1,1 M1>1,0 m1,4>1,5"],
    illegal=[("m1,1>1,0 m1,4>1,5", 2, {"second-gnome"})])

# "You may move one Awake Gnome of each color" and "Example: If you have 2 Awake Pumpkin Gnomes and 1 Awake
# Mushroom Gnome, you may move 1 Awake Pumpkin Gnome and 1 Awake Mushroom Gnome."  Mages spent; every gnome
# is one step from a tunnel: one pumpkin and the mushroom.  One mushroom is on the track already, so this
# one fills space 2 (4 points, a movement token that helps nobody): before 2 + 3 awake, after pumpkin 1 +
# mushroom 4 + 1 awake pumpkin: +1.
CASES["one-per-color"] = Case(position("""
+  .P .P +
.1 .M +  .2
""", "points: 1\nused: 1 1\nrescued: mushroom=1"), (2, 1, 0, 0),
    legal=["p0,1>0,0 m1,1>1,2"],
    illegal=[("p0,1>0,0 p0,2>0,3", 2, {"second-gnome"})])
# ... without the earlier mushroom, its rescue gives a springshroom token (mushroom space 1), and a
# springshroom placed beneath the second pumpkin bounces it into its tunnel: a bounce is not the gnome's
# own move (rulings: "A character that enters or stands on a springshroom immediately bounces"), so all
# three are rescued: pumpkin space 2 (4) + mushroom 2 - 3 awake = +3, one springshroom spent.
CASES["bounce-is-not-a-move"] = Case(position("""
+  .P .P +
.1 .M +  .2
""", "points: 1\nused: 1 1"), (3, 3, 0, 1),
    legal=["p0,1>0,0 m1,1>1,2 ^0,2~0,3"],
    illegal=[("p0,1>0,0 m1,1>1,2 p0,2>0,3", 3, {"second-gnome"})])

# "A Gnome can move during the round it wakes up, if you haven't already moved a Gnome of that color this
# round."  Mage 1 carries a sleeping pumpkin next to the other: both wake (also the carried one: "This can
# happen even while being carried by a Mage"); mage 1 steps into the tunnel with its pumpkin (rescued), and
# the other, woken this round, steps onto mage 1 on the tunnel (rescued): pumpkin track space 2 = +4.
CASES["moves-the-round-it-wakes"] = Case(position("""
.p .1 .  .  .
.  .  +  .p .
.  .  .  .  .2
""", "points: 3\nused: 0 3"), (2, 4, 0, 0),
    legal=["M1+0,0 M1>0,2>1,2 p1,3>1,2", "M1+0,0 M1>0,2>0,3 p1,3>1,2"],
    illegal=[("M1+0,0 M1>0,2>0,3 p1,3>1,2 p0,3>0,2", 4, {"second-gnome"})])

# "As soon as a Sleeping Gnome meets the condition of its corresponding Gnome Enchantment, it wakes up. ...
# This can happen even while being carried by a Mage."  Planter Enchanter: on the ground next to 2 hedge
# spaces; the carried flower is on its mage's space 1,2 between the hedges, wakes, and steps off into the
# tunnel (flower track 1, it was asleep: +1).
CASES["carried-wakes"] = Case(position("""
.  .  A  a  .
.f .1 .  .  +
.  .  B  b  .2
""", "points: 3\nused: 0 3\nhedges: a=D2 b=D2"), (1, 1, 0, 0),
    legal=["M1+1,0 M1>1,2>1,3 f1,3>1,4"],
    illegal=[("f1,0>1,1", 1, {"asleep"})])

# "You can spend any number of Movement Tokens at any time during the Maze Running Phase, including to move
# characters you've already moved."  The flower has used its 2 points one space short of the tunnel.
CASES["token-after-moving"] = Case(position("""
A  a  a  .1 .2
+  .F .  .  .
""", "points: 2\ntokens: 1\nused: 0 2\nmoved: F@1,1=2\nhedges: a=I3"), (1, 0, 1, 0),
    legal=["T f1,1>1,0"],
    illegal=[("f1,1>1,0", 1, {"allowance"})])

# "If you gain Movement Tokens mid-round (see "Rescuing Gnomes"), you can spend those as well."  No token at
# the start; the rescued flower's track space gives one, spent for the mushroom's third step (mage 1 drops
# the mushroom on the hedge first: Morel-evate).  Flower 1 + mushroom 2 - 1 awake flower = +2.
CASES["bonus-token-spent"] = Case(position("""
.  .  .  .F +
A  a  a  .  .
+  .  .m .1 .2
""", "points: 2\nused: 0 2\nhedges: a=I3"), (2, 2, 1, 0),
    legal=["M1>2,2 M1+2,2 M1-1,2 f0,3>0,4 T m1,2>0,2>0,3>0,4"],
    illegal=[("T", 1, {"no-token"})])

# "You can store up to 6 Movement Tokens at a time."  The rescued flower's movement token is lost.
CASES["token-cap"] = Case(position("""
.1 .F +2
""", "points: 1\ntokens: 6\nused: 1 1"), (1, 0, 0, 0),
    legal=["f0,1>0,2"])

# "If an Awake Gnome moves or is placed into a Tunnel space, it's rescued!" and "When a Gnome is rescued,
# place the Gnome on your Gnome Sweet Gnome board, in the leftmost space matching its color, and gain the
# Rescue Bonus in that space."  The mushroom climbs onto mage 1, which drops it into the tunnel: the second
# mushroom space (4 points, a movement token); before: 2 + 1 awake, after: 4: +1.
CASES["placed-into-tunnel"] = Case(position("""
.M .1 +
.  .  .2
""", "points: 1\nused: 0 1\nrescued: mushroom=1"), (1, 1, 0, 0),
    legal=["m0,0>0,1 M1-0,2"],
    illegal=[("M1-0,2", 1, {"not-carrying"})])

# Rulings, rescue: "An awake gnome is rescued the moment it enters a tunnel space by any means: ... being
# carried in by its mage (also when the mage only passes through)".
CASES["carried-through-tunnel"] = Case(position("""
.1P +  .  .2
""", "points: 3\nused: 0 3"), (1, 0, 0, 0),
    legal=["M1>0,1>0,2"],
    illegal=[("M1>0,1>0,2>0,3", 1, {"occupied-end"})])

# "You may place a Springshroom beneath a character, immediately bouncing them to an adjacent space." and
# "Anytime any character (awake or asleep) is in the same space as a Springshroom, they immediately bounce
# into an adjacent space, including up on top of a Hedge Tile."  and "If a character ends up on top of a
# Hedge Tile, they may move as normal across adjacent Hedge Tile spaces. They may exit the hedge by moving
# off onto an adjacent ground space."  The sleeping mushroom bounces onto the hedge, wakes (Morel-evate),
# walks along it and down into the tunnel (3 own points): +2, one springshroom spent.
CASES["springshroom-beneath"] = Case(position("""
.1 A  a  a  a
.  .m .  +  .
.2 .  .  .  .
""", "points: 3\nused: 3 3\nspringshroom-tokens: 1\nhedges: a=I4"), (1, 2, 0, 1),
    legal=["^1,1~0,1 m0,1>0,2>0,3>1,3"],
    illegal=[("^1,1", 1, {"bounce"}),
             ("^0,2", 1, {"not-ground"}),
             ("^1,3", 1, {"tunnel"})])

# "Anytime any character ... is in the same space as a Springshroom, they immediately bounce" (entering one
# too): the mushroom has 1 point, the tunnel is 2 spaces away; the bounce is free.
CASES["springshroom-enter"] = Case(position("""
.1 .  .  .
.M .^ +  .
.2 .  .  .
""", "points: 1\nused: 1 1"), (1, 1, 0, 0),
    legal=["m1,0>1,1~1,2"],
    illegal=[("m1,0>1,1>1,2", 1, {"bounce"})])

# Rulings, springshrooms: "A carried gnome bounces with its mage."  The pumpkin has used its point; mage 1
# steps onto the springshroom and bounces, with the pumpkin, into the tunnel (pumpkin 1 - 1 awake = +0).
CASES["carried-bounces-with-mage"] = Case(position("""
.1P .^ +
.2 .  .
""", "points: 1\nused: 0 1\nmoved: P@0,0=1"), (1, 0, 0, 0),
    legal=["M1>0,1~0,2"],
    illegal=[("p0,0>0,1~0,2", 1, {"allowance"})])

# Rulings, springshrooms: "An awake gnome may bounce into a tunnel (and is then rescued); a sleeping gnome
# may not."  Nothing to gain here (no hedges: the flower stays asleep), so the best plan spends nothing.
CASES["sleeping-bounce"] = Case(position("""
.1 .f +
.2 .  .
""", "points: 1\nused: 1 1\nspringshroom-tokens: 1"), (0, 0, 0, 0),
    legal=["^0,1~1,1"],
    illegal=[("^0,1~0,2", 1, {"bounce"})])


@pytest.mark.parametrize("name", list(CASES))
def test_faq_case(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    case = CASES[name]
    f = tmp_path / f"{name}.txt"
    f.write_text(case.text, encoding="utf-8")
    data = solve(capsys, f)
    got = (data["rescued"], data["points"], data["tokens_spent"], data["springshrooms_spent"])
    assert got == case.value, (name, data["plan"])
    # the solver's plan replays with check --plan to the same value
    if data["plan"]:
        code, rep = check(capsys, f, " ".join(data["plan"]))
        assert code == 0 and rep["legal"] is True, rep
        assert (rep["rescued"], rep["points"], rep["tokens_spent"], rep["springshrooms_spent"]) == case.value
    for plan in case.legal:
        code, rep = check(capsys, f, plan)
        assert code == 0 and rep["legal"] is True, (plan, rep.get("reasons"))
        # a legal plan never beats the optimum
        assert (rep["rescued"], rep["points"], -rep["tokens_spent"] - rep["springshrooms_spent"]) <= \
            (case.value[0], case.value[1], -case.value[2] - case.value[3]), plan
    for plan, index, rules in case.illegal:
        code, rep = check(capsys, f, plan)
        assert code == 1 and rep["legal"] is False, plan
        assert rep["failed_index"] == index, (plan, rep["reasons"])
        assert {r["rule"] for r in rep["reasons"]} == rules, (plan, rep["reasons"])


@pytest.mark.parametrize("name", list(CASES))
def test_faq_case_by_the_docs_only_reference(name: str) -> None:
    """The same expectations from tests/hedge_mage/run_reference.py (QA's implementation from the docs alone)."""
    rr = pytest.importorskip("tests.hedge_mage.run_reference")
    from gnomekit.models.hedge_mage.edition import default_edition
    from gnomekit.models.hedge_mage.running_notation import read_run, run_to_json

    ed = default_edition()
    case = CASES[name]
    rules, s0 = rr.load(run_to_json(read_run(case.text, name, ed), ed))
    r, p, t, sh = case.value
    assert tuple(rr.optimal_plan(rules, s0, max_states=100_000).value) == (r, p, -(t + sh))
    for plan in case.legal:
        out = rr.run_plan(rules, s0, plan.split())
        assert out.legal, (plan, out.failed_index, out.reason)
    for plan, index, rule_ids in case.illegal:
        out = rr.run_plan(rules, s0, plan.split())
        assert not out.legal and out.failed_index == index and out.reason in rule_ids, (plan, out)


def test_events_of_the_faq_cases(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """What the rules say happens on the way: wakes, the rescue bonus, the lost token, the springshroom stays."""

    def run(name: str, plan: str) -> dict[str, Any]:
        f = tmp_path / f"{name}.txt"
        f.write_text(CASES[name].text, encoding="utf-8")
        code, rep = check(capsys, f, plan)
        assert code == 0, rep
        return rep

    def events(rep: dict[str, Any]) -> list[dict[str, Any]]:
        return [e for s in rep["steps"] for e in s["events"]]

    rep = run("carried-wakes", "M1+1,0 M1>1,2")
    assert [e for e in events(rep) if e["event"] == "wake"] == [{"event": "wake", "kind": "flower", "cell": [1, 2]}]
    rep = run("placed-into-tunnel", "m0,0>0,1 M1-0,2")
    assert rep["position"]["rescued"] == {"mushroom": 2} and rep["position"]["tokens"] == 1
    rep = run("token-cap", "f0,1>0,2")
    assert rep["position"]["tokens"] == 6
    assert any("lost" in e.get("detail", "") for e in events(rep) if e["event"] == "rescue")
    rep = run("springshroom-beneath", "^1,1~0,1 m0,1>0,2>0,3>1,3")
    assert rep["position"]["springshrooms"] == [[1, 1]] and rep["position"]["springshroom_tokens"] == 1
    rep = run("moves-the-round-it-wakes", "M1+0,0 M1>0,2>0,3")
    assert sum(e["event"] == "wake" for e in events(rep)) == 2
