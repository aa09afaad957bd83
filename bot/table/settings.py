"""Server and person settings: what a server's managers and each person chose, with defaults.

A person's own choices (pings, card pictures) follow them to every server; a server's settings
(its language, whether pings are on by default, which channels may host games, pictures on its
public tables, each game's defaults) apply to its tables. Both are stored as JSON by the store
and validated here; reads are cached, writes go through to the database at once.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.storage import Store

_log = logging.getLogger(__name__)

CardsShown = Literal["pictures", "text"]
CACHE_SIZE = 10_000
"""Servers and people whose settings are kept in memory (least recently used go first)."""


class _Settings(BaseModel):
    # unknown keys from a newer version are kept out, not fatal
    model_config = ConfigDict(extra="ignore", frozen=True)


class PersonSettings(_Settings):
    pings: bool | None = None
    """Whether the person is pinged when it is their turn; ``None``: the server's default."""
    cards: CardsShown | None = None
    """Pictures or text on their own hand panels; ``None``: pictures."""


class GameDefaults(_Settings):
    turn_seconds: int | None = Field(default=None, ge=0, le=3600)
    """A new table's turn time, unless its host sets one."""
    options: dict[str, Any] = Field(default_factory=dict)
    """A new table's options (a stake, say), unless its host sets them."""
    computer_level: str | None = None
    """The level of computer players seated without one named (issue 34); ``None``: normal.
    Read through ``bot.table.computers.level_name``, so a strategy's name stored by an older
    version still reads as its level."""


class ServerSettings(_Settings):
    language: str | None = None
    """The language of the server's public messages; ``None``: its preferred locale."""
    pings: bool = True
    """Whether people are pinged on their turn unless they chose for themselves."""
    channels: tuple[int, ...] | None = None
    """The only channels (and their threads) that may host games; ``None``: every channel
    not ``blocked``."""
    blocked: tuple[int, ...] = ()
    """Channels (and their threads) where games may not be started."""
    cards: CardsShown = "pictures"
    """Pictures or text on the server's public tables."""
    games: dict[str, GameDefaults] = Field(default_factory=dict)
    event_role: int | None = None
    """Members with this role may open events, besides those with Manage Server."""
    hints: bool = True
    """Whether players may ask for hints at the server's tables (issue 34)."""
    daily_everywhere: bool = False
    """Whether the server's players appear on the cross-server daily boards (issue 46)."""


def rated(table: Any) -> bool:
    """Whether a table is rated: rated tables give no hints (issue 34), so that a rating
    measures a player's own play. The one place that rule reads a table's ``rated`` setting;
    a table is rated when its host left it rated and no computer sits at it (computers have
    no rating: ``bot.ratings.results``)."""
    return bool(table.rated) and not any(seat.is_computer for seat in table.seats)


S = TypeVar("S", bound=_Settings)


class _Cache(OrderedDict[int, S]):
    def remember(self, key: int, value: S) -> S:
        self[key] = value
        self.move_to_end(key)
        while len(self) > CACHE_SIZE:
            self.popitem(last=False)
        return value


class SettingsService:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self._people: _Cache[PersonSettings] = _Cache()
        self._servers: _Cache[ServerSettings] = _Cache()

    async def person(self, user_id: int) -> PersonSettings:
        cached = self._people.get(user_id)
        if cached is None:
            cached = _load(PersonSettings, await self._store.user_settings(user_id))
        return self._people.remember(user_id, cached)

    async def server(self, guild_id: int) -> ServerSettings:
        cached = self._servers.get(guild_id)
        if cached is None:
            cached = _load(ServerSettings, await self._store.guild_settings(guild_id))
        return self._servers.remember(guild_id, cached)

    async def update_person(self, user_id: int, **changes: Any) -> PersonSettings:
        """Change some of a person's settings (``ValidationError`` for a value out of range)."""
        updated = PersonSettings.model_validate(
            {**(await self.person(user_id)).model_dump(), **changes})
        await self._store.set_user_settings(user_id, updated.model_dump(mode="json"),
                                            now=self._clock())
        return self._people.remember(user_id, updated)

    async def update_server(self, guild_id: int, **changes: Any) -> ServerSettings:
        """Change some of a server's settings (``ValidationError`` for a value out of range)."""
        updated = ServerSettings.model_validate(
            {**(await self.server(guild_id)).model_dump(), **changes})
        await self._store.set_guild_settings(guild_id, updated.model_dump(mode="json"),
                                             now=self._clock())
        return self._servers.remember(guild_id, updated)

    async def may_host(self, guild_id: int, channel_id: int) -> bool:
        """Whether a game may start in ``channel_id`` (a thread's parent channel)."""
        server = await self.server(guild_id)
        if channel_id in server.blocked:
            return False
        return server.channels is None or channel_id in server.channels

    async def pings(self, guild_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is pinged on their turn in this server."""
        own = (await self.person(user_id)).pings
        return (await self.server(guild_id)).pings if own is None else own


def _load(model: type[S], stored: dict[str, Any]) -> S:
    try:
        return model.model_validate(stored)
    except ValidationError as exc:
        # a setting that no longer validates falls back to the defaults rather than block play
        _log.warning("stored %s no longer valid, using defaults: %s", model.__name__, exc)
        return model()
