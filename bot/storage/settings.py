"""Settings as stored: a server's, and a person's own (the same in every server). What they
mean is the caller's."""

from __future__ import annotations

import json
from typing import Any, Literal

from bot.storage.database import Tx
from bot.storage.jsontext import dumps
from bot.storage.part import StorePart


class SettingsStore(StorePart):
    """Server and personal settings."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's settings as stored (``{}`` before anyone set one); their meaning is the
        caller's."""
        rows = list(await self._db.fetch(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ))
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any], *,
                                 now: float) -> None:
        # the one setting a query needs (the cross-server daily board) is kept in its own
        # column too, written with the JSON it mirrors
        everywhere = int(bool(settings.get("daily_everywhere", False)))

        async def body(db: Tx) -> None:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at, daily_everywhere) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at, "
                "daily_everywhere = excluded.daily_everywhere",
                (guild_id, dumps(settings), now, everywhere),
            )

        await self._transaction(body)

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        """A person's own settings (the same in every server), ``{}`` before they set one."""
        rows = list(await self._db.fetch(
            "SELECT settings FROM user_settings WHERE user_id = ?", (user_id,)
        ))
        return json.loads(rows[0][0]) if rows else {}

    async def set_user_settings(self, user_id: int, settings: dict[str, Any], *,
                                now: float) -> None:
        await self._put_settings("user_settings", "user_id", user_id, settings, now)

    async def _put_settings(self, table: Literal["guild_settings", "user_settings"], key: str,
                            owner: int, settings: dict[str, Any], now: float) -> None:
        async def body(db: Tx) -> None:
            await db.execute(
                f"INSERT INTO {table} ({key}, settings, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                (owner, dumps(settings), now),
            )

        await self._transaction(body)
