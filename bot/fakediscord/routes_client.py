"""The fake Discord client page at ``http://localhost:3333`` (an origin the Embedded App SDK
accepts messages from): a channel as a person sees it, the app's launcher, and a launched
Activity in an ``<iframe>`` whose ``postMessage`` RPC the page relays to ``clientrpc.py``.

``GET /channels/{guild_id}/{channel_id}?user=<id>`` (Discord's own web client path; ``@me`` for
a DM's guild) with ``platform=desktop|mobile`` and ``authorize=auto`` (approve the consent
dialog at once) is the page. Its own calls live under ``/.fake/client/`` — the fake's, not
Discord's API: the channel's state, launching and joining, registering an iframe, relaying
its messages, the consent click, closing, participants as server-sent events, CSP reports,
and what a test reads back (``records``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from importlib import resources
from typing import Any

from aiohttp import web

from bot.fakediscord.activities import ActivityInstance, LaunchRefused, activity_origin
from bot.fakediscord.clientrpc import (
    PARTICIPANTS_UPDATE,
    Frame,
    RpcError,
    handshake,
    participants,
)
from bot.fakediscord.model import Channel, User
from bot.fakediscord.records import INTERACTION_APPLICATION_COMMAND
from bot.fakediscord.restkit import fake_of, json_response

STATIC = resources.files("bot.fakediscord") / "client"
LAUNCH_TIMEOUT = 10.0
"""How long the page waits for the bot to answer an Entry Point command (handler 1)."""


class ClientError(web.HTTPException):
    """A request the fake client would never make (its JSON says why)."""

    def __init__(self, status: int, message: str) -> None:
        self.status_code = status
        super().__init__(text=json.dumps({"error": message}), content_type="application/json")


def _user(request: web.Request, value: Any) -> User:
    try:
        user = fake_of(request).users.get(int(value))
    except (TypeError, ValueError):
        user = None
    if user is None or user.bot:
        raise ClientError(400, "who is this? (?user=<id> of a person)")
    return user


def _channel(request: web.Request, value: Any, user: User) -> Channel:
    fake = fake_of(request)
    try:
        channel = fake.channels.get(int(value))
    except (TypeError, ValueError):
        channel = None
    if channel is None:
        raise ClientError(404, "no such channel")
    if channel.guild_id is None:
        if user not in channel.recipients:
            raise ClientError(403, f"{user.username} is not in this DM")
    elif user.id not in fake.guilds[channel.guild_id].members:
        raise ClientError(403, f"{user.username} is not a member of this server")
    return channel


def _frame(request: web.Request, frame_id: Any) -> Frame:
    frame = fake_of(request).frames.get(str(frame_id))
    if frame is None or frame.closed:
        raise ClientError(404, "no such Activity frame open")
    return frame


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise ClientError(400, "JSON, please") from None
    if not isinstance(body, dict):
        raise ClientError(400, "a JSON object, please")
    return body


def _instance(instance: ActivityInstance | None) -> dict[str, Any] | None:
    if instance is None:
        return None
    channel = instance.channel
    return {"id": instance.id, "launch_id": str(instance.launch_id),
            "location_id": instance.location_id, "channel_id": str(channel.id),
            "guild_id": str(channel.guild_id) if channel.guild_id else None,
            "users": [{"id": str(u.id), "name": u.display_name} for u in instance.users]}


# -- the page ------------------------------------------------------------------------------------


async def page(request: web.Request) -> web.StreamResponse:
    return web.Response(text=(STATIC / "client.html").read_text(), content_type="text/html")


async def favicon(request: web.Request) -> web.StreamResponse:
    return web.Response(status=204)  # what browsers ask every page for; nothing to show


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    types = {"client.js": "text/javascript", "client.css": "text/css"}
    if name not in types:
        raise web.HTTPNotFound()
    return web.Response(text=(STATIC / name).read_text(), content_type=types[name])


async def state(request: web.Request) -> web.StreamResponse:
    """The channel as the person's client shows it, and the app's launcher."""
    fake = fake_of(request)
    user = _user(request, request.query.get("user"))
    channel = _channel(request, request.query.get("channel"), user)
    entry = fake.entry_point()
    return json_response({
        "user": {"id": str(user.id), "name": user.display_name, "locale": user.locale},
        "channel": {"id": str(channel.id), "name": channel.name, "type": channel.type,
                    "guild_id": str(channel.guild_id) if channel.guild_id else None,
                    "guild": fake.guilds[channel.guild_id].name if channel.guild_id else None},
        "application": {"id": str(fake.application.id), "name": fake.application.name,
                        "activities": fake.activities.enabled
                        and fake.world.may_use_activities(user, channel),
                        "entry_point": entry["name"] if entry else None},
        "activity_origin": activity_origin(fake.application.id),
        "instance": _instance(fake.activities.in_channel(channel)),
    })


async def launch(request: web.Request) -> web.StreamResponse:
    """The person picks the app in the App Launcher (its Entry Point command), or joins the
    instance running in the channel."""
    fake = fake_of(request)
    body = await _body(request)
    user = _user(request, body.get("user"))
    channel = _channel(request, body.get("channel"), user)
    running = fake.activities.in_channel(channel)
    if not fake.world.may_use_activities(user, channel):
        raise ClientError(403, f"{user.username} lacks Use Activities here")
    try:
        if running is not None:
            fake.activities.join(user, running)
            return json_response({"instance": _instance(running)})
        entry = fake.entry_point()
        if entry is None:
            raise ClientError(409, "the app has no Entry Point command")
        if entry["handler"] == 2:
            return json_response({"instance": _instance(fake.activities.launch(user, channel))})
    except LaunchRefused as exc:
        raise ClientError(409, str(exc)) from None
    record = fake.create_interaction(
        INTERACTION_APPLICATION_COMMAND, user, channel,
        {"id": entry["id"], "name": entry["name"], "type": entry["type"]})
    try:
        async with asyncio.timeout(LAUNCH_TIMEOUT):
            await record.acknowledged
    except TimeoutError:
        raise ClientError(504, "the app did not answer its Entry Point command") from None
    instance = fake.activities.instance(record.activity_instance_id or "")
    if instance is None:
        raise ClientError(409, f"the app answered its Entry Point command with callback "
                               f"{record.callback_type}, not LAUNCH_ACTIVITY")
    return json_response({"instance": _instance(instance)})


async def open_frame(request: web.Request) -> web.StreamResponse:
    """The page is about to load the Activity in an iframe: its ``frame_id`` and query."""
    fake = fake_of(request)
    body = await _body(request)
    user = _user(request, body.get("user"))
    instance = fake.activities.instance(str(body.get("instance")))
    if instance is None or user not in instance.users:
        raise ClientError(409, "launch or join the Activity first")
    platform = "mobile" if body.get("platform") == "mobile" else "desktop"
    frame = Frame(secrets.token_hex(16), user, instance, platform, fake.application.id)
    fake.frames[frame.frame_id] = frame
    channel = instance.channel
    query = {"instance_id": instance.id, "location_id": instance.location_id,
             "launch_id": str(instance.launch_id), "channel_id": str(channel.id),
             "frame_id": frame.frame_id, "platform": platform}
    if channel.guild_id is not None:
        query["guild_id"] = str(channel.guild_id)
    fake.changed()
    return json_response({"frame_id": frame.frame_id, "query": query,
                          "origin": activity_origin(fake.application.id)})


async def relay(request: web.Request) -> web.StreamResponse:
    """One message from the iframe: ``{frame, op, payload}`` → what the page posts back."""
    fake = fake_of(request)
    body = await _body(request)
    frame = _frame(request, body.get("frame"))
    payload = body.get("payload")
    op = body.get("op")
    if op == 0:
        answer = handshake(frame, payload)
        fake.changed()
        return json_response(answer)
    if op == 2:
        _close(request, frame)
        return json_response({"closed": True})
    if op != 1 or not isinstance(payload, dict) or not isinstance(payload.get("nonce"), str):
        return json_response({"ignored": True})
    cmd, nonce = payload.get("cmd"), payload["nonce"]
    try:
        data = fake.client_rpc.command(frame, payload)
    except RpcError as exc:
        answer = _error(cmd, nonce, exc)
    else:
        if nonce in frame.pending_consent:
            answer = {"consent": {"nonce": nonce, "application": fake.application.name,
                                  "scopes": list(frame.pending_consent[nonce])}}
        else:
            answer = {"frame": {"cmd": cmd, "evt": None, "nonce": nonce, "data": data}}
    if "frame" in answer:  # an AUTHORIZE waiting for the dialog is counted when answered
        fake.rpc_calls.append((frame.user.id, str(cmd), answer["frame"]["evt"] != "ERROR"))
    fake.changed()
    return json_response(answer)


def _error(cmd: Any, nonce: str, exc: RpcError) -> dict[str, Any]:
    return {"frame": {"cmd": cmd, "evt": "ERROR", "nonce": nonce,
                      "data": {"code": exc.code, "message": exc.message}}}


async def consent(request: web.Request) -> web.StreamResponse:
    """The person's click in the authorize dialog (``approve`` true or false)."""
    fake = fake_of(request)
    body = await _body(request)
    frame = _frame(request, body.get("frame"))
    nonce = str(body.get("nonce"))
    try:
        data = fake.client_rpc.consent(frame, nonce, body.get("approve") is True)
    except RpcError as exc:
        answer = _error("AUTHORIZE", nonce, exc)
    else:
        answer = {"frame": {"cmd": "AUTHORIZE", "evt": None, "nonce": nonce, "data": data}}
    fake.rpc_calls.append((frame.user.id, "AUTHORIZE", answer["frame"]["evt"] != "ERROR"))
    fake.changed()
    return json_response(answer)


def _close(request: web.Request, frame: Frame) -> None:
    fake = fake_of(request)
    frame.closed = True
    if not any(f.user is frame.user and f.instance is frame.instance and not f.closed
               for f in fake.frames.values()):
        fake.activities.leave(frame.user, frame.instance)
    fake.changed()


async def close(request: web.Request) -> web.StreamResponse:
    """The person closes the Activity (or the page goes away: ``sendBeacon``)."""
    body = await _body(request)
    frame = fake_of(request).frames.get(str(body.get("frame")))
    if frame is not None and not frame.closed:
        _close(request, frame)
    return json_response({"closed": True})


async def events(request: web.Request) -> web.StreamResponse:
    """Server-sent events for one frame: ``dispatch`` (an event it subscribed to, as the
    DISPATCH frame to post) and ``participants`` (for the page's own list)."""
    fake = fake_of(request)
    frame = _frame(request, request.query.get("frame"))
    queue: asyncio.Queue[ActivityInstance] = asyncio.Queue()

    def changed(instance: ActivityInstance) -> None:
        if instance is frame.instance:
            queue.put_nowait(instance)

    response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-store"})
    await response.prepare(request)
    fake.activities.on_participants.append(changed)
    try:
        await _send(response, "participants", _instance(frame.instance))
        while not frame.closed:
            instance = await queue.get()
            await _send(response, "participants", _instance(instance))
            if PARTICIPANTS_UPDATE in frame.subscriptions:
                await _send(response, "dispatch", {
                    "cmd": "DISPATCH", "evt": PARTICIPANTS_UPDATE, "nonce": None,
                    "data": participants(instance)})
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        fake.activities.on_participants.remove(changed)
    return response


async def _send(response: web.StreamResponse, event: str, data: Any) -> None:
    await response.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())


async def csp_report(request: web.Request) -> web.StreamResponse:
    """Where the Activity proxy's CSP sends its violation reports (``report-uri``)."""
    fake = fake_of(request)
    try:
        report = json.loads(await request.read() or b"{}")
    except ValueError:
        report = {"unreadable": True}
    fake.csp_reports.append(report.get("csp-report", report) if isinstance(report, dict)
                            else {"report": report})
    fake.changed()
    return web.Response(status=204)


async def records(request: web.Request) -> web.StreamResponse:
    """What a test reads back: the Activity's captured console (CAPTURE_LOG), the CSP
    violations reported, and every RPC command answered (``[user id, cmd, ok]``)."""
    fake = fake_of(request)
    return json_response({
        "captured_logs": [{"user_id": str(c.user_id), "frame_id": c.frame_id,
                           "level": c.level, "message": c.message}
                          for c in fake.captured_logs],
        "csp_reports": fake.csp_reports,
        "rpc": [[str(u), c, ok] for u, c, ok in fake.rpc_calls],
    })


def client_app() -> web.Application:
    app = web.Application()
    app.router.add_get("/channels/{guild}/{channel}", page)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/.fake/client/static/{name}", static)
    app.router.add_get("/.fake/client/state", state)
    app.router.add_post("/.fake/client/launch", launch)
    app.router.add_post("/.fake/client/frame", open_frame)
    app.router.add_post("/.fake/client/relay", relay)
    app.router.add_post("/.fake/client/consent", consent)
    app.router.add_post("/.fake/client/close", close)
    app.router.add_get("/.fake/client/events", events)
    app.router.add_post("/.fake/client/csp", csp_report)
    app.router.add_get("/.fake/client/records", records)
    return app
