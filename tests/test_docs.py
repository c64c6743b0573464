"""The user documentation runs: every example in docs/ is checked against the code.

Conventions (also described in docs/README.md):

- A fenced block marked ``console`` holds commands, each on a line starting with
  ``$ gnomekit``.  The lines after a command, up to the next ``$`` line, are its
  expected output (stdout, then stderr).  Each command runs in-process through
  ``gnomekit.cli.main`` with the working directory docs/examples (or the
  repository root when the block is marked ``console cwd=repo``).  ``< FILE`` at
  the end of a command feeds FILE on standard input.
- Expected output: a last line ``[exit N]`` states the exit status (0 when
  absent).  A line ``...`` matches any number of lines; a line ending in
  ``...`` matches any line that starts with the text before it.  Blocks marked
  ``console slow`` run only with ``--runslow``.  No output lines means
  only the exit status is checked.  For a ``--json`` command, expected output
  that starts with ``{`` is compared as JSON: every key shown must be present
  with the value shown (objects are compared key by key, lists and other values
  exactly); keys not shown are not checked.
- ``garden`` blocks must parse as gardens (default edition, or the file given
  by ``edition=FILE``); ``json`` blocks must parse (a shortened example with
  ``...`` is not JSON: mark it ``text``), and ``json garden`` /
  ``json placement`` blocks must read as a garden / placement; ``toml edition``
  blocks must load as a Hedge Mage edition, other ``toml`` blocks must parse.
- A block marked ``file=NAME`` must equal docs/examples/NAME.
- docs/cli.md has a ``### GAME VERB`` section for every verb of every game
  naming each of its options, and a ``## tour`` section naming tour's options.
- Example files docs/examples/hollow-*, midnight-*, hexen-* are positions of
  those games; every other .txt/.json file there is a Hedge Mage garden or run.
- A ``text orientations=TILE`` block must equal the picture of that tile's eight
  orientations drawn from the default edition.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gnomekit.models.core.edition import parse_toml
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, default_edition, edition_from_toml, load_edition
from gnomekit.models.hedge_mage.notation import GARDEN_KEYS, parse_placement, read_garden
from gnomekit.models.hedge_mage.placement import ORIENTATION_NAMES

from gnomekit.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"


@dataclass
class Block:
    """One fenced code block of a Markdown file."""

    path: Path
    line: int  # line of the opening fence (1-based)
    lang: str
    attrs: dict[str, str]
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def md_files() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def fenced_blocks(path: Path) -> list[Block]:
    """Every fenced block (```lang attr=value ...) of a Markdown file."""
    out: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(```+)\s*(\S*)\s*(.*)$", lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang, rest = m.groups()
        attrs: dict[str, str] = {}
        for word in rest.split():
            k, _, v = word.partition("=")
            attrs[k] = v
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        out.append(Block(path, start + 1, lang, attrs, "\n".join(body) + "\n"))
        i += 1
    return out


def all_blocks(lang: str) -> list[Block]:
    return [b for p in md_files() for b in fenced_blocks(p) if b.lang == lang]


@dataclass
class Command:
    block: Block
    line: int
    argv: str
    expected: list[str]

    @property
    def id(self) -> str:
        return f"{self.block.path.relative_to(DOCS)}:{self.line}"


def console_commands() -> list[Command]:
    out: list[Command] = []
    for b in all_blocks("console"):
        cur: Command | None = None
        for k, line in enumerate(b.text.splitlines()):
            if line.startswith("$ "):
                cur = Command(b, b.line + 1 + k, line[2:].strip(), [])
                out.append(cur)
            elif cur is None:
                if line.strip():
                    raise AssertionError(f"{b.where}: output before any '$ gnomekit' command")
            else:
                cur.expected.append(line.rstrip())
    return out


COMMANDS = console_commands()


def run_cli(argv: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """Run one documented command in-process: (exit status, stdout, stderr)."""
    words = shlex.split(argv)
    assert words and words[0] == "gnomekit", f"only gnomekit commands are run, got {argv!r}"
    stdin_text = ""
    if len(words) >= 3 and words[-2] == "<":
        stdin_text = (cwd / words[-1]).read_text(encoding="utf-8")
        words = words[:-2]
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(words[1:])
        except SystemExit as exc:  # argparse: --help, usage errors
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    # progress lines on stderr are redrawn with '\r': keep what was last drawn
    err_lines = [ln.rsplit("\r", 1)[-1] for ln in err.getvalue().split("\n")]
    return status, out.getvalue(), "\n".join(x for x in err_lines if x.strip())


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line match where a line '...' stands for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(lines_match(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and line_match(expected[0], actual[0]) and lines_match(expected[1:], actual[1:])


def line_match(expected: str, actual: str) -> bool:
    """Equal lines; an expected line ending in '...' only has to be a prefix."""
    if expected.endswith("...") and expected.strip() != "...":
        return actual.startswith(expected[:-3])
    return expected == actual


def json_subset(shown: Any, actual: Any, path: str = "$") -> list[str]:
    """Differences between a documented JSON value and the real one (shown keys only)."""
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out: list[str] = []
        for k, v in shown.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing in the real output")
            else:
                out += json_subset(v, actual[k], f"{path}.{k}")
        return out
    return [] if shown == actual else [f"{path}: documented {shown!r}, real {actual!r}"]


@pytest.mark.parametrize(
    "cmd",
    [pytest.param(c, marks=pytest.mark.slow) if "slow" in c.block.attrs else c for c in COMMANDS],
    ids=[c.id for c in COMMANDS],
)
def test_console_example(cmd: Command, monkeypatch: pytest.MonkeyPatch) -> None:
    cwd = ROOT if cmd.block.attrs.get("cwd") == "repo" else EXAMPLES
    expected = list(cmd.expected)
    while expected and not expected[-1].strip():
        expected.pop()
    want_status = 0
    if expected and re.fullmatch(r"\[exit \d+\]", expected[-1].strip()):
        want_status = int(expected.pop().strip()[6:-1])
        while expected and not expected[-1].strip():
            expected.pop()
    status, out, err = run_cli(cmd.argv, cwd, monkeypatch)
    shown = f"$ {cmd.argv}\n--- stdout\n{out}--- stderr\n{err}\n--- exit {status}"
    assert status == want_status, f"{cmd.id}: exit status {status}, documented {want_status}\n{shown}"
    if not expected:
        return
    if "--json" in shlex.split(cmd.argv) and expected[0].lstrip().startswith("{"):
        doc = json.loads("\n".join(expected))
        real = json.loads(out)
        diffs = json_subset(doc, real)
        assert not diffs, f"{cmd.id}: JSON differs:\n  " + "\n  ".join(diffs) + "\n" + shown
        return
    actual = [ln.rstrip() for ln in out.splitlines()] + [ln.rstrip() for ln in err.splitlines()]
    while actual and not actual[-1]:
        actual.pop()
    assert lines_match(expected, actual), (
        f"{cmd.id}: output differs\n--- documented\n" + "\n".join(expected) + "\n" + shown
    )


def test_console_examples_exist() -> None:
    """The docs really hold runnable examples (a parser bug must not make this file pass empty)."""
    assert len(COMMANDS) >= 20
    files = {c.block.path.name for c in COMMANDS}
    assert {"cli.md", "formats.md", "hedge-mage.md"} <= files
    games = {shlex.split(c.argv)[1] for c in COMMANDS if c.block.path.name == "cli.md"}
    for long, short in GAMES.items():
        assert {long, short} & games, f"cli.md runs no {long} example"


def _edition_for(block: Block) -> HedgeMageEdition:
    name = block.attrs.get("edition")
    return load_edition(EXAMPLES / name) if name else default_edition()


GARDENS = all_blocks("garden")


@pytest.mark.parametrize("block", GARDENS, ids=[b.where for b in GARDENS])
def test_garden_block_parses(block: Block) -> None:
    read_garden(block.text, block.where, _edition_for(block))


JSONS = all_blocks("json")


@pytest.mark.parametrize("block", JSONS, ids=[b.where for b in JSONS])
def test_json_block_parses(block: Block) -> None:
    try:
        json.loads(block.text)
    except json.JSONDecodeError as exc:
        raise AssertionError(
            f"{block.where}: a ```json block must be valid JSON ({exc}); "
            "mark a shortened example ```text instead (conventions: docs/README.md)"
        ) from None
    if "garden" in block.attrs:
        read_garden(block.text, block.where, _edition_for(block))
    if "placement" in block.attrs:
        parse_placement(block.text, _edition_for(block), block.where)


TOMLS = all_blocks("toml")


@pytest.mark.parametrize("block", TOMLS, ids=[b.where for b in TOMLS])
def test_toml_block_loads(block: Block) -> None:
    tomllib.loads(block.text)
    if "edition" in block.attrs:
        edition_from_toml(parse_toml(block.text, block.where))
    if "puzzle" in block.attrs:  # must load, and the solvers must confirm its stored answer
        from gnomekit.solver.hedge_mage.puzzles import run_puzzle

        assert "file" in block.attrs, f"{block.where}: a puzzle block shows a file in docs/examples"
        outcome = run_puzzle(EXAMPLES / block.attrs["file"])
        assert outcome.solved and outcome.verified, f"{block.where}: {outcome.answer_text}\n{outcome.detail}"


def orientation_picture(tile_name: str) -> str:
    """The eight orientations of a default-edition tile, two rows of four pictures."""
    from gnomekit.models.core.grid import transform

    tile = default_edition().tiles[tile_name]
    pics: list[tuple[str, list[str]]] = []
    for i in range(8):
        offs = [transform((r - tile.sigil[0], c - tile.sigil[1]), i) for r, c in tile.cells]
        r0 = min(r for r, _ in offs)
        c0 = min(c for _, c in offs)
        h = max(r for r, _ in offs) - r0 + 1
        w = max(c for _, c in offs) - c0 + 1
        grid = [["."] * w for _ in range(h)]
        for r, c in offs:
            grid[r - r0][c - c0] = "#"
        grid[-r0][-c0] = "@"
        pics.append((f"{ORIENTATION_NAMES[i]} ({i})", ["".join(row) for row in grid]))
    out: list[str] = []
    for half in (pics[:4], pics[4:]):
        widths = [max(len(name), *(len(x) for x in pic)) for name, pic in half]
        height = max(len(pic) for _, pic in half)
        out.append("   ".join(n.ljust(w) for (n, _), w in zip(half, widths, strict=True)).rstrip())
        for k in range(height):
            out.append("   ".join((p[k] if k < len(p) else "").ljust(w)
                                  for (_, p), w in zip(half, widths, strict=True)).rstrip())
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def test_orientation_pictures() -> None:
    blocks = [b for b in all_blocks("text") if "orientations" in b.attrs]
    assert blocks, "formats.md should show one tile in all its orientations"
    for b in blocks:
        assert b.text.rstrip() + "\n" == orientation_picture(b.attrs["orientations"]), b.where


def tile_table(edition: HedgeMageEdition) -> str:
    """The edition's tile pictures, four to a line, as rules/hedge-mage.md shows them."""
    names = list(edition.tiles)
    pics = {n: _picture(edition, n) for n in names}
    out: list[str] = []
    for k in range(0, len(names), 4):
        group = names[k:k + 4]
        height = max(len(pics[n]) for n in group)
        for i in range(height):
            cols = [(n.ljust(4) if i == 0 else "    ") + (pics[n][i] if i < len(pics[n]) else "") for n in group]
            out.append("".join(c.ljust(16) for c in cols).rstrip())
    return "\n".join(out) + "\n"


def _picture(edition: HedgeMageEdition, name: str) -> list[str]:
    tile = edition.tiles[name]
    h = max(r for r, _ in tile.cells) + 1
    w = max(c for _, c in tile.cells) + 1
    rows = [["."] * w for _ in range(h)]
    for r, c in tile.cells:
        rows[r][c] = "#"
    rows[tile.sigil[0]][tile.sigil[1]] = "@"
    return ["".join(x) for x in rows]


def test_default_edition_as_documented() -> None:
    """rules/hedge-mage.md shows the default edition's tiles, numbered and shaded spaces."""
    ed = default_edition()
    blocks = [b for b in all_blocks("text") if b.attrs.get("tiles") == "default"]
    assert len(blocks) == 1
    assert blocks[0].text == tile_table(ed), blocks[0].where
    text = (DOCS / "rules" / "hedge-mage.md").read_text(encoding="utf-8")
    flat = " ".join(text.split())
    for i, (r, c) in enumerate(ed.numbered, start=1):
        assert f"{i} = `{r},{c}`" in flat
    for r, c in ed.shaded:
        assert f"`{r},{c}`" in flat
    assert f"{ed.rows} rows x {ed.cols} columns" in flat


def test_example_files_read() -> None:
    """Every example garden, edition and puzzle under docs/examples loads (bad-* files must not)."""
    ed = default_edition()
    files = sorted(EXAMPLES.iterdir())
    assert files
    for f in files:
        game = next((g for g, prefix in EXAMPLE_PREFIXES.items() if f.name.startswith(prefix)), None)
        if game is not None:
            _read_other_game_example(game, f)
        elif f.name.endswith("puzzle.toml"):
            from gnomekit.solver.hedge_mage.puzzles import load_puzzle

            load_puzzle(f)
        elif f.suffix == ".toml":
            if f.name.startswith("bad-"):
                with pytest.raises(ValueError):
                    load_edition(f)
            else:
                load_edition(f)
        elif f.suffix in (".txt", ".json"):
            text = f.read_text(encoding="utf-8")
            if _is_run(text):  # a maze running position
                from gnomekit.models.hedge_mage.running_notation import read_run

                read_run(text, f.name, ed)
            elif f.name.startswith("bad-"):
                with pytest.raises(ValueError):
                    read_garden(text, f.name, ed)
            else:
                read_garden(text, f.name, ed)


# Example files of the other games, by name prefix (module package name -> prefix).
EXAMPLE_PREFIXES = {"gnome_hollow": "hollow-", "gnomes_at_midnight": "midnight-", "hexen_rennen": "hexen-"}


def _read_other_game_example(game: str, f: Path) -> None:
    """A docs/examples position of another game reads with that game's default edition."""
    import importlib

    edition = importlib.import_module(f"models.{game}.edition")
    notation = importlib.import_module(f"models.{game}.notation")
    notation.read_position(f.read_text(encoding="utf-8"), f.name, edition.load_edition(None))


FILE_BLOCKS = [b for p in md_files() for b in fenced_blocks(p) if "file" in b.attrs]


@pytest.mark.parametrize("block", FILE_BLOCKS, ids=[b.where for b in FILE_BLOCKS])
def test_block_equals_example_file(block: Block) -> None:
    """A block marked file=NAME shows docs/examples/NAME exactly."""
    assert block.text == (EXAMPLES / block.attrs["file"]).read_text(encoding="utf-8"), block.where


def _is_run(text: str) -> bool:
    try:
        from gnomekit.models.hedge_mage.running_notation import is_run_text
    except ImportError:  # pragma: no cover - the running engine is optional
        return False
    return is_run_text(text)


def test_small_garden_text_and_json_agree() -> None:
    """formats.md says small.txt and small.json describe the same garden."""
    ed = default_edition()
    a = read_garden((EXAMPLES / "small.txt").read_text(encoding="utf-8"), "small.txt", ed)
    b = read_garden((EXAMPLES / "small.json").read_text(encoding="utf-8"), "small.json", ed)
    assert a == b


# The four games' commands and their short names, as docs/cli.md introduces them.
GAMES = {
    "hedge-mage": "hedge",
    "gnome-hollow": "hollow",
    "gnomes-at-midnight": "midnight",
    "hexen-rennen": "hexen",
}


def _subcommands(parser: Any) -> dict[str, Any]:
    """A parser's subcommands by their main name (aliases left out)."""
    import argparse

    group = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {c.dest: group.choices[c.dest] for c in group._choices_actions}


def _long_options(parser: Any) -> list[str]:
    return [o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"]


def test_cli_parser_has_the_documented_games() -> None:
    """The games the docs are written for are the ones the command has (a new game needs its docs)."""
    assert set(_subcommands(build_parser())) == set(GAMES) | {"tour", "serve", "puzzles"}


def cli_doc_gaps(text: str) -> list[str]:
    """What docs/cli.md (given as text) leaves out: a section per game verb naming each option, and tour's.

    An option counts as described when the verb's ``###`` section names it, or the introduction of the
    ``##`` chapter that holds the section does (options every verb of a game shares are described there).
    """
    sections: dict[str, tuple[str, str]] = {}  # title -> (its text, its chapter's introduction)
    for chapter in re.split(r"^## ", text, flags=re.M):
        intro, *subs = re.split(r"^### ", chapter, flags=re.M)
        sections[intro.split("\n", 1)[0].strip()] = (intro, "")
        for sub in subs:
            sections[sub.split("\n", 1)[0].strip()] = (sub, intro)
    missing: list[str] = []
    commands = _subcommands(build_parser())
    for game in GAMES:
        for name, p in _subcommands(commands[game]).items():
            if f"{game} {name}" not in sections:
                missing.append(f"no section '### {game} {name}'")
                continue
            sec, intro = sections[f"{game} {name}"]
            missing += [f"{game} {name}: option {opt} not described"
                        for opt in _long_options(p) if opt not in sec and opt not in intro]
    if "tour" not in sections:
        missing.append("no section '## tour'")
    else:
        tour = sections["tour"][0]
        missing += [f"tour: option {opt} not described" for opt in _long_options(commands["tour"]) if opt not in tour]
    return missing


def test_cli_doc_covers_every_verb_and_option() -> None:
    """docs/cli.md has a section per verb of every game that names each of its options."""
    missing = cli_doc_gaps((DOCS / "cli.md").read_text(encoding="utf-8"))
    assert not missing, "\n".join(missing)


def test_cli_doc_check_can_fail() -> None:
    """The coverage check notices a missing verb section and a missing option."""
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    no_verb = text.replace("### hexen-rennen audit", "### hexen-rennen audits")
    assert "no section '### hexen-rennen audit'" in cli_doc_gaps(no_verb)
    no_option = re.sub(r"--max-nodes", "--max-n0des", text)
    assert "hexen-rennen solve: option --max-nodes not described" in cli_doc_gaps(no_option)
    no_shared = re.sub(r"--moon-restricts-adding", "--moon", text)
    assert "gnomes-at-midnight hint: option --moon-restricts-adding not described" in cli_doc_gaps(no_shared)


# Tables whose keys are names (tiles, enchantment ids, gnome kinds), not fixed keys.
NAMED_KEYS = {"tiles", "conditions", "rescue"}


def test_formats_doc_names_every_key() -> None:
    """docs/formats.md names every garden JSON key and every key of the default edition."""
    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    missing = [f"garden key {k}" for k in sorted(GARDEN_KEYS) if f"`{k}`" not in text]
    default = tomllib.loads(
        (ROOT / "models" / "hedge_mage" / "data" / "default.toml").read_text(encoding="utf-8")
    )
    for table, body in default.items():
        if f"[{table}]" not in text:
            missing.append(f"edition table [{table}]")
        rows = body if isinstance(body, list) else [body]
        for row in rows:
            for key in row:
                if table not in NAMED_KEYS and f"`{key}`" not in text:
                    missing.append(f"edition key {table}.{key}")
    assert not missing, "\n".join(missing)


@pytest.mark.slow
def test_random_play_dead_round_figures() -> None:
    """rules/hedge-mage.md quotes how often random play meets a round with no legal placement."""
    from collections import Counter

    from gnomekit.models.hedge_mage.setup import random_garden

    ed = default_edition()
    first_dead: Counter[int] = Counter()
    for seed in range(200):
        _g, counts = random_garden(ed, seed, 10)
        dead = [i + 1 for i, n in enumerate(counts) if n == 0]
        if dead:
            first_dead[dead[0]] += 1
    text = (DOCS / "rules" / "hedge-mage.md").read_text(encoding="utf-8")
    assert sum(first_dead.values()) == 66 and first_dead == Counter({8: 2, 9: 12, 10: 52})
    assert "66 of the 200" in text and "round 8\nin 2 games, round 9 in 12 and round 10 in 52" in text


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, flags=re.M)}


def test_links_resolve() -> None:
    """Every relative link in docs/ points at an existing file (and heading, when it names one)."""
    bad: list[str] = []
    for md in md_files():
        text = re.sub(r"```.*?```", "", md.read_text(encoding="utf-8"), flags=re.S)
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = (md.parent / file_part).resolve() if file_part else md
            if not dest.exists():
                bad.append(f"{md.relative_to(ROOT)}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                bad.append(f"{md.relative_to(ROOT)}: {target}: no such heading")
    assert not bad, "\n".join(bad)
