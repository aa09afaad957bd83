"""Where the publisher and the channel webhooks find a table's channel in the bot's cache, and
what they ask of it (issue 49): through the table's server, never by discord.py's walk over
every server the bot is in (``Client.get_channel``), which cost a bot in a thousand servers
some 130 µs of each new table's lobby; and whether the bot may manage webhooks there, worked
out again at most every ``PERMISSION_KEPT`` seconds, not on every table write."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord.reach import server_channel
from bot.discord.webhooks import PERMISSION_KEPT, ChannelWebhooks
from tests.fakeclock import FakeClock

BOT = 10
MANAGE_WEBHOOKS = 1 << 29
VIEW_AND_SEND = (1 << 10) | (1 << 11)


def _everyone(guild_id: int, permissions: int) -> dict[str, Any]:
    return {"id": str(guild_id), "name": "@everyone", "permissions": str(permissions),
            "position": 0, "color": 0, "hoist": False, "managed": False,
            "mentionable": False, "flags": 0}


def _guild_data(guild_id: int, channel_id: int, thread_id: int, bot_permissions: int
                ) -> dict[str, Any]:
    return {
        "id": str(guild_id), "name": f"server {guild_id}", "owner_id": "1",
        "roles": [_everyone(guild_id, bot_permissions)],
        "channels": [{"id": str(channel_id), "type": 0, "name": "tables", "position": 0,
                      "permission_overwrites": []}],
        "threads": [{"id": str(thread_id), "type": 11, "name": "a thread",
                     "parent_id": str(channel_id), "owner_id": "1", "guild_id": str(guild_id),
                     "message_count": 0, "member_count": 1,
                     "thread_metadata": {"archived": False, "auto_archive_duration": 60,
                                         "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                         "locked": False}}],
        "members": [{"user": {"id": str(BOT), "username": "kortbord", "discriminator": "0",
                              "avatar": None, "bot": True},
                     "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                     "mute": False, "flags": 0}],
        "emojis": [], "stickers": [], "features": [], "member_count": 1,
    }


class Walked(discord.Client):
    """A client whose ``get_channel`` (the walk over every server) must not be asked."""

    def get_channel(self, id: int, /) -> Any:
        raise AssertionError(f"walked every server for channel {id}")


@pytest.fixture
async def client() -> Walked:
    client = Walked(intents=discord.Intents(guilds=True))
    state = client._connection
    state.user = discord.ClientUser(state=state, data={
        "id": str(BOT), "username": "kortbord", "discriminator": "0", "avatar": None,
        "bot": True})
    for k in range(1, 4):
        permissions = VIEW_AND_SEND | (MANAGE_WEBHOOKS if k == 2 else 0)
        state._add_guild_from_data(_guild_data(100 * k, 100 * k + 1, 100 * k + 2,
                                               permissions))  # type: ignore[arg-type]
    return client


async def test_a_channel_is_found_through_its_server(client: Walked) -> None:
    found = server_channel(client, 200, 201)
    assert isinstance(found, discord.TextChannel) and found.guild.id == 200
    thread = server_channel(client, 200, 202)
    assert isinstance(thread, discord.Thread) and thread.parent_id == 201
    assert server_channel(client, 300, 201) is None  # not in that server
    assert server_channel(client, 999, 201) is None  # a server the bot is not in
    assert server_channel(client, 555, 555) is None  # a DM or group DM: no server channel


async def test_webhooks_name_a_threads_parent_and_ask_the_channels_server(
        client: Walked) -> None:
    webhooks = ChannelWebhooks(client, store=None, clock=FakeClock())  # type: ignore[arg-type]
    assert webhooks.parent_of(202, 200) == (201, 202)
    assert webhooks.parent_of(201, 200) == (201, None)
    assert webhooks.parent_of(101, 100) == (101, None)
    assert webhooks.wanting(201)  # Manage Webhooks in server 200
    assert not webhooks.wanting(101)  # not in server 100


async def test_the_permission_is_worked_out_again_only_after_it_was_kept(
        client: Walked, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    webhooks = ChannelWebhooks(client, store=None, clock=clock)  # type: ignore[arg-type]
    asked: list[int] = []
    permissions_for = discord.TextChannel.permissions_for

    def counted(channel: discord.TextChannel, obj: Any, /) -> discord.Permissions:
        asked.append(channel.id)
        return permissions_for(channel, obj)

    monkeypatch.setattr(discord.TextChannel, "permissions_for", counted)
    webhooks.parent_of(101, 100)
    for _ in range(5):
        assert not webhooks.wanting(101)
    assert asked == [101]

    # granted: it counts once what was worked out is older than PERMISSION_KEPT
    guild = client.get_guild(100)
    assert guild is not None
    # as discord.py takes a GUILD_ROLE_UPDATE in
    guild.default_role._update(_everyone(100, VIEW_AND_SEND | MANAGE_WEBHOOKS))  # type: ignore[arg-type]
    clock.advance(PERMISSION_KEPT - 1)
    assert not webhooks.wanting(101)
    clock.advance(2)
    assert webhooks.wanting(101)
    assert asked == [101, 101]
