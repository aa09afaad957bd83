"""Pointing discord.py at another Discord API (a local fake, or a compatible server).

discord.py has no setting for this: every REST route, interaction callbacks and webhook
follow-ups included, is built from the class attribute ``Route.BASE``, and a plain
``commands.Bot`` opens its websocket at ``DiscordWebSocket.DEFAULT_GATEWAY`` without asking
``GET /gateway/bot`` (only the sharded client asks). Both are process-wide, so this is done
once, before the client starts.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

_log = logging.getLogger(__name__)


def default_gateway_for(api_base: str) -> str:
    """The same host and port as ``api_base`` with scheme ws(s) and path ``/``."""
    parts = urlsplit(api_base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/"


def point_discord_at(api_base: str, gateway_url: str | None = None) -> None:
    gateway = gateway_url or default_gateway_for(api_base)
    Route.BASE = api_base.rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    _log.info("Discord API redirected: REST %s, gateway %s", Route.BASE, gateway)
