"""The puzzle protocol shared by every game's puzzle set and by ``gnomekit tour``.

A puzzle file (TOML) holds a position, a question and a verified answer.  Each
game's ``solver/<game>/puzzles.py`` provides ``puzzle_files()`` and
``run_puzzle(path)``; the latter solves the question from scratch and compares
the result with the stored answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any


@dataclass
class PuzzleOutcome:
    """What solving one puzzle gave, and whether it matched the stored answer."""

    game: str
    name: str
    question: str
    solved: bool  # the solver finished with a definite answer
    verified: bool  # that answer equals the stored one (and any witness was re-checked)
    seconds: float
    position_text: str = ""
    answer_text: str = ""
    detail: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    #: The cross-checks that apply to this puzzle (method names, e.g. "sat", "networkx") ...
    checks_applied: tuple[str, ...] = ()
    #: ... and those that ran and agreed.  The tour fails a puzzle where one applied but did not run.
    checks_ran: tuple[str, ...] = ()

    @property
    def checks_missing(self) -> tuple[str, ...]:
        return tuple(c for c in self.checks_applied if c not in self.checks_ran)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "name": self.name,
            "question": self.question,
            "solved": self.solved,
            "verified": self.verified,
            "seconds": round(self.seconds, 4),
            "answer": self.answer_text,
            "detail": self.detail,
            "checks": {"applied": list(self.checks_applied), "ran": list(self.checks_ran)},
            **({"data": self.data} if self.data else {}),
        }


def bundled_puzzle_files(game_dir: str) -> list[Path]:
    """The puzzle files shipped in ``puzzles/<game_dir>/``, sorted by name."""
    root = resources.files("gnomekit.puzzles").joinpath(game_dir)
    files = [Path(str(p)) for p in root.iterdir() if p.name.endswith(".toml")]
    return sorted(files)
