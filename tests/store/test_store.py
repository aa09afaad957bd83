"""The store's own guarantees: one transaction per move, the T12 ledger key, seat claims,
deadlines and queries."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.storage import (
    ChannelTakenError,
    LedgerConflictError,
    MoveCommit,
    Payment,
    SeatInfo,
    SeatTakenError,
    StatDelta,
    Store,
    TableChangedError,
)
from bot.storage import sqlite as sqlite_module
from tests.store.helpers import GUILD

NOW = 1_700_000_000.0


async def playing_table(store: Store, channel: int = 10, players: tuple[int, ...] = (1, 2, 3),
                        *, guild: int = GUILD) -> int:
    record = await store.create_lobby(
        guild_id=guild, channel_id=channel, kind="toy",
        host=SeatInfo(player_id=players[0], name=f"P{players[0]}"), options={},
        turn_seconds=0, lobby_expires_at=None, now=NOW,
    )
    seats = [SeatInfo(player_id=p, name=f"P{p}") for p in players]
    await store.save_lobby(record.id, seats=seats, host_id=players[0], now=NOW)
    await store.start_table(record.id, seats=seats, state="{}", seed=1,
                            start_record={"type": "start"}, by_id=players[0],
                            turn_deadline=None, now=NOW)
    return record.id


def hand_end(table_id: int, counter: int, hand_no: int, winner: int = 1,
             losers: tuple[int, ...] = (2, 3)) -> MoveCommit:
    return MoveCommit(
        table_id=table_id, expected_counter=counter, player_id=winner,
        move={"type": "add", "n": 1}, events=[{"type": "HandEnded", "hand_no": hand_no}],
        state=f'{{"counter": {counter + 1}}}', status="playing",
        payments=tuple(Payment(hand_no=hand_no, payer_id=p, payee_id=winner, amount=5,
                               reason="won") for p in losers),
        stat_deltas=(StatDelta(player_id=winner, counter="hands_won"),),
        now=NOW + counter,
    )


async def test_a_retried_hand_end_is_never_written_twice(store: Store) -> None:
    """T12: the retry of a committed hand end is refused by the counter; the same hand's
    payments under a later counter hit the ledger's unique key and the whole transaction (state,
    move row, stats) rolls back."""
    table_id = await playing_table(store)
    await store.commit_move(hand_end(table_id, 0, hand_no=1))
    with pytest.raises(TableChangedError):
        await store.commit_move(hand_end(table_id, 0, hand_no=1))
    with pytest.raises(LedgerConflictError) as err:
        await store.commit_move(hand_end(table_id, 1, hand_no=1))
    assert err.value.hand_no == 1
    record = await store.table(table_id)
    assert record is not None and record.counter == 1
    assert await store.table_state(table_id) == '{"counter": 1}'
    assert [m.seq for m in await store.moves(table_id)] == [0, 1]
    entries = await store.ledger_entries(GUILD)
    assert sorted((e.hand_no, e.payer_id, e.payee_id, e.amount) for e in entries) == [
        (1, 2, 1, 5), (1, 3, 1, 5)]
    stats = await store.stats(GUILD, "toy")
    assert [(s.player_id, s.count("hands_won")) for s in stats] == [(1, 1)]
    # the next hand goes through
    await store.commit_move(hand_end(table_id, 1, hand_no=2, winner=2, losers=(1, 3)))
    standings = await store.balances(GUILD, "toy")
    assert [(s.player_id, s.net) for s in standings] == [(1, 5), (2, 5), (3, -10)]
    assert sum(s.net for s in standings) == 0


def test_a_payment_moves_chips_between_two_players() -> None:
    with pytest.raises(ValidationError):
        Payment(hand_no=1, payer_id=1, payee_id=1, amount=1, reason="won")
    with pytest.raises(ValidationError):
        Payment(hand_no=1, payer_id=1, payee_id=2, amount=0, reason="won")


async def test_moves_on_a_closed_table_are_refused(store: Store) -> None:
    table_id = await playing_table(store)
    closed = await store.close_table(table_id, status="cancelled", now=NOW)
    assert closed.status == "cancelled"
    with pytest.raises(TableChangedError):
        await store.commit_move(hand_end(table_id, 0, hand_no=1))
    with pytest.raises(TableChangedError):
        await store.close_table(table_id, status="cancelled", now=NOW)
    assert await store.ledger_entries(GUILD) == []


async def test_one_live_table_per_channel(store: Store) -> None:
    table_id = await playing_table(store)
    with pytest.raises(ChannelTakenError) as err:
        await playing_table(store, players=(7, 8))
    assert err.value.existing.id == table_id
    await store.close_table(table_id, status="finished", now=NOW)
    assert await playing_table(store, players=(7, 8)) != table_id


async def test_seat_claims_span_channels_not_servers(store: Store) -> None:
    await playing_table(store, 10, (1, 2))
    with pytest.raises(SeatTakenError) as err:
        await playing_table(store, 11, (3, 2))
    assert (err.value.player_id, err.value.channel_id) == (2, 10)
    # the refused seat change left the lobby as it was
    lobby = await store.live_table(11)
    assert lobby is not None and lobby.record.status == "lobby"
    assert [s.player_id for s in lobby.record.seats] == [3]
    claim = await store.claim_of(GUILD, 2)
    assert claim is not None and claim.channel_id == 10
    await playing_table(store, 12, (1, 2), guild=GUILD + 1)
    computer = SeatInfo(player_id=-1, name="🤖 Astrid", is_computer=True)
    for channel, host in ((13, 4), (14, 5)):
        record = await store.create_lobby(
            guild_id=GUILD, channel_id=channel, kind="toy",
            host=SeatInfo(player_id=host, name="H"), options={}, turn_seconds=0,
            lobby_expires_at=None, now=NOW)
        await store.save_lobby(record.id, seats=[SeatInfo(player_id=host, name="H"), computer],
                               host_id=host, now=NOW)
    assert await store.claim_of(GUILD, -1) is None


async def test_names_outlive_the_seat(store: Store) -> None:
    """The ledger shows a player's latest name even after they left every table."""
    table_id = await playing_table(store)
    await store.commit_move(hand_end(table_id, 0, hand_no=1))
    await store.close_table(table_id, status="finished", now=NOW)
    other = await store.create_lobby(
        guild_id=GUILD, channel_id=11, kind="toy", host=SeatInfo(player_id=2, name="Bo 2.0"),
        options={}, turn_seconds=0, lobby_expires_at=None, now=NOW)
    await store.close_table(other.id, status="cancelled", now=NOW)
    entries = await store.ledger_entries(GUILD, player_id=2)
    assert [(e.payer_name, e.payee_name) for e in entries] == [("Bo 2.0", "P1")]
    standings = {s.player_id: s.name for s in await store.balances(GUILD, "toy")}
    assert standings == {1: "P1", 2: "Bo 2.0", 3: "P3"}


async def test_deadlines(store: Store) -> None:
    first = await playing_table(store, 10, (1, 2))
    second = await playing_table(store, 11, (3, 4))
    lobby = await store.create_lobby(
        guild_id=GUILD, channel_id=12, kind="toy", host=SeatInfo(player_id=5, name="E"),
        options={}, turn_seconds=0, lobby_expires_at=NOW + 50, now=NOW)
    assert await store.set_deadline(first, counter=0, at=NOW + 30)
    assert await store.set_deadline(second, counter=0, at=NOW + 10)
    assert not await store.set_deadline(second, counter=3, at=NOW + 10)
    assert await store.next_deadline() == NOW + 10
    assert await store.due_deadlines(NOW + 9) == []
    due = await store.due_deadlines(NOW + 60)
    assert [(d.table_id, d.what, d.at, d.counter) for d in due] == [
        (second, "turn", NOW + 10, 0), (first, "turn", NOW + 30, 0),
        (lobby.id, "lobby", NOW + 50, None)]
    await store.commit_move(hand_end(second, 0, hand_no=1, winner=3, losers=(4,)))
    assert [d.table_id for d in await store.due_deadlines(NOW + 60)] == [first, lobby.id]
    await store.close_table(lobby.id, status="cancelled", now=NOW)
    assert await store.set_deadline(first, counter=0, at=None)
    assert await store.next_deadline() is None


def wal_frames(db_path: Path) -> int:
    """Frames in the WAL since it last started over (a checkpoint that waits for nothing)."""
    with sqlite3.connect(db_path) as db:
        return int(db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])


def file_size(path: Path) -> int:
    return path.stat().st_size


async def test_commits_leave_checkpoints_to_the_store(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No commit runs SQLite's automatic checkpoint (it would add its writes to that move's
    latency); the store's own checkpoint lets the WAL start over."""
    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY", 10**9)
    store = await Store.open(db_path)
    try:
        assert await store.sqlite.pragma("wal_autocheckpoint") == 0
        table_id = await playing_table(store)
        for counter in range(200):
            await store.commit_move(hand_end(table_id, counter, hand_no=counter + 1))
        # SQLite's default would have checkpointed and started over at 1000 frames
        assert wal_frames(db_path) > 1000
        await store.sqlite.checkpoint()
        await store.commit_move(hand_end(table_id, 200, hand_no=201))
        assert wal_frames(db_path) < 20
    finally:
        await store.close()


async def test_background_checkpoints_and_a_clean_close(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checkpoints run beside the commits, the WAL-restarting kind included (it takes the write
    lock), and closing waits for one in progress without deadlocking, leaving an empty WAL."""
    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY", 10)
    monkeypatch.setattr(sqlite_module, "WAL_LIMIT_FRAMES", 0)
    store = await Store.open(db_path)
    try:
        table_id = await playing_table(store)
        before = file_size(db_path)
        for counter in range(200):
            await store.commit_move(hand_end(table_id, counter, hand_no=counter + 1))
        # on a loaded machine the last background checkpoint may still be running: wait for it
        # (an event, not a sleep) before looking at the file
        running = store.sqlite._checkpoint
        if running is not None:
            await asyncio.shield(running)
        assert file_size(db_path) > before
    finally:
        await store.close()
    assert wal_frames(db_path) == 0
    store = await Store.open(db_path)
    try:
        record = await store.table(table_id)
        assert record is not None and record.counter == 200
    finally:
        await store.close()


async def test_settings_are_stored_per_server_and_per_person(store: Store) -> None:
    assert await store.guild_settings(GUILD) == {} and await store.user_settings(7) == {}
    await store.set_guild_settings(GUILD, {"language": "sv", "games": {"x": {"turn": 30}}},
                                   now=NOW)
    await store.set_user_settings(7, {"pings": False}, now=NOW)
    await store.set_user_settings(7, {"pings": True, "cards": "text"}, now=NOW + 1)
    assert await store.guild_settings(GUILD) == {"language": "sv", "games": {"x": {"turn": 30}}}
    assert await store.guild_settings(GUILD + 1) == {}
    assert await store.user_settings(7) == {"pings": True, "cards": "text"}


async def test_a_new_season_starts_the_ledger_afresh_and_keeps_the_old_one(store: Store) -> None:
    table_id = await playing_table(store)
    await store.commit_move(hand_end(table_id, 0, hand_no=1))
    assert [s.season for s in await store.seasons(GUILD, "toy")] == [1]
    assert await store.start_season(GUILD, "toy", by_id=9, now=NOW) == 2
    assert await store.start_season(GUILD, "other", by_id=9, now=NOW) == 2
    await store.commit_move(hand_end(table_id, 1, hand_no=2, winner=2, losers=(1,)))
    seasons = await store.seasons(GUILD, "toy")
    assert [(s.season, s.started_by) for s in seasons] == [(1, None), (2, 9)]
    old = {b.player_id: b.net for b in await store.balances(GUILD, "toy", season=1)}
    new = {b.player_id: b.net for b in await store.balances(GUILD, "toy", season=2)}
    every = {b.player_id: b.net for b in await store.balances(GUILD, "toy")}
    assert old == {1: 10, 2: -5, 3: -5} and new == {2: 5, 1: -5}
    assert every == {1: 5, 2: 0, 3: -5} and sum(every.values()) == 0
    assert [e.season for e in await store.ledger_entries(GUILD, season=2)] == [2]


async def test_every_change_bumps_the_version_and_the_message_records_what_it_shows(
    store: Store,
) -> None:
    record = await store.create_lobby(
        guild_id=GUILD, channel_id=10, kind="toy", host=SeatInfo(player_id=1, name="P1"),
        options={}, turn_seconds=0, lobby_expires_at=None, now=NOW, locale="sv",
    )
    assert (record.version, record.shown_version, record.locale) == (0, None, "sv")
    await store.set_message_id(record.id, 500)
    assert [r.id for r in await store.tables_behind(10)] == [record.id]
    await store.mark_shown(record.id, 0, pinged=None)
    assert await store.tables_behind(10) == []
    seats = [SeatInfo(player_id=p, name=f"P{p}") for p in (1, 2)]
    lobby = await store.save_lobby(record.id, seats=seats, host_id=1, now=NOW)
    started = await store.start_table(record.id, seats=seats, state="{}", seed=1,
                                      start_record={"type": "start"}, by_id=1,
                                      turn_deadline=None, now=NOW)
    assert (lobby.version, started.version) == (1, 2)
    await store.commit_move(hand_end(record.id, 0, hand_no=1, losers=(2,)))
    await store.set_message_id(record.id, 777, pinged=1)
    await store.mark_shown(record.id, 3, pinged=1)
    await store.mark_shown(record.id, 2, pinged=None)  # a late one never moves it back
    current = await store.table(record.id)
    assert current is not None
    assert (current.version, current.shown_version, current.message_id,
            current.pinged) == (3, 3, 777, 1)
    closed = await store.close_table(record.id, status="cancelled", now=NOW,
                                     note={"why": "stopped", "by": "Anna"})
    assert closed.version == 4 and closed.closed_note == {"why": "stopped", "by": "Anna"}
    assert [r.id for r in await store.tables_behind(10)] == [record.id]


async def test_a_newer_token_is_recorded_with_what_the_message_shows_and_an_older_never(
    store: Store,
) -> None:
    """Where only interactions write a table, each write stores the newest person's token
    that edits it: a restarted process writes the table through it and knows when the table
    falls asleep."""
    record = await store.create_lobby(
        guild_id=GUILD, channel_id=10, kind="toy", host=SeatInfo(player_id=1, name="P1"),
        options={}, turn_seconds=0, lobby_expires_at=None, now=NOW, locale="en",
    )
    await store.set_message_id(record.id, 500, shown_version=0, token=("posted", NOW))
    await store.mark_shown(record.id, 1, pinged=None, token=("clicked", NOW + 300))
    await store.mark_shown(record.id, 2, pinged=None, token=("earlier", NOW + 200))
    await store.mark_shown(record.id, 3, pinged=None)
    current = await store.table(record.id)
    assert current is not None
    assert (current.shown_version, current.message_token, current.message_token_at) == (
        3, "clicked", NOW + 300)


async def test_where_strays_may_stand_is_recorded_with_the_message_until_swept(
    store: Store,
) -> None:
    """Issue 49: a table whose stale messages may still stand is one start-up sweeps, though
    its message shows its latest version; only the sweep that started from there clears it."""
    record = await store.create_lobby(
        guild_id=GUILD, channel_id=10, kind="toy", host=SeatInfo(player_id=1, name="P1"),
        options={}, turn_seconds=0, lobby_expires_at=None, now=NOW, locale="en",
    )
    await store.set_message_id(record.id, 500, shown_version=0)
    assert await store.tables_behind(10) == []
    # a write that shows the table records where strays may stand with it
    await store.mark_shown(record.id, 0, pinged=None, strays_from=500)
    assert [r.strays_from for r in await store.tables_behind(10)] == [500]
    # a message moved keeps the record it is given, a replaced message's included
    await store.set_message_id(record.id, 600, shown_version=0, strays_from=500)
    await store.clear_strays(record.id, 400)  # an older sweep's end clears nothing
    assert [r.strays_from for r in await store.tables_behind(10)] == [500]
    await store.clear_strays(record.id, 500)
    assert await store.tables_behind(10) == []
    current = await store.table(record.id)
    assert current is not None and (current.message_id, current.strays_from) == (600, None)


async def test_finished_tables_page_back_newest_first(store: Store) -> None:
    ids = []
    for n in range(5):
        table_id = await playing_table(store, 10 + n, (1 + 10 * n, 2 + 10 * n))
        await store.close_table(table_id, status="cancelled", now=NOW)
        ids.append(table_id)
    live = await playing_table(store, 20, (90, 91))
    first = await store.finished_tables(GUILD, "toy", limit=3)
    assert [r.id for r in first] == ids[::-1][:3]
    rest = await store.finished_tables(GUILD, "toy", before_id=first[-1].id, limit=3)
    assert [r.id for r in rest] == ids[::-1][3:]
    assert live not in [r.id for r in first + rest]
    assert await store.finished_tables(GUILD, "other") == []


async def test_a_move_commits_on_the_loops_thread_and_waits_for_another_process_off_it(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: a move's transaction runs its statements on the event loop's thread, with no
    trip to a worker thread (each trip held SQLite's lock across passes of a busy loop); only
    waiting for another process's write lock goes to a worker thread, and the move then
    commits once that process lets go."""
    store = await Store.open(db_path)
    try:
        table_id = await playing_table(store)
        trips: list[str] = []
        waiting = asyncio.Event()
        to_the_end = sqlite_module._to_the_end

        async def counted(fn: Any) -> Any:
            trips.append("trip")
            waiting.set()
            return await to_the_end(fn)

        monkeypatch.setattr(sqlite_module, "_to_the_end", counted)
        await store.commit_move(hand_end(table_id, 0, hand_no=1))
        assert trips == []
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            move = asyncio.ensure_future(store.commit_move(hand_end(table_id, 1, hand_no=2)))
            await waiting.wait()
            assert not move.done()
            other.execute("COMMIT")
            await move
        finally:
            other.close()
        assert trips == ["trip"]
        record = await store.table(table_id)
        assert record is not None and record.counter == 2
        assert len(await store.ledger_entries(GUILD, kind="toy")) == 4
    finally:
        await store.close()


async def test_a_channels_webhook_and_which_webhook_posted_the_table_are_kept(
    store: Store,
) -> None:
    record = await store.create_lobby(
        guild_id=GUILD, channel_id=10, kind="toy", host=SeatInfo(player_id=1, name="P1"),
        options={}, turn_seconds=0, lobby_expires_at=None, now=NOW, locale=None,
    )
    assert await store.channel_webhook(10) is None
    await store.set_channel_webhook(10, (900, "secret"), now=NOW)
    await store.set_channel_webhook(11, (901, "other"), now=NOW)
    await store.set_message_id(record.id, 500, webhook=900)
    posted = await store.table(record.id)
    await store.set_channel_webhook(10, (902, "new"), now=NOW)
    await store.set_message_id(record.id, 501)
    by_bot = await store.table(record.id)
    await store.set_channel_webhook(11, None, now=NOW)

    assert posted is not None and posted.message_webhook == 900
    assert by_bot is not None and by_bot.message_webhook is None
    assert await store.channel_webhook(10) == (902, "new")
    assert await store.channel_webhook(11) is None


def _lobby(store: Store, channel: int, host: int) -> Any:
    return store.create_lobby(
        guild_id=GUILD, channel_id=channel, kind="toy", host=SeatInfo(player_id=host, name="P"),
        options={}, turn_seconds=0, lobby_expires_at=None, now=NOW, locale=None)


async def test_transactions_asked_in_one_pass_commit_together_and_fail_alone(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group commits (issue 49): lobbies opened in one pass of the loop take SQLite's write
    lock once and commit once; the one whose channel is taken fails alone, its writes undone,
    and the others stand."""
    store = await Store.open(db_path)
    try:
        taken = await _lobby(store, 10, 1)
        begins: list[int] = []
        begin = sqlite_module.SqliteDatabase._begin

        async def counted(db: sqlite_module.SqliteDatabase) -> None:
            begins.append(1)
            await begin(db)

        monkeypatch.setattr(sqlite_module.SqliteDatabase, "_begin", counted)
        results = await asyncio.gather(_lobby(store, 11, 2), _lobby(store, 10, 3),
                                       _lobby(store, 12, 4), return_exceptions=True)
        assert begins == [1]
        first, refused, third = results
        assert isinstance(refused, ChannelTakenError) and refused.existing.id == taken.id
        assert [first.channel_id, third.channel_id] == [11, 12]  # type: ignore[union-attr]
        for channel, host in ((10, 1), (11, 2), (12, 4)):
            live = await store.live_table(channel)
            assert live is not None and live.record.host_id == host
        # the refused host claimed no seat: they may open a table elsewhere
        assert (await _lobby(store, 13, 3)).host_id == 3
    finally:
        await store.close()


async def test_a_transaction_cancelled_before_its_turn_writes_nothing(db_path: Path) -> None:
    """A caller cancelled while the write lock is busy (a checkpoint restarting the WAL holds
    it) asked for nothing after all: its body never runs, the others' commit."""
    store = await Store.open(db_path)
    try:
        db = store.sqlite
        async with db._write_lock:
            kept = asyncio.ensure_future(_lobby(store, 11, 2))
            dropped = asyncio.ensure_future(_lobby(store, 12, 3))
            await asyncio.sleep(0)  # one pass: both ask for their transaction
            assert len(db._queued) == 2
            dropped.cancel()
            with pytest.raises(asyncio.CancelledError):
                await dropped
        assert (await kept).channel_id == 11
        assert await store.live_table(12) is None
        assert (await _lobby(store, 12, 3)).host_id == 3
    finally:
        await store.close()
