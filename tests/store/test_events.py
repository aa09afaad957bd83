"""Events on a real database (SQLite and PostgreSQL): registration only while the event
registers, every step of a round taken once however often it is asked for (a restarted or a
second process asks again), the strength seam the seating reads, and the running events a
start-up resumes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from bot.games.registry import GAMES
from bot.storage import Shards, Store
from bot.table.events import EventError, EventService, EventSettings
from tests.store.conftest import FakeClock

GUILD = 1 << 40
SETTINGS = EventSettings(rounds=2, seats=3, turn_seconds=0, tables_in=55)


async def test_registration_runs_until_the_start(store: Store, clock: FakeClock) -> None:
    service = EventService(store, GAMES, clock=clock)
    event = await service.create(guild_id=GUILD, channel_id=55, kind="dubb", host_id=1,
                                 settings=SETTINGS, locale="sv", computers=[(-1, "Astrid")])
    assert event.status == "registering" and event.settings["rounds"] == 2
    await service.register(event.id, 10, "Anna")
    await service.register(event.id, 11, "Bo")
    with pytest.raises(EventError) as twice:
        await service.register(event.id, 10, "Anna")
    assert twice.value.why == "registered"
    await service.unregister(event.id, 11)
    with pytest.raises(EventError) as gone:
        await service.unregister(event.id, 11)
    assert gone.value.why == "not_registered"
    await service.register(event.id, 12, "Cem")
    entrants = await service.entrants(event.id)
    assert [(e.player_id, e.is_computer) for e in entrants] == [(-1, True), (10, False),
                                                                 (12, False)]
    assert [e.seq for e in entrants] == sorted(e.seq for e in entrants)

    started = await service.begin(event.id)
    assert (started.status, started.round) == ("running", 1)
    assert [t.players for t in await service.tables(event.id)] == [(-1, 10, 12)]
    for late in (service.register(event.id, 13, "Dag"), service.unregister(event.id, 10),
                 service.begin(event.id)):
        with pytest.raises(EventError) as closed:
            await late
        assert closed.value.why == "closed"
    assert [e.id for e in await service.resuming()] == [event.id]
    assert await service.resuming() == await EventService(
        store, GAMES, shards=Shards(count=2, ids=((GUILD >> 22) % 2,))).resuming()
    assert await EventService(store, GAMES, shards=Shards(
        count=2, ids=(1 - (GUILD >> 22) % 2,))).resuming() == []
    # a running event can be cancelled, once; it is then no longer resumed
    assert (await service.cancel(event.id)).status == "cancelled"
    with pytest.raises(EventError):
        await service.cancel(event.id)
    assert await service.resuming() == []
    assert [e.status for e in await service.closed_events(GUILD, "dubb")] == ["cancelled"]


async def test_each_step_of_a_round_is_taken_once(store: Store, clock: FakeClock) -> None:
    service = EventService(store, GAMES, clock=clock)
    event = await service.create(guild_id=GUILD, channel_id=55, kind="dubb", host_id=1,
                                 settings=SETTINGS, locale=None,
                                 computers=[(-n, f"c{n}") for n in range(1, 7)])
    event = await service.begin(event.id)
    tables = await service.tables(event.id, 1)
    assert [len(t.players) for t in tables] == [3, 3]
    first = tables[0]
    assert await service.set_thread(first, 900)
    assert not await service.set_thread(first, 901), "a second thread is not recorded"
    # a table that could not seat enough players: those present share first place
    scores = await service.score(event, first, None, present=[first.players[0]])
    assert [(s.place, s.points, s.left) for s in scores] == [(1, 2, False), (2, 0, True),
                                                            (2, 0, True)]
    again = await service.score(event, first, None)
    stored = (await service.tables(event.id, 1))[0].result
    assert stored == [s.to_dict() for s in scores] != [s.to_dict() for s in again]
    state = await service.pending(event.id)
    assert not state.complete and [t.table_no for t in state.to_open] == [2]
    await service.score(event, tables[1], None, present=list(tables[1].players))
    state = await service.pending(event.id)
    assert state.complete
    moved = await service.next_round(state.event)
    assert moved.round == 2
    # the second to get there changes nothing: no second round 2
    assert (await service.next_round(state.event)).round == 2
    round2 = await service.tables(event.id, 2)
    # round 1 was [-1, -4, -5] and [-2, -3, -6]; -4 and -5 never sat down: withdrawn
    assert [len(t.players) for t in round2] == [2, 2]
    assert sorted(p for t in round2 for p in t.players) == [-6, -3, -2, -1]
    assert await service.announced(event.id, 1) and not await service.announced(event.id, 1)
    for table in round2:
        await service.score(event, table, None, present=list(table.players))
    final = await service.next_round(await service.event(event.id))
    assert (final.status, final.round) == ("finished", 2)
    assert [e.id for e in await service.closed_events(GUILD, "dubb")] == [event.id]
    # finished: resumed only until its final standings are noted as posted
    assert [e.id for e in await service.resuming()] == [event.id]
    assert await service.announced(event.id, 2)
    assert await service.resuming() == []


async def test_round_one_is_seated_by_the_strengths_it_is_given(
    store: Store, clock: FakeClock
) -> None:
    asked: list[tuple[int, str, tuple[int, ...]]] = []

    async def strengths(store: Store, guild_id: int, kind: str,
                        players: Sequence[int]) -> Mapping[int, float]:
        asked.append((guild_id, kind, tuple(players)))
        return {p: float(-p) for p in players}  # -6 strongest

    service = EventService(store, GAMES, clock=clock, strengths=strengths)
    event = await service.create(guild_id=GUILD, channel_id=55, kind="dubb", host_id=1,
                                 settings=SETTINGS, locale=None,
                                 computers=[(-n, f"c{n}") for n in range(1, 7)])
    await service.begin(event.id)
    assert asked == [(GUILD, "dubb", (-1, -2, -3, -4, -5, -6))]
    assert [t.players for t in await service.tables(event.id, 1)] == [(-6, -3, -2),
                                                                      (-5, -4, -1)]


async def test_a_start_up_resumes_a_finished_event_until_its_final_standings_are_noted(
    store: Store, clock: FakeClock
) -> None:
    """A process killed between an event's finish and its final standings' post leaves the
    event finished with its last round not announced: the next start-up resumes it (and only
    in the process that owns its server), until the post is noted. Each round's standings
    are counted from the rounds up to it, however late they are posted."""
    service = EventService(store, GAMES, clock=clock)
    event = await service.create(guild_id=GUILD, channel_id=55, kind="dubb", host_id=1,
                                 settings=SETTINGS, locale=None,
                                 computers=[(-n, f"c{n}") for n in range(1, 4)])
    event = await service.begin(event.id)
    assert [e.id for e in await service.resuming()] == [event.id]
    (first,) = await service.tables(event.id, 1)
    await service.score(event, first, None, present=list(first.players))
    event = await service.next_round(event)
    (second,) = await service.tables(event.id, 2)
    await service.score(event, second, None, present=list(second.players))
    # those present share first place: 2 points a round each
    assert {s.points for s in await service.standings(event.id, through=1)} == {2}
    assert {s.points for s in await service.standings(event.id)} == {4}
    finished = await service.next_round(await service.event(event.id))
    assert (finished.status, finished.round, finished.announced) == ("finished", 2, 0)
    # no longer running, but its final standings are still to be posted
    assert [e.id for e in await service.resuming()] == [event.id]
    assert [e.id for e in await EventService(store, GAMES, shards=Shards(
        count=2, ids=((GUILD >> 22) % 2,))).resuming()] == [event.id]
    assert await EventService(store, GAMES, shards=Shards(
        count=2, ids=(1 - (GUILD >> 22) % 2,))).resuming() == []
    assert await service.announced(event.id, 1)
    assert [e.id for e in await service.resuming()] == [event.id]
    assert await service.announced(event.id, 2)
    assert await service.resuming() == []
    # a cancelled event is never resumed, whatever it announced
    other = await service.create(guild_id=GUILD, channel_id=55, kind="dubb", host_id=1,
                                 settings=SETTINGS, locale=None,
                                 computers=[(-n, f"c{n}") for n in range(1, 4)])
    await service.begin(other.id)
    await service.cancel(other.id)
    assert await service.resuming() == []
