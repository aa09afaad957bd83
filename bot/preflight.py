"""What ``python -m bot`` checks before it imports the rest of the bot: the settings, and the
database they name. A problem with either is said in one line, at once: importing discord.py,
aiohttp and the games takes a second of CPU, and an operator who mistyped a setting (or a test
of what they see) waited for it before."""

from __future__ import annotations

import sys

from bot import runloop
from bot.config import ConfigError, Settings, load_settings
from bot.storage import DatabaseUnavailableError, Store


async def check_database(settings: Settings) -> str | None:
    """Open (creating and migrating if needed), check and close the database before anything
    connects to Discord; one line saying what is wrong with it, or ``None``."""
    try:
        store = await Store.open(settings.database, check=True)
    except DatabaseUnavailableError as exc:  # SchemaTooNewError too
        return f"cannot use {settings.database_setting} {exc.where}: {exc.cause}"
    await store.close()
    return None


def preflight() -> Settings | None:
    """The settings, once they and their database are good; ``None`` once what is wrong was
    said on standard error."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"kortbord: {exc}", file=sys.stderr)
        return None
    problem = runloop.run(check_database(settings))
    if problem is not None:
        print(f"kortbord: {' '.join(problem.split())}", file=sys.stderr)
        return None
    return settings
