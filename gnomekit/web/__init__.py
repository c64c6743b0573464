"""``gnomekit serve``: a local web page over the command line's answers.

The page (``static/``: one HTML page, one script, one style sheet; no framework, nothing loaded
from the network) calls a small JSON API (:mod:`gnomekit.web.app`) whose every answer is the one
``gnomekit GAME VERB --json --svg`` gives (:mod:`gnomekit.web.runner`), so the page and the CLI
cannot disagree.

Why Starlette and uvicorn (the optional extra ``gnomekit[web]``): Starlette is a small, well-kept
ASGI toolkit (routing, static files, a test client) with few dependencies and no opinions about
models or templates, which is all a page over an existing CLI needs; being async, a long solve
waits on its child process without holding a thread, and a cancelled request stops it.  uvicorn is
the reference ASGI server to run it, and stops cleanly on Ctrl-C.  FastAPI would add pydantic and
a schema layer for an API whose answers are the CLI's own JSON objects, documented in docs/web.md.
"""

from __future__ import annotations

from importlib.util import find_spec

#: What ``pip`` installs for the web page.
EXTRA = "pip install 'gnomekit[web]'"


def missing() -> list[str]:
    """The modules the web page needs that are not installed (starlette, uvicorn)."""
    return [m for m in ("starlette", "uvicorn") if find_spec(m) is None]
