"""REST routes for users, the gateway's address, the application, servers and channels."""

from __future__ import annotations

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.intents import INTENT_GUILD_MEMBERS
from bot.fakediscord.restkit import answer, fake_of, no_content, path_id, read_body, truthy

# -- users, gateway, application ---------------------------------------------------------------


async def get_me(request: web.Request) -> web.Response:
    fake = fake_of(request)
    user = fake.bot_user.payload()
    user.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
    return answer(user)


async def get_user(request: web.Request) -> web.Response:
    user = fake_of(request).users.get(path_id(request, "user_id"))
    if user is None:
        raise errors.unknown_user()
    return answer(user.payload())


async def get_gateway(request: web.Request) -> web.Response:
    return answer({"url": fake_of(request).gateway_url.rstrip("/")})


async def get_gateway_bot(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return answer(
        {
            "url": fake.gateway_url.rstrip("/"),
            "shards": fake.recommended_shards,
            "session_start_limit": fake.session_start_limit(),
        }
    )


async def get_application(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return answer(fake.application.payload(fake.bot_user))



# -- guilds and channels -----------------------------------------------------------------------


async def get_guild(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild = fake.guild(path_id(request, "guild_id"))
    data = guild.base_payload(fake.application.id)
    if truthy(request.query.get("with_counts")):
        data["approximate_member_count"] = len(guild.members)
        data["approximate_presence_count"] = len(guild.members)
    return answer(data)


async def get_guild_channels(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild = fake.guild(path_id(request, "guild_id"))
    return answer([c.payload() for c in guild.text_channels()])


async def get_guild_roles(request: web.Request) -> web.Response:
    guild = fake_of(request).guild(path_id(request, "guild_id"))
    return answer([r.payload() for r in guild.roles.values()])


async def get_member(request: web.Request) -> web.Response:
    guild = fake_of(request).guild(path_id(request, "guild_id"))
    member = guild.members.get(path_id(request, "user_id"))
    if member is None:
        raise errors.unknown_member()
    return answer(member.payload())


async def list_members(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild = fake.guild(path_id(request, "guild_id"))
    if not fake.application.privileged_intents & INTENT_GUILD_MEMBERS:
        # "This endpoint requires the GUILD_MEMBERS Privileged Intent" (enabled for the app)
        raise errors.missing_access()
    limit = int(request.query.get("limit", "1"))
    after = int(request.query.get("after", "0"))
    members = sorted(
        (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
    )
    return answer([m.payload() for m in members[: max(1, min(limit, 1000))]])


async def get_channel(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    fake.require_bot_permissions(channel)
    return answer(channel.payload())


async def trigger_typing(request: web.Request) -> web.Response:
    fake = fake_of(request)
    fake.require_bot_permissions(fake.channel(path_id(request, "channel_id")), send=True)
    return no_content()


async def start_thread(request: web.Request) -> web.Response:
    fake = fake_of(request)
    parent = fake.channel(path_id(request, "channel_id"))
    body, _ = await read_body(request)
    return answer(fake.start_thread(parent, body).payload(), status=201)
