"""Run the web app with uvicorn on a socket bound before it starts (so port 0 gives a known free port)."""

from __future__ import annotations

import socket
from collections.abc import Callable

from gnomekit.web.app import LOOPBACK_HOSTS, create_app


def bind(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free port the system picks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(sock: socket.socket, on_ready: Callable[[str], None] = lambda url: None) -> None:
    """Serve the app on ``sock`` until interrupted; ``on_ready(url)`` is called once it accepts requests.

    Ctrl-C (SIGINT) stops uvicorn gracefully; uvicorn then raises KeyboardInterrupt here, which the
    caller turns into a clean exit.
    """
    import uvicorn

    host = sock.getsockname()[0]
    hosts = LOOPBACK_HOSTS if host in LOOPBACK_HOSTS else (*LOOPBACK_HOSTS, host)
    config = uvicorn.Config(create_app(hosts), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    on_ready(url_of(sock))
    server.run(sockets=[sock])
