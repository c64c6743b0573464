"""The open-deck opening over every deal: prefixes, weights, and the prefix argument against whole orders."""

from __future__ import annotations

import itertools
import random

import pytest
from gnomekit.models.gnomes_at_midnight.edition import bundled_edition
from gnomekit.models.gnomes_at_midnight.setup import new_position
from gnomekit.solver.gnomes_at_midnight.deals import (
    deal_position,
    deck_left,
    every_deal,
    orders,
    prefixes,
    rest,
    search_deal,
)
from gnomekit.solver.gnomes_at_midnight.search import forced_win_within

ED = bundled_edition("default")
DECK = ED.decks[0]


def whole_orders(deck: tuple[int, ...]) -> list[tuple[int, ...]]:
    return sorted(set(itertools.permutations(deck)))


def test_prefixes_and_weights_cover_every_order() -> None:
    every = whole_orders(DECK)
    assert len(every) == 90 == orders(rest(DECK, ()))
    for length in range(0, 7):
        ps = prefixes(DECK, length)
        assert len(ps) == len(set(ps)) == len({o[:length] for o in every})
        assert sum(orders(rest(DECK, p)) for p in ps) == 90
    with pytest.raises(ValueError):
        rest(DECK, (0, 0, 0))


@pytest.mark.parametrize("dance", ["tee", "ell"])
def test_a_deal_answers_as_every_whole_order_below_its_prefix(dance: str) -> None:
    """The prefix argument: whole known orders with the same top n - 1 cards give the prefix's answer
    (the reference searcher on the whole order, 40 random deals)."""
    within = 3
    base = new_position(ED, 0, dance=dance)
    rng = random.Random(dance)
    every = whole_orders(DECK)
    for _ in range(40):
        g, b = rng.choice(every), rng.choice(every)
        whole = deal_position(base, g, b)
        assert whole.known == (g, b) and whole.unknown == ((0, 0, 0), (0, 0, 0))
        status, turns, _nodes = search_deal(deal_position(base, g[: within - 1], b[: within - 1]), within, None)
        want = next((n for n in range(1, within + 1) if forced_win_within(whole, n)), None)
        assert (status == "win") == (want is not None), (g, b)
        assert turns == want


def test_every_deal_weights_and_answers() -> None:
    row = every_deal(ED, "tee", 3)
    assert row.orders == 8100 and row.deals == len(prefixes(DECK, 2)) ** 2
    assert row.unknown_orders == 0
    assert 0 < row.win_orders < row.orders
    assert sum(row.by_turns.values()) == row.win_orders
    assert row.best is not None and row.best.status == "win" and row.best.turns == row.shortest
    assert row.worst is not None and row.worst.status == "no-win" and not row.every_deal_wins
    # the seed-0 deal of the opening table (green's top two cards are grass, grass) has no win within 3
    seed0 = new_position(ED, 0, dance="tee")
    assert search_deal(seed0, 3, None)[0] == "no-win"
    js = row.to_json()
    assert js["deals"] == 8100 and js["win_deals"] + js["no_win_deals"] + js["unknown_deals"] == 8100


@pytest.mark.slow
def test_prefix_argument_at_four_turns() -> None:
    """As above at 4 turns (three cards of each deck turned), 25 random whole deals on two cards."""
    for dance in ("tee", "arch"):
        base = new_position(ED, 0, dance=dance)
        rng = random.Random(f"{dance}/4")
        every = whole_orders(DECK)
        for _ in range(25):
            g, b = rng.choice(every), rng.choice(every)
            whole = deal_position(base, g, b)
            status, turns, _nodes = search_deal(deal_position(base, g[:3], b[:3]), 4, None)
            want = next((n for n in range(1, 5) if forced_win_within(whole, n)), None)
            assert (status, turns) == (("win", want) if want is not None else ("no-win", None)), (dance, g, b)


def _certificate_soundness(seeds: int, plies: int, spread: int, reshuffle: bool) -> tuple[int, int, int]:
    """On random positions, whenever the reference search finds a hidden-deck forced win in w turns,
    the certificate stays below w; (wins, certified at 3, certified by a whole order or, with
    ``reshuffle``, by a sequence through the reshuffle)."""
    from gnomekit.models.gnomes_at_midnight.setup import random_position
    from gnomekit.solver.gnomes_at_midnight.deals import hidden_bound

    wins = certified = kind = 0
    for seed in range(seeds):
        pos, _played = random_position(ED, seed, plies + seed % spread)
        start = every_deal(ED, "square", 2, base=pos)
        hb = hidden_bound(ED, "square", start, 3, base=pos, reshuffle=reshuffle)
        if reshuffle:
            kind += hb.within >= 3 and hb.green is not None and len(hb.green) > len(deck_left(pos, 0))
        else:
            kind += hb.within >= 1 and hb.green is not None and len(hb.green) == len(deck_left(pos, 0))
        want = next((n for n in range(1, 4) if forced_win_within(pos, n, decks="hidden")), None)
        if want is not None:
            wins += 1
            assert hb.within < want, (seed, hb, want)
        if hb.within >= 3:
            certified += 1
            assert want is None
    return wins, certified, kind


def test_hidden_bound_never_certifies_past_a_hidden_win() -> None:
    """Soundness of the deal certificate (some positions have wins; whole orders certify too)."""
    wins, certified, whole = _certificate_soundness(40, 4, 5, reshuffle=False)
    assert wins >= 5 and certified >= 5 and whole >= 5, (wins, certified, whole)


def test_hidden_bound_at_setup_agrees_with_the_hidden_search() -> None:
    from gnomekit.solver.gnomes_at_midnight.deals import hidden_bound

    base = new_position(ED, 0, dance="tee")
    hb = hidden_bound(ED, "tee", every_deal(ED, "tee", 3), 4)
    assert hb.within == 4 and hb.green is not None and hb.blue is not None
    assert not forced_win_within(base, 4, decks="hidden")
    # the certificate itself: with those top cards and the rest unknown, no win within 4
    assert search_deal(deal_position(base, hb.green, hb.blue), 4, None)[0] == "no-win"


def test_opening_hidden_row_is_deepened_by_a_deal_certificate() -> None:
    from gnomekit.solver.core.budget import Budget
    from gnomekit.solver.gnomes_at_midnight.opening import OpeningRow, _certify

    pos = new_position(ED, 0, dance="tee")
    row = OpeningRow("tee", "hidden", None, "unknown", no_win_within=2, exhausted="1 s")
    _certify(ED, "tee", pos, 5, Budget(), row, None)
    assert row.status == "no-win" and row.no_win_within == 5 and row.exhausted is None
    assert row.certificate is not None and row.certificate["deal"] is not None
    assert "shown on the deal green" in row.text()
    assert not forced_win_within(pos, 5, decks="hidden")  # the reference search agrees


def test_what_stopped_a_certificate_is_named() -> None:
    """A budget that runs out is named by its kind; a row stopped for want of deals says "stopped"."""
    from gnomekit.solver.core.budget import Budget
    from gnomekit.solver.gnomes_at_midnight.deals import hidden_bound
    from gnomekit.solver.gnomes_at_midnight.opening import OpeningRow

    hb = hidden_bound(ED, "tee", every_deal(ED, "tee", 3), 8, Budget(states=50))
    assert (hb.stopped_by, hb.exhausted) == ("states", "50 states") and hb.to_json()["stopped_by"] == "states"
    row = OpeningRow("tee", "hidden", None, "unknown", no_win_within=9, budget_out=False,
                     exhausted="every deal tried has a win within 10")
    assert row.text() == "unknown (no forced win within 9; stopped: every deal tried has a win within 10)"
    row.budget_out = True
    row.exhausted = "150 s"
    assert row.text() == "unknown (no forced win within 9; budget: 150 s)"


def test_opening_hidden_row_certificate_first_then_the_direct_search() -> None:
    """A hidden row tries the certificate first and the direct search after it: on random positions the
    row's answer is the reference hidden search's (a win in w: found by the direct search, the
    certificate below w; no win within 3: settled), and the certificate alone never claims a win."""
    import time

    from gnomekit.models.gnomes_at_midnight.setup import random_position
    from gnomekit.solver.core.budget import Budget
    from gnomekit.solver.gnomes_at_midnight.opening import OpeningRow, _hidden_row

    wins = 0
    for seed in range(0, 40, 2):
        pos, _played = random_position(ED, seed, 4 + seed % 5)
        row = OpeningRow("square", "hidden", None, "unknown")
        _hidden_row(ED, "square", pos, 3, Budget(), "ab", row, time.perf_counter())
        want = next((n for n in range(1, 4) if forced_win_within(pos, n, decks="hidden")), None)
        if want is None:
            assert (row.status, row.no_win_within, row.exhausted) == ("no-win", 3, None), (seed, row)
        else:
            wins += 1
            assert (row.status, row.turns, row.no_win_within) == ("win", want, want - 1), (seed, row)
            assert row.first_move is not None
            assert row.certificate is not None and row.certificate["no_win_within"] < want
    assert wins >= 3, wins


def test_a_deal_through_the_reshuffle() -> None:
    """Sequences that run past the deck fix the reshuffled deck's top cards: the unknown cards are the
    rest of the full deck, and the compiled/fast search answers as the reference search on the
    same position (late positions, where the decks run out within the turns searched)."""
    from gnomekit.models.gnomes_at_midnight.setup import random_position
    from gnomekit.solver.gnomes_at_midnight.deals import below, reshuffled

    base = new_position(ED, 0, dance="tee")
    seq = reshuffled(base, 0, (0, 1, 2, 0, 1, 2))
    assert seq == (0, 1, 2, 0, 1, 2) * 2 and below(base, 0, seq) == (0, 0, 0)
    assert below(base, 0, seq[:8]) == (1, 1, 2)
    with pytest.raises(ValueError):
        below(base, 0, (0, 0, 0, 1, 1, 2, 2))  # not a whole order before the reshuffle
    checked = past = 0
    for seed in range(30):
        pos, _played = random_position(ED, seed, 9 + seed % 4)
        rng = random.Random(seed)
        g = reshuffled(pos, 0, tuple(rng.sample(deck_left(pos, 0), len(deck_left(pos, 0)))))
        b = reshuffled(pos, 1, tuple(rng.sample(deck_left(pos, 1), len(deck_left(pos, 1)))))
        assert rest(pos.full_decks[0], g[len(deck_left(pos, 0)):]) == (0, 0, 0)
        cut = 2 + seed % 3  # each side's first cut cards fixed, the rest unknown
        deal = deal_position(pos, g[:cut], b[:cut])
        past += cut > len(deck_left(pos, 0))
        status, turns, _nodes = search_deal(deal, 3, None)
        want = next((n for n in range(1, 4) if forced_win_within(deal, n)), None)
        assert (status, turns) == (("win", want) if want is not None else ("no-win", None)), seed
        checked += 1
    assert checked == 30 and past >= 5, past


def test_hidden_bound_through_the_reshuffle_never_certifies_past_a_hidden_win() -> None:
    """The same with the reshuffled deck fixed too: late random positions (the decks run out within
    the turns searched)."""
    wins, certified, through = _certificate_soundness(120, 7, 6, reshuffle=True)
    assert wins >= 5 and certified >= 5 and through >= 5, (wins, certified, through)


def test_opening_row_names_a_deal_through_the_reshuffle() -> None:
    """_certify tries the deals through the reshuffle first and records both phases; a row whose
    deal runs past the deck says where the reshuffled cards start."""
    from gnomekit.solver.core.budget import Budget
    from gnomekit.solver.gnomes_at_midnight.opening import OpeningRow, _certify

    pos = new_position(ED, 0, dance="skew")
    row = OpeningRow("skew", "hidden", None, "unknown", no_win_within=2, exhausted="1 s")
    _certify(ED, "skew", pos, 9, Budget(), row, None)
    c = row.certificate
    assert c is not None and c["phases"][0]["reshuffle"] is True
    assert row.status == "no-win" and row.no_win_within == 9
    deal = c["deal"]
    assert len(c["phases"]) == 1 and len(deal["green_top"]) == 12  # settled through the reshuffle
    assert deal["reshuffle_at"] == [6, 6] and ", reshuffled " in row.text()
    g = tuple("gtc".index(t[0]) for t in deal["green_top"])
    b = tuple("gtc".index(t[0]) for t in deal["blue_top"])
    assert search_deal(deal_position(pos, g, b), 9, None)[0] == "no-win"
    assert not forced_win_within(deal_position(pos, g, b), 3)  # the reference search on that deal
    fake = OpeningRow("skew", "hidden", None, "no-win", no_win_within=12, certificate={
        "no_win_within": 12, "deal": {"green_top": ["grass"] * 8, "blue_top": ["tulips"] * 7,
                                      "reshuffle_at": [6, 6]}})
    assert fake.text() == ("no forced win within 12, shown on the deal green grass grass grass grass grass "
                           "grass, reshuffled grass grass; blue tulips tulips tulips tulips tulips tulips, "
                           "reshuffled tulips")


def test_the_documented_hidden_table_deals_hold() -> None:
    """The committed run behind docs/midnight-opening.md: every row settled at 12, and the cheap
    rows' deals replayed here (no win within 12 on them; the long rows take minutes)."""
    import json
    from pathlib import Path

    from gnomekit.models.gnomes_at_midnight.edition import TERRAINS
    from gnomekit.solver.gnomes_at_midnight.fast import FastEngine
    from gnomekit.solver.gnomes_at_midnight.jit import searcher

    doc = json.loads((Path(__file__).parents[2] / "docs/opening/hidden-2026-12-03.json").read_text())
    rows = {r["dance"]: r for r in doc["rows"]}
    assert len(rows) == 9 and all(r["status"] == "no-win" and r["no_win_within"] == 12 for r in rows.values())
    for dance in ("tee", "ell", "skew"):
        deal = rows[dance]["certificate"]["deal"]
        g = tuple(TERRAINS.index(t) for t in deal["green_top"])
        b = tuple(TERRAINS.index(t) for t in deal["blue_top"])
        deal_pos = deal_position(new_position(ED, 0, dance=dance), g, b)
        e = FastEngine(deal_pos)
        sr, st = searcher(e), e.state(deal_pos)
        assert not any(sr.win(st, n) for n in range(5, 13)), dance  # deepened from 5, as hidden_bound does
