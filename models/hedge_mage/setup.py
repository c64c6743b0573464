"""Setting up a Hedge Mage garden and playing random building rounds.

Everything random takes an explicit seed and uses ``random.Random``, whose
shuffles are the same on every machine for the same seed.
"""

from __future__ import annotations

import random
from dataclasses import replace

from gnomekit.models.core.errors import UsageError
from gnomekit.models.core.grid import Cell
from gnomekit.models.hedge_mage.edition import HedgeMageEdition
from gnomekit.models.hedge_mage.placement import Board, apply_placement, legal_placements
from gnomekit.models.hedge_mage.position import Garden, Gnome, Mage


def tunnels_for(edition: HedgeMageEdition, enchantments: tuple[str, ...]) -> tuple[Cell, ...]:
    """The tunnel cells opened by the chosen enchantment cards (their tunnel numbers)."""
    out: list[Cell] = []
    kinds: dict[str, str] = {}
    for ident in enchantments:
        try:
            e = edition.enchantment(ident)
        except KeyError:
            known = ", ".join(x.id for x in edition.enchantments)
            raise UsageError(f"unknown enchantment {ident!r}; the edition has: {known}") from None
        if e.kind in kinds:  # one card per gnome kind (setup step 2)
            raise UsageError(f"enchantments {kinds[e.kind]!r} and {ident!r} are both for {e.kind} gnomes; "
                             "choose one card per kind")
        kinds[e.kind] = ident
        if e.tunnel is not None:
            cell = edition.numbered[e.tunnel - 1]
            if cell in out:
                raise UsageError(f"two chosen enchantments open the same tunnel (space {e.tunnel})")
            out.append(cell)
    return tuple(out)


def deal_deck(edition: HedgeMageEdition, rng: random.Random) -> list[str]:
    """The hedge deck for one game: shuffled, with ``removed`` cards taken out unseen."""
    cards = list(edition.deck)
    rng.shuffle(cards)
    return cards[: len(cards) - edition.removed]


def new_garden(
    edition: HedgeMageEdition,
    seed: int = 0,
    enchantments: tuple[str, ...] | None = None,
) -> tuple[Garden, list[str]]:
    """A garden at setup, round 1 with its first card revealed, and the deck (top first)."""
    rng = random.Random(f"hedge-mage/{seed}")
    enchs = enchantments if enchantments is not None else edition.first_game
    tunnels = tunnels_for(edition, enchs)
    spaces = [c for c in edition.numbered + edition.shaded if c not in tunnels]
    kinds = [k for k in edition.gnome_kinds for _ in range(edition.gnomes_per_kind)]
    rng.shuffle(kinds)
    gnomes = tuple(Gnome(k, c) for k, c in zip(kinds, spaces, strict=False))
    mages = tuple(Mage(t) for t in tunnels[: edition.mages])
    deck = deal_deck(edition, rng)
    g = Garden(
        rows=edition.rows,
        cols=edition.cols,
        tunnels=tunnels,
        gnomes=gnomes,
        mages=mages,
        tile=deck[0] if deck else None,
        remaining_tiles=tuple(edition.tiles),
        round=1,
        edition=edition.name,
    )
    return g, deck


def random_garden(
    edition: HedgeMageEdition, seed: int = 0, rounds: int = 3
) -> tuple[Garden, list[int | None]]:
    """Play ``rounds`` random legal building rounds from setup.

    Each round places the revealed tile at a uniformly random legal placement
    (no substitution; a round with no legal placement places nothing).  Returns
    the garden at the start of the next round (its card revealed, or ``tile``
    None when the deck is exhausted) and, per round, how many legal placements
    there were (None for a skipped card).
    """
    if rounds < 0:
        raise UsageError("expected a number of rounds >= 0", text=str(rounds))
    g, deck = new_garden(edition, seed)
    if rounds > len(deck):
        raise UsageError(f"expected at most {len(deck)} rounds (the deck has {len(deck)} cards)", text=str(rounds))
    rng = random.Random(f"hedge-mage/random/{seed}")
    counts: list[int | None] = []
    for k in range(rounds):
        tile = edition.tiles[deck[k]]
        en = legal_placements(g, tile, Board(g))
        counts.append(len(en.placements))
        if en.placements:
            p = en.placements[rng.randrange(len(en.placements))]
            g = apply_placement(g, edition, p)
        nxt = deck[k + 1] if k + 1 < len(deck) else None
        g = replace(g, round=k + 2, tile=nxt)
    return g, counts
