"""The redirect of discord.py's REST base and gateway address."""

from collections.abc import Iterator

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord_api import default_gateway_for, point_discord_at


@pytest.fixture
def restore_discord() -> Iterator[None]:
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    yield
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


def test_default_gateway_keeps_host_and_port() -> None:
    assert default_gateway_for("http://127.0.0.1:8765/api/v10") == "ws://127.0.0.1:8765/"
    assert default_gateway_for("https://example.test/api/v10") == "wss://example.test/"


@pytest.mark.usefixtures("restore_discord")
def test_every_route_and_the_gateway_are_redirected() -> None:
    point_discord_at("http://127.0.0.1:8765/api/v10/")
    route = Route("POST", "/interactions/{id}/{token}/callback", id=1, token="t")
    assert route.url == "http://127.0.0.1:8765/api/v10/interactions/1/t/callback"
    webhook = Route("POST", "/webhooks/{webhook_id}/{token}", webhook_id=2, token="x")
    assert webhook.url.startswith("http://127.0.0.1:8765/api/v10/webhooks/2/")
    assert yarl.URL("ws://127.0.0.1:8765/") == DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_at("http://127.0.0.1:8765/api/v10", "ws://127.0.0.1:9999/gw")
    assert yarl.URL("ws://127.0.0.1:9999/gw") == DiscordWebSocket.DEFAULT_GATEWAY
