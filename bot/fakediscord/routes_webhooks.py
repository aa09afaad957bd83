"""REST routes for interaction callbacks and webhooks: the application's (follow-ups and
``@original``, by the interaction's token) and channel webhooks (by their own token, or
managed with the bot's)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.model import MANAGE_WEBHOOKS, Webhook
from bot.fakediscord.restkit import answer, fake_of, no_content, path_id, read_body, truthy
from bot.fakediscord.validation import FLAG_IS_COMPONENTS_V2

# -- interactions ------------------------------------------------------------------------------


async def interaction_callback(request: web.Request) -> web.Response:
    fake = fake_of(request)
    body, files = await read_body(request)
    record, message = fake.interaction_callback(
        path_id(request, "interaction_id"), request.match_info["interaction_token"], body, files
    )
    if truthy(request.query.get("with_response")):
        return answer(fake.callback_response(record, message))
    return no_content()


def _record(request: web.Request) -> Any:
    fake = fake_of(request)
    return fake.webhook_record(path_id(request, "webhook_id"), request.match_info["webhook_token"])


def _channel_webhook(request: web.Request) -> Webhook | None:
    """The channel webhook a token route names (``None``: the application's id, whose token
    is an interaction's)."""
    fake = fake_of(request)
    webhook_id = path_id(request, "webhook_id")
    if webhook_id == fake.application.id:
        return None
    return fake.webhook_by_token(webhook_id, request.match_info["webhook_token"])


def _thread_id(request: web.Request) -> int | None:
    value = request.query.get("thread_id")
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise errors.invalid_form_body({"thread_id": {"_errors": [
            {"code": "NUMBER_TYPE_COERCE", "message": f"Value \"{value}\" is not snowflake."}]}}
        ) from None


def _layout_heard(request: web.Request, body: Any, *, v2: bool) -> Any:
    """A channel webhook's Components V2 layout counts only with ``with_components=true``
    (Discord's "Execute Webhook": without it the ``components`` field is ignored)."""
    flags = body.get("flags") if isinstance(body, dict) else None
    sets_v2 = isinstance(flags, int) and bool(flags & FLAG_IS_COMPONENTS_V2)
    if (v2 or sets_v2) and not truthy(request.query.get("with_components")):
        return {k: v for k, v in body.items() if k != "components"}
    return body


async def execute_webhook(request: web.Request) -> web.Response:
    fake = fake_of(request)
    webhook = _channel_webhook(request)
    if webhook is not None:
        thread_id = _thread_id(request)
        body, files = await read_body(request)
        body = _layout_heard(request, body, v2=False)
        message = fake.execute_webhook(webhook, body, files, thread_id)
    else:
        record = _record(request)
        body, files = await read_body(request)
        message = fake.execute_followup(record, body, files)
    if truthy(request.query.get("wait")):
        return answer(message.payload())
    return no_content()


def _webhook_message(request: web.Request) -> Any:
    fake = fake_of(request)
    webhook = _channel_webhook(request)
    ref = request.match_info["message_id"]
    if webhook is not None:
        return fake.channel_webhook_message(webhook, ref, _thread_id(request))
    return fake.webhook_message(_record(request), ref)


async def get_webhook_message(request: web.Request) -> web.Response:
    return answer(_webhook_message(request).payload())


async def edit_webhook_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    if _channel_webhook(request) is not None:
        message = _webhook_message(request)
        body, files = await read_body(request)
        body = _layout_heard(request, body, v2=bool(message.flags & FLAG_IS_COMPONENTS_V2))
        return answer(fake.edit_message(message, body, files=files).payload())
    record = _record(request)
    body, files = await read_body(request)
    message = fake.edit_webhook_message(record, request.match_info["message_id"], body, files)
    return answer(message.payload())


async def delete_webhook_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    fake.delete_message(_webhook_message(request))
    return no_content()


# -- channel webhooks, managed with the bot's token ----------------------------------------------


async def create_webhook(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    body, _ = await read_body(request)
    webhook = fake.create_webhook(channel, body, fake.bot_user)
    return answer(webhook.payload(viewer_application=fake.application.id))


async def list_channel_webhooks(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = fake.channel(path_id(request, "channel_id"))
    fake.require_bot_permissions(channel)
    if not fake.bot_permissions(channel.guild_id, channel) & MANAGE_WEBHOOKS:
        raise errors.missing_permissions()
    return answer([w.payload(viewer_application=fake.application.id)
                  for w in fake.channel_webhooks(channel)])


async def get_webhook(request: web.Request) -> web.Response:
    fake = fake_of(request)
    webhook = fake.webhook_by_id(path_id(request, "webhook_id"))
    return answer(webhook.payload(viewer_application=fake.application.id))


async def delete_webhook(request: web.Request) -> web.Response:
    fake = fake_of(request)
    fake.delete_webhook(fake.webhook_by_id(path_id(request, "webhook_id")))
    return no_content()
