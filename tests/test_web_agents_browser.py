"""Issue 40 part 4 in a real browser: a server started with `--agent trained=FILE`; the
lobby lists "the trained agent (trained)"; a table's creator picks it in Give to a bot's
choice for a person's seat, and it plays that seat."""

from __future__ import annotations

import json
import urllib.request

import pytest

pytestmark = pytest.mark.slow  # left out of the quick run: python -m pytest -m "not slow"

np = pytest.importorskip("numpy", reason="numpy (the agents extra) is not installed")
pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")
pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")

import web_browser  # noqa: E402
from processes import wait_for  # noqa: E402
from test_web_agents import agent_server, random_policy  # noqa: E402

import easymoney.agents as agents  # noqa: E402

if web_browser.find_browser() is None:
    pytest.skip(web_browser.NO_BROWSER, allow_module_level=True)


def test_issue40_the_creator_gives_a_seat_to_the_trained_agent_in_the_browser(tmp_path):
    policy = random_policy(tmp_path / "agent.npz", agents.single())
    with agent_server(tmp_path, web_browser.free_port(), tmp_path / "tables.db", policy) as base:
        request = urllib.request.Request(
            base + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"players": "Ann Bob", "sit": "Ann", "pace": 0, "seed": 3}).encode())
        with urllib.request.urlopen(request, timeout=60) as r:
            link = json.loads(r.read())["link"]
        with web_browser.browser() as driver:
            driver.get(base + "/lobby")
            web_browser.wait_state(driver, "ready")
            assert "the trained agent (trained)" in driver.find_element("id", "strategies").text
            driver.get(base + link)
            web_browser.wait_state(driver, "ready", "waiting")
            wait_for(lambda: driver.find_elements("css selector", "li[data-seat='Bob'] select"),
                     "Give to a bot beside Bob's seat")

            def pick() -> bool:  # the seats are drawn again at each change: try again then
                from selenium.common.exceptions import StaleElementReferenceException
                from selenium.webdriver.support.ui import Select
                try:
                    item = driver.find_element("css selector", "li[data-seat='Bob']")
                    choice = Select(item.find_element("css selector", "select.bot-choice"))
                    labels = [o.text for o in choice.options]
                    assert any(t.startswith("the trained agent (trained)") for t in labels), labels
                    assert choice.first_selected_option.get_attribute("value") == "greedy"
                    choice.select_by_value("trained")
                    item.find_element("css selector", "button.to-bot").click()
                except StaleElementReferenceException:
                    return False
                return True
            wait_for(pick, "the trained agent picked for Bob")
            wait_for(lambda: "Bob (bot: trained)" in driver.find_element("id", "seats").text,
                     "Bob's seat played by the trained agent")
            assert driver.find_element("id", "refusal").text == ""
