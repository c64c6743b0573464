"""Setting up a Gnomes at Midnight game and playing random turns.

Everything random takes an explicit seed and uses ``random.Random``, whose
shuffles are the same on every machine for the same seed.
"""

from __future__ import annotations

import random

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnomes_at_midnight.edition import MidnightEdition
from gnomekit.models.gnomes_at_midnight.moves import after_move, legal_moves, next_position
from gnomekit.models.gnomes_at_midnight.position import NO_CARD, Board, Position


def edition_board(ed: MidnightEdition) -> Board:
    return Board(ed.rows, ed.cols, ed.terrain, ed.flowers, ed.toadstools)


def new_position(ed: MidnightEdition, seed: int = 0, dance: str | None = None) -> Position:
    """The position at setup: gnomes on their flowers, decks shuffled (known order), a dance card up.

    ``dance`` names the face-up dance card (default: drawn with the seed).
    """
    rng = random.Random(f"gnomes-at-midnight/{seed}")
    board = edition_board(ed)
    cells = [0] * (ed.rows * ed.cols)
    for side, sign in ((0, 1), (1, -1)):
        for c in ed.setup[side]:
            cells[board.index(c)] += sign
    decks = []
    for side in (0, 1):
        d = list(ed.decks[side])
        rng.shuffle(d)
        decks.append(tuple(d))
    if dance is None:
        card = ed.dance[rng.randrange(len(ed.dance))]
    else:
        found = ed.dance_card(dance)
        if found is None:
            raise UsageError(f"unknown dance card {dance!r}; the edition has: "
                             + ", ".join(d.name for d in ed.dance))
        card = found
    return Position(
        board=board,
        cells=tuple(cells),
        off=(ed.gnomes - len(ed.setup[0]), ed.gnomes - len(ed.setup[1])),
        to_move=ed.first,
        moon=(NO_CARD, NO_CARD),
        known=(decks[0], decks[1]),
        unknown=((0, 0, 0), (0, 0, 0)),
        dance=card.cells,
        turn=1,
        bump_limit=ed.bump_limit,
        full_decks=ed.decks,
        moon_restricts_adding=ed.moon_restricts_adding,
        edition=ed.name,
    )


def random_turn(pos: Position, rng: random.Random) -> Position | None:
    """One random turn that does not win (None when every legal turn wins).

    A reshuffled deck gets a random order that is then known (as a puzzle would give it).
    """
    moves = legal_moves(pos)
    rng.shuffle(moves)
    for m in moves:
        a = after_move(pos, m)
        if a.wins:
            continue
        if not a.flips:
            return next_position(a, None)
        if a.reshuffle:
            deck = list(pos.full_decks[pos.to_move])
            rng.shuffle(deck)
            from dataclasses import replace

            known = list(pos.known)
            known[pos.to_move] = tuple(deck)
            fresh = replace(pos, known=(known[0], known[1]), unknown=((0, 0, 0), pos.unknown[1])
                            if pos.to_move == 0 else (pos.unknown[0], (0, 0, 0)))
            a = after_move(fresh, m)
        return next_position(a, a.flips[0][0]) if len(a.flips) == 1 else next_position(
            a, rng.choices([t for t, _ in a.flips], [w for _, w in a.flips])[0])
    return None


def random_position(ed: MidnightEdition, seed: int = 0, turns: int = 6) -> tuple[Position, int]:
    """Play ``turns`` random non-winning turns from setup; returns the position and turns played.

    Stops early when every legal turn would win.
    """
    if turns < 0:
        raise UsageError(f"turns must be 0 or more, not {turns}")
    pos = new_position(ed, seed)
    rng = random.Random(f"gnomes-at-midnight/random/{seed}")
    played = 0
    for _ in range(turns):
        nxt = random_turn(pos, rng)
        if nxt is None:
            break
        pos = nxt
        played += 1
    return pos, played
