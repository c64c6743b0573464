"""Rescue tracks, favourite gnome cards, end of game, final scoring and the tie-break.

The "Gnome Sweet Gnome" board has, per gnome kind, a row of spaces filled left
to right as gnomes of that kind are rescued; each space shows points (the
rightmost filled space scores for that kind) and a rescue bonus (a movement
token, a springshroom token, a bonus sigil token, or nothing).  All numbers
come from the edition (``[rescue]``, ``[scoring]``, ``[[favourites]]``,
``[end_of_game]``, and the enchantment ``condition`` keys), parsed here into
:class:`RunningRules` so the building-phase edition loader needs one call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gnomekit.models.hedge_mage.enchantments import Cond, parse_condition

BONUSES = ("movement", "springshroom", "sigil", "none")


@dataclass(frozen=True)
class TrackSpace:
    points: int
    bonus: str  # one of BONUSES


@dataclass(frozen=True)
class Favourite:
    """A favourite gnome card: points for matching gnomes left in your own garden."""

    id: str
    name: str
    kind: str
    per_gnome: int
    all_bonus: int = 0  # extra when every gnome of that kind is still in your garden


@dataclass(frozen=True)
class RunningRules:
    """The edition's data for maze running and scoring."""

    conditions: dict[str, Cond] = field(default_factory=dict)  # enchantment id -> condition
    tracks: dict[str, tuple[TrackSpace, ...]] = field(default_factory=dict)  # kind -> spaces
    garden_gnome_points: int = 2
    awake_rival_points: int = 1
    favourites: tuple[Favourite, ...] = ()
    end_when_all_rescued: bool = True
    max_rounds: int | None = None  # None: the number of hedge cards dealt (deck - removed)

    def track_points(self, kind: str, rescued: int) -> int:
        """Points of the rightmost filled space of ``kind`` (0 when none is filled)."""
        spaces = self.tracks.get(kind, ())
        if rescued <= 0 or not spaces:
            return 0
        return spaces[min(rescued, len(spaces)) - 1].points

    def bonus(self, kind: str, index: int) -> str:
        """The rescue bonus of the ``index``-th (0-based) space of ``kind`` (``none`` past the end)."""
        spaces = self.tracks.get(kind, ())
        return spaces[index].bonus if index < len(spaces) else "none"

    def favourite(self, ident: str) -> Favourite:
        for f in self.favourites:
            if f.id == ident:
                return f
        raise KeyError(ident)


def parse_running_rules(data: Mapping[str, Any], kinds: tuple[str, ...], per_kind: int,
                        problem: Any) -> RunningRules:
    """Read the running tables of an edition; ``problem(message, *needles)`` records an error."""
    conds: dict[str, Cond] = {}
    raw_cards = data.get("enchantments", [])
    extra = data.get("conditions", {})
    if not isinstance(extra, dict):
        problem("'conditions' must be a table id = { condition }", "conditions")
        extra = {}
    ids = set()
    if isinstance(raw_cards, list):
        for e in raw_cards:
            if not isinstance(e, dict) or "id" not in e:
                continue
            ident = str(e["id"])
            ids.add(ident)
            raw = e.get("condition", extra.get(ident))
            if raw is None:
                continue
            c, probs = parse_condition(raw, kinds, f"enchantment {ident}: condition")
            for p in probs:
                problem(p, ident)
            if c is not None:
                conds[ident] = c
    for ident in extra:
        if ident not in ids:
            problem(f"conditions: no enchantment card with id {ident!r}", ident)
    tracks: dict[str, tuple[TrackSpace, ...]] = {}
    rescue = data.get("rescue", {})
    if not isinstance(rescue, dict):
        problem("'rescue' must be a table kind = [spaces]", "rescue")
        rescue = {}
    for kind, spaces in rescue.items():
        if kind not in kinds:
            problem(f"rescue: unknown gnome kind {kind!r}", kind)
            continue
        out: list[TrackSpace] = []
        if not isinstance(spaces, list):
            problem(f"rescue.{kind}: expected a list of {{ points = N, bonus = \"...\" }}", kind)
            continue
        for i, s in enumerate(spaces):
            pts = s.get("points") if isinstance(s, dict) else None
            bonus = s.get("bonus", "none") if isinstance(s, dict) else None
            if not isinstance(pts, int) or isinstance(pts, bool) or pts < 0 or bonus not in BONUSES:
                problem(f"rescue.{kind}[{i}]: expected {{ points = N >= 0, bonus = one of {', '.join(BONUSES)} }}"
                        f", got {s!r}", kind)
                continue
            out.append(TrackSpace(pts, str(bonus)))
        if rescue and len(out) < per_kind:
            problem(f"rescue.{kind}: {len(out)} spaces for {per_kind} gnomes of that kind", kind)
        tracks[kind] = tuple(out)
    if rescue:
        for kind in kinds:
            if kind not in rescue:
                problem(f"rescue: no track for {kind} gnomes", "[rescue]")
    sc = data.get("scoring", {})
    if not isinstance(sc, dict):
        problem("'scoring' must be a table", "scoring")
        sc = {}

    def num(key: str, default: int) -> int:
        v = sc.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            problem(f"scoring.{key} must be a whole number >= 0, got {v!r}", key)
            return default
        return v

    favs: list[Favourite] = []
    raw_favs = data.get("favourites", [])
    if not isinstance(raw_favs, list):
        problem("'favourites' must be [[favourites]] tables", "favourites")
        raw_favs = []
    for i, f in enumerate(raw_favs):
        if (not isinstance(f, dict) or not isinstance(f.get("id"), str) or f.get("kind") not in kinds
                or not isinstance(f.get("per_gnome", 0), int) or not isinstance(f.get("all_bonus", 0), int)):
            problem(f"favourites[{i}]: needs id, a gnome kind, per_gnome and all_bonus (whole numbers)",
                    "[[favourites]]")
            continue
        favs.append(Favourite(f["id"], str(f.get("name", f["id"])), f["kind"], int(f.get("per_gnome", 0)),
                              int(f.get("all_bonus", 0))))
    end = data.get("end_of_game", {})
    if not isinstance(end, dict):
        problem("'end_of_game' must be a table", "end_of_game")
        end = {}
    all_resc = end.get("all_rescued", True)
    if not isinstance(all_resc, bool):
        problem("end_of_game.all_rescued must be true or false", "all_rescued")
        all_resc = True
    mr = end.get("max_rounds")
    if mr is not None and (not isinstance(mr, int) or isinstance(mr, bool) or mr < 1):
        problem("end_of_game.max_rounds must be a whole number >= 1", "max_rounds")
        mr = None
    return RunningRules(conditions=conds, tracks=tracks, garden_gnome_points=num("garden_gnome", 2),
                        awake_rival_points=num("awake_in_rival_garden", 1), favourites=tuple(favs),
                        end_when_all_rescued=all_resc, max_rounds=mr)


# ---------------------------------------------------------------------------------------------
# Final scoring


@dataclass(frozen=True)
class ScoreBreakdown:
    """One player's final score, term by term."""

    tracks: dict[str, int]  # kind -> points of the rightmost rescued gnome
    garden: int  # gnomes left in the own garden x garden_gnome_points
    favourite: int
    awake_rival: int  # awake gnomes left in the rival's garden
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"tracks": self.tracks, "garden": self.garden, "favourite": self.favourite,
                "awake_in_rival_garden": self.awake_rival, "total": self.total}


def final_score(rules: RunningRules, rescued: Mapping[str, int], own_garden_kinds: list[str],
                awake_in_rival: int, favourite: str | None = None, per_kind: int = 4) -> ScoreBreakdown:
    """The final-scoring total (rulebook "Final Scoring"), from the edition's numbers.

    ``own_garden_kinds`` lists the kind of every gnome still in the player's own garden;
    ``favourite`` is the id of the player's favourite gnome card (None: not counted).
    """
    tr = {k: rules.track_points(k, n) for k, n in rescued.items()}
    garden = rules.garden_gnome_points * len(own_garden_kinds)
    fav = 0
    if favourite is not None:
        f = rules.favourite(favourite)
        n = sum(1 for k in own_garden_kinds if k == f.kind)
        fav = f.per_gnome * n + (f.all_bonus if n >= per_kind else 0)
    awake = rules.awake_rival_points * awake_in_rival
    return ScoreBreakdown(tr, garden, fav, awake, sum(tr.values()) + garden + fav + awake)


def winners(totals: Mapping[str, int], tokens: Mapping[str, int]) -> tuple[list[str], str]:
    """Who wins: most points, then most movement tokens; still tied: a shared win.

    (The rulebook's last tie-break, "the shortest player wins", is a joke and not modelled.)
    Returns the winners and how the result was decided.
    """
    best = max(totals.values())
    top = [p for p, v in totals.items() if v == best]
    if len(top) == 1:
        return top, "most points"
    most = max(tokens.get(p, 0) for p in top)
    top2 = [p for p in top if tokens.get(p, 0) == most]
    if len(top2) == 1:
        return top2, "tie on points, most movement tokens"
    return top2, "tie on points and movement tokens: shared win"


def game_over(rules: RunningRules, round_: int, cards_dealt: int, rescued_all: bool) -> bool:
    """End of round check: all hedge cards revealed, or someone rescued every rival gnome."""
    limit = rules.max_rounds if rules.max_rounds is not None else cards_dealt
    return round_ >= limit or (rules.end_when_all_rescued and rescued_all)
