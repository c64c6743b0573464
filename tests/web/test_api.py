"""The web API (gnomekit.web.app) through Starlette's TestClient: every endpoint, every game, the errors.

Each answer must be the CLI's own: the ``answer`` of a request equals what ``gnomekit GAME VERB FILE
--json`` prints for the same position and options, and the exit status is ``status``.
"""

from __future__ import annotations

import asyncio
import io
import json
import warnings
import xml.etree.ElementTree as ET
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the test extra)")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 and warns about httpx; both work
    warnings.filterwarnings("ignore", message="Using `httpx` with")
    from starlette.testclient import TestClient  # noqa: E402

from gnomekit.cli import main  # noqa: E402
from gnomekit.web import app as web_app  # noqa: E402
from gnomekit.web import runner  # noqa: E402

#: Per game: an illegal but well-formed move, a malformed one, the options of the asks.
CASES: dict[str, dict[str, Any]] = {
    "hedge-mage": {"illegal": "T4:R0@0,0", "rule": "out-of-bounds", "bad": "T4:R0@zz", "args": ""},
    "gnome-hollow": {"illegal": "G07@5,5:r0", "rule": "not-adjacent", "bad": "G07@x", "args": ""},
    "gnomes-at-midnight": {"illegal": "pass", "rule": "pass-not-allowed", "bad": "9,9-zz", "args": "",
                           "slow_args": "--depth 2"},
    "hexen-rennen": {"illegal": "0 fog:3", "rule": None, "bad": "??", "args": "--roll 4", "slow_args": "--roll 4"},
}
GAMES = list(CASES)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(web_app.create_app(), base_url="http://127.0.0.1")


@pytest.fixture(scope="module")
def positions(client: TestClient) -> dict[str, str]:
    out = {}
    for game in GAMES:
        r = client.post(f"/api/{game}/new", json={})
        assert r.status_code == 200, r.text
        out[game] = r.json()["position"]
    return out


def cli_json(tmp_path: Path, game: str, verb: str, position: str | None, *options: str) -> tuple[int, Any]:
    """What ``gnomekit GAME VERB FILE OPTIONS --json`` prints, and its exit status."""
    argv = [game, verb]
    if position is not None:
        f = tmp_path / f"{game}-{verb}.txt"
        f.write_text(position, encoding="utf-8")
        argv.append(str(f))
    buf = io.StringIO()
    with redirect_stdout(buf):
        status = main([*argv, *options, "--json"])
    return status, json.loads(buf.getvalue())


def well_formed_svg(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    return root


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for ref in ("/static/app.js", "/static/style.css"):
        assert ref in page.text
        r = client.get(ref)
        assert r.status_code == 200 and len(r.text) > 500
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from the network
    assert client.get("/static/nothing.js").status_code == 404


def test_games(client: TestClient) -> None:
    body = client.get("/api/games").json()
    assert [g["name"] for g in body["games"]] == GAMES
    assert body["budget"] == {"default": web_app.DEFAULT_BUDGET, "max": web_app.MAX_BUDGET}
    hexen = body["games"][3]
    assert hexen["move_option"] == "--turn" and hexen["options"]["hint"] == "--roll 4"


@pytest.mark.parametrize("game", GAMES)
def test_puzzles_list_and_load(client: TestClient, game: str, tmp_path: Path) -> None:
    from importlib import import_module

    from gnomekit import api

    files = import_module(f"gnomekit.solver.{api.entry(game).package}.puzzles").puzzle_files()
    listed = client.get(f"/api/{game}/puzzles").json()["puzzles"]
    assert [p["file"] for p in listed] == [f.name for f in files]
    first = listed[0]
    r = client.get(f"/api/{game}/puzzles/{first['name']}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["puzzle"]["name"] == first["name"]
    status, shown = cli_json(tmp_path, game, "show", body["position"])
    assert (body["status"], body["answer"]) == (status, shown)
    well_formed_svg(body["svg"])
    missing = client.get(f"/api/{game}/puzzles/no-such-puzzle")
    assert missing.status_code == 400 and missing.json()["answer"]["source"] == "puzzle"


@pytest.mark.parametrize("game", GAMES)
def test_new_random_read(client: TestClient, game: str, tmp_path: Path) -> None:
    r = client.post(f"/api/{game}/random", json={"seed": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == 0 and body["command"] == f"gnomekit {game} random --seed 3 --json"
    assert (0, body["answer"]) == cli_json(tmp_path, game, "random", None, "--seed", "3")
    well_formed_svg(body["svg"])
    # The position text reads back; as JSON too (the answer of `new` is the position's JSON object).
    read = client.post(f"/api/{game}/read", json={"position": body["position"]}).json()
    assert read["status"] == 0
    well_formed_svg(read["svg"])
    assert read["answer"] == cli_json(tmp_path, game, "show", body["position"])[1]
    new = client.post(f"/api/{game}/new", json={}).json()
    as_json = client.post(f"/api/{game}/read", json={"position": new["answer"]})
    assert as_json.status_code == 200, as_json.text


@pytest.mark.parametrize("game", GAMES)
def test_check_illegal_move_is_200_with_its_reasons(client: TestClient, positions: dict[str, str], game: str,
                                                    tmp_path: Path) -> None:
    case = CASES[game]
    r = client.post(f"/api/{game}/check", json={"position": positions[game], "move": case["illegal"],
                                               "args": case["args"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == 1 and body["answer"]["legal"] is False
    option = runner.GAME_INFO[game].move_option
    words = case["illegal"].split() if game == "gnome-hollow" else [case["illegal"]]
    assert (1, body["answer"]) == cli_json(tmp_path, game, "check", positions[game], *case["args"].split(),
                                           option, *words)
    if case["rule"]:
        assert case["rule"] in json.dumps(body["answer"])
    else:
        assert body["answer"]["reasons"]
    assert body["text"].startswith("illegal") or "illegal" in body["text"]
    well_formed_svg(body["svg"])


@pytest.mark.parametrize("game", GAMES)
def test_check_malformed_move_is_400_located(client: TestClient, positions: dict[str, str], game: str,
                                             tmp_path: Path) -> None:
    case = CASES[game]
    r = client.post(f"/api/{game}/check", json={"position": positions[game], "move": case["bad"],
                                               "args": case["args"]})
    assert r.status_code == 400, r.text
    body = r.json()
    option = runner.GAME_INFO[game].move_option
    assert (2, body["answer"]) == cli_json(tmp_path, game, "check", positions[game], *case["args"].split(),
                                           option, case["bad"])
    assert body["status"] == 2 and body["answer"]["message"] and body["svg"] is None


@pytest.mark.parametrize("game", GAMES)
def test_bad_position_is_400_with_line_and_column(client: TestClient, positions: dict[str, str], game: str) -> None:
    broken = positions[game].splitlines()
    broken[2] = "nonsense: !!"
    r = client.post(f"/api/{game}/moves", json={"position": "\n".join(broken) + "\n", "args": CASES[game]["args"]})
    assert r.status_code == 400, r.text
    err = r.json()["answer"]
    assert err["source"] == "<position>" and err["line"] is not None
    assert "<position>" in r.json()["text"] and "gnomekit-web-" not in r.text  # no temporary path leaks


@pytest.mark.parametrize("game", GAMES)
def test_moves(client: TestClient, positions: dict[str, str], game: str, tmp_path: Path) -> None:
    args = CASES[game]["args"]
    body = client.post(f"/api/{game}/moves", json={"position": positions[game], "args": args}).json()
    assert (body["status"], body["answer"]) == cli_json(tmp_path, game, "moves", positions[game], *args.split())
    assert body["answer"]["count"] > 0
    well_formed_svg(body["svg"])


@pytest.mark.parametrize("verb", ["solve", "hint"])
@pytest.mark.parametrize("game", GAMES)
def test_solve_and_hint_in_a_child(client: TestClient, positions: dict[str, str], game: str, verb: str,
                                   tmp_path: Path) -> None:
    args = CASES[game].get("slow_args", "")
    r = client.post(f"/api/{game}/{verb}", json={"position": positions[game], "args": args, "budget": 15})
    assert r.status_code == 200, r.text
    body = r.json()
    status, expected = cli_json(tmp_path, game, verb, positions[game], *args.split())
    drop = {"seconds", "nodes", "stats"}  # timings differ between two runs

    def same(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if k not in drop}

    assert body["status"] == status and same(body["answer"]) == same(expected)
    assert body["budget"] == 15 and 0 < body["seconds"] < 15 and body["text"]
    well_formed_svg(body["svg"])


def test_options_as_an_object(client: TestClient, positions: dict[str, str]) -> None:
    game = "hexen-rennen"
    r = client.post(f"/api/{game}/moves", json={"position": positions[game], "options": {"roll": 4, "count": True}})
    assert r.status_code == 200 and "moves" not in r.json()["answer"] and r.json()["answer"]["count"] > 0
    assert "--count" in r.json()["command"]
    placements = "G07@0,-1:r2 G40@1,-1:r4"  # check --place takes several words
    r = client.post("/api/gnome-hollow/check", json={"position": positions["gnome-hollow"], "move": placements})
    assert r.status_code == 200 and r.json()["answer"]["legal"] is True and len(r.json()["answer"]["tiles"]) == 2


@pytest.mark.parametrize(("body", "where"), [
    ({"args": "--svg /tmp/x.svg"}, "options"),
    ({"args": "-h"}, "options"),
    ({"args": "--no-such-option"}, "options"),
    ({"args": "--js"}, "options"),  # no abbreviations: --js is not --json
    ({"args": "'unclosed"}, "options"),
    ({"options": {"no-such": 1}}, "options"),
    ({"options": [1]}, "options"),
    ({"budget": "soon"}, "budget"),
    ({"budget": -1}, "budget"),
])
def test_bad_requests_are_400(client: TestClient, positions: dict[str, str], body: dict[str, Any],
                              where: str) -> None:
    r = client.post("/api/gnomes-at-midnight/hint", json={"position": positions["gnomes-at-midnight"], **body})
    assert r.status_code == 400, r.text
    assert r.json()["status"] == 2 and r.json()["answer"]["source"] == where


def test_bad_bodies_and_names(client: TestClient, positions: dict[str, str]) -> None:
    r = client.post("/api/hedge/check", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["answer"]["message"]
    r = client.post("/api/hedge/check", content=b"position=x", headers={"content-type": "text/plain"})
    assert r.status_code == 400 and "Content-Type" in r.json()["answer"]["message"]
    r = client.post("/api/hedge/check", json=[1, 2])
    assert r.status_code == 400 and "object" in r.json()["answer"]["message"]
    r = client.post("/api/hedge/check", json={"move": "T4:R0@0,0"})
    assert r.status_code == 400 and r.json()["answer"]["source"] == "position"
    r = client.post("/api/hedge/check", json={"position": positions["hedge-mage"]})
    assert r.status_code == 400 and r.json()["answer"]["source"] == "move"
    r = client.post("/api/chess/new", json={})
    assert r.status_code == 400 and r.json()["answer"]["source"] == "game"
    assert client.post("/api/hedge/teleport", json={}).status_code == 404
    assert client.get("/api/hedge/check").status_code == 405
    # an alias names the same game
    assert client.post("/api/hedge/new", json={}).json()["command"].startswith("gnomekit hedge-mage new")


def test_other_hosts_are_refused(client: TestClient) -> None:
    assert client.get("/api/games", headers={"host": "evil.example"}).status_code == 400


def test_a_server_failure_is_500_and_the_server_keeps_going(client: TestClient, positions: dict[str, str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: Any, **kw: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(runner, "run", boom)
    r = client.post("/api/hedge-mage/moves", json={"position": positions["hedge-mage"]})
    assert r.status_code == 500 and "disk on fire" in r.json()["answer"]["message"]
    monkeypatch.undo()
    assert client.post("/api/hedge-mage/moves", json={"position": positions["hedge-mage"]}).status_code == 200


def test_a_solve_past_its_budget_is_stopped(client: TestClient, positions: dict[str, str]) -> None:
    # The child cannot even start Python in 0.05 s: it is stopped, quickly, and the answer is unknown
    # (HTTP 200, exit status 1), with nothing found and nothing proven: not "no", not an error.
    r = client.post("/api/gnomes-at-midnight/solve", json={"position": positions["gnomes-at-midnight"],
                                                           "budget": 0.05})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == 1 and body["unknown"] is True and body["seconds"] < 2
    assert body["answer"] == {"status": "unknown", "value": None, "witness": None, "bound": None,
                              "exhausted": "0.05 s", "reason": body["answer"]["reason"]}
    assert "0.05 s ran out" in body["text"] and body["text"].startswith("unknown: ") and body["svg"] is None
    assert body["command"] == "gnomekit gnomes-at-midnight solve '<position>' --json"
    capped = client.post("/api/gnomes-at-midnight/hint", json={"position": positions["gnomes-at-midnight"],
                                                               "args": "--depth 1", "budget": 999}).json()
    assert capped["budget"] == web_app.MAX_BUDGET


def test_a_search_cut_short_answers_the_clis_unknown_object(client: TestClient, positions: dict[str, str],
                                                            tmp_path: Path) -> None:
    """The budget goes to the verb as its ``--time-limit``: a search too deep for it stops itself and
    the answer is the CLI's own unknown object (the depths proven as the bound), HTTP 200, status 1."""
    game = "gnomes-at-midnight"
    r = client.post(f"/api/{game}/solve", json={"position": positions[game], "args": "--depth 9 --decks hidden",
                                                 "budget": 4})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == 1 and body["unknown"] is True, body
    answer = body["answer"]
    assert answer["result"] == "unknown" and "no_win_within" in answer["bound"] and answer["move"] is None
    words = body["command"].split()
    limit = words[words.index("--time-limit") + 1]
    assert 0 < float(limit) < 2 and body["seconds"] < 4 + 1
    status, cli = cli_json(tmp_path, game, "solve", positions[game], "--depth", "9", "--decks", "hidden",
                           "--time-limit", limit)
    assert status == 1 and set(answer) == set(cli) and cli["result"] == "unknown"
    assert {k: v for k, v in answer.items() if k not in ("bound", "nodes", "exhausted")} == \
        {k: v for k, v in cli.items() if k not in ("bound", "nodes", "exhausted")}
    # The words of the same run (a second search cut short elsewhere could say another bound).
    proven = answer["bound"]["no_win_within"]
    said = f"no forced win within {proven} turn(s)" if proven else "proven: nothing"
    assert "unknown" in body["text"] and said in body["text"]


def test_a_solved_answer_is_not_unknown(client: TestClient, positions: dict[str, str]) -> None:
    r = client.post("/api/gnome-hollow/hint", json={"position": positions["gnome-hollow"], "budget": 15})
    assert r.status_code == 200 and r.json()["unknown"] is False and r.json()["status"] == 0
    assert "--time-limit" in r.json()["command"]


def test_the_budget_becomes_the_verbs_time_limit_where_it_has_one(positions: dict[str, str]) -> None:
    from gnomekit.web import worker

    assert runner.with_time_limit("gnome-hollow", "solve", ["--weights", "1"], 2.5) == \
        ["--weights", "1", "--time-limit", "2.500"]
    assert runner.with_time_limit("gnome-hollow", "hint", [], -3) == ["--time-limit", "0.010"]
    assert runner.with_time_limit("gnome-hollow", "hint", ["--time-limit", "9"], 2) is None  # the caller's own
    assert runner.with_time_limit("gnome-hollow", "hint", ["--time-limit=9"], 2) is None
    assert runner.with_time_limit("hexen-rennen", "solve", ["--roll", "4"], 2) is None  # it has none
    # Each run: half of what is left after the worker started, less a reserve for each run; never
    # more than the budget (a clock set back).
    assert worker.seconds_left({"budget": 10, "started": 100.0}, 102.0) == 8
    assert worker.seconds_left({"budget": 10, "started": 100.0}, 50.0) == 10
    assert worker.time_limit({"budget": 10, "started": 100.0}, 102.0) == (8 - 2 * worker.RESERVE) / 2
    assert worker.time_limit({}, 1.0) is None and worker.seconds_left({"budget": 1}, 1.0) is None
    # Hedge Mage solve has no time budget without --plan: its CLI refuses the option, so it runs without.
    refused = runner.run_once("hedge-mage", "solve", positions["hedge-mage"], ["--time-limit", "3"], as_json=True)
    assert refused.status == 2 and runner.refuses_time_limit(refused)
    out, used = worker.first_run("hedge-mage", "solve", positions["hedge-mage"], [], 3.0)
    assert out.status == 0 and used == [] and "--time-limit" not in out.to_json()["command"]
    out, used = worker.first_run("gnome-hollow", "solve", positions["gnome-hollow"], [], 3.0)
    assert out.status == 0 and used == ["--time-limit", "3.000"] and "--time-limit 3.000" in out.to_json()["command"]
    # An unknown answer keeps the words of its own run; a solved one is run again without --json.
    cut = runner.run_once("gnomes-at-midnight", "solve", positions["gnomes-at-midnight"],
                          ["--depth", "9", "--decks", "hidden", "--max-nodes", "50"], as_json=True)
    assert runner.is_unknown(cut.data) and "unknown" in cut.text
    assert worker.answer_text("gnomes-at-midnight", "solve", positions["gnomes-at-midnight"], [], cut) == cut.text
    assert worker.answer_text("gnome-hollow", "solve", positions["gnome-hollow"], used, out) == \
        runner.run_once("gnome-hollow", "solve", positions["gnome-hollow"], used, as_json=False).text
    bad = runner.run_once("gnome-hollow", "solve", "gnome-hollow position\n", ["--time-limit", "3"], as_json=True)
    assert bad.status == 2 and not runner.refuses_time_limit(bad)  # a bad position stays bad input


def test_unknown_answers_as_each_game_says_them() -> None:
    assert runner.is_unknown({"status": "unknown", "value": 2.0})  # Gnome Hollow, Hexen Rennen --expect
    assert runner.is_unknown({"result": "unknown", "bound": {"no_win_within": 1}})  # Gnomes at Midnight solve
    assert runner.is_unknown({"move": "0,1-1,1", "unknown": True})  # Gnomes at Midnight hint
    assert not runner.is_unknown({"status": "optimal"}) and not runner.is_unknown({"result": "no-win"})
    assert not runner.is_unknown({"unknown": False})


def test_a_cancelled_solve_is_stopped(positions: dict[str, str]) -> None:
    class Gone:
        async def is_disconnected(self) -> bool:
            return True

    async def go() -> Any:
        return await web_app._in_child(Gone(), "gnomes-at-midnight", "solve",  # type: ignore[arg-type]
                                       positions["gnomes-at-midnight"], ["--depth", "2"], 15.0)

    r = asyncio.run(go())
    assert r.status_code == 499 and json.loads(r.body)["answer"]["error"] == "Cancelled"
    assert json.loads(r.body)["seconds"] < 3


#: Per game, for ``apply`` (the protocol's notation): an illegal move of the position ``new`` gives,
#: the rule it breaks, and a malformed move.
APPLY: dict[str, tuple[str, str, str]] = {
    "hedge-mage": ("T4:R0@0,0", "out-of-bounds", "T4:R0@zz"),
    "gnome-hollow": ("G07@5,5:r0", "not-adjacent", "G07@x"),
    "gnomes-at-midnight": ("pass", "pass-not-allowed", "9,9-zz"),
    "hexen-rennen": ("witch 3", "turn-phase", "??"),
}


@pytest.mark.parametrize("game", GAMES)
def test_apply_a_legal_move_answers_the_next_position_like_read(client: TestClient, positions: dict[str, str],
                                                                 game: str, tmp_path: Path) -> None:
    import gnomekit

    pos = gnomekit.game(game).read(positions[game])
    move = pos.legal_moves()[-1]
    r = client.post(f"/api/{game}/apply", json={"position": positions[game], "move": pos.move_text(move)})
    assert r.status_code == 200, r.text
    body = r.json()
    after = pos.apply(move)
    assert body["status"] == 0 and body["legal"] is True and body["move"] == pos.move_text(move)
    assert gnomekit.game(game).read(body["position"]) == after and body["position"] != positions[game]
    assert (0, body["answer"]) == cli_json(tmp_path, game, "show", after.to_text())  # as read answers it
    assert body["text"] == client.post(f"/api/{game}/read", json={"position": after.to_text()}).json()["text"]
    expected = "chance" if after.is_chance_node() else "over" if after.is_terminal() else after.current_player()
    assert body["to_move"] == expected and body["result"] == after.result()
    well_formed_svg(body["svg"])


@pytest.mark.parametrize("game", GAMES)
def test_apply_an_illegal_move_is_200_and_changes_nothing(client: TestClient, positions: dict[str, str],
                                                          game: str) -> None:
    import gnomekit

    move, rule, _bad = APPLY[game]
    r = client.post(f"/api/{game}/apply", json={"position": positions[game], "move": move})
    assert r.status_code == 200, r.text
    body = r.json()
    report = gnomekit.game(game).read(positions[game]).check(move)
    assert body["status"] == 1 and body["legal"] is False and body["position"] == positions[game]
    assert body["violations"] == [v.to_json() for v in report.violations] and body["violations"]
    assert body["violations"][0]["rule"] == rule and rule in body["text"]
    well_formed_svg(body["svg"])


@pytest.mark.parametrize("game", GAMES)
def test_apply_malformed_input_is_400_located(client: TestClient, positions: dict[str, str], game: str) -> None:
    bad = APPLY[game][2]
    r = client.post(f"/api/{game}/apply", json={"position": positions[game], "move": bad})
    assert r.status_code == 400, r.text
    err = r.json()["answer"]
    assert err["source"] == "<move>" and err["column"] is not None and err["text"] == bad
    broken = positions[game].splitlines()
    broken[2] = "nonsense: !!"
    r = client.post(f"/api/{game}/apply", json={"position": "\n".join(broken) + "\n", "move": APPLY[game][0]})
    assert r.status_code == 400 and r.json()["answer"]["source"] == "<position>" and r.json()["answer"]["line"]
    assert client.post(f"/api/{game}/apply", json={"position": positions[game]}).json()["answer"]["source"] == "move"


def test_apply_through_a_moonlight_flip(client: TestClient, positions: dict[str, str]) -> None:
    """A Midnight move with an unknown deck stops at the flip: its outcomes are offered, a flip ends the turn."""
    import gnomekit

    hidden = gnomekit.game("gnomes-at-midnight").read(positions["gnomes-at-midnight"]).hidden()
    body = client.post("/api/midnight/apply", json={"position": hidden.to_text(), "move": "0,0-0,1"}).json()
    assert body["status"] == 0 and body["to_move"] == "chance" and "after-move: yes" in body["position"]
    assert [c["move"] for c in body["chance"]] == ["flip grass", "flip tulips", "flip cobblestone"]
    assert body["chance"][0]["probability"] == "1/3" and "between turns" in body["note"]
    well_formed_svg(body["svg"])
    step = client.post("/api/midnight/apply", json={"position": body["position"], "move": "0,1-0,2"}).json()
    assert step["status"] == 1 and step["violations"][0]["rule"] == "flip-pending"
    flip = client.post("/api/midnight/apply", json={"position": body["position"], "move": "flip tulips"}).json()
    assert flip["status"] == 0 and flip["to_move"] == 1 and "moon: green tulips" in flip["position"]
    assert "note" not in flip


def test_apply_a_placement_given_as_its_json_object(client: TestClient, positions: dict[str, str]) -> None:
    """What the page sends for a Hedge Mage placement picked from ``moves`` (its JSON has no notation)."""
    listed = client.post("/api/hedge/moves", json={"position": positions["hedge-mage"]}).json()["answer"]
    placement = listed["placements"][0]
    body = client.post("/api/hedge/apply", json={"position": positions["hedge-mage"], "move": placement}).json()
    assert body["status"] == 0 and body["move"] == "T4:R270@1,0" and "hedges: a=T4" in body["position"]
    assert "tile: -" in body["position"] and body["to_move"] == "over"
