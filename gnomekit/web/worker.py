"""The child process that runs one ``solve`` or ``hint`` for the web server (``python -m gnomekit.web.worker``).

It reads one request (JSON: game, verb, position, options) from standard input and writes two JSON
lines: the ``--json --svg`` run (:meth:`gnomekit.web.runner.Outcome.to_json`), then the text the
verb prints without ``--json``.  A search can run long: the server kills this process when the
request's budget is spent or the request is cancelled, keeping the first line if it came.
"""

from __future__ import annotations

import json
import sys
import traceback

from gnomekit.web.runner import run_once


def main() -> int:
    try:
        req = json.loads(sys.stdin.read())
        game, verb, position, options = req["game"], req["verb"], req.get("position"), list(req.get("options", []))
        out = run_once(game, verb, position, options, as_json=True)
        sys.stdout.write(json.dumps(out.to_json()) + "\n")
        sys.stdout.flush()
        if out.status != 2:
            text = run_once(game, verb, position, options, as_json=False).text
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
