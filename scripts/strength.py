"""Measure the computer players' strength (not a test): head-to-head runs of the simulators.

    .venv/bin/python scripts/strength.py [--games N] [--hands N] [--seed S] [--jobs J] [--quick]
    .venv/bin/python scripts/strength.py --expert {dubb,tonk} [--games N | --hands N]
        [--minutes M] [--iterations I] [--cpu-ms C] [--jobs J]

Runs each comparison below through ``python -m bot.sim``'s own code (invariant checks on) and
prints one table: Dubb as loss rate per seat (lower is better), Tonk as net chips per seat per
hand (higher is better), each with its 95% confidence interval, the difference between the first
two strategies with its interval, the CPU time, and the command that reproduces the row.

``--expert`` measures the searching player (issue 34) instead: one expert against smart players
(Dubb 1 + 3, Tonk 1 + 2) by duplicate deals. Every Dubb deal (every Tonk table of 50 hands) is
played twice, once by smart players only and once with the expert in one seat (the next seat
each deal), with the same shuffles and the same random numbers for the smart players, so the two
differ only where the expert's moves differ: the paired difference of that seat's loss (or
chips) has a far smaller variance than either figure, and needs far fewer deals to be told from
zero. It runs until the count or ``--minutes`` is reached (the expert spends up to its whole
budget on every decision, so ten thousand deals take hours of CPU) and prints progress, then the
row with the CPU time of the expert's decisions (p50, p99, and the share the CPU cap cut). With
``--jobs J`` the deals run on J processes (for an idle machine: each takes a whole core); the
figures for a number of deals are the same for any J. A CPU cap the decisions reach makes a run
depend on the machine's speed: for figures reproducible by seed, give ``--cpu-ms`` well above
the decisions' p99.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.gamekit import search as searching
from bot.games.dubb import DubbOptions
from bot.games.dubb import sim as dubb_sim
from bot.games.tonk import TonkOptions
from bot.games.tonk import sim as tonk_sim
from bot.sim.stats import Mean

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


EXPERT_SEATS = {"dubb": 4, "tonk": 3}
TONK_TABLE_HANDS = 50
"""Hands per Tonk table in an ``--expert`` run (the smart players learn the table as it goes)."""


@dataclass
class _TimedExpert(searching.ExpertStrategy):
    """The expert, keeping the CPU time of each searched decision and whether the cap cut it."""

    times: list[tuple[float, bool]] = field(default_factory=list)

    def choose(self, view: Any, rng: random.Random) -> Any:
        decision = self.decide(view, rng)
        if decision.worlds:
            self.times.append((decision.cpu, decision.capped))
        return decision.move


def _dubb_duplicate(seed: int, seat: int, expert: Any) -> tuple[bool, bool]:
    """One Dubb deal played twice: four smart players, then the same with the expert at
    ``seat``; whether that seat lost each time."""
    from bot.gamekit.contract import Seat
    from bot.games.dubb import DubbEngine, event_to_dict, seat_form
    from bot.games.dubb.players import SmartStrategy

    lost = []
    for strategy in (SmartStrategy(), expert):
        seats = [Seat(i + 1, f"P{i + 1}") for i in range(EXPERT_SEATS["dubb"])]
        game = DubbEngine.new(seats, DubbOptions(), seed)
        players = [strategy if i == seat else SmartStrategy() for i in range(len(seats))]
        rng = random.Random(seed)
        while not game.is_over:
            player = game.to_move
            assert player is not None
            events = game.apply(player, players[player - 1].choose(game.observe(player), rng))
            if strategy.remembers:
                strategy.remember([seat_form(event_to_dict(e), seat + 1) for e in events])
        assert not game.check_invariants() and game.result is not None
        lost.append(game.result.loser == seat + 1)
    return lost[0], lost[1]


def _tonk_duplicate(seed: int, seat: int, expert_factory: Any) -> list[tuple[int, int]]:
    """One Tonk table of ``TONK_TABLE_HANDS`` hands played twice: three smart players, then the
    same deals with the expert at ``seat``; that seat's net chips per hand each time."""
    from bot.gamekit.contract import Seat
    from bot.games.tonk import (
        DealNextHand,
        HandEnded,
        TonkEngine,
        check_invariants,
        event_to_dict,
        seat_form,
    )
    from bot.games.tonk.players import SmartStrategy
    from bot.games.tonk.settlement import net
    from bot.games.tonk.terms import HAND_OVER

    runs = []
    for with_expert in (False, True):
        seats = [Seat(i + 1, f"P{i + 1}") for i in range(EXPERT_SEATS["tonk"])]
        table = TonkEngine.new(seats, TonkOptions(), seed)
        players: dict[int, Any] = {
            s.player_id: expert_factory() if with_expert and i == seat else SmartStrategy()
            for i, s in enumerate(seats)}
        # each seat its own random numbers, as the simulator gives them: the expert's draws
        # leave the others' streams alone
        rngs = {s.player_id: random.Random(seed * 7919 + i) for i, s in enumerate(seats)}
        nets: list[int] = []

        def show(events: list[Any], players: dict[int, Any] = players,
                 nets: list[int] = nets) -> None:
            stored = [event_to_dict(e) for e in events]
            for pid, player in players.items():
                player.remember([seat_form(e, pid) for e in stored])
            for e in events:
                if type(e) is HandEnded:
                    nets.append(net(e.result.payments).get(seat + 1, 0))

        show(table.opening_events)
        while len(nets) < TONK_TABLE_HANDS:
            if table.phase is HAND_OVER:
                show(table.apply(1, DealNextHand()))
                continue
            pid = table.to_move
            assert pid is not None
            show(table.apply(pid, players[pid].choose(table.observe(pid), rngs[pid])))
        assert not check_invariants(table)
        runs.append(nets[:TONK_TABLE_HANDS])
    return list(zip(runs[0], runs[1], strict=True))


def _deal(kind: str, deal_seed: int, seat: int,
          budget: searching.Budget) -> tuple[list[tuple[float, float]], list[tuple[float, bool]]]:
    """One duplicate deal (a worker's job): (smart's, the expert's) result for each game or hand
    of it, and the expert's decision times."""
    if kind == "dubb":
        from bot.games.dubb.search import SEARCH as rules
    else:
        from bot.games.tonk.search import SEARCH as rules
    times: list[tuple[float, bool]] = []

    def expert_factory() -> _TimedExpert:
        return _TimedExpert(rules, budget, times=times)

    if kind == "dubb":
        pairs = [_dubb_duplicate(deal_seed, seat, expert_factory())]
    else:
        pairs = _tonk_duplicate(deal_seed, seat, expert_factory)
    return [(float(a), float(b)) for a, b in pairs], times


def _deals(kind: str, seed: int, budget: searching.Budget, jobs: int,
           more: Callable[[], bool]) -> Iterator[tuple[list[tuple[float, float]],
                                                       list[tuple[float, bool]]]]:
    """The duplicate deals' results in deal order while ``more()``, run on ``jobs`` processes:
    each deal's seed and seat come from ``seed`` alone, so any ``jobs`` gives the same figures
    for the same number of deals."""
    master = random.Random(seed)
    players = EXPERT_SEATS[kind]

    def job(deal: int) -> tuple[str, int, int, searching.Budget]:
        return kind, master.getrandbits(62), deal % players, budget

    if jobs <= 1:
        deal = 0
        while more():
            yield _deal(*job(deal))
            deal += 1
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque[Future[Any]] = deque()
        deal = 0
        while True:
            while len(pending) < 2 * jobs and more():
                pending.append(pool.submit(_deal, *job(deal)))
                deal += 1
            if not pending:
                return
            yield pending.popleft().result()


def _expert(kind: str, count: int, seed: int, minutes: float, budget: searching.Budget,
            jobs: int) -> int:
    """One expert against smart players, by duplicate deals: see the module docstring."""
    times: list[tuple[float, bool]] = []
    players = EXPERT_SEATS[kind]
    expert, smart, diff = Mean(), Mean(), Mean()
    start = time.perf_counter()
    cpu = time.process_time()
    submitted = 0
    per_deal = 1 if kind == "dubb" else TONK_TABLE_HANDS

    def more() -> bool:
        nonlocal submitted
        if submitted * per_deal >= count or time.perf_counter() - start >= minutes * 60:
            return False
        submitted += 1
        return True

    for deal, (pairs, deal_times) in enumerate(_deals(kind, seed, budget, jobs, more), start=1):
        times += deal_times
        for plain, searched in pairs:
            smart.add(plain)
            expert.add(searched)
            diff.add(searched - plain)
        if kind == "tonk" or deal % 20 == 0:
            print(f"{kind}: {expert.n} expert {expert.mean:.4f} ± {expert.half_width:.4f}, "
                  f"smart in the same seat {smart.mean:.4f} ± {smart.half_width:.4f}, "
                  f"expert − smart {diff.mean:+.4f} ± {diff.half_width:.4f}, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    cpus = sorted(t for t, _ in times)
    unit = "loss rate" if kind == "dubb" else "chips/hand"
    fair = 1 / players if kind == "dubb" else 0.0

    def q(p: float) -> float:
        return cpus[min(len(cpus) - 1, int(p * len(cpus)))] * 1000 if cpus else 0.0

    print("| game | seats | deals | expert (95% CI) | smart, same deals and seat (95% CI) "
          "| expert − smart, paired (95% CI) | fair | searched decisions "
          "| CPU/decision p50 / p99 ms | cut by cap | budget |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {kind} ({unit}) | 1 expert + {players - 1} smart | {expert.n} "
          f"| {expert.mean:.4f} ± {expert.half_width:.4f} | {smart.mean:.4f} ± "
          f"{smart.half_width:.4f} | {diff.mean:+.4f} ± {diff.half_width:.4f} | {fair:.4f} "
          f"| {len(cpus)} | {q(0.5):.1f} / {q(0.99):.1f} "
          f"| {sum(c for _, c in times) / max(len(times), 1):.1%} "
          f"| {budget.iterations} rollouts, {budget.seconds * 1000:.0f} ms |")
    print(f"\n    CPU {time.process_time() - cpu:.0f} s in this process; "
          f"python scripts/strength.py --expert {kind} "
          f"--{'games' if kind == 'dubb' else 'hands'} {expert.n} --seed {seed} "
          f"--iterations {budget.iterations} --cpu-ms {budget.seconds * 1000:.0f}")
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="Dubb games per comparison")
    p.add_argument("--hands", type=int, default=10_000, help="Tonk hands per comparison")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int,
                   help="comparisons run in parallel (default 2); with --expert, deals (default 1)")
    p.add_argument("--quick", action="store_true", help="1000 games and hands (a smoke run)")
    p.add_argument("--expert", choices=("dubb", "tonk"),
                   help="measure one expert against smart players instead")
    p.add_argument("--minutes", type=float, default=float("inf"),
                   help="--expert: stop after the part that passes this many minutes")
    p.add_argument("--iterations", type=int, default=searching.Budget().iterations,
                   help="--expert: rollouts per decision")
    p.add_argument("--cpu-ms", type=float, default=searching.Budget().seconds * 1000,
                   help="--expert: CPU cap per decision")
    args = p.parse_args(argv)
    if args.expert:
        return _expert(args.expert, args.games if args.expert == "dubb" else args.hands,
                       args.seed, args.minutes,
                       searching.Budget(args.iterations, args.cpu_ms / 1000), args.jobs or 1)
    games, hands = (1000, 1000) if args.quick else (args.games, args.hands)
    with ProcessPoolExecutor(max_workers=args.jobs or 2) as pool:
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
