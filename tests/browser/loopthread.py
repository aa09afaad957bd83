"""The fake Discord on an event loop in a background thread, so synchronous Playwright can drive
pages while a test acts through the fake's driver on the fake's own loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import TypeVar

from bot.fakediscord import Driver, FakeDiscord

T = TypeVar("T")


class FakeOnItsLoop:
    """A fake and its driver on a loop of their own; ``run(fn)`` runs ``fn(fake, driver)``
    (sync or async) there and returns its result. Subclasses start what they need in
    ``_start`` and stop it in ``_stop``."""

    call_timeout = 30.0

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.fake = FakeDiscord()
        self.driver = Driver(self.fake)

    def start(self) -> None:
        self.thread.start()
        self._wait(self._start())

    async def _start(self) -> None:
        await self.fake.start()

    def run(self, fn: Callable[[FakeDiscord, Driver], T | Awaitable[T]]) -> T:
        async def call() -> T:
            result = fn(self.fake, self.driver)
            if asyncio.iscoroutine(result):
                return await result  # type: ignore[no-any-return]
            return result  # type: ignore[return-value]

        return self._wait(call())

    def _wait(self, coroutine: Awaitable[T]) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self.loop)  # type: ignore[arg-type]
        return future.result(timeout=self.call_timeout)

    def _end_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
