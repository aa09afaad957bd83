"""The fake's Activity proxy (``<app id>.discordsays.localhost:3333``) and the fake Discord
client's RPC (``localhost:3333/.fake/client/...``) over real HTTP, without a browser (the
browser test with the real SDK is ``tests/browser/test_fake_client.py``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.fakediscord import Driver, FakeDiscord
from tests.e2e.conftest import World

pytestmark = pytest.mark.e2e

OWN_CSP = "default-src 'self'"


class Target:
    """An app's server behind a URL mapping: it echoes what reached it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, bytes]] = []
        self.release = asyncio.Event()
        self.gone = asyncio.Event()
        self.url = ""
        self.runner: web.AppRunner | None = None

    async def echo(self, request: web.Request) -> web.StreamResponse:
        self.seen.append((request.method, request.path_qs, await request.read()))
        return web.json_response({"path": request.path_qs}, headers={
            "Content-Security-Policy": OWN_CSP, "X-App": "yes"})

    async def stream(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"event: one\ndata: 1\n\n")
        await self.release.wait()
        await response.write(b"event: two\ndata: 2\n\n")
        if request.query.get("beat"):
            # an app's keep-alive comments, until the proxy hangs up on it
            try:
                while True:
                    await asyncio.sleep(0.05)
                    await response.write(b": beat\n\n")
            except ConnectionResetError:
                self.gone.set()
        return response

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/stream", self.stream)
        app.router.add_route("*", "/{path:.*}", self.echo)
        self.runner = web.AppRunner(app, shutdown_timeout=0.1)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"


@pytest.fixture
async def targets() -> AsyncIterator[tuple[Target, Target]]:
    pair = (Target(), Target())
    for target in pair:
        await target.start()
    yield pair
    for target in pair:
        target.release.set()
        assert target.runner is not None
        await target.runner.cleanup()


def activity_host(fake: FakeDiscord) -> str:
    return fake.activity_origin.removeprefix("http://")


async def request(fake: FakeDiscord, host: str, method: str, path: str,
                  **kwargs: Any) -> tuple[int, Any, Any]:
    async with aiohttp.ClientSession() as http, http.request(
            method, f"{fake.base_url}{path}", headers={"Host": host}, **kwargs) as response:
        body = await response.read()
        try:
            data = json.loads(body)
        except ValueError:
            data = body.decode()
        return response.status, response.headers, data


async def test_the_proxy_maps_paths_by_longest_prefix_and_adds_its_csp(
    fake: FakeDiscord, driver: Driver, targets: tuple[Target, Target]
) -> None:
    app, cdn = targets
    driver.enable_activities(app.url)
    fake.activities.map_url("/cdn", cdn.url)
    host = activity_host(fake)

    status, headers, page = await request(fake, host, "GET", "/?frame_id=f")
    legacy = await request(fake, host, "POST", "/.proxy/api/token", data=b'{"code":"c"}')
    image = await request(fake, host, "GET", "/cdn/cards/7H.png")

    assert status == 200 and page == {"path": "/?frame_id=f"}
    policies = headers.getall("Content-Security-Policy")
    assert policies[0] == OWN_CSP and "default-src 'self'" in policies[1]
    assert f"report-uri {fake.csp_report_uri}" in policies[1]
    assert headers["X-App"] == "yes"
    assert legacy[2] == {"path": "/api/token"}
    assert app.seen[1] == ("POST", "/api/token", b'{"code":"c"}')
    assert image[2] == {"path": "/cards/7H.png"} and len(cdn.seen) == 1
    assert fake.rest_calls == []  # an Activity's /api/... is the app's, not Discord's


async def test_the_proxy_streams_and_serves_only_this_apps_enabled_activity(
    fake: FakeDiscord, driver: Driver, targets: tuple[Target, Target]
) -> None:
    app, _ = targets
    host = activity_host(fake)
    before = await request(fake, host, "GET", "/")
    driver.enable_activities(app.url)
    other = await request(fake, f"1{host}", "GET", "/")

    async with aiohttp.ClientSession() as http, http.get(
            f"{fake.base_url}/stream", headers={"Host": host}) as response:
        first = await response.content.readuntil(b"\n\n")
        app.release.set()
        second = await response.content.readuntil(b"\n\n")

    assert (before[0], other[0]) == (404, 404)
    assert first == b"event: one\ndata: 1\n\n" and second == b"event: two\ndata: 2\n\n"


async def test_a_page_that_goes_away_mid_stream_is_hung_up_on_quietly(
    fake: FakeDiscord, driver: Driver, targets: tuple[Target, Target]
) -> None:
    app, _ = targets
    driver.enable_activities(app.url)

    async with aiohttp.ClientSession() as http, http.get(
            f"{fake.base_url}/stream?beat=1", headers={"Host": activity_host(fake)}) as response:
        await response.content.readuntil(b"\n\n")
    app.release.set()

    async with asyncio.timeout(10):
        await app.gone.wait()


async def client(fake: FakeDiscord, path: str, body: Any = None) -> Any:
    method = "GET" if body is None else "POST"
    status, _, data = await request(fake, "localhost:3333", method, f"/.fake/client/{path}",
                                    json=body)
    assert status == 200, data
    return data


async def open_frame(fake: FakeDiscord, user_id: int, channel_id: int) -> tuple[str, Any]:
    launched = await client(fake, "launch", {"user": str(user_id), "channel": str(channel_id)})
    frame = await client(fake, "frame", {"user": str(user_id),
                                         "instance": launched["instance"]["id"]})
    return frame["frame_id"], frame


async def rpc(fake: FakeDiscord, frame: str, cmd: str, nonce: str, **extra: Any) -> Any:
    return await client(fake, "relay", {"frame": frame, "op": 1,
                                        "payload": {"cmd": cmd, "nonce": nonce, **extra}})


async def test_the_client_answers_the_sdks_handshake_and_commands_as_discord_does(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.enable_activities("http://127.0.0.1:9")
    app = str(fake.application.id)
    frame, opened = await open_frame(fake, world.anna.id, world.channel.id)
    hello = {"v": 1, "encoding": "json", "client_id": app, "frame_id": frame}

    wrong_app = await client(fake, "relay", {"frame": frame, "op": 0,
                                             "payload": {**hello, "client_id": "1"}})
    ready = await client(fake, "relay", {"frame": frame, "op": 0, "payload": hello})
    unknown = await rpc(fake, frame, "GET_CHANNEL", "n1", args={"channel_id": "1"})
    bad_event = await rpc(fake, frame, "SUBSCRIBE", "n2", evt="NOT_AN_EVENT", args={})
    subscribed = await rpc(fake, frame, "SUBSCRIBE", "n3",
                           evt="ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", args={})
    asked = await rpc(fake, frame, "AUTHORIZE", "n4", args={
        "client_id": app, "response_type": "code", "state": "", "prompt": "none",
        "scope": ["identify"]})
    approved = await client(fake, "consent", {"frame": frame, "nonce": "n4", "approve": True})
    again = await rpc(fake, frame, "AUTHORIZE", "n5", args={
        "client_id": app, "response_type": "code", "prompt": "none", "scope": ["identify"]})
    logged = await rpc(fake, frame, "CAPTURE_LOG", "n6", args={"level": "warn", "message": "hm"})
    participants = await rpc(fake, frame, "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", "n7",
                             args={})

    assert opened["query"]["instance_id"] == fake.activities.in_channel(world.channel).id  # type: ignore[union-attr]
    assert opened["query"]["platform"] == "desktop"
    assert opened["query"]["guild_id"] == str(world.guild.id)
    assert opened["origin"] == fake.activity_origin
    assert wrong_app == {"close": {"code": 4000, "message": "Invalid Client ID"}}
    assert ready["ready"]["evt"] == "READY" and ready["ready"]["nonce"] is None
    assert ready["ready"]["data"]["user"]["id"] == str(world.anna.id)
    assert ready["ready"]["data"]["config"]["environment"] == "production"
    assert unknown["frame"]["evt"] == "ERROR" and unknown["frame"]["data"]["code"] == 4002
    assert bad_event["frame"]["data"]["code"] == 4004
    assert subscribed["frame"] == {"cmd": "SUBSCRIBE", "evt": None, "nonce": "n3",
                                   "data": {"evt": "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"}}
    assert asked["consent"]["scopes"] == ["identify"]
    assert approved["frame"]["nonce"] == "n4" and approved["frame"]["data"]["code"]
    assert again["frame"]["data"]["code"]  # authorized before: no dialog with prompt "none"
    assert [c for c in fake.rpc_calls if c[1] == "AUTHORIZE"] == [
        (world.anna.id, "AUTHORIZE", True)] * 2
    assert logged["frame"]["data"] is None
    assert [(c.level, c.message) for c in fake.captured_logs] == [("warn", "hm")]
    assert [p["id"] for p in participants["frame"]["data"]["participants"]] == [
        str(world.anna.id)]


async def test_authenticate_takes_only_this_apps_token_for_this_person(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.enable_activities("http://127.0.0.1:9")
    app = fake.application.id
    frame, _ = await open_frame(fake, world.anna.id, world.channel.id)
    await client(fake, "relay", {"frame": frame, "op": 0, "payload": {
        "v": 1, "client_id": str(app), "frame_id": frame}})
    stranger = fake.add_oauth_client("Someone Else")

    def token(user: Any, client_id: int) -> str:
        code = driver.authorize(user, client_id=client_id)
        return str(fake.oauth.token_request(
            {"grant_type": "authorization_code", "code": code},
            (str(client_id), fake.oauth.clients[client_id].secret))["access_token"])

    mine = await rpc(fake, frame, "AUTHENTICATE", "a1", args={"access_token": token(
        world.anna, app)})
    theirs = await rpc(fake, frame, "AUTHENTICATE", "a2", args={"access_token": token(
        world.anna, stranger.id)})
    bos = await rpc(fake, frame, "AUTHENTICATE", "a3", args={"access_token": token(
        world.bo, app)})
    made_up = await rpc(fake, frame, "AUTHENTICATE", "a4", args={"access_token": "nope"})

    data = mine["frame"]["data"]
    assert data["user"]["id"] == str(world.anna.id) and data["scopes"] == ["identify"]
    assert data["application"]["id"] == str(app)
    assert [r["frame"]["data"]["code"] for r in (theirs, bos, made_up)] == [4009] * 3


async def test_the_client_launches_by_the_app_when_the_entry_point_is_its_own(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.enable_activities("http://127.0.0.1:9")
    entry = fake.entry_point()
    assert entry is not None
    fake.command_store.upsert_command(None, {**{k: entry[k] for k in (
        "name", "description", "type")}, "handler": 1})
    launching = asyncio.create_task(client(fake, "launch", {
        "user": str(world.bo.id), "channel": str(world.channel.id)}))
    await fake.wait_for(lambda: fake.interactions, 10, "the Entry Point interaction")
    record = next(iter(fake.interactions.values()))
    fake.interaction_callback(record.id, record.token, {"type": 12}, [])

    launched = await launching
    assert launched["instance"]["users"] == [{"id": str(world.bo.id), "name": "Bo"}]
    state = await client(fake, f"state?user={world.bo.id}&channel={world.channel.id}")
    assert state["instance"]["id"] == launched["instance"]["id"]
    assert state["application"]["entry_point"] == "launch"
