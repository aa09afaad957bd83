"""How good the expert's own moves are (not a test): every move it would play instead of smart's,
weighed again on many common worlds.

    .venv/bin/python scripts/deviations.py dubb|tonk [--decisions N] [--iterations I]
        [--worlds W] [--seed S]

Smart players play (Dubb: games of four; Tonk: one table of three); at each of seat 1's decisions
with a choice the expert searches with ``--iterations`` playouts, and where it picks another move
than smart's, that move and smart's are played again on ``--worlds`` fresh worlds of the same
information set, the same world and random numbers for both. The mean of those differences is
the move's advantage as the search's own model (its worlds and smart playouts) sees it, with far
less noise than the search had: if the chosen moves are not better there, the search picks noise.
Far cheaper than games (``scripts/strength.py --expert``), which alone show real strength.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.gamekit import search as searching
from bot.gamekit.contract import Seat


def _dubb_positions(seed: int) -> Iterator[tuple[Any, Any]]:
    """(seat 1's view, its information) at each of its decisions with a choice."""
    from bot.games.dubb import DubbEngine, DubbOptions, event_to_dict, seat_form
    from bot.games.dubb.search import SEARCH
    from bot.games.dubb.smart import smart_strategy

    game_seed = seed
    while True:
        seats = [Seat(i + 1, f"P{i + 1}") for i in range(4)]
        game = DubbEngine.new(seats, DubbOptions(), game_seed)
        memory = SEARCH.memory()
        rng = random.Random(game_seed)
        while not game.is_over:
            player = game.to_move
            assert player is not None
            view = game.observe(player)
            if player == 1 and len(view.legal_moves) > 1:
                yield view, SEARCH.information(view, memory)
            events = game.apply(player, smart_strategy(view, rng))
            memory.remember([seat_form(event_to_dict(e), 1) for e in events])
        game_seed += 1


def _tonk_positions(seed: int) -> Iterator[tuple[Any, Any]]:
    from bot.games.tonk import DealNextHand, TonkEngine, TonkOptions, event_to_dict, seat_form
    from bot.games.tonk.players import SmartStrategy
    from bot.games.tonk.search import SEARCH
    from bot.games.tonk.terms import HAND_OVER

    seats = [Seat(i + 1, f"P{i + 1}") for i in range(3)]
    table = TonkEngine.new(seats, TonkOptions(), seed)
    players = {s.player_id: SmartStrategy() for s in seats}
    rngs = {p: random.Random(seed * 7919 + p) for p in players}
    memory = SEARCH.memory()

    def show(events: list[Any]) -> None:
        stored = [event_to_dict(e) for e in events]
        for p, player in players.items():
            player.remember([seat_form(e, p) for e in stored])
        memory.remember([seat_form(e, 1) for e in stored])

    show(list(table.opening_events))
    while True:
        if table.phase is HAND_OVER:
            show(table.apply(1, DealNextHand()))
            continue
        pid = table.to_move
        assert pid is not None
        view = table.observe(pid)
        if pid == 1 and len(view.legal) > 1:
            yield view, SEARCH.information(view, memory)
        show(table.apply(pid, players[pid].choose(view, rngs[pid])))


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=("dubb", "tonk"))
    p.add_argument("--decisions", type=int, default=150)
    p.add_argument("--iterations", type=int, default=searching.Budget().iterations)
    p.add_argument("--worlds", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.game == "dubb":
        from bot.games.dubb.search import SEARCH as rules
        positions = _dubb_positions(args.seed)
    else:
        from bot.games.tonk.search import SEARCH as rules
        positions = _tonk_positions(args.seed)
    budget = searching.Budget(args.iterations, 3600.0)
    weighed: list[float] = []
    kinds: Counter[str] = Counter()
    cpus: list[float] = []
    for n, (_, info) in enumerate(positions):
        if n >= args.decisions:
            break
        decision = searching.search(rules, info, args.seed * 100_003 + n, budget)
        cpus.append(decision.cpu)
        if decision.move == decision.baseline:
            continue
        chosen = next(e for e in decision.estimates if e.move == decision.move)
        rng = random.Random(args.seed ^ n)
        total = squares = 0.0
        for _ in range(args.worlds):
            world_seed = rng.getrandbits(64)
            a, b = (rules.rollout(info, rules.world(info, random.Random(world_seed)), move,
                                  random.Random(world_seed ^ 0x5DEECE66D))
                    for move in (decision.move, decision.baseline))
            total += a - b
            squares += (a - b) ** 2
        mean = total / args.worlds
        error = math.sqrt(max(squares / args.worlds - mean * mean, 0.0) / args.worlds)
        kind = f"{type(decision.baseline).__name__} → {type(decision.move).__name__}"
        kinds[kind] += 1
        weighed.append(mean)
        print(f"{kind}: searched {chosen.advantage:+.3f} ± {chosen.error:.3f} on "
              f"{decision.worlds} worlds, weighed again {mean:+.3f} ± {error:.3f}", flush=True)
    cpus.sort()
    print(f"{len(cpus)} decisions, {len(weighed)} other moves than smart's, worth "
          f"{sum(weighed) / max(len(weighed), 1):+.4f} each on average ({sum(weighed):+.3f} in "
          f"all); CPU p50 {cpus[len(cpus) // 2] * 1000:.0f} ms, p99 "
          f"{cpus[int(0.99 * len(cpus))] * 1000:.0f} ms; {dict(kinds)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
