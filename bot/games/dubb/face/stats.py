"""A server's Dubb statistics as an embed: who loses least."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord.common import label
from bot.games.dubb.rules import GAMES_PLAYED, LOSSES
from bot.storage.models import StatsRow

LEADERBOARD_SIZE = 10


def _who(row: StatsRow) -> str:
    return label(row.player_id, row.name or "someone")


def _loss_rate(row: StatsRow) -> float:
    return row.count(LOSSES) / row.count(GAMES_PLAYED)


def dubb_stats_embed(rows: Sequence[StatsRow], viewer_id: int) -> discord.Embed:
    embed = discord.Embed(title="Dubb — this server's statistics", colour=discord.Colour.gold())
    played = [r for r in rows if r.count(GAMES_PLAYED) > 0]
    if not played:
        embed.description = "No Dubb games have been finished here yet."
        return embed
    board = sorted(played, key=lambda r: (_loss_rate(r), -r.count(GAMES_PLAYED), _who(r)))
    lines = [
        f"{n}. **{_who(r)}** — lost {r.count(LOSSES)} of {r.count(GAMES_PLAYED)} "
        f"({100 * _loss_rate(r):.0f}%)"
        for n, r in enumerate(board[:LEADERBOARD_SIZE], start=1)
    ]
    embed.add_field(name="Who loses least", value="\n".join(lines), inline=False)
    mine = next((r for r in played if r.player_id == viewer_id), None)
    if mine is not None:
        embed.add_field(
            name="You", value=f"lost {mine.count(LOSSES)} of {mine.count(GAMES_PLAYED)}",
            inline=True
        )
    return embed
