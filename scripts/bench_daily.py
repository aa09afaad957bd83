"""Benchmark the daily deal (not a test): the expert playing the person's seat of a day's deal
with the daily's fixed budget, for several days of each game; with ``--picture``, also the
shared result's picture of that game (replaying it for the sparkline, drawing, encoding):
its bytes and milliseconds, each game's first day's picture saved under ``docs/img/``.

    .venv/bin/python scripts/bench_daily.py [--days N] [--picture] [--runs N] [--lang en]

Each day's secret is ``SHA-256(kind || day)``, so the figures are the same on every run on one
machine; prints each day's result, moves and CPU seconds, then each game's median and most.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.daily.baseline import Baseline, compute_baseline
from bot.discord.daily_share import result_picture
from bot.gamekit.contract import GameSpec
from bot.games.registry import GAMES
from bot.storage import DailyAttempt

ROOT = Path(__file__).resolve().parents[1]


def _picture(game: GameSpec, day: date, secret: bytes, made: Baseline, runs: int,
             lang: str) -> tuple[bytes, float]:
    """The result picture of the expert's game as if a person had played it (score 0, a
    three-day streak, better than 66%), and the median milliseconds it took to make."""
    attempt = DailyAttempt(
        kind=game.kind, day=day.isoformat(), player_id=1, guild_id=0, name="Anna",
        started_at=0.0, moves=made.moves, move_count=len(made.moves), finished_at=1.0,
        how="played", outcome=made.outcome, score=0)
    times, data = [], b""
    for _ in range(runs):
        started = time.perf_counter()
        data, _ = result_picture(game, attempt, secret, 3, 66, "Anna", lang)
        times.append((time.perf_counter() - started) * 1000)
    return data, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=6)
    parser.add_argument("--picture", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    for kind, game in GAMES.items():
        if game.daily is None:
            continue
        seconds, sizes, drawing = [], [], []
        for n in range(args.days):
            day = date(2026, 1, 1) + timedelta(days=n)
            secret = hashlib.sha256(f"{kind}{day}".encode()).digest()
            made = compute_baseline(game, day, secret)
            seconds.append(made.seconds)
            line = (f"{kind} {day}: expert's result {made.outcome}, {len(made.moves)} moves, "
                    f"{made.seconds:.2f} s CPU")
            if args.picture:
                data, ms = _picture(game, day, secret, made, args.runs, args.lang)
                sizes.append(len(data))
                drawing.append(ms)
                line += f"; result picture {len(data):,} bytes in {ms:.1f} ms"
                if n == 0:
                    (ROOT / "docs" / "img" / f"daily-result-{kind}.png").write_bytes(data)
            print(line)
        print(f"{kind}: median {statistics.median(seconds):.2f} s, most {max(seconds):.2f} s")
        if args.picture:
            print(f"{kind} result picture: median {statistics.median(sizes):,.0f} bytes "
                  f"(most {max(sizes):,}), {statistics.median(drawing):.1f} ms "
                  f"(most {max(drawing):.1f} ms)")


if __name__ == "__main__":
    main()
