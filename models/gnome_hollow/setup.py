"""Setting up a Gnome Hollow table and playing random turns.

Everything random takes an explicit seed and uses ``random.Random`` (the same shuffles on every
machine for the same seed).
"""

from __future__ import annotations

import random

from gnomekit.models.core.errors import UsageError
from gnomekit.models.gnome_hollow.edition import GnomeHollowEdition
from gnomekit.models.gnome_hollow.position import OPTION_VALUES, RULE_OPTIONS, VARIANTS, Gnome, PlayerState, Position

PLAYER_NAMES = ("red", "blue", "green", "yellow", "purple", "orange")


def variant_options(edition: GnomeHollowEdition, variants: tuple[str, ...] | list[str],
                    source: str = "variants") -> dict[str, str]:
    """The position options that switch on the named variant boards (``advanced-board``, ``trade-board``)
    and the rule readings given as ``NAME=VALUE`` (:data:`RULE_OPTIONS`, e.g. ``claim=path``);
    ``source`` names where the names came from in a mistake's message."""
    out: dict[str, str] = {}
    for v in variants:
        if "=" in v:
            key, value = rule_option(v, source)
            out[key] = value
            continue
        if v not in VARIANTS:
            raise UsageError(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})", source=source, text=v)
        if v == "advanced-board" and not edition.advanced_columns:
            raise UsageError(f"edition {edition.name} has no [[advanced_board.columns]]", source=source, text=v)
        if v == "trade-board" and not edition.trades:
            raise UsageError(f"edition {edition.name} has no [trade_board]", source=source, text=v)
        key, value = VARIANTS[v]
        out[key] = value
    return out


def rule_option(text: str, source: str = "rule") -> tuple[str, str]:
    """``NAME=VALUE`` -> (option, value) for a rule reading (:data:`RULE_OPTIONS`); UsageError otherwise."""
    key, _, value = text.partition("=")
    key = key.strip().replace("-", "_")
    value = value.strip()
    if key not in RULE_OPTIONS:
        raise UsageError(f"unknown rule {key!r} (known: {', '.join(RULE_OPTIONS)})", source=source, text=text)
    if value not in OPTION_VALUES[key]:
        raise UsageError(f"rule {key} must be one of {', '.join(OPTION_VALUES[key])}, not {value!r}",
                         source=source, text=text)
    return key, value


def new_position(edition: GnomeHollowEdition, players: int = 2, seed: int = 0,
                 names: tuple[str, ...] | None = None, options: dict[str, str] | None = None) -> Position:
    """The table at setup: 8 tiles offered, 2 per player set aside under the Sunset tile, the rest
    in the bag; flower tokens on their wildflower tiles (2 players: two colours go to the flower
    market and their tiles to the box; one market token of each colour but purple leaves).
    ``options`` are position options, e.g. :func:`variant_options` for the variant boards."""
    if not edition.players_min <= players <= edition.players_max:
        raise UsageError(f"players must be {edition.players_min}-{edition.players_max}, got {players}")
    names = names or PLAYER_NAMES[:players]
    if len(names) != players or len(set(names)) != players:
        raise UsageError("give one distinct name per player")
    rng = random.Random(f"gnome-hollow/{seed}")
    bag = list(edition.tiles)
    rng.shuffle(bag)
    offered = bag[: edition.offered]
    sunset = bag[edition.offered: edition.offered + edition.set_aside_per_player * players]
    rest = bag[edition.offered + edition.set_aside_per_player * players:]
    supply = {w: players for w in edition.wildflowers}
    flower_market: dict[str, int] = {}
    tokens = dict(edition.market_tokens)
    if players == 2:
        removed = rng.sample(sorted(edition.wildflowers), min(edition.two_player_remove_flowers, len(supply)))
        for w in sorted(removed):
            flower_market[edition.tile(w).flower or ""] = supply.pop(w)
        for c, n in edition.two_player_remove_tokens.items():
            tokens[c] = max(0, tokens.get(c, 0) - n)
    return Position(
        players=tuple(PlayerState(n) for n in names),
        to_move=0,
        gnomes=tuple(Gnome(n) for n in names for _ in range(edition.gnomes)),
        offered=tuple(offered),
        bag=tuple(rest),
        sunset=tuple(sunset),
        market_tokens=tokens,
        flower_market=flower_market,
        wildflower_supply=supply,
        signposts=tuple(edition.signposts),
        options=dict(options or {}),
        edition=edition.name,
    )


def random_position(edition: GnomeHollowEdition, seed: int, turns: int, players: int = 2,
                    options: dict[str, str] | None = None) -> Position:
    """A table after ``turns`` random legal turns from setup (see models.gnome_hollow.scoring.random_turn);
    after the end of the game is triggered and the round is finished a turn is a final gnome action, and
    once the game is over no more turns are played."""
    from gnomekit.models.gnome_hollow.scoring import random_turn

    if turns < 0:
        raise UsageError(f"turns must be 0 or more, not {turns}")
    pos = new_position(edition, players, seed, options=options)
    rng = random.Random(f"gnome-hollow/random/{seed}")
    for _ in range(turns):
        if pos.phase == "over":  # the game has ended: no more turns
            break
        pos = random_turn(pos, edition, rng)
    return pos
