"""The child process that runs one ``solve`` or ``hint`` for the web server (``python -m gnomekit.web.worker``).

It reads one request (JSON: game, verb, position, options, and the request's ``budget`` in seconds
with the wall-clock time ``started`` it began) from standard input and writes two JSON lines: the
``--json --svg`` run (:meth:`gnomekit.web.runner.Outcome.to_json`), then the text the verb prints
without ``--json``.  Where the verb takes ``--time-limit`` (and the request does not set it), each
run gets half of the budget left once this process has started, less :data:`RESERVE`: the search
then stops itself and answers as the CLI does, unknown with the best found and a bound (whose words
are then the first run's own, :func:`answer_text`).  A search can still run long (a verb without a
time limit): the server kills this process when the budget is spent or the request is cancelled,
keeping the first line if it came.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from typing import Any

from gnomekit.web.runner import Outcome, is_unknown, refuses_time_limit, run_once, with_time_limit

#: Seconds kept back from the budget, per run, for what a run does after its search stops (checking the
#: answer, writing it and its picture).
RESERVE = 0.5


def seconds_left(req: dict[str, Any], now: float) -> float | None:
    """Seconds of the request's budget still left at ``now`` (None when the request carries no budget);
    never more than the budget (a clock set back)."""
    budget, started = req.get("budget"), req.get("started")
    if not isinstance(budget, int | float) or not isinstance(started, int | float):
        return None
    return min(float(budget), started + budget - now)


def time_limit(req: dict[str, Any], now: float) -> float | None:
    """Seconds the ``--json`` run may search: half of the budget still left, less a :data:`RESERVE` for
    each of the two runs (None when the request carries no budget)."""
    left = seconds_left(req, now)
    return None if left is None else (left - 2 * RESERVE) / 2


def first_run(game: str, verb: str, position: str | None, options: list[str],
              seconds: float | None) -> tuple[Outcome, list[str]]:
    """The ``--json`` run, with the time limit where the verb takes it, and the options it ran with."""
    timed = with_time_limit(game, verb, options, seconds) if seconds is not None else None
    if timed is not None:
        out = run_once(game, verb, position, timed, as_json=True)
        if not refuses_time_limit(out):
            return out, timed
    return run_once(game, verb, position, options, as_json=True), options


def answer_text(game: str, verb: str, position: str | None, options: list[str], out: Outcome) -> str:
    """The text the verb prints without ``--json``: run again with the same options, except for an
    unknown answer, whose words are taken from the same run (a second search cut short at another
    moment could find another best and another bound)."""
    if is_unknown(out.data) and out.text.strip():
        return out.text
    return run_once(game, verb, position, options, as_json=False).text


def main() -> int:
    try:
        req = json.loads(sys.stdin.read())
        game, verb, position, options = req["game"], req["verb"], req.get("position"), list(req.get("options", []))
        out, options = first_run(game, verb, position, options, time_limit(req, time.time()))
        sys.stdout.write(json.dumps(out.to_json()) + "\n")
        sys.stdout.flush()
        if out.status != 2:
            text = answer_text(game, verb, position, options, out)
            sys.stdout.write(json.dumps({"text": text}) + "\n")
            sys.stdout.flush()
    except Exception as exc:  # the server answers 500 with this; it must never see a bare traceback only
        sys.stdout.write(json.dumps({"crash": f"{type(exc).__name__}: {exc}",
                                     "trace": traceback.format_exc(limit=8)}) + "\n")
        sys.stdout.flush()
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a child process
    sys.exit(main())
