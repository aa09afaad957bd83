"""``FakeDiscord``: the fake (``core.py``) served by aiohttp: REST under ``/api/v10`` (and
``/api/v9``, ``rest.py``) and the gateway websocket at ``/`` (``gateway.py``).

The server runs in the caller's event loop on 127.0.0.1 (a free port by default), so an
in-process bot, a bot subprocess and the test driver all see one consistent state.
"""

from __future__ import annotations

from aiohttp import web

from bot.fakediscord.core import NONCE_WINDOW, Application, FakeCore, FaultRule
from bot.fakediscord.rest import build_app

__all__ = ["NONCE_WINDOW", "Application", "FakeDiscord", "FaultRule"]


class FakeDiscord(FakeCore):
    """A Discord API v10 stand-in: REST under ``/api/v10`` and the gateway websocket at ``/``.

    ``recommended_shards`` and ``max_concurrency`` are what ``GET /gateway/bot`` advises;
    ``guilds_per_shard`` is the most guilds one connection may hold (4011 beyond it).
    ``token`` None accepts any non-empty bot token (as the README's "any token" promises);
    a string makes every other token a 401 and a gateway close 4004. ``rate_limits`` defaults
    to Discord's (``RateLimitConfig.discord_like()``). ``clock`` (Unix seconds) drives the
    rate limits and the 15-minute interaction tokens; tests replace it to move time on.
    """

    _runner: web.AppRunner | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._runner = web.AppRunner(build_app(self), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.host = host
        self.port = self._runner.addresses[0][1]

    async def serve_client_port(self, port: int = 3333) -> None:
        """Listen on ``port`` as well, so a browser on this machine reaches the fake Discord
        client at ``http://localhost:3333`` and Activities at ``http://<app id>
        .discordsays.localhost:3333`` without flags (the playground does this)."""
        assert self._runner is not None, "start() first"
        await web.TCPSite(self._runner, self.host, port).start()

    async def stop(self) -> None:
        self.interaction_store.stop()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.proxy_session is not None:
            await self.proxy_session.close()
            self.proxy_session = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
