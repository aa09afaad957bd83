"""The table service on a real database (SQLite and PostgreSQL), with the toy engine."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from bot.gamekit.contract import RuleError
from bot.storage import MoveCommit, RatingJob, Store
from bot.table import (
    AlreadyJoinedError,
    AlreadySeatedError,
    ChannelBusyError,
    GameStartedError,
    InvalidOptionsError,
    NoTableError,
    NotAllowedError,
    NotEnoughPlayersError,
    NotHostError,
    NotPlayingError,
    NotSeatedError,
    StaleMoveError,
    TableFullError,
    TableService,
)
from tests.store.conftest import FakeClock
from tests.store.helpers import GUILD, check_against_log, play_to_end, started_table
from tests.store.toy import (
    TOY,
    Add,
    HandEnded,
    Join,
    Leave,
    Sabotage,
    Timeout,
    ToyEngine,
    ToyRules,
)
from tests.unit.test_people_first import HeldStep

# -- lobby ---------------------------------------------------------------------------------------


async def test_lobby_to_start(service: TableService, store: Store) -> None:
    snap = await service.open_lobby(GUILD, 10, "toy", 1, "Anna", {"hands": 2})
    assert snap.status == "lobby" and snap.engine is None and snap.host_id == 1
    await service.join(10, 2, "Bo")
    result = await service.join(10, 3, "Cem")
    assert [s.name for s in result.snapshot.seats] == ["Anna", "Bo", "Cem"]
    started = await service.start(10, 1)
    assert started.counter == 0 and started.snapshot.status == "playing"
    assert isinstance(started.snapshot.engine, ToyEngine)
    assert started.snapshot.options.model_dump() == {"hands": 2, "stake": 1}
    log = await store.moves(snap.table_id)
    assert len(log) == 1 and log[0].move["seed"] == 12345
    assert [s["player_id"] for s in log[0].move["seats"]] == [1, 2, 3]
    record = await store.table(snap.table_id)
    assert record is not None and record.seed == 12345 and record.lobby_expires_at is None


async def test_busy_channel_says_where_the_table_is(service: TableService) -> None:
    snap = await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    await service.message_moved(snap.table_id, 10, 555, None)
    with pytest.raises(ChannelBusyError) as err:
        await service.open_lobby(GUILD, 10, "toy", 2, "Bo")
    assert err.value.message_id == 555 and err.value.table_id == snap.table_id
    text = err.value.message.render("en")
    assert f"/{GUILD}/10/555" in text and "Race lobby" in text


async def test_a_lobby_in_a_new_channel_reads_nothing_first_and_a_table_held_elsewhere_refuses(
        store: Store, make_service: Callable[[Store], TableService],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 49: opening a lobby asks the database nothing before its write (the write's own
    live-table-per-channel key decides), and a table this process does not hold — another
    process's, or one from before a restart — still refuses it, saying where it is."""
    before = make_service(store)
    snap = await before.open_lobby(GUILD, 10, "toy", 1, "Anna")
    await before.message_moved(snap.table_id, 10, 555, None)
    service = make_service(store)  # holds no table yet
    reads: list[int] = []
    live_table = store.live_table

    async def counted(channel_id: int) -> object:
        reads.append(channel_id)
        return await live_table(channel_id)

    monkeypatch.setattr(store, "live_table", counted)
    with pytest.raises(ChannelBusyError) as err:
        await service.open_lobby(GUILD, 10, "toy", 2, "Bo")
    assert err.value.message_id == 555 and err.value.table_id == snap.table_id
    opened = await service.open_lobby(GUILD, 11, "toy", 2, "Bo")
    assert reads == []
    # the new lobby is held: the next one in its channel is refused without a read either
    with pytest.raises(ChannelBusyError) as err:
        await service.open_lobby(GUILD, 11, "toy", 3, "Cem")
    assert err.value.table_id == opened.table_id and reads == []


async def test_one_table_per_player_per_server(service: TableService) -> None:
    await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    with pytest.raises(AlreadySeatedError) as err:
        await service.open_lobby(GUILD, 11, "toy", 1, "Anna")
    assert err.value.channel_id == 10 and "<#10>" in err.value.message.render("en")
    await service.open_lobby(GUILD, 11, "toy", 2, "Bo")
    with pytest.raises(AlreadySeatedError):
        await service.join(11, 1, "Anna")
    # another server is another world
    await service.open_lobby(GUILD + 1, 20, "toy", 1, "Anna")
    seat = await service.table_of_player(GUILD, 1)
    assert seat is not None and seat.channel_id == 10


async def test_join_errors(service: TableService) -> None:
    await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    with pytest.raises(AlreadyJoinedError):
        await service.join(10, 1, "Anna")
    for p in range(2, 6):
        await service.join(10, p, f"P{p}")
    with pytest.raises(TableFullError):
        await service.join(10, 6, "P6")
    with pytest.raises(NoTableError):
        await service.join(99, 6, "P6")


async def test_join_after_start_needs_a_join_move(store: Store, clock: FakeClock) -> None:
    class NoJoinRules(ToyRules):
        def join_move(self, name: str) -> None:
            return None

    service = TableService(store, {"toy": replace(TOY, rules=NoJoinRules())}, clock=clock)
    await started_table(service, 10)
    with pytest.raises(GameStartedError):
        await service.join(10, 9, "Late")


async def test_lobby_leave_passes_host_and_last_human_cancels(service: TableService) -> None:
    await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    await service.join(10, 2, "Bo")
    await service.add_computer(10, 1, -1, "🤖 Astrid")
    result = await service.leave(10, 1)
    assert result.snapshot.host_id == 2
    assert [s.player_id for s in result.snapshot.seats] == [2, -1]
    assert await service.table_of_player(GUILD, 1) is None
    with pytest.raises(NotSeatedError):
        await service.leave(10, 1)
    result = await service.leave(10, 2)
    assert result.snapshot.status == "cancelled"
    assert await service.get(10) is None
    await service.open_lobby(GUILD, 10, "toy", 2, "Bo")


async def test_computers_need_the_host_and_never_claim_a_seat(service: TableService) -> None:
    await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    await service.open_lobby(GUILD, 11, "toy", 2, "Bo")
    with pytest.raises(NotHostError):
        await service.add_computer(10, 2, -1, "🤖 Astrid")
    with pytest.raises(ValueError, match="negative"):
        await service.add_computer(10, 1, 5, "🤖 Astrid")
    await service.add_computer(10, 1, -1, "🤖 Astrid")
    result = await service.add_computer(11, 2, -1, "🤖 Astrid")
    assert result.snapshot.seats[-1].is_computer
    started = await service.start(11, 2)
    assert started.snapshot.status == "playing"


async def test_cancel_rights_and_freed_seats(service: TableService) -> None:
    await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    await service.join(10, 2, "Bo")
    with pytest.raises(NotAllowedError):
        await service.cancel(10, 2, may_manage=False)
    snap = await service.cancel(10, 2, may_manage=True)
    assert snap.status == "cancelled"
    await service.open_lobby(GUILD, 11, "toy", 2, "Bo")
    await started_table(service, 12, (3, 4))
    snap = await service.cancel(12, 3, may_manage=False)
    assert snap.status == "cancelled"
    with pytest.raises(NoTableError):
        await service.apply(12, 4, Add(1))
    assert await service.table_of_player(GUILD, 4) is None


async def test_start_rules(service: TableService) -> None:
    # the player is told plainly; what exactly was wrong goes to the log
    with pytest.raises(InvalidOptionsError, match="don't go together"):
        await service.open_lobby(GUILD, 10, "toy", 1, "Anna", {"hands": 0})
    with pytest.raises(ValueError, match="unknown game kind"):
        await service.open_lobby(GUILD, 10, "chess", 1, "Anna")
    await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    with pytest.raises(NotEnoughPlayersError):
        await service.start(10, 1)
    await service.join(10, 2, "Bo")
    with pytest.raises(NotHostError):
        await service.start(10, 2)
    with pytest.raises(NotPlayingError):
        await service.apply(10, 1, Add(1))
    await service.start(10, 1)
    with pytest.raises(GameStartedError):
        await service.start(10, 1)


# -- moves ---------------------------------------------------------------------------------------


async def test_apply_commits_move_state_ledger_and_stats(service: TableService,
                                                         store: Store) -> None:
    table_id = await started_table(service, 10, options={"hands": 2, "stake": 5})
    moves = await play_to_end(service, 10, random.Random(1))
    assert moves > 0
    record = await store.table(table_id)
    assert record is not None and record.status == "finished" and record.counter == moves
    await check_against_log(store, table_id)
    stats = {s.player_id: s for s in await store.stats(GUILD, "toy")}
    assert {p: s.count("games_played") for p, s in stats.items()} == {1: 1, 2: 1, 3: 1}
    assert sum(s.count("losses") for s in stats.values()) == 1
    assert all(s.count("hands_played") == 2 for s in stats.values())
    assert sum(s.count("hands_won") for s in stats.values()) == 2
    assert sum(v for s in stats.values() for k, v in s.counters.items()
               if k.startswith("won_by:")) == 2
    # the seats are free again
    assert await service.table_of_player(GUILD, 1) is None


async def test_a_snapshot_is_made_once_per_change(service: TableService) -> None:
    """Looking at a table makes its snapshot once per change (issue 16): the answer, the
    computers and the timers all look at every move."""
    await started_table(service, 10)
    first = await service.get(10)
    assert first is not None and await service.get(10) is first
    moved = await service.apply(10, 1, Add(1))
    now = await service.get(10)
    assert now is moved.snapshot and now is not first
    assert now.counter == first.counter + 1
    record = moved.snapshot
    await service.message_shows(record.table_id, 10, record.version, pinged=2)
    shown = await service.get(10)
    assert shown is not None and shown is not now and shown.pinged == 2


async def test_a_move_waits_for_its_step_with_the_table_locked(
        store: Store, clock: FakeClock) -> None:
    """What follows a move is drawn from its snapshot without awaiting, in the step of the loop
    it waits for (issue 16); meanwhile nothing else may change the table it draws."""
    steps = HeldStep()
    service = TableService(store, {"toy": TOY}, clock=clock, seed_source=lambda: 12345,
                           people=steps)
    await started_table(service, 10)
    move = asyncio.create_task(service.apply(10, 1, Add(1)))
    await asyncio.wait_for(steps.asked.wait(), 10)
    look = asyncio.create_task(service.get(10))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not move.done() and not look.done()
    steps.open.set()
    moved = await asyncio.wait_for(move, 10)
    assert await asyncio.wait_for(look, 10) is moved.snapshot


async def test_stale_and_duplicate_counters_are_rejected(service: TableService,
                                                         store: Store) -> None:
    table_id = await started_table(service, 10)
    result = await service.apply(10, 1, Add(1), expected_counter=0)
    assert result.counter == 1
    with pytest.raises(StaleMoveError) as err:
        await service.apply(10, 2, Add(1), expected_counter=0)
    assert err.value.actual == 1
    # a double click: two submissions made against the same counter, exactly one applies
    outcomes = await asyncio.gather(
        service.apply(10, 2, Add(2), expected_counter=1),
        service.apply(10, 2, Add(2), expected_counter=1),
        return_exceptions=True,
    )
    assert sum(isinstance(o, StaleMoveError) for o in outcomes) == 1
    record = await store.table(table_id)
    assert record is not None and record.counter == 2
    assert [m.move for m in (await store.moves(table_id))[1:]] == [
        {"type": "add", "n": 1}, {"type": "add", "n": 2}]


async def test_rule_error_changes_nothing(service: TableService, store: Store) -> None:
    table_id = await started_table(service, 10)
    await service.apply(10, 1, Add(2))
    snap = await service.get(10)
    assert snap is not None
    before = json.dumps(snap.engine.to_stored())
    with pytest.raises(RuleError) as err:
        await service.apply(10, 2, Sabotage())
    assert err.value.ruling == "X9"
    with pytest.raises(RuleError):
        await service.apply(10, 3, Add(1))
    after = await service.get(10)
    assert after is not None and after.counter == 1
    assert json.dumps(after.engine.to_stored()) == before
    await service.apply(10, 2, Add(1), expected_counter=1)
    await check_against_log(store, table_id)


class FlakyStore(Store):
    """Fails the next commit: before writing (``when='before'``) or after committing, as a
    cancelled caller would see it (``when='after'``)."""

    fail: str | None = None

    async def commit_move(self, commit: MoveCommit, *, rating: RatingJob | None = None) -> None:
        when, self.fail = self.fail, None
        if when == "before":
            raise OSError("disk on fire")
        await super().commit_move(commit, rating=rating)
        if when == "after":
            raise OSError("lost the reply")


@pytest.mark.parametrize("when", ["before", "after"])
async def test_failed_write_never_leaves_memory_diverged(
    db_url: str, make_service: Callable[[Store], TableService], when: str
) -> None:
    store = await FlakyStore.open(db_url)
    try:
        service = make_service(store)
        table_id = await started_table(service, 10)
        await service.apply(10, 1, Add(1))
        store.fail = when
        with pytest.raises(OSError):
            await service.apply(10, 2, Add(3), expected_counter=1)
        snap = await service.get(10)
        record = await store.table(table_id)
        state = await store.table_state(table_id)
        assert snap is not None and record is not None and state is not None
        assert snap.counter == record.counter == (1 if when == "before" else 2)
        assert snap.engine.to_stored() == json.loads(state)
        await play_to_end(service, 10, random.Random(2))
        await check_against_log(store, table_id)
    finally:
        await store.close()


async def test_concurrent_moves_on_one_channel_apply_in_order(service: TableService,
                                                              store: Store) -> None:
    table_id = await started_table(service, 10, options={"hands": 50})
    snap = await service.get(10)
    assert snap is not None
    shadow = ToyEngine.from_stored(json.loads(json.dumps(snap.engine.to_stored())))
    planned = []
    for i in range(60):
        player, move = shadow.to_move, Add(1 + i % 3)
        assert player is not None
        shadow.apply(player, move)
        planned.append((player, move))
    results = await asyncio.gather(*(service.apply(10, p, m) for p, m in planned))
    assert [r.counter for r in results] == list(range(1, 61))
    log = await store.moves(table_id)
    assert [(m.player_id, m.move["n"]) for m in log[1:]] == [(p, m.n) for p, m in planned]
    await check_against_log(store, table_id)


async def test_hundred_channels_in_parallel(service: TableService, store: Store) -> None:
    async def one(channel: int) -> int:
        players = (channel * 10 + 1, channel * 10 + 2, channel * 10 + 3)
        table_id = await started_table(service, channel, players, options={"hands": 2})
        await play_to_end(service, channel, random.Random(channel))
        return table_id

    table_ids = await asyncio.gather(*(one(c) for c in range(1, 101)))
    assert len(set(table_ids)) == 100
    for table_id in table_ids:
        record = await store.table(table_id)
        assert record is not None and record.status == "finished"
        await check_against_log(store, table_id)
    standings = await service.balances(GUILD, "toy")
    assert len(standings) == 300 and sum(s.net for s in standings) == 0


async def test_other_channels_do_not_wait_for_a_busy_one(service: TableService) -> None:
    await started_table(service, 10, (1, 2))
    await started_table(service, 11, (3, 4))
    async with service._lock(10):
        result = await service.apply(11, 3, Add(1))
    assert result.counter == 1


async def test_joining_and_leaving_mid_game_moves_the_seat_claims(service: TableService,
                                                                  store: Store) -> None:
    table_id = await started_table(service, 10, (1, 2))
    await service.open_lobby(GUILD, 11, "toy", 7, "Gus")
    with pytest.raises(AlreadySeatedError):
        await service.join(10, 7, "Gus")
    result = await service.join(10, 3, "Cem")
    assert [s.player_id for s in result.snapshot.seats] == [1, 2, 3]
    seat = await service.table_of_player(GUILD, 3)
    assert seat is not None and seat.id == table_id
    result = await service.leave(10, 1)
    assert [s.player_id for s in result.snapshot.seats] == [2, 3]
    assert any(isinstance(e, HandEnded) and e.how == "forfeit" for e in result.events)
    assert await service.table_of_player(GUILD, 1) is None
    record = await store.table(table_id)
    assert record is not None and [s.player_id for s in record.seats] == [2, 3]
    result = await service.leave(10, 2)
    assert result.snapshot.status == "finished"
    assert await service.table_of_player(GUILD, 3) is None
    await check_against_log(store, table_id)


async def test_a_join_move_cannot_take_a_seat_held_elsewhere(service: TableService,
                                                             store: Store) -> None:
    """The seat claim is part of the move's transaction: a direct ``Join`` by a player seated
    in another channel is rolled back whole."""
    table_id = await started_table(service, 10, (1, 2))
    await service.open_lobby(GUILD, 11, "toy", 7, "Gus")
    with pytest.raises(AlreadySeatedError):
        await service.apply(10, 7, Join("Gus"))
    snap = await service.get(10)
    assert snap is not None and snap.counter == 0 and len(snap.engine.seats) == 2
    await check_against_log(store, table_id)


# -- restart, deadlines --------------------------------------------------------------------------


async def test_restart_loads_lazily_and_carries_on(
    db_url: str, make_service: Callable[[Store], TableService]
) -> None:
    store = await Store.open(db_url)
    service = make_service(store)
    table_id = await started_table(service, 10)
    await service.open_lobby(GUILD, 11, "toy", 9, "Ida")
    await service.apply(10, 1, Add(2))
    snap = await service.get(10)
    assert snap is not None
    before = snap.engine.to_stored()
    await store.close()

    store = await Store.open(db_url)
    try:
        service = make_service(store)
        unfinished = await service.unfinished_tables()
        assert [(r.channel_id, r.status) for r in unfinished] == [(10, "playing"), (11, "lobby")]
        snap = await service.get(10)
        assert snap is not None and snap.counter == 1 and snap.engine.to_stored() == before
        await play_to_end(service, 10, random.Random(3))
        await check_against_log(store, table_id)
        assert [r.channel_id for r in await service.unfinished_tables()] == [11]
    finally:
        await store.close()


async def test_turn_deadlines_are_stored_rearmed_and_fired_once(
    db_url: str, make_service: Callable[[Store], TableService], clock: FakeClock
) -> None:
    store = await Store.open(db_url)
    service = make_service(store)
    await started_table(service, 10, turn_seconds=30)
    start = clock.now
    assert await service.due_deadlines() == []
    assert await service.next_deadline() == start + 30
    clock.advance(10)
    result = await service.apply(10, 1, Add(1))
    assert result.snapshot.turn_deadline == clock.now + 30
    await store.close()

    # the bot was down while the deadline passed: it fires once after the restart
    clock.advance(100)
    store = await Store.open(db_url)
    try:
        service = make_service(store)
        due = await service.due_deadlines()
        assert [(d.what, d.channel_id, d.counter) for d in due] == [("turn", 10, 1)]
        assert await service.expire_turn(10, 0) is None
        fired = await service.expire_turn(10, 1)
        assert fired is not None and fired.counter == 2
        assert [e.n for e in fired.events if hasattr(e, "n")] == [1]
        assert fired.events[0].player == 2
        assert await service.expire_turn(10, 1) is None
        assert await service.due_deadlines() == []
        assert await service.set_deadline(10, None)
        assert await service.next_deadline() is None
    finally:
        await store.close()


async def test_idle_lobby_expires(service: TableService, clock: FakeClock) -> None:
    await service.open_lobby(GUILD, 10, "toy", 1, "Anna")
    assert await service.expire_lobby(10) is None
    clock.advance(15 * 60)
    due = await service.due_deadlines()
    assert [(d.what, d.channel_id) for d in due] == [("lobby", 10)]
    snap = await service.expire_lobby(10)
    assert snap is not None and snap.status == "cancelled"
    assert await service.due_deadlines() == []
    assert await service.table_of_player(GUILD, 1) is None


async def test_timeout_move_goes_through_the_engine(service: TableService) -> None:
    await started_table(service, 10, (1, 2))
    result = await service.apply(10, 1, Timeout(), expected_counter=0)
    assert result.counter == 1 and result.events[0].n == 1
    with pytest.raises(NotSeatedError):
        await service.leave(10, 5)
    assert (await service.leave(10, 2)).snapshot.status == "finished"
    assert await service.get(10) is None
    with pytest.raises(NoTableError):
        await service.apply(10, 1, Leave())


async def test_stop_works_even_when_the_stored_game_cannot_be_loaded(
    service: TableService, store: Store, make_service: Callable[[Store], TableService]
) -> None:
    """Issue 8: the host can always stop a table, even one in a strange state."""
    table_id = await started_table(service, 10)
    await store.commit_move(MoveCommit(
        table_id=table_id, expected_counter=0, player_id=1, move={"type": "add", "n": 1},
        events=[], state='{"format_version": 99}', status="playing", now=1.0))
    fresh = make_service(store)
    with pytest.raises(ValueError, match="unknown toy state version"):
        await fresh.get(10)
    with pytest.raises(NotAllowedError):
        await fresh.cancel(10, 2, may_manage=False)
    snap = await fresh.cancel(10, 1, may_manage=False)
    assert snap.status == "cancelled" and snap.engine is None
    assert await fresh.get(10) is None
    assert await fresh.table_of_player(GUILD, 2) is None
