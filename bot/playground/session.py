"""One playground run: the fake Discord, the bot against it, and the page, started in that order
and stopped in reverse — on Ctrl-C/SIGTERM, or when the bot stops by itself."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from bot.fakediscord import Driver, FakeDiscord
from bot.playground.botprocess import BotExited, BotProcess
from bot.playground.web import build_app
from bot.playground.world import VOICE_CHANNEL, build_world

DATABASE_FILES = ("kortbord.sqlite3", "kortbord.sqlite3-wal", "kortbord.sqlite3-shm", "bot.log")


class StartFailed(Exception):
    """The playground could not start; the message says why in one line."""


@dataclass(frozen=True)
class PlaygroundOptions:
    host: str = "127.0.0.1"
    port: int = 8080
    folder: Path = Path("data") / "playground"
    reset: bool = False
    computer_pause: float = 0.8
    client_port: int = 3333
    """Where the fake Discord client (Activities) also listens; 0: only on the fake's port."""


WILDCARDS = ("0.0.0.0", "::", "")


def page_address(host: str, port: int) -> str:
    """The address to open; on every address, this machine's (others use its network name)."""
    if host in WILDCARDS:
        return f"http://127.0.0.1:{port}/ (or this machine's address on your network)"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def free_port() -> int:
    """A port no one listens on now (for the bot's Activity server, which the fake's URL
    mapping must name before the bot starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def serve_client(fake: FakeDiscord, port: int) -> str:
    """Let a browser on this machine open the fake Discord client (``localhost:3333``) and
    the Activity (``*.discordsays.localhost:3333``) without flags; says how it went."""
    if port == 0:
        return "the client port is off: map localhost:3333 to the fake's port"
    try:
        await fake.serve_client_port(port)
    except OSError as exc:
        return f"port {port} is taken ({exc.strerror}): map localhost:3333 to the fake's port"
    return f"on port {port}"


def prepare_folder(folder: Path, *, reset: bool) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if reset:
        for name in DATABASE_FILES:
            (folder / name).unlink(missing_ok=True)


async def run(options: PlaygroundOptions) -> int:
    """Serve until stopped; the exit status (0 after a clean stop)."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    prepare_folder(options.folder, reset=options.reset)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with FakeDiscord() as fake:
        driver = Driver(fake)
        world = build_world(driver)
        activity_port = free_port()
        # the app's Activity is the bot's own server; the bot registers its Entry Point command
        # itself (a default one would break its bulk overwrite of the global commands: 50240)
        driver.enable_activities(f"http://127.0.0.1:{activity_port}", entry_point=False)
        client = await serve_client(fake, options.client_port)
        bot = BotProcess(fake, options.folder.resolve(), options.computer_pause, activity_port)
        try:
            await bot.start(driver)
        except BotExited as exc:
            raise StartFailed(f"{exc}\n{bot.log_tail()}") from None
        runner = web.AppRunner(build_app(driver, world), access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        try:
            await web.TCPSite(runner, options.host, options.port).start()
        except OSError as exc:
            await runner.cleanup()
            await bot.stop()
            raise StartFailed(f"cannot serve on {options.host}:{options.port}: {exc.strerror}"
                              " (choose another with --port)") from None
        port = runner.addresses[0][1]
        print(f"kortbord playground: open {page_address(options.host, port)} in your browser "
              f"(data in {options.folder}; Ctrl-C stops)", flush=True)
        voice = next(c for c in world.channels if c.name == VOICE_CHANNEL)
        print(f"kortbord playground: Activities in #{VOICE_CHANNEL}: "
              f"{fake.client_url(world.users[0], voice)} ({client}; the fake Discord is "
              f"fake-discord={fake.host}:{fake.port})", flush=True)
        stopped = asyncio.create_task(stop.wait())
        exited = asyncio.create_task(bot.wait())
        await asyncio.wait({stopped, exited}, return_when=asyncio.FIRST_COMPLETED)
        status = 0
        if exited.done():
            print(f"kortbord playground: the bot stopped (status {exited.result()}); "
                  f"its log:\n{bot.log_tail()}", flush=True)
            status = 1
        stopped.cancel()
        exited.cancel()
        await runner.cleanup()
        bot_status = await bot.stop()
        if bot_status not in (None, 0):
            status = 1
    print("kortbord playground: stopped", flush=True)
    return status
