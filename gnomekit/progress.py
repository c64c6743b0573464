"""The one progress display of the command line: done / total, rate and time left, on stderr.

Shown only when stderr is a terminal and the answer is not ``--json`` (so pipes, files
and JSON output never see it).  It renders the :class:`~gnomekit.solver.core.batch.Progress`
the batch runner reports; the library itself never prints.

Drawn by tqdm: a small, well-kept library with no dependencies of its own (80 KB,
against rich's 310 KB plus three packages, for the same import time here, about 50 ms),
whose default bar already shows done/total, the rate and the time left.  A core dependency.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import IO, Any

from tqdm import tqdm

from gnomekit.solver.core.batch import Progress


class Display:
    """A progress bar for one batch (a callable taking a Progress), closed by ``with`` or ``close``."""

    def __init__(self, label: str, enabled: bool, stream: IO[str] | None = None, unit: str = "task") -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.unit = unit
        self.enabled = enabled
        self.bar: Any = None
        self.calls = 0

    def __call__(self, p: Progress) -> None:
        self.calls += 1
        if not self.enabled:
            return
        if self.bar is None:
            self.bar = tqdm(total=p.total, desc=self.label, unit=self.unit, file=self.stream, leave=False,
                            dynamic_ncols=True, mininterval=0.2)
        self.bar.update(p.done - self.bar.n)
        if p.failed:
            self.bar.set_postfix_str(f"{p.failed} failed", refresh=False)
        if p.done >= p.total:
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Display:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def display(label: str, as_json: bool = False, stream: IO[str] | None = None, unit: str = "task") -> Display:
    """A display for one batch: drawn only on a terminal and never for a ``--json`` answer."""
    out = stream if stream is not None else sys.stderr
    on = not as_json and bool(getattr(out, "isatty", lambda: False)())
    return Display(label, on, out, unit)
