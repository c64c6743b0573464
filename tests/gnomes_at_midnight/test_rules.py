"""Hand-built positions for each rule: wins, bumps, pairs, adds, moonlit squares, reshuffles, passes."""

from __future__ import annotations

from gnomekit.models.gnomes_at_midnight.moves import (
    ADD,
    PAIR,
    PASS,
    STEP,
    Move,
    after_move,
    check_move,
    legal_moves,
    next_position,
    play,
)
from gnomekit.models.gnomes_at_midnight.position import NO_CARD

from tests.gnomes_at_midnight.helpers import empty_board

G, B = "green", "blue"


def gnomes(green: list[list[int]], blue: list[list[int]]) -> dict[str, list[list[int]]]:
    return {"green": green, "blue": blue}


def rules(pos, move: Move) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.rule for v in check_move(pos, move)]


def test_toadstool_win_needs_every_toadstool() -> None:
    p = empty_board(gnomes=gnomes([[0, 3], [2, 3], [3, 3]], [[1, 6]]))
    a = after_move(p, Move(STEP, (3, 3), (4, 3)))
    assert a.wins == ("toadstools",) and a.flips == ()
    a2 = after_move(p, Move(STEP, (2, 3), (3, 2)))
    assert a2.wins == ()


def test_bump_win_counts_off_board_gnomes() -> None:
    p = empty_board(gnomes=gnomes([[1, 1]], [[1, 2]]), off_board={"green": 0, "blue": 2})
    a = after_move(p, Move(STEP, (1, 1), (1, 2)))
    assert a.bumped == 1 and a.pos.off == (0, 3) and a.wins == ("bumps",)
    assert a.pos.count(p.board.index((1, 2)), 0) == 1


def test_pair_is_bumped_together() -> None:
    p = empty_board(gnomes=gnomes([[1, 1]], [[1, 2], [1, 2]]), off_board={"green": 0, "blue": 1})
    a = after_move(p, Move(STEP, (1, 1), (1, 2)))
    assert a.bumped == 2 and a.pos.off[1] == 3 and "bumps" in a.wins
    p2 = empty_board(gnomes=gnomes([[1, 1]], [[1, 2], [1, 2]]))
    a2 = after_move(p2, Move(STEP, (1, 1), (1, 2)))
    assert a2.bumped == 2 and a2.wins == () and a2.pos.cells[p2.board.index((1, 2))] == 1


def test_pair_step_moves_both_and_bumps() -> None:
    p = empty_board(gnomes=gnomes([[2, 2], [2, 2]], [[3, 3]]))
    assert Move(PAIR, (2, 2), (3, 3)) in legal_moves(p)
    q = play(p, Move(PAIR, (2, 2), (3, 3)))
    i = p.board.index((3, 3))
    assert q.cells[i] == 2 and q.cells[p.board.index((2, 2))] == 0 and q.off == (0, 1)
    assert q.to_move == 1 and q.moon == (0, NO_CARD) and q.turn == 2


def test_never_three_on_a_square() -> None:
    p = empty_board(gnomes=gnomes([[2, 2], [2, 2], [2, 1], [3, 2], [3, 2]], []))
    assert rules(p, Move(STEP, (2, 1), (3, 2))) == ["three-on-square"]
    assert rules(p, Move(PAIR, (2, 2), (2, 1))) == ["three-on-square"]
    assert Move(STEP, (2, 2), (2, 1)) in legal_moves(p)
    assert Move(PAIR, (2, 2), (2, 1)) not in legal_moves(p)


def test_moonlit_squares_block_moving_onto_and_off() -> None:
    # moon tulips for green: (0,1) and (1,0) are tulips
    p = empty_board(gnomes=gnomes([[0, 1], [1, 1]], []), moon={"green": "tulips", "blue": None})
    assert rules(p, Move(STEP, (0, 1), (0, 2))) == ["moonlit-source"]
    assert rules(p, Move(STEP, (1, 1), (1, 0))) == ["moonlit-target"]
    assert rules(p, Move(STEP, (0, 1), (1, 0))) == ["moonlit-source", "moonlit-target"]
    assert all(m.src != (0, 1) for m in legal_moves(p))
    # the blue card does not restrict green
    p2 = empty_board(gnomes=gnomes([[0, 1]], []), moon={"green": None, "blue": "tulips"})
    assert not rules(p2, Move(STEP, (0, 1), (1, 0)))


def test_every_reason_is_listed() -> None:
    p = empty_board(gnomes=gnomes([[0, 1], [1, 2], [1, 2]], [[3, 3], [4, 4]]), moon={"green": "tulips", "blue": None})
    got = rules(p, Move(PAIR, (0, 1), (3, 3)))
    assert got == ["not-adjacent", "pair-needs-two", "moonlit-source", "moonlit-target"]
    assert rules(p, Move(STEP, (4, 4), (3, 4))) == ["no-own-gnome"]
    assert rules(p, Move(STEP, (2, 2), (9, 9))) == ["outside-board", "not-adjacent"]


def test_adding_rules() -> None:
    p = empty_board(gnomes=gnomes([[0, 0], [0, 0]], [[2, 0]]), off_board={"green": 2, "blue": 0},
                    moon={"green": "grass", "blue": None})
    assert rules(p, Move(ADD, None, (0, 0))) == ["flower-full"]
    assert rules(p, Move(ADD, None, (2, 0))) == ["flower-has-opponent"]
    assert rules(p, Move(ADD, None, (1, 1))) == ["not-own-flower"]
    assert rules(p, Move(ADD, None, (0, 6))) == ["not-own-flower"]
    assert not rules(p, Move(ADD, None, (4, 0)))  # grass flower, but adding is not restricted by default
    adds = [m for m in legal_moves(p) if m.kind == ADD]
    assert adds == [Move(ADD, None, (4, 0))]
    from dataclasses import replace

    strict = replace(p, moon_restricts_adding=True)
    assert rules(strict, Move(ADD, None, (4, 0))) == ["moonlit-target"]
    assert [m for m in legal_moves(strict) if m.kind == ADD] == []
    none_off = empty_board(gnomes=gnomes([[0, 0]], []))
    assert rules(none_off, Move(ADD, None, (4, 0))) == ["no-gnome-off-board"]
    q = play(p, Move(ADD, None, (4, 0)))
    assert q.off == (1, 0) and q.cells[p.board.index((4, 0))] == 1


def test_reshuffle_is_chance_over_the_whole_deck() -> None:
    p = empty_board(gnomes=gnomes([[1, 1]], [[3, 5]]), decks={"green": [], "blue": []})
    a = after_move(p, Move(STEP, (1, 1), (1, 2)))
    assert a.reshuffle and a.flips == ((0, 2), (1, 2), (2, 2))
    q = next_position(a, 2)
    assert q.moon[0] == 2 and q.known[0] == () and q.unknown[0] == (2, 2, 1)
    a2 = after_move(play(q, Move(STEP, (3, 5), (3, 4)), 0), Move(STEP, (1, 2), (1, 3)))
    assert not a2.reshuffle and a2.flips == ((0, 2), (1, 2), (2, 1))


def test_known_deck_flips_in_order_and_hidden_forgets_it() -> None:
    p = empty_board(gnomes=gnomes([[1, 1]], [[3, 5]]), decks={"green": ["tulips", "grass"], "blue": []})
    a = after_move(p, Move(STEP, (1, 1), (1, 2)))
    assert a.flips == ((1, 1),) and not a.reshuffle
    h = p.hidden()
    assert h.known == ((), ()) and h.unknown[0] == (1, 1, 0)
    assert after_move(h, Move(STEP, (1, 1), (1, 2))).flips == ((0, 1), (1, 1))


def test_pass_only_when_stuck_and_flips_nothing() -> None:
    # green's only gnome stands on tulips under a tulips moon; nothing off the board
    p = empty_board(gnomes=gnomes([[0, 1]], [[3, 5]]), moon={"green": "tulips", "blue": "grass"})
    assert legal_moves(p) == [Move(PASS)]
    q = play(p, Move(PASS))
    assert q.moon == p.moon and q.known == p.known and q.to_move == 1 and q.turn == p.turn + 1
    p2 = empty_board(gnomes=gnomes([[1, 1]], [[3, 5]]))
    assert rules(p2, Move(PASS)) == ["pass-not-allowed"]


def test_wins_are_checked_for_the_mover_only() -> None:
    p = empty_board(gnomes=gnomes([[1, 1]], [[0, 3], [2, 3], [4, 3]]))
    a = after_move(p, Move(STEP, (1, 1), (1, 2)))
    assert a.wins == ()
    assert any("blue (not to move) already meets: toadstools" in w for w in p.warnings())


def test_dance_matches_under_all_eight_symmetries() -> None:
    # an L shape; place each of its 8 orientations on the board and finish it with one step
    from gnomekit.models.core.grid import normalise, transform

    shape = [[0, 0], [1, 0], [2, 0], [2, 1]]
    seen = set()
    for k in range(8):
        cells = normalise(transform((r, c), k) for r, c in shape)
        seen.add(cells)
        placed = [(r + 1, c + 2) for r, c in cells]
        last = placed[-1]
        others = placed[:-1]
        # bring the last gnome in from an empty neighbour that is not in the pattern
        src = next((last[0] + dr, last[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                   if (last[0] + dr, last[1] + dc) not in placed and 0 <= last[0] + dr < 5
                   and 0 <= last[1] + dc < 7)
        p = empty_board(gnomes=gnomes([list(c) for c in others] + [list(src)], []), dance=shape)
        a = after_move(p, Move(STEP, src, last))
        assert a.wins == ("dance",), (k, placed)
        # one square short is no win
        p2 = empty_board(gnomes=gnomes([list(c) for c in others[:-1]] + [list(src)], []), dance=shape)
        assert after_move(p2, Move(STEP, src, last)).wins == ()
    assert len(seen) == 8


def test_dance_is_translated_anywhere_and_stacks_count_once() -> None:
    p = empty_board(gnomes=gnomes([[3, 4], [3, 4], [3, 5]], []), dance=[[0, 0], [0, 1], [0, 2]])
    assert after_move(p, Move(STEP, (3, 4), (3, 6))).wins == ("dance",)
    assert after_move(p, Move(STEP, (3, 5), (3, 6))).wins == ()
