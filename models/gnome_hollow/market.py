"""The Pinwheel Market: which sales are open, what they pay, and making change in treasures.

A visit sells at most 2 sets, of different colours.  The pair column (2 mushrooms) is never
blocked; any other space is blocked by a market token of its colour after the sale, and once a
colour's tokens are gone only its pair column remains.  Option ``pair_sets``: ``one`` (default) -
a pair-column set is one pair; ``many`` - any number of pairs of that colour as one set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition

if TYPE_CHECKING:
    from gnomekit.models.gnome_hollow.position import Position


@dataclass(frozen=True)
class Sale:
    """One set sold: colour, mushrooms paid, points earned, whether it blocks a space."""

    colour: str
    mushrooms: int
    points: int
    blocks: bool

    def to_json(self) -> dict[str, object]:
        return {"colour": self.colour, "mushrooms": self.mushrooms, "points": self.points, "blocks": self.blocks}


def open_sales(edition: GnomeHollowEdition, colour: str, have: int, blocked: tuple[int, ...], tokens_left: int,
               pair_sets: str = "one") -> list[Sale]:
    """Every single-set sale of ``colour`` affordable with ``have`` mushrooms."""
    row = edition.market[colour]
    out: list[Sale] = []
    if pair_sets == "many":
        for k in range(1, have // 2 + 1):
            out.append(Sale(colour, 2 * k, row.pair * k, False))
    elif have >= 2:
        out.append(Sale(colour, 2, row.pair, False))
    if tokens_left > 0:
        for n, pts in row.spaces:
            if n <= have and n not in blocked:
                out.append(Sale(colour, n, pts, True))
    return out


def best_sale(edition: GnomeHollowEdition, mushrooms: dict[str, int], blocked: dict[str, tuple[int, ...]],
              tokens: dict[str, int], pair_sets: str = "one") -> tuple[int, list[Sale], int]:
    """The best visit: (points, the sets sold, number of visits compared).

    Exact: every choice of at most two sets of different colours is compared; ties go to fewer
    mushrooms spent, then colour order of the edition.
    """
    options: dict[str, list[Sale]] = {
        c: open_sales(edition, c, mushrooms.get(c, 0), blocked.get(c, ()), tokens.get(c, 0), pair_sets)
        for c in edition.colours
    }
    best: tuple[int, int] = (0, 0)
    best_sets: list[Sale] = []
    compared = 1
    cols = list(edition.colours)
    for i, a in enumerate(cols):
        for s in options[a]:
            compared += 1
            key = (s.points, -s.mushrooms)
            if key > best:
                best, best_sets = key, [s]
            for b in cols[i + 1:]:
                for t in options[b]:
                    compared += 1
                    key = (s.points + t.points, -(s.mushrooms + t.mushrooms))
                    if key > best:
                        best, best_sets = key, [s, t]
    return best[0], best_sets, compared


def make_change(edition: GnomeHollowEdition, points: int, supply: dict[str, int] | None = None) -> dict[str, int]:
    """Treasure tokens worth ``points``, greedily from the most valuable kind.

    ``supply`` (kind -> tokens left; None: not limited, the default reading) caps each kind; when the
    supply cannot make ``points`` the tokens are worth less (option ``treasure_supply = "box"``).
    """
    out: dict[str, int] = {}
    left = points
    for kind, (value, _count) in sorted(edition.treasures.items(), key=lambda kv: -kv[1][0]):
        n = left // value
        if supply is not None:
            n = min(n, max(0, supply.get(kind, 0)))
        left -= n * value
        if n:
            out[kind] = n
    return out


def supply_left(edition: GnomeHollowEdition, held: dict[str, int]) -> dict[str, int]:
    """The treasure tokens still in the general supply: the box's count of each kind minus those held."""
    return {k: count - held.get(k, 0) for k, (_value, count) in edition.treasures.items()}


def treasure_supply(edition: GnomeHollowEdition, pos: Position) -> dict[str, int] | None:
    """The treasure tokens a sale can be paid from: None (not limited) unless the position's option
    ``treasure_supply`` is ``box``, then the box's count of each kind minus every player's tokens."""
    if pos.option("treasure_supply") != "box":
        return None
    held: dict[str, int] = {}
    for p in pos.players:
        for k, n in p.treasures.items():
            held[k] = held.get(k, 0) + n
    return supply_left(edition, held)


def paid_points(edition: GnomeHollowEdition, points: int, supply: dict[str, int] | None) -> int:
    """What a sale worth ``points`` pays in treasure (``supply`` None: not limited)."""
    return points if supply is None else treasure_points(edition, make_change(edition, points, supply))


def treasure_points(edition: GnomeHollowEdition, treasures: dict[str, int]) -> int:
    return sum(edition.treasures[k][0] * n for k, n in treasures.items() if k in edition.treasures)
