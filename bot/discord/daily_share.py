"""A finished daily's **Share result** (issue 46, ``docs/daily.md``): one public message in the
channel, in its language, that spoils nothing for those still to play the deal: a line (who,
which day, the score against the expert, the streak) and a small picture of the same with the
percentile and the cards the person held at each turn, never a card, a place or a move.

The person's click posts it, as its own answer, so it works wherever the daily does: servers,
group DMs and servers that never added kortbord (``bot.discord.reach``).
"""

from __future__ import annotations

import asyncio
from datetime import date

import discord

from bot.cardart.result import ResultCard, result_card
from bot.cardart.words import ALT_LIMIT
from bot.daily.progress import cards_at_turns
from bot.daily.service import DailyService
from bot.discord.answers import display_name, send
from bot.discord.common import as_typed, cut, shown_name
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.pictures import png_attachment
from bot.discord.reach import answers_only_privately
from bot.gamekit.contract import GameSpec
from bot.i18n import number, signed, tr, trn
from bot.storage import DailyAttempt


def _streak(lang: str, days: int) -> str:
    return trn(lang, "Streak: {count} day in a row.", "Streak: {count} days in a row.", days,
               count=days)


def share_line(controller: TableController, attempt: DailyAttempt, days: int, name: str,
               lang: str) -> str:
    """The result as the channel sees it: who, which day, the score against the expert and the
    streak; never a card, a place or a move, so it spoils nothing for those still to play."""
    assert attempt.score is not None
    line = tr(lang, "{name} played the {game} daily of {day}: {score} against the expert.",
              name=shown_name(name), game=controller.game.name, day=attempt.day,
              score=signed(lang, attempt.score))
    return f"{line} {_streak(lang, days)}"


def result_picture(game: GameSpec, attempt: DailyAttempt, secret: bytes, days: int,
                   percent: int | None, name: str, lang: str) -> tuple[bytes, str]:
    """The result as a small PNG and its alt text (a worker thread's job: it replays the
    daily and draws)."""
    assert attempt.score is not None
    held = cards_at_turns(game, date.fromisoformat(attempt.day), secret, attempt.moves)
    score = signed(lang, attempt.score)
    lines = [_streak(lang, days)]
    if percent is not None:
        lines.append(tr(lang, "Better than {percent}% of the others who played this deal.",
                        percent=percent))
    spark_label = tr(lang, "Cards in your hand as each of your turns began")
    data = result_card(ResultCard(
        title=tr(lang, "{game} daily · {day}", game=game.name, day=attempt.day),
        score=attempt.score, score_text=score, caption=tr(lang, "against the expert"),
        lines=lines, spark=held, spark_label=spark_label))
    alt = " ".join([
        tr(lang, "{name}'s {game} daily of {day}: {score} against the expert.",
           # an alt text is read as it is: the name as typed, cut as names are
           name=as_typed(shown_name(name)), game=game.name, day=attempt.day, score=score),
        *lines,
        *([tr(lang, "Cards in hand as each turn began: {counts}.",
              counts=", ".join(number(lang, n) for n in held))] if held else [])])
    return data, cut(alt, ALT_LIMIT)


async def share(controller: TableController, service: DailyService,
                interaction: discord.Interaction, day: date) -> None:
    """Post the spoiler-free result line and picture in the channel, in its language, as the
    click's own answer (or its follow-up, once the deadline's watch acknowledged it)."""
    if answers_only_privately(interaction):
        # Discord would show the post to the clicker alone
        raise UserFacingError("This server lets kortbord answer you only privately, so your "
                              "result can't be shared here.")
    kind = controller.game.kind
    attempt = await service.store.daily.attempt(kind, day.isoformat(), interaction.user.id)
    known = await service.store.daily.known_day(kind, day.isoformat())
    if attempt is None or known is None or not attempt.finished:
        raise UserFacingError("Finish your daily first: its result is shared once it is over.")
    lang = await controller.channel_lang(interaction)
    days = await service.streak(kind, attempt.player_id)
    percent = await service.percentile(attempt)
    name = display_name(interaction)
    text = share_line(controller, attempt, days, name, lang)
    data, alt = await asyncio.to_thread(result_picture, controller.game, attempt,
                                        bytes.fromhex(known.secret), days, percent, name, lang)
    filename = f"{kind}-daily-{attempt.day}.png"
    await send(interaction, content=text, file=png_attachment(data, filename, alt),
               ephemeral=False)
