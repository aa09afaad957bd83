"""Hold one call of the bot past Discord's 3-second deadline: the next call of a method waits
until the click set in ``clicked`` is answered (at most ``HOLD`` seconds), then runs. A test
then asks whether the bot acknowledged the click before the held work was done."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.fakediscord.records import InteractionRecord

HOLD = 4.0
"""Seconds the held call waits for the click's answer at most: past the 3-second deadline."""


class HeldUntilAnswered:
    """The next call of ``owner.<name>`` (an async method) waits until the interaction set in
    ``clicked`` is answered; ``answered_first`` then says whether it was."""

    def __init__(self, owner: Any, name: str) -> None:
        self.owner, self.name = owner, name
        self.call = getattr(owner, name)
        self.clicked: asyncio.Future[InteractionRecord] = asyncio.get_running_loop().create_future()
        self.answered_first: bool | None = None
        setattr(owner, name, self._held)

    async def _held(self, *args: Any, **kwargs: Any) -> Any:
        setattr(self.owner, self.name, self.call)
        record = await self.clicked
        try:
            async with asyncio.timeout(HOLD):
                await asyncio.shield(record.acknowledged)
        except TimeoutError:
            pass
        self.answered_first = record.acknowledged.done() and not record.failed
        return await self.call(*args, **kwargs)
