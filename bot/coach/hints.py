"""Hints (issue 34): the move an expert computer in a person's seat would make now, and whether
a table gives hints at all."""

from __future__ import annotations

from bot.gamekit.contract import GameSpec
from bot.gamekit.search import Decision
from bot.i18n import N_
from bot.table.computers import LEVELS, Computer, SearchPool
from bot.table.service import TableService, TableSnapshot
from bot.table.settings import SettingsService, rated


async def refusal(game: GameSpec, pool: SearchPool | None, settings: SettingsService,
                  snapshot: TableSnapshot) -> str | None:
    """Why this table gives no hints (a message to translate), or ``None``."""
    if pool is None or game.search is None:
        return N_("This game gives no hints.")
    if not (await settings.server(snapshot.guild_id)).hints:
        return N_("Hints are turned off on this server.")
    if rated(snapshot):
        return N_("Rated tables give no hints: a rating should measure your own play.")
    return None


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
