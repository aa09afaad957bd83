"""Tables and their moves, written: a lobby, its start, each move, the end, and what a table's
message shows. A move is one transaction with its move-log row, its ledger rows and stats
(``ledger.record_results``), its seating and deadline, and a finishing move's ratings
(``ratings.rate_table``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from bot.storage.database import Tx
from bot.storage.errors import ChannelTakenError, SeatTakenError, StoreError, TableChangedError
from bot.storage.jsontext import dumps
from bot.storage.ledger import record_results
from bot.storage.models import MoveCommit, Payment, RatingJob, SeatInfo, StatDelta, TableRecord
from bot.storage.part import StorePart
from bot.storage.ratings import rate_table
from bot.storage.tablerows import (
    LIVE,
    fetch_table,
    guild_of,
    live_in_channel,
    seat_claim,
    seats_json,
)

RACE_RETRIES = 3
"""Tries for an insert whose conflicting row another process removed in between (PostgreSQL
only: SQLite's write lock keeps other writers out of the whole transaction)."""


class TableWrites(StorePart):
    """Every write of a table, from its lobby to its end, and of its message."""

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: str,
        host: SeatInfo,
        options: dict[str, Any],
        turn_seconds: int,
        lobby_expires_at: float | None,
        now: float,
        locale: str | None = None,
        guests: Sequence[SeatInfo] = (),
        rated: bool = True,
    ) -> TableRecord:
        """A new table in the lobby with its host seated (and ``guests`` beside them);
        ``rated``: whether its result may count for the skill ratings.
        Raises ``ChannelTakenError`` if the channel has a live table and ``SeatTakenError`` if
        the host sits at one in this server."""
        seats = (host, *guests)

        async def body(db: Tx) -> TableRecord:
            for _ in range(RACE_RETRIES):
                # the live-table-per-channel key decides; a refused insert changes nothing
                if await db.execute(
                    "INSERT INTO tables (guild_id, channel_id, kind, status, host_id, options, "
                    "seats, created_at, updated_at, lobby_expires_at, turn_seconds, locale, "
                    "rated) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (guild_id, channel_id, kind, host.player_id, dumps(options),
                     seats_json(seats), now, now, lobby_expires_at, turn_seconds, locale,
                     int(rated)),
                ):
                    break
                existing = await live_in_channel(db, channel_id)
                if existing is not None:
                    raise ChannelTakenError(existing)
            else:
                raise StoreError(f"channel {channel_id} keeps changing")
            record = await live_in_channel(db, channel_id)
            assert record is not None
            await self._sync_claims(db, guild_id, record.id, seats)
            await self._save_names(db, guild_id, seats, now)
            return record

        return await self._transaction(body)

    async def save_lobby(
        self, table_id: int, *, seats: Sequence[SeatInfo], host_id: int, now: float,
        expected_version: int | None = None,
    ) -> TableRecord:
        """Replace a lobby's seats (and host). Raises ``TableChangedError`` if the table left the
        lobby or, with ``expected_version``, changed since the caller read it (so a process whose
        copy is behind cannot write over another's change), ``SeatTakenError`` if a new player
        sits elsewhere in the server."""

        async def body(db: Tx) -> TableRecord:
            changed = await db.execute(
                "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?, version = version + 1 "
                "WHERE id = ? AND status = 'lobby' AND version = coalesce(?, version)",
                (seats_json(seats), host_id, now, table_id, expected_version),
            )
            if changed != 1:
                raise TableChangedError(table_id)
            guild_id = await guild_of(db, table_id)
            await self._sync_claims(db, guild_id, table_id, seats)
            await self._save_names(db, guild_id, seats, now)
            return await fetch_table(db, table_id)

        return await self._transaction(body)

    async def start_table(
        self,
        table_id: int,
        *,
        seats: Sequence[SeatInfo],
        state: str,
        seed: int | None,
        deals: dict[str, Any] | None = None,
        start_record: dict[str, Any],
        events: Sequence[dict[str, Any]] = (),
        by_id: int,
        payments: Sequence[Payment] = (),
        stat_deltas: Sequence[StatDelta] = (),
        turn_deadline: float | None,
        now: float,
        to_move: int | None = None,
        expected_version: int | None = None,
    ) -> TableRecord:
        """Lobby → playing at move 0; ``start_record`` (what a replay needs besides the moves:
        seats, options, seed) and the deal's ``events`` become move-log row 0. A deal can end
        its first round at once, so the start may carry ledger rows and stats too. Raises
        ``TableChangedError`` if the table left the lobby or, with ``expected_version``, its
        lobby changed since the caller read it."""

        async def body(db: Tx) -> TableRecord:
            changed = await db.execute(
                "UPDATE tables SET status = 'playing', seats = ?, state = ?, seed = ?, "
                "deals = ?, "
                "counter = 0, version = version + 1, updated_at = ?, lobby_expires_at = NULL, "
                "to_move = ?, turn_deadline = ?, deadline_counter = ? "
                "WHERE id = ? AND status = 'lobby' AND version = coalesce(?, version)",
                (seats_json(seats), state, seed, None if deals is None else dumps(deals),
                 now, to_move, turn_deadline,
                 None if turn_deadline is None else 0, table_id, expected_version),
            )
            if changed != 1:
                raise TableChangedError(table_id)
            await db.execute(
                "INSERT INTO moves (table_id, seq, player_id, move, events, created_at) "
                "VALUES (?, 0, ?, ?, ?, ?)",
                (table_id, by_id, dumps(start_record), dumps(list(events)), now),
            )
            await record_results(db, table_id, payments, stat_deltas, now)
            guild_id = await guild_of(db, table_id)
            await self._sync_claims(db, guild_id, table_id, seats)
            return await fetch_table(db, table_id)

        return await self._transaction(body)

    async def commit_move(self, commit: MoveCommit, *, rating: RatingJob | None = None) -> None:
        """Write one applied move: state, counter, move-log row, ledger rows, stats, seating and
        deadline, all or nothing; a move that finishes a rated table carries its ``rating``,
        recorded with it. Raises ``TableChangedError`` if the table is not playing at
        ``expected_counter`` any more and ``LedgerConflictError`` if a payment of this hand is
        already recorded (T12: never twice)."""
        c = commit
        seq = c.expected_counter + 1

        async def body(db: Tx) -> None:
            changed = await db.execute(
                "UPDATE tables SET state = ?, counter = ?, status = ?, updated_at = ?, "
                "version = version + 1, to_move = ?, turn_deadline = ?, deadline_counter = ?, "
                "seats = COALESCE(?, seats) "
                "WHERE id = ? AND counter = ? AND status = 'playing'",
                (c.state, seq, c.status, c.now, c.to_move, c.turn_deadline,
                 None if c.turn_deadline is None else seq,
                 None if c.seats is None else seats_json(c.seats), c.table_id,
                 c.expected_counter),
            )
            if changed != 1:
                raise TableChangedError(c.table_id)
            await db.execute(
                "INSERT INTO moves (table_id, seq, player_id, move, events, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (c.table_id, seq, c.player_id, dumps(c.move), dumps(c.events), c.now),
            )
            await record_results(db, c.table_id, c.payments, c.stat_deltas, c.now)
            if c.status == "finished":
                await db.execute("DELETE FROM seat_claims WHERE table_id = ?", (c.table_id,))
                if rating is not None:
                    await rate_table(db, c.table_id, c.now, rating)
            elif c.seats is not None:
                guild_id = await guild_of(db, c.table_id)
                await self._sync_claims(db, guild_id, c.table_id, c.seats)
                await self._save_names(db, guild_id, c.seats, c.now)

        await self._transaction(body)

    async def close_table(
        self, table_id: int, *, status: Literal["finished", "cancelled"], now: float,
        note: dict[str, Any] | None = None, expected_version: int | None = None,
        rating: RatingJob | None = None,
    ) -> TableRecord:
        """End a live table without a move (cancel, abandoned lobby); frees its seats. ``note``
        says how it ended, for showing it again later; ``rating`` is its rated result, if it
        has one, recorded with the closing. Raises ``TableChangedError`` if it is not
        live or, with ``expected_version``, changed since the caller read it."""

        async def body(db: Tx) -> TableRecord:
            changed = await db.execute(
                "UPDATE tables SET status = ?, updated_at = ?, turn_deadline = NULL, "
                "deadline_counter = NULL, lobby_expires_at = NULL, version = version + 1, "
                f"closed_note = ? WHERE id = ? AND {LIVE} AND version = coalesce(?, version)",
                (status, now, None if note is None else dumps(note), table_id,
                 expected_version),
            )
            if changed != 1:
                raise TableChangedError(table_id)
            await db.execute("DELETE FROM seat_claims WHERE table_id = ?", (table_id,))
            if rating is not None:
                await rate_table(db, table_id, now, rating)
            return await fetch_table(db, table_id)

        return await self._transaction(body)

    async def set_message_id(self, table_id: int, message_id: int | None, *,
                             pinged: int | None = None, shown_version: int | None = None,
                             webhook: int | None = None, strays_from: int | None = None,
                             token: tuple[str, float] | None = None, run: int | None = None
                             ) -> None:
        """The table's message is now ``message_id``; ``pinged`` is the person it was posted
        to ping (``None``: nobody); ``shown_version`` the version it shows, if known;
        ``webhook`` the channel webhook that posted it (``None``: the bot); ``strays_from``
        where its stale messages may still stand (``TableRecord.strays_from``), recorded with
        the message so that no crash comes between them; ``token`` the interaction token
        that posted it and when Discord issued it (``TableRecord.message_token``; ``None``:
        none did, and the previous message's goes); ``run`` a process run that claims the
        table's posts from now on (``bot.storage.postruns``)."""
        secret, issued = (None, None) if token is None else token

        async def body(db: Tx) -> None:
            await db.execute(
                "UPDATE tables SET message_id = ?, pinged = ?, message_webhook = ?, "
                "shown_version = coalesce(?, shown_version), strays_from = ?, "
                "message_token = ?, message_token_at = ? WHERE id = ?",
                (message_id, pinged, webhook, shown_version, strays_from, secret, issued,
                 table_id),
            )
            if run is not None:
                await db.execute("INSERT INTO posting_runs (table_id, run_id) VALUES (?, ?) "
                                 "ON CONFLICT DO NOTHING", (table_id, run))

        await self._transaction(body)

    async def clear_strays(self, table_id: int, swept: int) -> None:
        """The table's stale messages from ``swept`` on are gone; a record from elsewhere
        since (a newer stray's, not yet swept) stays."""

        async def body(db: Tx) -> None:
            await db.execute("UPDATE tables SET strays_from = NULL WHERE id = ? "
                             "AND strays_from = ?", (table_id, swept))

        await self._transaction(body)

    async def channel_webhook(self, channel_id: int) -> tuple[int, str] | None:
        """The bot's webhook on ``channel_id`` (its id and token), if one is known."""
        rows = list(await self._db.fetch(
            "SELECT webhook_id, token FROM channel_webhooks WHERE channel_id = ?", (channel_id,)))
        return None if not rows else (int(rows[0][0]), str(rows[0][1]))

    async def set_channel_webhook(self, channel_id: int, webhook: tuple[int, str] | None, *,
                                  now: float) -> None:
        """Remember the bot's webhook on ``channel_id`` (``None``: forget it, it is gone)."""

        async def body(db: Tx) -> None:
            await db.execute("DELETE FROM channel_webhooks WHERE channel_id = ?", (channel_id,))
            if webhook is not None:
                await db.execute(
                    "INSERT INTO channel_webhooks (channel_id, webhook_id, token, created_at) "
                    "VALUES (?, ?, ?, ?)", (channel_id, webhook[0], webhook[1], now))

        await self._transaction(body)

    async def mark_shown(self, table_id: int, version: int, *, pinged: int | None,
                         strays_from: int | None = None,
                         token: tuple[str, float] | None = None) -> None:
        """The table message now shows ``version`` of the table (never moves backwards), and
        the turn it pinged for is ``pinged``'s (``None``: that turn is over); ``strays_from``
        (unless ``None``) is where its stale messages may stand, recorded with it so that no
        crash comes between them (``TableRecord.strays_from``); ``token`` (unless ``None``)
        a newer interaction token that edits the message, and when Discord issued it
        (``TableRecord.message_token``: an older one never replaces it)."""

        async def body(db: Tx) -> None:
            await db.execute(
                "UPDATE tables SET shown_version = ?, pinged = ? WHERE id = ? "
                "AND (shown_version IS NULL OR shown_version < ?)",
                (version, pinged, table_id, version),
            )
            if strays_from is not None:
                await db.execute("UPDATE tables SET strays_from = ? WHERE id = ?",
                                 (strays_from, table_id))
            if token is not None:
                await db.execute(
                    "UPDATE tables SET message_token = ?, message_token_at = ? WHERE id = ? "
                    "AND (message_token_at IS NULL OR message_token_at < ?)",
                    (token[0], token[1], table_id, token[1]))

        await self._transaction(body)

    async def set_deadline(self, table_id: int, *, counter: int, at: float | None) -> bool:
        """Set (or clear, ``at=None``) the turn deadline of a playing table that is still at move
        ``counter``; ``False`` if it is not."""

        async def body(db: Tx) -> bool:
            changed = await db.execute(
                "UPDATE tables SET turn_deadline = ?, deadline_counter = ? "
                "WHERE id = ? AND status = 'playing' AND counter = ?",
                (at, None if at is None else counter, table_id, counter),
            )
            return changed == 1

        return await self._transaction(body)

    async def _sync_claims(
        self, db: Tx, guild_id: int, table_id: int, seats: Iterable[SeatInfo]
    ) -> None:
        want = {s.player_id for s in seats if not s.is_computer}
        rows = await db.fetch(
            "SELECT player_id FROM seat_claims WHERE table_id = ?", (table_id,)
        )
        have = {r[0] for r in rows}
        if have - want:
            await db.executemany(
                "DELETE FROM seat_claims WHERE guild_id = ? AND player_id = ? AND table_id = ?",
                [(guild_id, p, table_id) for p in sorted(have - want)],
            )
        # in key order, like every transaction, so two of them never wait for each other
        for player_id in sorted(want - have):
            await self._claim_seat(db, guild_id, player_id, table_id)

    async def _claim_seat(self, db: Tx, guild_id: int, player_id: int, table_id: int) -> None:
        for _ in range(RACE_RETRIES):
            # the (server, player) key decides, even against a claim not yet committed
            if await db.execute(
                "INSERT INTO seat_claims (guild_id, player_id, table_id) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (guild_id, player_id, table_id),
            ):
                return
            claim = await seat_claim(db, guild_id, player_id)
            if claim is not None:
                raise SeatTakenError(player_id, claim.table_id, claim.channel_id)
        raise StoreError(f"the seat of player {player_id} keeps changing")

    async def _save_names(
        self, db: Tx, guild_id: int, seats: Iterable[SeatInfo], now: float
    ) -> None:
        await db.executemany(
            "INSERT INTO player_names (guild_id, player_id, name, is_computer, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, player_id) DO UPDATE SET "
            "name = excluded.name, is_computer = excluded.is_computer, "
            "updated_at = excluded.updated_at",
            [(guild_id, s.player_id, s.name, int(s.is_computer), now)
             for s in sorted(seats, key=lambda s: s.player_id)],
        )
