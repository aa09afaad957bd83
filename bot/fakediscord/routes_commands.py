"""REST routes for application commands, global and per server, and application emojis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.locales import DEFAULT_LOCALE, LOCALES, localized_view
from bot.fakediscord.restkit import answer, fake_of, no_content, path_id, read_body, truthy

if TYPE_CHECKING:
    from bot.fakediscord.core import FakeCore

# -- application commands ----------------------------------------------------------------------


def _scope_guild(request: web.Request) -> int | None:
    fake = fake_of(request)
    if path_id(request, "application_id") != fake.application.id:
        raise errors.DiscordHTTPError(403, 50001, "Missing Access")
    if "guild_id" not in request.match_info:
        return None
    guild_id = path_id(request, "guild_id")
    if guild_id not in fake.guilds or fake.bot_user.id not in fake.guilds[guild_id].members:
        raise errors.missing_access()
    return guild_id


async def list_commands(request: web.Request) -> web.Response:
    """Without ``with_localizations`` Discord lists ``name_localized``/``description_localized``
    for the requester's locale instead of the full dictionaries."""
    fake = fake_of(request)
    commands = list(fake.command_scope(_scope_guild(request)).values())
    if truthy(request.query.get("with_localizations")):
        return answer(commands)
    locale = request.headers.get("X-Discord-Locale") or _accepted_language(request)
    return answer([localized_view(c, locale) for c in commands])


def _accepted_language(request: web.Request) -> str:
    header = request.headers.get("Accept-Language", "")
    first = header.split(",")[0].split(";")[0].strip()
    return first if first in LOCALES else DEFAULT_LOCALE


async def put_commands(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild_id = _scope_guild(request)
    body, _ = await read_body(request)
    return answer(fake.put_commands(guild_id, body))


async def post_command(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild_id = _scope_guild(request)
    body, _ = await read_body(request)
    command, created = fake.upsert_command(guild_id, body)
    return answer(command, status=201 if created else 200)


async def get_command(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return answer(fake.find_command(_scope_guild(request), path_id(request, "command_id")))


async def patch_command(request: web.Request) -> web.Response:
    fake = fake_of(request)
    guild_id = _scope_guild(request)
    current = fake.find_command(guild_id, path_id(request, "command_id"))
    body, _ = await read_body(request)
    merged = {**current, **body}
    if merged["name"] != current["name"]:
        fake.delete_command(guild_id, int(current["id"]))
    command, _ = fake.upsert_command(guild_id, merged)
    return answer(command)


async def delete_command(request: web.Request) -> web.Response:
    fake = fake_of(request)
    fake.delete_command(_scope_guild(request), path_id(request, "command_id"))
    return no_content()


async def command_permissions(request: web.Request) -> web.Response:
    _scope_guild(request)
    return answer([])


# -- application emojis ------------------------------------------------------------------------


def _own_application(request: web.Request) -> FakeCore:
    fake = fake_of(request)
    if path_id(request, "application_id") != fake.application.id:
        raise errors.missing_access()
    return fake


async def list_emojis(request: web.Request) -> web.Response:
    fake = _own_application(request)
    return answer({"items": [e.payload() for e in fake.emojis.by_id.values()]})


async def create_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    body, _ = await read_body(request)
    emoji = fake.emojis.create(body)
    fake.changed()
    return answer(emoji.payload(), status=201)


async def get_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    return answer(fake.emojis.get(path_id(request, "emoji_id")).payload())


async def edit_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    body, _ = await read_body(request)
    emoji = fake.emojis.rename(path_id(request, "emoji_id"), body)
    fake.changed()
    return answer(emoji.payload())


async def delete_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    fake.emojis.delete(path_id(request, "emoji_id"))
    fake.changed()
    return no_content()
