"""Issue 34: an expert's search crosses to a worker process and back — its job (the game's
rules, the seat's information set, seed and budget) pickles — and a worker's decision is the
one the search makes in this process."""

from __future__ import annotations

import random

from bot.gamekit.contract import Seat
from bot.gamekit.search import Budget, ExpertStrategy, run_job
from bot.games.dubb import DubbEngine, DubbOptions
from bot.games.dubb.search import SEARCH as DUBB_SEARCH
from bot.games.tonk import TonkEngine, TonkOptions
from bot.games.tonk.search import SEARCH as TONK_SEARCH
from bot.table.computers import SearchPool

BUDGET = Budget(iterations=12, seconds=60.0)


async def test_a_worker_process_decides_as_this_process_does() -> None:
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(3)]
    dubb = DubbEngine.new(seats, DubbOptions(), 21)
    tonk = TonkEngine.new(seats, TonkOptions(), 21)
    jobs = []
    for game, rules in ((dubb, DUBB_SEARCH), (tonk, TONK_SEARCH)):
        player = game.to_move
        assert player is not None
        jobs.append(ExpertStrategy(rules, BUDGET).job(game.observe(player), random.Random(5)))
    pool = SearchPool(1, BUDGET)
    try:
        for job in jobs:
            there = await pool.run(job)
            here = run_job(job)
            assert (there.move, there.estimates) == (here.move, here.estimates)
    finally:
        pool.close()
