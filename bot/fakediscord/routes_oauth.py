"""REST routes of an Activity's backend: the OAuth2 token exchange, what a Bearer token may
read (the person, the authorization), and the application's Activity instances.

``POST /oauth2/token`` takes client credentials, not the bot token, and answers in OAuth2's
(RFC 6749) shape rather than Discord's ``{"message", "code"}``; ``GET /users/@me`` and ``GET
/oauth2/@me`` take ``Authorization: Bearer <access token>``; the instance route takes the bot
token (``rest.py`` tells them apart).
"""

from __future__ import annotations

import base64
import binascii
from datetime import UTC, datetime
from urllib.parse import unquote_plus

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.oauth import Grant, OAuthError
from bot.fakediscord.restkit import answer, fake_of, json_response, path_id

BEARER = "Bearer "
# OAuth2 answers are never cached (RFC 6749 §5.1)
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def bearer_token(request: web.Request) -> str | None:
    auth = request.headers.get("Authorization", "")
    return auth[len(BEARER):] if auth.startswith(BEARER) else None


def _basic(request: web.Request) -> tuple[str, str] | None:
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Basic "):
        return None
    try:
        user, _, password = base64.b64decode(auth[6:], validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        raise OAuthError(401, "invalid_client") from None
    # RFC 6749 §2.3.1: the id and secret are form-urlencoded before Basic encoding
    return unquote_plus(user), unquote_plus(password)


async def token(request: web.Request) -> web.Response:
    fake = fake_of(request)
    try:
        if request.content_type != "application/x-www-form-urlencoded":
            raise OAuthError(400, "invalid_request",
                             "The request body must be application/x-www-form-urlencoded.")
        form = {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
        body = fake.oauth.token_request(form, _basic(request))
    except OAuthError as exc:
        headers = {**NO_STORE}
        if exc.status == 401:
            headers["WWW-Authenticate"] = 'Basic realm="discord"'
        return json_response(exc.body(), status=exc.status, headers=headers)
    return json_response(body, headers=NO_STORE)


def _grant(request: web.Request) -> Grant:
    grant = fake_of(request).oauth.bearer(bearer_token(request) or "")
    if grant is None:
        raise errors.unauthorized()
    return grant


async def get_me(request: web.Request) -> web.Response:
    """``GET /users/@me`` with a Bearer token: the person who authorized (scope ``identify``;
    ``email`` adds their address, which the fake's people do not have)."""
    grant = _grant(request)
    if not grant.has("identify"):
        raise errors.unauthorized()
    user = grant.user.payload()
    user.update({"mfa_enabled": False, "locale": grant.user.locale, "premium_type": 0})
    if grant.has("email"):
        user.update({"email": None, "verified": True})
    return answer(user)


async def get_authorization(request: web.Request) -> web.Response:
    """``GET /oauth2/@me``: which application the token is for, its scopes and expiry, and
    the user (with ``identify``)."""
    fake = fake_of(request)
    grant = _grant(request)
    client = fake.oauth.clients[grant.client_id]
    application = {"id": str(client.id), "name": client.name, "icon": None,
                   "description": "", "hook": True, "bot_public": True,
                   "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0}
    if client.id == fake.application.id:
        application.update({"verify_key": fake.application.verify_key,
                            "flags": fake.application.flags})
    data: dict[str, object] = {
        "application": application,
        "scopes": list(grant.scopes),
        "expires": datetime.fromtimestamp(grant.expires_at, UTC).isoformat(),
    }
    if grant.has("identify"):
        data["user"] = grant.user.payload()
    return answer(data)


async def get_activity_instance(request: web.Request) -> web.Response:
    """``GET /applications/{application_id}/activity-instances/{instance_id}`` (bot token):
    an instance of another application, or one that ended or never was, is 404 (Discord's
    exact code for it is undocumented: the generic ``404: Not Found``)."""
    fake = fake_of(request)
    application_id = path_id(request, "application_id")
    instance = fake.activity_instance(request.match_info["instance_id"])
    if (application_id != fake.application.id or instance is None
            or instance.application_id != application_id):
        raise errors.not_found()
    return answer(instance.payload())
