"""The ledger of a group DM (issue 45) through restarts and SIGKILLs: ``python -m bot`` is
killed at random moments while three people play Tonk in a group DM, where the table is written
only through their interactions, then started again; afterwards the move log, the stored state
and the ledger rows are checked from the database as for a server's table (``test_crash``)."""

from __future__ import annotations

import contextlib
import random

import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.driver import DriverError, InteractionFailed
from bot.storage import Store
from tests.e2e.conftest import SubprocessBot, World
from tests.e2e.table_players import check_table, hands_ended, open_game, play_moves

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

KILL_POINTS = 12
DEADLINE = 1.0  # the fake's interaction deadline, shortened so a killed bot's clicks fail fast


@pytest.mark.machine_speed
@pytest.mark.timeout(600)
async def test_a_group_dm_ledger_is_exact_across_restarts_and_sigkills(
    subprocess_bot: SubprocessBot, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    rng = random.Random(20261205)
    fake.interaction_deadline = DEADLINE
    # a killed bot leaves clicks unanswered: that is the point of this test
    driver.allow_failed_interactions()
    driver.allow_rest_errors()
    driver.allow_rate_limits()
    subprocess_bot.errors_expected = True
    await subprocess_bot.start()
    people = [world.anna, world.bo, world.cem]
    for person in people:
        driver.install_for(person)
    group = driver.add_group_dm(world.anna, people[1:], name="Tonk night")
    tonk = await open_game(driver, group, "tonk", people)
    # a restarted bot brings the table up to date through the next click's token; beside three
    # other workers on two cores its start and catch-up took over 5 s (the test alone: 14 s in
    # all, 85 s in the suite)
    tonk.patience = 15.0

    for n in range(KILL_POINTS):
        with contextlib.suppress(InteractionFailed, DriverError, AssertionError, TimeoutError):
            await play_moves([tonk], rng.randint(1, 6))
        if n % 3 == 2:
            await subprocess_bot.stop()  # a plain restart, SIGTERM
        else:
            await subprocess_bot.kill()
        await subprocess_bot.start()

    hands = hands_ended(tonk)
    while hands_ended(tonk) == hands:
        await play_moves([tonk], 1)
    await subprocess_bot.stop()

    store = await Store.open(subprocess_bot.workdir / "kortbord.sqlite3")
    try:
        # the group DM is its own "server": its table and ledger are filed under its id
        assert await check_table(store, tonk, group.id) >= 1
    finally:
        await store.close()
    assert not [c for c in fake.rest_calls if c.path.startswith(f"/channels/{group.id}")]
