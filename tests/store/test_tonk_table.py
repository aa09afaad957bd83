"""The real Tonk engine through the table service: stored form round trips, replay from the move
log, and the T12 ledger written once per hand with every hand summing to zero."""

from __future__ import annotations

import random

from bot.gamekit.contract import Seat
from bot.games import tonk
from bot.games.registry import GAMES
from bot.storage import Store
from bot.table import TableService
from tests.store.conftest import FakeClock
from tests.store.helpers import GUILD, check_table


def tonk_service(store: Store, clock: FakeClock, seeds: list[int]) -> TableService:
    return TableService(store, GAMES, clock=clock,
                        seed_source=lambda: seeds.pop(0))


async def start_tonk(service: TableService, channel: int, players: tuple[int, ...],
                     options: dict[str, object] | None = None, guild: int = GUILD) -> int:
    snap = await service.open_lobby(guild, channel, "tonk", players[0], f"P{players[0]}",
                                    options or {"stake": 3})
    for p in players[1:]:
        await service.join(channel, p, f"P{p}")
    await service.start(channel, players[0])
    return snap.table_id


async def random_tonk_step(service: TableService, channel: int, rng: random.Random,
                           newcomers: list[int]) -> bool:
    """One random action at the table: a legal move, or now and then a leave or a join (T1,
    T11). ``False`` once the table has closed."""
    snap = await service.get(channel)
    if snap is None:
        return False
    table = snap.engine
    seated = list(table.player_ids)
    roll = rng.random()
    if roll < 0.01:
        await service.leave(channel, rng.choice(seated))
    elif table.to_move is None:
        if roll < 0.2 and newcomers and len(seated) < tonk.MAX_PLAYERS:
            p = newcomers.pop()
            await service.join(channel, p, f"P{p}")
        else:
            await service.apply(channel, rng.choice(seated), tonk.DealNextHand(), snap.counter)
    else:
        moves = table.legal_moves(table.to_move)
        # prefer ending the turn, so hands finish in a sensible number of moves
        discards = [m for m in moves if isinstance(m, tonk.Discard)]
        move = rng.choice(discards) if discards and rng.random() < 0.6 else rng.choice(moves)
        await service.apply(channel, table.to_move, move, snap.counter)
    return True


async def check_tonk_log(store: Store, table_id: int) -> int:
    """``check_table``, plus: hands are numbered in order and the standings count every hand
    for every player dealt into it. Returns the number of hands that ended."""
    await check_table(store, table_id)
    log = await store.moves(table_id)
    ended = [e for m in log for e in m.events if e["type"] == "hand_ended"]
    assert [e["hand_number"] for e in ended] == sorted({e["hand_number"] for e in ended})
    stats = await store.stats(GUILD, "tonk", table_id=table_id)
    assert sum(s.count("hands_played") for s in stats) == sum(len(e["players"]) for e in ended)
    return len(ended)


async def test_tonk_tables_round_trip_and_keep_the_ledger(
    db_url: str, clock: FakeClock
) -> None:
    store = await Store.open(db_url)
    try:
        service = tonk_service(store, clock, [11, 22, 33])
        rng = random.Random(5)
        tables = {c: await start_tonk(service, c, (c * 10 + 1, c * 10 + 2, c * 10 + 3))
                  for c in (1, 2, 3)}
        newcomers = {c: [c * 10 + 4, c * 10 + 5] for c in tables}
        for step in range(900):
            channel = rng.choice(list(tables))
            if not await random_tonk_step(service, channel, rng, newcomers[channel]):
                continue
            if step % 150 == 0:
                # a fresh service loads the same state from disk as the one in memory
                fresh = tonk_service(store, clock, [])
                for c in tables:
                    mine, theirs = await service.get(c), await fresh.get(c)
                    if mine is None:
                        assert theirs is None
                        continue
                    assert theirs is not None and theirs.counter == mine.counter
                    assert theirs.engine.to_stored() == mine.engine.to_stored()
        hands = 0
        for table_id in tables.values():
            hands += await check_tonk_log(store, table_id)
        assert hands > 20
        standings = await service.balances(GUILD, "tonk")
        assert sum(s.net for s in standings) == 0
        assert all(s.name is not None for s in standings)
    finally:
        await store.close()


def seed_with_tonk_on_the_deal(players: int) -> int:
    seats = [Seat(p, f"P{p}") for p in range(1, players + 1)]
    for seed in range(5000):
        table = tonk.TonkEngine.new(seats, tonk.TonkOptions(), seed)
        if any(isinstance(e, tonk.HandEnded) and e.result.how is tonk.HandEnd.TONK_ON_DEAL
               for e in table.opening_events):
            return seed
    raise AssertionError("no seed below 5000 deals a tonk")


async def test_a_tonk_on_the_first_deal_is_paid_with_the_start(
    store: Store, clock: FakeClock
) -> None:
    """T4 can end hand 1 inside ``new``: its payments commit with the start, once."""
    seed = seed_with_tonk_on_the_deal(3)
    service = tonk_service(store, clock, [seed])
    snap = await service.open_lobby(GUILD, 1, "tonk", 1, "P1", {"stake": 2})
    await service.join(1, 2, "P2")
    await service.join(1, 3, "P3")
    result = await service.start(1, 1)
    ended = [e for e in result.events if isinstance(e, tonk.HandEnded)]
    assert len(ended) == 1
    winner = ended[0].result.winner
    entries = await store.ledger_entries(GUILD, table_id=snap.table_id)
    assert sorted((e.payer_id, e.payee_id, e.amount, e.reason) for e in entries) == sorted(
        (p, winner, 4, "tonk_on_deal") for p in (1, 2, 3) if p != winner)
    stats = {s.player_id: s for s in await store.stats(GUILD, "tonk")}
    assert stats[winner].count("tonks") == 1 and {k: v for k, v in stats[winner].counters.items()
                                                  if k.startswith("won_by:")} == {
        "won_by:tonk_on_deal": 1}
    assert all(s.count("hands_played") == 1 for s in stats.values())
    await check_tonk_log(store, snap.table_id)


async def test_ledgers_of_two_servers_never_mix(db_url: str, clock: FakeClock) -> None:
    store = await Store.open(db_url)
    try:
        service = tonk_service(store, clock, [1, 2])
        rng = random.Random(9)
        await start_tonk(service, 1, (1, 2, 3), guild=GUILD)
        await start_tonk(service, 2, (1, 2, 3), guild=GUILD + 1)
        for _ in range(300):
            for c in (1, 2):
                await random_tonk_step(service, c, rng, [])
        for guild, channel in ((GUILD, 1), (GUILD + 1, 2)):
            entries = await service.ledger_entries(guild, "tonk", limit=None)
            tables = {e.table_id for e in entries}
            records = [await store.table(t) for t in tables]
            assert all(r is not None and r.guild_id == guild and r.channel_id == channel
                       for r in records)
            mine = await service.ledger_entries(guild, "tonk", 1, limit=5)
            assert len(mine) <= 5 and all(1 in (e.payer_id, e.payee_id) for e in mine)
        one = {s.player_id: s.net for s in await service.balances(GUILD, "tonk")}
        two = {s.player_id: s.net for s in await service.balances(GUILD + 1, "tonk")}
        assert sum(one.values()) == sum(two.values()) == 0
    finally:
        await store.close()
