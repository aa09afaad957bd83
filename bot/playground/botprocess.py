"""The bot as ``python -m bot`` — exactly the command a server owner runs — pointed at the
fake through its ordinary settings (``DISCORD_API_BASE``), with its database and log in the
playground's folder."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import bot
from bot.fakediscord import Driver, FakeDiscord

BOOT_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0
PLAYGROUND_TOKEN = "playground"
_PACKAGE_ROOT = Path(bot.__file__).resolve().parents[1]


class BotExited(RuntimeError):
    """``python -m bot`` stopped before it connected, or while the playground ran."""


class BotProcess:
    def __init__(self, fake: FakeDiscord, folder: Path, computer_pause: float,
                 activity_port: int | None = None) -> None:
        self.fake = fake
        self.folder = folder
        self.computer_pause = computer_pause
        self.activity_port = activity_port
        self.log_path = folder / "bot.log"
        self.database_path = folder / "kortbord.sqlite3"
        self.process: asyncio.subprocess.Process | None = None

    def _environment(self) -> dict[str, str]:
        # the bot's own settings only from here: none of the caller's DISCORD_*/DEV_* leak in
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DISCORD_", "DEV_", "DATABASE_", "COMPUTER_", "ACTIVITY_",
                                    "CLIENT_SECRET"))}
        env.update(
            DISCORD_TOKEN=PLAYGROUND_TOKEN,
            DISCORD_API_BASE=self.fake.api_base,
            DATABASE_PATH=str(self.database_path),
            COMPUTER_PAUSE=str(self.computer_pause),
            LOG_LEVEL="INFO",
            PYTHONPATH=os.pathsep.join(
                p for p in (str(_PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p
            ),
        )
        if self.activity_port is not None:
            # the bot's Activity server, which the fake's URL mapping "/" points at; the
            # client secret is the fake application's, for the OAuth2 code exchange
            env.update(ACTIVITY_HOST="127.0.0.1", ACTIVITY_PORT=str(self.activity_port),
                       CLIENT_SECRET=self.fake.client_secret)
        return env

    async def start(self, driver: Driver) -> None:
        """Start ``python -m bot`` and return once it is connected (its commands are synced
        before it connects)."""
        before = self.fake.gateway.identify_count
        with self.log_path.open("ab") as log:
            # cwd is the playground's folder, so a .env where the playground was started
            # (a real token, DEV_GUILD_IDS) cannot reach this bot
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=self.folder, env=self._environment(),
                stdout=log, stderr=asyncio.subprocess.STDOUT, stdin=asyncio.subprocess.DEVNULL,
                # its own session: Ctrl-C reaches only the playground, which stops the bot
                # with SIGTERM after the page, so the bot's exit is never mistaken for a crash
                start_new_session=True,
            )
        exited = asyncio.create_task(self.process.wait())
        ready = asyncio.create_task(driver.wait_bot_ready(after=before, within=BOOT_TIMEOUT))
        done, _ = await asyncio.wait({exited, ready}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            ready.cancel()
            raise BotExited(f"python -m bot exited with status {self.process.returncode}; "
                            f"its log: {self.log_path}")
        exited.cancel()
        await ready

    async def wait(self) -> int:
        """Wait until the bot exits; its status."""
        if self.process is None:
            return 0
        return await self.process.wait()

    async def stop(self) -> int | None:
        """SIGTERM (the bot closes its database cleanly), then its exit status."""
        process, self.process = self.process, None
        if process is None:
            return None
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(STOP_TIMEOUT):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()
        return process.returncode

    def log_tail(self, lines: int = 20) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
