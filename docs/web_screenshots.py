"""The screenshots of docs/web.md: a game in progress at the page, in headless Chromium at
1400x1000, 1024x700 and 390x844 (the page's own size, as a screen or a phone gives it).

    python docs/web_screenshots.py        # needs the web extra, selenium, chromium

It plays You against two bots by clicks until the person is asked to buy a street after
some turns, so that the dice, a MAN just moved and the plain-words controls show.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import web_browser  # noqa: E402

SIZES = ((1400, 1000), (1024, 700), (390, 844))
CLICKS = 70  # the person's decisions before the shot: a board with owners and houses


def asked_to_buy(driver) -> bool:
    return any("buys" in (b.get_attribute("title") or "")
               for b in driver.find_elements("css selector", "#controls button.action"))


def main() -> None:
    with web_browser.serving(str(ROOT)) as (base, _), web_browser.browser() as driver:
        web_browser.start_game(driver, base, "You Bot:greedy Cat:cautious",
                               "end.max_turns=200", seed=4)
        driver.execute_script("document.getElementById('pace').value = '20'")
        clicks = 0
        while web_browser.wait_state(driver, "ready", "over") == "ready":
            if clicks >= CLICKS and asked_to_buy(driver):
                break
            web_browser.click_a_move(driver)
            clicks += 1
        game = driver.current_url
        for width, height in SIZES:
            web_browser.set_viewport(driver, width, height)
            driver.get(game)
            web_browser.wait_state(driver, "ready", "over")
            time.sleep(0.5)
            path = ROOT / "docs" / f"web-{width}.png"
            driver.save_screenshot(str(path))
            print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
