"""What the Activity page does over HTTP, for end-to-end tests of the bot's Activity server:
sign in (the code the SDK's authorize() yields, exchanged by the server), read the stream of
scenes, act (docs/activity.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from bot.fakediscord import Driver, User
from bot.fakediscord.activities import ActivityInstance

Scene = dict[str, Any]
WITHIN = 10.0


class SceneStream:
    """One page's ``/api/stream``: the scenes as they come."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self._response = response
        self.latest: Scene | None = None

    async def _next(self) -> Scene:
        event, data = None, []
        while True:
            line = (await self._response.content.readline()).decode()
            if not line:
                raise AssertionError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and event is not None:
                if event == "scene":
                    self.latest = json.loads("\n".join(data))
                    return self.latest
                event, data = None, []

    async def until(self, ready: Callable[[Scene], bool], what: str,
                    within: float = WITHIN) -> Scene:
        """The first scene (the latest seen included) for which ``ready`` holds."""
        if self.latest is not None and ready(self.latest):
            return self.latest
        try:
            async with asyncio.timeout(within):
                while True:
                    scene = await self._next()
                    if ready(scene):
                        return scene
        except TimeoutError:
            raise AssertionError(f"no scene with {what} within {within} s; the latest: "
                                 f"{json.dumps(self.latest)[:2000]}") from None


class ActivityPage:
    """The page of one person, talking to the bot's Activity server at ``base``."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http = http
        self.base = base
        self.session: dict[str, Any] = {}

    async def post(self, path: str, body: Any) -> tuple[int, Any]:
        async with self.http.post(self.base + path, json=body) as response:
            return response.status, await response.json()

    async def get(self, path: str) -> tuple[int, Any]:
        async with self.http.get(self.base + path) as response:
            return response.status, await response.json()

    async def sign_in(self, driver: Driver, user: User, instance: ActivityInstance
                      ) -> dict[str, Any]:
        """Authorize (the SDK's authorize(): the fake's consent yields a code), exchange the
        code, and open a session in ``instance``."""
        code = driver.authorize(user)
        status, token = await self.post("/api/token", {"code": code})
        assert status == 200, token
        status, session = await self.post("/api/session", {
            "access_token": token["access_token"], "instance_id": instance.id})
        assert status == 200, session
        self.session = session
        return session

    @asynccontextmanager
    async def stream(self, table: object = None) -> AsyncIterator[SceneStream]:
        """The page's stream; ``table``: the table it showed before (as a reconnect names it)."""
        params = {"session": self.session["session"]}
        if table is not None:
            params["table"] = str(table)
        async with self.http.get(self.base + "/api/stream", params=params) as response:
            assert response.status == 200, await response.text()
            yield SceneStream(response)

    async def act(self, scene: Scene, action_id: str) -> tuple[int, Any]:
        return await self.post("/api/act", {"session": self.session["session"],
                                            "version": scene["version"],
                                            "action": {"id": action_id},
                                            "table": scene["table"]})


def action(scene: Scene, kind: str, label: str | None = None) -> str:
    """The id of the scene's first action of ``kind`` (whose label is ``label``)."""
    for offered in scene["actions"]:
        if offered["kind"] == kind and (label is None or offered["label"] == label):
            return str(offered["id"])
    raise AssertionError(f"no {kind} action {label or ''} in {scene['actions']}")


@asynccontextmanager
async def pages(port: int) -> AsyncIterator[Callable[[], ActivityPage]]:
    """Pages on one HTTP client: ``new()`` for each person."""
    async with aiohttp.ClientSession() as http:
        yield lambda: ActivityPage(http, f"http://127.0.0.1:{port}")
