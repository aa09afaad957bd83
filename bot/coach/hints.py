"""Hints (issue 34): the move an expert computer in a person's seat would make now."""

from __future__ import annotations

from bot.gamekit.search import Decision
from bot.table.computers import LEVELS, Computer, SearchPool
from bot.table.service import TableService


async def advise(service: TableService, pool: SearchPool, channel_id: int,
                 player_id: int) -> Decision | None:
    """What an expert computer in ``player_id``'s seat would play now, and why (a hint): the
    same information set, seed and budget as that computer's, so the same move. ``None`` when
    it is not their turn, the game has no expert, or the table moved while it thought."""
    snapshot = await service.get(channel_id)
    if snapshot is None:
        return None
    game = service.game(snapshot.kind)
    if LEVELS["expert"] not in game.strategies:
        return None
    thought = await Computer(game, player_id, pool, LEVELS["expert"]).think(service,
                                                                           channel_id)
    return None if thought is None else thought[2]
