"""``python -m bot.sim tonk``: play many Tonk hands with computer players, checking invariants.

Reports hands, moves, speed, cap hits (T8), invariant violations, the ledger sum and how the
hands ended. ``moves_per_second`` divides by the process's CPU time (one core's throughput, not
skewed by other load on the machine); ``moves_per_second_wall`` by wall-clock time. Every applied
move counts, ``DealNextHand`` included. ``--no-checks`` leaves out the per-move invariant check
to measure the engine alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from bot.games.base import Seat
from bot.games.tonk import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    DealNextHand,
    HandEnded,
    Phase,
    TonkOptions,
    TonkTable,
    check_invariants,
    event_for,
    make_strategy,
)
from bot.games.tonk.events import Event
from bot.games.tonk.players import STRATEGIES, Strategy
from bot.games.tonk.views import seat_view


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot.sim tonk", description=__doc__)
    p.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    p.add_argument("--players", type=int, default=3, help="players, 2–4 (default 3)")
    p.add_argument("--seed", type=int, default=1, help="table seed (default 1)")
    p.add_argument("--strategy", default="random",
                   help="random or greedy, or one per seat comma-separated (greedy,random,random)")
    p.add_argument("--stake", type=int, default=1, help="basic stake s (default 1)")
    p.add_argument("--no-upcard", action="store_true", help="variation: no upcard")
    p.add_argument("--must-spread", action="store_true", help="variation: must spread")
    p.add_argument("--double-needs-spread", action="store_true",
                   help="variation: double only for a new spread")
    p.add_argument("--hit-lock", action="store_true", help="house rule T9: hit lock")
    p.add_argument("--no-checks", action="store_true",
                   help="skip the invariant check after every move (pure speed)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def run(hands: int, players: int, seed: int, strategies: list[str], options: TonkOptions,
        checks: bool = True) -> dict[str, Any]:
    """Play ``hands`` hands at one table and return the report."""
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(players)]
    start = time.perf_counter()
    cpu_start = time.process_time()
    table = TonkTable.new(seats, options, seed)
    players_by_id: dict[int, Strategy] = {
        s.player_id: make_strategy(strategies[i], random.Random(seed * 7919 + i))
        for i, s in enumerate(seats)
    }
    watchers = [(pid, st) for pid, st in players_by_id.items() if st.wants_events]
    balances = dict.fromkeys(players_by_id, 0)
    ended: Counter[str] = Counter()
    report = {"hands": 0, "moves": 0, "cap_hits": 0, "invariant_violations": 0}
    problems_seen: list[str] = []

    def record(events: list[Event]) -> None:
        for pid, st in watchers:
            st.observe([event_for(e, pid) for e in events])
        for e in events:
            if type(e) is HandEnded:
                result = e.result
                report["hands"] += 1
                ended[result.how.value] += 1
                report["cap_hits"] += result.capped
                for pay in result.payments:
                    balances[pay.payer] -= pay.amount
                    balances[pay.payee] += pay.amount

    def check() -> None:
        problems = check_invariants(table)
        if problems:
            report["invariant_violations"] += len(problems)
            problems_seen.extend(problems[: 5 - len(problems_seen)])

    record(table.opening_events)
    if checks:
        check()
    deal = DealNextHand()
    dealer_id = seats[0].player_id
    while report["hands"] < hands:
        if table.phase is Phase.HAND_OVER:
            pid, move = dealer_id, deal
        else:
            pid = table.to_move
            assert pid is not None
            move = players_by_id[pid].choose(seat_view(table, pid))
        events = table.apply(pid, move)
        report["moves"] += 1
        record(events)
        if checks:
            check()
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    return {
        **report,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "moves_per_second": round(report["moves"] / cpu_seconds) if cpu_seconds else 0,
        "moves_per_second_wall": round(report["moves"] / seconds) if seconds else 0,
        "ledger_sum": sum(balances.values()),
        "ended": dict(sorted(ended.items())),
        "balances": {f"P{pid}:{players_by_id[pid].name}": b for pid, b in balances.items()},
        "players": players,
        "seed": seed,
        "strategies": strategies,
        "options": options.model_dump(),
        "invariant_checks": checks,
        "first_problems": problems_seen,
    }


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        print(f"--players must be {MIN_PLAYERS}–{MAX_PLAYERS}", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.strategy.split(",")]
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players or any(n not in STRATEGIES for n in names):
        print(f"--strategy: one of {sorted(STRATEGIES)}, or one per seat", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("--hands must be at least 1", file=sys.stderr)
        return 2
    try:
        options = TonkOptions(stake=args.stake, upcard=not args.no_upcard,
                              must_spread=args.must_spread,
                              double_needs_spread=args.double_needs_spread,
                              hit_lock=args.hit_lock)
    except ValueError as exc:
        print(f"bad options: {exc}", file=sys.stderr)
        return 2
    report = run(args.hands, args.players, args.seed, names, options, checks=not args.no_checks)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    failed = report["invariant_violations"] or report["cap_hits"] or report["ledger_sum"]
    return 1 if failed else 0
