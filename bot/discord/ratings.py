"""Skill ratings on Discord (docs/ratings.md): the changes a rated table made, shown with its
result; every game's leaderboard (``/… top``) and profile (``/… profile``) with its
rating-history chart. The numbers come from ``bot.ratings``; this module only words them."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import discord

from bot.discord.common import fit, label
from bot.discord.layout import seat_blocks, with_notes
from bot.discord.pictures import png_attachment
from bot.discord.showing import TableRender
from bot.i18n import number, ordinal, signed, tr, trn
from bot.ratings.chart import ChartWords, rating_chart
from bot.ratings.model import MIN_GAMES, OFFSET, shown, shown_change, skill
from bot.storage import RatingChange, RatingRow, Store

BOARD_SIZE = 10
CHART_FILE = "rating-history.png"
COLOUR = discord.Colour.gold()


async def rating_notes(store: Store, table_id: int, lang: str) -> dict[int, str]:
    """Each rated player's new rating and its change ("rating 1069 (+69)"), best place
    first; empty for a table that was not rated."""
    notes = {}
    for c in await store.rating_changes(table_id=table_id):
        before = skill(c.mu_before, c.sigma_before).ordinal
        after = skill(c.mu, c.sigma).ordinal
        notes[c.player_id] = tr(lang, "rating {rating} ({change})",
                                rating=_rating(shown(after)),
                                change=signed(lang, shown_change(before, after)))
    return notes


def rated_seats(render: TableRender, game: str, table_id: int, notes: Mapping[int, str],
                names: Mapping[int, str], money: Mapping[int, int] | None,
                lang: str) -> TableRender:
    """A finished table with each seat's rating change at the end of its line (issue 44:
    one Section per seat, its place or net and its rating change). A table whose face lists
    no seats at its end (a game between hands when its table closed, a table that was
    stopped) gets the block of its rated players, best first, each with its net at a table
    played for stakes."""
    if not notes:
        return render
    if render.seats is not None:
        return replace(render, seats=with_notes(render.embed, render.seats, notes))
    field = tr(lang, "Players")
    lines = []
    someone = tr(lang, "someone")
    for player in notes:
        line = f"**{names.get(player, someone)}**"
        if money is not None:
            line += " · " + tr(lang, "net {net}", net=signed(lang, money.get(player, 0)))
        lines.append((player, line))
    render.embed.add_field(name=field, value="\n".join(line for _, line in lines),
                           inline=False)
    seats = seat_blocks(game, table_id, field, lines, lang)
    return replace(render, seats=with_notes(render.embed, seats, notes))


def _rating(value: int) -> str:
    """A rating as ratings are written in every language: digits only (1069, never 1,069)."""
    return str(value)


def _who(row: RatingRow) -> str:
    return label(row.player_id, row.name or "?")


def _place_text(lang: str, rank: int, of: int) -> str:
    """"4th of 25 (top 16%)"."""
    return tr(lang, "{place} of {count} (top {percent}%)", place=ordinal(lang, rank),
              count=number(lang, of), percent=max(1, math.ceil(100 * rank / of)))


def _season_text(lang: str, season: int) -> str:
    return tr(lang, "season {season}", season=number(lang, season)) if season > 1 else ""


def top_embed(rows: Sequence[RatingRow], viewer_id: int, game: str, season: int,
              lang: str) -> discord.Embed:
    """The leaderboard of one game's season: players with ``MIN_GAMES`` rated games, by the
    conservative rating; the viewer's own rank and percentile."""
    when = _season_text(lang, season)
    title = (tr(lang, "{game} — leaderboard, {season}", game=game, season=when) if when
             else tr(lang, "{game} — leaderboard", game=game))
    embed = discord.Embed(title=title, colour=COLOUR)
    ranked = [r for r in rows if r.games >= MIN_GAMES]
    lines = [tr(lang, "{place}. **{name}** {rating} · {games}", place=n, name=_who(r),
                rating=_rating(shown(r.ordinal)),
                games=trn(lang, "{n} game", "{n} games", r.games))
             for n, r in enumerate(ranked[:BOARD_SIZE], start=1)]
    embed.description = "\n".join(lines) or tr(
        lang, "Nobody has played enough rated games yet.")
    mine = next((r for r in rows if r.player_id == viewer_id), None)
    if mine is not None and mine.games >= MIN_GAMES:
        rank = ranked.index(mine) + 1
        you = tr(lang, "{rating}: {place}", rating=_rating(shown(mine.ordinal)),
                 place=_place_text(lang, rank, len(ranked)))
    elif mine is not None:
        you = trn(lang, "{rating} after {n} rated game: the leaderboard lists you from {most}.",
                  "{rating} after {n} rated games: the leaderboard lists you from {most}.",
                  mine.games, rating=_rating(shown(mine.ordinal)),
                  most=number(lang, MIN_GAMES))
    else:
        you = tr(lang, "You have no rated games yet.")
    embed.add_field(name=tr(lang, "You"), value=you, inline=False)
    embed.set_footer(text=trn(
        lang, "Ranked by rating (a cautious estimate of skill): players with at least {n} "
        "rated game.", "Ranked by rating (a cautious estimate of skill): players with at "
        "least {n} rated games.", MIN_GAMES))
    return fit(embed)


def _history(changes: Sequence[RatingChange]) -> list[int]:
    if not changes:
        return []
    first = changes[0]
    return [shown(skill(first.mu_before, first.sigma_before).ordinal),
            *(shown(skill(c.mu, c.sigma).ordinal) for c in changes)]


async def profile(store: Store, guild_id: int, kind: str, game: str, player_id: int,
                  name: str, plain_name: str, lang: str
                  ) -> tuple[discord.Embed, discord.File | None]:
    """One player's rating in this season: rating, rank, games and record, and the chart of
    their rating after each rated game (drawn on an executor thread: it takes some 100 ms)."""
    season = await store.current_season(guild_id, kind)
    rows = await store.ratings(guild_id, kind, season)
    when = _season_text(lang, season)
    title = (tr(lang, "{game} — {name}, {season}", game=game, name=name, season=when) if when
             else tr(lang, "{game} — {name}", game=game, name=name))
    embed = discord.Embed(title=title, colour=COLOUR)
    row = next((r for r in rows if r.player_id == player_id), None)
    if row is None:
        embed.description = tr(lang, "{name} has no rated {game} games here yet.", name=name,
                               game=game)
        return fit(embed), None
    ranked = [r for r in rows if r.games >= MIN_GAMES]
    embed.add_field(name=tr(lang, "Rating"), value=_rating(shown(row.ordinal)))
    embed.add_field(
        name=tr(lang, "Rank"),
        value=(_place_text(lang, ranked.index(row) + 1, len(ranked)) if row in ranked else
               trn(lang, "listed from {n} rated game", "listed from {n} rated games",
                   MIN_GAMES)))
    embed.add_field(name=tr(lang, "Rated games"), value=number(lang, row.games))
    embed.add_field(name=tr(lang, "Record"),
                    value=tr(lang, "first {firsts} · last {lasts}",
                             firsts=number(lang, row.firsts), lasts=number(lang, row.lasts)),
                    inline=False)
    history = _history(await store.rating_changes(player=(guild_id, kind, season, player_id)))
    # the picture and its alt text are no markdown: they name the player as typed
    words = ChartWords(title=tr(lang, "{name} — {game} rating", name=plain_name, game=game),
                       x_label=tr(lang, "Rated games"), y_label=tr(lang, "Rating"))
    png = await asyncio.get_running_loop().run_in_executor(None, rating_chart, history, words)
    alt = trn(lang, "Chart of {name}'s {game} rating: from {start} to {end} over {n} rated "
              "game.", "Chart of {name}'s {game} rating: from {start} to {end} over {n} rated "
              "games.", len(history) - 1, name=plain_name, game=game,
              start=_rating(history[0] if history else int(OFFSET)),
              end=_rating(history[-1] if history else int(OFFSET)))
    embed.set_image(url=f"attachment://{CHART_FILE}")
    return fit(embed), png_attachment(png, CHART_FILE, alt[:1024])
