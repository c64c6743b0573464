"""Write docs/schemas/*.schema.json, the JSON Schemas of the position formats: python docs/make_schemas.py

tests/test_schemas.py checks the files are what this script writes, and real output against them.
"""
import json
from pathlib import Path

HERE = Path(__file__).parent / "schemas"
D = "https://json-schema.org/draft/2020-12/schema"


def cell(lo=0):
    return {"type": "array", "prefixItems": [{"type": "integer", "minimum": lo}, {"type": "integer", "minimum": lo}],
            "items": False, "minItems": 2}


def cells(lo=0):
    return {"type": "array", "items": cell(lo)}


def nat(lo=0, hi=None):
    d = {"type": "integer", "minimum": lo}
    if hi is not None:
        d["maximum"] = hi
    return d


def obj(props, required=None, extra=False):
    return {"type": "object", "properties": props, "required": sorted(required if required is not None else props),
            "additionalProperties": extra}


STR = {"type": "string"}
STRS = {"type": "array", "items": STR}
BOOL = {"type": "boolean"}
WARN = {"type": "array", "items": STR, "description": "written by `show --json` only; ignored when read"}
FORMAT = {"const": 1, "description": "the format version (optional when read; missing = 1)"}

hedge = obj({"tile": STR, "cells": {"type": "array", "items": cell(), "minItems": 1}, "sigil": cell()})
garden_props = {
    "game": {"const": "hedge-mage"}, "format": FORMAT, "edition": STR,
    "rows": nat(1, 64), "cols": nat(1, 64), "round": nat(1), "tile": {"type": ["string", "null"]},
    "remaining_tiles": STRS, "substitution_used": BOOL, "kept_tile": {"type": ["string", "null"]},
    "held_bonus_sigils": nat(), "hedges": {"type": "array", "items": hedge}, "bonus_sigils": cells(),
    "tunnels": cells(), "gnomes": {"type": "array", "items": obj({"kind": STR, "at": cell(), "awake": BOOL})},
    "mages": {"type": "array", "items": obj({"at": cell(), "owner": STR}, required=["at"])},
    "springshrooms": cells(), "warnings": WARN,
}
SCHEMAS = {}
SCHEMAS["hedge-mage-garden"] = {
    "title": "Hedge Mage garden (docs/formats.md#the-garden-as-json)",
    **obj(garden_props, required=[k for k in garden_props if k != "warnings"])}
run_gnome = obj({"kind": STR, "at": cell(), "awake": BOOL, "carried_by": nat(1), "moved": nat()},
                required=["kind", "at", "awake"])
COUNT = nat(0, 999)
run_props = {
    "game": {"const": "hedge-mage"}, "format": FORMAT, "phase": {"const": "run"}, "edition": STR,
    "rows": nat(1, 64), "cols": nat(1, 64), "round": nat(1), "enchantments": STRS,
    "points": COUNT, "spent": COUNT, "tokens": COUNT, "springshroom_tokens": COUNT, "sigil_tokens": COUNT,
    "rescued": {"type": "object", "additionalProperties": COUNT}, "moved_rescued": STRS,
    "hedges": {"type": "array", "items": hedge}, "bonus_sigils": cells(), "tunnels": cells(),
    "springshrooms": cells(), "mages": {"type": "array", "items": obj({"at": cell(), "used": COUNT})},
    "gnomes": {"type": "array", "items": run_gnome}, "warnings": WARN,
    "woke_at_start": {"type": "array", "items": {"type": "object"},
                      "description": "written by `show --json` only: the wake-ups settled at the start"},
}
SCHEMAS["hedge-mage-run"] = {
    "title": "Hedge Mage running position (docs/formats-hedge-mage-running.md#json)",
    **obj(run_props, required=[k for k in run_props if k not in ("warnings", "woke_at_start")])}
per = lambda v: obj({"green": v, "blue": v})  # noqa: E731
terrain_word = {"enum": ["grass", "tulips", "cobblestone"]}
mid_props = {
    "game": {"const": "gnomes-at-midnight"}, "format": FORMAT, "edition": STR,
    "rows": nat(1, 64), "cols": nat(1, 64),
    "terrain": {"type": "array", "items": {"type": "string", "pattern": "^[GTC]+$"}, "minItems": 1},
    "flowers": per(cells()), "toadstools": cells(), "gnomes": per(cells()), "off_board": per(nat()),
    "to_move": {"enum": ["green", "blue"]}, "moon": per({"oneOf": [terrain_word, {"type": "null"}]}),
    "decks": per({"type": "array", "items": terrain_word}),
    "decks_unknown": per({"type": "array", "items": terrain_word}),
    "dance": cells(), "turn": nat(1), "bump_limit": nat(1), "moon_restricts_adding": BOOL,
    "after_move": {"const": True, "description": "the game protocol's afterstate (written only then)"},
    "warnings": WARN,
    "assumed": {"type": "array", "items": STR,
                "description": "written by `show --json` only: what was assumed (e.g. the deck orders)"},
}
SCHEMAS["gnomes-at-midnight-position"] = {
    "title": "Gnomes at Midnight position (docs/formats-gnomes-at-midnight.md#position-json)",
    **obj(mid_props, required=[k for k in mid_props if k not in ("after_move", "warnings", "assumed")])}
card = {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "symbol"}]}
hex_props = {
    "game": {"const": "hexen-rennen"}, "format": FORMAT, "edition": STR,
    "players": {"type": "array", "items": STR, "minItems": 1}, "to_move": STR,
    "track": {"type": "array", "items": obj({"clan": STR, "value": card, "face_up": BOOL})},
    "witches": {"type": "object", "additionalProperties": {"type": "array", "items": nat()}},
    "hands": {"type": "object", "additionalProperties": {"type": "array", "items": card}},
    "neutral": {"type": "array", "items": STR, "description": "output only: the clans nobody plays"},
    "scores": {"type": "object", "additionalProperties": {"type": "integer"}, "description": "output only"},
    "legend": {"type": "object", "description": "output only"},
    "result": {"type": "string", "description": "output only, a finished race: who won, in words"},
    "winners": {"type": "array", "items": STR,
                "description": "output only, a finished race: the clans with the top score"},
    "warnings": WARN,
    "roll": {"type": "integer", "minimum": 1, "description": "a turn in progress: the die's roll"},
    "turn": {**obj({"witch": {"type": ["integer", "null"], "minimum": 0},
                    "decisions": {"type": "array", "items": obj({"clan": STR, "play": {
                        "oneOf": [{"const": "stop"}, card]}})}}),
             "description": "a turn in progress: the witch and the chain decisions so far"},
}
SCHEMAS["hexen-rennen-position"] = {
    "title": "Hexen Rennen position (docs/formats-hexen-rennen.md#json)",
    **obj(hex_props, required=["game", "format", "edition", "players", "to_move", "track", "witches", "hands"])}

hexcell = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}], "items": False, "minItems": 2}
pathref = obj({"cell": hexcell, "path": nat()})
counts = {"type": "object", "additionalProperties": nat()}
hollow_player = obj({
    "name": STR, "mushrooms": counts, "treasures": counts, "flowers": STRS,
    "rings": {"type": "array",  # ring board spaces [SIZE, ROW], as notation.py writes and reads them
              "items": {"type": "array", "prefixItems": [nat(1), nat(1)], "items": False, "minItems": 2}},
    "storage": STRS,
    "gnomes": {"type": "array", "items": obj({"at": {"oneOf": [{"type": "null"}, STR, pathref]}, "down": BOOL})},
})
score_row = {"type": "object", "properties": {"player": STR, "total": {"type": "integer"}, "rank": nat(1)},
             "required": ["player", "total"]}
hollow_props = {
    "game": {"const": "gnome-hollow"}, "format": FORMAT, "edition": STR,
    "options": {"type": "object", "additionalProperties": {"type": ["string", "boolean", "integer"]}},
    "to_move": {"type": ["string", "null"]},
    "tiles": {"type": "array", "items": obj({
        "tile": STR, "cell": hexcell, "orientation": nat(0, 11),
        "same_turn": {**BOOL, "description": "laid in the same turn as the tile before it (option ring_check=turn; "
                      "written only when true)"}}, required=["cell", "orientation", "tile"])},
    "offered": STRS, "bag": STRS, "sunset": STRS,
    "phase": {"enum": ["play", "end-triggered", "final-actions", "over"]},
    "final_actions": {**nat(), "description": "written only in the final-actions phase"},
    "end_triggered": {**BOOL, "description": "read only: files written before `phase` existed"},
    "market": {"type": "object", "additionalProperties": STRS}, "market_tokens": counts,
    "flower_market": counts, "wildflower_supply": counts, "signposts": STRS,
    "placed_signposts": {"type": "array", "items": obj({"signpost": STR, "ring": pathref})},
    "pots": {"type": "array", "items": obj({"ring": pathref, "mushrooms": counts})},
    "players": {"type": "array", "items": hollow_player},
    "turn": {"type": "array", "items": STR, "description": "a turn in progress: its moves so far"},
    "warnings": WARN,
    "rings": {"type": "array", "description": "written by `show --json` only: the closed rings"},
    "open_networks": {"type": "array", "description": "written by `show --json` only"},
    "scores": {"type": "array", "items": score_row, "description": "written by `show --json` only"},
    "winners": {"type": ["array", "null"], "items": STR, "description": "written by `show --json` only"},
}
SCHEMAS["gnome-hollow-position"] = {
    "title": "Gnome Hollow position (docs/formats-gnome-hollow.md#json-position)",
    **obj(hollow_props, required=[k for k in hollow_props if k not in (
        "final_actions", "end_triggered", "turn", "warnings", "rings", "open_networks", "scores", "winners")])}

for name, body in SCHEMAS.items():
    doc = {"$schema": D, "$id": f"https://gnomekit.example/schemas/{name}.schema.json", **body}
    (HERE / f"{name}.schema.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
