"""One place that turns an exception into an answer the user sees, in the user's language.

Errors the user caused (not your turn, illegal play, bad card text, an option out of range) are
``UserFacingError``s, table errors or rule errors: they get a short private answer in one style —
what went wrong, and what they can do — and never quote more than a short, escaped excerpt of
what they typed. Anything else is the bot's fault: it is logged with context and the user still
gets an answer, so Discord never shows "This interaction failed".
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.cards import CardTextError
from bot.discord.telemetry import TRACKER
from bot.errors import KortbordError
from bot.gamekit.contract import RuleError
from bot.i18n import N_, L, lang_of, tr
from bot.table.errors import TableError

_log = logging.getLogger("kortbord.errors")

EXCERPT_LIMIT = 24
"""The most of a user's own input an answer ever quotes back."""


class UserFacingError(KortbordError):
    """A mistake of the user's: ``UserFacingError("…{x}…", x=…)`` is shown to them privately,
    in their language."""

    def __init__(self, message: str, /, **values: object) -> None:
        self.message = L(message, **values)
        super().__init__(self.message.render("en"))


TABLE_SHOWS_IT = N_("Sorry, something went wrong on my side while answering you, but what you "
                    "did went through: the table shows it.")


class UnansweredChange(KortbordError):
    """A change of the person's was made (committed, and shown on its table), but their answer
    failed: it is raised from that failure, so that they are not told that nothing changed.
    ``told`` is what they are told instead (another text where the change is on no table)."""

    def __init__(self, message: str, /, told: str = TABLE_SHOWS_IT) -> None:
        super().__init__(message)
        self.told = told


def quoted(text: str) -> str:
    """A short, escaped excerpt of what the user typed, for quoting it back in an answer: at
    most ``EXCERPT_LIMIT`` characters of it, markdown and mentions escaped."""
    text = " ".join(text.split())
    if len(text) > EXCERPT_LIMIT:
        text = text[: EXCERPT_LIMIT - 1] + "…"
    return f"“{discord.utils.escape_mentions(discord.utils.escape_markdown(text))}”"


def shown_value(value: object) -> object:
    """A value for a message, with markdown and mentions in text escaped."""
    if isinstance(value, str):
        return discord.utils.escape_mentions(discord.utils.escape_markdown(value))
    return value


def card_text_message(error: CardTextError, lang: str) -> str:
    if error.kind == "not_a_card":
        return tr(lang, "{text} is not a card. Write cards like 7h, 10s, Qd, A♠ or joker.",
                  text=quoted(error.text))
    if error.kind == "not_held":
        return tr(lang, "You don't hold {cards}. Check your hand with the Your hand button.",
                  cards=quoted(error.text))
    return tr(lang, "No cards given. Write cards like 7h 7s, 10 10 or joker.")


def user_message_for(error: BaseException, lang: str) -> str | None:
    """The friendly text for an error the user caused, or None if the bot is at fault."""
    if isinstance(error, app_commands.TransformerError):
        # a client sent an option value that cannot be what the command declared
        return tr(lang, "One of the options has a value I can't use. Nothing was changed.")
    if isinstance(error, app_commands.CommandInvokeError):
        original = error.__cause__ or getattr(error, "original", None)
        if original is not None and original is not error:
            return user_message_for(original, lang)
    if isinstance(error, UserFacingError | TableError):
        return error.message.render(lang)
    if isinstance(error, RuleError):
        # the engine's values (a player's name, say) are shown as typed, never as markdown
        values = {k: shown_value(v) for k, v in error.values.items()}
        why = L(error.template, **values).render(lang)
        return tr(lang, "That isn't allowed: {why}. Nothing was changed.", why=why)
    if isinstance(error, CardTextError):
        return card_text_message(error, lang)
    if isinstance(error, app_commands.CommandNotFound):
        # a client still offering a command the bot no longer has (one a game renamed), before
        # Discord refreshed its list
        command = "/" + " ".join([*error.parents, error.name])
        return tr(lang, "{command} is not one of my commands any more: type / to see them as "
                        "they are now. Nothing was changed.", command=quoted(command))
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr(lang, "Slow down: try again in {seconds} s.",
                  seconds=int(error.retry_after) + 1)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return tr(lang, "You don't have the permission to do that here.")
    return None


def _route_only(custom_id: object) -> object:
    """A component's custom id without its argument (``kb:<game>:<table>:<action>``): the
    argument of a hand panel's button is a card of that hand, which a log must not show."""
    if not isinstance(custom_id, str):
        return custom_id
    return ":".join(custom_id.split(":")[:4])


def _where(interaction: discord.Interaction) -> str:
    """Who and where, for a log line: ids, the command's name, the component's route."""
    command = interaction.command.qualified_name if interaction.command else None
    component = _route_only((interaction.data or {}).get("custom_id"))
    return (f"user={interaction.user.id} guild={interaction.guild_id} "
            f"channel={interaction.channel_id} command={command} component={component}")


UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction it no longer knows: its 3 seconds passed unanswered."""


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and what it was raised from or wraps (discord.py's ``original``), a few deep:
    a chain that loops ends there too."""
    chain: list[BaseException] = []
    seen: BaseException | None = error
    while seen is not None and len(chain) < 5:
        chain.append(seen)
        seen = seen.__cause__ or getattr(seen, "original", None)
    return chain


def _too_late(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing an answer that came after the interaction's 3
    seconds (404 10062 Unknown interaction), raised as it is or wrapped."""
    return any(isinstance(e, discord.NotFound) and e.code == UNKNOWN_INTERACTION
               for e in _chain(error))


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` privately with what went wrong, whatever state it is in."""
    lang = lang_of(interaction.locale)
    text = user_message_for(error, lang)
    TRACKER.mark(interaction.id, "error" if text is None else "user_error")
    if text is None and _too_late(error):
        # the person saw "This interaction failed" and no answer can reach them now; the bot
        # was too slow, which a burst of them says once each, without a traceback (its every
        # line parsed again to point at it) or a second answer bound to fail the same way:
        # work an overloaded bot could spend on the people still waiting
        _log.warning("interaction answered too late (Unknown interaction): %s",
                     _where(interaction))
        return
    if text is None:
        _log.error("interaction failed: %s", _where(interaction), exc_info=error)
        changed = [e for e in _chain(error) if isinstance(e, UnansweredChange)]
        if changed:
            text = tr(lang, changed[0].told)
        else:
            text = tr(lang, "Sorry, something went wrong on my side. Nothing was changed; "
                            "please try again.")
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        _log.warning("could not deliver an error answer to user=%s", interaction.user.id)
