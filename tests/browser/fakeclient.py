"""The fake Discord and a tiny test Activity (``fake_activity/``: a page on the real Embedded
App SDK, and a backend that exchanges the SDK's code at the fake's ``/oauth2/token``), run on
an event loop in a background thread so synchronous Playwright can drive the fake client page.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
from aiohttp import web

from bot.fakediscord import FakeDiscord
from tests.browser.loopthread import FakeOnItsLoop

REPO_ROOT = Path(__file__).resolve().parents[2]
SDK = REPO_ROOT / "bot/activity/web/node_modules/@discord/embedded-app-sdk/output"
PAGE = Path(__file__).with_name("fake_activity")
# the test Activity's own policy, as strict as an app's should be under Discord's proxy
OWN_CSP = "default-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'"
T = TypeVar("T")


def activity_app(fake: FakeDiscord) -> web.Application:
    """The test Activity's server: its page, the SDK's modules, ``/api/config`` and
    ``/api/token`` (the code exchange, with the client secret, as Discord's sample does)."""

    async def page(request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name") or "index.html"
        if name not in ("index.html", "app.js"):
            raise web.HTTPNotFound()
        kind = "text/html" if name.endswith(".html") else "text/javascript"
        return web.Response(text=(PAGE / name).read_text(), content_type=kind,
                            headers={"Content-Security-Policy": OWN_CSP})

    async def sdk(request: web.Request) -> web.StreamResponse:
        path = (SDK / request.match_info["path"]).resolve()
        if not path.is_relative_to(SDK.resolve()) or path.suffix != ".mjs" or not path.exists():
            raise web.HTTPNotFound()
        return web.Response(text=path.read_text(), content_type="text/javascript")

    async def config(request: web.Request) -> web.StreamResponse:
        return web.json_response({"client_id": str(fake.application.id)})

    async def token(request: web.Request) -> web.StreamResponse:
        code = (await request.json())["code"]
        form = {"client_id": str(fake.application.id), "client_secret": fake.client_secret,
                "grant_type": "authorization_code", "code": code}
        async with aiohttp.ClientSession() as http, \
                http.post(f"{fake.api_base}/oauth2/token", data=form) as answer:
            body = await answer.json()
        if answer.status != 200:
            return web.json_response({"error": body.get("error")}, status=401)
        return web.json_response({"access_token": body["access_token"]})

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/{name}", page)
    app.router.add_get("/sdk/{path:.+}", sdk)
    app.router.add_get("/api/config", config)
    app.router.add_post("/api/token", token)
    return app


class FakeInThread(FakeOnItsLoop):
    """A running fake and test Activity; ``run(fn)`` runs ``fn(fake, driver)`` (sync or
    async) on their loop and returns its result."""

    def __init__(self) -> None:
        super().__init__()
        self._runner: web.AppRunner | None = None
        self.activity_url = ""

    async def _start(self) -> None:
        await super()._start()
        self._runner = web.AppRunner(activity_app(self.fake), access_log=None,
                                     shutdown_timeout=0.5)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.activity_url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"

    def stop(self) -> None:
        async def stop() -> None:
            if self._runner is not None:
                await self._runner.cleanup()
            await self.fake.stop()

        self._wait(stop())
        self._end_loop()


@contextmanager
def fake_in_thread() -> Iterator[FakeInThread]:
    running = FakeInThread()
    running.start()
    try:
        yield running
    finally:
        running.stop()


def records(running: FakeInThread) -> dict[str, Any]:
    return running.run(lambda fake, _: {
        "logs": [(c.level, c.message) for c in fake.captured_logs],
        "csp": list(fake.csp_reports),
    })
