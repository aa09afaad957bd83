"""An event survives SIGKILL: ``python -m bot`` is killed twice in round 2 of a Dubb event —
once as the round's first thread appears (its tables half opened), once while its games are
in play — and started again each time; the event completes, every table of it is played to
its end exactly as its move log says, and the final standings are the ones its tables'
results give (docs/events.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.games.registry import GAMES
from bot.storage import Store
from bot.table.fairdeal import deals_of, engine_from_start
from tests.e2e.conftest import SubprocessBot, World
from tests.e2e.table_card import card
from tests.e2e.test_events import dubb_outcomes, expected_lines, final_standings, open_event

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

WITHIN = 60.0


def round_two_seated(driver: Driver, world: World) -> bool:
    return any("round 2**" in m.content for m in driver.channel_messages(world.channel))


async def test_sigkill_in_round_two_and_the_event_completes(
    fake: FakeDiscord, driver: Driver, world: World, tmp_path: Path
) -> None:
    bot = SubprocessBot(fake, driver, tmp_path, env={"COMPUTER_PAUSE": "0.02"})
    # a killed bot leaves requests half made and its successor meets buckets it did not see
    driver.allow_failed_interactions()
    driver.allow_rest_errors()
    driver.allow_rate_limits()
    bot.errors_expected = True
    await bot.start()
    try:
        host = driver.add_user("Host Hedvig", admin=True)
        message = await open_event(driver, world.channel, host, "dubb",
                                   {"rounds": 3, "seats": 3, "computers": 6, "turn_time": 0})
        await driver.click(host, message, "Start")

        # the first kill: as soon as a thread of round 2 exists
        await driver.wait_for(lambda: any("round 2" in c.name for c in world.guild.threads()),
                              within=WITHIN, what="a round 2 thread")
        await bot.kill()
        await bot.start()
        # the second: round 2's tables are all open and being played
        await driver.wait_for(lambda: round_two_seated(driver, world), within=WITHIN,
                              what="round 2 to be seated")
        await bot.kill()
        await bot.start()
        done = await driver.wait_for(lambda: final_standings(driver, world.channel),
                                     within=WITHIN, what="the final standings")
        await driver.wait_for(lambda: "The event is over" in json.dumps(
            fake.messages[message.id].components), within=WITHIN, what="the event to close")
    finally:
        await bot.stop()

    store = await Store.open(tmp_path / "kortbord.sqlite3")
    try:
        events = await store.events.of_guild(world.guild.id, "dubb")
        assert len(events) == 1
        event = events[0]
        assert (event.status, event.round, event.announced) == ("finished", 3, 3)
        tables = await store.events.tables(event.id)
        assert [t.round for t in tables] == [1, 1, 2, 2, 3, 3]
        for table in tables:
            assert table.table_id is not None and table.result is not None
            # the stored game is the replay of its move log: nothing lost, nothing twice
            record = await store.table(table.table_id)
            assert record is not None and record.status == "finished"
            records = await store.moves(table.table_id)
            assert [r.seq for r in records] == list(range(len(records)))
            engine = engine_from_start(GAMES["dubb"], records[0].move, deals_of(record))
            for move in records[1:]:
                engine.apply(move.player_id, GAMES["dubb"].moves.from_dict(move.move))
            state = await store.table_state(table.table_id)
            assert state is not None
            assert json.loads(state) == json.loads(json.dumps(engine.to_stored()))
        outcomes = await dubb_outcomes(store, event.id)
        entrants = await store.events.entrants(event.id)
        names = {e.player_id: f"🤖 {e.name}" for e in entrants}
        expected = expected_lines([(s, [[p] for p in r], g) for _, s, r, g in outcomes], names,
                                  [e.player_id for e in entrants], seats=3)
        assert str((card(done) or {})["description"]).splitlines() == expected
        # each round's standings posted once at least, the final ones once
        titles = [str(c.get("title")) for m in driver.channel_messages(world.channel)
                  if (c := card(m))]
        assert sum("final standings" in t for t in titles) == 1
        assert all(any(f"after round {n}" in t for t in titles) for n in (1, 2))
    finally:
        await store.close()
