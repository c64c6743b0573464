"""The opening table, proof export and the independent proof checker."""

from __future__ import annotations

import argparse
import copy

import pytest
from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.core.batch import Backend
from gnomekit.solver.core.budget import Budget
from gnomekit.solver.gnomes_at_midnight.opening import OpeningRow, settle_opening
from gnomekit.solver.gnomes_at_midnight.proof import check_proof, export_proof, read_proof, write_proof

from gnomekit.gnomes_at_midnight_opening_cli import add_opening_options, run_opening

ED = bundled_edition("default")


@pytest.fixture(scope="module")
def proof() -> dict:  # type: ignore[type-arg]
    # seed 0, dance "tee", open decks: green forces a win in 4 (measured; docs/midnight-opening.md)
    return export_proof(new_position(ED, 0, dance="tee"), "open", 4)


def test_exported_proof_checks(proof, tmp_path) -> None:  # type: ignore[no-untyped-def]
    chk = check_proof(proof)
    assert chk.ok and chk.turns == 4 and chk.leaves > 0, chk.problems
    path = tmp_path / "p.json.gz"
    write_proof(proof, path)
    assert check_proof(read_proof(path)).ok


def _first_then(data: dict) -> dict:  # type: ignore[type-arg]
    return next(n for n in data["nodes"] if "then" in n)["then"]


def test_checker_rejects_a_missing_reply(proof) -> None:  # type: ignore[no-untyped-def]
    bad = copy.deepcopy(proof)
    replies = next(iter(_first_then(bad).values()))
    replies.pop(next(iter(replies)))
    chk = check_proof(bad)
    assert not chk.ok and "not covered" in chk.problems[0]


def test_checker_rejects_a_wrong_move(proof) -> None:  # type: ignore[no-untyped-def]
    bad = copy.deepcopy(proof)
    leaf = next(n for n in bad["nodes"] if "wins" in n)
    leaf["move"] = "pass"
    assert not check_proof(bad).ok


def test_checker_rejects_too_few_turns_and_cycles(proof) -> None:  # type: ignore[no-untyped-def]
    short = dict(proof, turns=3)
    chk = check_proof(short)
    assert not chk.ok and "claims 3" in chk.problems[0]
    cyc = copy.deepcopy(proof)
    for per_reply in _first_then(cyc).values():
        for flips in per_reply.values():
            for f in flips:
                flips[f] = cyc["root"]
    assert not check_proof(cyc).ok


def test_checker_rejects_an_illegal_move() -> None:
    # a root move that is not legal is refused whatever the proof lists after it
    pos = new_position(ED, 0, dance="tee")
    fake = export_proof(pos, "open", 4)
    fake["nodes"][fake["root"]]["move"] = "+2,0"  # illegal: no green gnome is off the board
    assert not check_proof(fake).ok


def test_opening_rows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = settle_opening(ED, dances=["tee"], max_turns=4, budget=Budget(seconds=60), proof_dir=tmp_path)
    by = {r.decks: r for r in rows}
    assert by["open"].status == "win" and by["open"].turns == 4 and by["open"].proof_checked
    assert by["hidden"].status == "no-win" and by["hidden"].no_win_within == 4
    assert by["hidden"].proof is None
    from gnomekit.solver.gnomes_at_midnight import jit

    if jit.available():  # settled by the certificate alone, which names its engine
        assert by["hidden"].engine == by["open"].engine == "numba"


def test_rows_on_two_processes_are_the_rows_in_process() -> None:
    # the rows are independent tasks: on a pool (hidden rows handed out first) the same rows come
    # back in the same order, with the same answers and node counts
    kw = dict(dances=["tee", "diamond"], max_turns=4, budget=Budget(seconds=120))
    inline = settle_opening(ED, **kw)  # type: ignore[arg-type]
    pooled = settle_opening(ED, backend=Backend("processes", 2), **kw)  # type: ignore[arg-type]

    def key(r: OpeningRow) -> tuple:  # type: ignore[type-arg]
        return (r.dance, r.decks, r.seed, r.status, r.turns, r.no_win_within, r.first_move, r.nodes)

    assert [key(r) for r in inline] == [key(r) for r in pooled]
    assert [(r.dance, r.decks) for r in inline] == [("tee", "open"), ("tee", "hidden"),
                                                   ("diamond", "open"), ("diamond", "hidden")]


def test_opening_budget_is_unknown_not_no() -> None:
    rows = settle_opening(ED, dances=["square"], decks=["hidden"], max_turns=12, budget=Budget(states=2000))
    assert rows[0].status == "unknown" and rows[0].no_win_within < 12


def test_opening_pns_method_agrees() -> None:
    a = settle_opening(ED, dances=["diamond"], decks=["open"], max_turns=4, method="ab")[0]
    b = settle_opening(ED, dances=["diamond"], decks=["open"], max_turns=4, method="pns")[0]
    assert (a.status, a.turns) == (b.status, b.turns) == ("win", 4)


def _args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_opening_options(p)
    p.add_argument("--edition")
    return p.parse_args(list(argv))


def test_cli_answer() -> None:
    ans = run_opening(_args("--opening", "--opening-dance", "tee", "--opening-decks", "open", "--opening-turns", "4"))
    assert ans.status == 0
    assert ans.data["rows"][0]["status"] == "win" and "win in 4" in ans.text
    with pytest.raises(UsageError):
        run_opening(_args("--opening", "--opening-seeds", "x"))
    with pytest.raises(UsageError):
        run_opening(_args("--opening", "--opening-dance", "nosuch"))
