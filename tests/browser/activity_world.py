"""The Activity's world for browser tests and scripts: the fake Discord on an event loop in a
background thread (so synchronous Playwright can drive the pages while the test acts in the
channel through the fake's driver), the playground's server and people, and the real bot as
``python -m bot`` with its Activity server on, the fake's root URL mapping pointing at it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.fakediscord import Channel, StoredMessage, User
from bot.playground.botprocess import BotProcess
from bot.playground.session import free_port
from bot.playground.world import VOICE_CHANNEL, World, build_world
from tests.browser.loopthread import FakeOnItsLoop

MORE_PEOPLE = {"Eva": "en-US", "Filip": "sv-SE"}
"""Besides the playground's people, with their Discord languages: each test seats people of its
own, as nobody sits at two tables at once and the tests may run in any order."""
SDK = (Path(__file__).resolve().parents[2]
       / "bot/activity/web/node_modules/@discord/embedded-app-sdk/output/index.mjs")
_LOGGED_ERROR = re.compile(r"\b(ERROR|CRITICAL)\b|^Traceback")
_ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


class ActivityWorld(FakeOnItsLoop):
    """A running fake with the playground's people and channels, and the bot against it."""

    call_timeout = 60.0

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.world: World | None = None
        self.more: tuple[User, ...] = ()
        self.bot: BotProcess | None = None

    # -- the world ------------------------------------------------------------------------------

    async def _start(self) -> None:
        await super()._start()
        self.world = build_world(self.driver)
        self.more = tuple(self.driver.add_user(name, locale=locale)
                          for name, locale in MORE_PEOPLE.items())
        port = free_port()
        # the app's Activity is the bot's own server; the bot registers its Entry Point itself
        self.driver.enable_activities(f"http://127.0.0.1:{port}", entry_point=False)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.bot = BotProcess(self.fake, self.folder, 0.0, port)
        await self.bot.start(self.driver)

    def stop(self) -> int | None:
        async def stop() -> int | None:
            status = await self.bot.stop() if self.bot is not None else None
            await self.fake.stop()
            return status

        status = self._wait(stop())
        self._end_loop()
        return status

    def bot_errors(self) -> list[str]:
        path = self.folder / "bot.log"
        log = _ANSI_COLOUR.sub("", path.read_text(errors="replace")) if path.exists() else ""
        return [line for line in log.splitlines() if _LOGGED_ERROR.search(line)]

    # -- people, places, what Discord shows -----------------------------------------------------

    def person(self, name: str) -> User:
        assert self.world is not None
        return next(u for u in (*self.world.users, *self.more) if u.global_name == name)

    def channel(self, name: str) -> Channel:
        assert self.world is not None
        return next(c for c in self.world.channels if c.name == name)

    @property
    def voice(self) -> Channel:
        return self.channel(VOICE_CHANNEL)

    def chromium_args(self) -> list[str]:
        return self.fake.chromium_args()

    def client_url(self, user: User, channel: Channel, **query: str) -> str:
        return self.fake.client_url(user, channel, **query)

    def records(self) -> dict[str, Any]:
        """The SDK's captured logs and the CSP reports the fake collected so far."""
        return self.run(lambda fake, _: {
            "logs": [(c.level, c.message) for c in fake.captured_logs],
            "csp": list(fake.csp_reports),
        })

    def messages(self, channel: Channel) -> list[StoredMessage]:
        return self.run(lambda _, driver: driver.channel_messages(channel))


@contextmanager
def activity_world(folder: Path) -> Iterator[ActivityWorld]:
    running = ActivityWorld(folder)
    running.start()
    try:
        yield running
    finally:
        running.stop()
