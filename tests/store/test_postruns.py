"""What a restart needs to know of the tables' messages (issue 49), on both backends: the
interaction token that posted a table message, kept only while it is good, and which process
runs may have posted a table message they never recorded (``bot.storage.postruns``)."""

from __future__ import annotations

from bot.storage import SeatInfo, Shards, Store
from tests.store.helpers import GUILD

NOW = 1_700_000_000.0


async def _lobby(store: Store, channel: int, *, guild: int = GUILD) -> int:
    record = await store.create_lobby(
        guild_id=guild, channel_id=channel, kind="toy",
        host=SeatInfo(player_id=channel, name=f"P{channel}"), options={}, turn_seconds=0,
        lobby_expires_at=None, now=NOW)
    return record.id


async def test_the_token_that_posted_a_message_is_kept_with_it_while_good(store: Store
                                                                         ) -> None:
    table = await _lobby(store, 10)
    other = await _lobby(store, 11)
    await store.set_message_id(table, 500, token=("tok-500", NOW))
    await store.set_message_id(other, 700, token=("tok-700", NOW + 600))
    record = await store.table(table)
    assert record is not None
    assert (record.message_token, record.message_token_at) == ("tok-500", NOW)
    # a credential: never in a record's repr, which logs and errors may show
    assert "tok-500" not in repr(record)

    # the message moves: the token of the post that moved it, or none (a bot's post)
    await store.set_message_id(table, 501, token=("tok-501", NOW + 60))
    record = await store.table(table)
    assert record is not None and record.message_token == "tok-501"
    await store.set_message_id(table, 502)
    record = await store.table(table)
    assert record is not None and (record.message_token, record.message_token_at) == (None,
                                                                                      None)

    # too old to use: cleared, a younger one kept
    await store.set_message_id(table, 503, token=("tok-503", NOW))
    assert await store.forget_message_tokens(NOW + 1) == 1
    cleared, kept = await store.table(table), await store.table(other)
    assert cleared is not None and cleared.message_token is None
    assert kept is not None and kept.message_token == "tok-700"


async def test_a_table_is_clean_only_once_every_run_that_claimed_it_stopped_cleanly(
    store: Store,
) -> None:
    a = await _lobby(store, 10)
    b = await _lobby(store, 11)
    c = await _lobby(store, 12)
    await _lobby(store, 13)  # no message yet: nothing to claim (no look could find a post)
    for table, message in ((a, 500), (b, 510), (c, 520)):
        await store.set_message_id(table, message, shown_version=0)

    # a first run: nobody claimed them before, but it claims them all now
    assert await store.claim_posts(1) == {a: True, b: True, c: True}
    # a run beside it (or after it was killed) finds them claimed
    assert await store.claim_posts(2) == {a: False, b: False, c: False}
    # run 1 stops cleanly, but a post of b's may have gone out unrecorded: run 2's and b's
    # claims stay
    await store.release_posts(1, keep={b})
    assert await store.claim_posts(3) == {a: False, b: False, c: False}
    await store.release_posts(2)
    await store.release_posts(3)
    assert await store.claim_posts(4) == {a: True, b: False, c: True}
    await store.release_posts(4)

    # a table claimed before a run's first post of it, and a new table's first record
    d = await _lobby(store, 14)
    await store.hold_posts(a, 5)
    await store.set_message_id(d, 530, shown_version=0, run=5)
    assert await store.claim_posts(6) == {a: False, b: False, c: True, d: False}
    await store.release_posts(5)
    await store.release_posts(6)
    # once over and showing its end, a table's claims go, whoever's they were (b's of run 1)
    closed = await store.close_table(b, status="cancelled", now=NOW)
    await store.mark_shown(b, closed.version, pinged=None)
    await store.release_posts(7)
    assert await store.claim_posts(8) == {a: True, c: True, d: True}


async def test_a_run_claims_only_the_tables_of_its_own_servers(store: Store) -> None:
    ours, theirs = GUILD, GUILD + (1 << 22)  # shards 0 and 1 of 2
    mine = await _lobby(store, 10, guild=ours)
    other = await _lobby(store, 11, guild=theirs)
    await store.set_message_id(mine, 500, shown_version=0)
    await store.set_message_id(other, 510, shown_version=0)
    half = Shards(count=2, ids=((ours >> 22) % 2,))
    assert await store.claim_posts(1, shards=half) == {mine: True}
    assert await store.claim_posts(2) == {mine: False, other: True}
