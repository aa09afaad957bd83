"""The daily boards (issue 46, ``docs/daily.md``): ``/… daily board:`` shows the place's board
of a span (today, this week, all time) to the channel, in its language: the best total scores
against the expert, each person's dailies, average and streak, the whole board's average, and
where the one who asked stands.

A place is a server, or a group DM (its own "server", as its tables' history is); the bot's DM
has no board of its own, so there it shows the board across the servers that opted in.
"""

from __future__ import annotations

import math

import discord

from bot.daily.service import BOARD_TOP, DailyBoard, DailyService
from bot.discord.answers import send
from bot.discord.common import fit, shown_name
from bot.discord.controller import TableController
from bot.discord.deadline import in_time
from bot.discord.layout import answer_layout
from bot.discord.reach import place_of
from bot.i18n import N_, number, ordinal, signed, tr, trn
from bot.storage import DailyStanding

SPANS = {"today": N_("today"), "week": N_("this week"), "all": N_("all time")}
STREAK_SHOWN = 2
"""The shortest streak a board names beside a person (one day is no streak yet)."""


def _dailies(lang: str, count: int) -> str:
    return trn(lang, "{n} daily", "{n} dailies", count, n=count)


def _line(lang: str, place: int, standing: DailyStanding, streak: int) -> str:
    line = tr(lang, "{place}. **{name}** {total} · {dailies} · average {average}",
              place=place, name=shown_name(standing.name), total=signed(lang, standing.total),
              dailies=_dailies(lang, standing.dailies),
              average=signed(lang, standing.average, 1))
    if streak >= STREAK_SHOWN:
        line += " · " + trn(lang, "{n} day in a row", "{n} days in a row", streak)
    return line


def _you(lang: str, board: DailyBoard, viewer_id: int) -> str | None:
    """Where the viewer stands: place, percentile, their total, dailies, average and streak."""
    standings = board.standings
    mine = next((n for n, s in enumerate(standings, start=1) if s.player_id == viewer_id), None)
    if mine is None:
        return None
    count, standing = len(standings), standings[mine - 1]
    days = board.streaks.get(viewer_id, 0)
    return "\n".join([
        tr(lang, "{place} of {count} (top {percent}%)", place=ordinal(lang, mine),
           count=number(lang, count), percent=max(1, math.ceil(100 * mine / count))),
        tr(lang, "{total} · {dailies} · average {average}",
           total=signed(lang, standing.total), dailies=_dailies(lang, standing.dailies),
           average=signed(lang, standing.average, 1)),
        *([trn(lang, "Streak: {count} day in a row.", "Streak: {count} days in a row.", days,
               count=days)] if days else [])])


def board_embed(controller: TableController, board: DailyBoard, span: str, viewer_id: int,
                lang: str, *, everywhere: bool = False, from_dm: bool = False
                ) -> discord.Embed:
    """The place's daily board of a span (or, ``everywhere``, the board across the servers
    that opted in; ``from_dm``: asked in the bot's DM, which has no board of its own)."""
    game, spanned = controller.game.name, tr(lang, SPANS[span])
    title = (tr(lang, "{game} daily across servers — {span}", game=game, span=spanned)
             if everywhere else tr(lang, "{game} daily — {span}", game=game, span=spanned))
    embed = discord.Embed(title=title, colour=discord.Colour.gold())
    standings = board.standings
    embed.description = "\n".join(
        _line(lang, n, s, board.streaks.get(s.player_id, 0))
        for n, s in enumerate(standings[:BOARD_TOP], start=1)) or (
        tr(lang, "Nobody on the servers that share their boards has finished a daily yet.")
        if everywhere else tr(lang, "Nobody here has finished a daily yet."))
    if board.average is not None:
        embed.add_field(name=tr(lang, "Everyone on this board"), value=tr(
            lang, "{players} · {dailies} · average {average}",
            players=trn(lang, "{n} player", "{n} players", len(standings)),
            dailies=_dailies(lang, board.dailies), average=signed(lang, board.average, 2)))
    mine = _you(lang, board, viewer_id)
    if mine is not None:
        embed.add_field(name=tr(lang, "You"), value=mine)
    footer = tr(lang, "Scores are against the expert in the same seat of the same deal, added "
                      "up over the dailies played in every server that shares its boards.") \
        if everywhere else tr(lang, "Scores are against the expert in the same seat of the "
                                    "same deal, added up over the dailies played here.")
    if from_dm:
        footer += " " + tr(lang, "Dailies played in DMs and group DMs count on no board "
                                 "across servers.")
    embed.set_footer(text=footer)
    return fit(embed)


def _in_bot_dm(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is None and interaction.context.dm_channel


async def show_board(controller: TableController, service: DailyService,
                     interaction: discord.Interaction, span: str,
                     everywhere: bool = False) -> None:
    """The place's daily board, or the board across the servers that opted in, shown to the
    channel in its language."""
    from_dm = _in_bot_dm(interaction)
    everywhere = everywhere or from_dm
    # a late "thinking…" is public, so that the board it turns into is too (``in_time``): the
    # first board after midnight settles the past days' unfinished dailies first
    async with in_time(interaction, update=False, public=True):
        board = await service.board(controller.game.kind, span,
                                    None if everywhere else place_of(interaction),
                                    interaction.user.id)
        lang = await controller.channel_lang(interaction)
        layout = answer_layout(board_embed(controller, board, span, interaction.user.id, lang,
                                           everywhere=everywhere, from_dm=from_dm))
        await send(interaction, view=layout, ephemeral=False)
