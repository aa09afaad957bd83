"""The fake's gateway with a bare discord.py client: READY, GUILD_CREATE, resume, reconnects."""

from __future__ import annotations

import json
import zlib
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, FakeDiscord
from tests.e2e.conftest import BareClients, World

pytestmark = pytest.mark.e2e


def where_am_i(tree: app_commands.CommandTree) -> None:
    @tree.command(name="where", description="Say where this was run")
    async def where(interaction: discord.Interaction) -> None:
        guild = interaction.guild
        channel = interaction.channel
        assert guild is not None and channel is not None
        client = interaction.client
        await interaction.response.send_message(
            f"{guild.name}|{getattr(channel, 'name', '?')}|{type(channel).__name__}|"
            f"{client.user.id if client.user else 0}|{client.application_id}",
            ephemeral=True,
        )


async def test_client_gets_ready_and_guild_create_before_any_interaction(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(where_am_i)

    result = await driver.slash(world.anna, world.channel, "where")

    # the interaction resolved guild and channel from the GUILD_CREATE cache, and the client
    # took its user from READY and its application id from the application endpoint
    assert result.content == (
        f"Kortbord Test|general|TextChannel|{fake.bot_user.id}|{fake.application.id}"
    )
    session = fake.gateway.live_sessions()[0]
    # zlib-stream, or zstd-stream when the zstandard module is installed
    assert session.compression == discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
    assert session.intents == discord.Intents.default().value


async def test_channels_and_threads_added_later_reach_the_client(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(where_am_i)
    later = driver.add_channel(world.guild, "later")
    thread = driver.add_channel(world.guild, "a thread", thread=True, parent=later)

    in_channel = await driver.slash(world.anna, later, "where")
    in_thread = await driver.slash(world.bo, thread, "where")

    assert in_channel.content.startswith("Kortbord Test|later|TextChannel|")
    assert in_thread.content.startswith("Kortbord Test|a thread|Thread|")
    assert in_thread.message is not None and in_thread.message.channel_id == thread.id


async def test_dropped_connection_resumes_and_replays_missed_events(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(where_am_i)

    await fake.gateway.drop_connections(4000)
    # dispatched while the client is away: it must arrive through RESUME's replay
    result = await driver.slash(world.anna, world.channel, "where")

    assert result.content.startswith("Kortbord Test|general|")
    assert fake.gateway.resume_count == 1
    assert fake.gateway.identify_count == 1


async def test_a_reconnect_request_is_followed_by_a_resume(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(where_am_i)

    fake.gateway.request_reconnect()
    await driver.wait_for(lambda: fake.gateway.resume_count == 1, what="a RESUME after op 7")

    result = await driver.slash(world.anna, world.channel, "where")
    assert result.content.startswith("Kortbord Test|general|")
    assert fake.gateway.identify_count == 1


async def test_a_new_client_takes_over_after_the_first_closed(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    first, _ = await bare_clients.start(where_am_i)
    await first.close()
    await driver.wait_for(lambda: not fake.gateway.live_sessions(), what="the session to end")

    await bare_clients.start(where_am_i)
    result = await driver.slash(world.anna, world.channel, "where")

    assert result.content.startswith("Kortbord Test|general|")
    assert len(fake.gateway.live_sessions()) == 1


async def test_a_wrong_token_fails_login(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    fake.token = "the-real-token"

    driver.allow_rest_errors()
    with pytest.raises(discord.LoginFailure):
        await bare_clients.start(where_am_i, token="not-the-token")
    assert fake.rest_calls[-1].status == 401


async def test_privileged_intents_need_enabling(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    intents = discord.Intents.default()
    intents.message_content = True

    with pytest.raises(discord.PrivilegedIntentsRequired):
        await bare_clients.start(where_am_i, intents=intents)


async def test_members_come_with_the_presence_intent_only(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start(where_am_i)
    await driver.slash(world.anna, world.channel, "where")

    guild = client.get_guild(world.guild.id)
    assert guild is not None
    # Discord sends only the bot itself in GUILD_CREATE without GUILD_PRESENCES
    assert {m.id for m in guild.members} == {fake.bot_user.id}
    assert guild.member_count == len(world.guild.members)


class RawGateway:
    """A hand-written gateway client speaking zlib-stream, for protocol-level checks."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.inflate = zlib.decompressobj()

    @classmethod
    async def connect(cls, session: aiohttp.ClientSession, fake: FakeDiscord) -> RawGateway:
        url = f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        return cls(await session.ws_connect(url))

    async def receive(self) -> dict[str, Any]:
        message = await self.ws.receive()
        assert message.type is aiohttp.WSMsgType.BINARY, message
        assert message.data.endswith(b"\x00\x00\xff\xff")
        return json.loads(self.inflate.decompress(message.data))

    async def send(self, op: int, data: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": data}))

    async def identify(self, token: str = "raw-token", intents: int = 1 | 1 << 9) -> dict[str, Any]:
        hello = await self.receive()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
        await self.send(
            2,
            {
                "token": token,
                "intents": intents,
                "properties": {"os": "linux", "browser": "raw", "device": "raw"},
            },
        )
        ready = await self.receive()
        assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
        return ready["d"]


async def test_raw_handshake_heartbeat_and_guild_create(fake: FakeDiscord, world: World) -> None:
    async with aiohttp.ClientSession() as http:
        gateway = await RawGateway.connect(http, fake)
        ready = await gateway.identify()
        guild_create = await gateway.receive()
        await gateway.send(1, 2)
        ack = await gateway.receive()
        await gateway.ws.close()

    assert ready["v"] == 10
    assert ready["user"]["id"] == str(fake.bot_user.id) and ready["user"]["bot"] is True
    assert ready["guilds"] == [{"id": str(world.guild.id), "unavailable": True}]
    assert ready["application"] == {"id": str(fake.application.id), "flags": 1 << 23}
    assert ready["resume_gateway_url"] == f"ws://127.0.0.1:{fake.port}"
    assert (guild_create["t"], guild_create["s"]) == ("GUILD_CREATE", 2)
    data = guild_create["d"]
    assert data["id"] == str(world.guild.id) and data["unavailable"] is False
    assert [c["name"] for c in data["channels"]] == ["general"]
    assert data["member_count"] == 6
    assert ack["op"] == 11


async def test_raw_resume_replays_and_a_closed_session_cannot_resume(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    async with aiohttp.ClientSession() as http:
        first = await RawGateway.connect(http, fake)
        ready = await first.identify()
        await first.receive()  # GUILD_CREATE, seq 2
        await fake.gateway.drop_connections(4000)
        added = driver.add_channel(world.guild, "while-away")  # CHANNEL_CREATE, seq 3

        second = await RawGateway.connect(http, fake)
        await second.receive()  # HELLO
        await second.send(6, {"token": "raw-token", "session_id": ready["session_id"], "seq": 2})
        replayed = await second.receive()
        resumed = await second.receive()
        await second.ws.close(code=1000)
        await driver.wait_for(lambda: not fake.gateway.connections, what="the close")

        third = await RawGateway.connect(http, fake)
        await third.receive()  # HELLO
        await third.send(6, {"token": "raw-token", "session_id": ready["session_id"], "seq": 3})
        invalid = await third.receive()
        await third.ws.close()

    assert (replayed["t"], replayed["s"], replayed["d"]["id"]) == (
        "CHANNEL_CREATE",
        3,
        str(added.id),
    )
    assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
    assert invalid == {"op": 9, "d": False, "s": None, "t": None}


@pytest.mark.parametrize(
    ("identify", "code"),
    [
        ({"token": "", "intents": 1}, 4004),
        ({"token": "t"}, 4013),
        ({"token": "t", "intents": 1 << 15}, 4014),
    ],
)
async def test_raw_identify_errors_close_with_discords_codes(
    fake: FakeDiscord, identify: dict[str, Any], code: int
) -> None:
    async with aiohttp.ClientSession() as http:
        gateway = await RawGateway.connect(http, fake)
        await gateway.receive()
        await gateway.send(2, identify)
        closed = await gateway.ws.receive()

    assert closed.type is aiohttp.WSMsgType.CLOSE
    assert closed.data == code


async def test_raw_payload_before_identify_closes_4003(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        gateway = await RawGateway.connect(http, fake)
        await gateway.receive()
        await gateway.send(3, {"status": "online"})
        closed = await gateway.ws.receive()

    assert closed.data == 4003


async def test_user_messages_arrive_without_content_unless_they_mention_the_bot(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start(where_am_i)
    received: list[str] = []

    async def on_message(message: discord.Message) -> None:
        if message.author.id == fake.bot_user.id:
            return
        received.append(message.content)
        if client.user is not None and client.user in message.mentions:
            await message.reply("you called?")

    client.event(on_message)
    driver.say(world.anna, world.channel, "my secret plan")
    asked = driver.say(world.bo, world.channel, f"hey {fake.bot_user.mention}")
    reply = await driver.wait_for_message(world.channel, lambda m: m.content == "you called?")

    assert received == ["", f"hey {fake.bot_user.mention}"]
    assert reply.referenced is asked and reply.type == 19
    # Bo pinged the bot; the reply pinged Bo back
    assert [p.user_id for p in driver.pings()] == [fake.bot_user.id, world.bo.id]


async def test_zstd_stream_when_discord_py_has_zstandard(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    # discord.py picks zstd-stream over zlib-stream whenever zstandard is importable; the
    # test extra installs it, so this never skips
    await bare_clients.start(where_am_i)

    result = await driver.slash(world.anna, world.channel, "where")

    assert result.content.startswith("Kortbord Test|general|")
    assert fake.gateway.live_sessions()[0].compression == "zstd-stream"
