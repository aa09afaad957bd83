"""Benchmark discord.py's rate-limit bucket sweep (not a test): the CPU a burst of new buckets
costs discord.py's HTTP client as it is, and with ``bot.discord.buckets.sweep_less``.

Each round makes ``--buckets`` new buckets (one per channel, as a cold start's webhook look-ups
do) in a fresh client each way, in turn; the figures are each way's CPU per round and their
medians.

    .venv/bin/python scripts/bench_buckets.py [--buckets 2000,3000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from discord.http import HTTPClient

from bot.discord.buckets import sweep_less


async def burst(count: int, *, linear: bool) -> float:
    """The CPU seconds ``count`` new buckets take."""
    http = HTTPClient(asyncio.get_running_loop())
    if linear:
        sweep_less(http)
    began = time.process_time()
    for channel in range(count):
        http.get_ratelimit(f"GET /channels/{{channel_id}}/webhooks:{channel}")
    return time.process_time() - began


async def main(args: argparse.Namespace) -> None:
    for count in (int(n) for n in args.buckets.split(",")):
        spent: dict[bool, list[float]] = {False: [], True: []}
        for round_ in range(args.rounds):
            for linear in (False, True) if round_ % 2 == 0 else (True, False):
                spent[linear].append(await burst(count, linear=linear))
        for linear, label in ((False, "discord.py alone"), (True, "sweep_less")):
            runs = ", ".join(f"{s * 1000:.1f}" for s in spent[linear])
            print(f"{count} new buckets, {label}: {runs} ms "
                  f"(median {statistics.median(spent[linear]) * 1000:.1f} ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--buckets", default="2000,3000")
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
