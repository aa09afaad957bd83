"""Benchmark the Activity's two faces (issue 48; not a test): how long a move takes to show in
the other face, over whole Dubb games of one person against a computer, with the browser tests'
machinery (the fake Discord, ``python -m bot`` with its Activity server, the system's Chromium).
The person's turns alternate between the two faces:

- Activity → channel: from the click (or drag) that makes the move in the Activity to the
  channel's table message showing it (the fake Discord holding the bot's edit);
- channel → Activity: from the click on the hand panel's move in the channel to the Activity
  drawing the scene that shows it.

Both clocks are this machine's wall clock (the browser's ``Date.now()``, Python's
``time.time()``), in milliseconds.

    .venv/bin/python scripts/bench_activity.py [--games 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from bot.fakediscord import Driver  # noqa: E402
from tests.browser.activity_page import ActivityPage  # noqa: E402
from tests.browser.activity_world import ActivityWorld, activity_world  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS  # noqa: E402
from tests.e2e.dubb_table import DubbTable, counter_of, table_message, to_move  # noqa: E402

# every scene the Activity draws, with when (the page marks its scene's version on <body>)
RECORD_DRAWN = """
window.__drawn = [];
new MutationObserver(() => {
  window.__drawn.push([Number(document.body.dataset.version), Date.now()]);
}).observe(document, { attributes: true, subtree: true,
                       attributeFilter: ["data-version"] });
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def by_button(running: ActivityWorld, table: DubbTable, user_id: int) -> float:
    """The person's move from their hand panel in the channel; when the move's click went."""
    async def move(_: object, driver: Driver) -> float:
        await driver.wait_for(lambda: to_move(table.table) == user_id, what="the turn")
        user = table.players[user_id]
        panel = await driver.click(user, table.table, "Your hand")
        assert panel.message is not None
        message = panel.message
        started = time.time()
        if message.selects():
            select = message.selects()[0]
            await driver.select(user, message, [select["options"][0]["value"]],
                                custom_id=select["custom_id"])
        elif any(b.get("label") == "Draw" for b in message.buttons()):
            await driver.click(user, message, "Draw")
        else:
            await driver.click(user, message, "Pass")
        return started

    return running.run(move)


def shown_in_channel(running: ActivityWorld, table: DubbTable, counter: int) -> float:
    """When the channel's table message first shows a move after ``counter``."""
    seen: list[float] = []

    def shown() -> bool:
        message = table_message(running.driver, table.channel)
        now = counter_of(message)
        if (now is not None and now > counter) or "game over" in message.text:
            seen.append(time.time())
            return True
        return False

    running.run(lambda _, driver: driver.wait_for(shown, what="the move in the channel"))
    return seen[0]


def play_game(running: ActivityWorld, page: ActivityPage, table: DubbTable,
              user_id: int, to_channel: list[float], to_activity: list[float]) -> None:
    from_activity = True
    while True:
        expect(page.my_turn().or_(page.ended()).first).to_be_visible()
        if page.ended().count():
            return
        counter = running.run(lambda _, d: counter_of(table_message(d, table.channel))) or 0
        if from_activity:
            clicked: list[float] = []
            page.play_turn(at_move=lambda marks=clicked: marks.append(time.time()))
            to_channel.append((shown_in_channel(running, table, counter) - clicked[0]) * 1000)
        else:
            version = page.version()
            drawn_before = page.content().evaluate("window.__drawn.length")
            started = by_button(running, table, user_id)
            drawn = page.content().wait_for_function(
                "([n, v]) => window.__drawn.slice(n).find(([version]) => version !== v)",
                arg=[drawn_before, version])
            to_activity.append(drawn.json_value()[1] - started * 1000)
        from_activity = not from_activity


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    to_channel: list[float] = []
    to_activity: list[float] = []
    with tempfile.TemporaryDirectory() as folder, activity_world(Path(folder)) as running, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *running.chromium_args()],
            headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(WAIT_MS)
        context.add_init_script(RECORD_DRAWN)
        expect.set_options(timeout=WAIT_MS)
        anna, channel = running.person("Anna"), running.channel("general")
        for game in range(args.games):
            async def start(_: object, driver: Driver) -> None:
                await driver.slash(anna, channel, "dubb start", {"computers": 1})
                lobby = await driver.wait_for(lambda: next(
                    (m for m in reversed(driver.channel_messages(channel))
                     if any(b.get("label") == "Start" for b in m.buttons())), None))
                await driver.click(anna, lobby, "Start")
                await driver.wait_for(lambda: counter_of(table_message(driver, channel))
                                      is not None)

            running.run(start)
            table = DubbTable(running.driver, channel, {anna.id: anna})
            if game == 0:
                running.run(lambda _, d, t=table: d.click(anna, t.table, "Play in an Activity"))
                page = ActivityPage(context, running, anna, channel, authorize="auto")
                page.launch(press=False, consent=False)
            play_game(running, page, table, anna.id, to_channel, to_activity)
        browser.close()
    for name, values in (("Activity → channel message", to_channel),
                         ("channel button → Activity", to_activity)):
        print(f"{name}: {len(values)} moves, p50 {percentile(values, 0.5):.0f} ms, "
              f"p99 {percentile(values, 0.99):.0f} ms, max {max(values):.0f} ms, "
              f"mean {statistics.fmean(values):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
