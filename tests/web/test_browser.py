"""The web page in a real browser: ``gnomekit serve`` on a loopback port, driven by headless Chromium.

For every game: load a bundled puzzle and a new position, see it drawn, check an illegal move and
see its reasons, get a hint; a bad position shows its located error.  Screenshots go to
``/tmp/gnomekit-web-*.png``.  Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium``
package; without them the tests skip and say why (``.ci/run`` installs them and sets
``GNOMEKIT_BROWSER_TESTS=required``, which turns a skip into a failure).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.marks import first_by_default

SHOTS = Path("/tmp")
WAIT = 30  # seconds: the machine may be busy


def _unavailable() -> str | None:
    for module in ("starlette", "uvicorn"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[web]')"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for exe in ("chromium", "chromedriver"):
        if shutil.which(exe) is None:
            return f"{exe} is not installed (apt-get install chromium chromium-driver)"
    return None


REASON = _unavailable()
if REASON and os.environ.get("GNOMEKIT_BROWSER_TESTS") == "required":
    raise RuntimeError(f"the browser tests are required here but cannot run: {REASON}")
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}")

#: Per game: an illegal move of the position ``new`` gives, and a word its reasons contain.
ILLEGAL = {
    "hedge-mage": ("T4:R0@0,0", "out-of-bounds"),
    "gnome-hollow": ("G07@5,5:r0", "touches neither the Stump"),
    "gnomes-at-midnight": ("pass", "pass-not-allowed"),
    "hexen-rennen": ("0 fog:3", "nothing to decide"),
}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``gnomekit serve --port 0`` as a user starts it; the address is the first line it prints."""
    proc = subprocess.Popen([sys.executable, "-m", "gnomekit", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("gnomekit serve: http://127.0.0.1:"), (line, proc.stderr and proc.stderr.read())
    yield line.split()[2]
    proc.send_signal(signal.SIGINT)  # Ctrl-C: a clean stop, exit 0
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1500,1100", "--no-first-run", "--disable-extensions"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=opts)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, what: Any, message: str) -> Any:
    """Poll ``what`` until it holds; an element replaced while it was read (the page redraws the picture
    when an answer arrives) is read again at the next poll rather than failing the test."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(what, message)


def open_game(driver: Any, url: str, game: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    if not driver.current_url.startswith(url):
        driver.get(url)
    wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "yes",
             "the page did not start")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    wait_for(driver, lambda d: len(Select(d.find_element(By.ID, "puzzle")).options) > 0, "no puzzles listed")
    assert not picture(driver), "the previous game's picture is still shown"
    assert driver.find_element(By.ID, "position").get_attribute("value") == ""


def picture(driver: Any) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#picture svg")


@pytest.mark.parametrize("game", first_by_default(ILLEGAL, 1))
def test_load_draw_check_hint(server: str, browser: Any, game: str) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    open_game(d, server, game)
    text = d.find_element(By.ID, "position")

    # A bundled puzzle: drawn, its text in the box.
    d.find_element(By.ID, "load-puzzle").click()
    wait_for(d, lambda d: picture(d) and text.get_attribute("value").startswith(game), "the puzzle was not loaded")
    first = picture(d)[0].get_attribute("outerHTML")

    # A new position: another picture.
    d.find_element(By.ID, "new").click()
    wait_for(d, lambda d: picture(d) and picture(d)[0].get_attribute("outerHTML") != first, "new was not drawn")
    assert d.find_element(By.ID, "error").is_displayed() is False
    for v in ("check", "moves", "solve", "hint"):  # the puzzle's roll must not stick to the new position
        box = d.find_element(By.ID, f"{v}-options")
        if game == "hexen-rennen":
            box.clear()
            box.send_keys("--roll 4")

    # An illegal move: the verdict, its reasons, drawn.
    move, reason = ILLEGAL[game]
    d.find_element(By.ID, "move").clear()
    d.find_element(By.ID, "move").send_keys(move)
    d.find_element(By.ID, "check").click()
    verdict = d.find_element(By.ID, "verdict")
    wait_for(d, lambda d: verdict.text == "illegal", "check did not answer")
    reasons = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#reasons li")]
    assert any(reason in r for r in reasons), reasons
    assert "illegal" in d.find_element(By.ID, "answer-text").text
    svg = picture(d)[0].get_attribute("outerHTML")
    assert "<svg" in svg
    d.save_screenshot(str(SHOTS / f"gnomekit-web-{game}-check.png"))

    # A hint: an answer from the child process, with its words and a picture.
    d.find_element(By.ID, "hint").click()
    wait_for(d, lambda d: verdict.text.startswith("hint: yes"), "no hint")
    assert d.find_element(By.ID, "answer-text").text.strip()
    assert "--json" in d.find_element(By.ID, "command").text
    assert picture(d)
    d.save_screenshot(str(SHOTS / f"gnomekit-web-{game}-hint.png"))


def test_a_bad_position_shows_its_located_error(server: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    open_game(d, server, "gnomes-at-midnight")
    box = d.find_element(By.ID, "position")
    box.clear()
    box.send_keys("gnomes-at-midnight position\nsize: banana\n")
    d.find_element(By.ID, "read").click()
    error = d.find_element(By.ID, "error")
    wait_for(d, lambda d: error.is_displayed(), "no error shown")
    assert error.text.startswith("<position>:2"), error.text
    assert "HTTP 400" in error.text
    d.save_screenshot(str(SHOTS / "gnomekit-web-error.png"))


def test_a_solve_out_of_budget_shows_unknown(server: str, browser: Any) -> None:
    """A budget that runs out is shown as unknown (the CLI's unknown answer), never as "no"."""
    from selenium.webdriver.common.by import By

    d = browser
    open_game(d, server, "hexen-rennen")  # a game switch clears the page, whichever game a test left selected
    open_game(d, server, "gnomes-at-midnight")
    d.find_element(By.ID, "new").click()
    wait_for(d, lambda d: picture(d), "new was not drawn")
    box = d.find_element(By.ID, "solve-options")
    box.clear()
    box.send_keys("--depth 9 --decks hidden")
    budget = d.find_element(By.ID, "budget")
    budget.clear()
    budget.send_keys("3")
    d.find_element(By.ID, "solve").click()
    verdict = d.find_element(By.ID, "verdict")
    wait_for(d, lambda d: verdict.text.startswith("solve: unknown"), "the cut-short solve was not shown as unknown")
    assert "unknown" in verdict.get_attribute("class") and "no" not in verdict.get_attribute("class").split()
    assert d.find_element(By.ID, "error").is_displayed() is False
    assert "--time-limit" in d.find_element(By.ID, "command").text
    d.save_screenshot(str(SHOTS / "gnomekit-web-unknown.png"))


def click_cell(driver: Any, cell: str) -> None:
    """Click the middle of a board cell (pieces drawn over it are clicked through, as a user would)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    el = driver.find_element(By.CSS_SELECTOR, f'#picture svg [data-cell="{cell}"]')
    ActionChains(driver).move_to_element(el).click().perform()


def choices(driver: Any) -> list[Any]:
    from selenium.webdriver.common.by import By

    return [li for li in driver.find_elements(By.CSS_SELECTOR, "#choice-list li") if li.is_displayed()]


#: Per game: the cells clicked, the choice picked (a word of its label; None: the clicks apply the move
#: themselves), and what the position text then contains.
CLICKS = {
    # green's two gnomes on 0,0 may step one or both to 0,1: two moves match, the pair is picked
    "gnomes-at-midnight": (["0,0", "0,1"], "0,0=0,1", "to-move: blue"),
    # the revealed T4 over 5,5: placements offered, the first one taken
    "hedge-mage": (["5,5"], "", "hedges: a=T4"),
    # the empty hex left of the Stump: the offered tiles' placements there
    "gnome-hollow": (["0,-1"], "", "turn: G"),
}


@pytest.mark.parametrize("game", first_by_default(CLICKS, 1))
def test_click_builds_the_position_and_undo_restores_it(server: str, browser: Any, game: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server)  # a fresh page: the history of clicks starts empty, whichever game was open
    open_game(d, server, game)
    text = d.find_element(By.ID, "position")
    d.find_element(By.ID, "new").click()
    wait_for(d, lambda d: picture(d) and text.get_attribute("value").startswith(game), "new was not drawn")
    before, before_svg = text.get_attribute("value"), picture(d)[0].get_attribute("outerHTML")
    cells, pick, shows = CLICKS[game]
    for cell in cells:
        click_cell(d, cell)
    wait_for(d, lambda d: choices(d), "no choice offered")
    offered = choices(d)
    item = next(li for li in offered if pick in li.text)
    if game == "gnomes-at-midnight":
        assert sorted(li.text.split()[0] for li in offered) == ["0,0-0,1", "0,0=0,1"]
    else:
        assert all(cells[0] in li.text for li in offered) if game == "hedge-mage" else offered
        ActionChains(d).move_to_element(item).perform()  # hovering previews the placement on the board
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg .gk-preview"), "no preview")
    item.click()
    status = d.find_element(By.ID, "build-status")
    wait_for(d, lambda d: status.text.startswith("applied"), "the move was not applied")
    after = text.get_attribute("value")
    assert after != before and shows in after, after
    assert picture(d)[0].get_attribute("outerHTML") != before_svg
    assert "gk-preview" not in picture(d)[0].get_attribute("outerHTML")
    d.save_screenshot(str(SHOTS / f"gnomekit-web-{game}-click.png"))
    if game == "hedge-mage":  # the card is used up: the next one is revealed by a click, then placed
        wait_for(d, lambda d: d.find_elements(By.XPATH, "//div[@id='other-list']/button[.='reveal L4']"), "no reveal")
        d.find_element(By.XPATH, "//div[@id='other-list']/button[.='reveal L4']").click()
        wait_for(d, lambda d: "tile: L4" in text.get_attribute("value"), "the next tile was not revealed")
        assert status.text.startswith("revealed L4")
        d.find_element(By.ID, "undo").click()
        wait_for(d, lambda d: text.get_attribute("value") == after, "undo did not take the reveal back")

    d.find_element(By.ID, "undo").click()
    wait_for(d, lambda d: text.get_attribute("value") == before, "undo did not restore the position")
    assert picture(d)[0].get_attribute("outerHTML") == before_svg
    assert not d.find_element(By.ID, "undo").is_enabled()
