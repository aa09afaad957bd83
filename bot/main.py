"""Start-up once the settings and the database are known good (``bot.preflight``): logging, the
API redirect, and a run loop that shuts down cleanly."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import logging.handlers
import queue
import signal
import sys

import aiohttp
import discord

from bot import runloop
from bot.config import Settings
from bot.discord_api import point_discord_at
from bot.logs import ContextFilter, Handoff, JsonFormatter, LogFormat, WithholdPayloads
from bot.monitor import Monitor
from bot.sharding import make_bot
from bot.storage import DatabaseUnavailableError

_log = logging.getLogger("kortbord")


async def run(settings: Settings) -> None:
    bot = make_bot(settings, settle=True)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    monitor = None
    if settings.metrics_port is not None:
        # up before the bot connects: /healthz answers and /readyz says what is still missing
        monitor = Monitor(bot, settings.metrics_host, settings.metrics_port)
        await monitor.start()
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
            stopper = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                _log.info("shutting down")
                await bot.close()
            stopper.cancel()
            # surfaces a login/connection failure from bot.start
            await runner
    finally:
        if monitor is not None:
            await monitor.close()


def setup_logging(level: int, log_format: LogFormat = "text",
                  writer: logging.Handler | None = None) -> logging.handlers.QueueListener:
    """Log to standard error (or through ``writer``) at ``level``: discord.py's own lines
    (``text``) or JSON lines (``json``), each with the log context and without Discord's
    payloads, written by a thread of their own (``bot.logs``). Returns that thread's
    listener, started; it stops, writing what is left, when the process exits."""
    writer = writer or logging.StreamHandler(sys.stderr)
    # discord.py picks the text format (coloured where the stream shows colour) and the
    # level; the writer then moves behind the hand-off
    formatter = {"formatter": JsonFormatter()} if log_format == "json" else {}
    discord.utils.setup_logging(handler=writer, level=level, root=True, **formatter)
    root = logging.getLogger()
    root.removeHandler(writer)
    lines: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    handoff = Handoff(lines)
    handoff.addFilter(WithholdPayloads())
    handoff.addFilter(ContextFilter())
    root.addHandler(handoff)
    listener = logging.handlers.QueueListener(lines, writer)
    listener.start()
    atexit.register(listener.stop)
    return listener


def main(settings: Settings) -> int:
    """Run the bot with ``settings``, which ``bot.preflight`` found good together with their
    database."""
    setup_logging(settings.log_level_number, settings.log_format)
    _log.info("database: %s (%s)", settings.database, settings.database_setting)
    if settings.database_url is not None and "database_path" in settings.model_fields_set:
        _log.info("DATABASE_PATH is not used: DATABASE_URL is set")
    if settings.discord_api_base:
        point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    _log.info("event loop: %s", runloop.loop_name())
    try:
        runloop.run(run(settings))
    except DatabaseUnavailableError as exc:
        # the check passed a moment ago: the database changed since (another process, a server
        # going away)
        _log.error("cannot start: %s", exc)
        return 2
    except discord.LoginFailure:
        _log.error("Discord rejected DISCORD_TOKEN (login failed)")
        return 2
    except (aiohttp.ClientError, OSError) as exc:
        _log.error("cannot reach Discord: %s", exc)
        return 1
    return 0
