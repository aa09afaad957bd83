"""Errors the store raises on purpose. Anything else from the database is a real failure (disk,
network, bug)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import KortbordError

if TYPE_CHECKING:
    from bot.storage.models import TableRecord


class StoreError(KortbordError):
    """Base of every deliberate storage error."""


class DatabaseUnavailableError(StoreError):
    """The database cannot be used at all (missing folder, not a database, corrupt, read-only,
    server unreachable, login refused); the message is one line: where, and why."""

    def __init__(self, where: str, cause: str) -> None:
        super().__init__(f"{where}: {cause}")
        self.where = where
        self.cause = cause


class SchemaTooNewError(DatabaseUnavailableError):
    """The database was written by a newer kortbord; starting would risk corrupting it."""

    def __init__(self, path: str, found: int, supported: int) -> None:
        super().__init__(
            path, f"it has schema version {found}, but this kortbord understands versions up "
            f"to {supported}: run a newer kortbord or restore a backup made by this version"
        )
        self.path = path
        self.found = found
        self.supported = supported


class ChannelTakenError(StoreError):
    """The channel already has a table in the lobby or playing (one live table per channel)."""

    def __init__(self, existing: TableRecord) -> None:
        super().__init__(f"channel {existing.channel_id} already has table {existing.id}")
        self.existing = existing


class SeatTakenError(StoreError):
    """A player already sits at another live table of the same server."""

    def __init__(self, player_id: int, table_id: int, channel_id: int) -> None:
        super().__init__(
            f"player {player_id} already sits at table {table_id} in channel {channel_id}"
        )
        self.player_id = player_id
        self.table_id = table_id
        self.channel_id = channel_id


class TableChangedError(StoreError):
    """The table moved on (another move, a start, a close) since the caller read it: nothing was
    written."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} changed since it was read")
        self.table_id = table_id


class LedgerConflictError(StoreError):
    """A ledger row for this (table, hand, payer, payee, reason) exists already (T12): the whole
    transaction was rolled back, so nothing was written twice."""

    def __init__(self, table_id: int, hand_no: int) -> None:
        super().__init__(f"hand {hand_no} of table {table_id} is already in the ledger")
        self.table_id = table_id
        self.hand_no = hand_no
