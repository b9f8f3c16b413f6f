"""Issue 21 in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by Selenium against `easymoney serve` on 127.0.0.1. A whole game against a bot by
clicks, a refused typed line, undo, save and replay with `easymoney play`, stepping
through examples/09-building.game to turn 3, a page reload in the middle of a game."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # left out of the quick run: python -m pytest -m "not slow"

pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")

import web_browser  # noqa: E402

if web_browser.find_browser() is None:
    pytest.skip(web_browser.NO_BROWSER, allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    with web_browser.serving(str(ROOT)) as served:
        yield served


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with web_browser.browser() as d:
        yield d


def body(driver: Any, name: str) -> str:
    return str(driver.find_element("tag name", "body").get_attribute(f"data-{name}"))


def text(driver: Any, element_id: str) -> str:
    return str(driver.find_element("id", element_id).text)


def board(driver: Any) -> str:
    """The board drawn, once a MAN moving on it (board.js) has arrived."""
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 30, poll_frequency=0.02).until(
        lambda d: d.find_element("id", "board").get_attribute("data-moving") is None)
    return str(driver.find_element("id", "board").get_attribute("innerHTML"))


def test_issue21_a_whole_game_against_a_bot_by_clicks(server, driver):
    base, _ = server
    clicks = web_browser.play_by_clicks(driver, base)
    assert clicks > 5
    assert "The game is over" in text(driver, "request")
    assert driver.find_elements("css selector", "#controls button") == []
    assert "max_turns" in board(driver) or "turns" in text(driver, "request")
    timings = driver.execute_script("return window.__timings")
    assert len(timings) >= clicks - 1  # each click drew the board again


def _new_game(driver: Any, base: str) -> None:
    driver.get(base + "/")
    web_browser.wait_state(driver, "ready")
    form = driver.find_element("id", "play-form")
    form.find_element("name", "options").send_keys("end.max_turns=10")
    driver.find_element("id", "start-play").click()
    web_browser.wait_url(driver, "/play/")
    web_browser.wait_state(driver, "ready")
    driver.execute_script("document.getElementById('pace').value = '20'")


def _type(driver: Any, line: str) -> None:
    box = driver.find_element("id", "line")
    box.clear()
    box.send_keys(line)
    driver.find_element("id", "send").click()


def test_issue21_a_refused_typed_line_then_undo_then_save_and_replay(server, driver, tmp_path):
    base, _ = server
    _new_game(driver, base)
    steps = body(driver, "steps")
    _type(driver, "You bids 300")
    web_browser.wait_state(driver, "ready")
    assert "You bids 300" in text(driver, "refusal") or "waits for" in text(driver, "refusal")
    assert body(driver, "steps") == steps
    _type(driver, "You rolls")  # a typed line that is legal is taken
    web_browser.wait_state(driver, "ready", "over")
    assert int(body(driver, "steps")) > int(steps)
    for _ in range(6):
        web_browser.click_a_move(driver)
        web_browser.wait_state(driver, "ready", "over")
    before = int(body(driver, "steps"))
    driver.find_element("id", "undo").click()
    web_browser.wait_state(driver, "ready")
    assert int(body(driver, "steps")) < before
    assert text(driver, "request").startswith("Your turn ")
    while web_browser.wait_state(driver, "ready", "over") == "ready":
        web_browser.click_a_move(driver)
    href = driver.find_element("id", "save").get_attribute("href")
    with urllib.request.urlopen(href) as answer:
        assert "attachment" in answer.headers["Content-Disposition"]
        saved = answer.read().decode()
    path = tmp_path / "saved.game"
    path.write_text(saved)
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    last = driver.find_elements("css selector", "#transcript li")[-1].text
    assert last in done.stdout


def _step_through(driver: Any, base: str, path: str) -> None:
    """The step page of the script `path` under the server's folder, opened by its form."""
    driver.get(base + "/")
    web_browser.wait_state(driver, "ready")
    driver.find_element("css selector", "#step-form input[name=path]").send_keys(path)
    driver.find_element("id", "open-step").click()
    web_browser.wait_url(driver, "/step/")
    web_browser.wait_state(driver, "ready")


def test_issue21_stepping_through_09_building_to_turn_3(server, driver):
    import argparse

    from easymoney.commands.board import script_state
    from easymoney.web.svg import board_svg
    base, _ = server
    _step_through(driver, base, "examples/09-building.game")
    assert body(driver, "frame") == "0"
    driver.find_element("id", "next").click()
    web_browser.wait_state(driver, "ready")
    assert body(driver, "frame") == "1"
    driver.find_element("id", "prev").click()
    web_browser.wait_state(driver, "ready")
    assert body(driver, "frame") == "0"
    driver.find_element("id", "next-turn").click()  # the board set up, before turn 1
    web_browser.wait_state(driver, "ready")
    assert body(driver, "turn") == "0" and int(body(driver, "frame")) > 1
    driver.find_element("id", "next-turn").click()
    web_browser.wait_state(driver, "ready")
    assert body(driver, "turn") == "1"
    driver.find_element("id", "prev-turn").click()
    web_browser.wait_state(driver, "ready")
    assert body(driver, "turn") == "0"
    box = driver.find_element("id", "turn")
    box.clear()
    box.send_keys("3")
    driver.find_element("id", "go").click()
    web_browser.wait_state(driver, "ready")
    assert body(driver, "turn") == "3"
    args = argparse.Namespace(turn=3, with_rules=[], without_rules=[], options=[])
    expected = board_svg(script_state(str(ROOT / "examples/09-building.game"), args))
    centre = driver.execute_script(
        "return [...document.querySelectorAll('#board text.centre')].map(t => t.textContent)")
    owners = driver.execute_script(
        "return [...document.querySelectorAll('#board rect.owner')].map("
        "r => r.dataset.index + ':' + r.dataset.owner + ':' + r.dataset.houses)")
    assert sorted(owners) == sorted(
        f"{i}:{o}:{h}" for i, o, h in re.findall(
            r'class="owner" data-index="(\d+)" data-owner="(\w+)" data-houses="(\d+)"', expected))
    assert centre == [html.unescape(t) for t in re.findall(r'class="centre">([^<]*)<', expected)]
    assert "● Ann  $14,050  on 3 Beacon Street" in centre  # the script's `expect Ann cash`
    assert driver.find_element("css selector", "#transcript li.current").text
    box = driver.find_element("id", "turn")
    box.clear()
    box.send_keys("2")
    driver.find_element("id", "go").click()
    web_browser.wait_state(driver, "ready")
    assert body(driver, "turn") == "2"  # the transcript after it is still to come
    assert driver.find_elements("css selector", "#transcript li.future")


def test_issue21_a_page_reload_in_the_middle_of_a_game(server, driver):
    base, app = server
    _new_game(driver, base)
    for _ in range(5):
        web_browser.click_a_move(driver)
        web_browser.wait_state(driver, "ready", "over")
    url, steps, drawn = driver.current_url, body(driver, "steps"), board(driver)
    driver.refresh()
    web_browser.wait_state(driver, "ready", "over")
    assert driver.current_url == url and body(driver, "steps") == steps and board(driver) == drawn
    # the server forgot the game: the page makes it again from its script
    store = app.state.store
    with store.lock:
        store.items.pop(url.rsplit("/", 1)[1])
    driver.refresh()
    web_browser.wait_state(driver, "ready", "over")
    assert driver.current_url != url and board(driver) == drawn
    assert text(driver, "request").startswith("Your turn ")


def _watch(driver: Any, base: str) -> None:
    """Bots playing, watched from the index page's button, the page drawn."""
    driver.get(base + "/")
    web_browser.wait_state(driver, "ready")
    driver.find_element("id", "start-watch").click()
    web_browser.wait_url(driver, "/watch/")
    web_browser.wait_state(driver, "bot")


def test_issue21_watching_bots_can_be_paused_and_stepped(server, driver):
    _watch(driver, server[0])
    driver.execute_script("document.getElementById('pace').value = '20'")
    driver.find_element("id", "pause").click()
    web_browser.wait_state(driver, "paused")
    import time
    steps = body(driver, "steps")
    time.sleep(0.3)  # not a timing test: paused, no step is taken however long we wait
    assert body(driver, "steps") == steps
    driver.find_element("id", "step").click()
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 30).until(lambda d: body(d, "steps") != steps)
    assert int(body(driver, "steps")) == int(steps) + 1


def _start(driver: Any, base: str, players: str = "You Bot:greedy", form: str = "play-form",
           options: str = "end.max_turns=10") -> None:
    """A game from the index page's form `form`, its page loaded."""
    driver.get(base + "/")
    web_browser.wait_state(driver, "ready")
    fields = driver.find_element("id", form)
    for name, value in (("players", players), ("options", options)):
        box = fields.find_element("name", name)
        box.clear()
        box.send_keys(value)
    fields.find_element("css selector", "button[type=submit]").click()
    web_browser.wait_url(driver, "/watch/" if form == "watch-form" else "/play/")
    web_browser.wait_state(driver, "ready", "bot", "paused", "over")


def test_issue28_case3_two_clicks_on_rolls_roll_once(server, driver):
    base, _ = server
    _start(driver, base)
    buttons = driver.find_elements("css selector", "#controls button.action")
    assert [(b.text, b.get_attribute("title")) for b in buttons] == [("Roll", "You rolls")]
    # both clicks land before the first is answered, as a double click on a slow line does
    driver.execute_script("const b = arguments[0]; b.click(); b.click();", buttons[0])
    web_browser.wait_state(driver, "ready", "bot", "over")
    import time
    time.sleep(0.5)  # not a timing test: a second request, if one went, has been answered
    web_browser.wait_state(driver, "ready", "bot", "over")
    transcript = [li.text for li in driver.find_elements("css selector", "#transcript li")]
    # issue 32: the transcript speaks to the person, and a turn heads its lines
    assert any(t.startswith("You roll ") for t in transcript), transcript
    assert not any("You end" in t for t in transcript), transcript
    headings = driver.find_elements("css selector", "#transcript li.turn")
    assert headings and headings[0].text.startswith("Turn 1: ")
    assert body(driver, "steps") == "1"


def test_issue28_case4_a_reload_makes_a_dropped_game_with_a_random_bot_again_exactly(server,
                                                                                     driver):
    base, app = server
    _start(driver, base, players="You Bot:random", options="end.max_turns=20")
    driver.execute_script("document.getElementById('pace').value = '20'")
    for _ in range(12):  # the random bot draws from the game's generator between them
        if web_browser.wait_state(driver, "ready", "over") == "over":
            break
        web_browser.click_a_move(driver)
    web_browser.wait_state(driver, "ready", "over")
    url, steps, drawn = driver.current_url, body(driver, "steps"), board(driver)
    asked = text(driver, "request")
    transcript = [li.text for li in driver.find_elements("css selector", "#transcript li")]
    assert any(line.startswith("Bot ") for line in transcript)
    store = app.state.store
    with store.lock:
        store._drop(url.rsplit("/", 1)[1])  # the server forgot it
    driver.refresh()
    web_browser.wait_state(driver, "ready", "over", "gone")
    assert text(driver, "refusal") == ""
    assert driver.current_url != url and body(driver, "steps") == steps
    assert board(driver) == drawn and text(driver, "request") == asked
    assert [li.text for li in driver.find_elements("css selector", "#transcript li")] == transcript


def test_issue28_case26_the_turn_box_shows_the_turn_of_the_board_shown(server, driver):
    base, _ = server
    _step_through(driver, base, "examples/09-building.game")
    box = driver.find_element("id", "turn")
    for _ in range(3):
        driver.find_element("id", "next-turn").click()
        web_browser.wait_state(driver, "ready")
    assert body(driver, "turn") == "2"
    assert box.get_attribute("value") == "2"  # it stayed 0
    driver.find_element("id", "last").click()
    web_browser.wait_state(driver, "ready")
    assert box.get_attribute("value") == body(driver, "turn") != "2"


def test_issue28_case26_pause_and_step_are_not_clickable_once_a_watched_game_ends(server,
                                                                                   driver):
    base, _ = server
    _start(driver, base, players="Ann:greedy Bob:greedy", form="watch-form",
           options="end.max_turns=2")
    driver.execute_script("document.getElementById('pace').value = '20'")
    assert driver.find_element("id", "pause").is_enabled()
    web_browser.wait_state(driver, "over")
    assert not driver.find_element("id", "pause").is_enabled()
    assert not driver.find_element("id", "step").is_enabled()


def test_watching_bots_pauses_when_the_server_does_not_answer(server, driver):
    """A bot step whose request fails (the connection lost) left the page stuck in "bot":
    nothing drawn, no next step, and Pause waited on the failed step for ever. It pauses,
    says so, and Resume asks again once the server answers."""
    _watch(driver, server[0])
    driver.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        web_browser.wait_state(driver, "paused")
        assert "did not answer" in text(driver, "refusal")
        steps = body(driver, "steps")
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
    driver.find_element("id", "pause").click()  # Resume
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 30).until(lambda d: body(d, "steps") != steps)
    assert text(driver, "refusal") == ""
