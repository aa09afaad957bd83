"""The real Dubb engine through the table service: round trips, replay from the move log, seats
freed by leaving, and stats recorded once (a leaver's loss when they leave, issue 6)."""

from __future__ import annotations

import random

import pytest

from bot.gamekit.contract import RuleError
from bot.games import dubb
from bot.games.registry import GAMES
from bot.storage import Store
from bot.table import GameStartedError, TableService
from tests.store.conftest import FakeClock
from tests.store.helpers import GUILD, check_table


def dubb_service(store: Store, clock: FakeClock, seed: int = 1) -> TableService:
    rng = random.Random(seed)
    return TableService(store, GAMES, clock=clock,
                        seed_source=lambda: rng.randrange(2**63))


async def start_dubb(service: TableService, channel: int, players: tuple[int, ...],
                     options: dict[str, object] | None = None) -> int:
    snap = await service.open_lobby(GUILD, channel, "dubb", players[0], f"P{players[0]}",
                                    options or {})
    for p in players[1:]:
        await service.join(channel, p, f"P{p}")
    await service.start(channel, players[0])
    return snap.table_id


async def play_dubb(service: TableService, channel: int, rng: random.Random,
                    leave_chance: float = 0.0) -> None:
    while (snap := await service.get(channel)) is not None:
        game = snap.engine
        if rng.random() < leave_chance:
            still_in = [p.player_id for p in game.public_view().players
                        if p.status not in ("out", "left")]
            await service.leave(channel, rng.choice(still_in))
            continue
        player = game.to_move
        await service.apply(channel, player, rng.choice(game.legal_moves(player)), snap.counter)


async def test_dubb_games_round_trip_replay_and_count_once(
    db_url: str, clock: FakeClock
) -> None:
    store = await Store.open(db_url)
    try:
        service = dubb_service(store, clock)
        rng = random.Random(3)
        tables = [await start_dubb(service, c, (c * 10 + 1, c * 10 + 2, c * 10 + 3),
                                   {"jokers": c % 2 == 0, "decks": 1 + c % 2})
                  for c in range(1, 7)]
        for c in range(1, 7):
            # play halfway, then a new service (as after a restart) finishes from disk
            for _ in range(rng.randint(5, 40)):
                snap = await service.get(c)
                if snap is None:
                    break
                game = snap.engine
                await service.apply(c, game.to_move, rng.choice(game.legal_moves(game.to_move)))
        service = dubb_service(store, clock, seed=2)
        for c in range(1, 7):
            await play_dubb(service, c, rng, leave_chance=0.01 if c > 3 else 0.0)
        for table_id in tables:
            record = await store.table(table_id)
            assert record is not None and record.status == "finished"
            await check_table(store, table_id)
        stats = {s.player_id: s for s in await store.stats(GUILD, "dubb")}
        assert len(stats) == 18 and all(s.count("games_played") == 1 for s in stats.values())
        losses = sum(s.count("losses") for s in stats.values())
        leavers = {e["player"] for t in tables for m in await store.moves(t)
                   for e in m.events if e["type"] == "left"}
        assert leavers and losses == 6 + len(leavers - {
            e["loser"] for t in tables for m in await store.moves(t)
            for e in m.events if e["type"] == "game_over"})
        assert [await service.table_of_player(GUILD, p) for p in stats] == [None] * 18
    finally:
        await store.close()


async def test_a_dubb_leaver_is_free_at_once_and_loses(store: Store, clock: FakeClock) -> None:
    service = dubb_service(store, clock)
    table_id = await start_dubb(service, 1, (1, 2, 3))
    result = await service.leave(1, 2)
    assert any(isinstance(e, dubb.PlayerLeft) for e in result.events)
    assert [s.player_id for s in result.snapshot.seats] == [1, 3]
    assert await service.table_of_player(GUILD, 2) is None
    await service.open_lobby(GUILD, 2, "dubb", 2, "P2")
    stats = {s.player_id: s for s in await store.stats(GUILD, "dubb")}
    assert (stats[2].count("games_played"), stats[2].count("losses")) == (1, 1)
    with pytest.raises(GameStartedError):
        await service.join(1, 2, "P2")
    # the game is cancelled later: the leaver's loss stays, nobody else gets a result
    await service.cancel(1, 1, may_manage=False)
    stats = {s.player_id: s for s in await store.stats(GUILD, "dubb")}
    assert set(stats) == {2}
    await check_table(store, table_id)


async def test_options_the_deal_cannot_meet_refuse_to_start(store: Store,
                                                            clock: FakeClock) -> None:
    """D2: the engine's RuleError comes back from ``start`` and the lobby stays open."""
    service = dubb_service(store, clock)
    await service.open_lobby(GUILD, 1, "dubb", 1, "P1", {"cards_each": 12})
    await service.join(1, 2, "P2")
    await service.join(1, 3, "P3")
    with pytest.raises(RuleError) as err:
        await service.start(1, 1)
    assert err.value.ruling == "D2"
    snap = await service.get(1)
    assert snap is not None and snap.is_lobby
    await service.leave(1, 3)
    assert (await service.start(1, 1)).snapshot.is_playing
