"""One place that turns an exception into an answer the user sees.

Errors the user caused (not your turn, illegal play, bad card text) are ``UserFacingError``s or
rule errors: they get a short ephemeral explanation. Anything else is the bot's fault: it is
logged with context and the user still gets an answer, so Discord never shows "This
interaction failed".
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.cards import CardTextError
from bot.games.base import RuleError
from bot.table.errors import TableError

_log = logging.getLogger("kortbord.errors")

BOT_FAULT_TEXT = "Sorry — something went wrong on my side. Nothing was changed; please try again."


EXCERPT_LIMIT = 24
"""The most of a user's own input an answer ever quotes back."""


class UserFacingError(Exception):
    """A mistake of the user's: the message is shown to them (ephemerally) as it is."""


def quoted(text: str) -> str:
    """A short, escaped excerpt of what the user typed, for quoting it back in an answer: at
    most ``EXCERPT_LIMIT`` characters of it, markdown and mentions escaped."""
    text = " ".join(text.split())
    if len(text) > EXCERPT_LIMIT:
        text = text[: EXCERPT_LIMIT - 1] + "…"
    return f"“{discord.utils.escape_mentions(discord.utils.escape_markdown(text))}”"


def card_text_message(error: CardTextError) -> str:
    if error.kind == "not_a_card":
        return (f"{quoted(error.text)} is not a card — write cards like 7h, 10s, Qd, A♠ "
                "or joker.")
    if error.kind == "not_held":
        return f"You don't hold {quoted(error.text)}."
    return "No cards given — write cards like 7h 7s, 10 10 or joker."


def user_message_for(error: BaseException) -> str | None:
    """The friendly text for an error the user caused, or None if the bot is at fault."""
    if isinstance(error, app_commands.TransformerError):
        # a client sent an option value that cannot be what the command declared
        return "One of the options has a value I can't use. Nothing was changed."
    if isinstance(error, app_commands.CommandInvokeError):
        original = error.__cause__ or getattr(error, "original", None)
        if original is not None and original is not error:
            return user_message_for(original)
    if isinstance(error, UserFacingError):
        return str(error)
    if isinstance(error, TableError):
        return error.message
    if isinstance(error, RuleError):
        return f"Not allowed: {error.message} ({error.ruling})"
    if isinstance(error, CardTextError):
        return card_text_message(error)
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down — try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return str(error) or "You can't do that here."
    return None


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` ephemerally with what went wrong, whatever state it is in."""
    text = user_message_for(error)
    if text is None:
        _log.error(
            "interaction failed: user=%s guild=%s channel=%s command=%s custom_id=%s",
            interaction.user.id,
            interaction.guild_id,
            interaction.channel_id,
            interaction.command.qualified_name if interaction.command else None,
            (interaction.data or {}).get("custom_id"),
            exc_info=error,
        )
        text = BOT_FAULT_TEXT
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        _log.warning("could not deliver an error answer to user=%s", interaction.user.id)
