"""The REST API under ``/api/v10`` (and ``/api/v9``): routing, auth, rate-limit headers, faults.

Handlers are thin: they parse the request (JSON or multipart with ``payload_json`` and
``files[n]``) and call ``FakeDiscord``. Responses carry the rate-limit headers of the route's
bucket (``ratelimit.py``) and ``Via``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.attachments import (
    ATTACHMENT_SIZE_LIMIT,
    MAX_ATTACHMENTS,
    Upload,
    media_type,
)
from bot.fakediscord.errors import DiscordHTTPError
from bot.fakediscord.faults import FaultRule
from bot.fakediscord.formdata import FormFile, read_form
from bot.fakediscord.intents import INTENT_GUILD_MEMBERS
from bot.fakediscord.jsonvalue import dumps, loads
from bot.fakediscord.locales import DEFAULT_LOCALE, LOCALES, localized_view
from bot.fakediscord.model import MANAGE_WEBHOOKS, Webhook
from bot.fakediscord.ratelimit import (
    SCOPE_GLOBAL,
    counts_as_invalid,
    too_many_body,
    too_many_headers,
)
from bot.fakediscord.records import ContractBreach, RateLimitHit, RestCall
from bot.fakediscord.snowflake import snowflake_time

if TYPE_CHECKING:
    from bot.fakediscord.server import FakeDiscord

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Files = list[Upload]
_FILE_FIELD = re.compile(r"files\[(\d+)\]")

FAKE_KEY = web.AppKey("fake", object)
API_PREFIXES = ("/api/v10", "/api/v9")
# Routes authenticated by the interaction/webhook token in the URL, not by the bot token. The
# interaction callback and the application's own webhook (its id is the application's: the
# follow-ups and @original) are the interaction endpoints Discord exempts from the global rate
# limit; any other webhook's requests carry no authorization and count against the caller's IP
# address.
TOKEN_ROUTES = ("/interactions/", "/webhooks/")
CLOUDFLARE_BAN = "error code: 1015"
"""What a banned address gets (Cloudflare's page, not Discord's JSON, and no ``Via``: discord.py
tells a ban from a rate limit by that)."""
# The top-level resources a route's rate limit is counted per (Discord docs, "Rate Limits").
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")
# where _body leaves the request's JSON (or payload_json) for the contract check
_BODY = web.RequestKey("fakediscord.body", object)
# discord.py treats a 429 without Via as a Cloudflare ban; Discord's edge always sends it.
VIA = {"Via": "1.1 google"}


def _too_many(headers: dict[str, str], retry_after: float, scope: str) -> web.Response:
    return json_response(
        too_many_body(retry_after, scope),
        status=429,
        headers=too_many_headers(headers, retry_after, scope),
    )


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # exactly "application/json", no charset: discord.py only parses that content type
    return web.Response(
        body=dumps(data),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _fake(request: web.Request) -> FakeDiscord:
    return request.app[FAKE_KEY]  # type: ignore[return-value]


def _api_path(path: str) -> str:
    for prefix in API_PREFIXES:
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


@web.middleware
async def discord_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    fake = _fake(request)
    path = request.path
    if not path.startswith("/api/"):
        return await handler(request)
    match = request.match_info
    resource = match.route.resource
    unmodelled = resource is None
    route = _api_path(resource.canonical if resource is not None else path)
    api_path = _api_path(path)
    # Get and Delete Webhook (no token in the path) take the bot's token like any other route
    by_url_token = api_path.startswith(TOKEN_ROUTES) and (
        "webhook_token" in match or "interaction_token" in match or unmodelled)
    auth = request.headers.get("Authorization", "")
    headers = dict(VIA)
    rule = None
    address = request.remote or "unknown"
    if fake.invalid_requests.banned(address, fake.clock()):
        fake.record_call(RestCall(request.method, route, api_path, 429, False, None, unmodelled))
        return web.Response(status=429, text=CLOUDFLARE_BAN, content_type="text/plain")
    try:
        if match.http_exception is not None:
            if isinstance(match.http_exception, web.HTTPMethodNotAllowed):
                raise errors.method_not_allowed()
            raise errors.not_found()
        # an injected fault comes before anything else, so the request has no effect at all
        rule = fake.pick_fault(request.method, route)
        refusal = _fault(fake, rule, request.method, route, api_path, headers) or _limit(
            fake, request, route, api_path, _budget(fake, request, by_url_token, auth, address),
            headers)
        if refusal is not None:
            response: web.StreamResponse = refusal
        else:
            if not by_url_token and (not auth.startswith("Bot ") or not fake.token_ok(auth[4:])):
                raise errors.unauthorized()
            response = await handler(request)
            response.headers.update(headers)
    except errors.TooManyOldMessageEdits as exc:
        fake.record_rate_limit(RateLimitHit(
            request.method, route, api_path, "old message edits (30046)", exc.retry_after, False))
        headers["Retry-After"] = str(math.ceil(exc.retry_after))
        headers["X-RateLimit-Scope"] = "user"
        response = json_response(exc.body(), status=exc.status, headers=headers)
    except DiscordHTTPError as exc:
        response = json_response(exc.body(), status=exc.status, headers=headers)
    except ConnectionResetError:
        # the client vanished before its request arrived whole (a process killed mid-upload):
        # Discord never saw a request, so nothing happened and nobody is there to answer
        return web.Response(status=400)
    if counts_as_invalid(response.status, response.headers.get("X-RateLimit-Scope")):
        fake.invalid_requests.add(address, fake.clock())
    error = None
    if response.status >= 400 and isinstance(response, web.Response) and response.body:
        try:
            error = json.loads(response.body)  # type: ignore[arg-type]
        except ValueError:
            error = None
    if fake.contract is not None:
        problems = fake.contract.check(request.method, route, request.get(_BODY))
        if fake.contract_answers and response.status < 300 and isinstance(response, web.Response) \
                and response.content_type == "application/json" and response.body:
            problems += fake.contract.check_response(
                request.method, route, response.status, loads(response.body))  # type: ignore[arg-type]
        fake.contract_breaches.extend(
            ContractBreach(request.method, api_path, response.status, p) for p in problems)
    fake.record_call(
        RestCall(
            request.method, route, api_path, response.status, rule is not None, error, unmodelled
        )
    )
    return response


def _fault(
    fake: FakeDiscord,
    rule: FaultRule | None,
    method: str,
    route: str,
    api_path: str,
    headers: dict[str, str],
) -> web.Response | None:
    if rule is None:
        return None
    if rule.status == 429:
        scope = SCOPE_GLOBAL if rule.is_global else rule.scope
        fake.record_rate_limit(RateLimitHit(method, route, api_path, scope, rule.retry_after, True))
        return _too_many(headers, rule.retry_after, scope)
    return json_response(
        {"message": f"{rule.status}: Internal Server Error", "code": 0},
        status=rule.status,
        headers=headers,
    )


def _budget(fake: FakeDiscord, request: web.Request, by_url_token: bool, auth: str,
            address: str) -> str | None:
    """Whose global budget the request uses: the bot token's (``"bot:<token>"``, whichever
    connection or process sends it), the IP address's (no authorization), or none (``None``:
    the interaction endpoints)."""
    if by_url_token:
        webhook = request.match_info.get("webhook_id")
        if webhook is None or webhook == str(fake.application.id):
            return None
    if auth.startswith("Bot ") and auth[4:]:
        return f"bot:{auth[4:]}"
    return f"ip:{address}"


def _limit(
    fake: FakeDiscord,
    request: web.Request,
    route: str,
    api_path: str,
    who: str | None,
    headers: dict[str, str],
) -> web.Response | None:
    """Count the request against its route's bucket and the global limit of ``who``
    (``_budget``); a 429 if over."""
    match = request.match_info
    major = "+".join(match[k] for k in MAJOR_PARAMETERS if k in match)
    verdict = fake.limiter.check(f"{request.method} {route}", major, who)
    headers.update(verdict.headers)
    if verdict.retry_after is None:
        return None
    fake.record_rate_limit(
        RateLimitHit(request.method, route, api_path, verdict.scope, verdict.retry_after, False)
    )
    return _too_many(headers, verdict.retry_after, verdict.scope)


async def _body(request: web.Request) -> tuple[Any, Files]:
    """The JSON body, or ``payload_json`` (else the plain form fields) and the uploaded
    ``files[n]`` of a multipart body."""
    form = await read_form(request)
    if form is not None:
        files: Files = []
        fields: dict[str, Any] = {}
        payload: Any = None
        for field in form:
            name = field.name
            if isinstance(field, FormFile):
                found = _FILE_FIELD.fullmatch(name)
                if found is None:
                    raise errors.invalid_form_body(
                        {name: {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Unknown"}]}}
                    )
                files.append(
                    Upload(
                        int(found.group(1)),
                        field.filename,
                        media_type(field.filename, field.content_type),
                        field.data,
                    )
                )
            else:
                # a part sent with its own content type (payload_json as application/json)
                # comes back as bytes
                value = field.value
                text = value.decode() if isinstance(value, bytes) else value
                if name == "payload_json":
                    try:
                        payload = loads(text)
                    except ValueError:
                        raise errors.bad_json() from None
                else:
                    fields[name] = text
        request[_BODY] = payload if payload is not None else fields
        return request[_BODY], files
    raw = await request.read()
    if not raw:
        return {}, []
    try:
        request[_BODY] = loads(raw)
    except ValueError:
        raise errors.bad_json() from None
    return request[_BODY], []


def _int(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise errors.invalid_form_body(
            {
                key: {
                    "_errors": [
                        {"code": "NUMBER_TYPE_COERCE", "message": "Value is not snowflake."}
                    ]
                }
            }
        ) from None


def _json(data: Any, status: int = 200) -> web.Response:
    return json_response(data, status=status)


def _no_content() -> web.Response:
    return web.Response(status=204)


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


# -- users, gateway, application ---------------------------------------------------------------


async def get_me(request: web.Request) -> web.Response:
    fake = _fake(request)
    user = fake.bot_user.payload()
    user.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
    return _json(user)


async def get_user(request: web.Request) -> web.Response:
    user = _fake(request).users.get(_int(request, "user_id"))
    if user is None:
        raise errors.unknown_user()
    return _json(user.payload())


async def get_gateway(request: web.Request) -> web.Response:
    return _json({"url": _fake(request).gateway_url.rstrip("/")})


async def get_gateway_bot(request: web.Request) -> web.Response:
    fake = _fake(request)
    return _json(
        {
            "url": fake.gateway_url.rstrip("/"),
            "shards": fake.recommended_shards,
            "session_start_limit": fake.session_start_limit(),
        }
    )


async def get_application(request: web.Request) -> web.Response:
    fake = _fake(request)
    return _json(fake.application.payload(fake.bot_user))


# -- application commands ----------------------------------------------------------------------


def _scope_guild(request: web.Request) -> int | None:
    fake = _fake(request)
    if _int(request, "application_id") != fake.application.id:
        raise errors.DiscordHTTPError(403, 50001, "Missing Access")
    if "guild_id" not in request.match_info:
        return None
    guild_id = _int(request, "guild_id")
    if guild_id not in fake.guilds or fake.bot_user.id not in fake.guilds[guild_id].members:
        raise errors.missing_access()
    return guild_id


async def list_commands(request: web.Request) -> web.Response:
    """Without ``with_localizations`` Discord lists ``name_localized``/``description_localized``
    for the requester's locale instead of the full dictionaries."""
    fake = _fake(request)
    commands = list(fake.command_scope(_scope_guild(request)).values())
    if _truthy(request.query.get("with_localizations")):
        return _json(commands)
    locale = request.headers.get("X-Discord-Locale") or _accepted_language(request)
    return _json([localized_view(c, locale) for c in commands])


def _accepted_language(request: web.Request) -> str:
    header = request.headers.get("Accept-Language", "")
    first = header.split(",")[0].split(";")[0].strip()
    return first if first in LOCALES else DEFAULT_LOCALE


async def put_commands(request: web.Request) -> web.Response:
    fake = _fake(request)
    guild_id = _scope_guild(request)
    body, _ = await _body(request)
    return _json(fake.put_commands(guild_id, body))


async def post_command(request: web.Request) -> web.Response:
    fake = _fake(request)
    guild_id = _scope_guild(request)
    body, _ = await _body(request)
    command, created = fake.upsert_command(guild_id, body)
    return _json(command, status=201 if created else 200)


async def get_command(request: web.Request) -> web.Response:
    fake = _fake(request)
    return _json(fake.find_command(_scope_guild(request), _int(request, "command_id")))


async def patch_command(request: web.Request) -> web.Response:
    fake = _fake(request)
    guild_id = _scope_guild(request)
    current = fake.find_command(guild_id, _int(request, "command_id"))
    body, _ = await _body(request)
    merged = {**current, **body}
    if merged["name"] != current["name"]:
        fake.delete_command(guild_id, int(current["id"]))
    command, _ = fake.upsert_command(guild_id, merged)
    return _json(command)


async def delete_command(request: web.Request) -> web.Response:
    fake = _fake(request)
    fake.delete_command(_scope_guild(request), _int(request, "command_id"))
    return _no_content()


async def command_permissions(request: web.Request) -> web.Response:
    _scope_guild(request)
    return _json([])


# -- application emojis ------------------------------------------------------------------------


def _own_application(request: web.Request) -> FakeDiscord:
    fake = _fake(request)
    if _int(request, "application_id") != fake.application.id:
        raise errors.missing_access()
    return fake


async def list_emojis(request: web.Request) -> web.Response:
    fake = _own_application(request)
    return _json({"items": [e.payload() for e in fake.emojis.by_id.values()]})


async def create_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    body, _ = await _body(request)
    emoji = fake.emojis.create(body)
    fake.changed()
    return _json(emoji.payload(), status=201)


async def get_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    return _json(fake.emojis.get(_int(request, "emoji_id")).payload())


async def edit_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    body, _ = await _body(request)
    emoji = fake.emojis.rename(_int(request, "emoji_id"), body)
    fake.changed()
    return _json(emoji.payload())


async def delete_emoji(request: web.Request) -> web.Response:
    fake = _own_application(request)
    fake.emojis.delete(_int(request, "emoji_id"))
    fake.changed()
    return _no_content()


# -- guilds and channels -----------------------------------------------------------------------


async def get_guild(request: web.Request) -> web.Response:
    fake = _fake(request)
    guild = fake.guild(_int(request, "guild_id"))
    data = guild.base_payload(fake.application.id)
    if _truthy(request.query.get("with_counts")):
        data["approximate_member_count"] = len(guild.members)
        data["approximate_presence_count"] = len(guild.members)
    return _json(data)


async def get_guild_channels(request: web.Request) -> web.Response:
    fake = _fake(request)
    guild = fake.guild(_int(request, "guild_id"))
    return _json([c.payload() for c in guild.text_channels()])


async def get_guild_roles(request: web.Request) -> web.Response:
    guild = _fake(request).guild(_int(request, "guild_id"))
    return _json([r.payload() for r in guild.roles.values()])


async def get_member(request: web.Request) -> web.Response:
    guild = _fake(request).guild(_int(request, "guild_id"))
    member = guild.members.get(_int(request, "user_id"))
    if member is None:
        raise errors.unknown_member()
    return _json(member.payload())


async def list_members(request: web.Request) -> web.Response:
    fake = _fake(request)
    guild = fake.guild(_int(request, "guild_id"))
    if not fake.application.privileged_intents & INTENT_GUILD_MEMBERS:
        # "This endpoint requires the GUILD_MEMBERS Privileged Intent" (enabled for the app)
        raise errors.missing_access()
    limit = int(request.query.get("limit", "1"))
    after = int(request.query.get("after", "0"))
    members = sorted(
        (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
    )
    return _json([m.payload() for m in members[: max(1, min(limit, 1000))]])


async def get_channel(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
    fake.require_bot_permissions(channel)
    return _json(channel.payload())


async def trigger_typing(request: web.Request) -> web.Response:
    fake = _fake(request)
    fake.require_bot_permissions(fake.channel(_int(request, "channel_id")), send=True)
    return _no_content()


async def start_thread(request: web.Request) -> web.Response:
    fake = _fake(request)
    parent = fake.channel(_int(request, "channel_id"))
    body, _ = await _body(request)
    return _json(fake.start_thread(parent, body).payload(), status=201)


# -- channel messages --------------------------------------------------------------------------


async def create_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
    fake.require_bot_permissions(channel, send=True)
    body, files = await _body(request)
    message = fake.create_message(channel, fake.bot_user, body, files=files)
    return _json(message.payload())


async def list_messages(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
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
    return _json([m.payload() for m in reversed(messages)])


async def get_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
    fake.require_bot_permissions(channel)
    return _json(fake.public_message(channel.id, _int(request, "message_id")).payload())


async def edit_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
    fake.require_bot_permissions(channel)
    message = fake.public_message(channel.id, _int(request, "message_id"))
    if message.author.id != fake.bot_user.id:
        raise errors.cannot_edit_others_message()
    body, files = await _body(request)
    now = fake.clock()
    wait = fake.old_message_edits.check(
        channel.id, now - snowflake_time(message.id).timestamp(), now)
    if wait is not None:
        raise errors.TooManyOldMessageEdits(wait)
    return _json(fake.edit_message(message, body, files=files).payload())


async def delete_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
    fake.require_bot_permissions(channel)
    message = fake.public_message(channel.id, _int(request, "message_id"))
    if message.author.id != fake.bot_user.id and not (
        fake.bot_permissions(channel.guild_id, channel) & (1 << 13)
    ):
        raise errors.missing_permissions()
    fake.delete_message(message)
    return _no_content()


# -- interactions ------------------------------------------------------------------------------


async def interaction_callback(request: web.Request) -> web.Response:
    fake = _fake(request)
    body, files = await _body(request)
    record, message = fake.interaction_callback(
        _int(request, "interaction_id"), request.match_info["interaction_token"], body, files
    )
    if _truthy(request.query.get("with_response")):
        return _json(fake.callback_response(record, message))
    return _no_content()


def _record(request: web.Request) -> Any:
    fake = _fake(request)
    return fake.webhook_record(_int(request, "webhook_id"), request.match_info["webhook_token"])


def _channel_webhook(request: web.Request) -> Webhook | None:
    """The channel webhook a token route names (``None``: the application's id, whose token
    is an interaction's)."""
    fake = _fake(request)
    webhook_id = _int(request, "webhook_id")
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


async def execute_webhook(request: web.Request) -> web.Response:
    fake = _fake(request)
    webhook = _channel_webhook(request)
    if webhook is not None:
        thread_id = _thread_id(request)
        body, files = await _body(request)
        message = fake.execute_webhook(webhook, body, files, thread_id)
    else:
        record = _record(request)
        body, files = await _body(request)
        message = fake.execute_followup(record, body, files)
    if _truthy(request.query.get("wait")):
        return _json(message.payload())
    return _no_content()


def _webhook_message(request: web.Request) -> Any:
    fake = _fake(request)
    webhook = _channel_webhook(request)
    ref = request.match_info["message_id"]
    if webhook is not None:
        return fake.channel_webhook_message(webhook, ref, _thread_id(request))
    return fake.webhook_message(_record(request), ref)


async def get_webhook_message(request: web.Request) -> web.Response:
    return _json(_webhook_message(request).payload())


async def edit_webhook_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    if _channel_webhook(request) is not None:
        message = _webhook_message(request)
        body, files = await _body(request)
        return _json(fake.edit_message(message, body, files=files).payload())
    record = _record(request)
    body, files = await _body(request)
    message = fake.edit_webhook_message(record, request.match_info["message_id"], body, files)
    return _json(message.payload())


async def delete_webhook_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    fake.delete_message(_webhook_message(request))
    return _no_content()


# -- channel webhooks, managed with the bot's token ----------------------------------------------


async def create_webhook(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
    body, _ = await _body(request)
    webhook = fake.create_webhook(channel, body, fake.bot_user)
    return _json(webhook.payload(viewer_application=fake.application.id))


async def list_channel_webhooks(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = fake.channel(_int(request, "channel_id"))
    fake.require_bot_permissions(channel)
    if not fake.bot_permissions(channel.guild_id, channel) & MANAGE_WEBHOOKS:
        raise errors.missing_permissions()
    return _json([w.payload(viewer_application=fake.application.id)
                  for w in fake.channel_webhooks(channel)])


async def get_webhook(request: web.Request) -> web.Response:
    fake = _fake(request)
    webhook = fake.webhook_by_id(_int(request, "webhook_id"))
    return _json(webhook.payload(viewer_application=fake.application.id))


async def delete_webhook(request: web.Request) -> web.Response:
    fake = _fake(request)
    fake.delete_webhook(fake.webhook_by_id(_int(request, "webhook_id")))
    return _no_content()


# -- not part of Discord's API: attachments are served from the fake's own host -----------------


async def get_attachment(request: web.Request) -> web.Response:
    fake = _fake(request)
    found = fake.attachments.get(int(request.match_info["attachment_id"]))
    if found is None or found.filename != request.match_info["filename"]:
        raise web.HTTPNotFound()
    return web.Response(body=found.data, headers={"Content-Type": found.content_type})


ROUTES: list[tuple[str, str, Handler]] = [
    ("GET", "/users/@me", get_me),
    ("GET", "/users/{user_id}", get_user),
    ("GET", "/gateway", get_gateway),
    ("GET", "/gateway/bot", get_gateway_bot),
    ("GET", "/oauth2/applications/@me", get_application),
    ("GET", "/applications/@me", get_application),
    ("GET", "/applications/{application_id}/commands", list_commands),
    ("PUT", "/applications/{application_id}/commands", put_commands),
    ("POST", "/applications/{application_id}/commands", post_command),
    ("GET", "/applications/{application_id}/commands/{command_id}", get_command),
    ("PATCH", "/applications/{application_id}/commands/{command_id}", patch_command),
    ("DELETE", "/applications/{application_id}/commands/{command_id}", delete_command),
    (
        "GET",
        "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
        command_permissions,
    ),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", list_commands),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", put_commands),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", post_command),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", get_command),
    (
        "PATCH",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        patch_command,
    ),
    (
        "DELETE",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        delete_command,
    ),
    ("GET", "/applications/{application_id}/emojis", list_emojis),
    ("POST", "/applications/{application_id}/emojis", create_emoji),
    ("GET", "/applications/{application_id}/emojis/{emoji_id}", get_emoji),
    ("PATCH", "/applications/{application_id}/emojis/{emoji_id}", edit_emoji),
    ("DELETE", "/applications/{application_id}/emojis/{emoji_id}", delete_emoji),
    ("GET", "/guilds/{guild_id}", get_guild),
    ("GET", "/guilds/{guild_id}/channels", get_guild_channels),
    ("GET", "/guilds/{guild_id}/roles", get_guild_roles),
    ("GET", "/guilds/{guild_id}/members", list_members),
    ("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
    ("GET", "/channels/{channel_id}", get_channel),
    ("POST", "/channels/{channel_id}/typing", trigger_typing),
    ("POST", "/channels/{channel_id}/threads", start_thread),
    ("GET", "/channels/{channel_id}/messages", list_messages),
    ("POST", "/channels/{channel_id}/messages", create_message),
    ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", edit_message),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_message),
    ("GET", "/channels/{channel_id}/webhooks", list_channel_webhooks),
    ("POST", "/channels/{channel_id}/webhooks", create_webhook),
    ("GET", "/webhooks/{webhook_id}", get_webhook),
    ("DELETE", "/webhooks/{webhook_id}", delete_webhook),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", interaction_callback),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}", execute_webhook),
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", get_webhook_message),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", edit_webhook_message),
    (
        "DELETE",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        delete_webhook_message,
    ),
]


def build_app(fake: FakeDiscord) -> web.Application:
    # room for ten files at the size limit, so an oversized file gets Discord's JSON 413
    body_limit = (MAX_ATTACHMENTS + 1) * ATTACHMENT_SIZE_LIMIT
    app = web.Application(middlewares=[discord_middleware], client_max_size=body_limit)
    app[FAKE_KEY] = fake
    for prefix in API_PREFIXES:
        for method, path, handler in ROUTES:
            app.router.add_route(method, prefix + path, handler)
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", get_attachment)
    app.router.add_get("/", fake.gateway.handle)
    return app
