"""``python -m bot.sim dubb``: play many Dubb games headlessly, check invariants, report.

Every game is dealt from a seed drawn from ``--seed``, and the strategies draw on a seeded random
source of that game, so a run is reproducible. ``--strategy`` puts one strategy in every seat;
``--strategies smart,greedy`` seats several, cycled to fill the table (S G S G at four seats) and
reseated every game through all distinct seatings, so that seat advantage cancels out. The
report gives each strategy's loss rate (losses per seat played) with a 95% confidence interval,
and the difference between each pair of strategies, from per-game values (``bot.sim.stats``).

After every move the simulator checks the engine's invariants and that the turn went to the
right seat: the next seat holding cards after the mover, or the mover again after aces (D7). The
invariants are checked in full (no card twice, every card of the packs somewhere, statuses
consistent, D6/D7 settled) at the deal, at least every ``FULL_CHECK_EVERY`` moves and after the
last move of every game, and by the engine's cheap ``check_quick`` (cards counted, statuses,
D6/D7) after the other moves. ``--no-checks`` skips all of it for a pure speed figure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bot.cards import ACE
from bot.gamekit.contract import RuleError, Seat, Strategy
from bot.games.dubb import MOVE_CAP, DubbEngine, DubbOptions, Played, event_to_dict, seat_form
from bot.games.dubb.players import STRATEGIES
from bot.sim.checks import FULL_CHECK_EVERY
from bot.sim.stats import Mean, lineups


@dataclass
class StrategyTally:
    """One strategy's seats and losses; ``rate`` has one value per game: the share of the
    strategy's seats in that game that lost."""

    seats: int = 0
    losses: int = 0
    rate: Mean = field(default_factory=Mean)


@dataclass
class SimStats:
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    cap_hits: int = 0
    invariant_violations: int = 0
    max_moves_in_game: int = 0
    losses_by_seat: list[int] = field(default_factory=list)
    end_reasons: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    by_strategy: dict[str, StrategyTally] = field(default_factory=dict)
    differences: dict[tuple[str, str], Mean] = field(default_factory=dict)
    lineup: tuple[str, ...] = ()
    seatings: int = 1

    def violation(self, game_no: int, move_no: int, problem: str) -> None:
        self.invariant_violations += 1
        if len(self.examples) < 10:
            self.examples.append(f"game {game_no}, move {move_no}: {problem}")


def play_game(
    game: DubbEngine, strategy: Strategy | Sequence[Strategy], rng: random.Random, stats: SimStats,
    game_no: int, checks: bool, names: Sequence[str] = (),
) -> None:
    """Play ``game`` to its end with ``strategy`` in every seat (or one strategy per seat, in
    seat order), recording into ``stats``; ``names`` names the seats' strategies for the
    per-strategy tallies."""
    ids = [s.player_id for s in game.seats]
    n = len(ids)
    by_seat: Sequence[Strategy] = strategy if isinstance(strategy, Sequence) else [strategy] * n
    seat_of = {pid: i for i, pid in enumerate(ids)}
    # an observation is a live window on the game, so each seat's serves the whole game
    deciders = {pid: (by_seat[i].choose, game.observe(pid)) for i, pid in enumerate(ids)}
    # the players that remember are shown every event as their seat saw it
    watchers = [(pid, by_seat[i]) for i, pid in enumerate(ids) if by_seat[i].remembers]
    moves = 0
    if checks:
        for problem in game.check_invariants():
            stats.violation(game_no, 0, problem)
    player = game.to_move
    while player is not None:
        choose, view = deciders[player]
        move = choose(view, rng)
        try:
            events = game.apply(player, move)
        except RuleError as e:
            stats.violation(game_no, moves, f"strategy chose a move the engine refused: {e}")
            return
        moves += 1
        if watchers:
            stored = [event_to_dict(e) for e in events]
            for pid, watcher in watchers:
                watcher.remember([seat_form(e, pid) for e in stored])
        to_move = game.to_move
        if checks:
            full = to_move is None or moves % FULL_CHECK_EVERY == 0
            for problem in game.check_invariants() if full else game.check_quick():
                stats.violation(game_no, moves, problem)
            if to_move is not None:
                problem = _turn_order_problem(game, seat_of, n, player, to_move, events)
                if problem:
                    stats.violation(game_no, moves, problem)
        if moves > MOVE_CAP:
            stats.violation(game_no, moves, "the game did not end at the move cap (D13)")
            return
        player = to_move
    result = game.result
    assert result is not None
    stats.games += 1
    stats.moves += moves
    stats.max_moves_in_game = max(stats.max_moves_in_game, moves)
    stats.end_reasons[result.reason] += 1
    if result.reason == "cap":
        stats.cap_hits += 1
    loser_seat = ids.index(result.loser)
    stats.losses_by_seat[loser_seat] += 1
    if names:
        _tally(stats, names, loser_seat)


def _tally(stats: SimStats, names: Sequence[str], loser_seat: int) -> None:
    rates: dict[str, float] = {}
    for name in dict.fromkeys(names):
        seats = names.count(name)
        lost = int(names[loser_seat] == name)
        tally = stats.by_strategy.setdefault(name, StrategyTally())
        tally.seats += seats
        tally.losses += lost
        rates[name] = lost / seats
        tally.rate.add(rates[name])
    for a, b in combinations(sorted(rates), 2):
        stats.differences.setdefault((a, b), Mean()).add(rates[a] - rates[b])


def _turn_order_problem(
    game: DubbEngine, seat_of: dict[int, int], n: int, mover: int, to_move: int, events: list[Any]
) -> str | None:
    """The turn goes to the next seat holding cards (pending and out seats are skipped, D10),
    or back to the mover after aces while they still hold cards (D7)."""
    s, t = seat_of[mover], seat_of[to_move]
    sizes: list[int] | None = None
    for e in events:
        if type(e) is Played and e.rank == ACE and e.player == mover:
            sizes = game.hand_sizes()
            if sizes[s]:
                return None if t == s else "the turn left the player who played aces (D7)"
            break
    gap = (t - s) % n or n
    if gap > 1:
        sizes = sizes or game.hand_sizes()
        for i in range(1, gap):
            if sizes[(s + i) % n]:
                return f"the turn went from seat {s} to seat {t}, skipping a seat holding cards"
    return None


def run(
    games: int, players: int, seed: int, strategy_name: str, options: DubbOptions, checks: bool,
    strategies: Sequence[str] = (),
) -> SimStats:
    """Play ``games`` games: ``strategy_name`` in every seat, or, when ``strategies`` names
    some, those strategies cycled to fill the seats and reseated every game (see ``lineups``)."""
    seatings = lineups(strategies or [strategy_name], players)
    stats = SimStats(losses_by_seat=[0] * players, lineup=seatings[0], seatings=len(seatings))
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(players)]
    master = random.Random(seed)
    start = time.perf_counter()
    for game_no in range(games):
        names = seatings[game_no % len(seatings)]
        game = DubbEngine.new(seats, options, master.getrandbits(63))
        play_game(game, [STRATEGIES[name]() for name in names],
                  random.Random(master.getrandbits(63)), stats, game_no, checks, names)
    stats.seconds = time.perf_counter() - start
    return stats


def summary(stats: SimStats, args: argparse.Namespace, options: DubbOptions) -> dict[str, Any]:
    played = max(stats.games, 1)
    return {
        "games": stats.games,
        "moves": stats.moves,
        "seconds": round(stats.seconds, 3),
        "moves_per_second": round(stats.moves / stats.seconds) if stats.seconds else 0,
        "cap_hits": stats.cap_hits,
        "cap_hit_rate": round(stats.cap_hits / played, 5),
        "invariant_violations": stats.invariant_violations,
        "invariant_checks": args.checks,
        "mean_moves_per_game": round(stats.moves / played, 2),
        "max_moves_in_game": stats.max_moves_in_game,
        "losses_by_seat": stats.losses_by_seat,
        "end_reasons": dict(stats.end_reasons),
        "violation_examples": stats.examples,
        "players": args.players,
        "strategy": args.strategy,
        "strategies": {
            name: {
                "seats": t.seats,
                "losses": t.losses,
                "loss_rate": round(t.rate.mean, 5),
                "ci95": t.rate.ci95(),
            }
            for name, t in sorted(stats.by_strategy.items())
        },
        "strategy_differences": [
            {"strategies": [a, b], "loss_rate_difference": round(d.mean, 5), "ci95": d.ci95()}
            for (a, b), d in sorted(stats.differences.items())
        ],
        "even_loss_rate": round(1 / args.players, 5),
        "seatings": stats.seatings,
        "seed": args.seed,
        "options": options.model_dump(),
    }


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bot.sim dubb", description="Play Dubb games headlessly and check them."
    )
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--strategy", choices=sorted(STRATEGIES), default="random",
                   help="the strategy of every seat")
    p.add_argument("--strategies", type=_strategy_list, default=(),
                   help="comma-separated strategies, cycled to fill the seats and reseated every "
                        "game (smart,greedy or smart,greedy,greedy,greedy); overrides --strategy")
    p.add_argument("--decks", type=int, choices=(1, 2), default=1)
    p.add_argument("--jokers", action="store_true")
    p.add_argument("--hand-limit", action="store_true")
    p.add_argument("--last-player-draw", action="store_true",
                   help="last-player draw-and-play (D12)")
    p.add_argument("--cards-each", type=int, default=None)
    p.add_argument("--no-checks", dest="checks", action="store_false",
                   help="skip the invariant checks (for a pure speed figure)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p.parse_args(argv)


def _strategy_list(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(","))
    unknown = [n for n in names if n not in STRATEGIES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown strategy {unknown[0]!r}; choose from {', '.join(sorted(STRATEGIES))}")
    return names


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    options = DubbOptions(
        decks=args.decks,
        jokers=args.jokers,
        hand_limit=args.hand_limit,
        last_player_draw_play=args.last_player_draw,
        cards_each=args.cards_each,
    )
    try:
        options.effective_cards_each(args.players)
    except RuleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    if len(args.strategies) > args.players:
        print(f"error: --strategies names more strategies than the {args.players} seats",
              file=sys.stderr)
        return 2
    stats = run(args.games, args.players, args.seed, args.strategy, options, args.checks,
                args.strategies)
    out = summary(stats, args, options)
    if args.json:
        print(json.dumps(out))
    else:
        who = (",".join(args.strategies) + " strategies" if args.strategies
               else f"{args.strategy} strategy")
        print(f"Dubb: {out['games']} games, {args.players} players, {who}, "
              f"{options.summary()}, seed {args.seed}")
        print(f"  moves {out['moves']} in {out['seconds']} s = {out['moves_per_second']} moves/s "
              f"(invariant checks {'on' if args.checks else 'off'})")
        print(f"  mean moves per game {out['mean_moves_per_game']}, "
              f"longest {out['max_moves_in_game']}")
        print(f"  cap hits (D13) {out['cap_hits']} ({out['cap_hit_rate']:.2%})")
        print(f"  losses by seat {out['losses_by_seat']}")
        if args.strategies:
            print(f"  loss rate per seat (an even share is {out['even_loss_rate']:.4f}), "
                  f"95% confidence intervals, over {out['seatings']} seatings:")
            for name, t in out["strategies"].items():
                lo, hi = t["ci95"]
                print(f"    {name:<8} {t['loss_rate']:.4f}  [{lo:.4f}, {hi:.4f}]  "
                      f"({t['losses']} losses in {t['seats']} seats)")
            for d in out["strategy_differences"]:
                lo, hi = d["ci95"]
                a, b = d["strategies"]
                print(f"    {a} − {b}: {d['loss_rate_difference']:+.4f}  [{lo:+.4f}, {hi:+.4f}]")
        print(f"  invariant violations {out['invariant_violations']}")
        for example in stats.examples:
            print(f"    {example}")
    return 1 if stats.invariant_violations else 0
