"""Copy a whole kortbord database into an empty one, on the same or the other backend:
``python -m bot.ops copy sqlite:///data/kortbord.sqlite3 postgresql://…`` moves a server
that grew from SQLite to PostgreSQL (and back) with every table, move, stat, ledger row, seat
claim, player name, setting and season.

Both databases are opened as the bot would (so both are migrated to this version's schema). The
copy is one transaction of the target: rows keep their ids, and before it commits, every table's
row count and per-column sums (integers modulo a prime, so 64-bit ids cannot overflow; text
lengths; times) are compared with the source's, so a copy that lost or changed anything, or a
source that changed while it was read (stop the bot first), leaves the target as empty as it was.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from bot.storage.database import Database, Reads, Row, Tx
from bot.storage.errors import StoreError
from bot.storage.store import Store
from bot.storage.url import DatabaseUrl

Kind = Literal["int", "real", "text"]
BATCH = 5000
"""Rows read and written at a time."""
MODULUS = 1_000_003
"""Integer columns are summed modulo this prime (a sum of Discord ids would overflow)."""


@dataclass(frozen=True, slots=True)
class TableCopy:
    name: str
    key: tuple[str, ...]
    """The primary key: rows are read in its order, a batch at a time."""
    columns: tuple[tuple[str, Kind], ...]
    """Every column of the newest schema, in the schema's order."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.columns)


TABLES: tuple[TableCopy, ...] = (
    TableCopy("tables", ("id",), (
        ("id", "int"), ("guild_id", "int"), ("channel_id", "int"), ("kind", "text"),
        ("status", "text"), ("host_id", "int"), ("options", "text"), ("seats", "text"),
        ("message_id", "int"), ("state", "text"), ("seed", "int"), ("counter", "int"),
        ("created_at", "real"), ("updated_at", "real"), ("lobby_expires_at", "real"),
        ("turn_seconds", "int"), ("turn_deadline", "real"), ("deadline_counter", "int"),
        ("version", "int"), ("shown_version", "int"), ("pinged", "int"), ("to_move", "int"),
        ("locale", "text"), ("closed_note", "text"), ("deals", "text"), ("rated", "int"),
        ("message_webhook", "int"), ("strays_from", "int"), ("message_token", "text"),
        ("message_token_at", "real"),
    )),
    TableCopy("moves", ("table_id", "seq"), (
        ("table_id", "int"), ("seq", "int"), ("player_id", "int"), ("move", "text"),
        ("events", "text"), ("created_at", "real"),
    )),
    TableCopy("seat_claims", ("guild_id", "player_id"), (
        ("guild_id", "int"), ("player_id", "int"), ("table_id", "int"),
    )),
    TableCopy("player_names", ("guild_id", "player_id"), (
        ("guild_id", "int"), ("player_id", "int"), ("name", "text"), ("is_computer", "int"),
        ("updated_at", "real"),
    )),
    TableCopy("ledger", ("id",), (
        ("id", "int"), ("guild_id", "int"), ("table_id", "int"), ("hand_no", "int"),
        ("payer_id", "int"), ("payee_id", "int"), ("amount", "int"), ("reason", "text"),
        ("created_at", "real"), ("kind", "text"), ("season", "int"), ("chain_seq", "int"),
        ("digest", "text"),
    )),
    TableCopy("ledger_heads", ("guild_id",), (
        ("guild_id", "int"), ("seq", "int"), ("digest", "text"),
    )),
    TableCopy("stats", ("guild_id", "kind", "player_id", "table_id", "counter"), (
        ("guild_id", "int"), ("kind", "text"), ("player_id", "int"), ("table_id", "int"),
        ("counter", "text"), ("value", "int"),
    )),
    TableCopy("seasons", ("guild_id", "kind", "season"), (
        ("guild_id", "int"), ("kind", "text"), ("season", "int"), ("started_at", "real"),
        ("started_by", "int"),
    )),
    TableCopy("rated_tables", ("table_id",), (
        ("table_id", "int"), ("guild_id", "int"), ("kind", "text"), ("season", "int"),
        ("ended_at", "real"), ("players", "int"),
    )),
    TableCopy("rating_changes", ("table_id", "player_id"), (
        ("table_id", "int"), ("player_id", "int"), ("guild_id", "int"), ("kind", "text"),
        ("season", "int"), ("place", "int"), ("mu_before", "real"), ("sigma_before", "real"),
        ("mu", "real"), ("sigma", "real"), ("ended_at", "real"),
    )),
    TableCopy("ratings", ("guild_id", "kind", "season", "player_id"), (
        ("guild_id", "int"), ("kind", "text"), ("season", "int"), ("player_id", "int"),
        ("mu", "real"), ("sigma", "real"), ("ordinal", "real"), ("games", "int"),
        ("firsts", "int"), ("lasts", "int"),
    )),
    TableCopy("events", ("id",), (
        ("id", "int"), ("guild_id", "int"), ("channel_id", "int"), ("kind", "text"),
        ("status", "text"), ("host_id", "int"), ("settings", "text"), ("round", "int"),
        ("announced", "int"), ("message_id", "int"), ("locale", "text"),
        ("created_at", "real"), ("updated_at", "real"), ("seated", "int"),
    )),
    TableCopy("event_players", ("event_id", "player_id"), (
        ("event_id", "int"), ("player_id", "int"), ("name", "text"), ("is_computer", "int"),
        ("seq", "int"),
    )),
    TableCopy("event_tables", ("event_id", "round", "table_no"), (
        ("event_id", "int"), ("round", "int"), ("table_no", "int"), ("players", "text"),
        ("thread_id", "int"), ("table_id", "int"), ("result", "text"),
    )),
    TableCopy("guild_settings", ("guild_id",), (
        ("guild_id", "int"), ("settings", "text"), ("updated_at", "real"),
        ("daily_everywhere", "int"),
    )),
    TableCopy("user_settings", ("user_id",), (
        ("user_id", "int"), ("settings", "text"), ("updated_at", "real"),
    )),
    TableCopy("channel_webhooks", ("channel_id",), (
        ("channel_id", "int"), ("webhook_id", "int"), ("token", "text"), ("created_at", "real"),
    )),
    TableCopy("daily_days", ("kind", "day"), (
        ("kind", "text"), ("day", "text"), ("secret", "text"), ("commitment", "text"),
        ("created_at", "real"),
    )),
    TableCopy("daily_baselines", ("kind", "day"), (
        ("kind", "text"), ("day", "text"), ("claimed_at", "real"), ("outcome", "int"),
        ("moves", "text"), ("seconds", "real"), ("computed_at", "real"),
    )),
    TableCopy("daily_attempts", ("kind", "day", "player_id"), (
        ("kind", "text"), ("day", "text"), ("player_id", "int"), ("guild_id", "int"),
        ("name", "text"), ("started_at", "real"), ("moves", "text"), ("move_count", "int"),
        ("updated_at", "real"), ("finished_at", "real"), ("how", "text"), ("outcome", "int"),
        ("score", "int"),
    )),
    TableCopy("daily_hidden", ("player_id",), (
        ("player_id", "int"), ("hidden_at", "real"),
    )),
    TableCopy("posting_runs", ("table_id", "run_id"), (
        ("table_id", "int"), ("run_id", "int"),
    )),
)
"""Every table, parents before the rows that refer to them."""


class CopyError(StoreError):
    """The copy did not happen (the target is as it was); the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    source: str
    target: str
    rows: dict[str, int]
    """Rows copied, per table."""
    chips: int
    """The ledger's total amount (every payment once)."""


async def read_batches(db: Reads, table: TableCopy, size: int = BATCH
                       ) -> AsyncIterator[list[Row]]:
    """The table's rows in key order, ``size`` at a time (the key, not an offset, marks where
    the next batch starts, so each read is an index range)."""
    columns = ", ".join(table.names)
    order = ", ".join(table.key)
    at = [table.names.index(k) for k in table.key]
    after: Sequence[Any] | None = None
    while True:
        if after is None:
            sql = f"SELECT {columns} FROM {table.name} ORDER BY {order} LIMIT ?"
            params: list[Any] = [size]
        else:
            marks = ", ".join("?" for _ in table.key)
            sql = (f"SELECT {columns} FROM {table.name} WHERE ({order}) > ({marks}) "
                   f"ORDER BY {order} LIMIT ?")
            params = [*after, size]
        rows = await db.fetch(sql, params)
        if not rows:
            return
        yield rows
        if len(rows) < size:
            return
        after = [rows[-1][i] for i in at]


async def checksums(db: Reads, table: TableCopy) -> list[Any]:
    """Row count, then for each column its non-null count and its sum (integers modulo
    ``MODULUS``, text by length, times as they are)."""
    parts = ["count(*)"]
    for name, kind in table.columns:
        parts.append(f"count({name})")
        parts.append({"int": f"sum({name} % {MODULUS})", "text": f"sum(length({name}))",
                      "real": f"sum({name})"}[kind])
    rows = await db.fetch(f"SELECT {', '.join(parts)} FROM {table.name}")
    # PostgreSQL's sums of integers are NUMERIC
    return [int(v) if isinstance(v, Decimal) else v for v in rows[0]]


def _same(source: Sequence[Any], target: Sequence[Any]) -> bool:
    if len(source) != len(target):
        return False
    for a, b in zip(source, target, strict=True):
        if isinstance(a, float) or isinstance(b, float):
            # sums of times may round differently in another order
            if a is None or b is None or not math.isclose(a, b, rel_tol=1e-12):
                return False
        elif a != b:
            return False
    return True


async def _copy(source: Database, target: Database,
                progress: Callable[[str, int], None] | None) -> dict[str, int]:
    copied: dict[str, int] = {}

    async def body(tx: Tx) -> None:
        for table in TABLES:
            have = await tx.fetch(f"SELECT count(*) FROM {table.name}")
            if have[0][0]:
                raise CopyError(f"the target {target.where} is not empty ({table.name} has "
                                f"{have[0][0]} rows): copy only into a new database")
        for table in TABLES:
            copied[table.name] = 0
            async for rows in read_batches(source, table):
                await tx.copy_rows(table.name, table.names, [tuple(r) for r in rows])
                copied[table.name] += len(rows)
                if progress is not None:
                    progress(table.name, copied[table.name])
        await target.after_copy(tx)
        for table in TABLES:
            if not _same(await checksums(source, table), await checksums(tx, table)):
                raise CopyError(f"{table.name} differs after the copy (did the bot write to "
                                f"{source.where} meanwhile? stop it first); nothing was written")

    await target.transaction(body)
    return copied


async def copy_database(
    source: str | Path | DatabaseUrl,
    target: str | Path | DatabaseUrl,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> CopyReport:
    """Copy everything in ``source`` into the empty database ``target`` (both are created or
    migrated as needed). Raises ``CopyError`` if the target holds anything or the copy does not
    match the source, and ``DatabaseUnavailableError`` for a database that cannot be opened."""
    source_store = await Store.open(source)
    try:
        target_store = await Store.open(target)
        try:
            if source_store.where == target_store.where:
                raise CopyError("the source and the target are the same database")
            rows = await _copy(source_store.db, target_store.db, progress)
            chips = await target_store.db.fetch("SELECT coalesce(sum(amount), 0) FROM ledger")
            return CopyReport(source_store.where, target_store.where, rows, int(chips[0][0]))
        finally:
            await target_store.close()
    finally:
        await source_store.close()
