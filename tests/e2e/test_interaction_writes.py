"""Table writes go through people's interactions (issue 32): a table message is posted as a
follow-up of the newest person's interaction at the table, and edited and deleted through the
interaction that posted it while its token is good (15 minutes). Those are interaction
endpoints, which Discord does not count against the bot's global rate limit, so a table played
by people leaves the bot's budget to the tables nobody is clicking at.

When a token runs out (here: Discord's clock jumps 16 minutes, so the token the bot believes
fresh is refused with 401), the bot's own requests take over, and the next interaction's token
is used again.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from bot.fakediscord import Driver
from bot.fakediscord.records import RestCall
from tests.e2e.conftest import TEST_TOKEN, BotRunner, World
from tests.e2e.test_request_budget import _play

pytestmark = pytest.mark.e2e

BOT_WRITES = ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}")


def _bot_writes(calls: list[RestCall]) -> list[RestCall]:
    return [c for c in calls if c.route in BOT_WRITES and c.method != "GET"]


@pytest.mark.machine_speed
@pytest.mark.parametrize("people", [1, 2])
async def test_a_game_played_by_people_writes_its_table_through_their_interactions(
    bot_runner: BotRunner, driver: Driver, world: World, people: int
) -> None:
    await bot_runner.start()
    budget = driver.fake.global_budget(TEST_TOKEN)
    calls_from = len(driver.fake.rest_calls)
    global_from = len(driver.fake.limiter.times(budget))

    _, _, moves = await _play(bot_runner, driver, world.channel, "dubb",
                              [world.anna, world.bo][:people], 3 - people)

    calls = driver.fake.rest_calls[calls_from:]
    assert moves > 0
    assert _bot_writes(calls) == []
    assert len(driver.fake.limiter.times(budget)) == global_from
    hooked = [c for c in calls if c.route.startswith("/webhooks/") and c.method == "POST"]
    assert hooked, "no table was posted through an interaction"
    assert len(driver.pings(world.anna)) > 0
    assert driver.fake.rate_limited == []


@pytest.mark.machine_speed
async def test_when_discord_refuses_a_token_the_bot_writes_the_table_itself(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()  # the refused token's one 401
    await bot_runner.start()
    shifted = {"by": 0.0}
    driver.fake.clock = lambda: time.time() + shifted["by"]
    calls_from = len(driver.fake.rest_calls)
    moved = {"yet": False}

    original = driver.fake.record_call

    def record(call: RestCall) -> None:
        original(call)
        # once the game is under way, Discord's clock runs 16 minutes ahead of the bot's
        if not moved["yet"] and call.route.startswith("/webhooks/") and call.method == "PATCH":
            moved["yet"] = True
            shifted["by"] = 16 * 60

    driver.fake.record_call = record  # type: ignore[method-assign]
    _, _, moves = await _play(bot_runner, driver, world.channel, "dubb", [world.anna], 1)

    calls = driver.fake.rest_calls[calls_from:]
    refused = [c for c in calls if c.status == 401]
    assert moves > 0 and moved["yet"]
    assert refused and all(c.route.startswith("/webhooks/") for c in refused)
    # the table's writes (hand panels are edited as @original) try a refused token once
    tokens = Counter(c.path.split("/")[3] for c in refused if not c.path.endswith("@original"))
    assert tokens and max(tokens.values()) == 1
    # the bot wrote the table itself after the refusal
    after = calls[calls.index(refused[0]):]
    assert _bot_writes(after), "the bot never wrote the table itself"
    assert driver.fake.rate_limited == []
