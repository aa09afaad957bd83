"""``python -m bot.sim tonk``: play many Tonk hands with computer players, checking invariants.

Reports hands, moves, speed, cap hits (T8), invariant violations, the ledger sum and how the
hands ended, and per strategy the net chips per hand with a 95% confidence interval.

``--strategy`` seats one strategy per seat at a single table. ``--strategies smart,greedy``
compares strategies instead: they are cycled to fill the seats and play many tables of
``--table-hands`` hands, reseated at every table through all distinct seatings so that no
strategy keeps a seat or a neighbour. A strategy's figure is its chips per seat per hand; hands
are independent deals and the players remember nothing from one hand to the next, so the interval
is taken over hands (``ci95``); ``ci95_by_table`` takes it over table means instead, as a check
that dependence within a table does not matter.

``moves_per_second`` divides by the process's CPU time (one core's throughput, not skewed by other
load on the machine); ``moves_per_second_wall`` by wall-clock time. Every applied move counts,
``DealNextHand`` included. With checks on (the default) every move is followed by the table's
cheap check (``check_quick``: card counts, the spreads the move touched, turns and payments) and,
at the end of every hand and at least every ``FULL_CHECK_EVERY`` moves, by the full one
(``check_invariants``); ``--no-checks`` leaves both out to measure the engine alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bot.gamekit.contract import Seat, Strategy
from bot.games.tonk import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    DealNextHand,
    HandEnded,
    TonkEngine,
    TonkOptions,
    check_invariants,
    check_quick,
)
from bot.games.tonk.events import Event, event_to_dict, seat_form
from bot.games.tonk.players import STRATEGIES
from bot.games.tonk.settlement import net
from bot.games.tonk.terms import HAND_OVER
from bot.sim.checks import FULL_CHECK_EVERY
from bot.sim.stats import Mean, lineups


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot.sim tonk", description=__doc__)
    p.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    p.add_argument("--players", type=int, default=3, help="players, 2–4 (default 3)")
    p.add_argument("--seed", type=int, default=1, help="table seed (default 1)")
    p.add_argument("--strategy", default="random",
                   help="random, greedy or smart, or one per seat comma-separated "
                        "(greedy,random,random)")
    p.add_argument("--strategies", default=None,
                   help="compare strategies: comma-separated, cycled to fill the seats and "
                        "reseated at every table (smart,greedy); overrides --strategy")
    p.add_argument("--table-hands", type=int, default=50,
                   help="hands per table with --strategies (default 50)")
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


@dataclass
class _Tally:
    """Everything a run adds up, over one table or many."""

    hands: int = 0
    moves: int = 0
    cap_hits: int = 0
    invariant_violations: int = 0
    problems: list[str] = field(default_factory=list)
    ended: Counter[str] = field(default_factory=Counter)
    balances: dict[str, int] = field(default_factory=dict)
    seats: Counter[str] = field(default_factory=Counter)
    net: Counter[str] = field(default_factory=Counter)
    per_hand: dict[str, Mean] = field(default_factory=dict)
    per_table: dict[str, Mean] = field(default_factory=dict)
    differences: dict[tuple[str, str], Mean] = field(default_factory=dict)


def _play_table(hands: int, seed: int, names: Sequence[str], options: TonkOptions, checks: bool,
                tally: _Tally, balance_key: Callable[[int, str], str]) -> None:
    """Play ``hands`` hands at one table seating ``names`` (one strategy per seat, in order)."""
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(len(names))]
    table = TonkEngine.new(seats, options, seed)
    players_by_id: dict[int, Strategy] = {
        s.player_id: STRATEGIES[names[i]]() for i, s in enumerate(seats)
    }
    rngs = {s.player_id: random.Random(seed * 7919 + i) for i, s in enumerate(seats)}
    name_of = {s.player_id: names[i] for i, s in enumerate(seats)}
    count = Counter(names)
    watchers = [(pid, st) for pid, st in players_by_id.items() if st.remembers]
    for pid in players_by_id:
        tally.balances.setdefault(balance_key(pid, name_of[pid]), 0)
    table_mean = {name: Mean() for name in count}
    played = 0

    def record(events: list[Event]) -> None:
        nonlocal played
        for pid, st in watchers:
            st.remember([seat_form(event_to_dict(e), pid) for e in events])
        for e in events:
            if type(e) is HandEnded:
                result = e.result
                played += 1
                tally.hands += 1
                tally.ended[result.how.value] += 1
                tally.cap_hits += result.capped
                nets = net(result.payments)
                for pid in result.players:
                    chips = nets.get(pid, 0)
                    tally.balances[balance_key(pid, name_of[pid])] += chips
                    tally.net[name_of[pid]] += chips
                    tally.seats[name_of[pid]] += 1
                _per_hand(tally, table_mean, count, {
                    name: sum(nets.get(pid, 0) for pid in result.players if name_of[pid] == name)
                    for name in count
                })

    def check(full: bool) -> None:
        problems = check_invariants(table) if full else check_quick(table)
        if problems:
            tally.invariant_violations += len(problems)
            tally.problems.extend(problems[: 5 - len(tally.problems)])

    record(table.opening_events)
    if checks:
        check(True)
    deal = DealNextHand()
    dealer_id = seats[0].player_id
    since_full = 0
    moves = 0
    while played < hands:
        if table.phase is HAND_OVER:
            pid, move = dealer_id, deal
        else:
            pid = table.to_move
            assert pid is not None
            move = players_by_id[pid].choose(table.observe(pid), rngs[pid])
        events = table.apply(pid, move)
        moves += 1
        hands_before = played
        record(events)
        if checks:
            since_full += 1
            full = played != hands_before or since_full >= FULL_CHECK_EVERY
            if full:
                since_full = 0
            check(full)
    tally.moves += moves
    for name, mean in table_mean.items():
        tally.per_table.setdefault(name, Mean()).add(mean.mean)


def _per_hand(tally: _Tally, table_mean: dict[str, Mean], count: Counter[str],
              chips: dict[str, int]) -> None:
    """One hand's chips per seat of each strategy, and the differences between strategies."""
    per_seat = {name: chips[name] / count[name] for name in count}
    for name, x in per_seat.items():
        tally.per_hand.setdefault(name, Mean()).add(x)
        table_mean[name].add(x)
    for a, b in combinations(sorted(per_seat), 2):
        tally.differences.setdefault((a, b), Mean()).add(per_seat[a] - per_seat[b])


def run(hands: int, players: int, seed: int, strategies: list[str], options: TonkOptions,
        checks: bool = True) -> dict[str, Any]:
    """Play ``hands`` hands at one table, ``strategies`` naming each seat's player in order."""
    return _report(hands, players, seed, options, checks, tables=[(hands, seed, strategies)],
                   balance_key=lambda pid, name: f"P{pid}:{name}", seat_strategies=strategies)


def compare(hands: int, players: int, seed: int, names: Sequence[str], options: TonkOptions,
            checks: bool = True, table_hands: int = 50) -> dict[str, Any]:
    """Play ``hands`` hands at many tables of ``table_hands`` hands each, seating ``names``
    cycled to fill the seats and reseated at every table through all distinct seatings
    (``lineups``), so that no strategy keeps a seat or a neighbour."""
    seatings = lineups(names, players)
    tables = []
    left = hands
    t = 0
    while left > 0:
        n = min(table_hands, left)
        tables.append((n, seed * 1_000_003 + t, list(seatings[t % len(seatings)])))
        left -= n
        t += 1
    report = _report(hands, players, seed, options, checks, tables=tables,
                     balance_key=lambda pid, name: f"P{pid}", seat_strategies=list(names))
    report["tables"] = len(tables)
    report["table_hands"] = table_hands
    report["seatings"] = len(seatings)
    return report


def _report(hands: int, players: int, seed: int, options: TonkOptions, checks: bool, *,
            tables: list[tuple[int, int, list[str]]], balance_key: Callable[[int, str], str],
            seat_strategies: list[str]) -> dict[str, Any]:
    tally = _Tally()
    start = time.perf_counter()
    cpu_start = time.process_time()
    for n, table_seed, names in tables:
        _play_table(n, table_seed, names, options, checks, tally, balance_key)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    return {
        "hands": tally.hands,
        "moves": tally.moves,
        "cap_hits": tally.cap_hits,
        "invariant_violations": tally.invariant_violations,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "moves_per_second": round(tally.moves / cpu_seconds) if cpu_seconds else 0,
        "moves_per_second_wall": round(tally.moves / seconds) if seconds else 0,
        "ledger_sum": sum(tally.balances.values()),
        "ended": dict(sorted(tally.ended.items())),
        "balances": tally.balances,
        "players": players,
        "seed": seed,
        "seat_strategies": seat_strategies,
        "strategies": {
            name: {
                "seat_hands": tally.seats[name],
                "net_chips": tally.net[name],
                "net_per_hand": round(tally.per_hand[name].mean, 5),
                "ci95": tally.per_hand[name].ci95(),
                "ci95_by_table": tally.per_table[name].ci95() if len(tables) > 1 else None,
            }
            for name in sorted(tally.per_hand)
        },
        "strategy_differences": [
            {"strategies": [a, b], "net_per_hand_difference": round(d.mean, 5), "ci95": d.ci95()}
            for (a, b), d in sorted(tally.differences.items())
        ],
        "options": options.model_dump(),
        "invariant_checks": checks,
        "first_problems": tally.problems,
    }


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        print(f"--players must be {MIN_PLAYERS}–{MAX_PLAYERS}", file=sys.stderr)
        return 2
    if args.strategies is not None:
        names = [n.strip() for n in args.strategies.split(",")]
        if not 1 <= len(names) <= args.players or any(n not in STRATEGIES for n in names):
            print(f"--strategies: 1 to {args.players} of {sorted(STRATEGIES)}", file=sys.stderr)
            return 2
    else:
        names = [n.strip() for n in args.strategy.split(",")]
        if len(names) == 1:
            names *= args.players
        if len(names) != args.players or any(n not in STRATEGIES for n in names):
            print(f"--strategy: one of {sorted(STRATEGIES)}, or one per seat", file=sys.stderr)
            return 2
    if args.hands < 1 or args.table_hands < 1:
        print("--hands and --table-hands must be at least 1", file=sys.stderr)
        return 2
    try:
        options = TonkOptions(stake=args.stake, upcard=not args.no_upcard,
                              must_spread=args.must_spread,
                              double_needs_spread=args.double_needs_spread,
                              hit_lock=args.hit_lock)
    except ValueError as exc:
        print(f"bad options: {exc}", file=sys.stderr)
        return 2
    if args.strategies is not None:
        report = compare(args.hands, args.players, args.seed, names, options,
                         checks=not args.no_checks, table_hands=args.table_hands)
    else:
        report = run(args.hands, args.players, args.seed, names, options,
                     checks=not args.no_checks)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            if key not in ("strategies", "strategy_differences"):
                print(f"{key}: {value}")
        print("net chips per seat per hand, 95% confidence intervals (by hand; by table):")
        for name, t in report["strategies"].items():
            lo, hi = t["ci95"]
            by_table = t["ci95_by_table"]
            extra = f"; [{by_table[0]:+.4f}, {by_table[1]:+.4f}]" if by_table else ""
            print(f"  {name:<8} {t['net_per_hand']:+.4f}  [{lo:+.4f}, {hi:+.4f}{extra}]  "
                  f"({t['net_chips']:+d} chips in {t['seat_hands']} seat-hands)")
        for d in report["strategy_differences"]:
            lo, hi = d["ci95"]
            a, b = d["strategies"]
            print(f"  {a} − {b}: {d['net_per_hand_difference']:+.4f}  [{lo:+.4f}, {hi:+.4f}]")
    failed = report["invariant_violations"] or report["cap_hits"] or report["ledger_sum"]
    return 1 if failed else 0
