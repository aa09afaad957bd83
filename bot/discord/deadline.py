"""Discord's 3-second deadline for answering an interaction, kept under load (issue 32).

A move's answer comes after its database write, which waits its turn behind every other
table's, and after its panel is drawn; in a burst of clicks at many tables that can take longer
than the deadline, and the click fails ("This interaction failed") although the move is made.
``in_time`` watches one interaction while it is handled: if nothing has answered it when it is
``LATE_SECONDS`` old, it acknowledges it (an update of the panel the click came from, else a
"thinking…" answer), and the answer that follows goes through the interaction's webhook
instead. An interaction answered in time costs no extra request.

The "thinking…" answer is private, unless the watch is told the answer is ``public`` (a daily
board, a shared result): Discord's first follow-up after a deferred answer replaces its
"thinking…" message and keeps its privacy, whatever the follow-up asks ("Create Followup
Message"), so a private "thinking…" would show a public answer to the clicker alone. An error
after a public "thinking…" replaces it in the channel the same way.

The watch and the answer take one lock (``answering``), so exactly one of them makes the
interaction's callback: Discord refuses a second (40060, already acknowledged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextvars import ContextVar
from dataclasses import dataclass, field

import discord

_log = logging.getLogger(__name__)

LATE_SECONDS = 2.0
"""An interaction this old and not answered is acknowledged first. A second of Discord's
deadline is left for the acknowledgement to reach it: the bot's loop lag peaked near 0.45 s at
1,000 live tables on two shared cores."""


@dataclass(eq=False)
class _Watch:
    interaction: discord.Interaction
    update: bool
    public: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def run(self) -> None:
        created = self.interaction.created_at
        waited = (discord.utils.utcnow() - created).total_seconds()
        await asyncio.sleep(max(LATE_SECONDS - waited, 0.0))
        async with self.lock:
            response = self.interaction.response
            if response.is_done():
                return
            try:
                if self.update:
                    await response.defer()
                else:
                    await response.defer(ephemeral=not self.public, thinking=True)
            except discord.HTTPException:
                # the answer that follows tries the callback itself and reports what fails
                _log.warning("could not acknowledge a late interaction: interaction=%s",
                             self.interaction.id, exc_info=True)


_WATCHED: ContextVar[_Watch | None] = ContextVar("kortbord_deadline_watch", default=None)


@contextlib.asynccontextmanager
async def in_time(interaction: discord.Interaction, *, update: bool,
                  public: bool = False) -> AsyncIterator[None]:
    """Watch ``interaction`` while the block handles it (see the module docstring). ``update``:
    the click came from the user's own private panel, which the answer edits; ``public``: the
    answer is a message for the whole channel, so a late "thinking…" is public too. Inside a
    watch of the same interaction it adds none: one watch answers for it."""
    outer = _WATCHED.get()
    if outer is not None and outer.interaction is interaction:
        yield
        return
    watch = _Watch(interaction, update, public)
    reset = _WATCHED.set(watch)
    task = asyncio.create_task(watch.run())
    try:
        yield
    finally:
        _WATCHED.reset(reset)
        if watch.lock.locked():
            # acknowledging right now: let the callback finish, so what answers next knows
            await asyncio.shield(task)
        else:
            task.cancel()


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Hold off the watch (if ``interaction`` is watched) while its answer is sent; inside,
    ``interaction.response.is_done()`` says whether the watch acknowledged it first."""
    watch = _WATCHED.get()
    if watch is None or watch.interaction is not interaction:
        yield
        return
    async with watch.lock:
        yield
