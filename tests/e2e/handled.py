"""Wait until the bot has done with every interaction it is handling: a move's handling
includes the table's publishing and the next player's panel refresh."""

from __future__ import annotations

import asyncio

from bot.client import _INTERACTION_TASKS


async def handled() -> None:
    """Until every interaction the bot is handling has been answered and done with."""
    running = [t for t in asyncio.all_tasks()
               if t is not asyncio.current_task() and not t.done()
               and t.get_name().startswith(_INTERACTION_TASKS)]
    if running:
        await asyncio.wait(running, timeout=30)
