"""Slash commands in the players' own language: discord.py's ``app_commands.Translator`` fed
from the same catalogs as every other message.

Commands, options and choices are declared in English with ``cmd("…")`` (which marks the text for
extraction); when the bot syncs, Discord receives their names and descriptions in every language
the bot speaks, and shows each user the ones of their client's language. The interaction still
carries the English names, so the code never depends on the reader's language.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DISCORD_LOCALES, tr

NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def cmd(text: str) -> app_commands.locale_str:
    """A command, option or choice name or description, to be translated when syncing. Names
    are lowercase (``cmd("play")``), so they never share a message with a button's label
    ("Play")."""
    return app_commands.locale_str(text)


LEVEL_CHOICES = [app_commands.Choice(name=cmd(level), value=level)
                 for level in ("easy", "normal", "expert")]
"""The computer levels (``bot.table.computers.LEVELS``) as a command option's choices."""


def slash(lang: str, *words: str) -> str:
    """A command as a reader of ``lang`` sees it in their client, for messages that name one:
    ``slash("sv", "kortbord", "pings")`` is "/kortbord pings"."""
    return "/" + " ".join(tr(lang, w) for w in words)


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = DISCORD_LOCALES.get(locale.value)
        if lang is None:
            return None
        text = tr(lang, string.message)
        if context.location in NAMES and not isinstance(context.data, app_commands.ContextMenu):
            # Discord's names are lowercase words joined by "-" or "_" (a context menu's
            # name excepted: it is shown as written)
            text = text.lower().replace(" ", "-")
        return None if text == string.message else text
