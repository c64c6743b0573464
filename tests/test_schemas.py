"""docs/schemas/*.schema.json: the JSON Schemas of the position formats, checked against real output.

Every position that gnomekit writes as JSON (``to_json``, ``new/random/show --json``, mid-turn positions
of the game protocol) validates; the schemas name exactly the keys the readers accept (so schema and
reader cannot drift apart); and a schema rejects what the reader rejects for a missing or mistyped key.
"""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema")

from gnomekit.models.gnome_hollow import notation as hollow_notation  # noqa: E402
from gnomekit.models.gnomes_at_midnight import notation as mid_notation  # noqa: E402
from gnomekit.models.hedge_mage import notation as hedge_notation  # noqa: E402
from gnomekit.models.hedge_mage import running_notation  # noqa: E402
from gnomekit.models.hedge_mage.edition import default_edition  # noqa: E402
from gnomekit.models.hexen_rennen import notation as hexen_notation  # noqa: E402

import gnomekit  # noqa: E402
from gnomekit.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "schemas"
EXAMPLES = ROOT / "docs" / "examples"
GAME_SCHEMA = {"hedge-mage": "hedge-mage-garden", "gnomes-at-midnight": "gnomes-at-midnight-position",
               "hexen-rennen": "hexen-rennen-position", "gnome-hollow": "gnome-hollow-position"}


@functools.cache
def schema(name: str) -> Any:
    """The validator of ``docs/schemas/NAME.schema.json``, itself checked against the meta-schema (once a
    worker: the check is most of a validation's time)."""
    doc = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator(doc)


def errors(name: str, data: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in schema(name).iter_errors(data)]


def cli_json(argv: list[str]) -> Any:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(argv)
    assert code in (0, 1), argv
    return json.loads(out.getvalue())


def test_the_schema_files_are_what_make_schemas_writes(tmp_path: Path) -> None:
    before = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.schema.json")}
    subprocess.run([sys.executable, str(ROOT / "docs" / "make_schemas.py")], check=True)
    after = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.schema.json")}
    assert after == before, "docs/schemas is stale: run python docs/make_schemas.py"


def _validate_playouts(name: str, seeds: int, steps: int) -> None:
    g = gnomekit.game(name)
    for pos in [g.new(), *(g.random(seed=s) for s in range(seeds))]:
        assert errors(GAME_SCHEMA[name], pos.to_json()) == []
        # along a playout: every position the protocol writes, mid-turn ones included
        p = pos
        for step in range(steps):
            if p.is_terminal():
                break
            outcomes = p.chance_outcomes() if p.current_player() == gnomekit.CHANCE else None
            move = outcomes[step % len(outcomes)][0] if outcomes else p.legal_moves()[step % len(p.legal_moves())]
            p = p.apply(move)
            assert errors(GAME_SCHEMA[name], p.to_json()) == [], p.to_text()


@pytest.mark.parametrize("name", list(GAME_SCHEMA))
def test_every_written_position_validates(name: str) -> None:
    _validate_playouts(name, seeds=3, steps=16)


@pytest.mark.slow
@pytest.mark.ci  # CI too: it found (2026-12-08) that the schema said strings where Gnome Hollow writes ring numbers
@pytest.mark.parametrize("name", list(GAME_SCHEMA))
def test_every_written_position_validates_many(name: str) -> None:
    _validate_playouts(name, seeds=40, steps=60)


@pytest.mark.parametrize(("argv", "name"), [
    (["hedge-mage", "new", "--seed", "4", "--json"], "hedge-mage-garden"),
    (["hedge-mage", "random", "--seed", "4", "--round", "6", "--json"], "hedge-mage-garden"),
    (["hedge-mage", "show", str(EXAMPLES / "small.txt"), "--json"], "hedge-mage-garden"),
    (["hedge-mage", "show", str(EXAMPLES / "stuck.txt"), "--json"], "hedge-mage-garden"),
    (["hedge-mage", "show", str(EXAMPLES / "tiny-run.txt"), "--json"], "hedge-mage-run"),
    (["gnomes-at-midnight", "new", "--seed", "2", "--json"], "gnomes-at-midnight-position"),
    (["gnomes-at-midnight", "show", str(EXAMPLES / "midnight-mid.txt"), "--json"], "gnomes-at-midnight-position"),
    (["hexen-rennen", "random", "--seed", "3", "--json"], "hexen-rennen-position"),
    (["hexen-rennen", "show", str(EXAMPLES / "hexen-mid.txt"), "--json"], "hexen-rennen-position"),
    (["gnome-hollow", "random", "--seed", "5", "--turns", "60", "--players", "4", "--json"], "gnome-hollow-position"),
    (["gnome-hollow", "show", str(EXAMPLES / "hollow-mid.txt"), "--json"], "gnome-hollow-position"),
])
def test_cli_output_validates(argv: list[str], name: str) -> None:
    assert errors(name, cli_json(argv)) == []


def test_running_positions_from_to_run_validate(tmp_path: Path) -> None:
    ed = default_edition()
    for seed in range(6):
        g = tmp_path / "g.txt"
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["hedge-mage", "random", "--seed", str(seed), "--round", "3"]) == 0
        g.write_text(out.getvalue(), encoding="utf-8")
        data = cli_json(["hedge-mage", "to-run", str(g), "--points", "4", "--json"])
        run = data.get("position", data)
        assert errors("hedge-mage-run", run) == []
        pos = running_notation.read_run(json.dumps(run), "r.json", ed)
        assert errors("hedge-mage-run", running_notation.run_to_json(pos, ed)) == []


@pytest.mark.parametrize(("name", "accepted"), [
    ("hedge-mage-garden", hedge_notation.GARDEN_KEYS | {"warnings"}),
    ("hedge-mage-run", running_notation.RUN_JSON_KEYS),
    ("gnomes-at-midnight-position", {*mid_notation.POSITION_KEYS, *mid_notation.OUTPUT_ONLY_KEYS,
                                     mid_notation.AFTER_KEY}),
    ("hexen-rennen-position", {*hexen_notation.POSITION_KEYS, *hexen_notation.INFO_KEYS, "roll", "turn"}),
    ("gnome-hollow-position", {*hollow_notation.POSITION_KEYS, *hollow_notation.SHOW_KEYS,
                               *hollow_notation.PROTOCOL_JSON_KEYS}),
])
def test_a_schema_names_exactly_the_keys_its_reader_accepts(name: str, accepted: set[str]) -> None:
    doc = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert set(doc["properties"]) == set(accepted)
    assert doc["additionalProperties"] is False  # the readers refuse unknown keys too


@pytest.mark.parametrize("name", ["hedge-mage", "gnomes-at-midnight", "hexen-rennen", "gnome-hollow"])
def test_a_schema_rejects_a_broken_position(name: str) -> None:
    good = gnomekit.game(name).random(seed=1).to_json()
    sname = GAME_SCHEMA[name]
    assert errors(sname, {**good, "format": 2})
    assert errors(sname, {**good, "no_such_key": 1})
    assert errors(sname, {k: v for k, v in good.items() if k != "edition"})
    assert errors(sname, {**good, "game": "chess"})
    key = {"hedge-mage": "rows", "gnomes-at-midnight": "turn", "hexen-rennen": "players", "gnome-hollow": "tiles"}[name]
    assert errors(sname, {**good, key: "seven"})
