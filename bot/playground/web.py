"""The page's web server: the static page, what a user sees (a live event stream), and what a
user does — each action one call on the fake's ``Driver``, so the page can do exactly what a
Discord user can, with Discord's checks, and never reaches the bot's internals.

A user is named by ``as`` (their id); the playground is a local game, so there is no login.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.fakediscord import (
    Channel,
    Driver,
    DriverError,
    InteractionFailed,
    InteractionRejected,
    InteractionResult,
    User,
)
from bot.fakediscord.model import CHANNEL_GUILD_VOICE
from bot.playground import commandline
from bot.playground.render import author_of, message_view
from bot.playground.world import World

STATIC = Path(__file__).with_name("static")
HISTORY = 100
"""Messages a channel shows when opened (older ones scroll out, as far as this page goes)."""
KEEPALIVE_SECONDS = 15.0
"""An event stream with nothing new sends a comment this often, so proxies keep it open."""
INTERACTION_FAILED = "This interaction failed"
OPEN_MODALS = 100
"""Forms opened but not submitted that are kept (the oldest are forgotten, as a closed one)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadRequest(Exception):
    """The request names no such user, channel or message."""


class Playground:
    """What the handlers share: the driver, the world, and modals waiting to be filled in."""

    def __init__(self, driver: Driver, world: World) -> None:
        self.driver = driver
        self.world = world
        self.fake = driver.fake
        self._modals: dict[int, tuple[int, InteractionResult]] = {}

    def user(self, value: Any) -> User:
        user = self.world.user(_int(value))
        if user is None:
            raise BadRequest("no such user")
        return user

    def channel(self, value: Any) -> Channel:
        channel = self.world.channel(_int(value))
        if channel is None:
            raise BadRequest("no such channel")
        return channel

    def by_name(self, name: str) -> User | None:
        wanted = name.strip().lower()
        return next((u for u in self.world.users if wanted in
                     (u.display_name.lower(), u.username.lower(), u.mention)), None)

    def channel_by_name(self, name: str) -> Channel | None:
        return next((c for c in self.world.channels if c.name == name.strip()), None)

    def leaves(self) -> list[commandline.Leaf]:
        """The commands a user in this server sees: the server's own, then global ones."""
        own = self.fake.commands(self.world.guild.id)
        names = {c["name"] for c in own}
        return commandline.leaves(
            own + [c for c in self.fake.commands() if c["name"] not in names]
        )

    def keep_modal(self, user: User, result: InteractionResult) -> None:
        self._modals[result.id] = (user.id, result)
        while len(self._modals) > OPEN_MODALS:
            del self._modals[next(iter(self._modals))]

    def take_modal(self, user: User, interaction_id: int) -> InteractionResult:
        kept = self._modals.get(interaction_id)
        if kept is None or kept[0] != user.id:
            raise BadRequest("no such form")
        del self._modals[interaction_id]
        return kept[1]


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadRequest(f"not an id: {value!r}") from None


def _playground(request: web.Request) -> Playground:
    return request.app[PLAYGROUND]


PLAYGROUND = web.AppKey("playground", Playground)


# -- reading -------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def world(request: web.Request) -> web.StreamResponse:
    playground = _playground(request)
    w = playground.world
    leaves = playground.leaves()
    return web.json_response({
        "hints": {
            # what the empty channel suggests, from the commands the bot synced
            "start": [leaf.path + (" computers:1" if leaf.option("computers") else "")
                      for leaf in leaves if leaf.path.endswith(" start")],
            "table": [leaf.path for leaf in leaves if leaf.path.endswith(" table")],
        },
        "guild": {"id": str(w.guild.id), "name": w.guild.name},
        "channels": [{"id": str(c.id), "name": c.name, "voice": c.type == CHANNEL_GUILD_VOICE}
                     for c in w.channels],
        "client_origin": playground.fake.client_origin,
        "users": [{**author_of(u), "moderator": u.id in w.moderators} for u in w.users],
        "bot": author_of(playground.fake.bot_user),
    })


async def _send(response: web.StreamResponse, event: str, data: Any) -> None:
    await response.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())


async def events(request: web.Request) -> web.StreamResponse:
    """Server-sent events for one user in one channel: ``reset`` (the channel as it stands),
    then ``message`` (new or edited) and ``delete`` as they happen, and ``activity`` when
    something new the user may see lands in another channel (``mention``: it pings them)."""
    playground = _playground(request)
    user = playground.user(request.query.get("as"))
    channel = playground.channel(request.query.get("channel"))
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
    })
    await response.prepare(request)
    # the page was closed or moved to another channel (its next stream is another one)
    with contextlib.suppress(ConnectionResetError):
        await _stream(response, playground, user, channel)
    return response


async def _stream(
    response: web.StreamResponse, playground: Playground, user: User, channel: Channel
) -> None:
    driver, fake = playground.driver, playground.fake
    seen = len(fake.log)
    shown = driver.visible_to(user, channel)[-HISTORY:]
    await _send(response, "reset", {"messages": [message_view(m) for m in shown]})
    while True:
        try:
            await driver.wait_for(lambda known=seen: len(fake.log) > known, KEEPALIVE_SECONDS,
                                  "news")
        except AssertionError:
            await response.write(b": keep-alive\n\n")
            continue
        fresh, seen = fake.log[seen:], len(fake.log)
        here: dict[int, None] = {}
        for entry in fresh:
            if not entry.visible_to(user.id):
                continue
            if entry.channel_id == channel.id:
                here[entry.message_id] = None
            elif entry.action == "create":
                message = fake.messages[entry.message_id]
                await _send(response, "activity", {
                    "channel": str(entry.channel_id),
                    "mention": any(u.id == user.id for u in message.mentions),
                })
        for message_id in here:
            message = fake.messages[message_id]
            if message.visible_to(user.id):
                await _send(response, "message", message_view(message))
            else:
                await _send(response, "delete", {"id": str(message_id)})


async def file(request: web.Request) -> web.StreamResponse:
    """A file on a message the user can see."""
    playground = _playground(request)
    message = playground.fake.messages.get(_int(request.match_info["message_id"]))
    viewer = request.query.get("as")
    user_id = playground.user(viewer).id if viewer else None
    if message is None or not (
        (message.ephemeral_for is None and not message.deleted)
        or (user_id is not None and message.visible_to(user_id))
    ):
        raise web.HTTPNotFound()
    attachment_id = _int(request.match_info["attachment_id"])
    for attachment in message.attachments:
        if attachment.id == attachment_id:
            return web.Response(body=attachment.data, content_type=attachment.content_type
                                .split(";")[0], headers={"Cache-Control": "max-age=86400"})
    raise web.HTTPNotFound()


async def emoji(request: web.Request) -> web.StreamResponse:
    """An application emoji's picture (public, as Discord's CDN serves them)."""
    found = _playground(request).fake.emojis.by_id.get(_int(request.match_info["emoji_id"]))
    if found is None:
        raise web.HTTPNotFound()
    return web.Response(body=found.image, content_type=found.content_type,
                        headers={"Cache-Control": "max-age=86400"})


# -- acting --------------------------------------------------------------------------------------


async def _body(request: web.Request) -> dict[str, Any]:
    # JSON only: a form on another web site cannot post here without the browser asking first
    if request.content_type != "application/json":
        raise BadRequest("send JSON")
    body = await request.json()
    if not isinstance(body, dict):
        raise BadRequest("send a JSON object")
    return body


def _outcome(playground: Playground, user: User, result: InteractionResult) -> dict[str, Any]:
    if result.modal is not None:
        playground.keep_modal(user, result)
        return {"ok": True, "modal": result.modal, "interaction": str(result.id)}
    instance = result.activity_instance
    if instance is not None:
        # the bot launched its Activity: the page opens the fake Discord client on it
        return {"ok": True, "activity": playground.driver.fake.client_url(user, instance.channel)}
    return {"ok": True}


async def _act(
    request: web.Request,
    action: Callable[[Playground, User, dict[str, Any]], Awaitable[dict[str, Any]]],
) -> web.StreamResponse:
    playground = _playground(request)
    try:
        body = await _body(request)
        user = playground.user(body.get("as"))
        return web.json_response(await action(playground, user, body))
    except (BadRequest, commandline.CommandLineError, DriverError) as exc:
        return web.json_response({"ok": False, "error": str(exc)}, status=400)
    except InteractionRejected as exc:
        return web.json_response({"ok": False, "error": f"Discord refused it: {exc}"},
                                 status=400)
    except InteractionFailed:
        return web.json_response({"ok": False, "error": INTERACTION_FAILED}, status=502)


async def _command(playground: Playground, user: User, body: dict[str, Any]) -> dict[str, Any]:
    channel = playground.channel(body.get("channel"))
    text = str(body.get("text", ""))
    # a command typed in full runs even without the space the pop-up would add
    parsed = commandline.parse(text.rstrip() + " ", playground.leaves())
    options = commandline.options_for(parsed, playground.by_name, playground.channel_by_name)
    assert parsed.leaf is not None
    result = await playground.driver.slash(user, channel, parsed.leaf.path, options)
    return _outcome(playground, user, result)


async def _suggest(playground: Playground, user: User, body: dict[str, Any]) -> dict[str, Any]:
    channel = playground.channel(body.get("channel"))
    text = str(body.get("text", ""))
    leaves = playground.leaves()
    found = commandline.suggest(text, leaves, [u.display_name for u in playground.world.users])
    items = found.items
    if found.autocomplete is not None:
        parsed = commandline.parse(text, leaves)
        assert parsed.leaf is not None
        focused = found.autocomplete
        options = commandline.options_for(
            parsed, playground.by_name, playground.channel_by_name, focused=focused.name
        )
        choices = await playground.driver.autocomplete(
            user, channel, parsed.leaf.path, options, focused=focused.name
        )
        base = text[: focused.start]
        items = [commandline.Suggestion(f"{base}{c['value']} ", str(c["name"]))
                 for c in choices]
    return {
        "ok": True,
        "mode": found.mode,
        "title": found.title,
        "items": [{"text": s.text, "label": s.label, "description": s.description}
                  for s in items],
    }


async def _click(playground: Playground, user: User, body: dict[str, Any]) -> dict[str, Any]:
    message = _int(body.get("message"))
    result = await playground.driver.click(user, message, str(body.get("custom_id", "")))
    return _outcome(playground, user, result)


async def _select(playground: Playground, user: User, body: dict[str, Any]) -> dict[str, Any]:
    values = body.get("values")
    if not isinstance(values, list):
        raise BadRequest("values must be a list")
    result = await playground.driver.select(
        user, _int(body.get("message")), [str(v) for v in values],
        custom_id=str(body.get("custom_id", "")),
    )
    return _outcome(playground, user, result)


async def _say(playground: Playground, user: User, body: dict[str, Any]) -> dict[str, Any]:
    text = str(body.get("text", "")).strip()
    if not text:
        raise BadRequest("nothing to say")
    playground.driver.say(user, playground.channel(body.get("channel")), text[:2000])
    return {"ok": True}


async def _modal(playground: Playground, user: User, body: dict[str, Any]) -> dict[str, Any]:
    opened = playground.take_modal(user, _int(body.get("interaction")))
    values = body.get("values")
    if not isinstance(values, dict):
        raise BadRequest("values must be an object")
    result = await playground.driver.submit_modal(
        user, opened, {str(k): str(v) for k, v in values.items()}
    )
    return _outcome(playground, user, result)


def _acting(
    action: Callable[[Playground, User, dict[str, Any]], Awaitable[dict[str, Any]]],
) -> Handler:
    async def handler(request: web.Request) -> web.StreamResponse:
        return await _act(request, action)

    return handler


@web.middleware
async def bad_requests(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except BadRequest as exc:
        return web.json_response({"ok": False, "error": str(exc)}, status=400)


def build_app(driver: Driver, world_: World) -> web.Application:
    app = web.Application(middlewares=[bad_requests])
    app[PLAYGROUND] = Playground(driver, world_)
    app.router.add_get("/", index)
    app.router.add_static("/static", STATIC)
    app.router.add_get("/api/world", world)
    app.router.add_get("/api/events", events)
    app.router.add_get("/files/{message_id}/{attachment_id}/{filename}", file)
    app.router.add_get("/emojis/{emoji_id}", emoji)
    app.router.add_post("/api/command", _acting(_command))
    app.router.add_post("/api/suggest", _acting(_suggest))
    app.router.add_post("/api/click", _acting(_click))
    app.router.add_post("/api/select", _acting(_select))
    app.router.add_post("/api/say", _acting(_say))
    app.router.add_post("/api/modal", _acting(_modal))
    return app
