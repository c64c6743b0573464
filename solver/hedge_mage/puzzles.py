"""Hedge Mage puzzles: load a puzzle file, solve its question from scratch, compare.

A puzzle file (TOML, documented in ``puzzles/README.md``) holds a garden in the
text notation, a question and the answer that was computed, when the puzzle
was written, by an independent slow method (recorded in ``answer.verified_by``).
:func:`run_puzzle` never reads the stored answer to find the solution: it
solves with the main methods (bitboard enumeration, the SAT model, the best
placement search), checks that those agree with each other, re-checks every
witness with the rules' own legality test, and only then compares with the
stored answer.

Running puzzles (question kind ``run``) hold a running position instead (the
``hedge-mage run`` text notation) and ask for the optimal maze-running plan of
the round: the main search (solver/hedge_mage/running.py) solves it, its plan
is replayed with ``check --plan`` semantics (printed, parsed back, executed by
the rules engine) and must reach the value the search claims; the stored
witness plan is replayed too.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gnomekit.models.core.edition import parse_toml
from gnomekit.models.core.errors import EditionError, GnomekitError, NotationError
from gnomekit.models.core.grid import Cell
from gnomekit.models.core.text import undecodable
from gnomekit.models.hedge_mage.edition import HedgeMageEdition, load_edition
from gnomekit.models.hedge_mage.notation import (
    cell_token,
    garden_from_text,
    garden_to_text,
    parse_placement,
    placement_to_text,
)
from gnomekit.models.hedge_mage.notation import (
    draw_marked as draw,
)
from gnomekit.models.hedge_mage.placement import (
    Board,
    Placement,
    apply_placement,
    check_placement,
    is_legal_slow,
    legal_placements,
    tile_choice_problem,
)
from gnomekit.models.hedge_mage.position import Garden
from gnomekit.models.hedge_mage.running import Event, RunPosition, execute_plan, running_score, settle_position
from gnomekit.models.hedge_mage.running_notation import (
    action_to_text,
    is_run_text,
    parse_plan,
    run_from_text,
    run_to_text,
)
from gnomekit.solver.core.puzzles import PuzzleOutcome, bundled_puzzle_files
from gnomekit.solver.core.result import Status
from gnomekit.solver.hedge_mage.best import best_block, best_points
from gnomekit.solver.hedge_mage.graph import check_placement_networkx, enumerate_all_networkx
from gnomekit.solver.hedge_mage.sat import plan_placements, sat_all, sat_best_points

GAME = "hedge-mage"

# question kind -> (parameter keys allowed, answer keys required, answer keys allowed)
KINDS: dict[str, tuple[set[str], set[str], set[str]]] = {
    "count": ({"tile"}, {"count"}, {"count", "per_tile", "placements"}),
    "legal": ({"place", "tokens", "any_tile"}, {"legal"}, {"legal", "violations", "points"}),
    "points": ({"place", "tokens"}, {"points"}, {"points", "sigils"}),
    "best-points": ({"tiles"}, {"points", "placements"}, {"points", "placements"}),
    "best-block": ({"tiles"}, {"block", "placements"}, {"block", "placements", "choice"}),
    "plan": ({"tiles"}, {"possible"}, {"possible", "witness"}),
    "no-placement": ({"tile"}, {"count"}, {"count", "substitute_count"}),
    "run": ({"max_states"}, {"rescued", "points", "tokens", "springshrooms", "plan"},
            {"rescued", "points", "tokens", "springshrooms", "plan"}),
}
RUN_KIND = "run"
RUN_VALUE_KEYS = ("rescued", "points", "tokens", "springshrooms")
RUN_MAX_STATES = 200_000  # default state budget of a running puzzle (the search then says "unknown")
QUESTION_TEXT = {
    "count": "how many legal placements does {what} have?",
    "legal": "is {place} legal? if not, which rules does it break, and where?",
    "points": "how many movement points does {place} earn, and from which sigils?",
    "best-points": "which placement of {what} earns the most movement points?",
    "best-block": "which placement of {what} makes the invader's maze hardest (block value)?",
    "plan": "can {what} still all be placed, in this order?",
    "no-placement": "can {what} be placed at all? if not, what happens this round?",
    "run": "what is the best maze-running plan this round (most gnomes rescued, then most points, "
           "then fewest tokens and springshrooms spent)?",
}


@dataclass
class Puzzle:
    """One parsed puzzle file."""

    path: Path
    name: str
    title: str
    about: str
    kind: str
    edition: HedgeMageEdition
    garden: Garden
    position_text: str
    params: dict[str, Any]  # parsed question parameters (placements as Placement, tiles as list)
    answer: dict[str, Any]  # stored answer, normalised (comparable with a solved answer)
    verified_by: str
    run: RunPosition | None = None  # a running puzzle's position (settled); ``garden`` is then its board

    @property
    def question(self) -> str:
        p = self.params
        what = p.get("tile_text") or " or ".join(p.get("tiles", []))
        place = placement_to_text(p["place"], self.edition) if "place" in p else ""
        if self.kind == "plan":
            what = " then ".join(p["tiles"])
        return QUESTION_TEXT[self.kind].format(what=what, place=place)


# ---------------------------------------------------------------------------------------------
# Loading


class _Locator:
    """Finds the line and column of a key inside a table of the puzzle's TOML text."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source

    def find(self, table: str | None, key: str | None = None) -> tuple[int | None, int | None]:
        start = 0
        if table is not None:
            for i, line in enumerate(self.lines):
                if line.strip() == f"[{table}]":
                    start = i
                    break
            else:
                return None, None
            if key is None:
                return start + 1, 1
        elif key is None:
            return None, None
        pat = re.compile(rf"^\s*{re.escape(key or '')}\s*=\s*")
        for i in range(start, len(self.lines)):
            if table is None and self.lines[i].strip().startswith("["):
                break
            if table is not None and i > start and self.lines[i].strip().startswith("["):
                break
            m = pat.match(self.lines[i])
            if m:
                return i + 1, m.end() + 1
        return (start + 1, 1) if table is not None else (None, None)

    def error(self, message: str, table: str | None, key: str | None = None,
              text: Any = None) -> NotationError:
        line, col = self.find(table, key)
        shown = None if text is None else (text if isinstance(text, str) else repr(text))
        return NotationError(message, source=self.source, line=line, column=col, text=shown)


def load_puzzle(path: str | Path, edition: HedgeMageEdition | None = None) -> Puzzle:
    """Read and validate a puzzle file.

    Raises :class:`NotationError` naming the file, line and column for a
    malformed file (bad TOML, missing or unknown keys, a garden or placement
    that does not parse, an answer of the wrong type).
    """
    p = Path(path)
    source = str(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise NotationError(f"cannot read puzzle file: {exc.strerror}", source=source) from None
    except UnicodeDecodeError as exc:
        message, line, column = undecodable(exc)
        raise NotationError(message, source=source, line=line, column=column) from None
    try:
        data = parse_toml(text, source).data
    except EditionError as exc:
        raise NotationError(exc.message.replace("not valid TOML", "the puzzle file is not valid TOML"),
                            source=source, line=exc.line, column=exc.column) from None
    loc = _Locator(text, source)
    top = {"name", "title", "about", "position", "question", "answer", "edition"}
    for key in data:
        if key not in top:
            raise loc.error("unknown key; expected one of " + ", ".join(sorted(top)), None, key, key)
    for key in ("name", "title", "position"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            if key in data:
                raise loc.error(f"'{key}' must be a non-empty string", None, key, data[key])
            raise NotationError(f"missing key '{key}' (a string) before the [question] table",
                                source=source, line=1, column=1)
    for table in ("question", "answer"):
        if not isinstance(data.get(table), dict):
            raise NotationError(f"missing table [{table}]", source=source,
                                line=len(loc.lines) or 1, column=1)
    about = data.get("about", "")
    if not isinstance(about, str):
        raise loc.error("'about' must be a string", None, "about", about)
    ed_name = data.get("edition")
    if ed_name is not None and not isinstance(ed_name, str):
        raise loc.error("'edition' must be a path to an edition file", None, "edition", ed_name)
    if ed_name is not None and ed_name != "default":
        ed = load_edition(p.parent / ed_name)
    else:
        ed = edition or load_edition(None)

    q = data["question"]
    kind = q.get("kind")
    run: RunPosition | None = None
    if kind == RUN_KIND or is_run_text(data["position"]):
        if kind != RUN_KIND:
            raise loc.error(f"a running position goes with kind = \"{RUN_KIND}\"", "question",
                            "kind" if "kind" in q else None, kind)
        run = _read_run_position(data["position"], loc, ed)
        garden = run.board
    else:
        garden = _read_position(data["position"], text, loc, ed)
    if kind not in KINDS:
        raise loc.error("unknown question kind; expected one of " + ", ".join(KINDS), "question",
                        "kind" if "kind" in q else None, kind)
    allowed, required, allowed_answer = KINDS[kind]
    for key in q:
        if key != "kind" and key not in allowed:
            raise loc.error(f"unknown parameter for a '{kind}' question; expected "
                            + (", ".join(sorted(allowed)) or "none"), "question", key, key)
    params = _read_params(kind, q, garden, ed, loc)
    a = data["answer"]
    verified_by = a.get("verified_by")
    if not isinstance(verified_by, str) or not verified_by.strip():
        raise loc.error("the answer needs 'verified_by': how the stored answer was computed",
                        "answer", "verified_by" if "verified_by" in a else None)
    for key in a:
        if key != "verified_by" and key not in allowed_answer:
            raise loc.error(f"unknown answer key for a '{kind}' question; expected "
                            + ", ".join(sorted(allowed_answer)), "answer", key, key)
    for key in sorted(required):
        if key not in a:
            raise loc.error(f"the answer of a '{kind}' question needs '{key}'", "answer")
    answer = _read_answer(kind, a, garden, ed, loc)
    if run is not None:
        params = _read_run_params(q, loc)
        answer = _read_run_answer(a, ed, loc)
    return Puzzle(
        path=p,
        name=data["name"],
        title=data["title"],
        about=about.strip(),
        kind=kind,
        edition=ed,
        garden=garden,
        position_text=garden_to_text(garden, ed) if run is None else run_to_text(run, ed),
        params=params,
        answer=answer,
        verified_by=verified_by.strip(),
        run=run,
    )


def _position_offset(loc: _Locator) -> int:
    """Lines before the position string's first line in the file."""
    offset = 0
    for i, line in enumerate(loc.lines):
        m = re.match(r"^\s*position\s*=\s*(\"\"\"|''')\s*$", line)
        if m:
            offset = i + 1  # the string starts on the next line (TOML trims that newline)
            break
        if re.match(r"^\s*position\s*=", line):
            offset = i  # a one-line string: same line
            break
    return offset


def _read_position(position: str, text: str, loc: _Locator, ed: HedgeMageEdition) -> Garden:
    """Parse the garden string, moving error locations from the string to the file."""
    offset = _position_offset(loc)
    try:
        return garden_from_text(position, loc.source, ed)
    except NotationError as exc:
        where = None if exc.line is None else exc.line + offset
        raise NotationError(f"in the position: {exc.message}", source=loc.source, line=where,
                            column=exc.column, text=exc.text) from None


def _read_run_position(position: str, loc: _Locator, ed: HedgeMageEdition) -> RunPosition:
    """Parse a running position string (located errors), settled as the CLI settles it on loading."""
    offset = _position_offset(loc)
    try:
        pos = run_from_text(position, loc.source, ed)
    except NotationError as exc:
        where = None if exc.line is None else exc.line + offset
        raise NotationError(f"in the position: {exc.message}", source=loc.source, line=where,
                            column=exc.column, text=exc.text) from None
    probs = pos.problems(ed)
    if probs:
        raise loc.error("the running position is not well formed: " + "; ".join(probs), None, "position")
    settled, _woke = settle_position(pos, ed)
    return settled


def _read_run_params(q: dict[str, Any], loc: _Locator) -> dict[str, Any]:
    out: dict[str, Any] = {"max_states": RUN_MAX_STATES}
    if "max_states" in q:
        v = q["max_states"]
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise loc.error("expected a positive whole number", "question", "max_states", v)
        out["max_states"] = v
    return out


def _read_run_answer(a: dict[str, Any], ed: HedgeMageEdition, loc: _Locator) -> dict[str, Any]:
    out: dict[str, Any] = {k: _int(a[k], loc, k) for k in RUN_VALUE_KEYS}
    plan = a["plan"]
    if not isinstance(plan, list) or not all(isinstance(x, str) for x in plan):
        raise loc.error("expected a list of actions [\"M1>0,1\", \"T\", ...]", "answer", "plan", plan)
    for x in plan:
        try:
            parse_plan(x, ed, loc.source)
        except NotationError as exc:
            raise loc.error(f"a plan action does not parse: {exc.message}", "answer", "plan", x) from None
    out["plan"] = list(plan)
    return out


def _tile_list(value: Any, ed: HedgeMageEdition, loc: _Locator, table: str, key: str) -> list[str]:
    if isinstance(value, str):
        names = list(ed.tiles) if value == "all" else [t.strip() for t in value.split(",") if t.strip()]
    elif isinstance(value, list) and all(isinstance(t, str) for t in value):
        names = list(value)
    else:
        raise loc.error("expected a tile name, a list of tile names, or \"all\"", table, key, value)
    if not names:
        raise loc.error("expected at least one tile name", table, key, value)
    for t in names:
        if t not in ed.tiles:
            raise loc.error("unknown tile; the edition has " + " ".join(ed.tiles), table, key, t)
    return names


def _placement(value: Any, ed: HedgeMageEdition, loc: _Locator, table: str, key: str) -> Placement:
    if not isinstance(value, str):
        raise loc.error("expected a placement TILE:ORIENTATION@ROW,COL", table, key, value)
    try:
        return parse_placement(value, ed, loc.source)
    except NotationError as exc:
        raise loc.error(exc.message, table, key, value) from None


def _cells(value: Any, loc: _Locator, table: str, key: str) -> list[Cell]:
    if not isinstance(value, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
        for c in value
    ):
        raise loc.error("expected a list of cells [[row, col], ...]", table, key, value)
    return sorted((c[0], c[1]) for c in value)


def allowed_tiles(garden: Garden, ed: HedgeMageEdition) -> list[str]:
    """The tiles the owner may place now: the revealed one, and the 2x1 while unused."""
    return [t for t in ed.tiles if tile_choice_problem(garden, ed, t)[0] is None]


def _read_params(kind: str, q: dict[str, Any], garden: Garden, ed: HedgeMageEdition,
                 loc: _Locator) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if kind in ("count", "no-placement"):
        if "tile" in q:
            out["tiles"] = _tile_list(q["tile"], ed, loc, "question", "tile")
            out["tile_text"] = q["tile"] if isinstance(q["tile"], str) else ",".join(q["tile"])
        elif garden.tile is not None:
            out["tiles"] = [garden.tile]
        else:
            raise loc.error("the garden has no revealed tile: name one with tile = \"T\"", "question")
        if kind == "no-placement" and len(out["tiles"]) != 1:
            raise loc.error("a 'no-placement' question is about one tile", "question", "tile")
        if out["tiles"] == list(ed.tiles):
            out["tile_text"] = "every tile"
    elif kind in ("legal", "points"):
        if "place" not in q:
            raise loc.error(f"a '{kind}' question needs place = \"TILE:ORIENTATION@ROW,COL\"", "question")
        pl = _placement(q["place"], ed, loc, "question", "place")
        tokens = tuple(_cells(q["tokens"], loc, "question", "tokens")) if "tokens" in q else ()
        for t in tokens:
            if t not in pl.cells or t == pl.sigil:
                raise loc.error("a bonus sigil token goes on a non-sigil cell of the placed tile",
                                "question", "tokens", f"{t[0]},{t[1]}")
        if len(tokens) > garden.held_bonus_sigils:
            raise loc.error(f"the garden holds only {garden.held_bonus_sigils} bonus sigil token(s)",
                            "question", "tokens")
        out["place"] = Placement(pl.tile, pl.cells, pl.sigil, tokens)
        any_tile = q.get("any_tile", False)
        if not isinstance(any_tile, bool):
            raise loc.error("expected true or false", "question", "any_tile", any_tile)
        out["any_tile"] = any_tile
    elif kind in ("best-points", "best-block"):
        if "tiles" in q:
            out["tiles"] = _tile_list(q["tiles"], ed, loc, "question", "tiles")
        elif garden.tile is not None:
            out["tiles"] = allowed_tiles(garden, ed)
        else:
            raise loc.error("the garden has no revealed tile: name them with tiles = [...]", "question")
        if garden.held_bonus_sigils:
            raise loc.error("best-placement puzzles take gardens without held bonus sigil tokens",
                            "question")
    elif kind == RUN_KIND:
        pass  # read by _read_run_params
    elif kind == "plan":
        if "tiles" not in q:
            raise loc.error("a 'plan' question needs tiles = [\"T1\", \"T2\", ...]", "question")
        out["tiles"] = _tile_list(q["tiles"], ed, loc, "question", "tiles")
    return out


def _int(value: Any, loc: _Locator, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise loc.error("expected a whole number", "answer", key, value)
    return value


def _bool(value: Any, loc: _Locator, key: str) -> bool:
    if not isinstance(value, bool):
        raise loc.error("expected true or false", "answer", key, value)
    return value


def _placement_texts(value: Any, ed: HedgeMageEdition, loc: _Locator, key: str) -> list[str]:
    if not isinstance(value, list):
        raise loc.error("expected a list of placements [\"TILE:ORIENTATION@ROW,COL\", ...]", "answer",
                        key, value)
    return [placement_to_text(_placement(v, ed, loc, "answer", key), ed) for v in value]


def _read_answer(kind: str, a: dict[str, Any], garden: Garden, ed: HedgeMageEdition,
                 loc: _Locator) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if kind == RUN_KIND:
        return out  # read by _read_run_answer
    for key, value in a.items():
        if key == "verified_by":
            continue
        if key in ("count", "points", "block", "substitute_count"):
            out[key] = _int(value, loc, key)
        elif key in ("legal", "possible"):
            out[key] = _bool(value, loc, key)
        elif key == "per_tile":
            if not isinstance(value, dict):
                raise loc.error("expected a table tile = count", "answer", key, value)
            out[key] = {str(t): _int(n, loc, key) for t, n in value.items()}
        elif key in ("placements", "witness"):
            texts = _placement_texts(value, ed, loc, key)
            out[key] = texts if key == "witness" else sorted(texts)
        elif key == "choice":
            out[key] = placement_to_text(_placement(value, ed, loc, "answer", key), ed)
        elif key == "sigils":
            out[key] = [list(c) for c in _cells(value, loc, "answer", key)]
        elif key == "violations":
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                raise loc.error("expected a list of tables {rule = \"...\", cells = [[r, c], ...]}",
                                "answer", key, value)
            vs = []
            for v in value:
                if set(v) != {"rule", "cells"} or not isinstance(v["rule"], str):
                    raise loc.error("each violation is {rule = \"...\", cells = [[r, c], ...]}", "answer",
                                    key, v)
                vs.append({"rule": v["rule"], "cells": [list(c) for c in _cells(v["cells"], loc, "answer",
                                                                                 key)]})
            out[key] = sorted(vs, key=_violation_key)
    if kind == "legal" and out.get("legal") is False and "violations" not in out:
        raise loc.error("an illegal placement's answer lists its violations", "answer", "legal")
    return out


def _violation_key(v: dict[str, Any]) -> tuple[str, list[list[int]]]:
    return (v["rule"], v["cells"])


def puzzle_files() -> list[Path]:
    """The bundled Hedge Mage puzzle files, sorted by name."""
    return bundled_puzzle_files("hedge-mage")


# ---------------------------------------------------------------------------------------------
# Solving (main methods only; the stored answer is not looked at here)


@dataclass
class Solution:
    """What the main methods found, in the same shape as a stored answer."""

    answer: dict[str, Any]
    text: str
    detail: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # methods disagreeing, witnesses failing
    methods: list[str] = field(default_factory=list)
    marks: dict[Cell, str] = field(default_factory=dict)  # cells to draw in the answer picture
    final: str = ""  # a running puzzle: the position after the plan (text notation)
    checks_applied: list[str] = field(default_factory=list)  # the cross-checks this question has
    checks_ran: list[str] = field(default_factory=list)  # ... those that ran and agreed


# Cross-check names (PuzzleOutcome.checks_applied / checks_ran)
SAT = "sat"  # the SAT model (solver/hedge_mage/sat.py)
NETWORKX = "networkx"  # ground connectivity on the networkx ground graph (solver/hedge_mage/graph.py)
ENUMERATION = "enumeration"  # the bitboard enumeration of legal placements
BITBOARD = "bitboard"  # the bitboard row/column sigil count
SEARCH = "search"  # the best placement search (solver/hedge_mage/best.py)
REPLAY = "replay"  # a running plan replayed by the rules engine with check --plan semantics


def _text(p: Placement, ed: HedgeMageEdition) -> str:
    return placement_to_text(p, ed)


def _cells_text(cells: list[Cell] | tuple[Cell, ...]) -> str:
    return " ".join(f"{r},{c}" for r, c in cells)


def _recheck(garden: Garden, ed: HedgeMageEdition, p: Placement) -> str | None:
    """None if the placement is legal by both the explaining check and the slow reference."""
    rep = check_placement(garden, ed, p, check_tile_choice=False)
    if not rep.legal or not is_legal_slow(garden, p):
        return f"witness {_text(p, ed)} is not legal: " + "; ".join(v.message for v in rep.violations)
    return None


def _mark(p: Placement) -> dict[Cell, str]:
    return {c: ("@" if c == p.sigil else "#") for c in p.cells}


def _enumerate(garden: Garden, ed: HedgeMageEdition, tiles: list[str]) -> dict[str, list[tuple[Placement, int]]]:
    board = Board(garden)
    out = {}
    for t in tiles:
        en = legal_placements(garden, ed.tiles[t], board)
        out[t] = list(zip(en.placements, en.points, strict=True))
    return out


def _networkx_agrees(sol: Solution, garden: Garden, ed: HedgeMageEdition, tiles: list[str],
                     enum: dict[str, list[tuple[Placement, int]]]) -> None:
    """Cross-check: the networkx ground graph finds the same legal placements with the same points."""
    sol.checks_applied.append(NETWORKX)
    fast = {t: sorted((p.key, pts) for p, pts in v) for t, v in enum.items()}
    graph = {grp.tile: sorted((p.key, pts) for p, pts in zip(grp.placements, grp.points, strict=True))
             for grp in enumerate_all_networkx(garden, ed, tiles)}
    if graph != fast:
        n_fast, n_graph = sum(map(len, fast.values())), sum(map(len, graph.values()))
        sol.problems.append(f"the networkx ground graph finds {n_graph} placements (or other points), "
                            f"the enumeration {n_fast}")
    else:
        sol.checks_ran.append(NETWORKX)


def _solve_count(pz: Puzzle) -> Solution:
    g, ed, tiles = pz.garden, pz.edition, pz.params["tiles"]
    enum = _enumerate(g, ed, tiles)
    per_tile = {t: len(v) for t, v in enum.items()}
    keys = sorted(_text(p, ed) for v in enum.values() for p, _ in v)
    sol = Solution({"count": len(keys), "per_tile": per_tile, "placements": keys}, "", methods=["enumeration"],
                   checks_applied=[SAT])
    groups = sat_all(g, ed, tiles)
    sat_keys = sorted(_text(p, ed) for grp in groups for p in grp.placements)
    sol.methods.append("SAT")
    if sat_keys != keys:
        sol.problems.append(f"SAT finds {len(sat_keys)} placements, enumeration {len(keys)}")
    else:
        sol.checks_ran.append(SAT)
    sol.methods.append("networkx")
    _networkx_agrees(sol, g, ed, tiles, enum)
    what = pz.params.get("tile_text") or " ".join(tiles)
    sol.text = f"{len(keys)} legal placement{'s' if len(keys) != 1 else ''} of {what}"
    if len(tiles) > 1:
        sol.detail.append("per tile: " + ", ".join(f"{t} {n}" for t, n in per_tile.items()))
    if 0 < len(keys) <= 4:
        sol.detail.append("the placements: " + "  ".join(keys))
        for v in enum.values():
            for p, _ in v:
                sol.marks.update(_mark(p))
    return sol


def _violations_json(rep: Any) -> list[dict[str, Any]]:
    vs = [{"rule": v.rule, "cells": [list(c) for c in sorted(v.cells)]} for v in rep.violations]
    return sorted(vs, key=_violation_key)


def _solve_legal(pz: Puzzle) -> Solution:
    g, ed, p = pz.garden, pz.edition, pz.params["place"]
    rep = check_placement(g, ed, p, check_tile_choice=not pz.params["any_tile"])
    sol = Solution({"legal": rep.legal}, "", methods=["check"], marks=_mark(p),
                   checks_applied=[ENUMERATION, NETWORKX])
    # Second method: is the placement among the enumerated legal placements of its tile?
    in_enum = p.key in legal_placements(g, ed.tiles[p.tile]).keys if p.tile in ed.tiles else False
    sol.methods.append("enumeration")
    geometric = [v for v in rep.violations if v.rule != "wrong-tile"]
    if in_enum != (not geometric):
        sol.problems.append(f"check says {'il' if geometric else ''}legal, enumeration says "
                            f"{'' if in_enum else 'il'}legal")
    else:
        sol.checks_ran.append(ENUMERATION)
    # Third: the same check with the cut-off rule decided on the networkx ground graph.
    sol.methods.append("networkx")
    rep_nx = check_placement_networkx(g, ed, p, check_tile_choice=not pz.params["any_tile"])
    if rep_nx.violations != rep.violations:
        sol.problems.append("check with the networkx ground graph says: "
                            + ("; ".join(v.message for v in rep_nx.violations) or "legal"))
    else:
        sol.checks_ran.append(NETWORKX)
    if rep.legal:
        sol.answer["points"] = rep.movement_points
        sol.answer["violations"] = []
        sol.text = f"legal, {rep.movement_points} movement point{'s' if rep.movement_points != 1 else ''}"
    else:
        sol.answer["violations"] = _violations_json(rep)
        rules = [v.rule for v in rep.violations]
        sol.text = f"illegal: breaks {len(rules)} rule{'s' if len(rules) != 1 else ''} ({', '.join(rules)})"
        for v in rep.violations:
            sol.detail.append(f"[{v.rule}] {v.message}")
    return sol


def _solve_points(pz: Puzzle) -> Solution:
    g, ed, p = pz.garden, pz.edition, pz.params["place"]
    rep = check_placement(g, ed, p, check_tile_choice=False)
    sol = Solution({}, "", methods=["check"], marks=_mark(p), checks_applied=[BITBOARD, NETWORKX])
    if not rep.legal:
        sol.problems.append("the placement is not legal: " + "; ".join(v.message for v in rep.violations))
        sol.text = "illegal placement, no movement points"
        return sol
    # Second method: the bitboard row/column count (without tokens) plus one per token.
    fast = Board(g).points(p.cells, p.sigil) + len([t for t in p.tokens if t != p.sigil])
    sol.methods.append("bitboard count")
    if fast != rep.movement_points:
        sol.problems.append(f"bitboard count {fast} != check {rep.movement_points}")
    else:
        sol.checks_ran.append(BITBOARD)
    sol.methods.append("networkx")
    rep_nx = check_placement_networkx(g, ed, p, check_tile_choice=False)
    if rep_nx.violations or rep_nx.movement_points != rep.movement_points:
        sol.problems.append("check with the networkx ground graph disagrees: "
                            + ("; ".join(v.message for v in rep_nx.violations) or f"{rep_nx.movement_points} points"))
    else:
        sol.checks_ran.append(NETWORKX)
    sol.answer = {"points": rep.movement_points, "sigils": [list(c) for c in rep.sigils_counted]}
    sol.text = f"{rep.movement_points} movement point{'s' if rep.movement_points != 1 else ''}"
    sol.detail.append("sigils counted: " + _cells_text(rep.sigils_counted))
    for s in rep.sigils_counted:
        if s not in p.cells:
            sol.marks[s] = cell_token(g, ed, s) + "<"
    return sol


def _witness_of(res: Any) -> Placement | None:
    """The placement a best/SAT result names (a Placement, or an object holding one)."""
    w = getattr(res, "witness", None)
    for cand in (w, getattr(w, "placement", None), getattr(res, "placement", None)):
        if isinstance(cand, Placement):
            return cand
    if isinstance(w, list | tuple) and w and isinstance(w[0], Placement):
        return w[0]
    return None


def _value_of(res: Any) -> Any:
    return getattr(res, "value", None)


def _solve_best_points(pz: Puzzle) -> Solution:
    g, ed, tiles = pz.garden, pz.edition, pz.params["tiles"]
    enum = _enumerate(g, ed, tiles)
    scored = [(pts, p) for v in enum.values() for p, pts in v]
    sol = Solution({}, "", methods=["enumeration"], checks_applied=[SAT, SEARCH])
    sol.methods.append("networkx")
    _networkx_agrees(sol, g, ed, tiles, enum)
    if not scored:
        sol.checks_applied = [NETWORKX]  # no placement: nothing for SAT or the search to choose
        sol.answer = {"points": 0, "placements": []}
        sol.text = "no legal placement of " + " or ".join(tiles)
        return sol
    top = max(pts for pts, _ in scored)
    best = sorted(_text(p, ed) for pts, p in scored if pts == top)
    sol.answer = {"points": top, "placements": best}
    witnesses: list[tuple[str, str, Placement | None, Any]] = []
    res = sat_best_points(g, ed, tiles)
    witnesses.append((SAT, "SAT", _witness_of(res), _value_of(res)))
    res = best_points(g, ed, tiles)
    witnesses.append((SEARCH, "best placement search", _witness_of(res), _value_of(res)))
    for check, name, w, value in witnesses:
        sol.methods.append(name)
        if w is None:
            sol.problems.append(f"{name} gave no placement")
            continue
        before = len(sol.problems)
        bad = _recheck(g, ed, w)
        if bad:
            sol.problems.append(f"{name}: {bad}")
        if _text(w, ed) not in best:
            sol.problems.append(f"{name} chose {_text(w, ed)}, not one of the best")
        if isinstance(value, int) and value != top:
            sol.problems.append(f"{name} says {value} points, enumeration {top}")
        if len(sol.problems) == before:
            sol.checks_ran.append(check)
    first = best[0]
    sol.text = f"{top} movement points with {first}" + (f" (or {len(best) - 1} more)" if len(best) > 1 else "")
    p0 = parse_placement(first, ed)
    rep = check_placement(g, ed, p0, check_tile_choice=False)
    sol.detail.append("sigils counted: " + _cells_text(rep.sigils_counted))
    if len(best) > 1:
        sol.detail.append("equally good: " + "  ".join(best[1:7]) + (" ..." if len(best) > 7 else ""))
    revealed = g.tile
    if revealed is not None and revealed in tiles and first.split(":")[0] != revealed:
        rev_best = max((pts for pts, p in scored if p.tile == revealed), default=None)
        sol.detail.append(
            f"the revealed {revealed} earns at most {rev_best if rev_best is not None else 0}"
            + ("" if rev_best is not None else " (it has no legal placement)")
            + f": the {first.split(':')[0]} substitution is better")
    sol.marks = _mark(p0)
    return sol


def block_distances(garden: Garden) -> int:
    """Sum over sleeping gnomes of the invaders' shortest ground distance to a cell beside it.

    Ground steps are orthogonal over non-hedge cells (characters and tokens do
    not block); sources are the mages standing on the ground; a gnome nobody
    can reach counts rows x cols.  A plain multi-source BFS.
    """
    from collections import deque

    rows, cols = garden.rows, garden.cols
    hedge = garden.hedge_cells
    dist: dict[Cell, int] = {}
    queue: deque[Cell] = deque()
    for m in garden.mages:
        if m.at not in hedge and m.at not in dist:
            dist[m.at] = 0
            queue.append(m.at)
    while queue:
        r, c = queue.popleft()
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= n[0] < rows and 0 <= n[1] < cols and n not in hedge and n not in dist:
                dist[n] = dist[(r, c)] + 1
                queue.append(n)
    total = 0
    for gn in garden.gnomes:
        if gn.awake:
            continue
        r, c = gn.at
        near = [dist[n] for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in dist]
        total += min(near) if near else rows * cols
    return total


def _solve_best_block(pz: Puzzle) -> Solution:
    g, ed, tiles = pz.garden, pz.edition, pz.params["tiles"]
    enum = _enumerate(g, ed, tiles)
    before = block_distances(g)
    scored = []
    for v in enum.values():
        for p, pts in v:
            after = block_distances(apply_placement(g, ed, p))
            scored.append((after - before, pts, p))
    sol = Solution({}, "", methods=["enumeration + BFS"], checks_applied=[SEARCH])
    sol.methods.append("networkx")
    _networkx_agrees(sol, g, ed, tiles, enum)
    if not scored:
        sol.checks_applied = [NETWORKX]  # no placement: nothing for the search to choose
        sol.answer = {"block": 0, "placements": []}
        sol.text = "no legal placement of " + " or ".join(tiles)
        return sol
    top = max(b for b, _, _ in scored)
    best = sorted(_text(p, ed) for b, _, p in scored if b == top)
    top_pts = max(pts for b, pts, _ in scored if b == top)
    sol.answer = {"block": top, "placements": best}
    res = best_block(g, ed, tiles)
    sol.methods.append("best placement search")
    chosen = _witness_of(res)
    value = _value_of(res)
    before_problems = len(sol.problems)
    if chosen is None:
        sol.problems.append("the best placement search gave no placement")
    else:
        bad = _recheck(g, ed, chosen)
        if bad:
            sol.problems.append(bad)
        if _text(chosen, ed) not in best:
            sol.problems.append(f"the search chose {_text(chosen, ed)}, not one of the best")
        elif Board(g).points(chosen.cells, chosen.sigil) != top_pts:
            sol.problems.append(f"the search chose {_text(chosen, ed)}, which loses the tie-break on points")
        if isinstance(value, int) and value != top:
            sol.problems.append(f"the search says block {value}, enumeration {top}")
    if len(sol.problems) == before_problems:
        sol.checks_ran.append(SEARCH)
    if chosen is None or _text(chosen, ed) not in best:
        # deterministic pick for the picture: most points, then first in text order
        chosen = parse_placement(
            sorted(_text(p, ed) for b, pts, p in scored if b == top and pts == top_pts)[0], ed)
    sol.answer["choice"] = _text(chosen, ed)
    sol.text = (f"block +{top} with {_text(chosen, ed)} ({top_pts} movement points)"
                + (f"; {len(best)} placements reach +{top}" if len(best) > 1 else ""))
    sol.detail.append(f"invaders' summed distance to the sleeping gnomes: {before} before, {before + top} after")
    sol.marks = _mark(chosen)
    return sol


def _plan_dfs(garden: Garden, ed: HedgeMageEdition, tiles: list[str], graph: bool = False) -> list[Placement] | None:
    """Depth-first search over enumerated placements (exact, exhaustive when the answer is no).

    ``graph``: each step's placements from the networkx ground graph instead of the bitboards.
    """
    if not tiles:
        return []
    if graph:
        (grp,) = enumerate_all_networkx(garden, ed, [tiles[0]])
        found = grp.placements
    else:
        found = legal_placements(garden, ed.tiles[tiles[0]], Board(garden)).placements
    for p in found:
        rest = _plan_dfs(apply_placement(garden, ed, p), ed, tiles[1:], graph)
        if rest is not None:
            return [p] + rest
    return None


def _recheck_plan(garden: Garden, ed: HedgeMageEdition, tiles: list[str], plan: list[Placement]) -> str | None:
    if [p.tile for p in plan] != tiles:
        return "the witness places " + " ".join(p.tile for p in plan) + ", not " + " ".join(tiles)
    g = garden
    for i, p in enumerate(plan, start=1):
        bad = _recheck(g, ed, p)
        if bad:
            return f"step {i}: {bad}"
        rep_nx = check_placement_networkx(g, ed, p, check_tile_choice=False)
        if not rep_nx.legal:
            return f"step {i}: the networkx ground graph says: " + "; ".join(v.message for v in rep_nx.violations)
        g = apply_placement(g, ed, p)
    return None


def _solve_plan(pz: Puzzle) -> Solution:
    g, ed, tiles = pz.garden, pz.edition, pz.params["tiles"]
    sol = Solution({}, "", checks_applied=[SAT, NETWORKX])
    plans: list[tuple[str, list[Placement] | None]] = []
    explanation: list[str] = []
    res = plan_placements(g, ed, tiles)
    sol.methods.append("SAT")
    if res.found:
        plans.append(("SAT", list(res.witness)))
    elif res.status == Status.UNSATISFIABLE:
        plans.append(("SAT", None))
        explanation = list(res.stats.get("explanation", []))
    else:
        sol.problems.append(f"SAT did not finish ({res.status})")
    plans.append(("search", _plan_dfs(g, ed, tiles)))
    sol.methods.append("search")
    plans.append(("networkx", _plan_dfs(g, ed, tiles, graph=True)))  # the search on the ground graph
    sol.methods.append("networkx")
    verdicts = {name: plan is not None for name, plan in plans}
    if len(set(verdicts.values())) > 1:
        said = ", ".join(f"{n} {'yes' if v else 'no'}" for n, v in verdicts.items())
        sol.problems.append(f"methods disagree: {said}")
    possible = plans[0][1] is not None
    sol.answer = {"possible": possible}
    bad_names: set[str] = set()
    for name, plan in plans:
        if plan is not None:
            bad = _recheck_plan(g, ed, tiles, plan)
            if bad:
                sol.problems.append(f"{name}: {bad}")
                bad_names.add(name)
    for check, name in ((SAT, "SAT"), (NETWORKX, "networkx")):
        if name in verdicts and verdicts[name] == verdicts["search"] and name not in bad_names:
            sol.checks_ran.append(check)
    if possible:
        plan = next(p for _, p in plans if p is not None)
        sol.text = "yes: " + ", then ".join(_text(p, ed) for p in plan)
        marks: dict[Cell, str] = {}
        for i, p in enumerate(plan, start=1):
            marks.update({c: str(i) for c in p.cells})
        sol.marks = marks
        sol.detail.append("witness re-checked step by step (numbers in the picture: the step)")
    else:
        sol.text = "no: " + " then ".join(tiles) + " cannot all be placed in this order"
        sol.detail.extend(explanation[:4])
    return sol


def _solve_no_placement(pz: Puzzle) -> Solution:
    g, ed = pz.garden, pz.edition
    tile = pz.params["tiles"][0]
    enum = _enumerate(g, ed, [tile])[tile]
    sol = Solution({"count": len(enum)}, "", methods=["enumeration"], checks_applied=[SAT])
    explanation: list[str] = []
    res = plan_placements(g, ed, [tile])
    sol.methods.append("SAT")
    before = len(sol.problems)
    if res.status == Status.UNKNOWN:
        sol.problems.append("SAT did not finish")
    elif res.found:
        w = list(res.witness)
        bad = _recheck(g, ed, w[0]) if w else "empty witness"
        if bad:
            sol.problems.append(f"SAT: {bad}")
        if not enum:
            sol.problems.append("SAT finds a placement, enumeration none")
    else:
        explanation = list(res.stats.get("explanation", []))
        if enum:
            sol.problems.append(f"SAT finds no placement, enumeration {len(enum)}")
    if len(sol.problems) == before:
        sol.checks_ran.append(SAT)
    sol.methods.append("networkx")
    _networkx_agrees(sol, g, ed, [tile], {tile: enum})
    sub = ed.substitute
    sub_ok = sub is not None and sub != tile and tile_choice_problem(g, ed, sub)[0] is None
    if sub_ok and sub is not None:
        sol.answer["substitute_count"] = len(_enumerate(g, ed, [sub])[sub])
    if enum:
        sol.text = f"{tile} has {len(enum)} legal placement(s)"
        return sol
    sol.text = f"{tile} has no legal placement: the player places nothing and gains no movement points"
    for sentence in explanation[1:2]:  # the core in words (the others repeat the question)
        sol.detail.append(f"why (SAT core): {sentence}")
    if "substitute_count" in sol.answer:
        n = sol.answer["substitute_count"]
        sol.detail.append(f"way out: the unused {sub} substitution has {n} legal placement(s)")
    else:
        sol.detail.append(f"no way out: the {sub} substitution is not available")
    return sol


def replay_plan(pos: RunPosition, ed: HedgeMageEdition, plan: list[str]
                ) -> tuple[dict[str, int] | None, str, list[tuple[str, list[Event], RunPosition]]]:
    """Execute a plan written in the action notation, as ``check --plan`` does.

    Returns the plan's value (None when illegal), the first illegal action with its reasons
    ("" when legal), and each executed action with its events and the position after it.
    """
    actions = parse_plan("\n".join(plan), ed, "plan")
    rep = execute_plan(pos, ed, actions)
    steps = [(action_to_text(s.action, ed), s.events, s.position) for s in rep.steps]
    if not rep.legal:
        assert rep.failed is not None
        what = "the end of the plan" if rep.failed >= len(actions) else \
            f"action {rep.failed + 1} {action_to_text(actions[rep.failed], ed)}"
        return None, f"{what}: " + "; ".join(f"[{r}] {m}" for r, m in rep.reasons), steps
    value = {"rescued": rep.final.total_rescued() - pos.total_rescued(),
             "points": running_score(rep.final, ed) - running_score(pos, ed),
             "tokens": rep.final.spent - pos.spent,
             "springshrooms": len(rep.final.springshrooms) - len(pos.springshrooms)}
    return value, "", steps


def _solve_run(pz: Puzzle) -> Solution:
    from gnomekit.solver.hedge_mage.running import solve_run

    pos, ed = pz.run, pz.edition
    assert pos is not None
    res = solve_run(pos, ed, max_states=pz.params["max_states"])
    sol = Solution({}, "", methods=["search"], checks_applied=[REPLAY])
    if res.status != Status.OPTIMAL or res.value is None:
        sol.problems.append(f"the search did not finish ({res.status}: {res.stats.get('reason', '')})")
        sol.text = "unknown"
        return sol
    v = res.value
    claimed = {"rescued": v.rescued, "points": v.points, "tokens": v.tokens, "springshrooms": v.springshrooms}
    plan = [action_to_text(a, ed) for a in res.witness]
    sol.answer = {**claimed, "plan": plan}
    # replay with check --plan semantics: the printed plan, parsed back and executed by the rules engine
    got, bad, steps = replay_plan(pos, ed, plan)
    sol.methods.append("plan replay")
    if got is None:
        sol.problems.append(f"the search's plan is illegal at {bad}")
    elif got != claimed:
        sol.problems.append(f"the search claims {claimed} but its plan replays to {got}")
    else:
        sol.checks_ran.append(REPLAY)
    # the stored witness must be legal and reach the stored value (read here only to re-check it)
    stored = pz.answer.get("plan")
    if stored is not None:
        sgot, sbad, _ = replay_plan(pos, ed, stored)
        want = {k: pz.answer[k] for k in RUN_VALUE_KEYS if k in pz.answer}
        if sgot is None:
            sol.problems.append(f"the stored plan is illegal at {sbad}")
        elif sgot != want:
            sol.problems.append(f"the stored plan replays to {sgot}, not the stored value {want}")
    kinds: dict[str, int] = {}
    for _text_a, events, _p in steps:
        for e in events:
            if e.what == "rescue":
                kinds[e.kind] = kinds.get(e.kind, 0) + 1
    what = ", ".join(f"{n} {k}" for k, n in kinds.items())
    sol.text = (f"rescue {v.rescued}" + (f" ({what})" if what else "") + f", points {v.points:+d}, "
                f"tokens spent {v.tokens}, springshrooms spent {v.springshrooms}: " + " ".join(plan))
    for i, (a, events, _p) in enumerate(steps, start=1):
        ev = "; ".join(e.text() for e in events if e.what not in ("bounce", "token"))
        sol.detail.append((f"{i:2}. {a:<22}" + (f" {ev}" if ev else "")).rstrip())
    sol.detail.append(f"search: {res.stats.get('states')} states; the plan replayed by the rules engine "
                      "(as check replays a plan)")
    if steps:
        sol.final = run_to_text(steps[-1][2], ed)
    return sol


SOLVERS: dict[str, Callable[[Puzzle], Solution]] = {
    "count": _solve_count,
    "legal": _solve_legal,
    "points": _solve_points,
    "best-points": _solve_best_points,
    "best-block": _solve_best_block,
    "plan": _solve_plan,
    "no-placement": _solve_no_placement,
    RUN_KIND: _solve_run,
}


def solve_puzzle(pz: Puzzle) -> Solution:
    """Answer a puzzle's question from scratch with the main methods."""
    return SOLVERS[pz.kind](pz)


def compare(pz: Puzzle, sol: Solution) -> list[str]:
    """Differences between the stored answer and the solution (empty list: they agree)."""
    out = []
    for key, stored in pz.answer.items():
        if key in ("witness", "plan"):
            continue  # a witness (placements or running plan) is re-checked, not compared
        found = sol.answer.get(key)
        if found != stored:
            out.append(f"{key}: stored {_short(stored)}, found {_short(found)}")
    return out


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 80 else s[:77] + "..."


LEGEND = {
    "count": "# a legal placement's cells, @ its sigil",
    "legal": "# the placement's cells, @ its sigil",
    "points": "# @ the new tile (@ its sigil, a bonus token on #), X< a sigil counted",
    "best-points": "# the best placement's cells, @ its sigil",
    "best-block": "# the chosen placement's cells, @ its sigil",
    "plan": "1, 2, 3 ...: the cells placed at that step",
    "no-placement": "",
    RUN_KIND: "the garden after the plan",
}


def _grid_of(position_text: str) -> str:
    """The grid part of a position in the text notation (after the first blank line)."""
    _head, _sep, grid = position_text.partition("\n\n")
    return grid.rstrip("\n")


def run_puzzle(path: str | Path) -> PuzzleOutcome:
    """Load a puzzle, solve it from scratch, re-check witnesses, compare with the stored answer."""
    started = time.perf_counter()
    try:
        pz = load_puzzle(path)
    except GnomekitError as exc:
        return PuzzleOutcome(GAME, Path(path).stem, "(unreadable puzzle file)", False, False,
                             time.perf_counter() - started, detail=str(exc))
    try:
        sol = solve_puzzle(pz)
    except Exception as exc:  # a solver bug must show up as a failed puzzle, not end the tour
        return PuzzleOutcome(GAME, pz.name, pz.question, False, False, time.perf_counter() - started,
                             position_text=pz.position_text, answer_text="(no answer)",
                             detail=f"PROBLEM: the solver raised {type(exc).__name__}: {exc}",
                             data={"kind": pz.kind, "title": pz.title, "about": pz.about})
    seconds = time.perf_counter() - started
    diffs = compare(pz, sol)
    verified = not diffs and not sol.problems
    detail = list(sol.detail)
    detail.append("solved by: " + ", ".join(sol.methods) + ("" if sol.problems else " (agreeing)"))
    detail.append(f"stored answer made by: {pz.verified_by}")
    for prob in sol.problems:
        detail.append(f"PROBLEM: {prob}")
    for d in diffs:
        detail.append(f"DIFFERS from the puzzle file: {d}")
    return PuzzleOutcome(
        game=GAME,
        name=pz.name,
        question=pz.question,
        solved=not sol.problems,
        verified=verified,
        seconds=seconds,
        position_text=pz.position_text,
        answer_text=sol.text,
        detail="\n".join(detail),
        checks_applied=tuple(sol.checks_applied),
        checks_ran=tuple(sol.checks_ran),
        data={"kind": pz.kind, "title": pz.title, "about": pz.about, "found": sol.answer,
              "stored": pz.answer, "methods": sol.methods, "problems": sol.problems + diffs,
              **({"picture": draw(pz.garden, pz.edition, sol.marks), "legend": LEGEND[pz.kind]}
                 if sol.marks else {}),
              **({"picture": _grid_of(sol.final), "legend": LEGEND[pz.kind]} if sol.final else {})},
    )
