"""Per-server statistics and standings as embeds."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.storage.models import StatsRow

LEADERBOARD_SIZE = 10


def _who(row: StatsRow) -> str:
    name = row.name or "someone"
    return f"🤖 {name}" if row.is_computer else name


def dubb_stats_embed(rows: Sequence[StatsRow], viewer_id: int) -> discord.Embed:
    embed = discord.Embed(title="Dubb — this server's statistics", colour=discord.Colour.gold())
    played = [r for r in rows if r.games_played > 0]
    if not played:
        embed.description = "No Dubb games have been finished here yet."
        return embed
    board = sorted(played, key=lambda r: (r.losses / r.games_played, -r.games_played, _who(r)))
    lines = [
        f"{n}. **{_who(r)}** — lost {r.losses} of {r.games_played} "
        f"({100 * r.losses / r.games_played:.0f}%)"
        for n, r in enumerate(board[:LEADERBOARD_SIZE], start=1)
    ]
    embed.add_field(name="Who loses least", value="\n".join(lines), inline=False)
    mine = next((r for r in played if r.player_id == viewer_id), None)
    if mine is not None:
        embed.add_field(
            name="You", value=f"lost {mine.losses} of {mine.games_played}", inline=True
        )
    return embed
