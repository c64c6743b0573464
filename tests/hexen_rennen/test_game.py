"""Whole games: they end, their records replay through the rules engine, audits find witnesses."""

from __future__ import annotations

from gnomekit.solver.hexen_rennen.audit import audit
from gnomekit.solver.hexen_rennen.play import play_game, replay_record

from tests.hexen_rennen.hexen_build import ED


def test_games_finish_and_replay() -> None:
    for players, seed, policy in ((2, 0, "random"), (3, 1, "greedy"), (4, 2, "greedy"), (4, 5, "random")):
        rec = play_game(ED, players, seed, policy)
        assert rec.finished and rec.final is not None
        assert replay_record(rec) == rec.final
        winners = rec.to_json()["winners"]
        assert winners and all(w in rec.final.players for w in winners)
        done = rec.final.finished_clans(ED)
        assert done and all(rec.final.score(c, ED) >= 6 for c in done)


def test_solver_policy_plays_legal_turns() -> None:
    rec = play_game(ED, 2, 3, "solver", max_turns=3)
    assert len(rec.turns) == 3
    assert replay_record(rec) == rec.final


def test_audit_witnesses() -> None:
    a = audit(ED, 3, 4, seed=0)
    assert a.games == 3 and a.turns > 0
    assert a.longest is not None and a.longest["landings"] == max(
        len(p.steps) for g in range(3) for _, p in play_game(ED, 4, g, "random").turns)
    if a.forced:
        assert a.forced_witness is not None
