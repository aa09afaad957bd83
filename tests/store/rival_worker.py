"""A process that plays tables another process plays too (a misconfiguration, a rolling
restart): both keep engines in memory and both think they own the tables.

``python -m tests.store.rival_worker DB_URL SEED`` opens the database, prints ``READY``, waits for
a line on standard input, then plays random legal moves at the live tables of channels
``CHANNELS`` until none is left. It prints one JSON line per move the service acknowledged and
one per ``StaleMoveError`` (the other process got there first), and ``DONE`` at the end.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.games import tonk
from bot.storage import Store
from bot.table import StaleMoveError, TableService
from tests.store.crash_worker import emit, tonk_move
from tests.store.helpers import KINDS
from tests.store.toy import Add

CHANNELS: dict[int, str] = {1: "toy", 2: "toy", 3: "tonk", 4: "tonk"}
TONK_HANDS = 2
"""After this many hands at a Tonk table its players leave (T11), which closes it."""


async def play(service: TableService, channel: int, rng: random.Random) -> None:
    kind = CHANNELS[channel]
    while (snap := await service.get(channel)) is not None:
        engine = snap.engine
        if kind == "tonk" and engine.to_move is None and engine.hand_number >= TONK_HANDS:
            player, move = rng.choice(engine.player_ids), tonk.Leave()
        elif kind == "tonk":
            player, move = tonk_move(engine, rng)
        else:
            player, move = engine.to_move, Add(rng.randint(1, 3))
        try:
            result = await service.apply(channel, player, move, snap.counter)
        except StaleMoveError:
            emit(stale=True, table=snap.table_id)
            continue
        emit(table=snap.table_id, counter=result.counter, player=player,
             move=KINDS[kind].moves.to_dict(move))


async def main(url: str, seed: int) -> int:
    store = await Store.open(url)
    try:
        rng = random.Random(seed)
        service = TableService(store, KINDS, seed_source=lambda: rng.randrange(2**63))
        print("READY", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        await asyncio.gather(*(play(service, c, random.Random(rng.random())) for c in CHANNELS))
    finally:
        await store.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], int(sys.argv[2]))))
