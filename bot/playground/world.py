"""The playground's server: one guild, a few channels and a few people, with the same ids on
every start, so the bot's database (tables, ledger, stats) still fits after a restart. Everyone
has also added kortbord to their own account, and Anna, Bo and Cem share a group DM, where the
bot is not a member (issue 45)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.fakediscord import Channel, Driver, Guild, User
from bot.fakediscord.snowflake import DISCORD_EPOCH_MS

GUILD_NAME = "Kortbord Playground"
CHANNELS = ("general", "card-table", "back-room")
VOICE_CHANNEL = "Lounge"
"""A voice channel, where the app's Activity is launched (issue 48); its text chat takes
commands like any channel."""
PEOPLE = ("Anna", "Bo", "Cem")
GROUP_DM = "Anna, Bo, Cem (group DM)"
MODERATOR = "Dana"
"""Dana has Manage Messages (the Moderator role): she may stop any table."""

# 2025-01-01T00:00:00Z: the ids' timestamps, older than any message the fake makes later
_WORLD_MS = 1735689600000 - DISCORD_EPOCH_MS


def _fixed_id(n: int) -> int:
    return (_WORLD_MS << 22) | (1 << 17) | n


@dataclass(frozen=True)
class World:
    guild: Guild
    channels: tuple[Channel, ...]
    users: tuple[User, ...]
    moderators: frozenset[int]

    def user(self, user_id: int) -> User | None:
        return next((u for u in self.users if u.id == user_id), None)

    def channel(self, channel_id: int) -> Channel | None:
        return next((c for c in self.channels if c.id == channel_id), None)


def build_world(driver: Driver) -> World:
    guild = driver.add_guild(GUILD_NAME, guild_id=_fixed_id(1))
    channels = tuple(
        driver.add_channel(guild, name, channel_id=_fixed_id(10 + n))
        for n, name in enumerate(CHANNELS)
    )
    users = [
        driver.add_user(name, user_id=_fixed_id(100 + n)) for n, name in enumerate(PEOPLE)
    ]
    moderator = driver.add_user(
        MODERATOR, manage_messages=True, user_id=_fixed_id(100 + len(PEOPLE))
    )
    users.append(moderator)
    for user in users:
        driver.install_for(user)
    group = driver.add_group_dm(users[0], users[1:len(PEOPLE)], name=GROUP_DM,
                                channel_id=_fixed_id(10 + len(CHANNELS)))
    voice = driver.add_channel(guild, VOICE_CHANNEL, voice=True,
                               channel_id=_fixed_id(11 + len(CHANNELS)))
    return World(guild, (*channels, voice, group), tuple(users), frozenset({moderator.id}))
