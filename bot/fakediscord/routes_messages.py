"""REST routes for channel messages, and the attachments the fake serves from its own host."""

from __future__ import annotations

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.restkit import answer, fake_of, no_content, path_id, read_body
from bot.fakediscord.snowflake import snowflake_time

# -- channel messages --------------------------------------------------------------------------


async def create_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    fake.require_bot_permissions(channel, send=True)
    body, files = await read_body(request)
    message = fake.create_message(channel, fake.bot_user, body, files=files)
    return answer(message.payload())


async def list_messages(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    fake.require_bot_permissions(channel)
    try:
        limit = int(request.query.get("limit", "50"))
    except ValueError:
        limit = 0
    if not 1 <= limit <= 100:
        raise errors.invalid_form_body(
            {
                "limit": {
                    "_errors": [
                        {
                            "code": "NUMBER_TYPE_MAX",
                            "message": "int value should be less than or equal to 100.",
                        }
                    ]
                }
            }
        )
    messages = fake.channel_messages(channel.id)
    if "before" in request.query:
        before = int(request.query["before"])
        messages = [m for m in messages if m.id < before][-limit:]
    elif "after" in request.query:
        after = int(request.query["after"])
        messages = [m for m in messages if m.id > after][:limit]
    elif "around" in request.query:
        around = int(request.query["around"])
        older = [m for m in messages if m.id <= around][-(limit - limit // 2) :]
        newer = [m for m in messages if m.id > around][: limit // 2]
        messages = older + newer
    else:
        messages = messages[-limit:]
    return answer([m.payload() for m in reversed(messages)])


async def get_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    fake.require_bot_permissions(channel)
    return answer(fake.public_message(channel.id, path_id(request, "message_id")).payload())


async def edit_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    fake.require_bot_permissions(channel)
    message = fake.public_message(channel.id, path_id(request, "message_id"))
    if message.author.id != fake.bot_user.id:
        raise errors.cannot_edit_others_message()
    body, files = await read_body(request)
    now = fake.clock()
    wait = fake.old_message_edits.check(
        channel.id, now - snowflake_time(message.id).timestamp(), now)
    if wait is not None:
        raise errors.TooManyOldMessageEdits(wait)
    return answer(fake.edit_message(message, body, files=files).payload())


async def delete_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    fake.require_bot_permissions(channel)
    message = fake.public_message(channel.id, path_id(request, "message_id"))
    if message.author.id != fake.bot_user.id and not (
        fake.bot_permissions(channel.guild_id, channel) & (1 << 13)
    ):
        raise errors.missing_permissions()
    fake.delete_message(message)
    return no_content()



# -- not part of Discord's API: attachments are served from the fake's own host -----------------


async def get_attachment(request: web.Request) -> web.Response:
    fake = fake_of(request)
    found = fake.attachments.get(int(request.match_info["attachment_id"]))
    if found is None or found.filename != request.match_info["filename"]:
        raise web.HTTPNotFound()
    return web.Response(body=found.data, headers={"Content-Type": found.content_type})
