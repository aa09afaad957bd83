"""A bot process's daily deal, for ``test_daily``'s two processes on one database.

``python -m tests.store.daily_worker DB_URL NOW`` opens the database, prints ``READY``, waits for
a line on standard input, then asks for the Tonk daily's day and baseline at Unix time ``NOW``,
with a quick search budget, and prints one JSON line: the day's commitment, the baseline's
outcome and moves, and whether this process computed it; then ``DONE``.
"""

from __future__ import annotations

import asyncio
import json
import sys

from bot.daily import service as daily_service
from bot.daily.baseline import Baseline, compute_baseline
from bot.gamekit.search import Budget
from bot.games.registry import GAMES
from bot.storage import Store

QUICK = Budget(iterations=24, seconds=float("inf"))


async def main(url: str, now: float) -> int:
    computed: list[Baseline] = []

    def counting(*args: object) -> Baseline:
        made = compute_baseline(*args)  # type: ignore[arg-type]
        computed.append(made)
        return made

    daily_service.compute_baseline = counting  # type: ignore[assignment]
    store = await Store.open(url)
    try:
        service = daily_service.DailyService(store, GAMES, lambda: now, QUICK)
        print("READY", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        today = service.today()
        day, base = await asyncio.gather(service.day("tonk", today),
                                         service.baseline(GAMES["tonk"], today))
        print(json.dumps({"commitment": day.commitment, "outcome": base.outcome,
                          "moves": base.moves, "computed": len(computed)}), flush=True)
    finally:
        await store.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], float(sys.argv[2]))))
