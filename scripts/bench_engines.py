"""Measure the engines' speed against an older checkout (not a test): simulator throughput with
invariant checks on, and the smart Tonk player's time per decision.

    .venv/bin/python scripts/bench_engines.py --baseline /work/wt/perf-base [--runs 5]

Every figure is measured in a fresh process that imports ``bot`` from the tree being measured
(this checkout, or ``--baseline``), so each tree runs its own code. Runs alternate between the
trees, the first tree changing every round, to cancel the drift of a shared, noisy machine; the
table shows the median of the runs.

- Throughput: the game's own simulator (``python -m bot.sim <game> ... --json``, checks on), as
  moves per CPU second of that process. Dubb with random play and with a mix of its strategies;
  Tonk with greedy players (hands that last: spreads, hits and stock-outs, see ``ended``) and
  with smart and greedy players (the strength comparison's table).
- Smart Tonk decisions: greedy players play ``--decision-hands`` hands; at every seat a smart
  player is shown every event and asked for its move at each of that seat's decisions (greedy's
  move is the one made), so both trees decide in exactly the same positions. The table gives
  the CPU time of a decision (p50, p99, max, mean): the thread's CPU clock, so that another
  process taking the core mid-decision does not count.

The reports of runs whose players draw no randomness from the changed code (every Dubb run, and
Tonk with greedy players) must be the same for both trees; the script says whether they are.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent

SIMS: list[tuple[str, str, list[str]]] = [
    ("dubb random", "dubb", ["--games", "{dubb}", "--players", "4", "--strategy", "random"]),
    ("dubb smart,greedy,random", "dubb",
     ["--games", "{dubb}", "--players", "4", "--strategies", "smart,greedy,random"]),
    ("tonk greedy", "tonk", ["--hands", "{tonk}", "--players", "3", "--strategy", "greedy"]),
    ("tonk smart,greedy", "tonk",
     ["--hands", "{tonk_mix}", "--players", "3", "--strategies", "smart,greedy"]),
]
_TIMING_KEYS = {"seconds", "cpu_seconds", "moves_per_second", "moves_per_second_wall"}


def _worker(tree: str, task: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement with ``bot`` imported from ``tree``."""
    sys.path.insert(0, tree)
    if task["kind"] == "sim":
        return _sim(task["game"], task["argv"])
    return _decisions(task["hands"], task["seed"])


def _sim(game: str, argv: list[str]) -> dict[str, Any]:
    import contextlib
    import importlib
    import io

    main = importlib.import_module(f"bot.games.{game}.sim").main
    out = io.StringIO()
    start = time.process_time()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--json"])
    cpu = time.process_time() - start
    report = json.loads(out.getvalue())
    results = {k: v for k, v in report.items() if k not in _TIMING_KEYS}
    return {"cpu": cpu, "moves": report["moves"], "code": code, "results": results}


def _decisions(hands: int, seed: int) -> dict[str, Any]:
    import random

    from bot.gamekit.contract import Seat
    from bot.games.tonk import DealNextHand, HandEnded, Phase, TonkEngine, TonkOptions
    from bot.games.tonk.events import event_to_dict, seat_form
    from bot.games.tonk.players import GreedyStrategy, SmartStrategy

    seats = [Seat(i + 1, f"P{i + 1}") for i in range(3)]
    table = TonkEngine.new(seats, TonkOptions(), seed)
    greedy = {s.player_id: GreedyStrategy() for s in seats}
    smart = {s.player_id: SmartStrategy() for s in seats}
    rngs = {s.player_id: random.Random(seed * 31 + s.player_id) for s in seats}
    play_rng = random.Random(seed)
    times: list[int] = []

    def show(events: list[Any]) -> None:
        for pid, player in smart.items():
            player.remember([seat_form(event_to_dict(e), pid) for e in events])

    show(table.opening_events)
    played = 0
    while played < hands:
        if table.phase is Phase.HAND_OVER:
            pid, move = seats[0].player_id, DealNextHand()
        else:
            pid = table.to_move
            view = table.observe(pid)
            start = time.thread_time_ns()
            smart[pid].choose(view, rngs[pid])
            times.append(time.thread_time_ns() - start)
            move = greedy[pid].choose(view, play_rng)
        events = table.apply(pid, move)
        show(events)
        played += sum(1 for e in events if type(e) is HandEnded)
    times.sort()
    n = len(times)
    return {
        "decisions": n,
        "p50": times[n // 2] / 1e6,
        "p99": times[min(n - 1, (99 * n) // 100)] / 1e6,
        "max": times[-1] / 1e6,
        "mean": sum(times) / n / 1e6,
    }


def _measure(python: str, tree: Path, task: dict[str, Any]) -> dict[str, Any]:
    proc = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker", str(tree), json.dumps(task)],
        cwd=tree, capture_output=True, text=True, check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"worker failed in {tree}:\n{proc.stderr}")
    return dict(json.loads(proc.stdout))


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", type=Path,
                   help="a checkout of the old code (git worktree add <path> <commit>)")
    p.add_argument("--runs", type=int, default=5, help="alternating runs per tree (default 5)")
    p.add_argument("--dubb-games", type=int, default=400)
    p.add_argument("--tonk-hands", type=int, default=2000)
    p.add_argument("--tonk-mix-hands", type=int, default=400)
    p.add_argument("--decision-hands", type=int, default=150)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default="",
                   help="measure only the rows whose label contains this text")
    p.add_argument("--python", default=sys.executable,
                   help="the interpreter for both trees (default: this one)")
    p.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        tree, task = args.worker
        print(json.dumps(_worker(tree, json.loads(task))))
        return 0
    if args.baseline is None:
        p.error("--baseline is required")

    sizes = {"dubb": args.dubb_games, "tonk": args.tonk_hands, "tonk_mix": args.tonk_mix_hands}
    tasks: list[tuple[str, dict[str, Any]]] = [
        (label, {"kind": "sim", "game": game,
                 "argv": [a.format(**sizes) for a in argv] + ["--seed", str(args.seed)]})
        for label, game, argv in SIMS
    ]
    tasks.append(("smart tonk decisions",
                  {"kind": "decisions", "hands": args.decision_hands, "seed": args.seed}))
    tasks = [(label, task) for label, task in tasks if args.only in label]
    trees = {"old": args.baseline.resolve(), "new": HERE}
    got: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for run in range(args.runs):
        order = ["old", "new"] if run % 2 == 0 else ["new", "old"]
        for label, task in tasks:
            for which in order:
                got.setdefault((label, which), []).append(
                    _measure(args.python, trees[which], task))
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)

    print(f"old: {trees['old']}\nnew: {trees['new']}\n"
          f"medians of {args.runs} alternating runs, invariant checks on\n")
    sims = [(label, task) for label, task in tasks if task["kind"] == "sim"]
    if sims:
        _print_sims(sims, got)
    if any(task["kind"] == "decisions" for _, task in tasks):
        _print_decisions(got)
    return 0


def _print_sims(sims: list[tuple[str, dict[str, Any]]],
                got: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    print("| simulator | old moves/s | new moves/s | new/old | same results | ended (new) |")
    print("|---|---|---|---|---|---|")
    for label, _ in sims:
        old, new = got[(label, "old")], got[(label, "new")]
        rate = {w: statistics.median(r["moves"] / r["cpu"] for r in got[(label, w)])
                for w in ("old", "new")}
        same = old[0]["results"] == new[0]["results"]
        ended = new[0]["results"].get("ended") or new[0]["results"].get("end_reasons")
        failed = " FAILED" if any(r["code"] for r in old + new) else ""
        print(f"| {label} | {rate['old']:,.0f} | {rate['new']:,.0f} | "
              f"{rate['new'] / rate['old']:.2f} | {'yes' if same else 'no'} | {ended} |{failed}")
    print("\ncommands (run in each tree):")
    for _, task in sims:
        print(f"    python -m bot.sim {task['game']} {' '.join(task['argv'])}")
    print()


def _print_decisions(got: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    label = "smart tonk decisions"
    print(f"{label} ({got[(label, 'new')][0]['decisions']} decisions), ms:\n")
    print("| | p50 | p99 | max | mean |")
    print("|---|---|---|---|---|")
    med: dict[str, dict[str, float]] = {}
    for which in ("old", "new"):
        runs = got[(label, which)]
        med[which] = {k: statistics.median(r[k] for r in runs)
                      for k in ("p50", "p99", "max", "mean")}
        m = med[which]
        print(f"| {which} | {m['p50']:.3f} | {m['p99']:.3f} | {m['max']:.3f} | {m['mean']:.3f} |")
    r = {k: med["old"][k] / med["new"][k] for k in med["old"]}
    print(f"| old/new | {r['p50']:.2f} | {r['p99']:.2f} | {r['max']:.2f} | {r['mean']:.2f} |")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
