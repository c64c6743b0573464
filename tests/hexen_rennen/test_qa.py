"""Independent review: a second, separately written reading of the rulings against the engine and CLI.

``Reference`` below shares no code with models/ or solver/: it works on the JSON of a position, exactly as
the issue's checkers build it (``new --json`` with ``track``, ``witches``, ``hands``, ``to_move``,
``players`` replaced).  It compares ``value``, ``witch``, ``chain`` and the cooperative value of
``solve --roll R`` and replays the optimal turn with ``check``.  Also regression tests for what the review
fixed (edition keys that were silently ignored, edition errors located on the wrong line).
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.core.errors import EditionError
from gnomekit.models.hexen_rennen.edition import edition_from_toml
from gnomekit.models.hexen_rennen.notation import position_to_json, read_position
from gnomekit.models.hexen_rennen.setup import new_position
from gnomekit.models.hexen_rennen.turn import Rules
from gnomekit.solver.hexen_rennen.chain import solve_chain

from gnomekit.cli import main
from tests.hexen_rennen.hexen_build import ED

CLANS = ["weather", "fog", "ice", "forest"]
L, LAST, SYM = 48, 51, "symbol"


class Reference:
    """The rulings read afresh: die move, chain, forced plays, neutral draws, minimax within the turn."""

    def __init__(self, pos: dict[str, Any], strict: bool = False) -> None:
        self.track = [(t["clan"], t["value"]) for t in pos["track"]]
        self.up0 = frozenset(i + 1 for i, t in enumerate(pos["track"]) if t.get("face_up", False))
        self.players = list(pos["players"])
        self.mover = pos["to_move"]
        self.witches = {c: list(v) for c, v in pos["witches"].items()}
        self.hands = {c: tuple(v) for c, v in pos["hands"].items()}
        self.strict = strict

    def die(self, origin: int, roll: int, occ: set[int]) -> int | None:
        if origin > L:
            return None
        if origin == 0:  # leaving the start: only empty tiles count
            f = k = 0
            while k < roll:
                f += 1
                if f > LAST:
                    return None
                if f > L or f not in occ:
                    k += 1
            return f
        q = origin + roll
        return None if q > LAST or q in occ else q

    def sym_target(self, at: int, clan: str, forward: bool, up: frozenset[int], occ: set[int]) -> int | None:
        for t in (range(at + 1, L + 1) if forward else range(at - 1, 0, -1)):
            if t in up and self.track[t - 1] == (clan, SYM):
                if t in occ:
                    if self.strict:
                        return None
                    continue
                return t
        return None

    def solve_witch(self, origin: int, roll: int, coop: bool) -> tuple[int, tuple[int, ...]] | None:
        occ = {p for ps in self.witches.values() for p in ps if 1 <= p <= L}
        occ.discard(origin)
        target = self.die(origin, roll, occ)
        if target is None:
            return None
        mover = self.mover

        def key(h: dict[str, tuple[Any, ...]]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
            return tuple(sorted(h.items()))

        @cache
        def res(at: int, forced: bool, up: frozenset[int], hk: Any) -> tuple[int, tuple[int, ...]]:
            if at > L:
                return at, ()
            h = dict(hk)
            up = up | {at}
            clan, val = self.track[at - 1]
            if val != SYM:
                q = at + val
                if clan != mover or q > LAST or q in occ:
                    return at, ()
                v, ch = res(q, False, up, hk)
                return v, (q, *ch)
            if clan != mover and clan not in self.players:  # neutral: draw the top card
                deck = h.get(clan, ())
                if not deck:
                    return at, ()
                card, h[clan] = deck[0], deck[1:]
                if card == SYM:
                    t = self.sym_target(at, clan, False, up, occ)
                    return (at, ()) if t is None else (t, (t,))
                q = at - card
                if q < 1 or q in occ:
                    return at, ()
                v, ch = res(q, True, up, key(h))
                return v, (q, *ch)
            own = clan == mover
            opts: list[tuple[int, tuple[int, ...]]] = []
            hand = h.get(clan, ())
            for card in sorted(set(hand), key=lambda x: 999 if x == SYM else x):
                rest = list(hand)
                rest.remove(card)
                h2 = {**h, clan: tuple(rest)}
                if card == SYM:
                    t = self.sym_target(at, clan, own, up, occ)
                    if t is not None:
                        opts.append((t, (t,)))
                    continue
                q = at + card if own else at - card
                if q > LAST or q < 1 or (q <= L and q in occ):
                    continue
                v, ch = res(q, not own, up, key(h2))
                opts.append((v, (q, *ch)))
            if not (forced and opts):
                opts.insert(0, (at, ()))
            best = opts[0]
            for o in opts[1:]:
                if (o[0] > best[0]) if (coop or own) else (o[0] < best[0]):
                    best = o
            return best

        h0 = {c: v if c not in self.players else tuple(sorted(v, key=lambda x: 0 if x == SYM else x))
              for c, v in self.hands.items()}
        v, ch = res(target, False, self.up0, key(h0))
        return v, (origin, target, *ch)

    def solve(self, roll: int, coop: bool = False) -> tuple[tuple[int, int, list[int]] | None, dict[int, int | None]]:
        best = None
        per: dict[int, int | None] = {}
        for o in sorted(set(self.witches.get(self.mover, []))):
            r = self.solve_witch(o, roll, coop)
            per[o] = None if r is None else r[0]
            if r is not None and (best is None or r[0] > best[0]):
                best = (r[0], o, list(r[1]))
        return best, per


def generate(rng: random.Random) -> dict[str, Any]:
    """A position the checkers' way: ``new --json`` with the keys replaced (chains made likely)."""
    n = rng.choice([2, 3, 4])
    pos = position_to_json(new_position(ED, n, rng.randrange(5)), ED)
    players = rng.sample(CLANS, n)
    to_move = rng.choice(players)
    track: list[dict[str, Any]] = []
    if rng.random() < 0.3:
        tiles = [(c, v) for c in CLANS for v in [*range(2, 11), SYM, SYM, SYM]]
        rng.shuffle(tiles)
        track = [{"clan": c, "value": v, "face_up": rng.random() < 0.5} for c, v in tiles]
    else:
        psym = rng.choice([0.25, 0.45])
        for _ in range(48):
            if rng.random() < psym:
                track.append({"clan": rng.choice(CLANS), "value": SYM, "face_up": rng.random() < 0.75})
            else:
                track.append({"clan": to_move if rng.random() < 0.5 else rng.choice(CLANS),
                              "value": rng.randint(2, rng.choice([5, 10])), "face_up": rng.random() < 0.5})
    used: set[int] = set()
    witches: dict[str, list[int]] = {}
    for c in players:
        ps = []
        for _ in range(3):
            kind = rng.random()
            f = 0 if kind < 0.25 else rng.randint(38, 51) if kind < 0.45 else rng.randint(1, 48)
            if 1 <= f <= L and f in used:
                f = rng.choice([0, 49, 50, 51])
            used.add(f)
            ps.append(f)
        witches[c] = ps
    hands: dict[str, list[Any]] = {}
    for c in CLANS:
        cards: list[Any] = [*range(2, 11), SYM, SYM, SYM]
        rng.shuffle(cards)
        k = rng.choice([0, 1, 2, 3, 4, 6])
        if k:
            hands[c] = cards[:k]
    pos.update(players=players, to_move=to_move, track=track, witches=witches, hands=hands)
    return pos


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(["hexen-rennen", *argv])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip().startswith("{") else out


def _compare(pos: dict[str, Any], roll: int, strict: bool) -> None:
    p = read_position(json.dumps(pos), "gen", ED)
    sol = solve_chain(p, ED, roll, Rules(strict_symbol_target=strict))
    ref = Reference(pos, strict)
    best, per = ref.solve(roll)
    coop, _ = ref.solve(roll, coop=True)
    if best is None:
        assert sol.value is None and sol.witch is None
        return
    assert sol.line is not None and sol.coop is not None
    assert (sol.value, sol.witch, sol.line.chain) == (best[0], best[1], best[2]), (roll, pos)
    assert coop is not None and sol.coop.value == coop[0]
    assert {w.origin: w.value for w in sol.witches} == per


@pytest.mark.parametrize("strict", [False, True])
def test_engine_agrees_with_independent_reference(strict: bool) -> None:
    rng = random.Random(4 + strict)
    for _ in range(25):
        pos = generate(rng)
        for roll in range(1, 7):
            _compare(pos, roll, strict)


@pytest.mark.slow
def test_engine_agrees_with_independent_reference_many() -> None:
    rng = random.Random(99)
    for i in range(300):
        pos = generate(rng)
        for roll in range(1, 7):
            _compare(pos, roll, i % 3 == 0)


def test_cli_solve_and_check_agree_with_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(11)
    f = tmp_path / "p.json"
    for _ in range(6):
        pos = generate(rng)
        f.write_text(json.dumps(pos))
        for roll in (1, 3, 6):
            code, d = run(capsys, "solve", str(f), "--roll", str(roll), "--json")
            best, _ = Reference(pos).solve(roll)
            if best is None:
                assert code == 1 and d["value"] is None and d["witch"] is None
                continue
            assert code == 0 and [d["value"], d["witch"], d["chain"]] == list(best)
            code, c = run(capsys, "check", str(f), "--roll", str(roll), "--turn", d["turn"], "--json")
            assert code == 0 and c["legal"] and c["value"] == best[0] and c["chain"] == best[2]


def test_no_witch_can_move_is_null_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = position_to_json(new_position(ED, 2, 0), ED)
    pos["witches"] = {"weather": [49, 47, 45], "fog": [46, 48, 0]}
    f = tmp_path / "p.json"
    f.write_text(json.dumps(pos))
    # roll 1: 47->48 occupied by fog, 45->46 occupied by fog, 49 never moves
    code, d = run(capsys, "solve", str(f), "--roll", "1", "--json")
    assert code == 1 and d["value"] is None and d["witch"] is None
    code, c = run(capsys, "check", str(f), "--roll", "1", "--turn", "pass", "--json")
    assert code == 0 and c["legal"]


DEFAULT_TOML = (Path(__file__).resolve().parents[2] / "models/hexen_rennen/data/default.toml").read_text()


def _edition_error(text: str) -> EditionError:
    with pytest.raises(EditionError) as exc:
        edition_from_toml(parse_toml(text, "ed.toml"))
    return exc.value


def test_edition_unknown_keys_are_reported_with_their_line() -> None:
    # regression: a misspelt key used to be ignored silently (the default applied instead)
    text = DEFAULT_TOML.replace("[die]\n", "[die]\nface = [1, 2, 3]\n")
    err = _edition_error(text)
    assert "unknown key 'face'" in str(err)
    assert err.line == text.splitlines().index("face = [1, 2, 3]") + 1
    text = DEFAULT_TOML.replace('letter = "W"', 'letter = "W"\ncolour = "blue"')
    assert "unknown key 'colour'" in str(_edition_error(text))
    assert "unknown table or key 'stage'" in str(_edition_error(DEFAULT_TOML + "\n[stage]\nx = 1\n"))


def test_edition_error_points_at_the_key_not_the_description() -> None:
    # regression: 'symbols' was located on the description line, which mentions "symbols"
    text = DEFAULT_TOML.replace("symbols = 3", "symbols = -1")
    err = _edition_error(text)
    assert err.line == text.splitlines().index("symbols = -1") + 1


def test_player_count_outside_the_edition_is_a_warning() -> None:
    # review: a one-player position was accepted without a word; the engine still works with it
    pos = position_to_json(new_position(ED, 2, 0), ED)
    pos.update(players=["weather"], to_move="weather")
    p = read_position(json.dumps(pos), "p", ED)
    assert any("1 player(s)" in w for w in p.warnings(ED))
    assert not any("player(s)" in w for w in new_position(ED, 3, 0).warnings(ED))
