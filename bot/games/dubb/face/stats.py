"""A server's Dubb statistics as an embed: who loses least, among players with enough games
for the figure to mean something."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord.common import fit, label
from bot.games.dubb.rules import GAMES_PLAYED, LOSSES
from bot.i18n import number, tr, trn
from bot.storage.models import StatsRow

LEADERBOARD_SIZE = 10
MIN_GAMES = 5
"""Players with fewer finished games are left off the ranking (one lucky game is no record)."""


def _who(row: StatsRow) -> str:
    return label(row.player_id, row.name or "?")


def _loss_rate(row: StatsRow) -> float:
    return row.count(LOSSES) / row.count(GAMES_PLAYED)


def record_text(row: StatsRow, lang: str) -> str:
    """"lost 3 of 12 games (25%)"."""
    return trn(lang, "lost {lost} of {n} game ({rate}%)", "lost {lost} of {n} games ({rate}%)",
               row.count(GAMES_PLAYED), lost=number(lang, row.count(LOSSES)),
               rate=round(100 * _loss_rate(row)))


def dubb_stats_embed(rows: Sequence[StatsRow], viewer_id: int, lang: str) -> discord.Embed:
    embed = discord.Embed(title=tr(lang, "Dubb — this server's statistics"),
                          colour=discord.Colour.gold())
    played = [r for r in rows if r.count(GAMES_PLAYED) > 0]
    if not played:
        embed.description = tr(lang, "No Dubb games have been finished here yet.")
        return embed
    ranked = [r for r in played if r.count(GAMES_PLAYED) >= MIN_GAMES]
    board = sorted(ranked, key=lambda r: (_loss_rate(r), -r.count(GAMES_PLAYED), _who(r)))
    lines = [tr(lang, "{place}. **{name}**: {record}", place=n, name=_who(r),
                record=record_text(r, lang))
             for n, r in enumerate(board[:LEADERBOARD_SIZE], start=1)]
    embed.add_field(name=tr(lang, "Who loses least"),
                    value="\n".join(lines) or tr(lang, "Nobody has played enough games yet."),
                    inline=False)
    embed.set_footer(text=trn(lang, "Ranked: players with at least {n} finished game.",
                              "Ranked: players with at least {n} finished games.", MIN_GAMES))
    mine = next((r for r in played if r.player_id == viewer_id), None)
    if mine is not None:
        embed.add_field(name=tr(lang, "You"), value=record_text(mine, lang), inline=True)
    return fit(embed)


def player_embed(row: StatsRow | None, name: str, lang: str) -> discord.Embed:
    """One person's Dubb record on this server."""
    embed = discord.Embed(title=tr(lang, "Dubb — {name}", name=name),
                          colour=discord.Colour.gold())
    if row is None or row.count(GAMES_PLAYED) == 0:
        embed.description = tr(lang, "{name} has not finished a Dubb game here yet.", name=name)
    else:
        embed.description = record_text(row, lang)
    return fit(embed)
