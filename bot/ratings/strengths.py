"""A player's strength for other features (seating an event's tables by rating)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ratings.model import FRESH
from bot.storage import Store

UNRATED = FRESH.ordinal
"""The strength of someone without a rating this season: a newcomer's ordinal (0.0)."""


async def seating_strengths(store: Store, guild_id: int, kind: str,
                            user_ids: Sequence[int]) -> dict[int, float]:
    """Each user's current conservative ordinal (mu − 3·sigma) in this server, game and
    season; ``UNRATED`` for a user without one."""
    season = await store.current_season(guild_id, kind)
    held = {r.player_id: r.ordinal
            for r in await store.ratings(guild_id, kind, season, player_ids=list(user_ids))}
    return {u: held.get(u, UNRATED) for u in user_ids}
