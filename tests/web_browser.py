"""A server on the loopback address in a thread, and a headless Chromium driven by Selenium:
what the browser tests (tests/test_web_browser.py) and bench/bench_web.py share."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

NO_BROWSER = ("no browser for the web tests: apt-get install chromium chromium-driver "
              "(Debian), and pip install selenium")
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> tuple[str, str] | None:
    """(browser, driver) paths, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None
    browser = next((p for p in map(shutil.which, BROWSERS) if p), None)
    driver = shutil.which("chromedriver") or shutil.which("chromium-driver")
    return (browser, driver) if browser and driver else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(root: str) -> Iterator[tuple[str, Any]]:
    """`easymoney serve --root root` on 127.0.0.1 in a thread: (base URL, the app); always
    shut down on leaving."""
    import uvicorn

    from easymoney.web.app import create_app
    app = create_app(root)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           log_config=None))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(30)


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    found = find_browser()
    assert found is not None, NO_BROWSER
    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1300,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(found[1]), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait_url(driver: Any, part: str, timeout: float = 60) -> None:
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: part in d.current_url)


def wait_state(driver: Any, *states: str, timeout: float = 60) -> str:
    """Wait for the page's `data-state` to be one of `states` (ready, over, ...)."""
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(
        lambda d: d.find_element("tag name", "body").get_attribute("data-state") in states)
    return str(driver.find_element("tag name", "body").get_attribute("data-state"))


def seated(driver: Any, name: str) -> bool:
    """Whether the table's page says the browser is seat `name` (False while the page loads
    again under the look: a seat taken reloads it)."""
    from selenium.common.exceptions import StaleElementReferenceException
    try:
        return any(f"you are {name}" in w.text for w in driver.find_elements("id", "who"))
    except StaleElementReferenceException:
        return False


PREFERRED = ("rolls", "ends turn", "declines", "passes", "buys", "rejects")


def click_a_move(driver: Any) -> None:
    """Click one of the person's controls: a plain move if there is one (by its script
    line, the button's title), else the first control (an amount at its least)."""
    buttons = driver.find_elements("css selector", "#controls button.action")
    for word in PREFERRED:
        for b in buttons:
            if word in (b.get_attribute("title") or b.text):
                b.click()
                return
    if buttons:
        buttons[0].click()
        return
    driver.find_element("css selector", "#controls button.amount").click()


def set_viewport(driver: Any, width: int, height: int) -> None:
    """The page's own size (its viewport, not the window's with its frame), as a screen or,
    below 600 pixels wide, a phone of that size gives it."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def start_game(driver: Any, base: str, players: str = "You Bot:greedy",
               options: str = "end.max_turns=10", seed: int | None = None) -> None:
    """A game played from the index page's form, its page loaded."""
    driver.get(base + "/")
    wait_state(driver, "ready")
    form = driver.find_element("id", "play-form")
    given = {"players": players, "options": options, "seed": seed}
    for name, value in given.items():
        if value is not None:
            box = form.find_element("name", name)
            box.clear()
            box.send_keys(str(value))
    driver.find_element("id", "start-play").click()
    wait_url(driver, "/play/")
    wait_state(driver, "ready", "bot", "over")


def play_by_clicks(driver: Any, base: str, players: str = "You Bot:greedy",
                   options: str = "end.max_turns=10", pace: int = 20,
                   max_clicks: int = 2000) -> int:
    """Start a game from the index page and click until it is over; the clicks made."""
    start_game(driver, base, players, options)
    driver.execute_script(f"document.getElementById('pace').value = '{pace}'")
    clicks = 0
    while clicks < max_clicks:
        if wait_state(driver, "ready", "over") == "over":
            return clicks
        click_a_move(driver)
        clicks += 1
    raise AssertionError("the game did not end")


def open_table(driver: Any, base: str, options: str, pace_ms: int = 30) -> str:
    """A table opened from the lobby's form (its default seats, Ann at hers), the bots at
    `pace_ms`; its page loaded. The table's link."""
    driver.get(base + "/lobby")
    wait_state(driver, "ready")
    form = driver.find_element("id", "table-form")
    form.find_element("name", "options").send_keys(options)
    driver.execute_script("const s = document.querySelector('[name=pace]');"
                          f"s.add(new Option('test', '{pace_ms}')); s.value = '{pace_ms}';")
    driver.find_element("id", "open-table").click()
    wait_url(driver, "/table/")
    wait_state(driver, "ready", "waiting")
    return str(driver.find_element("id", "invite-link").get_attribute("value"))
