"""``gnomekit serve`` as a command: the message without the web extra, a bad port (the running server and
Ctrl-C are exercised by test_browser.py, which starts it as a user would)."""

from __future__ import annotations

import socket

import pytest

import gnomekit.web
from gnomekit.cli import main


def test_without_the_extra_it_names_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(gnomekit.web, "missing", lambda: ["starlette", "uvicorn"])
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "starlette and uvicorn" in err and "pip install 'gnomekit[web]'" in err


def test_a_bad_or_taken_port_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    assert main(["serve", "--port", "70000"]) == 2
    assert "port 0..65535" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
