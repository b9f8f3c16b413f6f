"""The screenshots of docs/web.md, in headless Chromium at 1400x1000, 1024x700 and 390x844
(the page's own size, as a screen or a phone gives it):

- web-W.png: a game in progress, the person asked to buy a street after some turns (the
  dice, a MAN just moved, the plain-words controls);
- web-auction-W.png: an auction at a glance (the space, the high bid, the least next bid);
- web-offer-W.png: the offer panel, its price at the space's printed price, and its
  confirmation of a price below half of it;
- web-end-W.png: the end of a game (the winner and why, the final standings);
- web-lobby-W.png: the lobby, a table being played and a finished one;
- web-spectator-W.png: a table of three bots as a spectator watches it (no controls).

    python docs/web_screenshots.py        # needs the web extra, selenium, chromium
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import web_browser  # noqa: E402

SIZES = ((1400, 1000), (1024, 700), (390, 844))
CLICKS = 70  # the person's decisions before the first shot: a board with owners and houses


def asked_to_buy(driver: Any) -> bool:
    return any("buys" in (b.get_attribute("title") or "")
               for b in driver.find_elements("css selector", "#controls button.action"))


def in_auction(driver: Any) -> bool:
    return bool(driver.find_elements("css selector", "#auction")) and \
        bool(driver.find_elements("css selector", ".amount-row.bid"))


def offering(driver: Any) -> bool:
    return bool(driver.find_elements("id", "offer"))


def click(driver: Any, prefer: tuple[str, ...]) -> None:
    buttons = driver.find_elements("css selector", "#controls button.action")
    for word in prefer:
        for b in buttons:
            if word in (b.get_attribute("title") or ""):
                b.click()
                return
    web_browser.click_a_move(driver)


def play_until(driver: Any, found: Callable[[Any], bool], prefer: tuple[str, ...],
               least: int = 0) -> None:
    clicks = 0
    while web_browser.wait_state(driver, "ready", "over") == "ready":
        if clicks >= least and found(driver):
            return
        click(driver, prefer)
        clicks += 1
    if not found(driver):
        raise SystemExit("the game ended before the shot")


def shoot(driver: Any, url: str, name: str, ready: tuple[str, ...] = ("ready", "over"),
          then: Callable[[Any], None] | None = None, focus: str | None = None) -> None:
    for width, height in SIZES:
        web_browser.set_viewport(driver, width, height)
        driver.get(url)
        web_browser.wait_state(driver, *ready)
        time.sleep(0.6)  # a MAN's move, the dice's roll
        if then is not None:
            then(driver)
        if focus is not None and width < 600:
            driver.execute_script(f"document.querySelector({focus!r}).scrollIntoView("
                                  "{block: 'start', inline: 'nearest'})")
        path = ROOT / "docs" / f"{name}-{width}.png"
        driver.save_screenshot(str(path))
        print(f"wrote {path.relative_to(ROOT)}")


def below_half(driver: Any) -> None:
    """The offer panel asking to confirm a price below half the printed one."""
    price = driver.find_element("id", "offer-price")
    low = driver.execute_script(
        "return game.controls.filter(c => c.offer)[Number(document.getElementById"
        "('offer-choice').value)].offer.low")
    price.clear()
    price.send_keys(str(max(0, (low or 0) // 2)))
    driver.find_element("id", "offer-send").click()


def new_table(base: str, body: dict[str, Any]) -> str:
    """A table opened through the API: its page's address."""
    import json
    import urllib.request
    request = urllib.request.Request(base + "/api/tables", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return base + json.loads(answer.read())["url"]


def lobby(driver: Any, base: str) -> None:
    """A table of two bots played to its end, and one with a free seat being played."""
    new_table(base, {"players": "Ann:greedy Bob:cautious", "sit": "", "seed": 7, "pace": 0,
                     "options": ["end.max_turns=8"]})
    new_table(base, {"players": "Ann Bob Bot:greedy", "sit": "Ann", "seed": 1, "pace": 700})
    time.sleep(3)
    shoot(driver, base + "/lobby", "web-lobby", ("ready",))


def spectator(driver: Any, base: str) -> None:
    """A table of three bots, some turns in (owners on the board), as a spectator sees it."""
    url = new_table(base, {"players": "Ann:greedy Bob:cautious Cat:greedy", "sit": "",
                           "seed": 3, "pace": 400})
    time.sleep(25)
    shoot(driver, url, "web-spectator", ("waiting", "over"))


def main() -> None:
    with web_browser.serving(str(ROOT)) as (base, _), web_browser.browser() as driver:
        web_browser.start_game(driver, base, "You Bot:greedy Cat:cautious",
                               "end.max_turns=200", seed=4)
        driver.execute_script("document.getElementById('pace').value = '20'")
        plain = ("rolls", "buys", "ends turn", "passes", "rejects")
        play_until(driver, asked_to_buy, plain, CLICKS)
        shoot(driver, driver.current_url, "web")
        play_until(driver, in_auction, ("rolls", "declines", "ends turn", "passes", "rejects"))
        shoot(driver, driver.current_url, "web-auction")
        web_browser.start_game(driver, base, "You Bot:greedy", "end.max_turns=200", seed=5)
        driver.execute_script("document.getElementById('pace').value = '20'")
        play_until(driver, offering, plain, 30)
        shoot(driver, driver.current_url, "web-offer", then=below_half, focus="#offer")
        web_browser.start_game(driver, base, "You Bot:greedy Cat:cautious",
                               "end.max_turns=12", seed=4)
        driver.execute_script("document.getElementById('pace').value = '20'")
        while web_browser.wait_state(driver, "ready", "over") == "ready":
            click(driver, plain)
        shoot(driver, driver.current_url, "web-end", focus="#ending")
        lobby(driver, base)
        spectator(driver, base)
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


if __name__ == "__main__":
    main()
