"""The Activity's web server, in the bot's own process and event loop (aiohttp, as ``/metrics``):
the page, its files and the SDK's modules, sign-in, the live stream of the channel's table, and
the person's actions (docs/activity.md has the routes, the scene and the errors).

Served at its own root: Discord's proxy maps the app's ``https://<app id>.discordsays.com/`` to
it. The client secret is used only to exchange codes (``bot.activity.oauth``) and to sign
sessions (``bot.activity.sessions``); it is never sent, logged or put in an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import discord
from aiohttp import web
from pydantic import BaseModel, Field, SecretStr, ValidationError

from bot.activity.acts import Acts, Refused
from bot.activity.hub import Hub
from bot.activity.look import look
from bot.activity.oauth import DiscordSignIn, SignInError
from bot.activity.scene import SceneMaker
from bot.activity.sessions import Session, SessionError, Sessions
from bot.activity.words import words
from bot.discord.controller import TableController
from bot.i18n import DEFAULT, lang_of, tr
from bot.table import TableService
from bot.table.service import TableSnapshot

_log = logging.getLogger("kortbord.activity")

WEB = Path(__file__).parent / "web"
SDK = WEB / "node_modules" / "@discord" / "embedded-app-sdk"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'self'; "
       "form-action 'self'; object-src 'none'")
"""The page's Content Security Policy, like Discord's proxy's: everything from its own
origin."""
KEEP_ALIVE = 15.0
"""Seconds between two comment lines on an idle stream (proxies close silent connections)."""
BODY_LIMIT = 16 * 1024
STREAMS_A_PERSON = 8
"""Open streams one person may hold at once (a phone, a desktop, a popped-out window…): each
stream is drawn a scene of its own at every change, so a client that opened hundreds would
spend the loop's time for everyone."""
TABLE_ID_MAX = 2**63 - 1
"""The largest table id a page may name (the database's 64-bit integer)."""
TYPES = {".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
         ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml",
         ".png": "image/png", ".webp": "image/webp", ".woff2": "font/woff2",
         ".md": "text/markdown", ".map": "application/json"}
"""What the server serves, by file extension (a module must be served as JavaScript)."""
_INSTANCE = re.compile(r"[A-Za-z0-9_.:-]{1,100}")


class TokenBody(BaseModel):
    code: str = Field(min_length=1, max_length=512)


class SessionBody(BaseModel):
    access_token: str = Field(min_length=1, max_length=512)
    instance_id: str = Field(min_length=1, max_length=100, pattern=_INSTANCE.pattern)


class ActionBody(BaseModel):
    id: str = Field(min_length=1, max_length=100)


class ActBody(BaseModel):
    session: str = Field(min_length=1, max_length=2048)
    version: int
    action: ActionBody
    table: int | None = Field(None, ge=1, le=TABLE_ID_MAX)


def _header_lang(request: web.Request) -> str:
    """The language a person who has no session yet is answered in: their browser's first
    language the bot speaks (Discord's client sets it to the person's Discord language)."""
    for part in request.headers.get("Accept-Language", "").split(","):
        tag = part.split(";")[0].strip()
        if tag:
            lang = lang_of(tag)
            if lang != DEFAULT or tag.lower().startswith("en"):
                return lang
    return DEFAULT


def _error(status: int, text: str, **more: Any) -> web.Response:
    return web.json_response({"error": text, **more}, status=status,
                             headers={"Cache-Control": "no-store"})


def _json(data: Any) -> web.Response:
    return web.json_response(data, headers={"Cache-Control": "no-store"})


def _file(root: Path, relative: str) -> web.StreamResponse:
    """A file under ``root`` (never above it), with its type, or 404."""
    path = (root / relative).resolve()
    if not path.is_relative_to(root.resolve()) or not path.is_file():
        raise web.HTTPNotFound()
    kind = TYPES.get(path.suffix)
    if kind is None:
        raise web.HTTPNotFound()
    return web.FileResponse(path, headers={"Content-Type": f"{kind}; charset=utf-8",
                                           "X-Content-Type-Options": "nosniff"})


class ActivityServer:
    """The Activity's server for one bot process; ``start()`` binds it (port 0: a free port,
    then ``port`` says which)."""

    def __init__(self, *, host: str, port: int, service: TableService,
                 controllers: Mapping[str, TableController], http: discord.http.HTTPClient,
                 application_id: int, client_secret: SecretStr,
                 clock: Callable[[], float]) -> None:
        self.host = host
        self.port = port
        self._application_id = application_id
        self._service = service
        self._signin = DiscordSignIn(http, application_id, client_secret)
        self._sessions = Sessions(client_secret, clock)
        self._scenes = SceneMaker(controllers)
        self._acts = Acts(service, controllers, self._scenes)
        self._hub = Hub(service, self._scenes, service.store)
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()

    def table_changed(self, snapshot: TableSnapshot) -> None:
        """Every table the controllers show: open streams of its channel get the new scene."""
        self._hub.table_changed(snapshot)

    async def start(self) -> None:
        app = web.Application(client_max_size=BODY_LIMIT)
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{path:.+}", self._static)
        app.router.add_get("/sdk/LICENSE.md", self._sdk_licence)
        app.router.add_get("/sdk/{path:.+}", self._sdk)
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        app.router.add_post("/api/session", self._session)
        app.router.add_get("/api/stream", self._stream)
        app.router.add_post("/api/act", self._act)
        await self._hub.start()
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = int(self._runner.addresses[0][1])
        _log.info("the Activity is served on http://%s:%d/", self.host, self.port)

    async def close(self) -> None:
        self._closing.set()
        self._hub.end_streams()
        if self._runner is not None:
            await self._runner.cleanup()
        await self._hub.close()
        await self._signin.close()

    # -- the page and its files ----------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.StreamResponse:
        page = WEB / "index.html"
        if not page.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(page, headers={
            "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": CSP,
            "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer"})

    async def _static(self, request: web.Request) -> web.StreamResponse:
        return _file(WEB / "static", request.match_info["path"])

    async def _sdk(self, request: web.Request) -> web.StreamResponse:
        return _file(SDK / "output", request.match_info["path"])

    async def _sdk_licence(self, request: web.Request) -> web.StreamResponse:
        return _file(SDK, "LICENSE.md")

    # -- signing in ----------------------------------------------------------------------------

    async def _config(self, request: web.Request) -> web.Response:
        # the page's words before anyone is known: in the browser's language
        return _json({"client_id": str(self._application_id),
                      "words": words(_header_lang(request))})

    async def _body(self, request: web.Request, model: type[BaseModel], lang: str) -> Any:
        try:
            return model.model_validate(json.loads(await request.read()))
        except (ValueError, ValidationError):
            raise _Answer(_error(400, tr(lang, "The Activity sent something I can't read. "
                                               "Close it and open it again."))) from None

    async def _token(self, request: web.Request) -> web.Response:
        lang = _header_lang(request)
        try:
            body = await self._body(request, TokenBody, lang)
            return _json({"access_token": await self._signin.exchange(body.code)})
        except _Answer as answer:
            return answer.response
        except SignInError as exc:
            _log.info("activity: a sign-in code was not exchanged: %s", exc)
            return self._signin_error(exc, lang)

    def _signin_error(self, exc: SignInError, lang: str) -> web.Response:
        if exc.status == 502:
            return _error(502, tr(lang, "Discord did not answer as expected. Try again in a "
                                        "moment."))
        if exc.status == 403:
            return _error(403, tr(lang, "This Activity is not running in a channel I can "
                                        "find. Close it and open it again."))
        return _error(exc.status, tr(lang, "Discord did not confirm who you are. Close the "
                                           "Activity and open it again."))

    async def _session(self, request: web.Request) -> web.Response:
        lang = _header_lang(request)
        try:
            body = await self._body(request, SessionBody, lang)
            person = await self._signin.person(body.access_token)
            lang = lang_of(person.locale or lang)
            instance = await self._signin.instance(body.instance_id)
        except _Answer as answer:
            return answer.response
        except SignInError as exc:
            _log.info("activity: a session was refused: %s", exc)
            return self._signin_error(exc, lang)
        if person.id not in instance.users:
            _log.info("activity: user %d is not in the instance they named", person.id)
            return _error(403, tr(lang, "You are not in this Activity. Close it and open it "
                                        "again."))
        session, token = self._sessions.issue(person.id, person.name, instance.id,
                                              instance.channel_id, instance.guild_id, lang)
        _log.info("activity: user %d opened channel %d", person.id, instance.channel_id)
        return _json({"session": token, "user": {"id": str(person.id), "name": person.name},
                      "channel_id": str(instance.channel_id),
                      "guild_id": None if instance.guild_id is None else str(instance.guild_id),
                      "lang": lang, "expires_at": session.expires_at, "words": words(lang)})

    def _read_session(self, token: str, lang: str) -> Session:
        try:
            return self._sessions.read(token)
        except SessionError:
            raise _Answer(_error(401, tr(lang, "Your session ran out. Opening the table "
                                               "again…"))) from None

    # -- the table -----------------------------------------------------------------------------

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        lang = _header_lang(request)
        try:
            session = self._read_session(request.query.get("session", ""), lang)
        except _Answer as answer:
            return answer.response
        if self._hub.streams_of(session.user_id) >= STREAMS_A_PERSON:
            return _error(429, tr(lang, "You have the Activity open in too many places. Close "
                                        "one and try again."))
        table = request.query.get("table", "")
        # a table id the database could hold, else none (the page names its last table)
        named = int(table) if table.isdigit() and len(table) <= 19 else None
        named = named if named is not None and 1 <= named <= TABLE_ID_MAX else None
        stream = self._hub.subscribe(session)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        try:
            await response.prepare(request)
            # the named table is this page's alone: read as it ended if it is one of this
            # channel's, and never what the channel's other streams are shown
            seen = await look(self._service, session.channel_id, table_id=named)
            stream.put(self._scenes.scene(seen, session).data)
            while not self._closing.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stream.ready.wait(), KEEP_ALIVE)
                if self._closing.is_set() or self._sessions.expired(session):
                    break
                scene = stream.take()
                if scene is None:
                    await response.write(b": keep-alive\n\n")
                    continue
                data = json.dumps(scene, ensure_ascii=False, separators=(",", ":"))
                await response.write(f"event: scene\ndata: {data}\n\n".encode())
        except ConnectionResetError:
            pass
        finally:
            self._hub.unsubscribe(stream)
        return response

    async def _act(self, request: web.Request) -> web.Response:
        lang = _header_lang(request)
        try:
            body = await self._body(request, ActBody, lang)
            session = self._read_session(body.session, lang)
        except _Answer as answer:
            return answer.response
        try:
            seen = await self._acts.act(session, body.version, body.action.id, body.table)
        except Refused as refused:
            more = {} if refused.scene is None else {"scene": refused.scene}
            return _error(refused.status, refused.text, **more)
        return _json({"scene": self._scenes.scene(seen, session).data})


class _Answer(Exception):
    """A request answered early (a refusal), with its ``response``."""

    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response
