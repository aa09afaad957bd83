"""Tables where the bot is not a member (issue 45): a group DM, or a server that never added
kortbord, reached because a person installed the app to their account.

There the bot token may not read, post or edit anything (Discord answers 403, 50001), so a
table is written only through people's interactions: the table is a public follow-up of a
person's interaction, edited through the newest interaction's token while it is good (Discord
accepts a token for 15 minutes; the publisher uses it for 14), and a turn is announced by
posting the table anew as a follow-up mentioning the person to move. An interaction of an app
that only the person installed may have at most 5 follow-ups ("Receiving and Responding"), so
the publisher counts them and edits instead of posting once an interaction has used its 5.

When no token is good the table waits: what happens meanwhile (a turn timer's move, a computer's)
is applied and stored as anywhere, and the next click shows it. Shortly before the last token
runs out, the table says so on itself, so nobody mistakes it for a live one. The newest token is
stored with the table's writes, so a restarted process writes the table through it and says so
in time too.
"""

from __future__ import annotations

import discord

from bot.discord.errors import UserFacingError

FOLLOWUPS_PER_INTERACTION = 5
"""Follow-ups Discord lets an interaction of a user-installed app have where the app is not in
the server (or in a (group) DM)."""
ASLEEP_BEFORE = 30.0
"""Seconds before the newest token runs out (as the publisher counts it) that the table is
written one last time, saying it waits for a click."""


def server_channel(client: discord.Client, place_id: int | None, channel_id: int
                   ) -> discord.abc.GuildChannel | discord.Thread | None:
    """The server channel or thread ``channel_id`` as the bot's cache has it, looked up in its
    server ``place_id``: ``None`` for a DM or a group DM (filed under its own id), or one the
    cache does not hold. discord.py's ``Client.get_channel`` walks every server the bot is in
    until it finds the channel, about 0.15 µs a server: a write asked it up to three times, so
    a bot in a thousand servers spent some 130 µs of each new table's lobby on it (issue 49,
    ``scripts/bench_discord.py --cold 1000 --servers 1000``). ``place_id`` ``None`` (not
    known) asks discord.py all the same."""
    if place_id is None:
        found = client.get_channel(channel_id)
        return found if isinstance(found, discord.abc.GuildChannel | discord.Thread) else None
    if place_id == channel_id:
        return None
    guild = client.get_guild(place_id)
    return None if guild is None else guild.get_channel_or_thread(channel_id)


def interaction_only(client: discord.Client, place_id: int, channel_id: int) -> bool:
    """Whether a table filed under ``place_id`` in ``channel_id`` can be written only through
    interactions: a DM or group DM (filed under its own channel's id), or a server the bot is
    not a member of (its cache, filled from GUILD_CREATE, does not know it)."""
    if place_id == channel_id:
        return True
    return client.is_ready() and client.get_guild(place_id) is None


def asleep(content: str | None, note: str | None) -> str | None:
    """A table message's ``content`` with the table's "waiting for a click" ``note`` above."""
    if not note:
        return content
    return note if not content else f"{note}\n{content}"


TOKENS_REMEMBERED = 4096


class FollowUps:
    """How many follow-ups the publisher sent through each interaction's token."""

    def __init__(self) -> None:
        self._sent: dict[str, int] = {}

    def spend(self, token: str) -> None:
        self._sent[token] = self._sent.pop(token, 0) + 1
        if len(self._sent) > TOKENS_REMEMBERED:
            # the oldest token ran out long ago
            del self._sent[next(iter(self._sent))]

    def room(self, token: str, answered: bool = False) -> bool:
        """Whether the interaction of ``token`` may post one more follow-up where the limit
        applies; ``answered``: its own answer may have taken one (a late acknowledgement)."""
        return self._sent.get(token, 0) + answered < FOLLOWUPS_PER_INTERACTION


def place_of(interaction: discord.Interaction) -> int | None:
    """The id a table and its records are filed under: the server's, or for a DM or group DM
    the channel's own id (a group DM is its own "server": its history and ledger are its own)."""
    return interaction.guild_id if interaction.guild_id is not None else interaction.channel_id


ANYWHERE_INSTALLS = discord.app_commands.AppInstallationType(guild=True, user=True)
"""A game's commands come with kortbord added to a server and with kortbord added to a person's
own account (Discord's two installation contexts)."""
ANYWHERE_CONTEXTS = discord.app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                           private_channel=True)
"""...and work in servers, in the bot's DM (practice against computers) and in group DMs."""


def answers_only_privately(interaction: discord.Interaction) -> bool:
    """Whether every answer to ``interaction`` is private whatever it asks: a server that never
    added kortbord, where the person lacks Use External Apps (Discord forces every answer there
    to be ephemeral, so nobody else would see a table or a shared post)."""
    return (interaction.guild_id is not None and not interaction.is_guild_integration()
            and not interaction.permissions.use_external_apps)


def check_public_table(interaction: discord.Interaction) -> None:
    """Refuse, in one private line, to open a table where its answers could only be private
    (``answers_only_privately``): nobody else could see or join it."""
    if answers_only_privately(interaction):
        raise UserFacingError("This server lets kortbord answer you only privately, so a table "
                              "can't be shown here. Start one in a group DM with your friends "
                              "instead.")
