"""Crash safety end to end: ``python -m bot`` is SIGKILLed at random moments while people play
Dubb and Tonk through the fake Discord, then started again.

Checked afterwards, from the database: every move a player saw acknowledged is in the move log
exactly where it was made (the counter its button carried) and by that player; each table's
stored state is exactly the replay of its move log, so nothing was applied twice or lost
half-way; every game can be played on to its end; each Tonk hand's ledger rows are exactly the
payments its result announced (none missing, none doubled) and sum to zero.
"""

from __future__ import annotations

import contextlib
import os
import random

import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.driver import DriverError, InteractionFailed
from bot.storage import Store
from tests.e2e.conftest import SubprocessBot, World
from tests.e2e.table_players import check_table, hands_ended, open_game, play_moves

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

KILL_POINTS = int(os.environ.get("KORTBORD_CRASH_KILLS", "48"))
"""48 kills in the suite (where a kill lands among the clicks in flight varies from run to run
with timing); ``KORTBORD_CRASH_KILLS=400 scripts/test tests/e2e/test_crash.py`` is the deep
run. It was 100, then 64, but the suite has to stay under five minutes on two cores: with 64
the kills were 155 of its workers' 1,020 seconds, and the whole ran 276–300 s here."""
PARTS = 4
"""The kill points are split over this many tests of their own tables and seeds, so that they run
on several of the suite's workers at once. Four parts rather than two: a two-minute test that a
worker starts late held up the whole suite's end."""
DEADLINE = 1.0  # the fake's interaction deadline, shortened so a killed bot's clicks fail fast


@pytest.mark.machine_speed
# 12 kills and restarts of a process take about 15 s alone and up to 45 s beside three other
# workers on two cores (50 took up to 212 s); a deep run asks for more time
@pytest.mark.timeout(max(600, KILL_POINTS * 10))
@pytest.mark.parametrize("part", range(PARTS))
async def test_sigkill_at_random_moments_loses_and_doubles_nothing(
    subprocess_bot: SubprocessBot, driver: Driver, fake: FakeDiscord, world: World, part: int
) -> None:
    rng = random.Random(20261129 + part)
    kill_points = KILL_POINTS // PARTS
    fake.interaction_deadline = DEADLINE
    # a killed bot leaves clicks unanswered and edits unsent: that is the point of this test
    driver.allow_failed_interactions()
    driver.allow_rest_errors()
    # A restarted process does not know the buckets its predecessor emptied, so its first
    # edits in a busy channel get 429s, as they would on Discord (reported to the lead).
    driver.allow_rate_limits()
    subprocess_bot.errors_expected = True
    await subprocess_bot.start()

    dubb_channel = driver.add_channel(world.guild, "dubb-crash")
    tonk_channel = driver.add_channel(world.guild, "tonk-crash")
    if part % 2 == 1:
        # tables also written through the channels' webhooks (issue 32): a kill between a
        # webhook's post and its record leaves a stray the next process sweeps through it
        for channel in (dubb_channel, tonk_channel):
            driver.set_bot_webhooks(channel, True)
    extra = [driver.add_user(name) for name in ("Dag", "Eva")]
    players = [
        await open_game(driver, dubb_channel, "dubb", [world.anna, world.bo, world.cem]),
        await open_game(driver, tonk_channel, "tonk", [world.mod, *extra]),
    ]

    for _ in range(kill_points):
        # the kill comes right after the n-th acknowledgement, while other clicks are in flight
        with contextlib.suppress(InteractionFailed, DriverError, AssertionError, TimeoutError):
            await play_moves(players, rng.randint(1, 6))
        await subprocess_bot.kill()
        await subprocess_bot.start()

    # every game can go on to its end (Tonk: the hand in play) after the last restart
    dubb, tonk = players
    while not dubb.finished():
        await play_moves([dubb], 1)
    hands = hands_ended(tonk)
    while hands_ended(tonk) == hands:
        await play_moves([tonk], 1)
    await subprocess_bot.stop()

    store = await Store.open(subprocess_bot.workdir / "kortbord.sqlite3")
    try:
        assert await check_table(store, dubb, world.guild.id) == 0
        # a hand has ended, and its ledger rows (if it paid anyone) were matched to its result
        assert await check_table(store, tonk, world.guild.id) >= 1
    finally:
        await store.close()
    assert sum(len(p.acknowledged) for p in players) >= kill_points
