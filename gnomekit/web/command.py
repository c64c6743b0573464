"""``gnomekit serve``: start the local web page (needs the optional extra ``gnomekit[web]``)."""

from __future__ import annotations

import argparse
import sys

from gnomekit.common import OK, Answer
from gnomekit.models.core.errors import UsageError


def cmd_serve(args: argparse.Namespace) -> Answer:
    """Bind, print the address, serve until Ctrl-C."""
    from gnomekit.web import EXTRA, missing

    lacking = missing()
    if lacking:
        raise UsageError(f"the web page needs {' and '.join(lacking)}, which are not installed: {EXTRA}",
                         source="gnomekit serve")
    if not 0 <= args.port <= 65535:
        raise UsageError("expected a port 0..65535 (0: a free port)", source="--port", text=str(args.port))
    from gnomekit.web.server import bind, serve

    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", source="--port") from None

    def ready(url: str) -> None:
        sys.stdout.write(f"gnomekit serve: {url}  (Ctrl-C stops it)\n")
        sys.stdout.flush()

    try:
        serve(sock, ready)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return Answer({"stopped": True}, "gnomekit serve: stopped", OK)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="a local web page: load, draw, check, solve and hint positions",
                       description="Serve the gnomekit web page on this machine (needs gnomekit[web]).")
    p.add_argument("--port", type=int, default=0, help="TCP port (default 0: a free port, printed on start)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.set_defaults(func=cmd_serve)
