"""Benchmark the daily deal's baseline (not a test): the expert playing the person's seat of a
day's deal with the daily's fixed budget, for several days of each game.

    .venv/bin/python scripts/bench_daily.py [--days N]

Each day's secret is ``SHA-256(kind || day)``, so the figures are the same on every run on one
machine; prints each day's result, moves and CPU seconds, then each game's median and most.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
from datetime import date, timedelta

from bot.daily.baseline import compute_baseline
from bot.games.registry import GAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=6)
    args = parser.parse_args()
    for kind, game in GAMES.items():
        if game.daily is None:
            continue
        seconds = []
        for n in range(args.days):
            day = date(2026, 1, 1) + timedelta(days=n)
            secret = hashlib.sha256(f"{kind}{day}".encode()).digest()
            made = compute_baseline(game, day, secret)
            seconds.append(made.seconds)
            print(f"{kind} {day}: expert's result {made.outcome}, {len(made.moves)} moves, "
                  f"{made.seconds:.2f} s CPU")
        print(f"{kind}: median {statistics.median(seconds):.2f} s, most {max(seconds):.2f} s")


if __name__ == "__main__":
    main()
