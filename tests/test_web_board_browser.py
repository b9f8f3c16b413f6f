"""Issue 32, part 1 in a real browser (headless Chromium, Selenium, as test_web_browser.py):
the board fills a phone's and a wide screen's window with nothing wider than the window,
and the dice show after a roll while the MAN moves along its path (a click skips it)."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # left out of the quick run: python -m pytest -m "not slow"

pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")

import web_browser  # noqa: E402

if web_browser.find_browser() is None:
    pytest.skip(web_browser.NO_BROWSER, allow_module_level=True)

from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HEADER_AND_MARGINS = 60  # what the page's CSS leaves around the board (style.css)


def _roll(driver: Any) -> None:
    for button in driver.find_elements("css selector", "#controls button.action"):
        if button.get_attribute("title") == "You rolls":
            assert button.text == "Roll"
            button.click()
            return
    raise AssertionError("no Roll button")


def _layout(driver: Any) -> dict[str, float]:
    return driver.execute_script("""
        // the board's box: on a phone it pans a board zoomed larger than itself (issue 38)
        const svg = document.querySelector('#board').getBoundingClientRect();
        const aside = document.querySelector('aside').getBoundingClientRect();
        return {inner: innerWidth, innerHeight: innerHeight,
                scroll: document.documentElement.scrollWidth,
                left: svg.left, right: svg.right, width: svg.width, height: svg.height,
                asideLeft: aside.left, asideTop: aside.top, bottom: svg.bottom};""")


def test_issue32_part1_the_board_fills_the_window_and_the_dice_show_after_a_roll():
    with web_browser.serving(str(ROOT)) as (base, _), web_browser.browser() as driver:
        _fills_and_shows_the_dice(base, driver)


def _fills_and_shows_the_dice(base: str, driver: Any) -> None:
    try:
        web_browser.set_viewport(driver, 1400, 1000)
        web_browser.start_game(driver, base)
        assert driver.find_elements("css selector", "#board g.dice g.die") == []  # no throw yet
        _roll(driver)
        web_browser.wait_state(driver, "ready", "bot", "over")
        dice = [int(d.get_attribute("data-value"))
                for d in driver.find_elements("css selector", "#board g.dice g.die")]
        rolled = next(li.text for li in driver.find_elements("css selector", "#transcript li")
                      if li.text.startswith("You roll "))
        assert re.match(rf"You roll {dice[0]} \+ {dice[1]} = {sum(dice)}$", rolled), (dice, rolled)
        _a_move_is_skipped_by_a_click(driver)

        wide = _layout(driver)  # the board as tall as the window leaves it, the panel beside
        assert wide["scroll"] <= wide["inner"]
        assert wide["height"] >= 1000 - HEADER_AND_MARGINS - 2 and wide["bottom"] <= 1000
        assert wide["asideLeft"] >= wide["right"]

        web_browser.set_viewport(driver, 390, 844)
        driver.refresh()
        web_browser.wait_state(driver, "ready", "bot", "over")
        phone = _layout(driver)  # the whole width, the panel under it
        assert phone["inner"] == 390 and phone["scroll"] <= 390, phone
        assert phone["left"] >= 0 and phone["right"] <= 390 and phone["width"] >= 370, phone
        assert phone["asideTop"] >= phone["bottom"]
        # the first drawing of a page shows the last throw standing still
        assert len(driver.find_elements("css selector", "#board g.dice g.die")) == 2
        assert driver.find_element("id", "board").get_attribute("data-moving") is None
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _a_move_is_skipped_by_a_click(driver: Any) -> None:
    """The drawing of a throw the page has not shown moves the thrower's MAN from the
    first space of its path; a click on the board puts it where the server drew it."""
    moved = driver.execute_script("""
        const board = document.getElementById('board');
        const view = {svg: board.querySelector('svg').outerHTML, throw: arguments[0]};
        EasyBoard.show(board, view, {animate: true});
        const man = [...board.querySelectorAll('g.man')].find(m => m.dataset.player === 'You');
        const during = [board.dataset.moving, man.style.transform, EasyBoard.busy(board)];
        board.querySelector('svg').dispatchEvent(new MouseEvent('click', {bubbles: true}));
        return [during, [board.dataset.moving || null, man.getAttribute('style'), EasyBoard.busy(board)],
                man.dataset.index];
    """, _fresh_throw(driver))
    during, after, index = moved
    assert during[0] == "1" and during[1].startswith("translate(") and during[2] is True
    assert after == [None, None, False]
    assert int(index) == _fresh_throw(driver)["path"][-1]


def _fresh_throw(driver: Any) -> dict[str, Any]:
    """The game's last throw as the server gives it, numbered as one not shown yet."""
    address = driver.current_url.split("/play/")
    with urllib.request.urlopen(f"{address[0]}/api/games/{address[1]}", timeout=30) as answer:
        thrown = dict(json.load(answer)["throw"])
    thrown["seq"] = -1
    return thrown
