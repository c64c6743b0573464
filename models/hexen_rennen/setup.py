"""Setting up a Hexen Rennen game and reaching mid-game positions by random legal play.

Everything random takes an explicit seed and uses ``random.Random``, whose
shuffles are the same on every machine for the same seed.
"""

from __future__ import annotations

import random
from collections import Counter

from gnomekit.models.core.errors import UsageError
from gnomekit.models.hexen_rennen.edition import SYMBOL, HexenEdition, small_int
from gnomekit.models.hexen_rennen.position import Position, Tile, card_name
from gnomekit.models.hexen_rennen.turn import Node, Option, Played, Rules, drive, movable_witches

Split = tuple[tuple[int, ...], ...]  # one clan's tiles per stage


def random_split(edition: HexenEdition, rng: random.Random) -> Split:
    """A clan's secret choice: tiles_per_stage tiles per stage, symbols_per_stage of them symbols."""
    nums = list(edition.numbers)
    rng.shuffle(nums)
    k = edition.tiles_per_stage - edition.symbols_per_stage
    return tuple(tuple(sorted((SYMBOL,) * edition.symbols_per_stage + tuple(nums[s * k:(s + 1) * k])))
                 for s in range(edition.stages))


def check_split(edition: HexenEdition, clan: str, split: Split) -> None:
    """Raise UsageError unless ``split`` uses the clan's tiles exactly, with the right symbols per stage."""
    if len(split) != edition.stages:
        raise UsageError(f"split of {clan}: expected {edition.stages} stages, got {len(split)}")
    for s, tiles in enumerate(split, start=1):
        if len(tiles) != edition.tiles_per_stage or tiles.count(SYMBOL) != edition.symbols_per_stage:
            raise UsageError(f"split of {clan}, stage {s}: expected {edition.tiles_per_stage} tiles with "
                             f"{edition.symbols_per_stage} symbol(s), got {' '.join(map(card_name, tiles))}")
    used = Counter(t for st in split for t in st)
    if used != Counter(edition.full_set()):
        raise UsageError(f"split of {clan}: must use each of the clan's tiles once "
                         f"({' '.join(map(card_name, edition.full_set()))})")


def parse_split(text: str, edition: HexenEdition, label: str = "split") -> tuple[str, Split]:
    """``CLAN=S,2,3,4/S,5,6,7/S,8,9,10`` -> (clan, split); ``label`` names the input in messages."""
    if "=" not in text:
        raise UsageError(f"expected CLAN=TILES/TILES/TILES, e.g. weather=S,2,3,4/S,5,6,7/S,8,9,10; got {text!r}")
    clan, rest = text.split("=", 1)
    if clan not in edition.clan_ids:
        raise UsageError(f"unknown clan {clan!r} in {label} (clans: {', '.join(edition.clan_ids)})")
    stages = []
    for part in rest.split("/"):
        vals = []
        for tok in part.split(","):
            tok = tok.strip()
            if tok.upper() == "S":
                vals.append(SYMBOL)
            elif (n := small_int(tok)) is not None and n in edition.numbers:
                vals.append(n)
            else:
                raise UsageError(f"{label} {clan}: {tok!r} is not a tile (a number or S)")
        stages.append(tuple(sorted(vals)))
    split = tuple(stages)
    check_split(edition, clan, split)
    return clan, split


def players_of(edition: HexenEdition, players: int | tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(players, int):
        if not edition.min_players <= players <= edition.max_players:
            raise UsageError(f"players must be {edition.min_players}..{edition.max_players}, got {players}")
        return edition.clan_ids[:players]
    return tuple(players)


def new_position(edition: HexenEdition, players: int | tuple[str, ...] = 4, seed: int = 0,
                 splits: dict[str, Split] | None = None) -> Position:
    """A game at setup: the stages laid face down, every witch at the start, full hands, neutral decks shuffled."""
    clans = players_of(edition, players)
    rng = random.Random(f"hexen-rennen/{seed}")
    splits = dict(splits or {})
    for c, sp in splits.items():
        check_split(edition, c, sp)
    per_clan = {c: splits[c] if c in splits else random_split(edition, rng) for c in edition.clan_ids}
    track: list[Tile] = []
    for s in range(edition.stages):
        stage = [Tile(c, v, False) for c in edition.clan_ids for v in per_clan[c][s]]
        rng.shuffle(stage)
        track += stage
    hands = []
    for c in edition.clan_ids:
        cards = list(edition.full_set())
        if c not in clans:
            rng.shuffle(cards)
        hands.append((c, tuple(cards)))
    witches = tuple((c, (0,) * edition.witches) for c in clans)
    return Position(track=tuple(track), players=clans, to_move=clans[0], witches=witches, hands=tuple(hands),
                    edition=edition.name)


def random_turn(pos: Position, edition: HexenEdition, rng: random.Random, rules: Rules | None = None) -> Played:
    """Roll, move a uniformly random movable witch, decide uniformly at random along the chain."""
    roll = rng.choice(edition.die)
    can = [o for o, t, _ in movable_witches(pos, edition, roll, rules) if t is not None]
    witch = rng.choice(can) if can else None

    def decide(turn: object, st: object, node: Node) -> Option:
        return node.options[rng.randrange(len(node.options))]

    return drive(pos, edition, roll, witch, decide, rules)


def random_position(edition: HexenEdition, seed: int = 0, players: int | tuple[str, ...] = 4, turns: int = 12,
                    rules: Rules | None = None) -> tuple[Position, list[Played]]:
    """The position after ``turns`` random legal turns from ``new_position`` (fewer if the game ends)."""
    if turns < 0:
        raise UsageError("turns must be 0 or more")
    pos = new_position(edition, players, seed)
    rng = random.Random(f"hexen-rennen/random/{seed}")
    played: list[Played] = []
    for _ in range(turns):
        if pos.finished_clans(edition):
            break
        p = random_turn(pos, edition, rng, rules)
        played.append(p)
        pos = p.final
    return pos, played
