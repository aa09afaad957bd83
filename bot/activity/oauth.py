"""Discord's part of signing in to the Activity: the page's code exchanged for an access token
with the client secret, who that token belongs to, and where an Activity instance runs.

Requests go to the API base discord.py uses (``bot.discord_api``: Discord, or the fake). The
token endpoint and the Bearer calls are the person's, outside the bot token's budget; the
instance is asked with the bot token, through discord.py's client (and so its pacing). The
client secret goes only into the token exchange's body: never into a log, an error or a page.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.http import Route
from pydantic import SecretStr

_log = logging.getLogger("kortbord.activity")

TIMEOUT = aiohttp.ClientTimeout(total=10)


class SignInError(Exception):
    """Discord refused what the page brought (``status``: the page's answer, 400, 401 or 403),
    or did not answer as expected (502)."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str
    locale: str | None


@dataclass(frozen=True, slots=True)
class Instance:
    """A running Activity: the channel (and server, ``None`` outside one) it runs in, and the
    people in it."""

    id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


class DiscordSignIn:
    """``http``: the bot's discord.py client (the bot token's requests); ``application_id``:
    the bot's application, whose tokens alone are accepted."""

    def __init__(self, http: discord.http.HTTPClient, application_id: int,
                 client_secret: SecretStr) -> None:
        self._http = http
        self._application_id = application_id
        self._secret = client_secret
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def _json(self, response: aiohttp.ClientResponse) -> Any:
        try:
            return await response.json(content_type=None)
        except ValueError:
            raise SignInError(502, f"{response.url.path}: not JSON") from None

    async def exchange(self, code: str) -> str:
        """The access token for ``code`` (a code is good once, and only for this app)."""
        form = {"client_id": str(self._application_id),
                "client_secret": self._secret.get_secret_value(),
                "grant_type": "authorization_code", "code": code}
        try:
            async with self._client().post(f"{Route.BASE}/oauth2/token", data=form) as answer:
                body = await self._json(answer)
                if answer.status in (400, 401):
                    # an OAuth2 error: invalid_grant (a used, expired or foreign code) …
                    raise SignInError(400, f"the code was refused ({body.get('error')})")
                if answer.status != 200 or not isinstance(body.get("access_token"), str):
                    raise SignInError(502, f"token exchange answered {answer.status}")
                return str(body["access_token"])
        except aiohttp.ClientError as exc:
            raise SignInError(502, f"token exchange failed: {type(exc).__name__}") from None

    async def _bearer(self, path: str, token: str) -> Any:
        headers = {"Authorization": f"Bearer {token}"}
        try:
            async with self._client().get(f"{Route.BASE}{path}", headers=headers) as answer:
                if answer.status in (401, 403):
                    raise SignInError(401, f"{path}: the token was refused")
                if answer.status != 200:
                    raise SignInError(502, f"{path} answered {answer.status}")
                return await self._json(answer)
        except aiohttp.ClientError as exc:
            raise SignInError(502, f"{path} failed: {type(exc).__name__}") from None

    async def person(self, token: str) -> Person:
        """Who ``token`` belongs to; refused unless it is a token of this application (a token
        another app got from the same person proves nothing here)."""
        grant = await self._bearer("/oauth2/@me", token)
        application = grant.get("application") or {}
        if str(application.get("id")) != str(self._application_id):
            raise SignInError(401, "a token of another application")
        user = await self._bearer("/users/@me", token)
        name = user.get("global_name") or user.get("username") or str(user.get("id"))
        return Person(int(user["id"]), str(name), user.get("locale"))

    async def instance(self, instance_id: str) -> Instance:
        """The running instance ``instance_id`` of this app, as Discord knows it; a forged or
        ended one is refused (403)."""
        route = Route("GET", "/applications/{application_id}/activity-instances/{instance_id}",
                      application_id=self._application_id, instance_id=instance_id)
        try:
            data = await self._http.request(route)
        except discord.NotFound:
            raise SignInError(403, "no such Activity instance") from None
        except discord.HTTPException as exc:
            raise SignInError(502, f"activity instance answered {exc.status}") from None
        location = data.get("location") or {}
        guild = location.get("guild_id")
        return Instance(str(data.get("instance_id", instance_id)), int(location["channel_id"]),
                        None if guild is None else int(guild),
                        frozenset(int(u) for u in data.get("users", ())))
