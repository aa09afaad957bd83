"""Run the fake Discord on its own, for trying the bot by hand.

    .venv/bin/python -m bot.fakediscord --port 8765 --run "kortbord ping"

then, in another shell, ``DISCORD_TOKEN=any DISCORD_API_BASE=http://127.0.0.1:8765/api/v10
.venv/bin/python -m bot``. The fake seeds one server (#general; Anna, and Bo with Manage
Messages), logs every request and interaction, and once the bot is connected runs each
``--run`` command as Anna and prints the answer. Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from bot.fakediscord.driver import Driver, DriverError, InteractionFailed
from bot.fakediscord.server import FakeDiscord


async def serve(port: int, token: str | None, commands: list[str]) -> None:
    fake = FakeDiscord(token=token)
    await fake.start(port=port)
    driver = Driver(fake)
    guild = driver.add_guild("Kortbord Dev")
    channel = driver.add_channel(guild, "general")
    anna = driver.add_user("Anna")
    driver.add_user("Bo", manage_messages=True)
    print(f"fake Discord listening: DISCORD_API_BASE={fake.api_base}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    if commands:
        await driver.wait_bot_ready(within=24 * 3600)
        for command in commands:
            try:
                result = await driver.slash(anna, channel, command)
            except (DriverError, InteractionFailed) as exc:
                print(f"/{command}: {exc}", flush=True)
                continue
            message = result.message
            audience = "only Anna" if result.ephemeral else "everyone"
            print(f"/{command} -> callback {result.type}, seen by {audience}:", flush=True)
            if message is not None:
                print(message.text, flush=True)
    await stop.wait()
    await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.fakediscord")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--token", default=None, help="accept only this bot token")
    parser.add_argument(
        "--run",
        action="append",
        default=[],
        metavar="COMMAND",
        help='a slash command to run as Anna, e.g. "kortbord ping"',
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    asyncio.run(serve(args.port, args.token, args.run))


if __name__ == "__main__":
    main()
