"""Measure the computer players' strength (not a test): head-to-head runs of the simulators.

    .venv/bin/python scripts/strength.py [--games N] [--hands N] [--seed S] [--jobs J] [--quick]

Runs each comparison below through ``python -m bot.sim``'s own code (invariant checks on) and
prints one table: Dubb as loss rate per seat (lower is better), Tonk as net chips per seat per
hand (higher is better), each with its 95% confidence interval, the difference between the first
two strategies with its interval, the CPU time, and the command that reproduces the row.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.dubb import DubbOptions
from bot.games.dubb import sim as dubb_sim
from bot.games.tonk import TonkOptions
from bot.games.tonk import sim as tonk_sim

DUBB = [(4, "smart,greedy"), (3, "smart,greedy,greedy"), (4, "greedy,random"),
        (4, "smart,random")]
TONK = [(3, "smart,greedy"), (3, "smart,greedy,greedy"), (3, "greedy,random"),
        (3, "smart,random")]


def _dubb(players: int, names: str, games: int, seed: int) -> dict[str, Any]:
    start = time.process_time()
    stats = dubb_sim.run(games, players, seed, "greedy", DubbOptions(), checks=True,
                         strategies=names.split(","))
    first, second = names.split(",")[:2]
    key = tuple(sorted((first, second)))
    diff = stats.differences[key]
    sign = 1 if key[0] == first else -1
    return {
        "game": "dubb", "players": players, "names": names, "units": stats.games,
        "figures": {n: (t.rate.mean, t.rate.half_width) for n, t in stats.by_strategy.items()},
        "difference": (first, second, sign * diff.mean, diff.half_width),
        "problems": stats.invariant_violations + stats.cap_hits,
        "cpu": time.process_time() - start,
        "command": f"python -m bot.sim dubb --games {games} --players {players} "
                   f"--strategies {names} --seed {seed}",
    }


def _tonk(players: int, names: str, hands: int, seed: int) -> dict[str, Any]:
    start = time.process_time()
    report = tonk_sim.compare(hands, players, seed, names.split(","), TonkOptions(), checks=True)
    first, second = names.split(",")[:2]
    d = next(x for x in report["strategy_differences"] if set(x["strategies"]) == {first, second})
    sign = 1 if d["strategies"][0] == first else -1
    lo, hi = d["ci95"]
    return {
        "game": "tonk", "players": players, "names": names, "units": report["hands"],
        "figures": {n: (t["net_per_hand"], (t["ci95"][1] - t["ci95"][0]) / 2)
                    for n, t in report["strategies"].items()},
        "difference": (first, second, sign * d["net_per_hand_difference"], (hi - lo) / 2),
        "problems": report["invariant_violations"] + report["cap_hits"] + abs(report["ledger_sum"]),
        "cpu": time.process_time() - start,
        "command": f"python -m bot.sim tonk --hands {hands} --players {players} "
                   f"--strategies {names} --seed {seed}",
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="Dubb games per comparison")
    p.add_argument("--hands", type=int, default=10_000, help="Tonk hands per comparison")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2, help="comparisons run in parallel")
    p.add_argument("--quick", action="store_true", help="1000 games and hands (a smoke run)")
    args = p.parse_args(argv)
    games, hands = (1000, 1000) if args.quick else (args.games, args.hands)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(_dubb, n, names, games, args.seed) for n, names in DUBB]
        futures += [pool.submit(_tonk, n, names, hands, args.seed) for n, names in TONK]
        rows = [f.result() for f in futures]
    print("| game | players | strategies | per strategy (95% CI) | first − second (95% CI) "
          "| CPU s |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        unit = "loss rate" if r["game"] == "dubb" else "chips/hand"
        figures = "; ".join(f"{n} {m:.4f} ± {h:.4f}" for n, (m, h) in sorted(r["figures"].items()))
        a, b, d, h = r["difference"]
        print(f"| {r['game']} ({unit}, {r['units']}) | {r['players']} | {r['names']} | {figures} "
              f"| {a} − {b}: {d:+.4f} ± {h:.4f} | {r['cpu']:.0f} |")
    print()
    for r in rows:
        print(f"    {r['command']}")
    problems = sum(r["problems"] for r in rows)
    if problems:
        print(f"\n{problems} invariant violations, cap hits or ledger errors", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
