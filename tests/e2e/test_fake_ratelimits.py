"""The fake's rate limits: Discord's per-route buckets, the global limit, 429s and who opted in.

The limiter's own tests run on a hand-moved clock; nothing here waits for real time except the
discord.py test, which uses a tight 0.2-second bucket.
"""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, FakeDiscord, RateLimitConfig, RateLimiter, RouteLimit
from bot.fakediscord.ratelimit import MESSAGE_CREATE, MESSAGE_DELETE, MESSAGE_EDIT
from tests.e2e.conftest import TEST_TOKEN, BareClients, World
from tests.fakeclock import FakeClock

pytestmark = pytest.mark.e2e

CHANNEL_A = "111"
CHANNEL_B = "222"


def limiter(config: RateLimitConfig | None = None) -> tuple[RateLimiter, FakeClock]:
    clock = FakeClock()
    return RateLimiter(config or RateLimitConfig.discord_like(), clock=clock.now), clock


def test_message_create_allows_five_per_five_seconds_per_channel() -> None:
    limits, clock = limiter()
    start = clock.now()

    first = [limits.check(MESSAGE_CREATE, CHANNEL_A, "bot") for _ in range(5)]
    sixth = limits.check(MESSAGE_CREATE, CHANNEL_A, "bot")
    other_channel = limits.check(MESSAGE_CREATE, CHANNEL_B, "bot")
    clock.advance(4.5)
    still_refused = limits.check(MESSAGE_CREATE, CHANNEL_A, "bot")
    clock.advance(0.5)
    after_reset = limits.check(MESSAGE_CREATE, CHANNEL_A, "bot")

    assert [v.headers["X-RateLimit-Remaining"] for v in first] == ["4", "3", "2", "1", "0"]
    assert first[0].headers["X-RateLimit-Limit"] == "5"
    assert first[0].headers["X-RateLimit-Reset-After"] == "5.000"
    assert float(first[0].headers["X-RateLimit-Reset"]) == pytest.approx(start + 5)
    assert first[0].retry_after is None
    assert (sixth.retry_after, sixth.scope) == (5.0, "user")
    assert other_channel.retry_after is None
    assert still_refused.retry_after == pytest.approx(0.5)
    assert after_reset.retry_after is None
    assert after_reset.headers["X-RateLimit-Remaining"] == "4"


def test_create_and_edit_report_one_bucket_but_count_apart_and_delete_has_its_own() -> None:
    limits, _ = limiter()

    creates = [limits.check(MESSAGE_CREATE, CHANNEL_A, "bot") for _ in range(5)]
    edits = [limits.check(MESSAGE_EDIT, CHANNEL_A, "bot") for _ in range(5)]
    deletes = [limits.check(MESSAGE_DELETE, CHANNEL_A, "bot") for _ in range(6)]

    assert creates[0].headers["X-RateLimit-Bucket"] == edits[0].headers["X-RateLimit-Bucket"]
    assert all(v.retry_after is None for v in creates + edits)
    assert deletes[0].headers["X-RateLimit-Bucket"] != creates[0].headers["X-RateLimit-Bucket"]
    assert deletes[0].headers["X-RateLimit-Reset-After"] == "1.000"
    assert [v.retry_after is None for v in deletes] == [True] * 5 + [False]


def test_a_shared_bucket_draws_on_one_allowance() -> None:
    shared = RouteLimit(2, 1.0, "reactions", shared=True)
    limits, _ = limiter(RateLimitConfig(routes={"PUT /r": shared, "DELETE /r": shared}))

    routes = ("PUT /r", "DELETE /r", "PUT /r")
    verdicts = [limits.check(route, CHANNEL_A, "bot") for route in routes]

    assert [v.retry_after is None for v in verdicts] == [True, True, False]


def test_a_refused_request_uses_up_nothing() -> None:
    limits, clock = limiter(RateLimitConfig(routes={"POST /x": RouteLimit(1, 1.0)}))

    limits.check("POST /x", "", "bot")
    refused = [limits.check("POST /x", "", "bot") for _ in range(3)]
    clock.advance(1.0)
    allowed = limits.check("POST /x", "", "bot")

    assert all(v.retry_after is not None for v in refused)
    assert allowed.retry_after is None and allowed.headers["X-RateLimit-Remaining"] == "0"


def test_the_global_limit_is_fifty_a_second_per_token_and_spares_interaction_endpoints() -> None:
    limits, clock = limiter()

    fifty = [limits.check("GET /users/@me", "", "bot") for _ in range(50)]
    over = limits.check("GET /users/{user_id}", "", "bot")
    other_bot = limits.check("GET /users/@me", "", "another bot")
    hook = "POST /webhooks/{webhook_id}/{webhook_token}"
    hooks = [limits.check(hook, f"1+t{n}", None) for n in range(5)]
    clock.advance(1.0)
    next_second = limits.check("GET /users/@me", "", "bot")

    assert all(v.retry_after is None for v in fifty)
    assert (over.retry_after, over.scope, over.headers) == (1.0, "global", {})
    assert other_bot.retry_after is None
    assert all(v.retry_after is None for v in hooks)
    assert next_second.retry_after is None


def test_follow_ups_are_limited_per_interaction_token_and_callbacks_not_at_all() -> None:
    limits, _ = limiter()
    hook = "POST /webhooks/{webhook_id}/{webhook_token}"
    callback = "POST /interactions/{interaction_id}/{interaction_token}/callback"

    same_token = [limits.check(hook, "1+token-a", None) for _ in range(6)]
    other_token = limits.check(hook, "1+token-b", None)
    callbacks = [limits.check(callback, "", None) for _ in range(10)]

    assert [v.retry_after is None for v in same_token] == [True] * 5 + [False]
    assert other_token.retry_after is None
    assert all(v.retry_after is None and v.headers == {} for v in callbacks)


async def call(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, token: str | None = TEST_TOKEN
) -> tuple[int, dict[str, str], Any]:
    headers = {"Authorization": f"Bot {token}"} if token else {}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.status != 204 else None
        return response.status, dict(response.headers), data


async def test_a_sixth_message_in_five_seconds_gets_discords_429_and_no_effect(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = FakeClock()
    fake.clock = clock.now
    path = f"/channels/{world.channel.id}/messages"

    for n in range(5):
        await call(fake, "POST", path, {"content": f"m{n}"})
    status, headers, body = await call(fake, "POST", path, {"content": "too many"})

    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 5.0, "global": False}
    assert headers["Retry-After"] == "5"
    assert headers["X-RateLimit-Scope"] == "user"
    assert (headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]) == ("5", "0")
    assert "X-RateLimit-Global" not in headers and headers["Via"]
    assert len(driver.channel_messages(world.channel)) == 5
    assert [(h.route, h.scope, h.injected) for h in fake.rate_limited] == [
        ("/channels/{channel_id}/messages", "user", False)
    ]
    assert any("got 429 from the user rate limit" in p for p in Driver(fake).problems())
    driver.allow_rate_limits()
    assert driver.problems() == []


async def test_the_global_limit_answers_a_global_429(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = FakeClock()
    fake.clock = clock.now
    channel = fake.channels[world.channel.id]
    record = fake.create_interaction(2, world.anna, channel, {"id": "1", "name": "x", "type": 1})
    driver.allow_rate_limits()

    for _ in range(50):
        await call(fake, "GET", "/users/@me")
    status, headers, body = await call(fake, "GET", f"/channels/{world.channel.id}")
    answered = await call(
        fake,
        "POST",
        f"/interactions/{record.id}/{record.token}/callback",
        {"type": 4, "data": {"content": "not globally limited"}},
        token=None,
    )

    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 1.0, "global": True}
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1"
    assert answered[0] == 204
    assert [h.scope for h in fake.rate_limited] == ["global"]


async def test_injected_429s_are_recorded_but_never_a_problem(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    fake.fail_next(1, status=429, match=lambda m, r: r == "/users/@me")
    fake.inject_faults(1.0, status=429, scope="shared", match=lambda m, r: r == "/gateway/bot")

    status, _, _ = await call(fake, "GET", "/users/@me")
    shared_status, shared_headers, shared = await call(fake, "GET", "/gateway/bot")

    assert (status, shared_status) == (429, 429)
    assert shared_headers["X-RateLimit-Scope"] == "shared"
    assert shared["message"] == "The resource is being rate limited."
    assert [(h.scope, h.injected) for h in fake.rate_limited] == [("user", True), ("shared", True)]
    assert driver.problems() == []


def chatty(tree: app_commands.CommandTree) -> None:
    @tree.command(name="burst", description="Send several messages at once")
    async def burst(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        sent = [await interaction.channel.send(f"line {n}") for n in range(count)]
        await sent[0].edit(content="line 0 (edited)")
        await sent[-1].delete()
        await interaction.followup.send("done", ephemeral=True)


async def test_discord_py_waits_on_the_headers_instead_of_hitting_429s(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    tight = RouteLimit(2, 0.2)
    fake.rate_limits = RateLimitConfig(
        routes={MESSAGE_CREATE: tight, MESSAGE_EDIT: tight, MESSAGE_DELETE: tight},
        global_limit=50,
    )
    await bare_clients.start(chatty)

    result = await driver.slash(world.anna, world.channel, "burst", {"count": 7})

    assert result.content == "done"
    assert [m.content for m in driver.channel_messages(world.channel)] == [
        "line 0 (edited)",
        *[f"line {n}" for n in range(1, 6)],
    ]
    assert fake.rate_limited == []


async def test_the_interaction_token_expires_after_fifteen_minutes_on_the_fakes_clock(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = FakeClock()
    fake.clock = clock.now
    driver.allow_rest_errors()
    channel = fake.channels[world.channel.id]
    record = fake.create_interaction(2, world.anna, channel, {"id": "1", "name": "x", "type": 1})
    hook = f"/webhooks/{fake.application.id}/{record.token}"
    callback = f"/interactions/{record.id}/{record.token}/callback"
    await call(fake, "POST", callback, {"type": 5}, token=None)

    clock.advance(15 * 60)
    in_time = await call(fake, "PATCH", f"{hook}/messages/@original", {"content": "ok"}, token=None)
    clock.advance(1)
    edit = await call(fake, "PATCH", f"{hook}/messages/@original", {"content": "late"}, token=None)
    followup = await call(fake, "POST", f"{hook}?wait=true", {"content": "late"}, token=None)

    expired = {"message": "Invalid Webhook Token", "code": 50027}
    assert in_time[0] == 200
    assert (edit[0], edit[2]) == (401, expired)
    assert (followup[0], followup[2]) == (401, expired)


async def test_edits_to_a_message_older_than_an_hour_are_limited_with_30046(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    # the fake's ids follow its clock, so a message is as old as its id says
    clock = FakeClock(start=time.time())
    fake.clock = clock.now
    path = f"/channels/{world.channel.id}/messages"
    _, _, posted = await call(fake, "POST", path, {"content": "table"})
    _, _, fresh = await call(fake, "POST", path, {"content": "other"})
    edit = f"{path}/{posted['id']}"

    young = [(await call(fake, "PATCH", edit, {"content": f"v{n}"}))[0] for n in range(4)]
    clock.advance(5.0)  # the route's own bucket (5 edits per 5 s) is full again
    clock.advance(3600.0)
    old = [(await call(fake, "PATCH", edit, {"content": f"old {n}"}))[0] for n in range(3)]
    status, headers, body = await call(fake, "PATCH", edit, {"content": "one too many"})
    refused_had_no_effect = fake.messages[int(posted["id"])].content == "old 2"
    clock.advance(20.0)
    after = (await call(fake, "PATCH", edit, {"content": "later"}))[0]

    assert young == [200] * 4 and old == [200] * 3
    assert status == 429
    assert body == {"message": "Maximum number of edits to messages older than 1 hour reached. "
                    "Try again later.", "code": 30046, "retry_after": 20.0, "global": False}
    assert headers["Retry-After"] == "20" and headers["Via"]
    assert refused_had_no_effect
    assert after == 200
    assert int(fresh["id"]) > int(posted["id"])
    assert [(h.route, h.scope) for h in fake.rate_limited] == [
        ("/channels/{channel_id}/messages/{message_id}", "old message edits (30046)")]
    driver.allow_rate_limits()


# -- one budget per token, the IP's for requests without one, and the invalid-request limit ----
# (issue 32)


def test_peak_counts_the_busiest_sliding_window() -> None:
    limits, clock = limiter(RateLimitConfig(global_limit=None))
    for gap in (0.0, 0.5, 0.4, 0.2, 0.1, 0.9):
        clock.advance(gap)
        limits.check("GET /users/@me", "", "bot:a")

    # at 0, 0.5, 0.9, 1.1, 1.2, 2.1: 0.5–1.2 holds four within a second
    assert limits.peak("bot:a", 1.0) == 4
    assert limits.peak("bot:a", 0.25) == 2
    assert limits.peak("bot:a", 1.0, since=clock.now() - 0.5) == 1
    assert limits.peak("bot:b", 1.0) == 0


async def test_two_connections_on_one_token_share_its_fifty_a_second(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """The global limit is the bot token's, not a connection's: two processes that each send
    30 in one second get 10 refused between them."""
    clock = FakeClock()
    fake.clock = clock.now
    driver.allow_rate_limits()
    headers = {"Authorization": f"Bot {TEST_TOKEN}"}
    statuses = []
    async with aiohttp.ClientSession() as first, aiohttp.ClientSession() as second:
        for _ in range(30):
            for http in (first, second):
                async with http.get(f"{fake.api_base}/channels/{world.channel.id}",
                                    headers=headers) as response:
                    statuses.append((response.status, response.headers.get("X-RateLimit-Scope")))

    assert statuses.count((200, None)) == 50
    assert statuses.count((429, "global")) == 10
    assert fake.limiter.peak(fake.global_budget(TEST_TOKEN), 1.0) == 60


async def test_a_webhook_token_request_counts_against_the_address_not_the_bot(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """No authorization header: Discord applies the global limit to the IP address. The
    application's own webhook (interaction follow-ups) is an interaction endpoint, exempt."""
    clock = FakeClock()
    fake.clock = clock.now
    driver.allow_rest_errors()
    channel = fake.channels[world.channel.id]
    record = fake.create_interaction(2, world.anna, channel, {"id": "1", "name": "x", "type": 1})
    await call(fake, "POST", f"/interactions/{record.id}/{record.token}/callback", {"type": 5},
               token=None)

    await call(fake, "POST", f"/webhooks/{fake.application.id}/{record.token}?wait=true",
               {"content": "a follow-up"}, token=None)
    stranger = await call(fake, "POST", "/webhooks/123456789/not-a-token", {"content": "x"},
                          token=None)

    assert fake.limiter.times("interaction") and len(fake.limiter.times("interaction")) == 2
    assert len(fake.limiter.times("ip:127.0.0.1")) == 1
    assert fake.limiter.times(fake.global_budget(TEST_TOKEN)) == []
    assert stranger[0] in (401, 404)


async def test_invalid_requests_are_counted_per_address_and_a_flood_of_them_is_banned(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = FakeClock()
    fake.clock = clock.now
    fake.invalid_requests.limit = 5  # Discord's 10,000, made small
    fake.token = TEST_TOKEN  # any other is refused with 401
    driver.allow_rest_errors()
    driver.allow_rate_limits()
    fake.inject_faults(1.0, status=429, scope="shared", match=lambda m, r: r == "/gateway/bot")

    shared = [(await call(fake, "GET", "/gateway/bot"))[0] for _ in range(3)]
    fake.clear_faults()
    unauthorized = [(await call(fake, "GET", "/users/@me", token="wrong"))[0] for _ in range(4)]
    counted = fake.invalid_requests.count("127.0.0.1", clock.now())
    fifth = (await call(fake, "GET", "/users/@me", token="wrong"))[0]
    async with aiohttp.ClientSession() as http, http.get(
            fake.api_base + "/users/@me", headers={"Authorization": f"Bot {TEST_TOKEN}"}
    ) as banned:
        ban = (banned.status, await banned.text(), "Via" in banned.headers)
    clock.advance(fake.invalid_requests.ban)
    after = (await call(fake, "GET", "/users/@me"))[0]

    assert shared == [429] * 3 and unauthorized == [401] * 4
    assert counted == 4  # 429s of scope shared are not held against the bot
    assert fifth == 401
    assert ban == (429, "error code: 1015", False)
    assert after == 200
    clock.advance(fake.invalid_requests.per)
    assert fake.invalid_requests.count("127.0.0.1", clock.now()) == 0
