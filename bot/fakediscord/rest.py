"""The REST API under ``/api/v10`` (and ``/api/v9``): routing, auth, rate-limit headers, faults.

The routes are in ``routes_*.py``, one module a resource (guilds and channels, commands and
emojis, messages, interactions and webhooks); this module has the one table of them and the
middleware every request passes. Handlers are thin: they parse the request (``restkit.py``) and
call the ``FakeCore`` the application carries. Responses carry the rate-limit headers of the
route's bucket (``ratelimit.py``) and ``Via``.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord import routes_commands as commands
from bot.fakediscord import routes_guilds as guilds
from bot.fakediscord import routes_messages as messages
from bot.fakediscord import routes_oauth as oauth
from bot.fakediscord import routes_webhooks as webhooks
from bot.fakediscord.activities import ACTIVITY_HOST_SUFFIX, CLIENT_HOST
from bot.fakediscord.attachments import (
    ATTACHMENT_SIZE_LIMIT,
    MAX_ATTACHMENTS,
)
from bot.fakediscord.discordsays import proxy_app
from bot.fakediscord.errors import DiscordHTTPError
from bot.fakediscord.faults import FaultRule
from bot.fakediscord.jsonvalue import loads
from bot.fakediscord.ratelimit import (
    SCOPE_GLOBAL,
    counts_as_invalid,
    too_many_body,
    too_many_headers,
)
from bot.fakediscord.records import ContractBreach, RateLimitHit, RestCall
from bot.fakediscord.restkit import BODY, FAKE_KEY, Handler, fake_of, json_response
from bot.fakediscord.routes_client import client_app

if TYPE_CHECKING:
    from bot.fakediscord.core import FakeCore

API_PREFIXES = ("/api/v10", "/api/v9")
# Routes authenticated by the interaction/webhook token in the URL, not by the bot token. The
# interaction callback and the application's own webhook (its id is the application's: the
# follow-ups and @original) are the interaction endpoints Discord exempts from the global rate
# limit; any other webhook's requests carry no authorization and count against the caller's IP
# address.
TOKEN_ROUTES = ("/interactions/", "/webhooks/")
CLIENT_CREDENTIAL_ROUTES = ("/oauth2/token",)
"""Authenticated by the OAuth2 client's id and secret (HTTP Basic or the form), no bot token."""
BEARER_ROUTES = ("/users/@me", "/oauth2/@me")
"""What an OAuth2 access token (``Authorization: Bearer``) may call here; a Bearer token
anywhere else is a 401, as the bot's token is on ``/oauth2/@me``."""
CLOUDFLARE_BAN = "error code: 1015"
"""What a banned address gets (Cloudflare's page, not Discord's JSON, and no ``Via``: discord.py
tells a ban from a rate limit by that)."""
# The top-level resources a route's rate limit is counted per (Discord docs, "Rate Limits").
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")
# discord.py treats a 429 without Via as a Cloudflare ban; Discord's edge always sends it.
VIA = {"Via": "1.1 google"}

def _too_many(headers: dict[str, str], retry_after: float, scope: str) -> web.Response:
    return json_response(
        too_many_body(retry_after, scope),
        status=429,
        headers=too_many_headers(headers, retry_after, scope),
    )



def _api_path(path: str) -> str:
    for prefix in API_PREFIXES:
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


@web.middleware
async def discord_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    fake = fake_of(request)
    path = request.path
    if not path.startswith("/api/") or _elsewhere(request):
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
            if not by_url_token and not _authorized(fake, route, auth):
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
        problems = fake.contract.check(request.method, route, request.get(BODY))
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


def _elsewhere(request: web.Request) -> bool:
    """A request for the fake client page or an Activity (another origin on this server),
    not for Discord's API: an Activity's own ``/api/...`` is the app's."""
    host = request.host.lower()
    return host == CLIENT_HOST or host.endswith(ACTIVITY_HOST_SUFFIX)


def _authorized(fake: FakeCore, route: str, auth: str) -> bool:
    """Whether the request carries the kind of credentials its route takes (the handler then
    checks a Bearer token or client credentials itself)."""
    if route in CLIENT_CREDENTIAL_ROUTES:
        return True
    if auth.startswith(oauth.BEARER):
        return route in BEARER_ROUTES
    return route != "/oauth2/@me" and auth.startswith("Bot ") and fake.token_ok(auth[4:])


async def _users_me(request: web.Request) -> web.StreamResponse:
    if oauth.bearer_token(request) is not None:
        return await oauth.get_me(request)
    return await guilds.get_me(request)


def _fault(
    fake: FakeCore,
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


def _budget(fake: FakeCore, request: web.Request, by_url_token: bool, auth: str,
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
    if auth.startswith(oauth.BEARER) and auth[len(oauth.BEARER):]:
        return f"bearer:{auth[len(oauth.BEARER):]}"
    return f"ip:{address}"


def _limit(
    fake: FakeCore,
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


ROUTES: list[tuple[str, str, Handler]] = [
    ("GET", "/users/@me", _users_me),
    ("POST", "/oauth2/token", oauth.token),
    ("GET", "/oauth2/@me", oauth.get_authorization),
    (
        "GET",
        "/applications/{application_id}/activity-instances/{instance_id}",
        oauth.get_activity_instance,
    ),
    ("GET", "/users/{user_id}", guilds.get_user),
    ("GET", "/gateway", guilds.get_gateway),
    ("GET", "/gateway/bot", guilds.get_gateway_bot),
    ("GET", "/oauth2/applications/@me", guilds.get_application),
    ("GET", "/applications/@me", guilds.get_application),
    ("GET", "/applications/{application_id}/commands", commands.list_commands),
    ("PUT", "/applications/{application_id}/commands", commands.put_commands),
    ("POST", "/applications/{application_id}/commands", commands.post_command),
    ("GET", "/applications/{application_id}/commands/{command_id}", commands.get_command),
    ("PATCH", "/applications/{application_id}/commands/{command_id}", commands.patch_command),
    ("DELETE", "/applications/{application_id}/commands/{command_id}", commands.delete_command),
    (
        "GET",
        "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
        commands.command_permissions,
    ),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", commands.list_commands),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", commands.put_commands),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", commands.post_command),
    (
        "GET",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        commands.get_command,
    ),
    (
        "PATCH",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        commands.patch_command,
    ),
    (
        "DELETE",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        commands.delete_command,
    ),
    ("GET", "/applications/{application_id}/emojis", commands.list_emojis),
    ("POST", "/applications/{application_id}/emojis", commands.create_emoji),
    ("GET", "/applications/{application_id}/emojis/{emoji_id}", commands.get_emoji),
    ("PATCH", "/applications/{application_id}/emojis/{emoji_id}", commands.edit_emoji),
    ("DELETE", "/applications/{application_id}/emojis/{emoji_id}", commands.delete_emoji),
    ("GET", "/guilds/{guild_id}", guilds.get_guild),
    ("GET", "/guilds/{guild_id}/channels", guilds.get_guild_channels),
    ("GET", "/guilds/{guild_id}/roles", guilds.get_guild_roles),
    ("GET", "/guilds/{guild_id}/members", guilds.list_members),
    ("GET", "/guilds/{guild_id}/members/{user_id}", guilds.get_member),
    ("GET", "/channels/{channel_id}", guilds.get_channel),
    ("POST", "/channels/{channel_id}/typing", guilds.trigger_typing),
    ("POST", "/channels/{channel_id}/threads", guilds.start_thread),
    ("GET", "/channels/{channel_id}/messages", messages.list_messages),
    ("POST", "/channels/{channel_id}/messages", messages.create_message),
    ("GET", "/channels/{channel_id}/messages/{message_id}", messages.get_message),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", messages.edit_message),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", messages.delete_message),
    ("GET", "/channels/{channel_id}/webhooks", webhooks.list_channel_webhooks),
    ("POST", "/channels/{channel_id}/webhooks", webhooks.create_webhook),
    ("GET", "/webhooks/{webhook_id}", webhooks.get_webhook),
    ("DELETE", "/webhooks/{webhook_id}", webhooks.delete_webhook),
    (
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        webhooks.interaction_callback,
    ),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}", webhooks.execute_webhook),
    (
        "GET",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        webhooks.get_webhook_message,
    ),
    (
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        webhooks.edit_webhook_message,
    ),
    (
        "DELETE",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        webhooks.delete_webhook_message,
    ),
]


def build_app(fake: FakeCore) -> web.Application:
    # room for ten files at the size limit, so an oversized file gets Discord's JSON 413
    body_limit = (MAX_ATTACHMENTS + 1) * ATTACHMENT_SIZE_LIMIT
    app = web.Application(middlewares=[discord_middleware], client_max_size=body_limit)
    app[FAKE_KEY] = fake
    # other origins first: their paths ("/", "/api/...") are not Discord's API
    for domain, sub in ((CLIENT_HOST, client_app()), ("*" + ACTIVITY_HOST_SUFFIX, proxy_app())):
        sub[FAKE_KEY] = fake
        app.add_domain(domain, sub)
    for prefix in API_PREFIXES:
        for method, path, handler in ROUTES:
            app.router.add_route(method, prefix + path, handler)
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}",
                       messages.get_attachment)
    app.router.add_get("/", fake.gateway.handle)
    return app
