"""The process the crash test kills: simulated players at several tables, playing through the
table service against a database until every channel has finished its games.

``python -m tests.store.crash_worker DB_URL SEED`` (a SQLite path or a PostgreSQL URL) prints
one JSON line per acknowledged action (after the service call returned, i.e. what a user would
have seen acknowledged) and ``DONE`` at the end. On every start it first retries the last logged
move of each live table against that move's own counter, as a user retrying after a crash would;
that retry must be refused, and a ``DUPLICATE`` line reports it if it is not.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from typing import Any

from bot.games import dubb, tonk
from bot.storage import Store
from bot.table import StaleMoveError, TableService
from tests.store.helpers import GUILD, KINDS
from tests.store.toy import Add

CHANNELS: dict[int, str] = {1: "toy", 2: "toy", 3: "tonk", 4: "tonk", 5: "dubb", 6: "dubb"}
GAMES_PER_CHANNEL = 6
TONK_HANDS = 3
"""After this many hands at a Tonk table its players start leaving (T11), which closes it."""


def emit(**fields: Any) -> None:
    print(json.dumps(fields, sort_keys=True), flush=True)


def players_of(channel: int) -> tuple[int, ...]:
    return tuple(channel * 10 + i for i in range(1, 4))


async def finished_games(store: Store, channel: int) -> int:
    tables = await store.tables_of_guild(GUILD, statuses=["finished"])
    return sum(1 for t in tables if t.channel_id == channel)


async def retry_last_moves(service: TableService) -> None:
    for record in await service.unfinished_tables():
        if record.status != "playing" or record.counter == 0:
            continue
        last = (await service.moves(record.id))[-1]
        move = KINDS[record.kind].moves.from_dict(last.move)
        try:
            await service.apply(record.channel_id, last.player_id, move, last.seq - 1)
        except StaleMoveError:
            continue
        emit(duplicate=True, table=record.id, counter=last.seq)


def tonk_move(table: tonk.TonkEngine, rng: random.Random) -> tuple[int, Any]:
    if table.to_move is None:
        return rng.choice(table.player_ids), tonk.DealNextHand()
    moves = table.legal_moves(table.to_move)
    discards = [m for m in moves if isinstance(m, tonk.Discard)]
    if discards and rng.random() < 0.6:
        return table.to_move, rng.choice(discards)
    return table.to_move, rng.choice(moves)


def dubb_move(game: dubb.DubbEngine, rng: random.Random) -> tuple[int, Any]:
    if rng.random() < 0.005:
        still_in = [p.player_id for p in game.public_view().players
                    if p.status not in ("out", "left")]
        return rng.choice(still_in), dubb.Leave()
    player = game.to_move
    assert player is not None
    return player, rng.choice(game.legal_moves(player))


async def play_channel(service: TableService, channel: int, rng: random.Random) -> None:
    kind = CHANNELS[channel]
    host, *others = players_of(channel)
    while True:
        snap = await service.get(channel)
        if snap is None:
            if await finished_games(service.store, channel) >= GAMES_PER_CHANNEL:
                return
            options = {"toy": {"hands": 3, "stake": 2}, "tonk": {"stake": 2}}.get(kind, {})
            await service.open_lobby(GUILD, channel, kind, host, f"P{host}", options)
            continue
        if snap.is_lobby:
            seated = {s.player_id for s in snap.seats}
            missing = [p for p in others if p not in seated]
            if missing:
                await service.join(channel, missing[0], f"P{missing[0]}")
            else:
                result = await service.start(channel, host)
                emit(table=snap.table_id, counter=result.counter, start=True)
            continue
        engine = snap.engine
        if kind == "tonk":
            if engine.to_move is None and engine.hand_number >= TONK_HANDS:
                player, move = rng.choice(engine.player_ids), tonk.Leave()
            else:
                player, move = tonk_move(engine, rng)
        elif kind == "dubb":
            player, move = dubb_move(engine, rng)
        else:
            player, move = engine.to_move, Add(rng.randint(1, 3))
        move_dict = KINDS[kind].moves.to_dict(move)
        result = await service.apply(channel, player, move, snap.counter)
        emit(table=snap.table_id, counter=result.counter, player=player, move=move_dict)


async def main(url: str, seed: int) -> int:
    store = await Store.open(url)
    try:
        rng = random.Random(seed)
        service = TableService(store, KINDS, seed_source=lambda: rng.randrange(2**63))
        await retry_last_moves(service)
        await asyncio.gather(*(play_channel(service, c, random.Random(rng.random()))
                               for c in CHANNELS))
    finally:
        await store.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], int(sys.argv[2]))))
