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


class UserFacingError(Exception):
    """A mistake of the user's: the message is shown to them (ephemerally) as it is."""


def user_message_for(error: BaseException) -> str | None:
    """The friendly text for an error the user caused, or None if the bot is at fault."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
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
        return str(error)
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
