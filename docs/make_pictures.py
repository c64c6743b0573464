"""Draw the pictures of docs/pictures.md: ``python docs/make_pictures.py`` rewrites docs/pictures/.

Each picture is what a documented command writes with ``--svg`` (run in docs/examples), so the
page shows exactly what users get; tests/test_pictures.py draws them again and fails when a
picture in docs/pictures/ is stale (run this script after an intended change of drawing).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "pictures"

#: (picture name, the command after ``gnomekit``); each gets ``--svg pictures/NAME.svg``.
PICTURES = [
    ("hedge-mage-garden", ["hedge-mage", "show", "round6.txt"]),
    ("hedge-mage-check-illegal", ["hedge-mage", "check", "small.txt", "--place", "T4:R0@0,0"]),
    ("hedge-mage-hint", ["hedge-mage", "hint", "round6.txt"]),
    ("hedge-mage-running-plan", ["hedge-mage", "check", "tiny-run.txt", "--plan", "M1>0,1"]),
    ("gnome-hollow-table", ["gnome-hollow", "show", "hollow-mid.txt"]),
    ("gnome-hollow-check-illegal", ["gnome-hollow", "check", "hollow-mid.txt", "--place", "G01@1,0:r0"]),
    ("gnome-hollow-best-turn", ["gnome-hollow", "solve", "hollow-mid.txt"]),
    ("gnomes-at-midnight-board", ["gnomes-at-midnight", "show", "midnight-mid.txt"]),
    ("gnomes-at-midnight-forced-win", ["gnomes-at-midnight", "solve", "midnight-mid.txt", "--depth", "2"]),
    ("hexen-rennen-track", ["hexen-rennen", "show", "hexen-mid.txt"]),
    ("hexen-rennen-chain", ["hexen-rennen", "solve", "hexen-mid.txt", "--roll", "3"]),
]


def draw(out: Path) -> list[Path]:
    """Run every command with ``--svg`` into ``out``; the paths written."""
    from gnomekit.cli import main

    out.mkdir(parents=True, exist_ok=True)
    old = os.getcwd()
    os.chdir(HERE / "examples")
    written = []
    try:
        for name, argv in PICTURES:
            path = out / f"{name}.svg"
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                code = main([*argv, "--svg", str(path)])
            if code not in (0, 1):
                raise SystemExit(f"gnomekit {' '.join(argv)} exited {code}")
            written.append(path)
    finally:
        os.chdir(old)
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in draw(OUT):
        print(p.relative_to(HERE))
    sys.exit(0)
