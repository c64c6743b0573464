"""The Starlette app behind ``gnomekit serve``: the page, its static files and the JSON API.

Every API answer is a CLI run (:mod:`gnomekit.web.runner`): ``{"status", "answer", "text", "svg",
"command"}`` where ``answer`` is the object ``--json`` prints and ``status`` the exit status.  Exit 2
(bad input: the located error object) is HTTP 400; an illegal move (exit 1) is HTTP 200.  ``apply``
(the position after a move, for building a position by clicking) goes through the game protocol.  A failure
of the server's own is HTTP 500 with a message; the server keeps running.  ``solve`` and ``hint``
run in a child process (:mod:`gnomekit.web.worker`) under the request's budget (seconds, default
:data:`DEFAULT_BUDGET`, at most :data:`MAX_BUDGET`), given to the verb as its ``--time-limit`` where
it has one, and stopped at the budget or when the request is cancelled.  A budget that runs out is an
answer, not an error: HTTP 200, exit status 1 and ``"unknown": true``, with the CLI's own unknown
object (the best found and a bound), or, when the search was stopped before it answered,
:func:`gnomekit.web.runner.unknown_outcome` (nothing found, nothing proven).
The endpoints are listed in docs/web.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gnomekit.models.core.errors import GnomekitError, UsageError
from gnomekit.web import runner

#: Seconds a solve or hint may take when the request names no budget, and at most.
DEFAULT_BUDGET = 10.0
MAX_BUDGET = 20.0
#: The host names the app answers (a page on another site reaching it by DNS rebinding is refused).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")

log = logging.getLogger("gnomekit.web")


def _error(http: int, error: str, message: str, **more: Any) -> JSONResponse:
    """A response in the shape of a CLI error (``status`` 2 or ``"error"``) that is not the CLI's own."""
    body = {"status": 2 if http == 400 else "error",
            "answer": {"error": error, "message": message, "source": more.pop("source", None), "line": None,
                       "column": None, "text": more.pop("text", None)},
            "text": f"gnomekit: error: {message}", "svg": None, **more}
    return JSONResponse(body, status_code=http)


def _answer(out: runner.Outcome, **more: Any) -> JSONResponse:
    return JSONResponse({**out.to_json(), **more}, status_code=400 if out.status == 2 else 200)


def _usage(exc: GnomekitError) -> JSONResponse:
    """A usage error found before the CLI ran (a bad request field): HTTP 400, the CLI's error object."""
    return JSONResponse({"status": 2, "answer": exc.to_json(), "text": f"gnomekit: error: {exc}", "svg": None},
                        status_code=400)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``); the page always posts JSON."""
    raw = await request.body()
    if not raw.strip():
        return {}
    if "json" not in request.headers.get("content-type", ""):
        raise UsageError("expected a JSON body (Content-Type: application/json)", source="request")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"the request body is not JSON: {exc}", source="request") from None
    if not isinstance(data, dict):
        raise UsageError("the request body must be a JSON object", source="request")
    return data


def _position(body: dict[str, Any]) -> str:
    """The posted position: text, or a JSON object (written as JSON for the reader)."""
    pos = body.get("position")
    if isinstance(pos, dict | list):
        return json.dumps(pos)
    if not isinstance(pos, str) or not pos.strip():
        raise UsageError("the request needs a position (its text or its JSON object)", source="position")
    return pos


def _budget(body: dict[str, Any]) -> float:
    value = body.get("budget", DEFAULT_BUDGET)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise UsageError("budget: expected a number of seconds > 0", source="budget", text=str(value))
    return float(min(value, MAX_BUDGET))


def _options(game: str, verb: str, body: dict[str, Any], move: bool = False) -> list[str]:
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise UsageError("options: expected an object (option name -> value)", source="options")
    for key in ("seed",):  # a shorthand of new and random
        if key in body and verb in ("new", "random"):
            options = {**options, key: body[key]}
    text = body.get("move") if move else None
    if move and (not isinstance(text, str) or not text.strip()):
        raise UsageError("check needs a move (the game's notation)", source="move")
    return runner.option_args(game, verb, options, body.get("args"), text)


async def games(request: Request) -> Response:
    return JSONResponse({"games": runner.games(), "budget": {"default": DEFAULT_BUDGET, "max": MAX_BUDGET}})


async def puzzles(request: Request) -> Response:
    game = runner.game_name(request.path_params["game"])
    found = await run_in_threadpool(runner.puzzles, game)
    return JSONResponse({"game": game, "puzzles": [{k: v for k, v in p.items() if k != "position"} for p in found]})


async def puzzle(request: Request) -> Response:
    game = runner.game_name(request.path_params["game"])
    p = await run_in_threadpool(runner.puzzle, game, request.path_params["name"])
    out = await run_in_threadpool(runner.run, game, "show", p["position"], [])
    return _answer(out, puzzle={k: v for k, v in p.items() if k != "position"}, position=p["position"])


async def make(request: Request) -> Response:
    """``new`` and ``random``: the CLI's position (text and JSON) and its picture."""
    game, verb = runner.game_name(request.path_params["game"]), request.path_params["verb"]
    body = await _body(request)
    out = await run_in_threadpool(runner.position_outcome, game, verb, _options(game, verb, body))
    return _answer(out, position=out.text if out.status != 2 else None)


async def read(request: Request) -> Response:
    """``read``: ``show`` of the posted position (it reads back as the same position)."""
    game = runner.game_name(request.path_params["game"])
    body = await _body(request)
    out = await run_in_threadpool(runner.run, game, "show", _position(body), _options(game, "show", body))
    return _answer(out, position=out.text if out.status != 2 else None)


async def apply(request: Request) -> Response:
    """``apply``: the position after a move, through the protocol (:func:`gnomekit.web.runner.apply_move`)."""
    game = runner.game_name(request.path_params["game"])
    body = await _body(request)
    move = body.get("move")
    if isinstance(move, dict):  # a move's JSON object (a placement), as the game's reader takes it
        move = json.dumps(move)
    if not isinstance(move, str) or not move.strip():
        raise UsageError("apply needs a move (the game's notation or its JSON object)", source="move")
    http, answer = await run_in_threadpool(runner.apply_move, game, _position(body), move)
    return JSONResponse(answer, status_code=http)


async def ask(request: Request) -> Response:
    """``check`` and ``moves`` (in a thread: they are quick), ``solve`` and ``hint`` (in a child, budgeted)."""
    game, verb = runner.game_name(request.path_params["game"]), request.path_params["verb"]
    body = await _body(request)
    position = _position(body)
    options = _options(game, verb, body, move=verb == "check")
    if verb not in runner.SLOW_VERBS:
        return _answer(await run_in_threadpool(runner.run, game, verb, position, options))
    return await _in_child(request, game, verb, position, options, _budget(body))


async def _in_child(request: Request, game: str, verb: str, position: str, options: list[str],
                    budget: float) -> Response:
    """Run a slow verb in :mod:`gnomekit.web.worker`; kill it at the budget or when the client goes away."""
    start, started = time.monotonic(), time.time()  # the worker counts its share of the budget from `started`
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gnomekit.web.worker", stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, limit=1 << 28)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(json.dumps({"game": game, "verb": verb, "position": position, "options": options,
                                 "budget": budget, "started": started}).encode())
    await proc.stdin.drain()
    proc.stdin.close()
    lines: list[dict[str, Any]] = []
    gone = False
    try:
        while len(lines) < 2:
            left = start + budget - time.monotonic()
            if left <= 0:
                break
            if await request.is_disconnected():
                gone = True
                break
            try:
                line = await asyncio.wait_for(proc.stdout.readline(), timeout=min(0.25, left))
            except TimeoutError:
                continue
            if not line:
                break
            lines.append(json.loads(line))
            if "crash" in lines[-1] or lines[-1].get("status") == 2:
                break
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
    seconds = round(time.monotonic() - start, 3)
    timing: dict[str, Any] = {"budget": budget, "seconds": seconds}
    if gone:
        return _error(499, "Cancelled", "the request was cancelled; the search was stopped", **timing)
    if lines and "crash" in lines[0]:
        log.error("%s %s failed in the worker: %s", game, verb, lines[0].get("trace"))
        return _error(500, "ServerError", f"{game} {verb} failed: {lines[0]['crash']}", **timing)
    if not lines:
        err = (await proc.stderr.read()).decode(errors="replace").strip().splitlines()
        if proc.returncode not in (None, 0, -9) and err:
            return _error(500, "ServerError", f"{game} {verb}: the worker stopped: {err[-1]}", **timing)
        # Stopped at the budget before it answered: unknown (exit 1), never "no" and never an error.
        return JSONResponse({**runner.unknown_outcome(game, verb, options, budget).to_json(), "unknown": True,
                             **timing})
    body = lines[0]
    if len(lines) > 1:
        body["text"] = lines[1].get("text", "")
    elif body.get("status") != 2:
        body["text"] = None
        timing["note"] = "the text answer did not come within the budget (the JSON answer did)"
    if body.get("status") == 2:
        return JSONResponse({**body, **timing}, status_code=400)
    answer = body.get("answer")
    return JSONResponse({**body, "unknown": isinstance(answer, dict) and runner.is_unknown(answer), **timing})


async def index(request: Request) -> Response:
    return FileResponse(_static() + "/index.html", media_type="text/html")


def _static() -> str:
    from importlib.resources import files

    return str(files("gnomekit.web").joinpath("static"))


def create_app(hosts: tuple[str, ...] = LOOPBACK_HOSTS) -> Starlette:
    """The app; it answers requests whose Host is one of ``hosts`` (with any port)."""
    routes = [
        Route("/", index),
        Route("/api/games", _guard(games)),
        Route("/api/{game}/puzzles", _guard(puzzles)),
        Route("/api/{game}/puzzles/{name}", _guard(puzzle)),
        Route("/api/{game}/read", _guard(read), methods=["POST"]),
        Route("/api/{game}/apply", _guard(apply), methods=["POST"]),
        Mount("/static", StaticFiles(directory=_static()), name="static"),
    ]
    for verb in ("new", "random"):
        routes.append(Route(f"/api/{{game}}/{verb}", _guard(make, verb), methods=["POST"]))
    for verb in ("check", "moves", "solve", "hint"):
        routes.append(Route(f"/api/{{game}}/{verb}", _guard(ask, verb), methods=["POST"]))
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))])


Endpoint = Callable[[Request], Awaitable[Response]]


def _guard(endpoint: Endpoint, verb: str | None = None) -> Endpoint:
    """The endpoint (for ``verb``) with a bad request answered 400 and any failure of its own 500, logged."""

    async def handler(request: Request) -> Response:
        if verb is not None:
            request.path_params["verb"] = verb
        try:
            return await endpoint(request)
        except GnomekitError as exc:
            return _usage(exc)
        except Exception as exc:  # the server never dies on a request: it says what failed
            log.exception("%s %s failed", request.method, request.url.path)
            return _error(500, "ServerError", f"the server failed on this request: {type(exc).__name__}: {exc}")

    handler.__name__ = f"{endpoint.__name__}_{verb}" if verb else endpoint.__name__
    return handler
